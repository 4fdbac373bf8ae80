"""The history of a game as typed records.

``Game.events`` holds every event of the game in order and ``Game.last_events`` those of
the last move. Events are the referee's record: they include secret bids and tokens, so
never send them to a player; send ``Game.view(seat)`` instead.
"""

from __future__ import annotations

from typing import Any, ClassVar

import attrs

from qe_rules.components import Company

__all__ = [
    "Awarded",
    "Event",
    "GameEnded",
    "NotAwarded",
    "OpeningBid",
    "Peeked",
    "SaleOpened",
    "SecretBid",
    "Tie",
    "ZeroBids",
]


@attrs.frozen
class Event:
    """Base class of all events; ``kind`` names the event type in ``to_dict()``."""

    kind: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON types, with its ``kind``."""
        data: dict[str, Any] = {"kind": self.kind}
        for field in attrs.fields(type(self)):
            value = getattr(self, field.name)
            if isinstance(value, Company):
                value = str(value)
            elif isinstance(value, tuple):
                value = list(value)
            data[field.name] = value
        return data


@attrs.frozen
class SaleOpened(Event):
    """A sale begins: ``company`` is revealed; ``auctioneer`` is ``None`` on a last tile
    sold without auctioneer."""

    kind: ClassVar[str] = "sale-opened"
    sale: int
    round: int
    company: Company
    auctioneer: int | None


@attrs.frozen
class OpeningBid(Event):
    """The auctioneer's public opening bid."""

    kind: ClassVar[str] = "opening-bid"
    sale: int
    seat: int
    amount: int


@attrs.frozen
class SecretBid(Event):
    """A secret bid; ``rebid`` is 0 for a first bid and 1, 2, ... for rebids after ties."""

    kind: ClassVar[str] = "secret-bid"
    sale: int
    seat: int
    amount: int
    rebid: int


@attrs.frozen
class Tie(Event):
    """A tie for the highest bid: ``seats`` rebid (``ties`` counts ties in a row)."""

    kind: ClassVar[str] = "tie"
    sale: int
    seats: tuple[int, ...]
    ties: int


@attrs.frozen
class Awarded(Event):
    """The company goes to ``seat`` for ``amount``.

    ``public`` is true when the amount is written openly (the auctioneer won);
    ``fallback`` when the tie fallback decided the sale.
    """

    kind: ClassVar[str] = "awarded"
    sale: int
    company: Company
    seat: int
    amount: int
    public: bool
    fallback: bool


@attrs.frozen
class NotAwarded(Event):
    """Nobody gets the company. ``reason`` is ``"last-tile-tie"`` or a rule-gap code."""

    kind: ClassVar[str] = "not-awarded"
    sale: int
    company: Company
    reason: str


@attrs.frozen
class ZeroBids(Event):
    """Zero bids revealed at the end of a sale; ``scoring`` are the seats that score."""

    kind: ClassVar[str] = "zero-bids"
    sale: int
    round: int
    seats: tuple[int, ...]
    scoring: tuple[int, ...]


@attrs.frozen
class Peeked(Event):
    """``seat`` used a peek to see the winning amount of ``sale``."""

    kind: ClassVar[str] = "peeked"
    sale: int
    seat: int
    amount: int


@attrs.frozen
class GameEnded(Event):
    """The deck is empty; the game is over."""

    kind: ClassVar[str] = "game-ended"
    sales: int
