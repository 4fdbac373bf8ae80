"""The learned agent: the value agent's figures, read by a small network whose weights were
learned, and the ``trained`` agent that plays the shipped weights.

A :class:`LearnedAgent` sees a sale through a few numbers its seat knows
(:data:`FEATURES`): the tile's worth to it and its spending room as the value agent
computes them (:class:`~qe_rules.ValueAgent`), the points a zero bid would score, the
tile's VP, its spend against the others' as it estimates them, the sales left, the typical
price, the most the tile is worth to another seat (from their tiles and nations, which are
public; their tokens are not), and whether it runs the sale. A network of
:class:`LearnedWeights` (dense layers, ``max(x, 0)`` between them) turns them into four
corrections of the value agent's choices, once a sale: to its opening bid, to its target,
to its spending cap and to the worth below which it passes with a zero bid. The bids then
follow the value agent's rules with those corrections, and the agent's keyed draw
(:mod:`qe_rules.game.draws`) scaled by learned widths as their random part.

Every number is computed so that the batched agent
(:class:`~qe_rules.simulation.batch.learned.LearnedBids`) gets the same bits from the
batch's arrays: the features are rounded down to multiples of ``1/64`` and the weights are
whole numbers over 256, so each sum of the network is exact in any order (a matrix product
on many rows gives what a loop on one row gives), and what follows uses the same
operations in the same order.

>>> import qe_rules as qe
>>> from qe_rules.simulation.learned import TrainedAgent
>>> game = qe.new_game("en", 4, seed=7).bid(0, 3)
>>> agent = TrainedAgent(seed=1)
>>> bid = agent.bid(game.view(1))
>>> bid >= 0 and bid != 3
True
"""

from __future__ import annotations

import functools
import importlib.resources
import itertools
import math
import tomllib
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final

import attrs

from qe_rules.components import Company
from qe_rules.errors import InvalidArgument, shown
from qe_rules.game.draws import COUNTER_BIDS, agent_draw
from qe_rules.game.views import Phase, PlayerView
from qe_rules.rules.model import RuleSet, get_ruleset
from qe_rules.simulation.agents import (
    Agent,
    ValueAgent,
    _check_seed,
    _draw,
    _limits,
    _others_spent,
    _potential,
    _Tables,
    _typical_price,
    _worth,
    _zero_bid_points,
)

__all__ = [
    "AGREEING_FIELDS",
    "CLIP",
    "DENOMINATOR",
    "FEATURES",
    "GRID",
    "OUTPUTS",
    "SCALES",
    "STYLE_NUMBER",
    "TRAINED_WEIGHTS",
    "VALUE_VARIANTS",
    "LearnedAgent",
    "LearnedWeights",
    "SaleOutputs",
    "TrainedAgent",
    "agrees_with_en",
    "features",
    "game_style",
    "public_worth",
    "sale_outputs",
    "trained_weights",
]

FEATURES: Final = (
    "worth",
    "room",
    "zero_points",
    "vp",
    "over_top",
    "over_lowest",
    "sales_left",
    "typical_price",
    "rival_worth",
    "auctioneer",
    "style",
)
"""The numbers a learned agent reads, once a sale: the tile's worth to the seat and its
spending room (:class:`~qe_rules.ValueAgent`'s), the points a zero bid would score in
this sale, the tile's VP, the seat's spend less the highest and less the lowest spend it
estimates for another seat, the sales left with this one, the typical price it saw, the
most the tile is worth to another seat (:func:`public_worth`), 1 if it runs the sale, and
the game's style: a random number from 0 to 1 the agent draws once a game (its keyed draw
at a moment no bid reaches, :data:`STYLE_NUMBER`), so that a network may play a mixed
strategy, one way in some games and another in others."""

SCALES: Final = (0.1,) * 10 + (1.0,)
"""Each feature is multiplied by its scale before it is rounded (a worth of 10 reads 1;
the style, from 0 to 1, as it is)."""

STYLE_NUMBER: Final = COUNTER_BIDS - 1
"""The game's style is the agent's draw at the first sale after this many bids, which no
seat makes in a sale (:data:`~qe_rules.limits.ROUNDS_PER_SALE` is far below)."""

OUTPUTS: Final = ("opening", "target", "cap", "pass_below")
"""What the network adds, in points (ten times its outputs): to the opening bid (the value
agent's is 0.6 times the worth), the target bid (the worth), the spending cap (the room)
and the worth at or below which the seat passes with the least bid (the zero-bid points
plus one)."""

GRID: Final = 64
"""Features are rounded down to multiples of ``1 / GRID``."""
CLIP: Final = 8.0
"""Features are clipped to ``[-CLIP, CLIP]`` after scaling."""
DENOMINATOR: Final = 256
"""Weights are whole numbers over this."""
OUTPUT_SCALE: Final = 10.0
_ROOM_CLIP: Final = 30.0


def _check_weights(instance: LearnedWeights, attribute: Any, value: Any) -> None:
    layers = value
    if not isinstance(layers, tuple) or not layers:
        raise InvalidArgument("a learned agent's weights are one or more layers")
    width = len(FEATURES)
    for number, (matrix, bias) in enumerate(layers):
        if len(matrix) != width or any(len(row) != len(bias) for row in matrix):
            raise InvalidArgument(
                f"layer {number} maps {width} numbers: give {width} rows of {len(bias)} weights"
            )
        if not all(type(w) is int for row in matrix for w in row) or not all(
            type(b) is int for b in bias
        ):
            raise InvalidArgument(f"layer {number}: weights are whole numbers (over 256)")
        width = len(bias)
    if width != len(OUTPUTS):
        raise InvalidArgument(f"the last layer gives {len(OUTPUTS)} numbers, not {width}")


@attrs.frozen
class LearnedWeights:
    """The weights of a learned agent, each a whole number over :data:`DENOMINATOR`.

    ``layers`` are dense layers ``(matrix, bias)``, a matrix given by rows (one per input
    number), with ``max(x, 0)`` between them; the first reads :data:`FEATURES`, the last
    gives :data:`OUTPUTS`. ``noise`` is the width of the random part of a secret bid or
    rebid, ``opening_noise`` that of an opening bid, ``margin`` how much more than the
    opening bid a secret bid must aim at, ``rebid_steps`` how far above its tied bid a
    rebid may go at random, ``style_cap`` how far the game's style moves the spending cap
    (by ``style_cap * (style - 1/2)``). All zeros but ``noise = opening_noise = 256`` and
    ``rebid_steps = 768`` play as the value agent.
    """

    layers: tuple[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], ...] = attrs.field(
        validator=_check_weights
    )
    noise: int = DENOMINATOR
    opening_noise: int = DENOMINATOR
    margin: int = 0
    rebid_steps: int = 3 * DENOMINATOR
    style_cap: int = 0
    players: int | None = None
    ruleset: str = "en"
    note: str = ""

    @classmethod
    def value_agent(cls, hidden: Sequence[int] = ()) -> LearnedWeights:
        """Weights that play as the value agent (every correction 0), with hidden layers
        of the sizes ``hidden``."""
        sizes = [len(FEATURES), *hidden, len(OUTPUTS)]
        layers = tuple(
            (tuple((0,) * b for _ in range(a)), (0,) * b) for a, b in itertools.pairwise(sizes)
        )
        return cls(layers)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LearnedWeights:
        """Read the weights of a TOML file's table (:meth:`to_dict`'s form). Its
        ``features`` and ``outputs``, where given, must be :data:`FEATURES` and
        :data:`OUTPUTS` in order: weights learned for other inputs are refused, not read
        as if they fitted."""
        try:
            layers = tuple(
                (tuple(tuple(row) for row in layer["matrix"]), tuple(layer["bias"]))
                for layer in data["layers"]
            )
            for key, names in (("features", FEATURES), ("outputs", OUTPUTS)):
                given = data.get(key, list(names))
                if not isinstance(given, list | tuple) or list(given) != list(names):
                    raise InvalidArgument(
                        f"the weights' {key} are {shown(given)}: a learned agent's are "
                        f"{list(names)}, in this order"
                    )
            if data.get("denominator", DENOMINATOR) != DENOMINATOR:
                raise InvalidArgument(f"weights are given over {DENOMINATOR}")
            return cls(
                layers,
                noise=data["noise"],
                opening_noise=data["opening_noise"],
                margin=data["margin"],
                rebid_steps=data["rebid_steps"],
                style_cap=data.get("style_cap", 0),
                players=data.get("players"),
                ruleset=data.get("ruleset", "en"),
                note=data.get("note", ""),
            )
        except (KeyError, TypeError) as error:
            raise InvalidArgument(f"not the weights of a learned agent: {error!r}") from None

    def to_dict(self) -> dict[str, Any]:
        """The weights as TOML types (whole numbers over :data:`DENOMINATOR`)."""
        found: dict[str, Any] = {
            "ruleset": self.ruleset,
            "denominator": DENOMINATOR,
            "features": list(FEATURES),
            "outputs": list(OUTPUTS),
            "noise": self.noise,
            "opening_noise": self.opening_noise,
            "margin": self.margin,
            "rebid_steps": self.rebid_steps,
            "style_cap": self.style_cap,
        }
        if self.players is not None:
            found["players"] = self.players
        if self.note:
            found["note"] = self.note
        found["layers"] = [
            {"matrix": [list(row) for row in matrix], "bias": list(bias)}
            for matrix, bias in self.layers
        ]
        return found

    @classmethod
    def load(cls, path: Any) -> LearnedWeights:
        """The weights in a TOML file (a path)."""
        with open(path, "rb") as file:
            return cls.from_dict(tomllib.load(file))


# --------------------------------------------------------------------------- features


def public_worth(view: PlayerView, seat: int, tile: Company, tables: _Tables) -> float:
    """What ``tile`` is worth to ``seat`` as any seat may reckon it: the value agent's
    worth from its tiles and nation, leaving out its industry token (hidden)."""
    mine = view.holdings[seat]
    worth = float(tile.vp)
    if tile.nation is view.nations[seat]:
        worth += _potential(tables.nationalization, sum(1 for c in mine if c.nation is tile.nation))
    same = sum(1 for c in mine if c.industry is tile.industry)
    worth += _potential(tables.monopolization, same)
    if not same:
        kinds = len({c.industry for c in mine})
        worth += _potential(tables.diversification, kinds)
    return worth


def _rounded(value: float, scale: float) -> float:
    """A feature scaled, clipped and rounded down to the grid."""
    scaled = min(max(value * scale, -CLIP), CLIP)
    return math.floor(scaled * GRID) / GRID


SaleOutputs = tuple[float, float, float, float, float, float]
"""What a learned agent decides from, once a sale: the worth, the zero-bid points, and its
opening bid, target, cap and pass threshold before the random part."""


def game_style(seed: int, seat: int) -> float:
    """The style of the game of the agent with ``seed`` in ``seat``: from 0 to 1."""
    return agent_draw(seed, seat=seat, sale=0, number=STYLE_NUMBER) / 2**32


def features(
    view: PlayerView, tables: _Tables, style: float = 0.5
) -> tuple[tuple[float, ...], float, float, int]:
    """The :data:`FEATURES` of ``view``'s seat at the sale under way, rounded, with the
    raw worth, spending room and zero-bid points (``style``: the game's style)."""
    tile = view.company
    seat, players = view.seat, view.players
    worth = _worth(view, tile, tables)
    typical = _typical_price(view)
    spent = _others_spent(view, typical)
    others = [amount for other, amount in enumerate(spent) if other != seat]
    top = max(others) if others else 0.0
    low = min(others) if others else 0.0
    left = view.remaining + 1
    room = top + typical * left / players - view.spent - 1
    zero = _zero_bid_points(view, tables)
    rival = 0.0
    if tile is not None:
        rival = max(
            public_worth(view, other, tile, tables) for other in range(players) if other != seat
        )
    vp = 0 if tile is None else tile.vp
    raw = (
        worth,
        min(max(room, -_ROOM_CLIP), _ROOM_CLIP),
        float(zero),
        float(vp),
        min(max(view.spent - top, -_ROOM_CLIP), _ROOM_CLIP),
        min(max(view.spent - low, -_ROOM_CLIP), _ROOM_CLIP),
        float(left),
        typical,
        rival,
        1.0 if view.auctioneer == seat else 0.0,
        style,
    )
    rounded = tuple(_rounded(value, scale) for value, scale in zip(raw, SCALES, strict=True))
    return rounded, worth, room, zero


def _network(weights: LearnedWeights, inputs: Sequence[float]) -> list[float]:
    """The network's outputs for one row (exact: every sum is of multiples of a power of
    two, small enough for a float)."""
    values = list(inputs)
    last = len(weights.layers) - 1
    for number, (matrix, bias) in enumerate(weights.layers):
        out = [b / DENOMINATOR for b in bias]
        for value, row in zip(values, matrix, strict=True):
            if value:
                for index, weight in enumerate(row):
                    out[index] += value * (weight / DENOMINATOR)
        values = out if number == last else [max(v, 0.0) for v in out]
    return values


def sale_outputs(
    view: PlayerView, weights: LearnedWeights, tables: _Tables, style: float = 0.5
) -> SaleOutputs:
    """The figures of ``view``'s seat for the sale under way: worth, zero-bid points,
    opening bid, target, cap and pass threshold (before the random part), in a game of
    ``style``."""
    rounded, worth, room, zero = features(view, tables, style)
    out = _network(weights, rounded)
    cap = room + OUTPUT_SCALE * out[2]
    if weights.style_cap:
        cap += weights.style_cap / DENOMINATOR * (style - 0.5)
    return (
        worth,
        float(zero),
        0.6 * worth + OUTPUT_SCALE * out[0],
        worth + OUTPUT_SCALE * out[1],
        cap,
        1.0 + OUTPUT_SCALE * out[3],
    )


# --------------------------------------------------------------------------- the agents


def _check_weights_argument(instance: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, LearnedWeights):
        raise InvalidArgument(f"weights are LearnedWeights, got {shown(value)}")


@attrs.frozen(eq=False)
class LearnedAgent(Agent):
    """Bids as the value agent does, with the corrections of a learned network
    (:class:`LearnedWeights`, see the module). ``seed`` keys its random part, as for
    the built-in agents; ``ruleset`` is needed only for a rule set that is not built in."""

    weights: LearnedWeights = attrs.field(validator=_check_weights_argument)
    seed: int = attrs.field(default=0, validator=lambda _i, _a, v: _check_seed(v))
    ruleset: RuleSet | str | None = None
    _value: ValueAgent = attrs.field(init=False, repr=False)
    name: ClassVar[str] = "learned"

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_value", ValueAgent(self.seed, ruleset=self.ruleset))

    def figures(self, view: PlayerView) -> SaleOutputs:
        """:func:`sale_outputs` of ``view`` with this agent's weights, in this game's
        style (:func:`game_style` of its seed and seat)."""
        style = game_style(self.seed, view.seat)
        return sale_outputs(view, self.weights, self._value._tables(view), style)

    def bid(self, view: PlayerView) -> int:
        """An amount from the corrected worth, capped by the corrected room."""
        limits = _limits(view)
        worth, zero, opening_target, target, cap, pass_below = self.figures(view)
        weights = self.weights
        draw = _draw(self.seed, view) / 2**32
        if view.seat == view.auctioneer and view.phase is Phase.OPENING:
            noise = weights.opening_noise / DENOMINATOR * draw
            return limits.legal(int(min(opening_target, cap) + noise))
        aim = min(target + weights.noise / DENOMINATOR * draw, cap)
        if view.phase is Phase.REBIDDING and view.my_bids:
            tied_at = view.my_bids[-1]
            if aim <= tied_at:
                return limits.legal(limits.minimum)
            steps = weights.rebid_steps / DENOMINATOR * draw
            return limits.legal(min(int(aim), tied_at + 1 + int(steps)))
        zero_here = zero if limits.minimum <= 0 else 0.0
        opening = view.opening_bid or 0
        if aim <= opening + weights.margin / DENOMINATOR or worth <= zero_here + pass_below:
            return limits.legal(limits.minimum)
        return limits.legal(int(aim))

    def wants_peek(self, view: PlayerView) -> bool:
        """Peek as the value agent does: in the second half of the game."""
        return self._value.wants_peek(view)


def _variant(
    weight: tuple[str, str, float] | None = None,
    bias: tuple[str, float] | None = None,
    noise: int = DENOMINATOR,
) -> LearnedWeights:
    """The value agent with one change: a feature's weight on an output, an output's bias
    (in points) or the width of its bids' random part."""
    matrix = [[0] * len(OUTPUTS) for _ in FEATURES]
    biases = [0] * len(OUTPUTS)
    if weight is not None:
        feature, output, amount = weight
        matrix[FEATURES.index(feature)][OUTPUTS.index(output)] = round(amount * DENOMINATOR)
    if bias is not None:
        output, points = bias
        biases[OUTPUTS.index(output)] = round(points / OUTPUT_SCALE * DENOMINATOR)
    layers = ((tuple(map(tuple, matrix)), tuple(biases)),)
    return LearnedWeights(layers, noise=noise)


VALUE_VARIANTS: Final[Mapping[str, LearnedWeights]] = {
    "value-frugal": _variant(weight=("worth", "target", -0.2)),
    "value-eager": _variant(weight=("worth", "target", 0.2)),
    "value-spender": _variant(bias=("cap", 3.0)),
    "value-tight": _variant(bias=("cap", -3.0)),
    "value-timid": _variant(weight=("worth", "opening", -0.2)),
    "value-zeros": _variant(bias=("pass_below", 2.0)),
    "value-noisy": _variant(noise=3 * DENOMINATOR),
}
"""Hand-written variants of the value agent, each one change as a :class:`LearnedAgent`'s
weights: ``frugal`` aims at 80% of the worth and ``eager`` at 120%, ``spender`` allows 3
more than the spending room and ``tight`` 3 less, ``timid`` opens at 40% of the worth
(not 60%), ``zeros`` passes for a zero bid on tiles worth up to 2 more, ``noisy`` draws a
random part three times as wide. (Features are rounded: "80%" is 80% of the rounded
worth.)"""


TRAINED_WEIGHTS: Final = {3: "trained-en-3.toml", 4: "trained-en-4.toml", 5: "trained-en-5.toml"}
"""The files of the shipped weights in ``qe_rules/data/agents``, by player count (each
learned under ``en``)."""

AGREEING_FIELDS: Final = frozenset({"peek_shows"})
"""Rule fields in which a rule set may differ from ``en`` and still play the shipped
weights (docs/rl.md says why for each built-in rule set)."""


@functools.cache
def _shipped(players: int) -> LearnedWeights:
    name = TRAINED_WEIGHTS[players]
    path = importlib.resources.files("qe_rules").joinpath(f"data/agents/{name}")
    with importlib.resources.as_file(path) as file:
        return LearnedWeights.load(file)


@functools.cache
def agrees_with_en(rules: RuleSet) -> bool:
    """Whether ``rules`` differs from ``en`` in no rule but :data:`AGREEING_FIELDS`: an
    agent learned under ``en`` then meets the rules it learned."""
    en = get_ruleset("en")
    differing = {
        name for name in RuleSet.rule_fields() if getattr(rules, name) != getattr(en, name)
    }
    return differing <= AGREEING_FIELDS


def trained_weights(ruleset: RuleSet | str, players: int) -> LearnedWeights | None:
    """The shipped weights the ``trained`` agent plays at this table: those learned under
    ``en`` for the player count where the rule set agrees with ``en`` in play (see
    :data:`AGREEING_FIELDS`), else ``None`` (it then plays as the value agent)."""
    if players not in TRAINED_WEIGHTS:
        return None
    rules = get_ruleset(ruleset)
    return _shipped(players) if agrees_with_en(rules) else None


class TrainedAgent(Agent):
    """The ``trained`` agent: a :class:`LearnedAgent` with the shipped weights
    (:data:`TRAINED_WEIGHTS`) where they apply (:func:`trained_weights`), else the value
    agent. Needs nothing beyond the core."""

    __slots__ = ("_agents", "ruleset", "seed")

    name: ClassVar[str] = "trained"

    def __init__(self, seed: int = 0, *, ruleset: RuleSet | str | None = None) -> None:
        self.seed = _check_seed(seed)
        self.ruleset = ruleset
        self._agents: dict[tuple[str, int], Agent] = {}

    def _agent(self, view: PlayerView) -> Agent:
        key = (view.ruleset, view.players)
        found = self._agents.get(key)
        if found is None:
            rules = self.ruleset if self.ruleset is not None else view.ruleset
            weights = trained_weights(rules, view.players)
            found = (
                ValueAgent(self.seed, ruleset=self.ruleset)
                if weights is None
                else LearnedAgent(weights, self.seed, self.ruleset)
            )
            self._agents[key] = found
        return found

    def bid(self, view: PlayerView) -> int:
        """The learned agent's bid, or the value agent's where no weights apply."""
        return self._agent(view).bid(view)

    def wants_peek(self, view: PlayerView) -> bool:
        """Peek in the second half of the game, as the value agent."""
        return self._agent(view).wants_peek(view)

    def __repr__(self) -> str:
        return f"TrainedAgent(seed={self.seed})"
