"""People at the web tables: names, the lobby of open tables, joining by link, seats that
an agent plays while their person is away, rematches, the pages' language and the rules
help (``qe-rules serve``).

A seat belongs to whoever holds its token: any use of it (the page, the JSON interface,
the live stream) *claims* the seat at once, in memory, and the claim is stored as soon as
the database takes it (:meth:`GameNight.claim`). A host names the table and each seat; a
named seat is kept for its person. A table may be listed in the lobby (``/lobby``), which
offers only person seats that nobody has claimed and that have no name, or whose person
gave them up; taking one gives the seat a new token, so that no two people ever hold it.

Nobody waits for a no-show: the host may hand any person's seat to an agent and back,
or give it a new link; a person may leave for a while (an agent plays for them until they
come back) or for good (an agent plays on, and the seat's link is renewed for someone
else); and when a person keeps the table waiting longer than the server's wait limit, the
others may hand that seat to an agent. Every page says who is away and which agent plays
for them. At the end any seat may start a rematch: a new table with the same rule set,
seats and names, whose seats go to the same people (each finds its new link on its old
page).

Pages are Jinja2 templates in ``web_static`` with autoescaping: names and titles are
values put into them, never template text. Their texts are msgids written ``{{ _("...") }}``,
looked up in the catalog of the reader's language (:func:`page_environment`). The language
is the request's ``?lang=``, else the ``qe_lang`` cookie, else ``Accept-Language``.

Every route here is served behind the web server's guards (cross-site posts refused,
security headers, one-line JSON errors, the table-creation limits, which a rematch counts
against too). A table's seating is stored in its row of the web table's database
(:meth:`qe_rules.apps.web_store.TableStore.set_seating`); the lobby lists tables from
the seatings and the server's index alone, replaying no game.

>>> page_environment("de").from_string('<p>{{ _("Bid") }} {{ name }}</p>').render(name="<b>")
'<p>Gebot &lt;b&gt;</p>'
"""

from __future__ import annotations

import asyncio
import copy
import functools
import json
import re
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Final, Protocol, TypeVar

import attrs
import jinja2
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from qe_rules._util.i18n import gettext_for, languages, negotiate, translation
from qe_rules.apps.panels import agent_label, move_refusal
from qe_rules.apps.table_rules import RuleChoices, describe_ruleset, rules_help
from qe_rules.apps.web_connections import client_key
from qe_rules.apps.web_keys import new_key
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
    keys: tuple[bytes | None, ...]
    names: tuple[str, ...]
    stand_ins: dict[int, tuple[str, bytes]]
    turns: dict[int, tuple[int, float]]

    @property
    def game(self) -> Game: ...

    @property
    def version(self) -> int: ...

    def waited(self, now: float | None = None) -> dict[int, float]: ...


class Entry(Protocol):
    """What the lobby uses of a stored table the server has not replayed: its seats'
    tokens (``None``: an agent's), whom its game waits for (``"over"`` at the end), and
    when it was made."""

    @property
    def tokens(self) -> tuple[str | None, ...]: ...

    @property
    def status(self) -> str | None: ...

    @property
    def created(self) -> float: ...

    opened: bool


class Store(Protocol):
    """What the lobby uses of the storage (:class:`qe_rules.apps.web_store.TableStore`)."""

    def seatings(self) -> dict[str, str]: ...

    def set_seating(self, table_id: str, seating: str, seats: str | None = None) -> None: ...


class Limits(Protocol):
    """What the lobby uses of the server's limits (:class:`qe_rules.apps.web.WebLimits`)."""

    @property
    def wait_limit(self) -> float: ...


class TableServer(Protocol):
    """What the lobby uses of the server (:class:`qe_rules.apps.web.TableServer`)."""

    dress: Callable[[Any], None]

    @property
    def store(self) -> Store: ...

    @property
    def limits(self) -> Limits: ...

    @property
    def entries(self) -> Mapping[str, Entry]: ...

    async def table(self, table_id: str) -> Table | None: ...

    async def seat(self, token: str) -> tuple[Table, int] | None: ...

    async def hosted(self, token: str) -> Table | None: ...

    async def open_table(
        self,
        ruleset: RuleSet,
        players: int,
        kinds: Sequence[str],
        seating: str | None,
        client: str,
    ) -> Table: ...

    async def run(self, function: Callable[..., _T], *args: Any) -> _T: ...

    def admit(self, client: str) -> float | None: ...

    def release(self, client: str, admitted: float | None) -> None: ...

    def use(self, table_id: str, *, opened: bool = False) -> None: ...

    def retoken(self, table: Any, seat: int, token: str | None) -> str: ...

    def changed(self, table: Any) -> None: ...


__all__ = [
    "AGENT_LEVELS",
    "MAX_NAME_LENGTH",
    "STAND_IN",
    "Entry",
    "GameNight",
    "Handler",
    "MoveRefused",
    "Seating",
    "StaleMove",
    "StandIn",
    "Store",
    "Table",
    "TableServer",
    "answers_turn",
    "check_name",
    "page_environment",
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

STAND_IN: Final = "value"
"""The agent that plays for a person who leaves, or whom the table hands over."""

_PERSON: Final = "person"
_COOKIE: Final = "qe_lang"
_DIGITS: Final = re.compile(r"[0-9]{1,16}")  # ASCII digits only; longer is no number here
_RETRY_SECONDS: Final = 5.0


class MoveRefused(RulesError):
    """A move the server refuses for its seat now, with the reason in the reader's
    language (not the seat's turn, a bid the rules forbid, an agent plays the seat,
    a move that answered an earlier moment). Where the rules refuse it, its ``code``
    and ``params`` are the engine's (``not-to-act``, ``bid-below-minimum``, ...)."""

    default_code = "move-refused"


def _rules_code(game: Game, seat: int, move: str, amount: object) -> dict[str, Any]:
    """The engine's ``code`` and ``params`` for a move it refuses (none where it would
    take it, or for a peek answer)."""
    try:
        if move == "bid" and type(amount) is int:
            game.verify_bid(seat, amount)
    except RulesError as error:
        return {"code": error.code, **error.params}
    return {}


class StaleMove(RulesError):
    """A move answered a moment of the game that is over (a replayed or late request):
    it names ``version``, and the seat's turn began at ``turn`` (``None``: the seat is
    not to act); the game is at ``now``. Nothing changed."""

    def __init__(self, version: object, turn: int | None, now: int) -> None:
        super().__init__(
            f"this move answers version {shown(version)} of the game, which is at version "
            f"{now}"
            + ("" if turn is None else f" (this turn began at version {turn})")
            + "; look at the game again"
        )
        self.version = version
        self.turn = turn
        self.now = now


def answers_turn(turn: tuple[int, float] | None, version: object, now: int) -> bool:
    """Whether a move naming ``version`` answers the seat's present turn, which began at
    ``turn`` (its version and time; ``None``: the seat is not to act) in a game at
    version ``now``: a version at which the turn had begun, and no later than now."""
    return type(version) is int and turn is not None and turn[0] <= version <= now


def whole_number(value: object, what: str) -> int:
    """A JSON int, or a text of ASCII digits (other digits, signs and fractions are
    refused, never read as another number); raises :class:`~qe_rules.InvalidArgument`
    saying ``what`` is allowed."""
    if type(value) is int:
        return value
    if isinstance(value, str) and _DIGITS.fullmatch(value.strip(" \t")):
        return int(value.strip(" \t"))
    raise InvalidArgument(f"{what}, got {shown(value)}")


@functools.cache
def page_environment(lang: str) -> jinja2.Environment:
    """The Jinja2 environment of the pages in ``lang``: the templates of ``web_static``,
    every value escaped (autoescape), ``_()`` the catalog's ``gettext``."""
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("qe_rules.apps", "web_static"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        extensions=["jinja2.ext.i18n"],
    )
    catalog = translation(lang)
    environment.install_gettext_callables(  # type: ignore[attr-defined]
        catalog.gettext, catalog.ngettext, newstyle=False
    )
    return environment


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


@functools.cache
def _label_pattern() -> re.Pattern[str]:
    """What a seat's label looks like in any language (``seat 2``, ``Platz 2``)."""
    forms = {gettext_for(lang)("seat {seat}") for lang in languages()}
    return re.compile(
        "|".join(r"\s*[0-9]+".join(map(re.escape, form.split("{seat}"))) for form in forms),
        re.IGNORECASE,
    )


def check_unique(names: Sequence[str], seat: int, name: str) -> None:
    """Refuse ``name`` for ``seat`` when another seat is called so (ignoring case), or
    when it reads as a seat's label (``seat 2``); raises :class:`~qe_rules.InvalidArgument`."""
    if not name:
        return
    key = name.casefold()
    for other, taken in enumerate(names):
        if other != seat and taken and taken.casefold() == key:
            raise InvalidArgument(f"another seat is called {shown(name)}; names are unique")
    if _label_pattern().fullmatch(name):
        raise InvalidArgument(f"{shown(name)} reads as a seat's number; choose another name")


@attrs.frozen
class StandIn:
    """An agent that plays a person's seat: its name and key, who handed the seat to it
    (``"self"``: its person left; ``"host"``; ``"table"``: the others, after the wait
    limit), and the version of the game then."""

    agent: str
    key: str
    by: str
    since: int

    def to_dict(self) -> dict[str, Any]:
        """The stand-in as stored."""
        return attrs.asdict(self)


@attrs.define
class Seating:
    """Who sits at a table: its name, the seats' names, whether the lobby lists it, the
    seats whose token has been used (``taken``: claimed), the seats their person gave up
    (``released``: the lobby may offer them again), the seats an agent plays for their
    person (``away``), whether a table without person seats was watched, the table of its
    rematch, and the rule set's id (for the lobby, which replays no game)."""

    title: str = ""
    names: list[str] = attrs.field(factory=list)
    listed: bool = False
    taken: set[int] = attrs.field(factory=set)
    rematch: str | None = None
    ruleset: str = ""
    released: set[int] = attrs.field(factory=set)
    away: dict[int, StandIn] = attrs.field(factory=dict)
    watched: bool = False

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
                "released": sorted(self.released),
                "away": {str(seat): s.to_dict() for seat, s in sorted(self.away.items())},
                "watched": self.watched,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> Seating:
        """Read :meth:`to_json` back."""
        data = json.loads(text)
        rematch = data.get("rematch")
        away = {
            int(seat): StandIn(
                agent=str(s["agent"]), key=str(s["key"]), by=str(s["by"]), since=int(s["since"])
            )
            for seat, s in dict(data.get("away", {})).items()
            if s.get("agent") in AGENT_NAMES and len(str(s.get("key", ""))) == 64
        }
        return cls(
            title=str(data.get("title", "")),
            names=[str(n) for n in data.get("names", [])],
            listed=bool(data.get("listed", False)),
            taken={int(s) for s in data.get("taken", [])},
            rematch=rematch if isinstance(rematch, str) else None,
            ruleset=str(data.get("ruleset", "")),
            released={int(s) for s in data.get("released", [])},
            away=away,
            watched=bool(data.get("watched", False)),
        )


def _levels() -> list[tuple[str, str]]:
    known = [(name, line) for name, line in AGENT_LEVELS if name in AGENT_NAMES]
    known += [(name, name) for name in AGENT_NAMES if name not in dict(AGENT_LEVELS)]
    return known


def _seats_json(table: Table, tokens: Sequence[str | None]) -> str:
    """The table's seats as stored, with ``tokens``."""
    return json.dumps(
        [
            {"kind": kind, "token": token, "key": None if key is None else key.hex()}
            for kind, token, key in zip(table.kinds, tokens, table.keys, strict=True)
        ]
    )


class GameNight:
    """The people's side of a :class:`~qe_rules.apps.web.TableServer`: the host's form and
    page, the lobby, joining, names, seats handed to agents and back, rematches, the
    table pages and their rules help. ``base`` is the address players reach the server
    at (the links shown start with it); ``error`` makes the one-line JSON error answer."""

    def __init__(
        self,
        server: TableServer,
        choices: RuleChoices,
        *,
        default_ruleset: str,
        players: int,
        base: str,
        read_body: Callable[[Request], Awaitable[dict[str, Any]]],
        error: Callable[[int, str], Response],
    ) -> None:
        self.server = server
        self.choices = choices
        self.default_ruleset = default_ruleset
        self.players = players
        self.base = base
        self.read_body = read_body
        self.error = error
        self.seating: dict[str, Seating] = {}
        self.replaced: dict[str, float] = {}  # tokens given up or renewed, and when
        self._rematching = asyncio.Lock()  # one rematch is made at a time
        self._writing = asyncio.Lock()  # one seating is changed at a time
        self._unstored: set[str] = set()  # tables whose claims are not stored yet
        self._storing: asyncio.Task[None] | None = None
        for table_id, text in server.store.seatings().items():
            try:
                seating = self.seating[table_id] = Seating.from_json(text)
            except (ValueError, TypeError, AttributeError, KeyError):
                continue  # a damaged seating: the table plays on without names
            entry = server.entries.get(table_id)
            if entry is not None and (seating.taken or seating.watched):
                entry.opened = True
        server.dress = self.dress

    # ----------------------------------------------------------------- data

    def names_of(self, table_id: str) -> tuple[str, ...]:
        """The seats' names of a table (``()`` when none has a name)."""
        seating = self.seating.get(table_id)
        return tuple(seating.names) if seating is not None and any(seating.names) else ()

    def dress(self, table: Table) -> None:
        """Give a table its seating's names and stand-ins."""
        seating = self.seating.get(table.id)
        table.names = self.names_of(table.id)
        table.stand_ins = (
            {}
            if seating is None
            else {seat: (s.agent, bytes.fromhex(s.key)) for seat, s in seating.away.items()}
        )

    def seating_of(self, table: Table) -> Seating:
        """The table's seating (an empty one for a table made without names)."""
        return self.seating.setdefault(
            table.id, Seating(names=[""] * table.game.players, ruleset=table.game.ruleset.id)
        )

    def is_person(self, table: Table, seat: int) -> bool:
        """Whether ``seat`` is a person's seat (which may be handed to an agent)."""
        return table.kinds[seat] == _PERSON

    async def change(
        self,
        table: Table,
        change: Callable[[Seating], Seating],
        *,
        tokens: Sequence[str | None] | None = None,
        then: Callable[[], object] | None = None,
    ) -> Seating:
        """Store ``change(seating)`` as the table's seating (on the server's storage
        thread; with ``tokens``, the seats' new tokens in the same write), then run
        ``then`` (a new token taking effect), keep the seating and give it to the table's
        pages; one change at a time. A change that raises, or that cannot be stored,
        changes nothing. Claims made while it is stored are kept."""
        async with self._writing:
            before = self.seating_of(table)
            seating = change(copy.deepcopy(before))
            seats = None if tokens is None else _seats_json(table, tokens)
            await self.server.run(self.server.store.set_seating, table.id, seating.to_json(), seats)
            if then is not None:
                then()
            claimed = self.seating_of(table).taken - before.taken
            if claimed - seating.taken:  # claimed meanwhile: kept, and stored soon
                seating.taken |= claimed
                self._store_soon(table.id)
            self.seating[table.id] = seating
            self.dress(table)
            self.server.changed(table)
            return seating

    def claim(self, table: Table, seat: int) -> None:
        """The seat's token was used: the seat is its holder's. Kept in memory at once
        (the lobby no longer offers it) and stored as soon as the database takes it. A
        seat its person gave up becomes the new holder's: the agent stops playing it."""
        seating = self.seating_of(table)
        self.server.use(table.id, opened=True)
        if seat in seating.taken and seat not in seating.released:
            return
        seating.taken.add(seat)
        if seat in seating.released:
            seating.released.discard(seat)
            seating.away.pop(seat, None)
            self.dress(table)
            self.server.changed(table)
        self._store_soon(table.id)

    def _store_soon(self, table_id: str) -> None:
        self._unstored.add(table_id)
        if self._storing is None or self._storing.done():
            self._storing = asyncio.ensure_future(self._store_claims())

    async def _store_claims(self) -> None:
        """Store the seatings changed by claims, trying again while the database is busy."""
        delay = 0.0
        while self._unstored:
            await asyncio.sleep(delay)
            async with self._writing:
                for table_id in list(self._unstored):
                    self._unstored.discard(table_id)
                    seating = self.seating.get(table_id)
                    if seating is None or table_id not in self.server.entries:
                        continue
                    try:
                        await self.server.run(
                            self.server.store.set_seating, table_id, seating.to_json()
                        )
                    except RulesError:  # busy or full: kept in memory, tried again
                        self._unstored.add(table_id)
                        delay = _RETRY_SECONDS
                        break

    async def seat(self, token: str) -> tuple[Table, int] | None:
        """The table and seat of a seat's token, the seat claimed by this use."""
        found = await self.server.seat(token)
        if found is not None:
            self.claim(*found)
        return found

    async def watched(self, table_id: str) -> Table | None:
        """The table of a spectator link, noted as used (as opened, for a table with no
        person seat)."""
        table = await self.server.table(table_id)
        if table is None:
            return None
        agents_only = _PERSON not in table.kinds
        self.server.use(table_id, opened=agents_only)
        seating = self.seating_of(table)
        if agents_only and not seating.watched:
            seating.watched = True
            self._store_soon(table_id)
        return table

    def no_seat(self, request: Request) -> Response:
        """The answer to a seat's token that no seat has (now)."""
        if request.path_params.get("token") in self.replaced:
            return self.error(
                404,
                "this seat's link was replaced: its person left it for good, or the host "
                "gave the seat a new link",
            )
        return self.error(404, "no seat has this link")

    def _retire(self, token: str | None) -> None:
        if token is not None:
            now = time.monotonic()
            self.replaced[token] = now
            if len(self.replaced) > 10_000:  # the oldest are forgotten
                for old in sorted(self.replaced, key=self.replaced.__getitem__)[:1000]:
                    del self.replaced[old]

    def table_request(self, data: dict[str, Any]) -> tuple[RuleSet, int, list[Any], Seating]:
        """What the host's form or JSON asks for, each part checked before any work that
        grows with it: ``ruleset`` (a key of the choices) or ``spec`` (a spec string),
        ``players``, ``seats`` (kinds; or form fields ``seat0``, ...), ``names`` (or
        ``name0``, ...; each unique), ``title`` and ``listed``."""
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
        for seat, name in enumerate(checked):
            check_unique(checked, seat, name)
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
            table = await self.server.open_table(ruleset, players, kinds, seating.to_json(), client)
        except BaseException:
            self.server.release(client, admitted)
            raise
        self.seating[table.id] = seating
        self.dress(table)
        return table

    def free_seats(self, table_id: str) -> list[int]:
        """The person seats of a stored table the lobby may offer: nobody claimed them,
        and the host gave them no name or their person gave them up."""
        entry = self.server.entries.get(table_id)
        seating = self.seating.get(table_id)
        if entry is None or seating is None:
            return []
        return [
            s
            for s, token in enumerate(entry.tokens)
            if token
            and s not in seating.taken
            and (s in seating.released or not (s < len(seating.names) and seating.names[s]))
        ]

    async def hand_over(self, table: Table, seat: int, agent: str, by: str) -> None:
        """Let ``agent`` play the person's seat ``seat`` (handed over ``by`` its person,
        the host or the table) until its person comes back."""
        if not self.is_person(table, seat):
            raise InvalidArgument("only a person's seat can be handed to an agent")
        if agent not in AGENT_NAMES:
            raise InvalidArgument(
                f"{shown(agent)} is no agent; agents are {', '.join(AGENT_NAMES)}"
            )

        def handed(now: Seating) -> Seating:
            key = now.away[seat].key if seat in now.away else new_key().hex()
            now.away[seat] = StandIn(agent=agent, key=key, by=by, since=table.version)
            return now

        await self.change(table, handed)

    async def take_back(self, table: Table, seat: int) -> None:
        """The person plays their seat again (no agent plays it any more)."""

        def back(now: Seating) -> Seating:
            now.away.pop(seat, None)
            now.released.discard(seat)
            return now

        await self.change(table, back)

    async def free_seat(self, table: Table, seat: int, by: str) -> str:
        """Give a person's seat a new link (its old one stops working) and let an agent
        play it until someone opens the new one; the lobby offers it if the table is
        listed. Returns the new token."""
        if not self.is_person(table, seat):
            raise InvalidArgument("only a person's seat has a link")
        token = _token()
        tokens = list(table.tokens)
        tokens[seat] = token

        def freed(now: Seating) -> Seating:
            now.taken.discard(seat)
            now.released.add(seat)
            if seat not in now.away and not table.game.is_over:
                key = new_key().hex()
                now.away[seat] = StandIn(agent=STAND_IN, key=key, by=by, since=table.version)
            return now

        old = table.tokens[seat]
        await self.change(
            table, freed, tokens=tokens, then=lambda: self.server.retoken(table, seat, token)
        )
        self._retire(old)
        return token

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
            again = attrs.evolve(
                copy.deepcopy(seating),
                listed=False,
                taken=set(),
                released=set(),
                away={},
                watched=False,
                rematch=None,
            )
            new = await self._open(client, game.ruleset, game.players, table.kinds, again)

            def linked(now: Seating) -> Seating:
                now.rematch = new.id
                return now

            await self.change(table, linked)
            return new

    # ----------------------------------------------------------------- moves

    def check_move(
        self,
        table: Table,
        seat: int,
        move: str,
        amount: object,
        version: object,
        lang: str,
    ) -> None:
        """Refuse, with the reason in ``lang``, a move the seat may not make now: an
        agent plays the seat, the move names no version or a version before the seat's
        turn began (:func:`answers_turn`: a request sent again, or late), or the rules
        forbid it (:func:`qe_rules.apps.panels.move_refusal`)."""
        _ = gettext_for(lang)
        if seat in table.stand_ins:
            raise MoveRefused(_("An agent plays for you now: come back to your seat first."))
        if type(version) is not int:
            raise MoveRefused(
                _('A move names the version of the game it answers ("version": a number).')
            )
        turn = table.turns.get(seat)
        if turn is not None and not answers_turn(turn, version, table.version):
            raise MoveRefused(self.stale_text(StaleMove(version, turn[0], table.version), lang))
        names = self.labels(table, lang)
        refusal = move_refusal(table.game.view(seat), move, amount, lang=lang, names=names)
        if refusal:
            raise MoveRefused(refusal, **_rules_code(table.game, seat, move, amount))
        if turn is None:  # the rules would allow it, yet it is not the seat's turn
            raise MoveRefused(self.stale_text(StaleMove(version, None, table.version), lang))

    def stale_text(self, stale: StaleMove, lang: str) -> str:
        """Why a move that answered an earlier moment was refused, in ``lang``."""
        _ = gettext_for(lang)
        return _(
            "The game has moved on since the moment your move answers (version {version}, "
            "now {now}): look at the table again, then move."
        ).format(version=shown(stale.version), now=stale.now)

    def labels(self, table: Table, lang: str) -> list[str]:
        """What the seats are called for people: their names, else ``seat 1``, ..."""
        _ = gettext_for(lang)
        names = self.seating_of(table).names
        return [
            (names[s] if s < len(names) else "") or _("seat {seat}").format(seat=s + 1)
            for s in range(table.game.players)
        ]

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

    def page(self, request: Request, name: str, values: dict[str, Any]) -> HTMLResponse:
        """The template ``name`` in the reader's language, with ``values`` (escaped)."""
        lang = self.language(request)
        others = [code for code in languages() if code != lang]
        template = page_environment(lang).get_template(name)
        response = HTMLResponse(template.render(lang=lang, languages=others, **values))
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
        kinds = [[_PERSON, _("a person (private link)")]]
        kinds += [[name, _("agent: {level}").format(level=_(line))] for name, line in _levels()]
        form = {"kinds": kinds, "seat": _("Seat {seat}"), "name": _("name")}
        return self.page(
            request,
            "index.html",
            {
                "rulesets": [
                    (key, describe_ruleset(rules, lang))
                    for key, rules in self.choices.rulesets.items()
                ],
                "default_ruleset": self.default_ruleset,
                "players": str(self.players),
                "form": json.dumps(form),
            },
        )

    def _seat_state(self, table: Table, seat: int, lang: str) -> str:
        _ = gettext_for(lang)
        seating = self.seating_of(table)
        stand_in = seating.away.get(seat)
        if table.kinds[seat] != _PERSON:
            return ""
        if seat in seating.released:
            state = _("given up: waits for someone to open the new link")
        elif seat in seating.taken:
            state = _("opened")
        else:
            state = _("not opened yet")
        if stand_in is not None:
            agent = agent_label(stand_in.agent, lang)
            state += " · " + _("an agent plays it ({agent})").format(agent=agent)
        waited = table.waited().get(seat)
        shown_after = min(5.0, self.server.limits.wait_limit or 5.0)  # not at every turn
        if waited is not None and stand_in is None and waited >= shown_after:
            state += " · " + _("the table waits for it ({seconds} s)").format(seconds=int(waited))
        return state

    async def host_page(self, request: Request) -> Response:
        """GET: the host's page (:meth:`host`); POST: a change of a seat's player
        (:meth:`host_seat`)."""
        if request.method == "POST":
            return await self.host_seat(request)
        return await self.host(request)

    async def host(self, request: Request) -> Response:
        """The host's page: one private link per person's seat, whether each was
        opened, and who plays it (the person, or an agent the host may hand it to)."""
        table = await self.server.hosted(request.path_params["token"])
        if table is None:
            return self.error(404, "no table has this host link")
        lang = self.language(request)
        _ = gettext_for(lang)
        seating = self.seating_of(table)
        labels = self.labels(table, lang)
        rows = []
        for seat, (kind, token) in enumerate(zip(table.kinds, table.tokens, strict=True)):
            stand_in = seating.away.get(seat)
            person = kind == _PERSON
            rows.append(
                {
                    "seat": seat,
                    "name": labels[seat],
                    "kind": _("person")
                    if person
                    else _("agent: {level}").format(level=agent_label(kind, lang)),
                    "state": self._seat_state(table, seat, lang),
                    "link": f"/seat/{token}" if token else None,
                    "person": person and not table.game.is_over,
                    "player": stand_in.agent if stand_in is not None else _PERSON,
                }
            )
        choice = [(_PERSON, _("its person"))]
        choice += [(name, _("agent: {level}").format(level=_(line))) for name, line in _levels()]
        status = _("the game is over") if table.game.is_over else _("in play")
        return self.page(
            request,
            "host.html",
            {
                "title": seating.title or _("your table"),
                "ruleset": table.game.ruleset.id,
                "players": str(table.game.players),
                "status": status,
                "rows": rows,
                "players_choice": choice,
                "table": table.id,
                "base": self.base,
                "listed": seating.listed,
            },
        )

    async def host_seat(self, request: Request) -> Response:
        """POST to the host's page (a form or JSON): ``player`` (``person`` or an agent's
        name) plays the person's seat ``seat``; ``free`` gives it a new link."""
        table = await self.server.hosted(request.path_params["token"])
        if table is None:
            return self.error(404, "no table has this host link")
        data = await self.read_body(request)
        seat = whole_number(data.get("seat"), "seat is the number of a person's seat")
        if not 0 <= seat < table.game.players or not self.is_person(table, seat):
            raise InvalidArgument("that is no person's seat at this table")
        if table.game.is_over:
            raise InvalidArgument("the game is over")
        if data.get("free") in (True, "1", "on", "true", "yes"):
            await self.free_seat(table, seat, "host")
        else:
            player = data.get("player", _PERSON)
            if player == _PERSON:
                await self.take_back(table, seat)
            else:
                await self.hand_over(table, seat, str(player), "host")
        if request.headers.get("content-type", "").startswith("application/json"):
            return JSONResponse(self._seats_answer(table))
        return RedirectResponse(f"/host/{table.host}#seat-{seat}", status_code=303)

    def _seats_answer(self, table: Table) -> dict[str, Any]:
        seating = self.seating_of(table)
        return {
            "seats": [
                {
                    "link": None if token is None else f"/seat/{token}",
                    "opened": seat in seating.taken,
                    "agent": None if seat not in seating.away else seating.away[seat].agent,
                }
                for seat, token in enumerate(table.tokens)
            ]
        }

    async def lobby(self, request: Request) -> Response:
        """The open tables with free person seats, from the seatings and the server's
        index (no game is replayed)."""
        lang = self.language(request)
        _ = gettext_for(lang)
        items = []
        now = time.time()
        for table_id, seating in list(self.seating.items()):
            entry = self.server.entries.get(table_id)
            if entry is None:  # expired
                self.seating.pop(table_id, None)
                continue
            free = self.free_seats(table_id)
            if not seating.listed or not free or entry.status == "over":
                continue
            what = _("{ruleset} · {players} players · free seats: {free}").format(
                ruleset=seating.ruleset, players=len(entry.tokens), free=len(free)
            )
            minutes = max(0, int((now - entry.created) // 60))
            what += " · " + _("made {minutes} min ago").format(minutes=minutes)
            items.append({"id": table_id, "title": seating.title or _("a table"), "what": what})
        return self.page(request, "lobby.html", {"tables": items})

    async def join(self, request: Request) -> Response:
        """GET: a listed table's free seats; POST ``seat`` and ``name``: take one. The
        seat gets a new token, which only the one who took it holds."""
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
            if seat not in self.free_seats(table_id):
                raise InvalidArgument("that seat is taken, kept for someone, or no person's seat")
            check_unique(seating.names, seat, name)
            token = _token()
            tokens = list(table.tokens)
            tokens[seat] = token
            seating.taken.add(seat)  # kept for this join while it is stored

            def joined(now: Seating) -> Seating:
                now.names[seat] = name or now.names[seat]
                now.released.discard(seat)
                now.away.pop(seat, None)
                return now

            old = table.tokens[seat]
            try:
                await self.change(
                    table,
                    joined,
                    tokens=tokens,
                    then=lambda: self.server.retoken(table, seat, token),
                )
            except BaseException:
                self.seating_of(table).taken.discard(seat)
                raise
            self._retire(old)
            return RedirectResponse(f"/seat/{token}?lang={lang}", status_code=303)
        labels = self.labels(table, lang)
        return self.page(
            request,
            "join.html",
            {
                "title": seating.title or _("a table"),
                "what": _("{ruleset} · {players} players").format(
                    ruleset=seating.ruleset, players=table.game.players
                ),
                "seats": [(s, labels[s]) for s in self.free_seats(table_id)],
                "table": table.id,
            },
        )

    async def table_page(self, request: Request, table: Table, seat: int | None) -> Response:
        """A seat's or a spectator's page, with the table's rules help."""
        lang = self.language(request)
        found = rules_help(table.game.ruleset, lang)
        seating = self.seating_of(table)
        name = "" if seat is None else seating.names[seat]
        return self.page(
            request,
            "table.html",
            {
                "rules_title": found.title,
                "rulebook": Markup(found.article),  # made by the rulebook renderer, escaped there
                "name": name,
                "title": seating.title,
            },
        )

    async def rename_seat(self, request: Request) -> Response:
        """POST ``{"name": ...}`` to ``/api/seat/TOKEN/name``: the seat's own name."""
        found = await self.seat(request.path_params["token"])
        if found is None:
            return self.no_seat(request)
        table, seat = found
        name = check_name((await self.read_body(request)).get("name"))
        check_unique(self.seating_of(table).names, seat, name)

        def renamed(now: Seating) -> Seating:
            check_unique(now.names, seat, name)
            now.names[seat] = name
            return now

        return JSONResponse({"names": (await self.change(table, renamed)).names})

    async def leave(self, request: Request) -> Response:
        """POST ``/api/seat/TOKEN/leave``: an agent plays for this seat's person until
        they come back; with ``{"for_good": true}`` the seat gets a new link (this one
        stops working) for someone else."""
        found = await self.seat(request.path_params["token"])
        if found is None:
            return self.no_seat(request)
        table, seat = found
        if table.game.is_over:
            raise InvalidArgument("the game is over")
        if not self.is_person(table, seat):
            raise InvalidArgument("only a person's seat can be left")
        data = await self.read_body(request)
        if data.get("for_good") in (True, "1", "on", "true", "yes"):
            await self.free_seat(table, seat, "self")
            return JSONResponse({"left": True})
        await self.hand_over(table, seat, STAND_IN, "self")
        return JSONResponse({"left": False, "agent": STAND_IN})

    async def come_back(self, request: Request) -> Response:
        """POST ``/api/seat/TOKEN/back``: the seat's person plays it again."""
        found = await self.seat(request.path_params["token"])
        if found is None:
            return self.no_seat(request)
        table, seat = found
        await self.take_back(table, seat)
        return JSONResponse({"back": True})

    async def hand_over_waiting(self, request: Request) -> Response:
        """POST ``{"seat": N}`` to ``/api/seat/TOKEN/hand-over``: another person's seat
        that has kept the table waiting longer than the wait limit is played by an agent
        until its person comes back."""
        found = await self.seat(request.path_params["token"])
        if found is None:
            return self.no_seat(request)
        table, own = found
        data = await self.read_body(request)
        seat = whole_number(data.get("seat"), "seat is the number of a waiting seat")
        lang = self.language(request)
        _ = gettext_for(lang)
        limit = self.server.limits.wait_limit
        waited = table.waited().get(seat)
        if (
            seat == own
            or not 0 <= seat < table.game.players
            or not self.is_person(table, seat)
            or waited is None
        ):
            raise MoveRefused(_("That seat keeps nobody waiting now."))
        if not limit:
            raise MoveRefused(_("Here only the host may hand a seat to an agent."))
        if waited < limit:
            raise MoveRefused(
                _(
                    "{seat} has kept the table waiting for {seconds} s; after {limit} s the others may hand the seat to an agent."
                ).format(seat=self.labels(table, lang)[seat], seconds=int(waited), limit=int(limit))
            )
        await self.hand_over(table, seat, STAND_IN, "table")
        return JSONResponse({"handed": seat, "agent": STAND_IN})

    async def rematch_seat(self, request: Request) -> Response:
        """POST ``/api/seat/TOKEN/rematch``: this seat's link at the table's rematch."""
        found = await self.seat(request.path_params["token"])
        if found is None:
            return self.no_seat(request)
        table, seat = found
        client = _client_of(request)
        new = await self.rematch(table, client)
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
            ("/host/{token}", self.host_page, ["GET", "POST"], 409),
            ("/lobby", self.lobby, ["GET"], 400),
            ("/join/{table}", self.join, ["GET", "POST"], 409),
            ("/api/seat/{token}/name", self.rename_seat, ["POST"], 409),
            ("/api/seat/{token}/leave", self.leave, ["POST"], 409),
            ("/api/seat/{token}/back", self.come_back, ["POST"], 409),
            ("/api/seat/{token}/hand-over", self.hand_over_waiting, ["POST"], 409),
            ("/api/seat/{token}/rematch", self.rematch_seat, ["POST"], 409),
            ("/api/watch/{table}/rematch", self.rematch_watch, ["GET"], 404),
        ]


def _client_of(request: Request) -> str:
    """The address a request is counted under (an IPv6 address by its /64)."""
    return client_key(request.client.host) if request.client else "-"


def _token() -> str:
    """A new seat token: 144 random bits, as the server's."""
    return secrets.token_urlsafe(18)
