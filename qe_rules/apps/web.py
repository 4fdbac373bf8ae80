"""A web table: play QE in a browser, one private page per seat (``qe-rules serve``).

Needs the optional extra ``[web]`` (Starlette and uvicorn). A host creates a table (rule
set, player count, and for each seat a person or a built-in agent) and receives one
private link per seat, each an unguessable token, and a spectator link. A seat's page
receives only what is made from that seat's view and event stream, and a spectator's only
what is made from the public view (:func:`payload`). Pages update live over server-sent
events. Tables are stored in SQLite as game records, so a restarted server carries on
with them.

>>> import qe_rules as qe
>>> game = qe.new_game("en", 4, seed=1)
>>> sorted(payload(game.view(2), game.events_for(2), version=0))  # doctest: +NORMALIZE_WHITESPACE
['board', 'lang', 'log', 'log_kinds', 'names', 'picture', 'record', 'standings',
 'status', 'summary', 'totals', 'turn', 'version', 'view']
"""

from __future__ import annotations

import asyncio
import functools
import json
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any, Final
from urllib.parse import parse_qsl

import attrs
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route

from qe_rules._util.i18n import DEFAULT_LANGUAGE
from qe_rules.apps.lobby import GameNight
from qe_rules.apps.panels import panel_data
from qe_rules.apps.table_rules import RuleChoices, load_ruleset_choice
from qe_rules.errors import InvalidArgument, RulesError, shown
from qe_rules.game.engine import Game, new_game, replay
from qe_rules.game.events import (
    Event,
)
from qe_rules.game.views import Phase, PlayerView, PublicView
from qe_rules.limits import MAX_BID, MAX_TEXT_LENGTH
from qe_rules.present import svg
from qe_rules.present.text import event_line, seat_name, zero_bids_score
from qe_rules.rules.model import RULESETS, RuleSet, get_ruleset
from qe_rules.simulation.agents import AGENT_NAMES, Agent, agent_factory
from qe_rules.texts.rulebooks import rulebook_stylesheet

__all__ = [
    "PERSON",
    "Table",
    "TableServer",
    "create_app",
    "event_line",
    "payload",
    "serve",
]

PERSON: Final = "person"
"""The seat kind of a seat played by a person through its private link."""

_STATIC: Final = resources.files("qe_rules.apps") / "web_static"
_KEEPALIVE_SECONDS: Final = 15.0
_MOVES: Final = ("bid", "peek", "decline-peek")
_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    host TEXT NOT NULL UNIQUE,
    seats TEXT NOT NULL,
    record TEXT NOT NULL,
    created REAL NOT NULL
)
"""


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


# --------------------------------------------------------------------------- tables


def _token() -> str:
    return secrets.token_urlsafe(18)


@attrs.define(eq=False)
class Table:
    """One game at the server: its seats (a person's private token, or an agent's name),
    the host's token, the spectators' id, and the game. ``version`` counts the game's
    moves; ``changed`` wakes the pages waiting for a move."""

    id: str
    host: str
    kinds: tuple[str, ...]
    tokens: tuple[str | None, ...]
    game: Game
    agents: tuple[Agent | None, ...]
    version: int = 0
    changed: asyncio.Event = attrs.field(factory=asyncio.Event)
    bots: asyncio.Task[None] | None = None  # the agents' moves, while the game waits for them
    # The last payload made for each seat (None: the spectators) and language, with its version.
    rendered: dict[tuple[int | None, str], tuple[int, dict[str, Any]]] = attrs.field(factory=dict)
    names: tuple[str, ...] = ()  # what the seats are called (qe_rules.apps.lobby)

    def bots_to_act(self) -> list[int]:
        """The seats played by agents that the game waits for."""
        return [s for s in sorted(self.game.to_act) if self.agents[s] is not None]


def _agents(kinds: Sequence[str], game: Game, seed: int) -> tuple[Agent | None, ...]:
    return tuple(
        None if kind == PERSON else agent_factory(kind, ruleset=game.ruleset)(seed * 8 + seat)
        for seat, kind in enumerate(kinds)
    )


class TableServer:
    """The tables of one server, kept in memory and stored in SQLite at ``database``
    (``":memory:"`` keeps nothing). Agents wait ``bot_delay`` seconds before each move."""

    def __init__(self, database: str, *, bot_delay: float = 0.0) -> None:
        self.database = database
        self.bot_delay = bot_delay
        # One event loop uses the connection; other threads (tests, tools) may read it.
        self.connection = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
        self.connection.execute("PRAGMA journal_mode=WAL")
        self.connection.execute("PRAGMA synchronous=NORMAL")
        self.connection.execute(_SCHEMA)
        self.tables: dict[str, Table] = {}
        self.hosts: dict[str, Table] = {}
        self.seats: dict[str, tuple[Table, int]] = {}
        self.load()

    # ----------------------------------------------------------------- storage

    def load(self) -> None:
        """Read every stored table back, replaying its record."""
        rows = self.connection.execute("SELECT id, host, seats, record FROM tables").fetchall()
        for table_id, host, seats_text, record_text in rows:
            seats = json.loads(seats_text)
            record = json.loads(record_text)
            game = replay(record)
            kinds = tuple(str(seat["kind"]) for seat in seats)
            table = Table(
                id=table_id,
                host=host,
                kinds=kinds,
                tokens=tuple(seat["token"] for seat in seats),
                game=game,
                agents=_agents(kinds, game, int(seats[0]["seed"])),
                version=len(record["moves"]),
            )
            self._index(table)

    def _index(self, table: Table) -> None:
        self.tables[table.id] = table
        self.hosts[table.host] = table
        for seat, token in enumerate(table.tokens):
            if token is not None:
                self.seats[token] = (table, seat)

    def _store(self, table: Table, *, seed: int | None = None) -> None:
        record = json.dumps(table.game.to_record())
        if seed is None:
            self.connection.execute("UPDATE tables SET record = ? WHERE id = ?", (record, table.id))
            return
        seats = [
            {"kind": kind, "token": token, "seed": seed}
            for kind, token in zip(table.kinds, table.tokens, strict=True)
        ]
        self.connection.execute(
            "INSERT INTO tables (id, host, seats, record, created) VALUES (?, ?, ?, ?, ?)",
            (table.id, table.host, json.dumps(seats), record, time.time()),
        )

    # ----------------------------------------------------------------- tables

    def create(self, ruleset: str | RuleSet, players: int, kinds: Sequence[str]) -> Table:
        """Deal a new table under a built-in rule set's id or a rule set; ``kinds`` has one
        entry per seat, :data:`PERSON` or an agent name. Raises
        :class:`~qe_rules.InvalidArgument` naming what is wrong."""
        if isinstance(ruleset, RuleSet):
            rules = ruleset
        elif not isinstance(ruleset, str) or ruleset not in RULESETS:
            raise InvalidArgument(
                f"unknown rule set {shown(ruleset)}; rule sets are {', '.join(RULESETS)}"
            )
        else:
            rules = get_ruleset(ruleset)
        if players not in rules.player_counts:
            new_game(rules, players)  # raises the engine's message
        kinds = list(kinds)
        if len(kinds) != players:
            raise InvalidArgument(f"give one seat kind per player ({players}), got {len(kinds)}")
        allowed = (PERSON, *AGENT_NAMES)
        for seat, kind in enumerate(kinds):
            if kind not in allowed:
                raise InvalidArgument(
                    f"seat {seat}: {shown(kind)} is not a seat kind; kinds are {', '.join(allowed)}"
                )
        seed = secrets.randbits(31)
        game = new_game(rules, players, seed=seed)
        table = Table(
            id=_token(),
            host=_token(),
            kinds=tuple(kinds),
            tokens=tuple(_token() if kind == PERSON else None for kind in kinds),
            game=game,
            agents=_agents(kinds, game, seed),
        )
        self._store(table, seed=seed)
        self._index(table)
        self.wake_bots(table)
        return table

    def commit(self, table: Table, game: Game) -> None:
        """Make ``game`` the table's game: store it, then wake the pages."""
        table.game = game
        table.version += 1
        self._store(table)
        woken, table.changed = table.changed, asyncio.Event()
        woken.set()
        self.wake_bots(table)

    def move(self, table: Table, seat: int, action: str, amount: Any = None) -> None:
        """A person's move: ``bid`` (with ``amount``), ``peek`` or ``decline-peek``. Raises
        a :class:`~qe_rules.RulesError` and changes nothing when the move is not legal."""
        game = table.game
        if action == "bid":
            if type(amount) is not int:
                raise InvalidArgument(
                    f"a bid is a whole number from 0 to {MAX_BID}, got {shown(amount)}"
                )
            if not 0 <= amount <= MAX_BID:
                raise InvalidArgument(f"a bid is a whole number from 0 to {MAX_BID}, got {amount}")
            after = game.bid(seat, amount)
        elif action == "peek":
            after = game.peek(seat)
        elif action == "decline-peek":
            after = game.decline_peek(seat)
        else:  # the routes name only the three moves
            raise InvalidArgument(f"unknown move {action!r}; moves are bid, peek, decline-peek")
        self.commit(table, after)

    def wake_bots(self, table: Table) -> None:
        """Start the table's agents if the game waits for one of them."""
        if (table.bots is not None and not table.bots.done()) or not table.bots_to_act():
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # no loop yet (loading at start): the app's startup wakes them
            return
        table.bots = asyncio.create_task(self._play_bots(table))

    async def _play_bots(self, table: Table) -> None:
        """Let the agents make their moves one by one, as people would."""
        while True:
            await asyncio.sleep(self.bot_delay)
            due = table.bots_to_act()
            if not due:
                return
            game = table.game
            seat = due[0]
            agent = table.agents[seat]
            assert agent is not None
            view = game.view(seat)
            if game.phase is Phase.PEEKING:
                after = game.peek(seat) if agent.wants_peek(view) else game.decline_peek(seat)
            else:
                after = game.bid(seat, agent.bid(view))
            self.commit(table, after)

    def close(self) -> None:
        """Close the database."""
        self.connection.close()


# --------------------------------------------------------------------------- web


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _page(name: str) -> str:
    return (_STATIC / name).read_text(encoding="utf-8")


def _render(table: Table, seat: int | None, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The payload of ``seat``'s page, or the spectators' (``None``), in ``lang``, made
    once a move."""
    cached = table.rendered.get((seat, lang))
    if cached is not None and cached[0] == table.version:
        return cached[1]
    game = table.game
    custom = None if RULESETS.get(game.ruleset.id) == game.ruleset else game.ruleset
    words: dict[str, Any] = {"lang": lang, "names": table.names, "ruleset": custom}
    if seat is None:
        data = payload(game.public_view(), game.public_events(), version=table.version, **words)
    else:
        data = payload(game.view(seat), game.events_for(seat), version=table.version, **words)
    table.rendered[(seat, lang)] = (table.version, data)
    return data


async def _stream(table: Table, seat: int | None, lang: str) -> AsyncIterator[str]:
    """Server-sent events: the payload now, then after every move until the game ends."""
    while True:
        changed = table.changed
        data = _render(table, seat, lang)
        yield f"id: {data['version']}\nevent: state\ndata: {json.dumps(data)}\n\n"
        if table.game.is_over:
            return
        while not changed.is_set():
            try:
                await asyncio.wait_for(changed.wait(), _KEEPALIVE_SECONDS)
            except TimeoutError:
                yield ": keep-alive\n\n"


def _events(table: Table, seat: int | None, lang: str) -> StreamingResponse:
    return StreamingResponse(
        _stream(table, seat, lang),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


async def _body(request: Request) -> dict[str, Any]:
    """A request's JSON object, or its form fields; raises InvalidArgument."""
    chunks, size = [], 0
    async for chunk in request.stream():  # read no more than the limit
        size += len(chunk)
        if size > MAX_TEXT_LENGTH:
            raise InvalidArgument(f"the request body is over {MAX_TEXT_LENGTH} bytes")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if request.headers.get("content-type", "").startswith("application/json"):
        try:
            data = json.loads(raw) if raw else {}
        except ValueError as error:
            raise InvalidArgument(f"the request body is not JSON: {error}") from None
        if not isinstance(data, dict):
            raise InvalidArgument("the request body must be a JSON object")
        return data
    if request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        try:
            return dict(parse_qsl(raw.decode("utf-8"), max_num_fields=64))
        except (UnicodeDecodeError, ValueError) as error:
            raise InvalidArgument(f"the form is malformed: {error}") from None
    if not raw:
        return {}
    raise InvalidArgument("send a JSON object (Content-Type: application/json) or a form")


def create_app(
    database: str = "qe-tables.sqlite3",
    *,
    bot_delay: float = 0.0,
    ruleset: str | RuleSet = "en",
    players: int = 4,
) -> Starlette:
    """The web application; ``ruleset`` and ``players`` are the defaults of the host's
    form, and a ``ruleset`` that is no built-in one (a rule set, a spec string or a file)
    is offered beside them. ``app.state.tables`` is its :class:`TableServer`."""
    server = TableServer(database, bot_delay=bot_delay)
    extra = [] if isinstance(ruleset, str) and ruleset in RULESETS else [ruleset]
    choices = RuleChoices.of(extra)
    default = ruleset if isinstance(ruleset, str) and ruleset in RULESETS else None
    if default is None:
        default = choices.key_of(
            load_ruleset_choice(ruleset) if isinstance(ruleset, str) else ruleset
        )
    night = GameNight(
        server,
        choices,
        default_ruleset=default or "en",
        players=players,
        read_page=_page,
        read_body=_body,
    )

    def seat_from(request: Request) -> tuple[Table, int] | None:
        return server.seats.get(request.path_params["token"])

    async def create(request: Request) -> Response:
        try:
            table = server.tables[night.create(await _body(request)).id]
        except RulesError as error:
            return _error(400, str(error))
        if request.headers.get("content-type", "").startswith("application/json"):
            return JSONResponse(_links(table), status_code=201)
        return RedirectResponse(f"/host/{table.host}", status_code=303)

    async def seat_page(request: Request) -> Response:
        found = seat_from(request)
        if found is None:
            return _error(404, "no seat has this link")
        return night.table_page(request, *found)

    async def watch_page(request: Request) -> Response:
        table = server.tables.get(request.path_params["table"])
        if table is None:
            return _error(404, "no table has this spectator link")
        return night.table_page(request, table, None)

    async def seat_state(request: Request) -> Response:
        found = seat_from(request)
        if found is None:
            return _error(404, "no seat has this link")
        return JSONResponse(_render(*found, night.language(request)))

    async def seat_events(request: Request) -> Response:
        found = seat_from(request)
        if found is None:
            return _error(404, "no seat has this link")
        return _events(*found, night.language(request))

    async def seat_move(request: Request) -> Response:
        found = seat_from(request)
        if found is None:
            return _error(404, "no seat has this link")
        table, seat = found
        if request.path_params["move"] not in _MOVES:
            return _error(404, f"no such move; moves are {', '.join(_MOVES)}")
        try:
            data = await _body(request) if request.path_params["move"] == "bid" else {}
            amount = data.get("amount")
            if isinstance(amount, str) and amount.strip().isdigit():
                amount = int(amount.strip()[: len(str(MAX_BID)) + 1])
            server.move(table, seat, request.path_params["move"], amount)
        except RulesError as error:
            return _error(409, str(error))
        return JSONResponse(_render(table, seat, night.language(request)))

    async def public_state(request: Request) -> Response:
        table = server.tables.get(request.path_params["table"])
        if table is None:
            return _error(404, "no table has this spectator link")
        return JSONResponse(_render(table, None, night.language(request)))

    async def public_events(request: Request) -> Response:
        table = server.tables.get(request.path_params["table"])
        if table is None:
            return _error(404, "no table has this spectator link")
        return _events(table, None, night.language(request))

    async def record(request: Request) -> Response:
        table = server.tables.get(request.path_params.get("table", ""))
        found = seat_from(request) if "token" in request.path_params else None
        if found is not None:
            table = found[0]
        if table is None:
            return _error(404, "no table has this link")
        if not table.game.is_over:
            return _error(409, "the record holds every secret bid: it is ready when the game ends")
        return JSONResponse(
            table.game.to_record(metadata={"event": "qe-rules web table"}),
            headers={"Content-Disposition": f'attachment; filename="qe-{table.id[:8]}.json"'},
        )

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        types = {
            "table.js": "text/javascript",
            "host.js": "text/javascript",
            "table.css": "text/css",
            "favicon.svg": "image/svg+xml",
            "favicon-turn.svg": "image/svg+xml",
        }
        if name == "rulebook.css":
            return Response(rulebook_stylesheet(), media_type="text/css")
        if name not in types:
            return _error(404, "no such file")
        return Response(_page(name), media_type=types[name])

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for table in server.tables.values():
            server.wake_bots(table)
        yield
        server.close()

    app = Starlette(
        routes=[
            *night.routes(),
            Route("/", night.index),
            Route("/tables", create, methods=["POST"]),
            Route("/api/tables", create, methods=["POST"]),
            Route("/host/{token}", night.host),
            Route("/seat/{token}", seat_page),
            Route("/watch/{table}", watch_page),
            Route("/api/seat/{token}/state", seat_state),
            Route("/api/seat/{token}/events", seat_events),
            Route("/api/seat/{token}/record", record, name="seat_record"),
            Route("/api/seat/{token}/{move:str}", seat_move, methods=["POST"]),
            Route("/api/watch/{table}/state", public_state),
            Route("/api/watch/{table}/events", public_events),
            Route("/api/watch/{table}/record", record),
            Route("/static/{name}", static),
        ],
        lifespan=lifespan,
    )
    app.state.tables = server
    return app


def _links(table: Table) -> dict[str, Any]:
    return {
        "table": table.id,
        "host": f"/host/{table.host}",
        "watch": f"/watch/{table.id}",
        "seats": [None if token is None else f"/seat/{token}" for token in table.tokens],
    }


def serve(
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    database: str = "qe-tables.sqlite3",
    ruleset: str | RuleSet = "en",
    players: int = 4,
    bot_delay: float = 0.5,
) -> None:
    """Run the web table with uvicorn until interrupted."""
    import uvicorn

    app = create_app(database, bot_delay=bot_delay, ruleset=ruleset, players=players)
    uvicorn.run(app, host=host, port=port, log_level="warning")
