"""JSON round trips (``from_dict``), the shipped JSON Schemas, record metadata and JSON
Lines files."""

import io
import json
from importlib import resources

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules import strategies as qst
from tests.support import examples, scoring_example
from tests.support.hostile import DOCUMENTS, SCHEMA_OF, fuzz_schemas, schema_agrees

SETTINGS = examples(40)
VALIDATORS = {
    name: jsonschema.Draft202012Validator(
        qe.json_schema(name), format_checker=jsonschema.FormatChecker()
    )
    for name in qe.SCHEMAS
}


def valid(name, document):
    """Whether ``document`` validates against the shipped schema ``name`` (and is JSON)."""
    assert json.loads(json.dumps(document)) == document
    errors = list(VALIDATORS[name].iter_errors(document))
    assert not errors, [error.message for error in errors[:3]]
    return True


def invalid(name, document):
    return not VALIDATORS[name].is_valid(document)


# ----------------------------------------------------------------- the schemas


@pytest.mark.parametrize("name", qe.SCHEMAS)
def test_each_schema_is_a_valid_schema_shipped_in_the_package(name):
    schema = qe.json_schema(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"] == f"urn:qe-rules:schema:{name}"
    shipped = resources.files("qe_rules").joinpath(f"schemas/{name}.schema.json")
    assert json.loads(shipped.read_text(encoding="utf-8")) == schema


def test_definitions_shared_between_schemas_are_the_same():
    seen = {}
    for name in qe.SCHEMAS:
        for key, definition in qe.json_schema(name).get("$defs", {}).items():
            assert seen.setdefault(key, definition) == definition, (name, key)


def test_an_unknown_schema_is_named():
    with pytest.raises(qe.InvalidArgument, match="unknown schema 'view'; schemas: game-record"):
        qe.json_schema("view")


@pytest.mark.slow  # about 2 s: kept out of the quick run
@given(qst.games(), st.data())
@SETTINGS
def test_every_document_of_a_game_validates(game, data):
    names = data.draw(st.lists(st.text(max_size=8), min_size=game.players, max_size=game.players))
    record = game.to_record(metadata={"names": names, "date": "2026-11-23", "round": [1, 2.5]})
    assert valid("game-record", record)
    assert valid("game-record", game.to_record())
    for seat in range(game.players):
        assert valid("player-view", game.view(seat).to_dict())
        for event in game.events_for(seat):
            assert valid("event", event.to_dict())
    assert valid("public-view", game.public_view().to_dict())
    for event in (*game.events, *game.public_events()):
        assert valid("event", event.to_dict())
    scores = [r.to_dict() for r in game.player_records()]
    assert valid("score-file", scores)
    assert valid("score-file", {"ruleset": game.ruleset.id, "players": scores})
    if game.is_over:
        assert valid("game-result", game.result().to_dict())


@given(qst.scoring_inputs())
@SETTINGS
def test_every_scoring_validates(inputs):
    ruleset, records = inputs
    result = qe.score_game(ruleset, records)
    assert valid("game-result", result.to_dict())
    assert valid("score-file", [r.to_dict() for r in records])


def test_the_bundled_scoring_example_validates():
    assert valid("score-file", scoring_example())


def test_the_schemas_are_strict():
    game = qe.new_game("en", 5, seed=11)
    view = game.view(1).to_dict()
    assert invalid("player-view", {**view, "secret": 1})
    assert invalid("player-view", {**view, "phase": "napping"})
    assert invalid("public-view", game.view(1).to_dict())  # a seat's own fields
    record = game.bid(0, 3).to_record()
    assert invalid("game-record", {**record, "extra": 1})
    assert invalid("game-record", {**record, "moves": [{"move": "pass", "seat": 0}]})
    declined = {"move": "decline-peek", "seat": 2}
    assert not invalid("game-record", {**record, "moves": [declined]})
    assert invalid("game-record", {**record, "version": 1, "moves": [declined]})
    assert invalid("game-record", {**record, "metadata": {"date": 20261123}})
    player = {"nation": "US", "industry": "FINANCE", "companies": [], "spent": 3}
    other = {"nation": "EU", "industry": "HOUSING", "companies": [], "spent": 2}
    assert not invalid("score-file", {"players": [player, other]})
    assert invalid("score-file", {"players": [player]})  # 2 to 5 players
    assert invalid("score-file", [{**player, "companies": ["US-FIN-2", "US-FIN-2"]}, other])
    assert invalid("score-file", {"rulset": "en", "players": [player, other]})
    assert invalid("score-file", [{**player, "zero_bid_round": 1}, other])
    assert invalid("event", {"kind": "awarded", "sale": 0})


# ----------------------------------------------------------------- from_dict round trips


@given(qst.games(), st.data())
@SETTINGS
def test_views_events_and_results_round_trip(game, data):
    seat = data.draw(st.integers(0, game.players - 1))
    view = game.view(seat)
    assert qe.PlayerView.from_dict(json.loads(json.dumps(view.to_dict()))) == view
    public = game.public_view()
    assert qe.PublicView.from_dict(public.to_dict()) == public
    for sale in view.history:
        assert qe.SaleView.from_dict(sale.to_dict()) == sale
    for event in (*game.events, *game.events_for(seat), *game.public_events()):
        assert qe.Event.from_dict(event.to_dict()) == event
    record = qe.GameRecord.from_dict(game.to_record(metadata={"event": "club night"}))
    assert qe.GameRecord.from_dict(record.to_dict()) == record
    if game.is_over:
        result = game.result()
        assert qe.GameResult.from_dict(result.to_dict()) == result
        for sheet in result.sheets:
            assert qe.ScoreSheet.from_dict(sheet.to_dict()) == sheet


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda v: v.pop("seat"), "view lacks seat"),
        (lambda v: v.update(secret=1), r"view has unknown keys \['secret'\]; its keys are ruleset"),
        (lambda v: v.update(phase="napping"), "view.phase must be one of 'opening'"),
        (lambda v: v.update(to_act=[0, "1"]), r"view.to_act\[1\] must be a whole number"),
        (
            lambda v: v.update(industry="COAL"),
            "view.industry must be one of 'AGRICULTURE', .*, got 'COAL'",
        ),
        (lambda v: v.update(limits={"minimum": 1}), "view.limits lacks forbidden"),
        (lambda v: v.update(can_peek=1), "view.can_peek must be true or false, got 1"),
        (lambda v: v["history"][0].update(amount=-1), r"view.history\[0\].amount must be"),
        (
            lambda v: v["history"][0].update(company="XX"),
            r"view.history\[0\].company must be a tile code",
        ),
        (lambda v: v["history"][0].pop("peeked"), r"sale lacks peeked|history\[0\] lacks"),
        (lambda v: v.update(holdings=[["US-FIN-2"], [3]]), r"view.holdings\[1\]\[0\] must be"),
    ],
)
def test_from_dict_names_what_is_wrong(change, message):
    game = qe.new_game("en", 4, seed=3).bid(0, 4).bid(1, 6).bid(2, 0).bid(3, 2)
    data = game.view(2).to_dict()
    change(data)
    with pytest.raises(qe.InvalidArgument, match=message):
        qe.PlayerView.from_dict(data)


def test_results_and_events_from_dict_name_what_is_wrong():
    with pytest.raises(qe.InvalidArgument, match="result must be an object, got 3"):
        qe.GameResult.from_dict(3)
    with pytest.raises(qe.InvalidArgument, match=r"result.sheets\[0\] lacks"):
        qe.GameResult.from_dict({"ruleset": "en", "sheets": [{}], "winners": [], "gaps": []})
    with pytest.raises(qe.InvalidArgument, match=r"event\.kind must be one of 'sale-opened'"):
        qe.Event.from_dict({"kind": "bid"})
    with pytest.raises(qe.InvalidArgument, match=r"awarded event lacks .*fallback"):
        qe.Event.from_dict({"kind": "awarded", "sale": 0})
    with pytest.raises(qe.InvalidArgument, match="public view has unknown keys"):
        qe.PublicView.from_dict(qe.new_game("en", 3, seed=1).view(0).to_dict())


# ----------------------------------------------------------------- metadata and JSON Lines


def test_metadata_travels_with_the_record_and_not_with_the_game():
    game = qe.new_game("en", 3, seed=1).bid(0, 2)
    metadata = {"names": ["Ada", "Bo", "Cy"], "date": "2026-11-23", "table": {"id": 4}}
    record = game.to_record(metadata=metadata)
    assert record["metadata"] == metadata
    assert "metadata" not in game.to_record()
    assert qe.replay(record) == game
    parsed = qe.GameRecord.from_dict(record)
    assert parsed.metadata["names"] == ("Ada", "Bo", "Cy")  # frozen
    assert parsed.to_dict() == record
    metadata["names"].append("Di")  # the record keeps its own copy
    assert parsed.to_dict()["metadata"]["names"] == ["Ada", "Bo", "Cy"]


@pytest.mark.parametrize(
    ("metadata", "message"),
    [
        ([1], "metadata must be an object"),
        ({"date": 20261123}, "metadata.date must be a string"),
        ({"names": "Ada"}, "metadata.names must be a list of strings"),
        ({"x": {1: 2}}, "metadata.x: keys must be strings"),
        ({"x": float("nan")}, "metadata.x: a finite number is needed"),
        ({"x": "y" * (qe.limits.MAX_TEXT_LENGTH + 1)}, "MAX_TEXT_LENGTH"),
        ({"x": object()}, "metadata.x must hold JSON data only"),
    ],
)
def test_bad_metadata_is_named(metadata, message):
    game = qe.new_game("en", 3, seed=1)
    with pytest.raises(qe.InvalidArgument, match=message):
        game.to_record(metadata=metadata)
    record = {**game.to_record(), "metadata": metadata}
    with pytest.raises(qe.InvalidRecord, match=message):
        qe.replay(record)


def test_deep_metadata_is_refused():
    deep = {}
    for _ in range(qe.limits.MAX_NESTING + 2):
        deep = {"x": deep}
    with pytest.raises(qe.InvalidRecord, match="MAX_NESTING"):
        qe.GameRecord.from_dict({**qe.new_game("en", 3, seed=1).to_record(), "metadata": deep})


def test_many_games_in_one_json_lines_file():
    games = [
        qe.new_game(ruleset, 4, seed=seed).bid(0, 3) for ruleset in qe.RULESETS for seed in (1, 2)
    ]
    named = qe.GameRecord.from_dict(games[0].to_record(metadata={"event": "club night"}))
    out = io.StringIO()
    assert qe.dump_records([*games, named, games[1].to_record()], out) == len(games) + 2
    text = out.getvalue()
    assert text.count("\n") == len(games) + 2
    for line in text.splitlines():
        assert valid("game-record", json.loads(line))
    records = list(qe.load_records(io.StringIO(text + "\n\n")))  # blank lines are skipped
    assert [qe.replay(r) for r in records[: len(games)]] == games
    assert records[-2] == named and records[-2].metadata["event"] == "club night"


def test_a_bad_json_lines_file_names_the_line():
    line = json.dumps(qe.new_game("en", 4, seed=1).to_record())
    with pytest.raises(qe.InvalidRecord, match="line 2 is not valid JSON"):
        list(qe.load_records(io.StringIO(f"{line}\n{{oops\n")))
    broken = json.loads(line)
    del broken["deck"]
    with pytest.raises(qe.InvalidRecord, match="line 3: the game record lacks deck"):
        list(qe.load_records([line, "", json.dumps(broken)]))
    with pytest.raises(qe.InvalidArgument, match="record 0: give a Game, a GameRecord"):
        qe.dump_records([3], io.StringIO())
    with pytest.raises(qe.InvalidRecord, match="unknown keys"):
        qe.dump_records([{**json.loads(line), "x": 1}], io.StringIO())


# ----------------------------------------------------------------- schemas agree with readers


@pytest.mark.parametrize("name", sorted(SCHEMA_OF))
@given(rng=st.randoms(use_true_random=False))
@examples(25)
def test_a_document_validates_if_and_only_if_its_reader_accepts_it(name, rng):
    # one to three mutations of a document the library wrote, some of them numbers
    # (1.0, bounds); fields that disagree with each other are the readers' alone
    fuzz_schemas(rng, name)


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("player-view", lambda d: d.update(nations=[n.lower() for n in d["nations"]])),
        ("player-view", lambda d: d.update(industry=" " + d["industry"])),
        ("public-view", lambda d: d.update(sale=1.0)),
        ("public-view", lambda d: d.update(opening_bid=qe.limits.MAX_BID + 1)),
        ("event", lambda d: d.update(kind="opening-bid", amount=None, seat=0) or d.pop("rebid")),
        ("event", lambda d: d.update(sale=1e308)),
        ("game-result", lambda d: d["sheets"][0].update(spent=9223372036854775808)),
        ("game-record", lambda d: d.update(players=4.0)),
        ("game-record", lambda d: d.update(metadata={"date": "x" * 10_001})),
        ("game-record", lambda d: d["deck"].__setitem__(0, "uk-fin-4")),
        ("score-file", lambda d: d["players"][0].update(nation="jp")),
    ],
)
def test_the_cases_where_schemas_and_readers_disagreed_now_agree(name, change):
    data = json.loads(json.dumps(DOCUMENTS[name][1][0]))
    if name == "event":
        data = {"kind": "secret-bid", "sale": 0, "seat": 1, "amount": 3, "rebid": 0}
    change(data)
    schema_agrees(name, data)
