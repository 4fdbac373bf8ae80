"""Rule sets: every rule on which the QE texts could differ, as data with its provenance.

A :class:`RuleSet` is frozen. Each rule is a field, and ``ruleset.cite(field)`` says where
the value comes from (source id, section, a paraphrase, and whether the text states it,
is silent, or needed an interpretation)::

    >>> import qe_rules as qe
    >>> en = qe.get_ruleset("en")
    >>> en.secret_bid_may_equal_opening
    False
    >>> cite = en.cite("secret_bid_may_equal_opening")
    >>> cite.source, cite.section, cite.basis
    ('en', 'Gameplay/2. Secret bids', <Basis.STATED: 'stated'>)
    >>> len(en.companies(5)), en.diversification[5]
    (15, FrozenDict({3: 8, 4: 12, 5: 17}))

The four built-in rule sets are in :data:`RULESETS`, read on first use from the package's
files ``qe_rules/data/rulesets/<id>.toml`` by the same loader as a user's file. The engine
and the scorer read only fields, never a rule set's id.

This module holds the model: the fields, each declared with its
:class:`~qe_rules.rules.values.FieldKind` (how a value is checked, written and read), and
the checks across fields. Reading and writing files is :mod:`qe_rules.rules.codec` (what a
file that ``extends`` another means) and :mod:`qe_rules.rules.files` (where the built-ins
are, reading within the limits); this module joins them to the model.
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
import sys
import warnings
from collections.abc import Iterable, Mapping
from typing import Any, Final

import attrs

from qe_rules._util import toml as _toml
from qe_rules._util.deprecation import renamed
from qe_rules._util.frozen import FrozenDict
from qe_rules.components import COMPANIES, Company, Industry, Nation
from qe_rules.errors import InvalidArgument, InvalidRuleSet, RulesError, UnknownRuleSet, shown
from qe_rules.limits import MAX_BID, MAX_EXTENDS_DEPTH
from qe_rules.rules.codec import extension, merge
from qe_rules.rules.files import (
    SOURCES,
    Builtins,
    data_file,
    parse_toml,
    read_text,
    reading_citations,
)
from qe_rules.rules.specs import check_spec, plain_value, spec_items, spec_value, split_id
from qe_rules.rules.values import (
    BID,
    BOOL,
    CATEGORY_ORDER,
    CATEGORY_SET,
    COMPANY_LIST,
    COUNT,
    DECK_SIZE,
    GAP_CODES,
    INDUSTRIES,
    NATIONS,
    PLAYER_COUNTS,
    POINTS,
    TABLE,
    TIES,
    Basis,
    BeyondTable,
    Category,
    DataError,
    DiversificationSets,
    EveryoneTiedForMostSpent,
    FallbackFindsNoBid,
    FieldKind,
    FinalTieBreak,
    FirstAuctioneer,
    Interpretation,
    LastTileTie,
    NationAssignment,
    PeekShows,
    PeekTiming,
    Provenance,
    RebidScope,
    RebidVisibility,
    Source,
    TieAfterTiebreak,
    TiedAuctioneer,
    TieFallback,
    TieStreak,
    UniqueBidPool,
    check_keys,
    decode_interpretation,
    decode_list,
    decode_provenance,
    decode_text,
    enum_kind,
    per_players,
)

__all__ = [
    "GAP_CODES",
    "RULESETS",
    "SOURCES",
    "Basis",
    "BeyondTable",
    "Category",
    "DiversificationSets",
    "EveryoneTiedForMostSpent",
    "FallbackFindsNoBid",
    "FinalTieBreak",
    "FirstAuctioneer",
    "Interpretation",
    "LastTileTie",
    "NationAssignment",
    "PeekShows",
    "PeekTiming",
    "Provenance",
    "RebidScope",
    "RebidVisibility",
    "RuleSet",
    "Source",
    "TieAfterTiebreak",
    "TieFallback",
    "TieStreak",
    "TiedAuctioneer",
    "UniqueBidPool",
    "get_ruleset",
    "load_ruleset",
    "parse_spec",
    "text_support",
]


def _rule(group: str, label: str, kind: FieldKind) -> Any:
    """A rule field of ``kind``: ``group`` and ``label`` are used by summaries and diffs."""
    metadata = {"rule": True, "group": group, "label": label, "kind": kind}
    return attrs.field(metadata=metadata, converter=kind.convert)


def _meta(label: str, **kwargs: Any) -> Any:
    return attrs.field(metadata={"rule": False, "group": "metadata", "label": label}, **kwargs)


def _freeze_provenance(value: Mapping[str, Provenance]) -> FrozenDict[str, Provenance]:
    return value if isinstance(value, FrozenDict) else FrozenDict(value)


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

    A new rule is one line here: its type, its group, its label and its kind (how it is
    checked, written and read; see :mod:`qe_rules.rules.values`). Then give it a value and
    a citation in each file under ``qe_rules/data/rulesets/``.
    """

    # metadata
    id: str = _meta("id")
    title: str = _meta("title")
    language: str = _meta("language")
    source: str = _meta("primary source id")

    # setup
    player_counts: tuple[int, ...] = _rule("setup", "player counts", PLAYER_COUNTS)
    removed_companies: FrozenDict[int, tuple[Company, ...]] = _rule(
        "setup", "company tiles removed", per_players(COMPANY_LIST)
    )
    deck_sizes: FrozenDict[int, int] = _rule(
        "setup", "stated number of tiles in play", per_players(DECK_SIZE)
    )
    nations_in_play: FrozenDict[int, tuple[Nation, ...]] = _rule(
        "setup", "nations in play", per_players(NATIONS)
    )
    industries_in_play: FrozenDict[int, tuple[Industry, ...]] = _rule(
        "setup", "industry tokens in play", per_players(INDUSTRIES)
    )
    nation_assignment: NationAssignment = _rule(
        "setup", "how nations are given out", enum_kind(NationAssignment)
    )
    first_auctioneer: FirstAuctioneer = _rule(
        "setup", "who is the first auctioneer", enum_kind(FirstAuctioneer)
    )

    # bidding
    min_opening_bid: int = _rule("bidding", "smallest opening bid", BID)
    min_secret_bid: int = _rule("bidding", "smallest secret bid", BID)
    secret_bid_may_equal_opening: bool = _rule(
        "bidding", "a secret bid may equal the opening bid", BOOL
    )
    rebid_may_equal_opening: bool = _rule("bidding", "a rebid may equal the opening bid", BOOL)
    rebidders: RebidScope = _rule("bidding", "who rebids after a tie", enum_kind(RebidScope))
    ties_before_fallback: int = _rule("bidding", "ties in a row before the fallback", TIES)
    tie_fallback: TieFallback = _rule(
        "bidding", "fallback after too many ties", enum_kind(TieFallback)
    )
    rebid_visibility: RebidVisibility = _rule(
        "bidding", "who sees the rebids after a tie", enum_kind(RebidVisibility)
    )
    auctioneer_win_public: bool = _rule(
        "bidding", "the amount is public when the auctioneer wins", BOOL
    )
    tied_auctioneer: TiedAuctioneer = _rule(
        "bidding", "a tied auctioneer rebids or the opening bid stands", enum_kind(TiedAuctioneer)
    )
    auctioneer_rebid_may_be_zero: bool = _rule(
        "bidding", "a tied auctioneer's rebid may be zero", BOOL
    )
    auctioneer_rebid_may_repeat_opening: bool = _rule(
        "bidding", "a tied auctioneer's rebid may repeat its opening bid", BOOL
    )
    tie_streak: TieStreak = _rule("bidding", "which ties count as in a row", enum_kind(TieStreak))
    unique_bid_pool: UniqueBidPool = _rule(
        "bidding", "the bids the unique-bid fallback looks at", enum_kind(UniqueBidPool)
    )
    fallback_finds_no_bid: FallbackFindsNoBid = _rule(
        "bidding", "when the tie fallback finds no single bid", enum_kind(FallbackFindsNoBid)
    )

    # zero bids
    zero_bid_player_counts: tuple[int, ...] = _rule(
        "zero bids", "player counts with zero-bid points", PLAYER_COUNTS
    )
    zero_bid_points: int = _rule("zero bids", "points for a zero bid", COUNT)
    zero_bid_limit_per_round: int = _rule(
        "zero bids", "zero-bid scorings per round (0: no limit)", COUNT
    )
    zero_bid_winner_scores: bool = _rule(
        "zero bids", "a zero bid that wins the tile scores zero-bid points", BOOL
    )
    zero_rebid_scores: bool = _rule("zero bids", "a standing zero rebid scores", BOOL)
    zero_bids_score_when_unsold: bool = _rule(
        "zero bids", "zero bids score in a sale that sells nothing", BOOL
    )

    # special rules
    last_tile_without_auctioneer: tuple[int, ...] = _rule(
        "special", "player counts whose last tile has no auctioneer", PLAYER_COUNTS
    )
    last_tile_tie_awards_nothing: bool = _rule(
        "special", "a tie on the auctioneer-less last tile awards nothing", BOOL
    )
    last_tile_tie: LastTileTie = _rule(
        "special", "which equal bids on the last tile are a tie", enum_kind(LastTileTie)
    )
    last_tile_amount_public: bool = _rule(
        "special", "the winning amount of the auctioneer-less last tile is public", BOOL
    )
    peek_player_counts: tuple[int, ...] = _rule(
        "special", "player counts with the peek at a winning bid", PLAYER_COUNTS
    )
    peeks_per_player: int = _rule("special", "peeks per player and game", COUNT)
    peek_after_last_sale: bool = _rule("special", "the last sale may be peeked at", BOOL)
    peek_shows: PeekShows = _rule("special", "what a peek shows", enum_kind(PeekShows))
    peek_timing: PeekTiming = _rule(
        "special", "which sale a peek looks at, and when", enum_kind(PeekTiming)
    )

    # scoring
    scoring_order: tuple[Category, ...] = _rule(
        "scoring", "order of the scoring categories", CATEGORY_ORDER
    )
    token_categories: frozenset[Category] = _rule(
        "scoring", "categories that count the industry token", CATEGORY_SET
    )
    nationalization: FrozenDict[int, FrozenDict[int, int]] = _rule(
        "scoring", "nationalization table", per_players(TABLE)
    )
    monopolization: FrozenDict[int, FrozenDict[int, int]] = _rule(
        "scoring", "monopolization table", per_players(TABLE)
    )
    diversification: FrozenDict[int, FrozenDict[int, int]] = _rule(
        "scoring", "diversification table", per_players(TABLE)
    )
    diversification_sets: DiversificationSets = _rule(
        "scoring", "how diversification sets are formed", enum_kind(DiversificationSets)
    )
    tiles_once_per_category: bool = _rule("scoring", "a tile counts once in each category", BOOL)
    beyond_table: BeyondTable = _rule(
        "scoring", "a count beyond a scoring table", enum_kind(BeyondTable)
    )
    lowest_spend_bonus: FrozenDict[int, int] = _rule(
        "scoring", "bonus for the lowest spend", per_players(POINTS)
    )
    lowest_spend_bonus_to_all_tied: bool = _rule(
        "scoring", "every player tied for the lowest spend gets the bonus", BOOL
    )
    eliminate_highest_spender: bool = _rule("scoring", "the highest spender is eliminated", BOOL)
    eliminate_all_tied_highest: bool = _rule(
        "scoring", "every player tied for the highest spend is eliminated", BOOL
    )
    everyone_tied_for_most_spent: EveryoneTiedForMostSpent = _rule(
        "scoring",
        "what happens if all players share the highest spend",
        enum_kind(EveryoneTiedForMostSpent),
    )
    final_tiebreak: FinalTieBreak = _rule(
        "scoring", "tie-break between equal scores", enum_kind(FinalTieBreak)
    )
    tie_after_tiebreak: TieAfterTiebreak = _rule(
        "scoring", "the result of a tie the tie-break leaves", enum_kind(TieAfterTiebreak)
    )

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
    def field_kind(cls, name: str) -> FieldKind:
        """The kind of rule field ``name``: how its value is checked, written and read,
        and its choices or bounds where it has them.

        >>> RuleSet.field_kind("tied_auctioneer").choices
        (<TiedAuctioneer.REBIDS: 'rebids'>, <TiedAuctioneer.STANDS: 'stands'>)
        """
        kind = _KINDS.get(name) if isinstance(name, str) else None
        if kind is None:
            raise InvalidRuleSet(
                f"{shown(name)} is not a rule field; rule fields are {', '.join(_RULE_FIELDS)}"
            )
        return kind

    @classmethod
    def field_group(cls, name: str) -> str:
        """The group of a field: setup, bidding, zero bids, special, scoring or metadata."""
        return str(_FIELD_META[_known_field(name)]["group"])

    @classmethod
    def field_label(cls, name: str) -> str:
        """A short human label of a field, e.g. ``"smallest opening bid"``."""
        return str(_FIELD_META[_known_field(name)]["label"])

    def cite(self, name: str) -> Provenance:
        """Where the value of rule field ``name`` comes from.

        The basis is the texts' word, not the maker's: a value that no QE text states or
        suggests (see :func:`text_support`) is cited with the basis ``house-rule``,
        whatever file, spec or ``evolve`` made it and whatever its provenance says.

        >>> import qe_rules as qe
        >>> qe.get_ruleset("de").cite("ties_before_fallback").section
        'Sonderregeln/Unentschieden Auktion'
        >>> qe.get_ruleset("en:zero_bid_points=3").cite("zero_bid_points").basis
        <Basis.HOUSE_RULE: 'house-rule'>
        """
        if not isinstance(name, str) or name not in _FIELD_META or not _FIELD_META[name]["rule"]:
            raise InvalidRuleSet(
                f"{shown(name)} is not a rule field; rule fields are {', '.join(_RULE_FIELDS)}"
            )
        cited = self.provenance[name]
        if cited.basis is Basis.HOUSE_RULE or RULESETS.get(self.id) is self:
            return cited
        if text_support(name, getattr(self, name)) is None:
            return attrs.evolve(cited, basis=Basis.HOUSE_RULE)
        return cited

    def to_dict(self) -> dict[str, Any]:
        """The rule set as plain data (str, int, bool, lists, dicts with str keys).

        Unlike the ``to_dict`` of other types, the shape is TOML-shaped: the one rule files
        and game records use, with a ``rules`` table of every rule field (player counts as
        string keys), a ``provenance`` table and a list of ``interpretations``.
        :meth:`from_dict` reads it back to an equal rule set.

        >>> en = get_ruleset("en")
        >>> RuleSet.from_dict(en.to_dict()) == en
        True
        >>> en.to_dict()["rules"]["monopolization"]["5"]
        {'2': 6, '3': 10, '4': 16}
        """
        return _to_dict(self)

    def to_data(self) -> dict[str, Any]:
        """Deprecated name of :meth:`to_dict`."""
        renamed("RuleSet.to_data", "RuleSet.to_dict")
        return _to_dict(self)

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
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Build a rule set from :meth:`to_dict`'s TOML-shaped data; every rule field is
        required.

        Raises :class:`~qe_rules.InvalidRuleSet` naming the key that is missing, unknown
        or of the wrong type, and what is allowed.
        """
        return _from_dict(data)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> RuleSet:
        """Deprecated name of :meth:`from_dict`."""
        renamed("RuleSet.from_data", "RuleSet.from_dict")
        return _from_dict(data)

    def evolve(self, **changes: Any) -> RuleSet:
        """A variant of this rule set with some rule fields changed.

        Values are Python values (``True``, ``TiedAuctioneer.STANDS``) or their plain-data
        form (``"stands"``). The variant's id is the spec string that names it (see
        :func:`get_ruleset`), and the provenance of each changed field says so. A field
        that is not a rule field, or a value it does not allow, raises
        :class:`~qe_rules.InvalidRuleSet` naming what is allowed.

        >>> early = get_ruleset("en-early")
        >>> variant = early.evolve(tied_auctioneer="stands", zero_bid_winner_scores=False)
        >>> variant.id
        'en-early:tied_auctioneer=stands,zero_bid_winner_scores=false'
        >>> variant.tied_auctioneer, variant.cite("tied_auctioneer").basis
        (<TiedAuctioneer.STANDS: 'stands'>, <Basis.INTERPRETATION: 'interpretation'>)
        >>> variant == get_ruleset(variant.id)
        True
        """
        return _evolve(self, changes)

    @property
    def acknowledged_gaps(self) -> frozenset[str]:
        """The rule-gap codes that this rule set's interpretations acknowledge."""
        return frozenset(code for i in self.interpretations for code in i.gaps)

    # ----------------------------------------------------------------- derived rules

    def companies(self, players: int) -> tuple[Company, ...]:
        """The deck for ``players`` players, in canonical order (see ``COMPANIES``)."""
        return self._decks[self.check_players(players)]

    def nations(self, players: int) -> tuple[Nation, ...]:
        """The nations in play for ``players`` players."""
        return self.nations_in_play[self.check_players(players)]

    def industries(self, players: int) -> tuple[Industry, ...]:
        """The industry tokens in play for ``players`` players."""
        return self.industries_in_play[self.check_players(players)]

    def sales(self, players: int) -> int:
        """How many sales a game has: one per tile in the deck."""
        return len(self.companies(players))

    def has_last_tile_rule(self, players: int) -> bool:
        """Whether the last tile is sold without an auctioneer at this player count."""
        return self.check_players(players) in self.last_tile_without_auctioneer

    def rounds(self, players: int) -> int:
        """How many rounds a game has (a round: every seat is auctioneer once)."""
        sales = self.sales(players) - (1 if self.has_last_tile_rule(players) else 0)
        return math.ceil(sales / players)

    def round_of_sale(self, players: int, sale: int) -> int:
        """The round (from 0) of sale ``sale`` (from 0): every seat runs one sale a round,
        and a last tile without auctioneer belongs to the last round.

        >>> RULESETS["en"].round_of_sale(4, 5)
        1
        """
        players = self.check_players(players)
        if type(sale) is not int or sale < 0:
            raise InvalidArgument(f"a sale is a whole number >= 0, got {shown(sale)}")
        return max(0, min(sale // players, self.rounds(players) - 1))

    def auctioneer_of_sale(self, players: int, first: int, sale: int) -> int | None:
        """The seat that runs sale ``sale`` of a game whose first auctioneer is ``first``
        (``None``: the last tile sold without auctioneer, or no sale at all).

        >>> RULESETS["en"].auctioneer_of_sale(4, 1, 5)
        2
        """
        sales = self.sales(players)
        if type(first) is not int or not 0 <= first < players:
            raise InvalidArgument(f"first is a seat from 0 to {players - 1}, got {shown(first)}")
        if type(sale) is not int or sale < 0:
            raise InvalidArgument(f"a sale is a whole number >= 0, got {shown(sale)}")
        if sale >= sales or (sale == sales - 1 and self.has_last_tile_rule(players)):
            return None
        return (first + sale) % players

    def has_zero_bid_points(self, players: int) -> bool:
        """Whether zero bids are revealed and score at this player count."""
        return self.check_players(players) in self.zero_bid_player_counts

    def max_zero_bid_scorings(self, players: int) -> int:
        """The largest number of zero-bid scorings a player can have in one game."""
        if not self.has_zero_bid_points(players):
            return 0
        if self.zero_bid_limit_per_round:
            return self.rounds(players) * self.zero_bid_limit_per_round
        return self.sales(players)

    def has_peek(self, players: int) -> bool:
        """Whether the peek at a winning bid exists at this player count."""
        return self.check_players(players) in self.peek_player_counts and (
            self.peeks_per_player > 0
        )

    def check_players(self, players: int) -> int:
        """``players`` if this rule set is played by that many, else ``InvalidArgument``.

        >>> RULESETS["en"].check_players(4)
        4
        """
        if type(players) is not int or players not in self.player_counts:
            counts = ", ".join(map(str, self.player_counts))
            raise InvalidArgument(f"{self.id} is played by {counts} players, not {shown(players)}")
        return players


# --------------------------------------------------------------------------- field metadata


def _known_field(name: object) -> str:
    """``name`` if it names a field of :class:`RuleSet` (a rule or its metadata)."""
    if not isinstance(name, str) or name not in _FIELD_META:
        raise InvalidArgument(
            f"{shown(name)} is not a field of a rule set; fields are {', '.join(_FIELD_META)}"
        )
    return name


_FIELD_META: Final[dict[str, Mapping[str, Any]]] = {
    f.name: f.metadata for f in attrs.fields(RuleSet) if f.metadata
}
_RULE_FIELDS: Final[tuple[str, ...]] = tuple(
    name for name, meta in _FIELD_META.items() if meta["rule"]
)
_LABELS: Final[dict[str, str]] = {name: _FIELD_META[name]["label"] for name in _RULE_FIELDS}
_KINDS: Final[dict[str, FieldKind]] = {name: _FIELD_META[name]["kind"] for name in _RULE_FIELDS}
_PER_PLAYER_FIELDS: Final = tuple(name for name, kind in _KINDS.items() if kind.per_players)
_COUNTS_SUBSET_FIELDS: Final = tuple(  # player counts among player_counts
    name for name, kind in _KINDS.items() if kind is PLAYER_COUNTS and name != "player_counts"
)
_PIECE_FIELDS: Final = (  # field, the plural of what a seat holds
    ("nations_in_play", "nations"),
    ("industries_in_play", "tokens"),
)


def _deck(removed: Iterable[Company]) -> tuple[Company, ...]:
    gone = frozenset(removed)
    return tuple(c for c in COMPANIES if c not in gone)


def _fail(ruleset_id: str, name: str, problem: str) -> InvalidRuleSet:
    return InvalidRuleSet(f"rule set {shown(ruleset_id)}, field {shown(name)}: {problem}")


# --------------------------------------------------------------------------- validation


_LANGUAGE_TAG: Final = re.compile(r"[a-z]{2,3}(?:-[A-Za-z0-9]{1,8})*")
"""The shape of a rule set's ``language``: a language tag (BCP 47's common form)."""


def _validate(rs: RuleSet) -> None:
    """Check a rule set for inconsistencies the engine and the scorer cannot work with."""
    rid = rs.id
    for name in ("id", "title", "language", "source"):
        try:
            decode_text(getattr(rs, name), name)
        except DataError as error:
            raise _fail(str(rid)[:60], name, error.problem) from None
        if not getattr(rs, name).isprintable() or not getattr(rs, name).strip():
            raise _fail(
                rid,
                name,
                f"needs printable text (no control characters or escape sequences), got "
                f"{shown(getattr(rs, name))}",
            )
    if not _LANGUAGE_TAG.fullmatch(rs.language):
        raise _fail(
            rid,
            "language",
            f"needs a language tag such as 'en' or 'de-CH', got {shown(rs.language)}",
        )
    counts = rs.player_counts
    problem = PLAYER_COUNTS.check(counts)
    if problem:
        raise _fail(rid, "player_counts", problem)
    if not counts or any(not 2 <= n <= 5 for n in counts):
        raise _fail(rid, "player_counts", f"needs player counts between 2 and 5, got {counts}")
    if len(set(counts)) != len(counts):
        raise _fail(rid, "player_counts", f"repeats a player count: {counts}")
    for name in _PER_PLAYER_FIELDS:
        value = getattr(rs, name)
        if not isinstance(value, Mapping):
            raise _fail(rid, name, "needs a value per player count")
        if sorted(value, key=repr) != sorted(counts, key=repr):
            keys = ", ".join(shown(k) for k in value)
            raise _fail(rid, name, f"needs exactly the player counts {list(counts)}, got [{keys}]")
        for n in counts:
            problem = _KINDS[name].check(value[n])
            if problem:
                raise _fail(rid, name, f"{n} players: {problem}")
    for name, kind in _KINDS.items():
        if not kind.per_players and name != "player_counts":
            problem = kind.check(getattr(rs, name))
            if problem:
                raise _fail(rid, name, problem)
    for name in _COUNTS_SUBSET_FIELDS:
        extra = set(getattr(rs, name)) - set(counts)
        if extra:
            raise _fail(rid, name, f"names player counts not played: {sorted(extra)}")
    for n in counts:
        if len(rs.removed_companies[n]) >= len(COMPANIES):
            raise _fail(rid, "removed_companies", f"{n} players: no tile is left to sell")
        for name, held in _PIECE_FIELDS:
            pieces = getattr(rs, name)[n]
            if len(pieces) < n:
                raise _fail(rid, name, f"{n} players need {n} {held}, got {len(pieces)}")
    _check_bids_possible(rs)
    if not isinstance(rs.token_categories, frozenset):
        raise _fail(rid, "token_categories", "needs scoring categories")
    if sorted(rs.scoring_order, key=lambda c: c.value) != sorted(Category, key=lambda c: c.value):
        raise _fail(rid, "scoring_order", "needs every scoring category exactly once")
    if not rs.token_categories <= {Category.MONOPOLIZATION, Category.DIVERSIFICATION}:
        raise _fail(
            rid,
            "token_categories",
            "the industry token can count only in monopolization and diversification",
        )
    if not isinstance(rs.provenance, Mapping):
        raise _fail(rid, "provenance", "needs a citation per rule field")
    missing = [name for name in _RULE_FIELDS if name not in rs.provenance]
    if missing:
        raise _fail(rid, "provenance", f"no provenance for {', '.join(missing)}")
    unknown = [shown(name) for name in rs.provenance if name not in _RULE_FIELDS]
    if unknown:
        raise _fail(rid, "provenance", f"provenance for unknown fields {', '.join(unknown)}")


# --------------------------------------------------------------------------- old names

_PACKAGE: Final = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_REPLACED_FIELDS: Final[Mapping[str, str]] = FrozenDict(
    {"auctioneer_sees_all_bids": "rebid_visibility"}
)
"""Rule fields that were replaced, by their replacement; read with a warning or an error."""


def _replaced(name: str, value: Any) -> tuple[str, Any]:
    """A rule given by an old field name as ``(field, value)`` of its replacement.

    ``auctioneer_sees_all_bids = true`` is ``rebid_visibility = "auctioneer"`` (with a
    :class:`DeprecationWarning`); ``false`` hid even the winning amount from the
    auctioneer, which no text allows, and is refused naming the replacement."""
    if name == "auctioneer_sees_all_bids":
        if value is True or value == "true":
            frame: Any = sys._getframe()  # warn at the first caller outside the package
            level = 1
            while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
                frame, level = frame.f_back, level + 1
            warnings.warn(
                "the rule field auctioneer_sees_all_bids is deprecated; use "
                'rebid_visibility = "auctioneer"',
                DeprecationWarning,
                stacklevel=level,
            )
            return "rebid_visibility", "auctioneer"
        allowed = ", ".join(repr(v.value) for v in RebidVisibility)
        raise InvalidRuleSet(
            f"auctioneer_sees_all_bids is replaced by rebid_visibility ({allowed}); "
            f"auctioneer_sees_all_bids={shown(value)} hid every bid from the auctioneer, even "
            "the winning amount it writes on the tile, which no text allows"
        )
    return name, value


def _renamed_rules(rules: Any, provenance: Any = None) -> tuple[Any, Any]:
    """``rules`` and ``provenance`` tables with replaced field names read as their
    replacements (see :func:`_replaced`); anything else is left for the checks."""
    if not isinstance(rules, Mapping) or not any(name in rules for name in _REPLACED_FIELDS):
        return rules, provenance
    new_rules = {}
    for name, value in rules.items():
        key, new = _replaced(name, value) if name in _REPLACED_FIELDS else (name, value)
        new_rules[key] = new
    if isinstance(provenance, Mapping):
        provenance = {
            _REPLACED_FIELDS.get(name, name) if name in rules else name: entry
            for name, entry in provenance.items()
        }
    return new_rules, provenance


def _check_bids_possible(rs: RuleSet) -> None:
    """Every bid a game asks for has a legal amount at most ``MAX_BID``: a smallest bid of
    ``MAX_BID`` leaves none where a bid may not equal an opening bid of ``MAX_BID``."""
    secret_may_equal = rs.secret_bid_may_equal_opening and rs.rebid_may_equal_opening
    for name, may_equal in (
        ("min_secret_bid", secret_may_equal),
        ("min_opening_bid", rs.rebid_may_equal_opening),
    ):
        if getattr(rs, name) >= MAX_BID and not may_equal:
            raise _fail(
                rs.id,
                name,
                f"a smallest bid of MAX_BID ({MAX_BID}) leaves no legal bid after an opening "
                f"bid of {MAX_BID} where a bid may not equal it; allowed: at most {MAX_BID - 1}",
            )


# --------------------------------------------------------------------------- plain data


def encode_field(name: str, value: Any) -> Any:
    """One rule field's value as plain data."""
    return _KINDS[name].encode(value)


def decode_field(name: str, value: Any, path: str | None = None) -> Any:
    """One rule field's value from plain data; raises InvalidRuleSet naming ``path``."""
    return _KINDS[name].decode(value, path or name)


def _to_dict(rs: RuleSet) -> dict[str, Any]:
    return {
        "id": rs.id,
        "title": rs.title,
        "language": rs.language,
        "source": rs.source,
        "rules": {name: encode_field(name, getattr(rs, name)) for name in _RULE_FIELDS},
        "provenance": {name: p.to_dict() for name, p in rs.provenance.items()},
        "interpretations": [i.to_dict() for i in rs.interpretations],
    }


_TOP_KEYS: Final = ("id", "title", "language", "source", "rules", "provenance", "interpretations")


def _from_dict(data: Mapping[str, Any], *, builtin: bool = False) -> RuleSet:
    data = check_keys(data, "rule set", _TOP_KEYS, "needs a table of keys")
    rules, renamed_provenance = _renamed_rules(data.get("rules"), data.get("provenance"))
    data = {**data, "provenance": renamed_provenance} if "provenance" in data else data
    if not isinstance(rules, Mapping):
        raise DataError("rules", "needs a table of rule fields")
    unknown = [shown(name) for name in rules if name not in _RULE_FIELDS]
    if unknown:
        raise DataError("rules", f"unknown rule fields [{', '.join(unknown)}]")
    missing = [name for name in _RULE_FIELDS if name not in rules]
    if missing:
        raise DataError("rules", f"missing rule fields {', '.join(missing)}")
    values = {name: decode_field(name, rules[name], f"rules.{name}") for name in _RULE_FIELDS}
    provenance = data.get("provenance")
    if not isinstance(provenance, Mapping):
        raise DataError("provenance", "needs a table with an entry per rule field")
    interpretations = decode_list(data.get("interpretations", []), "interpretations")
    rs = RuleSet(
        id=decode_text(data.get("id"), "id"),
        title=decode_text(data.get("title", data.get("id")), "title"),
        language=decode_text(data.get("language", "en"), "language"),
        source=decode_text(data.get("source", data.get("id")), "source"),
        provenance=FrozenDict(
            (decode_text(name, "provenance"), decode_provenance(entry, f"provenance.{name}"))
            for name, entry in provenance.items()
        ),
        interpretations=tuple(
            decode_interpretation(entry, f"interpretations[{index}]", _RULE_FIELDS)
            for index, entry in enumerate(interpretations)
        ),
        **values,
    )
    if not builtin and rs.id in RULESETS and RULESETS[rs.id] != rs:
        raise DataError(
            "id",
            f"{shown(rs.id)} is the id of a built-in rule set, and this one differs from it; "
            "give a changed rule set its own id",
        )
    if not builtin and rs.id.partition(":")[0] in RULESETS and ":" in rs.id:
        _check_spec_id(rs)
    return rs


def _check_spec_id(rs: RuleSet) -> None:
    """An id that starts with a built-in's id and ``:`` is a spec string (``get_ruleset``
    reads it as one): the rules it names must be those of ``rs``. (The id of a variant
    of a rule set from a file, ``house:zero_bid_points=3``, names nothing
    ``get_ruleset`` knows.)"""
    try:
        named = _parse_spec(rs.id)
    except RulesError as error:
        raise DataError(
            "id",
            f"{shown(rs.id)} is a spec string of a built-in rule set, and it names no rule "
            f"set ({error}); give a rule set of its own another id",
        ) from None
    differ = [name for name in _RULE_FIELDS if getattr(named, name) != getattr(rs, name)]
    if differ:
        raise DataError(
            "id",
            f"{shown(rs.id)} is a spec string naming other rules (they differ in "
            f"{', '.join(differ[:3])}{', ...' if len(differ) > 3 else ''}); give a changed "
            "rule set an id of its own",
        )


# --------------------------------------------------------------------------- TOML


def _to_toml(rs: RuleSet, base: RuleSet | str | None) -> str:
    data = rs.to_dict()
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
    return _toml.dumps(extension(data, base_rs.to_dict()), header=header)


def load_ruleset(path: str | os.PathLike[str]) -> RuleSet:
    """Read a rule set from a TOML file.

    The file names a base with ``extends = "en"`` (a built-in id, or a ``.toml`` path
    relative to the file) and overrides rule fields under ``[rules]``; each override may be
    cited under ``[provenance.<field>]`` (``section``, ``summary``, optional ``source`` and
    ``basis``), otherwise the file itself is cited. Without ``extends`` every rule field is
    required. ``[[interpretations]]`` add readings the text needed. Errors raise
    :class:`~qe_rules.InvalidRuleSet` naming the file, the key and what is allowed; a path
    that is not a string raises :class:`~qe_rules.InvalidArgument`. A file may not take a
    built-in id unless it equals that built-in. The package's own files are listed by
    :func:`qe_rules.shipped_rulesets`.
    """
    return _load(path, seen=())


def _load(path: str | os.PathLike[str], seen: tuple[str, ...], builtin: bool = False) -> RuleSet:
    text = read_text(path)
    name = os.fspath(path)
    assert isinstance(name, str)  # read_text refused bytes paths
    real = os.path.realpath(name)
    if real in seen:
        raise InvalidRuleSet(f"{name}: extends itself (through {' -> '.join(seen)})")
    if len(seen) >= MAX_EXTENDS_DEPTH:
        raise InvalidRuleSet(
            f"{name}: a chain of files extending one another is longer than "
            f"MAX_EXTENDS_DEPTH ({MAX_EXTENDS_DEPTH})"
        )
    return _from_toml(
        text, origin=name, base_dir=os.path.dirname(name), seen=(*seen, real), builtin=builtin
    )


def _from_toml(
    text: str, *, origin: str, base_dir: str | None, seen: tuple[str, ...], builtin: bool = False
) -> RuleSet:
    if not isinstance(origin, str):
        raise InvalidArgument(f"origin must be a str, got {shown(origin)}")
    data = parse_toml(text, origin)
    try:
        if isinstance(data, dict) and "rules" in data:
            rules, provenance = _renamed_rules(data["rules"], data.get("provenance"))
            data = {**data, "rules": rules}
            if provenance is not None:
                data["provenance"] = provenance
        merged = merge(data, origin, _LABELS, lambda extends: _base(extends, base_dir, seen))
        return _from_dict(merged, builtin=builtin)
    except InvalidRuleSet as error:
        if str(error).startswith(f"{origin}:"):
            raise
        raise InvalidRuleSet(f"{origin}: {error}") from None


def _base(extends: Any, base_dir: str | None, seen: tuple[str, ...]) -> dict[str, Any]:
    """The plain data of the rule set that a file ``extends``."""
    if not isinstance(extends, str) or not extends:
        raise DataError("extends", "needs a built-in rule set id or a .toml path")
    if extends in RULESETS:
        return RULESETS[extends].to_dict()
    if extends.endswith(".toml"):
        path = extends if base_dir is None else os.path.join(base_dir, extends)
        return _load(path, seen).to_dict()
    raise DataError(
        "extends",
        f"{shown(extends)} is neither a built-in rule set ({', '.join(RULESETS)}) nor a .toml file",
    )


# --------------------------------------------------------------------------- variants


def _check_field(name: Any) -> str:
    if not isinstance(name, str) or (name not in _KINDS and name not in _REPLACED_FIELDS):
        raise InvalidRuleSet(
            f"{shown(name)} is not a rule field; rule fields are {', '.join(_RULE_FIELDS)}"
        )
    return name


def _change(name: str, value: Any) -> Any:
    """``value`` for rule field ``name``: a Python value or its plain form (``"stands"``,
    a list of codes), read by the field's reader as a rule file's value is; every value is
    then checked with the rule set."""
    return decode_field(_check_field(name), plain_value(value, name))


def _spec_text(name: str, value: Any) -> str:
    """A field's value as a spec string writes it."""
    plain = encode_field(name, value)
    return plain if isinstance(plain, str) else json.dumps(plain, separators=(",", ":"))


def _evolve(rs: RuleSet, changes: Mapping[str, Any]) -> RuleSet:
    changes, _ = _renamed_rules(changes)
    values = {name: _change(name, value) for name, value in changes.items()}
    try:
        checked = attrs.evolve(rs, **values)  # checks the values before they are written
    except InvalidRuleSet as error:
        problem = str(error).removeprefix(f"rule set {shown(rs.id)}, ")
        raise InvalidRuleSet(f"a variant of {rs.id}: {problem}") from None
    changed = {n: getattr(checked, n) for n in values if getattr(checked, n) != getattr(rs, n)}
    if not changed:
        return rs
    base, spec = split_id(rs.id, _KINDS)
    builtin = RULESETS.get(base)
    if spec and builtin is not None and _names_itself(rs):
        # a variant of a built-in: evolved from the built-in, so its id names it
        fields = {name: getattr(checked, name) for name in (*spec, *changed)}
        return (
            _evolve(builtin, {n: v for n, v in fields.items() if v != getattr(builtin, n)})
            if any(v != getattr(builtin, n) for n, v in fields.items())
            else builtin
        )
    for name, value in changed.items():
        spec[name] = _spec_text(name, value)
    order = {name: index for index, name in enumerate(_RULE_FIELDS)}
    variant_id = (
        base + ":" + ",".join(f"{n}={spec[n]}" for n in sorted(spec, key=order.__getitem__))
    )
    provenance = dict(rs.provenance)
    for name, value in changed.items():
        was, plain = getattr(rs, name), encode_field(name, value)
        support = text_support(name, value)
        if support is None:
            basis, why = Basis.HOUSE_RULE, "no QE text states or suggests the new value"
        else:
            basis = support.basis
            why = f"{support.source} §{support.section} supports it ({basis.value})"
        provenance[name] = Provenance(
            variant_id,
            "(variant)",
            f"Changed from {encode_field(name, was)!r} to {plain!r}; {why}. "
            f"{rs.id} says: {rs.provenance[name].summary}",
            basis,
        )
    return attrs.evolve(checked, id=variant_id, provenance=FrozenDict(provenance))


_SUPPORT_RANK: Final = {
    Basis.STATED: 0,
    Basis.CORRECTED: 1,
    Basis.INTERPRETATION: 3,
    Basis.SILENT: 4,
}
"""The order in which texts' citations support a value: what a text states first, then
a cited reading of an open question (rank 2), then a text's own interpretation, then
a value a text is silent on."""


def _value_key(plain: Any) -> str:
    return json.dumps(plain, sort_keys=True, separators=(",", ":"))


@functools.cache
def _supported_values() -> Mapping[tuple[str, str, str], tuple[Provenance, ...]]:
    """Every value a QE text supports, by (field, player count or "", value as JSON): the
    built-ins' values and the cited readings of the open questions, with the citations
    that support each, best first (see :data:`_SUPPORT_RANK`)."""
    found: dict[tuple[str, str, str], list[tuple[int, Provenance]]] = {}
    for rules in RULESETS.values():
        for name in _RULE_FIELDS:
            cite = rules.provenance[name]
            if cite.basis is Basis.HOUSE_RULE:
                continue
            plain = encode_field(name, getattr(rules, name))
            pairs = plain.items() if _KINDS[name].per_players else [("", plain)]
            for players, inner in pairs:
                key = (name, players, _value_key(inner))
                found.setdefault(key, []).append((_SUPPORT_RANK[cite.basis], cite))
    for name, readings in reading_citations().items():
        for value, source, section, note in readings:
            cite = Provenance(source, section, note, Basis.INTERPRETATION)
            key = (name, "", _value_key(list(value) if isinstance(value, tuple) else value))
            found.setdefault(key, []).append((2, cite))
    return {
        key: tuple(cite for _, cite in sorted(cites, key=lambda pair: pair[0]))
        for key, cites in found.items()
    }


def text_support(name: str, value: Any) -> Provenance | None:
    """The citation of a QE text that supports ``value`` for rule field ``name``: a
    built-in's own citation where it holds the value (what a text states first), or an
    open question's cited reading (basis ``interpretation``); ``None`` where no text
    states or suggests the value, which makes it a house rule. A value per player count
    is supported where every count's value is.

    >>> text_support("zero_bid_points", 2).source
    'en'
    >>> text_support("zero_bid_points", 3) is None
    True
    >>> text_support("tie_streak", "same-players").basis
    <Basis.INTERPRETATION: 'interpretation'>
    """
    plain = encode_field(name, _change(name, value))  # a Python value or its plain form
    table = _supported_values()
    if not _KINDS[name].per_players:
        found = table.get((name, "", _value_key(plain)))
        return found[0] if found else None
    first: Provenance | None = None
    for players, inner in plain.items():
        found = table.get((name, players, _value_key(inner)))
        if not found:
            return None
        first = first or found[0]
    return first


def _names_itself(rs: RuleSet) -> bool:
    """Whether ``rs`` is the variant its id names as a spec string."""
    try:
        return _parse_spec(rs.id) == rs
    except RulesError:
        return False


def parse_spec(spec: str) -> RuleSet:
    """The rule set named by a spec string ``"<built-in id>:<field>=<value>,..."``.

    Values are written as in a rule file: ``true``/``false``, whole numbers, the value
    of a choice (``stands``). Raises :class:`~qe_rules.UnknownRuleSet` for an unknown base
    and :class:`~qe_rules.InvalidRuleSet` for a malformed change, in one line naming what
    is allowed.

    >>> parse_spec("en-early:tied_auctioneer=stands").tied_auctioneer
    <TiedAuctioneer.STANDS: 'stands'>
    >>> parse_spec("en:tie_streak=sometimes")
    Traceback (most recent call last):
    ...
    qe_rules.errors.InvalidRuleSet: en:tie_streak=sometimes: tie_streak: needs one of 'any-players', 'same-players', got 'sometimes'
    """
    return _parse_spec(spec)


@functools.lru_cache(maxsize=256)
def _parse_spec(spec: str) -> RuleSet:
    base_id, _, rest = spec.partition(":")
    base = RULESETS.get(base_id)
    if base is None:
        valid = ", ".join(repr(k) for k in RULESETS)
        raise UnknownRuleSet(
            f"unknown rule set {shown(base_id)} in {shown(spec)}; built-in rule sets: {valid}"
        )
    changes: dict[str, Any] = {}
    try:
        check_spec(spec)
        for item in spec_items(rest):
            name, equals, text = item.partition("=")
            name, text = name.strip(), text.strip()
            if not equals or not name or not text:
                raise InvalidRuleSet(
                    f"{shown(item)} is not field=value; write "
                    "<built-in id>:<field>=<value>,<field>=<value>"
                )
            if name in changes:
                raise InvalidRuleSet(f"{name} is changed twice")
            name = _check_field(name)  # the name first: its value may be large
            changes[name] = spec_value(text)
        return base.evolve(**changes)
    except InvalidRuleSet as error:
        message = str(error)
        if message.startswith(base_id + ":"):
            message = message.split(": ", 1)[1]
        named = spec if len(spec) <= 200 and spec.isprintable() else shown(spec)
        raise InvalidRuleSet(f"{named}: {message}") from None


# --------------------------------------------------------------------------- built-ins


def _load_builtin(rid: str) -> RuleSet:
    return _load(data_file("rulesets", f"{rid}.toml"), seen=(), builtin=True)


RULESETS: Final[Mapping[str, RuleSet]] = Builtins(_load_builtin)
"""The four built-in rule sets by id: ``en``, ``en-early``, ``de``, ``de-summary``; each is
read from ``qe_rules/data/rulesets/<id>.toml`` on first use."""


def get_ruleset(ruleset: str | RuleSet) -> RuleSet:
    """The rule set with this id or spec string (a ``RuleSet`` is returned as it is).

    A spec string names a built-in and changes some of its fields, as
    :meth:`RuleSet.evolve` does: ``"en-early:tied_auctioneer=stands,zero_rebid_scores=false"``.

    >>> get_ruleset("en-early").tie_fallback
    <TieFallback.HIGHEST_UNIQUE_IN_SALE: 'highest-unique-in-sale'>
    """
    if isinstance(ruleset, RuleSet):
        return ruleset
    found = RULESETS.get(ruleset) if isinstance(ruleset, str) else None
    if found is None and isinstance(ruleset, str) and ":" in ruleset:
        return _parse_spec(ruleset)
    if found is None:
        valid = ", ".join(repr(k) for k in RULESETS)
        raise UnknownRuleSet(f"unknown rule set {shown(ruleset)}; built-in rule sets: {valid}")
    return found
