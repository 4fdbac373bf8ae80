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

The engine runs in a helper thread that hands each question of the lockstep (a seat's
bids in many games) to :meth:`step`.
"""

from __future__ import annotations

import queue
import threading
from typing import Any, ClassVar, Final

import gymnasium
import numpy as np
import numpy.typing as npt

from qe_rules.components import COMPANIES
from qe_rules.errors import InvalidArgument, shown
from qe_rules.learning import encode
from qe_rules.rules.model import RebidVisibility, RuleSet, get_ruleset
from qe_rules.simulation.batch.compiled import compile_rules
from qe_rules.simulation.batch.lockstep import Chunk, Draws, MoveLog
from qe_rules.simulation.batch.policies import BidAsk, PeekAsk, legal

__all__ = ["BatchVectorEnv"]

_AT: Final = {}
_start = 0
for _name, _size in encode.OBSERVATION_FIELDS:
    _AT[_name] = _start
    _start += _size
_SEATS: Final = encode.MAX_SEATS
_PHASE: Final = {phase: index for index, phase in enumerate(encode.PHASES)}
_COMPANY_INDEX: Final = {company: index for index, company in enumerate(COMPANIES)}


class _Asker:
    """The agent of every seat: hands each question to the environment and waits."""

    name: ClassVar[str] = "vector-env"
    reads_state: ClassVar[bool] = True

    def __init__(self, env: BatchVectorEnv) -> None:
        self.env = env

    def bids(self, ask: BidAsk) -> Any:
        return self.env._ask(ask)

    def peeks(self, ask: PeekAsk) -> Any:
        return self.env._ask(ask)


class BatchVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of ``ruleset`` with ``players`` players, stepped together."""

    metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self, ruleset: RuleSet | str = "en", players: int = 4, num_envs: int = 256
    ) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise InvalidArgument(f"num_envs is a whole number >= 1, got {shown(num_envs)}")
        self.rules = get_ruleset(ruleset)
        self.compiled = compile_rules(self.rules, players)
        self.players = players
        self.num_envs = num_envs
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
        self._thread: threading.Thread | None = None
        self._questions: queue.Queue[Any] = queue.Queue(maxsize=1)
        self._answers: queue.Queue[Any] = queue.Queue(maxsize=1)
        self._stop = False
        self._playing: tuple[tuple[Any, ...], npt.NDArray[Any]] | None = None

    # ----------------------------------------------------------------- the engine thread

    def _ask(self, ask: BidAsk | PeekAsk) -> Any:
        """In the engine thread: answer a question of the step being played from its
        actions, or hand it over (the first of the next step) and wait for its answer."""
        playing = self._playing
        if playing is not None and self._key(ask) == playing[0]:
            return self._answer(ask, playing[1])
        self._questions.put(ask)
        answer = self._answers.get()
        if answer is None:
            raise _Stopped
        return answer

    def _play(self, chunk: Chunk) -> None:
        try:
            for sale in range(self.compiled.sales):
                chunk.play_sale(sale)
        except _Stopped:
            return
        self._questions.put(None)  # the games are over

    def _start_games(self) -> None:
        self._halt()
        rules = self.compiled
        draws = Draws(self._seed, self._next_game, self.num_envs, self.players, rules.sales)
        self._log = MoveLog()
        chunk = Chunk(rules, draws, [_Asker(self)] * self.players, self._log)
        chunk.first[:] = 0  # every game's first auctioneer is seat 0: columns are seats
        chunk.actual_seat = np.broadcast_to(
            np.arange(self.players)[:, None], chunk.actual_seat.shape
        )
        self.chunk = chunk
        self._next_game += self.num_envs
        self._table_key: tuple[Any, ...] | None = None
        self._last_obs = np.zeros(
            (self.num_envs, self.players, encode.OBSERVATION_SIZE), np.float32
        )
        self._thread = threading.Thread(target=self._play, args=(chunk,), daemon=True)
        self._thread.start()
        self._question = self._questions.get()

    def _halt(self) -> None:
        thread = self._thread
        if thread is not None and thread.is_alive():
            self._answers.put(None)
            thread.join()
        self._thread = None
        while not self._questions.empty():
            self._questions.get()

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
        observations, masks = self._observe()
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
        # the engine thread answers the step's other questions itself from these actions
        self._playing = (self._key(self._question), chosen)
        self._answers.put(self._answer(self._question, chosen))
        self._question = self._questions.get()
        self._playing = None
        rewards = np.zeros((self.num_envs, self.players), dtype=np.float32)
        done = np.zeros(self.num_envs, dtype=bool)
        if self._question is None:
            observations, masks = self._observe()
            winners = self.chunk.score()["winners"].T
            rewards = (winners / np.maximum(winners.sum(axis=1, keepdims=True), 1)).astype(
                np.float32
            )
            done[:] = True
            info: dict[str, Any] = {
                "final_obs": observations,
                "final_info": {"action_mask": masks},
            }
            self._start_games()
            observations, masks = self._observe()
            info["action_mask"] = masks
            return observations, rewards, done, np.zeros_like(done), info
        observations, masks = self._observe()
        return observations, rewards, done, np.zeros_like(done), {"action_mask": masks}

    def close(self, **kwargs: Any) -> None:
        """Stop the engine thread."""
        self._halt()

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
        rows = question.rows if question.rows is not None else np.arange(self.num_envs)
        chosen = actions[rows, question.seat].astype(np.int64)
        if isinstance(question, PeekAsk):
            return chosen == encode.PEEK
        chosen = np.where(chosen > encode.BID_CAP, question.minimum, chosen)
        return legal(chosen, question.minimum, question.forbidden).astype(np.int32)

    # ----------------------------------------------------------------- observations

    def _observe(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Every seat's observation and mask in every game, now."""
        chunk, players = self.chunk, self.players
        games = self.num_envs
        question = self._question
        seats = np.arange(players)
        every = np.arange(games)
        over = question is None
        peeking = isinstance(question, PeekAsk)
        sale = chunk.sale + 1 if (over or peeking) else chunk.sale
        key = (id(chunk), sale, peeking, over)
        if key != self._table_key:  # what changes only between sales: made once a sale
            self._table = self._table_part(sale, over)
            self._table_key = key
        out = self._table.copy()
        masks = np.zeros((games, players, encode.ACTIONS), dtype=bool)
        to_act = np.zeros((games, players), dtype=bool)
        acting = every
        opening = None
        phase = "over"
        at = _AT["sale"]
        if over:
            pass
        elif peeking:
            phase = "peeking"
            assert chunk.peek_window is not None
            to_act = chunk.peek_window.T.copy()
        elif question.phase == "opening":
            phase = "opening"
            to_act[:, question.seat] = True
        elif question.phase == "secret":
            phase = "bidding"
            opening = chunk.opening
            auctioneer = None if opening is None else sale % players
            to_act[:] = seats != auctioneer if auctioneer is not None else True
        else:
            phase = "rebidding"
            opening = chunk.opening
            assert chunk.rebid_round is not None
            _, acting, code, in_a_row = chunk.rebid_round
            to_act[acting] = (code[:, None] >> seats & 1).astype(bool)
            out[acting, :, at + 4] = in_a_row[:, None]
            out[acting, :, _AT["tied"] : _AT["tied"] + players] = to_act[acting][:, None, :]
        out[:, :, _AT["phase"] + _PHASE[phase]] = 1
        if opening is not None:
            out[:, :, _AT["opening_bid"]] = opening[:, None]
            out[:, :, _AT["opening_bid"] + 1] = 1
        out[:, :, _AT["to_act"] : _AT["to_act"] + players] = to_act[:, None, :]
        if not over and not peeking:
            self._bids_seen(out, phase, sale, acting)
            self._limits(out, masks, to_act, phase, sale, opening)
        if peeking:
            out[:, :, _AT["can_peek"]] = to_act
            masks[:, :, encode.PEEK] = to_act
            masks[:, :, encode.DECLINE_PEEK] = to_act
        if phase == "rebidding":  # the games that wait show their last step, allowing nothing
            waiting = np.ones(games, dtype=bool)
            waiting[acting] = False
            out[waiting] = self._last_obs[waiting]
        self._last_obs = out
        return out, masks

    def _table_part(self, sale: int, over: bool) -> npt.NDArray[np.float32]:
        """The numbers of every seat's observation that change only between sales: the
        players, seat, sale, tile, auctioneer, nations, token, holdings, what each seat
        knows of the spends, the zero bids and the peeks."""
        chunk, rules, players = self.chunk, self.compiled, self.players
        games = self.num_envs
        seats = np.arange(players)
        every = np.arange(games)
        finished = sale  # the sales finished before this moment
        out = np.zeros((games, players, encode.OBSERVATION_SIZE), dtype=np.float32)
        out[:, :, _AT["players"] + players - 1] = 1
        out[:, seats, _AT["seat"] + seats] = 1
        at = _AT["sale"]
        out[:, :, at] = sale
        out[:, :, at + 1] = rules.sales
        in_library = np.array([_COMPANY_INDEX[c] for c in self.rules.companies(players)])
        if sale < rules.sales:
            out[:, :, at + 2] = rules.sales - sale - 1
            out[:, :, at + 3] = rules.round_of[sale]
            index = in_library[chunk.deck[:, sale]]
            out[every, :, _AT["company"] + index] = 1
            if not (rules.last_tile and sale == rules.sales - 1):
                out[:, :, _AT["auctioneer"] + sale % players] = 1
        else:
            out[:, :, at + 2] = 0 if over else -1
            out[:, :, at + 3] = rules.round_of[-1]
        nations = np.array(rules.nations)[chunk.nations]  # (games, seats)
        for seat in range(players):
            out[every, :, _AT["nations"] + seat * 5 + nations[:, seat]] = 1
        tokens = np.array(rules.industries)[chunk.tokens]
        out[every[:, None], seats, _AT["industry"] + tokens] = 1
        for done in range(finished):
            winner = chunk.winners[done]
            won = np.flatnonzero(winner >= 0)
            tile = in_library[chunk.deck[won, done]]
            place = _AT["holdings"] + winner[won] * len(COMPANIES) + tile
            out[won[:, None], :, place[:, None]] = 1
        knowledge = chunk.knowledge
        assert knowledge is not None
        won_by = chunk.winners[:finished]
        for viewer in range(players):
            known = knowledge.known[viewer][:finished]  # (sales, games)
            unknown = ~np.isnan(knowledge.unknown[viewer][:finished])
            for seat in range(players):
                if seat == viewer:
                    continue
                mine = won_by == seat
                out[:, viewer, _AT["known_spend"] + seat] = np.where(
                    mine & ~np.isnan(known), known, 0
                ).sum(axis=0)
                out[:, viewer, _AT["unknown_amounts"] + seat] = (mine & unknown).sum(axis=0)
            out[:, viewer, _AT["known_spend"] + viewer] = knowledge.spent[viewer]
        zeros = _AT["zero_bid_rounds"]
        out[:, :, zeros : zeros + players] = chunk.zero_counts.T[:, None, :]
        out[:, :, _AT["peeks_used"] : _AT["peeks_used"] + players] = chunk.peeks_used.T[:, None, :]
        return out

    def _bids_seen(self, out: Any, phase: str, sale: int, acting: Any) -> None:
        """``my_bids`` and ``seen_bids``: the closed rounds of this sale (and the opening
        bid, the auctioneer's own bid in the open round), the latest
        :data:`~qe_rules.learning.encode.ROUNDS_KEPT` of them."""
        chunk, players = self.chunk, self.players
        log = self._log
        last = self.compiled.last_tile and sale == self.compiled.sales - 1
        auctioneer = None if last else sale % players
        if phase == "bidding":
            if auctioneer is not None and chunk.opening is not None:
                out[:, auctioneer, _AT["my_bids"]] = chunk.opening
                out[:, auctioneer, _AT["my_bids"] + 1] = 1
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
        # my_bids: each seat's own bids, the latest kept
        order = np.cumsum(valid, axis=0) - 1
        slot = order - np.maximum(valid.sum(axis=0) - kept, 0)
        chosen = valid & (slot >= 0)
        number, seat, game = np.nonzero(chosen)
        place = _AT["my_bids"] + 2 * slot[number, seat, game]
        out[acting[game], seat, place] = bids[number, seat, game]
        out[acting[game], seat, place + 1] = 1
        # seen_bids (qe_rules.game._secrecy.seen_rounds): the auctioneer sees every closed
        # round (the first only under first-bids); under tied-players a seat that rebid
        # in a round sees that round. Rounds are numbered over the game's closed rounds,
        # the latest kept.
        visibility = self.compiled.rebid_visibility
        held = valid.any(axis=1)  # (rounds, games): the round was played in the game
        if auctioneer is not None:
            if visibility is RebidVisibility.FIRST_BIDS:
                first = valid[:1]
                seat, game = np.nonzero(first[0])
                place = _AT["seen_bids"] + 2 * seat
                out[acting[game], auctioneer, place] = bids[0, seat, game]
                out[acting[game], auctioneer, place + 1] = 1
            else:
                self._rounds_seen(out, bids, valid, held, acting, auctioneer, None)
        if visibility is RebidVisibility.TIED_PLAYERS and len(bids) > 1:
            for viewer in range(players):
                if viewer != auctioneer:
                    self._rounds_seen(out, bids, valid, held, acting, viewer, valid[:, viewer])

    def _rounds_seen(
        self,
        out: Any,
        bids: Any,
        valid: Any,
        held: Any,
        acting: Any,
        viewer: int,
        rounds: Any,
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
        place = _AT["seen_bids"] + 2 * _SEATS * slot[number, game] + 2 * seat
        out[acting[game], viewer, place] = bids[number, seat, game]
        out[acting[game], viewer, place + 1] = 1

    def _limits(
        self, out: Any, masks: Any, to_act: Any, phase: str, sale: int, opening: Any
    ) -> None:
        rules, players = self.compiled, self.players
        last = rules.last_tile and sale == rules.sales - 1
        auctioneer = None if last else sale % players
        amounts = np.arange(encode.BID_CAP + 1)
        for seat in range(players):
            if phase == "opening":
                minimum, forbidden = rules.min_opening_bid, None
            elif seat == auctioneer:  # rebidding after a tie
                minimum = rules.auctioneer_rebid_minimum
                may_equal = rules.auctioneer_rebid_may_equal
                forbidden = None if (opening is None or may_equal) else opening
            else:
                minimum = rules.min_secret_bid
                may_equal = (
                    rules.rebid_may_equal if phase == "rebidding" else rules.secret_may_equal
                )
                forbidden = None if (opening is None or may_equal) else opening
            acts = to_act[:, seat]
            out[acts, seat, _AT["limits"]] = minimum
            allowed = amounts[None, :] >= minimum
            if forbidden is not None:
                out[acts, seat, _AT["limits"] + 1] = forbidden[acts]
                out[acts, seat, _AT["limits"] + 2] = 1
                allowed = allowed & (amounts[None, :] != forbidden[:, None])
            masks[:, seat, : encode.BID_CAP + 1] = np.where(acts[:, None], allowed, False)


class _Stopped(Exception):
    """The environment was closed or reset while the engine waited for an answer."""
