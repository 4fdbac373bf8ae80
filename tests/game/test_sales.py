"""One sale's rules, pinned down where mutation testing found them loose: the limits on a
bid, every way a bidding round settles, and which zero bids count.

The expected outcomes are worked out by hand from the rule fields (see
``docs/rulesets.md``); each example names the branch of the rules it exercises.
"""

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules.game.sales import (
    Award,
    BidLimits,
    NoAward,
    Rebid,
    bid_limits,
    scoring_zero_bids,
    settle,
)
from qe_rules.rules.model import RebidScope
from tests.support import examples

pytestmark = pytest.mark.kills_mutants  # every test here was written against a mutant

EN = qe.get_ruleset("en")  # ties_before_fallback 3, highest-untied fallback, tied rebid
EARLY = qe.get_ruleset("en-early")  # highest-unique-in-sale fallback over every bid


def rules(text):
    return qe.get_ruleset(text)


# ----------------------------------------------------------------------- bid limits


def test_allows_is_at_least_the_minimum_and_not_the_forbidden_amount():
    limits = BidLimits(minimum=2, forbidden=4)
    assert [limits.allows(a) for a in range(7)] == [False, False, True, True, False, True, True]
    assert BidLimits(minimum=2).allows(2)
    assert not BidLimits(minimum=2).allows(1)


def test_legal_raises_to_the_minimum_and_steps_over_the_forbidden_amount():
    limits = BidLimits(minimum=2, forbidden=4)
    assert [limits.legal(a) for a in range(7)] == [2, 2, 2, 3, 5, 5, 6]
    assert BidLimits(minimum=2, forbidden=2).legal(0) == 3


@given(st.integers(0, 6), st.none() | st.integers(0, 8), st.integers(0, 10))
@examples(40)
def test_legal_is_the_smallest_allowed_amount_at_or_above(minimum, forbidden, amount):
    limits = BidLimits(minimum, forbidden)
    legal = limits.legal(amount)
    assert limits.allows(legal)
    assert legal >= amount
    assert not any(limits.allows(a) for a in range(amount, legal))


@pytest.mark.parametrize(
    ("text", "auctioneer", "rebid", "expected"),
    [
        # the opening bid: the opening minimum, nothing forbidden
        ("en", True, False, BidLimits(1, None)),
        ("en:min_opening_bid=2", True, False, BidLimits(2, None)),
        # the auctioneer's rebid keeps the opening minimum; may it repeat its opening bid?
        ("en", True, True, BidLimits(1, 3)),
        ("en:rebid_may_equal_opening=true", True, True, BidLimits(1, None)),
        # a secret bid may not equal the opening bid, unless the rule set allows it
        ("en", False, False, BidLimits(0, 3)),
        ("en:secret_bid_may_equal_opening=true", False, False, BidLimits(0, None)),
        ("en:rebid_may_equal_opening=true", False, False, BidLimits(0, 3)),
        # a rebid follows rebid_may_equal_opening, not the secret-bid rule
        ("en", False, True, BidLimits(0, 3)),
        ("en:rebid_may_equal_opening=true", False, True, BidLimits(0, None)),
        ("en:secret_bid_may_equal_opening=true", False, True, BidLimits(0, 3)),
    ],
)
def test_bid_limits_follow_the_rule_fields(text, auctioneer, rebid, expected):
    got = bid_limits(rules(text), opening=3, auctioneer=auctioneer, rebid=rebid)
    assert got == expected


def test_bid_limits_without_an_opening_bid_forbid_nothing():
    assert bid_limits(EN, opening=None, auctioneer=False, rebid=False) == BidLimits(0, None)
    assert bid_limits(EN, opening=None, auctioneer=False, rebid=True) == BidLimits(0, None)


# ----------------------------------------------------------------------- settle


def test_a_unique_highest_bid_wins_and_keeps_the_tie_count():
    outcome = settle(EN, (3, 7, 5), ties=2, history=(), last_tile=False)
    assert outcome == Award(seat=1, amount=7, fallback=False, ties=2)
    assert settle(EN, (0, 0, 1), ties=0, history=(), last_tile=False) == Award(2, 1)


def test_a_tie_below_the_fallback_is_a_rebid_of_the_tied_seats():
    assert settle(EN, (5, 7, 7, 2), ties=0, history=(), last_tile=False) == Rebid((1, 2), 1)
    assert settle(EN, (5, 7, 7, 2), ties=1, history=(), last_tile=False) == Rebid((1, 2), 2)


def test_every_seat_rebids_when_the_rule_set_says_so():
    outcome = settle(rules("en:rebidders=all"), (5, 7, 7, 2), ties=0, history=(), last_tile=False)
    assert outcome == Rebid((0, 1, 2, 3), 1)


def test_a_standing_auctioneer_is_left_out_of_the_rebid():
    stands = rules("en:tied_auctioneer=stands")
    tied = (5, 7, 7, 2)
    assert settle(stands, tied, ties=0, history=(), last_tile=False, auctioneer=1) == Rebid((2,), 1)
    # an auctioneer who is not tied changes nothing
    assert settle(stands, tied, ties=0, history=(), last_tile=False, auctioneer=0) == Rebid(
        (1, 2), 1
    )
    # under the rebids reading the auctioneer rebids with the others
    assert settle(EN, tied, ties=0, history=(), last_tile=False, auctioneer=1) == Rebid((1, 2), 1)
    everyone = attrs.evolve(stands, id="stands-all", rebidders=RebidScope.ALL)
    assert settle(everyone, tied, ties=0, history=(), last_tile=False, auctioneer=1) == Rebid(
        (0, 2, 3), 1
    )


def test_a_tie_on_the_last_tile_sells_nothing_where_the_rule_says_so():
    assert settle(EN, (4, 4, 1), ties=0, history=(), last_tile=True) == NoAward("last-tile-tie", 1)
    awards = rules("en:last_tile_tie_awards_nothing=false")
    assert settle(awards, (4, 4, 1), ties=0, history=(), last_tile=True) == Rebid((0, 1), 1)
    # not the last tile: a plain rebid
    assert settle(EN, (4, 4, 1), ties=0, history=(), last_tile=False) == Rebid((0, 1), 1)


def test_the_highest_untied_fallback_after_the_third_tie():
    assert settle(EN, (6, 6, 4, 2), ties=2, history=(), last_tile=False) == Award(
        seat=2, amount=4, fallback=True, ties=3
    )
    # the highest of the untied bids, wherever it stands
    assert settle(EN, (6, 6, 2, 4), ties=2, history=(), last_tile=False) == Award(
        seat=3, amount=4, fallback=True, ties=3
    )
    assert settle(EN, (6, 6, 4, 4), ties=2, history=(), last_tile=False) == NoAward(
        "no-untied-bid", 3
    )
    # one tie fewer: no fallback yet
    assert settle(EN, (6, 6, 4, 2), ties=1, history=(), last_tile=False) == Rebid((0, 1), 2)


def test_the_highest_unique_fallback_looks_at_every_bid_of_the_sale():
    history = [[(0, 2), (1, 2), (2, 1)], [(0, 5), (1, 7)], [(0, 4), (1, 4)]]
    # named once: 1, 5 and 7; the highest, 7, was seat 1's (its standing bid is 4)
    assert settle(EARLY, (4, 4, 1), ties=2, history=history, last_tile=False) == Award(
        seat=1, amount=7, fallback=True, ties=3
    )
    history = [[(0, 3), (1, 2), (2, 2)], [(1, 6), (2, 6)], [(1, 3), (2, 3)]]
    # named once: 2 and 6 twice, 3 three times; nothing is unique
    assert settle(EARLY, (3, 3, 3), ties=2, history=history, last_tile=False) == NoAward(
        "no-unique-bid", 3
    )


def test_the_highest_unique_fallback_over_the_standing_bids():
    standing = rules("en-early:unique_bid_pool=standing-bids")
    history = [[(0, 2), (1, 2), (2, 1)], [(0, 5), (1, 7)], [(0, 4), (1, 4)]]
    assert settle(standing, (4, 4, 1), ties=2, history=history, last_tile=False) == Award(
        seat=2, amount=1, fallback=True, ties=3
    )
    assert settle(standing, (4, 4, 1, 1), ties=2, history=history, last_tile=False) == NoAward(
        "no-unique-bid", 3
    )


def test_without_a_fallback_ties_go_on():
    endless = rules("en:tie_fallback=none")
    assert settle(endless, (7, 7, 1), ties=5, history=(), last_tile=False) == Rebid((0, 1), 6)


def test_a_tie_among_other_players_restarts_the_streak():
    same = rules("en:tie_streak=same-players")
    # the same players tie a third time: the fallback decides
    assert settle(
        same, (5, 6, 4, 6), ties=2, history=(), last_tile=False, previous_tie=(1, 3)
    ) == Award(seat=0, amount=5, fallback=True, ties=3)
    # other players: the count starts again
    assert settle(
        same, (5, 6, 4, 6), ties=2, history=(), last_tile=False, previous_tie=(0, 1)
    ) == Rebid((1, 3), 1)
    # any players: every tie counts
    assert settle(
        EN, (5, 6, 4, 6), ties=2, history=(), last_tile=False, previous_tie=(0, 1)
    ) == Award(seat=0, amount=5, fallback=True, ties=3)


# ----------------------------------------------------------------------- zero bids


def test_every_zero_standing_bid_counts_by_default():
    history = [[(0, 0), (1, 3), (2, 0), (3, 0)]]
    assert scoring_zero_bids(EN, (0, 3, 0, 0), history, 1) == (0, 2, 3)


def test_zero_bids_in_an_unsold_sale():
    history = [[(0, 4), (1, 4), (2, 0)]]
    assert scoring_zero_bids(EN, (4, 4, 0), history, None) == (2,)
    unsold = rules("en:zero_bids_score_when_unsold=false")
    assert scoring_zero_bids(unsold, (4, 4, 0), history, None) == ()
    # a sold tile: the switch changes nothing
    assert scoring_zero_bids(unsold, (4, 0, 0), history, 0) == (1, 2)


def test_a_winning_zero_bid_counts_only_where_the_rule_set_says_so():
    history = [[(0, 0), (1, 0), (2, 0)]]
    assert scoring_zero_bids(EN, (0, 0, 0), history, 0) == (0, 1, 2)
    no_winner = rules("en:zero_bid_winner_scores=false")
    assert scoring_zero_bids(no_winner, (0, 0, 0), history, 1) == (0, 2)


def test_a_zero_rebid_counts_only_where_the_rule_set_says_so():
    history = [[(0, 3), (1, 0), (2, 3)], [(0, 0), (2, 4)]]
    assert scoring_zero_bids(EN, (0, 0, 4), history, 2) == (0, 1)
    no_rebid = rules("en:zero_rebid_scores=false")
    assert scoring_zero_bids(no_rebid, (0, 0, 4), history, 2) == (1,)
    # a sale of one round has no rebids
    assert scoring_zero_bids(no_rebid, (0, 0, 5), [[(0, 0), (1, 0), (2, 5)]], 2) == (0, 1)
    # only the rounds after the first are rebids, however many there are
    history = [[(0, 3), (1, 3), (2, 0)], [(0, 5), (1, 5)], [(0, 0), (1, 6)]]
    assert scoring_zero_bids(no_rebid, (0, 6, 0), history, 1) == (2,)
