"""``qe-rules verify --all``: its time as a number of floor games.

Run: ``python bench/bench_verify.py [--repeat R]``. The verifier's cost is a fixed amount of
work (every check on the four built-in rule sets), so its figure is the time of one run
divided by the time of one floor game measured in the same run: how many floor games it
costs. Lower is better.
"""

from __future__ import annotations

import argparse
import io

from common import floor_games, machine, race

from qe_rules.apps.cli import main as cli

FLOOR_GAMES = 2000


def measure(repeat: int) -> tuple[float, float]:
    """The best time of ``verify --all`` and of one floor game."""

    def library() -> None:
        cli(["verify", "--all"], out=io.StringIO())

    best = race({"library": library, "floor": floor_games(FLOOR_GAMES)}, repeat)
    return best["library"], best["floor"] / FLOOR_GAMES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    library, floor_game = measure(args.repeat)
    print(
        f"verify --all: {library:.2f} s, the time of {library / floor_game:,.0f} floor games "
        f"(floor {floor_game * 1e6:.1f} us per game)"
    )


if __name__ == "__main__":
    print(machine())
    main()
