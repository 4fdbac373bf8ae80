"""Learn the shipped ``trained`` agent: the weights of a learned agent
(``qe_rules.simulation.learned``) found by the cross-entropy method on the batched engine,
against a population that grows as it learns (PSRO-style): value and random tables, hand-
written variants of the value agent and best responses to the agent itself, each seated
against copies of it (each generation the value agent, ``--sample`` of its variants drawn
at random, and every best response kept). numpy only. From the repository root::

    OPENBLAS_NUM_THREADS=1 nice -n 15 python scripts/learn_agent.py --players 4 \\
        --minutes 60 --out runs/learned4
    python scripts/learn_agent.py --players 4 --export runs/learned4/best.toml \\
        --to qe_rules/data/agents/trained-en-4.toml

Every generation draws ``--population`` weights around the mean (antithetic pairs), plays
each against every table of the population on the same deals (games of a seed used for
nothing else: ``--seed`` times a million plus the generation), and moves the mean to the
best ``--elite``. The fitness counts each table's margin to its goal (``GOALS``), capped so
that a goal met gives little more, and a tenth of the margin uncapped. Every
``--exploit-every`` generations, a best response is searched the same way, from the
agent's own weights, for the share of one seat against copies of the agent, and joins
the population (the latest ``--exploiters`` of them). The mean is evaluated every
``--report-every`` generations on other deals (``--select-seed``); at the end the last
``--candidates`` reports are weighed against the whole population and a best response
found afresh against each, and the best is kept as ``best.toml``; ``log.jsonl`` has every
report.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import time
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np

from qe_rules import batch
from qe_rules._util.toml import dumps
from qe_rules.simulation.batch.learned import LearnedBids
from qe_rules.simulation.learned import (
    DENOMINATOR,
    FEATURES,
    OUTPUTS,
    VALUE_VARIANTS,
    LearnedWeights,
)

GLOBALS = ("noise", "opening_noise", "margin", "rebid_steps", "style_cap")
GLOBAL_SPREADS = (0.3, 0.3, 0.5, 0.5, 1.0)
# per player count: the goal of each table, a share of the games for the agent's tables
# (the agent in one seat) and a most for the intruders' (one seat against copies of it):
# the value agent, its variants, and the best responses found
GOALS = {
    3: {"value": 0.60, "random": 0.85, "mixed": 0.75, "in:value": 0.38, "in:variant": 0.42,
        "in:br": 0.52},
    4: {"value": 0.52, "random": 0.82, "mixed": 0.70, "in:value": 0.28, "in:variant": 0.33,
        "in:br": 0.45},
    5: {"value": 0.45, "random": 0.72, "mixed": 0.55, "in:value": 0.22, "in:variant": 0.27,
        "in:br": 0.36},
}  # fmt: skip
CAP = 0.04
# a hidden unit drawn afresh (a run's start, a unit --init adds): its weights from the
# features drawn from N(0, HIDDEN_SPREAD), its bias HIDDEN_BIAS
HIDDEN_SPREAD = 0.5
HIDDEN_BIAS = 0.1


class Shape:
    """The flat vector of a network with one hidden layer of ``hidden`` units."""

    def __init__(self, hidden: int) -> None:
        self.sizes = (
            [len(FEATURES), hidden, len(OUTPUTS)] if hidden else [len(FEATURES), len(OUTPUTS)]
        )
        layers = sum(a * b + b for a, b in zip(self.sizes, self.sizes[1:], strict=False))
        self.count = layers + len(GLOBALS)

    def weights(self, theta: np.ndarray, players: int) -> LearnedWeights:
        whole = np.round(theta * DENOMINATOR).astype(int)
        layers = []
        at = 0
        for a, b in zip(self.sizes, self.sizes[1:], strict=False):
            matrix = whole[at : at + a * b].reshape(a, b)
            at += a * b
            bias = whole[at : at + b]
            at += b
            layers.append(
                (tuple(tuple(int(w) for w in row) for row in matrix), tuple(int(w) for w in bias))
            )
        extra = dict(zip(GLOBALS, (int(w) for w in whole[at:]), strict=True))
        extra["noise"] = max(extra["noise"], 0)
        extra["opening_noise"] = max(extra["opening_noise"], 0)
        extra["rebid_steps"] = max(extra["rebid_steps"], 0)
        return LearnedWeights(tuple(layers), players=players, **extra)

    def vector(self, weights: LearnedWeights) -> np.ndarray:
        parts: list[float] = []
        for matrix, bias in weights.layers:
            parts.extend(w for row in matrix for w in row)
            parts.extend(bias)
        parts.extend(getattr(weights, name) for name in GLOBALS)
        return np.array(parts, dtype=np.float64) / DENOMINATOR

    def widened(self, weights: LearnedWeights, rng: np.random.Generator) -> np.ndarray:
        """``weights`` (one hidden layer) with this shape's hidden units: the units added
        read the features at random, as :meth:`start` draws them, and weigh 0 in the
        outputs, so the start plays as ``weights`` do."""
        if len(weights.layers) != 2 or len(self.sizes) != 3:
            raise SystemExit("--init widens weights with one hidden layer to --hidden units")
        (matrix, bias), (outputs, last) = weights.layers
        added = self.sizes[1] - len(bias)
        if added < 0:
            raise SystemExit(f"--hidden {self.sizes[1]} is narrower than the weights' {len(bias)}")
        drawn = np.round(rng.normal(0, HIDDEN_SPREAD, (len(matrix), added)) * DENOMINATOR)
        first = tuple(
            row + tuple(int(w) for w in new) for row, new in zip(matrix, drawn, strict=True)
        )
        hidden_bias = bias + (round(HIDDEN_BIAS * DENOMINATOR),) * added
        second = outputs + ((0,) * len(last),) * added
        layers = ((first, hidden_bias), (second, last))
        return self.vector(attrs.evolve(weights, layers=layers))

    def start(self, rng: np.random.Generator) -> np.ndarray:
        """The value agent's weights, the hidden layer drawn (its outputs weigh 0)."""
        theta = self.vector(LearnedWeights.value_agent(self.sizes[1:-1]))
        if len(self.sizes) == 3:
            first = len(FEATURES) * self.sizes[1]
            theta[:first] = rng.normal(0, HIDDEN_SPREAD, first)
            theta[first : first + self.sizes[1]] = HIDDEN_BIAS
        return theta


def share(agents: Sequence[Any], players: int, games: int, seed: int, seat: int = 0) -> float:
    played = batch.play("en", players, games, agents=list(agents), seed=seed)
    return float(played.winners[:, seat].mean())


def tables(players: int, agent: Any, intruders: dict[str, Any]) -> dict[str, list[Any]]:
    """The population's tables: the agent against value, random and mixed tables, and
    each intruder in seat 0 against copies of the agent."""
    others = players - 1
    found = {
        "value": [agent, *["value"] * others],
        "random": [agent, *["random"] * others],
        "mixed": [agent, *[("value", "random")[k % 2] for k in range(others)]],
    }
    for name, intruder in intruders.items():
        found[f"in:{name}"] = [intruder, *[agent] * others]
    return found


def margins(
    players: int, agent: Any, intruders: dict[str, Any], games: int, seed: int
) -> dict[str, float]:
    """Each table's margin to its goal (positive: met)."""
    goals = GOALS[players]
    found = {}
    for number, (name, agents) in enumerate(tables(players, agent, intruders).items()):
        count = games if not name.startswith("in:") else games * 3 // 4
        won = share(agents, players, count, seed + number)
        if name.startswith("in:br"):
            found[name] = goals["in:br"] - won
        elif name.startswith("in:value-"):
            found[name] = goals["in:variant"] - won
        elif name.startswith("in:"):
            found[name] = goals["in:value"] - won
        else:
            found[name] = won - goals[name]
    return found


def fitness(found: dict[str, float], value_weight: float = 1.0) -> float:
    """The capped margins summed (a tenth uncapped), the value table's ``value_weight``
    times."""
    weights = np.array([value_weight if name == "value" else 1.0 for name in found])
    values = np.array(list(found.values()))
    return float((weights * (np.minimum(values, CAP) + 0.1 * values)).sum())


def cem(
    start: np.ndarray,
    score: Any,
    generations: int,
    population: int,
    elite: int,
    spread: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    """The cross-entropy method from ``start``: ``score(theta, generation)`` to maximise."""
    mean, sd = start.copy(), spread.copy()
    for generation in range(generations):
        noise = rng.standard_normal((population // 2, len(mean)))
        drawn = np.concatenate([mean + noise * sd, mean - noise * sd])
        scores = np.array([score(theta, generation) for theta in drawn])
        best = drawn[np.argsort(-scores)[:elite]]
        mean = best.mean(axis=0)
        sd = np.maximum(0.7 * best.std(axis=0) + 0.3 * sd, spread * 0.1)
    return mean


def learn(args: argparse.Namespace) -> None:
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    players = args.players
    shape = Shape(args.hidden)
    rng = np.random.default_rng(args.seed)
    mean = shape.start(rng)
    if args.init:
        mean = shape.widened(LearnedWeights.load(args.init), rng)
    spread = np.full(shape.count, args.spread)
    spread[-len(GLOBALS) :] = GLOBAL_SPREADS
    sd = spread.copy()
    intruders: dict[str, Any] = {"value": "value"}
    intruders.update({name: LearnedBids(w) for name, w in VALUE_VARIANTS.items()})
    exploiters: list[tuple[str, LearnedBids]] = []
    start = time.process_time()
    generation = 0
    while time.process_time() - start < args.minutes * 60:
        pool = {**intruders, **dict(exploiters)}
        seed = args.seed * 1_000_000 + generation * 100
        names = sorted(pool)
        chosen = [
            "value",
            *rng.choice([n for n in names if n != "value"], args.sample, replace=False),
        ]
        sampled = {name: pool[name] for name in chosen}
        noise = rng.standard_normal((args.population // 2, shape.count))
        drawn = np.concatenate([mean + noise * sd, mean - noise * sd])
        scores = []
        for theta in drawn:
            agent = LearnedBids(shape.weights(theta, players))
            found = margins(players, agent, sampled, args.games, seed)
            scores.append(fitness(found, args.value_weight))
        order = np.argsort(-np.array(scores))[: args.elite]
        mean = drawn[order].mean(axis=0)
        sd = np.maximum(0.7 * drawn[order].std(axis=0) + 0.3 * sd, spread * 0.1)
        generation += 1
        if generation % args.exploit_every == 0:
            exploiters.append((f"br{generation}", exploiter(shape, mean, players, args, rng)))
            del exploiters[: -args.exploiters]
        if generation % args.report_every == 0:
            weights = shape.weights(mean, players)
            agent = LearnedBids(weights)
            found = margins(players, agent, pool, args.select_games, args.select_seed)
            score = fitness(found, args.value_weight)
            row = {
                "generation": generation,
                "cpu_minutes": round((time.process_time() - start) / 60, 2),
                "fitness": round(score, 4),
                **{k: round(v, 4) for k, v in found.items()},
            }
            (out / f"gen{generation:04d}.toml").write_text(dumps(weights.to_dict()))
            with (out / "log.jsonl").open("a") as log:
                log.write(json.dumps(row) + "\n")
            print(json.dumps(row), flush=True)
    (out / "final.toml").write_text(dumps(shape.weights(mean, players).to_dict()))
    select(shape, out, players, {**intruders, **dict(exploiters)}, args, rng)


def select(
    shape: Shape,
    out: pathlib.Path,
    players: int,
    pool: dict[str, Any],
    args: argparse.Namespace,
    rng: np.random.Generator,
) -> None:
    """Choose the shipped weights among the last reports: each against the whole final
    population and a best response searched against it afresh, on the selection deals;
    the one of highest fitness is ``best.toml`` (a fitness judged against an earlier,
    smaller population would favour early weights)."""
    reports = sorted(out.glob("gen*.toml"))[-args.candidates :]
    found = []
    for path in reports:
        weights = LearnedWeights.load(path)
        agent = LearnedBids(weights)
        response = exploiter(shape, shape.vector(weights), players, args, rng)
        margins_found = margins(
            players, agent, {**pool, "fresh": response}, args.select_games, args.select_seed
        )
        score = fitness(margins_found, args.value_weight)
        found.append((score, path.name))
        row = {"select": path.name, "fitness": round(score, 4)}
        row.update({k: round(v, 4) for k, v in margins_found.items()})
        with (out / "log.jsonl").open("a") as log:
            log.write(json.dumps(row) + "\n")
        print(json.dumps(row), flush=True)
    best = max(found)[1]
    (out / "best.toml").write_text((out / best).read_text())
    print(json.dumps({"chosen": best}), flush=True)


def exploiter(
    shape: Shape,
    theta: np.ndarray,
    players: int,
    args: argparse.Namespace,
    rng: np.random.Generator,
) -> LearnedBids:
    """A best response to the agent ``theta`` among learned agents: the cross-entropy
    method from ``theta`` itself, for one seat's share against copies of the agent."""
    agent = LearnedBids(shape.weights(theta, players))
    others = [agent] * (players - 1)
    seed = args.seed * 1_000_000 + 700_000 + int(rng.integers(1_000_000))

    def score(candidate: np.ndarray, generation: int) -> float:
        intruder = LearnedBids(shape.weights(candidate, players))
        return share([intruder, *others], players, args.games, seed + generation)

    spread = np.full(shape.count, args.spread * 1.5)
    spread[-len(GLOBALS) :] = GLOBAL_SPREADS
    found = cem(theta, score, args.exploit_generations, 12, 3, spread, rng)
    return LearnedBids(shape.weights(found, players))


def export(args: argparse.Namespace) -> None:
    weights = LearnedWeights.load(args.export)
    note = args.note or weights.note
    text = dumps(
        {**weights.to_dict(), "note": note},
        header="The shipped trained agent's weights (scripts/learn_agent.py; docs/rl.md).",
    )
    pathlib.Path(args.to).write_text(text)
    print(args.to, len(text.encode()), "bytes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--out", default="runs/learned")
    parser.add_argument("--minutes", type=float, default=60.0, help="processor minutes")
    parser.add_argument("--hidden", type=int, default=8)
    parser.add_argument("--population", type=int, default=32)
    parser.add_argument("--elite", type=int, default=8)
    parser.add_argument("--spread", type=float, default=0.1)
    parser.add_argument("--games", type=int, default=800, help="games per table and weights")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--sample", type=int, default=2, help="variants of the value agent per generation"
    )
    parser.add_argument("--exploit-every", type=int, default=15)
    parser.add_argument("--exploit-generations", type=int, default=10)
    parser.add_argument("--exploiters", type=int, default=5)
    parser.add_argument("--report-every", type=int, default=5)
    parser.add_argument("--select-seed", type=int, default=424242)
    parser.add_argument("--select-games", type=int, default=2000)
    parser.add_argument(
        "--candidates", type=int, default=6, help="last reports weighed for the shipped weights"
    )
    parser.add_argument(
        "--init", help="weights (.toml) to start from (their hidden layer widened to --hidden)"
    )
    parser.add_argument(
        "--value-weight",
        type=float,
        default=1.0,
        help="how many times the table against value agents counts in the fitness",
    )
    parser.add_argument(
        "--select-from",
        help="a run's folder: choose among its last reports (against the value agent, its "
        "variants and a best response found afresh against each) without learning",
    )
    parser.add_argument("--export", help="write these weights (.toml) as shipped weights")
    parser.add_argument("--to", help="where --export writes")
    parser.add_argument("--note", default="")
    args = parser.parse_args()
    if args.export:
        export(args)
    elif args.select_from:
        intruders: dict[str, Any] = {"value": "value"}
        intruders.update({name: LearnedBids(w) for name, w in VALUE_VARIANTS.items()})
        rng = np.random.default_rng(args.seed + 1)
        select(
            Shape(args.hidden), pathlib.Path(args.select_from), args.players, intruders, args, rng
        )
    else:
        learn(args)


if __name__ == "__main__":
    main()
