"""People at the web tables: names, the lobby of open tables, joining by link, rematches,
the pages' language and the rules help (``qe-rules serve``).

A host names the table and each seat; a table may be listed in the lobby (``/lobby``),
where anyone may take one of its person seats that nobody has opened yet, giving a name.
At the end any seat may start a rematch: a new table with the same rule set, seats and
names, whose seats go to the same people (each finds its new link on its old page).

Pages are HTML templates in ``web_static`` whose texts are msgids written ``{{...}}``,
replaced by the catalog of the reader's language (:func:`translate_page`). The language is
the request's ``?lang=``, else the ``qe_lang`` cookie, else ``Accept-Language``.

Every route here is served behind the web server's guards (cross-site posts refused,
security headers, one-line JSON errors, the table-creation limits, which a rematch counts
against too). A table's seating is stored in its row of the web table's database
(:meth:`qe_rules.apps.web_store.TableStore.set_seating`); the lobby lists tables from
the seatings and the server's index alone, replaying no game.

>>> translate_page("<p>{{Bid}}</p>", "de")
'<p>Gebot</p>'
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import re
import unicodedata
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Final, Protocol, TypeVar

import attrs
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from qe_rules._util.i18n import gettext_for, languages, negotiate
from qe_rules.apps.table_rules import RuleChoices, describe_ruleset, rules_help
from qe_rules.errors import InvalidArgument, RulesError, shown
from qe_rules.game.engine import Game
from qe_rules.rules.model import RuleSet
from qe_rules.simulation.agents import AGENT_NAMES

_T = TypeVar("_T")
Handler = Callable[[Request], Awaitable[Response]]


class Table(Protocol):
    """What the lobby uses of a table (:class:`qe_rules.apps.web.Table`)."""

    id: str
    host: str
    kinds: tuple[str, ...]
    tokens: tuple[str | None, ...]
    names: tuple[str, ...]
    rendered: dict[Any, Any]

    @property
    def game(self) -> Game: ...


class Entry(Protocol):
    """What the lobby uses of a stored table the server has not replayed: its seats'
    tokens (``None``: an agent's) and whom its game waits for (``"over"`` at the end)."""

    @property
    def tokens(self) -> tuple[str | None, ...]: ...

    @property
    def status(self) -> str | None: ...


class Store(Protocol):
    """What the lobby uses of the storage (:class:`qe_rules.apps.web_store.TableStore`)."""

    def seatings(self) -> dict[str, str]: ...

    def set_seating(self, table_id: str, seating: str) -> None: ...


class TableServer(Protocol):
    """What the lobby uses of the server (:class:`qe_rules.apps.web.TableServer`)."""

    names_of: Callable[[str], tuple[str, ...]]

    @property
    def store(self) -> Store: ...

    @property
    def entries(self) -> Mapping[str, Entry]: ...

    async def table(self, table_id: str) -> Table | None: ...

    async def seat(self, token: str) -> tuple[Table, int] | None: ...

    async def hosted(self, token: str) -> Table | None: ...

    async def open_table(
        self, ruleset: RuleSet, players: int, kinds: Sequence[str], seating: str | None
    ) -> Table: ...

    async def run(self, function: Callable[..., _T], *args: Any) -> _T: ...

    def admit(self, client: str) -> float | None: ...

    def release(self, client: str, admitted: float | None) -> None: ...


__all__ = [
    "AGENT_LEVELS",
    "MAX_NAME_LENGTH",
    "Entry",
    "GameNight",
    "Handler",
    "Seating",
    "Store",
    "Table",
    "TableServer",
    "check_name",
    "translate_page",
    "whole_number",
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
_DIGITS: Final = re.compile(r"[0-9]{1,16}")  # ASCII digits only; longer is no number here


def whole_number(value: object, what: str) -> int:
    """A JSON int, or a text of ASCII digits (other digits, signs and fractions are
    refused, never read as another number); raises :class:`~qe_rules.InvalidArgument`
    saying ``what`` is allowed."""
    if type(value) is int:
        return value
    if isinstance(value, str) and _DIGITS.fullmatch(value.strip(" \t")):
        return int(value.strip(" \t"))
    raise InvalidArgument(f"{what}, got {shown(value)}")


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
    seats whose page has been opened (taken), the table of its rematch, and the rule
    set's id (for the lobby, which replays no game)."""

    title: str = ""
    names: list[str] = attrs.field(factory=list)
    listed: bool = False
    taken: set[int] = attrs.field(factory=set)
    rematch: str | None = None
    ruleset: str = ""

    def to_json(self) -> str:
        """The seating as stored."""
        return json.dumps(
            {
                "title": self.title,
                "names": self.names,
                "listed": self.listed,
                "taken": sorted(self.taken),
                "rematch": self.rematch,
                "ruleset": self.ruleset,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> Seating:
        """Read :meth:`to_json` back."""
        data = json.loads(text)
        rematch = data.get("rematch")
        return cls(
            title=str(data.get("title", "")),
            names=[str(n) for n in data.get("names", [])],
            listed=bool(data.get("listed", False)),
            taken={int(s) for s in data.get("taken", [])},
            rematch=rematch if isinstance(rematch, str) else None,
            ruleset=str(data.get("ruleset", "")),
        )


def _levels() -> list[tuple[str, str]]:
    known = [(name, line) for name, line in AGENT_LEVELS if name in AGENT_NAMES]
    known += [(name, name) for name in AGENT_NAMES if name not in dict(AGENT_LEVELS)]
    return known


class GameNight:
    """The people's side of a :class:`~qe_rules.apps.web.TableServer`: the host's form and
    page, the lobby, joining, names, rematches, the table pages and their rules help.
    ``base`` is the address players reach the server at (the links shown start with it);
    ``error`` makes the one-line JSON error answer."""

    def __init__(
        self,
        server: TableServer,
        choices: RuleChoices,
        *,
        default_ruleset: str,
        players: int,
        base: str,
        read_page: Callable[[str], str],
        read_body: Callable[[Request], Awaitable[dict[str, Any]]],
        error: Callable[[int, str], Response],
    ) -> None:
        self.server = server
        self.choices = choices
        self.default_ruleset = default_ruleset
        self.players = players
        self.base = base
        self.read_page = read_page
        self.read_body = read_body
        self.error = error
        self.seating: dict[str, Seating] = {}
        self._rematching = asyncio.Lock()  # one rematch is made at a time
        self._writing = asyncio.Lock()  # one seating is changed at a time
        for table_id, text in server.store.seatings().items():
            try:
                self.seating[table_id] = Seating.from_json(text)
            except (ValueError, TypeError, AttributeError):
                continue  # a damaged seating: the table plays on without names
        server.names_of = self.names_of

    # ----------------------------------------------------------------- data

    def names_of(self, table_id: str) -> tuple[str, ...]:
        """The seats' names of a table (``()`` when none has a name)."""
        seating = self.seating.get(table_id)
        return tuple(seating.names) if seating is not None and any(seating.names) else ()

    def seating_of(self, table: Table) -> Seating:
        """The table's seating (an empty one for a table made without names)."""
        return self.seating.setdefault(
            table.id, Seating(names=[""] * table.game.players, ruleset=table.game.ruleset.id)
        )

    async def change(self, table: Table, change: Callable[[Seating], Seating]) -> Seating:
        """Store ``change(seating)`` as the table's seating (on the server's storage
        thread), then keep it and give its names to the table's pages; one change at a
        time. A change that raises, or that cannot be stored, changes nothing."""
        async with self._writing:
            seating = change(attrs.evolve(self.seating_of(table)))
            await self.server.run(self.server.store.set_seating, table.id, seating.to_json())
            self.seating[table.id] = seating
            table.names = self.names_of(table.id)
            table.rendered.clear()
            return seating

    def table_request(self, data: dict[str, Any]) -> tuple[RuleSet, int, list[Any], Seating]:
        """What the host's form or JSON asks for, each part checked before any work that
        grows with it: ``ruleset`` (a key of the choices) or ``spec`` (a spec string),
        ``players``, ``seats`` (kinds; or form fields ``seat0``, ...), ``names`` (or
        ``name0``, ...), ``title`` and ``listed``."""
        spec = data.get("spec")
        choice = spec if isinstance(spec, str) and spec.strip() else data.get("ruleset")
        ruleset = self.choices.resolve(choice if choice is not None else self.default_ruleset)
        counts = ", ".join(map(str, ruleset.player_counts))
        count = whole_number(data.get("players", self.players), f"players is one of {counts}")
        if count not in ruleset.player_counts:
            raise InvalidArgument(f"{ruleset.id} is played by {counts} players, not {count}")
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
        seating = Seating(
            title=check_name(data.get("title", ""), "the table's name"),
            names=checked,
            listed=data.get("listed") in (True, "on", "1", "true", "yes"),
            ruleset=ruleset.id,
        )
        return ruleset, count, kinds, seating

    async def create(self, data: dict[str, Any], client: str) -> Table:
        """A table as :meth:`table_request` reads it, counted against ``client``'s limit."""
        ruleset, count, kinds, seating = self.table_request(data)
        return await self._open(client, ruleset, count, kinds, seating)

    async def _open(
        self, client: str, ruleset: RuleSet, players: int, kinds: Sequence[str], seating: Seating
    ) -> Table:
        """A new table and its seating, stored in one write, counted against the limits."""
        admitted = self.server.admit(client)
        try:
            table = await self.server.open_table(ruleset, players, kinds, seating.to_json())
        except BaseException:
            self.server.release(client, admitted)
            raise
        self.seating[table.id] = seating
        table.names = self.names_of(table.id)
        table.rendered.clear()
        return table

    def free_seats(self, table_id: str) -> list[int]:
        """The person seats of a stored table nobody has opened yet."""
        entry = self.server.entries.get(table_id)
        seating = self.seating.get(table_id)
        if entry is None or seating is None:
            return []
        return [s for s, token in enumerate(entry.tokens) if token and s not in seating.taken]

    async def take(self, table: Table, seat: int) -> None:
        """Mark a seat as taken (its page was opened)."""
        if seat not in self.seating_of(table).taken:
            await self.change(table, lambda now: attrs.evolve(now, taken=now.taken | {seat}))

    async def rematch(self, table: Table, client: str) -> Table:
        """The table's rematch, made on first asking (counted against ``client``'s
        limit): the same rule set, players, seat kinds and names, a new deal, unlisted."""
        if not table.game.is_over:
            raise InvalidArgument("a rematch can start when the game is over")
        async with self._rematching:
            seating = self.seating_of(table)
            if seating.rematch is not None:
                found = await self.server.table(seating.rematch)
                if found is not None:
                    return found
            game = table.game
            again = attrs.evolve(seating, listed=False, taken=set(), rematch=None)
            new = await self._open(client, game.ruleset, game.players, table.kinds, again)
            await self.change(table, lambda now: attrs.evolve(now, rematch=new.id))
            return new

    # ----------------------------------------------------------------- pages

    def language(self, request: Request) -> str:
        """The reader's language: ``?lang=``, the cookie, then ``Accept-Language``."""
        asked = request.query_params.get("lang")
        if asked in languages():
            return asked
        cookie = request.cookies.get(_COOKIE)
        if cookie in languages():
            return cookie
        return negotiate(request.headers.get("accept-language"))

    def page(self, request: Request, name: str, values: dict[str, str]) -> HTMLResponse:
        """A template translated into the reader's language, ``{key}`` replaced by
        ``values`` (already HTML)."""
        lang = self.language(request)
        text = translate_page(self.read_page(name), lang)
        others = " ".join(
            f'<a href="?lang={code}" hreflang="{code}" lang="{code}">{code.upper()}</a>'
            for code in languages()
            if code != lang
        )
        values = {"lang": lang, "languages": others, **values}
        for key, value in values.items():
            text = text.replace("{" + key + "}", value)
        response = HTMLResponse(text)
        if request.query_params.get("lang") in languages():
            response.set_cookie(
                _COOKIE,
                lang,
                max_age=365 * 86400,
                samesite="lax",
                httponly=True,
                secure=self.base.startswith("https:"),
            )
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
        table = await self.server.hosted(request.path_params["token"])
        if table is None:
            return self.error(404, "no table has this host link")
        lang = self.language(request)
        _ = gettext_for(lang)
        seating = self.seating_of(table)
        base = html.escape(self.base)
        rows = []
        for seat, (kind, token) in enumerate(zip(table.kinds, table.tokens, strict=True)):
            name = seating.names[seat] or _("seat {seat}").format(seat=seat)
            if token:
                link = f'<a href="/seat/{token}">{base}seat/{token}</a>'
            else:
                link = html.escape(_("played by the server"))
            shown_kind = _("person") if kind == _PERSON else _("agent: {level}").format(level=kind)
            rows.append(
                f"<tr><td>{html.escape(name)}</td><td>{html.escape(shown_kind)}</td><td>{link}</td></tr>"
            )
        listed = ""
        if seating.listed:
            listed = (
                html.escape(_("This table is listed in the lobby: free seats can be taken there."))
                + f' <a id="join" href="/join/{table.id}">{base}join/{table.id}</a>'
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
        """The open tables with free person seats, from the seatings and the server's
        index (no game is replayed)."""
        lang = self.language(request)
        _ = gettext_for(lang)
        items = []
        for table_id, seating in list(self.seating.items()):
            entry = self.server.entries.get(table_id)
            if entry is None:  # expired
                self.seating.pop(table_id, None)
                continue
            free = self.free_seats(table_id)
            if not seating.listed or not free or entry.status == "over":
                continue
            title = seating.title or _("a table")
            what = _("{ruleset} · {players} players · {free} free seats").format(
                ruleset=seating.ruleset, players=len(entry.tokens), free=len(free)
            )
            items.append(
                f'<li><a href="/join/{table_id}">{html.escape(title)}</a> '
                f'<span class="hint">{html.escape(what)}</span></li>'
            )
        empty = f'<li class="hint">{html.escape(_("No open table has a free seat."))}</li>'
        return self.page(request, "lobby.html", {"tables": "".join(items) or empty})

    async def join(self, request: Request) -> Response:
        """GET: a listed table's free seats; POST ``seat`` and ``name``: take one."""
        table_id = request.path_params["table"]
        seating = self.seating.get(table_id)
        table = None if seating is None or not seating.listed else await self.server.table(table_id)
        if table is None or seating is None:
            return self.error(404, "no open table has this link")
        lang = self.language(request)
        _ = gettext_for(lang)
        if request.method == "POST":
            data = await self.read_body(request)
            seat = whole_number(data.get("seat"), "seat is the number of a free seat")
            name = check_name(data.get("name", ""))

            def joined(now: Seating) -> Seating:
                if seat not in self.free_seats(table_id):  # as it is now, under the lock
                    raise InvalidArgument("that seat is taken or is no person's seat")
                names = list(now.names)
                names[seat] = name or names[seat]
                return attrs.evolve(now, names=names, taken=now.taken | {seat})

            await self.change(table, joined)
            return RedirectResponse(f"/seat/{table.tokens[seat]}?lang={lang}", status_code=303)
        free = self.free_seats(table_id)
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

    async def table_page(self, request: Request, table: Table, seat: int | None) -> Response:
        """A seat's or a spectator's page, with the table's rules help."""
        lang = self.language(request)
        if seat is not None:
            with contextlib.suppress(RulesError):  # not stored: the page shows all the same
                await self.take(table, seat)
        found = rules_help(table.game.ruleset, lang)
        seating = self.seating_of(table)
        name = "" if seat is None else seating.names[seat]
        return self.page(
            request,
            "table.html",
            {
                "rules_title": html.escape(found.title),
                "rulebook": found.article,
                "name": html.escape(name, quote=True),
                "title": html.escape(seating.title),
            },
        )

    async def rename_seat(self, request: Request) -> Response:
        """POST ``{"name": ...}`` to ``/api/seat/TOKEN/name``: the seat's own name."""
        found = await self.server.seat(request.path_params["token"])
        if found is None:
            return self.error(404, "no seat has this link")
        table, seat = found
        name = check_name((await self.read_body(request)).get("name"))

        def renamed(now: Seating) -> Seating:
            names = list(now.names)
            names[seat] = name
            return attrs.evolve(now, names=names)

        return JSONResponse({"names": (await self.change(table, renamed)).names})

    async def rematch_seat(self, request: Request) -> Response:
        """POST ``/api/seat/TOKEN/rematch``: this seat's link at the table's rematch."""
        found = await self.server.seat(request.path_params["token"])
        if found is None:
            return self.error(404, "no seat has this link")
        table, seat = found
        new = await self.rematch(table, request.client.host if request.client else "-")
        return JSONResponse({"seat": f"/seat/{new.tokens[seat]}", "watch": f"/watch/{new.id}"})

    async def rematch_watch(self, request: Request) -> Response:
        """GET ``/api/watch/TABLE/rematch``: the rematch's spectator link, once there is one."""
        table_id = request.path_params["table"]
        if table_id not in self.server.entries:
            return self.error(404, "no table has this link")
        seating = self.seating.get(table_id)
        rematch = None if seating is None else seating.rematch
        return JSONResponse({"watch": None if rematch is None else f"/watch/{rematch}"})

    def routes(self) -> list[tuple[str, Handler, list[str], int]]:
        """The people's pages: path, handler, methods, and the status of a refusal."""
        return [
            ("/", self.index, ["GET"], 400),
            ("/host/{token}", self.host, ["GET"], 404),
            ("/lobby", self.lobby, ["GET"], 400),
            ("/join/{table}", self.join, ["GET", "POST"], 409),
            ("/api/seat/{token}/name", self.rename_seat, ["POST"], 409),
            ("/api/seat/{token}/rematch", self.rematch_seat, ["POST"], 409),
            ("/api/watch/{table}/rematch", self.rematch_watch, ["GET"], 404),
        ]
