"""What a chunk of a run gives back, on either engine: the integer sums of
``simulate`` (a :class:`_Tally`), of ``compare`` (a :class:`_Compared`) and of
``compare(..., play="each")`` (a :class:`_PlayedChunk`). The reference engine's chunks
(:mod:`~qe_rules.simulation.stats`, :mod:`~qe_rules.simulation.comparison`) and the
batch's (:mod:`~qe_rules.simulation.batch.tally`, :mod:`~qe_rules.simulation.batch.rescore`)
fill the same ones, so that the runner returns them alike and they add up alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from qe_rules.errors import InvalidArgument
from qe_rules.game.engine import Game
from qe_rules.game.scoring import GameResult, PlayerRecord, score_game
from qe_rules.rules.model import Category, RuleSet
from qe_rules.simulation.rows import GameRow

__all__ = ["CHANGE_CAUSES"]

CHANGE_CAUSES: Final[tuple[str, ...]] = (
    *(category.value for category in Category),
    "elimination",
    "tie-break",
)
"""What a change of winner between two rule sets is put down to: a scoring category
whose points differ (``spending`` is the lowest-spend bonus), a different elimination,
or, when neither differs, the tie-break."""


class _Tally:
    """Integer sums over games; adding them in any order gives the same statistics. The
    reference engine adds its games one by one (:meth:`add`); the batch adds its arrays
    (``batch.tally.add_arrays``)."""

    __slots__ = (
        "gap_codes",
        "gap_games",
        "lowest_spender_wins",
        "no_winner",
        "rows",
        "spend_squares",
        "spend_sums",
        "total_squares",
        "total_sums",
        "unsold",
        "winning_totals",
        "wins",
    )

    def __init__(self, players: int) -> None:
        self.wins = [0] * players
        self.no_winner = 0
        self.gap_games = 0
        self.gap_codes: dict[str, int] = {}
        self.lowest_spender_wins = 0
        self.unsold = 0
        self.winning_totals = 0
        self.total_sums = [0] * players
        self.total_squares = [0] * players
        self.spend_sums = [0] * players
        self.spend_squares = [0] * players
        self.rows: list[GameRow] = []

    def add(self, game: Game) -> None:
        result = game.result()
        sheets = result.sheets
        for seat, sheet in enumerate(sheets):
            total, spent = sheet.total, sheet.spent
            self.total_sums[seat] += total
            self.total_squares[seat] += total * total
            self.spend_sums[seat] += spent
            self.spend_squares[seat] += spent * spent
        winner = result.winner
        if winner is None:
            self.no_winner += 1
        else:
            self.wins[winner] += 1
            winning = sheets[winner]
            self.winning_totals += winning.total
            if winning.spent == min([sheet.spent for sheet in sheets]):
                self.lowest_spender_wins += 1
        gaps = game.gaps
        if gaps:
            self.gap_games += 1
            for code in {gap.code for gap in gaps}:
                self.gap_codes[code] = self.gap_codes.get(code, 0) + 1
        self.unsold += game.sale - sum(map(len, game.holdings))

    def merge(self, other: _Tally) -> None:
        self.no_winner += other.no_winner
        self.gap_games += other.gap_games
        self.lowest_spender_wins += other.lowest_spender_wins
        self.unsold += other.unsold
        self.winning_totals += other.winning_totals
        for code, count in other.gap_codes.items():
            self.gap_codes[code] = self.gap_codes.get(code, 0) + count
        for mine, theirs in (
            (self.wins, other.wins),
            (self.total_sums, other.total_sums),
            (self.total_squares, other.total_squares),
            (self.spend_sums, other.spend_sums),
            (self.spend_squares, other.spend_squares),
        ):
            for seat, value in enumerate(theirs):
                mine[seat] += value
        self.rows += other.rows


class _Compared(NamedTuple):
    """A chunk of a comparison: per game the winners under each rule set; per rule set
    the changed games and their causes; the games changed under any; the first game of
    each rule set and cause (by rule-set number) with its record, or ``None`` for a record
    the caller makes; and the rows when asked for."""

    winners: list[tuple[tuple[int, ...], ...]]
    changes: list[int]
    any_changes: int
    causes: list[dict[str, int]]
    examples: dict[tuple[int, str], tuple[int, dict[str, Any] | None]]
    rows: list[GameRow]


def _rescored(
    rules: RuleSet, first: RuleSet, players: int, records: Sequence[PlayerRecord]
) -> GameResult:
    """``score_game(rules, records)``, its refusal named as a comparison's."""
    try:
        return score_game(rules, records)
    except InvalidArgument as error:
        raise InvalidArgument(
            f"rule set {rules.id!r} cannot score the games of {first.id!r} with "
            f"{players} players: {error}"
        ) from None


class _PlayedChunk(NamedTuple):
    """A chunk of a played comparison, per rule set: the games whose winners changed,
    whose tiles were awarded differently and with an unsold tile; and the rows when
    asked for."""

    winners: list[int]
    awards: list[int]
    unsold: list[int]
    rows: list[GameRow]
