"""What one player may know: :class:`PlayerView` and :class:`SaleView`.

``Game.view(seat)`` builds a view from the public state and that seat's own knowledge
only; a view holds no reference to the game. ``to_dict()`` gives JSON types, ready to send
to a client.

Public to everyone: the rule set, seats and nations, the companies each seat won, the
current company, how many tiles remain (not their order), opening bids, ties and who is
tied, winners, zero bids where they are revealed (4-5 players), who used a peek, and the
amount when the auctioneer won. Known only to the seat: its industry token, its own bids
and spend, every bid of a sale it ran (once a bidding round is complete), the amounts of
the companies it won, and an amount it peeked at. At the end of the game the scoring is
public: every token, spend and score sheet.
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

from qe_rules.components import Company, Industry, Nation
from qe_rules.sales import BidLimits
from qe_rules.scoring import GameResult

__all__ = ["Phase", "PlayerView", "SaleView"]


class Phase(enum.Enum):
    """Where the current sale stands."""

    OPENING = "opening"
    """Waiting for the auctioneer's opening bid."""
    BIDDING = "bidding"
    """Waiting for first secret bids (on a last tile without auctioneer: everyone's)."""
    REBIDDING = "rebidding"
    """Waiting for rebids after a tie."""
    OVER = "over"
    """The deck is empty."""


class SaleView(NamedTuple):
    """A finished sale as one seat knows it.

    ``amount`` is ``None`` when the seat may not know it (or nobody won); ``bids`` holds
    every bid by bidding round, as ``(seat, amount)``, only for the seat that ran the sale.
    """

    sale: int
    round: int
    company: Company
    auctioneer: int | None
    opening_bid: int | None
    ties: tuple[tuple[int, ...], ...]
    winner: int | None
    amount: int | None
    reason: str | None
    zero_bidders: tuple[int, ...]
    my_bids: tuple[int, ...]
    bids: tuple[tuple[tuple[int, int], ...], ...]
    peeked: bool

    def to_dict(self) -> dict[str, Any]:
        """The sale as JSON types."""
        return {
            "sale": self.sale,
            "round": self.round,
            "company": str(self.company),
            "auctioneer": self.auctioneer,
            "opening_bid": self.opening_bid,
            "ties": [list(t) for t in self.ties],
            "winner": self.winner,
            "amount": self.amount,
            "reason": self.reason,
            "zero_bidders": list(self.zero_bidders),
            "my_bids": list(self.my_bids),
            "bids": [[list(bid) for bid in rnd] for rnd in self.bids],
            "peeked": self.peeked,
        }


class PlayerView(NamedTuple):
    """Everything ``seat`` may know about the game now (an immutable record).

    Seats, sales and rounds count from 0. The fields up to ``result`` are public, the same
    for every seat; the rest are the seat's own. ``limits`` is set when the seat is to bid:
    the smallest legal amount and an amount it may not bid (the opening bid, where the
    rule set forbids equalling it). ``seen_bids`` holds the completed bidding rounds of the
    current sale when this seat runs it. ``industries`` and ``result`` are set once the game
    is over.
    """

    ruleset: str
    players: int
    nations: tuple[Nation, ...]
    first_auctioneer: int
    sales: int
    sale: int
    round: int
    phase: Phase
    auctioneer: int | None
    company: Company | None
    remaining: int
    to_act: frozenset[int]
    opening_bid: int | None
    tied: tuple[int, ...]
    ties: int
    holdings: tuple[tuple[Company, ...], ...]
    zero_bid_rounds: tuple[int, ...]
    peeks_used: tuple[int, ...]
    industries: tuple[Industry, ...] | None
    result: GameResult | None
    seat: int
    industry: Industry
    spent: int
    my_bids: tuple[int, ...]
    seen_bids: tuple[tuple[tuple[int, int], ...], ...]
    limits: BidLimits | None
    can_peek: bool
    history: tuple[SaleView, ...]

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is Phase.OVER

    def _repr_svg_(self) -> str:
        from qe_rules import svg  # on first display, as chess.Board does

        return svg.view(self)

    def _repr_html_(self) -> str:
        return f'<div class="qe-rules">{self._repr_svg_()}</div>'

    @property
    def to_bid(self) -> bool:
        """Whether this seat's bid is awaited."""
        return self.seat in self.to_act

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON types only (dict, list, str, int, bool, None)."""
        return {
            "seat": self.seat,
            "ruleset": self.ruleset,
            "players": self.players,
            "nations": [n.code for n in self.nations],
            "industry": self.industry.name,
            "first_auctioneer": self.first_auctioneer,
            "sales": self.sales,
            "sale": self.sale,
            "round": self.round,
            "phase": self.phase.value,
            "auctioneer": self.auctioneer,
            "company": None if self.company is None else str(self.company),
            "remaining": self.remaining,
            "to_act": sorted(self.to_act),
            "opening_bid": self.opening_bid,
            "tied": list(self.tied),
            "ties": self.ties,
            "my_bids": list(self.my_bids),
            "seen_bids": [[list(bid) for bid in rnd] for rnd in self.seen_bids],
            "limits": None
            if self.limits is None
            else {"minimum": self.limits.minimum, "forbidden": self.limits.forbidden},
            "holdings": [[str(c) for c in held] for held in self.holdings],
            "spent": self.spent,
            "zero_bid_rounds": list(self.zero_bid_rounds),
            "peeks_used": list(self.peeks_used),
            "can_peek": self.can_peek,
            "history": [sale.to_dict() for sale in self.history],
            "industries": None if self.industries is None else [i.name for i in self.industries],
            "result": None if self.result is None else self.result.to_dict(),
        }
