"""Strict reading of the statistics documents (:meth:`SimulationStats.from_dict`,
``Comparison.from_dict``, ``PlayedComparison.from_dict``): the parts they share, read
by the library's one family of readers (:mod:`qe_rules._util.reading`).

A document is accepted only when its counts agree with each other (one entry per seat,
no count above the games it counts), so that everything done with the object read
afterwards (its text, its figures, a merge) works as on an object the library made.
The figures computed from the counts (shares, means, intervals) may be given; each must
then equal the figure computed again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from qe_rules._util.reading import (
    ARGUMENTS,
    MAX_INTEGER,
    MAX_PLAYERS,
    Fields,
    agree,
    at_most,
    flag,
    listed,
    per_seat,
    text,
    whole,
)
from qe_rules.simulation.rows import ROW_COLUMNS, GameRow

__all__: list[str] = []

players_of = at_most(MAX_PLAYERS, "a game has 2 to 5 players", least=2)
seat_of = at_most(MAX_PLAYERS - 1, "a game has at most 5 seats")
games_of = at_most(MAX_INTEGER, least=1)


def texts(value: Any, where: str) -> tuple[str, ...]:
    """A list of strings."""
    return listed(value, where, text)


def agents_of(value: Any, where: str, players: int) -> tuple[str, ...]:
    """One agent name per seat."""
    agents = texts(value, where)
    per_seat(agents, players, where)
    return agents


def counts_of(value: Any, where: str) -> tuple[int, ...]:
    """A list of whole numbers."""
    return listed(value, where, whole)


def at_most_each(values: Sequence[int], most: int, where: str, what: str) -> None:
    """Check that no count of ``values`` is above ``most``."""
    for index, count in enumerate(values):
        agree(count <= most, f"{where}[{index}]", f"{count} is more than the {most} {what}")


def batches_of(fields: Fields) -> tuple[tuple[int, int, int], ...]:
    """The batches of a document: ``batches`` (``[seed, start, stop]`` each, in order,
    none empty, none overlapping), or the ``seed`` and ``games`` of one run from 0."""
    where = f"{fields.where}.batches"
    if "batches" not in fields.data:
        agree(
            "seed" in fields.data and "games" in fields.data,
            fields.where,
            "needs batches, or seed and games",
        )
        seed = fields.get("seed", ARGUMENTS.integer)
        return ((seed, 0, fields.get("games", games_of)),)

    def batch(value: Any, at: str) -> tuple[int, int, int]:
        if not isinstance(value, list | tuple) or len(value) != 3:
            raise ARGUMENTS.fail(at, "a [seed, start, stop] triple", value)
        seed = ARGUMENTS.integer(value[0], f"{at}[0]")
        start, stop = whole(value[1], f"{at}[1]"), whole(value[2], f"{at}[2]")
        agree(start < stop, at, f"a batch runs from a game to a later one, got {start} to {stop}")
        return seed, start, stop

    batches = fields.get("batches", lambda v, at: listed(v, at, batch))
    agree(bool(batches), where, "needs at least one batch")
    for index in range(1, len(batches)):
        before, after = batches[index - 1], batches[index]
        agree(
            before[0] < after[0] or (before[0] == after[0] and before[2] < after[1]),
            f"{where}[{index}]",
            "batches are in order of seed and game, apart and not overlapping",
        )
    games = sum(stop - start for _, start, stop in batches)
    agree(games <= MAX_INTEGER, where, f"more than {MAX_INTEGER} games")
    if "games" in fields.data:
        agree(
            fields.get("games", whole) == games, f"{fields.where}.games", "disagrees with batches"
        )
    if "seed" in fields.data:
        agree(
            fields.get("seed", ARGUMENTS.integer) == batches[0][0],
            f"{fields.where}.seed",
            "disagrees with batches",
        )
    return batches


_ROW_READERS: Final[dict[str, Callable[[Any, str], Any]]] = {
    **dict.fromkeys(ROW_COLUMNS, whole),
    "seed": ARGUMENTS.integer,
    "seat": seat_of,
    "ruleset": text,
    "agent": text,
    "nation": text,
    "causes": text,
    "gaps": text,
    "eliminated": flag,
    "won": flag,
    "winner_changed": flag,
}


def rows_of(fields: Fields, count: int) -> tuple[GameRow, ...] | None:
    """The optional ``rows``: ``count`` of them, each with every column of
    :class:`GameRow`, of the right type."""

    def row(value: Any, where: str) -> GameRow:
        columns = Fields(value, where, ROW_COLUMNS)
        return GameRow(**{name: columns.get(name, _ROW_READERS[name]) for name in ROW_COLUMNS})

    if "rows" not in fields.data or fields.data["rows"] is None:
        return None
    rows = fields.get("rows", lambda v, at: listed(v, at, row))
    agree(
        len(rows) == count,
        f"{fields.where}.rows",
        f"needs one row per game, seat (and rule set): {count}, got {len(rows)}",
    )
    return rows


def check_figures(fields: Fields, computed: Mapping[str, Any], keys: Sequence[str]) -> None:
    """Check that each figure of ``keys`` given in the document equals the one computed
    again from the counts (``computed``, the new object's ``to_dict()``)."""
    for key in keys:
        if key in fields.data:
            agree(
                fields.data[key] == computed[key],
                f"{fields.where}.{key}",
                "differs from the figure computed from the counts",
            )
