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

from qe_rules.simulation.batch.compiled import CompiledRules

__all__ = ["BITS", "Knowledge", "SaleTiles"]

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
        self._estimate = np.empty((players, players, games))  # spend_estimates' result
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
        self._pieces: tuple[Ints, Ints] | None = None
        self._tiles: SaleTiles | None = None

    def industry_count(self, industry: Ints) -> Ints:
        """Per column and game, the seat's tiles of ``industry`` (an index of
        :data:`INDUSTRIES` per game, or per column and game)."""
        counts: Ints = (self.held >> (BITS * industry)) & ((1 << BITS) - 1)
        return counts

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
        players = rules.players
        # every seat and game at once, (seats, games): unsold games have winner -1
        sold = winner >= 0
        seats = np.arange(players)[:, None]
        wins = seats == winner
        paid = np.where(sold, amount, 0).astype(np.int32)
        self.spent += wins * paid
        # unsold games change nothing below: wins is all False there
        tiles = self.tiles(chunk)
        shift = BITS * tiles.industry[sale]
        new_kind = (self.held >> shift) & ((1 << BITS) - 1) == 0
        self.kinds += wins & new_kind
        self.held += wins * (np.int32(1) << shift)
        self.own += wins & (tiles.nation[sale] == self.pieces(chunk)[0])
        # the winner, and the auctioneer (it writes the amount on the tile), know it, and
        # every seat where it is public (CompiledRules.public: facts.amount_is_public)
        knows = wins | rules.public(winner, auctioneer)
        if auctioneer is not None:
            knows[auctioneer] |= sold
        self.seen_sum += knows * paid
        self.seen_count += knows
        other = sold & ~wins
        seen = knows & other
        unseen = other & ~knows
        self.told[:, sale] = seen
        self.blind[:, sale] = unseen
        floor = self.floors[sale]
        if opening is not None:
            np.add(opening, 1, out=floor, casting="unsafe")
        # each winner's sums as each viewer sees them (dense by winner: several times
        # faster than adding at scattered places)
        for seat in range(players):
            won_here = wins[seat]
            told = seen & won_here
            self.known_paid[seat] += told * paid
            blind = unseen & won_here
            self.floor_sum[seat] += blind * floor
            self.unknown_count[seat] += blind
        self.winners.append(winner)
        if rules.zero_bids:
            self.zero_bidders += standing == 0
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
            deck = np.ascontiguousarray(chunk.deck.T)
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

    def typical(self) -> Floats:
        """Per column and game, the mean winning amount the seat saw (4 before it saw any),
        for the sale in progress (computed once a sale)."""
        mean: Floats | None = self.derived.get(Knowledge.typical)
        if mean is None:
            count = self.seen_count
            mean = self.derived[Knowledge.typical] = np.full(count.shape, 4.0)
            np.divide(self.seen_sum, count, out=mean, where=count > 0)
        return mean

    def spend_estimates(self) -> Floats:
        """Per seat, viewer and game (``(columns, columns, games)``), for the sale in
        progress: the seat's spend as the viewer estimates it, as
        :class:`~qe_rules.ValueAgent` does: what it knows the seat paid, plus the larger of
        the typical price (:meth:`typical`) times the tiles whose amount it does not know
        and their floors' sum; the viewer's own spend is ``-inf`` (it is not another's).
        Computed once a sale, for every agent."""
        if Knowledge.spend_estimates not in self.derived:
            estimate = self._estimate  # kept between sales: a new one a sale costs more
            np.multiply(self.unknown_count, self.typical(), out=estimate)
            np.maximum(estimate, self.floor_sum, out=estimate)
            estimate += self.known_paid
            seats = np.arange(self.rules.players)
            estimate[seats, seats] = -np.inf
            self.derived[Knowledge.spend_estimates] = estimate
        found: Floats = self.derived[Knowledge.spend_estimates]
        return found

    def top_other_spend(self) -> Floats:
        """Per column and game, the highest spend of another seat as the seat estimates it
        (:meth:`spend_estimates`), for the sale in progress."""
        found: Floats | None = self.derived.get(Knowledge.top_other_spend)
        if found is None:
            found = self.derived[Knowledge.top_other_spend] = self.spend_estimates().max(axis=0)
        return found

    def lowest_other_spend(self) -> Floats:
        """Per column and game, the lowest spend of another seat as the seat estimates it
        (:meth:`spend_estimates`), for the sale in progress."""
        estimate = self.spend_estimates()
        seats = np.arange(self.rules.players)
        estimate[seats, seats] = np.inf  # the own spend left out here, then put back
        lowest: Floats = estimate.min(axis=0)
        estimate[seats, seats] = -np.inf
        return lowest
