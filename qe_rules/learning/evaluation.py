"""Evaluation as research expects: every agent of a population against every other, seats
rotated, on the batched engine, with 95% intervals and a summary in Elo and Nash-averaging
ratings (needs numpy; the Nash average needs scipy).

>>> from qe_rules.learning.evaluation import cross_play
>>> matrix = cross_play(["value", "random"], players=4, games=40, seed=1)
>>> matrix.labels, matrix.wins.shape
(('value', 'random'), (2, 2))
>>> 0 <= matrix.share("value", "random") <= 1
True

Cell ``(row, column)`` of the matrix is the one-against-the-rest game: the row agent in one
seat, the column agent in every other. Its games are the same deals for every cell (games
``0`` to ``games / players - 1`` of ``seed``, each played once with the row agent in each
seat), so the cells differ only by their agents (common random numbers). A share is the
games the row agent wins alone over all of them (a game without a single winner counts as
lost), ``1 / players`` being an even share; the diagonal is the agent against copies of
itself, an even share but for the advantage of a seat.

A population names its agents as the batch does (:data:`qe_rules.batch.BATCH_AGENTS`:
``random``, ``zero``, ``floor``, ``value``, ``trained``, ``ppo``), as the value agent's
variants (:data:`qe_rules.simulation.learned.VALUE_VARIANTS`: ``value-frugal``, ...), or
as files: a learned agent's weights (``.toml``, :class:`~qe_rules.simulation.learned.LearnedWeights`)
or a policy network (``.npz``, :class:`~qe_rules.learning.policies.MLPPolicy`). An agent
object (a :class:`~qe_rules.simulation.batch.agents.BatchAgent`) may be given with a
label as a ``(label, agent)`` pair.

The summary: :meth:`CrossPlay.elo` fits one strength per agent to every cell (the row
agent's chance to win alone against ``players - 1`` copies of the column agent is
``e^r / (e^r + (players - 1) e^c)``, a Bradley-Terry-Luce model) by maximum likelihood, on
the Elo scale (400 points: ten to one) with the value agent at 1000; it cannot show
cycles, which the matrix does. :meth:`CrossPlay.nash` is Nash averaging (Balduzzi et al.,
2018) of the antisymmetric game ``A = D - D^T``, where ``D`` is the row agent's share less
the share of a column agent's seat in the same games (so that games nobody wins alone
count for no side): the maximum-entropy Nash equilibrium of the population and each
agent's payoff against it (0 for the agents in its support, below 0 for the others).
"""

from __future__ import annotations

import math
import pathlib
from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from qe_rules.errors import InvalidArgument, shown
from qe_rules.rules.model import RuleSet, get_ruleset
from qe_rules.simulation.batch.agents import BATCH_AGENTS, BatchAgent, batch_agent
from qe_rules.simulation.batch.outcome import play
from qe_rules.simulation.intervals import wilson_interval

__all__ = ["EVALUATION_SEED", "CrossPlay", "cross_play", "one_against_rest", "population_agent"]

EVALUATION_SEED: Final = 20261201
"""The seed of the evaluation's deals by default: no training of the shipped agents
played them (their learning runs draw from other seeds; docs/rl.md)."""

_ELO: Final = 400 / math.log(10)


def population_agent(spec: object) -> tuple[str, BatchAgent]:
    """A population member's label and batched agent, from a name, a file or a
    ``(label, agent)`` pair (see the module)."""
    from qe_rules.simulation.batch.learned import LearnedBids
    from qe_rules.simulation.learned import VALUE_VARIANTS, LearnedWeights

    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
        return spec[0], batch_agent(spec[1])
    if not isinstance(spec, str):
        raise InvalidArgument(
            f"an agent of a population is a name, a file or a (label, agent) pair, got {shown(spec)}"
        )
    if spec in BATCH_AGENTS:
        return spec, batch_agent(spec)
    if spec in VALUE_VARIANTS:
        return spec, LearnedBids(VALUE_VARIANTS[spec])
    path = pathlib.Path(spec)
    if path.suffix == ".toml" and path.is_file():
        return path.stem, LearnedBids(LearnedWeights.load(path))
    if path.suffix == ".npz" and path.is_file():
        from qe_rules.learning.policies import MLPPolicy, PolicyBatchAgent

        return path.stem, PolicyBatchAgent(MLPPolicy.load(path))
    raise InvalidArgument(
        f"no agent {shown(spec)}: give a batched agent's name ({', '.join(BATCH_AGENTS)}), "
        f"a variant ({', '.join(VALUE_VARIANTS)}), or a .toml or .npz file that exists"
    )


@attrs.frozen(eq=False)
class CrossPlay:
    """A cross-play matrix (see the module): ``seat_wins[row, column, seat]`` counts the
    games the row agent won alone in ``seat`` against the column agent, out of ``deals``
    in each seat, and ``rest_wins[row, column]`` those a column agent won alone."""

    ruleset: str
    players: int
    seed: int
    deals: int
    labels: tuple[str, ...]
    seat_wins: npt.NDArray[np.int64]
    rest_wins: npt.NDArray[np.int64]

    @property
    def games(self) -> int:
        """The games of each cell: every deal once with the row agent in each seat."""
        return self.deals * self.players

    @property
    def wins(self) -> npt.NDArray[np.int64]:
        """The row agent's wins in each cell, every seat together."""
        found: npt.NDArray[np.int64] = self.seat_wins.sum(axis=2)
        return found

    @property
    def shares(self) -> npt.NDArray[np.float64]:
        """The row agent's share of each cell's games."""
        found: npt.NDArray[np.float64] = self.wins / self.games
        return found

    def _index(self, label: str) -> int:
        if label not in self.labels:
            raise InvalidArgument(
                f"no agent {shown(label)}; the agents are {', '.join(self.labels)}"
            )
        return self.labels.index(label)

    def share(self, row: str, column: str) -> float:
        """The share of one ``row`` agent against copies of ``column``."""
        return float(self.shares[self._index(row), self._index(column)])

    def interval(self, row: str, column: str) -> tuple[float, float]:
        """The 95% Wilson interval of :meth:`share`."""
        wins = int(self.wins[self._index(row), self._index(column)])
        return wilson_interval(wins, self.games)

    def elo(self, anchor: str = "value") -> dict[str, float]:
        """Each agent's Elo rating (see the module), ``anchor`` at 1000 (or the mean at
        1000 where the population has no such agent)."""
        strength = _luce(self.wins, self.games, self.players)
        base = strength[self.labels.index(anchor)] if anchor in self.labels else strength.mean()
        return {
            label: 1000 + _ELO * float(value - base)
            for label, value in zip(self.labels, strength, strict=True)
        }

    def nash(self) -> tuple[dict[str, float], dict[str, float]]:
        """Nash averaging: the maximum-entropy Nash equilibrium of the population's
        antisymmetric game (each agent's weight in it) and each agent's payoff against
        it (see the module). Needs scipy."""
        advantage = self.shares - self.rest_wins / self.games / (self.players - 1)
        game = advantage - advantage.T
        mixture = _maxent_nash(game)
        payoff = game @ mixture
        return (
            dict(zip(self.labels, map(float, mixture), strict=True)),
            dict(zip(self.labels, map(float, payoff), strict=True)),
        )

    def to_dict(self) -> dict[str, Any]:
        """The matrix and its summary as JSON types."""
        found: dict[str, Any] = {
            "ruleset": self.ruleset,
            "players": self.players,
            "seed": self.seed,
            "games_per_cell": self.games,
            "agents": list(self.labels),
            "wins": self.wins.tolist(),
            "wins_by_seat": self.seat_wins.tolist(),
            "rest_wins": self.rest_wins.tolist(),
            "elo": self.elo(),
        }
        try:
            mixture, payoff = self.nash()
        except InvalidArgument:
            return found
        found["nash"] = {"mixture": mixture, "payoff": payoff}
        return found

    def to_text(self) -> str:
        """The matrix (share of one row agent against the column agents, %, with its 95%
        interval) and the summary, as Markdown tables."""
        lines = [
            f"Cross-play, {self.ruleset}, {self.players} players, {self.games} games a cell "
            f"(seed {self.seed}, each deal with the row agent in every seat): the row agent's "
            f"win share against {self.players - 1} of the column agent, 95% intervals; even "
            f"share {100 / self.players:.1f}%.",
            "",
            "| one \\ rest | " + " | ".join(self.labels) + " |",
            "|---|" + "---|" * len(self.labels),
        ]
        for row in self.labels:
            cells = []
            for column in self.labels:
                low, high = self.interval(row, column)
                cells.append(
                    f"{100 * self.share(row, column):.1f} [{100 * low:.1f}-{100 * high:.1f}]"
                )
            lines.append(f"| {row} | " + " | ".join(cells) + " |")
        elo = self.elo()
        lines += ["", "| agent | Elo | Nash weight | Nash payoff |", "|---|---|---|---|"]
        try:
            mixture, payoff = self.nash()
        except InvalidArgument as error:
            mixture = payoff = {}
            note = str(error)
        else:
            note = ""
        for label in sorted(self.labels, key=lambda name: -elo[name]):
            weight = f"{mixture[label]:.3f}" if mixture else "-"
            value = f"{payoff[label]:+.3f}" if payoff else "-"
            lines.append(f"| {label} | {elo[label]:.0f} | {weight} | {value} |")
        if note:
            lines += ["", note]
        return "\n".join(lines)


def _luce(wins: npt.NDArray[Any], games: int, players: int) -> npt.NDArray[np.float64]:
    """The strengths that fit the one-against-the-rest wins best (see the module), by
    Newton's method, with a slight pull to 0 so that a clean sweep stays finite."""
    count = len(wins)
    strength = np.zeros(count)
    off = ~np.eye(count, dtype=bool)
    won = np.where(off, wins, 0).astype(np.float64)
    played = np.where(off, games, 0).astype(np.float64)
    offset = math.log(players - 1)
    for _ in range(100):
        chance = 1 / (1 + np.exp(strength[None, :] - strength[:, None] + offset))
        residual = won - played * chance
        gradient = residual.sum(axis=1) - residual.sum(axis=0) - 1e-3 * strength
        weight = played * chance * (1 - chance)
        joined = weight + weight.T
        hessian = np.diag(joined.sum(axis=1)) - joined + 1e-3 * np.eye(count)
        step = np.linalg.solve(hessian, gradient)
        strength += step
        if np.abs(step).max() < 1e-10:
            break
    return strength


def _maxent_nash(game: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The maximum-entropy Nash equilibrium of the symmetric zero-sum game ``game`` (an
    antisymmetric matrix): among the mixtures ``p`` with ``game @ p <= 0``, the one of
    highest entropy."""
    try:
        from scipy.optimize import linprog, minimize
    except ImportError:
        raise InvalidArgument(
            "the Nash average needs scipy (pip install scipy); the Elo ratings do not"
        ) from None
    count = len(game)
    # a first equilibrium by linear programming: the least v with game @ p <= v
    found = linprog(
        np.r_[np.zeros(count), 1.0],
        A_ub=np.c_[game, -np.ones(count)],
        b_ub=np.zeros(count),
        A_eq=np.r_[np.ones(count), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, 1)] * count + [(None, None)],
    )
    start = found.x[:count]
    slack = max(float(found.x[-1]), 0.0) + 1e-9

    def negative_entropy(mixture: npt.NDArray[np.float64]) -> float:
        safe = np.clip(mixture, 1e-12, 1)
        return float((safe * np.log(safe)).sum())

    best = minimize(
        negative_entropy,
        start,
        method="SLSQP",
        bounds=[(0, 1)] * count,
        constraints=[
            {"type": "eq", "fun": lambda p: p.sum() - 1},
            {"type": "ineq", "fun": lambda p: slack - game @ p},
        ],
        options={"maxiter": 500, "ftol": 1e-12},
    )
    mixture = np.clip(best.x if best.success else start, 0, 1)
    mixture[mixture < 1e-6] = 0
    return mixture / mixture.sum()  # type: ignore[no-any-return]


def one_against_rest(
    one: BatchAgent,
    rest: BatchAgent,
    *,
    ruleset: RuleSet | str = "en",
    players: int = 4,
    deals: int = 500,
    seed: int = EVALUATION_SEED,
) -> tuple[npt.NDArray[np.int64], int]:
    """One cell of a cross-play matrix: ``one`` in each seat in turn, ``rest`` in the
    others, on the same ``deals`` of ``seed``: the games ``one`` won alone in each seat,
    and those a ``rest`` seat won alone."""
    won = np.zeros(players, dtype=np.int64)
    others = 0
    for seat in range(players):
        agents = [rest] * players
        agents[seat] = one
        played = play(ruleset, players, deals, agents=agents, seed=seed)
        won[seat] = int((played.winner == seat).sum())
        others += int(((played.winner >= 0) & (played.winner != seat)).sum())
    return won, others


def cross_play(
    population: Sequence[object],
    *,
    ruleset: RuleSet | str = "en",
    players: int = 4,
    games: int = 2000,
    seed: int = EVALUATION_SEED,
    progress: Callable[[int, int], object] | None = None,
) -> CrossPlay:
    """Play every agent of ``population`` against every other (see the module): at least
    ``games`` games a cell, as many deals for each seat of the row agent."""
    rules = get_ruleset(ruleset)
    players = rules.check_players(players)
    if type(games) is not int or games < players:
        raise InvalidArgument(f"games is a whole number >= players, got {shown(games)}")
    members = [population_agent(spec) for spec in population]
    labels = tuple(label for label, _ in members)
    if len(set(labels)) != len(labels) or not labels:
        raise InvalidArgument(
            f"a population names each of its agents once, got {', '.join(labels)}"
        )
    deals = -(-games // players)
    count = len(members)
    seat_wins = np.zeros((count, count, players), dtype=np.int64)
    rest_wins = np.zeros((count, count), dtype=np.int64)
    done = 0
    for row, (_, one) in enumerate(members):
        for column, (_, rest) in enumerate(members):
            seat_wins[row, column], rest_wins[row, column] = one_against_rest(
                one, rest, ruleset=rules, players=players, deals=deals, seed=seed
            )
            done += 1
            if progress is not None:
                progress(done, count * count)
    return CrossPlay(rules.id, players, seed, deals, labels, seat_wins, rest_wins)
