"""The batched engine's speed: games a second and the ratio to the floor, in one run.

Run: ``python bench/bench_batch.py [--games N] [--repeat R] [--quick]``. For 3, 4 and 5
players (``en``, the library's ``random`` agent and the floor's bidder), then for several
chunk sizes (4 players), then the vector environment if asked (``--env``, or
``--env-only`` without the rest: random actions, a full observation and mask for every
seat at every step, with and without copies of the arrays). The floor plays
2,000 games (a ``Random(seed)`` each) alternating with the batch; each keeps its best time.
The batch's random draws are inside every timed region. ``--agents`` measures the agents
that read the games (``value``, ``trained``) beside ``random`` with 4 players. ``--runs`` measures ``simulate``
and ``compare`` (both ways) as the library's users call them (``engine="auto"``, which
plays them on the batch), ``--dask`` a ``LocalCluster`` of 2 worker processes against
one process (the cluster started outside the timed region; the figures checked equal).
Also the memory of a run of 1,000,000 games (``--million``: peak resident size,
chunked). ``--clock process`` times processor time instead of wall time (on a busy
machine it moves less; not with ``--dask``, whose work is in other processes).
"""

from __future__ import annotations

import argparse
import resource
import time
from collections.abc import Callable
from typing import Any

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
        f"{1 / floor_time:,.0f} games/s; ratio {_ratio(floor_time / batch_time)} the floor"
    )


def _ratio(ratio: float) -> str:
    """A ratio to the floor with two significant digits below 1 (0.15x), else one decimal."""
    return f"{ratio:.2f}x" if ratio < 1 else f"{ratio:.1f}x"


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


def thinking(games: int, repeat: int) -> list[str]:
    """The agents that read the games (``value``, ``trained``) beside ``random``, 4 players
    of ``en``, each against the floor in the same run (fewer games for the slower ones)."""
    lines = []
    for agents, share in (("random", 1), ("value", 10), ("trained", 10)):
        played = max(games // share, 2_000)
        batch_time, floor_time = measure(4, played, repeat, agents)
        lines.append(
            line(f"batch, en, 4 players, {agents} ({played:,} games)", batch_time, floor_time)
        )
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


def runs(games: int, repeat: int) -> list[str]:
    """``simulate`` and ``compare`` on the batch (``engine="auto"``, 4 players, en, random
    agents), per game of the run: ``compare`` against ``en-early``, rescored
    (``play="first"``: one play and one rescoring a game) and played under each
    (``play="each"``: two plays a game); then the rescored comparison on the reference
    engine, on fewer games."""
    import qe_rules as qe

    calls: dict[str, Callable[[], Any]] = {
        "simulate": lambda: qe.simulate("en", 4, "random", games, seed=1),
        "compare, play=first (rescored under en-early)": lambda: qe.compare(
            ["en", "en-early"], 4, "random", games, seed=1
        ),
        "compare, play=each (played under en and en-early)": lambda: qe.compare(
            ["en", "en-early"], 4, "random", games, seed=1, play="each"
        ),
    }
    assert all(call().engine == "batch" for call in calls.values())
    lines = []
    for what, call in calls.items():
        times = race({"run": call, "floor": floor_games(FLOOR_GAMES)}, repeat)
        lines.append(
            line(f"{what}, en, 4 players", times["run"] / games, times["floor"] / FLOOR_GAMES)
        )
    few = max(1, games // 200)  # the reference engine, for the ratio of the two
    times = race(
        {
            "run": lambda: qe.compare(
                ["en", "en-early"], 4, "random", few, seed=1, engine="reference"
            ),
            "floor": floor_games(FLOOR_GAMES),
        },
        repeat,
    )
    what = f"compare, play=first, engine=reference ({few:,} games), en, 4 players"
    lines.append(line(what, times["run"] / few, times["floor"] / FLOOR_GAMES))
    return lines


def dask(games: int, repeat: int) -> list[str]:
    """``simulate`` on the batch through a Dask ``LocalCluster`` of 2 worker processes
    against one process, each a ratio to the floor; the figures must be equal."""
    from distributed import Client, LocalCluster

    import qe_rules as qe

    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        executor = client.get_executor()
        found: dict[str, list[Any]] = {"dask": [], "one": []}

        # each round another seed: Dask hands back a result it still holds for a task
        # submitted again with the same arguments
        def spread() -> None:
            seed = len(found["dask"])
            found["dask"].append(
                qe.simulate("en", 4, "random", games, seed=seed, executor=executor, workers=2)
            )

        def here() -> None:
            seed = len(found["one"]) + 1  # the Dask run's seed of the same round
            found["one"].append(qe.simulate("en", 4, "random", games, seed=seed))

        spread()  # the workers import the library and compile the rule set once
        times = race({"dask": spread, "one": here, "floor": floor_games(FLOOR_GAMES)}, repeat)
    assert found["dask"][1:] == found["one"] and found["one"][0].engine == "batch"
    floor_time = times["floor"] / FLOOR_GAMES
    return [
        line(f"simulate on the batch, {where}, en, 4 players", times[key] / games, floor_time)
        for key, where in (("one", "one process"), ("dask", "Dask LocalCluster, 2 workers"))
    ] + [f"  the same figures: True; Dask time / one process: {times['dask'] / times['one']:.2f}"]


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
    parser.add_argument("--runs", action="store_true", help="simulate and compare (engine auto)")
    parser.add_argument("--runs-only", action="store_true", help="simulate and compare alone")
    parser.add_argument(
        "--dask", action="store_true", help="simulate on a Dask LocalCluster of 2 workers"
    )
    parser.add_argument(
        "--agents", action="store_true", help="value and trained agents beside random (4 players)"
    )
    parser.add_argument("--agents-only", action="store_true", help="those agents alone")
    parser.add_argument("--env", action="store_true", help="the vector environment too")
    parser.add_argument("--env-only", action="store_true", help="the vector environment alone")
    parser.add_argument(
        "--seat-env",
        action="store_true",
        help="only the single-learner vector environment against value and random agents",
    )
    parser.add_argument(
        "--num-envs",
        type=int,
        nargs="+",
        default=[4096, 8192],
        help="the games at once of the single-learner environment (--seat-env)",
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
        for num_envs in args.num_envs:
            for opponents in ("value", "random"):
                for copy in (False, True):
                    env_time, floor_time = measure_seat_env(
                        4, opponents, num_envs, max(8192, 2 * num_envs), repeat, copy
                    )
                    what = (
                        f"one learner against 3 {opponents}, 4 players, {num_envs} games, "
                        f"copy={copy}"
                    )
                    print(line(what, env_time, floor_time))
        return
    if not (args.env_only or args.runs_only or args.agents_only):
        for text in report(games, repeat):
            print(text)
    if args.agents or args.agents_only:
        for text in thinking(games, repeat):
            print(text)
    if args.runs or args.runs_only:
        for text in runs(games, repeat):
            print(text)
    if args.dask:
        for text in dask(games * 5, repeat):
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
