"""Evaluate a policy network (an ``.npz`` of ``scripts/train_agent.py export``, by
default the shipped ``trained`` agent) in seat 0 against tables of built-in agents, on
fixed deals (``simulate``'s games ``0`` to ``games - 1`` of seed ``--seed``), with 95%
Wilson intervals; the value agent in the same seat on the same deals for comparison.
Needs numpy only (no torch). From the repository root::

    python scripts/evaluate_agent.py --games 2000
    python scripts/evaluate_agent.py --curve runs/trained --games 500

``--curve`` evaluates every ``ckpt_*.npz`` of a training run (``train_agent.py export-all``
writes them) and prints the learning curve with the steps and minutes of ``log.jsonl``.
``--engine batch`` plays the games on the batched engine (``PolicyBatchAgent``: the same
decisions, other deals, many times faster).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import time
from typing import Any

from qe_rules import batch
from qe_rules.learning.policies import MLPPolicy, PolicyBatchAgent, policy_factory
from qe_rules.simulation.stats import simulate

TABLES = {
    "random": ["random"] * 4,
    "value": ["value"] * 4,
    "mixed": ["value", "random", "value", "random"],
}


def table(name: str, players: int) -> list[Any]:
    """The opponents of a table for ``players`` seats."""
    return TABLES[name][: players - 1]


ENGINE = "reference"


def win_share(me: Any, name: str, players: int, games: int, seed: int) -> tuple[float, Any]:
    if ENGINE == "batch":
        agents = [me, *table(name, players)]
        stats = batch.play("en", players, games, agents=agents, seed=seed).stats()
    else:
        stats = simulate(
            "en", players, [me, *table(name, players)], games=games, seed=seed, engine="reference"
        )
    return stats.win_share[0], stats.win_ci95[0]


def agent(weights: str | None) -> Any:
    """The policy in ``weights`` (default: the ``trained`` agent) for the engine chosen."""
    if weights is None:
        return "trained"
    policy = MLPPolicy.load(weights)
    return PolicyBatchAgent(policy) if ENGINE == "batch" else policy_factory(policy)


def percent(share: float, interval: Any = None) -> str:
    text = f"{100 * share:.1f}%"
    if interval is not None:
        text += f" [{100 * interval[0]:.1f}-{100 * interval[1]:.1f}]"
    return text


def evaluate(args: argparse.Namespace) -> None:
    me = agent(args.weights)
    rows = []
    for players in args.players:
        for name in args.tables:
            start = time.monotonic()
            mine = win_share(me, name, players, args.games, args.seed)
            value = win_share("value", name, players, args.games, args.seed)
            rows.append((players, name, mine, value, time.monotonic() - start))
    print(f"| players | table | agent in seat 0 ({args.games} games) | value agent in seat 0 |")
    print("|---|---|---|---|")
    for players, name, mine, value, _ in rows:
        print(f"| {players} | {name} | {percent(*mine)} | {percent(*value)} |")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(rows, indent=1))


def curve(args: argparse.Namespace) -> None:
    run = pathlib.Path(args.curve)
    logged = {}
    for line in (run / "log.jsonl").read_text().splitlines():
        row = json.loads(line)
        logged[row["name"]] = row
    print(f"| minutes | steps | vs value agents ({args.games} games) | vs random agents |")
    print("|---|---|---|---|")
    for path in sorted(run.glob("ckpt_*.npz")) + sorted(run.glob("final.npz")):
        row = logged.get(path.stem, {})
        me = agent(str(path))
        players = args.players[0]
        shares = [
            win_share(me, name, players, args.games, args.seed) for name in ("value", "random")
        ]
        print(
            f"| {row.get('minutes', '?')} | {row.get('steps', '?')} | "
            + " | ".join(percent(*share) for share in shares)
            + " |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--weights", help="an .npz policy (default: the shipped one)")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=20261125)
    parser.add_argument("--players", type=int, nargs="+", default=[4])
    parser.add_argument("--tables", nargs="+", default=list(TABLES), choices=list(TABLES))
    parser.add_argument("--curve", help="a training run's folder: evaluate its checkpoints")
    parser.add_argument("--json", help="also write the rows to this file")
    parser.add_argument("--engine", choices=["reference", "batch"], default="reference")
    args = parser.parse_args()
    global ENGINE
    ENGINE = args.engine
    if args.curve:
        curve(args)
    else:
        evaluate(args)


if __name__ == "__main__":
    main()
