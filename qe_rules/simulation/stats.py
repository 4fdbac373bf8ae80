"""Statistics of a run: :func:`simulate` plays games between agents and sums them up in a
:class:`SimulationStats`, whose runs of other games merge exactly.

>>> import qe_rules as qe
>>> from qe_rules.simulation.stats import simulate
>>> stats = simulate("en", 4, ["value", "random", "random", "zero"], 20, seed=1)
>>> stats.games, sum(stats.wins) + stats.no_winner_games
(20, 20)

Each game's setup (deck, nations, tokens, first auctioneer) and its agents' seeds come
from ``(seed, game number)`` alone, so the same seed gives the same numbers whatever the
number of worker processes or the executor that runs them. The seating is as given: seat 0
is ``agents[0]``. Statistics are sums of whole numbers: runs of other games (other seeds,
or other game numbers of the same seed, with ``start``) merge exactly.
"""

from __future__ import annotations

import collections
import concurrent.futures
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, NamedTuple

import attrs

from qe_rules._util.deprecation import renamed
from qe_rules._util.frozen import FrozenDict
from qe_rules._util.reading import Fields, agree, per_seat, text, whole
from qe_rules.components import COMPANIES
from qe_rules.errors import InvalidArgument, shown
from qe_rules.game._tables import most_points
from qe_rules.game.scoring import SCORING_GAPS
from qe_rules.limits import MAX_BID
from qe_rules.rules.model import RuleSet
from qe_rules.simulation._documents import (
    agents_of,
    at_most_each,
    batches_of,
    check_figures,
    check_sums,
    counts_of,
    given_rulesets,
    grouped_rows,
    players_of,
    rows_of,
    rules_of,
)
from qe_rules.simulation._text import interval_text, labelled, percent, share_text
from qe_rules.simulation.agents import agent_label
from qe_rules.simulation.batch.choice import uses_batch
from qe_rules.simulation.intervals import Share
from qe_rules.simulation.play import (
    AgentSpec,
    Progress,
    _check_agents,
    _check_executor,
    _check_games,
    _check_int,
    _check_progress,
    _check_rows,
    _check_rules,
    _check_seed,
    _factories,
    _play,
)
from qe_rules.simulation.rows import GameRow, _merged_rows, _rows_of, write_rows
from qe_rules.simulation.runner import _local, _Run, _run, _Task
from qe_rules.simulation.tallies import _Tally
from qe_rules.texts.reports import table

__all__ = ["GameRange", "SimulationStats", "format_stats", "simulate"]


# --------------------------------------------------------------------------- game ranges


class GameRange(NamedTuple):
    """Games ``start`` to ``stop`` (not included) of a run with ``seed``: the games a
    statistics object sums up are some of these (its ``batches``). Formerly ``Batch``, a
    name that :class:`qe_rules.batch.Batch`, the arrays of games the batch played, keeps."""

    seed: int
    start: int
    stop: int


def _coalesce(batches: Iterable[GameRange]) -> tuple[GameRange, ...]:
    """Batches in order, joined where one ends where the next begins; overlaps raise."""
    joined: list[GameRange] = []
    for batch in sorted(batches):
        if joined and joined[-1].seed == batch.seed and batch.start < joined[-1].stop:
            raise InvalidArgument(
                f"games {batch.start} to {joined[-1].stop - 1} of seed {batch.seed} are in "
                "both runs; merge runs of different games (another seed, or another start)"
            )
        if joined and joined[-1].seed == batch.seed and batch.start == joined[-1].stop:
            joined[-1] = joined[-1]._replace(stop=batch.stop)
        else:
            joined.append(batch)
    return tuple(joined)


def _batches_text(batches: Sequence[GameRange]) -> str:
    return ", ".join(
        f"seed {b.seed}"
        if b.start == 0 and len(batches) == 1
        else f"seed {b.seed} games {b.start}-{b.stop - 1}"
        for b in batches
    )


def _check_same(what: str, mine: object, theirs: object) -> None:
    if mine != theirs:
        raise InvalidArgument(f"only runs with the same {what} merge: {mine!r} and {theirs!r}")


def _batches_from(data: dict[str, Any]) -> tuple[GameRange, ...]:
    if "batches" in data:
        return tuple(GameRange(*batch) for batch in data["batches"])
    return (GameRange(data["seed"], 0, data["games"]),)


def _add(mine: Sequence[int], theirs: Sequence[int]) -> tuple[int, ...]:
    return tuple(a + b for a, b in zip(mine, theirs, strict=True))


def _add_counts(
    mine: Mapping[str, int], theirs: Mapping[str, int], order: Sequence[str] | None = None
) -> FrozenDict[str, int]:
    counts = dict(mine)
    for key, count in theirs.items():
        counts[key] = counts.get(key, 0) + count
    keys = sorted(counts) if order is None else [key for key in order if key in counts]
    return FrozenDict((key, counts[key]) for key in keys)


class _Batched:
    """The games of statistics: ``batches`` of game numbers per seed."""

    __slots__ = ()
    batches: tuple[GameRange, ...]

    @property
    def games(self) -> int:
        """The number of games."""
        return sum(batch.stop - batch.start for batch in self.batches)

    @property
    def seed(self) -> int:
        """The seed of the (first) run."""
        return self.batches[0].seed


def _stats_of(
    tally: _Tally,
    ruleset: str,
    agents: Sequence[str],
    batches: tuple[GameRange, ...],
    rows: bool,
    engine: str,
) -> SimulationStats:
    """The statistics of the games a tally added."""
    return SimulationStats(
        ruleset=ruleset,
        players=len(tally.wins),
        agents=tuple(agents),
        batches=batches,
        wins=tuple(tally.wins),
        no_winner_games=tally.no_winner,
        gap_games=tally.gap_games,
        gap_codes=FrozenDict(sorted(tally.gap_codes.items())),
        lowest_spender_wins=tally.lowest_spender_wins,
        unsold_sales=tally.unsold,
        winning_totals=tally.winning_totals,
        total_sums=tuple(tally.total_sums),
        total_squares=tuple(tally.total_squares),
        spend_sums=tuple(tally.spend_sums),
        spend_squares=tuple(tally.spend_squares),
        rows=tuple(tally.rows) if rows else None,
        engine=engine,
    )


def _simulate_chunk(task: _Task) -> _Tally:
    rules = _local(task.rulesets[0])
    factories = _factories(task.specs, rules)
    tally = _Tally(task.players)
    labels = [agent_label(spec) for spec in task.specs] if task.rows else []
    for index in range(task.start, task.stop):
        game = _play(rules, task.players, factories, task.seed, index)
        tally.add(game)
        if task.rows:
            tally.rows += _rows_of(task.seed, index, game.result(), game, labels)
    return tally


def _mean(total: int, count: int) -> float:
    return total / count if count else 0.0


def _stdev(total: int, squares: int, count: int) -> float:
    """The standard deviation of ``count`` values from their sum and sum of squares."""
    if not count:
        return 0.0
    return math.sqrt(max(count * squares - total * total, 0)) / count


# --------------------------------------------------------------------------- statistics


@attrs.frozen(kw_only=True)
class SimulationStats(_Batched):
    """What :func:`simulate` found: counts and sums over ``games`` games.

    Counts are kept as whole numbers; shares, means and standard deviations are
    properties computed from them, and every share has a 95% Wilson interval (the
    ``*_ci95`` properties, see :mod:`qe_rules.simulation.intervals`). A game has a single winner or
    none (``winner`` of the result is ``None``: a tie the rules leave open, or everyone
    eliminated). Runs of other games merge exactly (:meth:`merge`).
    """

    ruleset: str
    players: int
    agents: tuple[str, ...]
    """Each seat's agent, by name."""
    batches: tuple[GameRange, ...]
    """The games summed up, as runs of game numbers per seed, in order."""
    wins: tuple[int, ...]
    """Games won by each seat alone."""
    no_winner_games: int
    gap_games: int
    """Games with at least one rule gap (``game.gaps``), in play or in scoring."""
    gap_codes: FrozenDict[str, int]
    """For each gap code, the games that met it."""
    lowest_spender_wins: int
    """Games won by a seat whose spend is the lowest of the game (ties included)."""
    unsold_sales: int
    """Sales that ended without a buyer, over all games."""
    winning_totals: int
    """The winners' totals added up, over the games with a single winner."""
    total_sums: tuple[int, ...]
    total_squares: tuple[int, ...]
    spend_sums: tuple[int, ...]
    spend_squares: tuple[int, ...]
    rows: tuple[GameRow, ...] | None = None
    """One row per game and seat, in game order, when asked for (``rows=True``)."""
    engine: str = "reference"
    """The engine that played the games: ``"reference"`` (the game engine, a view per
    decision) or ``"batch"`` (:mod:`qe_rules.batch`, games in lockstep). Both play the
    same games from a seed (:mod:`qe_rules.game.draws`), so their figures are equal."""

    def _share(self, count: int, parts: int = 1) -> Share:
        return Share(count, self.games, parts=parts)

    @property
    def win_share(self) -> tuple[float, ...]:
        """Each seat's share of the games it won alone."""
        return tuple(wins / self.games for wins in self.wins)

    @property
    def win_ci95(self) -> tuple[tuple[float, float], ...]:
        """The 95% interval of each seat's :attr:`win_share`."""
        return tuple(self._share(wins).ci95 for wins in self.wins)

    def _agent_wins(self) -> dict[str, Share]:
        seats: dict[str, int] = {}
        wins: dict[str, int] = {}
        for agent, won in zip(self.agents, self.wins, strict=True):
            seats[agent] = seats.get(agent, 0) + 1
            wins[agent] = wins.get(agent, 0) + won
        return {agent: self._share(wins[agent], seats[agent]) for agent in seats}

    @property
    def agent_win_share(self) -> dict[str, float]:
        """For each agent kind, the share of its seats' games that it won: the wins of its
        seats divided by games times its seats (1 / players is an even share)."""
        return {agent: share.value for agent, share in self._agent_wins().items()}

    @property
    def agent_win_ci95(self) -> dict[str, tuple[float, float]]:
        """The 95% interval of each :attr:`agent_win_share`: the interval of the share of
        games the agent's seats won, divided by its seats."""
        return {agent: share.ci95 for agent, share in self._agent_wins().items()}

    @property
    def no_winner_share(self) -> float:
        """The share of games with no single winner."""
        return self.no_winner_games / self.games

    @property
    def no_winner_ci95(self) -> tuple[float, float]:
        """The 95% interval of :attr:`no_winner_share`."""
        return self._share(self.no_winner_games).ci95

    @property
    def gap_share(self) -> float:
        """The share of games that met a rule gap."""
        return self.gap_games / self.games

    @property
    def gap_ci95(self) -> tuple[float, float]:
        """The 95% interval of :attr:`gap_share`."""
        return self._share(self.gap_games).ci95

    @property
    def lowest_spender_win_share(self) -> float:
        """The share of games won by a lowest spender."""
        return self.lowest_spender_wins / self.games

    @property
    def lowest_spender_win_ci95(self) -> tuple[float, float]:
        """The 95% interval of :attr:`lowest_spender_win_share`."""
        return self._share(self.lowest_spender_wins).ci95

    @property
    def unsold_mean(self) -> float:
        """Unsold sales per game."""
        return self.unsold_sales / self.games

    @property
    def winning_total_mean(self) -> float | None:
        """The mean total of a single winner (``None`` if no game had one)."""
        won = self.games - self.no_winner_games
        return self.winning_totals / won if won else None

    @property
    def total_mean(self) -> float:
        """The mean final total of a seat, over every seat of every game."""
        return _mean(sum(self.total_sums), self.games * self.players)

    @property
    def total_stdev(self) -> float:
        """The standard deviation of a seat's final total, over every seat of every game."""
        return _stdev(sum(self.total_sums), sum(self.total_squares), self.games * self.players)

    @property
    def spend_mean(self) -> float:
        """The mean spend of a seat, over every seat of every game."""
        return _mean(sum(self.spend_sums), self.games * self.players)

    @property
    def spend_stdev(self) -> float:
        """The standard deviation of a seat's spend, over every seat of every game."""
        return _stdev(sum(self.spend_sums), sum(self.spend_squares), self.games * self.players)

    @property
    def seat_total_mean(self) -> tuple[float, ...]:
        """Each seat's mean final total."""
        return tuple(_mean(total, self.games) for total in self.total_sums)

    @property
    def seat_total_stdev(self) -> tuple[float, ...]:
        """The standard deviation of each seat's final total."""
        return tuple(
            _stdev(total, squares, self.games)
            for total, squares in zip(self.total_sums, self.total_squares, strict=True)
        )

    @property
    def seat_spend_mean(self) -> tuple[float, ...]:
        """Each seat's mean spend."""
        return tuple(_mean(spent, self.games) for spent in self.spend_sums)

    @property
    def seat_spend_stdev(self) -> tuple[float, ...]:
        """The standard deviation of each seat's spend."""
        return tuple(
            _stdev(spent, squares, self.games)
            for spent, squares in zip(self.spend_sums, self.spend_squares, strict=True)
        )

    def to_dict(self) -> dict[str, Any]:
        """The counts and the figures computed from them, as JSON types.

        ``ci95`` holds the 95% interval of every share, as ``[low, high]``, under the
        share's own key and in its shape (a list per seat, a mapping per agent). ``rows``
        is there only when the rows were kept.
        """
        data = {
            "ruleset": self.ruleset,
            "players": self.players,
            "agents": list(self.agents),
            "engine": self.engine,
            "games": self.games,
            "seed": self.seed,
            "batches": [list(batch) for batch in self.batches],
            "wins": list(self.wins),
            "win_share": list(self.win_share),
            "agent_win_share": self.agent_win_share,
            "no_winner_games": self.no_winner_games,
            "no_winner_share": self.no_winner_share,
            "gap_games": self.gap_games,
            "gap_share": self.gap_share,
            "gap_codes": dict(self.gap_codes),
            "lowest_spender_wins": self.lowest_spender_wins,
            "lowest_spender_win_share": self.lowest_spender_win_share,
            "unsold_sales": self.unsold_sales,
            "unsold_mean": self.unsold_mean,
            "winning_totals": self.winning_totals,
            "winning_total_mean": self.winning_total_mean,
            "total_sums": list(self.total_sums),
            "total_squares": list(self.total_squares),
            "spend_sums": list(self.spend_sums),
            "spend_squares": list(self.spend_squares),
            "total_mean": self.total_mean,
            "total_stdev": self.total_stdev,
            "spend_mean": self.spend_mean,
            "spend_stdev": self.spend_stdev,
            "seat_total_mean": list(self.seat_total_mean),
            "seat_total_stdev": list(self.seat_total_stdev),
            "seat_spend_mean": list(self.seat_spend_mean),
            "seat_spend_stdev": list(self.seat_spend_stdev),
            "ci95": {
                "win_share": [list(ci) for ci in self.win_ci95],
                "agent_win_share": {a: list(ci) for a, ci in self.agent_win_ci95.items()},
                "no_winner_share": list(self.no_winner_ci95),
                "gap_share": list(self.gap_ci95),
                "lowest_spender_win_share": list(self.lowest_spender_win_ci95),
            },
        }
        if self.rows is not None:
            data["rows"] = [row._asdict() for row in self.rows]
        return data

    @classmethod
    def from_dict(
        cls, data: Mapping[str, Any], *, ruleset: RuleSet | str | None = None
    ) -> SimulationStats:
        """The statistics from :meth:`to_dict` (the figures are computed again from the
        counts): ``SimulationStats.from_dict(stats.to_dict()) == stats``.

        Raises :class:`~qe_rules.InvalidArgument` naming the key that is missing, unknown
        or wrong, or the counts that disagree (one per seat, none above the games, wins
        and games without a winner adding up to the games, sums of squares that give no
        negative variance, each count within what the games of the rule set can hold,
        rows that add up to the counts). Figures computed from the counts may be left
        out; where given they must equal the figures computed again. The rule set is
        the one the document names, or (one loaded from a file) the one given as
        ``ruleset``.
        """
        fields = Fields(
            data,
            "statistics",
            _STATS_COUNTS,
            ("batches", "seed", "games", "rows", "engine", *_STATS_FIGURES),
        )
        get = fields.get
        players = get("players", players_of)
        batches = batches_of(fields)
        games = sum(stop - start for _, start, stop in batches)
        seats = {key: get(key, counts_of) for key in _SEAT_COUNTS}
        for key, values in seats.items():
            per_seat(values, players, f"statistics.{key}")
        counts = {key: get(key, whole) for key in _GAME_COUNTS}
        at_most_each(seats["wins"], games, "statistics.wins", "games")
        for key in ("no_winner_games", "gap_games", "lowest_spender_wins"):
            agree(counts[key] <= games, f"statistics.{key}", f"is more than the {games} games")
        agree(
            sum(seats["wins"]) + counts["no_winner_games"] == games,
            "statistics.wins",
            f"the wins and no_winner_games add up to {games} games",
        )
        agree(
            counts["lowest_spender_wins"] <= games - counts["no_winner_games"],
            "statistics.lowest_spender_wins",
            "is more than the games with a winner",
        )
        gap_codes = get("gap_codes", _gap_codes)
        at_most_each(
            list(gap_codes.values()), counts["gap_games"], "statistics.gap_codes", "gap games"
        )
        stats = cls(
            ruleset=get("ruleset", text),
            players=players,
            agents=agents_of(data["agents"], "statistics.agents", players),
            batches=tuple(GameRange(*batch) for batch in batches),
            wins=seats["wins"],
            no_winner_games=counts["no_winner_games"],
            gap_games=counts["gap_games"],
            gap_codes=FrozenDict(sorted(gap_codes.items())),
            lowest_spender_wins=counts["lowest_spender_wins"],
            unsold_sales=counts["unsold_sales"],
            winning_totals=counts["winning_totals"],
            total_sums=seats["total_sums"],
            total_squares=seats["total_squares"],
            spend_sums=seats["spend_sums"],
            spend_squares=seats["spend_squares"],
            rows=rows_of(fields, games * players),
            engine=fields.get("engine", _engine_of, "reference"),
        )
        check_figures(fields, stats.to_dict(), _STATS_FIGURES)
        _check_counts(stats, rules_of(stats.ruleset, given_rulesets(ruleset), "statistics.ruleset"))
        return stats

    def merge(self, other: SimulationStats) -> SimulationStats:
        """The statistics of both runs' games together, exactly as one run of them all
        would give: the runs must be of the same rule set, players and agents, and of
        different games (another seed, or other game numbers with ``start``).

        >>> whole = simulate("en", 3, "random", 20, seed=1)
        >>> halves = [simulate("en", 3, "random", 10, seed=1, start=s) for s in (0, 10)]
        >>> halves[0].merge(halves[1]) == whole
        True
        """
        if not isinstance(other, SimulationStats):
            raise InvalidArgument(f"merge takes other SimulationStats, got {shown(other)}")
        _check_same("rule set", self.ruleset, other.ruleset)
        _check_same("players", self.players, other.players)
        _check_same("agents", self.agents, other.agents)
        _check_same("engine", self.engine, other.engine)
        return SimulationStats(
            ruleset=self.ruleset,
            players=self.players,
            agents=self.agents,
            batches=_coalesce((*self.batches, *other.batches)),
            wins=_add(self.wins, other.wins),
            no_winner_games=self.no_winner_games + other.no_winner_games,
            gap_games=self.gap_games + other.gap_games,
            gap_codes=_add_counts(self.gap_codes, other.gap_codes),
            lowest_spender_wins=self.lowest_spender_wins + other.lowest_spender_wins,
            unsold_sales=self.unsold_sales + other.unsold_sales,
            winning_totals=self.winning_totals + other.winning_totals,
            total_sums=_add(self.total_sums, other.total_sums),
            total_squares=_add(self.total_squares, other.total_squares),
            spend_sums=_add(self.spend_sums, other.spend_sums),
            spend_squares=_add(self.spend_squares, other.spend_squares),
            rows=_merged_rows(self.rows, other.rows),
            engine=self.engine,
        )

    def write_rows(self, path: str | os.PathLike[str]) -> None:
        """Write :attr:`rows` as CSV or Parquet (see :func:`write_rows`)."""
        if self.rows is None:
            raise InvalidArgument("these statistics kept no rows: simulate with rows=True")
        write_rows(self.rows, path)

    def to_text(self) -> str:
        """The statistics as a plain-text report: a table of seats, a table of agents and
        the shares with their 95% intervals."""
        lines = [
            f"{self.games} games of {self.ruleset} with {self.players} players, "
            f"{_batches_text(self.batches)}, played by the {self.engine} engine",
            "",
        ]
        # each per-seat figure computed once (a property computes all seats' at once)
        lines += table(
            ("seat", "agent", "wins", "share", "(95%)", "total", "(sd)", "spend", "(sd)"),
            (
                (
                    seat,
                    agent,
                    wins,
                    percent(share),
                    interval_text(interval),
                    f"{total:.1f}",
                    f"{total_sd:.1f}",
                    f"{spend:.1f}",
                    f"{spend_sd:.1f}",
                )
                for seat, (agent, wins, share, interval, total, total_sd, spend, spend_sd) in (
                    enumerate(
                        zip(
                            self.agents,
                            self.wins,
                            self.win_share,
                            self.win_ci95,
                            self.seat_total_mean,
                            self.seat_total_stdev,
                            self.seat_spend_mean,
                            self.seat_spend_stdev,
                            strict=True,
                        )
                    )
                )
            ),
            left=2,
        )
        lines.append("")
        agent_wins = self._agent_wins()
        seats_of = collections.Counter(self.agents)
        lines += table(
            ("agent", "seats", "win share per seat", "(95%)"),
            (
                (agent, seats_of[agent], percent(share.value), interval_text(share.ci95))
                for agent, share in agent_wins.items()
            ),
        )
        winning = self.winning_total_mean
        gaps = ", ".join(f"{code} {count}" for code, count in self.gap_codes.items())
        lines.append("")
        lines += labelled(
            [
                ("total points", f"mean {self.total_mean:.1f}, sd {self.total_stdev:.1f}"),
                ("spend", f"mean {self.spend_mean:.1f}, sd {self.spend_stdev:.1f}"),
                ("winning total", "-" if winning is None else f"mean {winning:.1f}"),
                ("no single winner", share_text(self.no_winner_share, self.no_winner_ci95)),
                (
                    "lowest spender won",
                    share_text(self.lowest_spender_win_share, self.lowest_spender_win_ci95),
                ),
                ("unsold sales", f"{self.unsold_mean:.2f} per game"),
                ("rule gaps", share_text(self.gap_share, self.gap_ci95)),
                *([("gap codes", gaps)] if gaps else []),
            ]
        )
        return "\n".join(lines)

    __str__ = to_text


_SEAT_COUNTS: Final = ("wins", "total_sums", "total_squares", "spend_sums", "spend_squares")
_GAME_COUNTS: Final = (
    "no_winner_games",
    "gap_games",
    "lowest_spender_wins",
    "unsold_sales",
    "winning_totals",
)
_STATS_COUNTS: Final = ("ruleset", "players", "agents", "gap_codes", *_SEAT_COUNTS, *_GAME_COUNTS)
_STATS_FIGURES: Final = (
    "win_share",
    "agent_win_share",
    "no_winner_share",
    "gap_share",
    "lowest_spender_win_share",
    "unsold_mean",
    "winning_total_mean",
    "total_mean",
    "total_stdev",
    "spend_mean",
    "spend_stdev",
    "seat_total_mean",
    "seat_total_stdev",
    "seat_spend_mean",
    "seat_spend_stdev",
    "ci95",
)


def _engine_of(value: Any, where: str) -> str:
    """The name of the engine that played: ``"reference"`` or ``"batch"``."""
    if value not in ("reference", "batch"):
        raise InvalidArgument(f"{where}: 'reference' or 'batch', got {shown(value)}")
    return str(value)


def _gap_codes(value: Any, where: str) -> dict[str, int]:
    codes = Fields(value, where, (), value.keys() if isinstance(value, Mapping) else ())
    return {text(code, f"{where} key"): codes.get(code, whole) for code in codes.data}


def _check_counts(stats: SimulationStats, rules: RuleSet) -> None:
    """Check that the counts of ``stats`` are within what its games under ``rules`` can
    hold, and that its rows (if kept) add up to them: each row group a game's score
    sheets as scoring writes them (``grouped_rows``)."""
    where, players, games = "statistics", stats.players, stats.games
    agree(
        players in rules.player_counts,
        f"{where}.players",
        f"{rules.id} is played by {', '.join(map(str, rules.player_counts))} players, "
        f"not {players}",
    )
    most = most_points(rules, players)["total"]
    check_sums(stats.total_sums, stats.total_squares, games, most, where, "total")
    check_sums(
        stats.spend_sums, stats.spend_squares, games, len(COMPANIES) * MAX_BID, where, "spend"
    )
    sales = rules.sales(players)
    agree(
        stats.unsold_sales <= games * sales,
        f"{where}.unsold_sales",
        f"is more than the {games * sales} sales of {games} games",
    )
    agree(
        stats.winning_totals <= min(sum(stats.total_sums), (games - stats.no_winner_games) * most),
        f"{where}.winning_totals",
        "is more than the winners' totals can add up to",
    )
    if stats.rows is None:
        return
    numbers = [(b.seed, game) for b in stats.batches for game in range(b.start, b.stop)]
    tally = _Tally(players)
    codes: dict[str, int] = {}
    for (found,) in grouped_rows(
        stats.rows, numbers, [rules], players, stats.agents, f"{where}.rows"
    ):
        sheets, winner = found.result.sheets, found.result.winner
        for seat, sheet in enumerate(sheets):
            tally.total_sums[seat] += sheet.total
            tally.total_squares[seat] += sheet.total * sheet.total
            tally.spend_sums[seat] += sheet.spent
            tally.spend_squares[seat] += sheet.spent * sheet.spent
        if winner is None:
            tally.no_winner += 1
        else:
            tally.wins[winner] += 1
            tally.winning_totals += sheets[winner].total
            tally.lowest_spender_wins += sheets[winner].spent == min(s.spent for s in sheets)
        tally.unsold += found.rows[0].unsold
        for code in found.rows[0].gaps.split():
            codes[code] = codes.get(code, 0) + 1
        tally.gap_games += bool(found.rows[0].gaps)
        for row in found.rows:
            agree(
                not row.winner_changed and not row.causes,
                f"{where}.rows",
                "a run of one rule set changes no winner",
            )
    counted = {
        "wins": tuple(tally.wins),
        "no_winner_games": tally.no_winner,
        "lowest_spender_wins": tally.lowest_spender_wins,
        "unsold_sales": tally.unsold,
        "winning_totals": tally.winning_totals,
        "total_sums": tuple(tally.total_sums),
        "total_squares": tuple(tally.total_squares),
        "spend_sums": tuple(tally.spend_sums),
        "spend_squares": tuple(tally.spend_squares),
        **{f"gap_codes.{code}": count for code, count in codes.items()},
    }
    for key, count in counted.items():
        given = (
            stats.gap_codes.get(key.partition(".")[2], 0)
            if key.startswith("gap_codes.")
            else getattr(stats, key)
        )
        agree(given == count, f"{where}.{key}", f"is {given}, but the rows give {count}")
    agree(
        stats.gap_games >= tally.gap_games,
        f"{where}.gap_games",
        f"is {stats.gap_games}, but the rows show scoring gaps in {tally.gap_games} games",
    )
    for code in SCORING_GAPS - set(codes):
        agree(
            code not in stats.gap_codes,
            f"{where}.gap_codes.{code}",
            "no row shows this scoring gap",
        )


def simulate(
    ruleset: RuleSet | str,
    players: int,
    agents: AgentSpec | Sequence[AgentSpec],
    games: int,
    *,
    seed: int,
    start: int = 0,
    workers: int = 1,
    executor: concurrent.futures.Executor | None = None,
    rows: bool = False,
    progress: Progress | None = None,
    engine: str = "auto",
) -> SimulationStats:
    """Play ``games`` games and sum them up.

    ``agents`` gives each seat's agent, by name or factory (see :data:`AgentSpec`), or
    one for every seat. The games are numbers ``start`` to ``start + games`` of the run
    with ``seed``. With ``workers`` > 1 the games are shared between that many
    processes; with an ``executor`` (any :class:`concurrent.futures.Executor`, such as
    Dask's ``Client.get_executor()``) it runs them, in chunks sized for ``workers`` of
    its workers, and is left running. The numbers are the same either way. ``rows=True``
    keeps one :class:`GameRow` per game and seat. ``progress``, if given, is called with
    ``(games done, games)`` as chunks of games finish.

    ``engine`` chooses what plays the games: ``"auto"`` (the default: the batch where it
    can play the run, else the reference engine), ``"batch"`` (:mod:`qe_rules.batch`:
    numpy, games in lockstep, the agents of ``BATCHED_NAMES`` by name) or
    ``"reference"`` (the game engine, a view per decision). Both take ``workers``,
    ``executor`` and ``rows``. The statistics say which played (``engine``); both play
    the same games from a seed (:mod:`qe_rules.game.draws`) and give the same figures.
    """
    rules = _check_rules(ruleset)
    players = rules.check_players(players)
    specs = _check_agents(agents, players)
    games, start = _check_games(games, start)
    seed = _check_seed(seed)
    workers = _check_int(workers, "workers", 1)
    executor = _check_executor(executor)
    rows = _check_rows(rows)
    progress = _check_progress(progress)
    batched = uses_batch(engine, specs) and _batch_plays(engine, (rules,), players)
    run = _Run((rules,), players, specs, games, seed, start, rows, batched)
    work = _simulate_chunk
    if batched:
        from qe_rules.simulation.batch.tally import simulate_chunk as work  # numpy: on first use
    tally = _Tally(players)
    for part in _run(work, run, workers, executor, progress):
        tally.merge(part)
    return _stats_of(
        tally,
        rules.id,
        [agent_label(spec) for spec in specs],
        (GameRange(seed, start, start + games),),
        rows,
        "batch" if batched else "reference",
    )


def _batch_plays(engine: str, rulesets: Sequence[RuleSet], players: int) -> bool:
    """Whether the batch can hold the rule sets (its scoring tables fit in memory): with
    ``engine="auto"``, the reference engine plays where it cannot; ``"batch"`` raises."""
    from qe_rules.simulation.batch.tally import check_fits  # numpy: on first use

    try:
        for rules in rulesets:
            check_fits(rules, players)
    except InvalidArgument:
        if engine == "batch":
            raise
        return False
    return True


def format_stats(stats: SimulationStats) -> str:
    """:class:`SimulationStats` as a plain-text report: ``stats.to_text()``, which this
    name is kept for (deprecated)."""
    renamed("format_stats(stats)", "stats.to_text() or str(stats)")
    return stats.to_text()


def __getattr__(name: str) -> Any:
    """The deprecated name ``Batch`` of :class:`GameRange`."""
    if name == "Batch":
        renamed("qe_rules.simulation.stats.Batch", "qe_rules.GameRange")
        return GameRange
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
