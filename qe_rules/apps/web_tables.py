"""The tables of a web table server (``qe-rules serve``): each game with its seats, the
server that keeps them (stored in SQLite, replayed when first asked for), the agents'
turns, and the limits on tables (:class:`WebLimits`).

:mod:`qe_rules.apps.web` serves them over HTTP; :class:`TableServer` is also the way for
tools and tests to make tables and moves without it.

>>> server = TableServer(":memory:")
>>> table = server.create("en", 3, ["person", "zero", "zero"], client="203.0.113.7")
>>> table.kinds, table.status()
(('person', 'zero', 'zero'), 'people')
>>> server.close()
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
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final, TypeVar

import attrs

from qe_rules.apps.lobby import MoveRefused, StaleMove, answers_turn
from qe_rules.apps.web_keys import KEY_BYTES, agent_choice, deal, new_key, played
from qe_rules.apps.web_store import IndexRow, StorageUnavailable, TableStore
from qe_rules.errors import InvalidArgument, InvalidRecord, RulesError, shown
from qe_rules.game.engine import Game, new_game, replay
from qe_rules.rules.model import RULESETS, RuleSet, get_ruleset
from qe_rules.simulation.agents import AGENT_NAMES

__all__ = [
    "PERSON",
    "LimitReached",
    "Table",
    "TableServer",
    "WebLimits",
    "seats_json",
]

PERSON: Final = "person"
"""The seat kind of a seat played by a person through its private link."""

_log = logging.getLogger("qe_rules.apps.web")
_T = TypeVar("_T")
_SWEEP_SECONDS: Final = 60.0
_READING_SECONDS: Final = 600.0  # a finished table used this lately is not removed at the cap
_CHECKPOINT_MOVES: Final = 500


def _non_negative(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
        raise InvalidArgument(f"{attribute.name} is a number of at least 0, got {shown(value)}")


def _share(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 1:
        raise InvalidArgument(f"{attribute.name} is a share above 0 and at most 1, got {value!r}")


@attrs.frozen(kw_only=True)
class WebLimits:
    """What the server allows, each ``0`` for no limit.

    Tables: created per client (address) a minute (``tables_per_client_per_minute``),
    unfinished ones one address may hold (``tables_per_client``, its share of the total),
    kept in all (``max_tables``); how long (seconds) a finished table is kept after its
    last move, an unfinished one without a move, and one that no seat ever opened after
    it was made (``keep_unopened``). ``busy_timeout`` is how long a write waits for a
    database another process holds before the request is answered 503.

    Play: the share of the server's time the agents may take (``agent_share``, above 0
    and at most 1), and how long (seconds) a person may keep the table waiting before the
    others may hand their seat to an agent (``wait_limit``).

    Connections (:mod:`qe_rules.apps.web_connections`): at most ``max_connections`` in all
    (fewer if the file limit is lower), ``connections_per_client`` from one address and
    ``streams_per_client`` live pages from one; a request's head must arrive within
    ``head_timeout`` seconds and its body within ``body_timeout``."""

    tables_per_client_per_minute: int = attrs.field(default=20, validator=_non_negative)
    tables_per_client: int = attrs.field(default=40, validator=_non_negative)
    max_tables: int = attrs.field(default=2000, validator=_non_negative)
    keep_finished: float = attrs.field(default=24 * 3600.0, validator=_non_negative)
    keep_abandoned: float = attrs.field(default=7 * 24 * 3600.0, validator=_non_negative)
    keep_unopened: float = attrs.field(default=50 * 60.0, validator=_non_negative)
    busy_timeout: float = attrs.field(default=2.0, validator=_non_negative)
    agent_share: float = attrs.field(default=0.25, validator=_share)
    wait_limit: float = attrs.field(default=180.0, validator=_non_negative)
    max_connections: int = attrs.field(default=1000, validator=_non_negative)
    connections_per_client: int = attrs.field(default=64, validator=_non_negative)
    streams_per_client: int = attrs.field(default=12, validator=_non_negative)
    head_timeout: float = attrs.field(default=10.0, validator=_non_negative)
    body_timeout: float = attrs.field(default=20.0, validator=_non_negative)


class LimitReached(RulesError):
    """A table or a page was refused: the client made or holds too many, or the server
    holds as many as it may. ``status`` is the HTTP status, ``retry_after`` the seconds
    to wait."""

    def __init__(self, message: str, *, status: int, retry_after: int) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


# --------------------------------------------------------------------------- tokens


def _token() -> str:
    return secrets.token_urlsafe(18)


# --------------------------------------------------------------------------- tables


@attrs.define(eq=False)
class Table:
    """One game at the server: its seats (a person's private token, or an agent's name
    and secret key), the host's token, the spectators' id, and the game with its version
    (the number of moves), swapped together. ``changed`` wakes the pages waiting for a
    move. ``client`` is the address the table was made from; ``stand_ins`` the person
    seats an agent plays for now (by seat: the agent's name and key); ``turns`` the seats
    the game waits for, each with the version and the time its turn began; ``revision``
    counts the changes of names and players."""

    id: str
    host: str
    kinds: tuple[str, ...]
    tokens: tuple[str | None, ...]
    keys: tuple[bytes | None, ...]
    state: tuple[int, Game]
    client: str = ""
    changed: asyncio.Event = attrs.field(factory=asyncio.Event)
    gone: bool = False  # expired: its pages end
    lock: asyncio.Lock = attrs.field(factory=asyncio.Lock)  # one move at a time
    # The last payload made for each seat (None: the spectators) and language, with its version.
    rendered: dict[tuple[int | None, str], tuple[int, dict[str, Any]]] = attrs.field(factory=dict)
    names: tuple[str, ...] = ()  # what the seats are called (qe_rules.apps.lobby)
    stand_ins: dict[int, tuple[str, bytes]] = attrs.field(factory=dict)
    turns: dict[int, tuple[int, float]] = attrs.field(factory=dict)
    revision: int = 0
    scheduled: bool = False  # an agent's move is due or waits for its turn
    failures: int = 0  # agent moves in a row that could not be stored

    def __attrs_post_init__(self) -> None:
        now = time.time()
        self.turns = dict.fromkeys(self.game.to_act, (self.version, now))

    @property
    def game(self) -> Game:
        """The game now."""
        return self.state[1]

    @property
    def version(self) -> int:
        """How many moves the game has had."""
        return self.state[0]

    def agent_of(self, seat: int) -> tuple[str, bytes] | None:
        """The agent that plays ``seat`` (its name and key), or ``None``: a person does."""
        key = self.keys[seat]
        if key is not None:
            return self.kinds[seat], key
        return self.stand_ins.get(seat)

    def bots_to_act(self) -> list[int]:
        """The seats played by agents (stand-ins too) that the game waits for."""
        return [s for s in sorted(self.game.to_act) if self.agent_of(s) is not None]

    def status(self) -> str:
        """Whom the game waits for: ``"people"``, ``"agents"`` or ``"over"``."""
        if self.game.is_over:
            return "over"
        return "agents" if self.bots_to_act() else "people"

    def waited(self, now: float | None = None) -> dict[int, float]:
        """For each person seat the game waits for (no agent playing it): the seconds
        since its turn began."""
        now = time.time() if now is None else now
        return {
            seat: round(now - since, 1)
            for seat, (_version, since) in sorted(self.turns.items())
            if self.agent_of(seat) is None
        }

    def bump(self) -> None:
        """The names or players changed: pages are made again and receive them."""
        self.revision += 1
        self.rendered.clear()


@attrs.define(eq=False)
class _Entry:
    """A stored table as the server knows it without replaying it: when it was made,
    changed and last used, from which address, and whether a seat was ever opened."""

    id: str
    host: str
    tokens: tuple[str | None, ...]
    has_agents: bool
    updated: float
    status: str | None
    client: str = ""
    created: float = 0.0
    used: float = 0.0
    opened: bool = False


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


def seats_json(table: Table) -> str:
    """A table's seats as stored: each seat's kind, its person's token or agent's key."""
    return json.dumps(
        [
            {"kind": kind, "token": token, "key": None if key is None else key.hex()}
            for kind, token, key in zip(table.kinds, table.tokens, table.keys, strict=True)
        ]
    )


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

    The agents of every table take turns in one task, address by address and table by
    table, and take at most ``limits.agent_share`` of the event loop's time: however
    many tables of agents there are, pages are answered at once, and one address's
    tables do not slow down another's more than its own do.
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
        self.streams: collections.Counter[str] = collections.Counter()  # live pages by client
        # GameNight's: gives a table just loaded its names and stand-ins.
        self.dress: Callable[[Table], None] = lambda table: None
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="qe-web-storage")
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._created: dict[str, collections.deque[float]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._changes: set[asyncio.Future[Any]] = set()  # moves and tables being stored
        self._appended = 0
        # The agents' turns: the tables due, by client, and the clients in turn.
        self._due: dict[str, collections.deque[Table]] = {}
        self._rotation: collections.deque[str] = collections.deque()
        self._woken: asyncio.Event | None = None
        self._agent_time = 0.0  # the event loop's time the agents' last move took
        if self.store.created:
            _log.info("a new table database: %s", database)
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
            client=row.client,
            created=row.created or row.updated,
            used=row.updated,
            opened=row.updated > (row.created or row.updated),  # it had a move
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
            self._announce(table)

    def use(self, table_id: str, *, opened: bool = False) -> None:
        """Note that a table was used now (a page, a stream, a move), and with
        ``opened`` that a seat of it was opened."""
        entry = self.entries.get(table_id)
        if entry is not None:
            entry.used = time.time()
            entry.opened = entry.opened or opened

    def retoken(self, table: Table, seat: int, token: str | None) -> str:
        """Give a person's seat a new token (``token``, or a fresh one when ``None``);
        its old token stops working at once. Returns the new token (not stored here:
        see :meth:`qe_rules.apps.lobby.GameNight.free_seat`)."""
        old = table.tokens[seat]
        new = _token() if token is None else token
        if old is not None:
            self.seats.pop(old, None)
        tokens = list(table.tokens)
        tokens[seat] = new
        table.tokens = tuple(tokens)
        self.seats[new] = (table.id, seat)
        entry = self.entries.get(table.id)
        if entry is not None:
            entry.tokens = table.tokens
        self._announce(table)  # the old token's live pages end
        return new

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
            client=entry.client,
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
        entry = self.entries.get(table_id)
        if entry is None:  # expired meanwhile
            return None
        loaded.tokens = entry.tokens  # a token given anew since the start is the one
        self.dress(loaded)
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

    def _new_table(
        self, ruleset: str | RuleSet, players: int, kinds: Sequence[str], client: str
    ) -> tuple[Table, list[str]]:
        """A new table, dealt, not stored yet, and the tables that must go to make room
        for it; raises what :meth:`create` raises."""
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
        room = self._room_for(client)
        kinds = tuple(kinds)
        game = deal(rules, players, new_key())
        table = Table(
            id=_token(),
            host=_token(),
            kinds=kinds,
            tokens=tuple(_token() if kind == PERSON else None for kind in kinds),
            keys=tuple(None if kind == PERSON else new_key() for kind in kinds),
            state=(0, game),
            client=client,
        )
        return table, room

    def _room_for(self, client: str) -> list[str]:
        """The tables to remove so that ``client`` may make one more; raises
        :class:`LimitReached` when it may not. An address holds at most its share of
        unfinished tables. At the cap, room is made by removing, oldest first, a finished
        table nobody used for ten minutes; else a table of another address that no seat ever opened; else the least
        recently used table of the address that holds the most, if it holds at least two
        more than ``client``."""
        share = self.limits.tables_per_client
        entries = list(self.entries.values())
        if share:
            held = sum(1 for e in entries if e.client == client and e.status != "over")
            if held >= share:
                raise LimitReached(
                    f"one address may hold {share} unfinished tables; finish or leave one",
                    status=429,
                    retry_after=int(_SWEEP_SECONDS),
                )
        most = self.limits.max_tables
        if not most or len(entries) < most:
            return []
        victim = _victim(entries, client, time.time())
        if victim is None:
            raise LimitReached(
                f"the server holds its most tables ({most}); try again later",
                status=503,
                retry_after=int(_SWEEP_SECONDS),
            )
        return [victim]

    def _insert(self, table: Table, now: float, seating: str | None = None) -> None:
        """Store a new table (on the storage thread)."""
        record = json.dumps(table.game.to_record())
        status = table.status()
        self.store.insert(
            table.id,
            table.host,
            seats_json(table),
            record,
            now=now,
            status=status,
            seating=seating,
            client=table.client,
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
            client=table.client,
            created=now,
            used=now,
        )
        self.tables[table.id] = table
        self._add(entry)
        self.wake_bots(table)

    def _make_room(self, removed: list[str]) -> None:
        if removed:
            for table_id in removed:
                self._forget(table_id)
            _log.info("%d table(s) removed at the cap to make room for a new one", len(removed))

    def create(
        self, ruleset: str | RuleSet, players: int, kinds: Sequence[str], client: str = "-"
    ) -> Table:
        """Deal and store a new table, here and now (for tools and tests; the app uses
        :meth:`open_table`) under a built-in rule set's id or a rule set; ``kinds`` has one
        entry per seat, :data:`PERSON` or an agent name. Raises :class:`~qe_rules.InvalidArgument` naming what is wrong,
        :class:`LimitReached` when ``client`` or the server holds as many tables as it may."""
        table, room = self._new_table(ruleset, players, kinds, client)
        now = time.time()
        if room:
            self.store.delete(room)
        self._make_room(room)
        self._insert(table, now)
        self._opened(table, now)
        return table

    async def open_table(
        self,
        ruleset: str | RuleSet,
        players: int,
        kinds: Sequence[str],
        seating: str | None = None,
        client: str = "-",
    ) -> Table:
        """:meth:`create`, storing on the storage thread, with the table's ``seating``
        (:class:`qe_rules.apps.lobby.Seating` as JSON) in the same write."""
        table, room = self._new_table(ruleset, players, kinds, client)
        now = time.time()
        if room:
            await self._finish(self.run(self.store.delete, room))
            self._make_room(room)
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
        self._apply(table, seat, after, now, status)

    async def play(
        self,
        table: Table,
        seat: int,
        action: str,
        amount: Any = None,
        *,
        version: object = None,
    ) -> None:
        """:meth:`move`, storing on the storage thread; one move of a table at a time.
        ``version`` is the version of the game the move answers: a move whose seat's turn
        began after it (or that is not the seat's turn) raises :class:`StaleMove`; so a
        request sent again, or late, is refused and changes nothing."""
        await self._finish(self._play(table, seat, action, amount, version))

    def check_answer(self, table: Table, seat: int, version: object) -> None:
        """Raise :class:`StaleMove` unless ``version`` is a version of the game at which
        ``seat``'s present turn had begun."""
        turn = table.turns.get(seat)
        if not answers_turn(turn, version, table.version):
            raise StaleMove(version, None if turn is None else turn[0], table.version)

    async def _play(
        self, table: Table, seat: int | None, action: str, amount: Any, version: object = None
    ) -> bool:
        async with table.lock:
            started, agent_moves = time.thread_time(), seat is None
            if seat is None:  # the next agent's move, if the game waits for one
                due = table.bots_to_act()
                if not due or table.gone:
                    return False
                seat = due[0]
                agent = table.agent_of(seat)
                assert agent is not None
                action, amount = agent_choice(agent[0], agent[1], table.game, seat, table.version)
            else:
                if seat in table.stand_ins:
                    raise MoveRefused("an agent plays this seat now; come back to it first")
                self.check_answer(table, seat, version)
            after, move, status = self._prepared(table, seat, action, amount)
            now = time.time()
            # Written here when that needs no wait; when the file is locked, the storage
            # thread waits for it (up to busy_timeout), never the event loop.
            if not self.store.append_at_once(table.id, move, now=now, status=status):
                await self.run(self.store.append, table.id, move, now=now, status=status)
            self._apply(table, seat, after, now, status)
            if agent_moves:
                self._agent_time = time.thread_time() - started
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
        if status == "people" and any(table.agent_of(s) is not None for s in after.to_act):
            status = "agents"
        return after, json.dumps(move), status

    def _apply(self, table: Table, seat: int, after: Game, now: float, status: str) -> None:
        """Make a stored move's game the table's, note whose turns begin, and wake its
        pages and agents."""
        before = table.game.to_act
        version = table.version + 1
        table.state = (version, after)
        turns = {s: turn for s, turn in table.turns.items() if s in after.to_act}
        for waiting in after.to_act:
            if waiting not in before or waiting == seat:
                turns[waiting] = (version, now)
        table.turns = turns
        entry = self.entries.get(table.id)
        if entry is not None:
            entry.updated, entry.status, entry.used = now, status, now
        self._announce(table)
        self.wake_bots(table)

    def _announce(self, table: Table) -> None:
        """Wake the table's pages."""
        if self._loop is None:
            return
        woken, table.changed = table.changed, asyncio.Event()
        woken.set()

    def changed(self, table: Table) -> None:
        """The table's names or players changed: its pages receive them, and its agents
        play if one is due now."""
        table.bump()
        self._announce(table)
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
        after their last move, others ``keep_abandoned`` seconds after it, and those no
        seat ever opened ``keep_unopened`` seconds after they were made); their ids."""
        now = time.time() if now is None else now
        limits = self.limits
        finished, abandoned, unopened = (
            limits.keep_finished,
            limits.keep_abandoned,
            limits.keep_unopened,
        )
        expired = [
            entry.id
            for entry in list(self.entries.values())
            if (entry.status == "over" and finished and now - entry.updated > finished)
            or (entry.status != "over" and abandoned and now - entry.updated > abandoned)
            or (not entry.opened and unopened and now - entry.created > unopened)
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
        """Let the table's agents play if the game waits for one of them: after the bot
        delay, its move takes its turn among the tables' agents."""
        if table.scheduled or table.gone or self.closing or self._loop is None:
            return
        if not table.bots_to_act():
            return
        table.scheduled = True
        delay = self.bot_delay if not table.failures else min(30.0, 2.0**table.failures)
        self._loop.call_later(delay, self._due_now, table)

    def _due_now(self, table: Table) -> None:
        queue = self._due.get(table.client)
        if queue is None:
            queue = self._due[table.client] = collections.deque()
            self._rotation.append(table.client)
        queue.append(table)
        if self._woken is not None:
            self._woken.set()

    def _next_due(self) -> Table | None:
        """The next table whose agent is due: the clients take turns, and each client's
        tables."""
        while self._rotation:
            client = self._rotation.popleft()
            queue = self._due[client]
            table = queue.popleft()
            if queue:
                self._rotation.append(client)
            else:
                del self._due[client]
            table.scheduled = False
            if not table.gone:
                return table
        return None

    async def _play_agents(self) -> None:
        """Make the agents' moves, one at a time, the tables taking turns; after each,
        pause so that the agents take at most ``limits.agent_share`` of the loop's time."""
        assert self._woken is not None
        share = self.limits.agent_share
        owed = 0.0
        while True:
            table = self._next_due()
            if table is None:
                self._woken.clear()
                await self._woken.wait()
                continue
            self._agent_time = 0.0
            try:
                await self._finish(self._play(table, None, "", None))
                table.failures = 0
            except StorageUnavailable as error:
                table.failures += 1
                _log.warning("table %s: an agent's move was not stored (%s)", table.id, error)
            self.wake_bots(table)
            owed += self._agent_time * (1 / share - 1)
            if owed > 0.002:
                await asyncio.sleep(owed)
                owed = 0.0
            else:
                await asyncio.sleep(0)

    async def start(self) -> None:
        """Begin serving: expire old tables now and every minute, start the agents, and
        replay the tables whose agents are to move, one by one in the background."""
        self._loop = asyncio.get_running_loop()
        self._woken = asyncio.Event()
        _log.info("%d tables in %s", len(self.entries), self.database)
        due = [e.id for e in self.entries.values() if e.has_agents and e.status in ("agents", None)]
        for work in (self._sweep_often(), self._load_all(due), self._play_agents()):
            task = self._loop.create_task(work)
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        for table in self.tables.values():
            self.wake_bots(table)

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
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, *self._changes, return_exceptions=True)
        await asyncio.get_running_loop().run_in_executor(None, self._worker.shutdown)
        self.close()

    def close(self) -> None:
        """Close the database."""
        self.store.close()


def _victim(entries: Sequence[_Entry], client: str, now: float) -> str | None:
    """The table to remove at the cap for a new one of ``client`` (see
    :meth:`TableServer._room_for`), or ``None``."""
    over = [e for e in entries if e.status == "over" and now - e.used > _READING_SECONDS]
    if over:
        return min(over, key=lambda e: e.used).id
    unopened = [e for e in entries if not e.opened and e.client != client]
    if unopened:
        return min(unopened, key=lambda e: e.created).id
    held = collections.Counter(e.client for e in entries)
    most = max(held.values())
    if most < held[client] + 2:
        return None
    return min((e for e in entries if held[e.client] == most), key=lambda e: e.used).id
