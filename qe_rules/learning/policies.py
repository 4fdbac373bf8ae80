"""Policies as agents: a learner's policy at a table of built-in agents, self-play
against frozen snapshots, and the shipped ``trained`` agent (needs numpy: the ``rl``
extra).

A *policy* is any callable ``(observation, mask) -> action`` on the encoding of
:mod:`qe_rules.learning.encode`: the observation vector of a seat's view and its bool
action mask. :class:`PolicyAgent` turns one into an :class:`~qe_rules.simulation.agents.Agent`,
so that :func:`~qe_rules.simulation.stats.simulate`, the environments' ``opponents`` and
the game apps can seat it:

>>> import numpy as np
>>> from qe_rules.learning.policies import PolicyAgent, policy_factory
>>> from qe_rules.simulation.stats import simulate
>>> def five_or_least(observation, mask):
...     return 5 if mask[5] else int(np.flatnonzero(mask)[0])
>>> stats = simulate("en", 4, [policy_factory(five_or_least), "value", "value", "value"],
...                  games=20, seed=1)
>>> stats.games
20

:class:`MLPPolicy` is a small network evaluated with numpy alone, as exported by
``scripts/train_agent.py``; :class:`TrainedAgent` (``"trained"`` among the agent names)
plays the ones shipped in the package, trained with MaskablePPO under ``en``:

>>> from qe_rules.simulation.agents import agent_from_name
>>> agent = agent_from_name("trained")
>>> import qe_rules as qe
>>> view = qe.new_game("en", 4, seed=7).bid(0, 3).view(1)
>>> 0 <= agent.bid(view) <= 30 and agent.bid(view) != 3
True

:class:`SelfPlay` keeps frozen snapshots of a policy in training and seats them as
opponents.
"""

from __future__ import annotations

import copy
import functools
import importlib.resources
import os
import random
from collections.abc import Callable
from typing import Any, ClassVar, Final

import numpy as np
import numpy.typing as npt

from qe_rules.errors import InvalidArgument, shown
from qe_rules.game.views import Phase, PlayerView
from qe_rules.learning import encode
from qe_rules.learning.observer import BatchObserver, moment_key, to_seats
from qe_rules.rules.model import RuleSet
from qe_rules.simulation.agents import Agent, AgentFactory, ValueAgent, register_agent
from qe_rules.simulation.batch.agents import BidAsk, PeekAsk, ValueBids, legal

__all__ = [
    "TRAINED_TABLES",
    "TRAINED_WEIGHTS",
    "MLPPolicy",
    "ManyPolicy",
    "Policy",
    "PolicyAgent",
    "PolicyBatchAgent",
    "SelfPlay",
    "TrainedAgent",
    "TrainedBatchAgent",
    "policy_factory",
]

Policy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], Any]
"""A policy: from a seat's observation and action mask, an action (a whole number)."""

TRAINED_WEIGHTS: Final = {3: "trained-en-3.npz", 4: "trained-en-4.npz", 5: "trained-en-5.npz"}
"""The files of the shipped policies in ``qe_rules/data/agents``, by player count (each
trained under ``en`` for that many players)."""


def _action(choice: Any) -> int:
    if isinstance(choice, np.ndarray) and choice.size == 1:
        choice = choice.reshape(()).item()
    if not isinstance(choice, int | np.integer) or isinstance(choice, bool):
        raise InvalidArgument(f"a policy returns an action, a whole number, got {shown(choice)}")
    return int(choice)


class PolicyAgent(Agent):
    """An agent that asks ``policy`` for its actions, from the encoding of its view.

    A bid the mask forbids is played as the nearest legal one (raised to the smallest
    legal amount, or past the forbidden one), as in the single-seat environment; in the
    peek window the agent peeks when the policy answers :data:`~qe_rules.learning.encode.PEEK`.
    """

    __slots__ = ("_encoder", "policy")

    name: ClassVar[str] = "policy"

    def __init__(self, policy: Policy) -> None:
        if not callable(policy):
            raise InvalidArgument(
                f"a policy is a callable (observation, mask), got {shown(policy)}"
            )
        self.policy = policy
        self._encoder = encode.Encoder()

    def _choose(self, view: PlayerView) -> int:
        encoder = self._encoder
        return _action(self.policy(encoder.observation(view), encoder.action_mask(view)))

    def bid(self, view: PlayerView) -> int:
        """The policy's bid, made legal."""
        limits = view.limits
        if limits is None or view.phase is Phase.PEEKING:
            raise InvalidArgument(f"seat {view.seat} is not to bid now")
        action = self._choose(view)
        return limits.legal(action if 0 <= action <= encode.BID_CAP else 0)

    def wants_peek(self, view: PlayerView) -> bool:
        """Whether the policy answers the peek window with a peek."""
        return view.can_peek and self._choose(view) == encode.PEEK

    def __repr__(self) -> str:
        return f"PolicyAgent({self.policy!r})"


def policy_factory(policy: Policy) -> AgentFactory:
    """An agent factory seating ``policy`` (the seed is not used: a stochastic policy
    draws its own random numbers)."""
    if not callable(policy):
        raise InvalidArgument(f"a policy is a callable (observation, mask), got {shown(policy)}")

    def make(seed: int) -> Agent:
        return PolicyAgent(policy)

    make.name = "policy"  # type: ignore[attr-defined]  # agent_label reads it
    return make


# --------------------------------------------------------------------------- self-play


class SelfPlay:
    """Frozen snapshots of a policy in training, seated as its opponents.

    :meth:`snapshot` keeps a copy of a policy (a deep copy, so that training on goes on
    without changing it; ``freeze=False`` keeps the object itself), at most ``keep`` of
    them, the oldest dropped first. :attr:`factory` is an agent factory for an
    environment's ``opponents``: each opponent it makes plays the latest snapshot with
    ``latest`` odds, else one of the kept snapshots at random, else, before any snapshot,
    the ``fallback`` agent. It reads the snapshots when the agent is made, so an
    environment picks up new snapshots at its next reset.

    ``QESeatEnv("en", 4, opponents=play.factory)`` seats them (see ``docs/rl.md``); the
    factory alone shows what an environment gets:

    >>> play = SelfPlay(keep=3, fallback="value")
    >>> type(play.factory(1)).__name__
    'ValueAgent'
    >>> play.snapshot(lambda observation, mask: int(np.flatnonzero(mask)[0]))
    >>> type(play.factory(2)).__name__, len(play.snapshots)
    ('PolicyAgent', 1)
    """

    def __init__(self, *, keep: int = 5, latest: float = 0.5, fallback: str = "value") -> None:
        if type(keep) is not int or keep < 1:
            raise InvalidArgument(f"keep is a whole number >= 1, got {shown(keep)}")
        if not isinstance(latest, int | float) or not 0 <= latest <= 1:
            raise InvalidArgument(f"latest is a number from 0 to 1, got {shown(latest)}")
        from qe_rules.simulation.agents import agent_factory

        self.keep = keep
        self.latest = float(latest)
        self.fallback = agent_factory(fallback)
        self.snapshots: list[Policy] = []

    def snapshot(self, policy: Policy, *, freeze: bool = True) -> None:
        """Keep ``policy`` (a frozen copy of it unless ``freeze`` is false)."""
        if not callable(policy):
            raise InvalidArgument(
                f"a policy is a callable (observation, mask), got {shown(policy)}"
            )
        self.snapshots.append(copy.deepcopy(policy) if freeze else policy)
        del self.snapshots[: -self.keep]

    def factory(self, seed: int) -> Agent:
        """An opponent: a snapshot's agent, or the fallback agent before any snapshot."""
        snapshots = self.snapshots
        if not snapshots:
            return self.fallback(seed)
        draw = random.Random(seed)
        if draw.random() < self.latest:
            return PolicyAgent(snapshots[-1])
        return PolicyAgent(draw.choice(snapshots))


# --------------------------------------------------------------------------- a network


class MLPPolicy:
    """A policy network evaluated with numpy: the observation normalised as
    Stable-Baselines3's ``VecNormalize`` does (``obs_mean``, ``obs_var``, ``epsilon``,
    ``clip``), then dense layers ``w0, b0, w1, b1, ...`` with ``tanh`` between them; the
    action is the legal one with the highest output.

    ``arrays`` maps those names to arrays (as :func:`numpy.load` reads an ``.npz`` file
    written by ``scripts/train_agent.py export``).
    """

    def __init__(self, arrays: Any) -> None:
        try:
            self.mean = np.asarray(arrays["obs_mean"], np.float64)
            scale = np.sqrt(np.asarray(arrays["obs_var"], np.float64) + float(arrays["epsilon"]))
            self.clip = float(arrays["clip"])
            layers: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]] = []
            while f"w{len(layers)}" in arrays:
                index = len(layers)
                weights = np.asarray(arrays[f"w{index}"], np.float32)
                layers.append((weights, np.asarray(arrays[f"b{index}"], np.float32)))
        except (KeyError, TypeError, ValueError) as error:
            raise InvalidArgument(f"not the arrays of a policy network: {error}") from None
        self.inverse_scale = 1.0 / scale
        sizes = [encode.OBSERVATION_SIZE] + [w.shape[1] for w, _ in layers]
        if (
            not layers
            or self.mean.shape != (encode.OBSERVATION_SIZE,)
            or any(
                w.shape != (a, b) for (w, _), a, b in zip(layers, sizes, sizes[1:], strict=False)
            )
            or sizes[-1] != encode.ACTIONS
        ):
            raise InvalidArgument(
                f"a policy network maps {encode.OBSERVATION_SIZE} numbers to "
                f"{encode.ACTIONS} actions; these layers do not"
            )
        self.layers = tuple(layers)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> MLPPolicy:
        """The policy in an ``.npz`` file."""
        with np.load(path) as arrays:
            return cls(dict(arrays))

    def logits(self, observations: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """The network's outputs for one observation or a batch of them."""
        x = (np.asarray(observations, np.float64) - self.mean) * self.inverse_scale
        out: npt.NDArray[np.float32] = np.clip(x, -self.clip, self.clip).astype(np.float32)
        last = len(self.layers) - 1
        for index, (weights, bias) in enumerate(self.layers):
            out = out @ weights + bias
            if index < last:
                out = np.tanh(out)
        return out

    def __call__(self, observation: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> int:
        """The legal action with the highest output (``mask`` says which are legal)."""
        return int(self.many(np.asarray(observation)[None], np.asarray(mask)[None])[0])

    def many(
        self, observations: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]
    ) -> npt.NDArray[np.int64]:
        """:meth:`__call__` for many rows at once (what :class:`PolicyBatchAgent` asks)."""
        logits = self.logits(observations)
        chosen: npt.NDArray[np.int64] = np.argmax(
            np.where(np.asarray(masks, bool), logits, -np.inf), axis=1
        )
        return chosen

    def __repr__(self) -> str:
        sizes = [encode.OBSERVATION_SIZE] + [w.shape[1] for w, _ in self.layers]
        return f"MLPPolicy({' -> '.join(map(str, sizes))})"


@functools.cache
def _trained_policy(players: int = 4) -> MLPPolicy:
    name = TRAINED_WEIGHTS[players]
    weights = importlib.resources.files("qe_rules").joinpath(f"data/agents/{name}")
    with importlib.resources.as_file(weights) as path:
        return MLPPolicy.load(path)


TRAINED_TABLES: Final = frozenset(("en", players) for players in TRAINED_WEIGHTS)
"""The rule sets and player counts the shipped policies were trained for, as ``(rule set
id, players)``."""


class TrainedAgent(PolicyAgent):
    """The shipped policies (:data:`TRAINED_WEIGHTS`): networks trained with MaskablePPO
    against value and random agents under ``en``, one per player count, played greedily
    with numpy (docs/rl.md has their evaluation). At a table none was trained for (see
    :data:`TRAINED_TABLES`) it plays as a value agent: a policy does not carry over to
    another player count (the 4-player one won about 1% of 3- and 5-player games against
    value agents). ``seed`` goes to that value agent (a policy plays the same in every
    game), and ``ruleset`` too, so that
    :func:`~qe_rules.simulation.agents.agent_factory` makes it as it makes the others."""

    __slots__ = ("_fallback", "seed")

    name: ClassVar[str] = "trained"

    def __init__(self, seed: int = 0, *, ruleset: RuleSet | str | None = None) -> None:
        if type(seed) is not int:
            raise InvalidArgument(f"an agent's seed is a whole number (int), got {shown(seed)}")
        super().__init__(_trained_policy())
        self.seed = seed
        self._fallback = ValueAgent(seed, ruleset=ruleset)

    def _trained_for(self, view: PlayerView) -> bool:
        return (view.ruleset, view.players) in TRAINED_TABLES

    def _choose(self, view: PlayerView) -> int:
        encoder, policy = self._encoder, _trained_policy(view.players)
        return _action(policy(encoder.observation(view), encoder.action_mask(view)))

    def bid(self, view: PlayerView) -> int:
        """The policy's bid where it was trained, else the value agent's."""
        if self._trained_for(view):
            return super().bid(view)
        return self._fallback.bid(view)

    def wants_peek(self, view: PlayerView) -> bool:
        """The policy's answer where it was trained, else the value agent's."""
        if self._trained_for(view):
            return super().wants_peek(view)
        return self._fallback.wants_peek(view)

    def __repr__(self) -> str:
        return f"TrainedAgent(seed={self.seed})"


# --------------------------------------------------------------------------- batched


ManyPolicy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], npt.ArrayLike]
"""A policy for many rows at once: ``(observations, masks) -> actions``, one row each."""


class PolicyBatchAgent:
    """:class:`PolicyAgent` for the batched engine (:func:`qe_rules.batch.play`): the
    same decisions from the same encoding, for many games at once.

    It follows the games through :class:`~qe_rules.learning.observer.BatchObserver` and
    asks ``many(observations, masks)`` for the rows asked, or, where neither ``many`` nor
    ``policy.many`` is given, ``policy`` row by row. Plays ``peek_timing=last-sale`` only.

    >>> import numpy as np
    >>> from qe_rules import batch
    >>> def five_or_least(observation, mask):
    ...     return 5 if mask[5] else int(np.flatnonzero(mask)[0])
    >>> played = batch.play("en", 4, 50, agents=[PolicyBatchAgent(five_or_least), "value",
    ...                     "value", "value"], seed=1)
    >>> played.games
    50
    """

    name: ClassVar[str] = "policy"
    reads_state: ClassVar[bool] = True
    reads_moves: ClassVar[bool] = True

    def __init__(self, policy: Policy, *, many: ManyPolicy | None = None) -> None:
        if not callable(policy):
            raise InvalidArgument(
                f"a policy is a callable (observation, mask), got {shown(policy)}"
            )
        self.policy = policy
        self.many: ManyPolicy | None = many if many is not None else getattr(policy, "many", None)
        self._observer: BatchObserver | None = None
        self._chunk: Any = None
        self._moment: tuple[Any, ...] | None = None

    def see(self, ask: BidAsk | PeekAsk) -> None:
        """Bring the encoding of every seat up to the moment of ``ask``."""
        chunk = ask.state
        observer = self._observer
        if chunk is not self._chunk:
            if (
                observer is None
                or observer.compiled is not chunk.rules
                or (observer.games != chunk.games)
            ):
                observer = BatchObserver(chunk.rules, chunk.games, fresh_arrays=False)
                self._observer = observer
            observer.start(chunk, chunk.log)
            self._chunk, self._moment = chunk, None
        assert observer is not None
        moment = moment_key(chunk, ask)
        if moment != self._moment:
            self._moment = moment
            observer.observe(ask)

    def encoded(
        self, ask: BidAsk | PeekAsk
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """The observations and masks of the seat asked, one row per game asked."""
        self.see(ask)  # a no-op when the batch has shown it the question
        chunk, observer = ask.state, self._observer
        assert observer is not None
        rows = np.arange(chunk.games) if ask.rows is None else ask.rows
        observations = to_seats(
            observer.observations[rows, ask.seat], chunk.first[rows], chunk.players
        )
        return observations, observer.masks[rows, ask.seat]

    def _actions(self, ask: BidAsk | PeekAsk) -> npt.NDArray[np.int64]:
        observations, masks = self.encoded(ask)
        if self.many is not None:
            actions = np.asarray(self.many(observations, masks))
        else:
            actions = np.array(
                [_action(self.policy(o, m)) for o, m in zip(observations, masks, strict=True)],
                dtype=np.int64,
            )
        if actions.shape != (len(masks),):
            raise InvalidArgument(
                f"a policy gives one action per row ({len(masks)}), got shape {actions.shape}"
            )
        return actions.astype(np.int64)

    def bids(self, ask: BidAsk) -> npt.NDArray[np.int64]:
        """The policy's bids, made legal as :class:`PolicyAgent` makes them."""
        actions = self._actions(ask)
        amounts = np.where((actions >= 0) & (actions <= encode.BID_CAP), actions, 0)
        chosen: npt.NDArray[np.int64] = legal(amounts, ask.minimum, ask.forbidden)
        return chosen

    def peeks(self, ask: PeekAsk) -> npt.NDArray[np.bool_]:
        """Where the policy answers :data:`~qe_rules.learning.encode.PEEK`."""
        peeks: npt.NDArray[np.bool_] = self._actions(ask) == encode.PEEK
        return peeks

    def __repr__(self) -> str:
        return f"PolicyBatchAgent({self.policy!r})"


class TrainedBatchAgent:
    """:class:`TrainedAgent` for the batched engine: the shipped policy where it was
    trained (:data:`TRAINED_TABLES`), else the batched value agent; ``"trained"`` among
    the batch's agent names."""

    name: ClassVar[str] = "trained"
    reads_state: ClassVar[bool] = True
    reads_moves: ClassVar[bool] = True

    def __init__(self) -> None:
        self._value = ValueBids()
        self._policies: dict[int, PolicyBatchAgent] = {}

    def _agent(self, state: Any) -> PolicyBatchAgent | ValueBids:
        rules = state.rules
        if (rules.ruleset.id, rules.players) not in TRAINED_TABLES:
            return self._value
        found = self._policies.get(rules.players)
        if found is None:
            found = self._policies[rules.players] = PolicyBatchAgent(_trained_policy(rules.players))
        return found

    def see(self, ask: BidAsk | PeekAsk) -> None:
        """Follow the games where the policy plays."""
        agent = self._agent(ask.state)
        if isinstance(agent, PolicyBatchAgent):
            agent.see(ask)

    def bids(self, ask: BidAsk) -> npt.NDArray[np.int64]:
        """The policy's bids, or the value agent's."""
        bids: npt.NDArray[np.int64] = self._agent(ask.state).bids(ask)
        return bids

    def peeks(self, ask: PeekAsk) -> npt.NDArray[np.bool_]:
        """The policy's peeks, or the value agent's."""
        return self._agent(ask.state).peeks(ask)

    def __repr__(self) -> str:
        return "TrainedBatchAgent()"


register_agent("trained", TrainedAgent, batched=TrainedBatchAgent)  # also an entry point
