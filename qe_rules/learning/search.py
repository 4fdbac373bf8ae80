"""An agent that searches: information-set Monte Carlo search over the games its seat
cannot tell apart (pure Python on the reference engine, no extra needed).

:class:`SearchAgent` chooses a bid by simulating: each simulation draws a game
consistent with the seat's view (:func:`~qe_rules.learning.determinize.determinize`: the
other tokens, the tiles to come and every unseen bid at random), plays one of a few
candidate bids in it, the other seats of the round and the rest of the game played by
value agents, and scores the end with a reward of :mod:`qe_rules.learning.rewards`. The
candidates share the ``simulations`` by UCB1, and the one simulated most wins. It
searches its own decision only: later decisions, its own included, are the value
agents' (a one-level search, or determinized flat Monte Carlo).

>>> import qe_rules as qe
>>> from qe_rules.learning.search import SearchAgent
>>> game = qe.new_game("en", 4, seed=7).bid(0, 3)
>>> agent = SearchAgent(seed=1, simulations=16)
>>> bid = agent.bid(game.view(1))
>>> bid >= 0 and bid != 3, agent.bid(game.view(1)) == bid   # the same view, the same bid
(True, True)

It is slow (a simulation plays the rest of a game: about 3 ms), so it suits evaluation
tables and opponents for a learner's tests rather than long runs.
"""

from __future__ import annotations

import math
import random
from typing import ClassVar, Final

from qe_rules.errors import InvalidArgument, shown
from qe_rules.game.engine import Game
from qe_rules.game.views import Phase, PlayerView
from qe_rules.learning.determinize import determinize
from qe_rules.learning.rewards import RewardFunction, check_reward
from qe_rules.rules.model import RuleSet
from qe_rules.simulation.agents import Agent, ValueAgent

__all__ = ["OFFSETS", "SearchAgent"]

OFFSETS: Final = (-3, -1, 0, 1, 3)
"""The candidate bids, as offsets from the value agent's bid (each made legal), with the
smallest legal bid."""


class SearchAgent(Agent):
    """Searches each bid with ``simulations`` games drawn from its view (see the
    module). ``exploration`` is UCB1's constant; ``reward`` the kind of reward the
    simulations score (``"shaped"`` by default: the win, and a margin); ``seed`` makes
    its draws, which depend on the seed and the view only."""

    __slots__ = ("_reward", "exploration", "ruleset", "seed", "simulations")

    name: ClassVar[str] = "search"

    def __init__(
        self,
        seed: int = 0,
        *,
        simulations: int = 64,
        exploration: float = 0.5,
        reward: str | RewardFunction = "shaped",
        ruleset: RuleSet | str | None = None,
    ) -> None:
        if type(seed) is not int:
            raise InvalidArgument(f"an agent's seed is a whole number (int), got {shown(seed)}")
        if type(simulations) is not int or simulations < 1:
            raise InvalidArgument(f"simulations is a whole number >= 1, got {shown(simulations)}")
        if not isinstance(exploration, int | float) or exploration < 0:
            raise InvalidArgument(f"exploration is a number >= 0, got {shown(exploration)}")
        self.seed = seed
        self.simulations = simulations
        self.exploration = float(exploration)
        self._reward = check_reward(reward)
        self.ruleset = ruleset

    def __repr__(self) -> str:
        return f"SearchAgent(seed={self.seed}, simulations={self.simulations})"

    def candidates(self, view: PlayerView) -> tuple[int, ...]:
        """The bids the search weighs: around the value agent's bid, and the least."""
        limits = view.limits
        if limits is None or view.phase is Phase.PEEKING:
            raise InvalidArgument(f"seat {view.seat} is not to bid now")
        guide = ValueAgent(self.seed, ruleset=self.ruleset).bid(view)
        bids = {limits.legal(limits.minimum)}
        bids.update(limits.legal(max(0, guide + offset)) for offset in OFFSETS)
        return tuple(sorted(bids))

    def bid(self, view: PlayerView) -> int:
        """The candidate UCB1 simulated most (the one it found best, and kept choosing)."""
        candidates = self.candidates(view)
        if len(candidates) == 1:
            return candidates[0]
        rng = random.Random(f"{self.seed}/{view.sale}/{view.seat}/{view.my_bids}/{view.ties}")
        visits = [0] * len(candidates)
        totals = [0.0] * len(candidates)
        for done in range(self.simulations):
            if done < len(candidates):
                pick = done
            else:
                spread = self.exploration * math.sqrt(math.log(done))
                pick = max(
                    range(len(candidates)),
                    key=lambda i: totals[i] / visits[i] + spread / math.sqrt(visits[i]),
                )
            game = determinize(view, rng, ruleset=self.ruleset)
            totals[pick] += self._simulate(game, view.seat, candidates[pick], rng)
            visits[pick] += 1
        best = max(
            (i for i in range(len(candidates)) if visits[i]),
            key=lambda i: (visits[i], totals[i] / visits[i]),
        )
        return candidates[best]

    def wants_peek(self, view: PlayerView) -> bool:
        """Peek as a value agent does: in the second half of the game."""
        return ValueAgent(self.seed).wants_peek(view)

    def _simulate(self, game: Game, seat: int, amount: int, rng: random.Random) -> float:
        """The reward of ``seat`` after bidding ``amount`` in ``game``, the rest played
        by value agents."""
        agents = [ValueAgent(rng.getrandbits(31), ruleset=self.ruleset) for _ in game.nations]
        seats = sorted(game.to_act)
        if len(seats) == 1:
            game = game.bid(seat, amount)
        else:
            bids = {other: agents[other].bid(game.view(other)) for other in seats if other != seat}
            bids[seat] = amount
            game = game.bid_many(bids)
        rounds = 0
        while not game.is_over:
            seats = sorted(game.to_act)
            if game.phase is Phase.PEEKING:
                for other in seats:
                    wants = agents[other].wants_peek(game.view(other))
                    game = game.peek(other) if wants else game.decline_peek(other)
            elif len(seats) == 1:
                game = game.bid(seats[0], agents[seats[0]].bid(game.view(seats[0])))
            else:
                rounds += 1
                if rounds > 10_000:  # endless ties under a rule set without fallback
                    return 0.0
                game = game.bid_many(
                    {other: agents[other].bid(game.view(other)) for other in seats}
                )
        return float(self._reward(game.result())[seat])
