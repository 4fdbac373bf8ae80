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

The phases of a sale (``Game.phase``) and the moves between them::

    OPENING --bid (the auctioneer's opening bid: _opened)--> BIDDING
    BIDDING --bid / bid_many (the last awaited bid: _close_round)-->
        REBIDDING            a tie: the tied seats rebid (_rebid)
        PEEKING              the sale ends (_finish_sale), its amount secret, 5 players
        OPENING              the sale ends, the next sale opens (_finish_sale)
        OVER                 the last sale ends (_finish_sale)
    REBIDDING --bid / bid_many (_close_round)--> REBIDDING, PEEKING, OPENING or OVER,
        as from BIDDING
    PEEKING --peek / decline_peek (the last answer: _answered)--> OPENING, or OVER
        after the last sale (peek_after_last_sale)

A last tile without auctioneer opens in BIDDING (every seat bids, no opening bid).
How the state is kept, shared and made, and where the secrecy rules live:
``docs/design/engine.md``; the secrecy rules themselves are in
:mod:`qe_rules.game._secrecy`, the state classes in :mod:`qe_rules.game._state`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NoReturn

from qe_rules._util.deprecation import renamed
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
from qe_rules.game._peeks import check_timed_peek, first_window, peeked_progress, timed_window
from qe_rules.game._refusals import amount_known, not_to_act, peeks_used
from qe_rules.game._secrecy import (
    known_events,
    peek_amount,
    seen_rounds,
)
from qe_rules.game._state import (
    _BIDDING,
    _KEPT_LIMITS,
    _NO_SEATS,
    _OPENING,
    _OVER,
    _PEEKING,
    _REBIDDING,
    _company_of,
    _deal,
    _interned_limits,
    _linked,
    _moves_of,
    _Node,
    _opening_sale,
    _over_sale,
    _PeekTarget,
    _Progress,
    _public_part,
    _PublicPart,
    _Raw,
    _raws,
    _replace_at,
    _Sale,
    _sale_facts,
    _sale_opened,
    _Setup,
    _unsold_gap,
    _zero_bids,  # a global of this module too: tests replace it here
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
from qe_rules.game.facts import amount_is_public, may_peek_at
from qe_rules.game.records import GameRecord, Move
from qe_rules.game.sales import (
    Award,
    BidLimits,
    Rebid,
    any_tie_leaves_last_tile_unsold,
    limits_of,
    settle,
)
from qe_rules.game.scoring import GameResult, Gap, PlayerRecord, score_holdings
from qe_rules.game.views import (
    Phase,
    PlayerView,
    PublicView,
    make_player_view,
    make_public_view,
)
from qe_rules.limits import MAX_BID, MAX_SEED_BITS, MAX_TEXT_LENGTH
from qe_rules.rules.model import PeekShows, PeekTiming, RuleSet, get_ruleset

__all__ = ["Game", "new_game", "replay"]


def _refused(limits: BidLimits, amount: int) -> bool:
    """Whether ``limits`` refuse the bid ``amount`` (an int): not
    :meth:`BidLimits.allows`, the one definition of a legal amount. Written out in the hot
    paths ``Game.bid`` and ``Game.bid_many``, where a call would cost a bid 7% (tests
    compare each copy with the definition); ``_check_bid`` says why."""
    return not limits.allows(amount)


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
        "_progress",  # what changes when a sale ends
        "_public",  # the cache of the fields every seat's view of this state shares
        "_sale",  # what changes when a bidding round opens or closes
        "_setup",  # what never changes
        "auctioneer",
        "is_over",
        "opening_bid",
        "phase",
        "to_act",
    )

    _setup: _Setup
    _progress: _Progress
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

    # Made by _make_game; immutable by _refuse_change (see "How a Game is made" below).

    def __init__(self) -> None:
        raise TypeError("use qe.new_game(...) or qe.replay(record) to make a Game")

    # ----------------------------------------------------------------- value semantics

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        if self._setup != other._setup:
            return False
        mine: _Node | None = self._log
        theirs: _Node | None = other._log
        _, _, count = self._log
        _, _, their_count = other._log
        if count != their_count:
            return False
        while mine is not theirs:  # games from one setup often share their first moves
            if mine is None or theirs is None:
                return False
            before, events, count = mine
            their_before, their_events, their_count = theirs
            if events != their_events or count != their_count:
                # the same events may be grouped into other moves (bid_many): compare all
                return _raws(mine) == _raws(theirs)
            mine, theirs = before, their_before
        return True

    def __hash__(self) -> int:
        _, events, count = self._log
        return hash((self._setup, count, events[-1]))

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
        parts = tuple(_moves_of(self._log))
        state = self._setup, self._progress, self._sale, self.to_act, self._open_bids, parts
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
        _, events, _ = self._log
        return tuple(raw[0](*raw[1:]) for raw in events)

    @property
    def gaps(self) -> tuple[Gap, ...]:
        """Rule gaps met so far: in play (e.g. a tile without a unique bid) and, at the
        end, in scoring."""
        if self._sale.phase is not _OVER:
            return self._progress.gaps
        return self._progress.gaps + self.result().gaps

    @property
    def holdings(self) -> tuple[tuple[Company, ...], ...]:
        """The tiles each seat has won so far (public)."""
        return self._progress.holdings

    def player_records(self) -> tuple[PlayerRecord, ...]:
        """Each seat's scoring input so far, as :func:`~qe_rules.score_game` reads it:
        nation, token, tiles, spend, zero-bid rounds."""
        setup, progress = self._setup, self._progress
        return tuple(
            PlayerRecord(
                setup.nations[seat],
                setup.industries[seat],
                progress.holdings[seat],
                progress.spent[seat],
                progress.zero_counts[seat],
            )
            for seat in range(setup.players)
        )

    def records(self) -> tuple[PlayerRecord, ...]:
        """Deprecated: :meth:`player_records` (the name says what it returns)."""
        renamed("Game.records()", "Game.player_records()")
        return self.player_records()

    def result(self) -> GameResult:
        """The final scoring, ``score_game(ruleset, player_records())``; raises
        :class:`~qe_rules.GameNotOver` before the end."""
        if self._sale.phase is not _OVER:
            raise GameNotOver(
                f"the game is not over: sale {self._sale.number + 1} of {self._setup.sales} "
                "is in progress"
            )
        setup, progress = self._setup, self._progress
        scored = progress.result
        if scored is None:  # scored on first use: the engine's records need no checking
            scored = progress.result = score_holdings(
                setup.ruleset,
                setup.nations,
                setup.industries,
                progress.holdings,
                progress.spent,
                progress.zero_counts,
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
        setup = self._setup
        if sale.phase is _OPENING:  # the seat awaited is the auctioneer
            limits = setup.opening_limits
            if amount < limits.minimum or amount == limits.forbidden or amount > MAX_BID:
                self._check_bid(seat, amount)  # as the next test: _refused, written out
            return self._opened(seat, amount)
        limits = sale.limits if seat != sale.auctioneer else self._due_limits(seat)
        # _refused(limits, amount), written out: the call would cost a bid 7%
        if amount < limits.minimum or amount == limits.forbidden or amount > MAX_BID:
            self._check_bid(seat, amount)
        event = (SecretBid, sale.number, seat, amount, sale.rebid)
        open_bids = self._open_bids + ((seat, amount),)  # noqa: RUF005
        awaiting = setup.without[awaiting][seat]
        if awaiting:
            _, _, count = log = self._log
            return _make_game(
                setup, self._progress, sale, awaiting, open_bids, (log, (event,), count + 1)
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
            bidding.limits = _interned_limits(*limits_of(setup.ruleset, amount, False, False))
            if len(kept) < _KEPT_LIMITS:
                kept[amount] = bidding
        event: _Raw = (OpeningBid, sale.number, seat, amount)
        _, _, count = log
        node = (log, (event,), count + 1)
        return _make_game(setup, self._progress, bidding, others, ((seat, amount),), node)

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
                if _refused(self._due_limits(seat), amount):
                    self._check_bid(seat, amount)
            elif amount < floor or amount == forbidden or amount > MAX_BID:  # _refused, inline
                self._check_bid(seat, amount)
            added.append((SecretBid, number, seat, amount, rebid))
        open_bids = self._open_bids + tuple(items)
        if len(items) < len(awaiting):  # every seat in bids is awaited, each once
            remaining = awaiting.difference(bids)
            log = self._log
            _, _, count = log
            node = (log, tuple(added), count + len(added))
            return _make_game(setup, self._progress, sale, remaining, open_bids, node)
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
        return _interned_limits(*limits_of(self._setup.ruleset, sale.opening, True, sale.rebid > 0))

    def _check_seat(self, seat: int) -> None:
        if type(seat) is not int or not 0 <= seat < self._setup.players:
            raise InvalidArgument(
                f"a seat is a whole number from 0 to {self._setup.players - 1}, got {shown(seat)}",
                code="not-a-seat",
                players=self._setup.players,
                value=shown(seat),
            )

    def _check_bid(self, seat: int, amount: int) -> None:
        self._check_seat(seat)
        if type(amount) is not int:
            raise InvalidArgument(
                f"a bid is a whole number (int), got {shown(amount)}",
                code="bid-not-a-whole-number",
                seat=seat,
                value=shown(amount),
            )
        if amount > MAX_BID:
            raise InvalidArgument(
                f"seat {seat}: a bid may be at most {MAX_BID} (qe_rules.limits.MAX_BID), "
                f"got {shown(amount)}",
                code="bid-too-large",
                seat=seat,
                maximum=MAX_BID,
            )
        sale = self._sale
        if seat not in self.to_act or sale.phase is _PEEKING:
            raise not_to_act(sale, self.to_act, self._open_bids, seat)
        limits = self._due_limits(seat)
        if amount < limits.minimum:
            what = _bid_name(sale, seat)
            raise IllegalAction(
                f"seat {seat}: {what} must be at least {limits.minimum}, got {shown(amount)}",
                code="bid-below-minimum",
                seat=seat,
                bid=what.removeprefix("the ").removeprefix("a "),
                minimum=limits.minimum,
                amount=amount,
            )
        if amount == limits.forbidden:
            what = _bid_name(sale, seat)
            raise IllegalAction(
                f"seat {seat}: {what} may not equal the opening bid ({amount}) under "
                f"{self._setup.ruleset.id}; bid any other whole number >= {limits.minimum}",
                code="bid-equals-opening-bid",
                seat=seat,
                bid=what.removeprefix("the ").removeprefix("a "),
                amount=amount,
                minimum=limits.minimum,
            )

    # ----------------------------------------------------------------- peeking

    def peek(self, seat: int, sale: int | None = None) -> Game:
        """Look at the winning amount of the sale just awarded: a seat's answer in the peek
        window (phase ``PEEKING``, 5 players, once a game). Under ``peek_timing``
        ``any-earlier-sale`` the peek may name any earlier ``sale`` (by default the latest
        the seat may see); under ``before-bids`` it is announced for the sale about to
        open, and shows its amount when that sale ends (``qe_rules.game._peeks``)."""
        if sale is not None or self._setup.ruleset.peek_timing is not PeekTiming.LAST_SALE:
            target = self._check_peek(seat, sale)
            after, event = peeked_progress(self._setup, self._progress, seat, target)
            return self._answered(seat, after, event)
        target = self._window_target(seat)
        progress = self._progress
        after = progress.evolve()
        after.peeks = _replace_at(progress.peeks, seat, progress.peeks[seat] + 1)
        after.peeked = _replace_at(progress.peeked, seat, progress.peeked[seat] | {target.sale})
        # the other seats' histories stay as they are
        if progress.cache:
            after.cache = {k: v for k, v in progress.cache.items() if k != seat}
        shown = target.amount
        if self._setup.peek_shows is not PeekShows.WINNING_AMOUNT:
            facts = next(f for f in reversed(progress.facts) if f.sale == target.sale)
            shown = peek_amount(facts, self._setup.peek_shows)
        return self._answered(seat, after, (Peeked, target.sale, seat, shown))

    def can_peek(self, seat: int, sale: int | None = None) -> bool:
        """Whether :meth:`peek` would be accepted."""
        try:
            self._check_peek(seat, sale)
        except RulesError:
            return False
        return True

    def verify_peek(self, seat: int, sale: int | None = None) -> None:
        """Raise the error :meth:`peek` would raise; return ``None`` if it is allowed."""
        self._check_peek(seat, sale)

    def decline_peek(self, seat: int) -> Game:
        """Answer the peek window without peeking: the seat keeps its peek for later.
        Allowed exactly when :meth:`peek` is."""
        target = self._window_target(seat)
        return self._answered(seat, self._progress, (PeekDeclined, target.sale, seat))

    def can_decline_peek(self, seat: int) -> bool:
        """Whether :meth:`decline_peek` would be accepted (the same as :meth:`can_peek`)."""
        return self.can_peek(seat)

    def verify_decline_peek(self, seat: int) -> None:
        """Raise the error :meth:`decline_peek` would raise; return ``None`` if allowed."""
        self._check_peek(seat)

    def _answered(self, seat: int, progress: _Progress, event: _Raw) -> Game:
        """The game after ``seat``'s answer in the peek window; the last answer closes it."""
        setup, sale, log = self._setup, self._sale, self._log
        _, _, count = log
        awaiting = setup.without[self.to_act][seat]
        if awaiting:
            return _make_game(setup, progress, sale, awaiting, (), (log, (event,), count + 1))
        if sale.number < setup.sales:
            next_sale, awaiting = _opening_sale(setup, sale.number, sale.peek_target)
            node = (log, (event,), count + 1)
            return _make_game(setup, progress, next_sale, awaiting, (), node)
        # a window after the last sale (peek_after_last_sale) closes into the end
        ended: _Raw = (GameEnded, setup.sales)
        over, awaiting = _over_sale(setup, sale.peek_target)
        return _make_game(setup, progress, over, awaiting, (), (log, (event, ended), count + 2))

    def _window_target(self, seat: int) -> _PeekTarget:
        """The sale ``seat`` may answer the peek window of (raises if it may not)."""
        sale = self._sale
        if sale.phase is _PEEKING and type(seat) is int and seat in self.to_act:
            target = sale.peek_target  # the window holds exactly who may peek
            assert target is not None
            return target
        return self._check_peek(seat)

    def _check_peek(self, seat: int, named: Any = None) -> _PeekTarget:
        self._check_seat(seat)
        setup, progress, sale = self._setup, self._progress, self._sale
        if sale.phase is _OVER:
            raise IllegalAction("the game is over; no more moves are possible", code="game-over")
        if not setup.peek:
            counts = list(setup.ruleset.peek_player_counts)
            raise IllegalAction(
                f"{setup.ruleset.id} has no peek with {setup.players} players"
                + (f" (only with {', '.join(map(str, counts))})" if counts else ""),
                code="no-peek",
                players=setup.players,
                peek_players=counts,
            )
        target = sale.peek_target
        if target is None:
            raise IllegalAction(
                "nothing to peek at: the peek window opens when a sale is awarded with a "
                "secret amount (not after the last sale) and closes when every seat that "
                "may peek has answered",
                code="no-peek-window",
            )
        if setup.ruleset.peek_timing is not PeekTiming.LAST_SALE:
            return check_timed_peek(setup, progress, sale, self.to_act, seat, named)
        where = f"sale {target.sale}"
        if named is not None and named != target.sale:
            raise IllegalAction(
                f"a peek looks at the sale just awarded ({where}), not {shown(named)}",
                code="peek-other-sale",
                sale=target.sale,
                named=shown(named),
            )
        refusal = amount_known(
            seat,
            target.sale,
            winner=target.winner,
            public=target.public,
            auctioneer=target.auctioneer,
            seen=target.sale in progress.peeked[seat],
        )
        if refusal is not None:
            raise refusal
        if progress.peeks[seat] >= setup.ruleset.peeks_per_player:
            raise peeks_used(seat, setup.ruleset.peeks_per_player)
        if sale.phase is not _PEEKING or seat not in self.to_act:
            raise IllegalAction(
                f"seat {seat} has declined to peek at {where}",
                code="peek-declined",
                seat=seat,
                sale=target.sale,
            )
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
        if bids.count(highest) == 1 and (  # the common case, settled without settle()
            sale.auctioneer is not None or not any_tie_leaves_last_tile_unsold(setup.ruleset, bids)
        ):
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
        # by position, in the order of the parameters' names: once per sale, and a call
        # with eight keywords would cost the end of a sale a twentieth more
        return self._finish_sale(bids, closed, winner, amount, fallback, ties, reason, added)

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
        rebidding.limits = _interned_limits(*limits_of(setup.ruleset, sale.opening, False, True))
        tie = (Tie, sale.number, outcome.seats, outcome.ties)
        log = self._log
        _, _, count = log
        node = (log, (*added, tie), count + len(added) + 1)
        return _make_game(setup, self._progress, rebidding, frozenset(outcome.seats), (), node)

    def _finish_sale(
        self,
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
        setup, sale, progress = self._setup, self._sale, self._progress
        number, auctioneer = sale.number, sale.auctioneer
        company = setup.deck[number]
        new = list(added)
        tie_log = sale.tie_log
        if ties > len(tie_log):  # a last tie, decided by the fallback or unsold
            highest = max(standing)
            final = tuple([seat for seat, bid in enumerate(standing) if bid == highest])
            tie_log = (*tie_log, final)
            new.append((Tie, number, final, ties))
        holdings, spent, gaps = progress.holdings, progress.spent, progress.gaps
        public = False
        if winner is not None:
            public = amount_is_public(setup.ruleset, winner, auctioneer)
            new.append((Awarded, number, company, winner, amount, public, fallback))
            held, paid = list(holdings), list(spent)
            held[winner] += (company,)
            paid[winner] += amount  # type: ignore[operator]  # set with the winner
            holdings, spent = tuple(held), tuple(paid)
        else:
            new.append((NotAwarded, number, company, reason))
            if reason != "last-tile-tie":
                gaps = (*gaps, _unsold_gap(number, company, ties, reason))
        zero_seats: tuple[int, ...] = ()
        zero_rounds, zero_counts = progress.zero_rounds, progress.zero_counts
        if setup.zero_bids and 0 in standing:
            zero_seats, scoring, zero_rounds, zero_counts = _zero_bids(
                setup,
                sale.round,
                standing,
                progress.zero_rounds,
                progress.zero_counts,
                closed,
                winner,
            )
            new.append((ZeroBids, number, sale.round, zero_seats, scoring))
        facts = _sale_facts(
            number,
            sale.round,
            company,
            auctioneer,
            sale.opening,
            tie_log,
            winner,
            amount,
            public,
            reason,
            zero_seats,
            closed,
            setup.players,
        )
        after = progress.after_sale(holdings, spent, zero_rounds, zero_counts, facts, gaps)
        # The peek window: the next sale waits for every seat that may peek at this one.
        # After the last sale a window opens only by peek_after_last_sale; the end state
        # then waits in phase PEEKING, and its last answer ends the game.
        following = number + 1
        peek_target = None
        window = _NO_SEATS
        if setup.facts.peek_windows[number]:
            peek_target = _PeekTarget(
                sale=number, auctioneer=auctioneer, winner=winner, amount=amount, public=public
            )
            if setup.ruleset.peek_timing is not PeekTiming.LAST_SALE:
                peek_target, window, shown = timed_window(setup, after, peek_target)
                new.extend(shown)
            elif winner is not None and not public:
                window = setup.facts.peek_window(
                    progress.peeks, lambda seat: may_peek_at(seat, winner, auctioneer, public)
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
        log = self._log
        _, _, count = log
        node = (log, tuple(new), count + len(new))
        return _make_game(setup, after, next_sale, awaiting, (), node)

    # ----------------------------------------------------------------- views and records

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now (see :mod:`qe_rules.game.views`)."""
        setup = self._setup
        if type(seat) is not int or not 0 <= seat < setup.players:
            self._check_seat(seat)
        public = self._public
        if public is None:  # the seats viewing one state share its public part
            public = _public_part(self._setup, self._progress, self._sale, self.to_act, self.result)
            _SET_PUBLIC(self, public)
        sale, progress = self._sale, self._progress
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
            seen_bids = seen_rounds(seat, sale.auctioneer, closed, setup.visibility)
        limits = None
        can_peek = False
        if seat in self.to_act:
            if sale.phase is _PEEKING:
                can_peek = True
            else:
                limits = sale.limits if seat != sale.auctioneer else self._due_limits(seat)
        cache = progress.cache
        history = None if cache is None else cache.get(seat)
        if history is None:
            history = progress.history(seat, setup.visibility, setup.peek_shows)
        return make_player_view(
            public,
            seat=seat,
            industry=setup.industries[seat],
            spent=progress.spent[seat],
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
            public = _public_part(self._setup, self._progress, self._sale, self.to_act, self.result)
            _SET_PUBLIC(self, public)
        return make_public_view(public, history=self._progress.public_history())

    def events_for(self, seat: int) -> tuple[Event, ...]:
        """The history as ``seat`` may know it, by the rules of :meth:`view`: a secret
        amount the seat may not know is ``None`` (another seat's bid, a winning amount,
        another seat's peek). The auctioneer, who sees every bid of its sale, gets the
        other seats' bids of a bidding round when the round is complete, just before its
        outcome.

        The stream is append-only: each event is shown as the seat knew it when it
        happened. A peek shows its amount in the seat's own ``Peeked`` event and rewrites
        no earlier event, so under ``peek_shows=all-bids`` the peeked sale's other bids
        stay ``None`` here while :meth:`view` shows them in its history
        (``qe_rules.game._secrecy``, ``docs/engine.md``).

        >>> import qe_rules as qe
        >>> game = qe.new_game("en", 4, seed=3).bid(0, 4).bid(1, 6)
        >>> [str(event) for event in game.events_for(2)[1:]]
        ['OpeningBid(sale=0, seat=0, amount=4)', 'SecretBid(sale=0, seat=1, amount=None, rebid=0)']
        """
        self._check_seat(seat)
        return tuple(known_events(_raws(self._log), seat, self._setup.visibility))

    def public_events(self) -> tuple[Event, ...]:
        """The history as a spectator may know it: every secret amount is ``None`` (the
        amount of an auctioneer's win is public)."""
        return tuple(known_events(_raws(self._log), None, self._setup.visibility))

    def moves(self) -> tuple[Move, ...]:
        """The moves made so far, in order. A ``Peeked`` event is a move when it opens its
        move's events (under ``before-bids`` the award of a sale adds what an announced
        peek shows, which is no move)."""
        moves = []
        named = self._setup.ruleset.peek_timing is PeekTiming.ANY_EARLIER_SALE
        for part in _moves_of(self._log):
            for index, raw in enumerate(part):
                kind = raw[0]
                if kind is OpeningBid:
                    _, _, seat, amount = raw
                    moves.append(Move("bid", seat, amount))
                elif kind is SecretBid:
                    _, _, seat, amount, _ = raw
                    moves.append(Move("bid", seat, amount))
                elif kind is Peeked and not index:
                    _, sale, seat, _ = raw
                    moves.append(Move("peek", seat, sale=sale if named else None))
                elif kind is PeekDeclined:
                    _, _, seat = raw
                    moves.append(Move("decline-peek", seat))
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
            return self.peek(move.seat, move.sale)
        if kind == "decline-peek":
            return self.decline_peek(move.seat)
        raise InvalidArgument(
            f"a move is 'bid', 'peek' or 'decline-peek', got {shown(getattr(move, 'kind', move))}"
        )


# --------------------------------------------------------------------------- how a Game is made
#
# A Game refuses every change (it is shared freely: moves return new games, copies return
# the game itself). Making one by ``Game(...)`` with twelve keyword arguments would cost
# about three times what setting its slots one by one costs, and every move makes a game,
# so the engine makes them in these few lines. They run at every move; each trick is
# measured in docs/performance.md and explained in docs/design/engine.md.


def _refuse_change(self: object, *_: object) -> NoReturn:
    """``Game.__setattr__`` and ``Game.__delattr__``: a game never changes."""
    raise AttributeError(f"{type(self).__name__} is immutable; moves return a new game")


Game.__setattr__ = _refuse_change  # type: ignore[method-assign]
Game.__delattr__ = _refuse_change  # type: ignore[method-assign]


class _GameUnderConstruction(Game):
    """A game being filled in by :func:`_make_game`: the same slots (so that its class can
    be switched to ``Game``, which refuses changes, once complete), with ordinary
    attribute setting."""

    __slots__ = ()
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__
    # made by a call of the class, which costs less than object.__new__(cls)
    __init__ = object.__init__


def _make_game(
    setup: _Setup,
    progress: _Progress,
    sale: _Sale,
    awaiting: frozenset[int],
    open_bids: tuple[tuple[int, int], ...],
    log: _Node,
) -> Game:
    """The game of these states (a module function: no lookup on the class per move)."""
    game: Game = _GameUnderConstruction()
    game._setup = setup
    game._progress = progress
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


# The lazy caches of a finished Game (its typed events, the public part of its views) are
# filled in on first use through the slots' own descriptors, which a refused
# ``__setattr__`` does not reach (object.__setattr__ would refuse too: Game overrides it).
_SET_EVENTS = Game.__dict__["_events"].__set__
_SET_PUBLIC = Game.__dict__["_public"].__set__


def _unpickled_game(
    setup: _Setup,
    progress: _Progress,
    sale: _Sale,
    awaiting: frozenset[int],
    open_bids: tuple[tuple[int, int], ...],
    parts: tuple[tuple[_Raw, ...], ...],
) -> Game:
    """A game from its pickled state: the event nodes are linked again, one per move."""
    return _make_game(setup, progress, sale, awaiting, open_bids, _linked(parts))


# --------------------------------------------------------------------------- helpers


def _seat_order(item: tuple[Any, Any]) -> tuple[int, Any]:
    """Sort key for ``(seat, amount)`` items: seats in order, malformed seats last."""
    seat = item[0]
    return (0, seat) if type(seat) is int else (1, repr(seat))


def _bid_name(sale: _Sale, seat: int) -> str:
    if sale.phase is _OPENING:
        return "the opening bid"
    if sale.rebid:
        return "a rebid"
    return "a secret bid"


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
    ``industries`` hold one per seat. A seed is a whole number of at most 1024 bits either
    way, or a string (the verifier deals its games from names such as ``"en-4-17"``).
    """
    rules = get_ruleset(ruleset)
    if type(players) is not int or players not in rules.player_counts:
        counts = ", ".join(map(str, rules.player_counts))
        raise InvalidArgument(f"{rules.id} is played by {counts} players, not {shown(players)}")
    if seed is not None and not (
        (type(seed) is int and seed.bit_length() <= MAX_SEED_BITS)
        or (type(seed) is str and len(seed) <= MAX_TEXT_LENGTH)
    ):
        raise InvalidArgument(
            f"a seed is a whole number (int) of at most {MAX_SEED_BITS} bits either way "
            "(qe_rules.limits.MAX_SEED_BITS), or a str of at "
            f"most {MAX_TEXT_LENGTH} characters (qe_rules.limits.MAX_TEXT_LENGTH), got "
            f"{shown(seed)}"
        )
    if type(first_auctioneer) is not int or not 0 <= first_auctioneer < players:
        raise InvalidArgument(
            f"first_auctioneer is a seat from 0 to {players - 1}, got {shown(first_auctioneer)}"
        )
    setup = _deal(rules, players, seed, deck, nations, industries, first_auctioneer)
    sale, awaiting = _opening_sale(setup, 0, *first_window(setup))
    start = setup.start  # shared by every game of the rule set and size
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
