"""Final scoring: from each player's holdings to score sheets, eliminations and the winner.

:func:`score_game` works on its own (a scoring-pad app needs nothing else) and is what the
game engine calls at the end::

    >>> import qe_rules as qe
    >>> records = [
    ...     qe.PlayerRecord("US", "AGRICULTURE",
    ...                     ["JP-FIN-1", "CN-MAN-1", "US-FIN-2", "US-HOU-1", "CN-FIN-4", "EU-MAN-4"],
    ...                     spent=20, zero_bid_rounds=3),
    ...     qe.PlayerRecord("EU", "HOUSING", ["EU-FIN-3", "CN-AGR-2", "JP-MAN-2"], spent=31),
    ...     qe.PlayerRecord("CN", "FINANCE", ["CN-HOU-3", "JP-AGR-3", "EU-AGR-1"], spent=25),
    ...     qe.PlayerRecord("JP", "MANUFACTURING", ["JP-HOU-4", "US-AGR-4", "US-MAN-3", "EU-HOU-2"],
    ...                     spent=38),
    ... ]
    >>> result = qe.score_game("en", records)
    >>> sheet = result.sheets[0]
    >>> sheet.subtotal, sheet.lowest_spend_bonus, sheet.total
    (39, 6, 45)
    >>> result.winners, result.sheets[3].eliminated
    ((0,), True)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final, NamedTuple, Protocol

import attrs

from qe_rules._util.deprecation import renamed
from qe_rules._util.display import svg_of
from qe_rules._util.reading import (
    ARGUMENTS,
    FIRST_KEY,
    MAX_PLAYERS,
    Fields,
    agree,
    at_most,
    flag,
    listed,
    one_of,
    seats,
    text,
    whole,
)
from qe_rules._util.tables import table
from qe_rules.components import COMPANIES, Company, Industry, Nation
from qe_rules.errors import InvalidArgument, RulesError, UnknownRuleSet, shown
from qe_rules.game._tables import (
    TILE_LIMIT,
    ScoringTables,
    diversification,
    most_points,
    scoring_tables,
)
from qe_rules.limits import MAX_BID, MAX_TABLE_COUNT
from qe_rules.rules.model import (
    GAP_CODES,
    RULESETS,
    Category,
    EveryoneTiedForMostSpent,
    FinalTieBreak,
    RuleSet,
    TieAfterTiebreak,
    get_ruleset,
)

__all__ = [
    "GameResult",
    "Gap",
    "PlayerRecord",
    "ScoreSheet",
    "diversification_points",
    "score_board_rows",
    "score_game",
]


# --------------------------------------------------------------------------- input


def _to_nation(value: Nation | str) -> Nation:
    if isinstance(value, Nation):
        return value
    if isinstance(value, str):
        return Nation.parse(value)
    raise InvalidArgument(f"a nation must be a Nation or its code, got {shown(value)}")


def _to_industry(value: Industry | str) -> Industry:
    if isinstance(value, Industry):
        return value
    if isinstance(value, str):
        return Industry.parse(value)
    raise InvalidArgument(f"an industry token must be an Industry or its name, got {shown(value)}")


def _to_companies(value: Iterable[Company | str]) -> tuple[Company, ...]:
    if isinstance(value, tuple) and all(type(c) is Company for c in value):
        return value
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise InvalidArgument(f"companies must be a list of tiles, got {shown(value)}")
    tiles = []
    for item in value:
        if isinstance(item, Company):
            tiles.append(item)
        elif isinstance(item, str):
            tiles.append(Company.parse(item))
        else:
            raise InvalidArgument(f"a company must be a Company or its code, got {shown(item)}")
    return tuple(tiles)


# The most a player can spend: a winning bid of at most MAX_BID for each of the 21 tiles.
_MOST = {"spent": len(COMPANIES) * MAX_BID, "zero_bid_rounds": MAX_TABLE_COUNT}


def _check_count(instance: PlayerRecord, attribute: attrs.Attribute[int], value: int) -> None:
    most = _MOST[attribute.name]
    if type(value) is not int or not 0 <= value <= most:
        raise InvalidArgument(
            f"{attribute.name} must be a whole number (int) from 0 to {most} "
            f"(qe_rules.limits), got {shown(value)}"
        )


@attrs.frozen
class PlayerRecord:
    """What one player ends a game with: the scoring input for one seat.

    ``industry`` is the player's face-down industry token; ``spent`` the sum of the
    player's winning bids; ``zero_bid_rounds`` how many rounds the player scored a zero
    bid in. Nations, tokens and tiles may be given as their codes.

    >>> PlayerRecord("jp", "fin", ["JP-HOU-4"], spent=7)
    PlayerRecord(nation=<Nation.JP: 'JP'>, industry=<Industry.FINANCE: 'FIN'>, companies=(Company('JP-HOU-4'),), spent=7, zero_bid_rounds=0)
    """

    nation: Nation = attrs.field(converter=_to_nation)
    industry: Industry = attrs.field(converter=_to_industry)
    companies: tuple[Company, ...] = attrs.field(converter=_to_companies)
    spent: int = attrs.field(validator=_check_count)
    zero_bid_rounds: int = attrs.field(default=0, validator=_check_count)

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON types; :meth:`from_dict` reads it back."""
        return {
            "nation": self.nation.code,
            "industry": self.industry.name,
            "companies": [str(c) for c in self.companies],
            "spent": self.spent,
            "zero_bid_rounds": self.zero_bid_rounds,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PlayerRecord:
        """Read a record from a mapping with the keys of :meth:`to_dict`.

        ``zero_bid_rounds`` may be left out (0); a player's ``name`` is allowed and
        ignored; any other key is an error. Raises :class:`~qe_rules.InvalidArgument`
        naming what is missing or wrong.

        >>> PlayerRecord.from_dict({"nation": "US", "industry": "FIN", "companies": [],
        ...                         "spent": 0, "zero_bid_round": 1})
        Traceback (most recent call last):
        ...
        qe_rules.errors.InvalidArgument: unknown key 'zero_bid_round' in a player record; allowed: nation, industry, companies, spent, zero_bid_rounds, name
        """
        fields = Fields(data, "a player record", _RECORD_KEYS[:4], _RECORD_KEYS[4:], keys=FIRST_KEY)
        fields.get("name", text)  # checked (a file can hold it), not kept
        return cls(
            fields.get("nation", _exact_nation),
            fields.get("industry", _exact_industry),
            fields.get("companies", lambda v, at: listed(v, at, _exact_company)),
            fields.get("spent", _record_count),
            fields.get("zero_bid_rounds", _record_count, 0),
        )


def _record_count(value: Any, where: str) -> Any:
    """A count the constructor checks against its limits (and names in its errors); a
    JSON number with no fractional part is read as a whole number."""
    return (
        int(value) if type(value) is float and value.is_integer() and abs(value) < 2**63 else value
    )


_exact_nation = one_of(
    {n.code: n for n in Nation}, "one of " + ", ".join(repr(n.code) for n in Nation)
)
_exact_industry = one_of(
    {**{i.name: i for i in Industry}, **{i.value: i for i in Industry}},
    "one of " + ", ".join(repr(i.name) for i in Industry) + " or its code ('FIN'...)",
)
_exact_company = one_of({str(c): c for c in COMPANIES}, "a tile code such as 'US-FIN-2'")


# the required keys, then the optional ones
_RECORD_KEYS: Final = ("nation", "industry", "companies", "spent", "zero_bid_rounds", "name")


# --------------------------------------------------------------------------- output


@attrs.frozen
class Gap:
    """A situation the rule set's text does not decide, met in a real game or scoring.

    ``code`` is one of :data:`qe_rules.GAP_CODES`; ``seats`` the seats concerned.
    """

    code: str
    message: str
    seats: tuple[int, ...] = ()

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        """The gap as JSON types; :meth:`from_dict` reads it back."""
        return {"code": self.code, "message": self.message, "seats": list(self.seats)}

    @classmethod
    def from_dict(cls, data: Any, where: str = "gap") -> Gap:
        """Read the output of :meth:`to_dict` (raises :class:`~qe_rules.InvalidArgument`)."""
        fields = Fields(data, where, ("code", "message", "seats"))
        gap = cls(
            fields.get("code", _gap_code),
            fields.get("message", text),
            fields.get("seats", lambda v, at: listed(v, at, _result_seat)),
        )
        agree(
            list(gap.seats) == sorted(set(gap.seats)),
            f"{where}.seats",
            "names each seat once, in order",
        )
        return gap


@attrs.frozen(slots=False, repr=False)
class ScoreSheet:
    """One player's score board.

    ``company_points`` are the points of the company tiles (the ``companies`` category);
    ``subtotal`` sums the five point categories; ``total`` adds the lowest-spend bonus.
    ``eliminated`` is true for the highest spender(s), who cannot win. The plain data of
    :meth:`to_dict` and the repr call ``company_points`` by its category name,
    ``companies``.
    """

    seat: int
    nation: Nation
    company_points: int
    zero_bids: int
    nationalization: int
    monopolization: int
    diversification: int
    subtotal: int
    lowest_spend_bonus: int
    total: int
    spent: int
    eliminated: bool

    @classmethod
    def _scored(cls, **fields: Any) -> ScoreSheet:
        """A sheet of the fields the scorer computed, given by name.

        This is what the ``__init__`` that attrs writes for this dict-backed class does
        (it has no defaults, converters or validators), without the class call's handling
        of twelve keywords, which costs about as much as scoring the seat itself."""
        sheet = object.__new__(cls)
        sheet.__dict__.update(fields)
        return sheet

    def __repr__(self) -> str:
        values = ", ".join(f"{key}={getattr(self, name)!r}" for key, name in _SHEET_FIELDS)
        return f"ScoreSheet({values})"

    @property
    def companies(self) -> int:
        """Deprecated name of :attr:`company_points` (a player record's ``companies`` are
        tiles; a sheet's are points)."""
        renamed("ScoreSheet.companies", "ScoreSheet.company_points")
        return self.company_points

    @property
    def category_points(self) -> int:
        """The five point categories added up: what :attr:`subtotal` must be."""
        return (
            self.company_points
            + self.zero_bids
            + self.nationalization
            + self.monopolization
            + self.diversification
        )

    def points(self, category: Category) -> int:
        """The points of one category (``SPENDING`` gives the lowest-spend bonus)."""
        value: int = getattr(self, _CATEGORY_FIELDS[category])
        return value

    def to_dict(self) -> dict[str, Any]:
        """The sheet as JSON types; :meth:`from_dict` reads it back."""
        return {
            **{key: getattr(self, name) for key, name in _SHEET_FIELDS},
            "nation": self.nation.code,
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "sheet") -> ScoreSheet:
        """Read the output of :meth:`to_dict`; raises :class:`~qe_rules.InvalidArgument`
        naming the key that is missing, unknown or wrong."""
        fields = Fields(data, where, _SHEET_KEYS)
        values: dict[str, Any] = {
            name: fields.get(key, _SHEET_READERS.get(key, whole))
            for key, name in _SHEET_FIELDS
            if key in _SHEET_COUNTS
        }
        sheet = cls(
            **values,
            nation=fields.get("nation", _exact_nation),
            eliminated=fields.get("eliminated", flag),
        )
        _check_sheet_sums(sheet, where)
        return sheet


@attrs.frozen(slots=False)  # a dict-backed frozen class is made faster than a slotted one
class GameResult:
    """Everyone's score sheet, the winner(s), and the rule gaps met while scoring.

    ``winners`` holds exactly one seat in a normal game. Where the text names no winner it
    holds the seats still level (several, or none when everyone is eliminated) and
    ``gaps`` says why.
    """

    ruleset: str
    sheets: tuple[ScoreSheet, ...]
    winners: tuple[int, ...]
    gaps: tuple[Gap, ...] = ()

    @property
    def winner(self) -> int | None:
        """The winning seat, or ``None`` where the rules name no single winner."""
        return self.winners[0] if len(self.winners) == 1 else None

    def to_text(self) -> str:
        """The score board as text with the default names and order (see
        :meth:`score_board`); ``str(result)`` is the same text."""
        return self.score_board()

    def __str__(self) -> str:
        return self.to_text()

    def _repr_svg_(self) -> str:
        return svg_of(self)

    def _repr_html_(self) -> str:
        return f'<div class="qe-rules">{self._repr_svg_()}</div>'

    def score_board(
        self,
        names: Sequence[str] | None = None,
        scoring_order: Sequence[Category] | None = None,
    ) -> str:
        """The score board as text: one column per seat, one row per scoring line, then
        the winner. ``str(result)`` and ``result.to_text()`` are ``result.score_board()``.

        ``names`` head the columns (default ``seat 0``, ``seat 1``, ...);
        ``scoring_order`` orders the rows (default: the built-in rule set's order).
        """
        shown_names = _seat_names(self, names)
        rows = [[label, *values] for label, values in score_board_rows(self, scoring_order)]
        sheets = self.sheets
        text = [
            f"Rule set {self.ruleset}, {len(sheets)} players",
            "",
            *table(["", *shown_names], rows),
            "",
        ]
        if self.winner is not None:
            text.append(f"Winner: {shown_names[self.winner]} ({sheets[self.winner].nation.code})")
        else:
            level = ", ".join(shown_names[s] for s in self.winners) or "nobody"
            text.append(f"No single winner under {self.ruleset}; still level: {level}")
        text.extend(f"Rule gap {gap}" for gap in self.gaps)
        return "\n".join(text)

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON types; :meth:`from_dict` reads it back."""
        return {
            "ruleset": self.ruleset,
            "sheets": [sheet.to_dict() for sheet in self.sheets],
            "winners": list(self.winners),
            "gaps": [gap.to_dict() for gap in self.gaps],
        }

    @classmethod
    def from_dict(
        cls, data: Any, where: str = "result", *, ruleset: RuleSet | str | None = None
    ) -> GameResult:
        """Read the output of :meth:`to_dict`; raises :class:`~qe_rules.InvalidArgument`
        naming the key that is missing, unknown or wrong, or the figures that disagree.

        A result is accepted only where scoring would have decided it so: each sheet's
        subtotal and total are the sums of its points, and the eliminations, lowest-spend
        bonuses, winners and tie gaps are those the rule set decides from the sheets'
        spends and totals. The rule set is the one the document names (a built-in id or a
        spec string); a result of another rule set (one loaded from a file) is read with
        that rule set given as ``ruleset``.
        """
        rules = given_rules(ruleset)
        fields = Fields(data, where, ("ruleset", "sheets", "winners", "gaps"))
        result = cls(
            ruleset=fields.get("ruleset", text),
            sheets=fields.get("sheets", lambda v, at: listed(v, at, ScoreSheet.from_dict)),
            winners=fields.get("winners", lambda v, at: listed(v, at, _result_seat)),
            gaps=fields.get("gaps", lambda v, at: listed(v, at, Gap.from_dict)),
        )
        _check_result(result, where)
        _check_decided(result, named_rules(result.ruleset, rules, f"{where}.ruleset"), where)
        return result


def _check_result(result: GameResult, where: str) -> None:
    """Check that a result read from data agrees with itself: 2 to 5 sheets, each of its
    own seat and nation, winners and gap seats among the seats, no winner twice."""
    players = len(result.sheets)
    agree(2 <= players <= MAX_PLAYERS, f"{where}.sheets", f"needs 2 to 5 sheets, got {players}")
    for seat, sheet in enumerate(result.sheets):
        agree(sheet.seat == seat, f"{where}.sheets[{seat}].seat", f"is {sheet.seat}, not {seat}")
    nations = [sheet.nation for sheet in result.sheets]
    agree(len(set(nations)) == players, f"{where}.sheets", "repeat a nation")
    seats(result.winners, players, f"{where}.winners")
    agree(len(set(result.winners)) == len(result.winners), f"{where}.winners", "repeat a seat")
    for index, gap in enumerate(result.gaps):
        seats(gap.seats, players, f"{where}.gaps[{index}].seats")


def _check_sheet_sums(sheet: ScoreSheet, where: str) -> None:
    """Check that a sheet's subtotal sums its five point categories and its total adds
    the lowest-spend bonus."""
    parts = sheet.category_points
    agree(
        sheet.subtotal == parts,
        f"{where}.subtotal",
        f"is {sheet.subtotal}, but the five point categories add up to {parts}",
    )
    agree(
        sheet.total == sheet.subtotal + sheet.lowest_spend_bonus,
        f"{where}.total",
        f"is {sheet.total}, but the subtotal and the lowest-spend bonus add up to "
        f"{sheet.subtotal + sheet.lowest_spend_bonus}",
    )


def given_rules(ruleset: object) -> RuleSet | None:
    """The ``ruleset`` argument of a reader: ``None``, a rule set, or an id."""
    if ruleset is None or isinstance(ruleset, RuleSet):
        return ruleset
    if not isinstance(ruleset, str):
        raise InvalidArgument(f"ruleset is a RuleSet, a rule set id or None, got {shown(ruleset)}")
    return get_ruleset(ruleset)


def named_rules(rid: str, given: RuleSet | None, where: str) -> RuleSet:
    """The rule set a document names by ``rid``: ``given`` (whose id it must be), or the
    built-in or spec string ``rid`` names. Raises :class:`~qe_rules.InvalidArgument`
    saying how to read a document of another rule set."""
    if given is not None:
        agree(
            rid == given.id,
            where,
            f"names {shown(rid)}, but the rule set given is {shown(given.id)}",
        )
        return given
    try:
        return get_ruleset(rid)
    except UnknownRuleSet as error:
        raise ARGUMENTS.disagree(
            where,
            f"{error}; a document of a rule set loaded from a file is read with that rule "
            "set given (ruleset=...)",
        ) from None
    except RulesError as error:
        raise ARGUMENTS.disagree(where, str(error)) from None


DECIDED_GAPS: Final = frozenset({"everyone-eliminated", "tie-after-tiebreak"})
"""The codes of the rule gaps scoring reports when it decides the winners (a tie)."""
SCORING_GAPS: Final = DECIDED_GAPS | {
    f"{category}-beyond-table"
    for category in ("nationalization", "monopolization", "diversification")
}
"""The codes of every rule gap scoring reports: a tie's, and a count beyond a table."""
_BEYOND = re.compile(
    r"seat (\d) reaches (\d{1,3})(?: (\w+))? in (\w+), but the table stops at (\d{1,3})"
)


def _check_decided(result: GameResult, rules: RuleSet, where: str) -> None:
    """Check that ``result`` is what scoring under ``rules`` decides from its sheets
    (:func:`decided_winners`), and that its rule gaps are of the kinds scoring reports,
    in its order: the tables' gaps seat by seat, then a tie's."""
    winners, decided = decided_winners(result.sheets, rules, f"{where}.sheets")
    agree(
        result.winners == winners,
        f"{where}.winners",
        f"are {list(result.winners)}, but the totals, eliminations and tie-break of "
        f"{rules.id} give {list(winners)}",
    )
    beyond = [gap for gap in result.gaps if gap.code not in DECIDED_GAPS]
    agree(
        result.gaps == (*beyond, *decided),
        f"{where}.gaps",
        "differ from the gaps scoring reports: the tables' gaps seat by seat, then "
        + (", ".join(f"{gap.code} of seats {list(gap.seats)}" for gap in decided) or "no tie"),
    )
    tables = scoring_tables(rules, len(result.sheets))
    seen: list[int] = []
    for index, gap in enumerate(beyond):
        _check_beyond(gap, tables, f"{where}.gaps[{index}]")
        seen.append(gap.seats[0])
    agree(seen == sorted(seen), f"{where}.gaps", "are not in seat order")


def decided_winners(
    sheets: Sequence[ScoreSheet], rules: RuleSet, where: str
) -> tuple[tuple[int, ...], tuple[Gap, ...]]:
    """The winners and tie gaps scoring under ``rules`` decides from ``sheets`` (one per
    seat, in seat order), once each sheet is checked against what the game's tables can
    give and its lowest-spend bonus and elimination against the spends. Raises
    :class:`~qe_rules.InvalidArgument` (a disagreement) naming the first sheet that
    scoring could not have written."""
    players = len(sheets)
    agree(
        players in rules.player_counts,
        where,
        f"{rules.id} is played by {', '.join(map(str, rules.player_counts))} players, "
        f"got {players} sheets",
    )
    tables = scoring_tables(rules, players)
    spending = _spending(rules, tables, [sheet.spent for sheet in sheets])
    for seat, sheet in enumerate(sheets):
        _check_points(sheet, rules, players, tables, spending, f"{where}[{seat}]")
    decided: list[Gap] = []
    winners = _winners(rules, list(sheets), decided)
    return winners, tuple(decided)


def _check_points(
    sheet: ScoreSheet,
    rules: RuleSet,
    players: int,
    tables: ScoringTables,
    spending: _Spending,
    where: str,
) -> None:
    """Check one sheet's points against what the tables can give and its bonus and
    elimination against the spends."""
    agree(
        sheet.nation in tables.nations,
        f"{where}.nation",
        f"{sheet.nation.code} is not in play with {players} players under {rules.id}",
    )
    per_zero = tables.zero_bid_points
    rounds, extra = divmod(sheet.zero_bids, per_zero) if per_zero else (0, sheet.zero_bids)
    agree(
        not extra and rounds <= tables.max_zero_bid_rounds,
        f"{where}.zero_bids",
        f"is {sheet.zero_bids}, not {per_zero} points for each of at most "
        f"{tables.max_zero_bid_rounds} zero-bid rounds",
    )
    agree(
        sheet.nationalization in tables.nationalization,
        f"{where}.nationalization",
        f"{sheet.nationalization} is not a value of the nationalization table",
    )
    bounds = most_points(rules, players)
    for name in ("company_points", "monopolization", "diversification"):
        points, most = getattr(sheet, name), bounds[name]
        agree(
            points <= most,
            f"{where}.{'companies' if name == 'company_points' else name}",
            f"{points} is more than a game of {rules.id} can give ({most})",
        )
    bonus = spending.bonus if sheet.spent == spending.lowest else 0
    agree(
        sheet.lowest_spend_bonus == bonus,
        f"{where}.lowest_spend_bonus",
        f"is {sheet.lowest_spend_bonus}, but the spends give {bonus}",
    )
    eliminated = spending.eliminates and sheet.spent == spending.highest
    agree(
        sheet.eliminated is eliminated,
        f"{where}.eliminated",
        f"is {str(sheet.eliminated).lower()}, but the spends and {rules.id} give "
        f"{str(eliminated).lower()}",
    )


def _check_beyond(gap: Gap, tables: ScoringTables, where: str) -> None:
    """Check a gap of a count beyond a scoring table: the message scoring writes for one
    seat, a count past the table's end."""
    match = _BEYOND.fullmatch(gap.message)
    category = gap.code.removesuffix("-beyond-table")
    top = {
        "nationalization": tables.nationalization_max,
        "monopolization": tables.monopolization_max,
        "diversification": tables.diversification_max,
    }.get(category)
    agree(
        top is not None
        and match is not None
        and len(gap.seats) == 1
        and match[1] == str(gap.seats[0])
        and match[4] == category
        and int(match[5]) == top
        and top < int(match[2]) <= TILE_LIMIT
        and (match[3] is None) is (category != "monopolization")
        and (match[3] is None or match[3] in _INDUSTRY_LABELS),
        where,
        "is not a gap scoring reports: a count beyond a scoring table "
        "(seat <s> reaches <count> in <category>, but the table stops at <top>) or a tie",
    )


_INDUSTRY_LABELS: Final = frozenset(industry.label for industry in Industry)


_gap_code = one_of({code: code for code in GAP_CODES}, "a rule-gap code (qe_rules.GAP_CODES)")

# (plain-data key, field): the keys keep the category name "companies" for company_points
_SHEET_FIELDS: Final = tuple(
    ("companies" if field.name == "company_points" else field.name, field.name)
    for field in attrs.fields(ScoreSheet)
)
_SHEET_KEYS: Final = tuple(key for key, _ in _SHEET_FIELDS)
_CATEGORY_FIELDS: Final = {
    **{category: category.value for category in Category},
    Category.COMPANIES: "company_points",
    Category.SPENDING: "lowest_spend_bonus",
}
_SHEET_COUNTS: Final = tuple(name for name in _SHEET_KEYS if name not in ("nation", "eliminated"))
_result_seat = at_most(MAX_PLAYERS - 1, "a game has at most 5 seats")
_SHEET_READERS: Final = {
    "seat": _result_seat,
    "spent": at_most(len(COMPANIES) * MAX_BID, "21 winning bids of at most MAX_BID"),
}


def _seat_names(result: GameResult, names: Sequence[str] | None) -> list[str]:
    count = len(result.sheets)
    if names is None:
        return [f"seat {seat}" for seat in range(count)]
    if not isinstance(names, list | tuple) or not all(isinstance(n, str) for n in names):
        raise InvalidArgument(f"names is a list of strings, one per seat, got {shown(names)}")
    if len(names) != count:
        raise InvalidArgument(f"give one name per seat ({count}), got {len(names)}")
    return list(names)


def score_board_rows(
    result: GameResult, scoring_order: Sequence[Category] | None = None
) -> list[tuple[str, list[str]]]:
    """The rows of the score board, as ``(label, one value per seat)``: the nation, the
    points categories in ``scoring_order`` (default: the built-in rule set's order, else
    :class:`Category` order) with the subtotal after the last of them, the spending lines
    where ``SPENDING`` stands, and the total. Both the text and the picture use them."""
    if scoring_order is None:
        builtin = RULESETS.get(result.ruleset)
        scoring_order = builtin.scoring_order if builtin is not None else tuple(Category)
    elif (
        not isinstance(scoring_order, list | tuple)
        or not all(isinstance(c, Category) for c in scoring_order)
        or len(set(scoring_order)) != len(scoring_order)
    ):
        raise InvalidArgument(
            f"scoring_order is a list of Category members, each at most once, got "
            f"{shown(scoring_order)}"
        )
    sheets = result.sheets
    rows: list[tuple[str, list[str]]] = [("nation", [s.nation.code for s in sheets])]

    def line(label: str, value: Callable[[ScoreSheet], object]) -> None:
        rows.append((label, [str(value(s)) for s in sheets]))

    points = [c for c in scoring_order if c is not Category.SPENDING]
    for category in scoring_order:
        if category is Category.SPENDING:
            line("spent", lambda s: s.spent)
            line("lowest-spend bonus", lambda s: s.lowest_spend_bonus)
            line("out (highest spend)", lambda s: "out" if s.eliminated else "-")
            continue
        line(
            category.value.replace("_", " "),
            functools.partial(ScoreSheet.points, category=category),
        )
        if category is points[-1]:
            line("subtotal", lambda s: s.subtotal)
    line("total", lambda s: s.total)
    return rows


# --------------------------------------------------------------------------- diversification


def diversification_points(rules: RuleSet | str, players: int, counts: Sequence[int]) -> int:
    """The diversification points of items (tiles, and the token where it counts) with
    these per-industry ``counts``, by the rule set's ``diversification_sets`` and
    ``tiles_once_per_category``.

    >>> import qe_rules as qe
    >>> counts = (2, 2, 1, 1, 1)
    >>> diversification_points(qe.get_ruleset("en"), 5, counts)
    20
    >>> diversification_points(qe.get_ruleset("en:diversification_sets=largest-first"), 5, counts)
    17

    ``counts`` holds at most one whole number per industry (five), together at most the
    22 items a seat can hold (21 tiles and its token); anything else raises
    :class:`~qe_rules.InvalidArgument`.
    """
    if not isinstance(rules, RuleSet | str):
        raise InvalidArgument(f"rules is a RuleSet or a rule set id, got {shown(rules)}")
    rules = get_ruleset(rules)
    players = rules.check_players(players)
    return diversification(scoring_tables(rules, players), _item_counts(counts))


def _item_counts(counts: object) -> tuple[int, ...]:
    """``counts`` of :func:`diversification_points`, checked."""
    if not isinstance(counts, list | tuple) or len(counts) > len(Industry):
        raise InvalidArgument(
            f"counts is a list of at most {len(Industry)} counts, one per industry, "
            f"got {shown(counts)}"
        )
    for count in counts:
        if type(count) is not int or not 0 <= count <= TILE_LIMIT:
            raise InvalidArgument(
                f"a count of items of one industry is a whole number (int) from 0 to "
                f"{TILE_LIMIT}, got {shown(count)}"
            )
    if sum(counts) > TILE_LIMIT:
        raise InvalidArgument(
            f"counts add up to at most {TILE_LIMIT} (21 tiles and a token), got {sum(counts)}"
        )
    return tuple(counts)


# --------------------------------------------------------------------------- scoring


class _Holding(Protocol):
    """What scoring reads of one seat: a :class:`PlayerRecord`, or the engine's seat."""

    @property
    def nation(self) -> Nation: ...
    @property
    def industry(self) -> Industry: ...
    @property
    def companies(self) -> Sequence[Company]: ...
    @property
    def spent(self) -> int: ...
    @property
    def zero_bid_rounds(self) -> int: ...


class _Seat(NamedTuple):
    """One seat of a game the engine played (its holdings need no checks)."""

    nation: Nation
    industry: Industry
    companies: Sequence[Company]
    spent: int
    zero_bid_rounds: int


def score_game(ruleset: RuleSet | str, records: Sequence[PlayerRecord]) -> GameResult:
    """Score a finished game: one :class:`PlayerRecord` per seat, in seat order.

    Raises :class:`~qe_rules.InvalidArgument` when the records cannot come from one game
    under this rule set (player count, nations and tokens in play and distinct, tiles in
    the deck and held once, zero-bid rounds within the game's rounds).
    """
    rules = get_ruleset(ruleset)
    if type(records) is not list and (
        isinstance(records, str | bytes) or not isinstance(records, Sequence)
    ):
        raise InvalidArgument(f"records must be a sequence of PlayerRecord, got {shown(records)}")
    players = len(records)
    if players not in rules.player_counts:
        counts = ", ".join(map(str, rules.player_counts))
        raise InvalidArgument(
            f"{rules.id} is played by {counts} players; got {players} player records"
        )
    tables = scoring_tables(rules, players)
    _check_records(rules, tables, records)
    return _score(rules, tables, records)


def score_holdings(
    rules: RuleSet,
    nations: Sequence[Nation],
    industries: Sequence[Industry],
    holdings: Sequence[Sequence[Company]],
    spends: Sequence[int],
    zero_bid_rounds: Sequence[int],
) -> GameResult:
    """:func:`score_game` for valid holdings given seat by seat (the engine's), without
    building player records."""
    seats = list(map(_Seat, nations, industries, holdings, spends, zero_bid_rounds))
    return _score(rules, scoring_tables(rules, len(seats)), seats)


_INDUSTRY_INDEX: Final = {industry: index for index, industry in enumerate(Industry)}


class _Spending(NamedTuple):
    """What the spends of a game decide: the highest and lowest spend, whether the highest
    spenders are eliminated, and the bonus of a lowest spender."""

    highest: int
    lowest: int
    eliminates: bool
    bonus: int


def _spending(rules: RuleSet, tables: ScoringTables, spends: Sequence[int]) -> _Spending:
    highest, lowest = max(spends), min(spends)
    tied_highest = spends.count(highest)
    eliminates = rules.eliminate_highest_spender and (
        tied_highest == 1 or rules.eliminate_all_tied_highest
    )
    if (
        tied_highest == len(spends)
        and rules.everyone_tied_for_most_spent is EveryoneTiedForMostSpent.NONE_ELIMINATED
    ):
        eliminates = False
    bonus = tables.bonus if spends.count(lowest) == 1 or rules.lowest_spend_bonus_to_all_tied else 0
    return _Spending(highest, lowest, eliminates, bonus)


def _score(rules: RuleSet, tables: ScoringTables, seats: Sequence[_Holding]) -> GameResult:
    highest, lowest, eliminates, bonus = _spending(
        rules, tables, [holding.spent for holding in seats]
    )
    index = _INDUSTRY_INDEX
    gaps: list[Gap] = []
    sheets: list[ScoreSheet] = []
    leaders: list[int] = []  # the seats with the best total among those not eliminated
    best = 0
    for seat, holding in enumerate(seats):
        nation = holding.nation
        counts = [0] * len(index)  # tiles by industry, in Industry order
        own = vp = 0
        for tile in holding.companies:
            vp += tile.vp
            counts[index[tile.industry]] += 1
            if tile.nation is nation:
                own += 1
        if own > tables.nationalization_max:
            gaps.append(_beyond("nationalization", seat, own, tables.nationalization_max))
        nationalization = tables.nationalization[own]
        points = tables.industry_points(tuple(counts), index[holding.industry])
        for industry, count in points.beyond_monopolization:
            gaps.append(_beyond("monopolization", seat, count, tables.monopolization_max, industry))
        if points.distinct > tables.diversification_max:
            gaps.append(
                _beyond("diversification", seat, points.distinct, tables.diversification_max)
            )
        zero_bids = holding.zero_bid_rounds * tables.zero_bid_points
        subtotal = vp + zero_bids + nationalization + points.monopolization + points.diversification
        spent = holding.spent
        seat_bonus = bonus if spent == lowest else 0
        eliminated = eliminates and spent == highest
        total = subtotal + seat_bonus
        sheets.append(
            ScoreSheet._scored(
                seat=seat,
                nation=nation,
                company_points=vp,
                zero_bids=zero_bids,
                nationalization=nationalization,
                monopolization=points.monopolization,
                diversification=points.diversification,
                subtotal=subtotal,
                lowest_spend_bonus=seat_bonus,
                total=total,
                spent=spent,
                eliminated=eliminated,
            )
        )
        if not eliminated:
            if not leaders or total > best:
                leaders, best = [seat], total
            elif total == best:
                leaders.append(seat)
    winners = tuple(leaders) if len(leaders) == 1 else _winners(rules, sheets, gaps)
    return GameResult(rules.id, tuple(sheets), winners, tuple(gaps))


def _beyond(
    category: str, seat: int, count: int, top: int, industry: Industry | None = None
) -> Gap:
    what = f"{count} {industry.label}" if industry else str(count)
    return Gap(
        f"{category}-beyond-table",
        f"seat {seat} reaches {what} in {category}, but the table stops at {top}",
        (seat,),
    )


def _winners(rules: RuleSet, sheets: list[ScoreSheet], gaps: list[Gap]) -> tuple[int, ...]:
    leaders: list[ScoreSheet] = []  # the best totals among the seats not eliminated
    for sheet in sheets:
        if sheet.eliminated:
            continue
        if not leaders or sheet.total > leaders[0].total:
            leaders = [sheet]
        elif sheet.total == leaders[0].total:
            leaders.append(sheet)
    if len(leaders) == 1:
        return (leaders[0].seat,)
    if not leaders:
        gaps.append(
            Gap(
                "everyone-eliminated",
                "every player tied for the highest spend, so every player is eliminated",
                tuple(s.seat for s in sheets),
            )
        )
        return ()
    best = leaders[0].total
    if rules.final_tiebreak is FinalTieBreak.LOWER_SPEND:
        least = min(s.spent for s in leaders)
        leaders = [s for s in leaders if s.spent == least]
    seats = tuple(s.seat for s in leaders)
    if len(seats) > 1:
        gaps.append(
            Gap(
                "tie-after-tiebreak",
                f"seats {', '.join(map(str, seats))} tie with {best} points"
                + (
                    " and equal spend"
                    if rules.final_tiebreak is FinalTieBreak.LOWER_SPEND
                    else " and the rule set has no tie-break"
                ),
                seats,
            )
        )
        if rules.tie_after_tiebreak is TieAfterTiebreak.NO_WINNER:
            return ()
    return seats


def _piece_name(piece: Nation | Industry) -> str:
    return piece.code if isinstance(piece, Nation) else piece.label


def _check_piece(
    seat: int,
    what: str,
    piece: Nation | Industry,
    in_play: frozenset[Nation] | frozenset[Industry],
    seen: dict[Any, int],
    ordered: Callable[[int], Iterable[Nation | Industry]],
    players: int,
) -> None:
    """A seat's nation or token must be in play and nobody else's; ``ordered`` gives the
    pieces in play in the rule set's order, for the message."""
    if piece not in in_play:
        names = ", ".join(map(_piece_name, ordered(players)))
        raise InvalidArgument(
            f"seat {seat}: {what} {_piece_name(piece)} is not in play with {players} players; "
            f"{what}s in play: {names}"
        )
    if piece in seen:
        raise InvalidArgument(
            f"seat {seat}: {what} {_piece_name(piece)} is already seat {seen[piece]}'s"
        )
    seen[piece] = seat


def _check_records(rules: RuleSet, tables: ScoringTables, records: Sequence[PlayerRecord]) -> None:
    nations: set[Nation] = set()
    tokens: set[Industry] = set()
    tiles: list[Company] = []
    zero_bid_rounds = 0
    for seat, record in enumerate(records):
        if not isinstance(record, PlayerRecord):
            raise InvalidArgument(f"seat {seat}: expected a PlayerRecord, got {shown(record)}")
        nations.add(record.nation)
        tokens.add(record.industry)
        tiles += record.companies
        if record.zero_bid_rounds > zero_bid_rounds:
            zero_bid_rounds = record.zero_bid_rounds
    distinct_tiles = set(tiles)
    players = len(records)
    if (
        len(nations) == players
        and len(tokens) == players
        and len(distinct_tiles) == len(tiles)
        and nations <= tables.nations
        and tokens <= tables.industries
        and distinct_tiles <= tables.deck
        and zero_bid_rounds <= tables.max_zero_bid_rounds
    ):
        return
    _explain_records(rules, tables, records)


def _explain_records(
    rules: RuleSet, tables: ScoringTables, records: Sequence[PlayerRecord]
) -> None:
    """Raise the error for the first seat whose record does not fit the game."""
    players = len(records)
    seen_nations: dict[Any, int] = {}
    seen_tokens: dict[Any, int] = {}
    held: dict[Company, int] = {}
    for seat, record in enumerate(records):
        _check_piece(
            seat, "nation", record.nation, tables.nations, seen_nations, rules.nations, players
        )
        _check_piece(
            seat,
            "industry token",
            record.industry,
            tables.industries,
            seen_tokens,
            rules.industries,
            players,
        )
        for tile in record.companies:
            if tile not in tables.deck:
                raise InvalidArgument(
                    f"seat {seat}: {tile} is not in the {players}-player deck of {rules.id}"
                )
            if tile in held:
                owner = held[tile]
                where = "twice" if owner == seat else f"also by seat {owner}"
                raise InvalidArgument(f"seat {seat}: {tile} is held {where}")
            held[tile] = seat
        if record.zero_bid_rounds > tables.max_zero_bid_rounds:
            if tables.max_zero_bid_rounds == 0:
                raise InvalidArgument(
                    f"seat {seat}: zero bids score nothing with {players} players under "
                    f"{rules.id}; zero_bid_rounds must be 0, got {record.zero_bid_rounds}"
                )
            raise InvalidArgument(
                f"seat {seat}: {record.zero_bid_rounds} zero-bid rounds, but a "
                f"{players}-player game allows at most {tables.max_zero_bid_rounds}"
            )
