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

import enum
from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs
from hypothesis import reject
from hypothesis import strategies as st

from qe_rules._util.frozen import FrozenDict
from qe_rules.components import COMPANIES, Industry, Nation
from qe_rules.errors import InvalidArgument, InvalidRuleSet, shown
from qe_rules.game.engine import Game, new_game
from qe_rules.game.records import Move
from qe_rules.game.scoring import PlayerRecord
from qe_rules.game.views import Phase
from qe_rules.limits import MAX_BID
from qe_rules.rules.model import (
    RULESETS,
    Category,
    PeekTiming,
    RuleSet,
    TieFallback,
    TieStreak,
    get_ruleset,
)
from qe_rules.rules.values import (
    CATEGORY_ORDER,
    CATEGORY_SET,
    COMPANY_LIST,
    PLAYER_COUNTS,
    TABLE,
    FieldKind,
)
from qe_rules.rules.values import INDUSTRIES as INDUSTRIES_KIND
from qe_rules.rules.values import NATIONS as NATIONS_KIND

__all__ = [
    "ENDLESS_READINGS",
    "EXCUSED",
    "VARIED_FIELDS",
    "bids",
    "builtin_rulesets",
    "field_values",
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


# --------------------------------------------------------------------------- variations

EXCUSED: Final[Mapping[str, str]] = FrozenDict()
"""Rule fields :func:`ruleset_variations` leaves as the base has them, each with the
reason. None: every rule field is varied (``tests/verification/test_strategies.py``
fails when a field is neither varied nor listed here with a reason)."""

VARIED_FIELDS: Final[tuple[str, ...]] = tuple(
    name for name in RuleSet.rule_fields() if name not in EXCUSED
)
"""The rule fields :func:`ruleset_variations` varies: each one's values come from its
kind (:meth:`RuleSet.field_kind`)."""

ENDLESS_READINGS: Final[Mapping[str, Any]] = FrozenDict(
    {"tie_fallback": TieFallback.NONE, "tie_streak": TieStreak.SAME_PLAYERS}
)
"""Readings under which tied agents may rebid without end (no fallback, or one whose
count of ties starts again): varied only with ``endless=True``."""

_PLAYER_COUNTS: Final = (2, 3, 4, 5)
_SMALL: Final = 4  # most numbers are drawn from the smallest few a kind allows


def _number(bounds: tuple[int, int]) -> st.SearchStrategy[int]:
    """Mostly one of the smallest few, now and then one of the largest few."""
    low, high = bounds
    small = st.integers(low, min(high, low + _SMALL))
    large = st.integers(max(low, high - 3), high)
    return st.integers(0, 7).flatmap(lambda pick: large if pick == 0 else small)


def _pieces(kind: type[enum.Enum], players: int) -> st.SearchStrategy[tuple[Any, ...]]:
    """At least ``players`` of ``kind``'s members, in a random order."""
    return st.permutations(list(kind)).flatmap(
        lambda order: st.integers(players, len(order)).map(lambda k: tuple(order[:k]))
    )


@st.composite
def _table(draw: st.DrawFn) -> dict[int, int]:
    """A scoring table: counts from 1 to 4 on, consecutive, with mostly small points."""
    first = draw(st.integers(1, 4))
    size = draw(st.integers(1, 6))
    points = _number((0, MAX_BID)) | st.integers(0, 25)
    return {count: draw(points) for count in range(first, first + size)}


def _kind_values(
    kind: FieldKind, rules: RuleSet, players: int | None
) -> st.SearchStrategy[Any] | None:
    """Values of ``kind`` under ``rules`` (``players``: the count of a per-player value),
    or ``None`` for a kind without values here."""
    if kind.choices:
        return st.sampled_from(kind.choices)
    if kind.bounds is not None:
        return _number(kind.bounds)
    if kind is PLAYER_COUNTS:
        return st.sets(st.sampled_from(rules.player_counts)).map(lambda s: tuple(sorted(s)))
    if kind is COMPANY_LIST:  # tiles removed: at least one is left
        return st.sets(st.sampled_from(COMPANIES), max_size=len(COMPANIES) - 1).map(tuple)
    if kind is NATIONS_KIND and players is not None:
        return _pieces(Nation, players)
    if kind is INDUSTRIES_KIND and players is not None:
        return _pieces(Industry, players)
    if kind is TABLE:
        return _table()
    if kind is CATEGORY_ORDER:
        return st.permutations(list(Category)).map(tuple)
    if kind is CATEGORY_SET:
        both = [Category.MONOPOLIZATION, Category.DIVERSIFICATION]
        return st.sets(st.sampled_from(both)).map(frozenset)
    return None


def field_values(rules: RuleSet, name: str, *, endless: bool = False) -> st.SearchStrategy[Any]:
    """Values of rule field ``name`` valid under ``rules`` (one per player count for a
    per-player field), made from the field's kind; the :data:`ENDLESS_READINGS` only with
    ``endless``. A field of a kind without values raises ``TypeError``: give its kind
    values here, or excuse the field in :data:`EXCUSED` with a reason."""
    kind = RuleSet.field_kind(name)
    if kind.per_players:
        assert kind.item is not None
        items = {}
        for players in rules.player_counts:
            found = _kind_values(kind.item, rules, players)
            if found is None:
                raise TypeError(f"ruleset_variations has no values for {name}'s kind")
            items[players] = found
        return st.fixed_dictionaries(items)
    values = _kind_values(kind, rules, None)
    if values is None:
        raise TypeError(f"ruleset_variations has no values for {name}'s kind")
    if not endless and name in ENDLESS_READINGS:
        return values.filter(lambda value: value is not ENDLESS_READINGS[name])
    return values


def _with_player_counts(rules: RuleSet, counts: Sequence[int]) -> RuleSet:
    """``rules`` played by ``counts``: each per-player field keeps its value for a count it
    had, and takes the nearest count's value for a new one; the fields that name player
    counts keep those still played."""
    changes: dict[str, Any] = {"player_counts": tuple(sorted(counts))}
    for name in RuleSet.per_player_fields():
        value = getattr(rules, name)
        changes[name] = {
            n: value[min(value, key=lambda known: (abs(known - n), known))] for n in counts
        }
    for name in RuleSet.rule_fields():
        if RuleSet.field_kind(name) is PLAYER_COUNTS and name != "player_counts":
            changes[name] = tuple(n for n in getattr(rules, name) if n in counts)
    return attrs.evolve(rules, **changes)


@st.composite
def ruleset_variations(
    draw: st.DrawFn,
    base: RuleSet | None = None,
    *,
    endless: bool = False,
    keep_setup: bool = False,
) -> RuleSet:
    """A valid rule set that differs from a built-in (or ``base``) in random rules: each
    field of :data:`VARIED_FIELDS` changes with even chance, to a value its kind allows
    (:func:`field_values`), the player counts first (then every per-player value follows
    them). A changed setup is made coherent, as a text's is: the deck holds only tiles of
    the nations and industries in play, and ``deck_sizes`` states its size.

    The variations keep every game finite unless ``endless``: without it the tie fallback
    is never ``none`` and ``tie_streak`` stays ``any-players``
    (:data:`ENDLESS_READINGS`), under which agents that always tie rebid without end.
    ``keep_setup`` keeps the player counts, deck, nations and tokens of the rule set varied
    (a variation that can score the games of ``base``).
    """
    rules = base or draw(builtin_rulesets())
    changed_setup = False
    kept = ("player_counts", *_SETUP_FIELDS) if keep_setup else ()
    if "player_counts" in VARIED_FIELDS and not keep_setup and draw(st.booleans()):
        counts = draw(st.sets(st.sampled_from(_PLAYER_COUNTS), min_size=1))
        try:
            rules = _with_player_counts(rules, sorted(counts))
        except InvalidRuleSet:  # a new count with fewer pieces than its players
            reject()
        changed_setup = True
    changes: dict[str, Any] = {}
    for name in VARIED_FIELDS:
        if name != "player_counts" and name not in kept and draw(st.booleans(), label=name):
            changes[name] = draw(field_values(rules, name, endless=endless), label=name)
    if changed_setup or any(name in changes for name in _SETUP_FIELDS):
        changes.update(_coherent_deck(rules, changes))
    try:
        return attrs.evolve(rules, id=f"{rules.id}-variation", **changes)
    except InvalidRuleSet:  # e.g. a smallest bid of MAX_BID that no bid may equal
        reject()


_SETUP_FIELDS: Final = ("removed_companies", "deck_sizes", "nations_in_play", "industries_in_play")


def _coherent_deck(rules: RuleSet, changes: Mapping[str, Any]) -> dict[str, Any]:
    """The setup fields of ``rules`` with ``changes``, made to agree as a text's would (and
    as the verifier's deck checks ask): the deck holds only tiles of the nations and
    industries in play, and ``deck_sizes`` states its size."""
    setup = {name: changes.get(name, getattr(rules, name)) for name in _SETUP_FIELDS}
    removed, sizes = {}, {}
    for players in rules.player_counts:
        nations = set(setup["nations_in_play"][players])
        industries = set(setup["industries_in_play"][players])
        gone = set(setup["removed_companies"][players])
        gone.update(c for c in COMPANIES if c.nation not in nations or c.industry not in industries)
        if len(gone) == len(COMPANIES):
            reject()  # no tile left to sell
        removed[players] = tuple(c for c in COMPANIES if c in gone)
        sizes[players] = len(COMPANIES) - len(gone)
    return {"removed_companies": removed, "deck_sizes": sizes}


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
