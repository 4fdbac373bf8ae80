"""Why the engine refuses a bid that is not awaited, or a peek: the error, with its code
and params (see :data:`qe_rules.errors.ERROR_CODES`). Seats and sales are counted from 0,
as the library counts them."""

from __future__ import annotations

from collections.abc import Set

from qe_rules.errors import IllegalAction
from qe_rules.game._state import _OPENING, _OVER, _PEEKING, _REBIDDING, _Sale

__all__ = ["amount_known", "not_to_act", "peeks_used"]


def not_to_act(
    sale: _Sale, awaiting: Set[int], open_bids: tuple[tuple[int, int], ...], seat: int
) -> IllegalAction:
    """Why ``seat``'s bid is not awaited in ``sale`` (``awaiting`` are the seats to act,
    ``open_bids`` the bids of the bidding round so far)."""
    if sale.phase is _OVER:
        return IllegalAction("the game is over; no more moves are possible", code="game-over")
    where = f"sale {sale.number}"
    waiting = sorted(awaiting)
    shown_waiting = ", ".join(map(str, waiting))
    if sale.phase is _PEEKING:
        target = sale.peek_target
        assert target is not None
        return IllegalAction(
            f"seat {seat} cannot bid now: the bidding of {where} waits until "
            f"seat{'s' if len(awaiting) > 1 else ''} {shown_waiting} answer the peek at "
            f"sale {target.sale} (peek or decline_peek)",
            code="waiting-for-peeks",
            seat=seat,
            sale=sale.number,
            waiting=waiting,
            peek_sale=target.sale,
        )
    if sale.phase is _OPENING:
        return IllegalAction(
            f"seat {seat} cannot bid now: {where} waits for the opening bid of seat "
            f"{sale.auctioneer}, the auctioneer",
            code="not-to-act",
            seat=seat,
            sale=sale.number,
            auctioneer=sale.auctioneer,
        )
    if sale.phase is _REBIDDING and not any(s == seat for s, _ in open_bids):
        tied = list(sale.tie_log[-1])
        return IllegalAction(
            f"seat {seat} is not tied in {where}; only seats {', '.join(map(str, tied))} "
            f"rebid (waiting for {shown_waiting})",
            code="not-tied",
            seat=seat,
            sale=sale.number,
            tied=tied,
            waiting=waiting,
        )
    return IllegalAction(
        f"seat {seat} has already bid in this bidding round of {where}; waiting for "
        f"seat{'s' if len(awaiting) > 1 else ''} {shown_waiting}",
        code="already-bid",
        seat=seat,
        sale=sale.number,
        waiting=waiting,
    )


def amount_known(
    seat: int, sale: int, *, winner: int | None, public: bool, auctioneer: int | None, seen: bool
) -> IllegalAction | None:
    """Why ``seat`` may not peek at the amount of ``sale`` (awarded to ``winner``, run by
    ``auctioneer``; ``public``: its amount is public; ``seen``: the seat has peeked at it),
    or ``None`` if it may."""
    where = f"sale {sale}"
    if winner is None:
        return IllegalAction(
            f"nothing to peek at: {where} was not awarded", code="peek-unsold", sale=sale
        )
    if public:
        return IllegalAction(
            f"the amount of {where} is public: its auctioneer won it",
            code="peek-public",
            sale=sale,
        )
    if seat == auctioneer:
        return IllegalAction(
            f"seat {seat} ran {where} and saw every bid", code="peek-ran-sale", seat=seat, sale=sale
        )
    if seat == winner:
        return IllegalAction(
            f"seat {seat} won {where} and knows the amount",
            code="peek-won-sale",
            seat=seat,
            sale=sale,
        )
    if seen:
        return IllegalAction(
            f"seat {seat} has already seen the amount of {where}",
            code="peek-seen",
            seat=seat,
            sale=sale,
        )
    return None


def peeks_used(seat: int, limit: int) -> IllegalAction:
    """The error for a peek beyond the ``limit`` a seat has in a game."""
    return IllegalAction(
        f"seat {seat} has used its {'peek' if limit == 1 else f'{limit} peeks'} for this game",
        code="peeks-used",
        seat=seat,
        limit=limit,
    )
