"""What copying a game costs: ``copy.copy``, ``copy.deepcopy``, a pickle round trip and a
replay of the game's record, late in a 5-player game.

Run: ``python bench/bench_copy.py [--repeat 5] [--number 2000]``. The game is played by
random legal bids up to its last sale. Search-based bots copy games a lot, so copies must
not replay the game (issue: embedding): the goal is a ``deepcopy`` at least 50 times
faster than a replay. Each figure is the best of ``--repeat`` runs, in microseconds.
"""

from __future__ import annotations

import argparse
import copy
import pickle
import random
import timeit

import qe_rules as qe


def late_game(players: int = 5, seed: int = 1) -> qe.Game:
    """A game of random legal bids, stopped at the opening of its last sale."""
    rng = random.Random(seed)
    game = qe.new_game("en", players, seed=seed)
    last = game.ruleset.sales(players) - 1
    while game.sale < last:
        for seat in sorted(game.to_act):
            if game.can_peek(seat):
                game = game.peek(seat) if rng.random() < 0.3 else _decline(game, seat)
                continue
            limits = game.bid_limits(seat)
            assert limits is not None
            game = game.bid(seat, limits.legal(limits.minimum + rng.randrange(8)))
    return game


def _decline(game: qe.Game, seat: int) -> qe.Game:
    decline = getattr(game, "decline_peek", None)  # absent before peeks were a turn
    return game if decline is None else decline(seat)


def best_us(action, number: int, repeat: int) -> float:
    """The best time of one call of ``action``, in microseconds."""
    return min(timeit.repeat(action, number=number, repeat=repeat)) / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--number", type=int, default=2000)
    args = parser.parse_args()
    game = late_game()
    record = game.to_record()
    moves = len(record["moves"])
    few = max(1, args.number // 100)  # a replay is slow: fewer calls
    figures = {
        "copy.copy": best_us(lambda: copy.copy(game), args.number, args.repeat),
        "copy.deepcopy": best_us(lambda: copy.deepcopy(game), args.number, args.repeat),
        "pickle round trip": best_us(
            lambda: pickle.loads(pickle.dumps(game)), few * 10, args.repeat
        ),
        "replay(record)": best_us(lambda: qe.replay(record), few, args.repeat),
    }
    print(f"copies of a 5-player game at sale {game.sale} ({moves} moves):")
    for name, micros in figures.items():
        print(f"  {name:18} {micros:10.2f} us")
    print(f"  replay / deepcopy  {figures['replay(record)'] / figures['copy.deepcopy']:10.0f}x")


if __name__ == "__main__":
    main()
