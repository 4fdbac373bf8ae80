"""A rule set compiled for the batched engine: its switches as whole numbers and its scoring
as lookup tables that the reference scorer fills in.

>>> from qe_rules.simulation.batch.compiled import compile_rules
>>> rules = compile_rules("en", 4)
>>> rules.sales, rules.min_opening_bid, int(rules.monopolization.size)
(16, 1, 3125)

Every rule field is played; :data:`FIELD_USE` says how, one entry per field
(``tests/simulation/test_batch.py`` checks that no field is missing). A rule set the
batch cannot hold (a scoring table too large for memory) raises
:class:`~qe_rules.InvalidArgument` naming the field.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from qe_rules.components import Industry, Nation
from qe_rules.errors import InvalidArgument
from qe_rules.game._tables import TILE_LIMIT, scoring_tables
from qe_rules.game.facts import RuleFacts, rule_facts
from qe_rules.rules.model import (
    EveryoneTiedForMostSpent,
    FallbackFindsNoBid,
    FinalTieBreak,
    LastTileTie,
    PeekShows,
    PeekTiming,
    RebidScope,
    RebidVisibility,
    RuleSet,
    TieAfterTiebreak,
    TiedAuctioneer,
    TieFallback,
    TieStreak,
    UniqueBidPool,
    get_ruleset,
)

__all__ = ["FIELD_USE", "GAP_ORDER", "CompiledRules", "compile_rules"]

FIELD_USE: Final[dict[str, str]] = {
    # setup: the deal
    "player_counts": "checked: the player counts the batch accepts",
    "removed_companies": "deal: the deck in play",
    "deck_sizes": "checked with the rule set (the deck is removed_companies')",
    "nations_in_play": "deal: the nations dealt",
    "industries_in_play": "deal: the tokens dealt",
    "nation_assignment": "deal: nations are dealt at random, as simulate deals them",
    "first_auctioneer": "deal: the first auctioneer is drawn at random, as simulate does",
    # bidding
    "min_opening_bid": "number: the opening bid's minimum",
    "min_secret_bid": "number: a secret bid's and a rebid's minimum",
    "secret_bid_may_equal_opening": "number: the forbidden amount of a secret bid",
    "rebid_may_equal_opening": "number: the forbidden amount of a rebid",
    "rebidders": "number: who rebids after a tie",
    "ties_before_fallback": "number: when the fallback decides",
    "tie_fallback": "number: which fallback decides",
    "rebid_visibility": "knowledge: which closed rounds observations show each seat",
    "auctioneer_rebid_may_be_zero": "number: a tied auctioneer's rebid minimum",
    "auctioneer_rebid_may_repeat_opening": "number: a tied auctioneer's forbidden rebid",
    "fallback_finds_no_bid": "number: the auctioneer takes a tile the fallback cannot sell",
    "auctioneer_win_public": "number: the peek window, and what agents see",
    "tied_auctioneer": "number: whether a tied auctioneer's bid stands",
    "tie_streak": "number: which ties count as in a row",
    "unique_bid_pool": "number: the bids of the unique-bid fallback",
    # zero bids
    "zero_bid_player_counts": "number: whether zero bids score",
    "zero_bid_points": "number: the points of a zero bid",
    "zero_bid_limit_per_round": "number: zero-bid scorings per round",
    "zero_bid_winner_scores": "number: whether the winner's zero bid scores",
    "zero_rebid_scores": "number: whether a zero rebid scores",
    "zero_bids_score_when_unsold": "number: whether zeros score in an unsold sale",
    # special rules
    "last_tile_without_auctioneer": "number: the last sale without auctioneer",
    "last_tile_tie_awards_nothing": "number: a tie on that last sale",
    "last_tile_tie": "number: which equal bids on that last sale are a tie",
    "last_tile_amount_public": "number: the peek window, and what agents see",
    "peek_player_counts": "number: whether the peek window opens",
    "peeks_per_player": "number: who is in the peek window",
    "peek_after_last_sale": "number: a window after the last sale",
    "peek_shows": "knowledge: what a peek shows to observations",
    "peek_timing": "number: which sale a peek looks at, when its window opens, what it shows",
    # scoring
    "scoring_order": "display only: changes no number",
    "token_categories": "table: industry points, filled by the reference scorer",
    "nationalization": "table: nationalization points by count",
    "monopolization": "table: industry points, filled by the reference scorer",
    "diversification": "table: industry points, filled by the reference scorer",
    "diversification_sets": "table: industry points, filled by the reference scorer",
    "tiles_once_per_category": "table: industry points, filled by the reference scorer",
    "beyond_table": "table: points past a table's end, and its gaps",
    "lowest_spend_bonus": "number: the bonus",
    "lowest_spend_bonus_to_all_tied": "number: the bonus when tied",
    "eliminate_highest_spender": "number: the elimination",
    "eliminate_all_tied_highest": "number: the elimination when tied",
    "everyone_tied_for_most_spent": "number: the elimination when every seat ties",
    "tie_after_tiebreak": "number: the winners of a tie the tie-break leaves",
    "final_tiebreak": "number: the tie-break",
}
"""How the batch plays each rule field: as a number of :class:`CompiledRules`, in a table,
in the deal, or as knowledge (what a seat may see). No field is refused."""

GAP_ORDER: Final[tuple[str, ...]] = (
    "no-untied-bid",
    "no-unique-bid",
    "nationalization-beyond-table",
    "monopolization-beyond-table",
    "diversification-beyond-table",
    "everyone-eliminated",
    "tie-after-tiebreak",
    "fallback-bid-tied",
)
"""The gap codes the batch reports, as bits of ``Batch.gaps`` (bit ``i`` is code ``i``)."""
# each gap's bit, by its code
(
    GAP_NO_UNTIED,
    GAP_NO_UNIQUE,
    GAP_NATIONALIZATION_BEYOND,
    GAP_MONOPOLIZATION_BEYOND,
    GAP_DIVERSIFICATION_BEYOND,
    GAP_ALL_OUT,
    GAP_TIE_AFTER,
    GAP_FALLBACK_TIED,
) = (1 << bit for bit in range(len(GAP_ORDER)))

# fallbacks as numbers
FALLBACK_NONE, FALLBACK_UNTIED, FALLBACK_UNIQUE, FALLBACK_OUTSIDE = 0, 1, 2, 3
_FALLBACKS: Final = {
    TieFallback.NONE: FALLBACK_NONE,
    TieFallback.HIGHEST_UNTIED: FALLBACK_UNTIED,
    TieFallback.HIGHEST_UNIQUE_IN_SALE: FALLBACK_UNIQUE,
    TieFallback.HIGHEST_OUTSIDE_TOP_TIE: FALLBACK_OUTSIDE,
}
_MAX_TABLE: Final = 4_000_000  # entries of the industry-points table the batch will hold
NATIONS: Final = tuple(Nation)
INDUSTRIES: Final = tuple(Industry)
Ints = npt.NDArray[np.signedinteger[Any]]


@attrs.frozen(kw_only=True, eq=False)
class CompiledRules:
    """One rule set at one player count, as the batched engine reads it."""

    ruleset: RuleSet
    players: int
    facts: RuleFacts
    """What follows from the rules (:mod:`qe_rules.game.facts`), as the reference engine
    reads it; the numbers below that follow from the rules are taken from it."""
    sales: int
    round_of: tuple[int, ...]
    """Each sale's round (:attr:`RuleFacts.round_of <qe_rules.game.facts.RuleFacts.round_of>`)."""
    last_tile: bool
    # the deck in canonical order: each tile's nation (index in Nation), industry (index in
    # Industry) and victory points
    tile_nation: Ints
    tile_industry: Ints
    tile_vp: Ints
    nations: tuple[int, ...]
    """The nations in play (indices in :class:`~qe_rules.Nation`), in the rule set's order."""
    industries: tuple[int, ...]
    """The tokens in play (indices in :class:`~qe_rules.Industry`)."""
    min_opening_bid: int
    min_secret_bid: int
    auctioneer_rebid_minimum: int
    secret_may_equal: bool
    rebid_may_equal: bool
    auctioneer_rebid_may_equal: bool
    rebid_all: bool
    ties_before_fallback: int
    fallback: int
    fallback_to_auctioneer: bool
    """Where the fallback finds no single bid, the auctioneer takes the tile."""
    unique_standing: bool
    auctioneer_stands: bool
    streak_same_players: bool
    auctioneer_win_public: bool
    zero_bids: bool
    zero_bid_points: int
    zero_bid_limit: int
    zero_winner_scores: bool
    zero_rebid_scores: bool
    zero_unsold_scores: bool
    last_tile_tie_nothing: bool
    last_tile_any_tie: bool
    """On that last sale, any two equal bids leave it unsold (with last_tile_tie_nothing)."""
    last_tile_public: bool
    rebid_visibility: RebidVisibility
    peek_shows_highest: bool
    """A peek shows the highest standing bid (``peek_shows=highest-bid``)."""
    peek_shows_made: bool
    """A peek shows the highest bid made in the sale (``peek_shows=highest-bid-made``)."""
    peek: bool
    peeks_per_player: int
    peek_windows: tuple[bool, ...]
    """Per sale, whether it has a peek window (:attr:`RuleFacts.peek_windows`)."""
    peek_timing: PeekTiming
    nationalization: Ints
    """Points by count of own-nation tiles (0 to 22)."""
    nationalization_max: int
    industry_dims: tuple[int, ...]
    """Per industry (Industry order): the most tiles of it in the deck, plus one."""
    industry_strides: tuple[int, ...]
    monopolization: Ints
    """Monopolization points by ``token * size + sum(count * stride)`` (tiles by industry,
    the token's industry); ``size`` is the product of :attr:`industry_dims`."""
    diversification: Ints
    """Diversification points, indexed as :attr:`monopolization`."""
    industry_beyond: npt.NDArray[np.int8]
    """Bit 0: a monopolization count past its table; bit 1: diversification past its table."""
    bonus: int
    bonus_to_all_tied: bool
    eliminate: bool
    eliminate_all_tied: bool
    none_out_when_all_tied: bool
    lower_spend_tiebreak: bool
    no_winner_when_tied: bool

    def public(self, winner: Ints, auctioneer: int | None) -> npt.NDArray[np.bool_]:
        """Per game, whether the winning amount is public (``winner``: -1 where unsold):
        :func:`~qe_rules.game.facts.amount_is_public` for many games of one sale."""
        public: npt.NDArray[np.bool_]
        if auctioneer is None:
            public = (winner >= 0) & self.last_tile_public
        elif self.auctioneer_win_public:
            public = winner == auctioneer
        else:
            public = np.zeros(winner.shape, dtype=bool)
        return public

    def may_peek_at(
        self, winner: Ints, auctioneer: int | None, public: npt.NDArray[np.bool_]
    ) -> npt.NDArray[np.bool_]:
        """Per column and game, ``(columns, games)``: whether a peek could show the column
        the amount of a sale won by ``winner`` (-1: unsold) whose amount is ``public`` or
        not: :func:`~qe_rules.game.facts.may_peek_at` for many games."""
        columns = np.arange(self.players)[:, None]
        inside: npt.NDArray[np.bool_] = (winner >= 0) & ~public & (winner != columns)
        if auctioneer is not None:
            inside[auctioneer] = False
        return inside


def _industry_table(
    rules: RuleSet, players: int, dims: tuple[int, ...]
) -> tuple[Ints, Ints, npt.NDArray[np.int8]]:
    tables = scoring_tables(rules, players)
    size = 1
    for dim in dims:
        size *= dim
    tokens = len(INDUSTRIES)
    monopolization = np.zeros(tokens * size, dtype=np.int64)
    diversification = np.zeros(tokens * size, dtype=np.int64)
    beyond = np.zeros(tokens * size, dtype=np.int8)
    in_play = {INDUSTRIES.index(industry) for industry in rules.industries(players)}
    counts_all = list(itertools.product(*(range(dim) for dim in dims)))
    for token in range(tokens):
        if token not in in_play:
            continue
        base = token * size
        for offset, counts in enumerate(counts_all):
            found = tables.industry_points(tuple(counts), token)
            monopolization[base + offset] = found.monopolization
            diversification[base + offset] = found.diversification
            beyond[base + offset] = bool(found.beyond_monopolization) | (
                (found.distinct > tables.diversification_max) << 1
            )
    return monopolization, diversification, beyond


@functools.lru_cache(maxsize=64)
def _compiled(rules: RuleSet, players: int) -> CompiledRules:
    companies = rule_facts(rules, players).companies
    tile_industry = np.array([INDUSTRIES.index(c.industry) for c in companies], dtype=np.int64)
    dims = tuple(int((tile_industry == k).sum()) + 1 for k in range(len(INDUSTRIES)))
    size = len(INDUSTRIES)
    for dim in dims:
        size *= dim
    if size > _MAX_TABLE:
        raise InvalidArgument(
            f"the batch cannot hold the industry table of {rules.id} with {players} players "
            f"({size} entries, at most {_MAX_TABLE}): removed_companies leaves too many tiles "
            "of some industries; use the reference engine"
        )
    strides = []
    stride = 1
    for dim in reversed(dims):
        strides.append(stride)
        stride *= dim
    strides.reverse()
    monopolization, diversification, beyond = _industry_table(rules, players, dims)
    tables = scoring_tables(rules, players)
    facts = rule_facts(rules, players)
    zero = facts.zero_bids
    return CompiledRules(
        ruleset=rules,
        players=players,
        facts=facts,
        sales=facts.sales,
        round_of=facts.round_of,
        last_tile=facts.last_tile,
        tile_nation=np.array([NATIONS.index(c.nation) for c in companies], dtype=np.int64),
        tile_industry=tile_industry,
        tile_vp=np.array([c.vp for c in companies], dtype=np.int64),
        nations=tuple(NATIONS.index(n) for n in facts.nations),
        industries=tuple(INDUSTRIES.index(i) for i in facts.industries),
        min_opening_bid=facts.opening.minimum,
        min_secret_bid=facts.secret.minimum,
        auctioneer_rebid_minimum=facts.auctioneer_rebid.minimum,
        secret_may_equal=facts.secret.may_equal_opening,
        rebid_may_equal=facts.rebid.may_equal_opening,
        auctioneer_rebid_may_equal=facts.auctioneer_rebid.may_equal_opening,
        rebid_all=rules.rebidders is RebidScope.ALL,
        ties_before_fallback=rules.ties_before_fallback,
        fallback=_FALLBACKS[rules.tie_fallback],
        fallback_to_auctioneer=rules.fallback_finds_no_bid is FallbackFindsNoBid.AUCTIONEER_WINS,
        unique_standing=rules.unique_bid_pool is UniqueBidPool.STANDING_BIDS,
        auctioneer_stands=rules.tied_auctioneer is TiedAuctioneer.STANDS,
        streak_same_players=rules.tie_streak is TieStreak.SAME_PLAYERS,
        auctioneer_win_public=facts.public_auctioneer_win,
        zero_bids=zero,
        zero_bid_points=rules.zero_bid_points if zero else 0,
        zero_bid_limit=rules.zero_bid_limit_per_round,
        zero_winner_scores=rules.zero_bid_winner_scores,
        zero_rebid_scores=rules.zero_rebid_scores,
        zero_unsold_scores=rules.zero_bids_score_when_unsold,
        last_tile_tie_nothing=rules.last_tile_tie_awards_nothing,
        last_tile_any_tie=rules.last_tile_tie is LastTileTie.ANY
        and rules.last_tile_tie_awards_nothing,
        last_tile_public=facts.public_last_tile,
        rebid_visibility=rules.rebid_visibility,
        peek_shows_highest=rules.peek_shows is PeekShows.HIGHEST_BID,
        peek_shows_made=rules.peek_shows is PeekShows.HIGHEST_BID_MADE,
        peek=facts.peek,
        peeks_per_player=rules.peeks_per_player,
        peek_windows=facts.peek_windows,
        peek_timing=rules.peek_timing,
        nationalization=np.array(tables.nationalization[: TILE_LIMIT + 1], dtype=np.int64),
        nationalization_max=tables.nationalization_max,
        industry_dims=dims,
        industry_strides=tuple(strides),
        monopolization=monopolization,
        diversification=diversification,
        industry_beyond=beyond,
        bonus=tables.bonus,
        bonus_to_all_tied=rules.lowest_spend_bonus_to_all_tied,
        eliminate=rules.eliminate_highest_spender,
        eliminate_all_tied=rules.eliminate_all_tied_highest,
        none_out_when_all_tied=rules.everyone_tied_for_most_spent
        is EveryoneTiedForMostSpent.NONE_ELIMINATED,
        lower_spend_tiebreak=rules.final_tiebreak is FinalTieBreak.LOWER_SPEND,
        no_winner_when_tied=rules.tie_after_tiebreak is TieAfterTiebreak.NO_WINNER,
    )


def compile_rules(ruleset: RuleSet | str, players: int) -> CompiledRules:
    """``ruleset`` at ``players`` players for the batch (made once and kept)."""
    rules = get_ruleset(ruleset)
    players = rules.check_players(players)
    return _compiled(rules, players)
