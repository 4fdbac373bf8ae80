"""Statistics you can trust: intervals, merging runs, round trips, per-game rows, executors."""

import concurrent.futures
import csv
import functools
import json
import math

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules.simulation.intervals import Z95, Share, wilson_interval
from qe_rules.simulation.runs import (
    ROW_COLUMNS,
    Batch,
    Comparison,
    GameRow,
    SimulationStats,
    compare,
    format_stats,
    simulate,
    write_rows,
)
from tests.support import cli, examples, is_json

MIXED = ["value", "random", "zero", "random"]

# ----------------------------------------------------------------- the Wilson interval


def test_a_hand_computed_interval():
    # 12 of 1000: p = 0.012, z^2 = 3.8415; centre 0.0139207, half-width 0.0070167,
    # both divided by 1 + z^2 / 1000 = 1.0038415
    low, high = wilson_interval(12, 1000)
    assert low == pytest.approx(0.0068776, abs=2e-6)
    assert high == pytest.approx(0.0208575, abs=2e-6)


@given(total=st.integers(1, 10**6), data=st.data())
def test_the_bounds_are_where_the_score_test_turns(total, data):
    """Each inner bound p solves (share - p)^2 = z^2 p (1 - p) / total: the definition of
    the Wilson interval, checked here apart from the closed form the code uses."""
    count = data.draw(st.integers(0, total))
    share = count / total
    low, high = wilson_interval(count, total)
    assert 0 <= low <= share <= high <= 1
    for bound in (low, high):
        if 0 < bound < 1:
            gap = (share - bound) ** 2 - Z95**2 * bound * (1 - bound) / total
            assert gap == pytest.approx(0, abs=1e-9)
    assert (low == 0) == (count == 0) and (high == 1) == (count == total)
    mirrored = wilson_interval(total - count, total)
    assert mirrored == pytest.approx((1 - high, 1 - low), abs=1e-12)


def test_more_games_give_a_narrower_interval():
    widths = [wilson_interval(n // 4, n)[1] - wilson_interval(n // 4, n)[0] for n in (40, 400)]
    assert widths[1] < widths[0] / 3


@pytest.mark.parametrize(("count", "total"), [(-1, 10), (11, 10), (1.0, 10), (1, True)])
def test_a_count_beyond_its_total_is_refused(count, total):
    with pytest.raises(qe.InvalidArgument, match="whole count between 0 and its total"):
        wilson_interval(count, total)
    with pytest.raises(qe.InvalidArgument):
        Share(count, total)


def test_a_share_keeps_its_figures_together():
    share = Share(3, 8, parts=2)
    assert share.value == 3 / 16
    assert share.ci95 == tuple(bound / 2 for bound in wilson_interval(3, 8))
    assert Share.from_dict(share.to_dict()) == share
    assert share.to_dict()["ci95"] == list(share.ci95)
    assert Share(1, 4) + Share(2, 6) == Share(3, 10)
    with pytest.raises(TypeError):
        Share(1, 4) + Share(1, 4, parts=2)


# ----------------------------------------------------------------- intervals in statistics


@functools.cache
def mixed(**options):
    return simulate("en", 4, MIXED, 40, seed=11, **options)


def test_every_share_of_the_statistics_has_its_interval():
    stats = mixed()
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


def test_every_share_of_a_comparison_has_its_interval():
    c = compare(["en", "en-early"], 4, MIXED, 40, seed=2)
    assert c.change_ci95[1] == wilson_interval(c.changes[1], 40)
    assert c.any_change_ci95 == wilson_interval(c.any_changes, 40)
    assert c.to_dict()["ci95"] == {
        "change_share": [list(ci) for ci in c.change_ci95],
        "any_change_share": list(c.any_change_ci95),
    }


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
    assert whole.batches == (Batch(seed, 0, games),)


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


def test_runs_of_other_seeds_merge_into_batches():
    a = simulate("en", 4, MIXED, 20, seed=1)
    b = simulate("en", 4, MIXED, 30, seed=2)
    merged = b.merge(a)
    assert merged.batches == (Batch(1, 0, 20), Batch(2, 0, 30))
    assert merged.games == 50 and merged.seed == 1
    assert merged.wins == tuple(x + y for x, y in zip(a.wins, b.wins, strict=True))
    assert format_stats(merged).startswith("50 games of en with 4 players, seed 1 games 0-19")
    assert SimulationStats.from_dict(merged.to_dict()) == merged


def test_a_game_counted_twice_or_other_runs_do_not_merge():
    a = simulate("en", 4, MIXED, 20, seed=1)
    with pytest.raises(qe.InvalidArgument, match="games 10 to 19 of seed 1 are in both"):
        a.merge(simulate("en", 4, MIXED, 20, seed=1, start=10))
    with pytest.raises(qe.InvalidArgument, match="same agents"):
        a.merge(simulate("en", 4, "random", 20, seed=2))
    with pytest.raises(qe.InvalidArgument, match="same rule set"):
        a.merge(simulate("de", 4, MIXED, 20, seed=2))


def test_rows_of_only_part_of_the_games_are_dropped_on_merge():
    a = simulate("en", 3, "random", 5, seed=1, rows=True)
    b = simulate("en", 3, "random", 5, seed=1, start=5)
    assert a.merge(b).rows is None


@pytest.mark.parametrize("rows", [False, True])
def test_statistics_and_comparisons_come_back_from_their_dicts(rows):
    stats = simulate("de", 5, "random", 12, seed=3, rows=rows)
    data = json.loads(json.dumps(stats.to_dict()))
    assert SimulationStats.from_dict(data) == stats
    c = compare(["en", "en-early"], 4, MIXED, 60, seed=2, rows=rows)
    data = json.loads(json.dumps(c.to_dict()))
    assert is_json(data)
    assert Comparison.from_dict(data) == c
    assert c.examples and Comparison.from_dict(data).examples[0].record == c.examples[0].record


def test_a_dict_that_is_not_statistics_is_refused():
    with pytest.raises(qe.InvalidArgument, match="not the statistics"):
        SimulationStats.from_dict({"ruleset": "en"})
    with pytest.raises(qe.InvalidArgument, match="not a comparison"):
        Comparison.from_dict({"rulesets": ["en"]})


# ----------------------------------------------------------------- per-game rows


def test_rows_add_up_to_the_statistics():
    stats = simulate("en", 4, MIXED, 30, seed=5, rows=True)
    assert stats.rows is not None and len(stats.rows) == 30 * 4
    assert [(row.game, row.seat) for row in stats.rows] == [
        (g, s) for g in range(30) for s in range(4)
    ]
    for seat in range(4):
        mine = [row for row in stats.rows if row.seat == seat]
        assert sum(row.total for row in mine) == stats.total_sums[seat]
        assert sum(row.spent for row in mine) == stats.spend_sums[seat]
        assert sum(row.won for row in mine) == stats.wins[seat]
        assert {row.agent for row in mine} == {MIXED[seat]}
    assert attrs.evolve(stats, rows=None) == simulate("en", 4, MIXED, 30, seed=5)


def test_comparison_rows_show_each_rule_set_and_the_changes():
    c = compare(["en", "en-early"], 4, MIXED, 80, seed=2, rows=True)
    assert c.rows is not None and len(c.rows) == 80 * 2 * 4
    changed = {row.game for row in c.rows if row.winner_changed}
    assert len(changed) == c.changes[1]
    assert all(row.ruleset == "en-early" and row.causes for row in c.rows if row.winner_changed)


def test_rows_are_written_as_csv_and_parquet(tmp_path):
    stats = simulate("en", 4, MIXED, 10, seed=5, rows=True)
    stats.write_rows(tmp_path / "rows.csv")
    with open(tmp_path / "rows.csv", encoding="utf-8", newline="") as handle:
        read = list(csv.DictReader(handle))
    assert tuple(read[0]) == ROW_COLUMNS == GameRow._fields
    assert [int(row["total"]) for row in read] == [row.total for row in stats.rows]
    pq = pytest.importorskip("pyarrow.parquet", reason="Parquet needs the parquet extra")
    write_rows(stats.rows, tmp_path / "rows.parquet")
    table = pq.read_table(tmp_path / "rows.parquet")
    assert tuple(table.column_names) == ROW_COLUMNS
    assert table.column("spent").to_pylist() == [row.spent for row in stats.rows]
    assert table.column("won").to_pylist() == [row.won for row in stats.rows]


def test_rows_need_a_known_file_type_and_rows_kept(tmp_path):
    with pytest.raises(qe.InvalidArgument, match=r"\.csv or \.parquet"):
        write_rows([], tmp_path / "rows.xlsx")
    with pytest.raises(qe.InvalidArgument, match="rows=True"):
        mixed().write_rows(tmp_path / "rows.csv")
    with pytest.raises(qe.InvalidArgument, match="rows is True or False"):
        simulate("en", 4, MIXED, 2, seed=1, rows="yes")


def test_the_command_line_writes_rows(tmp_path):
    path = tmp_path / "rows.csv"
    code, out = cli("simulate", "--games", "6", "--rows", str(path), "--format", "json")
    assert code == 0 and "rows" not in json.loads(out)
    with open(path, encoding="utf-8") as handle:
        assert len(handle.read().splitlines()) == 1 + 6 * 4


# ----------------------------------------------------------------- executors


def test_any_executor_gives_the_same_numbers_and_is_left_running():
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        assert simulate("en", 4, MIXED, 40, seed=11, executor=pool, workers=2) == mixed()
        done = []
        stats = simulate(
            "en", 4, MIXED, 40, seed=11, executor=pool, progress=lambda d, t: done.append(d)
        )
        assert stats == mixed() and done[0] == 0 and done[-1] == 40
        c = compare(["en", "en-early"], 4, MIXED, 30, seed=4, executor=pool, rows=True)
        assert c == compare(["en", "en-early"], 4, MIXED, 30, seed=4, rows=True)
        assert pool.submit(math.sqrt, 4).result() == 2  # still running


def test_an_executor_must_be_an_executor():
    with pytest.raises(qe.InvalidArgument, match=r"concurrent\.futures\.Executor"):
        simulate("en", 4, MIXED, 4, seed=1, executor="dask")


def test_a_failing_game_stops_the_run_and_leaves_the_executor_usable():
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        with pytest.raises(qe.InvalidArgument):
            simulate("en", 4, _failing_agent, 40, seed=1, executor=pool)
        assert pool.submit(math.sqrt, 9).result() == 3


def _failing_agent(seed):
    raise qe.InvalidArgument(f"agent {seed} refuses to play")


def test_a_dask_cluster_gives_the_same_numbers_as_one_worker():
    distributed = pytest.importorskip(
        "distributed", reason="Dask runs only with the dask extra (installed by .ci/run)"
    )
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        executor = client.get_executor()
        stats = simulate("en", 4, MIXED, 40, seed=11, executor=executor, workers=2)
        assert stats == mixed()
        args = (["en", "en-early", "de"], 5, "random", 30)
        assert compare(*args, seed=4, executor=executor) == compare(*args, seed=4)
