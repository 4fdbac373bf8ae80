"""A web table: play QE in a browser, one private page per seat (``qe-rules serve``).

Needs the optional extra ``[web]`` (Starlette and uvicorn). A host creates a table (rule
set, player count, and for each seat a person or a built-in agent) and receives one
private link per seat, each an unguessable token, and a spectator link (the tables and
their server: :mod:`qe_rules.apps.web_tables`). A seat's page
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
['away', 'bid_help', 'board', 'lang', 'log', 'log_kinds', 'names', 'peek_question', 'picture',
 'record', 'revision', 'standings', 'status', 'summary', 'totals', 'turn', 'version', 'view']
"""

from __future__ import annotations

import asyncio
import collections
import functools
import json
import logging
import signal
import socket
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, Final, cast
from urllib.parse import parse_qsl, urlsplit

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

from qe_rules._util.i18n import DEFAULT_LANGUAGE, gettext_for, languages, negotiate
from qe_rules.apps.lobby import GameNight, MoveRefused, StaleMove, whole_number
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
from qe_rules.apps.web_keys import checked_amount
from qe_rules.apps.web_store import DatabaseUnusable, StorageUnavailable
from qe_rules.apps.web_tables import PERSON, LimitReached, Table, TableServer, WebLimits
from qe_rules.errors import InvalidArgument, RulesError, shown
from qe_rules.game.events import Event
from qe_rules.game.views import PlayerView, PublicView
from qe_rules.limits import MAX_BID, MAX_TEXT_LENGTH
from qe_rules.present import svg
from qe_rules.present.text import error_text, event_line, zero_bids_score
from qe_rules.rules.model import RULESETS, RuleSet
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

_log = logging.getLogger("qe_rules.apps.web")
_KEEPALIVE_SECONDS: Final = 15.0
_STREAM_PAUSE: Final = 0.2  # the least time between two messages of a page's stream
_MOVES: Final = ("bid", "peek", "decline-peek")
_LOCAL_HOSTS: Final = frozenset({"localhost", "127.0.0.1", "::1"})


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
    server: TableServer,
    table: Table,
    seat: int | None,
    lang: str,
    person: bool,
    token: str | None = None,
) -> AsyncIterator[str]:
    """Server-sent events: the payload now, then after every move and every change of
    the table's names or players, until the game ends (or the table expires, or the
    server stops, or the seat's ``token`` is replaced by a new link)."""
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
        if token is not None and server.seats.get(token) != (table.id, seat):
            return  # the seat has a new link: its old holder sees no more
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
    text = str(error) if isinstance(error, MoveRefused) else error_text(error, lang=lang)
    return _error(refused, text, error=error)  # MoveRefused: already in the reader's words


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
            amount = checked_amount(seat, amount)
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
        _stream(server, table, seat, lang, person, request.path_params.get("token")),
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
    trust_proxy: Sequence[str] | str = (),
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
    if isinstance(trust_proxy, str):  # "a, b" as on the command line
        trust_proxy = trust_proxy.split(",")
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
        forwarded_allow_ips=[_address_or_network(n) for n in networks] or "",
        timeout_graceful_shutdown=3,
        backlog=BACKLOG,
    )


def _address_or_network(network: Any) -> str:
    """A network as uvicorn reads it: a single address as the address alone."""
    if network.prefixlen == network.max_prefixlen:
        return str(network.network_address)
    return str(network)


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
    trust_proxy: Sequence[str] | str = (),
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
        interrupted = False

        def handle_exit(self, sig: int, frame: Any) -> None:
            self.interrupted = self.interrupted or sig == signal.SIGINT
            loop = tables._loop
            if loop is not None:
                loop.call_soon_threadsafe(tables.end_streams)
            super().handle_exit(sig, frame)

    config = server_config(app, host=host, port=port, trust_proxy=trust_proxy, log_level=log_level)
    server = _Server(config)
    server.run()
    # uvicorn raises the signal again once shut down, but asyncio's runner may take it as a
    # cancellation of a task that has just ended, and return: Ctrl-C is an interruption
    if server.interrupted:
        raise KeyboardInterrupt
