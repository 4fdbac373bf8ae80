"""``compare(..., play="first")`` on the batch: games played under the first rule set, their
holdings scored again under each other rule set from that rule set's tables (the tables
the reference scorer fills in, :mod:`~qe_rules.simulation.batch.compiled`), and the
changes of winner put down to their causes as :func:`~qe_rules.compare` does on the
reference engine.

>>> from qe_rules.simulation.runner import _Task
>>> found = compare_chunk(_Task(("en", "en-early"), 4, ("random",) * 4, 3, 0, 500, False))
>>> len(found.winners), found.changes[0], found.changes[1] == found.any_changes
(500, 0, True)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from qe_rules.rules.model import Category
from qe_rules.simulation.batch.chunks import SEAT_ARRAYS, chunk_arrays, player_records, seat_nations
from qe_rules.simulation.batch.compiled import CompiledRules, compile_rules
from qe_rules.simulation.batch.lockstep import Chunk, score_columns
from qe_rules.simulation.batch.tally import game_rows, task_chunks, task_labels
from qe_rules.simulation.runner import _local, _Task
from qe_rules.simulation.tallies import CHANGE_CAUSES, _Compared, _rescored

__all__ = ["compare_chunk", "rescored"]

Ints = npt.NDArray[np.signedinteger[Any]]
Bools = npt.NDArray[np.bool_]

# the arrays of the batch that hold each scoring category's points
_CATEGORY_ARRAYS: Final = {
    **{category.value: category.value for category in Category},
    Category.COMPANIES.value: "company_points",
    Category.SPENDING.value: "lowest_spend_bonus",
}
_COMPARED: Final = ("winners", "eliminated", *_CATEGORY_ARRAYS.values())
"""The arrays a comparison reads of each scoring."""
_CAUSE_TEXTS: Final = np.array(
    [
        " ".join(cause for bit, cause in enumerate(CHANGE_CAUSES) if code >> bit & 1)
        for code in range(1 << len(CHANGE_CAUSES))
    ],
    dtype=object,
)


@functools.lru_cache(maxsize=64)
def _maps(first: CompiledRules, other: CompiledRules) -> tuple[Ints, Ints, Ints]:
    """Where the tiles, nations and tokens of ``first`` are among those of ``other``."""
    players = first.players
    companies = other.ruleset.companies(players)
    deck = np.array([companies.index(c) for c in first.ruleset.companies(players)])
    nations = np.array([other.nations.index(n) for n in first.nations])
    tokens = np.array([other.industries.index(i) for i in first.industries])
    return deck, nations, tokens


def rescored(chunk: Chunk, other: CompiledRules) -> dict[str, Ints]:
    """The holdings of a played chunk's games scored under ``other`` (by column, as
    ``chunk.score()``): the tiles each seat won, its spend and its zero-bid rounds, as
    :func:`~qe_rules.score_game` scores a game's player records under another rule set.

    Raises :class:`~qe_rules.InvalidArgument` as the comparison on the reference engine
    does where ``other`` cannot score a game (more zero-bid rounds than it allows)."""
    first, players = chunk.rules, chunk.players
    most = other.ruleset.max_zero_bid_scorings(players)
    beyond = np.flatnonzero((chunk.zero_counts > most).any(axis=0))
    if beyond.size:  # the reference scorer names the seat and the counts
        records = player_records(chunk, int(beyond[0]))
        _rescored(other.ruleset, first.ruleset, players, records)
    deck, nations, tokens = _maps(first, other)
    return score_columns(
        other, chunk.winners, chunk.amounts, deck[chunk.deck_by_sale], nations[chunk.nations],
        tokens[chunk.tokens], chunk.zero_counts, np.zeros(chunk.games, dtype=np.int64),
    )  # fmt: skip


def _changes(
    base: dict[str, npt.NDArray[Any]], other: dict[str, npt.NDArray[Any]]
) -> tuple[Bools, Ints]:
    """Per game, whether the winners differ between two scorings of its holdings, and
    the causes (bit ``i`` for ``CHANGE_CAUSES[i]``, 0 where the winners are the same): the
    categories whose points differ for some seat, a different elimination, or else the
    tie-break."""
    changed = (other["winners"] != base["winners"]).any(axis=1)
    codes = np.zeros(len(changed), dtype=np.int64)
    for bit, cause in enumerate(CHANGE_CAUSES[:-2]):
        name = _CATEGORY_ARRAYS[cause]
        codes |= (other[name] != base[name]).any(axis=1).astype(np.int64) << bit
    elimination = (other["eliminated"] != base["eliminated"]).any(axis=1)
    codes |= elimination.astype(np.int64) << (len(CHANGE_CAUSES) - 2)
    codes[codes == 0] = 1 << (len(CHANGE_CAUSES) - 1)  # the tie-break
    codes[~changed] = 0
    return changed, codes


def _winner_tuples(scored: Sequence[dict[str, npt.NDArray[Any]]]) -> list[Any]:
    """Per game, the winners under each rule set, as tuples (equal ones shared)."""
    players = scored[0]["winners"].shape[1]
    weights = 1 << np.arange(players)
    codes = np.stack([arrays["winners"] @ weights for arrays in scored], axis=1)
    kinds, inverse = np.unique(codes, axis=0, return_inverse=True)
    tuples = [
        tuple(tuple(s for s in range(players) if code >> s & 1) for code in kind.tolist())
        for kind in kinds
    ]
    return [tuples[i] for i in inverse.ravel().tolist()]


def compare_chunk(task: _Task) -> _Compared:
    """``compare``'s chunk on the batch: its games played under the first rule set and
    scored under each, summed up as the reference engine's chunk is. An example is given
    by its game number (its record ``None``: the caller plays it again)."""
    compiled = [compile_rules(_local(rules), task.players) for rules in task.rulesets]
    first = compiled[0]
    count = len(compiled)
    done = _Compared([], [0] * count, 0, [{} for _ in compiled], {}, [])
    any_changes = 0
    names = SEAT_ARRAYS if task.rows else _COMPARED
    for played in task_chunks(task, first):
        scored = [chunk_arrays(played, names)]
        scored += [chunk_arrays(played, names, rescored(played, other)) for other in compiled[1:]]
        start = played.draws.first
        changes, texts = [], []
        anywhere = np.zeros(played.games, dtype=bool)
        for number, arrays in enumerate(scored):
            changed, codes = _changes(scored[0], arrays)
            anywhere |= changed
            done.changes[number] += int(changed.sum())
            for bit, cause in enumerate(CHANGE_CAUSES):
                games = np.flatnonzero(codes >> bit & 1)
                if not games.size:
                    continue
                found = done.causes[number]
                found[cause] = found.get(cause, 0) + len(games)
                done.examples.setdefault((number, cause), (start + int(games[0]), None))
            changes.append(changed)
            texts.append(_CAUSE_TEXTS[codes])
        any_changes += int(anywhere.sum())
        done.winners.extend(_winner_tuples(scored))
        if task.rows:
            ids = [rules.ruleset.id for rules in compiled]
            numbers = np.arange(start, start + played.games)
            nations = [seat_nations(played)] * count
            done.rows.extend(
                game_rows(
                    task.seed, numbers, ids, task_labels(task), nations, scored, changes, texts
                )
            )
    return done._replace(any_changes=any_changes)
