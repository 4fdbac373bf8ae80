"""A web table: play QE in a browser, one private page per seat (``qe-rules serve``).

Needs the optional extra ``[web]`` (Starlette and uvicorn). A host creates a table (rule
set, player count, and for each seat a person or a built-in agent) and receives one
private link per seat, each an unguessable token, and a spectator link. A seat's page
receives only what is made from that seat's view and event stream, and a spectator's only
what is made from the public view (:func:`payload`). Pages update live over server-sent
events. Tables are stored in SQLite as game records (:mod:`qe_rules.apps.web_store`),
each move before it is shown, so a restarted server carries on with them.

The deal and each agent draw from their own 256-bit keys from :mod:`secrets`, so what a
seat sees tells it nothing of the tiles to come, of other seats' tokens or of the agents'
bids. Requests are bounded before any work that grows with what they ask; table creation
is limited per client and in all (:class:`WebLimits`), rematches included; tables expire.
The people's pages (names, the lobby, joining, rematches, languages, the rules help) are
:class:`qe_rules.apps.lobby.GameNight`'s, behind the same guards.

>>> import qe_rules as qe
>>> game = qe.new_game("en", 4, seed=1)
>>> sorted(payload(game.view(2), game.events_for(2), version=0))  # doctest: +NORMALIZE_WHITESPACE
['board', 'lang', 'log', 'log_kinds', 'names', 'picture', 'record', 'standings',
 'status', 'summary', 'totals', 'turn', 'version', 'view']
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import hashlib
import json
import logging
import secrets
import socket
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any, Final, TypeVar
from urllib.parse import parse_qsl, urlsplit

import attrs
from starlette.applications import Starlette
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import (
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from qe_rules._util.i18n import DEFAULT_LANGUAGE, languages, negotiate
from qe_rules.apps.lobby import GameNight, whole_number
from qe_rules.apps.panels import panel_data
from qe_rules.apps.table_rules import RuleChoices, load_ruleset_choice
from qe_rules.apps.web_keys import KEY_BYTES, agent_choice, deal, new_key, played
from qe_rules.apps.web_store import (
    DatabaseUnusable,
    IndexRow,
    StorageUnavailable,
    TableStore,
)
from qe_rules.errors import InvalidArgument, InvalidRecord, RulesError, shown
from qe_rules.game.engine import Game, new_game, replay
from qe_rules.game.events import Event
from qe_rules.game.views import PlayerView, PublicView
from qe_rules.limits import MAX_BID, MAX_TEXT_LENGTH
from qe_rules.present import svg
from qe_rules.present.text import error_text, event_line, seat_name, zero_bids_score
from qe_rules.rules.model import RULESETS, RuleSet, get_ruleset
from qe_rules.simulation.agents import AGENT_NAMES
from qe_rules.texts.rulebooks import rulebook_stylesheet

__all__ = [
    "PERSON",
    "DatabaseUnusable",
    "LimitReached",
    "StorageUnavailable",
    "Table",
    "TableServer",
    "WebLimits",
    "create_app",
    "event_line",
    "payload",
    "serve",
]

PERSON: Final = "person"
"""The seat kind of a seat played by a person through its private link."""

_log = logging.getLogger("qe_rules.apps.web")
_T = TypeVar("_T")
_STATIC: Final = resources.files("qe_rules.apps") / "web_static"
_KEEPALIVE_SECONDS: Final = 15.0
_STREAM_PAUSE: Final = 0.2  # the least time between two messages of a page's stream
_SWEEP_SECONDS: Final = 60.0
_CHECKPOINT_MOVES: Final = 500
_MOVES: Final = ("bid", "peek", "decline-peek")
_SECURITY_HEADERS: Final = (
    (
        b"content-security-policy",
        b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
_LOCAL_HOSTS: Final = frozenset({"localhost", "127.0.0.1", "::1"})


def _non_negative(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
        raise InvalidArgument(f"{attribute.name} is a number of at least 0, got {shown(value)}")


@attrs.frozen(kw_only=True)
class WebLimits:
    """What the server allows, each ``0`` for no limit: tables created per client
    (address) a minute, tables kept in all, and how long (seconds) a finished table is
    kept after its last move and an unfinished one without a move. ``busy_timeout`` is how
    long a write waits for a database another process holds before the request is
    answered 503."""

    tables_per_client_per_minute: int = attrs.field(default=20, validator=_non_negative)
    max_tables: int = attrs.field(default=2000, validator=_non_negative)
    keep_finished: float = attrs.field(default=24 * 3600.0, validator=_non_negative)
    keep_abandoned: float = attrs.field(default=7 * 24 * 3600.0, validator=_non_negative)
    busy_timeout: float = attrs.field(default=2.0, validator=_non_negative)


class LimitReached(RulesError):
    """A table was not created: the client made too many lately, or the server holds
    as many as it may. ``status`` is the HTTP status, ``retry_after`` the seconds to
    wait."""

    def __init__(self, message: str, *, status: int, retry_after: int) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


# --------------------------------------------------------------------------- payloads


def payload(
    view: PlayerView | PublicView,
    events: Sequence[Event],
    *,
    version: int,
    lang: str = DEFAULT_LANGUAGE,
    names: Sequence[str] | None = None,
    ruleset: RuleSet | None = None,
) -> dict[str, Any]:
    """Everything the server sends a page: the view as JSON, the event stream as lines of
    text, the picture of the view, and whether the record may be downloaded (at the end),
    with the panels of :func:`qe_rules.apps.panels.panel_data`; the texts are in ``lang``
    and call the seats by ``names`` where given. ``ruleset`` is the game's rule set.

    A seat's page gets ``payload(game.view(seat), game.events_for(seat))``, a spectator's
    ``payload(game.public_view(), game.public_events())``: made from these alone, it
    holds nothing the watcher may not know.
    """
    names = tuple(names) if names else None
    zero_bids = zero_bids_score(ruleset or view.ruleset, view.players)
    return {
        "version": version,
        "lang": lang,
        "names": [seat_name(seat, names, lang) for seat in range(view.players)],
        "view": view.to_dict(),
        "log": [_event_line(event, lang, names) for event in events],
        "picture": svg.view(view, lang=lang, names=names, zero_bids=zero_bids),
        "record": view.is_over,
        **panel_data(view, events, lang=lang, names=names, ruleset=ruleset),
    }


@functools.lru_cache(maxsize=1 << 16)
def _event_line(event: Event, lang: str, names: tuple[str, ...] | None) -> str:
    """:func:`event_line`, made once for each event: a log grows by a few lines a move."""
    return event_line(event, lang=lang, names=names)


# --------------------------------------------------------------------------- tokens


def _token() -> str:
    return secrets.token_urlsafe(18)


# --------------------------------------------------------------------------- tables


@attrs.define(eq=False)
class Table:
    """One game at the server: its seats (a person's private token, or an agent's name
    and secret key), the host's token, the spectators' id, and the game with its version
    (the number of moves), swapped together. ``changed`` wakes the pages waiting for a
    move."""

    id: str
    host: str
    kinds: tuple[str, ...]
    tokens: tuple[str | None, ...]
    keys: tuple[bytes | None, ...]
    state: tuple[int, Game]
    changed: asyncio.Event = attrs.field(factory=asyncio.Event)
    bots: asyncio.Task[None] | None = None  # the agents' moves, while the game waits for them
    gone: bool = False  # expired: its pages end
    lock: asyncio.Lock = attrs.field(factory=asyncio.Lock)  # one move at a time
    # The last payload made for each seat (None: the spectators) and language, with its version.
    rendered: dict[tuple[int | None, str], tuple[int, dict[str, Any]]] = attrs.field(factory=dict)
    names: tuple[str, ...] = ()  # what the seats are called (qe_rules.apps.lobby)

    @property
    def game(self) -> Game:
        """The game now."""
        return self.state[1]

    @property
    def version(self) -> int:
        """How many moves the game has had."""
        return self.state[0]

    def bots_to_act(self) -> list[int]:
        """The seats played by agents that the game waits for."""
        return [s for s in sorted(self.game.to_act) if self.kinds[s] != PERSON]

    def status(self) -> str:
        """Whom the game waits for: ``"people"``, ``"agents"`` or ``"over"``."""
        if self.game.is_over:
            return "over"
        return "agents" if self.bots_to_act() else "people"


@attrs.define(eq=False)
class _Entry:
    """A stored table as the server knows it without replaying it."""

    id: str
    host: str
    tokens: tuple[str | None, ...]
    has_agents: bool
    updated: float
    status: str | None


def _seat_fields(seat: dict[str, Any], number: int) -> tuple[str, str | None, bytes | None]:
    """A stored seat's kind, token and agent key; raises ValueError if it is damaged."""
    kind = seat["kind"]
    if kind == PERSON:
        token = seat.get("token")
        if not isinstance(token, str) or not token:
            raise ValueError(f"seat {number} is a person's without a token")
        return kind, token, None
    if kind not in AGENT_NAMES:
        raise ValueError(f"seat {number}: unknown agent {shown(kind)}")
    key = seat.get("key")
    if isinstance(key, str) and len(key) == 2 * KEY_BYTES:
        return kind, None, bytes.fromhex(key)
    legacy = seat.get("seed")  # tables of servers before the keys: a key made from the seed
    if type(legacy) is int:
        return kind, None, hashlib.blake2b(f"{legacy} {number}".encode()).digest()[:KEY_BYTES]
    raise ValueError(f"seat {number}: the agent has no key")


class TableServer:
    """The tables of one server, stored in SQLite at ``database`` (``":memory:"`` keeps
    nothing). Agents wait ``bot_delay`` seconds before each move.

    At start only the stored tables' links are read; a table's game is replayed when it
    is first asked for (or at once when its agents are to move). The moves of a table
    are made one at a time, each stored first and applied after, so a move that cannot
    be stored changes nothing (:class:`StorageUnavailable`). A write that SQLite can make
    without waiting (an append to its write-ahead log, no sync) is made at once; one
    that must wait (the file is locked), new tables, replays and the checkpoints that
    sync the file run on one storage thread, never blocking the event loop. A stored
    table that cannot be read is set aside (quarantined) with a log line naming it.
    """

    def __init__(
        self, database: str, *, bot_delay: float = 0.0, limits: WebLimits | None = None
    ) -> None:
        self.database = database
        self.bot_delay = bot_delay
        self.limits = WebLimits() if limits is None else limits
        self.store = TableStore(database, busy_timeout=self.limits.busy_timeout)
        self.tables: dict[str, Table] = {}  # the tables whose games are loaded
        self.entries: dict[str, _Entry] = {}  # every stored table
        self.hosts: dict[str, str] = {}  # host token: table id
        self.seats: dict[str, tuple[str, int]] = {}  # seat token: (table id, seat)
        self.closing = False
        self.names_of: Callable[[str], tuple[str, ...]] = lambda table_id: ()  # GameNight's
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="qe-web-storage")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._created: dict[str, collections.deque[float]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._changes: set[asyncio.Future[Any]] = set()  # moves and tables being stored
        self._appended = 0
        for row in self.store.index():
            self._enter(row)

    def _enter(self, row: IndexRow) -> None:
        try:
            fields = [_seat_fields(seat, n) for n, seat in enumerate(row.seats)]
        except (ValueError, KeyError) as error:
            self.store.quarantine(row.id, f"its seats cannot be read: {error}")
            return
        entry = _Entry(
            id=row.id,
            host=row.host,
            tokens=tuple(token for _, token, _ in fields),
            has_agents=any(kind != PERSON for kind, _, _ in fields),
            updated=row.updated,
            status=row.status,
        )
        self._add(entry)

    def _add(self, entry: _Entry) -> None:
        self.entries[entry.id] = entry
        self.hosts[entry.host] = entry.id
        for seat, token in enumerate(entry.tokens):
            if token is not None:
                self.seats[token] = (entry.id, seat)

    def _forget(self, table_id: str) -> None:
        entry = self.entries.pop(table_id, None)
        if entry is None:
            return
        self.hosts.pop(entry.host, None)
        for token in entry.tokens:
            if token is not None:
                self.seats.pop(token, None)
        table = self.tables.pop(table_id, None)
        if table is not None:
            table.gone = True
            if table.bots is not None:
                table.bots.cancel()
            self._announce(table)

    # ----------------------------------------------------------------- the storage thread

    async def run(self, function: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        """Run ``function(*args, **kwargs)`` on the storage thread, after every change
        asked before."""
        call = functools.partial(function, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._worker, call)

    def _load(self, table_id: str) -> Table | str:
        """Replay a stored table (on the storage thread): the table, or why it cannot be."""
        entry = self.entries.get(table_id)
        try:
            found = self.store.row(table_id)
            if entry is None or found is None:
                return "it is no longer stored"
            row = json.loads(found[1])
            game = replay(row)
            fields = [_seat_fields(seat, n) for n, seat in enumerate(json.loads(found[0]))]
        except (ValueError, KeyError, TypeError, UnicodeDecodeError, InvalidRecord) as error:
            return f"it cannot be read: {shown(str(error))}"
        if len(fields) != game.players:
            return f"it has {len(fields)} seats for a game of {game.players} players"
        return Table(
            id=table_id,
            host=entry.host,
            kinds=tuple(kind for kind, _, _ in fields),
            tokens=tuple(token for _, token, _ in fields),
            keys=tuple(key for _, _, key in fields),
            state=(len(row["moves"]), game),
        )

    def _set_aside(self, table_id: str, reason: str) -> None:
        self.store.quarantine(table_id, reason)

    async def table(self, table_id: str) -> Table | None:
        """The table ``table_id``, replayed if it is not loaded yet (``None``: no such
        table, or one that could not be read and was set aside)."""
        table = self.tables.get(table_id)
        if table is not None or table_id not in self.entries:
            return table
        pending = self._loading.get(table_id)
        if pending is None:
            pending = self._loading[table_id] = asyncio.ensure_future(self._load_now(table_id))
        return await asyncio.shield(pending)

    async def _load_now(self, table_id: str) -> Table | None:
        try:
            loaded = await self.run(self._load, table_id)
        finally:
            self._loading.pop(table_id, None)
        if isinstance(loaded, str):
            if table_id in self.entries:
                await self.run(self._set_aside, table_id, loaded)
                self._forget(table_id)
            return None
        if table_id not in self.entries:  # expired meanwhile
            return None
        loaded.names = self.names_of(table_id)
        self.tables[table_id] = loaded
        self.wake_bots(loaded)
        return loaded

    async def seat(self, token: str) -> tuple[Table, int] | None:
        """The table and seat of a seat's token."""
        found = self.seats.get(token)
        if found is None:
            return None
        table = await self.table(found[0])
        return None if table is None else (table, found[1])

    async def hosted(self, token: str) -> Table | None:
        """The table of a host's token."""
        table_id = self.hosts.get(token)
        return None if table_id is None else await self.table(table_id)

    # ----------------------------------------------------------------- changes

    def _new_table(self, ruleset: str | RuleSet, players: int, kinds: Sequence[str]) -> Table:
        """A new table, dealt, not stored yet; raises what :meth:`create` raises."""
        if isinstance(ruleset, RuleSet):
            rules = ruleset
        elif not isinstance(ruleset, str) or ruleset not in RULESETS:
            raise InvalidArgument(
                f"unknown rule set {shown(ruleset)}; rule sets are {', '.join(RULESETS)}"
            )
        else:
            rules = get_ruleset(ruleset)
        if type(players) is not int or players not in rules.player_counts:
            new_game(rules, players)  # raises the engine's message
        if isinstance(kinds, str) or len(kinds) != players:
            count = "one" if isinstance(kinds, str) else len(kinds)
            raise InvalidArgument(f"give one seat kind per player ({players}), got {count}")
        allowed = (PERSON, *AGENT_NAMES)
        for seat, kind in enumerate(kinds):
            if kind not in allowed:
                raise InvalidArgument(
                    f"seat {seat}: {shown(kind)} is not a seat kind; kinds are {', '.join(allowed)}"
                )
        most = self.limits.max_tables
        if most and len(self.entries) >= most:
            raise LimitReached(
                f"the server holds its most tables ({most}); try again later",
                status=503,
                retry_after=int(_SWEEP_SECONDS),
            )
        kinds = tuple(kinds)
        game = deal(rules, players, new_key())
        return Table(
            id=_token(),
            host=_token(),
            kinds=kinds,
            tokens=tuple(_token() if kind == PERSON else None for kind in kinds),
            keys=tuple(None if kind == PERSON else new_key() for kind in kinds),
            state=(0, game),
        )

    def _insert(self, table: Table, now: float, seating: str | None = None) -> None:
        """Store a new table (on the storage thread)."""
        seats = [
            {"kind": kind, "token": token, "key": None if key is None else key.hex()}
            for kind, token, key in zip(table.kinds, table.tokens, table.keys, strict=True)
        ]
        record = json.dumps(table.game.to_record())
        status = table.status()
        self.store.insert(
            table.id, table.host, json.dumps(seats), record, now=now, status=status, seating=seating
        )

    def _opened(self, table: Table, now: float) -> None:
        """Serve a table just stored."""
        entry = _Entry(
            id=table.id,
            host=table.host,
            tokens=table.tokens,
            has_agents=any(key is not None for key in table.keys),
            updated=now,
            status=table.status(),
        )
        self.tables[table.id] = table
        self._add(entry)
        self.wake_bots(table)

    def create(self, ruleset: str | RuleSet, players: int, kinds: Sequence[str]) -> Table:
        """Deal and store a new table, here and now (for tools and tests; the app uses
        :meth:`open_table`) under a built-in rule set's id or a rule set; ``kinds`` has one
        entry per seat, :data:`PERSON` or an agent name. Raises :class:`~qe_rules.InvalidArgument` naming what is wrong,
        :class:`LimitReached` when the server holds as many tables as it may."""
        table = self._new_table(ruleset, players, kinds)
        now = time.time()
        self._insert(table, now)
        self._opened(table, now)
        return table

    async def open_table(
        self, ruleset: str | RuleSet, players: int, kinds: Sequence[str], seating: str | None = None
    ) -> Table:
        """:meth:`create`, storing on the storage thread, with the table's ``seating``
        (:class:`qe_rules.apps.lobby.Seating` as JSON) in the same write."""
        table = self._new_table(ruleset, players, kinds)
        now = time.time()
        await self._finish(self.run(self._insert, table, now, seating))
        self._opened(table, now)
        return table

    async def _finish(self, work: Awaitable[_T]) -> _T:
        """Await ``work`` to the end even if the request that asked for it goes away (a
        change is stored, then applied: never the one without the other)."""
        return await asyncio.shield(self._background(work))

    def _background(self, work: Awaitable[_T]) -> asyncio.Future[_T]:
        """Run ``work`` to its end; :meth:`stop` waits for it."""
        task = asyncio.ensure_future(work)
        self._changes.add(task)
        task.add_done_callback(self._changes.discard)
        return task

    def move(self, table: Table, seat: int, action: str, amount: Any = None) -> None:
        """A person's move, here and now (for tools and tests; the app uses :meth:`play`):
        ``bid`` (with ``amount``), ``peek`` or ``decline-peek``. Raises a
        :class:`~qe_rules.RulesError` and changes nothing when the move is not legal or
        cannot be stored (:class:`StorageUnavailable`)."""
        after, move, status = self._prepared(table, seat, action, amount)
        now = time.time()
        self.store.append(table.id, move, now=now, status=status)
        self._apply(table, after, now, status)

    async def play(self, table: Table, seat: int, action: str, amount: Any = None) -> None:
        """:meth:`move`, storing on the storage thread; one move of a table at a time."""
        await self._finish(self._play(table, seat, action, amount))

    async def _play(self, table: Table, seat: int | None, action: str, amount: Any) -> bool:
        async with table.lock:
            if seat is None:  # the next agent's move, if the game waits for one
                due = table.bots_to_act()
                if not due or table.gone:
                    return False
                seat = due[0]
                key = table.keys[seat]
                assert key is not None
                choice = agent_choice(table.kinds[seat], key, table.game, seat, table.version)
                action, amount = choice
            after, move, status = self._prepared(table, seat, action, amount)
            now = time.time()
            # Written here when that needs no wait; when the file is locked, the storage
            # thread waits for it (up to busy_timeout), never the event loop.
            if not self.store.append_at_once(table.id, move, now=now, status=status):
                await self.run(self.store.append, table.id, move, now=now, status=status)
            self._apply(table, after, now, status)
            self._appended += 1
            if self._appended % _CHECKPOINT_MOVES == 0:  # the syncing is the thread's
                self._background(self.run(self.store.checkpoint))
            return True

    def _prepared(self, table: Table, seat: int, action: str, amount: Any) -> tuple[Game, str, str]:
        """The game after a move, the move as JSON, and whom the game waits for then."""
        after = played(table.game, seat, action, amount)
        move: dict[str, Any] = {"move": action, "seat": seat}
        if action == "bid":
            move["amount"] = amount
        status = "over" if after.is_over else "people"
        if status == "people" and any(table.kinds[s] != PERSON for s in after.to_act):
            status = "agents"
        return after, json.dumps(move), status

    def _apply(self, table: Table, after: Game, now: float, status: str) -> None:
        """Make a stored move's game the table's, and wake its pages and agents."""
        table.state = (table.version + 1, after)
        entry = self.entries.get(table.id)
        if entry is not None:
            entry.updated, entry.status = now, status
        self._announce(table)

    def _announce(self, table: Table) -> None:
        """Wake the table's pages (and its agents, if they are due)."""
        if self._loop is None:
            return
        woken, table.changed = table.changed, asyncio.Event()
        woken.set()
        if not table.gone:
            self.wake_bots(table)

    # ----------------------------------------------------------------- limits

    def admit(self, client: str, now: float | None = None) -> float | None:
        """Count a new table of ``client`` against its limit, or raise
        :class:`LimitReached` if it made its most tables this minute. Returns what
        :meth:`release` takes back if the table is not made after all."""
        most = self.limits.tables_per_client_per_minute
        if not most:
            return None
        now = time.monotonic() if now is None else now
        made = self._created.setdefault(client, collections.deque())
        while made and made[0] <= now - 60:
            made.popleft()
        if len(made) >= most:
            wait = max(1, int(made[0] + 61 - now))
            raise LimitReached(
                f"at most {most} new tables a minute from one address; try again in {wait} s",
                status=429,
                retry_after=wait,
            )
        made.append(now)
        return now

    def release(self, client: str, admitted: float | None) -> None:
        """Take back a count of :meth:`admit` (the table was not made)."""
        made = self._created.get(client)
        if admitted is not None and made is not None:
            with contextlib.suppress(ValueError):
                made.remove(admitted)

    async def sweep(self, now: float | None = None) -> list[str]:
        """Remove the tables whose time is up (finished ones ``keep_finished`` seconds
        after their last move, others ``keep_abandoned`` seconds after it); their ids."""
        now = time.time() if now is None else now
        finished, abandoned = self.limits.keep_finished, self.limits.keep_abandoned
        expired = [
            entry.id
            for entry in list(self.entries.values())
            if (entry.status == "over" and finished and now - entry.updated > finished)
            or (entry.status != "over" and abandoned and now - entry.updated > abandoned)
        ]
        if expired:
            await self.run(self.store.delete, expired)
            for table_id in expired:
                self._forget(table_id)
            _log.info("%d tables expired; %d kept", len(expired), len(self.entries))
        clock = time.monotonic()
        for client, made in list(self._created.items()):
            if not made or made[-1] <= clock - 60:
                del self._created[client]
        return expired

    # ----------------------------------------------------------------- agents, start, stop

    def wake_bots(self, table: Table) -> None:
        """Start the table's agents if the game waits for one of them."""
        if (table.bots is not None and not table.bots.done()) or not table.bots_to_act():
            return
        if self._loop is None or self.closing:  # the app's start wakes them
            return
        table.bots = self._loop.create_task(self._play_bots(table))

    async def _play_bots(self, table: Table) -> None:
        """Let the agents make their moves one by one, as people would."""
        failures = 0
        while not self.closing and not table.gone:
            await asyncio.sleep(self.bot_delay if not failures else min(30.0, 2.0**failures))
            try:
                moved = await self._finish(self._play(table, None, "", None))
                if not moved and not table.bots_to_act():  # a person's move may have come
                    return  # in meanwhile: then go on (no await between check and end)
                failures = 0
            except StorageUnavailable as error:
                failures += 1
                _log.warning("table %s: an agent's move was not stored (%s)", table.id, error)

    async def start(self) -> None:
        """Begin serving: expire old tables now and every minute, and replay the tables
        whose agents are to move, one by one in the background."""
        self._loop = asyncio.get_running_loop()
        _log.info("%d tables in %s", len(self.entries), self.database)
        due = [e.id for e in self.entries.values() if e.has_agents and e.status in ("agents", None)]
        for work in (self._sweep_often(), self._load_all(due)):
            task = self._loop.create_task(work)
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _sweep_often(self) -> None:
        while True:
            try:
                await self.sweep()
            except StorageUnavailable as error:
                _log.warning("expired tables were not removed (%s)", error)
            await asyncio.sleep(_SWEEP_SECONDS)

    async def _load_all(self, table_ids: list[str]) -> None:
        for table_id in table_ids:
            with contextlib.suppress(StorageUnavailable):
                await self.table(table_id)

    def end_streams(self) -> None:
        """End every page's stream now (the server is stopping)."""
        self.closing = True
        for table in list(self.tables.values()):
            self._announce(table)

    async def stop(self) -> None:
        """Stop the agents and background work, finish the storage thread's work, close."""
        self.end_streams()
        tasks = [*self._tasks, *(t.bots for t in self.tables.values() if t.bots is not None)]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, *self._changes, return_exceptions=True)
        await asyncio.get_running_loop().run_in_executor(None, self._worker.shutdown)
        self.close()

    def close(self) -> None:
        """Close the database."""
        self.store.close()


# --------------------------------------------------------------------------- web


def _error(
    status: int,
    message: str,
    *,
    retry_after: int | None = None,
    error: RulesError | None = None,
) -> JSONResponse:
    """An error answer: ``{"error": message}``, one line; with the ``code`` and
    ``params`` of ``error`` where one is given (an app shows it in its own words)."""
    line = message.splitlines()[0] if message.strip() else "error"
    headers = {} if retry_after is None else {"Retry-After": str(retry_after)}
    body: dict[str, Any] = {"error": line[:500]}
    if error is not None:
        body |= {"code": error.code, "params": dict(error.params)}
    return JSONResponse(body, status_code=status, headers=headers)


def _page(name: str) -> str:
    return (_STATIC / name).read_text(encoding="utf-8")


def _render(table: Table, seat: int | None, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The payload of ``seat``'s page, or the spectators' (``None``), in ``lang``, made
    once a move."""
    version, game = table.state
    cached = table.rendered.get((seat, lang))
    if cached is not None and cached[0] == version:
        return cached[1]
    custom = None if RULESETS.get(game.ruleset.id) == game.ruleset else game.ruleset
    words: dict[str, Any] = {"lang": lang, "names": table.names, "ruleset": custom}
    if seat is None:
        data = payload(game.public_view(), game.public_events(), version=version, **words)
    else:
        data = payload(game.view(seat), game.events_for(seat), version=version, **words)
    table.rendered[(seat, lang)] = (version, data)
    return data


async def _stream(
    server: TableServer, table: Table, seat: int | None, lang: str
) -> AsyncIterator[str]:
    """Server-sent events: the payload now, then after every move until the game ends
    (or the table expires, or the server stops)."""
    loop = asyncio.get_running_loop()
    sent, sent_at = -1, 0.0
    while True:
        changed = table.changed
        data = _render(table, seat, lang)
        if data["version"] != sent:
            sent, sent_at = data["version"], loop.time()
            yield f"id: {sent}\nevent: state\ndata: {json.dumps(data)}\n\n"
        if data["view"]["phase"] == "over":
            return
        while not changed.is_set():
            try:
                await asyncio.wait_for(changed.wait(), _KEEPALIVE_SECONDS)
            except TimeoutError:
                yield ": keep-alive\n\n"
        if server.closing or table.gone:
            return
        pause = sent_at + _STREAM_PAUSE - loop.time()
        if pause > 0 and not table.game.is_over:  # the end goes out at once; moves in
            await asyncio.sleep(pause)  # quick succession (agents') go out as one message


def _media_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


async def _body(request: Request) -> dict[str, Any]:
    """A request's JSON object, or its form fields; raises InvalidArgument. No more than
    :data:`~qe_rules.limits.MAX_TEXT_LENGTH` bytes are read."""
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > MAX_TEXT_LENGTH:
        raise InvalidArgument(f"the request body is over {MAX_TEXT_LENGTH} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_TEXT_LENGTH:
            raise InvalidArgument(f"the request body is over {MAX_TEXT_LENGTH} bytes")
        chunks.append(chunk)
    raw = b"".join(chunks)
    media = _media_type(request)
    if media == "application/json":
        try:
            data = json.loads(raw) if raw else {}
        except (ValueError, RecursionError) as error:
            raise InvalidArgument(f"the request body is not JSON: {error}") from None
        if not isinstance(data, dict):
            raise InvalidArgument("the request body must be a JSON object")
        return data
    if media == "application/x-www-form-urlencoded":
        try:
            return dict(parse_qsl(raw.decode("utf-8"), max_num_fields=64))
        except (UnicodeDecodeError, ValueError) as error:
            raise InvalidArgument(f"the form is malformed: {error}") from None
    if not raw:
        return {}
    raise InvalidArgument("send a JSON object (Content-Type: application/json) or a form")


def _answering(refused: int) -> Callable[[Callable[[Request], Awaitable[Response]]], Any]:
    """A route's errors as JSON answers: ``refused`` for what the rules or the server
    refuse, 429 or 503 for the limits, 503 when the database cannot store a change."""

    def wrap(handler: Callable[[Request], Awaitable[Response]]) -> Any:
        async def answer(request: Request) -> Response:
            try:
                return await handler(request)
            except RulesError as error:
                refusal = _refusal(error, refused, _reader_language(request))
            if _unread(request):  # close rather than read the rest of a refused body
                refusal.headers["connection"] = "close"
            return refusal

        return answer

    return wrap


def _unread(request: Request) -> bool:
    """Whether the request has a body that was not read to its end."""
    headers = request.headers
    sent = headers.get("content-length", "0") != "0" or "transfer-encoding" in headers
    return sent and not getattr(request, "_stream_consumed", False)


def _reader_language(request: Request) -> str:
    """The language the page's reader asked for: ``?lang=``, the cookie, then the
    browser's ``Accept-Language``."""
    for asked in (request.query_params.get("lang"), request.cookies.get("qe_lang")):
        if asked in languages():
            return str(asked)
    return negotiate(request.headers.get("accept-language"))


def _refusal(error: RulesError, refused: int, lang: str = DEFAULT_LANGUAGE) -> Response:
    """The answer to a refused request: ``refused`` for what the rules or the server
    refuse (the message in ``lang``, with the error's code and params), 429 or 503 for
    the limits, 503 when the database cannot store a change."""
    if isinstance(error, LimitReached):
        return _error(error.status, str(error), retry_after=error.retry_after)
    if isinstance(error, StorageUnavailable):
        _log.warning("a change was not stored: %s", error)
        return _error(503, f"{error}; nothing changed, try again", retry_after=5)
    return _error(refused, error_text(error, lang=lang), error=error)


def _hostname(host: str) -> str:
    """The name in a Host header, without the port."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class _Guard:
    """Refuses requests for a host the server does not serve and cross-site posts, and
    adds the security headers (and ``Cache-Control: no-store`` but to static files)."""

    def __init__(self, app: ASGIApp, *, hosts: frozenset[str] | None, base: str) -> None:
        self.app = app
        self.hosts = hosts
        self.base = base

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        static = scope["path"].startswith("/static/")

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in _SECURITY_HEADERS:
                    headers[name.decode()] = value.decode()
                headers["cache-control"] = "no-cache" if static else "no-store"
            await send(message)

        refusal = self._refusal(Headers(scope=scope), scope["method"])
        if refusal is not None:
            await refusal(scope, receive, secured)
            return
        await self.app(scope, receive, secured)

    def _refusal(self, headers: Headers, method: str) -> Response | None:
        host = headers.get("host", "")
        if self.hosts is not None and _hostname(host) not in self.hosts:
            return _error(400, f"this server does not answer for the host {shown(host)}")
        if method in ("GET", "HEAD", "OPTIONS"):
            return None
        # A browser says where a request comes from in Sec-Fetch-Site (which no page can
        # forge); older ones only in Origin ("null" under Referrer-Policy: no-referrer).
        site = headers.get("sec-fetch-site")
        origin = headers.get("origin")
        if site is not None:
            refused = site not in ("same-origin", "none")
        else:
            home = (host.strip().lower(), self.base)
            refused = origin is not None and urlsplit(origin).netloc.lower() not in home
        return _error(403, "requests from another site are refused") if refused else None


class _StaticFiles(StaticFiles):
    """The page's scripts and styles; the pages' templates are not served as files."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        if path.endswith(".html"):
            raise HTTPException(404)
        return await super().get_response(path, scope)


def create_app(
    database: str = "qe-tables.sqlite3",
    *,
    bot_delay: float = 0.0,
    ruleset: str | RuleSet = "en",
    players: int = 4,
    limits: WebLimits | None = None,
    base_url: str = "http://127.0.0.1:8000/",
    allowed_hosts: Sequence[str] | None = None,
) -> Starlette:
    """The web application; ``ruleset`` and ``players`` are the defaults of the host's
    form, and a ``ruleset`` that is no built-in one (a rule set, a spec string or a file)
    is offered beside them. ``base_url`` is where players reach the server (the links shown to the host
    start with it); requests are answered for its host name, for the local names, and
    for ``allowed_hosts`` (``["*"]``: any). Raises :class:`DatabaseUnusable` when the
    database cannot be used. ``app.state.tables`` is its :class:`TableServer`."""
    base = base_url if base_url.endswith("/") else base_url + "/"
    parts = urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidArgument(f"the base URL is an http or https address, got {shown(base_url)}")
    hosts: frozenset[str] | None = None
    if allowed_hosts is None or "*" not in allowed_hosts:
        hosts = _LOCAL_HOSTS | {parts.hostname, *(h.lower() for h in allowed_hosts or ())}
    builtin = isinstance(ruleset, str) and ruleset in RULESETS
    choices = RuleChoices.of([] if builtin else [ruleset])
    if not builtin:
        ruleset = load_ruleset_choice(ruleset) if isinstance(ruleset, str) else ruleset
    default = str(ruleset) if builtin else choices.key_of(ruleset)  # type: ignore[arg-type]
    server = TableServer(database, bot_delay=bot_delay, limits=limits)
    night = GameNight(
        server,
        choices,
        default_ruleset=default or "en",
        players=players,
        base=base,
        read_page=_page,
        read_body=_body,
        error=_error,
    )

    @_answering(400)
    async def create(request: Request) -> Response:
        client = request.client.host if request.client else "-"
        table = server.tables[(await night.create(await _body(request), client)).id]
        _log.debug("table %s created: %s, %s", table.id, table.game.ruleset.id, table.kinds)
        if _media_type(request) == "application/json":
            return JSONResponse(_links(table), status_code=201)
        return RedirectResponse(f"/host/{table.host}", status_code=303)

    @_answering(404)
    async def seat_page(request: Request) -> Response:
        found = await server.seat(request.path_params["token"])
        if found is None:
            return _error(404, "no seat has this link")
        return await night.table_page(request, *found)

    @_answering(404)
    async def watch_page(request: Request) -> Response:
        table = await server.table(request.path_params["table"])
        if table is None:
            return _error(404, "no table has this spectator link")
        return await night.table_page(request, table, None)

    @_answering(404)
    async def seat_state(request: Request) -> Response:
        found = await server.seat(request.path_params["token"])
        if found is None:
            return _error(404, "no seat has this link")
        return JSONResponse(_render(*found, night.language(request)))

    @_answering(404)
    async def seat_events(request: Request) -> Response:
        found = await server.seat(request.path_params["token"])
        if found is None:
            return _error(404, "no seat has this link")
        return _events(server, *found, night.language(request))

    @_answering(409)
    async def seat_move(request: Request) -> Response:
        found = await server.seat(request.path_params["token"])
        if found is None:
            return _error(404, "no seat has this link")
        table, seat = found
        move = request.path_params["move"]
        if move not in _MOVES:
            return _error(404, f"no such move; moves are {', '.join(_MOVES)}")
        amount = None
        if move == "bid":
            amount = (await _body(request)).get("amount")
            if isinstance(amount, str):
                amount = whole_number(amount, f"a bid is a whole number from 0 to {MAX_BID}")
        await server.play(table, seat, move, amount)
        return JSONResponse(_render(table, seat, night.language(request)))

    @_answering(404)
    async def public_state(request: Request) -> Response:
        table = await server.table(request.path_params["table"])
        if table is None:
            return _error(404, "no table has this spectator link")
        return JSONResponse(_render(table, None, night.language(request)))

    @_answering(404)
    async def public_events(request: Request) -> Response:
        table = await server.table(request.path_params["table"])
        if table is None:
            return _error(404, "no table has this spectator link")
        return _events(server, table, None, night.language(request))

    @_answering(409)
    async def record(request: Request) -> Response:
        if "token" in request.path_params:
            found = await server.seat(request.path_params["token"])
            table = None if found is None else found[0]
        else:
            table = await server.table(request.path_params["table"])
        if table is None:
            return _error(404, "no table has this link")
        if not table.game.is_over:
            return _error(409, "the record holds every secret bid: it is ready when the game ends")
        return JSONResponse(
            table.game.to_record(metadata={"event": "qe-rules web table"}),
            headers={"Content-Disposition": f'attachment; filename="qe-{table.id[:8]}.json"'},
        )

    async def http_error(request: Request, error: Exception) -> Response:
        status = error.status_code if isinstance(error, HTTPException) else 500
        words = {404: "no such page", 405: "this method is not allowed here"}
        return _error(status, words.get(status, "the request cannot be answered"))

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        try:
            yield
        finally:
            await server.stop()

    async def rulebook_css(request: Request) -> Response:
        return Response(_rulebook_css(), media_type="text/css")

    app = Starlette(
        routes=[
            *(
                Route(path, _answering(refused)(handler), methods=methods)
                for path, handler, methods, refused in night.routes()
            ),
            Route("/tables", create, methods=["POST"]),
            Route("/api/tables", create, methods=["POST"]),
            Route("/seat/{token}", seat_page),
            Route("/watch/{table}", watch_page),
            Route("/api/seat/{token}/state", seat_state),
            Route("/api/seat/{token}/events", seat_events),
            Route("/api/seat/{token}/record", record, name="seat_record"),
            Route("/api/seat/{token}/{move:str}", seat_move, methods=["POST"]),
            Route("/api/watch/{table}/state", public_state),
            Route("/api/watch/{table}/events", public_events),
            Route("/api/watch/{table}/record", record),
            Route("/static/rulebook.css", rulebook_css),  # made from the rulebook's data
            Mount("/static", _StaticFiles(packages=[("qe_rules.apps", "web_static")])),
        ],
        exception_handlers={HTTPException: http_error},
        lifespan=lifespan,
    )
    app.router.redirect_slashes = False  # a redirect would name the Host header's host
    app.add_middleware(_Guard, hosts=hosts, base=parts.netloc.lower())
    app.state.tables = server
    return app


@functools.cache
def _rulebook_css() -> str:
    return rulebook_stylesheet()


def _events(server: TableServer, table: Table, seat: int | None, lang: str) -> StreamingResponse:
    return StreamingResponse(
        _stream(server, table, seat, lang),
        media_type="text/event-stream",
        headers={"X-Accel-Buffering": "no"},
    )


def _links(table: Table) -> dict[str, Any]:
    return {
        "table": table.id,
        "host": f"/host/{table.host}",
        "watch": f"/watch/{table.id}",
        "seats": [None if token is None else f"/seat/{token}" for token in table.tokens],
    }


def _reachable_name(host: str) -> str:
    """The address others reach a server listening on ``host`` at: for every address
    (``0.0.0.0``, ``::``) the one of the route out (found without sending anything)."""
    if host not in ("0.0.0.0", "::", ""):
        return host
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a documentation address: nothing is sent
            return str(probe.getsockname()[0])
        except OSError:
            return socket.gethostname()


def serve(
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    database: str = "qe-tables.sqlite3",
    ruleset: str | RuleSet = "en",
    players: int = 4,
    bot_delay: float = 0.5,
    limits: WebLimits | None = None,
    base_url: str | None = None,
    allowed_hosts: Sequence[str] = (),
    trust_proxy: str | None = None,
    log_level: str = "info",
) -> None:
    """Run the web table with uvicorn until interrupted. Ctrl-C ends the pages' streams
    and stops within seconds; then ``KeyboardInterrupt`` is raised. ``base_url`` defaults
    to ``http://HOST:PORT/``; ``trust_proxy`` (addresses, comma-separated) reads the
    client's address from ``X-Forwarded-For`` when a reverse proxy at one of them sends
    the request."""
    import uvicorn

    logging.basicConfig(
        level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if base_url is None:
        name = _reachable_name(host)
        base_url = f"http://{f'[{name}]' if ':' in name else name}:{port}/"
    app = create_app(
        database,
        bot_delay=bot_delay,
        ruleset=ruleset,
        players=players,
        limits=limits,
        base_url=base_url,
        allowed_hosts=allowed_hosts,
    )
    tables: TableServer = app.state.tables
    # The storage thread hands its results back to the event loop: let a waiting thread
    # take its turn after 0.5 ms of another's work, not 5 ms (Python's default).
    sys.setswitchinterval(0.0001)

    class _Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            loop = tables._loop
            if loop is not None:
                loop.call_soon_threadsafe(tables.end_streams)
            super().handle_exit(sig, frame)

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_config=None,
        log_level=log_level,
        access_log=False,
        server_header=False,
        proxy_headers=trust_proxy is not None,
        forwarded_allow_ips=trust_proxy or "",
        timeout_graceful_shutdown=3,
    )
    _Server(config).run()
