"""The ``adaptive`` agent: the trained agent, which is hard to exploit, until the other
seats play like agents that a sharper network beats; then that network (needs numpy: the
``rl`` extra).

The two kinds of table differ in a public fact: who bid zero in each finished sale
(:attr:`~qe_rules.game.views.SaleView.zero_bidders`). In 4-player games under ``en``, a
value agent's secret bid is zero about 15% of the time and a random agent's 8%, while a
trained agent's is zero 66% of the time. The agent reads the share of the other seats'
bids that were zero so far (:func:`zero_share`) and, from a set sale on, plays the
shipped PPO network (``ppo``, :func:`~qe_rules.learning.policies.ppo_policy`: it wins
more against value and random agents, but is easier to exploit) where that share is
below a threshold, and the ``trained`` agent elsewhere. Copies of the agent keep each
other's share high, so a newcomer at their table meets the trained agent. The threshold
and the first sale are data (``data/agents/adaptive.toml``, :data:`SWITCHES`), by player
count; docs/rl.md has the evaluation. Peeks are the trained agent's.

>>> from qe_rules import batch
>>> played = batch.play("en", 4, 40, agents=["adaptive", "value", "value", "value"], seed=3)
>>> played.games
40
"""

from __future__ import annotations

import importlib.resources
import tomllib
from typing import Any, ClassVar, Final

import attrs
import numpy as np
import numpy.typing as npt

from qe_rules.errors import InvalidArgument, shown
from qe_rules.game.views import PlayerView
from qe_rules.learning.policies import PPOAgent, PPOBatchAgent
from qe_rules.rules.model import RuleSet
from qe_rules.simulation.agents import Agent, register_agent
from qe_rules.simulation.batch.agents import BidAsk, PeekAsk
from qe_rules.simulation.batch.learned import TrainedBids
from qe_rules.simulation.learned import TrainedAgent

__all__ = ["SWITCHES", "AdaptiveAgent", "AdaptiveBatchAgent", "Switch", "share_of", "zero_share"]


def _check_share(_instance: object, _attribute: object, value: Any) -> None:
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value <= 1:
        raise InvalidArgument(f"a switch's share is a number from 0 to 1, got {shown(value)}")


def _check_sale(_instance: object, _attribute: object, value: Any) -> None:
    if type(value) is not int or value < 0:
        raise InvalidArgument(f"a switch's from_sale is a whole number >= 0, got {shown(value)}")


@attrs.frozen(kw_only=True)
class Switch:
    """When the adaptive agent plays its sharper network: from sale ``from_sale`` on,
    where the other seats' :func:`zero_share` is below ``share``."""

    share: float = attrs.field(validator=_check_share)
    from_sale: int = attrs.field(validator=_check_sale)

    def watches(self, sale: int) -> bool:
        """Whether the share decides in ``sale`` (before, the trained agent plays)."""
        return sale >= self.from_sale

    def exploits(self, share: Any, sale: int) -> Any:
        """Whether the sharper network plays at this ``share`` in ``sale`` (a share, or an
        array of them: then an array, from the sale it watches on)."""
        return self.watches(sale) and share < self.share


def _switches() -> dict[int, Switch]:
    path = importlib.resources.files("qe_rules").joinpath("data/agents/adaptive.toml")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return {int(players): Switch(**table) for players, table in data["players"].items()}


SWITCHES: Final[dict[int, Switch]] = _switches()
"""The adaptive agent's :class:`Switch` by player count (``data/agents/adaptive.toml``)."""


def _switch(players: int) -> Switch:
    found = SWITCHES.get(players)
    if found is None:
        raise InvalidArgument(
            f"the adaptive agent plays {', '.join(map(str, SWITCHES))} players, got {shown(players)}"
        )
    return found


def share_of(zeros: Any, sale: int, players: int) -> Any:
    """``(zeros + 1) / (bids + 2)`` with ``players - 1`` bids in each of the ``sale``
    sales before: the share of zero bids from a count of them (or an array of counts)."""
    return (zeros + 1) / (sale * (players - 1) + 2)


def zero_share(view: PlayerView) -> float:
    """The share of the other seats' bids that were zero in the sales before ``view``'s
    (:func:`share_of`; 1/2 before any; no zero is on record where the rule set has no
    zero bids at the player count)."""
    seat = view.seat
    zeros = sum(1 for sale in view.history for other in sale.zero_bidders if other != seat)
    share: float = share_of(zeros, view.sale, view.players)
    return share


class AdaptiveAgent(Agent):
    """The ``adaptive`` agent (see the module): ``ppo`` where the others' zero share is
    low, ``trained`` elsewhere; each plays with ``seed`` and ``ruleset``, and each falls
    back to the value agent where its network does not apply."""

    __slots__ = ("_exploit", "_robust", "ruleset", "seed")

    name: ClassVar[str] = "adaptive"

    def __init__(self, seed: int = 0, *, ruleset: RuleSet | str | None = None) -> None:
        self._robust = TrainedAgent(seed, ruleset=ruleset)
        self._exploit = PPOAgent(seed, ruleset=ruleset)
        self.seed = seed
        self.ruleset = ruleset

    def exploits(self, view: PlayerView) -> bool:
        """Whether the sharper network plays in ``view``."""
        return bool(_switch(view.players).exploits(zero_share(view), view.sale))

    def bid(self, view: PlayerView) -> int:
        """The bid of the network the switch picks."""
        return (self._exploit if self.exploits(view) else self._robust).bid(view)

    def wants_peek(self, view: PlayerView) -> bool:
        """The trained agent's answer."""
        return self._robust.wants_peek(view)

    def __repr__(self) -> str:
        return f"AdaptiveAgent(seed={self.seed})"


class AdaptiveBatchAgent:
    """:class:`AdaptiveAgent` for the batched engine (``"adaptive"`` among its names):
    the same switch, from the zero bids each seat made (``state.zero_bids_made``)."""

    name: ClassVar[str] = "adaptive"
    reads_state: ClassVar[bool] = True
    reads_moves: ClassVar[bool] = True

    def __init__(self) -> None:
        self._robust = TrainedBids()
        self._exploit = PPOBatchAgent()

    def see(self, ask: BidAsk | PeekAsk) -> None:
        """Follow the games as the sharper network does."""
        self._exploit.see(ask)

    def exploits(self, ask: BidAsk) -> npt.NDArray[np.bool_]:
        """Per game asked, whether the sharper network plays."""
        state = ask.state
        switch = _switch(state.players)
        if not switch.watches(state.sale):
            return np.zeros(len(ask.draws), dtype=bool)
        made = state.zero_bids_made
        zeros = made.sum(axis=0) - made[ask.seat]
        if ask.rows is not None:
            zeros = zeros[ask.rows]
        exploits: npt.NDArray[np.bool_] = switch.exploits(
            share_of(zeros, state.sale, state.players), state.sale
        )
        return exploits

    def bids(self, ask: BidAsk) -> npt.NDArray[np.int64]:
        """The bids of the network the switch picks, game by game."""
        exploits = self.exploits(ask)
        robust = self._robust.bids(ask)
        if not exploits.any():
            return robust.astype(np.int64, copy=False)
        chosen: npt.NDArray[np.int64] = np.where(exploits, self._exploit.bids(ask), robust)
        return chosen

    def peeks(self, ask: PeekAsk) -> npt.NDArray[np.bool_]:
        """The trained agent's peeks."""
        return self._robust.peeks(ask)

    def __repr__(self) -> str:
        return "AdaptiveBatchAgent()"


register_agent("adaptive", AdaptiveAgent, batched=AdaptiveBatchAgent)  # also an entry point
