"""The values rule sets are made of, and how each kind of value reads and writes as data.

The enums and records here (categories, tie fallbacks, citations, interpretations) are the
types of :class:`~qe_rules.RuleSet` fields. Each rule field is declared with a
:class:`FieldKind`: one object that converts a value given to the constructor, checks it,
writes it as plain data and reads it back, with an error that names the key::

    >>> BOOL.decode(True, "rules.peeks"), BOOL.encode(False)
    (True, False)
    >>> BOOL.decode("yes", "rules.peeks")
    Traceback (most recent call last):
    ...
    qe_rules.rules.values.DataError: rules.peeks: needs true or false, got 'yes'
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final

import attrs

from qe_rules._util.deprecation import renamed
from qe_rules._util.frozen import FrozenDict
from qe_rules._util.reading import Readers
from qe_rules.components import Company, Industry, Nation
from qe_rules.errors import InvalidRuleSet, shown
from qe_rules.limits import MAX_BID, MAX_TABLE_COUNT, MAX_TIES_BEFORE_FALLBACK

__all__ = [
    "BOOL",
    "GAP_CODES",
    "Basis",
    "BeyondTable",
    "Category",
    "DataError",
    "EveryoneTiedForMostSpent",
    "FallbackFindsNoBid",
    "FieldKind",
    "FinalTieBreak",
    "FirstAuctioneer",
    "Interpretation",
    "LastTileTie",
    "NationAssignment",
    "Provenance",
    "RebidScope",
    "RebidVisibility",
    "Source",
    "TieAfterTiebreak",
    "TieFallback",
    "check_keys",
    "decode_interpretation",
    "decode_list",
    "decode_provenance",
    "decode_text",
]


# --------------------------------------------------------------------------- value types


class Category(enum.Enum):
    """A scoring category of the final scoring."""

    COMPANIES = "companies"
    ZERO_BIDS = "zero_bids"
    NATIONALIZATION = "nationalization"
    MONOPOLIZATION = "monopolization"
    DIVERSIFICATION = "diversification"
    SPENDING = "spending"
    """Total spent: elimination of the highest spender and the lowest-spend bonus."""


class TieFallback(enum.Enum):
    """What decides a sale after too many ties in a row."""

    HIGHEST_UNTIED = "highest-untied"
    """The highest of the standing bids that no other standing bid equals."""
    HIGHEST_UNIQUE_IN_SALE = "highest-unique-in-sale"
    """The highest amount named by exactly one bid of the whole sale (all rounds)."""
    HIGHEST_OUTSIDE_TOP_TIE = "highest-outside-top-tie"
    """The highest standing bid below the amount tied for first place; when several
    standing bids name that amount, no single bid wins (see :class:`FallbackFindsNoBid`)."""
    NONE = "none"
    """No fallback: tied players keep rebidding."""


class RebidScope(enum.Enum):
    """Who bids again after a tie for the highest bid."""

    TIED = "tied"
    """Only the players tied for the highest bid; everyone else's bid stands."""
    ALL = "all"
    """Every player bids again."""


class FinalTieBreak(enum.Enum):
    """What decides between players equal on points at the end."""

    LOWER_SPEND = "lower-spend"
    NONE = "none"


class BeyondTable(enum.Enum):
    """How a count above a scoring table's largest entry scores."""

    CAP = "cap"
    """Score the table's largest entry (and report the rule gap)."""
    CONTINUE_PATTERN = "continue-pattern"
    """Continue the table's steps, each one larger than the step before (3, 6, 10 -> 15;
    1, 3, 6, 10 -> 15); a table of one entry, or one whose last step does not rise, is
    capped. Reports the rule gap."""
    ZERO = "zero"
    """Score nothing for it (and report the rule gap). A house rule: no text suggests it."""


class FallbackFindsNoBid(enum.Enum):
    """What happens when the tie fallback finds no single bid to win the sale."""

    UNSOLD = "unsold"
    """Nobody gets the tile; the game goes on with the next one (the gap is reported)."""
    AUCTIONEER_WINS = "auctioneer-wins"
    """The auctioneer takes the tile for its opening bid (on a sale with an auctioneer)."""


class RebidVisibility(enum.Enum):
    """Who sees the rebids after a tie. The auctioneer always sees the first bids and
    knows the winning amount, which it writes on the tile."""

    AUCTIONEER = "auctioneer"
    """The auctioneer sees every bidding round's bids, rebids included, once the round
    is complete; the other seats see only their own bids."""
    FIRST_BIDS = "first-bids"
    """The auctioneer sees the first bids only; a rebid is seen by its bidder alone, and
    the auctioneer learns of the rebids only the outcome and the winning amount."""
    TIED_PLAYERS = "tied-players"
    """As ``auctioneer``, and the players who rebid see one another's rebids once their
    round is complete."""


class EveryoneTiedForMostSpent(enum.Enum):
    """What the elimination does when every player ties for the highest spend."""

    ALL_ELIMINATED = "all-eliminated"
    """Every player is out, so nobody wins (the texts' words taken literally)."""
    NONE_ELIMINATED = "none-eliminated"
    """Nobody spent more than another, so nobody is out; the best score wins."""


class TieAfterTiebreak(enum.Enum):
    """The result when players tie on points and the tie-break leaves more than one."""

    SHARED_WIN = "shared-win"
    """Every player still tied wins (they share the victory)."""
    NO_WINNER = "no-winner"
    """Nobody wins."""


class LastTileTie(enum.Enum):
    """Which tie on the auctioneer-less last tile counts as "a tie"."""

    HIGHEST = "highest"
    """Only a tie for the highest bid (bids 5, 3, 3: the 5 wins)."""
    ANY = "any"
    """Any two equal bids (bids 5, 3, 3: nobody gets the tile)."""


class UniqueBidPool(enum.Enum):
    """Which bids the ``highest-unique-in-sale`` fallback looks at."""

    EVERY_BID = "every-bid"
    """Every amount named in the sale: the opening bid and overridden bids included."""
    STANDING_BIDS = "standing-bids"
    """Only the bids standing at the last tie."""


class TiedAuctioneer(enum.Enum):
    """What an auctioneer tied for the highest bid does (where a secret bid may equal
    the opening bid)."""

    REBIDS = "rebids"
    """The auctioneer rebids with the other tied players."""
    STANDS = "stands"
    """The opening bid stands; only the other tied players rebid."""


class TieStreak(enum.Enum):
    """Which ties count as "in a row" towards the fallback."""

    ANY_PLAYERS = "any-players"
    """Every tie of the sale counts, whoever is tied."""
    SAME_PLAYERS = "same-players"
    """A tie among other players than the previous tie starts the count again at 1."""


class DiversificationSets(enum.Enum):
    """How a player's items are split into diversification sets."""

    BEST = "best"
    """The split that scores the most."""
    LARGEST_FIRST = "largest-first"
    """One item of every industry present, scored and removed, again until none is left."""


class PeekShows(enum.Enum):
    """What the 5-player peek shows."""

    WINNING_AMOUNT = "winning-amount"
    """The amount that won the sale."""
    HIGHEST_BID = "highest-bid"
    """The highest standing bid when the sale ends: the winning amount, except after a
    tie fallback, where it is the tied amount the winner did not pay."""
    HIGHEST_BID_MADE = "highest-bid-made"
    """The highest bid made in the sale, the opening bid and bids a rebid replaced
    included: after a tie it is the tied amount, even where a rebid then won for less."""
    ALL_BIDS = "all-bids"
    """Every bid of the sale, rebids included, and the winning amount. A house rule: no
    text suggests it."""


class PeekTiming(enum.Enum):
    """Which sale a 5-player peek looks at, and when it is asked for."""

    LAST_SALE = "last-sale"
    """The last sale sold; asked for before the following sale's opening bid."""
    ANY_EARLIER_SALE = "any-earlier-sale"
    """Any sale sold so far, which the peeker names; asked for in the window after a
    sale, as under ``last-sale``."""
    BEFORE_BIDS = "before-bids"
    """The next sale: announced before its opening bid, its amount shown when it ends."""


class NationAssignment(enum.Enum):
    """How players get their nations at setup (the engine accepts any assignment)."""

    UNSPECIFIED = "unspecified"
    RANDOM = "random"


class FirstAuctioneer(enum.Enum):
    """How the first auctioneer is chosen at setup (the engine accepts any seat)."""

    MOST_RECENT_BANK_VISIT = "most-recent-bank-visit"
    TABLE_CHOICE = "table-choice"


class Basis(enum.Enum):
    """How a source supports a rule value."""

    STATED = "stated"
    """The text says it."""
    SILENT = "silent"
    """The text says nothing; the value comes from where the summary says."""
    INTERPRETATION = "interpretation"
    """The text allows more than one reading; this is the one the library chose."""
    CORRECTED = "corrected"
    """The text contradicts itself or the game; this is the corrected reading."""
    HOUSE_RULE = "house-rule"
    """No text supports the value: a table's own rule, not a reading of a text."""


@attrs.frozen
class Source:
    """A text that rule sets cite: one of the four QE texts, or a custom file."""

    id: str
    title: str
    language: str
    kind: str
    """``"rulebook"``, ``"summary"`` or ``"custom"``."""
    sections: tuple[str, ...] = ()
    """The text's sections as citations name them (``"Gameplay/2. Secret bids"``)."""
    rules_words: int = 0
    """How many words the text's rules have (runs of letters and digits, without its
    story, care notes and credits): the measure of a printed rulebook's length."""

    def has_section(self, section: str) -> bool:
        """Whether ``section`` names sections of this text: one of :attr:`sections`, or
        several after a common parent (``"Final scoring/Monopolization, Diversification"``).

        >>> from qe_rules.rules.files import SOURCES
        >>> SOURCES["en"].has_section("Final scoring/Monopolization, Diversification")
        True
        >>> SOURCES["en-early"].has_section("Setup")
        False
        """
        if section in self.sections:
            return True
        parent, slash, children = section.rpartition("/")
        names = [name.strip() for name in children.split(",")]
        if len(names) < 2:
            return False
        prefix = parent + slash
        return all(prefix + name in self.sections for name in names)


@attrs.frozen
class Provenance:
    """Where a rule value comes from.

    >>> Provenance("en", "Special rules/Tied game", "Lower spend breaks a final tie.")
    Provenance(source='en', section='Special rules/Tied game', summary='Lower spend breaks a final tie.', basis=<Basis.STATED: 'stated'>)
    """

    source: str
    section: str
    summary: str
    basis: Basis = Basis.STATED

    def __str__(self) -> str:
        marker = "" if self.basis is Basis.STATED else f" [{self.basis.value}]"
        return f"{self.source} §{self.section}: {self.summary}{marker}"

    def to_dict(self) -> dict[str, str]:
        """The citation as JSON types, as in a rule set's ``provenance`` table."""
        return {
            "source": self.source,
            "section": self.section,
            "summary": self.summary,
            "basis": self.basis.value,
        }


@attrs.frozen
class Interpretation:
    """A reading the library chose where a text leaves a question open.

    ``gaps`` names the rule-gap codes (see :mod:`qe_rules.game.scoring` and the engine) that
    this interpretation acknowledges: the verifier reports them as known, not new.
    """

    code: str
    summary: str
    fields: tuple[str, ...] = ()
    gaps: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The interpretation as JSON types, as in a rule set's ``interpretations``."""
        return {
            "code": self.code,
            "summary": self.summary,
            "fields": list(self.fields),
            "gaps": list(self.gaps),
        }


GAP_CODES: Final[Mapping[str, str]] = FrozenDict(
    {
        "nationalization-beyond-table": (
            "a player has more tiles of their nation than the nationalization table covers"
        ),
        "monopolization-beyond-table": (
            "a player has more of one industry (token included) than the monopolization "
            "table covers"
        ),
        "diversification-beyond-table": (
            "a player has more distinct industries than the diversification table covers"
        ),
        "everyone-eliminated": "every player ties for the highest spend, so nobody can win",
        "tie-after-tiebreak": "players tie on points and the tie-break leaves more than one",
        "no-unique-bid": (
            "after the last tie no amount was bid exactly once in the sale; the tile is not sold"
        ),
        "no-untied-bid": (
            "after the last tie every standing bid is tied with another; the tile is not sold"
        ),
        "fallback-bid-tied": (
            "after the last tie the highest bid outside the tie for first place is itself "
            "tied; the tile is not sold"
        ),
        "endless-ties": "without a fallback, tied players can rebid forever",
    }
)
"""Every rule-gap code the library reports, with what it means. Codes are stable."""


# --------------------------------------------------------------------------- reading data


class DataError(InvalidRuleSet):
    """Plain data that does not fit: ``path`` names the key, ``problem`` what is wrong."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


DATA: Final = Readers(DataError, needs=True)
"""The readers of plain data: :class:`DataError`, "<path>: needs <expected>, got <value>"."""


def decode_text(value: Any, path: str) -> str:
    """A non-empty string of at most ``MAX_TEXT_LENGTH`` characters that a UTF-8 file
    can hold (no lone surrogates)."""
    if not isinstance(value, str) or not value.strip():
        raise DATA.fail(path, "a non-empty string", value)
    return DATA.text(value, path)


def decode_list(value: Any, path: str) -> list[Any]:
    """A list (or tuple), its items unread."""
    return DATA.sequence(value, path)


def _decode_texts(value: Any, path: str) -> tuple[str, ...]:
    return tuple(decode_text(v, f"{path}[{i}]") for i, v in enumerate(decode_list(value, path)))


def check_keys(value: Any, path: str, allowed: tuple[str, ...], shape: str) -> Mapping[str, Any]:
    """A table whose keys are all ``allowed``; ``shape`` says what anything else needs."""
    if not isinstance(value, Mapping):
        raise DATA.inner(path, shape)
    unknown = [key for key in value if key not in allowed]
    if unknown:
        names = ", ".join(shown(key) for key in unknown)
        raise DATA.inner(path, f"unknown keys [{names}]; allowed: {', '.join(allowed)}")
    return value


def _decode_enum(kind: type[enum.Enum]) -> Callable[[Any, str], Any]:
    allowed = ", ".join(repr(m.value) for m in kind)

    def decode(value: Any, path: str) -> Any:
        for member in kind:
            if isinstance(value, str) and value == member.value:
                return member
        raise DATA.fail(path, f"one of {allowed}", value)

    return decode


def decode_provenance(value: Any, path: str) -> Provenance:
    """A citation from plain data (``source``, ``section``, ``summary``, ``basis``)."""
    value = check_keys(
        value,
        path,
        ("source", "section", "summary", "basis"),
        "needs a table with source, section and summary",
    )
    for key in ("source", "section", "summary"):
        if key not in value:
            raise DATA.inner(path, f"missing {shown(key)}")
    return Provenance(
        decode_text(value["source"], f"{path}.source"),
        decode_text(value["section"], f"{path}.section"),
        decode_text(value["summary"], f"{path}.summary"),
        _decode_enum(Basis)(value.get("basis", "stated"), f"{path}.basis"),
    )


def decode_interpretation(value: Any, path: str, rule_fields: Iterable[str]) -> Interpretation:
    """An interpretation from plain data (``code``, ``summary``, ``fields``, ``gaps``)."""
    value = check_keys(
        value, path, ("code", "summary", "fields", "gaps"), "needs a table with code and summary"
    )
    fields = _decode_texts(value.get("fields", []), f"{path}.fields")
    gaps = _decode_texts(value.get("gaps", []), f"{path}.gaps")
    known = tuple(rule_fields)
    for index, name in enumerate(fields):
        if name not in known:
            raise DATA.inner(f"{path}.fields[{index}]", f"{shown(name)} is not a rule field")
    for index, code in enumerate(gaps):
        if code not in GAP_CODES:
            raise DATA.inner(
                f"{path}.gaps[{index}]",
                f"{shown(code)} is not a gap code; codes: {', '.join(GAP_CODES)}",
            )
    return Interpretation(
        decode_text(value.get("code"), f"{path}.code"),
        decode_text(value.get("summary"), f"{path}.summary"),
        fields,
        gaps,
    )


# --------------------------------------------------------------------------- field kinds


def _keep(value: Any) -> Any:
    return value


@attrs.frozen
class FieldKind:
    """What a rule field holds, and how it converts, checks, writes and reads its value.

    ``convert`` is the constructor's converter (it freezes mappings and lists and keeps
    anything else for ``check`` to report); ``check`` returns what is wrong with a value,
    or ``None``; ``encode`` writes the value as plain data and ``decode`` reads it back,
    raising :class:`DataError` with the key's path. ``per_players`` kinds hold one value
    per player count; ``check`` then sees one player count's value, and ``item`` is the
    kind of that value. ``choices`` lists every value of a kind that has few (a choice, true
    or false); ``bounds`` are the smallest and largest value of a whole number. A program
    that makes values (``qe_rules.strategies.ruleset_variations``) reads these.
    """

    encode: Callable[[Any], Any]
    decode: Callable[[Any, str], Any]
    check: Callable[[Any], str | None]
    convert: Callable[[Any], Any] = _keep
    per_players: bool = False
    choices: tuple[Any, ...] = ()
    bounds: tuple[int, int] | None = None
    item: FieldKind | None = None


def _int_decode(value: Any, path: str) -> int:
    return DATA.integer(value, path)


def _number(low: int, high: int, limit: str) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if type(value) is not int or value < low:
            return f"needs a whole number >= {low}, got {shown(value)}"
        if value > high:
            return f"{shown(value)} is above {limit} ({high})"
        return None

    return check


def _number_kind(low: int, high: int, limit: str) -> FieldKind:
    return FieldKind(_keep, _int_decode, _number(low, high, limit), bounds=(low, high))


def _check_bool(value: Any) -> str | None:
    return None if type(value) is bool else "needs true or false"


def _bool_decode(value: Any, path: str) -> bool:
    return DATA.flag(value, path)


COUNT: Final = _number_kind(0, MAX_TABLE_COUNT, "MAX_TABLE_COUNT")
"""A whole number from 0 to ``MAX_TABLE_COUNT`` (points for a zero bid, peeks)."""
BID: Final = _number_kind(0, MAX_BID, "MAX_BID")
"""A whole number from 0 to ``MAX_BID`` (a smallest bid)."""
TIES: Final = _number_kind(1, MAX_TIES_BEFORE_FALLBACK, "MAX_TIES_BEFORE_FALLBACK")
"""A whole number from 1 to ``MAX_TIES_BEFORE_FALLBACK``."""
BOOL: Final = FieldKind(_keep, _bool_decode, _check_bool, choices=(False, True))
"""``true`` or ``false``."""


def enum_kind(kind: type[enum.Enum]) -> FieldKind:
    """One member of ``kind``, written as its value."""
    allowed = ", ".join(repr(k.value) for k in kind)

    def check(value: Any) -> str | None:
        return None if isinstance(value, kind) else f"needs one of {allowed}"

    return FieldKind(lambda v: v.value, _decode_enum(kind), check, choices=tuple(kind))


def _sorted_counts(value: Any) -> Any:
    if not isinstance(value, Iterable) or isinstance(value, str | Mapping):
        return value
    items = tuple(value)
    return tuple(sorted(items)) if all(type(n) is int for n in items) else items


def _check_counts(value: Any) -> str | None:
    if not isinstance(value, tuple) or any(type(n) is not int for n in value):
        return "needs a list of player counts (whole numbers)"
    return None


PLAYER_COUNTS: Final = FieldKind(
    list,
    lambda value, path: tuple(
        _int_decode(v, f"{path}[{i}]") for i, v in enumerate(decode_list(value, path))
    ),
    _check_counts,
    _sorted_counts,
)
"""A list of player counts, kept sorted."""


def _key_decode(key: Any, path: str) -> int:
    if type(key) is int and key >= 0:
        number = key
    elif isinstance(key, str) and key.isdigit() and key.isascii() and len(key) <= 20:
        number = int(key)
    else:
        raise DATA.inner(path, f"keys must be whole numbers, got {shown(key)}")
    if number > MAX_TABLE_COUNT:
        raise DATA.inner(path, f"key {shown(number)} is above MAX_TABLE_COUNT ({MAX_TABLE_COUNT})")
    return number


def _map_decode(value: Any, path: str, item: Callable[[Any, str], Any]) -> dict[int, Any]:
    if not isinstance(value, Mapping):
        raise DATA.fail(path, "a table keyed by number", value)
    result = {}
    for key, inner in value.items():
        number = _key_decode(key, path)
        if number in result:
            raise DATA.inner(path, f"key {number} appears twice")
        result[number] = item(inner, f"{path}.{key}")
    return result


def _freeze_map(value: Any, inner: Callable[[Any], Any] = _keep) -> Any:
    if not isinstance(value, Mapping):
        return value  # reported by validation, with the field's name
    return FrozenDict((key, inner(v)) for key, v in value.items())


def _freeze_list(value: Any) -> Any:
    if isinstance(value, Iterable) and not isinstance(value, str | Mapping):
        return tuple(value)
    return value


def per_players(item: FieldKind) -> FieldKind:
    """One value of kind ``item`` per player count, written as a table keyed by count."""
    return FieldKind(
        lambda value: {str(n): item.encode(v) for n, v in value.items()},
        lambda value, path: _map_decode(value, path, item.decode),
        item.check,
        lambda value: _freeze_map(value, item.convert),
        per_players=True,
        item=item,
    )


def _piece_kind(parse: Callable[[str], Any], what: str, write: Callable[[Any], str]) -> FieldKind:
    read = DATA.parsed(parse, f"a {what} code")

    def decode(value: Any, path: str) -> tuple[Any, ...]:
        return DATA.listed(value, path, read)

    def check(value: Any) -> str | None:
        piece = {"company": Company, "nation": Nation, "industry": Industry}[what]
        if not isinstance(value, tuple) or any(not isinstance(x, piece) for x in value):
            return f"not a list of {what} codes"
        if len(set(value)) != len(value):
            return f"a {what} is listed twice"
        return None

    return FieldKind(lambda v: [write(x) for x in v], decode, check, _freeze_list)


COMPANY_LIST: Final = _piece_kind(Company.parse, "company", str)
"""A list of company tiles, written as codes such as ``"US-FIN-2"`` (not to be confused
with :data:`qe_rules.components.COMPANIES`, the tuple of all tiles)."""
NATIONS: Final = _piece_kind(Nation.parse, "nation", lambda n: n.code)
"""A list of nations, written as codes such as ``"US"``."""
INDUSTRIES: Final = _piece_kind(Industry.parse, "industry", lambda i: i.name)
"""A list of industries, written as names such as ``"FINANCE"``."""
POINTS: Final = _number_kind(0, MAX_BID, "MAX_BID")
"""Victory points: a whole number from 0 to ``MAX_BID``."""
DECK_SIZE: Final = _number_kind(1, MAX_TABLE_COUNT, "MAX_TABLE_COUNT")
"""A number of tiles: a whole number from 1 to ``MAX_TABLE_COUNT``."""


def _check_table(table: Any) -> str | None:
    if not isinstance(table, Mapping):
        return "needs a table of count -> points"
    keys = list(table)
    if not keys:
        return "the table is empty"
    if any(type(k) is not int or k < 1 for k in keys):
        return "counts must be whole numbers >= 1"
    if max(keys) > MAX_TABLE_COUNT:
        return f"count {shown(max(keys))} is above MAX_TABLE_COUNT ({MAX_TABLE_COUNT})"
    keys.sort()
    if keys != list(range(keys[0], keys[-1] + 1)):
        return f"the table skips a count (has {keys})"
    if any(POINTS.check(v) for v in table.values()):
        return f"points must be whole numbers >= 0 and at most MAX_BID ({MAX_BID})"
    return None


TABLE: Final = FieldKind(
    lambda table: {str(k): v for k, v in sorted(table.items())},
    lambda value, path: _map_decode(value, path, _int_decode),
    _check_table,
    _freeze_map,
)
"""A scoring table: count -> points, counts consecutive from 1 to ``MAX_TABLE_COUNT``."""


def _decode_categories(value: Any, path: str) -> tuple[Category, ...]:
    decode = _decode_enum(Category)
    return tuple(decode(v, f"{path}[{i}]") for i, v in enumerate(decode_list(value, path)))


def _check_categories(value: Any) -> str | None:
    if not isinstance(value, tuple | frozenset) or any(not isinstance(c, Category) for c in value):
        return "needs scoring categories"
    return None


CATEGORY_ORDER: Final = FieldKind(
    lambda v: [c.value for c in v], _decode_categories, _check_categories, _freeze_list
)
"""Scoring categories in order."""
CATEGORY_SET: Final = FieldKind(
    lambda v: sorted(c.value for c in v),
    _decode_categories,
    _check_categories,
    lambda v: frozenset(v) if isinstance(v, Iterable) and not isinstance(v, str) else v,
)
"""A set of scoring categories, written sorted."""


def __getattr__(name: str) -> Any:
    """The deprecated name ``COMPANIES`` of :data:`COMPANY_LIST`."""
    if name == "COMPANIES":
        renamed("qe_rules.rules.values.COMPANIES", "COMPANY_LIST")
        return COMPANY_LIST
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
