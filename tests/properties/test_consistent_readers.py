"""Regression tests for the findings of the third round on untrusted input (issue 40,
``../shared/reviews/readers-2026-11-28.md``, N1 to N15): a reader accepts only what the
library could have made, every public function checks its arguments, environments refuse
without breaking, sizes are bounded before arrays are made, rule-set ids are printable
and name their rules, and the command line fails in one line."""

import copy
import io
import json
import math
import os
import random
import socket

import numpy as np
import pytest

import qe_rules as qe
from qe_rules import batch, limits
from qe_rules._util.reading import is_disagreement
from qe_rules.simulation.comparison import Comparison
from qe_rules.simulation.play import play_game
from qe_rules.simulation.stats import _STATS_FIGURES, SimulationStats
from tests.support.fuzz import HUGE, run_cli


def _result_with_a_winner_and_a_seat_out():
    """A 3-player result with a single winner and an eliminated seat (found, not pinned)."""
    for seed in range(200):
        result = play_game("en", 3, "random", seed=seed).result()
        out = [s.seat for s in result.sheets if s.eliminated]
        if result.winner is not None and len(out) == 1:
            return result.to_dict(), result.winner, out[0]
    raise AssertionError("no such game among 200")


RESULT, WINNER, OUT = _result_with_a_winner_and_a_seat_out()
OTHER = ({0, 1, 2} - {WINNER, OUT}).pop()
SUBTOTAL = RESULT["sheets"][OTHER]["subtotal"]


def refused(reader, data, match, **options):
    with pytest.raises(qe.InvalidArgument, match=match) as raised:
        reader(data, **options)
    return raised.value


# ------------------------------------------------------------------ N1: results and sheets


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["sheets"][OTHER].update(total=999, monopolization=500),
         rf"subtotal: is {SUBTOTAL}, but"),
        (lambda d: d["sheets"][OTHER].update(total=999), r"total: is 999"),
        (lambda d: d["sheets"][OTHER].update(monopolization=500), "subtotal: is"),
        (lambda d: d.update(winners=[OTHER]), rf"winners: are \[{OTHER}\], but .* give \[{WINNER}\]"),
        (lambda d: d.update(winners=[OUT]), rf"winners: are \[{OUT}\]"),
        (lambda d: d.update(winners=[]), r"winners: are \[\]"),
        (lambda d: d["sheets"][OUT].update(eliminated=False), rf"sheets.{OUT}..eliminated"),
        (lambda d: d["sheets"][OUT].update(lowest_spend_bonus=6, total=d["sheets"][OUT]["total"] + 6),
         "lowest_spend_bonus"),
        (lambda d: d["sheets"][OTHER].update(zero_bids=7, subtotal=SUBTOTAL + 7,
                                             total=d["sheets"][OTHER]["total"] + 7), "zero_bids"),
        (lambda d: d.update(gaps=[{"code": "tie-after-tiebreak", "message": "x", "seats": [0, 2]}]),
         "gaps: differ from the gaps scoring reports"),
        (lambda d: d.update(ruleset="xx"), "unknown rule set 'xx'"),
    ],
)  # fmt: skip
def test_a_result_is_read_only_as_scoring_decides_it(change, message):
    data = copy.deepcopy(RESULT)
    change(data)
    error = refused(qe.GameResult.from_dict, data, message)
    assert is_disagreement(error)


def test_a_sheet_whose_sums_disagree_is_refused_on_its_own():
    sheet = RESULT["sheets"][OTHER]
    refused(qe.ScoreSheet.from_dict, {**sheet, "subtotal": sheet["subtotal"] + 1}, "subtotal")
    refused(qe.ScoreSheet.from_dict, {**sheet, "total": 999}, "total")


def test_every_result_the_library_scores_is_read_back():
    rng = random.Random(40)
    for seed in range(60):
        rules = qe.get_ruleset(rng.choice([*qe.RULESETS, "en:beyond_table=zero"]))
        players = rng.choice(rules.player_counts)
        result = play_game(rules, players, rng.choice(["random", "zero"]), seed=seed).result()
        assert qe.GameResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result


def test_a_result_of_a_rule_set_from_a_file_is_read_with_it(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('id = "house"\nextends = "en"\n[rules]\nzero_bid_points = 3\n', "utf-8")
    house = qe.load_ruleset(path)
    result = play_game(house, 4, "zero", seed=2).result()
    refused(qe.GameResult.from_dict, result.to_dict(), r"ruleset=\.\.\.")
    assert qe.GameResult.from_dict(result.to_dict(), ruleset=house) == result
    refused(qe.GameResult.from_dict, result.to_dict(), "the rule set given is 'en'", ruleset="en")


# ------------------------------------------------------------------ N2: views


def _view_at(sales=4):
    game = qe.new_game("en", 4, seed=3)
    while game.sale < sales:
        for seat in sorted(game.to_act):
            limits_ = game.bid_limits(seat)
            game = game.bid(seat, limits_.legal(limits_.minimum + seat))
    return game


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(phase="over", result=None), "view.phase"),
        (lambda d: d["holdings"][1].append(d["company"]), r"holdings\[1\]: differ"),
        (lambda d: d.update(history=[]), "view.history: sale 4 follows 4 finished sales, got 0"),
        (lambda d: d.update(to_act=[0, 1, 2, 3]), "only the auctioneer acts"),
        (lambda d: d.update(ruleset="xx"), "unknown rule set 'xx'"),
        (lambda d: d.update(history=d["history"] * 400), "got 1600"),
        (lambda d: d.update(spent=d["spent"] + 1), "view.spent"),
        (lambda d: d.update(round=3), "view.round"),
    ],
)
def test_a_view_is_read_only_as_a_state_the_engine_could_be_in(change, message):
    data = _view_at().view(0).to_dict()
    change(data)
    refused(qe.PlayerView.from_dict, data, message)


def test_a_finished_view_shows_the_result_its_holdings_score():
    data = play_game("en", 4, "random", seed=1).view(1).to_dict()
    sheet = data["result"]["sheets"][0]
    for key in ("monopolization", "subtotal", "total"):
        sheet[key] += 1  # the sums agree, the scoring does not
    refused(qe.PlayerView.from_dict, data, "view.result: differs from the scoring")


def test_a_peek_window_after_the_last_sale_is_read_back():
    rules = qe.get_ruleset("en:peek_after_last_sale=true")
    for seed in range(40):
        game = play_game(rules, 5, "random", seed=seed)
        record = game.to_record()
        record["moves"] = record["moves"][:-1]  # the last answer of the window, if any
        cut = qe.replay(record)
        view = cut.public_view()
        if view.phase is qe.Phase.PEEKING and view.company is None:
            assert view.remaining == 0
            assert qe.PublicView.from_dict(view.to_dict()) == view
            return
    pytest.fail("no game ended in a peek window")


# ------------------------------------------------------------------ N3 and N13: rule-set ids


def test_a_rule_file_may_not_take_a_spec_id_of_other_rules(tmp_path):
    path = tmp_path / "spec.toml"
    path.write_text(
        'id = "en:zero_bid_points=3"\nextends = "en"\n[rules]\nzero_bid_points = 4\n'
        "min_opening_bid = 5\n",
        "utf-8",
    )
    with pytest.raises(qe.InvalidRuleSet, match="a spec string naming other rules"):
        qe.load_ruleset(path)
    data = qe.get_ruleset("en").to_dict()
    with pytest.raises(qe.InvalidRuleSet, match="a spec string naming other rules"):
        qe.RuleSet.from_dict({**data, "id": "en:zero_bid_points=3"})


@pytest.mark.parametrize(
    "line",
    ['id = "x\\u0001y\\u001b[31m"', 'title = "t\\u0000"', 'title = "\\u202e"',
     'language = "xx y"', 'source = "\\u0007"'],
)  # fmt: skip
def test_ids_titles_and_languages_are_printable(tmp_path, line):
    path = tmp_path / "odd.toml"
    head = "" if line.startswith("id ") else 'id = "odd"\n'
    path.write_text(f'{head}extends = "en"\n{line}\n', "utf-8")
    with pytest.raises(qe.InvalidRuleSet, match=r"printable text|a language tag"):
        qe.load_ruleset(path)
    status, err = run_cli(["rules", str(path)])
    assert status == 2 and "\x1b" not in err and err.count("\n") == 1


# ------------------------------------------------------------------ N4: statistics


def _stats(**changes):
    data = qe.simulate("en", 3, "random", 6, seed=1, rows=True).to_dict()
    for key in _STATS_FIGURES:  # the figures computed from the counts: left out
        data.pop(key)
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"total_squares": [0, 0, 0]}, "a variance below 0"),
        ({"unsold_sales": 10**11, "rows": None}, "more than the 96 sales"),
        ({"ruleset": "en:player_counts=[4,5]", "rows": None}, "statistics.ruleset"),
        ({"winning_totals": 10**6, "rows": None}, "winning_totals"),
    ],
)
def test_statistics_are_read_only_within_what_their_games_hold(changes, message):
    data = _stats(**changes)
    if data.get("rows") is None:
        data.pop("rows")
    refused(SimulationStats.from_dict, data, message)


def test_statistics_rows_add_up_to_the_counts():
    data = _stats()
    data["rows"][0]["total"] = 999
    refused(SimulationStats.from_dict, data, r"rows\[0\].total")
    data = _stats()
    data["rows"][0]["won"] = not data["rows"][0]["won"]
    refused(SimulationStats.from_dict, data, r"rows\[0\].won")


# ------------------------------------------------------------------ N5, N6, N7: arguments


@pytest.mark.parametrize(
    "counts", [[1] * 6, ["1", "1"], None, [10**6] * 4, [64] * 5, [1.5, 1], [-1, 2], [True] * 4]
)
def test_diversification_points_checks_its_counts(counts):
    with pytest.raises(qe.InvalidArgument, match="count"):
        qe.diversification_points(qe.get_ruleset("en"), 5, counts)


def test_diversification_points_of_the_most_items_is_quick():
    assert qe.diversification_points("en", 5, (5, 5, 4, 4, 4)) > 0


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"checks": ["no-such-check"]}, "unknown check 'no-such-check'"),
        ({"checks": "last-tile"}, "checks is a list of check names"),
        ({"checks": True}, "checks is a list of check names"),
        ({"random_games": "x"}, "random_games is a whole number"),
        ({"random_games": -1}, "random_games is a whole number"),
        ({"thorough": "yes"}, "thorough is True or False"),
    ],
)
def test_verify_checks_its_options_before_any_work(options, message):
    with pytest.raises(qe.InvalidArgument, match=message):
        qe.verify("en", **options)
    with pytest.raises(qe.InvalidArgument, match="a RuleSet or a rule set id"):
        qe.verify(b"en")


def test_new_game_checks_its_seed():
    for seed in (HUGE, 2**1024, True, 1.5, b"x", "x" * (limits.MAX_TEXT_LENGTH + 1)):
        with pytest.raises(qe.InvalidArgument, match="a seed is a whole number"):
            qe.new_game("en", 3, seed=seed)
    named = qe.new_game("en", 3, seed="en-3-1")  # the verifier's named deals
    assert named == qe.new_game("en", 3, seed="en-3-1")


def test_other_wrong_arguments_are_refused():
    with pytest.raises(qe.InvalidArgument, match="is not an open question"):
        qe.get_open_question([])
    closed = io.StringIO()
    closed.close()
    for file in (io.BytesIO(), closed):
        with pytest.raises(qe.InvalidArgument, match="a text file open for writing"):
            qe.dump_records([qe.new_game("en", 3, seed=1)], file)

    class Twisted(str):
        def __eq__(self, other):
            return True

        __hash__ = str.__hash__

    with pytest.raises(qe.InvalidArgument, match="unknown schema"):
        qe.json_schema(Twisted("x"))
    book = qe.rulebook("en")
    with pytest.raises(qe.InvalidArgument, match="picture is a function"):
        book.to_html(picture=5)
    with pytest.raises(qe.InvalidArgument, match="must return SVG text"):
        book.to_html(picture=lambda tile: 5)
    with pytest.raises(qe.InvalidArgument, match="no rulebook catalog"):
        qe.rulebook("en", lang=[])


def test_an_empty_verification_report_prints():
    assert "0 findings" in str(qe.verify("en", checks=[]))


# ------------------------------------------------------------------ N8: comparisons


def _comparison():
    rulesets = ["en", "en-early", "en:final_tiebreak=none"]
    found = qe.compare(rulesets, 4, "random", 60, seed=3)
    assert found.examples
    return found.to_dict()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(examples=d["examples"] * 3), "one example for each rule set"),
        (lambda d: d["examples"][0].update(game=d["examples"][0]["game"] + 1),
         "is not the deal of game"),
        (lambda d: d["examples"][0].update(winners=[(d["examples"][0]["winners"][0] + 1) % 4]),
         r"examples\[0\]\.winners"),
        (lambda d: d["examples"][0].update(
            record=play_game("en", 4, "random", seed=99).to_record()), "is not the deal"),
        (lambda d: d.update(examples=[]), "one example for each rule set"),
        (lambda d: d.update(examples=7), "must be a list"),
    ],
)  # fmt: skip
def test_comparison_examples_are_games_of_the_run(change, message):
    data = _comparison()
    change(data)
    refused(Comparison.from_dict, data, message)


def test_a_comparison_and_its_rows_are_read_back():
    found = qe.compare(["de", "de-summary", "en"], 5, "value", 6, seed=2, rows=True)
    assert Comparison.from_dict(found.to_dict()) == found
    data = found.to_dict()
    data["rows"][0]["causes"] = "elimination"
    refused(Comparison.from_dict, data, r"rows\[0\]")


# ------------------------------------------------------------------ N9: the score-file schema


def test_the_score_file_schema_states_what_its_reader_refuses_field_by_field(tmp_path):
    import jsonschema

    schema = jsonschema.Draft202012Validator(qe.json_schema("score-file"))
    player = {"nation": "US", "industry": "FIN", "companies": ["US-FIN-2", "US-FIN-2"], "spent": 3}
    other = {"nation": "EU", "industry": "HOU", "companies": [], "spent": 2}
    third = {"nation": "CN", "industry": "AGR", "companies": [], "spent": 4}
    assert not schema.is_valid([player, other, third])  # a tile twice in one seat
    path = tmp_path / "score.json"
    path.write_text(json.dumps([player, other, third]), "utf-8")
    status, err = run_cli(["score", str(path)])
    assert status == 2 and "held twice" in err
    for count in (0, 1, 6):
        assert not schema.is_valid({"players": [other] * count})


# ------------------------------------------------------------------ N10: OpenSpiel


def _dealt_state():
    pyspiel = pytest.importorskip("pyspiel")
    from qe_rules.learning import openspiel_game  # noqa: F401 (registers the game)

    state = pyspiel.load_game("python_qe", {"players": 4}).new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    return state, rng


@pytest.mark.parametrize("action", [10**9, 999, 200, 33, -1, pytest.param(HUGE, id="huge")])
def test_an_openspiel_state_refuses_an_illegal_action_and_stays_usable(action):
    state, rng = _dealt_state()
    legal, player = state.legal_actions(), state.current_player()
    with pytest.raises(qe.IllegalAction):
        state.apply_action(action)
    assert (state.legal_actions(), state.current_player()) == (legal, player)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert sum(state.returns()) in (0.0, 1.0) or math.isclose(sum(state.returns()), 1.0)
    with pytest.raises(qe.IllegalAction, match="the game is over"):
        state.apply_action(3)


@pytest.mark.parametrize("max_rounds", [-1, 0, "5", 1.5, pytest.param(HUGE, id="huge")])
def test_the_openspiel_game_checks_its_parameters(max_rounds):
    pytest.importorskip("pyspiel")
    from qe_rules.learning.openspiel_game import QEGame

    with pytest.raises(qe.InvalidArgument, match="max_rounds"):
        QEGame({"max_rounds": max_rounds})


# ------------------------------------------------------------------ N11 and N12: environments


@pytest.mark.parametrize(
    ("factory", "message"),
    [(lambda seed: None, "made None"), (lambda seed: 1 / 0, "ZeroDivisionError"),
     (lambda seed: 5, "made 5")],
)  # fmt: skip
def test_a_gymnasium_factory_that_makes_no_agent_is_an_agent_error_at_once(factory, message):
    from qe_rules.learning.gymnasium_env import QESeatEnv

    with pytest.raises(qe.AgentError, match=message) as raised:
        QESeatEnv("en", 3, opponents=factory).reset(seed=1)
    assert raised.value.seat == 1


def test_batch_and_vector_sizes_are_bounded_before_arrays_are_made():
    from qe_rules.learning.vector_env import BatchVectorEnv

    with pytest.raises(qe.InvalidArgument, match="MAX_BATCH_GAMES"):
        batch.play("en", 3, 10**12, agents="random", seed=1)
    with pytest.raises(qe.InvalidArgument, match="games is a whole number"):
        batch.play("en", 3, HUGE, agents="random", seed=1)
    for envs in (10**7, HUGE):
        with pytest.raises(qe.InvalidArgument, match="MAX_VECTOR_ENVS"):
            BatchVectorEnv("en", 3, num_envs=envs)


@pytest.mark.parametrize(
    "actions",
    [np.full((4, 3), None, dtype=object), np.full((4, 3), np.nan), np.full((4, 3), "x"),
     np.full((4, 3), -1), np.full((4, 3), 10**10), [[1, 2], [3]]],
)  # fmt: skip
def test_the_vector_environment_refuses_actions_outside_its_space(actions):
    from qe_rules.learning.vector_env import BatchVectorEnv

    env = BatchVectorEnv("en", 3, num_envs=4)
    env.reset(seed=1)
    with pytest.raises(qe.InvalidArgument, match=r"actions are \(4, 3\) whole numbers"):
        env.step(actions)
    assert env.step(np.zeros((4, 3), dtype=np.int64))[1].shape == (4, 3)


def test_pettingzoo_names_a_huge_action_and_refuses_one_after_the_end():
    from qe_rules.learning.parallel_env import QEParallelEnv
    from qe_rules.learning.pettingzoo_env import QEEnv

    env = QEEnv("en", 3)
    env.reset(seed=1)
    with pytest.raises(qe.IllegalAction, match="about 5001 digits"):
        env.step(HUGE)
    while env.agents:
        observation, _, done, cut, _ = env.last()
        if done or cut:
            with pytest.raises(qe.IllegalAction, match="the game is over"):
                env.step(0)
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    parallel = QEParallelEnv("en", 3)
    observations, _ = parallel.reset(seed=1)
    with pytest.raises(qe.IllegalAction, match="about 5001 digits"):
        parallel.step(dict.fromkeys(observations, HUGE))


# ------------------------------------------------------------------ N14 and N15: the command line


def test_rulebook_output_goes_only_into_an_existing_folder(tmp_path):
    target = tmp_path / "missing" / "deeper" / "book.md"
    status, err = run_cli(["rulebook", "en", "--output", str(target)])
    assert status == 3 and "No such file or directory" in err
    assert not (tmp_path / "missing").exists()


def test_serve_refuses_a_host_it_cannot_listen_on_before_starting(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, err = run_cli(["serve", "--host", "999.1.1.1", "--port", "1"])
    assert status == 2 and err.startswith("qe-rules: error: --host") and err.count("\n") == 1
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, err = run_cli(["serve", "--port", str(port)])
    assert status == 2 and "cannot listen" in err
    assert not (tmp_path / "qe-tables.sqlite3").exists()


def test_serve_names_a_fifo_database_once(tmp_path):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    status, err = run_cli(["serve", "--db", str(fifo)])
    assert status == 2 and err.count("--db") == 1
