"""Many QE games as one Gymnasium vector environment on the batched engine (needs the
``rl`` extra): every seat of every game acts through one action array per step.

>>> from qe_rules.learning.vector_env import BatchVectorEnv
>>> env = BatchVectorEnv("en", 4, num_envs=8)
>>> observations, info = env.reset(seed=1)
>>> observations.shape, info["action_mask"].shape
((8, 4, 265), (8, 4, 33))
>>> observations, rewards, terminated, truncated, info = env.step(env.action_space.sample())
>>> rewards.shape, bool(terminated.any())
((8, 4), False)
>>> env.close()

A step is one moment of the games in lockstep: an opening bid, the secret bids, a round
of rebids, or a peek window. The observation of each seat is its view encoded as
:func:`qe_rules.learning.encode.observation` encodes it, ``info["action_mask"]`` its
legal actions (:func:`~qe_rules.learning.encode.action_mask`), for every game: arrays of
``(num_envs, players, OBSERVATION_SIZE)`` and ``(num_envs, players, ACTIONS)``. The
action array is ``(num_envs, players)``: each awaited seat's action is read, the others
ignored. A game whose sale is settled while others rebid waits: its observation and mask
stay those of its last step, with nothing allowed. An action the mask forbids is played
as the nearest legal one (a bid raised to the smallest legal amount, a peek turned into a
decline). Every game of a step ends at the same step (they have the same number of
sales); the rewards, ``(num_envs, players)``, are then ``1 / len(winners)`` for each
winner and 0 otherwise, and every game starts again at once (``SAME_STEP`` autoreset:
``info["final_obs"]`` holds the last observations). The games are dealt as
:func:`qe_rules.batch.play` deals games ``0, 1, ...`` of the seed of :meth:`reset`, in
order, with seat 0 as every game's first auctioneer.

No thread runs: :meth:`step` drives the engine's generator of questions
(:meth:`~qe_rules.simulation.batch.lockstep.Chunk.sale_steps`, a seat's bids or peeks in
many games) and answers every question of the moment from its actions. The observations
and masks live in arrays made once; a step rewrites only what it changes (the phase, the
bids and limits of the moment; once a sale, the tile, holdings and what each seat knows
of the spends). ``copy=False`` hands out those arrays themselves (the next step
overwrites them; ``info["final_obs"]`` lasts until the autoreset after next, since two
sets of arrays take turns); the default ``copy=True`` hands out copies, as Gymnasium's vector
environments do.

The environment plays ``peek_timing=last-sale`` only (every built-in rule set's): another
timing raises :class:`~qe_rules.InvalidArgument` naming the field (the batch itself,
:func:`qe_rules.batch.play`, plays every timing).

The module registers the environment with Gymnasium as :data:`VECTOR_ENV_ID` (a vector
entry point)::

    env = gymnasium.make_vec("qe_rules/QEBatch-v0", num_envs=1024, ruleset="en", players=4)
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

import gymnasium
import numpy as np
import numpy.typing as npt

from qe_rules.components import COMPANIES
from qe_rules.errors import InvalidArgument, shown
from qe_rules.learning import encode
from qe_rules.rules.model import PeekTiming, RebidVisibility, RuleSet, get_ruleset
from qe_rules.simulation.batch.compiled import compile_rules
from qe_rules.simulation.batch.lockstep import Chunk, Draws, MoveLog
from qe_rules.simulation.batch.policies import BidAsk, PeekAsk, legal

__all__ = ["VECTOR_ENV_ID", "BatchVectorEnv"]

VECTOR_ENV_ID: Final = "qe_rules/QEBatch-v0"
"""The id under which the module registers :class:`BatchVectorEnv` with Gymnasium, as a
vector entry point: ``gymnasium.make_vec(VECTOR_ENV_ID, num_envs=N, ruleset=..., players=...)``."""

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


class _Asker:
    """The agent of every seat: the environment answers every question itself (it drives
    :meth:`~qe_rules.simulation.batch.lockstep.Chunk.sale_steps`), so this agent only
    asks the chunk to keep what each seat knows."""

    name: ClassVar[str] = "vector-env"
    reads_state: ClassVar[bool] = True

    def bids(self, ask: BidAsk) -> Any:
        raise AssertionError("the vector environment answers its questions itself")

    def peeks(self, ask: PeekAsk) -> Any:
        raise AssertionError("the vector environment answers its questions itself")


class BatchVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of ``ruleset`` with ``players`` players, stepped together.

    ``copy=False`` hands out the environment's own observation and mask arrays, which the
    next :meth:`step` or :meth:`reset` overwrites (copy what you keep; two sets take
    turns, one per autoreset, so ``final_obs`` is not among them); with ``copy=True``
    (the default, as Gymnasium's vector environments) each is a new array."""

    metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        ruleset: RuleSet | str = "en",
        players: int = 4,
        num_envs: int = 256,
        *,
        copy: bool = True,
    ) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise InvalidArgument(f"num_envs is a whole number >= 1, got {shown(num_envs)}")
        self.rules = get_ruleset(ruleset)
        if self.rules.peek_timing is not PeekTiming.LAST_SALE:
            raise InvalidArgument(
                f"the vector environment plays peek_timing={PeekTiming.LAST_SALE.value} only, "
                f"and {self.rules.id} has peek_timing={self.rules.peek_timing.value}; "
                "qe_rules.batch.play plays every timing"
            )
        self.compiled = compile_rules(self.rules, players)
        self.players = players
        self.num_envs = num_envs
        self.copy = bool(copy)
        high = np.float32(10**6)
        self.single_observation_space = gymnasium.spaces.Box(
            0, high, (players, encode.OBSERVATION_SIZE), np.float32
        )
        self.single_action_space = gymnasium.spaces.MultiDiscrete([encode.ACTIONS] * players)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, num_envs
        )
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self._seed = 0
        self._next_game = 0
        # the observations and masks, written in place: only what a step changes
        self._obs = np.zeros((num_envs, players, encode.OBSERVATION_SIZE), np.float32)
        self._masks = np.zeros((num_envs, players, encode.ACTIONS), dtype=bool)
        self._spare: tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]] | None = None
        self._in_library = np.array(
            [_COMPANY_INDEX[c] for c in self.rules.companies(players)], dtype=np.int64
        )
        self._every = np.arange(num_envs)
        self._question: BidAsk | PeekAsk | None = None
        self._started = False

    # ----------------------------------------------------------------- the engine

    def _start_games(self) -> None:
        rules = self.compiled
        draws = Draws(self._seed, self._next_game, self.num_envs, self.players, rules.sales)
        self._log = MoveLog()
        chunk = Chunk(rules, draws, [_Asker()] * self.players, self._log)
        chunk.first[:] = 0  # every game's first auctioneer is seat 0: columns are seats
        chunk.actual_seat = np.broadcast_to(
            np.arange(self.players)[:, None], chunk.actual_seat.shape
        )
        self.chunk = chunk
        self._next_game += self.num_envs
        self._sale = 0
        self._steps = chunk.sale_steps(0)
        self._question = next(self._steps)
        self._started = True
        self._new_table()

    def _advance(self, answer: Any) -> BidAsk | PeekAsk | None:
        """Send ``answer`` to the engine; its next question (``None``: the games are over)."""
        try:
            return self._steps.send(answer)
        except StopIteration:
            pass
        self._sale += 1
        if self._sale >= self.compiled.sales:
            return None
        self._steps = self.chunk.sale_steps(self._sale)
        return next(self._steps)

    # ----------------------------------------------------------------- the API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Start ``num_envs`` new games: games 0 to ``num_envs - 1`` of the run with
        ``seed`` (then the next ones at each autoreset)."""
        if seed is not None:
            self._seed = seed
            self._next_game = 0
        self._start_games()
        self._observe()
        observations, masks = self._handed()
        return observations, {"action_mask": masks}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.float32], Any, Any, Any, dict[str, Any]]:
        """Play each awaited seat's action; see the module's documentation."""
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs, self.players):
            raise InvalidArgument(
                f"actions are ({self.num_envs}, {self.players}) whole numbers, got shape {chosen.shape}"
            )
        question: Any = self._question
        if not self._started or question is None:
            raise InvalidArgument("call reset() before step()")
        key = self._key(question)
        # every question of this moment is answered from the same actions
        while True:
            question = self._advance(self._answer(question, chosen))
            if question is None or self._key(question) != key:
                break
        self._question = question
        done = np.zeros(self.num_envs, dtype=bool)
        self._observe()
        if question is None:
            winners = self.chunk.score()["winners"].T
            rewards = (winners / np.maximum(winners.sum(axis=1, keepdims=True), 1)).astype(
                np.float32
            )
            done[:] = True
            info: dict[str, Any] = {
                "final_obs": self._obs,
                "final_info": {"action_mask": self._masks},
            }
            self._turn_over()
            self._start_games()
            self._observe()
            observations, info["action_mask"] = self._handed()
            return observations, rewards, done, np.zeros_like(done), info
        rewards = np.zeros((self.num_envs, self.players), dtype=np.float32)
        observations, masks = self._handed()
        return observations, rewards, done, np.zeros_like(done), {"action_mask": masks}

    def close(self, **kwargs: Any) -> None:
        """Let the games go (no thread or process to stop)."""
        self._started = False
        self._question = None

    def _turn_over(self) -> None:
        """The last observations and masks stay with ``info["final_obs"]``: new games
        are written into other arrays (with ``copy=False``, the spare pair, which the
        games before last used; else new ones)."""
        if self.copy:
            self._obs = np.empty_like(self._obs)
            self._masks = np.empty_like(self._masks)
        else:
            if self._spare is None:
                self._spare = (np.empty_like(self._obs), np.empty_like(self._masks))
            spare, self._spare = self._spare, (self._obs, self._masks)
            self._obs, self._masks = spare

    def _handed(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        if self.copy:
            return self._obs.copy(), self._masks.copy()
        return self._obs, self._masks

    # ----------------------------------------------------------------- answers

    def _key(self, question: Any) -> tuple[Any, ...]:
        sale = self.chunk.sale
        if isinstance(question, PeekAsk):
            return ("peek", sale)
        if question.phase == "rebid":
            assert self.chunk.rebid_round is not None
            return ("rebid", sale, self.chunk.rebid_round[0])
        return (question.phase, sale)

    def _answer(self, question: Any, actions: npt.NDArray[Any]) -> Any:
        if question.rows is None:
            chosen = actions[:, question.seat].astype(np.int64)
        else:
            chosen = actions[question.rows, question.seat].astype(np.int64)
        if isinstance(question, PeekAsk):
            return chosen == encode.PEEK
        chosen = np.where(chosen > encode.BID_CAP, question.minimum, chosen)
        return legal(chosen, question.minimum, question.forbidden).astype(np.int32)

    # ----------------------------------------------------------------- observations

    def _new_table(self) -> None:
        """New games: the observations hold only what never changes in a game (the
        players, seat, sales, nations and tokens); the rest is written as it comes."""
        chunk, rules, players = self.chunk, self.compiled, self.players
        out = self._obs
        out[:] = 0
        every = self._every
        seats = np.arange(players)
        out[:, :, _AT["players"] + players - 1] = 1
        out[:, seats, _AT["seat"] + seats] = 1
        nations = np.array(rules.nations)[chunk.nations]  # (games, seats)
        for seat in range(players):
            out[every, :, _AT["nations"] + seat * 5 + nations[:, seat]] = 1
        tokens = np.array(rules.industries)[chunk.tokens]
        out[every[:, None], seats, _AT["industry"] + tokens] = 1
        self._shown_sale: tuple[int, bool] = (-1, False)  # the sale shown, and if over
        self._applied = 0  # the finished sales written into the observations
        self._peeks_applied = 0  # the sales whose peeks are written
        # where each seat's own spend is, in the observations as one flat array
        seat_rows = np.arange(self.num_envs)[:, None] * players + seats
        self._own_spend = (seat_rows * encode.OBSERVATION_SIZE + _LEDGER + seats).ravel()
        self._bid_rows: list[Any] = []  # the games whose my_bids or seen_bids may be set
        # per game, the numbers every seat's observation shares from the phase to the
        # tied seats (written as one region at every step)
        self._front = np.zeros((self.num_envs, _FRONT_END - _FRONT), np.float32)

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
                zeros = _AT["zero_bid_rounds"]
                out[:, :, zeros : zeros + players] = chunk.zero_counts.T[:, None, :]
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
                front[:, _TILE + len(COMPANIES) + sale % players] = 1
        else:
            front[:, at + 2] = 0 if over else -1
            front[:, at + 3] = rules.round_of[-1]

    def _sale_done(self, done: int) -> None:
        """Sale ``done`` is over: its tile to its winner, what each seat learnt of it."""
        chunk, players, out = self.chunk, self.players, self._obs
        knowledge = chunk.knowledge
        assert knowledge is not None
        winner = chunk.winners[done]
        won = np.flatnonzero(winner >= 0)
        by = winner[won]
        tile = self._in_library[chunk.deck[won, done]]
        place = _AT["holdings"] + by * len(COMPANIES) + tile
        # one flat index per game won and viewer (the array is contiguous)
        flat = out.reshape(-1)
        viewers = won[:, None] * players + np.arange(players)
        flat[viewers * encode.OBSERVATION_SIZE + place[:, None]] = 1
        # per game won and viewer, added to the winner's known_spend (the amount, if the
        # viewer knows it) or else to its unknown_amounts (a tile more, unless the viewer
        # won it)
        known = knowledge.known[:, done, won].T
        blind = np.isnan(known)
        added = np.where(blind, ~np.isnan(knowledge.unknown[:, done, won].T), known)
        flat[viewers * encode.OBSERVATION_SIZE + (_LEDGER + by)[:, None] + _SEATS * blind] += added
        flat[self._own_spend] = knowledge.spent.T.ravel()  # each seat's own spend, exact

    def _peeks_of(self, done: int) -> None:
        """The peeks at sale ``done``: what each peeker learnt, and the peeks used."""
        chunk, players = self.chunk, self.players
        peeked = self._log.peeked[done]
        if peeked is None or not peeked.any():
            return
        knowledge = chunk.knowledge
        assert knowledge is not None
        winner = chunk.winners[done]
        for column in range(players):
            games = np.flatnonzero(peeked >> column & 1)
            if not games.size:
                continue
            known = knowledge.known[column, done, games]
            told = ~np.isnan(known)
            games, seat = games[told], winner[games[told]]
            self._obs[games, column, _LEDGER + seat] += known[told]
            self._obs[games, column, _LEDGER + _SEATS + seat] -= 1
        used = _AT["peeks_used"]
        self._obs[:, :, used : used + players] = chunk.peeks_used.T[:, None, :]

    def _observe(self) -> None:
        """Bring every seat's observation and mask in every game up to now, in place:
        each region a step changes is written once, as a whole (no clearing pass)."""
        chunk, players, games = self.chunk, self.players, self.num_envs
        out, masks = self._obs, self._masks
        question: Any = self._question
        seats = np.arange(players)
        over = question is None
        peeking = isinstance(question, PeekAsk)
        sale = chunk.sale + 1 if (over or peeking) else chunk.sale
        self._sale_part(sale, over, peeking)
        rules = self.compiled
        last = rules.last_tile and sale == rules.sales - 1
        auctioneer = None if (last or sale >= rules.sales) else sale % players
        masks[:] = False
        phase = "over" if over else "peeking" if peeking else _PHASE_OF[question.phase]
        rebid = phase == "rebidding"
        if not rebid:  # the bids of the last sale's rebids, and the opening bid, wiped
            for where, seat in self._bid_rows:
                if seat is None:
                    out[where, :, _BIDS:_BIDS_END] = 0
                else:  # the auctioneer's opening bid alone
                    out[where, seat, _BIDS : _BIDS + 2] = 0
            self._bid_rows = []
        tail = np.zeros((games, players, 4), np.float32)  # limits, can_peek
        to_act: Any
        opening = None
        if rebid:
            assert chunk.rebid_round is not None
            _, acting, code, in_a_row = chunk.rebid_round
            rows: Any = acting
            front = self._front[acting]
            moment = front[:, _MOMENT:]  # the opening bid, who acts, who is tied
            moment[:] = 0
            front[:, _TIES] = in_a_row
            to_act = np.zeros((games, players), dtype=bool)
            rebidding = (code[:, None] >> seats & 1).astype(bool)
            to_act[acting] = rebidding
            tail = tail[acting]
            moment[:, 2 : 2 + players] = rebidding
            moment[:, 7 : 7 + players] = rebidding
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
                moment[:, 2 : 2 + players] = to_act
                tail[:, :, 3] = to_act
                masks[:, :, encode.PEEK] = to_act
                masks[:, :, encode.DECLINE_PEEK] = to_act
            elif phase == "opening":
                to_act = np.zeros((games, players), dtype=bool)
                to_act[:, question.seat] = True
                moment[:, 2 + question.seat] = 1
            elif phase == "bidding":
                opening = chunk.opening
                to_act = np.broadcast_to(seats != auctioneer, (games, players))
                moment[:, 2 : 2 + players] = to_act[0]
            else:
                to_act = np.zeros((games, players), dtype=bool)
        if opening is not None:
            moment[:, 0] = opening[rows]
            moment[:, 1] = 1
        front[:, : len(encode.PHASES)] = 0
        front[:, _PHASE[phase]] = 1
        out[rows, :, _FRONT:_FRONT_END] = front[:, None, :]
        if phase in ("opening", "bidding", "rebidding"):
            self._limits(tail, masks, to_act, phase, opening)
            self._bids_seen(phase, sale, auctioneer, acting)
        out[rows, :, _AT["limits"] : _AT["limits"] + 4] = tail

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
        out[acting, :, _BIDS:_BIDS_END] = block
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

    def _limits(self, tail: Any, masks: Any, to_act: Any, phase: str, opening: Any) -> None:
        """The bid limits of the seats to act into ``tail`` (the games that move, by
        seat: minimum, forbidden amount, 1 if one is), and the masks of every game."""
        rules, players = self.compiled, self.players
        sale = self.chunk.sale
        last = rules.last_tile and sale == rules.sales - 1
        auctioneer = None if last else sale % players
        rebid = phase == "rebidding"
        moving = self.chunk.rebid_round[1] if rebid else slice(None)  # type: ignore[index]
        minimum = np.full(players, rules.min_secret_bid)
        may_equal = np.full(players, rules.rebid_may_equal if rebid else rules.secret_may_equal)
        if phase == "opening":
            minimum[:] = rules.min_opening_bid
            may_equal[:] = True
        elif auctioneer is not None:  # the auctioneer bids only when it rebids
            minimum[auctioneer] = rules.auctioneer_rebid_minimum
            may_equal[auctioneer] = rules.auctioneer_rebid_may_equal
        acts = to_act[moving]
        if not rebid:  # every game alike: one row of seats to act, one write each
            self._limits_alike(tail, masks, acts[0], minimum, may_equal, opening)
            return
        tail[:, :, 0] = acts * minimum
        if opening is not None:
            forbidding = acts & ~may_equal
            tail[:, :, 1] = forbidding * opening[moving][:, None]
            tail[:, :, 2] = forbidding
        rows = self._every[moving]  # the games that move
        for seat in range(players):
            seat_acts = acts[:, seat]
            if not seat_acts.any():
                continue
            everywhere = bool(seat_acts.all())
            games = rows if everywhere else rows[seat_acts]
            low = int(minimum[seat])
            masks[games, seat, low : encode.BID_CAP + 1] = True
            if opening is None or may_equal[seat]:
                continue
            amount = opening[games]  # the opening bid, forbidden where it is a bid allowed
            inside = (amount >= low) & (amount <= encode.BID_CAP)
            masks[games[inside], seat, amount[inside]] = False

    def _limits_alike(
        self, tail: Any, masks: Any, row: Any, minimum: Any, may_equal: Any, opening: Any
    ) -> None:
        """:meth:`_limits` where the same seats act in every game (``row``)."""
        row = np.asarray(row, dtype=bool)
        tail[:, :, 0] = row * minimum
        forbidding = row & ~may_equal if opening is not None else row & False
        if forbidding.any():
            tail[:, :, 1] = forbidding * opening[:, None]
            tail[:, :, 2] = forbidding
        lows = minimum.tolist()
        acting = np.flatnonzero(row).tolist()
        for seat in acting:
            masks[:, seat, lows[seat] : encode.BID_CAP + 1] = True
        for low in {lows[seat] for seat in acting}:
            seats = np.flatnonzero(forbidding & (minimum == low))
            if seats.size:  # the opening bid, forbidden where it is a bid allowed
                games = np.flatnonzero((opening >= low) & (opening <= encode.BID_CAP))
                masks[games[:, None], seats, opening[games][:, None]] = False


if VECTOR_ENV_ID not in gymnasium.registry:  # importing the module again registers nothing new
    gymnasium.register(
        VECTOR_ENV_ID, vector_entry_point="qe_rules.learning.vector_env:BatchVectorEnv"
    )
