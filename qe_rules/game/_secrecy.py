"""Every secrecy decision of the engine: what a seat, or a spectator, may know.

``Game.view``, ``Game.public_view``, the histories of finished sales and
``Game.events_for`` / ``Game.public_events`` all ask this module, so that a view and an
event stream cannot disagree about who knows what. The decisions:

- A seat knows its own bids and its industry token; every token is shown at the end
  (:func:`shown_industries`).
- The bids of a sale (:func:`seen_rounds`): its auctioneer sees the first bids under every
  reading of ``rebid_visibility``, and the rebids too unless it is ``first-bids``; under
  ``tied-players`` the seats that rebid also see one another's rebids. In the event stream
  a seat gets the bids it sees when their bidding round is complete, just before the
  round's outcome.
- The winning amount of a sale: known when it is public (the auctioneer won it and the
  rules make that public), to its winner, and to its auctioneer, who writes it on the
  tile (:func:`knows_amount`); a spectator knows public amounts only.
- A peek shows the peeker what ``peek_shows`` says (:func:`peek_amount`,
  :func:`after_peek`): the winning amount, the highest standing bid (which differs from
  it after a tie fallback), the highest bid made in the sale (which differs from it after
  any tie a rebid won for less), or, a house rule, every bid of the sale as well. The
  seat's view of the sale keeps what the peek showed (``SaleView.peeked_amount``).
- **A peek does not rewrite the event stream** (:data:`STREAM_REVEALS_PEEKS_IN_PEEKED_ONLY`):
  a stream is append-only, so the peeker learns the amount from its own ``Peeked`` event,
  and the sale's earlier ``SecretBid`` and ``Awarded`` events keep ``amount=None``. Under
  ``peek_shows=all-bids`` the view after a peek therefore shows bids that the stream never
  shows: the view is what the seat knows now; the stream is what it was told, move by
  move. ``tests/game/test_secrecy.py`` checks the exact relation for every reading.

See ``docs/design/engine.md`` (where the secrecy rules live).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Final, Protocol

from qe_rules.components import Industry
from qe_rules.game.events import (
    Awarded,
    Event,
    NotAwarded,
    Peeked,
    SaleOpened,
    SecretBid,
    Tie,
)
from qe_rules.game.views import SaleView, make_sale_views
from qe_rules.rules.model import PeekShows, RebidVisibility, RuleSet

__all__ = [
    "STREAM_REVEALS_PEEKS_IN_PEEKED_ONLY",
    "FinishedSale",
    "after_peek",
    "by_seat",
    "known_events",
    "knows_amount",
    "peek_amount",
    "peek_shows_bids",
    "sale_views",
    "seen_rounds",
    "shown_industries",
    "spectator_amount",
]

Rounds = tuple[tuple[tuple[int, int], ...], ...]  # bidding rounds of (seat, amount) bids

STREAM_REVEALS_PEEKS_IN_PEEKED_ONLY: Final = True
"""The decision for event streams after a peek: what a peek shows reaches the peeker's
stream in its own ``Peeked`` event only (the winning amount). Earlier events of the peeked
sale are never rewritten, so under ``peek_shows=all-bids`` the stream shows less than the
view: ``view(seat).history[i].bids`` holds every bid, the stream's ``SecretBid`` events of
other seats keep ``amount=None``."""


class FinishedSale(Protocol):
    """What the redaction of a finished sale reads (the engine's ``_SaleFacts``)."""

    seats: int
    auctioneer: int | None
    winner: int | None
    amount: int | None
    public: bool
    closed: Rounds


def seen_rounds(
    seat: int | None, auctioneer: int | None, closed: Rounds, visibility: RebidVisibility
) -> Rounds:
    """The complete bidding rounds of a sale that ``seat`` (``None``: a spectator) sees
    besides its own bids, by round in seat order; a round it does not see is empty.

    The auctioneer sees the first bids under every reading and the rebids unless
    ``first-bids``; under ``tied-players`` a seat that rebid in a round sees that round.

    >>> rounds = (((0, 3), (1, 5), (2, 5)), ((1, 4), (2, 6)))
    >>> seen_rounds(0, 0, rounds, RebidVisibility.FIRST_BIDS)
    (((0, 3), (1, 5), (2, 5)),)
    >>> seen_rounds(1, 0, rounds, RebidVisibility.TIED_PLAYERS)
    ((), ((1, 4), (2, 6)))
    >>> seen_rounds(1, 0, rounds, RebidVisibility.AUCTIONEER)
    ()
    """
    if seat is None or not closed:
        return ()
    if seat == auctioneer:
        if visibility is RebidVisibility.FIRST_BIDS:
            return by_seat(closed[:1])
        return by_seat(closed)
    if visibility is not RebidVisibility.TIED_PLAYERS or len(closed) == 1:
        return ()
    seen = tuple(
        tuple(sorted(rnd)) if index and any(who == seat for who, _ in rnd) else ()
        for index, rnd in enumerate(closed)
    )
    return seen if any(seen) else ()


def knows_amount(
    seat: int | None, winner: int | None, auctioneer: int | None, public: bool
) -> bool:
    """May ``seat`` (``None``: a spectator) know the winning amount of a sale, without a
    peek? When it is public, when the seat won it, or when it ran the sale (it writes
    the amount on the tile, under every reading)."""
    return public or (seat is not None and seat in (winner, auctioneer))


def spectator_amount(sale: FinishedSale) -> int | None:
    """The winning amount of a finished sale as a spectator knows it."""
    return sale.amount if sale.public else None  # knows_amount(None, ...)


def peek_shows_bids(rules: RuleSet) -> bool:
    """Does a peek show every bid of the peeked sale (``peek_shows=all-bids``, a house
    rule), or one amount only?"""
    return rules.peek_shows is PeekShows.ALL_BIDS


def peek_amount(sale: FinishedSale, shows: PeekShows) -> int | None:
    """The amount a peek at ``sale`` shows: the highest standing bid under
    ``highest-bid``, the highest bid of any bidding round under ``highest-bid-made``, else
    the winning amount (``None`` when nobody won)."""
    if sale.winner is None:
        return sale.amount
    if shows is PeekShows.HIGHEST_BID_MADE:
        return max(amount for rnd in sale.closed for _, amount in rnd)
    if shows is not PeekShows.HIGHEST_BID:
        return sale.amount
    standing: dict[int, int] = {}
    for rnd in sale.closed:
        standing.update(rnd)
    return max(standing.values())


def shown_industries(industries: tuple[Industry, ...], over: bool) -> tuple[Industry, ...] | None:
    """The industry tokens every seat is shown: none until the game is over, then all."""
    return industries if over else None


def by_seat(rounds: Rounds) -> Rounds:
    """Bidding rounds with each round's ``(seat, amount)`` bids in seat order, as views
    show them (the engine keeps a round's bids in the order they came)."""
    if len(rounds) == 1:  # most sales: one round, without a comprehension's call
        return (tuple(sorted(rounds[0])),)
    return tuple([tuple(sorted(rnd)) for rnd in rounds])


def sale_views(sale: FinishedSale, shared: Any, visibility: RebidVisibility) -> list[SaleView]:
    """A finished sale as each seat knows it before any peek, seat by seat.

    :func:`knows_amount` and :func:`seen_rounds` applied to every seat at once (a sale
    ends once, and its views are made for every seat together): every seat its own bids,
    the amount where it is public, to the winner and to the auctioneer, and the bids each
    seat sees. ``shared`` holds the fields every seat's view shares.
    """
    seats, winner, amount, closed = sale.seats, sale.winner, sale.amount, sale.closed
    mine: list[tuple[int, ...]] = [()] * seats
    if len(closed) == 1:  # most sales: a seat bid at most once
        for who, bid in closed[0]:
            mine[who] = (bid,)
    else:
        for rnd in closed:
            for who, bid in rnd:
                mine[who] += (bid,)
    # knows_amount and seen_rounds, written out for every seat at once (a call each
    # would cost a sale's views a tenth more; tests/properties/test_secrecy.py checks the
    # views against the two predicates for every reading)
    amounts = [amount if sale.public else None] * seats
    if winner is not None:
        amounts[winner] = amount
    bids: list[Rounds] = [()] * seats
    auctioneer = sale.auctioneer
    if auctioneer is not None:
        amounts[auctioneer] = amount
        bids[auctioneer] = by_seat(closed)
    if len(closed) > 1 and visibility is not RebidVisibility.AUCTIONEER:
        for seat in range(seats):
            bids[seat] = seen_rounds(seat, auctioneer, closed, visibility)
    nothing: list[int | None] = [None] * seats
    return make_sale_views(
        shared,
        amount=amounts,
        my_bids=mine,
        bids=bids,
        peeked=[False] * seats,
        peeked_amount=nothing,
    )


def after_peek(sale: FinishedSale, view: SaleView, shows: PeekShows) -> SaleView:
    """``view`` of ``sale`` after its seat peeked at it, as ``peek_shows`` says.

    ``peeked_amount`` holds what the peek showed (:func:`peek_amount`). Where that is the
    winning amount, the view holds it as the amount too; under ``highest-bid`` and
    ``highest-bid-made`` after a tie it is a higher bid than the price, and the amount
    stays unknown. Under ``all-bids`` the view also holds every bid of the sale."""
    shown = peek_amount(sale, shows)
    if shows is PeekShows.ALL_BIDS:
        return view._replace(
            amount=sale.amount, bids=by_seat(sale.closed), peeked=True, peeked_amount=shown
        )
    if shown != sale.amount:
        return view._replace(peeked=True, peeked_amount=shown)
    return view._replace(amount=sale.amount, peeked=True, peeked_amount=shown)


def known_events(
    raws: Iterable[tuple[Any, ...]], seat: int | None, visibility: RebidVisibility
) -> Iterator[Event]:
    """The events of a game (as ``(event class, *fields)``) as ``seat`` (``None``: a
    spectator) may know them: its own bids, the bids it sees (:func:`seen_rounds`, once
    the bidding round is complete), a winning amount it may know (:func:`knows_amount`)
    and the amount of its own peek; everything else without its amount. A peek reveals
    nothing in earlier events (:data:`STREAM_REVEALS_PEEKS_IN_PEEKED_ONLY`)."""
    auctioneer: int | None = None  # the auctioneer of the sale in progress
    runs = False  # whether ``seat`` runs the sale in progress
    sees_rebids = visibility is not RebidVisibility.FIRST_BIDS
    among_tied = visibility is RebidVisibility.TIED_PLAYERS
    rebidding: tuple[int, ...] = ()  # the seats of the last tie, who rebid
    held: list[Event] = []  # the bids the seat sees when the bidding round is over
    for raw in raws:
        kind = raw[0]
        if kind is SecretBid:
            _, sale, bidder, amount, rebid = raw
            if bidder == seat:
                yield SecretBid(sale, bidder, amount, rebid)
            elif (runs and (not rebid or sees_rebids)) or (
                among_tied and rebid and seat in rebidding
            ):
                held.append(SecretBid(sale, bidder, amount, rebid))
            else:
                yield SecretBid(sale, bidder, None, rebid)
            continue
        if kind is SaleOpened:
            _, _, _, _, auctioneer = raw
            runs = seat is not None and seat == auctioneer
            rebidding = ()
        elif held and (kind is Tie or kind is Awarded or kind is NotAwarded):
            yield from held  # the bidding round is complete
            held = []
        if kind is Tie:
            rebidding = raw[2]
        if kind is Awarded:
            _, sale, company, winner, amount, public, fallback = raw
            if not knows_amount(seat, winner, auctioneer, public):
                amount = None
            yield Awarded(sale, company, winner, amount, public, fallback)
        elif kind is Peeked:
            _, sale, peeker, amount = raw
            yield Peeked(sale, peeker, amount if peeker == seat else None)
        else:
            yield kind(*raw[1:])
