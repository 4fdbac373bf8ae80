"""Engine API: random games through ``new_game``, ``to_act`` and ``bid``, against the floor.

Run: ``python bench/bench_engine.py [--players 4] [--games N] [--repeat R]``. Every bid is
drawn as the floor draws it (``common.floor_bid``). The floor plays its own 4-player games in
the same run, alternating with the library. The goal (issue 16) is at least 0.5x the floor.
"""

from __future__ import annotations

import argparse

from common import floor_games, machine, play_engine, race, ratio_line


def measure(players: int, games: int, repeat: int, ruleset: str = "en") -> tuple[float, float]:
    """The best times of the library and of the floor for ``games`` games."""

    def library() -> None:
        for seed in range(games):
            play_engine(ruleset, players, seed)

    library()
    best = race({"library": library, "floor": floor_games(games)}, repeat)
    return best["library"], best["floor"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    library, floor = measure(args.players, args.games, args.repeat)
    print(ratio_line(f"engine API, {args.players} players", library, floor, args.games, "game"))


if __name__ == "__main__":
    print(machine())
    main()
