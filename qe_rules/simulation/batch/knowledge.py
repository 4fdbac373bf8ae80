"""What each seat knows in the lockstep games, for agents that read the state: its tiles by
industry and nation, its spend, the winning amounts it saw, the sales it saw won for an
amount it does not know, and its zero bids of the round.

A seat knows a sale's winning amount as :func:`qe_rules.game._secrecy.knows_amount`
says (public, its own win, or the sale it ran), and after it peeks at it where the peek
shows the winning amount (under ``peek_shows = "highest-bid"`` a peek after a tie
fallback shows a higher bid, as a peek under ``"highest-bid-made"`` does after any tie
that a rebid won for less, and the amount stays unknown). Kept only when an agent asks for it
(:class:`~qe_rules.simulation.batch.agents.ValueBids`).
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

import numpy as np
import numpy.typing as npt

from qe_rules.simulation.batch.buffers import kept
from qe_rules.simulation.batch.compiled import CompiledRules
from qe_rules.simulation.batch.loops import compiled_loop

__all__ = ["BITS", "Knowledge", "OtherSpends", "SaleTiles"]

Ints = npt.NDArray[np.signedinteger[Any]]
Floats = npt.NDArray[np.float64]


BITS: Final = 5
"""Bits per industry in a seat's packed tile counts (``Knowledge.held``)."""


class SaleTiles(NamedTuple):
    """Per sale and game (``(sales, games)`` arrays): its tile's industry (an index of
    :data:`~qe_rules.components.INDUSTRIES`), its nation (an index of
    :class:`~qe_rules.Nation`) and its VP."""

    industry: Ints
    nation: Ints
    vp: Ints


class Knowledge:
    """Per column and game (``(columns, games)`` arrays): what each seat knows."""

    def __init__(self, rules: CompiledRules, games: int) -> None:
        players = rules.players
        self.rules = rules
        self.own = np.zeros((players, games), dtype=np.int32)  # tiles of its nation
        # its tiles of each industry, BITS bits each: industry i is (held >> BITS * i) & 31
        self.held = np.zeros((players, games), dtype=np.int32)
        self.kinds = np.zeros((players, games), dtype=np.int32)  # industries it holds
        self.spent = np.zeros((players, games), dtype=np.int32)
        self.seen_sum = np.zeros((players, games), dtype=np.int32)
        self.seen_count = np.zeros((players, games), dtype=np.int32)
        # per seat, viewer and game: the amounts the viewer knows the seat paid, and for
        # the tiles the seat won at an amount the viewer does not know, the sum of their
        # opening bids plus one and their number (a seat's own row is left at 0)
        self.known_paid = np.zeros((players, players, games), dtype=np.int32)
        self.floor_sum = np.zeros((players, players, games), dtype=np.int32)
        self.unknown_count = np.zeros((players, players, games), dtype=np.int32)
        # per viewer, sale and game: whether the viewer knows the amount another seat paid
        # (the chunk's amounts hold it), and whether another seat won at an amount the
        # viewer does not know (the learning observer reads both)
        self.told = np.zeros((players, rules.sales, games), dtype=bool)
        self.blind = np.zeros((players, rules.sales, games), dtype=bool)
        # per sale and game: the least its winner paid, the opening bid plus one (0 with
        # no opening bid), what a viewer that does not know the amount counts
        self.floors = np.zeros((rules.sales, games), dtype=np.int32)
        self.winners: list[Ints] = []  # per finished sale, its winner in each game
        self.zero_bidders = np.zeros((players, games), dtype=np.int32)  # in this round
        self.sales_done = 0
        # what agents derive from this knowledge once a sale (cleared as a sale opens)
        self.derived: dict[object, Any] = {}
        self._kept: dict[tuple[object, str], Any] = {}  # arrays for it (kept: see kept)
        self._pieces: tuple[Ints, Ints] | None = None
        self._tiles: SaleTiles | None = None

    @classmethod
    def made(cls, rules: CompiledRules, games: int, spare: Knowledge | None = None) -> Knowledge:
        """The knowledge of a new chunk of ``games`` games: ``spare`` (a played chunk's,
        no longer read) emptied where it has the same rules and games, else a new one.
        Emptied, its arrays serve again: new ones at every chunk would cost fresh memory
        pages at every chunk."""
        if spare is None or spare.rules is not rules or spare.spent.shape[1] != games:
            return cls(rules, games)
        for array in (
            spare.own, spare.held, spare.kinds, spare.spent, spare.seen_sum, spare.seen_count,
            spare.known_paid, spare.floor_sum, spare.unknown_count, spare.told, spare.blind,
            spare.floors, spare.zero_bidders,
        ):  # fmt: skip
            array.fill(0)
        spare.winners = []
        spare.sales_done = 0
        spare.derived.clear()
        spare._pieces = None
        spare._tiles = None
        return spare

    def after_sale(
        self,
        sale: int,
        chunk: Any,
        winner: Ints,
        amount: Ints,
        standing: Ints,
        opening: Ints | None,
        auctioneer: int | None,
    ) -> None:
        """Add a finished sale: the tile to its winner, and what each seat learnt."""
        rules = self.rules
        tiles = self.tiles(chunk)
        if opening is not None:
            np.add(opening, 1, out=self.floors[sale], casting="unsafe")
        _after_sale_loop(
            sale, winner, amount, standing, rules.public(winner, auctioneer),
            -1 if auctioneer is None else auctioneer, bool(rules.zero_bids),
            tiles.industry, tiles.nation, self.pieces(chunk)[0],
            self.held, self.kinds, self.own, self.spent, self.seen_sum, self.seen_count,
            self.known_paid, self.floor_sum, self.unknown_count, self.told, self.blind,
            self.floors, self.zero_bidders,
        )  # fmt: skip
        self.winners.append(winner)
        self.sales_done = sale + 1

    def pieces(self, chunk: Any) -> tuple[Ints, Ints]:
        """Per column and game, its nation and industry token (indices in
        :class:`~qe_rules.Nation` and :class:`~qe_rules.Industry`), made once a chunk."""
        found = self._pieces
        if found is None:
            rules = self.rules
            found = self._pieces = (
                np.take(np.array(rules.nations), chunk.nations.T),
                np.take(np.array(rules.industries, dtype=np.int32), chunk.tokens.T),
            )
        return found

    def tiles(self, chunk: Any) -> SaleTiles:
        """Per sale and game, its tile's industry, nation and VP, made once a chunk."""
        found = self._tiles
        if found is None:
            rules = self.rules
            deck = chunk.deck_by_sale
            found = self._tiles = SaleTiles(
                industry=np.take(rules.tile_industry.astype(np.int32), deck),
                nation=np.take(rules.tile_nation.astype(np.int32), deck),
                vp=np.take(rules.tile_vp.astype(np.int32), deck),
            )
        return found

    def start_sale(self, sale: int) -> None:
        """A sale opens: a new round forgets the zero bids of the last."""
        self.derived.clear()
        round_of = self.rules.round_of
        if sale and round_of[sale] != round_of[sale - 1]:
            self.zero_bidders[:] = 0

    def peeked(self, sale: int, column: int, rows: Ints, amount: Ints, shown: Ints | None) -> None:
        """``column`` peeked at ``sale`` in ``rows``: it now knows the amount, unless the
        peek shows a highest bid (``shown``, by game: the standing or the made one; ``None``
        where the peek shows the amount) and that is not the amount."""
        if shown is not None:
            rows = rows[shown[rows] == amount[rows]]
        paid = amount[rows]
        self.seen_sum[column, rows] += paid
        self.seen_count[column, rows] += 1
        won = self.winners[sale][rows]
        self.known_paid[won, column, rows] += paid
        self.floor_sum[won, column, rows] -= self.floors[sale, rows]
        self.unknown_count[won, column, rows] -= 1
        self.told[column, sale, rows] = True
        self.blind[column, sale, rows] = False

    def kept(self, owner: object, name: str, dtype: Any = np.float64) -> Any:
        """A ``(columns, games)`` array, the same one at every sale of the chunk, for what
        ``owner`` derives once a sale under ``name`` (it holds the sale's values only).
        Made once (:func:`~qe_rules.simulation.batch.buffers.kept`): new arrays at every
        sale would cost fresh memory pages at every sale, about a tenth of the value
        agent's time."""
        return kept(self._kept, (owner, name), self.spent.shape, dtype)

    def other_spends(self) -> OtherSpends:
        """For the sale in progress (computed once a sale, for every agent): per column and
        game, the mean winning amount the seat saw, and the highest and lowest spend of
        another seat as the seat estimates it (:func:`_other_spends_loop`)."""
        found: OtherSpends | None = self.derived.get(Knowledge.other_spends)
        if found is None:
            found = OtherSpends(*(self.kept(Knowledge.other_spends, name) for name in _SPENDS))
            _other_spends_loop(
                self.seen_sum, self.seen_count, self.known_paid, self.floor_sum,
                self.unknown_count, found.typical, found.top, found.lowest,
            )  # fmt: skip
            self.derived[Knowledge.other_spends] = found
        return found


_SPENDS: Final = ("typical", "top", "lowest")


class OtherSpends(NamedTuple):
    """What :meth:`Knowledge.other_spends` gives, each ``(columns, games)``."""

    typical: Floats
    """The mean winning amount the seat saw (4 before it saw any)."""
    top: Floats
    """The highest spend of another seat, as the seat estimates it."""
    lowest: Floats
    """The lowest spend of another seat, as the seat estimates it."""


@compiled_loop
def _after_sale_loop(
    sale: int, winner: Ints, amount: Ints, standing: Ints, public: Any, auctioneer: int,
    count_zero_bids: bool, industry: Ints, tile_nation: Ints, nation: Ints,
    held: Ints, kinds: Ints, own: Ints, spent: Ints, seen_sum: Ints, seen_count: Ints,
    known_paid: Ints, floor_sum: Ints, unknown_count: Ints, told: Any, blind: Any,
    floors: Ints, zero_bidders: Ints,
) -> None:  # fmt: skip
    """:meth:`Knowledge.after_sale` for every game: the tile to its winner (``winner``: -1
    where unsold), what each seat learnt of the amount (the winner, the auctioneer and
    every seat where it is ``public`` know it; the others count the tile at its floor),
    and the zero bids of the round."""
    players, games = held.shape
    for game in range(games):
        won_by = winner[game]
        if won_by >= 0:
            shift = BITS * industry[sale, game]
            spent[won_by, game] += amount[game]
            kinds[won_by, game] += (held[won_by, game] >> shift) & ((1 << BITS) - 1) == 0
            held[won_by, game] += 1 << shift
            own[won_by, game] += tile_nation[sale, game] == nation[won_by, game]
    for seat in range(players):
        for game in range(games):
            won_by = winner[game]
            sold = won_by >= 0
            wins = seat == won_by
            knows = wins | public[game] | ((seat == auctioneer) & sold)
            seen_sum[seat, game] += amount[game] * (knows & sold)
            seen_count[seat, game] += knows
            another = sold & ~wins  # another seat won the tile
            told[seat, sale, game] = another & knows
            blind[seat, sale, game] = another & ~knows
            zero_bidders[seat, game] += count_zero_bids & (standing[seat, game] == 0)
    # what each viewer learnt of the winner's spend: a pass over every game per (winner,
    # viewer) pair, masked where another seat won (about twice as fast as one pass that
    # writes each game's winner's row)
    for holder in range(players):
        for seat in range(players):
            if seat == holder:
                continue
            ran = seat == auctioneer
            for game in range(games):
                won = winner[game] == holder
                knows = public[game] | ran
                known_paid[holder, seat, game] += amount[game] * (won & knows)
                floor_sum[holder, seat, game] += floors[sale, game] * (won & ~knows)
                unknown_count[holder, seat, game] += won & ~knows


@compiled_loop
def _other_spends_loop(
    seen_sum: Ints, seen_count: Ints, known_paid: Ints, floor_sum: Ints, unknown_count: Ints,
    typical: Floats, top: Floats, lowest: Floats,
) -> None:  # fmt: skip
    """Per column and game: ``typical``, the mean winning amount the seat saw (4 before
    it saw any); ``top`` and ``lowest``, the highest and lowest spend of another seat as
    the seat estimates it, as :class:`~qe_rules.ValueAgent` does: what it knows the seat
    paid, plus the larger of the typical price times the tiles whose amount it does not
    know and those tiles' floors."""
    players, games = seen_sum.shape
    for viewer in range(players):
        for game in range(games):
            seen = seen_count[viewer, game]
            typical[viewer, game] = seen_sum[viewer, game] / seen if seen > 0 else 4.0
            top[viewer, game] = -np.inf
            lowest[viewer, game] = np.inf
        for seat in range(players):
            if seat == viewer:
                continue
            for game in range(games):
                unknown = unknown_count[seat, viewer, game] * typical[viewer, game]
                estimate = max(unknown, float(floor_sum[seat, viewer, game]))
                estimate += known_paid[seat, viewer, game]
                top[viewer, game] = max(top[viewer, game], estimate)
                lowest[viewer, game] = min(lowest[viewer, game], estimate)
