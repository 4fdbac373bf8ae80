"""People at the web tables: names, the lobby of open tables, joining by link, rematches,
the pages' language and the rules help (``qe-rules serve``).

A host names the table and each seat; a table may be listed in the lobby (``/lobby``),
where anyone may take one of its person seats that nobody has opened yet, giving a name.
At the end any seat may start a rematch: a new table with the same rule set, seats and
names, whose seats go to the same people (each finds its new link on its old page).

Pages are HTML templates in ``web_static`` whose texts are msgids written ``{{...}}``,
replaced by the catalog of the reader's language (:func:`translate_page`). The language is
the request's ``?lang=``, else the ``qe_lang`` cookie, else ``Accept-Language``.

>>> translate_page("<p>{{Bid}}</p>", "de")
'<p>Gebot</p>'
"""

from __future__ import annotations

import html
import json
import re
import sqlite3
import unicodedata
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Final, Protocol

import attrs
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from qe_rules._util.i18n import LANGUAGES, gettext_for, negotiate
from qe_rules.apps.table_rules import RuleChoices, describe_ruleset, rules_help
from qe_rules.errors import InvalidArgument, RulesError, shown
from qe_rules.game.engine import Game
from qe_rules.rules.model import RuleSet
from qe_rules.simulation.agents import AGENT_NAMES


class Table(Protocol):
    """What the lobby uses of a table (:class:`qe_rules.apps.web.Table`)."""

    id: str
    host: str
    kinds: tuple[str, ...]
    tokens: tuple[str | None, ...]
    game: Game
    names: tuple[str, ...]
    rendered: dict[Any, Any]


class TableServer(Protocol):
    """What the lobby uses of the server (:class:`qe_rules.apps.web.TableServer`)."""

    connection: sqlite3.Connection

    @property
    def tables(self) -> Mapping[str, Table]: ...

    @property
    def hosts(self) -> Mapping[str, Table]: ...

    @property
    def seats(self) -> Mapping[str, tuple[Table, int]]: ...

    def create(self, ruleset: RuleSet, players: int, kinds: Sequence[str]) -> Table: ...


__all__ = [
    "AGENT_LEVELS",
    "MAX_NAME_LENGTH",
    "GameNight",
    "Seating",
    "Table",
    "TableServer",
    "check_name",
    "translate_page",
]

MAX_NAME_LENGTH: Final = 24
"""The longest name of a table or a seat, in characters."""

AGENT_LEVELS: Final[tuple[tuple[str, str], ...]] = (
    ("random", "beginner: bids at random"),
    ("value", "steady: bids what the tile is worth to it"),
    ("trained", "strong: a trained agent"),
    ("zero", "always bids zero (for trying the rules)"),
)
"""The agents a host may seat, weakest first, with the line describing each; a level
whose agent this installation lacks (``trained``) is left out of the form."""

_PERSON: Final = "person"
_COOKIE: Final = "qe_lang"
_MARK: Final = re.compile(r"\{\{(.+?)\}\}", re.DOTALL)
_SCHEMA: Final = "CREATE TABLE IF NOT EXISTS seating (id TEXT PRIMARY KEY, data TEXT NOT NULL)"


def translate_page(template: str, lang: str) -> str:
    """``template`` with every ``{{msgid}}`` replaced by its escaped text in ``lang``."""
    translate = gettext_for(lang)
    return _MARK.sub(lambda m: html.escape(translate(" ".join(m.group(1).split()))), template)


def check_name(value: object, what: str = "a name") -> str:
    """A name as typed: stripped, at most :data:`MAX_NAME_LENGTH` characters, no control
    characters; raises :class:`~qe_rules.InvalidArgument` otherwise."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InvalidArgument(f"{what} is text, got {shown(value)}")
    name = " ".join(unicodedata.normalize("NFC", value).split())
    if len(name) > MAX_NAME_LENGTH:
        raise InvalidArgument(f"{what} has at most {MAX_NAME_LENGTH} characters, got {len(name)}")
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise InvalidArgument(f"{what} may not hold control characters")
    return name


@attrs.define
class Seating:
    """Who sits at a table: its name, the seats' names, whether the lobby lists it, the
    seats whose page has been opened (taken), and the table of its rematch."""

    title: str = ""
    names: list[str] = attrs.field(factory=list)
    listed: bool = False
    taken: set[int] = attrs.field(factory=set)
    rematch: str | None = None

    def to_json(self) -> str:
        """The seating as stored."""
        return json.dumps(
            {
                "title": self.title,
                "names": self.names,
                "listed": self.listed,
                "taken": sorted(self.taken),
                "rematch": self.rematch,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> Seating:
        """Read :meth:`to_json` back."""
        data = json.loads(text)
        return cls(
            title=str(data.get("title", "")),
            names=[str(n) for n in data.get("names", [])],
            listed=bool(data.get("listed", False)),
            taken={int(s) for s in data.get("taken", [])},
            rematch=data.get("rematch"),
        )


def _levels() -> list[tuple[str, str]]:
    known = [(name, line) for name, line in AGENT_LEVELS if name in AGENT_NAMES]
    known += [(name, name) for name in AGENT_NAMES if name not in dict(AGENT_LEVELS)]
    return known


class GameNight:
    """The people's side of a :class:`~qe_rules.apps.web.TableServer`: the host's form and
    page, the lobby, joining, names, rematches, the table pages and their rules help."""

    def __init__(
        self,
        server: TableServer,
        choices: RuleChoices,
        *,
        default_ruleset: str,
        players: int,
        read_page: Callable[[str], str],
        read_body: Callable[[Request], Awaitable[dict[str, Any]]],
    ) -> None:
        self.server = server
        self.choices = choices
        self.default_ruleset = default_ruleset
        self.players = players
        self.read_page = read_page
        self.read_body = read_body
        self.seating: dict[str, Seating] = {}
        server.connection.execute(_SCHEMA)
        for table_id, text in server.connection.execute("SELECT id, data FROM seating"):
            if table_id in server.tables:
                self.seating[table_id] = Seating.from_json(text)
                server.tables[table_id].names = tuple(self.seating[table_id].names)

    # ----------------------------------------------------------------- data

    def seating_of(self, table: Table) -> Seating:
        """The table's seating (an empty one for a table made without names)."""
        return self.seating.setdefault(table.id, Seating(names=[""] * table.game.players))

    def store(self, table: Table) -> None:
        """Keep the table's seating, and give its names to its pages."""
        seating = self.seating_of(table)
        table.names = tuple(seating.names) if any(seating.names) else ()
        table.rendered.clear()
        self.server.connection.execute(
            "INSERT OR REPLACE INTO seating (id, data) VALUES (?, ?)",
            (table.id, seating.to_json()),
        )

    def create(self, data: dict[str, Any]) -> Table:
        """A table from the host's form or JSON: ``ruleset`` (a key of the choices or a
        spec string), ``players``, ``seats`` (kinds; or form fields ``seat0``, ...),
        ``names`` (or ``name0``, ...), ``title`` and ``listed``."""
        wanted = data.get("players", self.players)
        count = int(wanted) if isinstance(wanted, str) and wanted.isdigit() else wanted
        if type(count) is not int or not 1 <= count <= 8:
            raise InvalidArgument(f"players is a whole number of players, got {shown(wanted)}")
        kinds = data.get("seats")
        if kinds is None:  # the form: seat0, seat1, ...
            kinds = [data.get(f"seat{s}", _PERSON) for s in range(count)]
        if not isinstance(kinds, list):
            raise InvalidArgument("seats must be a list of seat kinds")
        names = data.get("names")
        if names is None:
            names = [data.get(f"name{s}", "") for s in range(count)]
        if not isinstance(names, list) or len(names) != count:
            raise InvalidArgument(f"names must be a list of {count} names")
        checked = [check_name(n, f"the name of seat {s + 1}") for s, n in enumerate(names)]
        title = check_name(data.get("title", ""), "the table's name")
        listed = data.get("listed") in (True, "on", "1", "true", "yes")
        spec = data.get("spec")
        choice = spec if isinstance(spec, str) and spec.strip() else data.get("ruleset")
        ruleset = self.choices.resolve(choice if choice is not None else self.default_ruleset)
        table = self.server.create(ruleset, count, kinds)
        self.seating[table.id] = Seating(title=title, names=checked, listed=listed)
        self.store(table)
        return table

    def free_seats(self, table: Table) -> list[int]:
        """The person seats of a table nobody has opened yet."""
        taken = self.seating_of(table).taken
        return [s for s, token in enumerate(table.tokens) if token and s not in taken]

    def take(self, table: Table, seat: int) -> None:
        """Mark a seat as taken (its page was opened)."""
        seating = self.seating_of(table)
        if seat not in seating.taken:
            seating.taken.add(seat)
            self.store(table)

    def rename(self, table: Table, seat: int, name: object) -> None:
        """A person names their own seat."""
        seating = self.seating_of(table)
        seating.names[seat] = check_name(name)
        self.store(table)

    def rematch(self, table: Table) -> Table:
        """The table's rematch, made on first asking: the same rule set, players, seat
        kinds, names and listing, and a new deal."""
        seating = self.seating_of(table)
        if not table.game.is_over:
            raise InvalidArgument("a rematch can start when the game is over")
        if seating.rematch is not None and seating.rematch in self.server.tables:
            return self.server.tables[seating.rematch]
        new = self.server.create(table.game.ruleset, table.game.players, table.kinds)
        self.seating[new.id] = Seating(
            title=seating.title, names=list(seating.names), listed=False, taken=set()
        )
        self.store(new)
        seating.rematch = new.id
        self.store(table)
        return new

    # ----------------------------------------------------------------- pages

    def language(self, request: Request) -> str:
        """The reader's language: ``?lang=``, the cookie, then ``Accept-Language``."""
        asked = request.query_params.get("lang")
        if asked in LANGUAGES:
            return asked
        cookie = request.cookies.get(_COOKIE)
        if cookie in LANGUAGES:
            return cookie
        return negotiate(request.headers.get("accept-language"))

    def page(self, request: Request, name: str, values: dict[str, str]) -> HTMLResponse:
        """A template translated into the reader's language, ``{key}`` replaced by
        ``values`` (already HTML)."""
        lang = self.language(request)
        text = translate_page(self.read_page(name), lang)
        others = " ".join(
            f'<a href="?lang={code}" hreflang="{code}" lang="{code}">{code.upper()}</a>'
            for code in LANGUAGES
            if code != lang
        )
        values = {"lang": lang, "languages": others, **values}
        for key, value in values.items():
            text = text.replace("{" + key + "}", value)
        response = HTMLResponse(text)
        if request.query_params.get("lang") in LANGUAGES:
            response.set_cookie(_COOKIE, lang, max_age=365 * 86400, samesite="lax")
        return response

    async def index(self, request: Request) -> Response:
        """The host's form."""
        lang = self.language(request)
        _ = gettext_for(lang)
        options = "".join(
            f'<option value="{html.escape(key)}"{" selected" if key == self.default_ruleset else ""}>'
            f"{html.escape(key)} · {html.escape(describe_ruleset(rules, lang))}</option>"
            for key, rules in self.choices.rulesets.items()
        )
        kinds = [[_PERSON, _("a person (private link)")]]
        kinds += [[name, _("agent: {level}").format(level=_(line))] for name, line in _levels()]
        form = {
            "kinds": kinds,
            "seat": _("Seat {seat}"),
            "name": _("name"),
        }
        return self.page(
            request,
            "index.html",
            {
                "rulesets": options,
                "players": str(self.players),
                "form": html.escape(json.dumps(form), quote=True),
            },
        )

    async def host(self, request: Request) -> Response:
        """The host's page: one private link per person's seat."""
        table = self.server.hosts.get(request.path_params["token"])
        if table is None:
            return JSONResponse({"error": "no table has this host link"}, status_code=404)
        lang = self.language(request)
        _ = gettext_for(lang)
        seating = self.seating_of(table)
        base = str(request.base_url)
        rows = []
        for seat, (kind, token) in enumerate(zip(table.kinds, table.tokens, strict=True)):
            name = seating.names[seat] or _("seat {seat}").format(seat=seat)
            if token:
                link = f'<a href="/seat/{token}">{html.escape(base)}seat/{token}</a>'
            else:
                link = html.escape(_("played by the server"))
            shown_kind = _("person") if kind == _PERSON else _("agent: {level}").format(level=kind)
            rows.append(
                f"<tr><td>{html.escape(name)}</td><td>{html.escape(shown_kind)}</td><td>{link}</td></tr>"
            )
        listed = ""
        if seating.listed:
            join = f"{base}join/{table.id}"
            listed = (
                html.escape(_("This table is listed in the lobby: free seats can be taken there."))
                + f' <a id="join" href="/join/{table.id}">{html.escape(join)}</a>'
            )
        return self.page(
            request,
            "host.html",
            {
                "title": html.escape(seating.title or _("your table")),
                "ruleset": html.escape(table.game.ruleset.id),
                "players": str(table.game.players),
                "rows": "".join(rows),
                "watch": f"/watch/{table.id}",
                "listed": listed,
            },
        )

    async def lobby(self, request: Request) -> Response:
        """The open tables with free person seats."""
        lang = self.language(request)
        _ = gettext_for(lang)
        items = []
        for table in self.server.tables.values():
            seating = self.seating_of(table)
            free = self.free_seats(table)
            if not seating.listed or not free or table.game.is_over:
                continue
            title = seating.title or _("a table")
            what = _("{ruleset} · {players} players · {free} free seats").format(
                ruleset=table.game.ruleset.id, players=table.game.players, free=len(free)
            )
            items.append(
                f'<li><a href="/join/{table.id}">{html.escape(title)}</a> '
                f'<span class="hint">{html.escape(what)}</span></li>'
            )
        empty = f'<li class="hint">{html.escape(_("No open table has a free seat."))}</li>'
        return self.page(request, "lobby.html", {"tables": "".join(items) or empty})

    async def join(self, request: Request) -> Response:
        """GET: a listed table's free seats; POST ``seat`` and ``name``: take one."""
        table = self.server.tables.get(request.path_params["table"])
        if table is None or not self.seating_of(table).listed:
            return JSONResponse({"error": "no open table has this link"}, status_code=404)
        lang = self.language(request)
        _ = gettext_for(lang)
        free = self.free_seats(table)
        seating = self.seating_of(table)
        if request.method == "POST":
            try:
                data = await self.read_body(request)
                seat_text = str(data.get("seat", ""))
                seat = int(seat_text) if seat_text.isdigit() else -1
                if seat not in free:
                    raise InvalidArgument("that seat is taken or is no person's seat")
                name = check_name(data.get("name", ""))
            except RulesError as error:
                return JSONResponse({"error": str(error)}, status_code=409)
            if name:
                seating.names[seat] = name
            self.take(table, seat)
            return RedirectResponse(f"/seat/{table.tokens[seat]}?lang={lang}", status_code=303)
        options = "".join(
            f'<option value="{s}">{html.escape(seating.names[s] or _("seat {seat}").format(seat=s))}</option>'
            for s in free
        )
        return self.page(
            request,
            "join.html",
            {
                "title": html.escape(seating.title or _("a table")),
                "seats": options,
                "action": f"/join/{table.id}",
            },
        )

    def table_page(self, request: Request, table: Table, seat: int | None) -> Response:
        """A seat's or a spectator's page, with the table's rules help."""
        lang = self.language(request)
        _ = gettext_for(lang)
        if seat is not None:
            self.take(table, seat)
        found = rules_help(table.game.ruleset, lang)
        name = ""
        if seat is not None:
            name = self.seating_of(table).names[seat]
        return self.page(
            request,
            "table.html",
            {
                "rules_title": html.escape(found.title),
                "rulebook": found.article,
                "name": html.escape(name, quote=True),
                "title": html.escape(self.seating_of(table).title),
            },
        )

    async def rename_seat(self, request: Request) -> Response:
        """POST ``{"name": ...}`` to ``/api/seat/TOKEN/name``: the seat's own name."""
        found = self.server.seats.get(request.path_params["token"])
        if found is None:
            return JSONResponse({"error": "no seat has this link"}, status_code=404)
        try:
            data = await self.read_body(request)
            self.rename(*found, data.get("name"))
        except RulesError as error:
            return JSONResponse({"error": str(error)}, status_code=409)
        return JSONResponse({"names": list(self.seating_of(found[0]).names)})

    async def rematch_seat(self, request: Request) -> Response:
        """POST ``/api/seat/TOKEN/rematch``: this seat's link at the table's rematch."""
        found = self.server.seats.get(request.path_params["token"])
        if found is None:
            return JSONResponse({"error": "no seat has this link"}, status_code=404)
        table, seat = found
        try:
            new = self.rematch(table)
        except RulesError as error:
            return JSONResponse({"error": str(error)}, status_code=409)
        return JSONResponse({"seat": f"/seat/{new.tokens[seat]}", "watch": f"/watch/{new.id}"})

    async def rematch_watch(self, request: Request) -> Response:
        """GET ``/api/watch/TABLE/rematch``: the rematch's spectator link, once there is one."""
        table = self.server.tables.get(request.path_params["table"])
        if table is None:
            return JSONResponse({"error": "no table has this link"}, status_code=404)
        rematch = self.seating_of(table).rematch
        return JSONResponse({"watch": None if rematch is None else f"/watch/{rematch}"})

    def routes(self) -> list[Route]:
        """The routes of the people's pages."""
        return [
            Route("/lobby", self.lobby),
            Route("/join/{table}", self.join, methods=["GET", "POST"]),
            Route("/api/seat/{token}/name", self.rename_seat, methods=["POST"]),
            Route("/api/seat/{token}/rematch", self.rematch_seat, methods=["POST"]),
            Route("/api/watch/{table}/rematch", self.rematch_watch),
        ]
