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
``info["final_obs"]`` holds the last observations). The games are games ``0, 1, ...`` of the seed of :meth:`reset`, in
order, as :func:`qe_rules.batch.play` and :func:`qe_rules.simulation.play.play_game` deal
them (:mod:`qe_rules.game.draws`), with the seats numbered from each game's first
auctioneer: the environment's seat ``k`` is seat ``(first + k) % players`` of that game's
record, so seat 0 runs every game's first sale.

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

from qe_rules.errors import InvalidArgument, shown
from qe_rules.learning import encode
from qe_rules.learning.observer import BatchObserver, check_peek_timing, moment_key
from qe_rules.limits import MAX_VECTOR_ENVS
from qe_rules.rules.model import RuleSet, get_ruleset
from qe_rules.simulation.batch.agents import BidAsk, PeekAsk, legal
from qe_rules.simulation.batch.compiled import compile_rules
from qe_rules.simulation.batch.lockstep import Chunk, Draws, MoveLog
from qe_rules.simulation.play import _check_seed

__all__ = ["VECTOR_ENV_ID", "BatchVectorEnv"]

VECTOR_ENV_ID: Final = "qe_rules/QEBatch-v0"
"""The id under which the module registers :class:`BatchVectorEnv` with Gymnasium, as a
vector entry point: ``gymnasium.make_vec(VECTOR_ENV_ID, num_envs=N, ruleset=..., players=...)``."""


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
        if type(num_envs) is not int or not 1 <= num_envs <= MAX_VECTOR_ENVS:
            raise InvalidArgument(
                f"num_envs is a whole number from 1 to {MAX_VECTOR_ENVS} "
                f"(qe_rules.limits.MAX_VECTOR_ENVS), got {shown(num_envs)}"
            )
        if not isinstance(ruleset, RuleSet | str):
            raise InvalidArgument(f"a rule set is a RuleSet or a rule set id, got {shown(ruleset)}")
        if type(copy) is not bool:
            raise InvalidArgument(f"copy is True or False, got {shown(copy)}")
        self.rules = get_ruleset(ruleset)
        self.compiled = compile_rules(self.rules, players)
        check_peek_timing(self.compiled, "the vector environment")
        self.players = players
        self.num_envs = num_envs
        self.copy = copy
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
        self._observer = BatchObserver(self.compiled, num_envs, fresh_arrays=self.copy)
        self._question: BidAsk | PeekAsk | None = None
        self._started = False

    # ----------------------------------------------------------------- the engine

    def _start_games(self) -> None:
        rules = self.compiled
        draws = Draws(self._seed, self._next_game, self.num_envs, self.players, rules.sales)
        self._log = MoveLog()
        # the chunk's columns are the environment's seats: numbered from the first auctioneer
        chunk = Chunk(rules, draws, [_Asker()] * self.players, self._log)
        self.chunk = chunk
        self._next_game += self.num_envs
        self._sale = 0
        self._steps = chunk.sale_steps(0)
        self._question = next(self._steps)
        self._started = True
        self._observer.start(chunk, self._log)

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
            self._seed = _check_seed(seed)  # as batch.play's seeds
            self._next_game = 0
        self._start_games()
        self._observer.observe(self._question)
        observations, masks = self._handed()
        return observations, {"action_mask": masks}

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.float32], Any, Any, Any, dict[str, Any]]:
        """Play each awaited seat's action; see the module's documentation."""
        chosen = _checked_actions(actions, self.num_envs, self.players)
        question: Any = self._question
        if not self._started or question is None:
            raise InvalidArgument("call reset() before step()")
        key = moment_key(self.chunk, question)
        # every question of this moment is answered from the same actions
        while True:
            question = self._advance(self._answer(question, chosen))
            if question is None or moment_key(self.chunk, question) != key:
                break
        self._question = question
        done = np.zeros(self.num_envs, dtype=bool)
        self._observer.observe(self._question)
        if question is None:
            winners = self.chunk.score()["winners"].T
            rewards = (winners / np.maximum(winners.sum(axis=1, keepdims=True), 1)).astype(
                np.float32
            )
            done[:] = True
            info: dict[str, Any] = {
                "final_obs": self._observer.observations,
                "final_info": {"action_mask": self._observer.masks},
            }
            self._observer.turn_over()
            self._start_games()
            self._observer.observe(self._question)
            observations, info["action_mask"] = self._handed()
            return observations, rewards, done, np.zeros_like(done), info
        rewards = np.zeros((self.num_envs, self.players), dtype=np.float32)
        observations, masks = self._handed()
        return observations, rewards, done, np.zeros_like(done), {"action_mask": masks}

    def close(self, **kwargs: Any) -> None:
        """Let the games go (no thread or process to stop)."""
        self._started = False
        self._question = None

    def _handed(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        if self.copy:
            return self._observer.observations.copy(), self._observer.masks.copy()
        return self._observer.observations, self._observer.masks

    # ----------------------------------------------------------------- answers

    def _answer(self, question: Any, actions: npt.NDArray[Any]) -> Any:
        if question.rows is None:
            chosen = actions[:, question.seat].astype(np.int64)
        else:
            chosen = actions[question.rows, question.seat].astype(np.int64)
        if isinstance(question, PeekAsk):
            return chosen == encode.PEEK
        chosen = np.where(chosen > encode.BID_CAP, question.minimum, chosen)
        return legal(chosen, question.minimum, question.forbidden).astype(np.int32)


def _checked_actions(actions: object, games: int, players: int) -> npt.NDArray[np.integer[Any]]:
    """``actions`` as an array of ``(games, players)`` whole numbers of the action space
    (0 to ``ACTIONS - 1``); anything else raises :class:`~qe_rules.InvalidArgument`."""
    try:
        chosen = np.asarray(actions)
    except (ValueError, TypeError, OverflowError):  # ragged lists, unconvertible objects
        chosen = None
    expected = f"actions are ({games}, {players}) whole numbers from 0 to {encode.ACTIONS - 1}"
    if chosen is None or chosen.shape != (games, players):
        shape = None if chosen is None else chosen.shape
        raise InvalidArgument(
            f"{expected}, got {shown(actions) if shape is None else f'shape {shape}'}"
        )
    if not np.issubdtype(chosen.dtype, np.integer):
        raise InvalidArgument(f"{expected}, got an array of {chosen.dtype}")
    if chosen.size and (chosen.min() < 0 or chosen.max() >= encode.ACTIONS):
        raise InvalidArgument(f"{expected}, got values from {chosen.min()} to {chosen.max()}")
    return chosen


if VECTOR_ENV_ID not in gymnasium.registry:  # importing the module again registers nothing new
    gymnasium.register(
        VECTOR_ENV_ID, vector_entry_point="qe_rules.learning.vector_env:BatchVectorEnv"
    )
