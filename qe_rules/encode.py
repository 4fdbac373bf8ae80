"""A fixed-size numeric encoding of a :class:`~qe_rules.PlayerView`, and its action mask,
for learning agents (needs numpy: the ``rl`` extra).

:func:`observation` turns a view into a ``float32`` vector of :data:`OBSERVATION_SIZE`
numbers, the same length for every rule set and player count; :data:`OBSERVATION_FIELDS`
names its parts in order. :func:`action_mask` gives which of the :data:`ACTIONS` actions
the seat may take now: bids ``0`` to :data:`BID_CAP`, then :data:`PEEK` and
:data:`DECLINE_PEEK`. :func:`action_bid` turns an action back into a bid.

>>> import qe_rules as qe
>>> from qe_rules import encode
>>> view = qe.new_game("en", 4, seed=7).bid(0, 3).view(1)
>>> obs = encode.observation(view)
>>> obs.shape, obs.dtype.name
((265,), 'float32')
>>> mask = encode.action_mask(view)
>>> view.limits
BidLimits(minimum=0, forbidden=3)
>>> mask[:5].tolist(), int(mask.sum()), bool(mask[encode.PEEK])
([True, True, True, False, True], 30, False)

Here seat 1 may bid 0 to 30 except 3, the opening bid, which ``en`` forbids equalling.

The encoding is a function of the view alone, so two situations a seat cannot tell apart
encode the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

from qe_rules.components import COMPANIES, Industry, Nation
from qe_rules.errors import InvalidArgument, shown
from qe_rules.views import PlayerView

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "ACTIONS",
    "BID_CAP",
    "DECLINE_PEEK",
    "MAX_SEATS",
    "OBSERVATION_FIELDS",
    "OBSERVATION_SIZE",
    "PEEK",
    "PHASES",
    "ROUNDS_KEPT",
    "action_bid",
    "action_mask",
    "observation",
]

MAX_SEATS: Final = len(Nation)
"""Seats the encoding has room for: the most players any rule set allows (one per nation)."""

BID_CAP: Final = 30
"""The largest bid an action can make. A capped agent cannot bid more than this: it
cannot outbid a seat that bids more, cannot open higher, and, where the smallest legal
bid is above the cap (which no built-in rule set asks for), has no bid at all."""

PEEK: Final = BID_CAP + 1
"""The action that peeks at the amount of a sale the seat may peek at."""

DECLINE_PEEK: Final = BID_CAP + 2
"""The action that declines a peek."""

ACTIONS: Final = BID_CAP + 3
"""The number of actions: the bids ``0`` to :data:`BID_CAP`, :data:`PEEK` and
:data:`DECLINE_PEEK`."""

ROUNDS_KEPT: Final = 4
"""Bidding rounds of the current sale kept in the encoding (the latest ones); a sale that
ties more often loses its earliest rounds."""

PHASES: Final[tuple[str, ...]] = ("opening", "bidding", "rebidding", "peeking", "over")
"""The phases, in the order of the ``phase`` one-hot (``Phase.value``). ``peeking`` is the
turn in which seats answer whether they peek; until the engine has that phase, its slot
stays 0 and the two peek actions stay masked off."""

_TILE_INDEX: Final = {company: index for index, company in enumerate(COMPANIES)}
_NATION_INDEX: Final = {nation: index for index, nation in enumerate(Nation)}
_INDUSTRY_INDEX: Final = {industry: index for index, industry in enumerate(Industry)}

OBSERVATION_FIELDS: Final[tuple[tuple[str, int], ...]] = (
    ("players", MAX_SEATS),  # one-hot: players - 1
    ("seat", MAX_SEATS),  # one-hot: this seat
    ("phase", len(PHASES)),  # one-hot, in the order of PHASES
    ("sale", 5),  # sale number, sales in the game, tiles remaining, bidding round, ties in a row
    ("company", len(COMPANIES)),  # one-hot: the tile on sale (by index in COMPANIES)
    ("auctioneer", MAX_SEATS),  # one-hot: who runs this sale (none on a last tile without one)
    ("opening_bid", 2),  # the opening bid, and 1 when there is one
    ("to_act", MAX_SEATS),  # 1 for each seat whose bid is awaited
    ("tied", MAX_SEATS),  # 1 for each seat tied in this sale
    ("nations", MAX_SEATS * len(Nation)),  # per seat, one-hot: its nation
    ("industry", len(Industry)),  # one-hot: this seat's industry token
    ("holdings", MAX_SEATS * len(COMPANIES)),  # per seat, 1 for each tile it won
    ("known_spend", MAX_SEATS),  # per seat, what this seat knows it spent (its own: all)
    ("unknown_amounts", MAX_SEATS),  # per seat, tiles won for an amount this seat cannot see
    ("zero_bid_rounds", MAX_SEATS),  # per seat, zero-bid rounds (where they are public)
    ("peeks_used", MAX_SEATS),  # per seat, peeks used
    ("my_bids", 2 * ROUNDS_KEPT),  # own bids in this sale, latest rounds: amount, then 1
    ("seen_bids", 2 * ROUNDS_KEPT * MAX_SEATS),  # as auctioneer, each round's bids: amount, 1
    ("limits", 3),  # when bidding: the smallest bid, the forbidden amount, 1 if one is
    ("can_peek", 1),  # 1 when this seat may peek now
)
"""The parts of an observation, in order, as ``(name, length)``. Amounts are raw whole
numbers (not scaled); seats are absolute (``seat`` says which one is this seat's);
seats beyond the player count and absent values are 0."""

OBSERVATION_SIZE: Final = sum(size for _, size in OBSERVATION_FIELDS)
"""The length of an observation."""


def _numpy() -> Any:
    """numpy, an optional extra, loaded where it is used."""
    try:
        import numpy
    except ImportError:
        raise InvalidArgument("the encoding needs numpy: pip install 'qe-rules[rl]'") from None
    return numpy


def _one_hot(out: list[float], size: int, index: int | None) -> None:
    start = len(out)
    out.extend([0.0] * size)
    if index is not None:
        out[start + index] = 1.0


def _flags(out: list[float], seats: Iterable[int]) -> None:
    start = len(out)
    out.extend([0.0] * MAX_SEATS)
    for seat in seats:
        out[start + seat] = 1.0


def _per_seat(out: list[float], values: list[int] | tuple[int, ...]) -> None:
    out.extend(float(value) for value in values)
    out.extend([0.0] * (MAX_SEATS - len(values)))


def _amounts(out: list[float], amounts: list[int | None]) -> None:
    """Slots of ``amount, present``; absent amounts (``None``) leave both 0."""
    for amount in amounts:
        out.extend((0.0, 0.0) if amount is None else (float(amount), 1.0))


def _check_view(view: object) -> PlayerView:
    if not isinstance(view, PlayerView):
        raise InvalidArgument(f"expected a PlayerView (game.view(seat)), got {shown(view)}")
    if view.players > MAX_SEATS:
        raise InvalidArgument(f"the encoding has room for {MAX_SEATS} seats, not {view.players}")
    return view


def observation(view: PlayerView) -> npt.NDArray[np.float32]:
    """The view as a ``float32`` vector of :data:`OBSERVATION_SIZE` numbers, laid out as
    :data:`OBSERVATION_FIELDS` says."""
    view = _check_view(view)
    out: list[float] = []
    _one_hot(out, MAX_SEATS, view.players - 1)
    _one_hot(out, MAX_SEATS, view.seat)
    _one_hot(out, len(PHASES), PHASES.index(view.phase.value))
    out.extend(map(float, (view.sale, view.sales, view.remaining, view.round, view.ties)))
    _one_hot(out, len(COMPANIES), None if view.company is None else _TILE_INDEX[view.company])
    _one_hot(out, MAX_SEATS, view.auctioneer)
    _amounts(out, [view.opening_bid])
    _flags(out, view.to_act)
    _flags(out, view.tied)
    for seat in range(MAX_SEATS):
        nation = view.nations[seat] if seat < view.players else None
        _one_hot(out, len(Nation), None if nation is None else _NATION_INDEX[nation])
    _one_hot(out, len(Industry), _INDUSTRY_INDEX[view.industry])
    for seat in range(MAX_SEATS):
        start = len(out)
        out.extend([0.0] * len(COMPANIES))
        for company in view.holdings[seat] if seat < view.players else ():
            out[start + _TILE_INDEX[company]] = 1.0
    known = [0] * view.players
    unknown = [0] * view.players
    for sale in view.history:
        if sale.winner is None:
            continue
        if sale.amount is None:
            unknown[sale.winner] += 1
        else:
            known[sale.winner] += sale.amount
    known[view.seat] = view.spent
    unknown[view.seat] = 0
    _per_seat(out, known)
    _per_seat(out, unknown)
    _per_seat(out, view.zero_bid_rounds)
    _per_seat(out, view.peeks_used)
    mine: list[int | None] = list(view.my_bids[-ROUNDS_KEPT:])
    _amounts(out, mine + [None] * (ROUNDS_KEPT - len(mine)))
    rounds = view.seen_bids[-ROUNDS_KEPT:]
    for number in range(ROUNDS_KEPT):
        bids = dict(rounds[number]) if number < len(rounds) else {}
        _amounts(out, [bids.get(seat) for seat in range(MAX_SEATS)])
    limits = view.limits
    if limits is None:
        out.extend((0.0, 0.0, 0.0))
    else:
        forbidden = limits.forbidden
        out.extend(
            (
                float(limits.minimum),
                0.0 if forbidden is None else float(forbidden),
                float(forbidden is not None),
            )
        )
    out.append(float(view.can_peek))
    encoded: npt.NDArray[np.float32] = _numpy().asarray(out, dtype="float32")
    return encoded


def _peek_turn(view: PlayerView) -> bool:
    """Whether the seat is answering whether it peeks (the ``peeking`` phase)."""
    return view.phase.value == "peeking" and view.seat in view.to_act


def action_mask(view: PlayerView) -> npt.NDArray[np.bool_]:
    """Which of the :data:`ACTIONS` actions the seat may take now, as a bool vector.

    A bid ``b`` (action ``b``) is allowed when the seat is to bid and ``view.limits``
    allows ``b``; :data:`PEEK` when the seat may peek in its peek turn, and
    :data:`DECLINE_PEEK` in any peek turn. All are off when it is not the seat's turn.
    """
    view = _check_view(view)
    mask = [False] * ACTIONS
    limits = view.limits
    if limits is not None and view.seat in view.to_act:
        for amount in range(limits.minimum, BID_CAP + 1):
            mask[amount] = limits.allows(amount)
    if _peek_turn(view):
        mask[PEEK] = view.can_peek
        mask[DECLINE_PEEK] = True
    allowed: npt.NDArray[np.bool_] = _numpy().asarray(mask, dtype=bool)
    return allowed


def action_bid(action: int) -> int | str:
    """What an action does: the amount of a bid, or ``"peek"`` or ``"decline-peek"``.

    >>> action_bid(7), action_bid(PEEK), action_bid(DECLINE_PEEK)
    (7, 'peek', 'decline-peek')
    """
    if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < ACTIONS:
        raise InvalidArgument(
            f"an action is a whole number from 0 to {ACTIONS - 1}, got {shown(action)}"
        )
    if action == PEEK:
        return "peek"
    if action == DECLINE_PEEK:
        return "decline-peek"
    return action
