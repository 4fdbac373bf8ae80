"""The engine's internal state: what a :class:`~qe_rules.game.engine.Game` holds.

Three layers, by how often they change (``docs/design/engine.md``):

- :class:`_Constants`, what every game of one rule set and player count shares, made once
  (:func:`_constants`), and :class:`_Setup`, one game's rules, seats and deal with those
  constants copied in: never changed.
- :class:`_Progress`, what changes when a sale ends (holdings, spend, zero bids, peeks,
  the finished sales as :class:`_SaleFacts`).
- :class:`_Sale`, what changes when a bidding round opens or closes. The bids of the round
  in progress and the seats awaited are fields of the ``Game`` itself.

Every class here has ``__slots__`` and is never changed once another object holds it,
except for its caches; a new state is a copy (``evolve()``) whose changed fields are set by
name before anyone sees it. The events of a game are a linked log of nodes (``_Node``).
What a seat may know of these is decided in :mod:`qe_rules.game._secrecy`.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, NamedTuple, cast

from qe_rules.components import Company, Industry, Nation
from qe_rules.errors import InvalidArgument, shown
from qe_rules.game._secrecy import (
    after_peek,
    sale_views,
    shown_industries,
    spectator_amount,
)
from qe_rules.game.events import SaleOpened
from qe_rules.game.facts import RuleFacts, rule_facts
from qe_rules.game.sales import BidLimits, scoring_zero_bids
from qe_rules.game.scoring import GameResult, Gap
from qe_rules.game.views import PUBLIC_FIELDS, Phase, SaleView, make_sale_view
from qe_rules.rules.model import RULESETS, PeekShows, RebidVisibility, RuleSet, get_ruleset

_OPENING, _BIDDING, _REBIDDING, _OVER = Phase.OPENING, Phase.BIDDING, Phase.REBIDDING, Phase.OVER
_PEEKING = Phase.PEEKING
_NO_SEATS: Final[frozenset[int]] = frozenset()

# --------------------------------------------------------------------------- setup


class _Constants:
    """What every game of one rule set and player count shares, derived once
    (``_constants``): the fields of :class:`_Setup` that follow from the rules."""

    __slots__ = (
        "companies",
        "everyone",
        "facts",
        "first_limits",
        "industries_in_play",
        "last_tile",
        "nations_in_play",
        "no_bids",
        "opening_limits",
        "opening_seats",
        "others",
        "peek",
        "peek_shows",
        "round_of",
        "rounds",
        "sales",
        "shared_sales",
        "singletons",
        "start",
        "visibility",
        "without",
        "zero_bids",
    )

    facts: RuleFacts  # what follows from the rules (qe_rules.game.facts); the next ones are its
    sales: int
    last_tile: bool
    zero_bids: bool
    peek: bool
    # the secrecy decisions that follow from the rules alone (_secrecy), decided once
    visibility: RebidVisibility  # who sees which bids of a sale (rebid_visibility)
    peek_shows: PeekShows  # what a peek shows
    others: tuple[frozenset[int], ...]  # per seat: every other seat
    singletons: tuple[frozenset[int], ...]  # per seat: {seat}
    everyone: frozenset[int]
    no_bids: tuple[None, ...]
    rounds: int
    round_of: tuple[int, ...]  # per sale: its round
    companies: tuple[Company, ...]  # the deck in canonical order
    nations_in_play: tuple[Nation, ...]
    industries_in_play: tuple[Industry, ...]
    opening_limits: BidLimits  # the auctioneer's opening bid
    first_limits: BidLimits  # secret bids before the opening
    # per first auctioneer: each sale before its first bid without a peek window, and
    # after them the end of the game (shared: the sales hold nothing of one game's deal)
    shared_sales: tuple[tuple[_Sale, ...], ...]
    opening_seats: tuple[tuple[frozenset[int], ...], ...]  # the seats each of them awaits
    start: _Progress  # the progress before the first sale (shared: it never changes)
    # for every set of seats, per seat: the set without that seat (the seats still awaited
    # after its move), looked up rather than made at every move
    without: dict[frozenset[int], tuple[frozenset[int], ...]]


class _Setup(_Constants):
    """What does not change during a game: the rules, the seats and the deck order, and
    the constants of the rule set and player count (copied, to be read in one step)."""

    __slots__ = (
        "deck",
        "first_auctioneer",
        "industries",
        "industries_shown",
        "nations",
        "openings",
        "openings_await",
        "players",
        "ruleset",
    )

    ruleset: RuleSet
    players: int
    deck: tuple[Company, ...]
    nations: tuple[Nation, ...]
    industries: tuple[Industry, ...]
    # the tokens every seat is shown before the end and at the end (_secrecy.shown_industries),
    # looked up by ``over`` when a state's public part is made
    industries_shown: tuple[tuple[Industry, ...] | None, tuple[Industry, ...] | None]
    first_auctioneer: int
    openings: tuple[_Sale, ...]  # shared_sales of this first auctioneer
    openings_await: tuple[frozenset[int], ...]  # and the seats each awaits

    def __init__(
        self,
        *,
        ruleset: RuleSet,
        players: int,
        deck: tuple[Company, ...],
        nations: tuple[Nation, ...],
        industries: tuple[Industry, ...],
        first_auctioneer: int,
        constants: _Constants | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.players = players
        self.deck = deck
        self.nations = nations
        self.industries = industries
        self.industries_shown = (
            shown_industries(industries, False),
            shown_industries(industries, True),
        )
        self.first_auctioneer = first_auctioneer
        if constants is None:
            constants = _constants(ruleset, players)
        # every constant copied, to be read in one step (none missed: see
        # test_engine_internals); the shared sales are those of this game's first auctioneer
        self.companies = constants.companies
        self.everyone = constants.everyone
        self.facts = constants.facts
        self.first_limits = constants.first_limits
        self.industries_in_play = constants.industries_in_play
        self.last_tile = constants.last_tile
        self.nations_in_play = constants.nations_in_play
        self.no_bids = constants.no_bids
        self.opening_limits = constants.opening_limits
        self.openings = constants.shared_sales[first_auctioneer]
        self.openings_await = constants.opening_seats[first_auctioneer]
        self.others = constants.others
        self.peek = constants.peek
        self.peek_shows = constants.peek_shows
        self.round_of = constants.round_of
        self.rounds = constants.rounds
        self.sales = constants.sales
        self.visibility = constants.visibility
        self.singletons = constants.singletons
        self.start = constants.start
        self.without = constants.without
        self.zero_bids = constants.zero_bids

    def _dealt(self) -> tuple[Any, ...]:
        return (
            self.ruleset,
            self.players,
            self.deck,
            self.nations,
            self.industries,
            self.first_auctioneer,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Setup):
            return NotImplemented
        return self is other or self._dealt() == other._dealt()

    def __hash__(self) -> int:
        return hash(self._dealt())

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # a built-in rule set travels as its id, and the derived fields are not pickled
        rules = self.ruleset
        builtin = RULESETS.get(rules.id)
        portable = rules.id if builtin is rules or builtin == rules else rules
        dealt = (self.deck, self.nations, self.industries, self.first_auctioneer)
        return (_unpickled_setup, (portable, self.players, *dealt))


def _unpickled_setup(
    ruleset: RuleSet | str,
    players: int,
    deck: tuple[Company, ...],
    nations: tuple[Nation, ...],
    industries: tuple[Industry, ...],
    first_auctioneer: int,
) -> _Setup:
    return _Setup(
        ruleset=get_ruleset(ruleset),
        players=players,
        deck=deck,
        nations=nations,
        industries=industries,
        first_auctioneer=first_auctioneer,
    )


def _fields_of(state: object, names: tuple[str, ...]) -> dict[str, Any]:
    """The fields ``names`` of a ``__slots__`` object: its pickled state without caches."""
    return {name: getattr(state, name) for name in names}


def _set_fields(
    state: object, values: dict[str, Any], names: tuple[str, ...], caches: tuple[str, ...]
) -> None:
    """Fill an unpickled ``__slots__`` object: the fields ``names``, and empty ``caches``."""
    for name in names:
        setattr(state, name, values[name])
    for name in caches:
        setattr(state, name, None)


# --------------------------------------------------------------------------- progress


class _PeekTarget(NamedTuple):
    """The last finished sale, whose peek window is open (or was, until the next opening
    bid): what the checks of a peek need."""

    sale: int
    auctioneer: int | None
    winner: int | None
    amount: int | None
    public: bool


class _SaleFacts:
    """A finished sale as the referee knows it, with the seats' redacted views, made for
    every seat on first use (a sale's facts never change, so its views can be kept).
    The fields that every seat's view shares have the names of :class:`SaleView`'s."""

    __slots__ = (
        "amount",
        "auctioneer",
        "closed",
        "company",
        "opening_bid",
        "public",
        "reason",
        "round",
        "sale",
        "seats",
        "spectator",
        "ties",
        "views",
        "winner",
        "zero_bidders",
    )

    sale: int
    round: int
    company: Company
    auctioneer: int | None
    opening_bid: int | None
    ties: tuple[tuple[int, ...], ...]
    winner: int | None
    amount: int | None
    public: bool
    reason: str | None
    zero_bidders: tuple[int, ...]
    closed: tuple[
        tuple[tuple[int, int], ...], ...
    ]  # each round as its bids came (``_secrecy.by_seat``)
    seats: int  # the number of players
    views: list[SaleView] | None  # made for every seat on first use
    spectator: SaleView | None

    def __getstate__(self) -> dict[str, Any]:
        """The facts without the views made from them (a pickle makes them again)."""
        return _fields_of(self, _FACT_FIELDS)

    def __setstate__(self, state: dict[str, Any]) -> None:
        _set_fields(self, state, _FACT_FIELDS, ("views", "spectator"))

    def public_view(self) -> SaleView:
        """The sale as a spectator knows it: its public amount only, no bids."""
        view = self.spectator
        if view is None:
            view = self.spectator = make_sale_view(
                self,
                amount=spectator_amount(self),
                my_bids=(),
                bids=(),
                peeked=False,
                peeked_amount=None,
            )
        return view

    def view_for(
        self, seat: int, visibility: RebidVisibility, peeked: bool, shows: PeekShows
    ) -> SaleView:
        """The sale as ``seat`` knows it (``peeked``: after its peek at the sale)."""
        view = self.all_views(visibility)[seat]
        if peeked:
            return after_peek(self, view, shows)
        return view

    def all_views(self, visibility: RebidVisibility) -> list[SaleView]:
        """The sale as each seat knows it (before any peek), made on first use."""
        views = self.views
        if views is None:
            views = self.views = sale_views(self, self, visibility)
        return views


_FACT_FIELDS: Final = tuple(
    name for name in _SaleFacts.__slots__ if name not in ("views", "spectator")
)


def _sale_facts(
    sale: int,
    round: int,
    company: Company,
    auctioneer: int | None,
    opening_bid: int | None,
    ties: tuple[tuple[int, ...], ...],
    winner: int | None,
    amount: int | None,
    public: bool,
    reason: str | None,
    zero_bidders: tuple[int, ...],
    closed: tuple[tuple[tuple[int, int], ...], ...],
    seats: int,
) -> _SaleFacts:
    """The facts of a finished sale, by position in the order of ``_SaleFacts``' slot
    annotations: its named constructor. A module function, not an ``__init__`` or a class
    method, since the end of every sale makes one and either would cost more."""
    facts = _SaleFacts()
    facts.sale = sale
    facts.round = round
    facts.company = company
    facts.auctioneer = auctioneer
    facts.opening_bid = opening_bid
    facts.ties = ties
    facts.winner = winner
    facts.amount = amount
    facts.public = public
    facts.reason = reason
    facts.zero_bidders = zero_bidders
    facts.closed = closed
    facts.seats = seats
    facts.views = None
    facts.spectator = None
    return facts


class _Progress:
    """The progress of a game that changes only when a sale ends (or on a peek): holdings,
    spend, zero bids, peeks and the finished sales. Never changed once made, except for
    its caches: a move that changes it makes a new one (``evolve()``)."""

    __slots__ = (
        "cache",
        "facts",
        "gaps",
        "holdings",
        "parent",
        "peeked",
        "peeks",
        "result",
        "spent",
        "zero_counts",
        "zero_rounds",
    )

    holdings: tuple[tuple[Company, ...], ...]
    spent: tuple[int, ...]
    zero_rounds: tuple[tuple[int, ...], ...]  # per seat: the round of each zero-bid scoring
    zero_counts: tuple[int, ...]
    peeks: tuple[int, ...]
    peeked: tuple[frozenset[int], ...]  # per seat: the sales it peeked at
    facts: tuple[_SaleFacts, ...]
    gaps: tuple[Gap, ...]
    result: GameResult | None  # at the end: the result, once it is first asked for
    # per seat, its history of sales, made on first use (None until then); ``parent`` is
    # the cache of the progress before the last sale ended, whose histories are one sale shorter
    cache: dict[int, tuple[SaleView, ...]] | None
    parent: dict[int, tuple[SaleView, ...]] | None

    def __getstate__(self) -> dict[str, Any]:
        """The progress without the caches (a pickle makes them again)."""
        return _fields_of(self, _PROGRESS_FIELDS)

    def __setstate__(self, state: dict[str, Any]) -> None:
        _set_fields(self, state, _PROGRESS_FIELDS, ("cache", "parent", "result"))

    @classmethod
    def start(cls, players: int) -> _Progress:
        """The progress before the first sale: nothing won, spent, bid or peeked."""
        start = cls()
        empty: tuple[tuple[Any, ...], ...] = ((),) * players
        zeros = (0,) * players
        start.holdings = empty
        start.spent = zeros
        start.zero_rounds = empty
        start.zero_counts = zeros
        start.peeks = zeros
        start.peeked = (_NO_SEATS,) * players
        start.facts = ()
        start.gaps = ()
        start.result = start.cache = start.parent = None
        return start

    def after_sale(
        self,
        holdings: tuple[tuple[Company, ...], ...],
        spent: tuple[int, ...],
        zero_rounds: tuple[tuple[int, ...], ...],
        zero_counts: tuple[int, ...],
        facts: _SaleFacts,
        gaps: tuple[Gap, ...],
    ) -> _Progress:
        """The progress once a sale is over: its holdings, spend, zero bids and gaps, and
        its ``facts`` added to the finished sales; the caches of this progress become the
        new one's ``parent`` (the histories one sale shorter). By position: the end of every
        sale makes one."""
        after = _Progress()
        after.holdings = holdings
        after.spent = spent
        after.zero_rounds = zero_rounds
        after.zero_counts = zero_counts
        after.peeks = self.peeks
        after.peeked = self.peeked
        after.facts = self.facts + (facts,)  # noqa: RUF005 (faster than unpacking)
        after.gaps = gaps
        after.result = None
        after.cache = None
        after.parent = self.cache
        return after

    def evolve(self) -> _Progress:
        """A copy with empty caches, to assign the changed fields to, by name, before
        anyone else sees it (cheaper than a call with every field as a keyword argument)."""
        new = _Progress()
        new.holdings = self.holdings
        new.spent = self.spent
        new.zero_rounds = self.zero_rounds
        new.zero_counts = self.zero_counts
        new.peeks = self.peeks
        new.peeked = self.peeked
        new.facts = self.facts
        new.gaps = self.gaps
        new.result = None
        new.cache = None
        new.parent = None
        return new

    def history(
        self, seat: int, visibility: RebidVisibility, shows: PeekShows = PeekShows.WINNING_AMOUNT
    ) -> tuple[SaleView, ...]:
        """The finished sales as ``seat`` knows them.

        Every seat is usually shown every sale, so when the parent's histories are at hand
        the last sale is added to each of them at once.
        """
        cache = self.cache
        if cache is None:
            cache = self.cache = {}
        found = cache.get(seat)
        if found is not None:
            return found
        facts, parent, peeked = self.facts, self.parent, self.peeked
        if parent:
            last = facts[-1]
            number, size = last.sale, len(facts) - 1
            views = last.all_views(visibility)
            for other, before in parent.items():
                if other not in cache and len(before) == size and other >= 0:
                    view = views[other]
                    if number in peeked[other]:
                        view = after_peek(last, view, shows)
                    cache[other] = before + (view,)  # noqa: RUF005 (faster than unpacking)
            found = cache.get(seat)
            if found is not None:
                return found
        found = tuple(f.view_for(seat, visibility, f.sale in peeked[seat], shows) for f in facts)
        cache[seat] = found
        return found

    def public_history(self) -> tuple[SaleView, ...]:
        """The finished sales as a spectator knows them (cached under the key -1)."""
        cache = self.cache
        if cache is None:
            cache = self.cache = {}
        found = cache.get(_SPECTATOR)
        if found is None:
            facts, parent = self.facts, self.parent
            before = parent.get(_SPECTATOR) if parent else None
            if before is not None and len(before) == len(facts) - 1:
                found = before + (facts[-1].public_view(),)  # noqa: RUF005
            else:
                found = tuple(f.public_view() for f in facts)
            cache[_SPECTATOR] = found
        return found


_SPECTATOR: Final = -1  # the key of a spectator's history in a progress's cache
_PROGRESS_FIELDS: Final = tuple(
    name for name in _Progress.__slots__ if name not in ("cache", "parent", "result")
)


# --------------------------------------------------------------------------- the sale


class _Sale:
    """The sale in progress during one bidding round (or the end of the game, with phase
    OVER): what changes when a bidding round opens or closes, not with every bid. The bids
    of the round in progress and the seats still awaited are the game's own fields.

    A sale holds nothing of one game's deal (its tile is ``deck[number]``): a sale before
    its first bid, or after the opening bid, is the same object in every game of a rule
    set, size and first auctioneer (``_shared_sales``)."""

    __slots__ = (
        "after_opening",
        "auctioneer",
        "closed",
        "limits",
        "number",
        "opening",
        "peek_target",
        "phase",
        "rebid",
        "round",
        "standing",
        "tie_log",
        "ties",
    )

    number: int
    round: int
    auctioneer: int | None
    phase: Phase
    opening: int | None
    standing: tuple[int | None, ...]  # each seat's bid as the bidding round opened
    rebid: int  # 0 while first bids are made, k during the k-th rebid
    # the finished bidding rounds, each as its bids came (in seat order: ``_secrecy.by_seat``)
    closed: tuple[tuple[tuple[int, int], ...], ...]
    ties: int
    tie_log: tuple[tuple[int, ...], ...]
    limits: BidLimits  # the bids of seats other than the auctioneer, this bidding round
    peek_target: _PeekTarget | None  # the sale whose peek window is open (until the opening)
    # a shared sale before its opening bid: the shared sale after each opening bid made
    # so far (a cache; None in every other sale)
    after_opening: dict[int, _Sale] | None

    def __getstate__(self) -> dict[str, Any]:
        """The sale without its cache (a pickle holds one game's state)."""
        return _fields_of(self, _SALE_FIELDS)

    def __setstate__(self, state: dict[str, Any]) -> None:
        _set_fields(self, state, _SALE_FIELDS, ("after_opening",))

    def evolve(self) -> _Sale:
        """A copy without the cache, to assign the changed fields to, by name, before
        anyone else sees it (cheaper than a call with every field as a keyword argument)."""
        new = _Sale()
        new.number = self.number
        new.round = self.round
        new.auctioneer = self.auctioneer
        new.phase = self.phase
        new.opening = self.opening
        new.standing = self.standing
        new.rebid = self.rebid
        new.closed = self.closed
        new.ties = self.ties
        new.tie_log = self.tie_log
        new.limits = self.limits
        new.peek_target = self.peek_target
        new.after_opening = None
        return new


_SALE_FIELDS: Final = tuple(name for name in _Sale.__slots__ if name != "after_opening")


# --------------------------------------------------------------------------- the end of a sale


def _zero_bids(
    setup: _Setup,
    round_: int,
    standing: tuple[int, ...],
    zero_rounds: tuple[tuple[int, ...], ...],
    zero_counts: tuple[int, ...],
    closed: tuple[tuple[tuple[int, int], ...], ...],
    winner: int | None,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The zero bids of a finished sale: who bid zero, who scores (by the zero-bid rules,
    once per round), and the seats' zero-bid rounds and counts after it."""
    rules = setup.ruleset
    if standing.count(0) == 1:
        zero_seats: tuple[int, ...] = (standing.index(0),)
    else:
        zero_seats = tuple([seat for seat, bid in enumerate(standing) if bid == 0])
    if winner is not None and len(closed) == 1 and standing[winner]:
        # an award after one bidding round to a seat that did not bid zero: no switch of
        # scoring_zero_bids applies, and every zero bid counts
        scoring = zero_seats
    else:
        scoring = scoring_zero_bids(rules, standing, closed, winner)
    limit = rules.zero_bid_limit_per_round
    if limit:  # a seat's zero bids of a round score at most ``limit`` times
        kept = []
        for seat in scoring:
            if zero_rounds[seat].count(round_) < limit:
                kept.append(seat)
        scoring = tuple(kept)
    if scoring:
        rounds_by_seat, counts = list(zero_rounds), list(zero_counts)
        for seat in scoring:
            rounds_by_seat[seat] += (round_,)
            counts[seat] += 1
        zero_rounds, zero_counts = tuple(rounds_by_seat), tuple(counts)
    return zero_seats, scoring, zero_rounds, zero_counts


def _unsold_gap(number: int, company: Company | None, ties: int, reason: str | None) -> Gap:
    """The rule gap of a tile that the tie fallback could not sell."""
    found = (
        "no amount was bid exactly once in the sale"
        if reason == "no-unique-bid"
        else "every standing bid is tied"
    )
    return Gap(
        str(reason),
        f"sale {number} ({company}): after {ties} ties in a row {found}; the tile is not sold",
    )


def _replace_at(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


# --------------------------------------------------------------------------- the event log

# An event as the engine keeps it: ``(event class, *its fields in the class's order)``,
# made typed on demand (``kind(*raw[1:])``); read by unpacking, field by field
# (``_, sale, seat, amount, rebid = raw``). tests/game/test_engine.py checks every shape
# the engine makes against its class's fields.
_Raw = tuple[Any, ...]
# The events of a game: one node per move, ``(previous node, the move's events, how many
# events in all)``, so that a move adds a node instead of copying the history; read as
# ``previous, events, count = node``. The first node's previous node is ``None``.
_Node = tuple[Any, tuple[_Raw, ...], int]


def _moves_of(node: _Node | None) -> list[tuple[_Raw, ...]]:
    """The events of a log, one tuple per move, oldest first."""
    parts = []
    while node is not None:
        previous, events, _ = node
        parts.append(events)
        node = previous
    parts.reverse()
    return parts


def _raws(node: _Node | None) -> list[_Raw]:
    """Every event of a log, oldest first."""
    return [raw for part in _moves_of(node) for raw in part]


def _sale_opened(setup: _Setup, sale: _Sale) -> _Raw:
    return (SaleOpened, sale.number, sale.round, setup.deck[sale.number], sale.auctioneer)


def _linked(parts: tuple[tuple[_Raw, ...], ...]) -> _Node:
    """The log of the moves ``parts`` (each a tuple of events), linked again."""
    node: Any = None
    count = 0
    for events in parts:
        count += len(events)
        node = (node, events, count)
    return cast(_Node, node)


class _PublicPart:
    """The fields of :class:`PublicView` but its history, by the same names and of the
    same types: what every seat's view of one state shares, made once per state on the
    first view (``Game._public_part``)."""

    __slots__ = PUBLIC_FIELDS


def _public_part(
    setup: _Setup,
    progress: _Progress,
    sale: _Sale,
    to_act: frozenset[int],
    result: Callable[[], GameResult],
) -> Any:
    """The fields of a view that are the same for every seat (``result()`` once the game
    is over), as a :class:`_PublicPart`."""
    over = sale.phase is _OVER
    part: Any = _PublicPart()  # its fields are typed by PublicView's
    part.ruleset = setup.ruleset.id
    part.players = setup.players
    part.nations = setup.nations
    part.first_auctioneer = setup.first_auctioneer
    part.sales = setup.sales
    part.sale = sale.number
    part.round = sale.round
    part.phase = sale.phase
    part.auctioneer = sale.auctioneer
    part.company = _company_of(setup, sale)
    # nothing remains at the end, nor in a peek window after the last sale
    part.remaining = 0 if sale.number >= setup.sales else setup.sales - sale.number - 1
    part.to_act = to_act
    part.opening_bid = sale.opening
    part.tied = sale.tie_log[-1] if sale.phase is _REBIDDING else ()
    part.ties = sale.ties
    part.holdings = progress.holdings
    part.zero_bid_rounds = progress.zero_counts
    part.peeks_used = progress.peeks
    part.industries = setup.industries_shown[over]
    part.result = result() if over else None
    return part


# --------------------------------------------------------------------------- constants

_LIMITS: Final[dict[tuple[int, int | None], BidLimits]] = {}
_KEPT_LIMITS: Final = 64  # the opening bids whose sale a shared sale keeps


def _interned_limits(minimum: int, forbidden: int | None) -> BidLimits:
    """``BidLimits(minimum, forbidden)``, shared between views (it is immutable)."""
    key = (minimum, forbidden)
    found = _LIMITS.get(key)
    if found is None:
        found = BidLimits(minimum, forbidden)
        if len(_LIMITS) < 4096:
            _LIMITS[key] = found
    return found


def _interned(limits: BidLimits) -> BidLimits:
    """``limits``, as the interned equal ones."""
    return _interned_limits(limits.minimum, limits.forbidden)


def _shared_sales(constants: _Constants, players: int, first: int) -> tuple[_Sale, ...]:
    """Each sale before its first bid (the opening bid, or on a last tile without
    auctioneer everyone's secret bid) and without a peek window, and after them the end
    of the game, for games whose first auctioneer is ``first``."""
    sales = []
    for index in range(constants.sales + 1):
        sale = _Sale()
        sale.number = index
        sale.round = constants.round_of[min(index, constants.sales - 1)]
        sale.auctioneer = constants.facts.rules.auctioneer_of_sale(players, first, index)
        sale.phase = _OPENING
        sale.after_opening = {}
        if index == constants.sales:  # the end of the game
            sale.phase, sale.after_opening = _OVER, None
        elif sale.auctioneer is None:  # the last tile, sold without auctioneer
            sale.phase, sale.after_opening = _BIDDING, None
        sale.opening = None
        sale.standing = constants.no_bids
        sale.rebid = 0
        sale.closed = ()
        sale.ties = 0
        sale.tie_log = ()
        sale.limits = constants.first_limits
        sale.peek_target = None
        sales.append(sale)
    return tuple(sales)


def _opening_sale(
    setup: _Setup,
    index: int,
    peek_target: _PeekTarget | None,
    window: frozenset[int] = _NO_SEATS,
) -> tuple[_Sale, frozenset[int]]:
    """Sale ``index`` before its opening bid (the last tile without auctioneer: before
    everyone's secret bid), or before it the peek ``window`` on ``peek_target``; and the
    seats awaited."""
    shared = setup.openings[index]
    awaiting = setup.openings_await[index]  # on a last tile without auctioneer: everyone
    if peek_target is None:
        return shared, awaiting
    sale = shared.evolve()
    sale.peek_target = peek_target
    if window:
        sale.phase = _PEEKING
        return sale, window
    return sale, awaiting


def _over_sale(
    setup: _Setup,
    peek_target: _PeekTarget | None,
    window: frozenset[int] = _NO_SEATS,
) -> tuple[_Sale, frozenset[int]]:
    """The state after the last sale: nothing to sell, nobody to act (or, before it, the
    peek ``window`` on the last sale); and the seats awaited."""
    over = setup.openings[setup.sales]
    if peek_target is not None:
        over = over.evolve()
        over.peek_target = peek_target
        if window:
            over.phase = _PEEKING
    return over, window


def _company_of(setup: _Setup, sale: _Sale) -> Company | None:
    """The tile of ``sale``: ``None`` at the end."""
    return setup.deck[sale.number] if sale.number < setup.sales else None


_CONSTANTS: Final[dict[tuple[RuleSet, int], _Constants]] = {}


def _constants(rules: RuleSet, players: int) -> _Constants:
    """The derived fields of ``_Setup``, the same for every game of a rule set and size
    (made once for each)."""
    key = (rules, players)
    found = _CONSTANTS.get(key)
    if found is None:
        found = _Constants()
        found.facts = facts = rule_facts(rules, players)
        found.sales = facts.sales
        found.last_tile = facts.last_tile
        found.zero_bids = facts.zero_bids
        found.peek = facts.peek
        found.visibility = rules.rebid_visibility
        found.peek_shows = rules.peek_shows
        # every set of seats made once, so that the sets a game holds are these objects
        seat_sets = {
            subset: subset
            for subset in (
                frozenset(seat for seat in range(players) if mask >> seat & 1)
                for mask in range(1 << players)
            )
        }
        found.without = {
            subset: tuple(seat_sets[subset - {seat}] for seat in range(players))
            for subset in seat_sets
        }
        found.everyone = everyone = seat_sets[frozenset(range(players))]
        found.others = found.without[everyone]
        found.singletons = tuple(seat_sets[frozenset((seat,))] for seat in range(players))
        found.no_bids = (None,) * players
        found.rounds = facts.rounds
        found.round_of = facts.round_of
        found.companies = facts.companies
        found.nations_in_play = facts.nations
        found.industries_in_play = facts.industries
        found.opening_limits = _interned(facts.opening_limits)
        found.first_limits = _interned(facts.first_limits)
        found.shared_sales = tuple(_shared_sales(found, players, first) for first in range(players))
        found.opening_seats = tuple(
            tuple(
                found.everyone if sale.auctioneer is None else found.singletons[sale.auctioneer]
                for sale in shared
            )
            for shared in found.shared_sales
        )
        found.start = _Progress.start(players)
        _CONSTANTS[key] = found
    return found


# --------------------------------------------------------------------------- the deal


def _distinct(
    values: Iterable[Any] | None,
    what: str,
    parse: Any,
    kind: type,
    allowed: Sequence[Any],
    count: int,
) -> tuple[Any, ...] | None:
    """The given nations or industries (``None`` if not given), checked: one per seat,
    each in play, no repeat."""
    if values is None:
        return None
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise InvalidArgument(f"{what} must be a list, got {shown(values)}")
    items = []
    for value in values:
        if isinstance(value, kind):
            items.append(value)
        elif isinstance(value, str):
            items.append(parse(value))
        else:
            raise InvalidArgument(f"{what}: {shown(value)} is not a {kind.__name__}")
    names = ", ".join(getattr(a, "code", str(a)) for a in allowed)
    if len(items) != count:
        raise InvalidArgument(f"{what}: needs one per seat ({count}), got {len(items)}")
    for item in items:
        if item not in allowed:
            raise InvalidArgument(
                f"{what}: {getattr(item, 'code', item)} is not in play; in play: {names}"
            )
    if len(set(items)) != len(items):
        raise InvalidArgument(f"{what}: each must be different, got a repeat")
    return tuple(items)


def _shuffled(items: Sequence[Any], getrandbits: Callable[[int], int]) -> list[Any]:
    """``items`` shuffled as ``random.shuffle`` does in CPython 3.11 (Fisher-Yates with
    rejection sampling on ``getrandbits``), written out so that a seed deals the same game
    whatever the Python version."""
    result = list(items)
    for i, bits in _shuffle_steps(len(result)):
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        result[i], result[j] = result[j], result[i]
    return result


@functools.cache
def _shuffle_steps(size: int) -> tuple[tuple[int, int], ...]:
    """The steps of :func:`_shuffled` for ``size`` items: each place from the last down,
    and the number of bits drawn for it."""
    return tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


# random.Random(seed) with an int seed is its C base seeded with that int (Random.seed
# converts only str and bytes seeds): the same generator, made without two Python calls
_IntSeeded: Final = cast("type[random.Random]", random.Random.__base__)


def _deal(
    rules: RuleSet,
    players: int,
    seed: int | str | None,
    deck: Sequence[Company | str] | None,
    nations: Sequence[Nation | str] | None,
    industries: Sequence[Industry | str] | None,
    first_auctioneer: int,
) -> _Setup:
    """The setup of a new game (``new_game``, whose arguments are checked but these):
    the deck, nations and tokens dealt from ``seed``, or those given, checked."""
    try:
        generator = _IntSeeded(seed) if type(seed) is int else random.Random(seed)
    except UnicodeEncodeError:  # a str seed is read as UTF-8: a lone surrogate is not
        raise InvalidArgument(f"a str seed must be valid Unicode, got {shown(seed)}") from None
    constants = _constants(rules, players)
    canonical = constants.companies
    draw = generator.getrandbits
    dealt_deck = _shuffled(canonical, draw)
    dealt_nations = _shuffled(constants.nations_in_play, draw)
    dealt_industries = _shuffled(constants.industries_in_play, draw)

    if deck is not None:
        if isinstance(deck, str | bytes) or not isinstance(deck, Iterable):
            raise InvalidArgument(f"deck must be a list of tiles, got {shown(deck)}")
        tiles = tuple(c if isinstance(c, Company) else Company.parse(c) for c in deck)
        if sorted(map(str, tiles)) != sorted(map(str, canonical)):
            raise InvalidArgument(
                f"deck must hold each of the {len(canonical)} tiles of the {players}-player "
                f"deck of {rules.id} exactly once"
            )
        dealt_deck = list(tiles)
    chosen_nations = _distinct(
        nations, "nations", Nation.parse, Nation, rules.nations(players), players
    )
    chosen_industries = _distinct(
        industries,
        "industries",
        Industry.parse,
        Industry,
        rules.industries(players),
        players,
    )
    setup = _Setup(
        ruleset=rules,
        players=players,
        deck=tuple(dealt_deck),
        nations=chosen_nations or tuple(dealt_nations[:players]),
        industries=chosen_industries or tuple(dealt_industries[:players]),
        first_auctioneer=first_auctioneer,
        constants=constants,
    )
    return setup
