"""How many 4-player games per second ``score_game`` scores on one core.

Run: ``python bench/bench_scoring.py [--games N] [--ruleset ID]``. Prints one line of
figures; the goal (issue: foundation) is at least 10,000 games per second.
"""

from __future__ import annotations

import argparse
import random
import time

import qe_rules as qe


def random_games(ruleset: qe.RuleSet, players: int, count: int, seed: int):
    rng = random.Random(seed)
    deck = list(ruleset.companies(players))
    games = []
    for _ in range(count):
        nations = rng.sample(ruleset.nations(players), players)
        tokens = rng.sample(ruleset.industries(players), players)
        rng.shuffle(deck)
        hands: list[list[qe.Company]] = [[] for _ in range(players)]
        for tile in deck:
            hands[rng.randrange(players)].append(tile)
        games.append(
            [
                qe.PlayerRecord(
                    nations[s], tokens[s], hands[s], rng.randrange(60), rng.randrange(5)
                )
                for s in range(players)
            ]
        )
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--ruleset", default="en")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    ruleset = qe.get_ruleset(args.ruleset)
    games = random_games(ruleset, 4, args.games, seed=1)
    for records in games[:1000]:  # warm the table caches as a long-running app would
        qe.score_game(ruleset, records)
    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        for records in games:
            qe.score_game(ruleset, records)
        best = min(best, time.perf_counter() - start)
    print(
        f"score_game, {args.ruleset}, 4 players: {args.games / best:,.0f} games/s "
        f"({best / args.games * 1e6:.1f} us per game; best of {args.repeat} x {args.games})"
    )


if __name__ == "__main__":
    main()
