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
from typing import Any, Final, NamedTuple

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
from qe_rules.errors import InvalidArgument, shown
from qe_rules.game.scoring import (
    DECIDED_GAPS,
    SCORING_GAPS,
    GameResult,
    ScoreSheet,
    decided_winners,
    given_rules,
    named_rules,
)
from qe_rules.rules.model import RuleSet
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


# --------------------------------------------------------------------------- recomputing


def given_rulesets(given: object, name: str = "rulesets") -> dict[str, RuleSet]:
    """The rule sets a caller gives a reader, by id: ``None``, one rule set (or id), or a
    list of them."""
    if given is None:
        return {}
    if isinstance(given, RuleSet | str):
        given = [given]
    if not isinstance(given, list | tuple):
        raise InvalidArgument(
            f"{name} is a RuleSet, a rule set id, a list of them or None, got {shown(given)}"
        )
    found = {}
    for rules in given:
        checked = given_rules(rules)
        assert checked is not None
        found[checked.id] = checked
    return found


def rules_of(rid: str, given: Mapping[str, RuleSet], where: str) -> RuleSet:
    """The rule set a document names by ``rid``: one given with that id, or the built-in
    or spec string ``rid`` names."""
    return named_rules(rid, given.get(rid), where)


def check_sums(
    sums: Sequence[int], squares: Sequence[int], games: int, most: int, where: str, what: str
) -> None:
    """Check per-seat sums and sums of squares of ``games`` values from 0 to ``most``:
    no sum above ``games * most``, no square sum below ``sum² / games`` (a variance
    below 0) or above ``sum * most``."""
    for seat, (total, square) in enumerate(zip(sums, squares, strict=True)):
        agree(
            total <= games * most,
            f"{where}.{what}_sums[{seat}]",
            f"{total} is more than {games} games of at most {most} give",
        )
        agree(
            games * square >= total * total,
            f"{where}.{what}_squares[{seat}]",
            f"{square} is less than the square of the sum over the games ({total}² / {games}): "
            "a variance below 0",
        )
        agree(
            square <= total * most,
            f"{where}.{what}_squares[{seat}]",
            f"{square} is more than values of at most {most} adding up to {total} give",
        )


class RowGame(NamedTuple):
    """One game's rows under one rule set, and what they decide."""

    seed: int
    game: int
    rows: tuple[GameRow, ...]
    result: GameResult
    """The rows as a result: their sheets, the winners and tie gaps scoring decides."""


def grouped_rows(
    rows: Sequence[GameRow],
    games: Sequence[tuple[int, int]],
    rulesets: Sequence[RuleSet],
    players: int,
    agents: Sequence[str],
    where: str,
) -> list[list[RowGame]]:
    """Rows grouped by game (``games``, as ``(seed, game)`` in order), then rule set, then
    seat, as the runs write them; each group checked against its rule set as a score sheet
    would be (:func:`~qe_rules.game.scoring.decided_winners`), its ``won`` flags against the
    winners decided, its tiles and unsold tiles adding up to the sales."""
    grouped: list[list[RowGame]] = []
    index = 0
    for seed, game in games:
        per_rules = []
        for rules in rulesets:
            chunk = tuple(rows[index : index + players])
            at = f"{where}[{index}]"
            index += players
            for seat, row in enumerate(chunk):
                row_at = f"{where}[{index - players + seat}]"
                agree(
                    (row.seed, row.game, row.ruleset, row.seat, row.agent)
                    == (seed, game, rules.id, seat, agents[seat]),
                    row_at,
                    f"is not the row of seed {seed}, game {game}, rule set {rules.id}, seat "
                    f"{seat} ({agents[seat]}): rows are in order of game, rule set and seat",
                )
            per_rules.append(_row_game(seed, game, chunk, rules, at))
        grouped.append(per_rules)
    return grouped


def _row_game(
    seed: int, game: int, rows: tuple[GameRow, ...], rules: RuleSet, where: str
) -> RowGame:
    players = len(rows)
    nations = {nation.code: nation for nation in rules.nations(players)}
    sheets = []
    for seat, row in enumerate(rows):
        agree(row.nation in nations, f"{where}.nation", f"{row.nation!r} is not a nation in play")
        parts = (
            row.companies + row.zero_bids + row.nationalization + row.monopolization
            + row.diversification
        )  # fmt: skip
        agree(
            row.total == parts + row.lowest_spend_bonus,
            f"{where}.total",
            f"is {row.total}, but the points and the lowest-spend bonus add up to "
            f"{parts + row.lowest_spend_bonus}",
        )
        sheets.append(
            ScoreSheet._scored(
                seat=seat,
                nation=nations[row.nation],
                company_points=row.companies,
                zero_bids=row.zero_bids,
                nationalization=row.nationalization,
                monopolization=row.monopolization,
                diversification=row.diversification,
                subtotal=parts,
                lowest_spend_bonus=row.lowest_spend_bonus,
                total=row.total,
                spent=row.spent,
                eliminated=row.eliminated,
            )
        )
    agree(len({nations[row.nation] for row in rows}) == players, where, "repeat a nation")
    winners, decided = decided_winners(sheets, rules, where)
    single = winners[0] if len(winners) == 1 else None
    for seat, row in enumerate(rows):
        agree(
            row.won is (seat == single),
            f"{where}.won",
            f"the sheets give {'no single winner' if single is None else f'seat {single}'}",
        )
    sales = rules.sales(players)
    first = rows[0]
    codes = first.gaps.split()
    agree(
        all((row.unsold, row.gaps) == (first.unsold, first.gaps) for row in rows),
        f"{where}.unsold",
        "the rows of one game differ in its unsold tiles or its gaps",
    )
    agree(
        sum(row.tiles for row in rows) + first.unsold == sales,
        f"{where}.tiles",
        f"the tiles won and the unsold tiles do not add up to the {sales} sales",
    )
    agree(
        codes == sorted(set(codes))
        and set(codes) <= SCORING_GAPS
        and {gap.code for gap in decided} == set(codes) & DECIDED_GAPS,
        f"{where}.gaps",
        "are not the game's scoring gap codes, sorted and space-separated",
    )
    result = GameResult(rules.id, tuple(sheets), winners, decided)
    return RowGame(seed, game, rows, result)
