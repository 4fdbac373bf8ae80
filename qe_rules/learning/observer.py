"""Every seat's observation and action mask in the lockstep games of a batch chunk, in the
encoder's layout, kept up to date in place as the games go on (needs the ``rl`` extra).

:class:`BatchObserver` follows one :class:`~qe_rules.simulation.batch.lockstep.Chunk`:
after :meth:`~BatchObserver.start`, each :meth:`~BatchObserver.observe` with the chunk's
question of the moment (a :class:`~qe_rules.simulation.batch.agents.BidAsk` or
:class:`~qe_rules.simulation.batch.agents.PeekAsk`; ``None`` once the games are over)
brings ``observations`` (``(games, players, OBSERVATION_SIZE)``) and ``masks``
(``(games, players, ACTIONS)``) to that moment, writing only what changed. The columns
are the chunk's: column 0 is each game's first auctioneer, so a row is the encoding of
the game with its seats numbered from the first auctioneer (:func:`to_seats` turns rows
into the encoding of the seats themselves). :class:`~qe_rules.learning.vector_env.BatchVectorEnv`
and the batched policy agents (:mod:`qe_rules.learning.policies`) observe through it.

It plays ``peek_timing=last-sale`` only: the encoding has no form for a peek window
before the bids.
"""

from __future__ import annotations

import functools
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from qe_rules.components import COMPANIES, Nation
from qe_rules.errors import InvalidArgument
from qe_rules.learning import encode
from qe_rules.rules.model import PeekTiming, RebidVisibility
from qe_rules.simulation.batch.agents import PeekAsk
from qe_rules.simulation.batch.compiled import CompiledRules
from qe_rules.simulation.batch.lockstep import Chunk, MoveLog
from qe_rules.simulation.batch.loops import compiled_loop

__all__ = ["BatchObserver", "check_peek_timing", "moment_key", "to_seats"]

_AT: Final = {}
_start = 0
for _name, _size in encode.OBSERVATION_FIELDS:
    _AT[_name] = _start
    _start += _size
_SEATS: Final = encode.MAX_SEATS
_PHASE: Final = {phase: index for index, phase in enumerate(encode.PHASES)}
_COMPANY_INDEX: Final = {company: index for index, company in enumerate(COMPANIES)}
_PHASE_OF: Final = {"opening": "opening", "secret": "bidding", "rebid": "rebidding"}
# the numbers every seat of a game shares, from the phase to the tied seats, side by side
_FRONT: Final = _AT["phase"]
_FRONT_END: Final = _AT["tied"] + _SEATS
_TIES: Final = _AT["sale"] + 4 - _FRONT  # ties in a row
_TILE: Final = _AT["company"] - _FRONT  # then the auctioneer
_MOMENT: Final = _AT["opening_bid"] - _FRONT  # the opening bid, to_act and tied
_BIDS: Final = _AT["my_bids"]  # my_bids and seen_bids, side by side
_BIDS_END: Final = _AT["seen_bids"] + 2 * encode.ROUNDS_KEPT * _SEATS
_SEEN: Final = _AT["seen_bids"] - _BIDS
_LEDGER: Final = _AT["known_spend"]  # then unknown_amounts, zero_bid_rounds, peeks_used
_HOLDINGS: Final = _AT["holdings"]
_COMPANIES: Final = len(COMPANIES)


def moment_key(chunk: Chunk, question: Any) -> tuple[Any, ...]:
    """The moment of the games ``question`` belongs to: every question of one moment (the
    seats asked in turn for their secret bids, a rebid round, a peek window) sees the
    games as they were when it began."""
    sale = chunk.sale
    if isinstance(question, PeekAsk):
        return ("peek", sale)
    if question.phase == "rebid":
        assert chunk.rebid_round is not None
        return ("rebid", sale, chunk.rebid_round[0])
    return (question.phase, sale)


def check_peek_timing(rules: CompiledRules, what: str) -> None:
    """Refuse a rule set whose peek timing the encoding cannot show."""
    ruleset = rules.ruleset
    if ruleset.peek_timing is not PeekTiming.LAST_SALE:
        raise InvalidArgument(
            f"{what} plays peek_timing={PeekTiming.LAST_SALE.value} only, "
            f"and {ruleset.id} has peek_timing={ruleset.peek_timing.value}; "
            "qe_rules.batch.play plays every timing with other agents"
        )


_ONE_PER_SEAT: Final = (
    "seat", "auctioneer", "to_act", "tied",
    "known_spend", "unknown_amounts", "zero_bid_rounds", "peeks_used",
)  # fmt: skip


@functools.cache
def _rotations(players: int) -> npt.NDArray[np.intp]:
    """``(players, OBSERVATION_SIZE)``: for each first auctioneer, where each number of
    the seats' encoding is in the columns' encoding."""
    index = np.tile(np.arange(encode.OBSERVATION_SIZE), (players, 1))
    nations, companies = len(Nation), len(COMPANIES)
    for first in range(players):
        for seat in range(players):
            column = (seat - first) % players
            for name in _ONE_PER_SEAT:
                index[first, _AT[name] + seat] = _AT[name] + column
            for name, size in (("nations", nations), ("holdings", companies)):
                index[first, _AT[name] + seat * size : _AT[name] + (seat + 1) * size] = (
                    _AT[name] + column * size + np.arange(size)
                )
            for number in range(encode.ROUNDS_KEPT):
                start = _AT["seen_bids"] + 2 * _SEATS * number
                index[first, start + 2 * seat : start + 2 * seat + 2] = (
                    start + 2 * column + np.arange(2)
                )
    return index


def to_seats(
    observations: npt.NDArray[np.float32],
    first: npt.ArrayLike,
    players: int,
    out: npt.NDArray[np.float32] | None = None,
) -> npt.NDArray[np.float32]:
    """Rows of :attr:`BatchObserver.observations` (by column) as the encoding of the seats
    themselves (:func:`qe_rules.learning.encode.observation` of the seat's view), given
    each row's first auctioneer ``first``, in games of ``players`` (into ``out`` if
    given). The rows of each first auctioneer are reordered together."""
    firsts = np.asarray(first)
    rotation = _rotations(players)
    seats: npt.NDArray[np.float32] = np.empty_like(observations) if out is None else out
    for auctioneer in range(players):
        rows = np.flatnonzero(firsts == auctioneer)
        if rows.size == len(firsts):
            np.take(observations, rotation[auctioneer], axis=1, out=seats)
        elif rows.size:
            seats[rows] = np.take(observations[rows], rotation[auctioneer], axis=1)
    return seats


class BatchObserver:
    """The observations and masks of every seat of ``games`` lockstep games of
    ``rules``. ``fresh_arrays``: :meth:`turn_over` makes new arrays (else two sets take
    turns). :meth:`start` may keep only one column's observation and mask up to date (the
    others are left as they are: a single learner's environment reads one column); that
    column's rows are then in the order of the seats themselves (the encoding of each
    game's seat there, as :func:`to_seats` would give it), written so as they change."""

    def __init__(self, rules: CompiledRules, games: int, *, fresh_arrays: bool = True) -> None:
        check_peek_timing(rules, "an observer of the encoding")
        self.compiled = rules
        self.players = players = rules.players
        self.only: int | None = None
        # the columns written: every one, or the one kept
        self._columns = list(range(players))
        self._column_array = np.arange(players)  # the same, for the compiled loops
        self.games = games
        self.fresh = fresh_arrays
        self._obs = np.zeros((games, players, encode.OBSERVATION_SIZE), np.float32)
        self._masks = np.zeros((games, players, encode.ACTIONS), dtype=bool)
        self._spare: tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]] | None = None
        companies = rules.ruleset.companies(players)
        self._in_library = np.array([_COMPANY_INDEX[c] for c in companies], dtype=np.int64)
        self._every = np.arange(games)

    @property
    def observations(self) -> npt.NDArray[np.float32]:
        """``(games, players, OBSERVATION_SIZE)``: by game and column (with ``only``, each
        column's rows are contiguous: ``observations[:, only]`` is a plain array)."""
        return self._obs

    @property
    def masks(self) -> npt.NDArray[np.bool_]:
        """``(games, players, ACTIONS)``: by game and column."""
        return self._masks

    def start(self, chunk: Chunk, log: MoveLog, *, only: int | None = None) -> None:
        """Follow ``chunk`` (new games) from its start; ``log`` is its move log; ``only``:
        keep only that column up to date (see the class)."""
        self.only = only
        self._columns = list(range(self.players)) if only is None else [only]
        self._column_array = np.array(self._columns)
        # with ``only``, each column's rows lie together (the kept one is handed out as it is)
        by_column = only is not None
        if self._obs[:, 0].flags.c_contiguous != by_column:
            shape = (self.players, self.games, encode.OBSERVATION_SIZE)
            made = np.zeros(shape, np.float32)
            self._obs = made.transpose(1, 0, 2) if by_column else made.transpose(1, 0, 2).copy()
            self._spare = None
        self.chunk = chunk
        self._log = log
        if only is not None:  # per game, the seat of each column and the column at each seat
            columns = np.arange(self.players)
            self._seat_of = (chunk.first[:, None] + columns) % self.players
            self._column_of = (columns - chunk.first[:, None]) % self.players
            # where each seat's value is in a (games, columns) array, flat
            self._by_seat = (self._every * self.players)[:, None] + self._column_of
        self._new_table()

    def _seat(self, games: Any, columns: Any) -> Any:
        """Where ``columns`` go in the per-seat fields of the rows written, in ``games``:
        the columns themselves, or with ``only`` the seats they hold in those games."""
        if self.only is None:
            return columns
        return self._seat_of[games, columns]

    def _in_seat_order(self, values: Any, games: Any) -> Any:
        """``values`` (per game of ``games``, every game for ``slice(None)``, and column) in
        the order of the rows written: the columns' own, or with ``only`` the seats'."""
        if self.only is None:
            return values
        if isinstance(games, slice):
            where = self._by_seat
        else:  # a few games: their rows of ``values``
            where = (np.arange(len(games)) * self.players)[:, None] + self._column_of[games]
        return np.take(values, where)

    def _write_by_seat(self, games: Any, at: int, values: Any) -> None:
        """Write ``values`` (per game of ``games`` and column) into the per-seat field at
        ``at`` of the kept column's rows, in the seats' order."""
        self._obs[games, self.only, at : at + self.players] = self._in_seat_order(values, games)

    def turn_over(self) -> None:
        """Leave the arrays so far to whoever holds them (the vector environment's
        ``final_obs``): the next games are written into others (the spare pair, which the
        games before last used; with ``fresh_arrays``, new ones)."""
        if self.fresh:
            self._obs = np.empty_like(self._obs)
            self._masks = np.empty_like(self._masks)
        else:
            if self._spare is None:
                self._spare = (np.empty_like(self._obs), np.empty_like(self._masks))
            spare, self._spare = self._spare, (self._obs, self._masks)
            self._obs, self._masks = spare

    def _new_table(self) -> None:
        """New games: the observations hold only what never changes in a game (the
        players, seat, sales, nations and tokens); the rest is written as it comes."""
        chunk, rules, players = self.chunk, self.compiled, self.players
        out = self._obs
        every = self._every
        seats = np.arange(players)
        nations = np.array(rules.nations)[chunk.nations]  # (games, columns)
        tokens = np.array(rules.industries)[chunk.tokens]
        self._reset_state()
        if self.only is not None:  # the kept column alone, in the seats' order
            row = out[:, self.only]
            row[:] = 0
            row[:, _AT["players"] + players - 1] = 1
            row[every, _AT["seat"] + self._seat(every, self.only)] = 1
            for column in range(players):
                at = _AT["nations"] + self._seat(every, column) * 5
                row[every, at + nations[:, column]] = 1
            row[every, _AT["industry"] + tokens[:, self.only]] = 1
            return
        out[:] = 0
        out[:, :, _AT["players"] + players - 1] = 1
        out[:, seats, _AT["seat"] + seats] = 1
        for column in range(players):
            out[every, :, _AT["nations"] + column * 5 + nations[:, column]] = 1
        out[every[:, None], seats, _AT["industry"] + tokens] = 1

    def _reset_state(self) -> None:
        """What the observer keeps of the games written so far, as new games start."""
        self._shown_sale: tuple[int, bool] = (-1, False)  # the sale shown, and if over
        self._applied = 0  # the finished sales written into the observations
        self._peeks_applied = 0  # the sales whose peeks are written
        self._zero_counts = np.zeros((self.players, self.games), np.int32)  # as last written
        self._bid_rows: list[Any] = []  # the games whose my_bids or seen_bids may be set
        # per game, the numbers every seat's observation shares from the phase to the
        # tied seats (written as one region at every step)
        self._front = np.zeros((self.games, _FRONT_END - _FRONT), np.float32)

    def _sale_part(self, sale: int, over: bool, peeking: bool) -> None:
        """What changes between sales: the sale's numbers, tile and auctioneer; the
        holdings, spends, zero bids and peeks of the sales finished since the last call."""
        chunk, rules, players = self.chunk, self.compiled, self.players
        out, every = self._obs, self._every
        finished = sale  # the sales over; while peeking, the last one's window is open
        peeked = finished - 1 if peeking else finished
        if self._applied < finished or self._peeks_applied < peeked:
            if self._applied < finished:
                for done in range(self._applied, finished):
                    self._sale_done(done)
                self._applied = finished
                _zero_rounds_loop(
                    out, chunk.zero_counts, self._zero_counts, self._column_array,
                    _NONE if self.only is None else self._seat_of,
                )  # fmt: skip
            for done in range(self._peeks_applied, peeked):
                self._peeks_of(done)
            self._peeks_applied = max(self._peeks_applied, peeked)
        key = (sale, over)
        if key == self._shown_sale:
            return
        self._shown_sale = key
        front = self._front  # written into the observations at every step
        at = _AT["sale"] - _FRONT
        front[:, at] = sale
        front[:, at + 1] = rules.sales
        front[:, _TILE : _TILE + len(COMPANIES) + _SEATS] = 0  # the tile and auctioneer
        if sale < rules.sales:
            front[:, at + 2] = rules.sales - sale - 1
            front[:, at + 3] = rules.round_of[sale]
            front[every, _TILE + self._in_library[chunk.deck[:, sale]]] = 1
            if not (rules.last_tile and sale == rules.sales - 1):
                front[every, _TILE + len(COMPANIES) + self._seat(every, sale % players)] = 1
        else:
            front[:, at + 2] = 0 if over else -1
            front[:, at + 3] = rules.round_of[-1]

    def _sale_done(self, done: int) -> None:
        """Sale ``done`` is over: its tile to its winner, what each seat learnt of it."""
        chunk = self.chunk
        knowledge = chunk.knowledge
        assert knowledge is not None
        _sale_done_loop(
            self._obs, done, chunk.winners[done], self._in_library[chunk.deck[:, done]],
            _NONE if self.only is None else self._seat_of, self._column_array,
            knowledge.told, knowledge.blind, chunk.amounts, knowledge.spent,
        )  # fmt: skip

    def _peeks_of(self, done: int) -> None:
        """The peeks at sale ``done``: what each peeker learnt, and the peeks used."""
        chunk, players = self.chunk, self.players
        peeked = self._log.peeked[done]
        if peeked is None or not peeked.any():
            return
        knowledge = chunk.knowledge
        assert knowledge is not None
        winner = chunk.winners[done]
        for column in self._columns:
            games = np.flatnonzero(peeked >> column & 1)
            if not games.size:
                continue
            games = games[knowledge.told[column, done, games]]
            at = self._seat(games, winner[games])
            self._obs[games, column, _LEDGER + at] += chunk.amounts[done, games]
            self._obs[games, column, _LEDGER + _SEATS + at] -= 1
        used, rows = _AT["peeks_used"], np.flatnonzero(peeked)  # the games with a peek
        if self.only is None:
            self._obs[rows, :, used : used + players] = chunk.peeks_used[:, rows].T[:, None, :]
        else:
            self._write_by_seat(rows, used, chunk.peeks_used[:, rows].T)

    def observe(self, question: Any) -> None:
        """Bring every seat's observation and mask in every game up to now, in place:
        each region a step changes is written once, as a whole (no clearing pass)."""
        chunk, players, games = self.chunk, self.players, self.games
        out, masks = self._obs, self._masks
        seats = np.arange(players)
        over = question is None
        peeking = isinstance(question, PeekAsk)
        sale = chunk.sale + 1 if (over or peeking) else chunk.sale
        self._sale_part(sale, over, peeking)
        rules = self.compiled
        last = rules.last_tile and sale == rules.sales - 1
        auctioneer = None if (last or sale >= rules.sales) else sale % players
        only = self.only
        if only is None:
            masks[:] = False
        else:
            masks[:, only] = False
        phase = "over" if over else "peeking" if peeking else _PHASE_OF[question.phase]
        rebid = phase == "rebidding"
        if not rebid:  # the bids of the last sale's rebids, and the opening bid, wiped
            for where, seat in self._bid_rows:
                if seat is None:
                    out[where, slice(None) if only is None else only, _BIDS:_BIDS_END] = 0
                else:  # the auctioneer's opening bid alone
                    out[where, seat, _BIDS : _BIDS + 2] = 0
            self._bid_rows = []
        tail = np.zeros((games, players, 4), np.float32)  # limits, can_peek
        to_act: Any
        opening = None
        if rebid:
            assert chunk.rebid_round is not None
            _, acting, code, in_a_row = chunk.rebid_round
            if only is not None and question.seat == only and question.rows is not None:
                # the kept column's rows where it rebids; the round's other games wait
                asked = np.searchsorted(acting, question.rows)  # both in order
                acting, code, in_a_row = acting[asked], code[asked], in_a_row[asked]
            rows: Any = acting
            front = self._front[acting]
            moment = front[:, _MOMENT:]  # the opening bid, who acts, who is tied
            moment[:] = 0
            front[:, _TIES] = in_a_row
            to_act = np.zeros((games, players), dtype=bool)
            rebidding = (code[:, None] >> seats & 1).astype(bool)
            to_act[acting] = rebidding
            tail = tail[acting]
            moment[:, 2 : 2 + players] = moment[:, 7 : 7 + players] = self._in_seat_order(
                rebidding, acting
            )
            opening = chunk.opening
        else:
            rows = slice(None)
            acting = self._every
            front = self._front
            moment = front[:, _MOMENT:]
            moment[:] = 0
            front[:, _TIES] = 0
            if peeking:
                assert chunk.peek_window is not None
                to_act = chunk.peek_window.T
                moment[:, 2 : 2 + players] = self._in_seat_order(to_act, rows)
                tail[:, :, 3] = to_act
                masks[:, :, encode.PEEK] = to_act
                masks[:, :, encode.DECLINE_PEEK] = to_act
            elif phase == "opening":
                to_act = np.zeros((games, players), dtype=bool)
                to_act[:, question.seat] = True
                moment[acting, 2 + self._seat(acting, question.seat)] = 1
            elif phase == "bidding":
                opening = chunk.opening
                to_act = np.broadcast_to(seats != auctioneer, (games, players))
                moment[:, 2 : 2 + players] = self._in_seat_order(to_act, rows)
            else:
                to_act = np.zeros((games, players), dtype=bool)
        if opening is not None:
            moment[:, 0] = opening[rows]
            moment[:, 1] = 1
        front[:, : len(encode.PHASES)] = 0
        front[:, _PHASE[phase]] = 1
        limits = _AT["limits"]
        if only is None:
            out[rows, :, _FRONT:_FRONT_END] = front[:, None, :]
        else:
            out[rows, only, _FRONT:_FRONT_END] = front  # its per-seat fields in the seats' order
        if phase in ("opening", "bidding", "rebidding"):
            self._limits(tail, masks, to_act, phase, opening, rows)
            self._bids_seen(phase, sale, auctioneer, acting)
        if only is None:
            out[rows, :, limits : limits + 4] = tail
        else:
            out[rows, only, limits : limits + 4] = tail[:, only]

    def _bids_seen(self, phase: str, sale: int, auctioneer: int | None, acting: Any) -> None:
        """``my_bids`` and ``seen_bids``: the closed rounds of this sale (and the opening
        bid, the auctioneer's own bid in the open round), the latest
        :data:`~qe_rules.learning.encode.ROUNDS_KEPT` of them."""
        chunk, players, out = self.chunk, self.players, self._obs
        log = self._log
        if phase == "bidding":
            if auctioneer is not None and chunk.opening is not None:
                out[:, auctioneer, _AT["my_bids"]] = chunk.opening
                out[:, auctioneer, _AT["my_bids"] + 1] = 1
                self._bid_rows.append((slice(None), auctioneer))
            return
        if phase != "rebidding":
            return
        # every closed round's bids in the acting games: (rounds, seats, games), -1 for none
        rounds = [log.first[sale][:, acting]]
        for rows, _, placed in log.rebids[sale]:
            where = np.searchsorted(rows, acting).clip(max=len(rows) - 1)
            found = rows[where] == acting
            rounds.append(np.where(found, placed[:, where], -1))
        bids = np.stack(rounds)
        valid = bids >= 0
        kept = encode.ROUNDS_KEPT
        # the acting games' my_bids and seen_bids, written whole at the end
        block = np.zeros((len(acting), players, _BIDS_END - _BIDS), np.float32)
        # my_bids: each seat's own bids, the latest kept
        order = np.cumsum(valid, axis=0) - 1
        slot = order - np.maximum(valid.sum(axis=0) - kept, 0)
        chosen = valid & (slot >= 0)
        number, seat, game = np.nonzero(chosen)
        place = 2 * slot[number, seat, game]
        block[game, seat, place] = bids[number, seat, game]
        block[game, seat, place + 1] = 1
        # seen_bids (qe_rules.game._secrecy.seen_rounds): the auctioneer sees every closed
        # round (the first only under first-bids); under tied-players a seat that rebid
        # in a round sees that round. Rounds are numbered over the game's closed rounds,
        # the latest kept.
        visibility = self.compiled.rebid_visibility
        held = valid.any(axis=1)  # (rounds, games): the round was played in the game
        if auctioneer is not None:
            if visibility is RebidVisibility.FIRST_BIDS:
                seat, game = np.nonzero(valid[0])
                place = _SEEN + 2 * seat
                block[game, auctioneer, place] = bids[0, seat, game]
                block[game, auctioneer, place + 1] = 1
            else:
                self._rounds_seen(block, bids, valid, held, auctioneer, None)
        if visibility is RebidVisibility.TIED_PLAYERS and len(bids) > 1:
            for viewer in range(players):
                if viewer != auctioneer:
                    self._rounds_seen(block, bids, valid, held, viewer, valid[:, viewer])
        if self.only is None:
            out[acting, :, _BIDS:_BIDS_END] = block
        else:
            mine = block[:, self.only]
            # seen_bids by bidder: each round's pair of numbers per seat, in the seats' order
            seen = mine[:, _SEEN:].reshape(len(acting), encode.ROUNDS_KEPT, _SEATS, 2)
            column_of = self._column_of[acting][:, None, :, None]
            ordered = np.zeros_like(seen)
            ordered[:, :, :players] = np.take_along_axis(seen, column_of, axis=2)
            mine[:, _SEEN:] = ordered.reshape(len(acting), -1)
            out[acting, self.only, _BIDS:_BIDS_END] = mine
        self._bid_rows.append((acting, None))

    def _rounds_seen(
        self, out: Any, bids: Any, valid: Any, held: Any, viewer: int, rounds: Any
    ) -> None:
        """Write the closed rounds ``viewer`` sees into its ``seen_bids``: every round, or
        (``rounds``: ``(rounds, games)``) the rebid rounds marked there."""
        kept = encode.ROUNDS_KEPT
        number_of = np.cumsum(held, axis=0) - 1
        first_kept = np.maximum(held.sum(axis=0) - kept, 0)
        slot = number_of - first_kept  # (rounds, games)
        shown = slot >= 0
        if rounds is not None:
            shown = shown & rounds
            shown[0] = False
        chosen = valid & shown[:, None, :]
        number, seat, game = np.nonzero(chosen)
        place = _SEEN + 2 * _SEATS * slot[number, game] + 2 * seat
        out[game, viewer, place] = bids[number, seat, game]
        out[game, viewer, place + 1] = 1

    def _limits(
        self, tail: Any, masks: Any, to_act: Any, phase: str, opening: Any, moving: Any
    ) -> None:
        """The bid limits of the seats to act into ``tail`` (the games that move,
        ``moving``, by seat: minimum, forbidden amount, 1 if one is), and the masks of every
        game."""
        rules, players = self.compiled, self.players
        sale = self.chunk.sale
        last = rules.last_tile and sale == rules.sales - 1
        auctioneer = None if last else sale % players
        rebid = phase == "rebidding"
        minimum = np.full(players, rules.min_secret_bid)
        may_equal = np.full(players, rules.rebid_may_equal if rebid else rules.secret_may_equal)
        if phase == "opening":
            minimum[:] = rules.min_opening_bid
            may_equal[:] = True
        elif auctioneer is not None:  # the auctioneer bids only when it rebids
            minimum[auctioneer] = rules.auctioneer_rebid_minimum
            may_equal[auctioneer] = rules.auctioneer_rebid_may_equal
        _limits_loop(
            tail, masks, to_act[moving], self._every[moving], minimum, may_equal,
            _NO_OPENING if opening is None else opening, self._column_array,
        )  # fmt: skip


_NONE: Final = np.zeros((0, 0), dtype=np.int64)  # every column at its own seat
_NO_OPENING: Final = np.zeros(0, dtype=np.int32)
_BID_CAP: Final = encode.BID_CAP


@compiled_loop
def _limits_loop(
    tail: Any, masks: Any, acts: Any, rows: Any, minimum: Any, may_equal: Any, opening: Any,
    columns: Any,
) -> None:  # fmt: skip
    """Per game that moves (``rows``; ``acts``: the seats that act in it): each seat's
    minimum, the opening bid where it may not equal it and 1 if so, into ``tail`` (by game
    that moves); and the masks of ``columns`` where they act: the amounts from the minimum
    to the cap, but the opening bid where it is forbidden (``opening``: empty where there
    is none)."""
    players = acts.shape[1]
    for index in range(acts.shape[0]):
        game = rows[index]
        for seat in range(players):
            acting = acts[index, seat]
            tail[index, seat, 0] = minimum[seat] * acting
            if opening.shape[0]:
                forbidding = acting and not may_equal[seat]
                tail[index, seat, 1] = opening[game] * forbidding
                tail[index, seat, 2] = forbidding
        for seat in columns:
            if not acts[index, seat]:
                continue
            low = minimum[seat]
            for amount in range(low, _BID_CAP + 1):
                masks[game, seat, amount] = True
            if opening.shape[0] and not may_equal[seat] and low <= opening[game] <= _BID_CAP:
                masks[game, seat, opening[game]] = False


_ZERO_ROUNDS: Final = _AT["zero_bid_rounds"]


@compiled_loop
def _zero_rounds_loop(out: Any, counts: Any, written: Any, columns: Any, seat_of: Any) -> None:
    """``zero_bid_rounds`` of ``columns`` in ``out``, in the games where ``counts`` (per
    column and game) differ from those ``written`` (then brought up to date). ``seat_of``:
    per game, the seat each column holds (empty: columns are written at their own seats)."""
    players, games = counts.shape
    for game in range(games):
        changed = False
        for column in range(players):
            changed |= counts[column, game] != written[column, game]
        if not changed:
            continue
        for column in range(players):
            at = seat_of[game, column] if seat_of.shape[0] else column
            for viewer in columns:
                out[game, viewer, _ZERO_ROUNDS + at] = counts[column, game]
            written[column, game] = counts[column, game]


@compiled_loop
def _sale_done_loop(
    out: Any, done: int, winner: Any, tile: Any, seat_of: Any, columns: Any, told: Any,
    blind: Any, amounts: Any, spent: Any,
) -> None:  # fmt: skip
    """Sale ``done`` is over, in the observations ``out`` of ``columns``: in each game it
    sold, the ``tile`` (an index of the library) to its winner's holdings; the amount to
    the winner's ``known_spend`` where the viewer knows it (``told``), else a tile more
    to its ``unknown_amounts`` (``blind``: another seat won it); and the winner's own
    spend, exact. ``seat_of``: per game, the seat each column holds (empty: columns are
    written at their own seats)."""
    holdings, ledger, companies = _HOLDINGS, _LEDGER, _COMPANIES
    for game in range(winner.shape[0]):
        won_by = winner[game]
        if won_by < 0:
            continue
        at = seat_of[game, won_by] if seat_of.shape[0] else won_by
        for column in columns:
            out[game, column, holdings + at * companies + tile[game]] = 1
            if told[column, done, game]:
                out[game, column, ledger + at] += amounts[done, game]
            elif blind[column, done, game]:
                out[game, column, ledger + _SEATS + at] += 1
            if column == won_by:
                out[game, column, ledger + at] = spent[won_by, game]
