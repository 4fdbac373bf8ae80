"""Per-game rows: one :class:`GameRow` per game, seat and rule set, written as CSV or
Parquet for pandas, polars or a spreadsheet.
"""

from __future__ import annotations

import csv
import importlib.util
import os
from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from qe_rules.errors import InvalidArgument, shown
from qe_rules.game.engine import Game
from qe_rules.game.scoring import GameResult

__all__ = ["ROW_COLUMNS", "GameRow", "check_rows_path", "write_rows"]


class GameRow(NamedTuple):
    """One seat of one game scored under one rule set: a row of ``rows``.

    The columns, in order, are :data:`ROW_COLUMNS`; :func:`write_rows` writes rows as CSV
    or Parquet.
    """

    seed: int
    game: int
    """The game's number in the run of ``seed``."""
    ruleset: str
    """The rule set that scored the game (in a comparison, one row per rule set)."""
    seat: int
    agent: str
    nation: str
    tiles: int
    """Tiles the seat won."""
    spent: int
    companies: int
    zero_bids: int
    nationalization: int
    monopolization: int
    diversification: int
    lowest_spend_bonus: int
    total: int
    eliminated: bool
    won: bool
    """Whether the seat is the game's single winner under ``ruleset``."""
    winner_changed: bool
    """In a comparison, whether the winners differ from the first rule set's."""
    causes: str
    """In a comparison, the causes of the change (see :data:`CHANGE_CAUSES`), space-separated."""
    unsold: int
    """Sales of the game that ended without a buyer."""
    gaps: str
    """The game's rule-gap codes under ``ruleset``, space-separated."""


ROW_COLUMNS: Final[tuple[str, ...]] = GameRow._fields
"""The columns of per-game rows, in order (see :class:`GameRow`)."""


def _rows_of(
    seed: int,
    index: int,
    result: GameResult,
    game: Game,
    agents: Sequence[str],
    causes: tuple[str, ...] = (),
    *,
    winner_changed: bool = False,
) -> list[GameRow]:
    winner = result.winner
    unsold = game.sale - sum(map(len, game.holdings))
    gaps = " ".join(sorted({gap.code for gap in result.gaps}))
    return [
        GameRow(
            seed=seed,
            game=index,
            ruleset=result.ruleset,
            seat=sheet.seat,
            agent=agents[sheet.seat],
            nation=sheet.nation.code,
            tiles=len(game.holdings[sheet.seat]),
            spent=sheet.spent,
            companies=sheet.company_points,
            zero_bids=sheet.zero_bids,
            nationalization=sheet.nationalization,
            monopolization=sheet.monopolization,
            diversification=sheet.diversification,
            lowest_spend_bonus=sheet.lowest_spend_bonus,
            total=sheet.total,
            eliminated=sheet.eliminated,
            won=winner == sheet.seat,
            winner_changed=winner_changed,
            causes=" ".join(causes),
            unsold=unsold,
            gaps=gaps,
        )
        for sheet in result.sheets
    ]


def write_rows(rows: Sequence[GameRow], path: str | os.PathLike[str]) -> None:
    """Write per-game rows to ``path``: CSV when it ends in ``.csv`` (the standard
    library), Parquet when it ends in ``.parquet`` (needs the ``parquet`` extra, pyarrow).

    Either reads straight into pandas or polars (``pandas.read_csv``,
    ``polars.read_parquet``, ...). The columns are :data:`ROW_COLUMNS`.
    """
    name = check_rows_path(path)
    if name.endswith(".csv"):
        with open(name, "w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(ROW_COLUMNS)
            writer.writerows(rows)
    elif name.endswith(".parquet"):
        import pyarrow as pa  # an optional extra, loaded where used
        import pyarrow.parquet as pq

        columns = {column: [row[i] for row in rows] for i, column in enumerate(ROW_COLUMNS)}
        pq.write_table(pa.table(columns), name)


def check_rows_path(path: str | os.PathLike[str]) -> str:
    """``path`` as a string if it ends in ``.csv`` or ``.parquet``; raises
    :class:`~qe_rules.InvalidArgument` otherwise."""
    if not isinstance(path, str | os.PathLike):
        raise InvalidArgument(f"a path of rows is a str or a path, got {shown(path)}")
    name = os.fspath(path)
    if not isinstance(name, str) or not name.endswith((".csv", ".parquet")):
        raise InvalidArgument(f"rows are written as .csv or .parquet, got {shown(name)}")
    if name.endswith(".parquet") and importlib.util.find_spec("pyarrow") is None:
        raise InvalidArgument("writing Parquet needs pyarrow: pip install 'qe-rules[parquet]'")
    return name


def _rows_from(data: dict[str, Any]) -> tuple[GameRow, ...] | None:
    rows = data.get("rows")
    return None if rows is None else tuple(GameRow(**row) for row in rows)


def _merged_rows(
    mine: tuple[GameRow, ...] | None, theirs: tuple[GameRow, ...] | None
) -> tuple[GameRow, ...] | None:
    if mine is None or theirs is None:
        return None  # rows of only part of the games would mislead
    return tuple(sorted((*mine, *theirs), key=lambda row: (row.seed, row.game)))
