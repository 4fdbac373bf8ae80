"""The learned agent batched (:class:`~qe_rules.simulation.learned.LearnedAgent` for many
games at once), and the batch's ``trained`` agent.

Once a sale, every seat's features are computed from what it knows
(:mod:`~qe_rules.simulation.batch.knowledge`, the value agent's figures of
:class:`~qe_rules.simulation.batch.agents.ValueBids`) and the network is evaluated for
every seat and game in one matrix product per layer: features on a grid of ``1/64`` and
weights over 256 make each product exact, so the rows give the bits the reference agent
computes one at a time. Each question then reads the seat's row.
"""

from __future__ import annotations

import contextlib
import functools
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from qe_rules.simulation.batch.agents import (
    BidAsk,
    BidFigures,
    NoiseScales,
    PeekAsk,
    ValueBids,
    bids_from_figures,
    tile_worths,
)
from qe_rules.simulation.batch.loops import compiled_loop
from qe_rules.simulation.learned import (
    _ROOM_CLIP,
    CLIP,
    DENOMINATOR,
    GRID,
    OUTPUT_SCALE,
    SCALES,
    STYLE_NUMBER,
    LearnedWeights,
    trained_weights,
)

__all__ = ["LearnedBids", "TrainedBids"]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.signedinteger[Any]]


@functools.cache
def _blas() -> Any:
    """threadpoolctl's view of the BLAS libraries numpy loaded, or ``None`` without it (the
    ``[batch]`` extra installs it; the results are the same without it)."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return None
    return ThreadpoolController()


def _one_blas_thread() -> contextlib.AbstractContextManager[Any]:
    """The network's products on one BLAS thread: they are too small to gain from more,
    and OpenBLAS's other threads would spin on another core after each of them."""
    controller = _blas()
    if controller is None:
        return contextlib.nullcontext()
    limited: contextlib.AbstractContextManager[Any] = controller.limit(limits=1, user_api="blas")
    return limited


class LearnedBids:
    """:class:`~qe_rules.simulation.learned.LearnedAgent` batched: the same decisions
    from the same view, for many games at once. Peeks as the value agent."""

    name: ClassVar[str] = "learned"
    reads_state: ClassVar[bool] = True

    def __init__(self, weights: LearnedWeights) -> None:
        self.weights = weights
        self._value = ValueBids()
        self._noise = NoiseScales(
            opening=weights.opening_noise / DENOMINATOR,
            bid=weights.noise / DENOMINATOR,
            rebid_steps=weights.rebid_steps / DENOMINATOR,
            margin=weights.margin / DENOMINATOR,
        )
        # each layer as (matrix transposed, bias column); the first reads the features on
        # their grid as whole numbers, so its weights are divided by the grid as well
        self._layers = [
            (
                np.array(matrix, dtype=np.float64).T / (DENOMINATOR * (GRID if n == 0 else 1)),
                np.array(bias, dtype=np.float64)[:, None] / DENOMINATOR,
            )
            for n, (matrix, bias) in enumerate(weights.layers)
        ]
        self._features: Floats | None = None
        self._scales = np.array(SCALES)
        self._style: tuple[Any, Floats] | None = None  # the chunk and its games' styles

    def styles(self, state: Any) -> Floats:
        """Per column and game, the game's style (kept for the chunk)."""
        found = self._style
        if found is None or found[0] is not state:
            bits = state.draws.every_column(0, STYLE_NUMBER)
            found = self._style = (state, bits / 2**32)
        return found[1]

    def _grid(self, size: int) -> Floats:
        """A ``(features, size)`` array to write the features in (kept between sales)."""
        found = self._features
        if found is None or found.shape[1] != size:
            found = self._features = np.empty((len(self._layers[0][0][0]), size))
        return found

    def sale_figures(self, state: Any) -> BidFigures:
        """Per column and game, for the sale in progress: the worth, the zero-bid points,
        the opening target, the target, the cap and the pass threshold."""
        knowledge = state.knowledge
        found = knowledge.derived.get(self)
        if found is not None:
            return found  # type: ignore[no-any-return]
        value = self._value.sale_figures(state)
        worth, room, zeros = value.worth, value.cap, value.zero
        rules, sale = state.rules, state.sale
        players, games = worth.shape
        spends = knowledge.other_spends()
        last_tile = rules.last_tile and sale == rules.sales - 1
        grid = self._grid(players * games)
        style = self.styles(state)
        _features_loop(
            grid.reshape(len(grid), players, games), worth, room, zeros,
            knowledge.tiles(state).vp[sale], knowledge.spent, spends.typical, spends.top,
            spends.lowest, tile_worths(state, tokens=False),
            -1 if last_tile else sale % players, float(rules.sales - sale), style,
            self._scales,
        )  # fmt: skip
        values = grid
        last = len(self._layers) - 1
        with _one_blas_thread():
            for number, (matrix, bias) in enumerate(self._layers):
                values = matrix @ values
                values += bias
                if number < last:
                    np.maximum(values, 0.0, out=values)
        found = knowledge.derived[self] = BidFigures(
            worth=worth,
            zero=zeros,
            opening_target=knowledge.kept(self, "opening_target"),
            target=knowledge.kept(self, "target"),
            cap=knowledge.kept(self, "cap"),
            pass_below=knowledge.kept(self, "pass_below"),
        )
        _targets_loop(
            values.reshape(len(values), players, games), worth, room, style,
            self.weights.style_cap / DENOMINATOR, found.opening_target, found.target,
            found.cap, found.pass_below,
        )  # fmt: skip
        return found

    def bids(self, ask: BidAsk) -> Ints:
        """The learned agent's amounts (see the reference agent)."""
        return bids_from_figures(ask, self.sale_figures(ask.state), self._noise)

    def peeks(self, ask: PeekAsk) -> npt.NDArray[np.bool_]:
        """Peek in the second half of the game, as the value agent."""
        return self._value.peeks(ask)

    def __repr__(self) -> str:
        return "LearnedBids(...)"


class TrainedBids:
    """The batch's ``trained`` agent: :class:`LearnedBids` with the shipped weights where
    they apply (:func:`~qe_rules.simulation.learned.trained_weights`), else the batched
    value agent."""

    name: ClassVar[str] = "trained"
    reads_state: ClassVar[bool] = True

    def __init__(self) -> None:
        self._value = ValueBids()
        self._agents: dict[tuple[Any, int], LearnedBids | ValueBids] = {}

    def _agent(self, state: Any) -> LearnedBids | ValueBids:
        rules = state.rules
        key = (rules.ruleset, rules.players)
        found = self._agents.get(key)
        if found is None:
            weights = trained_weights(rules.ruleset, rules.players)
            found = self._value if weights is None else LearnedBids(weights)
            self._agents[key] = found
        return found

    def bids(self, ask: BidAsk) -> Ints:
        """The learned agent's bids, or the value agent's."""
        return self._agent(ask.state).bids(ask)

    def peeks(self, ask: PeekAsk) -> npt.NDArray[np.bool_]:
        """The value agent's peeks (the learned agent peeks as it does)."""
        return self._agent(ask.state).peeks(ask)

    def __repr__(self) -> str:
        return "TrainedBids()"


@compiled_loop
def _features_loop(
    out: Floats, worth: Floats, room: Floats, zero: Floats | Ints, vp: Ints, spent: Ints,
    typical: Floats, top: Floats, lowest: Floats, public_worth: Floats, auctioneer: int,
    sales_left: float, style: Floats, scales: Floats,
) -> None:  # fmt: skip
    """Per column and game, the features into ``out`` (``(features, columns, games)``),
    in the order of :func:`~qe_rules.simulation.learned.features`: the worth, the room,
    the zero-bid points, the VP, the own spend less the top and the lowest other spend,
    the sales left, the typical price, the most the tile is worth to another seat as it
    sees it, whether the seat runs the sale (``auctioneer``, -1 for none), the style; each
    scaled, clipped and rounded down to the grid as the reference rounds it, as a whole
    number of grid steps."""
    players, games = worth.shape
    for column in range(players):
        for game in range(games):
            rival = -np.inf if players > 1 else 0.0  # the most the tile is worth to another
            for other in range(players):
                if other != column:
                    rival = max(rival, public_worth[other, game])
            own = spent[column, game]
            features = (
                worth[column, game],
                min(max(room[column, game], -_ROOM_CLIP), _ROOM_CLIP),
                float(zero[column, game]),
                float(vp[game]),
                min(max(own - top[column, game], -_ROOM_CLIP), _ROOM_CLIP),
                min(max(own - lowest[column, game], -_ROOM_CLIP), _ROOM_CLIP),
                sales_left,
                typical[column, game],
                rival,
                1.0 if column == auctioneer else 0.0,
                style[column, game],
            )
            for index in range(len(features)):
                scaled = min(max(features[index] * scales[index], -CLIP), CLIP)
                out[index, column, game] = np.floor(scaled * GRID)


@compiled_loop
def _targets_loop(
    outputs: Floats, worth: Floats, room: Floats, style: Floats, style_cap: float,
    opening_target: Floats, target: Floats, cap: Floats, pass_below: Floats,
) -> None:  # fmt: skip
    """Per column and game, from the network's four ``outputs``: the opening target (0.6
    of the worth, plus the first), the target (the worth, plus the second), the cap (the
    spending room plus the third, and ``style_cap`` times the style less a half) and the
    pass threshold (1, plus the fourth); each output counts ``OUTPUT_SCALE`` times."""
    players, games = worth.shape
    for column in range(players):
        for game in range(games):
            value = worth[column, game]
            opening_target[column, game] = 0.6 * value + OUTPUT_SCALE * outputs[0, column, game]
            target[column, game] = value + OUTPUT_SCALE * outputs[1, column, game]
            limit = room[column, game] + OUTPUT_SCALE * outputs[2, column, game]
            if style_cap:
                limit += style_cap * (style[column, game] - 0.5)
            cap[column, game] = limit
            pass_below[column, game] = 1.0 + OUTPUT_SCALE * outputs[3, column, game]
