"""The game engine: an immutable state machine that accepts exactly the legal moves.

>>> import qe_rules as qe
>>> game = qe.new_game("en", 4, seed=7)
>>> game.auctioneer, sorted(game.to_act), game.current_company
(0, [0], Company('US-AGR-4'))
>>> game = game.bid(0, 5)                      # the opening bid
>>> for seat, amount in [(1, 0), (2, 9), (3, 4)]:
...     game = game.bid(seat, amount)          # secret bids, in any order
>>> for event in game.last_events:
...     print(event)
SecretBid(sale=0, seat=3, amount=4, rebid=0)
Awarded(sale=0, company=Company('US-AGR-4'), seat=2, amount=9, public=False, fallback=False)
ZeroBids(sale=0, round=0, seats=(1,), scoring=(1,))
SaleOpened(sale=1, round=0, company=Company('JP-AGR-3'), auctioneer=1)
>>> game.auctioneer, game.view(1).holdings[2]
(1, (Company('US-AGR-4'),))

Every move returns a new :class:`Game`; an illegal move raises
:class:`~qe_rules.IllegalAction` (a malformed argument :class:`~qe_rules.InvalidArgument`)
and changes nothing. Each move has ``can_*`` (a bool) and ``verify_*`` (raises the error
the move would raise).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Final, NamedTuple, NoReturn, cast

from qe_rules._util.display import svg_of
from qe_rules.components import Company, Industry, Nation
from qe_rules.errors import (
    GameNotOver,
    IllegalAction,
    InvalidArgument,
    InvalidRecord,
    RulesError,
    shown,
)
from qe_rules.game.events import (
    Awarded,
    Event,
    GameEnded,
    NotAwarded,
    OpeningBid,
    PeekDeclined,
    Peeked,
    SaleOpened,
    SecretBid,
    Tie,
    ZeroBids,
)
from qe_rules.game.records import GameRecord, Move
from qe_rules.game.sales import Award, BidLimits, Rebid, limits_of, scoring_zero_bids, settle
from qe_rules.game.scoring import GameResult, Gap, PlayerRecord, score_holdings
from qe_rules.game.views import (
    PUBLIC_FIELDS,
    Phase,
    PlayerView,
    PublicView,
    SaleView,
    make_player_view,
    make_public_view,
    make_sale_view,
    make_sale_views,
)
from qe_rules.limits import MAX_BID
from qe_rules.rules.model import RULESETS, PeekShows, RuleSet, get_ruleset

__all__ = ["Game", "new_game", "replay"]

_OPENING, _BIDDING, _REBIDDING, _OVER = Phase.OPENING, Phase.BIDDING, Phase.REBIDDING, Phase.OVER
_PEEKING = Phase.PEEKING
_NO_SEATS: Final[frozenset[int]] = frozenset()


# --------------------------------------------------------------------------- internal state


class _Constants:
    """What every game of one rule set and player count shares, derived once
    (``_constants``): the fields of :class:`_Setup` that follow from the rules."""

    __slots__ = (
        "companies",
        "everyone",
        "first_limits",
        "industries_in_play",
        "last_tile",
        "nations_in_play",
        "no_bids",
        "opening_limits",
        "opening_seats",
        "others",
        "peek",
        "round_of",
        "rounds",
        "sales",
        "shared_sales",
        "singletons",
        "start_table",
        "without",
        "zero_bids",
    )

    sales: int
    last_tile: bool
    zero_bids: bool
    peek: bool
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
    start_table: _Table  # the table before the first sale (shared: it never changes)
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
        self.first_auctioneer = first_auctioneer
        if constants is None:
            constants = _constants(ruleset, players)
        self.companies = constants.companies
        self.everyone = constants.everyone
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
        self.round_of = constants.round_of
        self.rounds = constants.rounds
        self.sales = constants.sales
        self.singletons = constants.singletons
        self.start_table = constants.start_table
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
    closed: tuple[tuple[tuple[int, int], ...], ...]  # each round as its bids came (_by_seat)
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
                amount=self.amount if self.public else None,
                my_bids=(),
                bids=(),
                peeked=False,
            )
        return view

    def view_for(self, seat: int, sees_all: bool, peeked: bool, shows_all: bool) -> SaleView:
        """The sale as ``seat`` knows it."""
        view = self.all_views(sees_all)[seat]
        if peeked:
            return self.peeked_view(view, shows_all)
        return view

    def peeked_view(self, view: SaleView, shows_all: bool) -> SaleView:
        """``view`` after a peek: the winning amount, and with ``shows_all``
        (``peek_shows`` all-bids) every bid of the sale."""
        if shows_all:
            return view._replace(amount=self.amount, bids=_by_seat(self.closed), peeked=True)
        return view._replace(amount=self.amount, peeked=True)

    def all_views(self, sees_all: bool) -> list[SaleView]:
        """The sale as each seat knows it (before any peek), made on first use."""
        if self.views is not None:
            return self.views
        seats, winner, amount = self.seats, self.winner, self.amount
        mine: list[tuple[int, ...]] = [()] * seats
        closed = self.closed
        if len(closed) == 1:  # most sales: a seat bid at most once
            for who, bid in closed[0]:
                mine[who] = (bid,)
        else:
            for rnd in closed:
                for who, bid in rnd:
                    mine[who] += (bid,)
        amounts = [amount if self.public else None] * seats
        if winner is not None:
            amounts[winner] = amount
        bids: list[tuple[tuple[tuple[int, int], ...], ...]] = [()] * seats
        auctioneer = self.auctioneer
        if sees_all and auctioneer is not None:
            amounts[auctioneer] = amount
            bids[auctioneer] = _by_seat(closed)
        views = self.views = make_sale_views(
            self, amount=amounts, my_bids=mine, bids=bids, peeked=[False] * seats
        )
        return views


_FACT_FIELDS: Final = tuple(
    name for name in _SaleFacts.__slots__ if name not in ("views", "spectator")
)


class _Table:
    """Progress that changes only when a sale ends (or on a peek). Never changed once
    made, except for its caches: a move that changes it makes a new one."""

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
    # the cache of the table before the last sale ended, whose histories are one sale shorter
    cache: dict[int, tuple[SaleView, ...]] | None
    parent: dict[int, tuple[SaleView, ...]] | None

    def __getstate__(self) -> dict[str, Any]:
        """The progress without the caches (a pickle makes them again)."""
        return _fields_of(self, _TABLE_FIELDS)

    def __setstate__(self, state: dict[str, Any]) -> None:
        _set_fields(self, state, _TABLE_FIELDS, ("cache", "parent", "result"))

    def evolve(self) -> _Table:
        """A copy with empty caches, to assign the changed fields to, by name, before
        anyone else sees it (cheaper than a call with every field as a keyword argument)."""
        new = _Table()
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

    def history(self, seat: int, sees_all: bool, shows_all: bool = False) -> tuple[SaleView, ...]:
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
            views = last.all_views(sees_all)
            for other, before in parent.items():
                if other not in cache and len(before) == size and other >= 0:
                    view = views[other]
                    if number in peeked[other]:
                        view = last.peeked_view(view, shows_all)
                    cache[other] = before + (view,)  # noqa: RUF005 (faster than unpacking)
            found = cache.get(seat)
            if found is not None:
                return found
        found = tuple(f.view_for(seat, sees_all, f.sale in peeked[seat], shows_all) for f in facts)
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


_SPECTATOR: Final = -1  # the key of a spectator's history in a table's cache
_TABLE_FIELDS: Final = tuple(
    name for name in _Table.__slots__ if name not in ("cache", "parent", "result")
)


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
    # the finished bidding rounds, each as its bids came (in seat order: ``_by_seat``)
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


def _frozen_setattr(self: object, name: str, value: object) -> NoReturn:
    raise AttributeError(f"{type(self).__name__} is immutable; moves return a new game")


def _frozen_delattr(self: object, name: str) -> NoReturn:
    raise AttributeError(f"{type(self).__name__} is immutable; moves return a new game")


_Raw = tuple[Any, ...]  # an event as (event class, *arguments)
# The events of a game: one node per move, (previous node, the move's events, how many
# events in all), so that a move adds a node instead of copying the history.
_Node = tuple[Any, tuple[_Raw, ...], int]


def _raws(node: _Node | None) -> list[_Raw]:
    """Every event of a log, oldest first."""
    parts = []
    while node is not None:
        parts.append(node[1])
        node = node[0]
    return [raw for part in reversed(parts) for raw in part]


class _PublicPart:
    """The fields of :class:`PublicView` but its history, by the same names and of the
    same types: what every seat's view of one state shares, made once per state on the
    first view (``Game._public_part``)."""

    __slots__ = PUBLIC_FIELDS


# --------------------------------------------------------------------------- the game


class Game:
    """One game of QE at one moment. Immutable; compares by value.

    Make one with :func:`new_game` or :func:`replay`. Moves (:meth:`bid`, :meth:`peek`,
    :meth:`decline_peek`) return a new game; queries never change anything. ``copy.copy``
    and ``copy.deepcopy`` return the game itself (it cannot change), and a pickle holds its
    state, not a replay.

    Read-only attributes:

    ``to_act``
        The seats whose move is awaited: their bids, or in the peek window (phase
        ``PEEKING``) their answer, :meth:`peek` or :meth:`decline_peek`; empty when the
        game is over.
    ``phase``
        Where the current sale stands (a :class:`~qe_rules.Phase`).
    ``auctioneer``
        The current sale's auctioneer; ``None`` on a last tile without one, or at the end.
    ``opening_bid``
        The current sale's opening bid, once made.
    ``is_over``
        Whether the deck is empty.
    """

    # The state is held in the internal fields; the public ones are copied from them when
    # the game is made, so that a program reading them before every move makes no call.
    __slots__ = (
        "_events",  # the cache of the typed events
        "_log",  # the events, one node per move, made typed on demand
        "_open_bids",  # (seat, amount) of the bids of the bidding round in progress
        "_public",  # the cache of the fields every seat's view of this state shares
        "_sale",  # what changes when a bidding round opens or closes
        "_setup",  # what never changes
        "_table",  # what changes when a sale ends
        "auctioneer",
        "is_over",
        "opening_bid",
        "phase",
        "to_act",
    )

    _setup: _Setup
    _table: _Table
    _sale: _Sale
    _open_bids: tuple[tuple[int, int], ...]
    to_act: frozenset[int]
    phase: Phase
    auctioneer: int | None
    opening_bid: int | None
    is_over: bool
    _log: _Node
    _events: tuple[Event, ...] | None
    _public: _PublicPart | None

    __setattr__ = _frozen_setattr
    __delattr__ = _frozen_delattr

    def __init__(self) -> None:
        raise TypeError("use qe.new_game(...) or qe.replay(record) to make a Game")

    @staticmethod
    def _make(
        setup: _Setup,
        table: _Table,
        sale: _Sale,
        awaiting: frozenset[int],
        open_bids: tuple[tuple[int, int], ...],
        log: _Node,
    ) -> Game:
        game: Game = _GameUnderConstruction()
        game._setup = setup
        game._table = table
        game._sale = sale
        game.to_act = awaiting
        game.phase = sale.phase
        game.auctioneer = sale.auctioneer
        game.opening_bid = sale.opening
        game.is_over = sale.phase is _OVER
        game._open_bids = open_bids
        game._log = log
        game._events = None
        game._public = None
        game.__class__ = Game  # from now on changes are refused
        return game

    # ----------------------------------------------------------------- value semantics

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        if self._setup != other._setup:
            return False
        mine, theirs = self._log, other._log
        if mine[2] != theirs[2]:
            return False
        while mine is not theirs:  # games from one setup often share their first moves
            if mine is None or theirs is None:
                return False
            if mine[1] != theirs[1] or mine[2] != theirs[2]:
                # the same events may be grouped into other moves (bid_many): compare all
                return _raws(mine) == _raws(theirs)
            mine, theirs = mine[0], theirs[0]
        return True

    def __hash__(self) -> int:
        return hash((self._setup, self._log[2], self._log[1][-1]))

    def __repr__(self) -> str:
        sale = self._sale
        return (
            f"<Game {self.ruleset.id} {self.players} players, sale {sale.number}, "
            f"{sale.phase.value}, to act {sorted(self.to_act)}>"
        )

    def _repr_svg_(self) -> str:
        """What a spectator sees: the public part of the table, never a seat's secrets."""
        return svg_of(self.public_view())

    def _repr_html_(self) -> str:
        return f'<div class="qe-rules">{self._repr_svg_()}</div>'

    def __copy__(self) -> Game:
        return self  # immutable: a copy is the game itself

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # the state itself, without the caches and with the events as a list of moves:
        # no replay, and no deep recursion through the chain of event nodes
        parts = []
        node: _Node | None = self._log
        while node is not None:
            parts.append(node[1])
            node = node[0]
        parts.reverse()
        state = self._setup, self._table, self._sale, self.to_act, self._open_bids, tuple(parts)
        return (_unpickled_game, state)

    # ----------------------------------------------------------------- queries

    @property
    def ruleset(self) -> RuleSet:
        """The rule set this game is played by."""
        return self._setup.ruleset

    @property
    def players(self) -> int:
        """The number of players (seats 0 to players - 1)."""
        return self._setup.players

    @property
    def nations(self) -> tuple[Nation, ...]:
        """Each seat's nation."""
        return self._setup.nations

    @property
    def industries(self) -> tuple[Industry, ...]:
        """Each seat's secret industry token (referee knowledge: not for players)."""
        return self._setup.industries

    @property
    def deck(self) -> tuple[Company, ...]:
        """The tiles in the order they are sold (referee knowledge: not for players)."""
        return self._setup.deck

    @property
    def first_auctioneer(self) -> int:
        """The seat holding the first-auctioneer token."""
        return self._setup.first_auctioneer

    @property
    def current_company(self) -> Company | None:
        """The tile being sold; ``None`` at the end."""
        return _company_of(self._setup, self._sale)

    @property
    def sale(self) -> int:
        """The index of the current sale (from 0); the number of sales at the end."""
        return self._sale.number

    @property
    def round(self) -> int:
        """The current round (from 0): every seat is auctioneer once per round."""
        return self._sale.round

    @property
    def events(self) -> tuple[Event, ...]:
        """The whole history (referee knowledge, including secret bids)."""
        events = self._events
        if events is None:
            events = tuple(raw[0](*raw[1:]) for raw in _raws(self._log))
            _SET_EVENTS(self, events)
        return events

    @property
    def last_events(self) -> tuple[Event, ...]:
        """The events of the last move: what happened."""
        return tuple(raw[0](*raw[1:]) for raw in self._log[1])

    @property
    def gaps(self) -> tuple[Gap, ...]:
        """Rule gaps met so far: in play (e.g. a tile without a unique bid) and, at the
        end, in scoring."""
        if self._sale.phase is not _OVER:
            return self._table.gaps
        return self._table.gaps + self.result().gaps

    @property
    def holdings(self) -> tuple[tuple[Company, ...], ...]:
        """The tiles each seat has won so far (public)."""
        return self._table.holdings

    def records(self) -> tuple[PlayerRecord, ...]:
        """Each seat's scoring input so far: nation, token, tiles, spend, zero-bid rounds."""
        setup, table = self._setup, self._table
        return tuple(
            PlayerRecord(
                setup.nations[seat],
                setup.industries[seat],
                table.holdings[seat],
                table.spent[seat],
                table.zero_counts[seat],
            )
            for seat in range(setup.players)
        )

    def result(self) -> GameResult:
        """The final scoring, ``score_game(ruleset, records())``; raises
        :class:`~qe_rules.GameNotOver` before the end."""
        if self._sale.phase is not _OVER:
            raise GameNotOver(
                f"the game is not over: sale {self._sale.number + 1} of {self._setup.sales} "
                "is in progress"
            )
        setup, table = self._setup, self._table
        scored = table.result
        if scored is None:  # scored on first use: the engine's records need no checking
            scored = table.result = score_holdings(
                setup.ruleset,
                setup.nations,
                setup.industries,
                table.holdings,
                table.spent,
                table.zero_counts,
            )
        return scored

    # ----------------------------------------------------------------- bidding

    def bid(self, seat: int, amount: int) -> Game:
        """The bid that is due from ``seat``: the opening bid, a secret bid or a rebid."""
        sale = self._sale
        awaiting = self.to_act
        if (
            type(seat) is not int
            or type(amount) is not int
            or seat not in awaiting
            or sale.phase is _PEEKING
        ):
            self._check_bid(seat, amount)  # raises with the precise message
        setup, log = self._setup, self._log
        if sale.phase is _OPENING:  # the seat awaited is the auctioneer
            limits = setup.opening_limits
            if amount < limits.minimum or amount == limits.forbidden or amount > MAX_BID:
                self._check_bid(seat, amount)
            return self._opened(seat, amount)
        limits = sale.limits if seat != sale.auctioneer else self._due_limits(seat)
        if amount < limits.minimum or amount == limits.forbidden or amount > MAX_BID:
            self._check_bid(seat, amount)
        event = (SecretBid, sale.number, seat, amount, sale.rebid)
        open_bids = self._open_bids + ((seat, amount),)  # noqa: RUF005
        awaiting = setup.without[awaiting][seat]
        if awaiting:
            return _make_game(
                setup, self._table, sale, awaiting, open_bids, (log, (event,), log[2] + 1)
            )
        return self._close_round(open_bids, (event,))

    def _opened(self, seat: int, amount: int) -> Game:
        """The game after the auctioneer ``seat``'s opening bid of ``amount``."""
        setup, sale, log = self._setup, self._sale, self._log
        others = setup.others[seat]
        # the sale after the opening bid is the same in every game (the peek window of
        # the last sale, if any, is over): the shared sale before it keeps it
        shared = setup.openings[sale.number]
        kept = shared.after_opening
        assert kept is not None  # a shared sale that waits for an opening bid
        bidding = kept.get(amount)
        if bidding is None:
            bidding = shared.evolve()
            bidding.phase = _BIDDING
            bidding.opening = amount
            bidding.limits = _bid_limits(*limits_of(setup.ruleset, amount, False, False))
            if len(kept) < _KEPT_LIMITS:
                kept[amount] = bidding
        event: _Raw = (OpeningBid, sale.number, seat, amount)
        return _make_game(
            setup, self._table, bidding, others, ((seat, amount),), (log, (event,), log[2] + 1)
        )

    def bid_many(self, bids: Mapping[int, int]) -> Game:
        """Several bids at once, ``{seat: amount}``: the same game as :meth:`bid` for each
        in seat order, in one step. Secret bids are simultaneous, so a program that
        collects a bidding round's bids from the same state can place them together.
        Nothing changes if any bid is illegal.

        >>> import qe_rules as qe
        >>> game = qe.new_game("en", 4, seed=7).bid(0, 5)
        >>> game.bid_many({1: 0, 2: 9, 3: 4}) == game.bid(1, 0).bid(2, 9).bid(3, 4)
        True
        """
        if type(bids) is not dict and not isinstance(bids, Mapping):
            raise InvalidArgument(f"bids are a mapping of seat to amount, got {shown(bids)}")
        try:
            items = sorted(bids.items())
        except TypeError:  # a malformed seat: sorted apart, then reported
            items = sorted(bids.items(), key=_seat_order)
        sale, setup = self._sale, self._setup
        if sale.phase is _OPENING or sale.phase is _OVER or sale.phase is _PEEKING or not items:
            game = self
            for seat, amount in items:
                game = game.bid(seat, amount)
            return game
        awaiting, auctioneer = self.to_act, sale.auctioneer
        floor, forbidden = sale.limits.minimum, sale.limits.forbidden
        number, rebid = sale.number, sale.rebid
        added = []
        for seat, amount in items:
            if type(seat) is not int or type(amount) is not int or seat not in awaiting:
                self._check_bid(seat, amount)  # raises with the precise message
            if seat == auctioneer:
                limits = self._due_limits(seat)
                if amount < limits.minimum or amount == limits.forbidden or amount > MAX_BID:
                    self._check_bid(seat, amount)
            elif amount < floor or amount == forbidden or amount > MAX_BID:
                self._check_bid(seat, amount)
            added.append((SecretBid, number, seat, amount, rebid))
        open_bids = self._open_bids + tuple(items)
        if len(items) < len(awaiting):  # every seat in bids is awaited, each once
            remaining = awaiting.difference(bids)
            events = self._log
            log = (events, tuple(added), events[2] + len(added))
            return _make_game(setup, self._table, sale, remaining, open_bids, log)
        return self._close_round(open_bids, tuple(added))

    def can_bid_many(self, bids: Mapping[int, int]) -> bool:
        """Whether :meth:`bid_many` would accept these bids."""
        try:
            self.bid_many(bids)
        except RulesError:
            return False
        return True

    def verify_bid_many(self, bids: Mapping[int, int]) -> None:
        """Raise the error :meth:`bid_many` would raise; return ``None`` if it is legal."""
        self.bid_many(bids)

    def can_bid(self, seat: int, amount: int) -> bool:
        """Whether :meth:`bid` would accept this bid."""
        try:
            self._check_bid(seat, amount)
        except RulesError:
            return False
        return True

    def verify_bid(self, seat: int, amount: int) -> None:
        """Raise the error :meth:`bid` would raise; return ``None`` if the bid is legal."""
        self._check_bid(seat, amount)

    def bid_limits(self, seat: int) -> BidLimits | None:
        """What ``seat`` may bid now, or ``None`` if its bid is not awaited."""
        self._check_seat(seat)
        if seat not in self.to_act or self._sale.phase is _PEEKING:
            return None
        return self._due_limits(seat)

    def _due_limits(self, seat: int) -> BidLimits:
        """The limits of the bid due from ``seat``, an awaited seat."""
        sale = self._sale
        if seat != sale.auctioneer:
            return sale.limits  # the same for every other bidder of this bidding round
        if sale.phase is _OPENING:
            return self._setup.opening_limits
        return _bid_limits(*limits_of(self._setup.ruleset, sale.opening, True, sale.rebid > 0))

    def _check_seat(self, seat: int) -> None:
        if type(seat) is not int or not 0 <= seat < self._setup.players:
            raise InvalidArgument(
                f"a seat is a whole number from 0 to {self._setup.players - 1}, got {shown(seat)}"
            )

    def _check_bid(self, seat: int, amount: int) -> None:
        self._check_seat(seat)
        if type(amount) is not int:
            raise InvalidArgument(f"a bid is a whole number (int), got {shown(amount)}")
        if amount > MAX_BID:
            raise InvalidArgument(
                f"seat {seat}: a bid may be at most {MAX_BID} (qe_rules.limits.MAX_BID), "
                f"got {shown(amount)}"
            )
        sale = self._sale
        if seat not in self.to_act or sale.phase is _PEEKING:
            raise IllegalAction(self._why_not_to_act(seat))
        limits = self._due_limits(seat)
        if amount < limits.minimum:
            what = _bid_name(sale, seat)
            raise IllegalAction(
                f"seat {seat}: {what} must be at least {limits.minimum}, got {shown(amount)}"
            )
        if amount == limits.forbidden:
            what = _bid_name(sale, seat)
            raise IllegalAction(
                f"seat {seat}: {what} may not equal the opening bid ({amount}) under "
                f"{self._setup.ruleset.id}; bid any other whole number >= {limits.minimum}"
            )

    def _why_not_to_act(self, seat: int) -> str:
        sale, awaiting = self._sale, self.to_act
        if sale.phase is _OVER:
            return "the game is over; no more moves are possible"
        where = f"sale {sale.number}"
        if sale.phase is _PEEKING:
            target = sale.peek_target
            assert target is not None
            waiting = ", ".join(map(str, sorted(awaiting)))
            return (
                f"seat {seat} cannot bid now: the bidding of {where} waits until "
                f"seat{'s' if len(awaiting) > 1 else ''} {waiting} answer the peek at "
                f"sale {target.sale} (peek or decline_peek)"
            )
        if sale.phase is _OPENING:
            return (
                f"seat {seat} cannot bid now: {where} waits for the opening bid of seat "
                f"{sale.auctioneer}, the auctioneer"
            )
        waiting = ", ".join(map(str, sorted(awaiting)))
        if sale.phase is _REBIDDING and not any(s == seat for s, _ in self._open_bids):
            tied = ", ".join(map(str, sale.tie_log[-1]))
            return f"seat {seat} is not tied in {where}; only seats {tied} rebid (waiting for {waiting})"
        return (
            f"seat {seat} has already bid in this bidding round of {where}; waiting for "
            f"seat{'s' if len(awaiting) > 1 else ''} {waiting}"
        )

    # ----------------------------------------------------------------- peeking

    def peek(self, seat: int) -> Game:
        """Look at the winning amount of the sale just awarded: a seat's answer in the peek
        window (phase ``PEEKING``, 5 players, once a game)."""
        target = self._window_target(seat)
        table = self._table
        new_table = table.evolve()
        new_table.peeks = _replace_at(table.peeks, seat, table.peeks[seat] + 1)
        new_table.peeked = _replace_at(table.peeked, seat, table.peeked[seat] | {target.sale})
        # the other seats' histories stay as they are
        if table.cache:
            new_table.cache = {k: v for k, v in table.cache.items() if k != seat}
        return self._answered(seat, new_table, (Peeked, target.sale, seat, target.amount))

    def can_peek(self, seat: int) -> bool:
        """Whether :meth:`peek` would be accepted."""
        try:
            self._check_peek(seat)
        except RulesError:
            return False
        return True

    def verify_peek(self, seat: int) -> None:
        """Raise the error :meth:`peek` would raise; return ``None`` if it is allowed."""
        self._check_peek(seat)

    def decline_peek(self, seat: int) -> Game:
        """Answer the peek window without peeking: the seat keeps its peek for later.
        Allowed exactly when :meth:`peek` is."""
        target = self._window_target(seat)
        return self._answered(seat, self._table, (PeekDeclined, target.sale, seat))

    def can_decline_peek(self, seat: int) -> bool:
        """Whether :meth:`decline_peek` would be accepted (the same as :meth:`can_peek`)."""
        return self.can_peek(seat)

    def verify_decline_peek(self, seat: int) -> None:
        """Raise the error :meth:`decline_peek` would raise; return ``None`` if allowed."""
        self._check_peek(seat)

    def _answered(self, seat: int, table: _Table, event: _Raw) -> Game:
        """The game after ``seat``'s answer in the peek window; the last answer closes it."""
        setup, sale, log = self._setup, self._sale, self._log
        awaiting = setup.without[self.to_act][seat]
        if awaiting:
            return _make_game(setup, table, sale, awaiting, (), (log, (event,), log[2] + 1))
        if sale.number < setup.sales:
            next_sale, awaiting = _opening_sale(setup, sale.number, sale.peek_target)
            return _make_game(setup, table, next_sale, awaiting, (), (log, (event,), log[2] + 1))
        # a window after the last sale (peek_after_last_sale) closes into the end
        ended: _Raw = (GameEnded, setup.sales)
        over, awaiting = _over_sale(setup, sale.peek_target)
        return _make_game(setup, table, over, awaiting, (), (log, (event, ended), log[2] + 2))

    def _window_target(self, seat: int) -> _PeekTarget:
        """The sale ``seat`` may answer the peek window of (raises if it may not)."""
        sale = self._sale
        if sale.phase is _PEEKING and type(seat) is int and seat in self.to_act:
            target = sale.peek_target  # the window holds exactly who may peek
            assert target is not None
            return target
        return self._check_peek(seat)

    def _check_peek(self, seat: int) -> _PeekTarget:
        self._check_seat(seat)
        setup, table, sale = self._setup, self._table, self._sale
        if sale.phase is _OVER:
            raise IllegalAction("the game is over; no more moves are possible")
        if not setup.peek:
            raise IllegalAction(
                f"{setup.ruleset.id} has no peek with {setup.players} players"
                + (
                    f" (only with {', '.join(map(str, setup.ruleset.peek_player_counts))})"
                    if setup.ruleset.peek_player_counts
                    else ""
                )
            )
        target = sale.peek_target
        if target is None:
            raise IllegalAction(
                "nothing to peek at: the peek window opens when a sale is awarded with a "
                "secret amount (not after the last sale) and closes when every seat that "
                "may peek has answered"
            )
        where = f"sale {target.sale}"
        if target.winner is None:
            raise IllegalAction(f"nothing to peek at: {where} was not awarded")
        if target.public:
            raise IllegalAction(f"the amount of {where} is public: its auctioneer won it")
        if seat == target.auctioneer:
            raise IllegalAction(f"seat {seat} ran {where} and saw every bid")
        if seat == target.winner:
            raise IllegalAction(f"seat {seat} won {where} and knows the amount")
        if target.sale in table.peeked[seat]:
            raise IllegalAction(f"seat {seat} has already seen the amount of {where}")
        limit = setup.ruleset.peeks_per_player
        if table.peeks[seat] >= limit:
            raise IllegalAction(
                f"seat {seat} has used its {'peek' if limit == 1 else f'{limit} peeks'} "
                "for this game"
            )
        if sale.phase is not _PEEKING or seat not in self.to_act:
            raise IllegalAction(f"seat {seat} has declined to peek at {where}")
        return target

    # ----------------------------------------------------------------- sale resolution

    def _close_round(self, open_bids: tuple[tuple[int, int], ...], added: tuple[_Raw, ...]) -> Game:
        """The game once every awaited bid of the bidding round is in: a rebid after a
        tie, or the end of the sale."""
        setup, sale = self._setup, self._sale
        closed = sale.closed + (open_bids,)  # noqa: RUF005 (sorted by seat when shown)
        placed = list(sale.standing)
        highest = -1
        for seat, bid in open_bids:
            placed[seat] = bid
            if bid > highest:
                highest = bid
        bids: tuple[int, ...] = tuple(placed)  # type: ignore[arg-type]  # every seat has bid
        if len(open_bids) < len(bids):  # a rebid: the others' bids stand
            highest = max(bids)
        winner: int | None
        amount: int | None
        reason: str | None
        if bids.count(highest) == 1:  # the common case, settled without settle()
            winner = bids.index(highest)
            amount = highest
            fallback = False
            ties = sale.ties
            reason = None
        else:
            outcome = settle(
                setup.ruleset,
                bids,
                ties=sale.ties,
                history=closed,
                last_tile=sale.auctioneer is None,
                auctioneer=sale.auctioneer,
                previous_tie=sale.tie_log[-1] if sale.tie_log else (),
            )
            if isinstance(outcome, Rebid):
                return self._rebid(outcome, bids, closed, added)
            if isinstance(outcome, Award):
                winner, amount, fallback = outcome.seat, outcome.amount, outcome.fallback
                ties, reason = outcome.ties, None
            else:
                winner = amount = None
                fallback = False
                ties = outcome.ties
                reason = outcome.reason
        return self._finish_sale(
            standing=bids,
            closed=closed,
            winner=winner,
            amount=amount,
            fallback=fallback,
            ties=ties,
            reason=reason,
            added=added,
        )

    def _rebid(
        self,
        outcome: Rebid,
        bids: tuple[int, ...],
        closed: tuple[tuple[tuple[int, int], ...], ...],
        added: tuple[_Raw, ...],
    ) -> Game:
        """The game after a tie: the tied seats rebid."""
        setup, sale = self._setup, self._sale
        rebidding = sale.evolve()
        rebidding.phase = _REBIDDING
        rebidding.standing = bids
        rebidding.rebid = sale.rebid + 1
        rebidding.closed = closed
        rebidding.ties = outcome.ties
        rebidding.tie_log = (*sale.tie_log, outcome.seats)
        rebidding.limits = _bid_limits(*limits_of(setup.ruleset, sale.opening, False, True))
        tie = (Tie, sale.number, outcome.seats, outcome.ties)
        log = self._log
        node = (log, (*added, tie), log[2] + len(added) + 1)
        return _make_game(setup, self._table, rebidding, frozenset(outcome.seats), (), node)

    def _finish_sale(
        self,
        *,
        standing: tuple[int, ...],
        closed: tuple[tuple[tuple[int, int], ...], ...],
        winner: int | None,
        amount: int | None,
        fallback: bool,
        ties: int,
        reason: str | None,
        added: tuple[_Raw, ...],
    ) -> Game:
        """End the sale: award the tile to ``winner`` for ``amount``, or, when ``winner``
        is ``None``, leave it unsold for ``reason``."""
        setup, sale, table = self._setup, self._sale, self._table
        number, auctioneer = sale.number, sale.auctioneer
        company = setup.deck[number]
        new = list(added)
        tie_log = sale.tie_log
        if ties > len(tie_log):  # a last tie, decided by the fallback or unsold
            highest = max(standing)
            final = tuple([seat for seat, bid in enumerate(standing) if bid == highest])
            tie_log = (*tie_log, final)
            new.append((Tie, number, final, ties))
        holdings, spent, gaps = table.holdings, table.spent, table.gaps
        public = False
        if winner is not None:
            public = winner == auctioneer and setup.ruleset.auctioneer_win_public
            new.append((Awarded, number, company, winner, amount, public, fallback))
            held, paid = list(holdings), list(spent)
            held[winner] += (company,)
            paid[winner] += amount  # type: ignore[operator]  # set with the winner
            holdings, spent = tuple(held), tuple(paid)
        else:
            new.append((NotAwarded, number, company, reason))
            if reason != "last-tile-tie":
                gaps = (*gaps, _unsold_gap(number, company, ties, reason))
        zero_rounds, zero_counts = table.zero_rounds, table.zero_counts
        zero_seats: tuple[int, ...] = ()
        if setup.zero_bids and 0 in standing:
            zero_seats, scoring, zero_rounds, zero_counts = _zero_bids(
                setup, sale.round, standing, zero_rounds, zero_counts, closed, winner
            )
            new.append((ZeroBids, number, sale.round, zero_seats, scoring))
        facts = _SaleFacts()
        facts.sale = number
        facts.round = sale.round
        facts.company = company
        facts.auctioneer = auctioneer
        facts.opening_bid = sale.opening
        facts.ties = tie_log
        facts.winner = winner
        facts.amount = amount
        facts.public = public
        facts.reason = reason
        facts.zero_bidders = zero_seats
        facts.closed = closed
        facts.seats = setup.players
        facts.views = None
        facts.spectator = None
        # The peek window: the next sale waits for every seat that may peek at this one.
        # After the last sale a window opens only by peek_after_last_sale; the end state
        # then waits in phase PEEKING, and its last answer ends the game.
        following = number + 1
        peek_target = None
        window = _NO_SEATS
        if setup.peek and (following < setup.sales or setup.ruleset.peek_after_last_sale):
            peek_target = _PeekTarget(
                sale=number, auctioneer=auctioneer, winner=winner, amount=amount, public=public
            )
            if winner is not None and not public:
                limit, used = setup.ruleset.peeks_per_player, table.peeks
                window = frozenset(
                    [
                        other
                        for other in range(setup.players)
                        if other != auctioneer and other != winner and used[other] < limit
                    ]
                )
        if following < setup.sales:
            if peek_target is None:  # the next sale as every game has it
                next_sale, awaiting = setup.openings[following], setup.openings_await[following]
            else:
                next_sale, awaiting = _opening_sale(setup, following, peek_target, window)
            new.append(
                (
                    SaleOpened,
                    following,
                    next_sale.round,
                    setup.deck[following],
                    next_sale.auctioneer,
                )
            )
        else:
            next_sale, awaiting = _over_sale(setup, peek_target, window)
            if not window:  # else the game ends when the window closes
                new.append((GameEnded, setup.sales))
        new_table = _Table()
        new_table.holdings = holdings
        new_table.spent = spent
        new_table.zero_rounds = zero_rounds
        new_table.zero_counts = zero_counts
        new_table.peeks = table.peeks
        new_table.peeked = table.peeked
        new_table.facts = table.facts + (facts,)  # noqa: RUF005 (faster than unpacking)
        new_table.gaps = gaps
        new_table.result = None
        new_table.cache = None
        new_table.parent = table.cache  # the histories one sale shorter
        log = self._log
        node = (log, tuple(new), log[2] + len(new))
        return _make_game(setup, new_table, next_sale, awaiting, (), node)

    # ----------------------------------------------------------------- views and records

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now (see :mod:`qe_rules.game.views`)."""
        setup = self._setup
        if type(seat) is not int or not 0 <= seat < setup.players:
            self._check_seat(seat)
        public = self._public
        if public is None:  # the seats viewing one state share its public part
            public = self._public_part()
            _SET_PUBLIC(self, public)
        sale, table, rules = self._sale, self._table, setup.ruleset
        closed, open_bids = sale.closed, self._open_bids
        my_bids: tuple[int, ...] = ()
        for who, amount in open_bids:  # a seat bids at most once in a bidding round
            if who == seat:
                my_bids = (amount,)
                break
        seen_bids: tuple[tuple[tuple[int, int], ...], ...] = ()
        if closed:
            earlier = tuple([amount for rnd in closed for who, amount in rnd if who == seat])
            my_bids = earlier + my_bids
            if seat == sale.auctioneer and rules.auctioneer_sees_all_bids:
                seen_bids = _by_seat(closed)
        limits = None
        can_peek = False
        if seat in self.to_act:
            if sale.phase is _PEEKING:
                can_peek = True
            else:
                limits = sale.limits if seat != sale.auctioneer else self._due_limits(seat)
        cache = table.cache
        history = None if cache is None else cache.get(seat)
        if history is None:
            history = table.history(
                seat, rules.auctioneer_sees_all_bids, rules.peek_shows is PeekShows.ALL_BIDS
            )
        return make_player_view(
            public,
            seat=seat,
            industry=setup.industries[seat],
            spent=table.spent[seat],
            my_bids=my_bids,
            seen_bids=seen_bids,
            limits=limits,
            can_peek=can_peek,
            history=history,
        )

    def views(self, seats: Iterable[int] | None = None) -> tuple[PlayerView, ...]:
        """The views of several seats (all of them by default), in the order given, from
        this same state: what a server sends its players. Each is :meth:`view` of its
        seat; they share the state's public part."""
        if seats is None:
            return tuple([self.view(seat) for seat in range(self._setup.players)])
        if not isinstance(seats, Iterable) or isinstance(seats, str | bytes):
            raise InvalidArgument(f"seats are an iterable of seat numbers, got {shown(seats)}")
        return tuple([self.view(seat) for seat in seats])

    def public_view(self) -> PublicView:
        """What someone watching the table knows now (see :mod:`qe_rules.game.views`): the
        public fields of every seat's view, and the finished sales with their public
        amounts only.

        >>> import qe_rules as qe
        >>> game = qe.new_game("en", 4, seed=3).bid(0, 4).bid(1, 6).bid(2, 0).bid(3, 2)
        >>> spectator = game.public_view()
        >>> spectator.history[0].winner, spectator.history[0].amount, spectator.sale
        (1, None, 1)
        """
        public = self._public
        if public is None:
            public = self._public_part()
            _SET_PUBLIC(self, public)
        return make_public_view(public, history=self._table.public_history())

    def events_for(self, seat: int) -> tuple[Event, ...]:
        """The history as ``seat`` may know it, by the rules of :meth:`view`: a secret
        amount the seat may not know is ``None`` (another seat's bid, a winning amount,
        another seat's peek). The auctioneer, who sees every bid of its sale, gets the
        other seats' bids of a bidding round when the round is complete, just before its
        outcome.

        >>> import qe_rules as qe
        >>> game = qe.new_game("en", 4, seed=3).bid(0, 4).bid(1, 6)
        >>> [str(event) for event in game.events_for(2)[1:]]
        ['OpeningBid(sale=0, seat=0, amount=4)', 'SecretBid(sale=0, seat=1, amount=None, rebid=0)']
        """
        self._check_seat(seat)
        sees_all = self._setup.ruleset.auctioneer_sees_all_bids
        return tuple(_known_events(_raws(self._log), seat, sees_all))

    def public_events(self) -> tuple[Event, ...]:
        """The history as a spectator may know it: every secret amount is ``None`` (the
        amount of an auctioneer's win is public)."""
        return tuple(_known_events(_raws(self._log), None, False))

    def _public_part(self) -> Any:
        """The fields of a view that are the same for every seat."""
        setup, table, sale = self._setup, self._table, self._sale
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
        part.remaining = 0 if over else setup.sales - sale.number - 1
        part.to_act = self.to_act
        part.opening_bid = sale.opening
        part.tied = sale.tie_log[-1] if sale.phase is _REBIDDING else ()
        part.ties = sale.ties
        part.holdings = table.holdings
        part.zero_bid_rounds = table.zero_counts
        part.peeks_used = table.peeks
        part.industries = setup.industries if over else None
        part.result = self.result() if over else None
        return part

    def moves(self) -> tuple[Move, ...]:
        """The moves made so far, in order."""
        moves = []
        for raw in _raws(self._log):
            kind = raw[0]
            if kind is OpeningBid or kind is SecretBid:
                moves.append(Move("bid", raw[2], raw[3]))
            elif kind is Peeked:
                moves.append(Move("peek", raw[2]))
            elif kind is PeekDeclined:
                moves.append(Move("decline-peek", raw[2]))
        return tuple(moves)

    def to_record(self, metadata: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The setup and the moves as JSON types; :func:`replay` reads it back.
        ``metadata`` is free JSON data kept in the record (players' ``names``, a
        ``date``, an ``event``); it is no part of the game."""
        setup = self._setup
        return GameRecord(
            ruleset=setup.ruleset,
            players=setup.players,
            deck=setup.deck,
            nations=setup.nations,
            industries=setup.industries,
            first_auctioneer=setup.first_auctioneer,
            moves=self.moves(),
            metadata=metadata or {},
        ).to_dict()

    def apply(self, move: Move) -> Game:
        """Play a :class:`~qe_rules.game.records.Move`: a bid, a peek or a declined peek."""
        if not isinstance(move, Move):
            raise InvalidArgument(f"a move is a qe_rules.Move, got {shown(move)}")
        kind = move.kind
        if kind == "bid" and move.amount is not None:  # a Move bid always has one
            return self.bid(move.seat, move.amount)
        if kind == "peek":
            return self.peek(move.seat)
        if kind == "decline-peek":
            return self.decline_peek(move.seat)
        raise InvalidArgument(
            f"a move is 'bid', 'peek' or 'decline-peek', got {shown(getattr(move, 'kind', move))}"
        )


class _GameUnderConstruction(Game):
    """A game being filled in by ``Game._make``: the same slots, with ordinary attribute
    setting, and its class switched to ``Game`` once complete."""

    __slots__ = ()
    __setattr__ = object.__setattr__  # type: ignore[assignment]
    __delattr__ = object.__delattr__  # type: ignore[assignment]
    # made by a call of the class, which costs less than object.__new__(cls)
    __init__ = object.__init__


_make_game = Game._make  # a module function: called without looking it up on the class
_SET_EVENTS = Game.__dict__["_events"].__set__  # the lazy caches of a finished Game
_SET_PUBLIC = Game.__dict__["_public"].__set__


def _unpickled_game(
    setup: _Setup,
    table: _Table,
    sale: _Sale,
    awaiting: frozenset[int],
    open_bids: tuple[tuple[int, int], ...],
    parts: tuple[tuple[_Raw, ...], ...],
) -> Game:
    """A game from its pickled state: the event nodes are linked again, one per move."""
    node: Any = None
    total = 0
    for part in parts:
        total += len(part)
        node = (node, part, total)
    return _make_game(setup, table, sale, awaiting, open_bids, node)


def _known_events(raws: Iterable[_Raw], seat: int | None, sees_all: bool) -> Iterator[Event]:
    """The events of a game as ``seat`` (``None``: a spectator) may know them, by the
    rules of the views: own bids, the bids of a sale the seat runs (where the rule set
    shows them, once a bidding round is complete), a winning amount the seat bid, ran,
    peeked at or that is public; everything else without its amount."""
    runs = False  # whether ``seat`` runs the sale in progress and sees its bids
    held: list[Event] = []  # the bids the auctioneer sees when the bidding round is over
    for raw in raws:
        kind = raw[0]
        if kind is SecretBid:
            bidder = raw[2]
            if bidder == seat:
                yield SecretBid(*raw[1:])
            elif runs:
                held.append(SecretBid(*raw[1:]))
            else:
                yield SecretBid(raw[1], bidder, None, raw[4])
            continue
        if kind is SaleOpened:
            runs = sees_all and seat is not None and raw[4] == seat
        elif held and (kind is Tie or kind is Awarded or kind is NotAwarded):
            yield from held  # the bidding round is complete
            held = []
        if kind is Awarded:
            _, sale, company, winner, amount, public, fallback = raw
            if not (public or winner == seat or runs):
                amount = None
            yield Awarded(sale, company, winner, amount, public, fallback)
        elif kind is Peeked and raw[2] != seat:
            yield Peeked(raw[1], raw[2], None)
        else:
            yield kind(*raw[1:])


# --------------------------------------------------------------------------- helpers

_LIMITS: Final[dict[tuple[int, int | None], BidLimits]] = {}
_KEPT_LIMITS: Final = 64  # the opening bids whose sale a shared sale keeps


def _bid_limits(minimum: int, forbidden: int | None) -> BidLimits:
    """``BidLimits(minimum, forbidden)``, shared between views (it is immutable)."""
    key = (minimum, forbidden)
    found = _LIMITS.get(key)
    if found is None:
        found = BidLimits(minimum, forbidden)
        if len(_LIMITS) < 4096:
            _LIMITS[key] = found
    return found


def _by_seat(
    rounds: tuple[tuple[tuple[int, int], ...], ...],
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Bidding rounds with each round's ``(seat, amount)`` bids in seat order, as views
    show them (the engine keeps a round's bids in the order they came)."""
    if len(rounds) == 1:  # most sales: one round, without a comprehension's call
        return (tuple(sorted(rounds[0])),)
    return tuple([tuple(sorted(rnd)) for rnd in rounds])


def _seat_order(item: tuple[Any, Any]) -> tuple[int, Any]:
    """Sort key for ``(seat, amount)`` items: seats in order, malformed seats last."""
    seat = item[0]
    return (0, seat) if type(seat) is int else (1, repr(seat))


def _replace_at(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _bid_name(sale: _Sale, seat: int) -> str:
    if sale.phase is _OPENING:
        return "the opening bid"
    if sale.rebid:
        return "a rebid"
    return "a secret bid"


def _shared_sales(constants: _Constants, players: int, first: int) -> tuple[_Sale, ...]:
    """Each sale before its first bid (the opening bid, or on a last tile without
    auctioneer everyone's secret bid) and without a peek window, and after them the end
    of the game, for games whose first auctioneer is ``first``."""
    sales = []
    for index in range(constants.sales + 1):
        sale = _Sale()
        sale.number = index
        sale.round = constants.round_of[min(index, constants.sales - 1)]
        sale.auctioneer = (first + index) % players
        sale.phase = _OPENING
        sale.after_opening = {}
        if index == constants.sales:  # the end of the game
            sale.auctioneer, sale.phase, sale.after_opening = None, _OVER, None
        elif constants.last_tile and index == constants.sales - 1:
            sale.auctioneer, sale.phase, sale.after_opening = None, _BIDDING, None
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


def _sale_opened(setup: _Setup, sale: _Sale) -> _Raw:
    return (SaleOpened, sale.number, sale.round, setup.deck[sale.number], sale.auctioneer)


def _distinct(
    values: Iterable[Any] | None,
    what: str,
    parse: Any,
    kind: type,
    allowed: Sequence[Any],
    count: int,
) -> tuple[Any, ...] | None:
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


_CONSTANTS: Final[dict[tuple[RuleSet, int], _Constants]] = {}


def _constants(rules: RuleSet, players: int) -> _Constants:
    """The derived fields of ``_Setup``, the same for every game of a rule set and size
    (made once for each)."""
    key = (rules, players)
    found = _CONSTANTS.get(key)
    if found is None:
        found = _Constants()
        found.sales = sales = len(rules.companies(players))
        found.last_tile = rules.has_last_tile_rule(players)
        found.zero_bids = rules.has_zero_bid_points(players)
        found.peek = rules.has_peek(players)
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
        found.rounds = rounds = rules.rounds(players)
        # a last tile without auctioneer belongs to the last round
        found.round_of = tuple(min(index // players, rounds - 1) for index in range(sales))
        found.companies = rules.companies(players)
        found.nations_in_play = rules.nations(players)
        found.industries_in_play = rules.industries(players)
        found.opening_limits = _bid_limits(*limits_of(rules, None, True, False))
        found.first_limits = _bid_limits(*limits_of(rules, None, False, False))
        found.shared_sales = tuple(_shared_sales(found, players, first) for first in range(players))
        found.opening_seats = tuple(
            tuple(
                found.everyone if sale.auctioneer is None else found.singletons[sale.auctioneer]
                for sale in shared
            )
            for shared in found.shared_sales
        )
        empty: tuple[tuple[Any, ...], ...] = ((),) * players
        zeros = (0,) * players
        start = found.start_table = _Table()
        start.holdings = empty
        start.spent = zeros
        start.zero_rounds = empty
        start.zero_counts = zeros
        start.peeks = zeros
        start.peeked = (_NO_SEATS,) * players
        start.facts = ()
        start.gaps = ()
        start.result = start.cache = start.parent = None
        _CONSTANTS[key] = found
    return found


def new_game(
    ruleset: RuleSet | str,
    players: int,
    *,
    seed: int | str | None = None,
    deck: Sequence[Company | str] | None = None,
    nations: Sequence[Nation | str] | None = None,
    industries: Sequence[Industry | str] | None = None,
    first_auctioneer: int = 0,
) -> Game:
    """Set up a game.

    ``ruleset`` is a :class:`~qe_rules.RuleSet` or a built-in id. Without ``deck``,
    ``nations`` or ``industries`` these are dealt at random from ``seed`` (the same seed
    gives the same game); given, they are checked and used as they are: ``deck`` is the
    order of sale (a permutation of ``ruleset.companies(players)``), ``nations`` and
    ``industries`` hold one per seat.
    """
    rules = get_ruleset(ruleset)
    if type(players) is not int or players not in rules.player_counts:
        counts = ", ".join(map(str, rules.player_counts))
        raise InvalidArgument(f"{rules.id} is played by {counts} players, not {shown(players)}")
    if seed is not None and type(seed) is not int and not isinstance(seed, int | str):
        raise InvalidArgument(f"a seed is an int or a str, got {shown(seed)}")
    if type(first_auctioneer) is not int or not 0 <= first_auctioneer < players:
        raise InvalidArgument(
            f"first_auctioneer is a seat from 0 to {players - 1}, got {shown(first_auctioneer)}"
        )
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
    sale, awaiting = _opening_sale(setup, 0, None)
    start = setup.start_table  # shared by every game of the rule set and size
    return _make_game(setup, start, sale, awaiting, (), (None, (_sale_opened(setup, sale),), 1))


def replay(record: dict[str, Any] | GameRecord) -> Game:
    """Rebuild a game from ``Game.to_record()`` output, checking every move.

    Raises :class:`~qe_rules.InvalidRecord` (and no other exception) for a malformed
    record, naming the key or the move that failed.

    A version 1 record was written before the peek window was a turn: it has no
    ``decline-peek`` moves, and a peek could be made any time until the next bid. It
    replays with every seat still in the peek window when the next bid comes taken to
    decline, in seat order (the game then records those ``decline-peek`` moves).
    """
    data = record if isinstance(record, GameRecord) else GameRecord.from_dict(record)
    declines_unanswered = data.version == 1
    try:
        game = new_game(
            data.ruleset,
            data.players,
            deck=data.deck,
            nations=data.nations,
            industries=data.industries,
            first_auctioneer=data.first_auctioneer,
        )
    except RulesError as error:
        raise InvalidRecord(f"setup: {error}") from None
    for index, move in enumerate(data.moves):
        try:
            if declines_unanswered and game._sale.phase is _PEEKING and move.kind == "bid":
                for seat in sorted(game.to_act):  # a version 1 record: see the docstring
                    game = game.decline_peek(seat)
            game = game.apply(move)
        except RulesError as error:
            raise InvalidRecord(f"move {index} ({move}): {error}") from None
    return game
