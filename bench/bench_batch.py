"""The batched engine's speed: games a second and the ratio to the floor, in one run.

Run: ``python bench/bench_batch.py [--games N] [--repeat R] [--quick]``. For 3, 4 and 5
players (``en``, the library's ``random`` agent and the floor's bidder), then for several
chunk sizes (4 players), then the vector environment if asked (``--env``, or
``--env-only`` without the rest: random actions, a full observation and mask for every
seat at every step, with and without copies of the arrays). The floor plays
2,000 games (a ``Random(seed)`` each) alternating with the batch; each keeps its best time.
The batch's random draws are inside every timed region. Also the memory of a run of
1,000,000 games (``--million``: peak resident size, chunked). ``--clock process`` times
processor time instead of wall time (on a busy machine it moves less).
"""

from __future__ import annotations

import argparse
import resource
import time
from collections.abc import Callable

from common import floor_games, machine

from qe_rules import batch

FLOOR_GAMES = 2000
CLOCKS = {"wall": time.perf_counter, "process": time.process_time}
clock = CLOCKS["wall"]


def race(contenders: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """``common.race`` on the clock chosen (``--clock``): each contender's best time of
    ``repeat`` rounds, the contenders alternating in every round."""
    best = dict.fromkeys(contenders, float("inf"))
    for _ in range(repeat):
        for name, run in contenders.items():
            start = clock()
            run()
            best[name] = min(best[name], clock() - start)
    return best


def measure(
    players: int, games: int, repeat: int, agents: str = "random", chunk: int = batch.CHUNK
) -> tuple[float, float]:
    """The best times of ``games`` batch games and of the floor's games, per game."""
    times = race(
        {
            "batch": lambda: batch.play("en", players, games, agents=agents, seed=1, chunk=chunk),
            "floor": floor_games(FLOOR_GAMES),
        },
        repeat,
    )
    return times["batch"] / games, times["floor"] / FLOOR_GAMES


def line(what: str, batch_time: float, floor_time: float) -> str:
    """One result line: games a second and the ratio to the floor."""
    return (
        f"{what}: {1 / batch_time:,.0f} games/s ({batch_time * 1e6:.2f} us a game), floor "
        f"{1 / floor_time:,.0f} games/s; ratio {floor_time / batch_time:.1f}x the floor"
    )


def report(games: int, repeat: int, chunks: bool = True) -> list[str]:
    """The lines of a run."""
    lines = []
    for players in (3, 4, 5):
        for agents in ("random", "floor"):
            batch_time, floor_time = measure(players, games, repeat, agents)
            lines.append(line(f"batch, en, {players} players, {agents}", batch_time, floor_time))
    if chunks:
        for chunk in (4096, 16384, 65536):
            batch_time, floor_time = measure(4, games, repeat, "random", chunk)
            lines.append(line(f"batch, en, 4 players, chunk {chunk}", batch_time, floor_time))
    return lines


def measure_env(
    players: int, num_envs: int, games: int, repeat: int, copy: bool
) -> tuple[float, float]:
    """The best times, per game, of ``games`` games of the vector environment and of the
    floor's games. Every seat gets a full observation and mask at every step; the actions
    are drawn uniformly from all actions (one ``integers`` call a step: the environment
    plays a forbidden one as the nearest legal one), so that the agent costs little next
    to the environment. ``copy``: the environment's ``copy`` (False: its own arrays)."""
    import numpy as np

    from qe_rules.learning import encode
    from qe_rules.learning.vector_env import BatchVectorEnv

    env = BatchVectorEnv("en", players, num_envs=num_envs, copy=copy)
    rng = np.random.default_rng(1)

    def run() -> None:
        env.reset(seed=1)
        finished = 0
        while finished < games:
            actions = rng.integers(0, encode.ACTIONS, (num_envs, players))
            done = env.step(actions)[2]
            finished += int(done.sum())

    rounds = -(-games // num_envs) * num_envs
    times = race({"env": run, "floor": floor_games(FLOOR_GAMES)}, repeat)
    env.close()
    return times["env"] / rounds, times["floor"] / FLOOR_GAMES


def measure_seat_env(
    players: int, opponents: str, num_envs: int, games: int, repeat: int, copy: bool
) -> tuple[float, float]:
    """The best times, per game, of ``games`` games of the single-learner vector
    environment (one learner, ``opponents`` in the other seats, on the batch) and of the
    floor's games. The learner's actions are drawn uniformly from all actions (the
    environment plays a forbidden one as the nearest legal one)."""
    import numpy as np

    from qe_rules.learning import encode
    from qe_rules.learning.seat_vector_env import SeatVectorEnv

    env = SeatVectorEnv("en", players, num_envs, opponents=opponents, copy=copy)
    rng = np.random.default_rng(1)

    def run() -> None:
        env.reset(seed=1)
        finished = 0
        while finished < games:
            done = env.step(rng.integers(0, encode.ACTIONS, num_envs))[2]
            finished += int(done.sum())

    rounds = -(-games // num_envs) * num_envs
    times = race({"env": run, "floor": floor_games(FLOOR_GAMES)}, repeat)
    env.close()
    return times["env"] / rounds, times["floor"] / FLOOR_GAMES


def measure_agents(players: int, agents: str, games: int, repeat: int) -> tuple[float, float]:
    """The best times, per game, of ``games`` batch games of ``agents`` in every seat
    (``trained``: the learned agent) and of the floor's games."""
    return measure(players, games, repeat, agents)


def million() -> str:
    """The peak memory of a run of 1,000,000 games (4 players, statistics only)."""
    import qe_rules as qe

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    stats = qe.simulate("en", 4, "random", 1_000_000, seed=1, engine="batch")
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return (
        f"1,000,000 games ({stats.engine}): peak resident size {after / 1024:,.0f} MB "
        f"(before {before / 1024:,.0f} MB)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="20,000 games, 2 rounds")
    parser.add_argument("--million", action="store_true", help="the memory of 1,000,000 games")
    parser.add_argument("--env", action="store_true", help="the vector environment too")
    parser.add_argument("--env-only", action="store_true", help="the vector environment alone")
    parser.add_argument(
        "--seat-env",
        action="store_true",
        help="only the single-learner vector environment against value and random agents",
    )
    parser.add_argument(
        "--agents",
        action="store_true",
        help="only the batch with value and trained agents in every seat (4 players)",
    )
    parser.add_argument(
        "--clock",
        choices=tuple(CLOCKS),
        default="wall",
        help="wall time, or processor time (less disturbed by a machine's other work)",
    )
    args = parser.parse_args()
    global clock
    clock = CLOCKS[args.clock]
    games, repeat = (20_000, 2) if args.quick else (args.games, args.repeat)
    print(machine())
    if args.seat_env:
        for opponents in ("value", "random"):
            for copy in (False, True):
                env_time, floor_time = measure_seat_env(4, opponents, 4096, 8192, repeat, copy)
                what = f"one learner against 3 {opponents}, 4 players, 4096 games, copy={copy}"
                print(line(what, env_time, floor_time))
        return
    if args.agents:
        for agents in ("value", "trained"):
            batch_time, floor_time = measure_agents(4, agents, min(games, 65536), repeat)
            print(line(f"batch, en, 4 players, {agents} in every seat", batch_time, floor_time))
        return
    if not args.env_only:
        for text in report(games, repeat):
            print(text)
    if args.env or args.env_only:
        for players in (3, 4, 5):
            for copy in (False, True):
                env_time, floor_time = measure_env(players, 4096, 8192, repeat, copy)
                what = f"vector environment, {players} players, 4096 games, copy={copy}"
                print(line(what, env_time, floor_time))
    if args.million:
        print(million())


if __name__ == "__main__":
    main()
