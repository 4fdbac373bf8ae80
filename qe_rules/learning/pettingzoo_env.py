"""QE as a PettingZoo AEC environment, for multi-agent reinforcement learning (needs the
``rl`` extra: pettingzoo, gymnasium, numpy).

Each seat is an agent, ``player_0`` to ``player_{n-1}``. Its observation is a dict: the
``observation`` of its view (:func:`qe_rules.learning.encode.observation`) and the
``action_mask`` of the :data:`~qe_rules.learning.encode.ACTIONS` actions
(:func:`qe_rules.learning.encode.action_mask`, as ``int8``): bids ``0`` to
:data:`~qe_rules.learning.encode.BID_CAP`, then :data:`~qe_rules.learning.encode.PEEK` and
:data:`~qe_rules.learning.encode.DECLINE_PEEK` for the 5-player peek window.

Secret bids are simultaneous, and AEC is turn by turn: the seats of one bidding round
(and of one peek window) are selected one after another, in seat order, and their
actions are held until the last of them has acted, then placed together. So every seat
of a round observes the same state, as at the table, and as in
:func:`~qe_rules.simulation.stats.simulate`.

>>> from qe_rules.learning.pettingzoo_env import QEEnv
>>> env = QEEnv("en", 4)
>>> env.reset(seed=1)
>>> env.agent_selection, env.game.to_act
('player_0', frozenset({0}))
>>> observation, reward, terminated, truncated, info = env.last()
>>> observation["observation"].shape, observation["action_mask"][:3].tolist()
((265,), [0, 1, 1])
>>> env.step(5)                              # seat 0 opens at 5
>>> env.agent_selection, sorted(env.game.to_act)
('player_1', [1, 2, 3])

When the game ends, every seat is terminated and rewarded as ``reward`` says
(:mod:`qe_rules.learning.rewards`): by default ``"win"``, ``1 / len(winners)`` to each
winner and ``0`` to every other seat. Each seat's info then holds the game's ``result``,
every seat's ``spends`` and ``totals``, the ``winners``, its ``win_share`` and whether it
was ``eliminated``. A rule set without tie fallback can tie forever: a
sale still tied after ``max_rounds`` bidding rounds truncates every seat (reward 0).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, Final

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

from qe_rules.errors import IllegalAction, InvalidArgument, shown
from qe_rules.game.engine import Game, new_game
from qe_rules.game.views import Phase, PlayerView
from qe_rules.learning import encode
from qe_rules.learning.rewards import RewardFunction, check_reward, end_info
from qe_rules.limits import MAX_BID, MAX_ENV_ROUNDS, ROUNDS_PER_SALE
from qe_rules.present import svg, text
from qe_rules.rules.model import RuleSet, get_ruleset

__all__ = [
    "OBSERVATION_HIGH",
    "RENDER_MODES",
    "QEEnv",
    "Turn",
    "agent_name",
    "check_render_mode",
    "check_table",
    "engine_allows",
    "env",
    "observation_space",
    "render",
    "seat_of",
]

OBSERVATION_HIGH: Final = float(21 * MAX_BID)
"""The upper bound of every observation number: spends stay below ``21 * MAX_BID``."""

RENDER_MODES: Final = ("ansi", "svg")
"""The render modes of the environments: text and SVG pictures."""

_ACTIONS: Final = encode.ACTIONS
_PEEKING: Final = Phase.PEEKING


def agent_name(seat: int) -> str:
    """The PettingZoo name of a seat.

    >>> agent_name(3)
    'player_3'
    """
    return f"player_{seat}"


def seat_of(agent: str) -> int:
    """The seat of a PettingZoo agent name.

    >>> seat_of("player_3")
    3
    """
    prefix, _, number = agent.partition("_")
    if prefix != "player" or not number.isdigit():
        raise InvalidArgument(f"an agent is named player_<seat>, got {shown(agent)}")
    return int(number)


def observation_space() -> gymnasium.spaces.Dict:
    """The space of one seat's observation: the encoding and the action mask."""
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(
                0.0, OBSERVATION_HIGH, (encode.OBSERVATION_SIZE,), np.float32
            ),
            "action_mask": gymnasium.spaces.Box(0, 1, (encode.ACTIONS,), np.int8),
        }
    )


class Turn:
    """The actions of one step of the game (a bidding round, an opening bid, a peek
    window), held until every seat in it has acted, then played together; and the
    bidding rounds the current sale has had before it."""

    __slots__ = ("actions", "rounds", "waiting")

    def __init__(self, game: Game, rounds: int = 0) -> None:
        self.waiting = sorted(game.to_act)
        self.actions: dict[int, int] = {}
        self.rounds = rounds

    def play(self, game: Game) -> Game:
        """The game after this turn's actions."""
        if game.phase is _PEEKING:
            for seat, action in sorted(self.actions.items()):
                game = game.peek(seat) if action == encode.PEEK else game.decline_peek(seat)
            return game
        if len(self.actions) == 1:  # an opening bid
            ((seat, amount),) = self.actions.items()
            return game.bid(seat, amount)
        return game.bid_many(self.actions)

    def next(self, before: Game, after: Game) -> Turn:
        """The turn after this one was played on ``before``, giving ``after``."""
        if after.sale != before.sale:
            return Turn(after)
        secret_round = len(self.actions) > 1 and before.phase is not _PEEKING
        return Turn(after, self.rounds + secret_round)


def check_table(ruleset: RuleSet | str, players: int, max_rounds: int) -> tuple[RuleSet, int]:
    """The rule set and player count of an environment, checked with its ``max_rounds``."""
    rules = get_ruleset(ruleset)
    players = rules.check_players(players)
    if players > encode.MAX_SEATS:
        raise InvalidArgument(f"the encoding has room for {encode.MAX_SEATS} seats")
    if type(max_rounds) is not int or not 1 <= max_rounds <= MAX_ENV_ROUNDS:
        raise InvalidArgument(
            f"max_rounds is a whole number from 1 to {MAX_ENV_ROUNDS} "
            f"(qe_rules.limits.MAX_ENV_ROUNDS), got {shown(max_rounds)}"
        )
    return rules, players


class QEEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """QE for ``players`` seats under ``ruleset``, as a PettingZoo ``AECEnv``.

    ``render_mode`` is ``"svg"`` (:func:`qe_rules.present.svg.view`), ``"ansi"`` (text) or
    ``None``; :meth:`render` shows the public part of the table, or with ``render_seat``
    what that seat sees (another mode warns and renders nothing). ``reward`` is one of
    :data:`~qe_rules.learning.rewards.REWARDS` or a function of the result.
    ``max_rounds`` bounds the bidding rounds of one sale.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "qe_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
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
        super().__init__()
        self.rules, self.players = check_table(ruleset, players, max_rounds)
        self.reward = reward
        self._reward = check_reward(reward)
        render_mode = check_render_mode(render_mode)
        if render_seat is not None and (
            type(render_seat) is not int or not 0 <= render_seat < players
        ):
            raise InvalidArgument(f"render_seat is a seat from 0 to {players - 1} or None")
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.max_rounds = max_rounds
        self.possible_agents = [agent_name(seat) for seat in range(players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {agent: observation_space() for agent in self.possible_agents}
        self.action_spaces = {
            agent: gymnasium.spaces.Discrete(encode.ACTIONS) for agent in self.possible_agents
        }
        self._random = random.Random()
        self._encoder = encode.Encoder(mask_dtype=np.int8)
        self.game = new_game(self.rules, players, seed=0)
        self._turn = Turn(self.game)
        self._no_actions = np.zeros(encode.ACTIONS, np.int8)
        self._no_actions.flags.writeable = False
        # the state, seat and kept mask of the last observation, to check its action against
        self._viewed: tuple[Game | None, int, npt.NDArray[np.int8]] = (None, 0, self._no_actions)
        # the state of the last observation, and the part of it every seat shares
        self._state: tuple[Game | None, Any] = (None, None)
        self._ended = False  # every seat is terminated, or every seat truncated

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The observation space of ``agent`` (the same for every seat)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete(encode.ACTIONS)``."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Deal a new game: from ``seed``, or from the environment's own random numbers
        (seeded by the last ``reset`` given a seed)."""
        if seed is not None:
            self._random = random.Random(seed)
        draw = self._random
        self.game = new_game(
            self.rules,
            self.players,
            seed=draw.getrandbits(64),
            first_auctioneer=draw.randrange(self.players),
        )
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._ended = False
        self._turn = Turn(self.game)
        self.agent_selection = self.possible_agents[self._turn.waiting[0]]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """What ``agent`` observes now: its encoded view and its action mask (all 0
        while its action of this turn is held)."""
        return self._observe(self._seats[agent])

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, npt.NDArray[Any]] | None, float, bool, bool, dict[str, Any]]:
        """The selected agent's observation (unless ``observe`` is false), its reward
        since it last acted, whether it is terminated or truncated, and its info."""
        agent = self.agent_selection
        return (
            self._observe(self._seats[agent]) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        """The selected agent, again after each :meth:`step`, until no agent is left or
        ``max_iter`` agents were given (PettingZoo's ``agent_iter``)."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """The action mask of ``agent`` alone, without encoding its observation."""
        seat = self._seats[agent]
        game = self.game
        mask = self._kept_mask(seat, game.view(seat))
        self._viewed = (game, seat, mask)
        return mask.copy()

    def _observe(self, seat: int) -> dict[str, npt.NDArray[Any]]:
        game = self.game
        view = game.view(seat)
        encoder = self._encoder
        state, block = self._state  # the part of the observation every seat shares
        if state is not game:
            block = encoder._state_part(view)
            self._state = (game, block)
        turn = self._turn
        mask = self._no_actions if seat in turn.actions else encoder._kept_action_mask(view)
        self._viewed = (game, seat, mask)
        return {
            "observation": encoder._seat_observation(view, block),
            "action_mask": mask.copy(),
        }

    def _kept_mask(self, seat: int, view: PlayerView) -> npt.NDArray[np.int8]:
        """The action mask of ``seat`` from its ``view``, as kept (read-only): none
        while its action of this turn is held."""
        if seat in self._turn.actions:
            return self._no_actions
        mask: npt.NDArray[np.int8] = self._encoder._kept_action_mask(view)
        return mask

    def step(self, action: int | None) -> None:
        """Play the selected agent's action (``None`` for an agent that is done)."""
        if self._ended:
            if action is not None:
                raise IllegalAction(
                    f"the game is over: {self.agent_selection} is done, and its only action "
                    f"is None, got {shown(action)}"
                )
            self._was_dead_step(action)
            return
        agent = self.agent_selection
        seat = self._seats[agent]
        if type(action) is not int:
            if not isinstance(action, int | np.integer) or isinstance(action, bool):
                raise InvalidArgument(f"an action is a whole number, got {shown(action)}")
            action = int(action)
        turn = self._turn
        # the mask this seat last observed in this state says, else the engine
        game, viewed, mask = self._viewed
        if game is self.game and viewed == seat:
            allowed = 0 <= action < _ACTIONS and mask[action] == 1
        else:
            allowed = seat not in turn.actions and engine_allows(self.game, seat, action)
        if not allowed:
            raise IllegalAction(
                f"{agent} cannot take action {shown(action)} now; the mask in its observation "
                "allows exactly the legal ones"
            )
        # every reward is 0 until the game ends, so the acting agent's sum is already 0
        turn.actions[seat] = action
        waiting = turn.waiting
        waiting.remove(seat)
        if waiting:
            self.agent_selection = self.possible_agents[waiting[0]]
        else:
            self._play(turn)

    def _play(self, turn: Turn) -> None:
        before = self.game
        self.game = game = turn.play(before)
        # every reward is 0 until the game ends: nothing to clear
        if game.is_over:
            result = game.result()
            for seat, reward in enumerate(self._reward(result)):
                agent = agent_name(seat)
                self.rewards[agent] = float(reward)
                self.infos[agent] = end_info(result, seat)
            self.terminations = dict.fromkeys(self.agents, True)
            self._ended = True
            self._accumulate_rewards()  # the only rewards: until the end they are all 0
            return
        self._turn = turn.next(before, game)
        if self._turn.rounds >= self.max_rounds:
            self.truncations = dict.fromkeys(self.agents, True)
            self._ended = True
            return
        self.agent_selection = self.possible_agents[self._turn.waiting[0]]

    def render(self) -> str | None:
        """The table as SVG or text (``render_mode``): its public part, or what
        ``render_seat`` sees."""
        return render(self.game, self.render_mode, self.render_seat)

    def close(self) -> None:
        """Nothing to release."""


def engine_allows(game: Game, seat: int, action: int) -> bool:
    """Whether ``seat`` may take ``action`` in ``game`` (the mask's rule, asked of the
    engine)."""
    if game.phase is Phase.PEEKING:
        if action == encode.PEEK:
            return game.can_peek(seat)
        return action == encode.DECLINE_PEEK and game.can_decline_peek(seat)
    return 0 <= action <= encode.BID_CAP and game.can_bid(seat, action)


def render(game: Game, mode: str | None, seat: int | None) -> str | None:
    """A picture of ``game`` for ``render()``: SVG (``"svg"``) or text (``"ansi"``) of
    the public part of the table, or of what ``seat`` sees; ``None`` without a mode."""
    if mode is None:
        gymnasium.logger.warn("render() without a render_mode draws nothing")
        return None
    if mode == "svg":
        return svg.view(game.view(0 if seat is None else seat), spectator=seat is None)
    if seat is not None:
        return text.view_text(game.view(seat))
    public = game.public_view()
    lines = [text.sale_text(sale) for sale in public.history]
    if public.company is not None:
        lines.append(
            f"Sale {public.sale + 1} ({public.company}): "
            f"to act {', '.join(map(str, sorted(public.to_act)))}"
        )
    elif public.result is not None:
        lines += ["", str(public.result)]
    return "\n".join(lines)


def check_render_mode(mode: object) -> str | None:
    """The render mode of an environment made with ``mode``: ``mode`` if it is one of
    :data:`RENDER_MODES` or ``None``. Another string warns, as Gymnasium does, and gives
    ``None``: the environment renders nothing (libraries such as Stable-Baselines3 and
    PettingZoo's tests ask for ``"rgb_array"`` or ``"human"`` whatever the environment
    offers)."""
    if mode is None:
        return None
    if not isinstance(mode, str):
        raise InvalidArgument(
            f"render_mode is one of {', '.join(RENDER_MODES)} or None, got {shown(mode)}"
        )
    if mode not in RENDER_MODES:
        gymnasium.logger.warn(
            f"render_mode {mode!r} is not one of {', '.join(RENDER_MODES)}: render() draws nothing"
        )
        return None
    return mode


def env(ruleset: RuleSet | str = "en", players: int = 4, **options: Any) -> QEEnv:
    """A :class:`QEEnv` (the PettingZoo convention of an ``env()`` function)."""
    return QEEnv(ruleset, players, **options)
