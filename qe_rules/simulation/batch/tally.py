"""The batch's side of ``simulate`` and ``compare(..., play="each")``: a chunk of a run
played on the batch and summed up as the reference engine sums up its chunks (the same
tally of statistics, the same counts of a played comparison, the same per-game rows), so
that the runner sends either engine's chunks to worker processes or any executor, and
their sums merge alike.

>>> from qe_rules.simulation.runner import _Task
>>> tally = simulate_chunk(_Task(("en",), 4, ("random",) * 4, 3, 0, 500, False))
>>> sum(tally.wins) + tally.no_winner
500
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from qe_rules.components import COMPANIES
from qe_rules.rules.model import RuleSet
from qe_rules.simulation.batch.agents import BatchAgent
from qe_rules.simulation.batch.chunks import (
    CHUNK,
    SEAT_ARRAYS,
    check_batch_agents,
    chunk_arrays,
    game_record,
    played_chunks,
    seat_nations,
)
from qe_rules.simulation.batch.compiled import GAP_ORDER, CompiledRules, compile_rules
from qe_rules.simulation.batch.lockstep import PLAY_GAPS, Chunk, Draws, play_chunk
from qe_rules.simulation.rows import GameRow
from qe_rules.simulation.runner import _local, _Run, _Task
from qe_rules.simulation.tallies import _PlayedChunk, _Tally

__all__ = [
    "add_arrays",
    "batch_record",
    "check_fits",
    "game_rows",
    "played_chunk",
    "simulate_chunk",
    "task_agents",
    "task_chunks",
    "task_labels",
]

Arrays = Mapping[str, npt.NDArray[Any]]


def check_fits(rules: RuleSet, players: int) -> None:
    """Raise :class:`~qe_rules.InvalidArgument` naming the field where the batch cannot
    hold ``rules`` with ``players`` players (a scoring table too large)."""
    compile_rules(rules, players)


def task_labels(task: _Task) -> list[str]:
    """The names of a chunk's agents (the batch plays only agents given by name)."""
    return [str(spec) for spec in task.specs]


def task_agents(task: _Task) -> tuple[BatchAgent, ...]:
    """The batched agents of a chunk's seats."""
    return check_batch_agents(list(task.specs), task.players)


def task_chunks(task: _Task, rules: CompiledRules) -> Iterator[Chunk]:
    """The games of a chunk of a run, played under ``rules`` in chunks of the batch."""
    for played, _ in played_chunks(
        rules, task_agents(task), task.stop - task.start, task.seed, task.start, CHUNK
    ):
        yield played


def add_arrays(tally: _Tally, arrays: Arrays) -> None:
    """Add the games of a chunk's arrays (``totals``, ``spent`` by seat, ``winner``,
    ``gaps``, ``unsold``) to ``tally``, as ``tally.add`` adds a game of the reference
    engine."""
    totals = arrays["totals"].astype(np.int64)
    spent = arrays["spent"].astype(np.int64)
    winner = arrays["winner"]
    won = winner >= 0
    for seat in range(len(tally.wins)):
        tally.wins[seat] += int((winner == seat).sum())
        tally.total_sums[seat] += int(totals[:, seat].sum())
        tally.total_squares[seat] += int((totals[:, seat] ** 2).sum())
        tally.spend_sums[seat] += int(spent[:, seat].sum())
        tally.spend_squares[seat] += int((spent[:, seat] ** 2).sum())
    tally.no_winner += int((~won).sum())
    rows = np.flatnonzero(won)
    winning_spent = spent[rows, winner[rows]]
    tally.lowest_spender_wins += int((winning_spent == spent[rows].min(axis=1)).sum())
    tally.winning_totals += int(totals[rows, winner[rows]].sum())
    gaps = arrays["gaps"]
    tally.gap_games += int((gaps != 0).sum())
    for bit, code in enumerate(GAP_ORDER):
        met = int((gaps >> bit & 1).sum())
        if met:
            tally.gap_codes[code] = tally.gap_codes.get(code, 0) + met
    tally.unsold += int(arrays["unsold"].sum())


# --------------------------------------------------------------------------- rows


@functools.cache
def _gap_texts() -> npt.NDArray[np.object_]:
    """Per gap bit code, the codes of the gaps met in scoring, sorted and space-separated
    (a row's ``gaps``: those of the game's result, as the reference engine's rows)."""
    texts = [
        " ".join(sorted(c for bit, c in enumerate(GAP_ORDER) if (code & ~PLAY_GAPS) >> bit & 1))
        for code in range(1 << len(GAP_ORDER))
    ]
    return np.array(texts, dtype=object)


def game_rows(
    seed: int,
    numbers: npt.NDArray[np.int64],
    rules: Sequence[str],
    labels: Sequence[str],
    nations: Sequence[Sequence[Sequence[str]]],
    scored: Sequence[Arrays],
    changed: Sequence[npt.NDArray[np.bool_]] | None = None,
    causes: Sequence[npt.NDArray[np.object_]] | None = None,
) -> list[GameRow]:
    """The rows of games ``numbers``: per game, per rule set (``scored`` holds the
    arrays of each, as ``chunk_arrays`` gives them, and ``nations`` each seat's nation
    per game) and per seat, as the reference engine's rows. ``changed`` and ``causes``
    give per rule set and game whether its winners differ from the first's and why (a
    comparison's)."""
    games, players = len(numbers), len(labels)
    count = len(scored)
    shape = (games, count, players)

    def per_game(values: Sequence[npt.NDArray[Any]]) -> list[Any]:
        stacked = np.stack(values, axis=1)[:, :, None]
        listed: list[Any] = np.broadcast_to(stacked, shape).ravel().tolist()
        return listed

    def per_seat(name: str) -> list[Any]:
        listed: list[Any] = np.stack([a[name] for a in scored], axis=1).ravel().tolist()
        return listed

    seats = np.arange(players)
    won = [a["winner"][:, None] == seats for a in scored]
    nobody = np.zeros(games, dtype=bool)
    empty = np.full(games, "", dtype=object)
    columns = {
        "seed": itertools.repeat(seed),
        "game": np.repeat(numbers, count * players).tolist(),
        "ruleset": per_game([np.full(games, rid, dtype=object) for rid in rules]),
        "seat": np.broadcast_to(seats, shape).ravel().tolist(),
        "agent": list(labels) * (games * count),
        "nation": [n for game in zip(*nations, strict=True) for dealt in game for n in dealt],
        "tiles": per_seat("tiles"),
        "spent": per_seat("spent"),
        "companies": per_seat("company_points"),
        "zero_bids": per_seat("zero_bids"),
        "nationalization": per_seat("nationalization"),
        "monopolization": per_seat("monopolization"),
        "diversification": per_seat("diversification"),
        "lowest_spend_bonus": per_seat("lowest_spend_bonus"),
        "total": per_seat("totals"),
        "eliminated": per_seat("eliminated"),
        "won": np.stack(won, axis=1).ravel().tolist(),
        "winner_changed": per_game(changed or [nobody] * count),
        "causes": per_game(causes or [empty] * count),
        "unsold": per_game([a["unsold"] for a in scored]),
        "gaps": per_game([_gap_texts()[a["gaps"]] for a in scored]),
    }
    return list(map(GameRow, *columns.values()))


# --------------------------------------------------------------------------- simulate


def simulate_chunk(task: _Task) -> _Tally:
    """``simulate``'s chunk on the batch: its games summed up, with their rows when
    asked for."""
    rules = compile_rules(_local(task.rulesets[0]), task.players)
    tally = _Tally(task.players)
    names = SEAT_ARRAYS if task.rows else ("spent",)
    for played in task_chunks(task, rules):
        arrays = chunk_arrays(played, names)
        add_arrays(tally, arrays)
        if task.rows:
            numbers = np.arange(played.draws.first, played.draws.first + played.games)
            nations = [seat_nations(played)]
            tally.rows += game_rows(
                task.seed, numbers, (rules.ruleset.id,), task_labels(task), nations, [arrays]
            )
    return tally


def batch_record(run: _Run, game: int) -> dict[str, Any]:
    """Game ``game`` of a run on the batch, under its first rule set, as a record's
    dictionary."""
    rules = compile_rules(run.rulesets[0], run.players)
    agents = check_batch_agents(list(run.specs), run.players)
    return game_record(rules, agents, run.seed, game).to_dict()


# --------------------------------------------------------------------------- play="each"


def _owners(chunk: Chunk) -> npt.NDArray[np.int64]:
    """Per game, the seat (in table order) holding each company of the library, -1 for
    none: tiles compared between rule sets by what they are, not by their place in a deck."""
    rules = chunk.rules
    index = np.array([COMPANIES.index(c) for c in rules.ruleset.companies(rules.players)])
    owners = np.full((chunk.games, len(COMPANIES)), -1, dtype=np.int64)
    held = chunk.winners.T  # (games, sales), by column
    seats = np.where(held >= 0, (held + chunk.first[:, None]) % rules.players, -1)
    owners[np.arange(chunk.games)[:, None], index[chunk.deck]] = seats
    return owners


def played_chunk(task: _Task) -> _PlayedChunk:
    """``compare(..., play="each")``'s chunk on the batch: its games played under each
    rule set from the same draws (common random numbers), so that a game differs between
    rule sets only where the rules make it differ. Per rule set: the games whose winners
    changed, whose tiles went to other seats, and with an unsold sale; and the rows."""
    compiled = [compile_rules(_local(rules), task.players) for rules in task.rulesets]
    agents = task_agents(task)
    count = len(compiled)
    done = _PlayedChunk([0] * count, [0] * count, [0] * count, [])
    for first in range(task.start, task.stop, CHUNK):
        size = min(CHUNK, task.stop - first)
        scored, changes, nations = [], [], []
        base_winners = base_owners = None
        for number, rules in enumerate(compiled):
            draws = Draws(task.seed, first, size, task.players, rules.sales)
            played = play_chunk(rules, draws, agents)
            arrays = chunk_arrays(played, SEAT_ARRAYS if task.rows else ("winners",))
            owners = _owners(played)
            winners = arrays["winners"]
            if base_winners is None or base_owners is None:
                base_winners, base_owners = winners, owners
            changed = (winners != base_winners).any(axis=1)
            done.winners[number] += int(changed.sum())
            done.awards[number] += int((owners != base_owners).any(axis=1).sum())
            done.unsold[number] += int((arrays["unsold"] > 0).sum())
            if task.rows:
                scored.append(arrays)
                changes.append(changed)
                nations.append(seat_nations(played))
        if task.rows:
            ids = [rules.ruleset.id for rules in compiled]
            numbers = np.arange(first, first + size)
            done.rows.extend(
                game_rows(task.seed, numbers, ids, task_labels(task), nations, scored, changes)
            )
    return done
