"""The peek timings other than the sale just awarded (``peek_timing``).

The engine plays ``last-sale`` itself (the window after an award, on that sale). This
module holds what the two other readings add, so that the engine only asks it:

- ``any-earlier-sale``: a window opens after every sale for each seat with a peek left
  and at least one sale it may peek at (:func:`peekable_sales`: awarded, its amount
  secret, neither run nor won by the seat, not peeked at yet); the peek names its sale
  (``Game.peek(seat, sale)``), by default the latest it may look at.
- ``before-bids``: a window opens before each sale's opening bid (the first sale's too)
  for each seat with a peek left but the sale's auctioneer. A peek there is announced
  (a ``Peeked`` event without amount, the seat's move); when the sale ends, the engine
  adds a second ``Peeked`` event with what the peek shows (:func:`revealed`), seen by the
  peeker only. That event is part of the award, not a move.

The last sale is peeked at, under either reading, only by ``peek_after_last_sale``.
"""

from __future__ import annotations

from typing import Any

from qe_rules.errors import IllegalAction, InvalidArgument, shown
from qe_rules.game._refusals import amount_known, peeks_used
from qe_rules.game._secrecy import peek_amount
from qe_rules.game._state import (
    _NO_SEATS,
    _PEEKING,
    _PeekTarget,
    _Progress,
    _Raw,
    _replace_at,
    _Sale,
    _Setup,
)
from qe_rules.game.events import Peeked
from qe_rules.game.facts import may_peek_at
from qe_rules.rules.model import PeekTiming

__all__ = [
    "check_timed_peek",
    "first_window",
    "peekable_sales",
    "peeked_progress",
    "revealed",
    "timed_window",
]


def peekable_sales(progress: _Progress, seat: int) -> tuple[int, ...]:
    """The finished sales ``seat`` may peek at under ``any-earlier-sale``, in order:
    awarded, the amount secret, neither run nor won by the seat, not peeked at yet."""
    peeked = progress.peeked[seat]
    return tuple(
        facts.sale
        for facts in progress.facts
        if may_peek_at(seat, facts.winner, facts.auctioneer, facts.public)
        and facts.sale not in peeked
    )


def _upcoming(
    setup: _Setup, progress: _Progress, number: int
) -> tuple[_PeekTarget | None, frozenset[int]]:
    """Under ``before-bids``: the window before sale ``number`` opens, and its seats."""
    if number >= setup.sales or not setup.facts.peek_windows[number]:
        return None, _NO_SEATS
    auctioneer = setup.openings[number].auctioneer
    window = setup.facts.peek_window(progress.peeks, lambda seat: seat != auctioneer)
    if not window:
        return None, _NO_SEATS
    return _PeekTarget(number, auctioneer, None, None, False), window


def first_window(setup: _Setup) -> tuple[_PeekTarget | None, frozenset[int]]:
    """The window before the first sale: under ``before-bids`` only."""
    if not setup.peek or setup.ruleset.peek_timing is not PeekTiming.BEFORE_BIDS:
        return None, _NO_SEATS
    return _upcoming(setup, setup.start, 0)


def revealed(setup: _Setup, progress: _Progress) -> tuple[_Raw, ...]:
    """Under ``before-bids``, once a sale ends (its facts the last of ``progress``): what
    each seat that announced a peek at it sees, as ``Peeked`` events."""
    facts = progress.facts[-1]
    shows = setup.peek_shows
    return tuple(
        (Peeked, facts.sale, seat, peek_amount(facts, shows))
        for seat in range(setup.players)
        if facts.sale in progress.peeked[seat]
    )


def timed_window(
    setup: _Setup, progress: _Progress, finished: _PeekTarget
) -> tuple[_PeekTarget | None, frozenset[int], tuple[_Raw, ...]]:
    """The window after the sale ``finished`` (its facts the last of ``progress``) under a
    timing other than ``last-sale``: its target, its seats, and the events that show the
    announced peeks of that sale."""
    rules = setup.ruleset
    if rules.peek_timing is PeekTiming.BEFORE_BIDS:
        shown_now = revealed(setup, progress)
        target, window = _upcoming(setup, progress, finished.sale + 1)
        return target, window, shown_now
    window = setup.facts.peek_window(
        progress.peeks, lambda seat: bool(peekable_sales(progress, seat))
    )
    return finished, window, ()


def check_timed_peek(
    setup: _Setup,
    progress: _Progress,
    sale: _Sale,
    to_act: frozenset[int],
    seat: int,
    named: Any,
) -> _PeekTarget:
    """The sale ``seat``'s peek looks at under a timing other than ``last-sale`` (``named``:
    the sale it names, or ``None``); raises :class:`~qe_rules.IllegalAction` when the
    peek is not allowed. ``sale.peek_target`` is set."""
    target = sale.peek_target
    assert target is not None
    rules = setup.ruleset
    if named is not None and (type(named) is not int or named < 0):
        raise InvalidArgument(
            f"a peek names a sale by its number (an int >= 0), got {shown(named)}"
        )
    if progress.peeks[seat] >= rules.peeks_per_player:
        raise peeks_used(seat, rules.peeks_per_player)
    in_window = sale.phase is _PEEKING and seat in to_act
    if rules.peek_timing is PeekTiming.BEFORE_BIDS:
        where = f"sale {target.sale}"
        if named is not None and named != target.sale:
            raise IllegalAction(
                f"under peek_timing=before-bids a peek is announced for the sale about to "
                f"open ({where}), not for sale {named}",
                code="peek-other-sale",
                sale=target.sale,
                named=shown(named),
            )
        if seat == target.auctioneer:
            raise IllegalAction(
                f"seat {seat} runs {where} and will see every bid",
                code="peek-runs-sale",
                seat=seat,
                sale=target.sale,
            )
        if not in_window:
            raise IllegalAction(
                f"seat {seat} may announce a peek only before the opening bid of a sale; "
                f"it has declined to for {where}",
                code="peek-declined",
                seat=seat,
                sale=target.sale,
            )
        return target
    if named is None:
        choices = peekable_sales(progress, seat)
        if not choices:
            raise IllegalAction(
                f"seat {seat} has no earlier sale whose amount it may see",
                code="no-peekable-sale",
                seat=seat,
            )
        named = choices[-1]
    finished = len(progress.facts)
    if named >= finished:
        raise IllegalAction(
            f"sale {named} is not over: a peek looks at one of sales 0 to {finished - 1}",
            code="peek-sale-not-over",
            sale=named,
            last=finished - 1,
        )
    facts = progress.facts[named]
    refusal = amount_known(
        seat,
        named,
        winner=facts.winner,
        public=facts.public,
        auctioneer=facts.auctioneer,
        seen=named in progress.peeked[seat],
    )
    if refusal is not None:
        raise refusal
    if not in_window:
        answered = " and has answered this one" if sale.phase is _PEEKING else ""
        raise IllegalAction(
            f"seat {seat} may peek only in a peek window (after a sale ends, until the next "
            f"opening bid){answered}",
            code="not-in-peek-window",
            seat=seat,
        )
    return _PeekTarget(named, facts.auctioneer, facts.winner, facts.amount, facts.public)


def peeked_progress(
    setup: _Setup, progress: _Progress, seat: int, target: _PeekTarget
) -> tuple[_Progress, _Raw]:
    """The progress after ``seat``'s peek at ``target`` under a timing other than
    ``last-sale``, and its ``Peeked`` event: the amount now under ``any-earlier-sale``,
    none yet under ``before-bids`` (the sale has not been sold)."""
    after = progress.evolve()
    after.peeks = _replace_at(progress.peeks, seat, progress.peeks[seat] + 1)
    after.peeked = _replace_at(progress.peeked, seat, progress.peeked[seat] | {target.sale})
    if progress.cache:  # the other seats' histories stay as they are
        after.cache = {k: v for k, v in progress.cache.items() if k != seat}
    amount = None
    if setup.ruleset.peek_timing is not PeekTiming.BEFORE_BIDS:
        amount = peek_amount(progress.facts[target.sale], setup.peek_shows)
    return after, (Peeked, target.sale, seat, amount)
