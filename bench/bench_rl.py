"""How many games per second the PettingZoo environment plays with random legal actions,
against ``simulate`` with random agents (a view for every decision), in the same run.

Run: ``python bench/bench_rl.py [--players 4] [--games N] [--repeat 5] [--floor PATH]``,
where ``--floor`` names the project's yardstick ``floor_sim.py`` (a minimal game loop) to
time in the same run. Each
environment game is ``reset(seed=i)`` and then, for every agent ``agent_iter()`` yields,
``last()`` (the encoded observation and its mask) and ``step()`` of an action drawn
uniformly from the mask. Timings on a shared machine vary, so each figure is the best of
``--repeat`` runs, the two alternating. The goal (issue: research at scale) is at least
40% of ``simulate``'s games per second.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import time

import numpy as np

from qe_rules.rl import QEEnv
from qe_rules.simulate import simulate


def play(env: QEEnv, games: int) -> None:
    """Play ``games`` games of random legal actions."""
    draw = random.Random(0).random
    for index in range(games):
        env.reset(seed=index)
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[int(draw() * len(legal))]))


def play_floor(floor, games: int) -> None:
    """Play ``games`` games of the floor's minimal loop."""
    draw = random.Random(0)
    for _ in range(games):
        floor.game(draw)


def timed(run, *args, **options) -> float:
    """The wall time of one call."""
    start = time.perf_counter()
    run(*args, **options)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--ruleset", default="en")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--floor", help="path of floor_sim.py, timed in the same run")
    args = parser.parse_args()
    floor = None
    if args.floor:
        spec = importlib.util.spec_from_file_location("floor_sim", args.floor)
        assert spec is not None and spec.loader is not None
        floor = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(floor)
    env = QEEnv(args.ruleset, args.players)
    play(env, 20)  # warm-up
    simulate(args.ruleset, args.players, "random", 20, seed=0)
    best_env = best_sim = best_floor = float("inf")
    for _ in range(args.repeat):
        if floor is not None:
            best_floor = min(best_floor, timed(play_floor, floor, args.games))
        best_env = min(best_env, timed(play, env, args.games))
        best_sim = min(
            best_sim,
            timed(simulate, args.ruleset, args.players, "random", args.games, seed=0, workers=1),
        )
    env_rate, sim_rate = args.games / best_env, args.games / best_sim
    print(
        f"PettingZoo env, {args.ruleset}, {args.players} players, random legal actions: "
        f"{env_rate:,.0f} games/s; simulate, random agents, 1 worker: {sim_rate:,.0f} games/s; "
        f"ratio {env_rate / sim_rate:.0%} (goal 40%; best of {args.repeat} x {args.games})"
    )
    if floor is not None:
        floor_rate = args.games / best_floor
        print(
            f"floor_sim: {floor_rate:,.0f} games/s; environment {env_rate / floor_rate:.1%} "
            f"and simulate {sim_rate / floor_rate:.1%} of the floor"
        )


if __name__ == "__main__":
    main()
