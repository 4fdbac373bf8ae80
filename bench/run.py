"""Every benchmark in one run, each figure a ratio to the floor measured alongside.

Run: ``python bench/run.py [--quick]``. Prints the machine and the date, then the engine
API, ``simulate`` (1 worker, and its ceiling with views that cost nothing), the PettingZoo
environment, scoring, ``verify --all`` and the 2-worker speed-up, then how the cost per
game grows with players (3, 4, 5; the floor plays 4), the batched engine (``bench_batch``,
with numpy) and the growth with games.
``--quick`` runs fewer games (a rough check, not figures to record).
"""

from __future__ import annotations

import argparse
import importlib.util

import bench_engine
import bench_rl
import bench_scoring
import bench_simulate
import bench_verify
from common import machine, ratio_line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    games, repeat = (100, 3) if args.quick else (500, 7)
    print(machine())
    library, floor = bench_engine.measure(4, games, repeat)
    print(ratio_line("engine API, 4 players", library, floor, games, "game"))
    library, floor = bench_simulate.measure(4, games, repeat)
    print(ratio_line("simulate, 1 worker, 4 players", library, floor, games, "game"))
    print(bench_simulate.ceiling_line(4, games, repeat))
    times = bench_rl.measure(4, games, repeat)
    print(
        ratio_line(
            "PettingZoo environment, 4 players", times["environment"], times["floor"], games, "game"
        )
    )
    library, floor = bench_scoring.measure(games * 4, repeat)
    print(ratio_line("scoring, 4 players", library, floor, games * 4, "game"))
    library, floor_game = bench_verify.measure(1 if args.quick else 3)
    print(f"verify --all: {library:.2f} s, the time of {library / floor_game:,.0f} floor games")
    gain, floor_gain = bench_simulate.speedup(4, games * 8, 2 if args.quick else 3)
    print(
        f"simulate, 2 workers: {gain:.2f}x one worker (the floor in 2 processes: {floor_gain:.2f}x)"
    )
    print("growth with players (ratio to the floor's 4-player game):")
    for players in (3, 4, 5):
        library, floor = bench_engine.measure(players, games, repeat)
        print("  " + ratio_line(f"engine API, {players} players", library, floor, games, "game"))
        library, floor = bench_simulate.measure(players, games, repeat)
        print("  " + ratio_line(f"simulate, {players} players", library, floor, games, "game"))
    if importlib.util.find_spec("numpy") is not None:
        import bench_batch

        print("the batched engine (qe_rules.batch, numpy):")
        count = 20_000 if args.quick else 200_000
        for text in bench_batch.report(count, 2 if args.quick else 3, chunks=not args.quick):
            print("  " + text)
    print("growth with games (simulate, 4 players, 1 worker):")
    for count in (games // 5, games, games * 5):
        library, floor = bench_simulate.measure(4, count, max(2, repeat // 2))
        print("  " + ratio_line(f"{count} games", library, floor, count, "game"))


if __name__ == "__main__":
    main()
