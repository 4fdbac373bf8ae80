"""What follows from a rule set, derived in one place: the reference engine, the batched
engine, the verifier and the rulebook writer all read it here.

- :func:`applies`: whether the situation a rule field settles can come up at all under a
  rule set (the fields' dependency graph, :data:`APPLIES`): the unique-bid pool matters
  only under the ``highest-unique-in-sale`` fallback.
- :class:`RuleFacts` (:func:`rule_facts`, made once per rule set and player count): the
  sales, each sale's round, the last tile without auctioneer, whether zero bids score and
  a peek exists, the limits of each kind of bid, whether a winning amount is public, and
  which sales have a peek window.
- The rules both engines apply sale by sale: :func:`amount_is_public` and
  :func:`may_peek_at`, and :meth:`RuleFacts.peek_window`, the seats a window waits for.

>>> import qe_rules as qe
>>> facts = rule_facts("en", 4)
>>> facts.sales, facts.rounds, facts.round_of[:5], facts.last_tile
(16, 4, (0, 0, 0, 0, 1), False)
>>> facts.secret.limits(opening=3)
BidLimits(minimum=0, forbidden=3)
>>> applies(qe.get_ruleset("en"), "unique_bid_pool")
False

The batch holds the same facts as numbers (``CompiledRules``, which keeps its
``RuleFacts``); where it applies them to many games at once, a test compares its copy with
the function here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Final

import attrs

from qe_rules.components import Company, Industry, Nation
from qe_rules.game._secrecy import knows_amount
from qe_rules.game.sales import BidLimits, limits_of
from qe_rules.rules.model import (
    RebidScope,
    RuleSet,
    TiedAuctioneer,
    TieFallback,
    TieStreak,
    get_ruleset,
)

__all__ = [
    "APPLIES",
    "BidRule",
    "RuleFacts",
    "amount_is_public",
    "applies",
    "endless_ties",
    "may_peek_at",
    "rule_facts",
]


# --------------------------------------------------------------------------- which rules apply


def _rebids_happen(rs: RuleSet) -> bool:
    return rs.ties_before_fallback > 1 or rs.tie_fallback is TieFallback.NONE


def _zero_bids(rs: RuleSet) -> bool:
    return bool(rs.zero_bid_player_counts)


def _peeks(rs: RuleSet) -> bool:
    """Whether a peek exists at some player count (``RuleSet.has_peek`` at any count)."""
    return any(rs.has_peek(players) for players in rs.peek_player_counts)


def _auctioneer_may_tie(rs: RuleSet) -> bool:
    return rs.secret_bid_may_equal_opening or rs.rebid_may_equal_opening


def _auctioneer_rebids(rs: RuleSet) -> bool:
    """Whether the auctioneer can ever rebid: with everyone after a tie, or tied itself."""
    return _rebids_happen(rs) and (
        rs.rebidders is RebidScope.ALL
        or (_auctioneer_may_tie(rs) and rs.tied_auctioneer is TiedAuctioneer.REBIDS)
    )


def _fallback_may_find_nothing(rs: RuleSet) -> bool:
    """Whether the fallback can find no single bid. Where nobody can equal the opening
    bid, the auctioneer never rebids and every sale has an auctioneer when it is tied, the
    opening bid is always single, so only the fallback below the top tie can fail (from 4
    players on, when two bids below the tie are equal)."""
    if rs.tie_fallback is TieFallback.NONE:
        return False
    last_tile_ties = bool(rs.last_tile_without_auctioneer) and not rs.last_tile_tie_awards_nothing
    if _auctioneer_may_tie(rs) or rs.rebidders is RebidScope.ALL or last_tile_ties:
        return True
    return rs.tie_fallback is TieFallback.HIGHEST_OUTSIDE_TOP_TIE and max(rs.player_counts) >= 4


APPLIES: Final[Mapping[str, Callable[[RuleSet], bool]]] = {
    "rebidders": _rebids_happen,
    "rebid_may_equal_opening": _rebids_happen,
    "rebid_visibility": _rebids_happen,
    "tied_auctioneer": lambda rs: _rebids_happen(rs) and _auctioneer_may_tie(rs),
    "auctioneer_rebid_may_be_zero": _auctioneer_rebids,
    "auctioneer_rebid_may_repeat_opening": lambda rs: (
        _auctioneer_rebids(rs) and not rs.rebid_may_equal_opening
    ),
    "ties_before_fallback": lambda rs: rs.tie_fallback is not TieFallback.NONE,
    "tie_streak": lambda rs: (
        rs.tie_fallback is not TieFallback.NONE and rs.ties_before_fallback > 1
    ),
    "unique_bid_pool": lambda rs: rs.tie_fallback is TieFallback.HIGHEST_UNIQUE_IN_SALE,
    "fallback_finds_no_bid": _fallback_may_find_nothing,
    "zero_bid_points": _zero_bids,
    "zero_bid_limit_per_round": _zero_bids,
    "zero_bid_winner_scores": _zero_bids,
    "zero_bids_score_when_unsold": _zero_bids,
    "zero_rebid_scores": lambda rs: _zero_bids(rs) and _rebids_happen(rs),
    "last_tile_tie_awards_nothing": lambda rs: bool(rs.last_tile_without_auctioneer),
    "last_tile_tie": lambda rs: (
        bool(rs.last_tile_without_auctioneer) and rs.last_tile_tie_awards_nothing
    ),
    "last_tile_amount_public": lambda rs: bool(rs.last_tile_without_auctioneer),
    "peeks_per_player": lambda rs: bool(rs.peek_player_counts),
    "peek_after_last_sale": _peeks,
    "peek_shows": _peeks,
    "peek_timing": _peeks,
    "eliminate_all_tied_highest": lambda rs: rs.eliminate_highest_spender,
    "everyone_tied_for_most_spent": lambda rs: (
        rs.eliminate_highest_spender and rs.eliminate_all_tied_highest
    ),
    "lowest_spend_bonus_to_all_tied": lambda rs: any(rs.lowest_spend_bonus.values()),
}
"""When a rule can come up at all, for the rule fields that depend on others: the unique-bid
pool only under that fallback, the zero-bid switches only where zero bids score. A field
not listed always applies."""


def applies(rs: RuleSet, field: str) -> bool:
    """Whether the situation rule field ``field`` settles can come up under ``rs``.

    >>> import qe_rules as qe
    >>> applies(qe.get_ruleset("en-early"), "unique_bid_pool")
    True
    """
    check = APPLIES.get(field)
    return check is None or check(rs)


# --------------------------------------------------------------------------- one sale's rules


def endless_ties(rules: RuleSet) -> str | None:
    """Why tied players may rebid without end under ``rules`` (no tie fallback, or a count
    of ties in a row that starts again whenever other players tie), or ``None`` where the
    fallback ends every tie.

    >>> import qe_rules as qe
    >>> endless_ties(qe.get_ruleset("en")) is None
    True
    >>> endless_ties(qe.get_ruleset("en:tie_streak=same-players"))
    'the count of ties in a row starts again whenever other players tie'
    """
    if rules.tie_fallback is TieFallback.NONE:
        return "there is no tie fallback"
    if rules.tie_streak is TieStreak.SAME_PLAYERS and rules.ties_before_fallback > 1:
        return "the count of ties in a row starts again whenever other players tie"
    return None


def amount_is_public(rules: RuleSet, winner: int, auctioneer: int | None) -> bool:
    """Whether the winning amount of a sale that ``winner`` won is public: the auctioneer
    won it under ``auctioneer_win_public``, or it is the last tile without auctioneer under
    ``last_tile_amount_public``.

    >>> import qe_rules as qe
    >>> en = qe.get_ruleset("en")
    >>> amount_is_public(en, 2, 2), amount_is_public(en, 1, 2)
    (True, False)
    """
    if auctioneer is None:
        return rules.last_tile_amount_public
    return winner == auctioneer and rules.auctioneer_win_public


def may_peek_at(seat: int, winner: int | None, auctioneer: int | None, public: bool) -> bool:
    """Whether a peek could show ``seat`` the winning amount of a finished sale: it was
    awarded, its amount is not known to the seat (it is secret, and the seat neither won
    nor ran the sale: :func:`~qe_rules.game._secrecy.knows_amount`).

    >>> may_peek_at(1, winner=2, auctioneer=0, public=False)
    True
    >>> may_peek_at(0, winner=2, auctioneer=0, public=False)  # it ran the sale
    False
    """
    return winner is not None and not knows_amount(seat, winner, auctioneer, public)


# --------------------------------------------------------------------------- the facts


@attrs.frozen
class BidRule:
    """What one kind of bid may be, as ``limits_of`` says: at least ``minimum``, and equal
    to the sale's opening bid only if ``may_equal_opening``."""

    minimum: int
    may_equal_opening: bool

    def limits(self, opening: int | None) -> BidLimits:
        """The limits of such a bid in a sale whose opening bid is ``opening`` (``None``:
        no opening bid yet, or none on a last tile without auctioneer)."""
        forbidden = None if self.may_equal_opening else opening
        return BidLimits(self.minimum, forbidden)


_PROBE: Final = 1  # an opening bid, to ask limits_of whether it is forbidden


def _bid_rule(rules: RuleSet, auctioneer: bool, rebid: bool) -> BidRule:
    minimum, forbidden = limits_of(rules, _PROBE, auctioneer, rebid)
    return BidRule(minimum, forbidden is None)


@attrs.frozen(eq=False)
class RuleFacts:
    """What follows from one rule set at one player count, derived once
    (:func:`rule_facts`) and read by both engines and the verifier."""

    rules: RuleSet
    players: int
    sales: int
    """How many sales a game has: one per tile of the deck."""
    rounds: int
    """How many rounds (every seat is auctioneer once per round)."""
    round_of: tuple[int, ...]
    """Each sale's round. A last tile without auctioneer belongs to the last round; a deck
    of one tile sold without auctioneer is round 0 (of no round)."""
    last_tile: bool
    """Whether the last tile is sold without an auctioneer."""
    companies: tuple[Company, ...]
    """The deck, in canonical order."""
    nations: tuple[Nation, ...]
    """The nations in play."""
    industries: tuple[Industry, ...]
    """The industry tokens in play."""
    zero_bids: bool
    """Whether zero bids score."""
    peek: bool
    """Whether the peek exists."""
    peek_windows: tuple[bool, ...]
    """Per sale, whether it has a peek window (after it; before its opening bid under
    ``peek_timing = "before-bids"``): every sale but the last where the peek exists, and
    the last under ``peek_after_last_sale``."""
    opening: BidRule
    """The auctioneer's opening bid."""
    secret: BidRule
    """A secret bid (on a last tile without auctioneer there is no opening bid)."""
    rebid: BidRule
    """A rebid after a tie, by a seat that is not the auctioneer."""
    auctioneer_rebid: BidRule
    """The auctioneer's rebid after a tie."""
    opening_limits: BidLimits
    """The limits of the opening bid."""
    first_limits: BidLimits
    """The limits of a secret bid before any opening bid (the last tile without auctioneer)."""
    public_auctioneer_win: bool
    """Whether the amount is public when the auctioneer wins (:func:`amount_is_public`)."""
    public_last_tile: bool
    """Whether the amount of the last tile without auctioneer is public."""

    def peek_window(
        self, peeks_used: Sequence[int], may_peek: Callable[[int], bool]
    ) -> frozenset[int]:
        """The seats a peek window waits for: each seat with a peek left (fewer than
        ``peeks_per_player`` used) that ``may_peek`` (under ``last-sale``,
        :func:`may_peek_at` the sale just awarded; under ``before-bids``, every seat but
        the next auctioneer; under ``any-earlier-sale``, a seat with a sale left to peek
        at)."""
        limit = self.rules.peeks_per_player
        return frozenset(
            seat for seat in range(self.players) if peeks_used[seat] < limit and may_peek(seat)
        )


def rule_facts(rules: RuleSet | str, players: int) -> RuleFacts:
    """The facts of ``rules`` at ``players`` players (made once and kept: the engines'
    constants hold this very object)."""
    ruleset = get_ruleset(rules)
    return _facts(ruleset, ruleset.check_players(players))


@functools.lru_cache(maxsize=1024)
def _facts(rules: RuleSet, players: int) -> RuleFacts:
    sales = rules.sales(players)
    rounds = rules.rounds(players)
    peek = rules.has_peek(players)
    after_last = rules.peek_after_last_sale
    secret = _bid_rule(rules, False, False)
    opening = _bid_rule(rules, True, False)
    return RuleFacts(
        rules=rules,
        players=players,
        sales=sales,
        rounds=rounds,
        round_of=tuple(rules.round_of_sale(players, index) for index in range(sales)),
        last_tile=rules.has_last_tile_rule(players),
        companies=rules.companies(players),
        nations=rules.nations(players),
        industries=rules.industries(players),
        zero_bids=rules.has_zero_bid_points(players),
        peek=peek,
        peek_windows=tuple(peek and (sale + 1 < sales or after_last) for sale in range(sales)),
        opening=opening,
        secret=secret,
        rebid=_bid_rule(rules, False, True),
        auctioneer_rebid=_bid_rule(rules, True, True),
        opening_limits=opening.limits(None),
        first_limits=secret.limits(None),
        public_auctioneer_win=amount_is_public(rules, 0, 0),
        public_last_tile=amount_is_public(rules, 0, None),
    )
