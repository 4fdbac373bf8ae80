"""Per-game rows: they add up to the statistics, show each rule set of a comparison, are
written as CSV and Parquet, and are dropped when a merge would leave some out."""

import csv
import json

import attrs
import pytest

import qe_rules as qe
from qe_rules.simulation.comparison import compare
from qe_rules.simulation.rows import ROW_COLUMNS, GameRow, write_rows
from qe_rules.simulation.stats import simulate
from tests.support import cli
from tests.support.simulation import MIXED, mixed_stats


def test_rows_add_up_to_the_statistics():
    stats = simulate("en", 4, MIXED, 30, seed=5, rows=True)
    assert stats.rows is not None and len(stats.rows) == 30 * 4
    assert [(row.game, row.seat) for row in stats.rows] == [
        (g, s) for g in range(30) for s in range(4)
    ]
    for seat in range(4):
        mine = [row for row in stats.rows if row.seat == seat]
        assert sum(row.total for row in mine) == stats.total_sums[seat]
        assert sum(row.spent for row in mine) == stats.spend_sums[seat]
        assert sum(row.won for row in mine) == stats.wins[seat]
        assert {row.agent for row in mine} == {MIXED[seat]}
    assert attrs.evolve(stats, rows=None) == simulate("en", 4, MIXED, 30, seed=5)


def test_comparison_rows_show_each_rule_set_and_the_changes():
    c = compare(["en", "en-early"], 4, MIXED, 80, seed=2, rows=True)
    assert c.rows is not None and len(c.rows) == 80 * 2 * 4
    changed = {row.game for row in c.rows if row.winner_changed}
    assert len(changed) == c.changes[1]
    assert all(row.ruleset == "en-early" and row.causes for row in c.rows if row.winner_changed)


def test_rows_of_only_part_of_the_games_are_dropped_on_merge():
    a = simulate("en", 3, "random", 5, seed=1, rows=True)
    b = simulate("en", 3, "random", 5, seed=1, start=5)
    assert a.merge(b).rows is None


def test_rows_are_written_as_csv_and_parquet(tmp_path):
    stats = simulate("en", 4, MIXED, 10, seed=5, rows=True)
    stats.write_rows(tmp_path / "rows.csv")
    with open(tmp_path / "rows.csv", encoding="utf-8", newline="") as handle:
        read = list(csv.DictReader(handle))
    assert tuple(read[0]) == ROW_COLUMNS == GameRow._fields
    assert [int(row["total"]) for row in read] == [row.total for row in stats.rows]
    pq = pytest.importorskip("pyarrow.parquet", reason="Parquet needs the parquet extra")
    write_rows(stats.rows, tmp_path / "rows.parquet")
    table = pq.read_table(tmp_path / "rows.parquet")
    assert tuple(table.column_names) == ROW_COLUMNS
    assert table.column("spent").to_pylist() == [row.spent for row in stats.rows]
    assert table.column("won").to_pylist() == [row.won for row in stats.rows]


def test_rows_need_a_known_file_type_and_rows_kept(tmp_path):
    with pytest.raises(qe.InvalidArgument, match=r"\.csv or \.parquet"):
        write_rows([], tmp_path / "rows.xlsx")
    with pytest.raises(qe.InvalidArgument, match="rows=True"):
        mixed_stats(40).write_rows(tmp_path / "rows.csv")
    with pytest.raises(qe.InvalidArgument, match="rows is True or False"):
        simulate("en", 4, MIXED, 2, seed=1, rows="yes")


def test_the_command_line_writes_rows(tmp_path):
    path = tmp_path / "rows.csv"
    code, out = cli("simulate", "--games", "6", "--rows", str(path), "--format", "json")
    assert code == 0 and "rows" not in json.loads(out)
    with open(path, encoding="utf-8") as handle:
        assert len(handle.read().splitlines()) == 1 + 6 * 4
