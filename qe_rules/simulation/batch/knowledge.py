"""What each seat knows in the lockstep games, for agents that read the state: its tiles by
industry and nation, its spend, the winning amounts it saw, the sales it saw won for an
amount it does not know, and its zero bids of the round.

A seat knows a sale's winning amount as :func:`qe_rules.game._secrecy.knows_amount`
says (public, its own win, or the sale it ran), and after it peeks at it where the peek
shows the winning amount (under ``peek_shows = "highest-bid"`` a peek after a tie
fallback shows a higher bid, and the amount stays unknown). Kept only when an agent asks for it
(:class:`~qe_rules.simulation.batch.agents.ValueBids`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from qe_rules.simulation.batch.compiled import INDUSTRIES, CompiledRules

__all__ = ["Knowledge"]

Ints = npt.NDArray[np.signedinteger[Any]]
Floats = npt.NDArray[np.float64]


class Knowledge:
    """Per column and game (``(columns, games)`` arrays): what each seat knows."""

    def __init__(self, rules: CompiledRules, games: int) -> None:
        players = rules.players
        self.rules = rules
        self.own = np.zeros((players, games), dtype=np.int64)  # tiles of its nation
        self.industries = np.zeros((players, len(INDUSTRIES), games), dtype=np.int64)
        self.spent = np.zeros((players, games), dtype=np.int64)
        self.seen_sum = np.zeros((players, games), dtype=np.float64)
        self.seen_count = np.zeros((players, games), dtype=np.int64)
        # per viewer and sale: the amount the viewer knows another seat paid, NaN where
        # it does not know it or nobody won
        self.known = np.full((players, rules.sales, games), np.nan)
        # per viewer and sale: the least the winner paid (the opening bid plus one) where
        # the viewer does not know the amount, NaN where it knows it or nobody won
        self.unknown = np.full((players, rules.sales, games), np.nan)
        self.zero_bidders = np.zeros((players, games), dtype=np.int64)  # in this round
        self.sales_done = 0

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
        paid = np.where(sold, amount, 0)
        self.spent += wins * paid
        rows = np.flatnonzero(sold)
        won = winner[rows]
        tile = chunk.deck[rows, sale]
        # one flat index per game sold (the array is contiguous: seats, industries, games)
        kinds, games = self.industries.shape[1:]
        self.industries.reshape(-1)[(won * kinds + rules.tile_industry[tile]) * games + rows] += 1
        nation = np.array(rules.nations)[chunk.nations[rows, won]]
        self.own[won, rows] += rules.tile_nation[tile] == nation
        floor = 0.0 if opening is None else opening + 1.0
        # the winner, and the auctioneer (it writes the amount on the tile), know it, and
        # everyone where it is public
        knows = wins | (seats == auctioneer) & sold | rules.public(winner, auctioneer)
        self.seen_sum += knows * paid
        self.seen_count += knows
        other = sold & ~wins
        self.known[:, sale] = np.where(knows & other, paid, np.nan)
        self.unknown[:, sale] = np.where(~knows & other, floor, np.nan)
        if rules.zero_bids:
            self.zero_bidders += standing == 0
        self.sales_done = sale + 1

    def start_sale(self, sale: int) -> None:
        """A sale opens: a new round forgets the zero bids of the last."""
        round_of = self.rules.round_of
        if sale and round_of[sale] != round_of[sale - 1]:
            self.zero_bidders[:] = 0

    def peeked(self, sale: int, column: int, rows: Ints, amount: Ints, standing: Ints) -> None:
        """``column`` peeked at ``sale`` in ``rows``: it now knows the amount, unless the
        peek shows the highest standing bid (``standing``: the sale's last bids by
        column) and that is not the amount."""
        if self.rules.peek_shows_highest:
            rows = rows[standing[:, rows].max(axis=0) == amount[rows]]
        paid = amount[rows]
        self.seen_sum[column, rows] += paid
        self.seen_count[column, rows] += 1
        self.known[column, sale, rows] = paid
        self.unknown[column, sale, rows] = np.nan

    def typical(self, column: int, rows: Ints) -> Floats:
        """The mean winning amount the seat saw (4 before it saw any)."""
        count = self.seen_count[column, rows]
        mean: Floats = np.where(count > 0, self.seen_sum[column, rows] / np.maximum(count, 1), 4.0)
        return mean

    def others_spent(self, column: int, rows: Ints, typical: Floats, winners: Ints) -> Floats:
        """Every seat's spend as the seat estimates it (``(columns, rows)``; its own exact):
        the finished sales added in order, as the reference agent adds them."""
        players = self.rules.players
        estimate: Floats = np.zeros((players, len(rows)))
        places = np.arange(len(rows))
        known, unknown = self.known[column], self.unknown[column]
        for sale in range(self.sales_done):
            won_by = winners[sale, rows]
            valid = (won_by >= 0) & (won_by != column)
            floor = unknown[sale, rows]
            value = np.where(np.isnan(floor), known[sale, rows], np.maximum(floor, typical))
            estimate[won_by[valid], places[valid]] += value[valid]
        estimate[column] = self.spent[column, rows]
        return estimate
