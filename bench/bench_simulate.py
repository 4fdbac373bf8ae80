"""``simulate``: 1 worker with a view for every decision, and the speed-up of 2 workers.

Run: ``python bench/bench_simulate.py [--players 4] [--games N] [--repeat R]``. The agents
bid as the floor's bidders (``common.FloorBidder``) from ``game.view(seat)``, and every
game is scored. The goals (issue 16): 1 worker at least 0.4x the floor; 2 workers at least
1.8x one worker on a quiet machine. For comparison the floor's own speed-up in 2 processes
is measured too: it is what the machine allows at that moment.

The ceiling is ``simulate`` with views that cost nothing: ``Game.view`` replaced, for the
run, by a record of the three fields the floor's bidders read. No design of the views can
make ``simulate`` faster than that with the same engine, agents and scoring.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import time
from collections.abc import Iterator

from common import FloorBidder, floor_games, machine, race, ratio_line

from qe_rules.game import engine
from qe_rules.simulation.stats import simulate


def measure(players: int, games: int, repeat: int, ruleset: str = "en") -> tuple[float, float]:
    """The best times of ``simulate`` (1 worker) and of the floor for ``games`` games."""

    def library() -> None:
        simulate(ruleset, players, FloorBidder, games, seed=0)

    library()
    best = race({"library": library, "floor": floor_games(games)}, repeat)
    return best["library"], best["floor"]


class _FreeView:
    """What the floor's bidders read of a view, and nothing more."""

    __slots__ = ("auctioneer", "opening_bid", "seat")


def _free_view(game: engine.Game, seat: int) -> _FreeView:
    view = _FreeView()
    view.auctioneer = game.auctioneer
    view.opening_bid = game.opening_bid
    view.seat = seat
    return view


@contextlib.contextmanager
def free_views() -> Iterator[None]:
    """``Game.view`` made (almost) free for the duration: the ceiling of any view design."""
    made = engine.Game.view
    engine.Game.view = _free_view  # type: ignore[assignment,method-assign]
    try:
        yield
    finally:
        engine.Game.view = made  # type: ignore[method-assign]


def measure_ceiling(players: int, games: int, repeat: int) -> dict[str, float]:
    """The best times of ``simulate`` with real views, with views that cost nothing, and
    of the floor, for ``games`` games, measured in one race."""

    def library() -> None:
        simulate("en", players, FloorBidder, games, seed=0)

    def free() -> None:
        with free_views():
            library()

    library()
    free()
    return race({"views": library, "free views": free, "floor": floor_games(games)}, repeat)


def ceiling_line(players: int, games: int, repeat: int) -> str:
    """The ceiling as a result line, with the share of ``simulate``'s time its views take."""
    times = measure_ceiling(players, games, repeat)
    line = ratio_line(
        f"simulate, views that cost nothing (the ceiling), {players} players",
        times["free views"],
        times["floor"],
        games,
        "game",
    )
    return line + f"; real views take {1 - times['free views'] / times['views']:.0%} of the time"


def _floor_in_processes(games: int, workers: int) -> None:
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        pool.map(_floor_chunk, [games // workers] * workers)


def _floor_chunk(count: int) -> None:
    floor_games(count)()


def speedup(players: int, games: int, repeat: int, workers: int = 2) -> tuple[float, float]:
    """The speed-up of ``workers`` workers over one for ``simulate``, and for the floor."""
    times = race(
        {
            "one": lambda: simulate("en", players, FloorBidder, games, seed=0),
            "many": lambda: simulate("en", players, FloorBidder, games, seed=0, workers=workers),
            "floor one": floor_games(games),
            "floor many": lambda: _floor_in_processes(games, workers),
        },
        repeat,
    )
    return times["one"] / times["many"], times["floor one"] / times["floor many"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    library, floor = measure(args.players, args.games, args.repeat)
    print(
        ratio_line(
            f"simulate, 1 worker, {args.players} players", library, floor, args.games, "game"
        )
    )
    print(ceiling_line(args.players, args.games, args.repeat))
    start = time.perf_counter()
    library_gain, floor_gain = speedup(
        args.players, args.games * 8, max(3, args.repeat // 2), args.workers
    )
    print(
        f"simulate, {args.workers} workers: {library_gain:.2f}x one worker "
        f"(the floor in {args.workers} processes: {floor_gain:.2f}x; "
        f"{time.perf_counter() - start:.0f} s)"
    )


if __name__ == "__main__":
    print(machine())
    main()
