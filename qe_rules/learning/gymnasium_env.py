"""QE from one seat as a Gymnasium environment, the other seats played by built-in agents
(needs the ``rl`` extra: gymnasium, numpy).

The observation is the seat's encoded view (:func:`qe_rules.learning.encode.observation`), the
action one of :data:`~qe_rules.learning.encode.ACTIONS` (bids ``0`` to
:data:`~qe_rules.learning.encode.BID_CAP`, then :data:`~qe_rules.learning.encode.PEEK` and
:data:`~qe_rules.learning.encode.DECLINE_PEEK`). :meth:`QESeatEnv.action_masks` (the name
maskable learners such as sb3-contrib's ``MaskablePPO`` call) and ``info["action_mask"]``
say which actions are legal now.

>>> from qe_rules.learning.gymnasium_env import QESeatEnv
>>> env = QESeatEnv("en", 4, seat=1, opponents="value")
>>> observation, info = env.reset(seed=3)
>>> observation.shape, env.game.to_act >= {1}
((265,), True)
>>> int(env.action_masks().sum()) == int(info["action_mask"].sum()) > 0
True

The module registers the environment with Gymnasium as :data:`ENV_ID`, so
``gymnasium.make`` builds it (wrapped in Gymnasium's usual checks; the mask is then
``made.unwrapped.action_masks()`` or ``made.get_wrapper_attr("action_masks")()``):

>>> import gymnasium
>>> made = gymnasium.make("qe_rules/QESeat-v0", players=3, seat=2, opponents="random")
>>> made.reset(seed=5)[0].shape, made.unwrapped.seat
((265,), 2)

An episode is one game. The other seats act from the same state as this seat in a
bidding round (bids are simultaneous), and on their own between this seat's turns. The
reward is paid at the end, of the kind ``reward`` names (:mod:`qe_rules.learning.rewards`):
by default ``"win"``, ``1 / len(winners)`` if this seat is among the winners, else ``0``;
``"shaped"`` is the one a learner starting from scratch learns from. The last ``info``
also holds the game's ``result``, every seat's ``spends`` and ``totals``, the
``winners``, this seat's ``win_share`` and whether it was ``eliminated``.
An action the mask forbids is played as the nearest legal one (a bid raised to the
smallest legal amount, a peek turned into a decline), and ``info["illegal_action"]`` is
true; learners that use the mask never do this.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import gymnasium
import numpy as np
import numpy.typing as npt

from qe_rules.errors import AgentError, InvalidArgument, shown
from qe_rules.game.engine import new_game
from qe_rules.game.views import Phase
from qe_rules.learning import encode
from qe_rules.learning.pettingzoo_env import (
    OBSERVATION_HIGH,
    RENDER_MODES,
    Turn,
    check_render_mode,
    check_table,
    render,
)
from qe_rules.learning.rewards import RewardFunction, check_reward, end_info
from qe_rules.limits import ROUNDS_PER_SALE
from qe_rules.rules.model import RuleSet
from qe_rules.simulation.agents import Agent, AgentFactory, agent_factory, agent_label

__all__ = ["ENV_ID", "QESeatEnv"]

ENV_ID: Final = "qe_rules/QESeat-v0"
"""The id of :class:`QESeatEnv` in Gymnasium's registry, where importing this module puts
it: ``gymnasium.make(ENV_ID, players=4, seat=1)`` takes :class:`QESeatEnv`'s arguments.
``gymnasium.make("qe_rules.learning.gymnasium_env:qe_rules/QESeat-v0")`` imports the module itself."""


class QESeatEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """One ``seat`` of a ``players``-seat game under ``ruleset``; ``opponents`` (a
    built-in agent's name or an :data:`~qe_rules.simulation.agents.AgentFactory`) plays the others.

    ``render_mode`` is ``"svg"`` or ``"ansi"``: what this seat sees (another mode warns,
    as Gymnasium does, and renders nothing). ``reward`` is one of
    :data:`~qe_rules.learning.rewards.REWARDS` or a function of the result.
    ``max_rounds`` bounds the bidding rounds of one sale (a rule set without tie
    fallback can tie forever); beyond it the episode is truncated.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        ruleset: RuleSet | str = "en",
        players: int = 4,
        *,
        seat: int = 0,
        opponents: str | AgentFactory = "value",
        render_mode: str | None = None,
        reward: str | RewardFunction = "win",
        max_rounds: int = ROUNDS_PER_SALE,
    ) -> None:
        self.rules, self.players = check_table(ruleset, players, max_rounds)
        self.reward = reward
        self._reward = check_reward(reward)
        if type(seat) is not int or not 0 <= seat < players:
            raise InvalidArgument(f"seat is a seat from 0 to {players - 1}, got {shown(seat)}")
        self.factory = self._factory(opponents)
        self.seat = seat
        self.render_mode = check_render_mode(render_mode)
        self.max_rounds = max_rounds
        self.observation_space = gymnasium.spaces.Box(
            0.0, OBSERVATION_HIGH, (encode.OBSERVATION_SIZE,), np.float32
        )
        self.action_space = gymnasium.spaces.Discrete(encode.ACTIONS)
        self._encoder = encode.Encoder()
        self.game = new_game(self.rules, players, seed=0)
        self.agents: list[Agent | None] = []
        self.episodes = 0  # the games reset() has dealt
        self._agent_seeds: list[int] = []  # each seat's agent's seed, this episode
        self._turn = Turn(self.game)

    def reset(
        self, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """Deal a new game and play the other seats until this seat is to act.

        ``options`` may change, from this game on, the ``"seat"`` this environment plays
        and the ``"opponents"`` (an agent's name or factory): a curriculum or a self-play
        loop changes them between games."""
        if options:
            self._apply(options)
        super().reset(seed=seed)
        draw = self.np_random
        self.game = new_game(
            self.rules,
            self.players,
            seed=int(draw.integers(2**63)),
            first_auctioneer=int(draw.integers(self.players)),
        )
        self.episodes += 1
        self._agent_seeds = [int(draw.integers(2**31)) for _ in range(self.players)]
        self.agents = [
            None if seat == self.seat else self._made(seat, self._agent_seeds[seat])
            for seat in range(self.players)
        ]
        self._turn = Turn(self.game)
        self._advance()
        return self._observation(), self._info(illegal=False)

    def _made(self, seat: int, seed: int) -> Agent:
        """The agent of ``seat``, made by the opponents' factory; an
        :class:`~qe_rules.AgentError` where the factory fails or makes no agent."""
        try:
            agent = self.factory(seed)
        except Exception as error:  # the factory's own code
            raise self._agent_error(seat, seed, f"{type(error).__name__}: {error}") from error
        if not callable(getattr(agent, "bid", None)):
            raise self._agent_error(
                seat, seed, f"the factory made {shown(agent)}, which has no bid(view) method"
            )
        return agent

    def _agent_error(self, seat: int, seed: int, problem: str) -> AgentError:
        label = agent_label(self.factory)
        return AgentError(
            f"opponent {label!r} at seat {seat}, episode {self.episodes} (agent seed {seed}): "
            f"{shown(problem) if len(problem) > 200 else problem}",
            agent=label,
            seat=seat,
            seed=seed,
            game=self.episodes,
        )

    def _apply(self, options: Mapping[str, Any]) -> None:
        unknown = sorted(set(options) - {"seat", "opponents"})
        if unknown:
            raise InvalidArgument(
                f"reset options are seat and opponents, got {', '.join(map(shown, unknown))}"
            )
        seat = options.get("seat", self.seat)
        if type(seat) is not int or not 0 <= seat < self.players:
            raise InvalidArgument(f"seat is a seat from 0 to {self.players - 1}, got {shown(seat)}")
        factory = self._factory(options.get("opponents", self.factory))
        self.seat, self.factory = seat, factory

    def _factory(self, opponents: str | AgentFactory) -> AgentFactory:
        factory = (
            agent_factory(opponents, ruleset=self.rules)
            if isinstance(opponents, str)
            else opponents
        )
        if not callable(factory):
            raise InvalidArgument(f"opponents is an agent name or factory, got {shown(opponents)}")
        return factory

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of this seat now, as a bool vector."""
        return self._encoder.action_mask(self.game.view(self.seat))

    def step(
        self, action: int | np.int64
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        """Play this seat's action, then the other seats until this seat acts again or
        the game ends."""
        if (
            not isinstance(action, int | np.integer)
            or isinstance(action, bool)
            or not 0 <= action < encode.ACTIONS
        ):
            raise InvalidArgument(
                f"an action is a whole number from 0 to {encode.ACTIONS - 1}, got {shown(action)}"
            )
        if not self.agents or self.seat not in self.game.to_act:
            raise InvalidArgument("the episode has ended (or not begun): call reset()")
        legal = self._legal(int(action))
        turn = self._others(self._turn)
        turn.actions[self.seat] = legal
        truncated = self._play(turn) or self._advance()
        reward = 0.0
        info = self._info(illegal=legal != action)
        if self.game.is_over:
            result = self.game.result()
            reward = float(self._reward(result)[self.seat])
            info.update(end_info(result, self.seat))
        return self._observation(), reward, self.game.is_over, truncated, info

    def _legal(self, action: int) -> int:
        """``action``, or the nearest legal one where the mask forbids it."""
        game = self.game
        if game.phase is Phase.PEEKING:
            if action == encode.PEEK and game.can_peek(self.seat):
                return action
            return encode.DECLINE_PEEK
        amount = action if action <= encode.BID_CAP else 0
        limits = game.bid_limits(self.seat)
        assert limits is not None  # the seat is to act, and not in a peek window
        return limits.legal(amount)

    def _others(self, turn: Turn) -> Turn:
        """``turn`` with the actions of the other seats in it, all from the same state."""
        game = self.game
        peeking = game.phase is Phase.PEEKING
        for seat in turn.waiting:
            agent = self.agents[seat]
            if agent is None:
                continue
            view = game.view(seat)
            try:
                if peeking:
                    wants = agent.wants_peek(view)
                    if type(wants) is not bool:
                        raise TypeError(f"wants_peek(view) returned {shown(wants)}, not a bool")
                    turn.actions[seat] = encode.PEEK if wants else encode.DECLINE_PEEK
                else:
                    amount = agent.bid(view)
                    if type(amount) is not int or not game.can_bid(seat, amount):
                        raise ValueError(
                            f"bid(view) returned {shown(amount)}, which the rules refuse"
                        )
                    turn.actions[seat] = amount
            except Exception as error:  # the agent's own code, or what it returned
                raise self._agent_error(
                    seat, self._agent_seeds[seat], f"{type(error).__name__}: {error}"
                ) from error
        return turn

    def _play(self, turn: Turn) -> bool:
        """Play a turn; whether the sale has now run past ``max_rounds``."""
        before = self.game
        self.game = turn.play(before)
        self._turn = turn.next(before, self.game)
        return self._turn.rounds >= self.max_rounds

    def _advance(self) -> bool:
        """Play the other seats until this seat is to act or the game ends; whether the
        episode is truncated."""
        while not self.game.is_over and self.seat not in self.game.to_act:
            if self._play(self._others(self._turn)):
                return True
        return False

    def _observation(self) -> npt.NDArray[np.float32]:
        return self._encoder.observation(self.game.view(self.seat))

    def _info(self, *, illegal: bool) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "illegal_action": illegal}

    def render(self) -> str | None:
        """What this seat sees, as SVG or text (``render_mode``)."""
        return render(self.game, self.render_mode, self.seat)


if ENV_ID not in gymnasium.registry:  # importing the module again registers nothing new
    gymnasium.register(ENV_ID, entry_point="qe_rules.learning.gymnasium_env:QESeatEnv")
