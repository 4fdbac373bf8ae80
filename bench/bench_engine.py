"""How many random legal games per second the engine plays on one core.

Run: ``python bench/bench_engine.py [--players 4] [--games N] [--ruleset ID]``.
Random games are played through the public API only: ``new_game``, ``to_act``,
``opening_bid``, ``phase``, ``bid``, and in the 5-player peek window ``decline_peek``
(nobody peeks). Each bid is a random whole number from the legal minimum up to 12 (one
more when it hits the forbidden opening amount). The goal (issue: engine) is at least
2,000 four-player games per second.
"""

from __future__ import annotations

import argparse
import random
import time

import qe_rules as qe


def play(ruleset: str, players: int, seed: int) -> qe.Game:
    """One random legal game."""
    rng = random.Random(seed)
    draw = rng.random
    game = qe.new_game(ruleset, players, seed=seed)
    peeking = qe.Phase.PEEKING
    while not game.is_over:
        if game.phase is peeking:  # 5 players: nobody peeks
            for seat in game.to_act:
                game = game.decline_peek(seat)
            continue
        for seat in game.to_act:
            opening = game.opening_bid
            if opening is None or seat == game.auctioneer:
                amount = 1 + int(draw() * 12)
            else:
                amount = int(draw() * 13)
                if amount == opening:
                    amount += 1
            game = game.bid(seat, amount)
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--ruleset", default="en")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    play(args.ruleset, args.players, 0)
    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        for seed in range(args.games):
            play(args.ruleset, args.players, seed)
        best = min(best, time.perf_counter() - start)
    print(
        f"engine, {args.ruleset}, {args.players} players: {args.games / best:,.0f} games/s "
        f"({best / args.games * 1e6:.0f} us per game; best of {args.repeat} x {args.games})"
    )


if __name__ == "__main__":
    main()
