"""Rule sets compared: changes of winner and their causes, examples that replay, games
played under each rule set, merged comparisons, round trips, bad rule sets."""

import functools
import json

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules.game.scoring import score_game
from qe_rules.simulation.comparison import CHANGE_CAUSES, Comparison, PlayedComparison, compare
from qe_rules.simulation.intervals import wilson_interval
from qe_rules.simulation.stats import simulate
from tests.support import cli, examples, is_json
from tests.support.simulation import ENGINES, MIXED, engine_game

# ----------------------------------------------------------------- compare


@functools.cache
def early_comparison(engine):
    return compare(["en", "en-early", "de", "de-summary"], 4, MIXED, 80, seed=7, engine=engine)


@pytest.mark.parametrize("engine", ENGINES)
def test_compare_counts_match_the_per_game_winners(engine):
    c = early_comparison(engine)
    assert isinstance(c, Comparison) and len(c.winners) == c.games == 80
    assert c.engine == engine
    # both engines play the same games: the same comparison
    assert attrs.evolve(c, engine="reference") == early_comparison("reference")
    for number in range(len(c.rulesets)):
        changed = sum(w[number] != w[0] for w in c.winners)
        assert c.changes[number] == changed
    assert c.changes[0] == 0
    assert c.any_changes == sum(any(x != w[0] for x in w) for w in c.winners)
    assert c.changes[1] > 0  # en-early scores diversification differently
    assert c.changes[2] == c.changes[3] == 0  # de and de-summary score as en does
    assert set(c.causes[1]) <= set(CHANGE_CAUSES) and "diversification" in c.causes[1]
    assert sum(c.causes[1].values()) >= c.changes[1]
    data = c.to_dict()
    assert is_json(data) and json.loads(json.dumps(data)) == data


@pytest.mark.parametrize("engine", ENGINES)
def test_compare_plays_the_games_simulate_plays(engine):
    c = early_comparison(engine)
    stats = simulate("en", 4, MIXED, 80, seed=7, engine=engine)
    assert stats.wins == tuple(sum(w[0] == (s,) for w in c.winners) for s in range(4))


@pytest.mark.parametrize("engine", ENGINES)
def test_compare_examples_replay_and_show_the_change(engine):
    c = early_comparison(engine)
    assert c.examples
    assert len({(e.ruleset, e.cause) for e in c.examples}) == len(c.examples)
    for example in c.examples:
        game = qe.replay(json.loads(json.dumps(example.record.to_dict())))
        assert game.is_over
        assert game.result().winners == example.winners == c.winners[example.game][0]
        other = score_game(example.ruleset, game.player_records())
        assert other.winners == example.other_winners != example.winners
        firsts = [
            g
            for g in range(c.games)
            if c.winners[g][c.rulesets.index(example.ruleset)] != c.winners[g][0]
        ]
        assert example.game in firsts
    text = c.to_text()
    assert "en-early" in text and "diversification" in text and "examples" in text


def test_comparing_a_ruleset_with_itself_changes_nothing():
    c = compare(["en", "en", qe.get_ruleset("en")], 3, "random", 30, seed=9)
    assert c.changes == (0, 0, 0) and c.any_changes == 0 and not c.examples
    assert all(not causes for causes in c.causes)
    assert "under any of them: 0 (0.0%, 95% interval 0.0-11.4%)" in c.to_text()


def test_compare_attributes_changes_to_the_rule_that_differs():
    en = qe.get_ruleset("en")
    generous = attrs.evolve(en, id="generous", lowest_spend_bonus={3: 6, 4: 16, 5: 7})
    lenient = attrs.evolve(en, id="lenient", eliminate_highest_spender=False)
    c = compare([en, generous, lenient], 4, MIXED, 60, seed=3)
    assert set(c.causes[1]) == {"spending"} and c.changes[1] > 0
    assert set(c.causes[2]) <= {"elimination", "tie-break"} and c.changes[2] > 0


def variant(**rules):
    data = qe.get_ruleset("en").to_dict()
    data["id"] = "variant"
    data["rules"].update(rules)
    return qe.RuleSet.from_dict(data)


def test_a_ruleset_that_cannot_score_the_games_is_named():
    en = qe.get_ruleset("en")
    removed = {**en.to_dict()["rules"]["removed_companies"]}
    removed["4"] = ["UK-GOV-2", "UK-AGR-3", "UK-FIN-4", "JP-GOV-3", "US-HOU-1"]
    other_deck = variant(removed_companies=removed)
    with pytest.raises(qe.InvalidArgument, match="rule set 'variant' cannot score the games"):
        compare([en, other_deck], 4, "random", 5, seed=1)
    assert compare([en, other_deck], 3, "random", 5, seed=1).changes == (0, 0)
    no_five = attrs.evolve(
        en,
        id="no-five",
        player_counts=(3, 4),
        zero_bid_player_counts=(4,),
        peek_player_counts=(),
        **{
            name: {n: v for n, v in getattr(en, name).items() if n != 5}
            for name in qe.RuleSet.per_player_fields()
        },
    )
    with pytest.raises(qe.InvalidArgument, match="'no-five' cannot score the games of 'en' with 5"):
        compare([en, no_five], 5, "random", 5, seed=1)
    with pytest.raises(qe.InvalidArgument, match="en is played by 3, 4, 5 players, not 6"):
        compare([en], 6, "random", 5, seed=1)


@pytest.mark.parametrize(
    ("rulesets", "message"),
    [("en", "rulesets is a list"), ([], "give at least one rule set"), ([None], "a rule set is")],
)
def test_bad_rulesets_for_compare_raise(rulesets, message):
    with pytest.raises(qe.InvalidArgument, match=message):
        compare(rulesets, 4, "random", 3, seed=1)


def test_every_share_of_a_comparison_has_its_interval():
    c = compare(["en", "en-early"], 4, MIXED, 40, seed=2)
    assert c.change_ci95[1] == wilson_interval(c.changes[1], 40)
    assert c.any_change_ci95 == wilson_interval(c.any_changes, 40)
    assert c.to_dict()["ci95"] == {
        "change_share": [list(ci) for ci in c.change_ci95],
        "any_change_share": list(c.any_change_ci95),
    }


# ----------------------------------------------------------------- merge and round trips


@given(games=st.integers(2, 10), data=st.data(), seed=st.integers(0, 2**32))
@examples(8)
def test_two_halves_of_a_comparison_merged_are_the_whole(games, data, seed):
    cut = data.draw(st.integers(1, games - 1))
    args = (["en", "en-early", "de"], 4, MIXED)
    rows = data.draw(st.booleans())
    whole = compare(*args, games, seed=seed, rows=rows)
    first = compare(*args, cut, seed=seed, rows=rows)
    second = compare(*args, games - cut, seed=seed, start=cut, rows=rows)
    assert second.merge(first) == whole == first.merge(second)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("rows", [False, True])
def test_comparisons_come_back_from_their_dicts(rows, engine):
    c = compare(["en", "en-early"], 4, MIXED, 60, seed=7, rows=rows, engine=engine)
    data = json.loads(json.dumps(c.to_dict()))
    assert is_json(data) and data["engine"] == engine
    assert Comparison.from_dict(data) == c
    assert c.examples and Comparison.from_dict(data).examples[0].record == c.examples[0].record


def test_a_dict_that_is_not_a_comparison_is_refused():
    with pytest.raises(qe.InvalidArgument, match="comparison lacks players, agents"):
        Comparison.from_dict({"rulesets": ["en"]})


# ----------------------------------------------------------------- compare, play each, anywhere


@pytest.mark.parametrize("engine", ENGINES)
def test_compare_each_gives_the_same_numbers_and_rows_whatever_plays_the_games(tmp_path, engine):
    from concurrent.futures import ThreadPoolExecutor

    specs = ["en-early", "en-early:unique_bid_pool=standing-bids", "en"]
    args = (specs, 4, ["value", "random", "random", "zero"], 24)
    calls = []
    one = compare(
        *args, seed=5, play="each", rows=True, progress=lambda d, t: calls.append(d), engine=engine
    )
    assert calls[0] == 0 and calls[-1] == 24 and one.engine == engine
    assert compare(*args, seed=5, play="each", rows=True, workers=2, engine=engine) == one
    with ThreadPoolExecutor(max_workers=2) as pool:
        assert compare(*args, seed=5, play="each", rows=True, executor=pool, engine=engine) == one
    assert compare(*args, seed=5, play="each", engine=engine) == attrs.evolve(one, rows=None)
    assert PlayedComparison.from_dict(one.to_dict()) == one
    # one row per game, rule set and seat, in game order, each from the game as played
    assert len(one.rows) == 24 * 3 * 4
    assert [row.game for row in one.rows] == sorted(row.game for row in one.rows)
    for number, spec in enumerate(specs):
        changed = {row.game for row in one.rows if row.ruleset == spec and row.winner_changed}
        assert len(changed) == one.winner_changed[number].count
    row = next(row for row in one.rows if row.ruleset == specs[1] and row.seat == 2)
    game = engine_game(specs[1], 4, args[2], seed=5, index=row.game, engine=engine)
    assert row.total == game.result().sheets[2].total and row.causes == ""
    one.write_rows(tmp_path / "rows.csv")
    assert len((tmp_path / "rows.csv").read_text().splitlines()) == len(one.rows) + 1


# ----------------------------------------------------------------- the command


def test_cli_compare_prints_the_share_and_writes_the_records_only_to_files(tmp_path):
    status, text = cli("compare", "en", "en-early", "--games", "300", "--examples", str(tmp_path))
    assert status == 0
    assert "winner changes" in text and "%" in text
    assert "{" not in text  # the records go to files, never raw into the report
    written = sorted(tmp_path.iterdir())
    assert written and all(qe.replay(json.loads(p.read_text())).is_over for p in written)
    assert text.rstrip().endswith(f"written to {tmp_path}")
    assert f"example game records: {len(written)} (" in text


def test_cli_compare_without_a_folder_says_how_to_get_the_records():
    status, text = cli("compare", "en", "en-early", "--games", "100")
    assert status == 0 and "{" not in text
    assert text.rstrip().endswith(
        "--examples DIR writes them (qe.replay and qe-rules show read them)"
    )


def test_the_cli_writes_the_rows_of_compare_each(tmp_path, capsys):
    path = tmp_path / "each.csv"
    argv = ["compare", "en", "en:tiles_once_per_category=false", "--play", "each"]
    status, out = cli(*argv, "--games", "6", "--workers", "2", "--rows", str(path))
    assert status == 0 and "played under each rule set" in out
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 6 * 2 * 4 and lines[0].startswith("seed,game,ruleset")
    status, _ = cli(*argv, "--games", "6", "--plot", str(tmp_path / "each.png"))
    assert status != 0 and "--play each draws no plot" in capsys.readouterr().err


@pytest.mark.parametrize("dropped", ["seed", "start", "games"])
def test_a_played_comparison_without_batches_needs_its_seed_start_and_games(dropped):
    """Found by the fuzz harness: a played comparison of the form before batches, one of
    its seed, start and games missing, was read with ``None`` for it (a TypeError, or a
    document that wrote out what it could not read back)."""
    each = compare(["en", "en-early"], 4, "random", 6, seed=2, play="each").to_dict()
    del each["batches"]
    each.update(seed=2, start=0, games=6)
    assert PlayedComparison.from_dict(each).games == 6
    del each[dropped]
    with pytest.raises(qe.InvalidArgument, match="needs batches, or seed, start and games"):
        PlayedComparison.from_dict(each)
