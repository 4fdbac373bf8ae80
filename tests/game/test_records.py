"""Game records: round trips through JSON, and corrupt records raise InvalidRecord only."""

import copy
import json
import pickle

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules import strategies as qst
from tests.support import examples

SETTINGS = examples(60)


@given(qst.games())
@SETTINGS
def test_replay_of_a_json_record_is_the_same_game(game):
    record = json.loads(json.dumps(game.to_record()))
    again = qe.replay(record)
    assert again == game
    assert hash(again) == hash(game)
    assert again.events == game.events
    assert [again.view(s) for s in range(game.players)] == [
        game.view(s) for s in range(game.players)
    ]
    assert again.to_record() == record


def test_a_custom_rule_set_travels_inside_the_record():
    house = attrs.evolve(qe.get_ruleset("en"), id="house", secret_bid_may_equal_opening=True)
    game = qe.new_game(house, 4, seed=1).bid(0, 5).bid(1, 5)
    record = json.loads(json.dumps(game.to_record()))
    assert isinstance(record["ruleset"], dict) and record["ruleset"]["id"] == "house"
    assert qe.replay(record) == game
    renamed = attrs.evolve(qe.get_ruleset("en"), id="en", zero_bid_points=3)
    record = qe.new_game(renamed, 4, seed=1).to_record()
    assert isinstance(record["ruleset"], dict)  # not the built-in en, despite its id


@given(qst.rulesets(), st.data())
@examples(30)
def test_games_under_random_rule_sets_round_trip(rules, data):
    game = data.draw(qst.games(rulesets=[rules]))
    assert qe.replay(json.loads(json.dumps(game.to_record()))) == game


def test_builtin_rule_sets_are_written_as_ids():
    record = qe.new_game("de", 3, seed=1).to_record()
    assert record["ruleset"] == "de"
    assert record["format"] == "qe-rules/game" and record["version"] == 2
    assert record["moves"] == []


def test_games_pickle_and_copy():
    game = qe.new_game("en", 5, seed=2).bid(0, 3)
    assert pickle.loads(pickle.dumps(game)) == game
    assert copy.deepcopy(game) == game


def late_five_player_game():
    game = qe.new_game("en", 5, seed=9)
    while game.sale < 12:
        for seat in sorted(game.to_act):
            if game.phase is qe.Phase.PEEKING:
                game = game.peek(seat) if seat % 2 else game.decline_peek(seat)
            else:
                game = game.bid(seat, game.bid_limits(seat).legal(1 + (seat + game.sale) % 5))
    return game


def test_copies_are_the_game_itself_and_pickles_hold_its_state(monkeypatch):
    game = late_five_player_game()
    assert copy.copy(game) is game and copy.deepcopy(game) is game
    assert copy.deepcopy({"game": game, "games": [game]})["games"][0] is game
    game.view(2), game.public_view(), game.result if game.is_over else None  # fill caches
    monkeypatch.setattr("qe_rules.game.engine.replay", None)  # a pickle does not replay the game
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        loaded = pickle.loads(pickle.dumps(game, protocol=protocol))
        assert loaded == game and hash(loaded) == hash(game)
        assert loaded.events == game.events and loaded.moves() == game.moves()
        assert loaded.views() == game.views() and loaded.public_view() == game.public_view()
        assert loaded.to_act == game.to_act and loaded.phase is game.phase
        # the copy plays on exactly as the game does
        seat = min(game.to_act)
        move = (
            qe.Move("peek", seat)
            if game.phase is qe.Phase.PEEKING
            else qe.Move("bid", seat, game.bid_limits(seat).minimum)
        )
        assert loaded.apply(move) == game.apply(move)
        with pytest.raises(AttributeError):
            loaded._sale = None


def test_a_pickle_of_a_long_game_needs_no_deep_recursion():
    endless = attrs.evolve(qe.get_ruleset("en"), id="en-endless", tie_fallback=qe.TieFallback.NONE)
    game = qe.new_game(endless, 4, seed=1).bid(0, 1)
    for _ in range(3000):  # tied rebids, one move each
        game = game.bid_many(dict.fromkeys(game.to_act, 5))
    assert len(game.events) > 9000
    assert pickle.loads(pickle.dumps(game)) == game


def test_a_failing_move_is_named():
    record = qe.new_game("en", 4, seed=2).bid(0, 3).bid(1, 5).to_record()
    record["moves"][1]["amount"] = 3
    with pytest.raises(qe.InvalidRecord, match=r"move 1 \(seat 1 bids 3\): .*may not equal"):
        qe.replay(record)
    record["moves"][1] = {"move": "bid", "seat": 0, "amount": 4}
    with pytest.raises(qe.InvalidRecord, match=r"move 1 \(seat 0 bids 4\): .*already bid"):
        qe.replay(record)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.pop("deck"), "lacks deck"),
        (lambda r: r.update(extra=1), "unknown keys"),
        (lambda r: r.update(format="chess"), "'format' must be"),
        (lambda r: r.update(version=3), "record versions 1, 2, got 3"),
        (lambda r: r.update(version=True), "record versions 1, 2, got True"),
        (lambda r: r.update(ruleset="fr"), "unknown rule set 'fr'"),
        (lambda r: r.update(ruleset={"id": "x"}), "'ruleset'"),
        (lambda r: r.update(players="4"), "'players' must be a whole number"),
        (lambda r: r.update(players=6), "'players': en is played by 3, 4, 5 players, got 6"),
        (lambda r: r["deck"].pop(), "setup: deck must hold"),
        (lambda r: r["deck"].__setitem__(0, "XX-FIN-2"), r"'deck'\[0\]"),
        (lambda r: r["nations"].__setitem__(0, 7), r"'nations'\[0\] must be one of 'US'"),
        (lambda r: r.update(first_auctioneer=True), "'first_auctioneer' must be"),
        (lambda r: r.update(moves={}), "'moves' must be a list"),
        (lambda r: r["moves"].append([]), "move 0 must be an object"),
        (lambda r: r["moves"].append({"move": "pass", "seat": 0}), "'bid', 'peek', 'decline-peek'"),
        (lambda r: r["moves"].append({"move": "bid", "seat": 0}), "exactly the keys"),
        (lambda r: r["moves"].append({"move": "bid", "seat": 0, "amount": 1.5}), "amount"),
        (lambda r: r["moves"].append({"move": "peek", "seat": 1}), "move 0 .*nothing to peek"),
    ],
)
def test_corrupt_records(change, message):
    record = qe.new_game("en", 5, seed=2).to_record()
    change(record)
    with pytest.raises(qe.InvalidRecord, match=message):
        qe.replay(record)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)


def test_deeply_nested_values_raise_invalid_record():
    deep = []
    for _ in range(5000):
        deep = [deep]
    for key in ("players", "deck", "moves", "ruleset", "version"):
        record = qe.new_game("en", 4, seed=1).to_record()
        record[key] = deep
        with pytest.raises(qe.InvalidRecord):
            qe.replay(record)


@given(JSON)
@examples(200)
def test_random_json_raises_only_invalid_record(data):
    with pytest.raises(qe.InvalidRecord):
        qe.replay(data)


def mutate(record, data):
    """One random corruption of a valid record."""
    record = json.loads(json.dumps(record))
    target = data.draw(st.sampled_from(["top", "deck", "nations", "industries", "moves"]))
    value = data.draw(JSON)
    if target == "top":
        key = data.draw(st.sampled_from([*record, "other"]))
        if data.draw(st.booleans()):
            record.pop(key, None)
        else:
            record[key] = value
    elif target == "moves" and record["moves"]:
        moves = record["moves"]
        index = data.draw(st.integers(0, len(moves) - 1))
        how = data.draw(st.sampled_from(["amount", "seat", "drop", "swap", "value", "key"]))
        if how == "amount" and "amount" in moves[index]:
            moves[index]["amount"] = data.draw(st.integers(-5, 50))
        elif how == "seat":
            moves[index]["seat"] = data.draw(st.integers(-1, 6))
        elif how == "drop":
            moves.pop(index)
        elif how == "swap":
            other = data.draw(st.integers(0, len(moves) - 1))
            moves[index], moves[other] = moves[other], moves[index]
        elif how == "value":
            moves[index] = value
        else:
            moves[index][data.draw(st.sampled_from(["move", "seat", "amount", "x"]))] = value
    elif isinstance(record.get(target), list) and record[target]:
        items = record[target]
        items[data.draw(st.integers(0, len(items) - 1))] = value
    return record


@given(qst.games(), st.data())
@examples(150)
def test_mutated_records_replay_or_raise_invalid_record(game, data):
    record = mutate(game.to_record(), data)
    try:
        replayed = qe.replay(record)
    except qe.InvalidRecord:
        return
    assert isinstance(replayed, qe.Game)
    again = replayed.to_record()  # a record that replays is one the game writes back
    assert json.loads(json.dumps(again)) == again
    assert qe.replay(again) == replayed
    assert qe.replay(again).to_record() == again
