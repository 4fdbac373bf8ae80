"""The PettingZoo environment with random legal actions, against ``simulate`` with random
agents (a view for every decision) and the floor, in the same run.

Run: ``python bench/bench_rl.py [--players 4] [--games N] [--repeat R]``. The environment
is made as users make it, with ``qe_rules.rl.env()`` (which returns ``QEEnv`` itself, no
PettingZoo wrappers). Each environment game is ``reset(seed=i)`` and then, for every agent
``agent_iter()`` yields, ``last()`` (the seat's view, its encoded observation and its
mask) and ``step()`` of an action drawn uniformly from the mask's allowed actions
(``mask.nonzero()``). The goal (issue 15): the environment at least 40% of ``simulate``'s
games per second in the same run. Both figures move with the machine's load; the ratio
much less.
"""

from __future__ import annotations

import argparse
import random

from common import floor_games, machine, race, ratio_line

from qe_rules.rl import QEEnv, env
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
            legal = observation["action_mask"].nonzero()[0]
            env.step(int(legal[int(draw() * len(legal))]))


def measure(players: int, games: int, repeat: int, ruleset: str = "en") -> dict[str, float]:
    """The best times of the environment, ``simulate`` (1 worker) and the floor."""
    made = env(ruleset, players)
    contenders = {
        "environment": lambda: play(made, games),
        "simulate": lambda: simulate(ruleset, players, "random", games, seed=0),
        "floor": floor_games(games),
    }
    play(made, 20)  # warm-up
    return race(contenders, repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(machine())
    best = measure(args.players, args.games, args.repeat)
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
