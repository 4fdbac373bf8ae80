"""The batch's games summed up as ``simulate`` and ``compare`` sum up theirs: the fields of
a :class:`~qe_rules.SimulationStats` and of a :class:`~qe_rules.PlayedComparison`, which
those modules make (this one imports neither, so that they can call it).

>>> from qe_rules import get_ruleset
>>> from qe_rules.simulation.batch.tally import simulate_fields
>>> fields = simulate_fields(get_ruleset("en"), 4, ("random",) * 4, 500, 3, 0, None)
>>> fields["engine"], sum(fields["wins"]) + fields["no_winner_games"]
('batch', 500)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from qe_rules._util.frozen import FrozenDict
from qe_rules.components import COMPANIES
from qe_rules.rules.model import RuleSet
from qe_rules.simulation.batch.chunks import (
    CHUNK,
    check_batch_agents,
    chunk_arrays,
    played_chunks,
)
from qe_rules.simulation.batch.compiled import GAP_ORDER, compile_rules
from qe_rules.simulation.batch.lockstep import Chunk, Draws, play_chunk

__all__ = ["Sums", "compare_each_counts", "simulate_fields"]

Arrays = Mapping[str, npt.NDArray[Any]]
Progress = Callable[[int, int], object] | None


class Sums:
    """Whole-number sums over games, as ``SimulationStats`` keeps them."""

    def __init__(self, players: int) -> None:
        self.wins = [0] * players
        self.no_winner = 0
        self.gap_games = 0
        self.gap_codes = dict.fromkeys(GAP_ORDER, 0)
        self.lowest_spender_wins = 0
        self.unsold = 0
        self.winning_totals = 0
        self.total_sums = [0] * players
        self.total_squares = [0] * players
        self.spend_sums = [0] * players
        self.spend_squares = [0] * players

    def add(self, arrays: Arrays) -> None:
        """Add games: ``totals``, ``spent`` by seat, ``winner``, ``gaps``, ``unsold``."""
        totals = arrays["totals"].astype(np.int64)
        spent = arrays["spent"].astype(np.int64)
        winner = arrays["winner"]
        won = winner >= 0
        for seat in range(len(self.wins)):
            self.wins[seat] += int((winner == seat).sum())
            self.total_sums[seat] += int(totals[:, seat].sum())
            self.total_squares[seat] += int((totals[:, seat] ** 2).sum())
            self.spend_sums[seat] += int(spent[:, seat].sum())
            self.spend_squares[seat] += int((spent[:, seat] ** 2).sum())
        self.no_winner += int((~won).sum())
        rows = np.flatnonzero(won)
        winning_spent = spent[rows, winner[rows]]
        self.lowest_spender_wins += int((winning_spent == spent[rows].min(axis=1)).sum())
        self.winning_totals += int(totals[rows, winner[rows]].sum())
        gaps = arrays["gaps"]
        self.gap_games += int((gaps != 0).sum())
        for bit, code in enumerate(GAP_ORDER):
            self.gap_codes[code] += int((gaps >> bit & 1).sum())
        self.unsold += int(arrays["unsold"].sum())

    def fields(
        self, rules: RuleSet, players: int, agents: Sequence[str], games: NamedTuple
    ) -> dict[str, Any]:
        """The fields of the ``SimulationStats`` of the games added (``games``: their
        ``GameRange``)."""
        return {
            "ruleset": rules.id,
            "players": players,
            "agents": tuple(agents),
            "batches": (games,),
            "wins": tuple(self.wins),
            "no_winner_games": self.no_winner,
            "gap_games": self.gap_games,
            "gap_codes": FrozenDict(sorted((c, n) for c, n in self.gap_codes.items() if n)),
            "lowest_spender_wins": self.lowest_spender_wins,
            "unsold_sales": self.unsold,
            "winning_totals": self.winning_totals,
            "total_sums": tuple(self.total_sums),
            "total_squares": tuple(self.total_squares),
            "spend_sums": tuple(self.spend_sums),
            "spend_squares": tuple(self.spend_squares),
            "engine": "batch",
        }


class _Games(NamedTuple):
    seed: int
    start: int
    stop: int


def simulate_fields(
    rules: RuleSet,
    players: int,
    specs: Sequence[str],
    games: int,
    seed: int,
    start: int,
    progress: Progress,
    chunk: int = CHUNK,
) -> dict[str, Any]:
    """``simulate`` on the batch: the fields of its statistics, the chunks summed up as
    they are played (the ``batches`` field holds a plain ``(seed, start, stop)``)."""
    compiled = compile_rules(rules, players)
    agents = check_batch_agents(list(specs), players)
    sums = Sums(players)
    done = 0
    if progress is not None:
        progress(0, games)
    for played, _ in played_chunks(compiled, agents, games, seed, start, chunk):
        sums.add(chunk_arrays(played, ("spent",)))
        done += played.games
        if progress is not None:
            progress(done, games)
    return sums.fields(rules, players, specs, _Games(seed, start, start + games))


def _owners(chunk: Chunk) -> npt.NDArray[np.int64]:
    """Per game, the seat (in table order) holding each company of the library, -1 for
    none: tiles compared between rule sets by what they are, not by their place in a deck."""
    rules = chunk.rules
    index = np.array([COMPANIES.index(c) for c in rules.ruleset.companies(rules.players)])
    owners = np.full((chunk.games, len(COMPANIES)), -1, dtype=np.int64)
    held = chunk.winners.T  # (games, sales), by column
    seats = np.where(held >= 0, (held + chunk.first[:, None]) % rules.players, -1)
    owners[np.arange(chunk.games)[:, None], index[chunk.deck]] = seats
    return owners


def compare_each_counts(
    rulesets: Sequence[RuleSet],
    players: int,
    specs: Sequence[str],
    games: int,
    seed: int,
    start: int,
    progress: Progress,
    chunk: int = CHUNK,
) -> tuple[list[int], list[int], list[int]]:
    """``compare(..., play="each")`` on the batch: each chunk of games played under each
    rule set from the same draws (common random numbers), so that a game differs between
    rule sets only where the rules make it differ. Per rule set: the games whose winners
    changed, whose tiles went to other seats, and with an unsold sale."""
    compiled = [compile_rules(rules, players) for rules in rulesets]
    agents = check_batch_agents(list(specs), players)
    count = len(compiled)
    changed, awarded, unsold = [0] * count, [0] * count, [0] * count
    done = 0
    if progress is not None:
        progress(0, games)
    for first in range(start, start + games, chunk):
        size = min(chunk, start + games - first)
        base_winners = base_owners = None
        for number, rules in enumerate(compiled):
            played = play_chunk(rules, Draws(seed, first, size, players, rules.sales), agents)
            arrays = chunk_arrays(played, ("winners",))
            owners = _owners(played)
            winners = arrays["winners"]
            if base_winners is None or base_owners is None:
                base_winners, base_owners = winners, owners
            changed[number] += int((winners != base_winners).any(axis=1).sum())
            awarded[number] += int((owners != base_owners).any(axis=1).sum())
            unsold[number] += int((arrays["unsold"] > 0).sum())
        done += size
        if progress is not None:
            progress(done, games)
    return changed, awarded, unsold
