"""The PettingZoo environment with random legal actions, against ``simulate`` with random
agents (a view for every decision) and the floor, in the same run.

Run: ``python bench/bench_rl.py [--players 4] [--games N] [--repeat R] [--clock
process]``. The environment is made as users make it, with ``qe_rules.rl.env()`` (which
returns ``QEEnv`` itself, no PettingZoo wrappers). Each environment game is
``reset(seed=i)`` and then, for every agent ``agent_iter()`` yields, ``last()`` (the
seat's view, its encoded observation and its mask) and ``step()`` of an action drawn
uniformly from the mask's allowed actions (``mask.nonzero()``). The goal (issue 15): the
environment at least 40% of ``simulate``'s games per second in the same run. Both
figures move with the machine's load; the ratio much less.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from common import floor_games, machine, race, ratio_line

from qe_rules.rl import QEEnv, env
from qe_rules.simulation.stats import simulate


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
            legal = observation["action_mask"].nonzero()[0]
            env.step(int(legal[int(draw() * len(legal))]))


def on_clock(
    run: Callable[[], object], clock: Callable[[], float], times: list[float]
) -> Callable[[], None]:
    """``run``, recording into ``times`` how long each call took on ``clock``."""

    def timed() -> None:
        start = clock()
        run()
        times.append(clock() - start)

    return timed


def measure(
    players: int, games: int, repeat: int, ruleset: str = "en", clock: str = "wall"
) -> dict[str, float]:
    """The best times of the environment, ``simulate`` (1 worker) and the floor: wall
    time, or with ``clock="process"`` this process's processor time, which a loaded
    machine disturbs less."""
    made = env(ruleset, players)
    contenders = {
        "environment": lambda: play(made, games),
        "simulate": lambda: simulate(ruleset, players, "random", games, seed=0, engine="reference"),
        "floor": floor_games(games),
    }
    play(made, 20)  # warm-up
    if clock == "wall":
        return race(contenders, repeat)
    times: dict[str, list[float]] = {name: [] for name in contenders}
    race(
        {name: on_clock(run, time.process_time, times[name]) for name, run in contenders.items()},
        repeat,
    )
    return {name: min(spent) for name, spent in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--clock", choices=("wall", "process"), default="wall")
    args = parser.parse_args()
    print(machine(), f"({args.clock} time)")
    best = measure(args.players, args.games, args.repeat, clock=args.clock)
    for name in ("environment", "simulate"):
        print(
            ratio_line(
                f"{name}, {args.players} players", best[name], best["floor"], args.games, "game"
            )
        )
    print(
        f"environment {args.games / best['environment']:,.0f} games/s, simulate "
        f"{args.games / best['simulate']:,.0f} games/s: the environment at "
        f"{best['simulate'] / best['environment']:.0%} of simulate (goal: at least 40%)"
    )


if __name__ == "__main__":
    main()
