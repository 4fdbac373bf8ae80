"""Agents on worker processes started by ``spawn`` (macOS, Windows; ``forkserver``, Linux's
default from Python 3.14, finds classes the same way): a class in an importable module
works, one defined in code fed on stdin cannot be found (docs/simulation.md says so)."""

import concurrent.futures
import multiprocessing
import subprocess
import sys
import textwrap
from pathlib import Path

import qe_rules as qe


class Opener:
    """Bids 0, or 3 when it is the auctioneer: a custom agent in an importable module."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def bid(self, view):
        return 3 if view.seat == view.auctioneer else 0

    def wants_peek(self, view):
        return False


def spawned_pool():
    return concurrent.futures.ProcessPoolExecutor(
        1, mp_context=multiprocessing.get_context("spawn")
    )


def test_an_agent_class_in_a_module_plays_on_spawned_workers():
    with spawned_pool() as pool:
        spread = qe.simulate("en", 4, Opener, 12, seed=3, executor=pool, workers=2)
    assert spread == qe.simulate("en", 4, Opener, 12, seed=3)
    assert spread.games == 12


def test_an_agent_class_fed_on_stdin_breaks_a_spawned_pool():
    code = textwrap.dedent(
        """
        import concurrent.futures, multiprocessing
        import qe_rules as qe

        class Opener:
            def __init__(self, seed=0):
                pass
            def bid(self, view):
                return 3 if view.seat == view.auctioneer else 0
            def wants_peek(self, view):
                return False

        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
            try:
                qe.simulate("en", 4, Opener, 4, seed=3, executor=pool, workers=2)
            except concurrent.futures.process.BrokenProcessPool:
                print("broken")
        """
    )
    done = subprocess.run(
        [sys.executable, "-"],
        input=code,
        capture_output=True,
        text=True,
        cwd=Path(__file__).parents[2],
        timeout=120,
    )
    assert done.stdout.strip() == "broken", done.stderr[-2000:]
