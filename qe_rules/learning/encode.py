"""A fixed-size numeric encoding of a :class:`~qe_rules.PlayerView`, and its action mask,
for learning agents (needs numpy: the ``rl`` extra).

:func:`observation` turns a view into a ``float32`` vector of :data:`OBSERVATION_SIZE`
numbers, the same length for every rule set and player count; :data:`OBSERVATION_FIELDS`
names its parts in order. :func:`action_mask` gives which of the :data:`ACTIONS` actions
the seat may take now: bids ``0`` to :data:`BID_CAP`, then :data:`PEEK` and
:data:`DECLINE_PEEK`. :func:`action_bid` turns an action back into a bid.

>>> import qe_rules as qe
>>> from qe_rules.learning import encode
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

import array
import functools
import operator
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any, Final

from qe_rules.components import COMPANIES, Company, Industry, Nation
from qe_rules.errors import InvalidArgument, shown
from qe_rules.game.views import Phase, PlayerView, SaleView

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
    "Encoder",
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
turn in which seats answer whether they peek (the only phase in which the two peek
actions are allowed)."""

# Tiles hash by identity (every tile is one of COMPANIES), so a plain lookup is fast.
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


def _offsets() -> dict[str, int]:
    starts, at = {}, 0
    for name, size in OBSERVATION_FIELDS:
        starts[name] = at
        at += size
    return starts


_AT: Final = _offsets()
# Where each part starts, as names: the encoding is on the hot path of a learning loop.
_PLAYERS: Final = _AT["players"]
_SEAT: Final = _AT["seat"]
_PHASE: Final = _AT["phase"]
_SALE: Final = _AT["sale"]
_COMPANY: Final = _AT["company"]
_AUCTIONEER: Final = _AT["auctioneer"]
_OPENING_BID: Final = _AT["opening_bid"]
_TO_ACT: Final = _AT["to_act"]
_TIED: Final = _AT["tied"]
_NATIONS: Final = _AT["nations"]
_INDUSTRY: Final = _AT["industry"]
_HOLDINGS: Final = _AT["holdings"]
_KNOWN_SPEND: Final = _AT["known_spend"]
_UNKNOWN_AMOUNTS: Final = _AT["unknown_amounts"]
_ZERO_BID_ROUNDS: Final = _AT["zero_bid_rounds"]
_PEEKS_USED: Final = _AT["peeks_used"]
_MY_BIDS: Final = _AT["my_bids"]
_SEEN_BIDS: Final = _AT["seen_bids"]
_LIMITS: Final = _AT["limits"]
_CAN_PEEK: Final = _AT["can_peek"]
_NATION_COUNT: Final = len(Nation)
_TILE_COUNT: Final = len(COMPANIES)
# Where the one-hot 1 of each phase and industry goes. Phases are keyed by the member's
# identity: members are singletons, and the lookup skips ``Enum.__hash__`` (a Python
# call), which Phase keeps. Industries hash by identity already.
_PHASE_AT: Final = {id(Phase(phase)): _PHASE + index for index, phase in enumerate(PHASES)}
_INDUSTRY_AT: Final = {industry: _INDUSTRY + index for industry, index in _INDUSTRY_INDEX.items()}
_PEEKING: Final = Phase.PEEKING
_ZEROS: Final = array.array("f", bytes(4 * OBSERVATION_SIZE))


def _nations_part(nations: tuple[Nation, ...]) -> array.array[float]:
    block = array.array("f", bytes(4 * MAX_SEATS * _NATION_COUNT))
    for seat, nation in enumerate(nations):
        block[seat * _NATION_COUNT + _NATION_INDEX[nation]] = 1.0
    return block


def _write_holdings(
    out: array.array[float],
    holdings: tuple[tuple[Company, ...], ...],
    before: tuple[tuple[Company, ...], ...],
) -> None:
    """Write the ``holdings`` part into ``out``, which holds the part of the holdings
    ``before`` (of as many seats, or ``()`` for none): only the rows of seats whose tiles are not the very same tuple as before
    are written, and of a row that only gained tiles, only those."""
    tile_index = _TILE_INDEX
    rows_before = before or ((),) * len(holdings)
    for seat, (held, old) in enumerate(zip(holdings, rows_before, strict=True)):
        if held is old:
            continue
        start = _HOLDINGS + seat * _TILE_COUNT
        if held[: len(old)] == old:  # the seat won tiles
            held = held[len(old) :]
        else:
            out[start : start + _TILE_COUNT] = _NO_TILES
        for company in held:
            out[start + tile_index[company]] = 1.0


_NO_TILES: Final = array.array("f", bytes(4 * _TILE_COUNT))


class _LastBlock:
    """The encoded block of the public tuple seen last. The views of one game share
    their public tuples (the nations stay the same object for a whole game), so most
    calls find the block made for the previous view."""

    def __init__(self, make: Callable[[Any], array.array[float]]) -> None:
        self.make = make
        self.last: tuple[object, array.array[float]] = (None, array.array("f"))

    def get(self, key: object) -> array.array[float]:
        seen, block = self.last  # one read: another thread may replace it at any time
        if seen is not key:
            block = self.make(key)
            self.last = (key, block)  # the reference keeps ``key`` alive, so its id is unique
        return block


_nations_block: Final = _LastBlock(_nations_part)


def _check_view(view: object) -> PlayerView:
    if not isinstance(view, PlayerView):
        raise InvalidArgument(f"expected a PlayerView (game.view(seat)), got {shown(view)}")
    if view.players > MAX_SEATS:
        raise InvalidArgument(f"the encoding has room for {MAX_SEATS} seats, not {view.players}")
    return view


_SALE_FIELDS: Final = (
    "players",
    "sale",
    "sales",
    "remaining",
    "company",
    "auctioneer",
    "nations",
    "holdings",
    "zero_bid_rounds",
    "peeks_used",
)
_sale_fields: Final = operator.attrgetter(*_SALE_FIELDS)
"""The fields of a view the encoding reads that are the same for every seat and seldom
change within a sale."""

_STATE_FIELDS: Final = ("phase", "round", "ties", "opening_bid", "to_act", "tied")
_state_fields: Final = operator.attrgetter(*_STATE_FIELDS)
"""The fields of a view the encoding reads that are the same for every seat and change
within a sale."""


_SharedFields = tuple[tuple[Any, ...], tuple[Any, ...]]


def _shared_fields(view: PlayerView) -> _SharedFields:
    """Every field of a view the encoding reads that is the same for every seat: those of
    :data:`_sale_fields`, and those of :data:`_state_fields`."""
    return _sale_fields(view), _state_fields(view)


def _sale_block(view: PlayerView) -> array.array[float]:
    """An observation with only the numbers of :data:`_sale_fields` filled in."""
    _check_view(view)
    out = _ZEROS[:]
    out[_PLAYERS + view.players - 1] = 1.0
    out[_SALE] = view.sale
    out[_SALE + 1] = view.sales
    out[_SALE + 2] = view.remaining
    if view.company is not None:
        out[_COMPANY + _TILE_INDEX[view.company]] = 1.0
    if view.auctioneer is not None:
        out[_AUCTIONEER + view.auctioneer] = 1.0
    nations = _nations_block.get(view.nations)
    out[_NATIONS : _NATIONS + len(nations)] = nations
    _write_holdings(out, view.holdings, ())
    for seat, number in enumerate(view.zero_bid_rounds):
        if number:
            out[_ZERO_BID_ROUNDS + seat] = number
    for seat, number in enumerate(view.peeks_used):
        if number:
            out[_PEEKS_USED + seat] = number
    return out


def _same_game(seen: tuple[object, ...], now: tuple[object, ...]) -> bool:
    """Whether the :data:`_sale_fields` ``seen`` and ``now`` are of the same players and
    nations (the very same tuple)."""
    players, _, _, _, _, _, nations, _, _, _ = seen
    players_now, _, _, _, _, _, nations_now, _, _, _ = now
    return players == players_now and nations is nations_now


def _next_sale_block(
    block: array.array[float], seen: tuple[Any, ...], now: tuple[Any, ...]
) -> array.array[float]:
    """The :func:`_sale_block` of a view whose :data:`_sale_fields` are ``now``, from
    ``block``, the one of the fields ``seen`` (of a view of the same players and
    nations): only what changed is written."""
    _, _, _, _, company, auctioneer, _, holdings, zero_bid_rounds, peeks_used = seen
    _, sale, sales, remaining, company_now, auctioneer_now, _, holdings_now, zeros, peeks = now
    out = block[:]
    out[_SALE] = sale
    out[_SALE + 1] = sales
    out[_SALE + 2] = remaining
    if company_now is not company:
        if company is not None:
            out[_COMPANY + _TILE_INDEX[company]] = 0.0
        if company_now is not None:
            out[_COMPANY + _TILE_INDEX[company_now]] = 1.0
    if auctioneer_now != auctioneer:
        if auctioneer is not None:
            out[_AUCTIONEER + auctioneer] = 0.0
        if auctioneer_now is not None:
            out[_AUCTIONEER + auctioneer_now] = 1.0
    if holdings_now is not holdings:
        _write_holdings(out, holdings_now, holdings)
    if zeros is not zero_bid_rounds:
        out[_ZERO_BID_ROUNDS : _ZERO_BID_ROUNDS + len(zeros)] = array.array("f", zeros)
    if peeks is not peeks_used:
        out[_PEEKS_USED : _PEEKS_USED + len(peeks)] = array.array("f", peeks)
    return out


@functools.lru_cache(maxsize=256)  # every set of 5 seats, and tuples of them
def _seats_block(seats: Collection[int]) -> array.array[float]:
    """1 for each of ``seats``, as the ``to_act`` and ``tied`` parts."""
    block = array.array("f", bytes(4 * MAX_SEATS))
    for seat in seats:
        block[seat] = 1.0
    return block


_SPEND_SIZE: Final = 2 * MAX_SEATS  # known_spend, then unknown_amounts
_NO_SALES: Final = ((), array.array("f", bytes(4 * _SPEND_SIZE)))


class Encoder:
    """Encodes views as :func:`observation` and :func:`action_mask` do, faster when
    views come one after another from the same games, as in a learning loop.

    Much of a view changes only once a sale (the tile, the holdings, the nations, the
    zero bids and peeks), and a seat's finished sales only grow: an encoder keeps the
    encoded part of the current sale, each seat's spends from its finished sales (adding
    only new sales) and the masks, and writes the rest. Its results are always those of
    the functions: it reuses a part only for the very same objects, or equal ones. The
    arrays it returns are new each time, the caller's to keep or change. An environment
    keeps one encoder; the functions share one.

    >>> import qe_rules as qe
    >>> game = qe.new_game("en", 4, seed=7).bid(0, 3)
    >>> encoder = Encoder()
    >>> [encoder.observation(game.view(seat)).tolist() == observation(game.view(seat)).tolist()
    ...  for seat in range(4)]
    [True, True, True, True]

    Its masks are ``bool``, or of ``mask_dtype`` (0 and 1): PettingZoo's board games use
    ``int8``.

    >>> Encoder(mask_dtype="int8").action_mask(game.view(1))[:5].tolist()
    [1, 1, 1, 0, 1]
    """

    __slots__ = (
        "_bid_mask",
        "_float32",
        "_frombuffer",
        "_mask_dtype",
        "_masks",
        "_sale",
        "_spends",
        "_state",
    )

    def __init__(self, *, mask_dtype: Any = bool) -> None:
        numpy = _numpy()
        self._frombuffer, self._float32 = numpy.frombuffer, numpy.dtype(numpy.float32)
        self._mask_dtype = numpy.dtype(mask_dtype)
        self._sale: tuple[tuple[object, ...] | None, array.array[float]] = (None, _ZEROS)
        # the shared fields seen last, and the observation part they fill
        self._state: tuple[_SharedFields | None, array.array[float]] = (None, _ZEROS)
        # per seat: its finished sales and their encoded block
        self._spends: list[tuple[tuple[SaleView, ...], array.array[float]]]
        self._spends = [_NO_SALES] * MAX_SEATS
        self._masks: dict[object, npt.NDArray[Any]] = {}
        self._bid_mask: tuple[object, npt.NDArray[Any]] = (None, _numpy().zeros(0))

    def observation(self, view: PlayerView) -> npt.NDArray[np.float32]:
        """The view as a ``float32`` vector: :func:`observation`."""
        if type(view) is not PlayerView:
            view = _check_view(view)
        key = _shared_fields(view)
        seen, block = self._state  # one read: another thread may replace it at any time
        if key != seen:
            block = self._state_block(view, key)
        return self._seat_observation(view, block)

    def _state_part(self, view: PlayerView) -> array.array[float]:
        """The part of ``view``'s observation every seat viewing the same state shares.
        An environment, which knows when its views are of one state, asks once a state
        and passes it to :meth:`_seat_observation` with each seat's view."""
        if type(view) is not PlayerView:
            view = _check_view(view)
        key = _shared_fields(view)
        seen, block = self._state
        return block if key == seen else self._state_block(view, key)

    def _seat_observation(
        self, view: PlayerView, block: array.array[float]
    ) -> npt.NDArray[np.float32]:
        """The observation of ``view``: the seat's numbers written over a copy of
        ``block``, the :meth:`_state_part` of a view of the same state."""
        # Copy the state's part, write the seat's numbers over it, then hand the buffer
        # to numpy without converting number by number.
        out = block[:]
        seat = view.seat
        out[_SEAT + seat] = 1.0
        out[_INDUSTRY_AT[view.industry]] = 1.0
        history = view.history
        known, spends = self._spends[seat]
        if known is not history:
            # add the known_spend and unknown_amounts of the sales not counted yet, as
            # this seat knows them, leaving out its own (its spend is view.spent)
            done = len(known)
            if history[:done] == known:  # sales were added after the same ones
                spends, added = spends[:], history[done:]
            else:
                spends, added = _NO_SALES[1][:], history
            for sold in added:
                winner = sold.winner
                if winner is None or winner == seat:
                    continue
                amount = sold.amount
                if amount is None:
                    spends[MAX_SEATS + winner] += 1
                else:
                    spends[winner] += amount
            self._spends[seat] = (history, spends)
        out[_KNOWN_SPEND : _KNOWN_SPEND + _SPEND_SIZE] = spends
        out[_KNOWN_SPEND + seat] = view.spent
        if view.my_bids:
            for number, amount in enumerate(view.my_bids[-ROUNDS_KEPT:]):
                out[_MY_BIDS + 2 * number] = amount
                out[_MY_BIDS + 2 * number + 1] = 1.0
        if view.seen_bids:
            for number, bids in enumerate(view.seen_bids[-ROUNDS_KEPT:]):
                start = _SEEN_BIDS + 2 * MAX_SEATS * number
                for bidder, amount in bids:
                    out[start + 2 * bidder] = amount
                    out[start + 2 * bidder + 1] = 1.0
        limits = view.limits
        if limits is not None:
            out[_LIMITS] = limits.minimum
            if limits.forbidden is not None:
                out[_LIMITS + 1] = limits.forbidden
                out[_LIMITS + 2] = 1.0
        if view.can_peek:
            out[_CAN_PEEK] = 1.0
        encoded: npt.NDArray[np.float32] = self._frombuffer(out, self._float32)
        return encoded

    def _state_block(self, view: PlayerView, key: _SharedFields) -> array.array[float]:
        """The observation part of :func:`_shared_fields` ``key`` of ``view`` (the same
        for every seat viewing one state), kept for the next views."""
        sale_key, (phase, round_, ties, opening_bid, to_act, tied) = key
        seen, block = self._sale
        if sale_key != seen:
            block = self._sale_block(view, sale_key)
        out = block[:]
        out[_PHASE_AT[id(phase)]] = 1.0
        out[_SALE + 3] = round_
        out[_SALE + 4] = ties
        if opening_bid is not None:
            out[_OPENING_BID] = opening_bid
            out[_OPENING_BID + 1] = 1.0
        out[_TO_ACT : _TO_ACT + MAX_SEATS] = _seats_block(to_act)
        if tied:
            out[_TIED : _TIED + MAX_SEATS] = _seats_block(tied)
        self._state = (key, out)
        return out

    def _sale_block(self, view: PlayerView, key: tuple[object, ...]) -> array.array[float]:
        """The observation part of the :data:`_sale_fields` ``key`` of ``view``, kept
        for the next views: from the part kept for the previous sale of the same game,
        only what changed is written."""
        seen, block = self._sale
        if seen is None or not _same_game(seen, key):
            block = _sale_block(view)
        else:
            block = _next_sale_block(block, seen, key)
        self._sale = (key, block)
        return block

    def action_mask(self, view: PlayerView) -> npt.NDArray[Any]:
        """Which actions the seat may take now: :func:`action_mask` (of ``mask_dtype``)."""
        if type(view) is not PlayerView:
            view = _check_view(view)
        return self._kept_action_mask(view).copy()

    def _kept_action_mask(self, view: PlayerView) -> npt.NDArray[Any]:
        """The encoder's own copy of :meth:`action_mask`, which no one may change: an
        environment checks actions against it and hands out copies."""
        limits = view.limits
        if view.seat not in view.to_act:
            mask = self._kept_mask(None)
        elif view.phase is _PEEKING:
            mask = self._kept_mask(view.can_peek)
        elif limits is None:
            mask = self._kept_mask(None)
        else:
            seen, mask = self._bid_mask  # the bidders of a round share their limits
            if seen is not limits:
                key = (limits.minimum, limits.forbidden)
                kept = self._masks.get(key)
                mask = self._kept_bid_mask(key) if kept is None else kept
                self._bid_mask = (limits, mask)
        return mask

    def _kept_bid_mask(self, limits: tuple[int, int | None]) -> npt.NDArray[Any]:
        """The kept mask of a seat to bid with these limits (the smallest bid and the
        forbidden one), kept under them too while they are within the cap."""
        minimum, forbidden = limits
        # amounts above the cap change nothing: at most 32 * 33 masks are made
        if forbidden is not None and forbidden > BID_CAP:
            forbidden = None
        mask = self._kept_mask((min(minimum, BID_CAP + 1), forbidden))
        if minimum <= BID_CAP + 1 and (forbidden is None or forbidden <= BID_CAP + 1):
            self._masks[limits] = mask
        return mask

    def _kept_mask(self, key: object) -> npt.NDArray[Any]:
        """The kept mask of ``key`` (see :func:`_mask`), made on first use."""
        mask = self._masks.get(key)
        if mask is None:
            mask = self._masks[key] = _mask(key).astype(self._mask_dtype)
            mask.flags.writeable = False  # handed out as copies
        return mask


def _mask(key: object) -> npt.NDArray[np.bool_]:
    """The action mask of a seat not to act (``None``), in a peek turn (whether it may
    peek) or bidding (the smallest bid and the forbidden one)."""
    allowed: npt.NDArray[np.bool_] = _numpy().zeros(ACTIONS, dtype=bool)
    if isinstance(key, bool):
        allowed[PEEK] = key
        allowed[DECLINE_PEEK] = True
    elif isinstance(key, tuple):
        minimum, forbidden = key
        allowed[minimum : BID_CAP + 1] = True
        if forbidden is not None and minimum <= forbidden <= BID_CAP:
            allowed[forbidden] = False
    return allowed


_SHARED: Final[list[Encoder]] = []  # the functions' encoder, made on first use (numpy)


def _shared() -> Encoder:
    if not _SHARED:
        _SHARED.append(Encoder())
    return _SHARED[0]


def observation(view: PlayerView) -> npt.NDArray[np.float32]:
    """The view as a ``float32`` vector of :data:`OBSERVATION_SIZE` numbers, laid out as
    :data:`OBSERVATION_FIELDS` says."""
    return _shared().observation(view)


def action_mask(view: PlayerView) -> npt.NDArray[np.bool_]:
    """Which of the :data:`ACTIONS` actions the seat may take now, as a bool vector.

    A bid ``b`` (action ``b``) is allowed when the seat is to bid and ``view.limits``
    allows ``b``; :data:`PEEK` when the seat may peek in its peek turn, and
    :data:`DECLINE_PEEK` in any peek turn. All are off when it is not the seat's turn.
    """
    mask: npt.NDArray[np.bool_] = _shared().action_mask(view)
    return mask


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
