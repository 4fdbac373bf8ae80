"""Scoring: ``score_game`` against the floor's scoring step, on the same games.

Run: ``python bench/bench_scoring.py [--games N] [--repeat R]``. The games are the floor's
random 4-player games (its deck, bids and ties), dealt once; the floor scores each with its
own scoring step and the library with ``score_game("en", records)`` from ready
:class:`~qe_rules.PlayerRecord` lists, which checks the records as well. Both must give the
same totals. The goal (issue 16) is at least 1.0x the floor.
"""

from __future__ import annotations

import argparse
import random

from common import as_records, check_floor_split, floor_deal, floor_score, machine, race, ratio_line

import qe_rules as qe


def measure(games: int, repeat: int) -> tuple[float, float]:
    """The best times of the library and of the floor for scoring ``games`` games."""
    check_floor_split()
    rng = random.Random(1)
    dealt = [floor_deal(rng) for _ in range(games)]
    records = [as_records(d) for d in dealt]
    for d, r in zip(dealt, records, strict=True):
        totals = [sheet.total for sheet in qe.score_game("en", r).sheets]
        if totals != floor_score(*d)[1]:
            raise SystemExit(f"bench: library and floor totals differ: {totals} for {d}")

    def library() -> None:
        score = qe.score_game
        for game in records:
            score("en", game)

    def floor() -> None:
        for game in dealt:
            floor_score(*game)

    best = race({"library": library, "floor": floor}, repeat)
    return best["library"], best["floor"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    library, floor = measure(args.games, args.repeat)
    print(ratio_line("scoring, 4 players", library, floor, args.games, "game"))


if __name__ == "__main__":
    print(machine())
    main()
