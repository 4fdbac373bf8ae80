"""Games in lockstep: every game of a chunk plays sale ``s`` before any plays sale ``s + 1``.

The state is a few arrays per chunk. Each seat's bids are one contiguous row of a
``(seats, games)`` array; a bidding round's highest bid is a running maximum over the
seats, and the tied seats form a bit code looked up in small tables. Ties, rebids and the
tie fallback run on the tied games only. Scoring sums each seat's tiles with
``np.bincount`` and reads monopolization and diversification from the table the
reference scorer filled (:mod:`qe_rules.simulation.batch.compiled`).

Seats are played in rotated order: column 0 is each game's first auctioneer, so every
game of a chunk has the same auctioneer column at every sale. ``actual = (first +
column) % players`` maps a column back to its seat.

The randomness (:class:`Draws`) is :mod:`qe_rules.game.draws` computed for many games at
once: game ``i`` of a run with ``seed`` is dealt, and its agents draw, from ``(seed, i)``
alone, keyed by the sale, the seat and the number of bids the seat has made in the sale
(or the peek window). A game's draws are thus the same whatever the chunk size, whichever
other games are played, under whichever rule set, and on whichever engine: the reference
engine's :func:`qe_rules.simulation.play.play_game` plays game ``i`` with the same deal and
its built-in agents with the same draws.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from qe_rules.errors import InvalidArgument
from qe_rules.game import draws as keyed
from qe_rules.game.facts import endless_ties
from qe_rules.limits import ROUNDS_PER_SALE
from qe_rules.rules.model import PeekTiming
from qe_rules.simulation.batch import settling
from qe_rules.simulation.batch.agents import BatchAgent, BidAsk, PeekAsk
from qe_rules.simulation.batch.buffers import kept
from qe_rules.simulation.batch.compiled import (
    FALLBACK_NONE,
    FALLBACK_UNIQUE,
    GAP_ALL_OUT,
    GAP_DIVERSIFICATION_BEYOND,
    GAP_FALLBACK_TIED,
    GAP_MONOPOLIZATION_BEYOND,
    GAP_NATIONALIZATION_BEYOND,
    GAP_NO_UNIQUE,
    GAP_NO_UNTIED,
    GAP_TIE_AFTER,
    INDUSTRIES,
    CompiledRules,
)
from qe_rules.simulation.batch.knowledge import Knowledge
from qe_rules.simulation.batch.loops import compiled_loop

Bits32 = npt.NDArray[np.uint32]

__all__ = [
    "PLAY_GAPS",
    "SCORED_BY_SEAT",
    "Chunk",
    "Draws",
    "MoveLog",
    "play_chunk",
    "score_columns",
]

Ints = npt.NDArray[np.signedinteger[Any]]
Bids = Ints

PLAY_GAPS: Final = GAP_NO_UNTIED | GAP_NO_UNIQUE | GAP_FALLBACK_TIED
"""The gap bits met in play (a sale no fallback decides), not in scoring."""
# why a sale went unsold (the move log's and the gaps' codes)
UNSOLD_LAST_TILE, UNSOLD_UNTIED, UNSOLD_UNIQUE = 1, 2, 3


class Draws:
    """The random bits of games ``first`` to ``first + games`` of a run with ``seed``:
    :mod:`qe_rules.game.draws` on arrays, one element per game."""

    def __init__(self, seed: int, first: int, games: int, players: int, sales: int) -> None:
        self.seed = seed
        self.first = first
        self.games = games
        self.players = players
        self.sales = sales
        numbers = np.arange(first, first + games, dtype=np.uint64)
        words = np.uint64(keyed.run_key(seed)) + (numbers + np.uint64(1)) * _GOLDEN
        self.keys = keyed.mixed(words)  # each game's key
        # per seat, its agent seed's halves (``seat``): the draws' Weyl sequences
        self._high: Bits32 | None = None
        self._low: Bits32 | None = None

    def deal(self, deck: Ints, nations: Ints, tokens: Ints, first: Ints) -> None:
        """Per game (a row of each array): the deck order (``deck``, indices of the
        canonical deck), the order of the nations and of the tokens in play (each seat's
        is its place in that order) and the first auctioneer."""
        high, low = _halves(self.keys)
        _deal_loop(high, low, self.players, deck, nations, tokens, first)

    def seat(self, actual_seat: Ints) -> None:
        """Key the agents' draws to the seat each column holds in each game."""
        seats = actual_seat.astype(np.uint64)
        words = self.keys[None, :] + (seats + np.uint64(keyed.AGENT + 1)) * _GOLDEN
        high, low = _halves(keyed.mixed(words))
        # a draw at counter ``c`` starts from high + c * GOLDEN32; the seat is the counter's
        # lowest part (agent_counter), added once here
        high += actual_seat.astype(np.uint32) * _GOLDEN32
        self._high, self._low = high, low

    def first_round(self, sale: int) -> Bits32:
        """The bits of the opening and secret bids of ``sale``: ``(columns, games)``."""
        return self.every_column(sale, 0)

    def every_column(self, sale: int, number: int) -> Bits32:
        """The bits of every column's draw at ``sale`` after ``number`` bids in it:
        ``(columns, games)`` (an agent's draw at a moment no bid reaches, for instance)."""
        assert self._high is not None and self._low is not None
        drawn = np.empty(self._high.shape, dtype=np.uint32)
        _every_column_loop(self._high, self._low, (sale * keyed.COUNTER_BIDS + number) * 2, drawn)
        return drawn

    def bids(self, sale: int, columns: Ints, games: Ints, number: Ints) -> Bits32:
        """The bits of rebids at ``sale``, each of a column of ``columns`` in a game of
        ``games``, where it has made ``number`` bids in the sale (1 or more)."""
        assert self._high is not None and self._low is not None
        drawn = np.empty(len(games), dtype=np.uint32)
        counters = (sale * keyed.COUNTER_BIDS + number) * 2
        _entries_loop(self._high, self._low, columns, games, counters, drawn)
        return drawn

    def peek(self, sale: int, column: int, games: Ints) -> Bits32:
        """The bits of ``column``'s answer in the peek window whose views show ``sale``."""
        assert self._high is not None and self._low is not None
        drawn = np.empty(len(games), dtype=np.uint32)
        columns = np.full(len(games), column, dtype=np.int64)
        counters = np.full(len(games), sale * keyed.COUNTER_BIDS * 2 + 1, dtype=np.int64)
        _entries_loop(self._high, self._low, columns, games, counters, drawn)
        return drawn


def _halves(words: npt.NDArray[np.uint64]) -> tuple[Bits32, Bits32]:
    """The high and low 32 bits of each word."""
    return (words >> np.uint64(32)).astype(np.uint32), words.astype(np.uint32)


_mix32 = compiled_loop(keyed.mix32)


@compiled_loop
def _draw(high: int, low: int, counter: int) -> int:
    """:func:`qe_rules.game.draws.draw` of the key whose halves are ``high`` and ``low``."""
    return _mix32((high + counter * keyed.GOLDEN32) & keyed.MASK32 ^ low)


@compiled_loop
def _every_column_loop(high: Bits32, low: Bits32, counter: int, drawn: Bits32) -> None:
    """Each column's draw in each game (``(columns, games)``, the agent seeds' halves
    ``high`` and ``low``, the seat already added) at ``counter`` (an agent counter
    without the seat), into ``drawn``."""
    columns, games = high.shape
    for column in range(columns):
        for game in range(games):
            drawn[column, game] = _draw(
                int(high[column, game]), int(low[column, game]),
                counter * keyed.COUNTER_SEATS,
            )  # fmt: skip


@compiled_loop
def _entries_loop(
    high: Bits32, low: Bits32, columns: Ints, games: Ints, counters: Ints, drawn: Bits32
) -> None:
    """Draws of the agents whose seeds' halves are ``high`` and ``low`` (``(columns,
    games)``, the seat already added): each of a column of ``columns`` in a game of
    ``games`` at its counter of ``counters`` (an agent counter without the seat), into
    ``drawn``."""
    for entry in range(len(games)):
        column, game = columns[entry], games[entry]
        drawn[entry] = _draw(
            int(high[column, game]), int(low[column, game]),
            counters[entry] * keyed.COUNTER_SEATS,
        )  # fmt: skip


@compiled_loop
def _deal_loop(
    high: Bits32, low: Bits32, players: int, deck: Ints, nations: Ints, tokens: Ints, first: Ints
) -> None:
    """Per game (the halves of its key, ``high`` and ``low``), as
    :func:`qe_rules.game.draws.deal_order` and :func:`~qe_rules.game.draws.first_seat`
    deal: the order of the deck, of the nations and of the tokens (as wide as each array's
    rows), and the first auctioneer."""
    keys = np.empty(32, dtype=np.int64)
    for game in range(high.shape[0]):
        key_high, key_low = int(high[game]), int(low[game])
        for order, purpose in (
            (deck, keyed.DECK),
            (nations, keyed.NATIONS),
            (tokens, keyed.TOKENS),
        ):
            size = order.shape[1]
            for item in range(size):  # the sort keys, each unique (the item below)
                keys[item] = _draw(key_high, key_low, purpose | item) & ~31 | item
            for item in range(size):  # each item at its rank (no branch: twice as fast)
                rank = 0
                for other in range(size):
                    rank += keys[other] < keys[item]
                order[game, rank] = item
        first[game] = _draw(key_high, key_low, keyed.FIRST) * players >> 32


_GOLDEN: Final = np.uint64(keyed.GOLDEN)
_GOLDEN32: Final = np.uint32(keyed.GOLDEN32)


class MoveLog:
    """Every move of a chunk's games, for records: per sale, the first round's bids (the
    opening bid in the auctioneer's column), each rebid round's ``(games, seat codes,
    bids)``, and the peek window's seats and peekers."""

    def __init__(self) -> None:
        self.first: list[Ints] = []
        self.rebids: list[list[tuple[Ints, Ints, Ints]]] = []
        self.windows: list[Ints | None] = []
        self.peeked: list[Ints | None] = []
        # under peek_timing=before-bids: per sale, the window before its opening bid
        self.before_windows: list[Ints | None] = []
        self.before_peeked: list[Ints | None] = []
        # under peek_timing=any-earlier-sale: per sale, the sale each peek of its window
        # looks at (by column and game; -1 where the column did not peek)
        self.targets: dict[int, Ints] = {}


class Chunk:
    """The lockstep games of one chunk and, once played, their outcome by column.

    ``agents`` are one per seat of the table, or with ``by_column`` one per column (the
    same place after the first auctioneer in every game)."""

    def __init__(
        self,
        rules: CompiledRules,
        draws: Draws,
        agents: Sequence[BatchAgent],
        log: MoveLog | None,
        *,
        by_column: bool = False,
        spare: Chunk | None = None,
    ) -> None:
        self.rules = rules
        self.draws = draws
        self.games = games = draws.games
        self.players = players = rules.players
        # the arrays of a played chunk (``spare``), written in again where they fit
        self._arrays: dict[str, Any] = {} if spare is None else spare._arrays
        self.deck = self._array("deck", (games, rules.sales), np.int64, zeroed=False)
        self.first = self._array("first", (games,), np.int64, zeroed=False)
        nations = self._array("dealt nations", (games, len(rules.nations)), np.int64, False)
        tokens = self._array("dealt tokens", (games, len(rules.industries)), np.int64, False)
        draws.deal(self.deck, nations, tokens, self.first)
        self.actual_seat = (self.first[None, :] + np.arange(players)[:, None]) % players
        # the nations and tokens are dealt by seat; the chunk holds them by column
        self.nations = np.take_along_axis(nations[:, :players], self.actual_seat.T, axis=1)
        self.tokens = np.take_along_axis(tokens[:, :players], self.actual_seat.T, axis=1)
        draws.seat(self.actual_seat)
        unique = list(dict.fromkeys(agents))
        if log is None and any(getattr(agent, "reads_moves", False) for agent in unique):
            log = MoveLog()  # an agent reads the moves (the seats' bids seen), unrecorded
        self.log = log
        # agents that see every question before it is answered (to follow the games)
        self._watchers = [agent for agent in unique if hasattr(agent, "see")]
        self.sale = 0
        # written a sale at a time, every game (no need to clear them first)
        self.winners = self._array("winners", (rules.sales, games), np.int64, zeroed=False)
        self.amounts = self._array("amounts", (rules.sales, games), np.int64, zeroed=False)
        self.unsold_reason = self._array("unsold_reason", (games,), np.int64)  # gap bits
        self.tie_sales = self._array("tie_sales", (games,), np.int64)
        self.zero_counts = self._array("zero_counts", (players, games), np.int32)
        # per seat, its sales ended on a zero bid, scoring or not (public: who bid zero)
        self.zero_bids_made = self._array("zero_bids_made", (players, games), np.int32)
        # per seat, its zero-bid scorings in this round
        self.zero_round = self._array("zero_round", (players, games), np.int32)
        self.peeks_used = self._array("peeks_used", (players, games), np.int64)
        self._agents = [[(agent, None)] for agent in agents] if by_column else self._groups(agents)
        self.opening: Bids | None = None  # the opening bids of the sale in progress
        # for observers of the games in progress (learning.vector_env): the rebid round
        # being asked (its number, games, rebidding seats, ties in a row), the peek window
        self.rebid_round: tuple[int, Ints, Ints, Ints] | None = None
        self.peek_window: npt.NDArray[np.bool_] | None = None
        self.peek_sale = 0  # the sale number a view shows in the peek window being asked
        timing = rules.peek_timing
        self.peek_any = timing is PeekTiming.ANY_EARLIER_SALE
        self.peek_before = timing is PeekTiming.BEFORE_BIDS
        # any-earlier-sale: per column, sale and game, whether the seat may peek at it
        self.peekable = (
            np.zeros((players, rules.sales, games), dtype=bool) if self.peek_any else None
        )
        # before-bids: per column and game, whether it announced a peek at this sale
        self.announced = np.zeros((players, games), dtype=bool) if self.peek_before else None
        reads = any(getattr(agent, "reads_state", False) for agent in agents)
        self.knowledge: Knowledge | None = (
            Knowledge.made(rules, games, None if spare is None else spare.knowledge)
            if reads
            else None
        )
        # per sale and game, the highest bid a peek shows where it shows one (the highest
        # standing bid under peek_shows=highest-bid, the highest bid made under
        # highest-bid-made): kept only where a seat's knowledge reads it
        self.peek_highest = (
            np.zeros((rules.sales, games), dtype=np.int64)
            if self.knowledge is not None and (rules.peek_shows_highest or rules.peek_shows_made)
            else None
        )

    def _array(self, name: str, shape: tuple[int, ...], dtype: Any, zeroed: bool = True) -> Any:
        """The chunk's array ``name``: the spare chunk's where it fits (:func:`kept`),
        filled with zeros where ``zeroed``."""
        found = kept(self._arrays, name, shape, dtype)
        if zeroed:
            found.fill(0)
        return found

    def _groups(self, agents: Sequence[BatchAgent]) -> list[list[tuple[BatchAgent, Ints | None]]]:
        """Per column: each agent and the games where it sits there (None: all of them).
        Equal agents are one agent here (as ``dict.fromkeys`` keeps one of them)."""
        unique = list(dict.fromkeys(agents))
        if len(unique) == 1:
            return [[(unique[0], None)] for _ in range(self.players)]
        groups = []
        for column in range(self.players):
            seats = self.actual_seat[column]
            found: list[tuple[BatchAgent, Ints | None]] = []
            for agent in unique:
                where = np.zeros(self.games, dtype=bool)
                for seat, other in enumerate(agents):
                    if other == agent:
                        where |= seats == seat
                found.append((agent, where))
            groups.append(found)
        return groups

    # ----------------------------------------------------------------- asking agents

    def answer(self, ask: BidAsk | PeekAsk) -> Any:
        """The agents' answer to a question of :meth:`sale_steps`: bids or peeks."""
        for watcher in self._watchers:
            watcher.see(ask)
        if isinstance(ask, PeekAsk):
            return self._peeks(ask.seat, ask.rows, ask.draws)
        return self._bids(ask)

    def _bids(self, ask: BidAsk) -> Ints:
        column, rows, phase, minimum = ask.seat, ask.rows, ask.phase, ask.minimum
        forbidden, draws, previous = ask.forbidden, ask.draws, ask.previous
        groups = self._agents[column]
        if len(groups) == 1:
            return groups[0][0].bids(ask)
        amounts = np.empty(len(draws), dtype=np.int64)
        for agent, where in groups:
            assert where is not None
            chosen = where if rows is None else where[rows]
            if not chosen.any():
                continue
            amounts[chosen] = agent.bids(BidAsk(
                state=self, seat=column,
                rows=np.flatnonzero(chosen) if rows is None else rows[chosen],
                phase=phase, minimum=minimum,
                forbidden=None if forbidden is None else forbidden[chosen],
                draws=draws[chosen],
                previous=None if previous is None else previous[chosen],
            ))  # fmt: skip
        return amounts

    def _peeks(self, column: int, rows: Ints, draws: npt.NDArray[np.uint32]) -> Any:
        answers = np.zeros(len(rows), dtype=bool)
        for agent, where in self._agents[column]:
            chosen = np.ones(len(rows), dtype=bool) if where is None else where[rows]
            if chosen.any():
                answers[chosen] = agent.peeks(
                    PeekAsk(state=self, seat=column, rows=rows[chosen], draws=draws[chosen])
                )
        return answers

    # ----------------------------------------------------------------- a sale

    def play_sale(self, sale: int) -> None:
        """Sale ``sale`` in every game: the bids, the ties, the award, zero bids, peeks."""
        steps = self.sale_steps(sale)
        answer = None
        try:
            while True:
                answer = self.answer(steps.send(answer))
        except StopIteration:
            return

    def sale_steps(self, sale: int) -> Generator[BidAsk | PeekAsk, Any, None]:
        """:meth:`play_sale` as a generator: it yields each question (a seat's bids or
        peeks in many games) and is sent its answer (``learning.vector_env`` answers
        them from its actions)."""
        rules, players, games = self.rules, self.players, self.games
        self.sale = sale
        knowledge = self.knowledge
        if knowledge is not None:
            knowledge.start_sale(sale)
        last = rules.last_tile and sale == rules.sales - 1
        auctioneer = None if last else sale % players
        if self.peek_before:
            yield from self._window_before(sale, auctioneer)
        drawn = self.draws.first_round(sale)
        bids = np.empty((players, games), dtype=np.int32)
        opening: Bids | None = None
        if auctioneer is not None:
            opening = yield BidAsk(
                state=self, seat=auctioneer, rows=None, phase="opening",
                minimum=rules.min_opening_bid, forbidden=None, draws=drawn[auctioneer],
            )  # fmt: skip
            bids[auctioneer] = opening
        self.opening = opening
        forbidden = None if rules.secret_may_equal else opening
        for column in range(players):
            if column != auctioneer:
                bids[column] = yield BidAsk(
                    state=self, seat=column, rows=None, phase="secret",
                    minimum=rules.min_secret_bid, forbidden=forbidden, draws=drawn[column],
                )  # fmt: skip
        if self.log is not None:
            self.log.first.append(bids.copy())
            self.log.rebids.append([])
        # the sale's winner and amount, written in place (as _settle writes them)
        winner, amount = self.winners[sale], self.amounts[sale]
        code = np.empty(games, dtype=np.int64)
        tied = np.empty(games, dtype=np.int64)
        tied = tied[: settling.first_round(bids, winner, amount, code, tied, self.tie_sales)]
        # the highest bid made, rebids included (_settle raises it), where a peek shows it
        highest_made = (
            amount.copy() if rules.peek_shows_made and self.peek_highest is not None else None
        )
        if last and rules.last_tile_any_tie:
            # any two equal bids are a tie that leaves the last tile unsold
            ordered = np.sort(bids, axis=0)
            repeated = np.flatnonzero(
                (ordered[1:] == ordered[:-1]).any(axis=0) & (code & (code - 1) == 0)
            )
            if repeated.size:
                self.tie_sales[repeated] += 1
                winner[repeated] = -1
                amount[repeated] = 0
        rebid_seen = None
        if tied.size:
            rebid_seen = yield from self._settle(
                sale, tied, code[tied], bids, winner, amount, opening, auctioneer, last,
                highest_made,
            )  # fmt: skip
        if rules.zero_bids:
            self._zero_bids(sale, bids, winner, tied, rebid_seen)
        if self.peek_highest is not None:
            self.peek_highest[sale] = bids.max(axis=0) if highest_made is None else highest_made
        if knowledge is not None:
            knowledge.after_sale(sale, self, winner, amount, bids, opening, auctioneer)
        if self.peek_before:
            self._reveal(sale)
            if self.log is not None:
                self.log.windows.append(None)
                self.log.peeked.append(None)
        elif rules.peek_windows[sale]:
            yield from self._peek_window(sale, winner, auctioneer)
        elif self.log is not None:
            self.log.windows.append(None)
            self.log.peeked.append(None)

    def _settle(
        self,
        sale: int,
        tied: Ints,
        code: Ints,
        bids: Ints,
        winner: Ints,
        amount: Ints,
        opening: Ints | None,
        auctioneer: int | None,
        last: bool,
        highest_made: Ints | None = None,
    ) -> Generator[BidAsk, Any, Ints]:
        """The tied games of a sale (``code``: the seats tied for the highest first bid),
        rebid after rebid until each is awarded or unsold (as
        ``qe_rules.game.sales.settle``); ``winner``, ``amount`` (0 where unsold) and
        ``bids`` are updated in place, and ``highest_made`` (the highest bid made, by game)
        where it is given. Returns the seats that rebid, a bit code per tied game. The
        bookkeeping of each round is :mod:`~qe_rules.simulation.batch.settling`'s."""
        rules, players = self.rules, self.players
        count = len(tied)
        seen = np.zeros(count, dtype=np.int64)
        if last and rules.last_tile_tie_nothing:
            winner[tied] = -1  # unsold, and no gap: a rule of the text
            amount[tied] = 0
            return seen
        standing = settling.gathered(bids, tied)
        ties = np.zeros(count, dtype=np.int64)
        previous = np.zeros(count, dtype=np.int64)
        keep_history = rules.fallback == FALLBACK_UNIQUE and not rules.unique_standing
        history = [standing.copy()] if keep_history else []
        won = np.full(count, -1, dtype=np.int64)
        paid = np.zeros(count, dtype=np.int64)
        pending = np.arange(count)
        seats = np.empty(count, dtype=np.int64)
        decided = np.empty(count, dtype=np.int64)
        lost = np.empty(count, dtype=np.int64)
        # each seat's bids in the sale so far, a byte per column: one each at first
        made = np.full(count, sum(1 << 8 * column for column in range(players)), dtype=np.int64)
        keep_placed = keep_history or self.log is not None
        fallback_after = (
            rules.ties_before_fallback if rules.fallback != FALLBACK_NONE else settling.NEVER
        )
        stands = -1
        takes = -1
        if auctioneer is not None:
            stands = auctioneer if rules.auctioneer_stands else -1
            takes = auctioneer if rules.fallback_to_auctioneer else -1
        every_seat = (1 << players) - 1 if rules.rebid_all else 0
        live = count  # the first ``live`` of ``pending`` are tied; ``code`` holds their seats
        round_ = 0
        while True:
            live, found = settling.round_start(
                pending, code, live, ties, previous, seen, rules.streak_same_players,
                fallback_after, every_seat, stands, seats, decided,
            )  # fmt: skip
            if found:
                pool = np.concatenate(history, axis=0) if keep_history else standing
                settling.fallback(
                    decided, found, pool, rules.fallback, players, takes, standing, won, paid, lost
                )  # fmt: skip
                self.unsold_reason[tied[decided[:found]]] |= lost[:found]
            if not live:
                break
            round_ += 1
            if round_ > ROUNDS_PER_SALE:
                raise InvalidArgument(
                    f"a game does not end: sale {sale} is still tied after {ROUNDS_PER_SALE} "
                    f"bidding rounds; under {rules.ruleset.id} tied players may rebid without "
                    f"end ({endless_ties(rules.ruleset)}), and these agents keep tying"
                )
            asked = pending[:live].copy()
            rows = tied[asked]
            # the rebid round being asked, for observers (learning.vector_env): its games,
            # their rebidding seats and ties in a row
            self.rebid_round = (round_, rows, seats[:live].copy(), ties[asked])
            placed = np.full((players, count if keep_placed else 0), -1, dtype=np.int64)
            starts, columns, everywhere, every_game, numbers, standing_bids = settling.rebidders(
                pending, seats, live, tied, made, standing
            )
            every_draw = self.draws.bids(sale, columns, every_game, numbers)
            for column in range(players):
                first, end = starts[column], starts[column + 1]
                if first == end:
                    continue
                where, games = everywhere[first:end], every_game[first:end]
                is_auctioneer = column == auctioneer
                minimum = rules.auctioneer_rebid_minimum if is_auctioneer else rules.min_secret_bid
                may_equal = (
                    rules.auctioneer_rebid_may_equal if is_auctioneer else rules.rebid_may_equal
                )
                forbidden = None
                if opening is not None and not may_equal:
                    forbidden = opening[games]
                new = yield BidAsk(
                    state=self, seat=column, rows=games, phase="rebid", minimum=minimum,
                    forbidden=forbidden, draws=every_draw[first:end],
                    previous=standing_bids[first:end],
                )  # fmt: skip
                settling.answered(standing, column, where, new)
                if highest_made is not None:
                    highest_made[games] = np.maximum(highest_made[games], new)
                if keep_placed:
                    placed[column, where] = new
            if keep_history:
                history.append(placed)
            if self.log is not None:
                self.log.rebids[-1].append((rows, self.rebid_round[2], placed[:, asked]))
            # the standing bids compared again
            live = settling.round_end(pending, code, seats, live, standing, made, won, paid)
            if not live:
                break
        settling.settled(tied, standing, won, paid, bids, winner, amount)
        return seen

    def _zero_bids(
        self, sale: int, bids: Ints, winner: Ints, tied: Ints, rebid_seen: Ints | None
    ) -> None:
        rules = self.rules
        if sale and rules.round_of[sale] != rules.round_of[sale - 1]:
            self.zero_round[:] = 0
        seen = np.zeros(self.games, dtype=np.int64)  # the seats that rebid, a code per game
        if rebid_seen is not None and not rules.zero_rebid_scores:
            seen[tied] = rebid_seen
        _zero_bids_loop(
            bids, winner, seen, rules.zero_unsold_scores, rules.zero_winner_scores,
            rules.zero_bid_limit, self.zero_round, self.zero_bids_made, self.zero_counts,
        )  # fmt: skip

    def _peek_window(
        self, sale: int, winner: Ints, auctioneer: int | None
    ) -> Generator[PeekAsk, Any, None]:
        rules = self.rules
        # per column and game: whether a peek could show the column this sale's amount
        may_peek = rules.may_peek_at(winner, auctioneer, rules.public(winner, auctioneer))
        window = np.zeros(self.games, dtype=np.int64)
        peeked = np.zeros(self.games, dtype=np.int64)
        self.peek_sale = sale + 1
        if self.peekable is not None:
            yield from self._window_any(sale, may_peek, window, peeked)
        elif may_peek.any():
            inside = may_peek & (self.peeks_used < rules.peeks_per_player)
            self.peek_window = inside  # for observers (learning.vector_env)
            knowledge = self.knowledge

            def learn(column: int, peekers: Ints) -> None:
                if knowledge is not None:
                    knowledge.peeked(sale, column, peekers, self.amounts[sale], self._shown(sale))

            yield from self._ask_peeks(inside, window, peeked, learn)
        if self.log is not None:
            self.log.windows.append(window)
            self.log.peeked.append(peeked)

    def _ask_peeks(
        self,
        inside: npt.NDArray[np.bool_],
        window: Ints,
        peeked: Ints,
        then: Callable[[int, Ints], None],
    ) -> Generator[PeekAsk, Any, None]:
        """Ask each column, in the games where it is ``inside`` the window (whose views
        show ``peek_sale``), whether it peeks; mark the window and the peeks, count them,
        and pass each column's peekers to ``then``."""
        for column in range(self.players):
            rows = np.flatnonzero(inside[column])
            if not rows.size:
                continue
            window[rows] |= 1 << column
            drawn = self.draws.peek(self.peek_sale, column, rows)
            answers = yield PeekAsk(state=self, seat=column, rows=rows, draws=drawn)
            if not answers.any():
                continue
            peekers = rows[answers]
            self.peeks_used[column, peekers] += 1
            peeked[peekers] |= 1 << column
            then(column, peekers)

    def _window_any(
        self,
        sale: int,
        may_peek: npt.NDArray[np.bool_],
        window: Ints,
        peeked: Ints,
    ) -> Generator[PeekAsk, Any, None]:
        """The window after ``sale`` under ``peek_timing=any-earlier-sale``: each seat
        with a peek left and a sale it may peek at (``may_peek``: this sale, per column
        and game); a peek looks at the latest of them."""
        rules, peekable = self.rules, self.peekable
        assert peekable is not None
        peekable[:, sale] = may_peek
        inside = peekable[:, : sale + 1].any(axis=1) & (self.peeks_used < rules.peeks_per_player)
        self.peek_window = inside
        latest = np.arange(sale + 1)[:, None]
        knowledge = self.knowledge
        log = self.log
        if log is not None:
            log.targets[sale] = np.full((self.players, self.games), -1, dtype=np.int64)

        def learn(column: int, peekers: Ints) -> None:  # each peeker's latest sale
            targets = np.where(peekable[column, : sale + 1, peekers].T, latest, -1).max(axis=0)
            peekable[column, targets, peekers] = False
            if log is not None:
                log.targets[sale][column, peekers] = targets
            if knowledge is not None:
                for target in np.unique(targets):
                    chosen = peekers[targets == target]
                    knowledge.peeked(
                        int(target), column, chosen, self.amounts[target], self._shown(target)
                    )

        yield from self._ask_peeks(inside, window, peeked, learn)

    def _window_before(self, sale: int, auctioneer: int | None) -> Generator[PeekAsk, Any, None]:
        """Under ``peek_timing=before-bids``: the window before ``sale``'s opening bid,
        each seat with a peek left but the auctioneer (not before the last sale without
        ``peek_after_last_sale``). A peek is announced; :meth:`_reveal` shows it."""
        rules, announced = self.rules, self.announced
        assert announced is not None
        announced[:] = False
        window = np.zeros(self.games, dtype=np.int64)
        peeked = np.zeros(self.games, dtype=np.int64)
        self.peek_sale = sale
        if rules.peek_windows[sale]:
            inside = self.peeks_used < rules.peeks_per_player
            if auctioneer is not None:
                inside[auctioneer] = False
            self.peek_window = inside

            def announce(column: int, peekers: Ints) -> None:
                announced[column, peekers] = True

            yield from self._ask_peeks(inside, window, peeked, announce)
        if self.log is not None:
            self.log.before_windows.append(window)
            self.log.before_peeked.append(peeked)

    def _shown(self, sale: int) -> Ints | None:
        """Per game, the bid a peek at ``sale`` shows where it shows the highest bid (the
        standing or the made one); ``None`` where it shows the winning amount."""
        if self.peek_highest is None:
            return None
        shown: Ints = self.peek_highest[sale]
        return shown

    def _reveal(self, sale: int) -> None:
        """Under ``before-bids``, once ``sale`` ends: what each announced peek shows."""
        knowledge, announced = self.knowledge, self.announced
        if knowledge is None or announced is None:
            return
        for column in range(self.players):
            rows = np.flatnonzero(announced[column] & knowledge.blind[column, sale])
            if rows.size:
                knowledge.peeked(sale, column, rows, self.amounts[sale], self._shown(sale))

    @functools.cached_property
    def deck_by_sale(self) -> Ints:
        """The deck as ``(sales, games)``, contiguous (``deck`` is ``(games, sales)``)."""
        found: Ints = self._array("deck by sale", self.deck.T.shape, np.int64, zeroed=False)
        found[...] = self.deck.T
        return found

    # ----------------------------------------------------------------- scoring

    def score(self) -> dict[str, Ints]:
        """The final scoring, by column: ``(columns, games)`` arrays and per-game ones."""
        return score_columns(
            self.rules, self.winners, self.amounts, self.deck_by_sale, self.nations, self.tokens,
            self.zero_counts, self.unsold_reason, self._arrays,
        )  # fmt: skip


def score_columns(
    rules: CompiledRules,
    winners: Ints,
    amounts: Ints,
    deck: Ints,
    nations: Ints,
    tokens: Ints,
    zero_counts: npt.NDArray[np.int32],
    unsold_reason: Ints,
    into: dict[str, Any] | None = None,
) -> dict[str, Ints]:
    """The final scoring of games under ``rules``, by column: ``(columns, games)`` arrays
    and per-game ones. ``winners`` and ``amounts`` are ``(sales, games)`` (the column
    that won each sale, -1 for none, and what it paid); ``deck`` holds ``(sales, games)``
    indices of the canonical deck of ``rules``, ``nations`` and ``tokens`` ``(games,
    columns)`` indices into its pieces in play; ``unsold_reason`` the play's gap bits.
    ``into``: a store of arrays to write the scoring in (:func:`kept`; a chunk's)."""
    games = winners.shape[1]
    store: dict[str, Any] = {} if into is None else into

    def array(name: str, shape: tuple[int, ...], dtype: Any) -> Any:
        return kept(store, f"scoring {name}", shape, dtype)

    shape = (rules.players, games)
    found: dict[str, Ints] = {
        name: array(name, shape, bool if name in ("eliminated", "winners") else np.int64)
        for name in SCORED_BY_SEAT
    }
    found["gaps"] = array("gaps", (games,), np.int64)
    found["gaps"][:] = unsold_reason  # the play's gaps, the scoring's added
    found["unsold"] = array("unsold", (games,), np.int64)
    _scoring_loop(
        winners, amounts, deck, nations, tokens, zero_counts, _tables(rules),
        found["company_points"], found["zero_bids"], found["nationalization"],
        found["monopolization"], found["diversification"], found["lowest_spend_bonus"],
        found["total"], found["spent"], found["tiles"], found["eliminated"], found["winners"],
        found["gaps"], found["unsold"],
    )  # fmt: skip
    return found


@compiled_loop
def _zero_bids_loop(
    bids: Ints, winner: Ints, rebid: Ints, unsold_scores: bool, winner_scores: bool,
    limit: int, this_round: Any, made: Any, counts: Any,
) -> None:  # fmt: skip
    """A sale's zero bids, per column and game: each counts as made (``made``), and
    scores (``counts``, ``this_round``) where the sale sold or ``unsold_scores``, the
    column did not win it or ``winner_scores``, it did not rebid (``rebid``: the seats
    that did, a code per game, 0 where rebids score) and it scored fewer than ``limit``
    times this round (0: no limit)."""
    columns, games = bids.shape
    for column in range(columns):
        for game in range(games):
            zero = bids[column, game] == 0
            made[column, game] += zero
            won_by = winner[game]
            scores = (
                zero
                and (unsold_scores or won_by >= 0)
                and (winner_scores or won_by != column)
                and rebid[game] >> column & 1 == 0
                and (limit == 0 or this_round[column, game] < limit)
            )
            this_round[column, game] += scores
            counts[column, game] += scores


SCORED_BY_SEAT: Final = (
    "total",
    "spent",
    "eliminated",
    "winners",
    "tiles",
    "company_points",
    "zero_bids",
    "nationalization",
    "monopolization",
    "diversification",
    "lowest_spend_bonus",
)
"""The per-seat arrays of :func:`score_columns` (``(columns, games)``; ``eliminated`` and
``winners`` of booleans), in the order a ``Batch`` holds them."""


@functools.lru_cache(maxsize=64)
def _tables(rules: CompiledRules) -> tuple[Any, ...]:
    """What :func:`_scoring_loop` reads of ``rules``, after the arrays of the games."""
    return (
        rules.tile_vp, rules.tile_nation, rules.tile_industry,
        np.array(rules.industry_strides, dtype=np.int64),
        np.array(rules.nations, dtype=np.int64), np.array(rules.industries, dtype=np.int64),
        rules.monopolization.size // len(INDUSTRIES), rules.monopolization,
        rules.diversification, rules.industry_beyond, rules.nationalization,
        rules.nationalization_max, rules.zero_bid_points, rules.bonus, rules.bonus_to_all_tied,
        rules.eliminate, rules.eliminate_all_tied, rules.none_out_when_all_tied,
        rules.lower_spend_tiebreak, rules.no_winner_when_tied,
    )  # fmt: skip


@compiled_loop
def _scoring_loop(
    winners: Ints, amounts: Ints, deck: Ints, nations: Ints, tokens: Ints, zero_counts: Any,
    tables: tuple[Any, ...], vp: Ints, zero_points: Ints, nationalization: Ints, monopolization: Ints,
    diversification: Ints, bonus: Ints, total: Ints, spent: Ints, held: Ints,
    eliminated: Any, leaders: Any, gaps: Ints, unsold: Ints,
) -> None:  # fmt: skip
    """:func:`score_columns` of every game, into the arrays after ``tables`` (what
    :func:`_tables` reads of the rules); each is ``(columns, games)`` but ``gaps``, which
    holds the play's gap bits, and ``unsold``."""
    (
        tile_vp, tile_nation, tile_industry, strides, nations_in_play, industries_in_play,
        table_size, monopolization_table, diversification_table, beyond_table,
        nationalization_table, nationalization_max, zero_bid_points, bonus_points,
        bonus_to_all_tied, eliminate, eliminate_all_tied, none_out_when_all_tied,
        lower_spend_tiebreak, no_winner_when_tied,
    ) = tables  # fmt: skip
    players = vp.shape[0]
    sales, games = winners.shape
    own = np.empty(players, dtype=np.int64)
    offset = np.empty(players, dtype=np.int64)
    for game in range(games):
        for column in range(players):
            vp[column, game] = 0
            held[column, game] = 0
            spent[column, game] = 0
            own[column] = 0
            offset[column] = 0
        sold = 0
        for sale in range(sales):
            column = winners[sale, game]
            if column < 0:
                continue
            tile = deck[sale, game]
            vp[column, game] += tile_vp[tile]
            held[column, game] += 1
            spent[column, game] += amounts[sale, game]
            own[column] += tile_nation[tile] == nations_in_play[nations[game, column]]
            offset[column] += strides[tile_industry[tile]]
            sold += 1
        unsold[game] = sales - sold
        lowest = spent[0, game]
        highest = spent[0, game]
        for column in range(1, players):
            lowest = min(lowest, spent[column, game])
            highest = max(highest, spent[column, game])
        at_lowest = 0
        at_highest = 0
        for column in range(players):
            at_lowest += spent[column, game] == lowest
            at_highest += spent[column, game] == highest
        gap = 0
        out = 0
        best = -1
        for column in range(players):
            index = industries_in_play[tokens[game, column]] * table_size + offset[column]
            monopolization[column, game] = monopolization_table[index]
            diversification[column, game] = diversification_table[index]
            beyond = beyond_table[index]
            if beyond & 1:
                gap |= GAP_MONOPOLIZATION_BEYOND
            if beyond & 2:
                gap |= GAP_DIVERSIFICATION_BEYOND
            if own[column] > nationalization_max:
                gap |= GAP_NATIONALIZATION_BEYOND
            nationalization[column, game] = nationalization_table[own[column]]
            zero_points[column, game] = zero_counts[column, game] * zero_bid_points
            low = spent[column, game] == lowest
            bonus[column, game] = (
                bonus_points if low and (bonus_to_all_tied or at_lowest == 1) else 0
            )
            total[column, game] = (
                vp[column, game] + zero_points[column, game] + nationalization[column, game]
                + monopolization[column, game] + diversification[column, game]
                + bonus[column, game]
            )  # fmt: skip
            high = spent[column, game] == highest
            eliminated[column, game] = (
                eliminate and high and (eliminate_all_tied or at_highest == 1)
                and not (none_out_when_all_tied and at_highest == players)
            )  # fmt: skip
            out += eliminated[column, game]
            if not eliminated[column, game]:
                best = max(best, total[column, game])
        if out == players:
            gap |= GAP_ALL_OUT
        count = 0
        least = -1
        for column in range(players):
            leads = not eliminated[column, game] and total[column, game] == best
            leaders[column, game] = leads
            if leads:
                count += 1
                least = spent[column, game] if least < 0 else min(least, spent[column, game])
        if lower_spend_tiebreak and count > 1:
            count = 0
            for column in range(players):
                leads = leaders[column, game] and spent[column, game] == least
                leaders[column, game] = leads
                count += leads
        if count > 1:
            gap |= GAP_TIE_AFTER
            if no_winner_when_tied:
                for column in range(players):
                    leaders[column, game] = False
        gaps[game] |= gap


def play_chunk(
    rules: CompiledRules,
    draws: Draws,
    agents: Sequence[BatchAgent],
    log: MoveLog | None = None,
    spare: Chunk | None = None,
) -> Chunk:
    """Play the games of ``draws`` to the end; the chunk holds their state and moves.
    ``spare``: a played chunk no longer read, whose arrays may serve again."""
    chunk = Chunk(rules, draws, agents, log, spare=spare)
    for sale in range(rules.sales):
        chunk.play_sale(sale)
    return chunk
