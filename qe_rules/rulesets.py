"""Rule sets: every rule on which the QE texts could differ, as data with its provenance.

A :class:`RuleSet` is frozen. Each rule is a field, and ``ruleset.cite(field)`` says where
the value comes from (source id, section, a paraphrase, and whether the text states it,
is silent, or needed an interpretation)::

    >>> import qe_rules as qe
    >>> en = qe.get_ruleset("en")
    >>> en.secret_bid_may_equal_opening
    False
    >>> print(en.cite("secret_bid_may_equal_opening"))
    en §Gameplay/2. Secret bids: A secret bid may be zero or any positive whole number except the auctioneer's amount.
    >>> len(en.companies(5)), en.diversification[5]
    (15, FrozenDict({3: 8, 4: 12, 5: 17}))

The four built-in rule sets are in :data:`RULESETS`; the engine and the scorer read only
fields, never a rule set's id.
"""

from __future__ import annotations

import enum
import math
import os
import tomllib
from collections.abc import Iterable, Mapping
from typing import Any, Final

import attrs

from qe_rules import _toml
from qe_rules._frozen import FrozenDict
from qe_rules.components import COMPANIES, Company, Industry, Nation
from qe_rules.errors import InvalidArgument, InvalidRuleSet, UnknownRuleSet, shown

__all__ = [
    "GAP_CODES",
    "RULESETS",
    "SOURCES",
    "Basis",
    "BeyondTable",
    "Category",
    "FinalTieBreak",
    "FirstAuctioneer",
    "Interpretation",
    "NationAssignment",
    "Provenance",
    "RebidScope",
    "RuleSet",
    "Source",
    "TieFallback",
    "get_ruleset",
    "load_ruleset",
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
    """The highest amount that exactly one bid of the whole sale (all rounds) named."""
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
    ZERO = "zero"
    """Score nothing for it (and report the rule gap)."""


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


@attrs.frozen
class Source:
    """A text that rule sets cite: one of the four QE texts, or a custom file."""

    id: str
    title: str
    language: str
    kind: str
    """``"rulebook"``, ``"summary"`` or ``"custom"``."""


SOURCES: Final[Mapping[str, Source]] = FrozenDict(
    (s.id, s)
    for s in (
        Source("en", "QE rulebook, retail edition (BoardGameTables.com)", "en", "rulebook"),
        Source("en-early", "QE rulebook, earlier English edition", "en", "rulebook"),
        Source("de", "QE Spielregel, Strohmann Games edition (2022)", "de", "rulebook"),
        Source("de-summary", "QE rules summary, third-party German web page", "de", "summary"),
    )
)
"""The four QE texts, by id."""


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

    ``gaps`` names the rule-gap codes (see :mod:`qe_rules.scoring` and the engine) that
    this interpretation acknowledges: the verifier reports them as known, not new.
    """

    code: str
    summary: str
    fields: tuple[str, ...] = ()
    gaps: tuple[str, ...] = ()


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
        "endless-ties": "without a fallback, tied players can rebid forever",
    }
)
"""Every rule-gap code the library reports, with what it means. Codes are stable."""


# --------------------------------------------------------------------------- validation


def _freeze_table(value: Mapping[int, int]) -> FrozenDict[int, int]:
    if isinstance(value, FrozenDict) or not isinstance(value, Mapping):
        return value  # a non-mapping is reported by validation, with the field's name
    return FrozenDict(value)


def _freeze_per_players_table(
    value: Mapping[int, Mapping[int, int]],
) -> FrozenDict[int, FrozenDict[int, int]]:
    if not isinstance(value, Mapping):
        return value
    return FrozenDict((n, _freeze_table(t)) for n, t in value.items())


def _freeze_per_players_tuple(value: Any) -> Any:
    # Values that are not lists are kept as they are, for validation to report.
    if not isinstance(value, Mapping):
        return value
    return FrozenDict(
        (n, tuple(v) if isinstance(v, Iterable) and not isinstance(v, str) else v)
        for n, v in value.items()
    )


def _sorted_counts(value: Any) -> Any:
    if not isinstance(value, Iterable) or isinstance(value, str):
        return value
    items = tuple(value)
    return tuple(sorted(items)) if all(type(n) is int for n in items) else items


def _freeze_categories(value: Any) -> Any:
    if not isinstance(value, Iterable) or isinstance(value, str):
        return value
    return frozenset(value)


def _freeze_provenance(value: Mapping[str, Provenance]) -> FrozenDict[str, Provenance]:
    return value if isinstance(value, FrozenDict) else FrozenDict(value)


def _rule(group: str, label: str, **kwargs: Any) -> Any:
    """A rule field: ``group`` and ``label`` are used by summaries and diffs."""
    metadata = {"rule": True, "group": group, "label": label}
    return attrs.field(metadata=metadata, **kwargs)


def _meta(label: str, **kwargs: Any) -> Any:
    return attrs.field(metadata={"rule": False, "group": "metadata", "label": label}, **kwargs)


# --------------------------------------------------------------------------- the rule set


@attrs.frozen(kw_only=True, cache_hash=True)
class RuleSet:
    """The rules of QE as one text states them.

    Every field but the metadata (``id``, ``title``, ``language``, ``source``,
    ``provenance``, ``interpretations``) is a rule; ``RuleSet.rule_fields()`` lists them in
    a fixed order, and ``cite(name)`` gives the provenance of each.

    Per-player-count fields map a player count (3, 4, 5) to a value; scoring tables map a
    count (of matching companies, of industries in a set) to victory points. A count below
    a table's smallest key scores 0; above its largest key is a rule gap handled by
    :attr:`beyond_table`.
    """

    # metadata
    id: str = _meta("id")
    title: str = _meta("title")
    language: str = _meta("language")
    source: str = _meta("primary source id")

    # setup
    player_counts: tuple[int, ...] = _rule("setup", "player counts", converter=_sorted_counts)
    removed_companies: FrozenDict[int, tuple[Company, ...]] = _rule(
        "setup", "company tiles removed", converter=_freeze_per_players_tuple
    )
    deck_sizes: FrozenDict[int, int] = _rule(
        "setup", "stated number of tiles in play", converter=_freeze_table
    )
    nations_in_play: FrozenDict[int, tuple[Nation, ...]] = _rule(
        "setup", "nations in play", converter=_freeze_per_players_tuple
    )
    industries_in_play: FrozenDict[int, tuple[Industry, ...]] = _rule(
        "setup", "industry tokens in play", converter=_freeze_per_players_tuple
    )
    nation_assignment: NationAssignment = _rule("setup", "how nations are given out")
    first_auctioneer: FirstAuctioneer = _rule("setup", "who is the first auctioneer")

    # bidding
    min_opening_bid: int = _rule("bidding", "smallest opening bid")
    min_secret_bid: int = _rule("bidding", "smallest secret bid")
    secret_bid_may_equal_opening: bool = _rule("bidding", "a secret bid may equal the opening bid")
    rebid_may_equal_opening: bool = _rule("bidding", "a rebid may equal the opening bid")
    rebidders: RebidScope = _rule("bidding", "who rebids after a tie")
    ties_before_fallback: int = _rule("bidding", "ties in a row before the fallback")
    tie_fallback: TieFallback = _rule("bidding", "fallback after too many ties")
    auctioneer_sees_all_bids: bool = _rule("bidding", "the auctioneer examines every bid")
    auctioneer_win_public: bool = _rule("bidding", "the amount is public when the auctioneer wins")

    # zero bids
    zero_bid_player_counts: tuple[int, ...] = _rule(
        "zero bids", "player counts with zero-bid points", converter=_sorted_counts
    )
    zero_bid_points: int = _rule("zero bids", "points for a zero bid")
    zero_bid_limit_per_round: int = _rule("zero bids", "zero-bid scorings per round (0: no limit)")

    # special rules
    last_tile_without_auctioneer: tuple[int, ...] = _rule(
        "special", "player counts whose last tile has no auctioneer", converter=_sorted_counts
    )
    last_tile_tie_awards_nothing: bool = _rule(
        "special", "a tie on the auctioneer-less last tile awards nothing"
    )
    peek_player_counts: tuple[int, ...] = _rule(
        "special", "player counts with the peek at a winning bid", converter=_sorted_counts
    )
    peeks_per_player: int = _rule("special", "peeks per player and game")

    # scoring
    scoring_order: tuple[Category, ...] = _rule(
        "scoring", "order of the scoring categories", converter=tuple
    )
    token_categories: frozenset[Category] = _rule(
        "scoring", "categories that count the industry token", converter=_freeze_categories
    )
    nationalization: FrozenDict[int, FrozenDict[int, int]] = _rule(
        "scoring", "nationalization table", converter=_freeze_per_players_table
    )
    monopolization: FrozenDict[int, FrozenDict[int, int]] = _rule(
        "scoring", "monopolization table", converter=_freeze_per_players_table
    )
    diversification: FrozenDict[int, FrozenDict[int, int]] = _rule(
        "scoring", "diversification table", converter=_freeze_per_players_table
    )
    beyond_table: BeyondTable = _rule("scoring", "a count beyond a scoring table")
    lowest_spend_bonus: FrozenDict[int, int] = _rule(
        "scoring", "bonus for the lowest spend", converter=_freeze_table
    )
    lowest_spend_bonus_to_all_tied: bool = _rule(
        "scoring", "every player tied for the lowest spend gets the bonus"
    )
    eliminate_highest_spender: bool = _rule("scoring", "the highest spender is eliminated")
    eliminate_all_tied_highest: bool = _rule(
        "scoring", "every player tied for the highest spend is eliminated"
    )
    final_tiebreak: FinalTieBreak = _rule("scoring", "tie-break between equal scores")

    # provenance and interpretations
    provenance: FrozenDict[str, Provenance] = _meta(
        "provenance", converter=_freeze_provenance, repr=False
    )
    interpretations: tuple[Interpretation, ...] = _meta(
        "interpretations", converter=tuple, repr=False, default=()
    )

    _decks: FrozenDict[int, tuple[Company, ...]] = attrs.field(
        init=False, eq=False, repr=False, hash=False
    )

    def __attrs_post_init__(self) -> None:
        _validate(self)
        decks = FrozenDict((n, _deck(self.removed_companies[n])) for n in self.player_counts)
        object.__setattr__(self, "_decks", decks)

    # ----------------------------------------------------------------- introspection

    @classmethod
    def rule_fields(cls) -> tuple[str, ...]:
        """The names of all rule fields, in a fixed order (setup, bidding, ... scoring)."""
        return _RULE_FIELDS

    @classmethod
    def per_player_fields(cls) -> tuple[str, ...]:
        """The rule fields that hold one value per player count."""
        return _PER_PLAYER_FIELDS

    @classmethod
    def field_group(cls, name: str) -> str:
        """The group of a field: setup, bidding, zero bids, special, scoring or metadata."""
        return str(_FIELD_META[name]["group"])

    @classmethod
    def field_label(cls, name: str) -> str:
        """A short human label of a field, e.g. ``"smallest opening bid"``."""
        return str(_FIELD_META[name]["label"])

    def cite(self, name: str) -> Provenance:
        """Where the value of rule field ``name`` comes from.

        >>> import qe_rules as qe
        >>> qe.get_ruleset("de").cite("ties_before_fallback").section
        'Sonderregeln/Unentschieden Auktion'
        """
        if name not in _FIELD_META or not _FIELD_META[name]["rule"]:
            raise InvalidRuleSet(
                f"{shown(name)} is not a rule field; rule fields are {', '.join(_RULE_FIELDS)}"
            )
        return self.provenance[name]

    def to_data(self) -> dict[str, Any]:
        """The rule set as plain data (str, int, bool, lists, dicts with str keys).

        The shape is the one TOML files and game records use; :meth:`from_data` reads it
        back to an equal rule set.

        >>> en = get_ruleset("en")
        >>> RuleSet.from_data(en.to_data()) == en
        True
        >>> en.to_data()["rules"]["monopolization"]["5"]
        {'2': 6, '3': 10, '4': 16}
        """
        return _to_data(self)

    def to_toml(self, base: RuleSet | str | None = None) -> str:
        """The rule set as a TOML file that :func:`load_ruleset` reads back equal.

        Without ``base`` the file is complete. With a built-in ``base`` it says
        ``extends = "<base>"`` and holds only what differs: the rules, their provenance and
        the added interpretations.

        >>> import attrs
        >>> house = attrs.evolve(get_ruleset("en"), id="house", zero_bid_points=3)
        >>> print(house.to_toml(base="en").split("[provenance")[0])
        # QE rule set 'house': QE rulebook, retail edition (BoardGameTables.com)
        # Load it with qe_rules.load_ruleset(path); rule fields: see RuleSet.rule_fields().
        <BLANKLINE>
        id = "house"
        title = "QE rulebook, retail edition (BoardGameTables.com)"
        language = "en"
        source = "en"
        extends = "en"
        <BLANKLINE>
        [rules]
        zero_bid_points = 3
        <BLANKLINE>
        <BLANKLINE>
        >>> RuleSet.from_toml(house.to_toml(base="en")) == house
        True
        """
        return _to_toml(self, base)

    @classmethod
    def from_toml(cls, text: str, *, origin: str = "<string>") -> RuleSet:
        """Read a rule set from TOML text (see :func:`load_ruleset`); ``origin`` names the
        text in error messages. ``extends`` paths are relative to the current directory."""
        return _from_toml(text, origin=origin, base_dir=None, seen=())

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> RuleSet:
        """Build a rule set from :meth:`to_data`'s shape; every rule field is required.

        Raises :class:`~qe_rules.InvalidRuleSet` naming the key that is missing, unknown
        or of the wrong type, and what is allowed.
        """
        return _from_data(data)

    @property
    def acknowledged_gaps(self) -> frozenset[str]:
        """The rule-gap codes that this rule set's interpretations acknowledge."""
        return frozenset(code for i in self.interpretations for code in i.gaps)

    # ----------------------------------------------------------------- derived rules

    def companies(self, players: int) -> tuple[Company, ...]:
        """The deck for ``players`` players, in canonical order (see ``COMPANIES``)."""
        return self._decks[self._check_players(players)]

    def nations(self, players: int) -> tuple[Nation, ...]:
        """The nations in play for ``players`` players."""
        return self.nations_in_play[self._check_players(players)]

    def industries(self, players: int) -> tuple[Industry, ...]:
        """The industry tokens in play for ``players`` players."""
        return self.industries_in_play[self._check_players(players)]

    def sales(self, players: int) -> int:
        """How many sales a game has: one per tile in the deck."""
        return len(self.companies(players))

    def has_last_tile_rule(self, players: int) -> bool:
        """Whether the last tile is sold without an auctioneer at this player count."""
        return self._check_players(players) in self.last_tile_without_auctioneer

    def rounds(self, players: int) -> int:
        """How many rounds a game has (a round: every seat is auctioneer once)."""
        sales = self.sales(players) - (1 if self.has_last_tile_rule(players) else 0)
        return math.ceil(sales / players)

    def has_zero_bid_points(self, players: int) -> bool:
        """Whether zero bids are revealed and score at this player count."""
        return self._check_players(players) in self.zero_bid_player_counts

    def max_zero_bid_scorings(self, players: int) -> int:
        """The largest number of zero-bid scorings a player can have in one game."""
        if not self.has_zero_bid_points(players):
            return 0
        if self.zero_bid_limit_per_round:
            return self.rounds(players) * self.zero_bid_limit_per_round
        return self.sales(players)

    def has_peek(self, players: int) -> bool:
        """Whether the peek at a winning bid exists at this player count."""
        return self._check_players(players) in self.peek_player_counts and (
            self.peeks_per_player > 0
        )

    def _check_players(self, players: int) -> int:
        if type(players) is not int or players not in self.player_counts:
            counts = ", ".join(map(str, self.player_counts))
            raise InvalidArgument(f"{self.id} is played by {counts} players, not {shown(players)}")
        return players


# --------------------------------------------------------------------------- field metadata

_FIELD_META: Final[dict[str, Mapping[str, Any]]] = {
    f.name: f.metadata for f in attrs.fields(RuleSet) if f.metadata
}
_RULE_FIELDS: Final[tuple[str, ...]] = tuple(
    name for name, meta in _FIELD_META.items() if meta["rule"]
)


_COUNT_FIELDS: Final = (  # whole numbers >= 0
    "min_opening_bid",
    "min_secret_bid",
    "zero_bid_points",
    "zero_bid_limit_per_round",
    "peeks_per_player",
)
_BOOL_FIELDS: Final = (
    "secret_bid_may_equal_opening",
    "rebid_may_equal_opening",
    "auctioneer_sees_all_bids",
    "auctioneer_win_public",
    "last_tile_tie_awards_nothing",
    "lowest_spend_bonus_to_all_tied",
    "eliminate_highest_spender",
    "eliminate_all_tied_highest",
)
_PER_PLAYER_FIELDS: Final = (
    "removed_companies",
    "deck_sizes",
    "nations_in_play",
    "industries_in_play",
    "nationalization",
    "monopolization",
    "diversification",
    "lowest_spend_bonus",
)
_TABLE_FIELDS: Final = ("nationalization", "monopolization", "diversification")
_COUNTS_SUBSET_FIELDS: Final = (  # player counts among player_counts
    "zero_bid_player_counts",
    "last_tile_without_auctioneer",
    "peek_player_counts",
)
_COUNTS_LIST_FIELDS: Final = ("player_counts", *_COUNTS_SUBSET_FIELDS)
_ENUM_FIELDS: Final[tuple[tuple[str, type[enum.Enum]], ...]] = (
    ("nation_assignment", NationAssignment),
    ("first_auctioneer", FirstAuctioneer),
    ("rebidders", RebidScope),
    ("tie_fallback", TieFallback),
    ("beyond_table", BeyondTable),
    ("final_tiebreak", FinalTieBreak),
)
_PIECE_FIELDS: Final = (  # field, piece type, its plural, the plural of what a seat holds
    ("nations_in_play", Nation, "nations", "nations"),
    ("industries_in_play", Industry, "industries", "tokens"),
)


def _deck(removed: Iterable[Company]) -> tuple[Company, ...]:
    gone = frozenset(removed)
    return tuple(c for c in COMPANIES if c not in gone)


def _fail(ruleset_id: str, name: str, problem: str) -> InvalidRuleSet:
    return InvalidRuleSet(f"rule set {shown(ruleset_id)}, field {shown(name)}: {problem}")


def _validate(rs: RuleSet) -> None:
    """Check a rule set for inconsistencies the engine and the scorer cannot work with."""
    rid = rs.id
    for name in ("id", "title", "language", "source"):
        text = getattr(rs, name)
        if not isinstance(text, str) or not text.strip():
            raise _fail(str(rid), name, "needs a non-empty string")
    counts = rs.player_counts
    for name in _COUNTS_LIST_FIELDS:
        value = getattr(rs, name)
        if not isinstance(value, tuple) or any(type(n) is not int for n in value):
            raise _fail(rid, name, "needs a list of player counts (whole numbers)")
    for name in _PER_PLAYER_FIELDS:
        if not isinstance(getattr(rs, name), Mapping):
            raise _fail(rid, name, "needs a value per player count")
    if not counts or any(not 2 <= n <= 5 for n in counts):
        raise _fail(rid, "player_counts", f"needs player counts between 2 and 5, got {counts}")
    if len(set(counts)) != len(counts):
        raise _fail(rid, "player_counts", f"repeats a player count: {counts}")
    for name in _PER_PLAYER_FIELDS:
        value = getattr(rs, name)
        if sorted(value, key=repr) != sorted(counts, key=repr):
            raise _fail(
                rid, name, f"needs exactly the player counts {list(counts)}, got {sorted(value)}"
            )
    for name in _COUNTS_SUBSET_FIELDS:
        extra = set(getattr(rs, name)) - set(counts)
        if extra:
            raise _fail(rid, name, f"names player counts not played: {sorted(extra)}")
    for n in counts:
        removed = rs.removed_companies[n]
        if not isinstance(removed, tuple) or any(not isinstance(c, Company) for c in removed):
            raise _fail(rid, "removed_companies", f"{n} players: not a list of company tiles")
        if len(set(removed)) != len(removed):
            raise _fail(rid, "removed_companies", f"{n} players: a tile is removed twice")
        if len(removed) >= len(COMPANIES):
            raise _fail(rid, "removed_companies", f"{n} players: no tile is left to sell")
        for name, piece, plural, held in _PIECE_FIELDS:
            pieces = getattr(rs, name)[n]
            if (
                not isinstance(pieces, tuple)
                or any(not isinstance(x, piece) for x in pieces)
                or len(set(pieces)) != len(pieces)
            ):
                raise _fail(rid, name, f"{n} players: needs distinct {plural}")
            if len(pieces) < n:
                raise _fail(rid, name, f"{n} players need {n} {held}, got {len(pieces)}")
        size = rs.deck_sizes[n]
        if type(size) is not int or size < 1:
            raise _fail(rid, "deck_sizes", f"{n} players: needs a positive whole number")
        for name in _TABLE_FIELDS:
            _validate_table(rid, name, n, getattr(rs, name)[n])
        bonus = rs.lowest_spend_bonus[n]
        if type(bonus) is not int or bonus < 0:
            raise _fail(rid, "lowest_spend_bonus", f"{n} players: needs a whole number >= 0")
    for name in _COUNT_FIELDS:
        number = getattr(rs, name)
        if type(number) is not int or number < 0:
            raise _fail(rid, name, f"needs a whole number >= 0, got {shown(number)}")
    if type(rs.ties_before_fallback) is not int or rs.ties_before_fallback < 1:
        raise _fail(rid, "ties_before_fallback", "needs a whole number >= 1")
    for name in _BOOL_FIELDS:
        if type(getattr(rs, name)) is not bool:
            raise _fail(rid, name, "needs true or false")
    for name, kind in _ENUM_FIELDS:
        if not isinstance(getattr(rs, name), kind):
            allowed = ", ".join(repr(k.value) for k in kind)
            raise _fail(rid, name, f"needs one of {allowed}")
    if not isinstance(rs.token_categories, frozenset) or any(
        not isinstance(c, Category) for c in (*rs.scoring_order, *rs.token_categories)
    ):
        raise _fail(rid, "scoring_order", "needs scoring categories")
    if sorted(rs.scoring_order, key=lambda c: c.value) != sorted(Category, key=lambda c: c.value):
        raise _fail(rid, "scoring_order", "needs every scoring category exactly once")
    if not rs.token_categories <= {Category.MONOPOLIZATION, Category.DIVERSIFICATION}:
        raise _fail(
            rid,
            "token_categories",
            "the industry token can count only in monopolization and diversification",
        )
    missing = [name for name in _RULE_FIELDS if name not in rs.provenance]
    if missing:
        raise _fail(rid, "provenance", f"no provenance for {', '.join(missing)}")
    unknown = [name for name in rs.provenance if name not in _RULE_FIELDS]
    if unknown:
        raise _fail(rid, "provenance", f"provenance for unknown fields {', '.join(unknown)}")


def _validate_table(rid: str, name: str, players: int, table: Mapping[int, int]) -> None:
    if not isinstance(table, Mapping):
        raise _fail(rid, name, f"{players} players: needs a table of count -> points")
    keys = sorted(table, key=repr)
    if not keys:
        raise _fail(rid, name, f"{players} players: the table is empty")
    if any(type(k) is not int or k < 1 for k in keys):
        raise _fail(rid, name, f"{players} players: counts must be whole numbers >= 1")
    keys = sorted(keys)
    if keys != list(range(keys[0], keys[-1] + 1)):
        raise _fail(rid, name, f"{players} players: the table skips a count (has {keys})")
    if any(type(v) is not int or v < 0 for v in table.values()):
        raise _fail(rid, name, f"{players} players: points must be whole numbers >= 0")


# --------------------------------------------------------------------------- plain data


class _DataError(Exception):
    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem


def _enum_codec(kind: type[enum.Enum]) -> tuple[Any, Any]:
    allowed = ", ".join(repr(m.value) for m in kind)

    def decode(value: Any, path: str) -> Any:
        for member in kind:
            if value == member.value and isinstance(value, str):
                return member
        raise _DataError(path, f"needs one of {allowed}, got {shown(value)}")

    return (lambda v: v.value), decode


_decode_basis: Final = _enum_codec(Basis)[1]
_decode_category: Final = _enum_codec(Category)[1]


def _int_decode(value: Any, path: str) -> int:
    if type(value) is not int:
        raise _DataError(path, f"needs a whole number, got {shown(value)}")
    return value


def _bool_decode(value: Any, path: str) -> bool:
    if type(value) is not bool:
        raise _DataError(path, f"needs true or false, got {shown(value)}")
    return value


def _list_decode(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise _DataError(path, f"needs a list, got {shown(value)}")
    return list(value)


def _key_decode(key: Any, path: str) -> int:
    if type(key) is int:
        return key
    if isinstance(key, str) and key.isdigit() and key.isascii():
        return int(key)
    raise _DataError(path, f"keys must be whole numbers, got {shown(key)}")


def _map_decode(value: Any, path: str, item: Any) -> dict[int, Any]:
    if not isinstance(value, Mapping):
        raise _DataError(path, f"needs a table keyed by number, got {shown(value)}")
    result = {}
    for key, inner in value.items():
        number = _key_decode(key, path)
        if number in result:
            raise _DataError(path, f"key {number} appears twice")
        result[number] = item(inner, f"{path}.{key}")
    return result


def _parse_each(parse: Any, what: str) -> Any:
    def decode(value: Any, path: str) -> tuple[Any, ...]:
        items = []
        for index, entry in enumerate(_list_decode(value, path)):
            try:
                if not isinstance(entry, str):
                    raise InvalidArgument(f"needs a {what} code, got {shown(entry)}")
                items.append(parse(entry))
            except InvalidArgument as error:
                raise _DataError(f"{path}[{index}]", str(error)) from None
        return tuple(items)

    return decode


_decode_companies = _parse_each(Company.parse, "company")
_decode_nations = _parse_each(Nation.parse, "nation")
_decode_industries = _parse_each(Industry.parse, "industry")


def _decode_categories(value: Any, path: str) -> tuple[Category, ...]:
    return tuple(
        _decode_category(v, f"{path}[{i}]") for i, v in enumerate(_list_decode(value, path))
    )


def _decode_counts(value: Any, path: str) -> tuple[int, ...]:
    return tuple(_int_decode(v, f"{path}[{i}]") for i, v in enumerate(_list_decode(value, path)))


def _decode_table(value: Any, path: str) -> dict[int, int]:
    return _map_decode(value, path, _int_decode)


def _per_players(item: Any) -> Any:
    return lambda value, path: _map_decode(value, path, item)


def _encode_per_players(item: Any) -> Any:
    return lambda value: {str(n): item(v) for n, v in value.items()}


def _encode_table(table: Mapping[int, int]) -> dict[str, int]:
    return {str(k): v for k, v in sorted(table.items())}


# field -> (encode, decode)
_CODECS: Final[dict[str, tuple[Any, Any]]] = {}
for _name in _COUNTS_LIST_FIELDS:
    _CODECS[_name] = (list, _decode_counts)
_CODECS["removed_companies"] = (
    _encode_per_players(lambda v: [str(c) for c in v]),
    _per_players(_decode_companies),
)
_CODECS["nations_in_play"] = (
    _encode_per_players(lambda v: [n.code for n in v]),
    _per_players(_decode_nations),
)
_CODECS["industries_in_play"] = (
    _encode_per_players(lambda v: [i.name for i in v]),
    _per_players(_decode_industries),
)
for _name in ("deck_sizes", "lowest_spend_bonus"):
    _CODECS[_name] = (_encode_table, _per_players(_int_decode))
for _name in _TABLE_FIELDS:
    _CODECS[_name] = (_encode_per_players(_encode_table), _per_players(_decode_table))
for _name in (*_COUNT_FIELDS, "ties_before_fallback"):
    _CODECS[_name] = ((lambda v: v), _int_decode)
for _name in _BOOL_FIELDS:
    _CODECS[_name] = ((lambda v: v), _bool_decode)
for _name, _kind in _ENUM_FIELDS:
    _CODECS[_name] = _enum_codec(_kind)
_CODECS["scoring_order"] = (lambda v: [c.value for c in v], _decode_categories)
_CODECS["token_categories"] = (lambda v: sorted(c.value for c in v), _decode_categories)
assert set(_CODECS) == set(_RULE_FIELDS)


def encode_field(name: str, value: Any) -> Any:
    """One rule field's value as plain data."""
    return _CODECS[name][0](value)


def decode_field(name: str, value: Any, path: str | None = None) -> Any:
    """One rule field's value from plain data; raises InvalidRuleSet naming ``path``."""
    try:
        return _CODECS[name][1](value, path or name)
    except _DataError as error:
        raise InvalidRuleSet(str(error)) from None


def _to_data(rs: RuleSet) -> dict[str, Any]:
    return {
        "id": rs.id,
        "title": rs.title,
        "language": rs.language,
        "source": rs.source,
        "rules": {name: encode_field(name, getattr(rs, name)) for name in _RULE_FIELDS},
        "provenance": {name: p.to_dict() for name, p in rs.provenance.items()},
        "interpretations": [
            {"code": i.code, "summary": i.summary, "fields": list(i.fields), "gaps": list(i.gaps)}
            for i in rs.interpretations
        ],
    }


_TOP_KEYS: Final = ("id", "title", "language", "source", "rules", "provenance", "interpretations")


def _string(value: Any, path: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _DataError(path, f"needs a non-empty string, got {shown(value)}")
    return value


def _check_keys(value: Any, path: str, allowed: tuple[str, ...], shape: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _DataError(path, shape)
    unknown = set(value) - set(allowed)
    if unknown:
        raise _DataError(path, f"unknown keys {sorted(unknown)}; allowed: {', '.join(allowed)}")
    return value


def decode_provenance(value: Any, path: str) -> Provenance:
    """A provenance entry from plain data (``source``, ``section``, ``summary``, ``basis``)."""
    try:
        value = _check_keys(
            value,
            path,
            ("source", "section", "summary", "basis"),
            "needs a table with source, section and summary",
        )
        for key in ("source", "section", "summary"):
            if key not in value:
                raise _DataError(path, f"missing {shown(key)}")
        basis = _decode_basis(value.get("basis", "stated"), f"{path}.basis")
        return Provenance(
            _string(value["source"], f"{path}.source"),
            _string(value["section"], f"{path}.section"),
            _string(value["summary"], f"{path}.summary"),
            basis,
        )
    except _DataError as error:
        raise InvalidRuleSet(str(error)) from None


def decode_interpretation(value: Any, path: str) -> Interpretation:
    """An interpretation from plain data (``code``, ``summary``, ``fields``, ``gaps``)."""
    try:
        value = _check_keys(
            value,
            path,
            ("code", "summary", "fields", "gaps"),
            "needs a table with code and summary",
        )
        fields = tuple(_list_decode(value.get("fields", []), f"{path}.fields"))
        gaps = tuple(_list_decode(value.get("gaps", []), f"{path}.gaps"))
        for index, name in enumerate(fields):
            if name not in _RULE_FIELDS:
                raise _DataError(f"{path}.fields[{index}]", f"{shown(name)} is not a rule field")
        for index, code in enumerate(gaps):
            if code not in GAP_CODES:
                raise _DataError(
                    f"{path}.gaps[{index}]",
                    f"{shown(code)} is not a gap code; codes: {', '.join(GAP_CODES)}",
                )
        return Interpretation(
            _string(value.get("code"), f"{path}.code"),
            _string(value.get("summary"), f"{path}.summary"),
            fields,
            gaps,
        )
    except _DataError as error:
        raise InvalidRuleSet(str(error)) from None


def _from_data(data: Mapping[str, Any]) -> RuleSet:
    try:
        data = _check_keys(data, "rule set", _TOP_KEYS, "needs a table of keys")
        rules = data.get("rules")
        if not isinstance(rules, Mapping):
            raise _DataError("rules", "needs a table of rule fields")
        unknown = set(rules) - set(_RULE_FIELDS)
        if unknown:
            raise _DataError("rules", f"unknown rule fields {sorted(unknown)}")
        missing = [name for name in _RULE_FIELDS if name not in rules]
        if missing:
            raise _DataError("rules", f"missing rule fields {', '.join(missing)}")
        values = {name: decode_field(name, rules[name], f"rules.{name}") for name in _RULE_FIELDS}
        provenance = data.get("provenance")
        if not isinstance(provenance, Mapping):
            raise _DataError("provenance", "needs a table with an entry per rule field")
        interpretations = _list_decode(data.get("interpretations", []), "interpretations")
        return RuleSet(
            id=_string(data.get("id"), "id"),
            title=_string(data.get("title", data.get("id")), "title"),
            language=_string(data.get("language", "en"), "language"),
            source=_string(data.get("source", data.get("id")), "source"),
            provenance=FrozenDict(
                (str(name), decode_provenance(entry, f"provenance.{name}"))
                for name, entry in provenance.items()
            ),
            interpretations=tuple(
                decode_interpretation(entry, f"interpretations[{index}]")
                for index, entry in enumerate(interpretations)
            ),
            **values,
        )
    except _DataError as error:
        raise InvalidRuleSet(str(error)) from None


# --------------------------------------------------------------------------- TOML

_TOML_KEYS: Final = (
    "id",
    "title",
    "language",
    "source",
    "extends",
    "inherit_interpretations",
    "rules",
    "provenance",
    "interpretations",
)


def _to_toml(rs: RuleSet, base: RuleSet | str | None) -> str:
    data = rs.to_data()
    title = rs.title if rs.title.isprintable() else repr(rs.title)
    header = (
        f"QE rule set {rs.id!r}: {title}\n"
        "Load it with qe_rules.load_ruleset(path); rule fields: see RuleSet.rule_fields()."
    )
    if base is None:
        return _toml.dumps(data, header=header)
    base_rs = get_ruleset(base)
    if RULESETS.get(base_rs.id) != base_rs:
        raise InvalidArgument(
            f"a TOML file can extend only a built-in rule set ({', '.join(RULESETS)}), "
            f"not {shown(base_rs.id)}"
        )
    base_data = base_rs.to_data()
    rules = {k: v for k, v in data["rules"].items() if base_data["rules"][k] != v}
    provenance = {
        k: v for k, v in data["provenance"].items() if k in rules or base_data["provenance"][k] != v
    }
    out: dict[str, Any] = {key: data[key] for key in ("id", "title", "language", "source")}
    out["extends"] = base_rs.id
    inherited = base_data["interpretations"]
    own = data["interpretations"]
    if own[: len(inherited)] == inherited:
        extra = own[len(inherited) :]
    else:
        out["inherit_interpretations"] = False
        extra = own
    out["rules"] = rules
    if provenance:
        out["provenance"] = provenance
    if extra:
        out["interpretations"] = extra
    return _toml.dumps(out, header=header)


def load_ruleset(path: str | os.PathLike[str]) -> RuleSet:
    """Read a rule set from a TOML file.

    The file names a base with ``extends = "en"`` (a built-in id, or a ``.toml`` path
    relative to the file) and overrides rule fields under ``[rules]``; each override may be
    cited under ``[provenance.<field>]`` (``section``, ``summary``, optional ``source`` and
    ``basis``), otherwise the file itself is cited. Without ``extends`` every rule field is
    required. ``[[interpretations]]`` add readings the text needed. Errors raise
    :class:`~qe_rules.InvalidRuleSet` naming the file, the key and what is allowed.
    """
    return _load(os.fspath(path), seen=())


def _load(path: str, seen: tuple[str, ...]) -> RuleSet:
    real = os.path.realpath(path)
    if real in seen:
        raise InvalidRuleSet(f"{path}: extends itself (through {' -> '.join(seen)})")
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as error:
        raise InvalidRuleSet(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise InvalidRuleSet(f"{path}: not UTF-8 text ({error.reason})") from None
    return _from_toml(text, origin=path, base_dir=os.path.dirname(path), seen=(*seen, real))


def _from_toml(text: str, *, origin: str, base_dir: str | None, seen: tuple[str, ...]) -> RuleSet:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InvalidRuleSet(f"{origin}: not valid TOML: {error}") from None
    except RecursionError:
        raise InvalidRuleSet(f"{origin}: not valid TOML: nested too deeply") from None
    try:
        return RuleSet.from_data(_merge_toml(data, origin, base_dir, seen))
    except InvalidRuleSet as error:
        if str(error).startswith(f"{origin}:"):
            raise
        raise InvalidRuleSet(f"{origin}: {error}") from None
    except _DataError as error:
        raise InvalidRuleSet(f"{origin}: {error}") from None


def _merge_toml(
    data: dict[str, Any], origin: str, base_dir: str | None, seen: tuple[str, ...]
) -> dict[str, Any]:
    _check_keys(data, "top level", _TOML_KEYS, "needs a table of keys")
    own_id = _string(data.get("id"), "id")
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise _DataError("rules", "needs a table of rule fields")
    unknown = sorted(set(rules) - set(_RULE_FIELDS))
    if unknown:
        raise _DataError(
            "rules", f"unknown rule fields {unknown}; rule fields: {', '.join(_RULE_FIELDS)}"
        )
    provenance = data.get("provenance", {})
    if not isinstance(provenance, dict) or any(
        not isinstance(v, dict) for v in provenance.values()
    ):
        raise _DataError("provenance", "needs a table per rule field, [provenance.<field>]")
    unknown = sorted(set(provenance) - set(_RULE_FIELDS))
    if unknown:
        raise _DataError("provenance", f"entries for unknown rule fields {unknown}")
    interpretations = _list_decode(data.get("interpretations", []), "interpretations")
    inherit = data.get("inherit_interpretations", True)
    if type(inherit) is not bool:
        raise _DataError("inherit_interpretations", "needs true or false")
    cited = {name: {"source": own_id, **entry} for name, entry in provenance.items()}
    extends = data.get("extends")
    if extends is None:
        return {
            "id": own_id,
            "title": data.get("title", own_id),
            "language": data.get("language", "en"),
            "source": data.get("source", own_id),
            "rules": rules,
            "provenance": cited,
            "interpretations": interpretations,
        }
    base = _resolve_base(extends, base_dir, seen)
    base_data = base.to_data()
    section = os.path.basename(origin)
    for name in rules:
        cited.setdefault(
            name,
            {
                "source": own_id,
                "section": section,
                "summary": f"Set by {own_id}: {RuleSet.field_label(name)}.",
            },
        )
    return {
        "id": own_id,
        "title": data.get("title", own_id),
        "language": data.get("language", base.language),
        "source": data.get("source", own_id),
        "rules": {**base_data["rules"], **rules},
        "provenance": {**base_data["provenance"], **cited},
        "interpretations": (base_data["interpretations"] if inherit else []) + interpretations,
    }


def _resolve_base(extends: Any, base_dir: str | None, seen: tuple[str, ...]) -> RuleSet:
    if not isinstance(extends, str) or not extends:
        raise _DataError("extends", "needs a built-in rule set id or a .toml path")
    if extends in RULESETS:
        return RULESETS[extends]
    if extends.endswith(".toml"):
        path = extends if base_dir is None else os.path.join(base_dir, extends)
        return _load(path, seen)
    raise _DataError(
        "extends",
        f"{shown(extends)} is neither a built-in rule set ({', '.join(RULESETS)}) nor a .toml file",
    )


# --------------------------------------------------------------------------- built-in data
#
# Values are shared where the texts agree; citations are per text. Summaries paraphrase
# the texts; none of them quotes a rulebook sentence.


def _per_count(three_four: Any, five: Any) -> dict[int, Any]:
    return {3: three_four, 4: three_four, 5: five}


_US, _EU, _CN, _JP, _UK = Nation.US, Nation.EU, Nation.CN, Nation.JP, Nation.UK
_AGR, _HOU, _GOV, _FIN, _MAN = (
    Industry.AGRICULTURE,
    Industry.HOUSING,
    Industry.GOVERNMENT,
    Industry.FINANCE,
    Industry.MANUFACTURING,
)


def _tiles(*codes: str) -> tuple[Company, ...]:
    return tuple(Company.parse(code) for code in codes)


_EN_VALUES: Final[dict[str, Any]] = {
    "player_counts": (3, 4, 5),
    "removed_companies": _per_count(
        _tiles("UK-GOV-2", "UK-AGR-3", "UK-FIN-4", "JP-GOV-3", "CN-GOV-4"),
        _tiles("US-HOU-1", "EU-AGR-1", "CN-MAN-1", "JP-FIN-1", "JP-AGR-3", "CN-FIN-4"),
    ),
    "deck_sizes": _per_count(16, 15),
    "nations_in_play": _per_count((_US, _EU, _CN, _JP), (_US, _EU, _CN, _JP, _UK)),
    "industries_in_play": _per_count((_AGR, _HOU, _FIN, _MAN), (_AGR, _HOU, _GOV, _FIN, _MAN)),
    "nation_assignment": NationAssignment.UNSPECIFIED,
    "first_auctioneer": FirstAuctioneer.MOST_RECENT_BANK_VISIT,
    "min_opening_bid": 1,
    "min_secret_bid": 0,
    "secret_bid_may_equal_opening": False,
    "rebid_may_equal_opening": False,
    "rebidders": RebidScope.TIED,
    "ties_before_fallback": 3,
    "tie_fallback": TieFallback.HIGHEST_UNTIED,
    "auctioneer_sees_all_bids": True,
    "auctioneer_win_public": True,
    "zero_bid_player_counts": (4, 5),
    "zero_bid_points": 2,
    "zero_bid_limit_per_round": 1,
    "last_tile_without_auctioneer": (3,),
    "last_tile_tie_awards_nothing": True,
    "peek_player_counts": (5,),
    "peeks_per_player": 1,
    "scoring_order": (
        Category.COMPANIES,
        Category.ZERO_BIDS,
        Category.NATIONALIZATION,
        Category.MONOPOLIZATION,
        Category.DIVERSIFICATION,
        Category.SPENDING,
    ),
    "token_categories": frozenset({Category.MONOPOLIZATION, Category.DIVERSIFICATION}),
    "nationalization": _per_count({1: 1, 2: 3, 3: 6, 4: 10}, {1: 3, 2: 6, 3: 10}),
    "monopolization": _per_count({2: 3, 3: 6, 4: 10}, {2: 6, 3: 10, 4: 16}),
    "diversification": _per_count({3: 4, 4: 8}, {3: 8, 4: 12, 5: 17}),
    "beyond_table": BeyondTable.CAP,
    "lowest_spend_bonus": _per_count(6, 7),
    "lowest_spend_bonus_to_all_tied": True,
    "eliminate_highest_spender": True,
    "eliminate_all_tied_highest": True,
    "final_tiebreak": FinalTieBreak.LOWER_SPEND,
}

_EN_EARLY_CHANGES: Final[dict[str, Any]] = {
    "nation_assignment": NationAssignment.RANDOM,
    "first_auctioneer": FirstAuctioneer.TABLE_CHOICE,
    "secret_bid_may_equal_opening": True,
    "tie_fallback": TieFallback.HIGHEST_UNIQUE_IN_SALE,
    "peek_player_counts": (),
    "peeks_per_player": 0,
    "scoring_order": (
        Category.SPENDING,
        Category.COMPANIES,
        Category.ZERO_BIDS,
        Category.NATIONALIZATION,
        Category.MONOPOLIZATION,
        Category.DIVERSIFICATION,
    ),
    "diversification": _per_count({3: 6, 4: 10}, {3: 10, 4: 15, 5: 21}),
}

_S, _Q, _I, _C = Basis.STATED, Basis.SILENT, Basis.INTERPRETATION, Basis.CORRECTED

# field -> (shared summary, {source: section or (section, summary, basis)})
_Cite = str | tuple[str, str, Basis]
_CITATIONS: Final[dict[str, tuple[str, dict[str, _Cite]]]] = {
    "player_counts": (
        "The game is for three to five players.",
        {
            "en": "Stats",
            "en-early": "Components",
            "de": ("Spielablauf", "Games of three, four and five players are described.", _S),
            "de-summary": "Die Fakten im Überblick",
        },
    ),
    "removed_companies": (
        "With 3-4 players the three UK tiles and the JP and CN Government tiles leave the "
        "game; with 5 players the four 1-VP tiles, JP Agriculture and CN Finance leave it.",
        {
            "en": "Setup 3",
            "en-early": "Setup",
            "de": "Spielaufbau",
            "de-summary": "Spielvorbereitung",
        },
    ),
    "deck_sizes": (
        "Sixteen tiles stay in play with 3-4 players, fifteen with 5.",
        {
            "en": "Setup 3",
            "en-early": "Setup",
            "de": "Spielaufbau",
            "de-summary": "Spielvorbereitung",
        },
    ),
    "nations_in_play": (
        "Each player takes one nation's bid tile and score board; the UK joins only in "
        "5-player games.",
        {
            "en": "Setup 1",
            "en-early": "Setup",
            "de": "Spielaufbau",
            "de-summary": "Spielvorbereitung",
        },
    ),
    "industries_in_play": (
        "One shuffled industry token is dealt face down to each player; the Government "
        "token is used only with 5 players.",
        {
            "en": "Setup 2",
            "en-early": "Setup",
            "de": "Spielaufbau",
            "de-summary": "Spielvorbereitung",
        },
    ),
    "nation_assignment": (
        "Every player receives one nation; the text does not say how nations are chosen.",
        {
            "en": "Setup 1",
            "en-early": ("Setup", "Nations are handed out at random.", _S),
            "de": "Spielaufbau",
            "de-summary": "Spielvorbereitung",
        },
    ),
    "first_auctioneer": (
        "Whoever was in a bank most recently is the first auctioneer and keeps the "
        "first-auctioneer token, which marks the start of each round.",
        {
            "en": "Setup 5",
            "en-early": (
                "Setup",
                "The players pick the first auctioneer, who takes the first-auctioneer token.",
                _S,
            ),
            "de": "Spielaufbau",
            "de-summary": "Spielvorbereitung",
        },
    ),
    "min_opening_bid": (
        "The auctioneer opens with a positive whole number.",
        {
            "en": "Gameplay/1. Opening bid",
            "en-early": (
                "Gameplay/1. Opening Bid",
                "The auctioneer bids in whole numbers and may not bid zero.",
                _S,
            ),
            "de": "Spielablauf/1. Eröffnungsgebot",
            "de-summary": "Der Spielablauf/Eröffnungsgebot",
        },
    ),
    "min_secret_bid": (
        "A secret bid is zero or a positive whole number.",
        {
            "en": "Gameplay/2. Secret bids",
            "en-early": "Gameplay/2. Secret Bids",
            "de": "Spielablauf/2. Geheime Gebote",
            "de-summary": "Der Spielablauf/Geheime Gebote",
        },
    ),
    "secret_bid_may_equal_opening": (
        "A secret bid may be zero or any positive whole number except the auctioneer's amount.",
        {
            "en": "Gameplay/2. Secret bids",
            "en-early": (
                "Gameplay/2. Secret Bids",
                "A secret bid may be any whole number from zero up; nothing forbids the "
                "auctioneer's amount.",
                _S,
            ),
            "de": "Spielablauf/2. Geheime Gebote",
            "de-summary": "Der Spielablauf/Geheime Gebote",
        },
    ),
    "rebid_may_equal_opening": (
        "Rebids follow the ordinary bidding rules, so they may not equal the auctioneer's "
        "opening bid either.",
        {
            "en": "Special rules/Tied auction",
            "en-early": (
                "Equal bids",
                "A rebid replaces the earlier bid and may be any amount except the "
                "auctioneer's bid.",
                _S,
            ),
            "de": "Sonderregeln/Unentschieden Auktion",
            "de-summary": (
                "Sonderregeln bei QE/Unentschieden bei einer Auktion",
                "The page only says a rebid need not be higher; the rule that it follows the "
                "normal bidding rules is taken from de.",
                _Q,
            ),
        },
    ),
    "rebidders": (
        "Only the players tied for the highest bid rebid; then every standing bid is "
        "compared again.",
        {
            "en": "Special rules/Tied auction",
            "en-early": "Equal bids",
            "de": "Sonderregeln/Unentschieden Auktion",
            "de-summary": "Sonderregeln bei QE/Unentschieden bei einer Auktion",
        },
    ),
    "ties_before_fallback": (
        "The fallback decides at the third tie in a row; the library counts the comparison "
        "of the first bids as the first tie, so there are at most two rounds of rebids.",
        {
            "en": ("Special rules/Tied auction", "", _I),
            "en-early": ("Equal bids", "", _I),
            "de": ("Sonderregeln/Unentschieden Auktion", "", _I),
            "de-summary": ("Sonderregeln bei QE/Unentschieden bei einer Auktion", "", _I),
        },
    ),
    "tie_fallback": (
        "After the third tie in a row the highest bid that no other standing bid equals wins.",
        {
            "en": "Special rules/Tied auction",
            "en-early": (
                "Equal bids",
                "After the third tie in a row the highest amount bid only once in the whole "
                "sale wins.",
                _S,
            ),
            "de": "Sonderregeln/Unentschieden Auktion",
            "de-summary": (
                "Sonderregeln bei QE/Unentschieden bei einer Auktion",
                "The page says the highest bid outside 'the' tie wins, which could exclude "
                "only the tie for first place; read like de, where a bid in any tie is out.",
                _I,
            ),
        },
    ),
    "auctioneer_sees_all_bids": (
        "The auctioneer looks at every bid tile and announces the highest bidder; the "
        "library shows a bidding round's bids to the auctioneer once all are in.",
        {
            "en": "Gameplay/3. Award the company tile",
            "en-early": "Gameplay/3. Award the Company tile",
            "de": "Spielablauf/3. Vergabe des Unternehmensplättchens",
            "de-summary": (
                "Der Spielablauf/Vergabe des Unternehmensplättchens",
                "The page has the auctioneer look at the company tiles; the bid tiles are meant.",
                _C,
            ),
        },
    ),
    "auctioneer_win_public": (
        "The winning amount is written secretly on the tile, except when the auctioneer "
        "wins: then it is written openly.",
        {
            "en": "Gameplay/3. Award the company tile",
            "en-early": "Gameplay/3. Award the Company tile",
            "de": "Spielablauf/3. Vergabe des Unternehmensplättchens",
            "de-summary": "Der Spielablauf/Vergabe des Unternehmensplättchens",
        },
    ),
    "zero_bid_player_counts": (
        "Phase 4 (revealing and scoring zero bids) is skipped in 3-player games.",
        {
            "en": "Gameplay/4. Reveal zero bids and record VP",
            "en-early": "Gameplay/4. Reveal zero bids and record VP",
            "de": "Spielablauf/4. Null-Gebote und SP eintragen",
            "de-summary": "Der Spielablauf/Null-Gebote und SP eintragen",
        },
    ),
    "zero_bid_points": (
        "A player whose zero bid is revealed scores 2 VP.",
        {
            "en": "Gameplay/4. Reveal zero bids and record VP",
            "en-early": "Gameplay/4. Reveal zero bids and record VP",
            "de": "Spielablauf/4. Null-Gebote und SP eintragen",
            "de-summary": "Der Spielablauf/Null-Gebote und SP eintragen",
        },
    ),
    "zero_bid_limit_per_round": (
        "A player scores zero-bid points at most once per round; a round ends when every "
        "player has been auctioneer once.",
        {
            "en": "Gameplay/4. Reveal zero bids and record VP",
            "en-early": "Gameplay/4. Reveal zero bids and record VP",
            "de": "Spielablauf/4. Null-Gebote und SP eintragen",
            "de-summary": (
                "Der Spielablauf/Null-Gebote und SP eintragen",
                "Once per round, as its phase description says; its scoring section drops "
                "the limit, a slip.",
                _S,
            ),
        },
    ),
    "last_tile_without_auctioneer": (
        "In a 3-player game the last tile has no auctioneer and all three players bid "
        "secretly, so that everyone is auctioneer equally often.",
        {
            "en": "Special rules/3-player last tile rule",
            "en-early": "Special 3-Player Last Tile Rule",
            "de": "Sonderregeln/3-Spieler",
            "de-summary": "Sonderregeln bei QE/3 Spieler",
        },
    ),
    "last_tile_tie_awards_nothing": (
        "If the bids for that last tile tie for highest, nobody gets it.",
        {
            "en": "Special rules/3-player last tile rule",
            "en-early": "Special 3-Player Last Tile Rule",
            "de": "Sonderregeln/3-Spieler",
            "de-summary": "Sonderregeln bei QE/3 Spieler",
        },
    ),
    "peek_player_counts": (
        "In a 5-player game a player may ask to see a sale's winning bid; the library allows "
        "it from the award until the next opening bid, for players who do not know it.",
        {
            "en": ("Special rules/5-player one peek rule", "", _I),
            "en-early": ("(no such rule)", "The text has no peek rule.", _Q),
            "de": ("Sonderregeln/5-Spieler", "", _I),
            "de-summary": ("Sonderregeln bei QE/5 Spieler", "", _I),
        },
    ),
    "peeks_per_player": (
        "Each player may peek once per game and marks it on the score board.",
        {
            "en": "Special rules/5-player one peek rule",
            "en-early": ("(no such rule)", "The text has no peek rule.", _Q),
            "de": "Sonderregeln/5-Spieler",
            "de-summary": "Sonderregeln bei QE/5 Spieler",
        },
    ),
    "scoring_order": (
        "Scoring goes companies, zero bids, nationalization, monopolization, "
        "diversification, subtotal, then total spent and the grand total.",
        {
            "en": "Final scoring",
            "en-early": (
                "Final Scoring",
                "Six numbered categories, the spending one ('Bid') first, then companies, "
                "zero bids, nationalization, monopolization and diversification.",
                _S,
            ),
            "de": "Schlusswertung",
            "de-summary": "Ermittlung der Siegpunkte",
        },
    ),
    "token_categories": (
        "The face-down industry token counts like a company tile in monopolization and "
        "diversification.",
        {
            "en": "Final scoring/Monopolization, Diversification",
            "en-early": "Final Scoring/Monopolization, Diversification",
            "de": "Schlusswertung/Monopolisierung, Diversifikation",
            "de-summary": (
                "Ermittlung der Siegpunkte",
                "The introduction lets every tile and 'Industrieplättchen' count in all "
                "categories, but the monopolization and diversification paragraphs leave the "
                "token out; read like de, where the token counts in those two.",
                _I,
            ),
        },
    ),
    "nationalization": (
        "Tiles of your own nation: with 3-4 players 1, 3, 6, 10 VP for 1 to 4 tiles; with "
        "5 players 3, 6, 10 VP for 1 to 3.",
        {
            "en": "Final scoring/Nationalization",
            "en-early": "Final Scoring/4. Nationalization",
            "de": "Schlusswertung/Nationalisierung",
            "de-summary": "Ermittlung der Siegpunkte/Kategorie Nationalisierung",
        },
    ),
    "monopolization": (
        "Per industry, by how many of your tiles (token included) share it: with 3-4 "
        "players 3, 6, 10 VP for 2 to 4; with 5 players 6, 10, 16 VP for 2 to 4.",
        {
            "en": "Final scoring/Monopolization",
            "en-early": "Final Scoring/5. Monopolization",
            "de": "Schlusswertung/Monopolisierung",
            "de-summary": "Ermittlung der Siegpunkte/Kategorie Monopolisierung",
        },
    ),
    "diversification": (
        "Per set of tiles (token included) with distinct industries: with 3-4 players 4 VP "
        "for 3 industries and 8 for 4; with 5 players 8, 12, 17 VP for 3, 4, 5. Several "
        "sets may score.",
        {
            "en": "Final scoring/Diversification",
            "en-early": (
                "Final Scoring/6. Diversification",
                "With 3-4 players 6 VP for 3 industries and 10 for 4; the 5-player line gives "
                "10 for 3 and lists both 15 and 21 for 5, read as 15 for 4 and 21 for 5.",
                _C,
            ),
            "de": "Schlusswertung/Diversifikation",
            "de-summary": "Ermittlung der Siegpunkte/Kategorie Diversifikation",
        },
    ),
    "beyond_table": (
        "No text scores a count above a table's last entry (possible: five of one industry "
        "with 3-4 players, four tiles plus the token); the library scores the last entry "
        "and reports the gap.",
        {
            "en": ("Final scoring/Monopolization", "", _I),
            "en-early": ("Final Scoring/5. Monopolization", "", _I),
            "de": ("Schlusswertung/Monopolisierung", "", _I),
            "de-summary": ("Ermittlung der Siegpunkte/Kategorie Monopolisierung", "", _I),
        },
    ),
    "lowest_spend_bonus": (
        "The player who spent least scores 6 VP with 3-4 players and 7 VP with 5.",
        {
            "en": "Final scoring/Total spent",
            "en-early": "Final Scoring/1. Bid",
            "de": "Schlusswertung/Gesamtausgaben",
            "de-summary": "Ermittlung der Siegpunkte/Gesamtausgaben",
        },
    ),
    "lowest_spend_bonus_to_all_tied": (
        "Players tied for the lowest spend each score the whole bonus.",
        {
            "en": "Final scoring/Total spent",
            "en-early": "Final Scoring/1. Bid",
            "de": "Schlusswertung/Gesamtausgaben",
            "de-summary": "Ermittlung der Siegpunkte/Gesamtausgaben",
        },
    ),
    "eliminate_highest_spender": (
        "The player with the highest total spend over the game cannot win.",
        {
            "en": "Final scoring/Total spent",
            "en-early": (
                "Winner",
                "The player with the highest total of bids cannot win; the scoring section "
                "says only 'highest bid', read as the same total.",
                _S,
            ),
            "de": "Schlusswertung/Gesamtausgaben",
            "de-summary": (
                "Ermittlung der Siegpunkte/Gesamtausgaben",
                "The highest total over the game is out, as its scoring section says; its "
                "introduction's 'in one round' is a slip.",
                _S,
            ),
        },
    ),
    "eliminate_all_tied_highest": (
        "If several players tie for the highest spend, all of them are out.",
        {
            "en": "Final scoring/Total spent",
            "en-early": "Winner",
            "de": "Schlusswertung/Gesamtausgaben",
            "de-summary": "Ermittlung der Siegpunkte/Gesamtausgaben",
        },
    ),
    "final_tiebreak": (
        "Among remaining players tied on points, the one with the lower total spend wins.",
        {
            "en": "Special rules/Tied game",
            "en-early": "Winner",
            "de": "Sonderregeln/Unentschieden Schlusswertung",
            "de-summary": "Sonderregeln bei QE/Gleichstand bei der Schlusswertung",
        },
    ),
}


def _provenance_for(source: str) -> FrozenDict[str, Provenance]:
    result = {}
    for name, (shared, by_source) in _CITATIONS.items():
        cite = by_source[source]
        if isinstance(cite, str):
            result[name] = Provenance(source, cite, shared, _S)
        else:
            section, summary, basis = cite
            result[name] = Provenance(source, section, summary or shared, basis)
    return FrozenDict(result)


_COMMON_INTERPRETATIONS: Final[tuple[Interpretation, ...]] = (
    Interpretation(
        "first-bids-count-as-first-tie",
        "The comparison of the first bids counts as the first tie of a sale, so at most two "
        "rounds of rebids come before the fallback.",
        ("ties_before_fallback",),
    ),
    Interpretation(
        "auctioneer-sees-closed-rounds",
        "The auctioneer sees the bids of a bidding round once every bid of that round is in, "
        "never a round still open.",
        ("auctioneer_sees_all_bids",),
    ),
    Interpretation(
        "zero-bid-is-standing-bid",
        "A zero bid counts when it is the player's standing bid at the end of the sale "
        "(a zero rebid included), whether or not the sale awards the tile.",
        ("zero_bid_points",),
    ),
    Interpretation(
        "diversification-best-partition",
        "No text says how a player's tiles and token are split into diversification sets; "
        "the split that scores the most is used.",
        ("diversification",),
    ),
    Interpretation(
        "last-tile-amount-private",
        "The amount that wins the auctioneer-less last tile is known only to its winner.",
        ("last_tile_without_auctioneer",),
    ),
    Interpretation(
        "scoring-is-public",
        "At the end every player's tiles, token, spend and scores are public.",
        ("scoring_order",),
    ),
    Interpretation(
        "beyond-table-scores-last-entry",
        "A count above a scoring table's last entry scores that entry; it is reachable in "
        "monopolization with 3-4 players (four tiles of one industry plus its token).",
        ("beyond_table", "monopolization"),
        ("monopolization-beyond-table",),
    ),
    Interpretation(
        "no-winner-stays-open",
        "When every player ties for the highest spend, or players tie on points and on "
        "spend, no text names a winner; the result says so instead of choosing one.",
        ("eliminate_all_tied_highest", "final_tiebreak"),
        ("everyone-eliminated", "tie-after-tiebreak"),
    ),
)

_PEEK_INTERPRETATION: Final = Interpretation(
    "peek-window",
    "A peek may be made from a sale's award until the next opening bid, by a player who is "
    "neither that sale's auctioneer nor its winner, and only while the amount is secret; it "
    "shows the winning amount (after a tie fallback, not the tied highest bid).",
    ("peek_player_counts",),
)

_EARLY_INTERPRETATIONS: Final[tuple[Interpretation, ...]] = (
    Interpretation(
        "early-diversification-five",
        "The 5-player diversification line lists 15 and 21 VP both for five industries; it "
        "is read as 10, 15, 21 VP for 3, 4, 5 industries.",
        ("diversification",),
    ),
    Interpretation(
        "early-tied-auctioneer-rebids",
        "Secret bids may equal the opening bid, so the auctioneer can be tied; a tied "
        "auctioneer rebids too, at least the smallest opening bid, and no rebid may equal "
        "the auctioneer's opening bid.",
        ("secret_bid_may_equal_opening", "rebid_may_equal_opening", "rebidders"),
    ),
    Interpretation(
        "early-unique-bid",
        "An amount is unique when exactly one bid of the sale, in any round, named it; when "
        "no amount is unique the tile is not sold and the game goes on.",
        ("tie_fallback",),
        ("no-unique-bid",),
    ),
    Interpretation(
        "early-owner-knows-token",
        "The text deals the tokens face down without saying that owners may look at their "
        "own; read like the other texts: each player knows their own token only.",
        ("industries_in_play",),
    ),
    Interpretation(
        "early-elimination-by-total",
        "The spending category's 'highest bid' means the highest total spend, as in the "
        "Winner section.",
        ("eliminate_highest_spender",),
    ),
)

_SUMMARY_INTERPRETATIONS: Final[tuple[Interpretation, ...]] = (
    Interpretation(
        "summary-slips-follow-de",
        "Where the page contradicts itself or the rulebook (elimination 'in one round', "
        "tiles counting 'at least once', zero bids without a limit, nationalization of "
        "tiles 'zu einer Nation' rather than one's own) or is unclear (the token in "
        "scoring, the rules for rebids), it is read like the de rulebook it summarises.",
        (
            "eliminate_highest_spender",
            "zero_bid_limit_per_round",
            "token_categories",
            "rebid_may_equal_opening",
            "nationalization",
        ),
    ),
    Interpretation(
        "summary-untied-bid",
        "After three ties the winning bid must not be tied with any other standing bid, "
        "not only with the bids of the tie for first place.",
        ("tie_fallback",),
    ),
)


def _builtin(
    source: str,
    title: str,
    language: str,
    changes: Mapping[str, Any],
    interpretations: tuple[Interpretation, ...],
) -> RuleSet:
    values = {**_EN_VALUES, **changes}
    return RuleSet(
        id=source,
        title=title,
        language=language,
        source=source,
        provenance=_provenance_for(source),
        interpretations=interpretations,
        **values,
    )


RULESETS: Final[Mapping[str, RuleSet]] = FrozenDict(
    (rs.id, rs)
    for rs in (
        _builtin(
            "en",
            SOURCES["en"].title,
            "en",
            {},
            (*_COMMON_INTERPRETATIONS, _PEEK_INTERPRETATION),
        ),
        _builtin(
            "en-early",
            SOURCES["en-early"].title,
            "en",
            _EN_EARLY_CHANGES,
            (*_COMMON_INTERPRETATIONS, *_EARLY_INTERPRETATIONS),
        ),
        _builtin(
            "de",
            SOURCES["de"].title,
            "de",
            {},
            (*_COMMON_INTERPRETATIONS, _PEEK_INTERPRETATION),
        ),
        _builtin(
            "de-summary",
            SOURCES["de-summary"].title,
            "de",
            {},
            (*_COMMON_INTERPRETATIONS, _PEEK_INTERPRETATION, *_SUMMARY_INTERPRETATIONS),
        ),
    )
)
"""The four built-in rule sets by id: ``en``, ``en-early``, ``de``, ``de-summary``."""


def get_ruleset(ruleset: str | RuleSet) -> RuleSet:
    """The rule set with this id (a ``RuleSet`` is returned as it is).

    >>> get_ruleset("en-early").tie_fallback
    <TieFallback.HIGHEST_UNIQUE_IN_SALE: 'highest-unique-in-sale'>
    """
    if isinstance(ruleset, RuleSet):
        return ruleset
    found = RULESETS.get(ruleset) if isinstance(ruleset, str) else None
    if found is None:
        valid = ", ".join(repr(k) for k in RULESETS)
        raise UnknownRuleSet(f"unknown rule set {shown(ruleset)}; built-in rule sets: {valid}")
    return found
