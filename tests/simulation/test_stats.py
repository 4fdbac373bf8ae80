"""Statistics of a run: figures that add up, their intervals, merged runs, round trips."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules.simulation.intervals import wilson_interval
from qe_rules.simulation.stats import GameRange, SimulationStats, simulate
from tests.support import cli, examples, is_json
from tests.support.simulation import MIXED, mixed_stats

# ----------------------------------------------------------------- the numbers


def test_the_same_seed_gives_the_same_numbers_and_another_seed_others():
    assert simulate("en", 4, MIXED, 60, seed=11) == mixed_stats(60)
    other = simulate("en", 4, MIXED, 60, seed=12)
    assert other.total_sums != mixed_stats(60).total_sums


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


def test_the_text_shows_the_figures():
    text = mixed_stats(60).to_text()
    assert text.startswith("60 games of en with 4 players, seed 11")
    for word in ("value", "random", "zero", "win share", "no single winner", "rule gaps"):
        assert word in text
    assert f"{mixed_stats(60).win_share[0] * 100:.1f}%" in text


# ----------------------------------------------------------------- intervals


def test_every_share_of_the_statistics_has_its_interval():
    stats = mixed_stats(40)
    for share, (low, high) in zip(stats.win_share, stats.win_ci95, strict=True):
        assert low <= share <= high
    for agent, (low, high) in stats.agent_win_ci95.items():
        assert low <= stats.agent_win_share[agent] <= high
    assert stats.no_winner_ci95 == wilson_interval(stats.no_winner_games, 40)
    assert stats.gap_ci95 == wilson_interval(stats.gap_games, 40)
    assert stats.lowest_spender_win_ci95 == wilson_interval(stats.lowest_spender_wins, 40)
    data = stats.to_dict()["ci95"]
    assert data["win_share"] == [list(ci) for ci in stats.win_ci95]
    assert data["agent_win_share"]["random"] == list(stats.agent_win_ci95["random"])
    assert data["gap_share"] == list(stats.gap_ci95)


# ----------------------------------------------------------------- merge and round trips


@given(
    ruleset=st.sampled_from(sorted(qe.RULESETS)),
    players=st.sampled_from([3, 4, 5]),
    games=st.integers(2, 12),
    data=st.data(),
    seed=st.integers(0, 2**32),
    rows=st.booleans(),
)
@examples(15)
def test_two_halves_merged_are_one_run_of_the_whole(ruleset, players, games, data, seed, rows):
    cut = data.draw(st.integers(1, games - 1))
    agents = data.draw(
        st.lists(st.sampled_from(["random", "zero", "value"]), min_size=players, max_size=players)
    )
    whole = simulate(ruleset, players, agents, games, seed=seed, rows=rows)
    first = simulate(ruleset, players, agents, cut, seed=seed, rows=rows)
    second = simulate(ruleset, players, agents, games - cut, seed=seed, start=cut, rows=rows)
    assert first.merge(second) == whole
    assert second.merge(first) == whole  # the order does not matter
    assert whole.batches == (GameRange(seed, 0, games),)


def test_runs_of_other_seeds_merge_into_batches():
    a = simulate("en", 4, MIXED, 20, seed=1)
    b = simulate("en", 4, MIXED, 30, seed=2)
    merged = b.merge(a)
    assert merged.batches == (GameRange(1, 0, 20), GameRange(2, 0, 30))
    assert merged.games == 50 and merged.seed == 1
    assert merged.wins == tuple(x + y for x, y in zip(a.wins, b.wins, strict=True))
    assert merged.to_text().startswith("50 games of en with 4 players, seed 1 games 0-19")
    assert SimulationStats.from_dict(merged.to_dict()) == merged


def test_a_game_counted_twice_or_other_runs_do_not_merge():
    a = simulate("en", 4, MIXED, 20, seed=1)
    with pytest.raises(qe.InvalidArgument, match="games 10 to 19 of seed 1 are in both"):
        a.merge(simulate("en", 4, MIXED, 20, seed=1, start=10))
    with pytest.raises(qe.InvalidArgument, match="same agents"):
        a.merge(simulate("en", 4, "random", 20, seed=2))
    with pytest.raises(qe.InvalidArgument, match="same rule set"):
        a.merge(simulate("de", 4, MIXED, 20, seed=2))


@pytest.mark.parametrize("rows", [False, True])
def test_statistics_come_back_from_their_dicts(rows):
    stats = simulate("de", 5, "random", 12, seed=3, rows=rows)
    data = json.loads(json.dumps(stats.to_dict()))
    assert SimulationStats.from_dict(data) == stats


def test_a_dict_that_is_not_statistics_is_refused():
    with pytest.raises(qe.InvalidArgument, match="statistics lacks players, agents"):
        SimulationStats.from_dict({"ruleset": "en"})


# ----------------------------------------------------------------- the command


def test_cli_simulate_text_and_json():
    status, text = cli(
        "simulate", "--players", "3", "--games", "30", "--agents", "value,random,zero"
    )
    assert status == 0 and text.startswith("30 games of en with 3 players, seed 0")
    status, text = cli("simulate", "--games", "20", "--format", "json", "--seed", "4")
    data = json.loads(text)
    assert data["games"] == 20 and data["players"] == 4
    assert data == simulate("en", 4, "random", 20, seed=4, engine="auto").to_dict()
