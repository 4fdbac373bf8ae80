"""Agents: players that choose their bids from what their seat may know.

An agent gets a :class:`~qe_rules.PlayerView` and returns its bid, an ``int``; with 5
players it may also peek (:meth:`Agent.wants_peek`). A view holds no reference to the
game, so an agent cannot see another seat's token or secret bids, nor the order of the
deck.

>>> import qe_rules as qe
>>> from qe_rules.simulation.agents import RandomAgent, ValueAgent, ZeroAgent
>>> game = qe.new_game("en", 4, seed=7)
>>> view = game.view(0)                       # seat 0 runs the first sale
>>> view.limits, ZeroAgent().bid(view)
(BidLimits(minimum=1, forbidden=None), 1)
>>> game = game.bid(0, 5)
>>> [ZeroAgent().bid(game.view(seat)) for seat in (1, 2, 3)]
[0, 0, 0]
>>> RandomAgent(seed=1).bid(game.view(1)) == RandomAgent(seed=1).bid(game.view(1))
True

Agents are made per seat and per game from a seed, so a simulation can build them in
any process: by name with :func:`agent_from_name`, or with a factory such as the classes
themselves (``RandomAgent(seed)``).
"""

from __future__ import annotations

import functools
import importlib.metadata
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Final, NamedTuple, Protocol, runtime_checkable

import attrs

from qe_rules.components import Company, Industry
from qe_rules.errors import InvalidArgument, shown
from qe_rules.game._tables import TILE_LIMIT, points_by_count, scoring_tables
from qe_rules.game.draws import agent_draw, uniform
from qe_rules.game.sales import BidLimits
from qe_rules.game.views import Phase, PlayerView
from qe_rules.rules.model import RuleSet, get_ruleset

__all__ = [
    "AGENT_GROUP",
    "AGENT_NAMES",
    "BATCH_AGENT_GROUP",
    "Agent",
    "AgentFactory",
    "RandomAgent",
    "ValueAgent",
    "ZeroAgent",
    "agent_elsewhere",
    "agent_factory",
    "agent_from_name",
    "agent_label",
    "register_agent",
]


@runtime_checkable
class Agent(Protocol):
    """A player: chooses bids from a :class:`~qe_rules.PlayerView`.

    :meth:`bid` is asked whenever the seat's bid is awaited (``view.limits`` is then set)
    and returns a legal amount. :meth:`wants_peek` is asked when the seat is in the
    5-player peek window (``view.can_peek``): true peeks, false declines. Classes that
    subclass ``Agent`` never peek unless they override it.
    """

    def bid(self, view: PlayerView) -> int:
        """The amount to bid: at least ``view.limits.minimum``, never
        ``view.limits.forbidden``."""
        ...

    def wants_peek(self, view: PlayerView) -> bool:
        """Whether to look at the winning amount of the sale just awarded."""
        return False


AgentFactory = Callable[[int], Agent]
"""Makes an agent for one seat of one game from a seed (an ``int``)."""


def _limits(view: PlayerView) -> BidLimits:
    limits = view.limits
    if limits is None:
        raise InvalidArgument(
            f"seat {view.seat} is not to bid now (sale {view.sale}, {view.phase.value}); "
            "ask an agent for a bid only when view.limits is set"
        )
    return limits


def _check_seed(seed: object) -> int:
    if type(seed) is not int:
        raise InvalidArgument(f"an agent's seed is a whole number (int), got {shown(seed)}")
    return seed


# --------------------------------------------------------------------------- zero and random


@attrs.frozen
class ZeroAgent(Agent):
    """Always bids the least it may: 0 as a secret bidder where 0 is allowed, the
    smallest opening bid as auctioneer, and one more where the least amount is forbidden.

    ``seed`` is accepted so that every agent is made the same way; nothing is drawn.
    """

    seed: int = attrs.field(default=0, validator=lambda _i, _a, v: _check_seed(v))
    name: ClassVar[str] = "zero"

    def bid(self, view: PlayerView) -> int:
        """The smallest legal amount."""
        limits = _limits(view)
        return limits.legal(limits.minimum)


def _check_spread(instance: RandomAgent, attribute: attrs.Attribute[int], value: int) -> None:
    if type(value) is not int or value < 0:
        raise InvalidArgument(f"spread is a whole number >= 0, got {shown(value)}")


def _check_chance(instance: RandomAgent, attribute: attrs.Attribute[float], value: float) -> None:
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value <= 1:
        raise InvalidArgument(f"peek_chance is a number from 0 to 1, got {shown(value)}")


def _draw(seed: int, view: PlayerView, peek: bool = False) -> int:
    """32 random bits of the agent with ``seed`` at the moment ``view`` shows: keyed by
    the seat, the sale and the seat's bids so far in it (:mod:`qe_rules.game.draws`)."""
    return agent_draw(seed, seat=view.seat, sale=view.sale, number=len(view.my_bids), peek=peek)


@attrs.frozen(eq=False)
class RandomAgent(Agent):
    """Bids a random legal amount: the minimum plus 0 to ``spread`` (one more when the
    draw hits the forbidden amount). Peeks, when it may, with ``peek_chance``.

    Each draw is a keyed function of the seed and of where the game stands (the seat, the
    sale, how many bids the seat has made in it; :mod:`qe_rules.game.draws`), so the
    agent keeps no state: the same seed and the same view always give the same bid, and
    the batched engine's ``random`` agent draws the same bits.

    >>> import qe_rules as qe
    >>> view = qe.new_game("en", 4, seed=7).view(0)
    >>> [RandomAgent(seed=3).bid(view) for _ in range(3)]
    [13, 13, 13]
    >>> [RandomAgent(seed).bid(view) for seed in range(6)]
    [1, 7, 1, 13, 8, 9]
    """

    seed: int = attrs.field(default=0, validator=lambda _i, _a, v: _check_seed(v))
    spread: int = attrs.field(default=12, validator=_check_spread)
    peek_chance: float = attrs.field(default=0.5, validator=_check_chance)
    name: ClassVar[str] = "random"

    def bid(self, view: PlayerView) -> int:
        """A random legal amount."""
        limits = view.limits
        if limits is None:
            limits = _limits(view)
        return limits.legal(limits.minimum + uniform(_draw(self.seed, view), self.spread + 1))

    def wants_peek(self, view: PlayerView) -> bool:
        """Peek with ``peek_chance`` when the view allows it."""
        return view.can_peek and _draw(self.seed, view, peek=True) < int(self.peek_chance * 2**32)


# --------------------------------------------------------------------------- value


class _Tables(NamedTuple):
    """The scoring data a value agent needs, for one rule set and player count."""

    nationalization: tuple[int, ...]  # points by count
    monopolization: tuple[int, ...]
    diversification: tuple[int, ...]  # points by set size
    token_in_monopolization: bool
    token_in_diversification: bool
    zero_bid_points: int  # 0 where zero bids do not score
    zero_bid_limit: int  # zero-bid scorings per round, 0 for no limit


_TABLES: Final[dict[tuple[RuleSet, int], _Tables]] = {}


def _tables(rules: RuleSet, players: int) -> _Tables:
    key = (rules, players)
    found = _TABLES.get(key)
    if found is None:
        scoring = scoring_tables(rules, players)
        found = _Tables(
            scoring.nationalization,
            scoring.monopolization,
            # by set size up to the tile limit, where scoring's stops at the industries
            points_by_count(rules.diversification[players], TILE_LIMIT, rules.beyond_table),
            scoring.token_in_monopolization,
            scoring.token_in_diversification,
            rules.zero_bid_points if rules.has_zero_bid_points(players) else 0,
            rules.zero_bid_limit_per_round,
        )
        _TABLES[key] = found
    return found


def _potential(table: tuple[int, ...], count: int) -> float:
    """What one more item is worth on a table at ``count`` items: the points of the next
    step, or a share of a step further away (discounted, as it needs more items)."""
    now = table[min(count, TILE_LIMIT)]
    best = 0.0
    for more in (1, 2, 3):
        reach = min(count + more, TILE_LIMIT)
        gain = (table[reach] - now) / more * 0.6 ** (more - 1)
        best = max(best, gain)
    return best


def _typical_price(view: PlayerView) -> float:
    """The mean of the winning amounts the seat saw (4 before it saw any)."""
    prices = [sale.amount for sale in view.history if sale.amount is not None]
    return sum(prices) / len(prices) if prices else 4.0


def _worth(view: PlayerView, tile: Company | None, tables: _Tables) -> float:
    """:meth:`ValueAgent.worth` from the rule set's tables."""
    if tile is None:
        return 0.0
    seat = view.seat
    mine = view.holdings[seat]
    nation = view.nations[seat]
    worth = float(tile.vp)
    if tile.nation is nation:
        own = sum(1 for c in mine if c.nation is nation)
        worth += _potential(tables.nationalization, own)
    counts = dict.fromkeys(Industry, 0)
    for c in mine:
        counts[c.industry] += 1
    same = counts[tile.industry]
    if tables.token_in_monopolization and view.industry is tile.industry:
        same += 1
    worth += _potential(tables.monopolization, same)
    if tables.token_in_diversification:
        counts[view.industry] += 1
    if not counts[tile.industry]:  # a new industry for the seat's sets
        kinds = sum(1 for n in counts.values() if n)
        worth += _potential(tables.diversification, kinds)
    return worth


def _zero_bid_points(view: PlayerView, tables: _Tables) -> int:
    """The points a zero bid would score in this sale, as the value agent reckons them
    (none once the seat's zero bids of the round reach the limit)."""
    if not tables.zero_bid_points:
        return 0
    if tables.zero_bid_limit:
        seat = view.seat
        this_round = sum(
            1 for sale in view.history if sale.round == view.round and seat in sale.zero_bidders
        )
        if this_round >= tables.zero_bid_limit:
            return 0
    return tables.zero_bid_points


def _others_spent(view: PlayerView, typical: float) -> tuple[float, ...]:
    """:meth:`ValueAgent.others_spent` with the typical price given."""
    players = view.players
    known = [0] * players  # the amounts the seat knows each other seat paid
    floors = [0] * players  # the least each paid where the seat does not know it
    unknown = [0] * players  # how many such sales each won
    for sale in view.history:
        winner = sale.winner
        if winner is None or winner == view.seat:
            continue
        if sale.amount is not None:
            known[winner] += sale.amount
        else:
            floors[winner] += 0 if sale.opening_bid is None else sale.opening_bid + 1
            unknown[winner] += 1
    spent = [float(known[s] + max(floors[s], unknown[s] * typical)) for s in range(players)]
    spent[view.seat] = float(view.spent)
    return tuple(spent)


def _spending_room(view: PlayerView, typical: float) -> float:
    """:meth:`ValueAgent.spending_room` with the typical price given."""
    spent = _others_spent(view, typical)
    others = [amount for seat, amount in enumerate(spent) if seat != view.seat]
    top = max(others) if others else 0.0
    left = view.remaining + 1  # this sale too
    return top + typical * left / view.players - view.spent - 1


def _check_ruleset(instance: ValueAgent, attribute: Any, value: Any) -> None:
    if value is not None and not isinstance(value, RuleSet | str):
        raise InvalidArgument(f"ruleset is a RuleSet, a rule set id or None, got {shown(value)}")


@attrs.frozen(eq=False)
class ValueAgent(Agent):
    """Bids what the company is worth to its seat, within a spending limit.

    The worth (:meth:`worth`, in victory points) adds the tile's VP and what it adds in
    nationalization (its nation is the seat's), monopolization and diversification (with
    the seat's tiles and, where the rule set counts it, its industry token), read from the
    rule set's tables for the player count. A step a table reaches only with more tiles
    counts for a discounted share.

    The limit (:meth:`spending_room`) keeps the seat from becoming the highest spender:
    it estimates each other seat's spend from the tiles it won (the amounts the seat saw,
    plus, for the tiles whose amount it did not see, the typical price it saw for each or
    their opening bids plus one, whichever sums higher) and allows what the others are
    likely to add in the sales left. Where zero bids score, a tile worth little is passed with a
    zero bid. ``seed`` adds a small random part to each bid (less than 1), which makes
    ties rare; ``ruleset`` is needed only for a rule set that is not built in.

    >>> import qe_rules as qe
    >>> game = qe.new_game("en", 4, seed=7).bid(0, 3)   # seat 0 opens at 3
    >>> view = game.view(1)
    >>> view.company, view.nations[1], view.industry
    (Company('US-AGR-4'), <Nation.US: 'US'>, <Industry.MANUFACTURING: 'MAN'>)
    >>> agent = ValueAgent(seed=1)
    >>> round(agent.worth(view), 2), agent.spending_room(view), agent.bid(view)
    (7.1, 15.0, 8)
    """

    seed: int = attrs.field(default=0, validator=lambda _i, _a, v: _check_seed(v))
    ruleset: RuleSet | str | None = attrs.field(default=None, validator=_check_ruleset)
    _rules: dict[str, RuleSet] = attrs.field(init=False, repr=False)
    name: ClassVar[str] = "value"

    def __attrs_post_init__(self) -> None:
        known: dict[str, RuleSet] = {}
        if self.ruleset is not None:
            rules = get_ruleset(self.ruleset)
            known[rules.id] = rules
        object.__setattr__(self, "_rules", known)

    def _tables(self, view: PlayerView) -> _Tables:
        rules = self._rules.get(view.ruleset)
        if rules is None:
            if self._rules:
                raise InvalidArgument(
                    f"this agent was made for rule set {next(iter(self._rules))!r}, "
                    f"but the game is played under {view.ruleset!r}"
                )
            rules = self._rules[view.ruleset] = get_ruleset(view.ruleset)
        return _tables(rules, view.players)

    def worth(self, view: PlayerView, company: Company | None = None) -> float:
        """What ``company`` (by default the one on sale) is worth to this seat, in VP."""
        tile = view.company if company is None else company
        if tile is None:
            return 0.0
        return _worth(view, tile, self._tables(view))

    def others_spent(self, view: PlayerView) -> tuple[float, ...]:
        """An estimate of every seat's spend from what this seat saw (exact for itself)."""
        return _others_spent(view, _typical_price(view))

    def spending_room(self, view: PlayerView) -> float:
        """How much more this seat may spend now and, as estimated, stay below the
        highest spender at the end."""
        return _spending_room(view, _typical_price(view))

    def noise(self, view: PlayerView) -> float:
        """The small random part of the bid at this moment, from 0 to 1: the agent's keyed
        draw (:mod:`qe_rules.game.draws`) over 2**32."""
        return _draw(self.seed, view) / 2**32

    def _zero_points(self, view: PlayerView, tables: _Tables) -> int:
        """The points a zero bid would score in this sale."""
        return _zero_bid_points(view, tables)

    def bid(self, view: PlayerView) -> int:
        """An amount from the company's worth, capped by :meth:`spending_room`."""
        limits = _limits(view)
        tables = self._tables(view)
        worth = _worth(view, view.company, tables)
        room = _spending_room(view, _typical_price(view))
        noise = self.noise(view)
        runs_it = view.seat == view.auctioneer
        if runs_it and view.phase is Phase.OPENING:
            # an opening bid is public and wins if nobody bids more: open low
            return limits.legal(int(min(worth * 0.6, room) + noise))
        target = min(worth + noise, room)
        if view.phase is Phase.REBIDDING and view.my_bids:
            tied_at = view.my_bids[-1]
            if target <= tied_at:  # cannot outbid the tie: drop out as cheaply as possible
                return limits.legal(limits.minimum)
            return limits.legal(min(int(target), tied_at + 1 + int(noise * 3)))
        zero = self._zero_points(view, tables) if limits.minimum <= 0 else 0
        opening = view.opening_bid or 0
        if target <= opening or worth <= zero + 1:
            return limits.legal(limits.minimum)
        return limits.legal(int(target))

    def wants_peek(self, view: PlayerView) -> bool:
        """Peek in the second half of the game, when the amount matters most."""
        return view.can_peek and view.sale >= view.sales // 2


# --------------------------------------------------------------------------- by name


_BY_NAME: Final[Mapping[str, Callable[..., Agent]]] = {
    "random": RandomAgent,
    "zero": ZeroAgent,
    "value": ValueAgent,
}

AGENT_GROUP: Final = "qe_rules.agents"
"""The entry-point group of agents found by name (``name = "module:factory"``, the
factory called with a seed as an :data:`AgentFactory` is). qe-rules declares its
``trained`` agent there, defined in :mod:`qe_rules.simulation.learned` (built on this
module), and its ``ppo`` and ``adaptive`` agents, defined in
:mod:`qe_rules.learning.policies` and :mod:`qe_rules.learning.adaptive` (a higher layer,
which needs the ``rl`` extra); another package may declare its own agents."""

BATCH_AGENT_GROUP: Final = "qe_rules.batch_agents"
"""The entry-point group of batched agents found by name (``name = "module:factory"``,
the factory called without arguments), for :func:`qe_rules.batch.play`."""

# built-in names whose agents live in other modules, and the extra each needs
_ELSEWHERE: Final[Mapping[str, str | None]] = {"trained": None, "ppo": "rl", "adaptive": "rl"}

AGENT_NAMES: Final[tuple[str, ...]] = (*_BY_NAME, *_ELSEWHERE)
"""The built-in agent names :func:`agent_from_name` knows: ``random``, ``zero``,
``value``, ``trained`` (the shipped learned agent: the value agent's figures read by a
small learned network, :mod:`qe_rules.simulation.learned`), ``ppo`` (networks trained
with PPO on the whole observation, which need numpy: the ``rl`` extra) and ``adaptive``
(``trained``, switching to ``ppo`` at tables that bid zero rarely:
:mod:`qe_rules.learning.adaptive`, the ``rl`` extra). Agents registered
(:func:`register_agent`) or declared in :data:`AGENT_GROUP` are found by name too."""

_REGISTERED: Final[dict[str, dict[str, Callable[..., Any]]]] = {
    AGENT_GROUP: {},
    BATCH_AGENT_GROUP: {},
}


def register_agent(
    name: str, factory: AgentFactory, *, batched: Callable[[], Any] | None = None
) -> None:
    """Make ``name`` an agent name: :func:`agent_factory` gives ``factory``, and
    ``qe_rules.batch.play`` makes ``batched()`` for it where it is given. A module that
    defines agents registers them when it is imported (:mod:`qe_rules.learning.policies`
    registers ``trained``); an installed package may declare them in
    :data:`AGENT_GROUP` and :data:`BATCH_AGENT_GROUP` instead, found without an import."""
    if not isinstance(name, str) or not name or name in _BY_NAME:
        raise InvalidArgument(
            f"an agent's name is a new non-empty str (not {', '.join(_BY_NAME)}), got {shown(name)}"
        )
    _REGISTERED[AGENT_GROUP][name] = factory
    if batched is not None:
        _REGISTERED[BATCH_AGENT_GROUP][name] = batched


def agent_elsewhere(group: str, name: str) -> Callable[..., Any] | None:
    """The factory of agent ``name`` registered or declared in entry-point ``group``
    (:data:`AGENT_GROUP`, :data:`BATCH_AGENT_GROUP`), or ``None``: the agents defined
    outside this layer, loaded on first use (as Gymnasium loads an environment's entry
    point), never imported by this module."""
    registered = _REGISTERED[group]
    found = registered.get(name)
    if found is not None:
        return found
    for entry in importlib.metadata.entry_points(group=group, name=name):
        try:
            found = entry.load()
        except ImportError as error:
            needed = _ELSEWHERE.get(name)
            extra = f" (pip install 'qe-rules[{needed}]')" if needed else ""
            raise InvalidArgument(
                f"the {name} agent ({entry.value}) cannot be loaded{extra}: {error}"
            ) from None
        registered.setdefault(name, found)  # its module may have registered it on import
        return registered[name]
    if name in _ELSEWHERE:
        raise InvalidArgument(
            f"the {name} agent is declared in the {group} entry points of qe-rules, which "
            "this installation does not list: reinstall qe-rules (pip install -e . in a "
            "checkout)"
        )
    return None


def agent_factory(name: str, *, ruleset: RuleSet | str | None = None) -> AgentFactory:
    """The factory of a built-in agent (see :data:`AGENT_NAMES`): called with a seed, it
    makes the agent. ``ruleset`` goes to agents that read the rules (``value``).

    >>> make = agent_factory("random")
    >>> make(7)
    RandomAgent(seed=7, spread=12, peek_chance=0.5)
    >>> agent_factory("smart")
    Traceback (most recent call last):
    ...
    qe_rules.errors.InvalidArgument: unknown agent 'smart'; agents are random, zero, value, trained, ppo, adaptive
    """
    kind = _BY_NAME.get(name) if isinstance(name, str) else None
    if kind is None and isinstance(name, str):
        found = agent_elsewhere(AGENT_GROUP, name)
        if found is not None:
            if name in _ELSEWHERE and ruleset is not None:  # the built-in ones read it too
                return functools.partial(found, ruleset=ruleset)
            return found
    if kind is None:
        raise InvalidArgument(f"unknown agent {shown(name)}; agents are {', '.join(AGENT_NAMES)}")
    if kind is ValueAgent and ruleset is not None:
        return functools.partial(ValueAgent, ruleset=ruleset)
    return kind


def agent_from_name(name: str, seed: int = 0, *, ruleset: RuleSet | str | None = None) -> Agent:
    """Make a built-in agent by name: ``agent_factory(name, ruleset=ruleset)(seed)``.

    >>> agent_from_name("zero")
    ZeroAgent(seed=0)
    """
    return agent_factory(name, ruleset=ruleset)(seed)


def agent_label(spec: str | AgentFactory) -> str:
    """A short name for an agent given by name or factory, e.g. ``"random"``."""
    if isinstance(spec, str):
        return spec
    name = getattr(spec, "name", None)
    if isinstance(name, str):
        return name
    inner = getattr(spec, "func", None)  # functools.partial
    if inner is not None and inner is not spec:
        return agent_label(inner)
    label = getattr(spec, "__name__", None)
    return label if isinstance(label, str) else type(spec).__name__
