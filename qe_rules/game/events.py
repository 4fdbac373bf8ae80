"""The history of a game as typed records.

``Game.events`` holds every event of the game in order and ``Game.last_events`` those of
the last move. These are the referee's record: they include secret bids, so never send
them to a player. ``Game.events_for(seat)`` is the history as one seat may know it, and
``Game.public_events()`` as a spectator may: there a secret amount is ``None``.
``to_dict()`` gives JSON types and ``Event.from_dict()`` reads them back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final

import attrs

from qe_rules._util.reading import (
    MAX_PLAYERS,
    Fields,
    agree,
    at_most,
    fail,
    flag,
    listed,
    one_of,
    text,
    whole,
)
from qe_rules.components import COMPANIES, Company
from qe_rules.game.sales import UNSOLD_REASONS
from qe_rules.limits import MAX_BID

__all__ = [
    "Awarded",
    "Event",
    "GameEnded",
    "NotAwarded",
    "OpeningBid",
    "PeekDeclined",
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

    @staticmethod
    def from_dict(data: Any) -> Event:
        """Read the output of :meth:`to_dict`, of any kind; raises
        :class:`~qe_rules.InvalidArgument` naming the key that is missing, unknown or wrong.

        >>> event = SecretBid(sale=0, seat=2, amount=None, rebid=0)
        >>> Event.from_dict(event.to_dict()) == event
        True
        """
        kind = data.get("kind") if isinstance(data, Mapping) else None
        cls = _KINDS.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise fail("event.kind", "one of " + ", ".join(map(repr, _KINDS)), kind)
        names = [field.name for field in attrs.fields(cls)]
        fields = Fields(data, f"{kind} event", ["kind", *names])
        readers = _READERS_OF.get(cls.kind, _READERS)
        event = cls(**{name: fields.get(name, readers[name]) for name in names})
        _check_event(event, f"{kind} event")
        return event


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
    """A secret bid; ``rebid`` is 0 for a first bid and 1, 2, ... for rebids after ties.
    ``amount`` is ``None`` for someone who may not know it."""

    kind: ClassVar[str] = "secret-bid"
    sale: int
    seat: int
    amount: int | None
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
    ``fallback`` when the tie fallback decided the sale. ``amount`` is ``None`` for
    someone who may not know it.
    """

    kind: ClassVar[str] = "awarded"
    sale: int
    company: Company
    seat: int
    amount: int | None
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
    """``seat`` used a peek to see the winning amount of ``sale`` (``None`` for everyone
    else)."""

    kind: ClassVar[str] = "peeked"
    sale: int
    seat: int
    amount: int | None


@attrs.frozen
class PeekDeclined(Event):
    """``seat``, in the peek window of ``sale``, chose not to peek."""

    kind: ClassVar[str] = "peek-declined"
    sale: int
    seat: int


@attrs.frozen
class GameEnded(Event):
    """The deck is empty; the game is over."""

    kind: ClassVar[str] = "game-ended"
    sales: int


_KINDS: Final[dict[str, type[Event]]] = {
    cls.kind: cls
    for cls in (
        SaleOpened,
        OpeningBid,
        SecretBid,
        Tie,
        Awarded,
        NotAwarded,
        ZeroBids,
        Peeked,
        PeekDeclined,
        GameEnded,
    )
}
"""Every kind of event, by the ``kind`` its ``to_dict()`` writes."""

_seat = at_most(MAX_PLAYERS - 1, "a game has at most 5 seats")
_amount = at_most(MAX_BID, "qe_rules.limits.MAX_BID")
_sale_number = at_most(len(COMPANIES) * 3, "a deck has at most 63 tiles")


def _optional(read: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    return lambda value, where: None if value is None else read(value, where)


def _seats(value: Any, where: str) -> tuple[int, ...]:
    return listed(value, where, _seat)


_READERS: Final[dict[str, Callable[[Any, str], Any]]] = {
    "sale": _sale_number,
    "round": _sale_number,
    "company": one_of({str(c): c for c in COMPANIES}, "a tile code such as 'US-FIN-2'"),
    "auctioneer": _optional(_seat),
    "seat": _seat,
    "amount": _optional(_amount),
    "rebid": whole,
    "seats": _seats,
    "ties": whole,
    "public": flag,
    "fallback": flag,
    "reason": text,
    "scoring": _seats,
    "sales": _sale_number,
}
"""How each field of an event is read from JSON (the fields of every kind share names)."""

_READERS_OF: Final = {OpeningBid.kind: {**_READERS, "amount": _amount}}
"""The kinds that read a field otherwise: an opening bid's amount is always known."""


def _check_event(event: Event, where: str) -> None:
    """Check that an event read from data agrees with itself, as the engine writes it:
    seats named once each and in order, a tie of ties in a row, a public amount known,
    an unsold tile's reason one of the engine's."""
    for name in ("seats", "scoring"):
        seats = getattr(event, name, None)
        if seats is not None:
            agree(
                list(seats) == sorted(set(seats)),
                f"{where}.{name}",
                "names each seat once, in order",
            )
    if isinstance(event, Tie):
        agree(bool(event.seats) and event.ties >= 1, where, "a tie has seats and counts itself")
    elif isinstance(event, ZeroBids):
        agree(
            set(event.scoring) <= set(event.seats),
            f"{where}.scoring",
            "the seats that score are among the seats that bid zero",
        )
    elif isinstance(event, Awarded):
        agree(
            not event.public or event.amount is not None,
            f"{where}.amount",
            "a public amount is known to everyone",
        )
    elif isinstance(event, NotAwarded):
        agree(
            event.reason in UNSOLD_REASONS,
            f"{where}.reason",
            f"is one of {', '.join(UNSOLD_REASONS)}, got {event.reason!r}",
        )
