"""A sale's bids compared and its ties settled, in the lockstep games: compiled loops.

:meth:`Chunk.sale_steps <qe_rules.simulation.batch.lockstep.Chunk.sale_steps>` asks the
agents for the bids and calls these between the questions: :func:`first_round` compares
the first round's bids; the tied games' bids are :func:`gathered`, and each rebid round
runs :func:`round_start` (the ties in a row, the games :func:`fallback` decides, who
rebids), then the agents' rebids (:func:`rebidders` names them, :func:`answered` puts
them in), then :func:`round_end` (the standing bids compared again, by :func:`highest` as
in the first round); the settled games are written back (:func:`settled`). They are the batch's statement
of :func:`qe_rules.game.sales.settle` (with :mod:`qe_rules.game.facts`): the tests play
each game on both engines and compare them.

The tied seats of a game are a bit code: seat (column) ``c`` is bit ``c``. A rebid round
works on ``pending``, the positions among a sale's tied games of those still tied, and
compacts it in place as games leave it.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from qe_rules.simulation.batch.compiled import (
    FALLBACK_OUTSIDE,
    FALLBACK_UNTIED,
    GAP_FALLBACK_TIED,
    GAP_NO_UNIQUE,
    GAP_NO_UNTIED,
)
from qe_rules.simulation.batch.loops import compiled_loop, compiled_step

__all__ = [
    "NEVER",
    "answered",
    "fallback",
    "first_round",
    "gathered",
    "highest",
    "rebidders",
    "round_end",
    "round_start",
    "settled",
]

Ints = npt.NDArray[np.signedinteger[Any]]

NEVER: Final = 1 << 30
"""A number of ties in a row no sale reaches: no fallback."""


@compiled_step
def highest(bids: Ints, game: int) -> tuple[int, int, int]:
    """Game ``game``'s highest bid in ``bids`` (``(columns, games)``), the seats that bid
    it (a bit code) and the first of them. Without branches: which seats bid the highest
    amount is unpredictable, and a mispredicted branch costs more than the comparisons."""
    players = bids.shape[0]
    top = bids[0, game]
    for column in range(1, players):
        top = max(top, bids[column, game])
    seats = 0
    first = 0
    for column in range(players - 1, -1, -1):
        equal = bids[column, game] == top
        seats |= int(equal) << column
        first = column if equal else first
    return int(top), seats, first


@compiled_loop
def first_round(
    bids: Ints, winner: Ints, amount: Ints, code: Ints, tied: Ints, tie_sales: Ints
) -> int:
    """Per game (a column of ``bids``, ``(columns, games)``): the highest first-round bid
    into ``amount``, the seats that bid it into ``code``, the first of them into
    ``winner``; the games where several bid it into ``tied`` (in order), each a tied sale
    more in ``tie_sales``. Returns how many games are tied."""
    count = 0
    for game in range(bids.shape[1]):
        top, seats, first = highest(bids, game)
        amount[game] = top
        code[game] = seats
        winner[game] = first
        tied[count] = game
        several = seats & (seats - 1) != 0
        tie_sales[game] += several
        count += several
    return count


@compiled_loop
def gathered(bids: Ints, tied: Ints) -> Ints:
    """The bids of the tied games: ``(columns, tied games)``, a new array."""
    found = np.empty((bids.shape[0], len(tied)), dtype=bids.dtype)
    for column in range(bids.shape[0]):
        for position in range(len(tied)):
            found[column, position] = bids[column, tied[position]]
    return found


@compiled_loop
def answered(standing: Ints, column: int, where: Ints, new: Ints) -> None:
    """``column``'s rebids ``new`` stand in the tied games at positions ``where``."""
    for entry in range(len(where)):
        standing[column, where[entry]] = new[entry]


@compiled_loop
def settled(
    tied: Ints, standing: Ints, won: Ints, paid: Ints, bids: Ints, winner: Ints, amount: Ints
) -> None:
    """The tied games settled: their standing bids, winners and amounts written back to
    the sale's ``bids``, ``winner`` and ``amount`` (by game)."""
    for position in range(len(tied)):
        game = tied[position]
        for column in range(bids.shape[0]):
            bids[column, game] = standing[column, position]
        winner[game] = won[position]
        amount[game] = paid[position]


@compiled_loop
def round_start(
    pending: Ints, code: Ints, count: int, ties: Ints, previous: Ints, seen: Ints,
    same_players: bool, fallback_after: int, all_seats: int, auctioneer_stands: int,
    seats: Ints, decided: Ints,
) -> tuple[int, int]:  # fmt: skip
    """A rebid round opens in the first ``count`` games of ``pending`` (``code``: their tied
    seats): each game's ties in a row (``ties``; with ``same_players``, a tie of other
    seats than last round's rebidders, ``previous``, starts again at one); the games
    whose streak reaches ``fallback_after`` go to ``decided``; the others stay in
    ``pending`` (compacted, with their ``code``), with their rebidders in ``seats``,
    ``previous`` and ``seen``: every seat (``all_seats``, a code; 0 for the tied ones),
    without the auctioneer where it is tied and stands (``auctioneer_stands``: its column,
    or -1). Returns how many games stay and how many are decided."""
    kept = 0
    found = 0
    for place in range(count):
        game = pending[place]
        tied_seats = code[place]
        tie = ties[game] + 1
        if same_players and ties[game] > 0 and previous[game] != tied_seats:
            tie = 1
        ties[game] = tie
        if tie >= fallback_after:
            decided[found] = game
            found += 1
            continue
        rebid = all_seats if all_seats else tied_seats
        if auctioneer_stands >= 0 and tied_seats >> auctioneer_stands & 1:
            rebid &= ~(1 << auctioneer_stands)
        previous[game] = rebid
        seen[game] |= rebid
        pending[kept] = game
        code[kept] = tied_seats
        seats[kept] = rebid
        kept += 1
    return kept, found


@compiled_loop
def fallback(
    decided: Ints, count: int, pool: Ints, kind: int, players: int, auctioneer: int,
    standing: Ints, won: Ints, paid: Ints, lost: Ints,
) -> None:  # fmt: skip
    """The tie fallback in the first ``count`` games of ``decided`` (positions among the
    tied games), of the ``kind`` a ``CompiledRules.fallback`` names, over ``pool``
    (``(rows, tied games)``: the standing bids, or every round's bids with -1 where a seat
    did not bid; row ``r`` is column ``r % players``). Where it finds a bid, its seat
    wins for it (``won``, ``paid``); elsewhere the ``auctioneer`` (a column; -1: none)
    wins for its standing bid, or the game's gap bits go to ``lost`` (0 where it
    sold)."""
    rows = pool.shape[0]
    for place in range(count):
        game = decided[place]
        best = -1
        row = -1
        if kind == FALLBACK_OUTSIDE:
            # the highest standing bid below the tied top amount, if no other names it
            top = pool[0, game]
            for other in range(1, rows):
                top = max(top, pool[other, game])
            alike = 0
            for other in range(rows):
                bid = pool[other, game]
                if bid < top and bid > best:
                    best, row, alike = bid, other, 1
                elif bid < top and bid == best:
                    alike += 1
            gap = GAP_FALLBACK_TIED if best >= 0 else GAP_NO_UNTIED
            if alike != 1:
                best = -1
        else:
            # the highest bid no other bid of the pool equals
            for other in range(rows):
                bid = pool[other, game]
                if bid < 0 or bid <= best:
                    continue
                unique = True
                for third in range(rows):
                    if third != other and pool[third, game] == bid:
                        unique = False
                        break
                if unique:
                    best, row = bid, other
            gap = GAP_NO_UNTIED if kind == FALLBACK_UNTIED else GAP_NO_UNIQUE
        lost[place] = 0
        if best >= 0:
            won[game] = row % players
            paid[game] = best
        elif auctioneer >= 0:
            won[game] = auctioneer
            paid[game] = standing[auctioneer, game]
        else:
            lost[place] = gap


@compiled_loop
def rebidders(
    pending: Ints, seats: Ints, count: int, tied: Ints, made: Ints, standing: Ints
) -> tuple[Ints, Ints, Ints, Ints, Ints, Ints]:
    """Who rebids in the first ``count`` games of ``pending`` (a bit per column in
    ``seats``), column after column: where each column's entries start (and where the
    last ends), then per entry its column, its game's position among the tied games, the
    game (``tied`` there), the bids the column made in the sale (from ``made``: a byte
    per column) and its standing bid. Each a new array."""
    players = standing.shape[0]
    starts = np.zeros(players + 1, dtype=np.int64)
    size = 0
    for place in range(count):
        for column in range(players):
            size += seats[place] >> column & 1
    # one entry more: each game is written at ``found``, kept where the column rebids
    columns = np.empty(size + 1, dtype=np.int64)
    where = np.empty(size + 1, dtype=np.int64)
    games = np.empty(size + 1, dtype=np.int64)
    numbers = np.empty(size + 1, dtype=np.int64)
    previous = np.empty(size + 1, dtype=np.int64)
    found = 0
    for column in range(players):
        starts[column] = found
        shift = 8 * column
        for place in range(count):  # without branches, as in first_round
            position = pending[place]
            columns[found] = column
            where[found] = position
            games[found] = tied[position]
            numbers[found] = made[position] >> shift & 255
            previous[found] = standing[column, position]
            found += seats[place] >> column & 1
    starts[players] = found
    return starts, columns[:size], where[:size], games[:size], numbers[:size], previous[:size]


@compiled_loop
def round_end(
    pending: Ints, code: Ints, seats: Ints, count: int, standing: Ints, made: Ints,
    won: Ints, paid: Ints,
) -> int:  # fmt: skip
    """A rebid round closes in the first ``count`` games of ``pending``: each rebidder
    (``seats``) made one bid more (``made``, a byte per column); the standing bids are
    compared again, a single highest bid wins (``won``, ``paid``), and the games tied again
    stay in ``pending`` (compacted) with their tied seats in ``code``. Returns how many
    stay."""
    players = standing.shape[0]
    kept = 0
    for place in range(count):  # without branches, as in first_round
        game = pending[place]
        rebid = seats[place]
        for column in range(players):
            made[game] += (rebid >> column & 1) << 8 * column
        top, tied_seats, first = highest(standing, game)
        several = tied_seats & (tied_seats - 1) != 0
        pending[kept] = game
        code[kept] = tied_seats
        kept += several
        won[game] = won[game] if several else first
        paid[game] = paid[game] if several else top
    return kept
