"""One sale, as pure functions: which bids are legal, and how a bidding round ends.

The engine and the verifier share these functions, so the verifier explores exactly the
rules the engine enforces. A sale's bidding rounds are: the first bids (the opening bid
and the secret bids), then rebids after ties. When a round closes, :func:`settle` says
what happens: an award, a rebid by some seats, or no award.

>>> import qe_rules as qe
>>> from qe_rules.game.sales import settle
>>> en = qe.get_ruleset("en")
>>> settle(en, (5, 7, 7, 2), ties=0, history=(), last_tile=False)
Rebid(seats=(1, 2), ties=1)
>>> settle(en, (5, 6, 6, 2), ties=2, history=(), last_tile=False)
Award(seat=0, amount=5, fallback=True, ties=3)
>>> early = qe.get_ruleset("en-early")
>>> rounds = [[(0, 5), (1, 5), (2, 5)], [(0, 3), (1, 3), (2, 3)], [(0, 4), (1, 4), (2, 4)]]
>>> settle(early, (4, 4, 4), ties=2, history=rounds, last_tile=False)
NoAward(reason='no-unique-bid', ties=3)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

import attrs

from qe_rules.limits import MAX_BID
from qe_rules.rules.model import (
    FallbackFindsNoBid,
    LastTileTie,
    RebidScope,
    RuleSet,
    TiedAuctioneer,
    TieFallback,
    TieStreak,
    UniqueBidPool,
)

__all__ = [
    "UNSOLD_REASONS",
    "Award",
    "BidLimits",
    "NoAward",
    "Outcome",
    "Rebid",
    "any_tie_leaves_last_tile_unsold",
    "bid_limits",
    "scoring_zero_bids",
    "settle",
]


@attrs.frozen
class Award:
    """The sale is won by ``seat`` for ``amount``; ``fallback`` if the tie fallback chose it.

    ``ties`` counts the ties in a row before the award (the last one included when the
    fallback decided).
    """

    seat: int
    amount: int
    fallback: bool = False
    ties: int = 0


@attrs.frozen
class Rebid:
    """A tie for the highest bid: ``seats`` bid again; ``ties`` counts ties in a row."""

    seats: tuple[int, ...]
    ties: int


@attrs.frozen
class NoAward:
    """The tile is not sold. ``reason`` is ``"last-tile-tie"`` (a rule of the text) or a
    gap code (``"no-unique-bid"``, ``"no-untied-bid"``) where the text decides nothing."""

    reason: str
    ties: int


Outcome = Award | Rebid | NoAward

UNSOLD_REASONS: Final = ("last-tile-tie", "no-unique-bid", "no-untied-bid", "fallback-bid-tied")
"""Every ``reason`` of a :class:`NoAward`: a rule of the text, or the gap code of a
fallback that found no single bid."""


@attrs.frozen
class BidLimits:
    """What a bid may be: at least ``minimum``, at most :data:`~qe_rules.limits.MAX_BID`,
    and not ``forbidden`` (when set)."""

    minimum: int
    forbidden: int | None = None

    def allows(self, amount: int) -> bool:
        """Whether the whole number ``amount`` is a legal bid: the one definition.

        ``Game.can_bid`` agrees with it, and every fast copy of the test (the engine's
        ``_refused`` and its copies in ``Game.bid``, the batch's ``legal``) is tested
        against it.

        >>> limits = BidLimits(minimum=1, forbidden=3)
        >>> [limits.allows(amount) for amount in (0, 1, 3, MAX_BID, MAX_BID + 1)]
        [False, True, False, True, False]
        """
        return self.minimum <= amount <= MAX_BID and amount != self.forbidden

    def legal(self, amount: int) -> int:
        """The smallest legal amount at least ``amount``: raised to the minimum, and one
        more where that is the forbidden amount; an amount above ``MAX_BID`` gives the
        largest legal amount (every rule set leaves one: see ``RuleSet``'s checks).

        >>> limits = BidLimits(minimum=1, forbidden=3)
        >>> limits.legal(0), limits.legal(3), limits.legal(5)
        (1, 4, 5)
        >>> BidLimits(minimum=1, forbidden=MAX_BID).legal(MAX_BID + 5) == MAX_BID - 1
        True
        """
        if amount < self.minimum:
            amount = self.minimum
        elif amount > MAX_BID:
            amount = MAX_BID
        if amount == self.forbidden:
            return amount + 1 if amount < MAX_BID else amount - 1
        return amount


def bid_limits(rules: RuleSet, *, opening: int | None, auctioneer: bool, rebid: bool) -> BidLimits:
    """The limits on one bid.

    ``opening`` is the sale's opening bid (``None`` while it is awaited, and on a last tile
    without auctioneer); ``auctioneer`` whether the bidder runs the sale; ``rebid`` whether
    this is a rebid after a tie. An auctioneer's rebid keeps the opening minimum unless
    ``auctioneer_rebid_may_be_zero``, and may not repeat the opening bid unless
    ``auctioneer_rebid_may_repeat_opening`` (or ``rebid_may_equal_opening``).

    >>> import qe_rules as qe
    >>> bid_limits(qe.get_ruleset("en-early"), opening=3, auctioneer=True, rebid=True)
    BidLimits(minimum=1, forbidden=3)
    >>> free = qe.get_ruleset(
    ...     "en-early:auctioneer_rebid_may_be_zero=true,auctioneer_rebid_may_repeat_opening=true")
    >>> bid_limits(free, opening=3, auctioneer=True, rebid=True)
    BidLimits(minimum=0, forbidden=None)
    """
    return BidLimits(*limits_of(rules, opening, auctioneer, rebid))


def limits_of(
    rules: RuleSet, opening: int | None, auctioneer: bool, rebid: bool
) -> tuple[int, int | None]:
    """:func:`bid_limits` as a plain ``(minimum, forbidden)`` pair, for hot loops."""
    if auctioneer:
        if not rebid:
            return rules.min_opening_bid, None
        minimum = (
            rules.min_secret_bid if rules.auctioneer_rebid_may_be_zero else rules.min_opening_bid
        )
        repeat = rules.rebid_may_equal_opening or rules.auctioneer_rebid_may_repeat_opening
        return minimum, None if repeat else opening
    if opening is None:
        return rules.min_secret_bid, None
    may_equal = rules.rebid_may_equal_opening if rebid else rules.secret_bid_may_equal_opening
    return rules.min_secret_bid, None if may_equal else opening


def settle(
    rules: RuleSet,
    standing: Sequence[int],
    *,
    ties: int,
    history: Sequence[Sequence[tuple[int, int]]],
    last_tile: bool,
    auctioneer: int | None = None,
    previous_tie: Sequence[int] = (),
) -> Outcome:
    """What happens when a bidding round closes.

    ``standing`` holds each seat's current bid (by seat); ``ties`` how many ties in a row
    came before this comparison; ``history`` every bidding round of the sale so far, each a
    sequence of ``(seat, amount)`` (used by the ``highest-unique-in-sale`` fallback);
    ``last_tile`` whether this is a last tile without auctioneer; ``auctioneer`` the
    auctioneer's seat (for ``tied_auctioneer``); ``previous_tie`` the seats of the
    previous tie of the sale (for ``tie_streak``).

    >>> import qe_rules as qe
    >>> same = qe.get_ruleset("en:tie_streak=same-players")
    >>> settle(same, (5, 6, 4, 6), ties=2, history=(), last_tile=False, previous_tie=(1, 2))
    Rebid(seats=(1, 3), ties=1)
    """
    highest = max(standing)
    if standing.count(highest) == 1:
        if last_tile and any_tie_leaves_last_tile_unsold(rules, standing):
            return NoAward("last-tile-tie", ties + 1)
        return Award(standing.index(highest), highest, ties=ties)
    top = tuple(seat for seat, amount in enumerate(standing) if amount == highest)
    tie = ties + 1
    if rules.tie_streak is TieStreak.SAME_PLAYERS and ties and tuple(previous_tie) != top:
        tie = 1
    if last_tile and rules.last_tile_tie_awards_nothing:
        return NoAward("last-tile-tie", tie)
    fallback = rules.tie_fallback
    if tie >= rules.ties_before_fallback and fallback is not TieFallback.NONE:
        if fallback is TieFallback.HIGHEST_UNTIED:
            counts = Counter(standing)
            untied = [amount for amount, n in counts.items() if n == 1]
            if not untied:
                return _no_single_bid(rules, "no-untied-bid", tie, standing, auctioneer)
            amount = max(untied)
            return Award(standing.index(amount), amount, fallback=True, ties=tie)
        if fallback is TieFallback.HIGHEST_OUTSIDE_TOP_TIE:
            below = [amount for amount in standing if amount < highest]
            if not below:
                return _no_single_bid(rules, "no-untied-bid", tie, standing, auctioneer)
            amount = max(below)
            if below.count(amount) > 1:
                return _no_single_bid(rules, "fallback-bid-tied", tie, standing, auctioneer)
            return Award(standing.index(amount), amount, fallback=True, ties=tie)
        if rules.unique_bid_pool is UniqueBidPool.STANDING_BIDS:
            bids = list(enumerate(standing))
        else:
            bids = [bid for rnd in history for bid in rnd]
        counts = Counter(amount for _, amount in bids)
        unique = [amount for amount, n in counts.items() if n == 1]
        if not unique:
            return _no_single_bid(rules, "no-unique-bid", tie, standing, auctioneer)
        amount = max(unique)
        seat = next(seat for seat, named in bids if named == amount)
        return Award(seat, amount, fallback=True, ties=tie)
    seats = tuple(range(len(standing))) if rules.rebidders is RebidScope.ALL else top
    if auctioneer in top and rules.tied_auctioneer is TiedAuctioneer.STANDS:
        seats = tuple(seat for seat in seats if seat != auctioneer)
    return Rebid(seats, tie)


def any_tie_leaves_last_tile_unsold(rules: RuleSet, standing: Sequence[int]) -> bool:
    """On the auctioneer-less last tile with a single highest bid: do two equal lower bids
    still make it "a tie" that gives the tile to nobody (``last_tile_tie = "any"``)?

    >>> import qe_rules as qe
    >>> any_tie_leaves_last_tile_unsold(qe.get_ruleset("en:last_tile_tie=any"), (5, 3, 3))
    True
    >>> any_tie_leaves_last_tile_unsold(qe.get_ruleset("en"), (5, 3, 3))
    False
    """
    return (
        rules.last_tile_tie is LastTileTie.ANY
        and rules.last_tile_tie_awards_nothing
        and len(set(standing)) < len(standing)
    )


def _no_single_bid(
    rules: RuleSet, reason: str, tie: int, standing: Sequence[int], auctioneer: int | None
) -> Outcome:
    """The fallback found no single bid (``reason``, a gap code): the tile is unsold, or
    under ``fallback_finds_no_bid = "auctioneer-wins"`` the auctioneer takes it for its
    standing bid (its opening bid, or its rebid where it rebid)."""
    if rules.fallback_finds_no_bid is FallbackFindsNoBid.AUCTIONEER_WINS and auctioneer is not None:
        return Award(auctioneer, standing[auctioneer], fallback=True, ties=tie)
    return NoAward(reason, tie)


def scoring_zero_bids(
    rules: RuleSet,
    standing: Sequence[int],
    history: Sequence[Sequence[tuple[int, int]]],
    winner: int | None,
) -> tuple[int, ...]:
    """The seats whose zero bid counts at the end of a sale, before the limit per round.

    A seat counts when its standing bid is zero, unless a switch says otherwise: the
    winner (``zero_bid_winner_scores``), a zero that was a rebid (``zero_rebid_scores``),
    every seat in a sale that sold nothing (``zero_bids_score_when_unsold``).
    ``history`` holds the sale's bidding rounds, the first bids first.

    >>> import qe_rules as qe
    >>> rules = qe.get_ruleset("en-early:zero_rebid_scores=false")
    >>> scoring_zero_bids(rules, (3, 0, 0), [[(0, 3), (1, 0), (2, 3)], [(2, 0)]], 0)
    (1,)
    """
    if winner is None and not rules.zero_bids_score_when_unsold:
        return ()
    seats = [seat for seat, amount in enumerate(standing) if amount == 0]
    if winner is not None and not rules.zero_bid_winner_scores:
        seats = [seat for seat in seats if seat != winner]
    if not rules.zero_rebid_scores and len(history) > 1:
        rebid = {seat for rnd in history[1:] for seat, _ in rnd}
        seats = [seat for seat in seats if seat not in rebid]
    return tuple(seats)
