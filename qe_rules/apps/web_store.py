"""The web table's storage: one SQLite file of tables, each a row with its seats and its
game record (``qe-rules serve --db``).

Every call here is synchronous. The web server makes :meth:`TableStore.append_at_once`
(which never waits: it fails at once when another process holds the file) on its event
loop, and every other call on its one storage thread. A file that SQLite cannot read, or
whose ``tables`` are not the server's, raises :class:`DatabaseUnusable` when opened; a
write that fails (a locked database, a full disk) raises :class:`StorageUnavailable` and
changes nothing. A row that cannot be read is moved to the ``quarantine`` table with the
reason, so that the other tables are served. A table's seating (its name, the seats'
names, whether the lobby lists it: :class:`qe_rules.apps.lobby.Seating`) is a JSON text
in the row's ``seating`` column; a file of an older server gains the column when opened.

>>> store = TableStore(":memory:")
>>> store.insert("T1", "H1", '[{"kind": "zero"}]', "{}", now=1.0, status="agents")
>>> [(row.id, row.host, row.status) for row in store.index()]
[('T1', 'H1', 'agents')]
>>> store.row("T1")
('[{"kind": "zero"}]', '{}')
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import time
from collections.abc import Iterable
from typing import Any, Final

import attrs

from qe_rules.errors import RulesError, shown

__all__ = [
    "DatabaseUnusable",
    "IndexRow",
    "StorageUnavailable",
    "TableStore",
]

_log = logging.getLogger("qe_rules.apps.web")

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    host TEXT NOT NULL UNIQUE,
    seats TEXT NOT NULL,
    record TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL,
    status TEXT,
    seating TEXT,
    client TEXT
);
CREATE TABLE IF NOT EXISTS quarantine (
    id BLOB,
    host BLOB,
    seats BLOB,
    record BLOB,
    created REAL,
    reason TEXT NOT NULL,
    at REAL NOT NULL
);
"""
_APPEND: Final = (
    "UPDATE tables SET record = json_insert(record, '$.moves[#]', json(?)), "
    "updated = ?, status = ? WHERE id = ?"
)
_STATUSES: Final = ("people", "agents", "over")
_REQUIRED: Final = ("id", "host", "seats", "record", "created")
# columns newer than the first files
_ADDED: Final = {"updated": "REAL", "status": "TEXT", "seating": "TEXT", "client": "TEXT"}


class DatabaseUnusable(RulesError):
    """The database file cannot be opened or read, or it is not a table store."""


class StorageUnavailable(RulesError):
    """A write failed (the database is locked or the disk is full); nothing was stored."""


@attrs.frozen(kw_only=True)
class IndexRow:
    """What the server keeps of a stored table without replaying it: its ids, its seats
    (each a dict with ``kind``, ``token`` and, for an agent, its ``key``), when it was made
    and last changed, whom its game waits for (``"people"``, ``"agents"`` or ``"over"``;
    ``None``: not known, a row of an older server), and the address (``client``) it was
    made from (``""``: not known)."""

    id: str
    host: str
    seats: tuple[dict[str, Any], ...]
    updated: float
    status: str | None
    created: float = 0.0
    client: str = ""


def _text(value: object, what: str) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8")  # raises UnicodeDecodeError: the row is damaged
    if isinstance(value, str):
        return value
    raise ValueError(f"{what} is {shown(value)}, not text")


def _seats(text: str) -> tuple[dict[str, Any], ...]:
    """The seats column, checked for shape (the server checks the kinds and keys)."""
    seats = json.loads(text)
    if not isinstance(seats, list) or not seats or len(seats) > 16:
        raise ValueError(f"the seats are {shown(seats)}, not a list of seats")
    for seat in seats:
        if not isinstance(seat, dict) or not isinstance(seat.get("kind"), str):
            raise ValueError(f"a seat is {shown(seat)}, not a seat")
    return tuple(seats)


class TableStore:
    """The table rows of the SQLite file ``path`` (``":memory:"`` keeps nothing past the
    process). ``busy_timeout`` is how long a write waits for another process's lock
    before it fails with :class:`StorageUnavailable`."""

    def __init__(self, path: str, *, busy_timeout: float = 2.0) -> None:
        self.path = path
        self.created = False  # whether opening made a new database file
        if path != ":memory:" and path and not path.startswith("file:"):
            if os.path.isfile(path) and os.path.getsize(path) == 0:
                raise DatabaseUnusable(
                    f"the database {path} is an empty file, not a table store; remove it "
                    "(the server then makes a new one there) or give another --db file"
                )
            self.created = not os.path.exists(path)
        try:
            self.connection = sqlite3.connect(
                path, isolation_level=None, check_same_thread=False, timeout=busy_timeout
            )
        except sqlite3.Error as error:
            raise DatabaseUnusable(f"cannot open the database {path}: {error}") from None
        try:
            self._check()
            self.connection.execute("PRAGMA journal_mode=WAL")
            self.connection.execute("PRAGMA synchronous=NORMAL")
            self.connection.executescript(_SCHEMA)
            self._migrate()
            # A second connection that never waits: a write that would (the file is
            # locked) fails at once, and the caller hands it to the waiting one. It never
            # syncs the file either: checkpoints are the waiting connection's.
            self.at_once = self.connection
            if path != ":memory:":
                self.at_once = sqlite3.connect(
                    path, isolation_level=None, check_same_thread=False, timeout=0
                )
                self.at_once.execute("PRAGMA synchronous=NORMAL")
                self.at_once.execute("PRAGMA wal_autocheckpoint=0")
        except sqlite3.Error as error:
            self.connection.close()
            raise DatabaseUnusable(
                f"cannot use the database {path}: {error}; restore it from a backup"
            ) from None
        except DatabaseUnusable:
            self.connection.close()
            raise

    def _check(self) -> None:
        """Refuse a damaged file, or one whose ``tables`` are not the server's."""
        found = self.connection.execute("PRAGMA quick_check").fetchone()
        if found is None or found[0] != "ok":
            problem = "no answer" if found is None else str(found[0])
            raise DatabaseUnusable(
                f"the database {self.path} is damaged ({shown(problem)}); restore it from a backup"
            )
        columns = [row[1] for row in self.connection.execute("PRAGMA table_info(tables)")]
        missing = [name for name in _REQUIRED if name not in columns]
        if columns and missing:
            raise DatabaseUnusable(
                f"the database {self.path} holds a 'tables' table that is not the web "
                f"table's (no column {', '.join(missing)}); give another --db file"
            )

    def _migrate(self) -> None:
        columns = {row[1] for row in self.connection.execute("PRAGMA table_info(tables)")}
        for name, kind in _ADDED.items():
            if name not in columns:
                self.connection.execute(f"ALTER TABLE tables ADD COLUMN {name} {kind}")
        legacy = self.connection.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'seating'"
        ).fetchone()
        if legacy is not None:  # the seatings of servers that kept them in a table apart
            self.connection.executescript(
                "BEGIN; UPDATE tables SET seating = (SELECT data FROM seating "
                "WHERE seating.id = tables.id) WHERE seating IS NULL; "
                "DROP TABLE seating; COMMIT;"
            )

    def _write(self, sql: str, parameters: tuple[Any, ...]) -> None:
        try:
            self.connection.execute(sql, parameters)
        except sqlite3.Error as error:
            raise StorageUnavailable(f"the database could not store it ({error})") from None

    # ------------------------------------------------------------------ reading

    def index(self) -> list[IndexRow]:
        """Every readable row's ids and seats (no record is read); a row that cannot be
        read is quarantined."""
        rows = self.connection.execute(
            "SELECT rowid, CAST(id AS BLOB), CAST(host AS BLOB), CAST(seats AS BLOB), "
            "created, updated, status, client FROM tables"
        ).fetchall()
        found = []
        for rowid, table_id, host, seats, created, updated, status, client in rows:
            try:
                when = updated if isinstance(updated, float | int) else created
                if not isinstance(when, float | int):
                    raise ValueError(f"the time is {shown(when)}")
                found.append(
                    IndexRow(
                        id=_text(table_id, "the id"),
                        host=_text(host, "the host link"),
                        seats=_seats(_text(seats, "the seats")),
                        updated=float(when),
                        status=status if status in _STATUSES else None,
                        created=float(created) if isinstance(created, float | int) else when,
                        client=client if isinstance(client, str) else "",
                    )
                )
            except (ValueError, UnicodeDecodeError) as error:
                name = table_id.decode("utf-8", "replace") if isinstance(table_id, bytes) else "?"
                self.quarantine(rowid, f"its row cannot be read: {error}", name=name)
        return found

    def row(self, table_id: str) -> tuple[str, str] | None:
        """The stored seats' and record's texts of a table (``None``: no such row).
        Raises ``UnicodeDecodeError`` for a damaged row, :class:`StorageUnavailable` when
        the database cannot be read now."""
        try:
            found = self.connection.execute(
                "SELECT CAST(seats AS BLOB), CAST(record AS BLOB) FROM tables WHERE id = ?",
                (table_id,),
            ).fetchone()
        except sqlite3.Error as error:
            raise StorageUnavailable(f"the database could not be read ({error})") from None
        if found is None:
            return None
        return _text(found[0], "the seats"), _text(found[1], "the record")

    def seatings(self) -> dict[str, str]:
        """Every table's stored seating text, by table id (tables without one left out)."""
        return {
            table_id: seating
            for table_id, seating in self.connection.execute(
                "SELECT id, seating FROM tables WHERE seating IS NOT NULL"
            )
            if isinstance(table_id, str) and isinstance(seating, str)
        }

    # ------------------------------------------------------------------ writing

    def set_seating(self, table_id: str, seating: str, seats: str | None = None) -> None:
        """Store a table's seating (JSON text), and with ``seats`` its seats (JSON text:
        a seat's new token) in the same write."""
        if seats is None:
            self._write("UPDATE tables SET seating = ? WHERE id = ?", (seating, table_id))
        else:
            self._write(
                "UPDATE tables SET seating = ?, seats = ? WHERE id = ?", (seating, seats, table_id)
            )

    def insert(
        self,
        table_id: str,
        host: str,
        seats: str,
        record: str,
        *,
        now: float,
        status: str,
        seating: str | None = None,
        client: str = "",
    ) -> None:
        """Store a new table, with its seating (JSON text) if it has one, and the address
        it was made from."""
        self._write(
            "INSERT INTO tables "
            "(id, host, seats, record, created, updated, status, seating, client) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (table_id, host, seats, record, now, now, status, seating, client),
        )

    def append(self, table_id: str, move: str, *, now: float, status: str) -> None:
        """Store a move (JSON text) at the end of a table's record (SQLite adds it to the
        stored JSON, so the rest of the record is not sent again)."""
        self._write(_APPEND, (move, now, status, table_id))

    def append_at_once(self, table_id: str, move: str, *, now: float, status: str) -> bool:
        """:meth:`append` if it can be done without waiting; ``False`` when another
        process holds the database (then nothing was written)."""
        try:
            self.at_once.execute(_APPEND, (move, now, status, table_id))
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                return False
            raise StorageUnavailable(f"the database could not store it ({error})") from None
        except sqlite3.Error as error:
            raise StorageUnavailable(f"the database could not store it ({error})") from None
        return True

    def checkpoint(self) -> None:
        """Copy the write-ahead log into the database file (as far as no reader needs it)."""
        with contextlib.suppress(sqlite3.Error):
            self.connection.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def quarantine(self, row: int | str, reason: str, *, name: str | None = None) -> None:
        """Move a row (by rowid or table id) to the ``quarantine`` table with ``reason``,
        and say so in the log, naming the table."""
        where = "rowid" if isinstance(row, int) else "id"
        _log.warning(
            "table %s: %s; set aside in the database's quarantine table",
            name if name is not None else row,
            reason,
        )
        try:
            self.connection.execute("BEGIN IMMEDIATE")
            self.connection.execute(
                "INSERT INTO quarantine (id, host, seats, record, created, reason, at) "
                f"SELECT id, host, seats, record, created, ?, ? FROM tables WHERE {where} = ?",
                (reason, time.time(), row),
            )
            self.connection.execute(f"DELETE FROM tables WHERE {where} = ?", (row,))
            self.connection.execute("COMMIT")
        except sqlite3.Error as error:
            if self.connection.in_transaction:
                self.connection.execute("ROLLBACK")
            _log.warning("table %s: could not be set aside (%s)", name or row, error)

    def delete(self, table_ids: Iterable[str]) -> None:
        """Remove tables (expired ones)."""
        ids = [(table_id,) for table_id in table_ids]
        try:
            self.connection.execute("BEGIN IMMEDIATE")
            self.connection.executemany("DELETE FROM tables WHERE id = ?", ids)
            self.connection.execute("COMMIT")
        except sqlite3.Error as error:
            if self.connection.in_transaction:
                self.connection.execute("ROLLBACK")
            raise StorageUnavailable(f"the database could not remove tables ({error})") from None

    def close(self) -> None:
        """Close the database."""
        if self.at_once is not self.connection:
            self.at_once.close()
        self.checkpoint()
        self.connection.close()
