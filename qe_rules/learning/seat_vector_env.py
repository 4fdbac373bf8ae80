"""One learner against built-in or batched opponents in many games at once, as a Gymnasium
vector environment for single-agent learners (needs the ``rl`` extra).

>>> from qe_rules.learning.seat_vector_env import SeatVectorEnv
>>> env = SeatVectorEnv("en", 4, num_envs=8, opponents="value")
>>> observations, info = env.reset(seed=1)
>>> observations.shape, info["action_mask"].shape
((8, 265), (8, 33))
>>> observations, rewards, terminated, truncated, info = env.step(env.action_space.sample())
>>> rewards.shape, terminated.shape
((8,), (8,))

Each of the ``num_envs`` games seats the learner in one place and an opponent in each
other: a batched agent (a name of :data:`qe_rules.batch.BATCH_AGENTS` such as ``"value"``,
``"random"`` or ``"trained"``, or any :class:`~qe_rules.simulation.batch.agents.BatchAgent`,
for instance :class:`~qe_rules.learning.policies.PolicyBatchAgent` of a policy), given once
for all of them or as a list, the seats after the learner's in turn. The opponents answer
in the batch itself; a step is the learner's next decision. Its observation is the
encoding of its own view (:func:`qe_rules.learning.encode.observation`, as
:class:`~qe_rules.gymnasium_env.QESeatEnv` gives it), ``info["action_mask"]`` its legal
actions; the shapes are Gymnasium's for a vector of single-agent environments:
observations ``(num_envs, OBSERVATION_SIZE)``, actions, rewards, ``terminated`` and
``truncated`` ``(num_envs,)``.

The games run in lockstep (:mod:`qe_rules.simulation.batch.lockstep`), so the learner has
the same place in all of them: ``seat`` counts from each game's first auctioneer
(``0``: the learner runs the first sale), or ``"rotate"`` (the default) moves it one place
on for every new set of games. Each sale it decides in every game at once (its opening
bid or its secret bid); a rebid round or peek window asks it only in the games where it
is tied or may peek, and the others wait: ``info["waiting"]`` marks them, their mask
allows only action 0, which is ignored, and their observation is the last one. Game ``i``
of a seed is :func:`qe_rules.simulation.play.play_game`'s game ``i``, the learner in the
seat ``(first auctioneer + seat) % players`` and the opponents with their keyed seeds.

All games end at the same step (they have the same number of sales): the rewards
(``reward=``, as in :mod:`qe_rules.learning.rewards`) are paid then, and new games start
at once (same-step autoreset): ``info["final_obs"]`` holds the last observations,
``info["_final_obs"]`` marks the games that ended (all of them), ``info["final_info"]``
the games' spends, totals, win shares and eliminations, with ``info["_final_info"]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt

from qe_rules.errors import InvalidArgument, shown
from qe_rules.learning import encode
from qe_rules.learning.observer import BatchObserver, check_peek_timing
from qe_rules.learning.rewards import REWARDS, batch_rewards
from qe_rules.learning.vector_env import _Asker
from qe_rules.rules.model import RuleSet, get_ruleset
from qe_rules.simulation.batch.agents import BatchAgent, BidAsk, PeekAsk, legal
from qe_rules.simulation.batch.chunks import check_batch_agents
from qe_rules.simulation.batch.compiled import compile_rules
from qe_rules.simulation.batch.lockstep import Chunk, Draws, MoveLog

__all__ = ["SEAT_VECTOR_ENV_ID", "SeatVectorEnv"]

SEAT_VECTOR_ENV_ID = "qe_rules/QESeatBatch-v0"
"""The id under which the module registers :class:`SeatVectorEnv` with Gymnasium, as a
vector entry point."""


class _Learner(_Asker):
    """The learner's place at the table: the environment answers its questions."""

    name: ClassVar[str] = "learner"


class SeatVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of ``ruleset`` with ``players`` players: one learner, the other
    seats ``opponents`` (see the module)."""

    metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        ruleset: RuleSet | str = "en",
        players: int = 4,
        num_envs: int = 256,
        *,
        opponents: object = "value",
        seat: int | str = "rotate",
        reward: str = "win",
        copy: bool = True,
    ) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise InvalidArgument(f"num_envs is a whole number >= 1, got {shown(num_envs)}")
        self.rules = get_ruleset(ruleset)
        self.compiled = compile_rules(self.rules, players)
        check_peek_timing(self.compiled, "the vector environment")
        self.players = players = self.compiled.players
        if seat != "rotate" and (type(seat) is not int or not 0 <= seat < players):
            raise InvalidArgument(
                f'seat is "rotate" or a place from 0 to {players - 1}, got {shown(seat)}'
            )
        if reward not in REWARDS:
            raise InvalidArgument(f"reward is one of {', '.join(REWARDS)}, got {shown(reward)}")
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            opponents = [opponents] * (players - 1)
        self.opponents: tuple[BatchAgent, ...] = check_batch_agents(list(opponents), players - 1)
        self.seat = seat
        self.reward = reward
        self.num_envs = num_envs
        self.copy = bool(copy)
        self.single_observation_space = gymnasium.spaces.Box(
            0, np.float32(10**6), (encode.OBSERVATION_SIZE,), np.float32
        )
        self.single_action_space = gymnasium.spaces.Discrete(encode.ACTIONS)
        self.observation_space = gymnasium.vector.utils.batch_space(
            self.single_observation_space, num_envs
        )
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, num_envs)
        self._seed = 0
        self._next_game = 0
        self._sets = 0  # sets of games started (the place rotates with them)
        self._observer = BatchObserver(self.compiled, num_envs, fresh_arrays=False)
        self._observations = np.zeros((num_envs, encode.OBSERVATION_SIZE), np.float32)
        self._shown = self._observations  # what the last step handed out
        self._masks = np.zeros((num_envs, encode.ACTIONS), dtype=bool)
        self._waiting = np.zeros(num_envs, dtype=bool)
        self._question: BidAsk | PeekAsk | None = None
        self._steps_taken = np.zeros(num_envs, dtype=np.int64)
        self._returns = np.zeros(num_envs)

    @property
    def column(self) -> int:
        """The learner's place after the first auctioneer in the games under way."""
        return self._column

    # ----------------------------------------------------------------- the engine

    def _start_games(self) -> None:
        players = self.players
        self._column = self._sets % players if self.seat == "rotate" else int(self.seat)
        self._sets += 1
        agents: list[Any] = [
            _Learner() if k == self._column else self.opponents[(k - self._column - 1) % players]
            for k in range(players)
        ]
        draws = Draws(self._seed, self._next_game, self.num_envs, players, self.compiled.sales)
        self._log = MoveLog()
        self.chunk = Chunk(self.compiled, draws, agents, self._log, by_column=True)
        self._next_game += self.num_envs
        self._sale = 0
        self._steps = self.chunk.sale_steps(0)
        self._observer.start(self.chunk, self._log, only=self._column)
        # the learner's rows, which the observer writes in its seat's order
        self._observations = self._observer.observations[:, self._column]
        self._question = self._learners_question(next(self._steps))
        self._steps_taken[:] = 0

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

    def _learners_question(self, question: BidAsk | PeekAsk | None) -> BidAsk | PeekAsk | None:
        """The opponents answer every question up to the learner's next one."""
        while question is not None and question.seat != self._column:
            question = self._advance(self.chunk.answer(question))
        return question

    def _observe(self) -> None:
        """The learner's observation and mask in each game asked; the others wait."""
        question = self._question
        observer = self._observer
        column = self._column
        waiting = self._waiting
        self._shown = self._observations
        if question is None or question.rows is None:  # every game
            observer.observe(question)
            self._masks[:] = observer.masks[:, column]
            waiting[:] = False
            return
        rows = np.asarray(question.rows)
        waiting[:] = True
        waiting[rows] = False
        # the observer writes the learner's rows in place: a rebid round only those of its
        # games, but a peek window also the last sale's outcome in every game, which the
        # waiting games show only when they are next asked (until then, a copy is shown)
        if isinstance(question, PeekAsk):
            before = self._observations[waiting]
            observer.observe(question)
            self._shown = self._observations.copy()
            self._shown[waiting] = before
        else:
            observer.observe(question)
        self._masks[rows] = observer.masks[rows, column]
        self._masks[waiting] = False
        self._masks[waiting, 0] = True

    # ----------------------------------------------------------------- the API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Start ``num_envs`` new games: games 0 to ``num_envs - 1`` of the run with
        ``seed`` (then the next ones at each autoreset)."""
        if seed is not None:
            if type(seed) is not int:
                raise InvalidArgument(f"seed is a whole number or None, got {shown(seed)}")
            self._seed = seed
            self._next_game = 0
            self._sets = 0
        self._start_games()
        self._observe()
        return self._handed()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.float32], Any, Any, Any, dict[str, Any]]:
        """Play the learner's action in each game asked (the others wait); the opponents
        answer until the learner's next decision."""
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or not np.issubdtype(chosen.dtype, np.integer):
            raise InvalidArgument(
                f"actions are {self.num_envs} whole numbers, got shape {chosen.shape} of "
                f"{chosen.dtype}"
            )
        question = self._question
        if question is None:
            raise InvalidArgument("call reset() before step()")
        self._steps_taken[~self._waiting] += 1
        answer = self._answer(question, chosen)
        self._question = self._learners_question(self._advance(answer))
        done = np.zeros(self.num_envs, dtype=bool)
        if self._question is not None:
            self._observe()
            observations, info = self._handed()
            return observations, np.zeros(self.num_envs, np.float32), done, done.copy(), info
        # every game is over: rewards, the last observations, and new games
        self._observe()
        final_obs = self._shown.copy()
        scored = self.chunk.score()
        column = self._column
        rewards = batch_rewards(scored, self.reward)[column].astype(np.float32)
        wins = batch_rewards(scored, "win")[column]
        final_info = {
            "win_share": wins,
            "eliminated": scored["eliminated"][column].copy(),
            "spent": scored["spent"][column].copy(),
            "total": scored["total"][column].copy(),
            "steps": self._steps_taken.copy(),
            "seat": (self.chunk.first + column) % self.players,
        }
        done[:] = True
        self._start_games()
        self._observe()
        observations, info = self._handed()
        info.update(
            final_obs=final_obs,
            _final_obs=done.copy(),
            final_info=final_info,
            _final_info=done.copy(),
        )
        return observations, rewards, done, np.zeros_like(done), info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the learner in each game (a copy), as maskable learners
        ask them."""
        return self._masks.copy()

    def close(self, **kwargs: Any) -> None:
        """Let the games go (no thread or process to stop)."""
        self._question = None

    def _handed(self) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        observations, masks, waiting = self._shown, self._masks, self._waiting
        if self.copy:
            observations, masks, waiting = observations.copy(), masks.copy(), waiting.copy()
        return observations, {"action_mask": masks, "waiting": waiting}

    def _answer(self, question: BidAsk | PeekAsk, actions: npt.NDArray[Any]) -> Any:
        chosen = (actions if question.rows is None else actions[question.rows]).astype(np.int64)
        if isinstance(question, PeekAsk):
            return chosen == encode.PEEK
        chosen = np.where((chosen < 0) | (chosen > encode.BID_CAP), question.minimum, chosen)
        return legal(chosen, question.minimum, question.forbidden).astype(np.int32)


if SEAT_VECTOR_ENV_ID not in gymnasium.registry:
    gymnasium.register(
        SEAT_VECTOR_ENV_ID,
        vector_entry_point="qe_rules.learning.seat_vector_env:SeatVectorEnv",
    )
