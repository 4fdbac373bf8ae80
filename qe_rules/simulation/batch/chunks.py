"""The chunks of a batched run: played one after another, their outcome as arrays by seat
in table order, and a game of a chunk as a record.

Its names serve :mod:`~qe_rules.simulation.batch.outcome` and
:mod:`~qe_rules.simulation.batch.tally`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from qe_rules._util.frozen import FrozenDict
from qe_rules.errors import InvalidArgument, shown
from qe_rules.game.records import GameRecord, Move
from qe_rules.game.scoring import PlayerRecord
from qe_rules.simulation.batch.agents import BatchAgent, batch_agent
from qe_rules.simulation.batch.buffers import kept
from qe_rules.simulation.batch.compiled import INDUSTRIES, NATIONS, CompiledRules
from qe_rules.simulation.batch.lockstep import SCORED_BY_SEAT, Chunk, Draws, MoveLog, play_chunk

__all__ = [
    "CHUNK",
    "GAME_ARRAYS",
    "SEAT_ARRAYS",
    "check_batch_agents",
    "check_whole",
    "chunk_arrays",
    "chunk_record",
    "game_record",
    "label",
    "played_chunks",
    "player_records",
    "seat_nations",
]

CHUNK: Final = 6144
"""The most games per chunk by default (a speed setting: the games are the same for any
chunk; 6,144 was as fast as the best size for each of the random, value and trained
agents)."""

Ints = npt.NDArray[np.signedinteger[Any]]
Bools = npt.NDArray[np.bool_]

# the per-seat arrays of a Batch, in the order they are filled: the scoring's, its
# ``total`` named ``totals``
SEAT_ARRAYS: Final = tuple("totals" if name == "total" else name for name in SCORED_BY_SEAT)
GAME_ARRAYS: Final = ("winner", "unsold", "tie_sales", "gaps", "first_auctioneer")
_FROM_CHUNK: Final = dict(zip(SEAT_ARRAYS, SCORED_BY_SEAT, strict=True))


def check_batch_agents(agents: object, players: int) -> tuple[BatchAgent, ...]:
    """One batched agent per seat from a name, an agent, or a list of one per seat."""
    if isinstance(agents, str) or not isinstance(agents, Sequence):
        specs: tuple[object, ...] = (agents,) * players
    else:
        specs = tuple(agents)
        if len(specs) != players:
            raise InvalidArgument(
                f"agents: give one per seat ({players}) or one for every seat, got {len(specs)}"
            )
    made: dict[object, BatchAgent] = {}  # one agent per name, or per agent given
    keys = [spec if isinstance(spec, str) else id(spec) for spec in specs]
    for key, spec in zip(keys, specs, strict=True):
        if key not in made:
            made[key] = batch_agent(spec)
    return tuple(made[key] for key in keys)


def label(agent: BatchAgent) -> str:
    return str(getattr(agent, "name", type(agent).__name__))


def chunk_arrays(
    chunk: Chunk,
    names: Sequence[str] = SEAT_ARRAYS,
    scored: Mapping[str, Ints] | None = None,
    into: dict[str, Any] | None = None,
) -> dict[str, npt.NDArray[Any]]:
    """A played chunk's outcome: per game and seat (in table order) the arrays ``names``
    (``totals`` always), and per game the arrays of ``GAME_ARRAYS``; from ``scored`` (its
    holdings scored by column) where given, else from ``chunk.score()``. ``into``: a store
    of arrays to write the seats' arrays in (:func:`~qe_rules.simulation.batch.buffers.kept`;
    for a caller that reads each chunk's arrays before the next)."""
    if scored is None:
        scored = chunk.score()
    players, games = chunk.players, chunk.games
    store: dict[str, Any] = {} if into is None else into

    def array(name: str, dtype: Any) -> Any:
        return kept(store, name, (players, games), dtype)

    # each seat's column in each game, as a flat index into a (columns, games) array
    flat = array("flat", np.int64)
    np.subtract(np.arange(players)[:, None], chunk.first, out=flat)
    flat %= players
    flat *= games
    flat += np.arange(games)
    arrays = {}
    for name in dict.fromkeys(("totals", *names)):
        values = scored[_FROM_CHUNK[name]].ravel()
        # mode="clip": no check of the indices (all in range), so no buffer for ``out``
        arrays[name] = np.take(values, flat, out=array(name, values.dtype), mode="clip").T
    winners = scored["winners"]
    single = winners.sum(axis=0) == 1
    first_winner = winners.argmax(axis=0)
    arrays["winner"] = np.where(single, (first_winner + chunk.first) % players, -1)
    arrays["unsold"] = scored["unsold"]
    arrays["tie_sales"] = chunk.tie_sales
    arrays["gaps"] = scored["gaps"]
    arrays["first_auctioneer"] = chunk.first
    return arrays


def seat_nations(chunk: Chunk) -> list[list[str]]:
    """Per game, each seat's nation (its code), in table order."""
    rules, players = chunk.rules, chunk.players
    codes = np.array([NATIONS[index].code for index in rules.nations], dtype=object)
    seats = np.arange(players)[None, :]
    column = (seats - chunk.first[:, None]) % players
    dealt: list[list[str]] = codes[np.take_along_axis(chunk.nations, column, axis=1)].tolist()
    return dealt


def player_records(chunk: Chunk, row: int) -> tuple[PlayerRecord, ...]:
    """Game ``row`` of a played chunk as each seat's scoring input, as
    ``Game.player_records()`` gives it: nation, token, tiles in the order won, spend and
    zero-bid rounds."""
    rules, players = chunk.rules, chunk.players
    first = int(chunk.first[row])
    companies = rules.ruleset.companies(players)
    records = []
    for seat in range(players):
        column = (seat - first) % players
        sales = np.flatnonzero(chunk.winners[:, row] == column)
        records.append(
            PlayerRecord(
                NATIONS[rules.nations[chunk.nations[row, column]]],
                INDUSTRIES[rules.industries[chunk.tokens[row, column]]],
                tuple(companies[chunk.deck[row, sale]] for sale in sales),
                int(chunk.amounts[sales, row].sum()),
                int(chunk.zero_counts[column, row]),
            )
        )
    return tuple(records)


def game_record(
    rules: CompiledRules, agents: Sequence[BatchAgent], seed: int, game: int
) -> GameRecord:
    """Game ``game`` of the run with ``seed``, played again on its own, as a record."""
    log = MoveLog()
    played = play_chunk(rules, Draws(seed, game, 1, rules.players, rules.sales), agents, log)
    return chunk_record(played, log, 0)


def check_whole(value: object, what: str, least: int) -> int:
    if type(value) is not int or value < least:
        raise InvalidArgument(f"{what} is a whole number >= {least}, got {shown(value)}")
    return value


def played_chunks(
    rules: CompiledRules,
    agents: Sequence[BatchAgent],
    games: int,
    seed: int,
    start: int,
    chunk: int,
    log: bool = False,
) -> Iterator[tuple[Chunk, MoveLog | None]]:
    """The chunks of games ``start`` to ``start + games``, each played. A chunk is read
    before the next is asked for: without ``log`` (whose records read the chunks later),
    the next plays in its arrays."""
    spare = None
    # as few chunks of at most ``chunk`` games as hold them, of about equal size: each
    # plays in the arrays of the one before, and no small last chunk pays a whole chunk's
    # Python overhead
    step = -(-games // -(-games // chunk)) if games else chunk
    for first in range(start, start + games, step):
        size = min(step, start + games - first)
        draws = Draws(seed, first, size, rules.players, rules.sales)
        moves = MoveLog() if log else None
        played = play_chunk(rules, draws, agents, moves, spare)
        yield played, moves
        spare = None if log else played


def _window_moves(
    window: Ints | None,
    peeked: Ints | None,
    row: int,
    first: int,
    players: int,
    targets: Ints | None = None,
) -> list[Move]:
    """Game ``row``'s answers in a peek window; a peek names the sale it looks at where
    the window offers several (``targets``: by column, under ``any-earlier-sale``)."""
    if window is None or peeked is None:
        return []
    moves = []
    for column in range(players):
        if not int(window[row]) >> column & 1:
            continue
        seat = (first + column) % players
        if int(peeked[row]) >> column & 1:
            sale = None if targets is None else int(targets[column, row])
            moves.append(Move("peek", seat, sale=sale))
        else:
            moves.append(Move("decline-peek", seat))
    return _by_seat(moves)


def _by_seat(moves: Iterable[Move]) -> list[Move]:
    """The moves of one bidding round or peek window in seat order, as the reference
    engine plays them."""
    return sorted(moves, key=lambda move: move.seat)


def chunk_record(chunk: Chunk, log: MoveLog, row: int) -> GameRecord:
    """Game ``row`` of a played chunk whose moves were logged, as a record."""
    rules = chunk.rules
    players = chunk.players
    first = int(chunk.first[row])

    def seat(column: int) -> int:
        return (first + column) % players

    companies = rules.ruleset.companies(players)
    deck = tuple(companies[index] for index in chunk.deck[row])
    nations = [NATIONS[rules.nations[index]] for index in chunk.nations[row]]
    tokens = [INDUSTRIES[rules.industries[index]] for index in chunk.tokens[row]]
    table_nations = tuple(nations[(s - first) % players] for s in range(players))
    table_tokens = tuple(tokens[(s - first) % players] for s in range(players))
    moves: list[Move] = []
    for sale in range(rules.sales):
        last = rules.last_tile and sale == rules.sales - 1
        bids = log.first[sale][:, row]
        auctioneer = None if last else sale % players
        if log.before_windows:
            moves.extend(
                _window_moves(
                    log.before_windows[sale], log.before_peeked[sale], row, first, players
                )
            )
        if auctioneer is not None:
            moves.append(Move("bid", seat(auctioneer), int(bids[auctioneer])))
        moves.extend(
            _by_seat(
                Move("bid", seat(column), int(bids[column]))
                for column in range(players)
                if column != auctioneer
            )
        )
        for rows, seats, placed in log.rebids[sale]:
            where = int(np.searchsorted(rows, row))
            if where < len(rows) and rows[where] == row:
                code = int(seats[where])
                moves.extend(
                    _by_seat(
                        Move("bid", seat(column), int(placed[column, where]))
                        for column in range(players)
                        if code >> column & 1
                    )
                )
        moves.extend(
            _window_moves(
                log.windows[sale], log.peeked[sale], row, first, players, log.targets.get(sale)
            )
        )
    return GameRecord(
        ruleset=rules.ruleset,
        players=players,
        deck=deck,
        nations=table_nations,
        industries=table_tokens,
        first_auctioneer=first,
        moves=tuple(moves),
        metadata=FrozenDict(),
    )
