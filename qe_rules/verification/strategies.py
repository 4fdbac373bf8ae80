"""Hypothesis strategies for QE: rule sets, player records, moves and games.

Needs the ``verify`` extra (``pip install 'qe-rules[verify]'``); ``import qe_rules``
works without it. Apps that embed the library can property-test themselves with these::

    from hypothesis import given
    from qe_rules.verification import strategies as qst

    @given(qst.games(finished=True))
    def test_my_scoreboard_shows_the_winner(game):
        board = my_app.render(game.result())
        ...

Bids are drawn from small ranges on purpose, so that ties, rebids, fallbacks and zero bids
are common.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs
from hypothesis import strategies as st

from qe_rules.errors import InvalidArgument, shown
from qe_rules.game.engine import Game, new_game
from qe_rules.game.records import Move
from qe_rules.game.scoring import PlayerRecord
from qe_rules.game.views import Phase
from qe_rules.rules.model import (
    RULESETS,
    BeyondTable,
    DiversificationSets,
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
    UniqueBidPool,
    get_ruleset,
)

__all__ = [
    "bids",
    "builtin_rulesets",
    "games",
    "illegal_moves",
    "legal_moves",
    "player_counts",
    "player_records",
    "ruleset_variations",
    "rulesets",
    "scoring_inputs",
]


def builtin_rulesets() -> st.SearchStrategy[RuleSet]:
    """One of the four built-in rule sets."""
    return st.sampled_from(list(RULESETS.values()))


def _given_or_builtin(rulesets: Sequence[RuleSet] | None) -> st.SearchStrategy[RuleSet]:
    """One of ``rulesets``, or of the built-in rule sets when none are given."""
    return st.sampled_from(list(rulesets or RULESETS.values()))


@st.composite
def ruleset_variations(draw: st.DrawFn, base: RuleSet | None = None) -> RuleSet:
    """A valid rule set that differs from a built-in (or ``base``) in random rules.

    The variations keep every game finite: the tie fallback is never ``none`` here, and
    ``tie_streak`` stays ``any-players``.
    """
    rules = base or draw(builtin_rulesets())
    changes: dict[str, Any] = {}
    for name in (
        "secret_bid_may_equal_opening",
        "rebid_may_equal_opening",
        "auctioneer_win_public",
        "last_tile_tie_awards_nothing",
        "lowest_spend_bonus_to_all_tied",
        "eliminate_all_tied_highest",
        "zero_bid_winner_scores",
        "zero_rebid_scores",
        "zero_bids_score_when_unsold",
        "peek_after_last_sale",
        "tiles_once_per_category",
        "auctioneer_rebid_may_be_zero",
        "auctioneer_rebid_may_repeat_opening",
        "last_tile_amount_public",
    ):
        if draw(st.booleans()):
            changes[name] = not getattr(rules, name)
    for name, choices in (  # the readings of open questions (tie_streak may not end)
        ("tied_auctioneer", TiedAuctioneer),
        ("unique_bid_pool", UniqueBidPool),
        ("peek_shows", PeekShows),
        ("diversification_sets", DiversificationSets),
        ("rebid_visibility", RebidVisibility),
        ("fallback_finds_no_bid", FallbackFindsNoBid),
        ("last_tile_tie", LastTileTie),
        ("everyone_tied_for_most_spent", EveryoneTiedForMostSpent),
        ("tie_after_tiebreak", TieAfterTiebreak),
        ("peek_timing", PeekTiming),
    ):
        if draw(st.booleans()):
            changes[name] = draw(st.sampled_from(list(choices)))
    if draw(st.booleans()):
        changes["tie_fallback"] = draw(
            st.sampled_from([f for f in TieFallback if f is not TieFallback.NONE])
        )
    if draw(st.booleans()):
        changes["ties_before_fallback"] = draw(st.integers(1, 4))
    if draw(st.booleans()):
        changes["rebidders"] = draw(st.sampled_from(list(RebidScope)))
    if draw(st.booleans()):
        changes["min_opening_bid"] = draw(st.integers(0, 3))
    if draw(st.booleans()):
        changes["zero_bid_player_counts"] = draw(st.sampled_from([(), (4, 5), (3, 4, 5)]))
        changes["zero_bid_limit_per_round"] = draw(st.integers(0, 2))
    if draw(st.booleans()):
        changes["peek_player_counts"] = draw(st.sampled_from([(), (5,), (4, 5)]))
        changes["peeks_per_player"] = draw(st.integers(0, 2))
    if draw(st.booleans()):
        changes["final_tiebreak"] = draw(st.sampled_from(list(FinalTieBreak)))
        changes["beyond_table"] = draw(st.sampled_from(list(BeyondTable)))
    if draw(st.booleans()):
        small = draw(st.lists(st.integers(0, 12), min_size=2, max_size=2))
        large = draw(st.lists(st.integers(0, 25), min_size=3, max_size=3))
        changes["diversification"] = {
            3: {3: small[0], 4: small[1]},
            4: {3: small[0], 4: small[1]},
            5: {3: large[0], 4: large[1], 5: large[2]},
        }
    return attrs.evolve(rules, id=f"{rules.id}-variation", **changes)


def rulesets() -> st.SearchStrategy[RuleSet]:
    """A built-in rule set or a random variation of one."""
    return st.one_of(builtin_rulesets(), ruleset_variations())


def player_counts(ruleset: RuleSet | str) -> st.SearchStrategy[int]:
    """A player count the rule set (or the rule set of an id) allows."""
    if not isinstance(ruleset, RuleSet | str):
        raise InvalidArgument(f"ruleset is a RuleSet or a rule set id, got {shown(ruleset)}")
    return st.sampled_from(get_ruleset(ruleset).player_counts)


@st.composite
def player_records(
    draw: st.DrawFn,
    ruleset: RuleSet,
    players: int,
    *,
    max_spent: int = 80,
) -> list[PlayerRecord]:
    """Valid end-of-game records for ``players`` seats: distinct nations and tokens in
    play, the deck shared out (some tiles may be unsold), spends and zero-bid rounds in
    range. Spends are drawn from a small range now and then, so ties are common.
    """
    nations = draw(st.permutations(ruleset.nations(players)))[:players]
    tokens = draw(st.permutations(ruleset.industries(players)))[:players]
    deck = ruleset.companies(players)
    # each tile goes to a seat, or now and then stays unsold (-1)
    owner = st.sampled_from((*range(players),) * 4 + (-1,))
    owners = draw(st.lists(owner, min_size=len(deck), max_size=len(deck)))
    top = draw(st.sampled_from((3, max_spent)))
    zero_max = ruleset.max_zero_bid_scorings(players)
    records = []
    for seat in range(players):
        held = [tile for tile, owner in zip(deck, owners, strict=True) if owner == seat]
        records.append(
            PlayerRecord(
                nations[seat],
                tokens[seat],
                draw(st.permutations(held)),
                draw(st.integers(0, top)),
                draw(st.integers(0, zero_max)),
            )
        )
    return records


@st.composite
def scoring_inputs(
    draw: st.DrawFn, rulesets: Sequence[RuleSet] | None = None
) -> tuple[RuleSet, list[PlayerRecord]]:
    """A rule set (built-in unless given) with valid records for one of its player counts."""
    ruleset = draw(_given_or_builtin(rulesets))
    players = draw(player_counts(ruleset))
    return ruleset, draw(player_records(ruleset, players))


@st.composite
def bids(draw: st.DrawFn, game: Game, seat: int, *, spread: int = 4) -> int:
    """A legal bid for ``seat`` (whose bid must be awaited): mostly within ``spread`` of
    the minimum, sometimes larger."""
    limits = game.bid_limits(seat)
    if limits is None:
        raise ValueError(f"seat {seat} is not to act")
    top = limits.minimum + draw(st.sampled_from((spread, spread, spread, 40)))
    return limits.legal(draw(st.integers(limits.minimum, top)))


@st.composite
def legal_moves(draw: st.DrawFn, game: Game, *, peek_chance: float = 0.1) -> Move:
    """A legal move in a game that is not over, by a seat to act: a bid, or in the peek
    window a peek (with ``peek_chance``) or a declined peek."""
    if game.is_over:
        raise ValueError("the game is over")
    seat = draw(st.sampled_from(sorted(game.to_act)))
    if game.phase is Phase.PEEKING:
        if draw(st.floats(0, 1)) >= peek_chance:
            return Move("decline-peek", seat)
        if game.ruleset.peek_timing is PeekTiming.ANY_EARLIER_SALE:  # the peek names its sale
            named = [sale for sale in range(game.sale + 1) if game.can_peek(seat, sale)]
            return Move("peek", seat, sale=draw(st.sampled_from(named)))
        return Move("peek", seat)
    return Move("bid", seat, draw(bids(game, seat)))


@st.composite
def illegal_moves(draw: st.DrawFn, game: Game) -> tuple[str, Any, Any]:
    """A move the game must refuse, as ``(kind, seat, amount)``: out of turn, below the
    minimum, equal to a forbidden amount, a bid in the peek window, a peek or a declined
    peek that is not allowed, or a malformed seat or amount (which may not even be an
    int)."""
    players = game.players
    options: list[tuple[str, Any, Any]] = []
    waiting = sorted(game.to_act)
    idle = [s for s in range(players) if s not in game.to_act]
    if idle:
        options.append(("bid", draw(st.sampled_from(idle)), draw(st.integers(0, 20))))
    for seat in waiting:
        limits = game.bid_limits(seat)
        if limits is None:  # the peek window: nobody bids
            options.append(("bid", seat, draw(st.integers(0, 20))))
            continue
        options.append(("bid", seat, limits.minimum - draw(st.integers(1, 5))))
        if limits.forbidden is not None:
            options.append(("bid", seat, limits.forbidden))
    blocked = [s for s in range(players) if not game.can_peek(s)]
    if blocked:
        options.append(("peek", draw(st.sampled_from(blocked)), None))
        options.append(("decline-peek", draw(st.sampled_from(blocked)), None))
    bad_seat = draw(st.one_of(st.integers(-3, -1), st.integers(players, players + 3)))
    options.append(("bid", bad_seat, 3))
    options.append(("peek", draw(st.sampled_from([bad_seat, True, "1", 1.0])), None))
    bad_amount = draw(st.sampled_from([2.0, True, False, "3", None, 2.5]))
    options.append(("bid", draw(st.sampled_from(waiting or [0])), bad_amount))
    chosen: tuple[str, Any, Any] = draw(st.sampled_from(options))
    return chosen


@st.composite
def games(
    draw: st.DrawFn,
    rulesets: Sequence[RuleSet] | None = None,
    players: int | None = None,
    *,
    finished: bool = False,
    peek_chance: float = 0.1,
) -> Game:
    """A game after a random number of legal moves (all of them if ``finished``).

    Rule sets are the built-ins unless given; the setup (deck order, nations, tokens,
    first auctioneer) is random.
    """
    ruleset = draw(_given_or_builtin(rulesets))
    count = players if players is not None else draw(player_counts(ruleset))
    game = new_game(
        ruleset,
        count,
        seed=draw(st.integers(0, 2**32 - 1)),
        first_auctioneer=draw(st.integers(0, count - 1)),
    )
    stop = None if finished else draw(st.integers(0, 3 * count * game.ruleset.sales(count)))
    moves = 0
    while not game.is_over and (stop is None or moves < stop):
        game = game.apply(draw(legal_moves(game, peek_chance=peek_chance)))
        moves += 1
    return game
