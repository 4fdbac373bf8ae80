"""QE as a PettingZoo ``ParallelEnv``: the seats of a bidding round act in one step, as at
the table (needs the ``rl`` extra: pettingzoo, gymnasium, numpy).

The agents, observations (the encoded view and the ``int8`` action mask) and actions are
those of :class:`~qe_rules.learning.pettingzoo_env.QEEnv`. A step takes the actions of the
seats to act now, all at once: the auctioneer's opening bid, the secret bids of a bidding
round, or the answers of a peek window; a seat that is not to act has an all-zero mask,
and whatever action it is given is ignored. Every agent is in every step until the game
ends, when all are terminated together (or truncated, after ``max_rounds`` bidding rounds
of one sale), so the environment vectorises with SuperSuit's
``pettingzoo_env_to_vec_env_v1`` without ``black_death``.

>>> from qe_rules.learning.parallel_env import QEParallelEnv
>>> env = QEParallelEnv("en", 4)
>>> observations, infos = env.reset(seed=1)
>>> [agent for agent, seen in observations.items() if seen["action_mask"].any()]
['player_0']
>>> observations, rewards, terminations, truncations, infos = env.step(
...     {"player_0": 5, "player_1": 0, "player_2": 0, "player_3": 0})
>>> [agent for agent, seen in observations.items() if seen["action_mask"].any()]
['player_1', 'player_2', 'player_3']
>>> _ = env.step({"player_1": 3, "player_2": 7, "player_3": 0})
>>> sold = env.game.view(2).history[0]
>>> sold.winner, sold.amount
(2, 7)

:meth:`QEParallelEnv.state` is the input of a centralised critic: every seat's
observation, one after another (zeros for seats beyond the player count). It holds
everything some seat knows (every token, every spend), none of the deck order.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import ParallelEnv

from qe_rules.errors import IllegalAction, InvalidArgument, shown
from qe_rules.game.engine import new_game
from qe_rules.learning import encode
from qe_rules.learning.pettingzoo_env import (
    OBSERVATION_HIGH,
    RENDER_MODES,
    Turn,
    agent_name,
    check_render_mode,
    check_table,
    observation_space,
    render,
)
from qe_rules.learning.rewards import RewardFunction, check_reward, end_info
from qe_rules.limits import ROUNDS_PER_SALE
from qe_rules.rules.model import RuleSet

__all__ = ["STATE_SIZE", "QEParallelEnv", "parallel_env"]

STATE_SIZE = encode.MAX_SEATS * encode.OBSERVATION_SIZE
"""The length of :meth:`QEParallelEnv.state`: an observation for each seat the encoding
has room for."""

Observation = dict[str, npt.NDArray[Any]]


class QEParallelEnv(ParallelEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """QE for ``players`` seats under ``ruleset``, as a PettingZoo ``ParallelEnv``.

    ``render_mode``, ``render_seat``, ``reward`` and ``max_rounds`` are those of
    :class:`~qe_rules.learning.pettingzoo_env.QEEnv`, and a seed deals the same game in
    both.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "qe_parallel_v0",
        "render_modes": list(RENDER_MODES),
    }

    def __init__(
        self,
        ruleset: RuleSet | str = "en",
        players: int = 4,
        *,
        render_mode: str | None = None,
        render_seat: int | None = None,
        reward: str | RewardFunction = "win",
        max_rounds: int = ROUNDS_PER_SALE,
    ) -> None:
        self.rules, self.players = check_table(ruleset, players, max_rounds)
        self.render_mode = check_render_mode(render_mode)
        if render_seat is not None and (
            type(render_seat) is not int or not 0 <= render_seat < players
        ):
            raise InvalidArgument(f"render_seat is a seat from 0 to {players - 1} or None")
        self.render_seat = render_seat
        self.reward = reward
        self._reward = check_reward(reward)
        self.max_rounds = max_rounds
        self.possible_agents = [agent_name(seat) for seat in range(players)]
        self.agents: list[str] = []
        self._spaces = {agent: observation_space() for agent in self.possible_agents}
        self._actions = {
            agent: gymnasium.spaces.Discrete(encode.ACTIONS) for agent in self.possible_agents
        }
        self.state_space = gymnasium.spaces.Box(0.0, OBSERVATION_HIGH, (STATE_SIZE,), np.float32)
        self._random = random.Random()
        self._encoder = encode.Encoder(mask_dtype=np.int8)
        self.game = new_game(self.rules, players, seed=0)
        self._turn = Turn(self.game)
        self._observations: dict[str, Observation] = {}

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The observation space of ``agent`` (the same for every seat)."""
        return self._spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete(encode.ACTIONS)``."""
        return self._actions[agent]

    def reset(
        self, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """Deal a new game (from ``seed``, or from the environment's own random numbers)
        and return every seat's observation and an empty info."""
        if seed is not None:
            self._random = random.Random(seed)
        draw = self._random
        self.game = new_game(
            self.rules,
            self.players,
            seed=draw.getrandbits(64),
            first_auctioneer=draw.randrange(self.players),
        )
        self._turn = Turn(self.game)
        self.agents = list(self.possible_agents)
        return self._observe(), {agent: {} for agent in self.agents}

    def _observe(self) -> dict[str, Observation]:
        game, encoder = self.game, self._encoder
        block = None
        observations = {}
        for seat, agent in enumerate(self.possible_agents):
            view = game.view(seat)
            if block is None:
                block = encoder._state_part(view)
            observations[agent] = {
                "observation": encoder._seat_observation(view, block),
                "action_mask": encoder.action_mask(view),
            }
        self._observations = observations
        return {
            agent: {
                "observation": seen["observation"].copy(),
                "action_mask": seen["action_mask"].copy(),
            }
            for agent, seen in observations.items()
        }

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Play the actions of the seats to act now (the others' are ignored); every
        seat's observation, reward, termination, truncation and info after them."""
        if not self.agents:
            raise InvalidArgument("the game has ended (or not begun): call reset()")
        if not isinstance(actions, Mapping):
            raise InvalidArgument(f"actions is a dict from agent to action, got {shown(actions)}")
        turn = self._turn
        chosen = {}
        for seat in turn.waiting:  # every action checked before any is held
            agent = self.possible_agents[seat]
            action = actions.get(agent)
            if not isinstance(action, int | np.integer) or isinstance(action, bool):
                raise InvalidArgument(
                    f"{agent} is to act: its action is a whole number, got {shown(action)}"
                )
            mask = self._observations[agent]["action_mask"]
            if not 0 <= action < encode.ACTIONS or not mask[action]:
                raise IllegalAction(
                    f"{agent} cannot take action {shown(action)} now; the mask in its "
                    "observation allows exactly the legal ones"
                )
            chosen[seat] = int(action)
        turn.actions.update(chosen)
        before = self.game
        self.game = game = turn.play(before)
        rewards = dict.fromkeys(self.agents, 0.0)
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        terminated = truncated = False
        if game.is_over:
            terminated = True
            result = game.result()
            for seat, reward in enumerate(self._reward(result)):
                rewards[agent_name(seat)] = float(reward)
                infos[agent_name(seat)] = end_info(result, seat)
        else:
            self._turn = turn.next(before, game)
            truncated = self._turn.rounds >= self.max_rounds
        observations = self._observe()
        terminations = dict.fromkeys(self.agents, terminated)
        truncations = dict.fromkeys(self.agents, truncated)
        if terminated or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def state(self) -> npt.NDArray[np.float32]:
        """Every seat's observation, one after another, padded with zeros to
        :data:`STATE_SIZE`: the input of a centralised critic."""
        if not self._observations:
            raise InvalidArgument("there is no state before the first reset()")
        state = np.zeros(STATE_SIZE, np.float32)
        for seat, agent in enumerate(self.possible_agents):
            start = seat * encode.OBSERVATION_SIZE
            state[start : start + encode.OBSERVATION_SIZE] = self._observations[agent][
                "observation"
            ]
        return state

    def render(self) -> str | None:
        """The table as SVG or text (``render_mode``): its public part, or what
        ``render_seat`` sees."""
        return render(self.game, self.render_mode, self.render_seat)

    def close(self) -> None:
        """Nothing to release."""


def parallel_env(ruleset: RuleSet | str = "en", players: int = 4, **options: Any) -> QEParallelEnv:
    """A :class:`QEParallelEnv` (the PettingZoo convention of a ``parallel_env()`` function)."""
    return QEParallelEnv(ruleset, players, **options)
