"""How many games per second ``simulate`` plays, on one core and with several workers.

Run: ``python bench/bench_simulate.py [--players 4] [--games N] [--agents random]
[--workers 2] [--repeat 5]``. Every agent decision gets ``game.view(seat)``, as in any
simulation; each game is scored. Timings on a shared machine vary, so each figure is the
best of ``--repeat`` runs. The goal (issue: agents and simulation) is at least 2,000
four-player games per second with random agents on one core, and 1.7 times that with 2
workers.
"""

from __future__ import annotations

import argparse
import time

from qe_rules.simulate import simulate


def run(args: argparse.Namespace, workers: int) -> float:
    """The wall time of one run."""
    start = time.perf_counter()
    simulate(args.ruleset, args.players, args.agents, args.games, seed=0, workers=workers)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--ruleset", default="en")
    parser.add_argument("--agents", default="random")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    simulate(args.ruleset, args.players, args.agents, 50, seed=0)  # warm-up
    one = many = float("inf")
    for _ in range(args.repeat):  # alternate, so that both see the same machine
        one = min(one, run(args, 1))
        if args.workers > 1:
            many = min(many, run(args, args.workers))
    print(
        f"simulate, {args.ruleset}, {args.players} players, {args.agents} agents, 1 worker: "
        f"{args.games / one:,.0f} games/s ({one / args.games * 1e6:.0f} us per game; "
        f"best of {args.repeat} x {args.games})"
    )
    if args.workers > 1:
        print(
            f"simulate, {args.workers} workers: {args.games / many:,.0f} games/s, "
            f"speed-up {one / many:.2f}x"
        )


if __name__ == "__main__":
    main()
