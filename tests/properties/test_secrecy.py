"""What a seat's view and its event stream show of each finished sale, and the exact
relation between the two, for every reading of ``peek_shows``, ``peek_timing`` and
``rebid_visibility`` (``qe_rules.game._secrecy``, ``qe_rules.game._peeks``)."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules import Awarded, OpeningBid, Peeked, SecretBid
from qe_rules.game import _secrecy
from tests.support import examples

READINGS = [
    *(f"en:peek_shows={shows.value}" for shows in qe.PeekShows),
    *(
        f"en:peek_shows=highest-bid,rebid_visibility={seen.value}"
        for seen in qe.RebidVisibility
        if seen is not qe.RebidVisibility.AUCTIONEER
    ),
    *(
        f"en:peek_shows={shows.value},peek_timing={timing.value}"
        for timing in qe.PeekTiming
        if timing is not qe.PeekTiming.LAST_SALE
        for shows in (
            qe.PeekShows.WINNING_AMOUNT,
            qe.PeekShows.HIGHEST_BID,
            qe.PeekShows.HIGHEST_BID_MADE,
        )
    ),
]


def _played(rules, seed, moves):
    """A 5-player game after ``moves`` random legal moves, peeking when it may."""
    rng = random.Random(seed)
    game = qe.new_game(rules, 5, seed=seed)
    for _ in range(moves):
        if game.is_over:
            break
        seat = rng.choice(sorted(game.to_act))
        if game.phase is qe.Phase.PEEKING:
            game = game.peek(seat) if rng.random() < 0.7 else game.decline_peek(seat)
        else:
            game = game.bid(seat, game.bid_limits(seat).legal(rng.randint(0, 7)))
    return game


def _rounds(bids):
    """``(round, seat, amount)`` bids as bidding rounds in seat order, as views show them."""
    rounds = {}
    for rnd, seat, amount in bids:
        rounds.setdefault(rnd, []).append((seat, amount))
    return tuple(tuple(sorted(rounds[rnd])) for rnd in sorted(rounds))


def _bids(events):
    """``(round, seat, amount)`` of the opening and secret bids among ``events``."""
    return [
        (getattr(e, "rebid", 0), e.seat, e.amount)
        for e in events
        if isinstance(e, OpeningBid | SecretBid)
    ]


def _check_relation(game):
    rules = game.ruleset
    shows, visibility = rules.peek_shows, rules.rebid_visibility
    everything = game.events
    for seat in range(game.players):
        view, stream = game.view(seat), game.events_for(seat)
        for sale in view.history:
            number = sale.sale
            mine = [e for e in stream if getattr(e, "sale", None) == number]
            truth = [e for e in everything if getattr(e, "sale", None) == number]
            truth_rounds = _rounds(_bids(truth))
            award = next((e for e in truth if isinstance(e, Awarded)), None)
            awarded = [e.amount for e in mine if isinstance(e, Awarded)]
            peeks = [e.amount for e in mine if isinstance(e, Peeked) and e.seat == seat]
            assert sale.peeked == bool(peeks)
            # one Peeked event per peek; under before-bids the announcement (no amount)
            # and, once the sale ends, what the peek shows
            assert len(peeks) == (2 if rules.peek_timing is qe.PeekTiming.BEFORE_BIDS else 1) or (
                not peeks
            )
            if peeks and award is None:
                assert peeks[-1] is None  # an unsold sale shows nothing
            elif peeks:  # a peek shows what peek_shows says: the winning or a highest bid
                standing = dict(bid for rnd in truth_rounds for bid in rnd)
                made = max(a for rnd in truth_rounds for _, a in rnd)
                expected = {
                    qe.PeekShows.HIGHEST_BID: max(standing.values()),
                    qe.PeekShows.HIGHEST_BID_MADE: made,
                }.get(shows, award.amount)
                assert peeks[-1] == expected
            # the view keeps what the peek showed
            assert sale.peeked_amount == (peeks[-1] if peeks else None)
            # the amount: what the Awarded event says, or else a peek that showed it
            told = awarded[0] if awarded and awarded[0] is not None else None
            if told is None and peeks and award is not None and peeks[-1] == award.amount:
                told = peeks[-1]
            assert sale.amount == told
            assert told is None or told == award.amount
            if award is not None and not sale.peeked:  # the view follows knows_amount
                knows = _secrecy.knows_amount(seat, award.seat, sale.auctioneer, award.public)
                assert sale.amount == (award.amount if knows else None)
            if seat == sale.auctioneer and award is not None:
                assert sale.amount == award.amount  # under every reading

            # the bids: the stream shows those the seat knew when they were made
            shown = [bid for bid in _bids(mine) if bid[2] is not None]
            assert sale.my_bids == tuple(a for _, who, a in shown if who == seat)
            seen = _secrecy.seen_rounds(seat, sale.auctioneer, truth_rounds, visibility)
            seen_bids = {(rnd, who, a) for rnd, bids in enumerate(seen) for who, a in bids}
            others = {
                bid
                for bid in shown
                if bid[1] != seat and not (bid[0] == 0 and bid[1] == sale.auctioneer)
            }
            assert others <= seen_bids
            assert {bid for bid in seen_bids if bid[1] != seat} <= set(shown)
            if sale.peeked and shows is qe.PeekShows.ALL_BIDS:
                # the decision: the view shows every bid after the peek, the stream only
                # the bids the seat knew when they were made
                assert _secrecy.STREAM_REVEALS_PEEKS_IN_PEEKED_ONLY
                assert sale.bids == truth_rounds
            else:
                assert sale.bids == seen


@pytest.mark.parametrize("rules", READINGS)
def test_a_peek_shows_in_the_view_what_the_stream_shows_of_the_sale(rules):
    for seed in range(6):
        _check_relation(_played(rules, seed, 400))


@examples(40)
@given(rules=st.sampled_from(READINGS), seed=st.integers(0, 10**6), moves=st.integers(0, 120))
def test_the_view_and_the_stream_agree_at_every_moment(rules, seed, moves):
    _check_relation(_played(rules, seed, moves))


def test_under_all_bids_a_peek_shows_bids_the_stream_never_shows():
    """The example of the decision: the peeker's view holds every bid of the sale, its
    stream keeps the other seats' secret bids without their amounts."""
    rules = "en:peek_shows=all-bids"
    for seed in range(40):
        game = _played(rules, seed, 400)
        for seat in range(5):
            for sale in game.view(seat).history:
                if sale.peeked and seat != sale.auctioneer:
                    hidden = [
                        e
                        for e in game.events_for(seat)
                        if isinstance(e, SecretBid) and e.sale == sale.sale and e.seat != seat
                    ]
                    assert hidden and all(e.amount is None for e in hidden)
                    shown = {(who, a) for rnd in sale.bids for who, a in rnd}
                    secret = {
                        (e.seat, e.amount)
                        for e in game.events
                        if isinstance(e, SecretBid) and e.sale == sale.sale and e.seat != seat
                    }
                    assert secret <= shown  # the view shows every bid the stream hides
                    return
    pytest.fail("no peek under all-bids in 40 games")
