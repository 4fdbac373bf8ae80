"""Search agents in whole games: OpenSpiel's ``ISMCTSBot`` on ``python_qe`` with the
library's resampler, and the library's own ``SearchAgent``; win shares with 95% Wilson
intervals, the searching seat turning from game to game. From the repository root::

    python scripts/search_games.py ismcts --games 200 --simulations 100
    python scripts/search_games.py search --games 200 --simulations 48

``ismcts`` plays ``ISMCTSBot`` (UCT constant 2, one random rollout per leaf, its resampler
``qe_rules.openspiel.resampler``) against uniformly random players (as the review of
2026-11-28 did) or value agents (``--against value``), and counts the games that end in
an ``AssertionError`` (a resampled state whose information state differs from the real
one). ``search`` plays ``SearchAgent`` against value agents on the reference engine.
Needs the ``openspiel`` extra for ``ismcts``.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from qe_rules.simulation.intervals import wilson_interval


def ismcts_games(args: argparse.Namespace) -> dict[str, object]:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import qe_rules.openspiel
    from qe_rules.learning import encode
    from qe_rules.simulation.agents import ValueAgent

    game = pyspiel.load_game("python_qe", {"players": args.players, "ruleset": args.ruleset})
    wins = failures = played = 0
    start = time.process_time()
    for number in range(args.games):
        seat = number % args.players
        rng = np.random.RandomState(args.seed + number)
        draw = random.Random(args.seed + number)
        state = game.new_initial_state()
        while state.is_chance_node():
            actions, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=chances)))
        evaluator = mcts.RandomRolloutEvaluator(1, rng)
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, args.simulations, random_state=rng)
        bot.set_resampler(qe_rules.openspiel.resampler(args.seed + number))
        values = [ValueAgent(draw.getrandbits(31)) for _ in range(args.players)]
        try:
            while not state.is_terminal():
                player = state.current_player()
                if player == seat:
                    action = bot.step(state)
                elif args.against == "value":
                    view = state.game.view(player)
                    if view.can_peek:
                        wants = values[player].wants_peek(view)
                        action = encode.PEEK if wants else encode.DECLINE_PEEK
                    else:
                        legal = state.legal_actions()
                        wanted = values[player].bid(view)
                        action = min(legal, key=lambda a: abs(a - wanted))
                else:
                    action = draw.choice(state.legal_actions())
                state.apply_action(action)
        except AssertionError:
            failures += 1
            continue
        played += 1
        wins += state.returns()[seat] == 1.0
        if args.progress:
            print(f"game {number + 1}: {wins} won of {played}, {failures} failed", flush=True)
    low, high = wilson_interval(wins, max(played, 1))
    return {
        "agent": f"ISMCTSBot, {args.simulations} simulations",
        "against": args.against,
        "games": args.games,
        "finished": played,
        "assertion_failures": failures,
        "wins": wins,
        "share": wins / max(played, 1),
        "interval": [low, high],
        "cpu_seconds_per_game": (time.process_time() - start) / max(args.games, 1),
    }


def search_games(args: argparse.Namespace) -> dict[str, object]:
    from qe_rules.learning.search import SearchAgent
    from qe_rules.simulation.play import play_game

    wins = 0
    start = time.process_time()
    for number in range(args.games):
        seat = number % args.players
        agents: list[object] = ["value"] * args.players

        def searcher(seed: int) -> SearchAgent:
            return SearchAgent(seed, simulations=args.simulations, ruleset=args.ruleset)

        agents[seat] = searcher
        game = play_game(args.ruleset, args.players, agents, seed=args.seed, index=number)  # type: ignore[arg-type]
        wins += game.result().winners == (seat,)
        if args.progress:
            print(f"game {number + 1}: {wins} won", flush=True)
    low, high = wilson_interval(wins, args.games)
    return {
        "agent": f"SearchAgent, {args.simulations} simulations",
        "against": "value",
        "games": args.games,
        "wins": wins,
        "share": wins / args.games,
        "interval": [low, high],
        "cpu_seconds_per_game": (time.process_time() - start) / args.games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=["ismcts", "search"])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--ruleset", default="en")
    parser.add_argument("--against", choices=["uniform", "value"], default="uniform")
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--progress", action="store_true")
    args = parser.parse_args()
    found = ismcts_games(args) if args.kind == "ismcts" else search_games(args)
    print(json.dumps(found, indent=1))


if __name__ == "__main__":
    main()
