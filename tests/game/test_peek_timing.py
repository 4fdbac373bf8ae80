"""The readings of when a peek is made and which sale it looks at (``peek_timing``):
the sale just awarded, any earlier sale (named by the peeker), or a sale announced
before its bids. Each is played, recorded and replayed; a peeker learns exactly what
its reading shows of the sale it names, and nobody else learns it."""

import json
import random

import pytest
from hypothesis import given

import qe_rules as qe
from qe_rules import Awarded, Move, Peeked, Phase
from qe_rules import strategies as qst
from tests.support import examples

EARLIER = qe.get_ruleset("en:peek_timing=any-earlier-sale")
BEFORE = qe.get_ruleset("en:peek_timing=before-bids")
TIMED = [EARLIER, BEFORE, qe.get_ruleset("de:peek_timing=before-bids")]


def play(game, *bids):
    for seat, amount in bids:
        game = game.bid(seat, amount)
    return game


def declined(game):
    """``game`` after every seat in its peek window declines."""
    while game.phase is Phase.PEEKING:
        game = game.decline_peek(min(game.to_act))
    return game


def test_every_built_in_peeks_at_the_sale_just_awarded():
    assert {rules.peek_timing for rules in qe.RULESETS.values()} == {qe.PeekTiming.LAST_SALE}


def test_any_earlier_sale_lets_a_peek_name_a_sale_before_the_last():
    game = play(qe.new_game(EARLIER, 5, seed=11), (0, 3), (1, 7), (2, 1), (3, 0), (4, 2))
    game = declined(game)  # nobody peeks at sale 0 just after it
    game = play(game, (1, 4), (0, 0), (2, 6), (3, 1), (4, 0))  # seat 2 wins sale 1 for 6
    assert game.phase is Phase.PEEKING and 3 in game.to_act
    assert game.can_peek(3, 0) and game.can_peek(3, 1) and not game.can_peek(3, 2)
    with pytest.raises(qe.IllegalAction, match="sale 2 is not over"):
        game.peek(3, 2)
    with pytest.raises(qe.IllegalAction, match="seat 1 won sale 0"):
        game.peek(1, 0)
    with pytest.raises(qe.InvalidArgument, match="a peek names a sale"):
        game.peek(3, "0")
    after = game.peek(3, 0)
    assert after.last_events == (Peeked(sale=0, seat=3, amount=7),)
    assert after.view(3).history[0].amount == 7 and after.view(3).history[1].amount is None
    assert all(after.view(seat).history[0].amount is None for seat in (2, 4))
    assert after.moves()[-1] == Move("peek", 3, sale=0)
    record = json.loads(json.dumps(after.to_record()))
    assert record["moves"][-1] == {"move": "peek", "seat": 3, "sale": 0}
    assert qe.replay(record) == after
    # by default the peek looks at the latest sale the seat may see
    assert game.peek(4).last_events == (Peeked(sale=1, seat=4, amount=6),)


def test_before_bids_announces_the_peek_and_shows_the_amount_when_the_sale_ends():
    game = qe.new_game(BEFORE, 5, seed=11)
    # the window before the first opening bid: everyone but its auctioneer
    assert game.phase is Phase.PEEKING and game.to_act == {1, 2, 3, 4} and game.sale == 0
    with pytest.raises(qe.IllegalAction, match="runs sale 0"):
        game.peek(0)
    with pytest.raises(qe.IllegalAction, match="announced for the sale about to open"):
        game.peek(2, 1)
    game = game.peek(2)
    assert game.last_events == (Peeked(sale=0, seat=2, amount=None),)
    game = declined(game)
    assert game.phase is Phase.OPENING and game.to_act == {0}
    game = play(game, (0, 3), (1, 7), (2, 1), (3, 0), (4, 2))
    shown = [e for e in game.last_events if isinstance(e, Peeked)]
    assert shown == [Peeked(sale=0, seat=2, amount=7)]
    assert game.view(2).history[0].amount == 7 and game.view(2).history[0].peeked
    assert [e.amount for e in game.events_for(2) if isinstance(e, Peeked)] == [None, 7]
    for seat in (3, 4):
        assert game.view(seat).history[0].amount is None
        assert all(e.amount is None for e in game.events_for(seat) if isinstance(e, Peeked))
    assert game.public_view().history[0].amount is None
    # the peek is one move, the amount shown at the award is none
    assert [m for m in game.moves() if m.kind == "peek"] == [Move("peek", 2)]
    assert game.view(2).peeks_used[2] == 1 and 2 not in game.to_act  # used up
    assert qe.replay(json.loads(json.dumps(game.to_record()))) == game


def test_a_last_sale_record_is_written_as_before():
    game = play(qe.new_game("en", 5, seed=11), (0, 3), (1, 7), (2, 1), (3, 0), (4, 2))
    record = game.peek(2).to_record()
    assert record["moves"][-1] == {"move": "peek", "seat": 2}
    with pytest.raises(qe.IllegalAction, match="the sale just awarded"):
        game.peek(2, 1)
    with pytest.raises(qe.InvalidRecord, match="move 5"):
        qe.replay(
            {**record, "moves": [*record["moves"][:5], {"move": "peek", "seat": 2, "sale": 3}]}
        )
    with pytest.raises(qe.InvalidRecord, match="exactly the keys"):
        qe.replay({**record, "moves": [{"move": "bid", "seat": 0, "amount": 3, "sale": 0}]})


def _play_by_views(game, rng):
    while not game.is_over:
        for seat in sorted(game.to_act):
            view = game.view(seat)
            assert view.can_peek == game.can_peek(seat)
            if view.can_peek:
                game = game.peek(seat) if rng.random() < 0.4 else game.decline_peek(seat)
            else:
                game = game.bid(seat, view.limits.legal(view.limits.minimum + rng.randrange(8)))
    return game


@pytest.mark.parametrize("rules", TIMED, ids=lambda r: r.peek_timing.value + "-" + r.id)
def test_a_game_plays_through_from_views_and_replays(rules):
    game = _play_by_views(qe.new_game(rules, 5, seed=4), random.Random(3))
    assert game.is_over and sum(game.view(0).peeks_used) >= 3
    assert qe.replay(json.loads(json.dumps(game.to_record()))) == game


def _learned(game):
    """Per (seat, sale): the amount each peek showed its peeker."""
    found = {}
    for event in game.events:
        if isinstance(event, Peeked) and event.amount is not None:
            found[event.seat, event.sale] = event.amount
    return found


@given(qst.games(players=5, rulesets=TIMED, peek_chance=0.5))
@examples(40)
def test_a_peeker_learns_exactly_the_named_sale_and_nobody_else_does(game):
    seats = range(game.players)
    if game.phase is Phase.PEEKING:  # the window holds exactly the seats that may peek
        assert game.to_act == {s for s in seats if game.can_peek(s)}
    awards = {e.sale: e for e in game.events if isinstance(e, Awarded)}
    standing = {}  # per sale, each seat's last bid
    for event in game.events:
        if isinstance(event, qe.OpeningBid | qe.SecretBid):
            standing.setdefault(event.sale, {})[event.seat] = event.amount
    learned = _learned(game)
    for seat in seats:
        view = game.view(seat)
        assert view.peeks_used[seat] <= game.ruleset.peeks_per_player
        for sale in view.history:
            award = awards.get(sale.sale)
            if award is None:
                assert sale.amount is None or sale.auctioneer == seat
                continue
            knows = award.public or seat in (award.seat, sale.auctioneer)
            if (seat, sale.sale) in learned:
                assert sale.peeked
                if game.ruleset.peek_shows is qe.PeekShows.WINNING_AMOUNT:
                    assert learned[seat, sale.sale] == award.amount == sale.amount
                else:  # de's reading: the highest standing bid of the sale
                    assert learned[seat, sale.sale] == max(standing[sale.sale].values())
            else:  # without its own peek a seat knows the amount only as the texts say
                assert sale.amount == (award.amount if knows else None)
        stream = [e for e in game.events_for(seat) if isinstance(e, Peeked)]
        assert all(e.amount is None for e in stream if e.seat != seat)
    assert qe.replay(json.loads(json.dumps(game.to_record()))) == game
