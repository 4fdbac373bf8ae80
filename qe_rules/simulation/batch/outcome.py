"""``play``: many games in lockstep, and their outcome as a :class:`Batch` of numpy arrays.

>>> from qe_rules.simulation.batch.outcome import play
>>> batch = play("en", 4, 1000, agents="random", seed=1)
>>> batch.totals.shape, int(batch.winners.sum() + (batch.winner < 0).sum()) >= 1000
((1000, 4), True)
>>> import qe_rules as qe
>>> game = qe.replay(batch.record(7))
>>> [sheet.total for sheet in game.result().sheets] == batch.totals[7].tolist()
True

Game ``i`` of a batch is game ``start + i`` of the run with ``seed``: its deal and every
draw come from ``(seed, start + i)`` alone (:mod:`qe_rules.simulation.batch.lockstep`),
so ``record(i)`` plays it again on its own and writes it as an ordinary
:class:`~qe_rules.GameRecord`, which :func:`qe_rules.replay` plays to the same totals and
winners.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from qe_rules.errors import InvalidArgument, shown
from qe_rules.game.records import GameRecord
from qe_rules.limits import MAX_BATCH_GAMES
from qe_rules.rules.model import RuleSet, get_ruleset
from qe_rules.simulation.batch.agents import BatchAgent
from qe_rules.simulation.batch.chunks import (
    CHUNK,
    GAME_ARRAYS,
    SEAT_ARRAYS,
    check_batch_agents,
    check_whole,
    chunk_arrays,
    chunk_record,
    game_record,
    label,
    played_chunks,
)
from qe_rules.simulation.batch.compiled import GAP_ORDER, compile_rules
from qe_rules.simulation.batch.lockstep import Chunk, MoveLog
from qe_rules.simulation.batch.tally import add_arrays
from qe_rules.simulation.play import _check_games, _check_seed
from qe_rules.simulation.stats import GameRange, SimulationStats, _stats_of
from qe_rules.simulation.tallies import _Tally

__all__ = ["Batch", "play"]

Ints = npt.NDArray[np.signedinteger[Any]]
Bools = npt.NDArray[np.bool_]


@attrs.frozen(kw_only=True, eq=False)
class Batch:
    """Games played in lockstep by :func:`play`: numpy arrays, one row per game.

    Per game and seat (``(games, players)``, seats in table order): ``totals``, ``spent``,
    ``eliminated``, ``winners`` (the seats the result names: one, or several or none
    where the rules name no single winner), ``tiles`` (tiles won), and the points of
    each category (``company_points``, ``zero_bids``, ``nationalization``,
    ``monopolization``, ``diversification``, ``lowest_spend_bonus``). Per game:
    ``winner`` (the single winner, -1 for none), ``unsold`` (sales without a buyer),
    ``tie_sales`` (sales with a tie), ``gaps`` (the rule gaps met, bit ``i`` for code
    ``gap_codes[i]``) and ``first_auctioneer``.
    """

    ruleset: RuleSet
    players: int
    agents: tuple[str, ...]
    seed: int
    start: int
    totals: Ints
    spent: Ints
    eliminated: Bools
    winners: Bools
    tiles: Ints
    company_points: Ints
    zero_bids: Ints
    nationalization: Ints
    monopolization: Ints
    diversification: Ints
    lowest_spend_bonus: Ints
    winner: Ints
    unsold: Ints
    tie_sales: Ints
    gaps: Ints
    first_auctioneer: Ints
    gap_codes: tuple[str, ...] = GAP_ORDER
    _players: tuple[BatchAgent, ...] = attrs.field(alias="batch_agents", repr=False)
    _logs: dict[int, tuple[Chunk, MoveLog]] = attrs.field(alias="logs", factory=dict, repr=False)

    @property
    def games(self) -> int:
        """The number of games."""
        return len(self.winner)

    def gap_games(self, code: str) -> int:
        """The games that met the rule gap ``code``."""
        return int(((self.gaps >> self.gap_codes.index(code)) & 1).sum())

    def record(self, game: int) -> GameRecord:
        """Game number ``game`` of the batch as an ordinary record: ``qe.replay`` plays it
        to the same totals and winners."""
        if type(game) is not int or not 0 <= game < self.games:
            raise InvalidArgument(
                f"a game of this batch is a whole number from 0 to {self.games - 1}, "
                f"got {shown(game)}"
            )
        for first, (chunk, log) in self._logs.items():
            if first <= game < first + chunk.games:
                return chunk_record(chunk, log, game - first)
        rules = compile_rules(self.ruleset, self.players)
        return game_record(rules, self._players, self.seed, self.start + game)

    def records(self) -> Iterator[GameRecord]:
        """Every game's record, in order (fast when the batch kept its moves)."""
        for game in range(self.games):
            yield self.record(game)

    def stats(self) -> SimulationStats:
        """The statistics :func:`~qe_rules.simulate` gives, of these games (a
        :class:`~qe_rules.SimulationStats` whose ``engine`` is ``"batch"``)."""
        tally = _Tally(self.players)
        add_arrays(tally, {name: getattr(self, name) for name in _TALLIED})
        games = GameRange(self.seed, self.start, self.start + self.games)
        return _stats_of(tally, self.ruleset.id, self.agents, (games,), False, "batch")


_TALLIED = ("totals", "spent", "winner", "gaps", "unsold")


def play(
    ruleset: RuleSet | str,
    players: int,
    games: int,
    *,
    agents: object = "random",
    seed: int,
    start: int = 0,
    chunk: int = CHUNK,
    keep_moves: bool = False,
    progress: Callable[[int, int], object] | None = None,
) -> Batch:
    """Play games ``start`` to ``start + games`` of the run with ``seed`` in lockstep.

    ``agents`` is a batched agent's name (``random``, ``floor``, ``zero``), a
    :class:`~qe_rules.simulation.batch.agents.BatchAgent`, or a list of one per seat.
    At most ``chunk`` games are played at a time, in chunks of about equal size (it
    changes the speed and the memory, never the games). ``keep_moves`` keeps every move,
    so that :meth:`Batch.record` needs no replay. ``progress`` is called with ``(games
    done, games)`` after each chunk.
    """
    rules = get_ruleset(ruleset) if isinstance(ruleset, RuleSet | str) else None
    if rules is None:
        raise InvalidArgument(f"a rule set is a RuleSet or a rule set id, got {shown(ruleset)}")
    compiled = compile_rules(rules, players)
    made = check_batch_agents(agents, compiled.players)
    games, start = _check_games(games, start)
    if games > MAX_BATCH_GAMES:
        raise InvalidArgument(
            f"games is at most {MAX_BATCH_GAMES} (qe_rules.limits.MAX_BATCH_GAMES: the arrays "
            f"of every game are kept), got {shown(games)}; simulate(..., engine='batch') sums "
            "any number of games"
        )
    seed = _check_seed(seed)
    chunk = check_whole(chunk, "chunk", 1)
    if progress is not None and not callable(progress):
        raise InvalidArgument(
            f"progress is a function of (done, total) or None, got {shown(progress)}"
        )
    # per-seat arrays kept as (seats, games), each seat contiguous, handed out transposed
    shapes = {
        **dict.fromkeys(SEAT_ARRAYS, (compiled.players, games)),
        **dict.fromkeys(GAME_ARRAYS, (games,)),
    }
    arrays: dict[str, Any] = {
        name: np.empty(shape, dtype=bool if name in ("eliminated", "winners") else np.int32)
        for name, shape in shapes.items()
    }
    logs: dict[int, tuple[Chunk, MoveLog]] = {}
    done = 0
    seat_arrays: dict[str, Any] = {}  # each chunk's, copied below before the next
    for played, log in played_chunks(compiled, made, games, seed, start, chunk, keep_moves):
        for name, values in chunk_arrays(played, into=seat_arrays).items():
            if name in SEAT_ARRAYS:
                arrays[name][:, done : done + played.games] = values.T
            else:
                arrays[name][done : done + played.games] = values
        if log is not None:
            logs[done] = (played, log)
        done += played.games
        if progress is not None:
            progress(done, games)
    for name in SEAT_ARRAYS:
        arrays[name] = arrays[name].T
    return Batch(
        ruleset=rules,
        players=compiled.players,
        agents=tuple(label(agent) for agent in made),
        seed=seed,
        start=start,
        batch_agents=made,
        logs=logs,
        **arrays,
    )
