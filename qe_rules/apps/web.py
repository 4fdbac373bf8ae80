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
is limited per client and in all (:class:`WebLimits`), rematches included; tables expire,
and at the cap the oldest untouched ones make room. A move names the version of the game
it answers, so a request sent again is refused. Connections are bounded
(:mod:`qe_rules.apps.web_connections`), and the agents of all tables share a part of the
server's time. The people's pages (names, the lobby, joining, seats handed to agents and
back, rematches, languages, the rules help) are :class:`qe_rules.apps.lobby.GameNight`'s,
behind the same guards.

>>> import qe_rules as qe
>>> game = qe.new_game("en", 4, seed=1)
>>> sorted(payload(game.view(2), game.events_for(2), version=0))  # doctest: +NORMALIZE_WHITESPACE
['away', 'bid_help', 'board', 'lang', 'log', 'log_kinds', 'names', 'picture', 'record',
 'revision', 'standings', 'status', 'summary', 'totals', 'turn', 'version', 'view']
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
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any, Final, TypeVar, cast
from urllib.parse import parse_qsl, urlsplit

import attrs
from starlette.applications import Starlette
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import (
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from qe_rules._util.i18n import DEFAULT_LANGUAGE, gettext_for
from qe_rules.apps.lobby import (
    GameNight,
    MoveRefused,
    StaleMove,
    answers_turn,
    whole_number,
)
from qe_rules.apps.panels import agent_label, panel_data
from qe_rules.apps.table_rules import RuleChoices, load_ruleset_choice
from qe_rules.apps.web_connections import (
    BACKLOG,
    SECURITY_HEADERS,
    ConnectionCounts,
    RepeatFilter,
    bounded_protocol,
    client_key,
    connection_budget,
    trusted_networks,
)
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
from qe_rules.present.text import event_line, zero_bids_score
from qe_rules.rules.model import RULESETS, RuleSet, get_ruleset
from qe_rules.simulation.agents import AGENT_NAMES
from qe_rules.texts.rulebooks import rulebook_stylesheet

__all__ = [
    "PERSON",
    "DatabaseUnusable",
    "LimitReached",
    "StaleMove",
    "StorageUnavailable",
    "Table",
    "TableServer",
    "WebLimits",
    "create_app",
    "event_line",
    "payload",
    "serve",
    "server_config",
]

PERSON: Final = "person"
"""The seat kind of a seat played by a person through its private link."""

_log = logging.getLogger("qe_rules.apps.web")
_T = TypeVar("_T")
_STATIC: Final = resources.files("qe_rules.apps") / "web_static"
_KEEPALIVE_SECONDS: Final = 15.0
_STREAM_PAUSE: Final = 0.2  # the least time between two messages of a page's stream
_SWEEP_SECONDS: Final = 60.0
_READING_SECONDS: Final = 600.0  # a finished table used this lately is not removed at the cap
_CHECKPOINT_MOVES: Final = 500
_MOVES: Final = ("bid", "peek", "decline-peek")
_LOCAL_HOSTS: Final = frozenset({"localhost", "127.0.0.1", "::1"})


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


# --------------------------------------------------------------------------- payloads


def payload(
    view: PlayerView | PublicView,
    events: Sequence[Event],
    *,
    version: int,
    lang: str = DEFAULT_LANGUAGE,
    names: Sequence[str] | None = None,
    ruleset: RuleSet | None = None,
    away: Mapping[int, str] | None = None,
    revision: int = 0,
) -> dict[str, Any]:
    """Everything the server sends a page: the view as JSON, the event stream as lines of
    text, the picture of the view, and whether the record may be downloaded (at the end),
    with the panels of :func:`qe_rules.apps.panels.panel_data`; the texts are in ``lang``
    and call the seats by ``names`` where given, the others ``seat 1``, ``seat 2``, ...
    (people count from 1). ``ruleset`` is the game's rule set; ``away`` the seats an
    agent plays for their person, by the agent's name (``value``); ``revision`` counts the changes
    of the table's names and players.

    A seat's page gets ``payload(game.view(seat), game.events_for(seat))``, a spectator's
    ``payload(game.public_view(), game.public_events())``: made from these alone, it
    holds nothing the watcher may not know.
    """
    _ = gettext_for(lang)
    given = tuple(names or ())
    labels = tuple(
        (given[seat] if seat < len(given) else "") or _("seat {seat}").format(seat=seat + 1)
        for seat in range(view.players)
    )
    zero_bids = zero_bids_score(ruleset or view.ruleset, view.players)
    away = {seat: agent_label(kind, lang) for seat, kind in (away or {}).items()}
    return {
        "version": version,
        "revision": revision,
        "lang": lang,
        "names": list(labels),
        "view": view.to_dict(),
        "log": [_event_line(event, lang, labels) for event in events],
        "picture": svg.view(view, lang=lang, names=labels, zero_bids=zero_bids),
        "record": view.is_over,
        "away": [
            {"seat": seat, "name": labels[seat], "agent": agent}
            for seat, agent in sorted(away.items())
        ],
        **panel_data(view, events, lang=lang, names=labels, ruleset=ruleset, away=away),
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


# --------------------------------------------------------------------------- web


def _error(status: int, message: str, *, retry_after: int | None = None) -> JSONResponse:
    """An error answer: ``{"error": message}``, one line."""
    line = message.splitlines()[0] if message.strip() else "error"
    headers = {} if retry_after is None else {"Retry-After": str(retry_after)}
    return JSONResponse({"error": line[:500]}, status_code=status, headers=headers)


def _away(table: Table) -> dict[int, str]:
    """The person seats an agent plays for now, by the agent's name."""
    return {seat: kind for seat, (kind, _key) in table.stand_ins.items()}


def _render(table: Table, seat: int | None, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The payload of ``seat``'s page, or the spectators' (``None``), in ``lang``, made
    once a move (and once a change of the table's names or players)."""
    version, game = table.state
    cached = table.rendered.get((seat, lang))
    if cached is not None and cached[0] == version:
        return cached[1]
    custom = None if RULESETS.get(game.ruleset.id) == game.ruleset else game.ruleset
    words: dict[str, Any] = {
        "lang": lang,
        "names": table.names,
        "ruleset": custom,
        "away": _away(table),
        "revision": table.revision,
    }
    if seat is None:
        data = payload(game.public_view(), game.public_events(), version=version, **words)
    else:
        data = payload(game.view(seat), game.events_for(seat), version=version, **words)
    table.rendered[(seat, lang)] = (version, data)
    return data


def _state(
    table: Table, seat: int | None, lang: str, wait_limit: float, person: bool
) -> dict[str, Any]:
    """:func:`_render` with what changes with the clock: for each person seat the game
    waits for, the seconds it has waited (``waited``), the ``wait_limit`` after which the
    others may hand it to an agent (``0``: never), and whether this seat is a person's
    (``person``: it may leave and come back)."""
    data = _render(table, seat, lang)
    waited = {str(s): w for s, w in table.waited().items() if table.tokens[s] is not None}
    return {**data, "waited": waited, "wait_limit": wait_limit, "person": person}


async def _stream(
    server: TableServer, table: Table, seat: int | None, lang: str, person: bool
) -> AsyncIterator[str]:
    """Server-sent events: the payload now, then after every move and every change of
    the table's names or players, until the game ends (or the table expires, or the
    server stops)."""
    loop = asyncio.get_running_loop()
    sent, sent_at = (-1, -1), 0.0
    wait_limit = server.limits.wait_limit

    while True:
        changed = table.changed
        data = _state(table, seat, lang, wait_limit, person)
        stamp = (data["version"], data["revision"])
        if stamp != sent:
            sent, sent_at = stamp, loop.time()
            yield f"id: {stamp[0]}\nevent: state\ndata: {json.dumps(data)}\n\n"
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


class _Counted(StreamingResponse):
    """A page's stream, counted against its client's live pages while it lasts."""

    def __init__(self, counts: collections.Counter[str], client: str, *args: Any, **kw: Any):
        super().__init__(*args, **kw)
        self._counts, self._client = counts, client
        counts[client] += 1

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._counts[self._client] -= 1
            if self._counts[self._client] <= 0:
                del self._counts[self._client]


def _media_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


async def _body(request: Request) -> dict[str, Any]:
    """A request's JSON object, or its form fields; raises InvalidArgument. No more than
    :data:`~qe_rules.limits.MAX_TEXT_LENGTH` bytes are read."""
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > MAX_TEXT_LENGTH:
        raise InvalidArgument(f"the request body is over {MAX_TEXT_LENGTH} bytes")
    chunks, size = [], 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_TEXT_LENGTH:
                raise InvalidArgument(f"the request body is over {MAX_TEXT_LENGTH} bytes")
            chunks.append(chunk)
    except ClientDisconnect:  # the body did not arrive in time, or the client left
        raise InvalidArgument("the request body did not arrive") from None
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
                refusal = _refusal(error, refused)
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


def _refusal(error: RulesError, refused: int) -> Response:
    """The answer to a refused request: ``refused`` for what the rules or the server
    refuse, 429 or 503 for the limits, 503 when the database cannot store a change."""
    if isinstance(error, LimitReached):
        return _error(error.status, str(error), retry_after=error.retry_after)
    if isinstance(error, StorageUnavailable):
        _log.warning("a change was not stored: %s", error)
        return _error(503, f"{error}; nothing changed, try again", retry_after=5)
    return _error(refused, str(error))


def _hostname(host: str) -> str:
    """The name in a Host header, without the port."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _secured(headers: MutableHeaders, static: bool = False) -> None:
    """Set the security headers (and ``Cache-Control``) of an answer."""
    for name, value in SECURITY_HEADERS:
        headers[name] = value
    headers["cache-control"] = "no-cache" if static else "no-store"


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
                _secured(MutableHeaders(scope=message), static)
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


def _client(request: Request) -> str:
    """The address a request is counted under (:func:`client_key`)."""
    return client_key(request.client.host) if request.client else "-"


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
        read_body=_body,
        error=_error,
    )
    wait_limit = server.limits.wait_limit

    async def seat_of(token: str) -> tuple[Table, int] | None:
        """The table and seat of a token, claimed by this use."""
        found = await night.seat(token)
        return None if found is None else (cast(Table, found[0]), found[1])

    async def watched(table_id: str) -> Table | None:
        return cast("Table | None", await night.watched(table_id))

    @_answering(400)
    async def create(request: Request) -> Response:
        table = server.tables[(await night.create(await _body(request), _client(request))).id]
        _log.debug("table %s created: %s, %s", table.id, table.game.ruleset.id, table.kinds)
        if _media_type(request) == "application/json":
            return JSONResponse(_links(table), status_code=201)
        return RedirectResponse(f"/host/{table.host}", status_code=303)

    @_answering(404)
    async def seat_page(request: Request) -> Response:
        found = await seat_of(request.path_params["token"])
        if found is None:
            return night.no_seat(request)
        return await night.table_page(request, *found)

    @_answering(404)
    async def watch_page(request: Request) -> Response:
        table = await watched(request.path_params["table"])
        if table is None:
            return _error(404, "no table has this spectator link")
        return await night.table_page(request, table, None)

    @_answering(404)
    async def seat_state(request: Request) -> Response:
        found = await seat_of(request.path_params["token"])
        if found is None:
            return night.no_seat(request)
        table, seat = found
        return JSONResponse(
            _state(table, seat, night.language(request), wait_limit, night.is_person(table, seat))
        )

    @_answering(404)
    async def seat_events(request: Request) -> Response:
        found = await seat_of(request.path_params["token"])
        if found is None:
            return night.no_seat(request)
        return _events(server, request, *found, night.language(request), night)

    @_answering(409)
    async def seat_move(request: Request) -> Response:
        found = await seat_of(request.path_params["token"])
        if found is None:
            return night.no_seat(request)
        table, seat = found
        move = request.path_params["move"]
        if move not in _MOVES:
            return _error(404, f"no such move; moves are {', '.join(_MOVES)}")
        body = await _body(request)
        amount = None
        if move == "bid":
            amount = body.get("amount")
            what = f"a bid is a whole number from 0 to {MAX_BID}"
            if isinstance(amount, str):
                amount = whole_number(amount, what)
            if type(amount) is not int or not 0 <= amount <= MAX_BID:
                raise InvalidArgument(f"{what}, got {shown(amount)}")
        version = body.get("version")
        if isinstance(version, str):
            version = whole_number(version, "version is the version of the game the move answers")
        lang = night.language(request)
        night.check_move(table, seat, move, amount, version, lang)
        try:
            await server.play(table, seat, move, amount, version=version)
        except StaleMove:  # the game moved on while the move waited for its turn
            night.check_move(table, seat, move, amount, version, lang)
            raise
        return JSONResponse(_state(table, seat, lang, wait_limit, night.is_person(table, seat)))

    @_answering(404)
    async def public_state(request: Request) -> Response:
        table = await watched(request.path_params["table"])
        if table is None:
            return _error(404, "no table has this spectator link")
        return JSONResponse(_state(table, None, night.language(request), wait_limit, False))

    @_answering(404)
    async def public_events(request: Request) -> Response:
        table = await watched(request.path_params["table"])
        if table is None:
            return _error(404, "no table has this spectator link")
        return _events(server, request, table, None, night.language(request), night)

    @_answering(409)
    async def record(request: Request) -> Response:
        if "token" in request.path_params:
            found = await seat_of(request.path_params["token"])
            table = None if found is None else found[0]
        else:
            table = await watched(request.path_params["table"])
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

    async def server_error(request: Request, error: Exception) -> Response:
        # Starlette answers an unexpected error outside the guard: the headers are set here.
        response = _error(500, "the server failed to answer this request; it goes on serving")
        _secured(response.headers)
        return response

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
        exception_handlers={HTTPException: http_error, Exception: server_error},
        lifespan=lifespan,
    )
    app.router.redirect_slashes = False  # a redirect would name the Host header's host
    app.add_middleware(_Guard, hosts=hosts, base=parts.netloc.lower())
    app.state.tables = server
    return app


@functools.cache
def _rulebook_css() -> str:
    return rulebook_stylesheet()


def _events(
    server: TableServer,
    request: Request,
    table: Table,
    seat: int | None,
    lang: str,
    night: GameNight,
) -> Response:
    """A page's stream, or 429 when its client has as many live pages as it may."""
    client = _client(request)
    most = server.limits.streams_per_client
    if most and server.streams[client] >= most:
        return _error(429, f"at most {most} live pages from one address; close one", retry_after=10)
    person = seat is not None and night.is_person(table, seat)
    return _Counted(
        server.streams,
        client,
        _stream(server, table, seat, lang, person),
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


def server_config(
    app: Starlette,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    trust_proxy: Sequence[str] = (),
    log_level: str = "info",
) -> Any:
    """The ``uvicorn.Config`` that serves ``app`` with the limits of its server
    (``app.state.tables.limits``): uvicorn's own keep-alive timeout, and the bounds of
    :mod:`qe_rules.apps.web_connections` (request deadlines, connections per address
    and in all, within the file limit). ``trust_proxy`` are the addresses (or networks)
    of reverse proxies whose ``X-Forwarded-For`` names the client; nobody else's is
    read."""
    import uvicorn

    limits: WebLimits = app.state.tables.limits
    networks = trusted_networks(trust_proxy)
    most = limits.max_connections or 100_000
    budget = connection_budget(most)
    if budget < most:
        _log.warning(
            "the file limit allows %d connections, not %d (--max-connections); raise it "
            "with ulimit -n or LimitNOFILE=",
            budget,
            most,
        )
    counts = ConnectionCounts(budget, limits.connections_per_client, networks)
    app.state.connections = counts
    protocol = bounded_protocol(
        counts, head_timeout=limits.head_timeout, body_timeout=limits.body_timeout
    )
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=protocol,
        log_config=None,
        log_level=log_level,
        access_log=False,
        server_header=False,
        proxy_headers=bool(networks),
        forwarded_allow_ips=[str(n) for n in networks] or "",
        timeout_graceful_shutdown=3,
        backlog=BACKLOG,
    )


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
    trust_proxy: Sequence[str] = (),
    log_level: str = "info",
) -> None:
    """Run the web table with uvicorn until interrupted. Ctrl-C ends the pages' streams
    and stops within seconds; then ``KeyboardInterrupt`` is raised. ``base_url`` defaults
    to ``http://HOST:PORT/``; ``trust_proxy`` (addresses or networks) reads the client's
    address from ``X-Forwarded-For`` when a reverse proxy at one of them sends the
    request."""
    import uvicorn

    logging.basicConfig(
        level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    repeats = RepeatFilter()
    for name in ("uvicorn.error", "asyncio"):  # a flood of one warning: a line every 10 s
        logging.getLogger(name).addFilter(repeats)
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

    config = server_config(app, host=host, port=port, trust_proxy=trust_proxy, log_level=log_level)
    _Server(config).run()
