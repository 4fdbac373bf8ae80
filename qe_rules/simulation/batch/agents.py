"""The batched agents: each answers one question for many games at once.

A batched agent is asked for the bids of one seat in many games (a :class:`BidAsk`) and,
with 5 players, whether that seat peeks (a :class:`PeekAsk`). It gets the raw random bits
the batch drew for that seat and moment (``draws``, uniform 32-bit whole numbers), so that
the same draws give the same bids: the batch's games are reproducible and comparable
between rule sets (common random numbers).

>>> import numpy as np
>>> from qe_rules.simulation.batch.agents import BidAsk, RandomBids
>>> ask = BidAsk(state=None, seat=1, rows=None, phase="secret", minimum=0,
...              forbidden=np.array([3, 3]), draws=np.array([0, 2**31], dtype=np.uint32))
>>> RandomBids().bids(ask).tolist()
[0, 6]

The built-in ones (:data:`BATCH_AGENTS`): ``random`` (the library's
:class:`~qe_rules.RandomAgent`: the minimum plus 0 to 12), ``floor`` (the speed
yardstick's bidder: an opening of 1 to 6, any other bid 0 to 7, each raised to a legal
amount), ``zero`` (:class:`~qe_rules.ZeroAgent`), ``value``
(:class:`~qe_rules.ValueAgent`), ``trained`` (``TrainedAgent``), ``ppo``
(``PPOAgent``) and ``adaptive`` (``AdaptiveAgent``); :class:`PolicyBids` is
a hook for a function of simple features, and ``qe_rules.learning.policies.PolicyBatchAgent``
seats any policy of the encoding.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, ClassVar, Final, NamedTuple, Protocol, runtime_checkable

import attrs
import numpy as np
import numpy.typing as npt

from qe_rules.errors import InvalidArgument, shown
from qe_rules.game._tables import TILE_LIMIT
from qe_rules.limits import MAX_BID
from qe_rules.simulation.agents import (
    BATCH_AGENT_GROUP,
    _potential,
    _tables,
    agent_elsewhere,
)
from qe_rules.simulation.batch.knowledge import BITS
from qe_rules.simulation.batch.loops import compiled_loop

__all__ = [
    "BATCH_AGENTS",
    "BatchAgent",
    "BidAsk",
    "BidFigures",
    "FloorBids",
    "NoiseScales",
    "PeekAsk",
    "PolicyBids",
    "RandomBids",
    "ValueBids",
    "ZeroBids",
    "batch_agent",
    "bids_from_figures",
    "legal",
    "legal_amount",
]

Ints = npt.NDArray[np.signedinteger[Any]]
Floats = npt.NDArray[np.float64]
Bits = npt.NDArray[np.uint32]


@attrs.frozen(kw_only=True)
class BidAsk:
    """One seat's bids asked in many games at once.

    ``seat`` is the seat's column in the batch's own seating (the first auctioneer of
    every game sits in column 0; ``state.actual_seat`` maps it back), ``rows`` the games
    asked (indices into the chunk, ``None`` for all of them), ``phase`` ``"opening"``,
    ``"secret"`` or ``"rebid"``. A legal bid is at least ``minimum`` and never equals
    ``forbidden`` (per game, ``-1`` for none; ``None`` when nothing is forbidden).
    ``draws`` are the random bits of these games, ``state`` the lockstep games, for
    agents that read them; ``previous`` the seat's last bid in this sale (rebids only).
    """

    state: Any
    seat: int
    rows: Ints | None
    phase: str
    minimum: int
    forbidden: Ints | None
    draws: Bits
    previous: Ints | None = None


@attrs.frozen(kw_only=True)
class PeekAsk:
    """Whether one seat peeks, asked in the games ``rows`` whose peek window it is in."""

    state: Any
    seat: int
    rows: Ints
    draws: Bits


def legal(amounts: Ints, minimum: int, forbidden: Ints | None) -> Ints:
    """``amounts`` made legal (:func:`legal_amount` of each; ``forbidden`` per amount, -1
    or ``None`` for none): :meth:`~qe_rules.BidLimits.legal` for many games (tests compare
    the two). A new array of the amounts' type."""
    raised = np.empty_like(amounts)
    _legal_loop(amounts, minimum, _NONE if forbidden is None else forbidden, raised)
    return raised


@compiled_loop
def legal_amount(amount: int, minimum: int, forbidden: int) -> int:
    """``amount`` raised to ``minimum``, and one more where that is ``forbidden`` (-1 for
    none); an amount above ``MAX_BID`` is ``MAX_BID`` (one less where that is forbidden):
    :meth:`~qe_rules.BidLimits.legal` of one amount, in the batch's compiled loops."""
    raised = max(amount, minimum)
    if raised == forbidden:
        raised += 1
    if raised > MAX_BID:  # rare: a smallest bid near MAX_BID
        raised = MAX_BID - 1 if forbidden == MAX_BID else MAX_BID
    return raised


@compiled_loop
def _legal_loop(amounts: Ints, minimum: int, forbidden: Ints, out: Ints) -> None:
    for index in range(amounts.shape[0]):
        out[index] = legal_amount(
            amounts[index], minimum, forbidden[index] if forbidden.shape[0] else -1
        )


_NONE: Final = np.zeros(0, dtype=np.int64)  # no amount forbidden, or every game asked


def _uniform(draws: Bits, count: int) -> Ints:
    """A whole number from 0 to ``count - 1`` per draw: ``draw * count >> 32`` (Lemire's
    multiply and shift), computed exactly in float64 (the product is below 2**53)."""
    return (draws * (count / 2**32)).astype(np.int32)


@runtime_checkable
class BatchAgent(Protocol):
    """A batched agent: the bids of one seat in many games, and its peeks.

    Optional: a class attribute ``reads_state = True`` keeps what each seat knows
    (``state.knowledge``), ``reads_moves = True`` the moves (``state.log``) even where no
    record is asked for, and a method ``see(ask)`` is shown every question of the games,
    whoever answers it, before it is answered."""

    name: ClassVar[str]

    def bids(self, ask: BidAsk) -> Ints:
        """One legal amount per game asked."""
        ...

    def peeks(self, ask: PeekAsk) -> npt.NDArray[np.bool_]:
        """Per game asked, whether the seat peeks."""
        ...


@attrs.frozen
class RandomBids:
    """:class:`~qe_rules.RandomAgent` batched: the minimum plus 0 to ``spread``, one more
    on the forbidden amount; peeks with ``peek_chance``."""

    spread: int = 12
    peek_chance: float = 0.5
    name: ClassVar[str] = "random"

    def bids(self, ask: BidAsk) -> Ints:
        """Random legal amounts."""
        amounts = _uniform(ask.draws, self.spread + 1)
        if ask.minimum:
            amounts += ask.minimum
        if ask.minimum + self.spread >= MAX_BID:  # an amount may pass MAX_BID
            return legal(amounts, ask.minimum, ask.forbidden)
        if ask.forbidden is not None:
            amounts += amounts == ask.forbidden  # legal(), written out: none passes MAX_BID
        return amounts

    def peeks(self, ask: PeekAsk) -> npt.NDArray[np.bool_]:
        """Peek with ``peek_chance``."""
        return ask.draws < int(self.peek_chance * 2**32)


@attrs.frozen
class FloorBids:
    """The speed yardstick's bidder (``bench/common.py``'s ``floor_bid``): an opening bid of
    1 to 6, any other bid 0 to 7, each made legal. Never peeks."""

    name: ClassVar[str] = "floor"

    def bids(self, ask: BidAsk) -> Ints:
        """Random amounts of the yardstick's distribution, made legal."""
        if ask.phase == "opening":
            drawn = 1 + _uniform(ask.draws, 6)
        else:
            drawn = (ask.draws >> np.uint32(29)).astype(np.int32)
        return legal(drawn, ask.minimum, ask.forbidden)

    def peeks(self, ask: PeekAsk) -> npt.NDArray[np.bool_]:
        """Never."""
        return np.zeros(len(ask.rows), dtype=bool)


@attrs.frozen
class ZeroBids:
    """:class:`~qe_rules.ZeroAgent` batched: the least legal amount. Never peeks."""

    name: ClassVar[str] = "zero"

    def bids(self, ask: BidAsk) -> Ints:
        """The least legal amounts."""
        least = np.full(len(ask.draws), ask.minimum, dtype=np.int32)
        return legal(least, ask.minimum, ask.forbidden)

    def peeks(self, ask: PeekAsk) -> npt.NDArray[np.bool_]:
        """Never."""
        return np.zeros(len(ask.rows), dtype=bool)


PolicyFunction = Callable[[npt.NDArray[np.float32], npt.NDArray[np.bool_]], npt.ArrayLike]
"""A policy for many decisions at once: ``(observations, masks) -> amounts``.
``observations`` has one row per game asked, in the layout of
:func:`qe_rules.learning.encode.observation` where the batch can make it, and ``masks``
one row per game of the amounts 0 to ``max_bid`` that are legal."""


@attrs.frozen
class PolicyBids:
    """A hook for a learned policy: ``policy(features, masks)`` gives the amounts.

    ``features`` has one row per game asked: the seat's column, the sale, the phase
    (0 opening, 1 secret, 2 rebid), the minimum and the forbidden amount (-1 for none),
    then the draw as a number in [0, 1). ``masks`` has one row per game of the amounts 0
    to ``max_bid`` that are legal. The amounts returned are made legal (raised to the
    minimum, moved off the forbidden amount). Never peeks unless ``peek`` says so.
    """

    policy: PolicyFunction
    max_bid: int = 30
    peek: Callable[[npt.NDArray[np.float32]], npt.NDArray[np.bool_]] | None = None
    name: ClassVar[str] = "policy"

    def bids(self, ask: BidAsk) -> Ints:
        """The policy's amounts, made legal."""
        count = len(ask.draws)
        forbidden = np.full(count, -1, dtype=np.int64) if ask.forbidden is None else ask.forbidden
        sale = getattr(ask.state, "sale", 0)
        phase = {"opening": 0, "secret": 1, "rebid": 2}[ask.phase]
        features = np.empty((count, 6), dtype=np.float32)
        features[:, 0] = ask.seat
        features[:, 1] = sale
        features[:, 2] = phase
        features[:, 3] = ask.minimum
        features[:, 4] = forbidden
        features[:, 5] = ask.draws / 2**32
        amounts = np.arange(self.max_bid + 1)
        masks = (amounts[None, :] >= ask.minimum) & (amounts[None, :] != forbidden[:, None])
        chosen = np.asarray(self.policy(features, masks), dtype=np.int32)
        if chosen.shape != (count,):
            raise InvalidArgument(
                f"a policy returns one amount per game asked ({count}), got shape {chosen.shape}"
            )
        return legal(chosen, ask.minimum, ask.forbidden)

    def peeks(self, ask: PeekAsk) -> npt.NDArray[np.bool_]:
        """The ``peek`` function's answers, or never."""
        if self.peek is None:
            return np.zeros(len(ask.rows), dtype=bool)
        features = np.empty((len(ask.rows), 2), dtype=np.float32)
        features[:, 0] = ask.seat
        features[:, 1] = ask.draws / 2**32
        return np.asarray(self.peek(features), dtype=bool)


@functools.lru_cache(maxsize=64)
def _worth_table(tables: Any) -> npt.NDArray[np.float64]:
    """Every worth :class:`~qe_rules.ValueAgent` can give a tile, summed in its order
    (the VP, then nationalization, monopolization and diversification): indexed by the
    VP, the seat's tiles of its nation plus one (0 where the tile is another nation's),
    its tiles of the tile's industry (token included where monopolization counts it),
    and its industries plus one (0 where the tile's industry is not new to it), each
    capped at :data:`TILE_LIMIT` (plus one)."""
    nationalization, monopolization, diversification = _tables_potentials(tables)
    # x + 0.0 is x: the cases without a nationalization or diversification term add 0.0
    nat = np.concatenate([[0.0], nationalization])[None, :, None, None]
    mono = monopolization[None, None, :, None]
    div = np.concatenate([[0.0], diversification])[None, None, None, :]
    vp = np.arange(5, dtype=np.float64)[:, None, None, None]
    table: npt.NDArray[np.float64] = (((vp + nat) + mono) + div).reshape(-1)
    table.flags.writeable = False
    return table


def tile_worths(state: Any, *, tokens: bool = True) -> Floats:
    """Per column and game, the worth of the sale's tile as :class:`~qe_rules.ValueAgent`
    sums it (one entry of :func:`_worth_table`, :func:`_worths_loop`). ``tokens``: count
    the seat's industry token where the rule set's monopolization or diversification
    counts it; without (``False``), the worth the other seats can see."""
    knowledge, rules = state.knowledge, state.rules
    tables = _tables(rules.ruleset, rules.players)
    tiles = knowledge.tiles(state)
    nation, token = knowledge.pieces(state)
    worths: Floats = knowledge.kept(tile_worths, "tokens" if tokens else "public")
    _worths_loop(
        state.sale, tiles.industry, tiles.nation, tiles.vp, nation, token,
        knowledge.held, knowledge.kinds, knowledge.own,
        tokens and tables.token_in_monopolization, tokens and tables.token_in_diversification,
        _worth_table(tables), worths,
    )  # fmt: skip
    return worths


@compiled_loop
def _worths_loop(
    sale: int, industry: Ints, tile_nation: Ints, vp: Ints, nation: Ints, token: Ints,
    held: Ints, kinds: Ints, own: Ints, token_in_monopolization: bool,
    token_in_diversification: bool, table: Floats, out: Floats,
) -> None:  # fmt: skip
    """Per column and game, the tile's worth: the entry of ``table`` (:func:`_worth_table`)
    for its VP, the seat's tiles of its nation plus one (0 where the tile is another
    nation's), its tiles of the tile's industry (its token too where monopolization
    counts it), and its industries plus one (0 where the industry is not new to it; the
    token counts as one held where diversification counts it), each capped."""
    limit = TILE_LIMIT + 1
    mask = (1 << BITS) - 1
    players, games = held.shape
    for column in range(players):
        for game in range(games):
            tile_industry = industry[sale, game]
            pieces = held[column, game]
            same = (pieces >> (BITS * tile_industry)) & mask
            token_here = token[column, game] == tile_industry
            mono = same + token_here if token_in_monopolization else same
            industries = kinds[column, game]
            if token_in_diversification:
                industries += (pieces >> (BITS * token[column, game])) & mask == 0
                same += token_here
            nat = min(own[column, game] + 1, limit) * (
                tile_nation[sale, game] == nation[column, game]
            )
            div = min(industries + 1, limit) * (same == 0)
            key = (vp[sale, game] * (limit + 1) + nat) * limit + min(mono, TILE_LIMIT)
            out[column, game] = table[key * (limit + 1) + div]


def _potentials(table: tuple[int, ...]) -> npt.NDArray[np.float64]:
    """:func:`qe_rules.simulation.agents._potential` of every count, 0 to the table's end."""
    return np.array([_potential(table, count) for count in range(TILE_LIMIT + 1)])


@attrs.frozen
class ValueBids:
    """:class:`~qe_rules.ValueAgent` batched: the same worth, spending room and bids, each
    from what the seat knows (:mod:`~qe_rules.simulation.batch.knowledge`), with the
    draw as its small random part. Peeks in the second half of the game.

    A seat's worth and spending room do not change during a sale: they are computed for
    every seat and game once a sale (:meth:`sale_figures`), and each question reads them."""

    name: ClassVar[str] = "value"
    reads_state: ClassVar[bool] = True

    def sale_figures(self, state: Any) -> BidFigures:
        """Per column and game, for the sale in progress: the tile's worth, the points a
        zero bid would score, the targets (0.6 of the worth to open, the worth) and the
        spending room as the cap (kept for the sale)."""
        knowledge = state.knowledge
        found = knowledge.derived.get(ValueBids)
        if found is not None:
            return found  # type: ignore[no-any-return]
        rules = state.rules
        tables = _tables(rules.ruleset, rules.players)
        worth = tile_worths(state)
        spends = knowledge.other_spends()
        zero: Ints = knowledge.kept(ValueBids, "zero", np.int64)
        found = knowledge.derived[ValueBids] = BidFigures(
            worth=worth,
            zero=zero,
            opening_target=knowledge.kept(ValueBids, "opening_target"),
            target=worth,
            cap=knowledge.kept(ValueBids, "cap"),
            pass_below=knowledge.kept(ValueBids, "pass_below"),
        )
        _value_figures_loop(
            worth, spends.top, spends.typical, knowledge.spent, rules.sales - state.sale,
            rules.players, tables.zero_bid_points, tables.zero_bid_limit,
            knowledge.zero_bidders, zero, found.opening_target, found.cap,
            found.pass_below,
        )  # fmt: skip
        return found

    def bids(self, ask: BidAsk) -> Ints:
        """Amounts from the tile's worth, capped by the spending room."""
        return bids_from_figures(ask, self.sale_figures(ask.state), _VALUE_NOISE)

    def peeks(self, ask: PeekAsk) -> npt.NDArray[np.bool_]:
        """Peek in the second half of the game (``peek_sale``: the sale a view shows in
        the window; the window after sale ``s`` shows ``s + 1``)."""
        state = ask.state
        return np.full(len(ask.rows), state.peek_sale >= state.rules.sales // 2)


@compiled_loop
def _value_figures_loop(
    worth: Floats, top: Floats, typical: Floats, spent: Ints, left: int, players: int,
    points: int, limit: int, zero_bidders: Ints, zero: Ints, opening_target: Floats,
    cap: Floats, pass_below: Floats,
) -> None:  # fmt: skip
    """Per column and game, :class:`~qe_rules.ValueAgent`'s figures beside the worth: the
    points a zero bid would score (``points``, where fewer than ``limit`` seats bid zero in
    the round, when there is a limit), the opening target (0.6 of the worth), the spending
    room as the cap (the highest other spend plus the typical price's share of the ``left``
    sales, less the seat's spend and one) and the pass threshold (1)."""
    columns, games = worth.shape
    for column in range(columns):
        for game in range(games):
            room = top[column, game] + typical[column, game] * left / players
            room -= spent[column, game]
            cap[column, game] = room - 1
            if points and limit:
                zero[column, game] = points * (zero_bidders[column, game] < limit)
            else:
                zero[column, game] = points
            opening_target[column, game] = worth[column, game] * 0.6
            pass_below[column, game] = 1.0


class BidFigures(NamedTuple):
    """What an agent that bids as :class:`~qe_rules.ValueAgent` does reads, per column and
    game, for the sale in progress (:func:`bids_from_figures`)."""

    worth: Floats
    """The tile's worth to the seat."""
    zero: Floats | Ints
    """The points a zero bid would score."""
    opening_target: Floats
    """What the seat opens with, before its noise."""
    target: Floats
    """What the seat bids up to, before its noise."""
    cap: Floats
    """The most it spends: its spending room."""
    pass_below: Floats
    """It passes where the worth is at most the zero-bid points plus this."""


class NoiseScales(NamedTuple):
    """How much of an agent's draw (a number in [0, 1)) each bid adds, and its margin over
    the opening bid (:func:`bids_from_figures`)."""

    opening: float
    """Added to the opening bid."""
    bid: float
    """Added to the target of a secret bid or a rebid."""
    rebid_steps: float
    """Whole steps over the tie a rebid may add."""
    margin: float
    """A secret bid passes where its aim is at most the opening bid plus this."""


_VALUE_NOISE: Final = NoiseScales(opening=1.0, bid=1.0, rebid_steps=3.0, margin=0.0)
_PHASES: Final = {"opening": 0, "secret": 1, "rebid": 2}


def bids_from_figures(ask: BidAsk, figures: BidFigures, noise: NoiseScales) -> Ints:
    """The bids of :class:`~qe_rules.ValueAgent` (and of the learned agent, built on it)
    for the games asked: :func:`_bids_loop` over the seat's figures."""
    seat, state = ask.seat, ask.state
    phase = _PHASES[ask.phase]
    if phase == _PHASES["rebid"] and ask.previous is None:
        phase = _PHASES["secret"]  # no tie to beat: bid as in the first round
    amounts = np.empty(len(ask.draws), dtype=np.int64)
    _bids_loop(
        phase, _NONE if ask.rows is None else ask.rows, ask.draws, ask.minimum,
        _NONE if ask.forbidden is None else ask.forbidden,
        _NONE if ask.previous is None else ask.previous,
        _NONE if state.opening is None else state.opening,
        figures.worth[seat], figures.zero[seat], figures.opening_target[seat],
        figures.target[seat], figures.cap[seat], figures.pass_below[seat],
        noise.opening, noise.bid, noise.rebid_steps, noise.margin, amounts,
    )  # fmt: skip
    return amounts


@compiled_loop
def _bids_loop(
    phase: int, rows: Ints, draws: Bits, minimum: int, forbidden: Ints, previous: Ints,
    opening: Ints, worth: Floats, zero: Floats | Ints, opening_target: Floats, target: Floats,
    cap: Floats, pass_below: Floats, opening_noise: float, bid_noise: float,
    rebid_steps: float, margin: float, out: Ints,
) -> None:  # fmt: skip
    """Per game asked (``rows``, or every game where empty): the opening bid is the
    opening target (capped) plus its noise; a rebid tops the tie (``previous``) by up to
    ``rebid_steps`` where the aim (the target plus noise, capped) is above it; a secret bid
    is the aim, unless the aim is not above the opening bid plus ``margin`` or the worth is
    at most the zero-bid points (where a zero bid scores) plus ``pass_below``. Passing, or
    not topping the tie, is the least legal bid; every bid is made legal."""
    for index in range(out.shape[0]):
        game = rows[index] if rows.shape[0] else index
        draw = draws[index] / 2**32
        if phase == 0:
            amount = int(min(opening_target[game], cap[game]) + opening_noise * draw)
        else:
            aim = min(target[game] + bid_noise * draw, cap[game])
            amount = minimum
            if phase == 2:
                tied_at = previous[index]
                if aim > tied_at:
                    amount = min(int(aim), tied_at + 1 + int(rebid_steps * draw))
            else:
                zero_here = zero[game] if minimum <= 0 else 0
                bid_over = (opening[game] if opening.shape[0] else 0) + margin
                if aim > bid_over and worth[game] > zero_here + pass_below[game]:
                    amount = int(aim)
        out[index] = legal_amount(amount, minimum, forbidden[index] if forbidden.shape[0] else -1)


_POTENTIALS: Final[dict[int, tuple[npt.NDArray[np.float64], ...]]] = {}


def _tables_potentials(tables: Any) -> tuple[npt.NDArray[np.float64], ...]:
    found = _POTENTIALS.get(id(tables))
    if found is None:
        found = _POTENTIALS[id(tables)] = (
            _potentials(tables.nationalization),
            _potentials(tables.monopolization),
            _potentials(tables.diversification),
        )
    return found


def _declared(name: str) -> Callable[[], BatchAgent]:
    """A batched agent defined in another module: ``trained`` in
    :mod:`qe_rules.simulation.batch.learned` (built on this one), ``ppo`` in a higher layer
    (it needs the ``rl`` extra); found through its entry point on first use
    (:data:`~qe_rules.simulation.agents.BATCH_AGENT_GROUP`), never imported here."""

    def make() -> BatchAgent:
        found = agent_elsewhere(BATCH_AGENT_GROUP, name)
        assert found is not None  # agent_elsewhere raises for a built-in name it cannot find
        agent: BatchAgent = found()
        return agent

    return make


BATCH_AGENTS: Final[dict[str, Callable[[], BatchAgent]]] = {
    "random": RandomBids,
    "floor": FloorBids,
    "zero": ZeroBids,
    "value": ValueBids,
    "trained": _declared("trained"),
    "ppo": _declared("ppo"),
    "adaptive": _declared("adaptive"),
}
"""The batched agents by name (``trained``: the shipped learned agent, or the value agent
where its weights do not apply, as ``TrainedAgent`` plays; ``ppo``: the PPO networks;
``adaptive``: ``trained`` switching to ``ppo``, as ``AdaptiveAgent`` plays)."""


def batch_agent(spec: object) -> BatchAgent:
    """A batched agent from a name of :data:`BATCH_AGENTS` or an agent itself."""
    if isinstance(spec, str):
        make = BATCH_AGENTS.get(spec) or agent_elsewhere(BATCH_AGENT_GROUP, spec)
        if make is None:
            raise InvalidArgument(
                f"the batch has no agent {shown(spec)}; its agents are "
                f"{', '.join(BATCH_AGENTS)} (or a BatchAgent)"
            )
        return make()
    if isinstance(spec, BatchAgent):
        return spec
    raise InvalidArgument(
        f"a batched agent is a name ({', '.join(BATCH_AGENTS)}) or a BatchAgent, got {shown(spec)}"
    )
