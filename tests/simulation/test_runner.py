"""The runner: the same numbers for any number of workers or any executor, progress reports,
and a failing game that stops the run."""

import concurrent.futures
import itertools
import math
import re

import attrs
import pytest

import qe_rules as qe
from qe_rules.simulation.comparison import compare
from qe_rules.simulation.runner import _chunks
from qe_rules.simulation.stats import simulate
from tests.support import cli
from tests.support.simulation import MIXED, mixed_stats

# ----------------------------------------------------------------- determinism


def test_the_same_seed_gives_the_same_numbers_for_any_number_of_workers():
    one, two = mixed_stats(60), mixed_stats(60, workers=2)
    assert one == two
    assert one.to_dict() == two.to_dict()
    assert one.to_text() == two.to_text()


def test_comparisons_do_not_depend_on_workers_either():
    args = (["en", "en-early", "de"], 5, "random", 30)
    assert compare(*args, seed=4) == compare(*args, seed=4, workers=2)


@pytest.mark.parametrize("workers", [1, 2, 3, 8])
@pytest.mark.parametrize("games", [1, 15, 16, 49, 50, 51, 999, 5000, 123_457])
def test_the_chunks_cover_every_game_once_in_order(games, workers):
    chunks = _chunks(games, workers)
    assert chunks[0][0] == 0 and chunks[-1][1] == games
    assert all(start < stop for start, stop in chunks)
    assert all(a[1] == b[0] for a, b in itertools.pairwise(chunks))
    assert max(stop - start for start, stop in chunks) <= 1000


# ----------------------------------------------------------------- progress


def test_a_progress_callback_sees_every_game_and_changes_nothing():
    calls = []
    stats = simulate("en", 4, MIXED, 60, seed=11, progress=lambda d, t: calls.append((d, t)))
    assert stats == mixed_stats(60)
    assert calls[0] == (0, 60) and calls[-1] == (60, 60)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    calls.clear()
    simulate("en", 4, MIXED, 60, seed=11, workers=2, progress=lambda d, t: calls.append((d, t)))
    assert calls[0] == (0, 60) and calls[-1] == (60, 60)


def test_cli_progress_bar_only_when_asked_or_on_a_terminal(capsys):
    cli("simulate", "--games", "10")
    assert capsys.readouterr().err == ""  # stderr is not a terminal here
    cli("simulate", "--games", "10", "--progress", "always")
    err = capsys.readouterr().err
    assert "simulating [" in err and re.search(r" 10/10 · \d+s *\n$", err)


# ----------------------------------------------------------------- executors


def test_any_executor_gives_the_same_numbers_and_is_left_running():
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        assert simulate("en", 4, MIXED, 40, seed=11, executor=pool, workers=2) == mixed_stats(40)
        done = []
        stats = simulate(
            "en", 4, MIXED, 40, seed=11, executor=pool, progress=lambda d, t: done.append(d)
        )
        assert stats == mixed_stats(40) and done[0] == 0 and done[-1] == 40
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


@pytest.mark.slow  # a cluster of worker processes
def test_a_dask_cluster_gives_the_figures_of_one_process_on_either_engine():
    distributed = pytest.importorskip(
        "distributed", reason="Dask runs only with the dask extra (installed by .ci/run)"
    )
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        executor = client.get_executor()
        # the batch, on two processes
        games, table = 1200, ["random", "zero", "random", "random"]
        one = simulate("en", 4, table, games, seed=11, start=16000)
        assert one.engine == "batch"
        spread = simulate("en", 4, table, games, seed=11, start=16000, executor=executor, workers=2)
        assert spread == one
        args = (["en", "en-early", "de"], 4, "random", games)
        for play in ("first", "each"):
            spread = compare(*args, seed=4, executor=executor, workers=2, play=play)
            assert spread == compare(*args, seed=4, play=play) and spread.engine == "batch"
        # the reference engine on the workers: the same games, the batch's figures
        stats = simulate(
            "en", 4, MIXED, 40, seed=11, executor=executor, workers=2, engine="reference"
        )
        assert stats == simulate("en", 4, MIXED, 40, seed=11, engine="reference")
        assert attrs.evolve(stats, engine="batch") == simulate("en", 4, MIXED, 40, seed=11)
