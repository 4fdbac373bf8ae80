"""The 5-player peek as a turn: the peek window, its answers, and old records."""

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules import Phase
from qe_rules import strategies as qst
from qe_rules.game import engine
from tests.support import examples

DATA = Path(__file__).parents[1] / "data"
V1_RECORD = DATA / "game-v1-5-players-peeks.json"


def play_by_views(game, rng):
    """Play ``game`` to its end from ``to_act`` and each seat's view alone: a seat whose
    view says it may peek peeks or declines, any other seat bids within its limits."""
    peeks = declines = 0
    while not game.is_over:
        assert game.to_act
        for seat in sorted(game.to_act):
            view = game.view(seat)
            assert view.to_act == game.to_act
            # every seat to act knows from its view alone what is asked of it
            assert view.can_peek != (view.limits is not None)
            if view.can_peek:
                assert view.phase is Phase.PEEKING and not view.to_bid
                if rng.random() < 0.4:
                    game, peeks = game.peek(seat), peeks + 1
                else:
                    game, declines = game.decline_peek(seat), declines + 1
            else:
                assert view.to_bid
                amount = view.limits.legal(view.limits.minimum + rng.randrange(8))
                game = game.bid(seat, amount)
    return game, peeks, declines


def test_a_five_player_game_plays_through_to_act_alone():
    game, peeks, declines = play_by_views(qe.new_game("en", 5, seed=4), random.Random(2))
    assert game.is_over and peeks >= 3 and declines >= 3
    assert sum(game.view(0).peeks_used) == peeks
    kinds = [move.kind for move in game.moves()]
    assert kinds.count("peek") == peeks and kinds.count("decline-peek") == declines
    assert qe.replay(json.loads(json.dumps(game.to_record()))) == game


@given(qst.games(players=5, rulesets=[qe.get_ruleset("en"), qe.get_ruleset("de")]))
@examples(40)
def test_the_window_holds_exactly_the_seats_that_may_peek(game):
    seats = range(game.players)
    if game.phase is Phase.PEEKING:
        assert game.to_act == {s for s in seats if game.can_peek(s)}
        assert all(game.can_decline_peek(s) == game.can_peek(s) for s in seats)
        assert all(game.bid_limits(s) is None for s in seats)
        assert not any(game.can_bid(s, 5) for s in seats)
    else:
        assert not any(game.can_peek(s) or game.can_decline_peek(s) for s in seats)


def play(game, *bids):
    for seat, amount in bids:
        game = game.bid(seat, amount)
    return game


def test_no_window_when_nobody_may_peek():
    game = play(qe.new_game("en", 5, seed=11), (0, 3), (1, 7), (2, 1), (3, 0), (4, 2))
    assert game.to_act == {2, 3, 4}
    game = game.peek(2).peek(3).peek(4)  # the last answer closes the window
    assert game.phase is Phase.OPENING and game.to_act == {1}
    # sale 1 goes to seat 0; seats 2, 3 and 4 have used their peek: no window
    game = play(game, (1, 1), (0, 9), (2, 0), (3, 0), (4, 0))
    assert game.phase is Phase.OPENING and game.to_act == {2} and game.sale == 2
    assert not any(game.can_peek(seat) for seat in range(5))
    with pytest.raises(qe.IllegalAction, match="seat 3 has used its peek"):
        game.decline_peek(3)


def finished_without_peeks(game):
    """``game`` played to its end: every seat declines every peek, and the auctioneer
    never wins (every amount stays secret)."""
    while not game.is_over:
        for seat in sorted(game.to_act):
            if game.phase is Phase.PEEKING:
                game = game.decline_peek(seat)
            else:
                offset = (seat - game.auctioneer) % 5
                game = game.bid(seat, game.bid_limits(seat).legal(2 + offset))
    return game


def test_the_last_sale_opens_no_window():
    game = finished_without_peeks(qe.new_game("en", 5, seed=3))
    assert game.phase is Phase.OVER and game.to_act == frozenset()
    last = [e for e in game.events if isinstance(e, qe.Awarded)][-1]
    assert last.sale == 14 and not last.public
    assert any(isinstance(e, qe.PeekDeclined) for e in game.events)  # earlier windows
    assert not any(game.can_peek(s) for s in range(5))


def test_a_failed_answer_changes_nothing():
    game = qe.new_game("en", 5, seed=11)
    for seat, amount in [(0, 3), (1, 7), (2, 1), (3, 0), (4, 2)]:
        game = game.bid(seat, amount)
    record = game.to_record()
    for bad in (0, 1, 5, -1, True, "2", 2.0):
        with pytest.raises(qe.RulesError):
            game.decline_peek(bad)
        with pytest.raises(qe.RulesError):
            game.peek(bad)
    assert game.to_record() == record and game.to_act == {2, 3, 4}
    with pytest.raises(qe.InvalidArgument, match="a seat is a whole number"):
        game.verify_decline_peek("2")


def test_records_carry_decline_peek_moves():
    game = qe.new_game("en", 5, seed=11)
    for seat, amount in [(0, 3), (1, 7), (2, 1), (3, 0), (4, 2)]:
        game = game.bid(seat, amount)
    game = game.decline_peek(3)
    record = game.to_record()
    assert record["version"] == 2
    assert record["moves"][-1] == {"move": "decline-peek", "seat": 3}
    assert str(qe.Move("decline-peek", 3)) == "seat 3 declines to peek"
    assert qe.replay(record) == game
    assert game.apply(qe.Move("decline-peek", 2)) == game.decline_peek(2)
    v1 = {**record, "version": 1}
    with pytest.raises(qe.InvalidRecord, match="'bid', 'peek' in a version 1 record"):
        qe.replay(v1)


# ----------------------------------------------------------------- version 1 records


def test_a_version_1_record_replays():
    """A record written by the library before the peek window was a turn: its peeks come
    before the next opening bid, and nobody declines."""
    record = json.loads(V1_RECORD.read_text(encoding="utf-8"))
    assert record["version"] == 1
    assert not any(m["move"] == "decline-peek" for m in record["moves"])
    game = qe.replay(record)
    # the figures the library that wrote the record computed for it
    assert game.is_over and game.result().winners == (0,)
    assert [r.spent for r in game.player_records()] == [31, 16, 13, 6, 39]
    peeks = [m for m in record["moves"] if m["move"] == "peek"]
    assert [m.seat for m in game.moves() if m.kind == "peek"] == [m["seat"] for m in peeks]
    # the seats that had not peeked when the next bid came declined, in seat order
    rewritten = game.to_record()
    assert rewritten["version"] == 2
    declines = [m for m in rewritten["moves"] if m["move"] == "decline-peek"]
    assert declines and len(rewritten["moves"]) == len(record["moves"]) + len(declines)
    assert [m for m in rewritten["moves"] if m["move"] != "decline-peek"] == record["moves"]
    assert qe.replay(rewritten) == game


def test_a_version_1_record_cut_inside_a_window_stops_in_it():
    record = json.loads(V1_RECORD.read_text(encoding="utf-8"))
    first_peek = next(i for i, m in enumerate(record["moves"]) if m["move"] == "peek")
    cut = qe.replay({**record, "moves": record["moves"][: first_peek + 1]})
    assert cut.phase is Phase.PEEKING  # nobody has been taken to decline yet
    peeker = record["moves"][first_peek]["seat"]
    assert peeker not in cut.to_act and cut.to_act


@given(st.integers(0, 2**16))
@examples(20)
def test_version_1_replay_equals_declining_everyone_left(seed):
    game, _, _ = play_by_views(qe.new_game("en", 5, seed=seed), random.Random(seed))
    record = game.to_record()
    old = {
        **record,
        "version": 1,
        "moves": [m for m in record["moves"] if m["move"] != "decline-peek"],
    }
    replayed = qe.replay(old)
    # the same bids and peeks; the declines are made in seat order before the next bid
    assert replayed.player_records() == game.player_records()
    assert [m for m in replayed.moves() if m.kind != "decline-peek"] == [
        m for m in game.moves() if m.kind != "decline-peek"
    ]


def test_a_window_after_the_last_sale_would_close_into_the_end():
    """No built-in opens a window after the last sale (peek_after_last_sale does, see
    test_readings); the end state then waits in phase PEEKING and the last answer ends the
    game. Built by hand here."""
    game = finished_without_peeks(qe.new_game("en", 5, seed=3))
    last = [e for e in game.events if isinstance(e, qe.Awarded)][-1]
    auctioneer = [e for e in game.events if isinstance(e, qe.SaleOpened)][-1].auctioneer
    seats = frozenset(range(5)) - {auctioneer, last.seat}
    target = engine._PeekTarget(
        sale=last.sale, auctioneer=auctioneer, winner=last.seat, amount=last.amount, public=False
    )
    end, awaiting = engine._over_sale(game._setup, target, seats)
    assert end.phase is Phase.PEEKING
    waiting = engine._make_game(game._setup, game._progress, end, awaiting, (), game._log)
    assert not waiting.is_over and waiting.to_act == seats
    first, *others = sorted(seats)
    waiting = waiting.peek(first)
    assert waiting.view(first).history[-1].amount == last.amount
    for seat in others:
        waiting = waiting.decline_peek(seat)
    assert waiting.is_over and waiting.phase is Phase.OVER and not waiting.to_act
    assert waiting.result().winners == game.result().winners
