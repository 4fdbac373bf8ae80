"""Simulation and comparison: determinism across workers, consistency, bad arguments."""

import functools
import json

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.support import cli, examples, is_json

import qe_rules as qe
from qe_rules.game.scoring import score_game
from qe_rules.simulation.agents import RandomAgent, ZeroAgent
from qe_rules.simulation.runs import (
    CHANGE_CAUSES,
    Comparison,
    SimulationStats,
    compare,
    format_comparison,
    format_stats,
    play_game,
    simulate,
)

MIXED = ["value", "random", "zero", "random"]


@functools.cache
def mixed_stats(workers):
    return simulate("en", 4, MIXED, 60, seed=11, workers=workers)


# ----------------------------------------------------------------- determinism


def test_the_same_seed_gives_the_same_numbers_for_any_number_of_workers():
    one, two = mixed_stats(1), mixed_stats(2)
    assert one == two
    assert one.to_dict() == two.to_dict()
    assert format_stats(one) == format_stats(two)


def test_comparisons_do_not_depend_on_workers_either():
    args = (["en", "en-early", "de"], 5, "random", 30)
    assert compare(*args, seed=4) == compare(*args, seed=4, workers=2)


def test_the_same_seed_gives_the_same_numbers_and_another_seed_others():
    assert simulate("en", 4, MIXED, 60, seed=11) == mixed_stats(1)
    other = simulate("en", 4, MIXED, 60, seed=12)
    assert other.total_sums != mixed_stats(1).total_sums


def test_a_progress_callback_sees_every_game_and_changes_nothing():
    calls = []
    stats = simulate("en", 4, MIXED, 60, seed=11, progress=lambda d, t: calls.append((d, t)))
    assert stats == mixed_stats(1)
    assert calls[0] == (0, 60) and calls[-1] == (60, 60)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    calls.clear()
    simulate("en", 4, MIXED, 60, seed=11, workers=2, progress=lambda d, t: calls.append((d, t)))
    assert calls[0] == (0, 60) and calls[-1] == (60, 60)


def test_play_game_is_the_game_simulate_plays():
    games = [play_game("de", 3, ["value", "random", "zero"], seed=5, index=i) for i in range(6)]
    stats = simulate("de", 3, ["value", "random", "zero"], 6, seed=5)
    results = [game.result() for game in games]
    assert stats.total_sums == tuple(sum(r.sheets[s].total for r in results) for s in range(3))
    assert stats.spend_sums == tuple(sum(r.sheets[s].spent for r in results) for s in range(3))
    assert stats.wins == tuple(sum(r.winner == s for r in results) for s in range(3))
    assert len({tuple(g.deck) for g in games}) == 6  # each game has its own setup
    assert play_game("de", 3, "random", seed=5, index=2) == play_game(
        "de", 3, "random", seed=5, index=2
    )


def test_factories_and_names_play_the_same_games():
    named = simulate("en", 4, "random", 20, seed=3)
    assert simulate("en", 4, RandomAgent, 20, seed=3) == attrs.evolve(named, agents=named.agents)
    partial = functools.partial(RandomAgent, spread=12)
    assert simulate("en", 4, partial, 20, seed=3, workers=2).wins == named.wins


# ----------------------------------------------------------------- the numbers


@given(
    ruleset=st.sampled_from(sorted(qe.RULESETS)),
    players=st.sampled_from([3, 4, 5]),
    agents=st.lists(st.sampled_from(["random", "zero", "value"]), min_size=5, max_size=5),
    seed=st.integers(0, 2**32),
)
@examples(25)
def test_stats_add_up(ruleset, players, agents, seed):
    stats = simulate(ruleset, players, agents[:players], 5, seed=seed)
    assert sum(stats.wins) + stats.no_winner_games == stats.games == 5
    assert 0 <= stats.gap_games <= 5 and sum(stats.gap_codes.values()) >= stats.gap_games
    assert stats.lowest_spender_wins <= sum(stats.wins)
    assert sum(stats.win_share) + stats.no_winner_share == pytest.approx(1)
    expected = {
        kind: sum(w for a, w in zip(stats.agents, stats.wins, strict=True) if a == kind)
        / (5 * stats.agents.count(kind))
        for kind in set(stats.agents)
    }
    assert stats.agent_win_share == pytest.approx(expected)
    assert stats.total_mean == pytest.approx(sum(stats.seat_total_mean) / players)
    assert stats.total_stdev >= 0 and stats.spend_stdev >= 0
    data = stats.to_dict()
    assert is_json(data) and json.loads(json.dumps(data)) == data


def test_zero_agents_spend_little_and_the_figures_say_so():
    stats = simulate("en", 4, ["zero", "zero", "zero", "random"], 40, seed=1)
    assert stats.seat_spend_mean[3] > stats.seat_spend_mean[0]
    assert stats.seat_spend_stdev[0] >= 0
    assert stats.unsold_mean == 0
    assert stats.winning_total_mean is not None


def test_format_stats_shows_the_figures():
    text = format_stats(mixed_stats(1))
    assert text.startswith("60 games of en with 4 players, seed 11")
    for word in ("value", "random", "zero", "win share", "no single winner", "rule gaps"):
        assert word in text
    assert f"{mixed_stats(1).win_share[0] * 100:.1f}%" in text


# ----------------------------------------------------------------- compare


@functools.cache
def early_comparison():
    return compare(["en", "en-early", "de", "de-summary"], 4, MIXED, 80, seed=2)


def test_compare_counts_match_the_per_game_winners():
    c = early_comparison()
    assert isinstance(c, Comparison) and len(c.winners) == c.games == 80
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


def test_compare_plays_the_games_simulate_plays():
    c = early_comparison()
    stats = simulate("en", 4, MIXED, 80, seed=2)
    assert stats.wins == tuple(sum(w[0] == (s,) for w in c.winners) for s in range(4))


def test_compare_examples_replay_and_show_the_change():
    c = early_comparison()
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
    text = format_comparison(c)
    assert "en-early" in text and "diversification" in text and "examples" in text


def test_comparing_a_ruleset_with_itself_changes_nothing():
    c = compare(["en", "en", qe.get_ruleset("en")], 3, "random", 30, seed=9)
    assert c.changes == (0, 0, 0) and c.any_changes == 0 and not c.examples
    assert all(not causes for causes in c.causes)
    assert "under any of them: 0 (0.0%, 95% interval 0.0-11.4%)" in format_comparison(c)


def test_compare_attributes_changes_to_the_rule_that_differs():
    en = qe.get_ruleset("en")
    generous = attrs.evolve(en, id="generous", lowest_spend_bonus={3: 6, 4: 16, 5: 7})
    lenient = attrs.evolve(en, id="lenient", eliminate_highest_spender=False)
    c = compare([en, generous, lenient], 4, MIXED, 60, seed=3)
    assert set(c.causes[1]) == {"spending"} and c.changes[1] > 0
    assert set(c.causes[2]) <= {"elimination", "tie-break"} and c.changes[2] > 0


def variant(**rules):
    data = qe.get_ruleset("en").to_data()
    data["id"] = "variant"
    data["rules"].update(rules)
    return qe.RuleSet.from_data(data)


def test_a_ruleset_that_cannot_score_the_games_is_named():
    en = qe.get_ruleset("en")
    removed = {**en.to_data()["rules"]["removed_companies"]}
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


# ----------------------------------------------------------------- bad arguments


def constant(seed):
    return Constant()


class Constant(ZeroAgent):
    """Opens at the minimum, and bids 5 otherwise: two such bidders tie for ever."""

    def bid(self, view):
        if view.phase is qe.Phase.OPENING:
            return view.limits.minimum
        return 5 if view.limits.allows(5) else 6


def test_a_game_that_cannot_end_raises():
    endless = attrs.evolve(qe.get_ruleset("en"), id="endless", tie_fallback=qe.TieFallback.NONE)
    with pytest.raises(qe.InvalidArgument, match="game 0 does not end"):
        simulate(endless, 3, constant, 1, seed=0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 6}, "en is played by 3, 4, 5 players, not 6"),
        ({"agents": ["random"] * 3}, r"agents: give one per seat \(4\)"),
        ({"agents": "clever"}, "unknown agent 'clever'; agents are random, zero, value"),
        ({"agents": [1, 2, 3, 4]}, "an agent is a name"),
        ({"agents": 5}, r"agents is an agent \(a name or a factory\) or a list"),
        ({"games": 0}, "games is a whole number >= 1"),
        ({"games": 2.0}, "games is a whole number >= 1"),
        ({"seed": "a"}, "seed is a whole number"),
        ({"seed": True}, "seed is a whole number"),
        ({"workers": 0}, "workers is a whole number >= 1"),
        ({"progress": 3}, "progress is a function"),
        ({"ruleset": 3}, "a rule set is a RuleSet or a rule set id"),
        ({"agents": lambda seed: ZeroAgent(seed), "workers": 2}, "must be picklable"),
    ],
)
def test_bad_arguments_raise(kwargs, message):
    args = {"ruleset": "en", "players": 4, "agents": "random", "games": 3, "seed": 1, **kwargs}
    with pytest.raises(qe.InvalidArgument, match=message):
        simulate(
            args.pop("ruleset"), args.pop("players"), args.pop("agents"), args.pop("games"), **args
        )


@pytest.mark.parametrize(
    ("rulesets", "message"),
    [("en", "rulesets is a list"), ([], "give at least one rule set"), ([None], "a rule set is")],
)
def test_bad_rulesets_for_compare_raise(rulesets, message):
    with pytest.raises(qe.InvalidArgument, match=message):
        compare(rulesets, 4, "random", 3, seed=1)


def test_an_unknown_ruleset_id_raises_unknown_ruleset():
    with pytest.raises(qe.UnknownRuleSet):
        simulate("fr", 4, "random", 3, seed=1)
    assert isinstance(mixed_stats(1), SimulationStats)


# ----------------------------------------------------------------- the commands


def test_cli_simulate_text_and_json():
    status, text = cli(
        "simulate", "--players", "3", "--games", "30", "--agents", "value,random,zero"
    )
    assert status == 0 and text.startswith("30 games of en with 3 players, seed 0")
    status, text = cli("simulate", "--games", "20", "--format", "json", "--seed", "4")
    data = json.loads(text)
    assert data["games"] == 20 and data["players"] == 4
    assert data == simulate("en", 4, "random", 20, seed=4).to_dict()


def test_cli_compare_prints_the_share_and_a_replayable_record(tmp_path):
    status, text = cli("compare", "en", "en-early", "--games", "300", "--examples", str(tmp_path))
    assert status == 0
    assert "winner changes" in text and "%" in text
    record = json.loads(text.strip().splitlines()[-2])
    game = qe.replay(record)
    assert game.is_over
    written = sorted(tmp_path.iterdir())
    assert written and all(qe.replay(json.loads(p.read_text())).is_over for p in written)


def test_cli_progress_bar_only_when_asked_or_on_a_terminal(capsys):
    cli("simulate", "--games", "10")
    assert capsys.readouterr().err == ""  # stderr is not a terminal here
    cli("simulate", "--games", "10", "--progress", "always")
    err = capsys.readouterr().err
    assert "simulating [" in err and err.endswith("10/10\n")


def test_cli_bad_arguments(capsys):
    assert cli("simulate", "--agents", "smart")[0] == 2
    assert "agents are random, zero, value" in capsys.readouterr().err
    assert cli("compare", "en")[0] == 2
    assert "at least two rule sets" in capsys.readouterr().err
    assert cli("simulate", "--players", "6")[0] == 2


# ----------------------------------------------------------------- compare, play each, anywhere


def test_compare_each_gives_the_same_numbers_and_rows_whatever_plays_the_games(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    from qe_rules.simulation.runs import PlayedComparison

    specs = ["en-early", "en-early:unique_bid_pool=standing-bids", "en"]
    args = (specs, 4, ["value", "random", "random", "zero"], 24)
    calls = []
    one = compare(*args, seed=5, play="each", rows=True, progress=lambda d, t: calls.append(d))
    assert calls[0] == 0 and calls[-1] == 24
    assert compare(*args, seed=5, play="each", rows=True, workers=2) == one
    with ThreadPoolExecutor(max_workers=2) as pool:
        assert compare(*args, seed=5, play="each", rows=True, executor=pool) == one
    assert compare(*args, seed=5, play="each") == attrs.evolve(one, rows=None)
    assert PlayedComparison.from_dict(one.to_dict()) == one
    # one row per game, rule set and seat, in game order, each from the game as played
    assert len(one.rows) == 24 * 3 * 4
    assert [row.game for row in one.rows] == sorted(row.game for row in one.rows)
    for number, spec in enumerate(specs):
        changed = {row.game for row in one.rows if row.ruleset == spec and row.winner_changed}
        assert len(changed) == one.winner_changed[number].count
    row = next(row for row in one.rows if row.ruleset == specs[1] and row.seat == 2)
    game = play_game(specs[1], 4, args[2], seed=5, index=row.game)
    assert row.total == game.result().sheets[2].total and row.causes == ""
    one.write_rows(tmp_path / "rows.csv")
    assert len((tmp_path / "rows.csv").read_text().splitlines()) == len(one.rows) + 1


def test_the_cli_writes_the_rows_of_compare_each(tmp_path, capsys):
    path = tmp_path / "each.csv"
    argv = ["compare", "en", "en:tiles_once_per_category=false", "--play", "each"]
    status, out = cli(*argv, "--games", "6", "--workers", "2", "--rows", str(path))
    assert status == 0 and "played under each rule set" in out
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 6 * 2 * 4 and lines[0].startswith("seed,game,ruleset")
    status, _ = cli(*argv, "--games", "6", "--plot", str(tmp_path / "each.png"))
    assert status != 0 and "--play each draws no plot" in capsys.readouterr().err
