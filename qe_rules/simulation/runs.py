"""Simulation: many games between agents, their statistics, and rule sets compared.

:func:`simulate` plays games between agents and sums them up in a
:class:`SimulationStats`; :func:`compare` plays games once and scores each under several
rule sets, to show how often and why the winner changes (a :class:`Comparison`).

>>> import qe_rules as qe
>>> from qe_rules.simulation.runs import simulate
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

import concurrent.futures
import csv
import hashlib
import importlib.util
import math
import os
import pickle
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final, Literal, NamedTuple, overload

import attrs

from qe_rules._util.frozen import FrozenDict
from qe_rules.errors import InvalidArgument, shown
from qe_rules.game.engine import Game, new_game
from qe_rules.game.events import NotAwarded
from qe_rules.game.records import GameRecord
from qe_rules.game.scoring import GameResult, score_game
from qe_rules.game.views import Phase
from qe_rules.limits import ROUNDS_PER_SALE
from qe_rules.rules.model import RULESETS, Category, RuleSet, get_ruleset
from qe_rules.simulation.agents import AGENT_NAMES, Agent, AgentFactory, agent_factory, agent_label
from qe_rules.simulation.intervals import Share
from qe_rules.texts.reports import table

__all__ = [
    "CHANGE_CAUSES",
    "ROUNDS_PER_SALE",
    "ROW_COLUMNS",
    "AgentSpec",
    "Batch",
    "ChangeExample",
    "Comparison",
    "GameRow",
    "PlayedComparison",
    "Progress",
    "SimulationStats",
    "check_rows_path",
    "compare",
    "format_comparison",
    "format_stats",
    "measure_open_questions",
    "play_game",
    "simulate",
    "write_rows",
]

AgentSpec = str | AgentFactory
"""An agent as a name (``"random"``, ``"zero"``, ``"value"``) or a factory taking a seed."""

Progress = Callable[[int, int], object]
"""Called with ``(games done, games in all)`` as a run goes on."""

CHANGE_CAUSES: Final[tuple[str, ...]] = (
    *(category.value for category in Category),
    "elimination",
    "tie-break",
)
"""What a change of winner between two rule sets is put down to: a scoring category
whose points differ (``spending`` is the lowest-spend bonus), a different elimination,
or, when neither differs, the tie-break."""


# --------------------------------------------------------------------------- arguments


def _check_int(value: object, what: str, least: int) -> int:
    if type(value) is not int or value < least:
        raise InvalidArgument(f"{what} is a whole number >= {least}, got {shown(value)}")
    return value


def _check_seed(seed: object) -> int:
    if type(seed) is not int:
        raise InvalidArgument(f"seed is a whole number (int), got {shown(seed)}")
    return seed


def _check_rules(ruleset: object) -> RuleSet:
    if not isinstance(ruleset, RuleSet | str):
        raise InvalidArgument(f"a rule set is a RuleSet or a rule set id, got {shown(ruleset)}")
    return get_ruleset(ruleset)


def _check_agents(agents: object, players: int) -> tuple[AgentSpec, ...]:
    if isinstance(agents, str) or callable(agents):
        specs: tuple[Any, ...] = (agents,) * players
    elif isinstance(agents, Sequence) and not isinstance(agents, bytes):
        specs = tuple(agents)
        if len(specs) != players:
            raise InvalidArgument(
                f"agents: give one per seat ({players}) or one for every seat, got {len(specs)}"
            )
    else:
        raise InvalidArgument(
            f"agents is an agent (a name or a factory) or a list of one per seat, got {shown(agents)}"
        )
    for spec in specs:
        if isinstance(spec, str):
            agent_factory(spec)  # raises for an unknown name
        elif not callable(spec):
            raise InvalidArgument(
                f"an agent is a name ({', '.join(AGENT_NAMES)}) or a factory called with a "
                f"seed, got {shown(spec)}"
            )
    return specs


def _check_progress(progress: object) -> Progress | None:
    if progress is not None and not callable(progress):
        raise InvalidArgument(
            f"progress is a function of (done, total) or None, got {shown(progress)}"
        )
    return progress


def _check_executor(executor: object) -> concurrent.futures.Executor | None:
    if executor is not None and not isinstance(executor, concurrent.futures.Executor):
        raise InvalidArgument(
            "executor is a concurrent.futures.Executor (a process or thread pool, Dask's "
            f"Client.get_executor(), ...) or None, got {shown(executor)}"
        )
    return executor


def _check_picklable(specs: tuple[AgentSpec, ...], rulesets: Sequence[RuleSet]) -> None:
    try:
        pickle.dumps((specs, tuple(rulesets)))
    except Exception as error:
        raise InvalidArgument(
            "with workers > 1 every agent factory must be picklable (a class or a function "
            f"defined at the top of a module, or a functools.partial of one): {error}"
        ) from None


# --------------------------------------------------------------------------- one game


def _game_seeds(seed: int, index: int, players: int) -> tuple[int, int, int]:
    """The deck seed, first auctioneer and agent seed of game ``index`` of a run."""
    digest = hashlib.blake2b(f"qe-rules/simulate:{seed}:{index}".encode(), digest_size=16).digest()
    extra = int.from_bytes(digest[8:], "big")
    return int.from_bytes(digest[:8], "big"), extra % players, extra >> 8


def _factories(specs: Sequence[AgentSpec], rules: RuleSet) -> list[AgentFactory]:
    return [agent_factory(spec, ruleset=rules) if isinstance(spec, str) else spec for spec in specs]


def _peeks(game: Game, agents: Sequence[Agent]) -> Game:
    """The peek window: ask every seat in it whether it will peek, all from the same
    state, and play each answer."""
    start = game
    for seat in sorted(start.to_act):
        if agents[seat].wants_peek(start.view(seat)):
            game = game.peek(seat)
        else:
            game = game.decline_peek(seat)
    return game


def _play(
    rules: RuleSet, players: int, factories: Sequence[AgentFactory], seed: int, index: int
) -> Game:
    game_seed, first, agent_seed = _game_seeds(seed, index, players)
    game = new_game(rules, players, seed=game_seed, first_auctioneer=first)
    agents = [factory(agent_seed * 8 + seat) for seat, factory in enumerate(factories)]
    bid_of = [agent.bid for agent in agents]
    peeks = rules.has_peek(players)
    rounds = 0  # bidding rounds since the last opening bid
    while True:
        to_act = game.to_act
        if not to_act:
            return game
        if peeks and game.phase is Phase.PEEKING:
            game = _peeks(game, agents)
        elif len(to_act) == 1:  # an opening bid (with 2 players, also the secret bid)
            rounds = 0
            (seat,) = to_act
            game = game.bid(seat, bid_of[seat](game.view(seat)))
        else:
            rounds += 1
            if rounds > ROUNDS_PER_SALE:
                raise InvalidArgument(
                    f"game {index} does not end: sale {game.sale} is still tied after "
                    f"{ROUNDS_PER_SALE} bidding rounds; under {rules.id} tied players rebid "
                    "without end (no tie fallback), and these agents keep tying"
                )
            # secret bids are made at the same time: every bidder sees the same state
            bids: dict[int, int] = {}
            view = game.view
            for seat in to_act:  # a loop: a comprehension is a function call in Python 3.11
                bids[seat] = bid_of[seat](view(seat))
            game = game.bid_many(bids)


def play_game(
    ruleset: RuleSet | str,
    players: int,
    agents: AgentSpec | Sequence[AgentSpec],
    *,
    seed: int,
    index: int = 0,
) -> Game:
    """Play game number ``index`` of a run with ``seed``, exactly as :func:`simulate` does,
    and return the finished :class:`~qe_rules.Game`.

    >>> game = play_game("en", 3, "zero", seed=1)
    >>> game.is_over, [record.spent for record in game.player_records()]
    (True, [5, 5, 5])
    """
    rules = _check_rules(ruleset)
    players = rules.check_players(players)
    specs = _check_agents(agents, players)
    _check_seed(seed)
    _check_int(index, "index", 0)
    return _play(rules, players, _factories(specs, rules), seed, index)


# --------------------------------------------------------------------------- running


class _Task(NamedTuple):
    """A chunk of a run, as sent to a worker process."""

    rulesets: tuple[RuleSet | str, ...]  # a built-in rule set as its id
    players: int
    specs: tuple[AgentSpec, ...]
    seed: int
    start: int
    stop: int
    rows: bool


_INTERNED: Final[dict[RuleSet, RuleSet]] = {}


def _portable(rules: RuleSet) -> RuleSet | str:
    """A rule set as sent to a worker: a built-in one as its id."""
    return rules.id if RULESETS.get(rules.id) == rules else rules


def _local(rules: RuleSet | str) -> RuleSet:
    """A rule set as a worker uses it: one object per rule set, so that the caches keyed
    by rule set find it at once."""
    if isinstance(rules, str):
        return get_ruleset(rules)
    if len(_INTERNED) >= 64:  # keep a long-lived process from holding every rule set
        _INTERNED.clear()
    return _INTERNED.setdefault(rules, rules)


def _chunks(games: int, workers: int) -> list[tuple[int, int]]:
    """Split ``range(games)`` into ``(start, stop)`` chunks.

    One worker gets even chunks (for a smooth progress report). Several get chunks that
    shrink as the run goes on, each about a third of an equal share of what is left: few
    tasks to send, and a short wait at the end for the last one.
    """
    if workers == 1:
        size = max(1, min(1000, math.ceil(games / 50)))
        return [(start, min(start + size, games)) for start in range(0, games, size)]
    chunks = []
    start = 0
    while start < games:
        size = max(16, min(1000, (games - start) // (3 * workers)))
        chunks.append((start, min(start + size, games)))
        start += size
    return chunks


class _Run(NamedTuple):
    """What a run plays: the games ``start`` to ``start + games`` of ``seed``."""

    rulesets: tuple[RuleSet, ...]
    players: int
    specs: tuple[AgentSpec, ...]
    games: int
    seed: int
    start: int
    rows: bool


def _run(
    work: Callable[[_Task], Any],
    run: _Run,
    workers: int,
    executor: concurrent.futures.Executor | None,
    progress: Progress | None,
) -> list[Any]:
    """Run ``work`` over chunks of the games; the results come back in game order.

    Without an executor, one worker plays the chunks here and several share them in a
    process pool made for the run; a given executor runs them and is left running.
    """
    sent = tuple(map(_portable, run.rulesets))
    tasks = [
        _Task(sent, run.players, run.specs, run.seed, run.start + start, run.start + stop, run.rows)
        for start, stop in _chunks(run.games, workers)
    ]
    results: list[Any] = [None] * len(tasks)
    done = 0
    if progress is not None:
        progress(0, run.games)
    if workers == 1 and executor is None:
        for number, task in enumerate(tasks):
            results[number] = work(task)
            done += task.stop - task.start
            if progress is not None:
                progress(done, run.games)
        return results
    if executor is None:
        _check_picklable(run.specs, run.rulesets)
        pool: concurrent.futures.Executor = concurrent.futures.ProcessPoolExecutor(
            max_workers=min(workers, len(tasks))
        )
    else:
        pool = executor
    futures = {pool.submit(work, task): number for number, task in enumerate(tasks)}
    try:
        for future in concurrent.futures.as_completed(futures):
            number = futures[future]
            results[number] = future.result()
            done += tasks[number].stop - tasks[number].start
            if progress is not None:
                progress(done, run.games)
    finally:
        for future in futures:
            future.cancel()  # after a failure, nothing more is started
        if executor is None:
            pool.shutdown(wait=True, cancel_futures=True)
    return results


# --------------------------------------------------------------------------- simulate


class Batch(NamedTuple):
    """Games ``start`` to ``stop`` (not included) of a run with ``seed``."""

    seed: int
    start: int
    stop: int


def _coalesce(batches: Iterable[Batch]) -> tuple[Batch, ...]:
    """Batches in order, joined where one ends where the next begins; overlaps raise."""
    joined: list[Batch] = []
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


def _batches_text(batches: Sequence[Batch]) -> str:
    return ", ".join(
        f"seed {b.seed}"
        if b.start == 0 and len(batches) == 1
        else f"seed {b.seed} games {b.start}-{b.stop - 1}"
        for b in batches
    )


def _check_same(what: str, mine: object, theirs: object) -> None:
    if mine != theirs:
        raise InvalidArgument(f"only runs with the same {what} merge: {mine!r} and {theirs!r}")


def _batches_from(data: dict[str, Any]) -> tuple[Batch, ...]:
    if "batches" in data:
        return tuple(Batch(*batch) for batch in data["batches"])
    return (Batch(data["seed"], 0, data["games"]),)


class GameRow(NamedTuple):
    """One seat of one game scored under one rule set: a row of ``rows``.

    The columns, in order, are :data:`ROW_COLUMNS`; :func:`write_rows` writes rows as CSV
    or Parquet.
    """

    seed: int
    game: int
    """The game's number in the run of ``seed``."""
    ruleset: str
    """The rule set that scored the game (in a comparison, one row per rule set)."""
    seat: int
    agent: str
    nation: str
    tiles: int
    """Tiles the seat won."""
    spent: int
    companies: int
    zero_bids: int
    nationalization: int
    monopolization: int
    diversification: int
    lowest_spend_bonus: int
    total: int
    eliminated: bool
    won: bool
    """Whether the seat is the game's single winner under ``ruleset``."""
    winner_changed: bool
    """In a comparison, whether the winners differ from the first rule set's."""
    causes: str
    """In a comparison, the causes of the change (see :data:`CHANGE_CAUSES`), space-separated."""
    unsold: int
    """Sales of the game that ended without a buyer."""
    gaps: str
    """The game's rule-gap codes under ``ruleset``, space-separated."""


ROW_COLUMNS: Final[tuple[str, ...]] = GameRow._fields
"""The columns of per-game rows, in order (see :class:`GameRow`)."""


def _rows_of(
    seed: int,
    index: int,
    result: GameResult,
    game: Game,
    agents: Sequence[str],
    causes: tuple[str, ...] = (),
    *,
    winner_changed: bool = False,
) -> list[GameRow]:
    winner = result.winner
    unsold = game.sale - sum(map(len, game.holdings))
    gaps = " ".join(sorted({gap.code for gap in result.gaps}))
    return [
        GameRow(
            seed=seed,
            game=index,
            ruleset=result.ruleset,
            seat=sheet.seat,
            agent=agents[sheet.seat],
            nation=sheet.nation.code,
            tiles=len(game.holdings[sheet.seat]),
            spent=sheet.spent,
            companies=sheet.companies,
            zero_bids=sheet.zero_bids,
            nationalization=sheet.nationalization,
            monopolization=sheet.monopolization,
            diversification=sheet.diversification,
            lowest_spend_bonus=sheet.lowest_spend_bonus,
            total=sheet.total,
            eliminated=sheet.eliminated,
            won=winner == sheet.seat,
            winner_changed=winner_changed,
            causes=" ".join(causes),
            unsold=unsold,
            gaps=gaps,
        )
        for sheet in result.sheets
    ]


def write_rows(rows: Sequence[GameRow], path: str | os.PathLike[str]) -> None:
    """Write per-game rows to ``path``: CSV when it ends in ``.csv`` (the standard
    library), Parquet when it ends in ``.parquet`` (needs the ``parquet`` extra, pyarrow).

    Either reads straight into pandas or polars (``pandas.read_csv``,
    ``polars.read_parquet``, ...). The columns are :data:`ROW_COLUMNS`.
    """
    name = check_rows_path(path)
    if name.endswith(".csv"):
        with open(name, "w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(ROW_COLUMNS)
            writer.writerows(rows)
    elif name.endswith(".parquet"):
        import pyarrow as pa  # an optional extra, loaded where used
        import pyarrow.parquet as pq

        columns = {column: [row[i] for row in rows] for i, column in enumerate(ROW_COLUMNS)}
        pq.write_table(pa.table(columns), name)


def check_rows_path(path: str | os.PathLike[str]) -> str:
    """``path`` as a string if it ends in ``.csv`` or ``.parquet``; raises
    :class:`~qe_rules.InvalidArgument` otherwise."""
    name = os.fspath(path)
    if not name.endswith((".csv", ".parquet")):
        raise InvalidArgument(f"rows are written as .csv or .parquet, got {name!r}")
    if name.endswith(".parquet") and importlib.util.find_spec("pyarrow") is None:
        raise InvalidArgument("writing Parquet needs pyarrow: pip install 'qe-rules[parquet]'")
    return name


def _check_rows(rows: object) -> bool:
    if type(rows) is not bool:
        raise InvalidArgument(f"rows is True or False, got {shown(rows)}")
    return rows


class _Tally:
    """Integer sums over games; adding them in any order gives the same statistics."""

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


def _rows_from(data: dict[str, Any]) -> tuple[GameRow, ...] | None:
    rows = data.get("rows")
    return None if rows is None else tuple(GameRow(**row) for row in rows)


def _merged_rows(
    mine: tuple[GameRow, ...] | None, theirs: tuple[GameRow, ...] | None
) -> tuple[GameRow, ...] | None:
    if mine is None or theirs is None:
        return None  # rows of only part of the games would mislead
    return tuple(sorted((*mine, *theirs), key=lambda row: (row.seed, row.game)))


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
    batches: tuple[Batch, ...]

    @property
    def games(self) -> int:
        """The number of games."""
        return sum(batch.stop - batch.start for batch in self.batches)

    @property
    def seed(self) -> int:
        """The seed of the (first) run."""
        return self.batches[0].seed


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
    batches: tuple[Batch, ...]
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
    def from_dict(cls, data: dict[str, Any]) -> SimulationStats:
        """The statistics from :meth:`to_dict` (the figures are computed again from the
        counts): ``SimulationStats.from_dict(stats.to_dict()) == stats``."""
        try:
            return cls(
                ruleset=data["ruleset"],
                players=data["players"],
                agents=tuple(data["agents"]),
                batches=_batches_from(data),
                wins=tuple(data["wins"]),
                no_winner_games=data["no_winner_games"],
                gap_games=data["gap_games"],
                gap_codes=FrozenDict(sorted(data["gap_codes"].items())),
                lowest_spender_wins=data["lowest_spender_wins"],
                unsold_sales=data["unsold_sales"],
                winning_totals=data["winning_totals"],
                total_sums=tuple(data["total_sums"]),
                total_squares=tuple(data["total_squares"]),
                spend_sums=tuple(data["spend_sums"]),
                spend_squares=tuple(data["spend_squares"]),
                rows=_rows_from(data),
            )
        except (KeyError, TypeError, AttributeError) as error:
            raise InvalidArgument(
                f"not the statistics of SimulationStats.to_dict(): {error!r}"
            ) from None

    def merge(self, other: SimulationStats) -> SimulationStats:
        """The statistics of both runs' games together, exactly as one run of them all
        would give: the runs must be of the same rule set, players and agents, and of
        different games (another seed, or other game numbers with ``start``).

        >>> whole = simulate("en", 3, "random", 20, seed=1)
        >>> halves = [simulate("en", 3, "random", 10, seed=1, start=s) for s in (0, 10)]
        >>> halves[0].merge(halves[1]) == whole
        True
        """
        _check_same("rule set", self.ruleset, other.ruleset)
        _check_same("players", self.players, other.players)
        _check_same("agents", self.agents, other.agents)
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
        )

    def write_rows(self, path: str | os.PathLike[str]) -> None:
        """Write :attr:`rows` as CSV or Parquet (see :func:`write_rows`)."""
        if self.rows is None:
            raise InvalidArgument("these statistics kept no rows: simulate with rows=True")
        write_rows(self.rows, path)


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
    """
    rules = _check_rules(ruleset)
    players = rules.check_players(players)
    specs = _check_agents(agents, players)
    games = _check_int(games, "games", 1)
    seed = _check_seed(seed)
    start = _check_int(start, "start", 0)
    workers = _check_int(workers, "workers", 1)
    executor = _check_executor(executor)
    rows = _check_rows(rows)
    progress = _check_progress(progress)
    tally = _Tally(players)
    run = _Run((rules,), players, specs, games, seed, start, rows)
    for part in _run(_simulate_chunk, run, workers, executor, progress):
        tally.merge(part)
    return SimulationStats(
        ruleset=rules.id,
        players=players,
        agents=tuple(agent_label(spec) for spec in specs),
        batches=(Batch(seed, start, start + games),),
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
    )


# --------------------------------------------------------------------------- compare


def _causes(base: GameResult, other: GameResult) -> tuple[str, ...]:
    """Why two scorings of the same holdings can name different winners."""
    pairs = list(zip(base.sheets, other.sheets, strict=True))
    found = [
        category.value
        for category in Category
        if any(a.points(category) != b.points(category) for a, b in pairs)
    ]
    if any(a.eliminated != b.eliminated for a, b in pairs):
        found.append("elimination")
    return tuple(found) or ("tie-break",)


@attrs.frozen(kw_only=True)
class ChangeExample:
    """A game whose winner changes from the first rule set to ``ruleset`` with ``cause``
    among the causes. ``record`` replays it (``qe.replay(example.record)``)."""

    ruleset: str
    cause: str
    game: int
    """The game's number in the run of ``seed``."""
    winners: tuple[int, ...]
    """The winners under the first rule set."""
    other_winners: tuple[int, ...]
    """The winners under ``ruleset``."""
    record: GameRecord
    seed: int = 0
    """The seed of the run the game is from."""

    def to_dict(self) -> dict[str, Any]:
        """The example as JSON types; ``record`` is ``Game.to_record()``."""
        return {
            "ruleset": self.ruleset,
            "cause": self.cause,
            "seed": self.seed,
            "game": self.game,
            "winners": list(self.winners),
            "other_winners": list(self.other_winners),
            "record": self.record.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChangeExample:
        """The example from :meth:`to_dict`."""
        return cls(
            ruleset=data["ruleset"],
            cause=data["cause"],
            seed=data.get("seed", 0),
            game=data["game"],
            winners=tuple(data["winners"]),
            other_winners=tuple(data["other_winners"]),
            record=GameRecord.from_dict(data["record"]),
        )


class _Scored(NamedTuple):
    """One game of a comparison: its winners and the causes of a change, per rule set."""

    winners: tuple[tuple[int, ...], ...]
    causes: tuple[tuple[str, ...], ...]


class _Compared(NamedTuple):
    """A chunk of a comparison: its games, the first example of each rule set and cause
    (by rule-set number), and the rows when asked for."""

    scored: list[_Scored]
    examples: dict[tuple[int, str], tuple[int, dict[str, Any]]]
    rows: list[GameRow]


def _compare_chunk(task: _Task) -> _Compared:
    rulesets = [_local(rules) for rules in task.rulesets]
    first = rulesets[0]
    factories = _factories(task.specs, first)
    labels = [agent_label(spec) for spec in task.specs] if task.rows else []
    done = _Compared([], {}, [])
    for index in range(task.start, task.stop):
        game = _play(first, task.players, factories, task.seed, index)
        records = game.player_records()
        results = [game.result()]
        for rules in rulesets[1:]:
            try:
                results.append(score_game(rules, records))
            except InvalidArgument as error:
                raise InvalidArgument(
                    f"rule set {rules.id!r} cannot score the games of {first.id!r} with "
                    f"{task.players} players: {error}"
                ) from None
        base = results[0]
        causes = tuple(
            () if result.winners == base.winners else _causes(base, result) for result in results
        )
        done.scored.append(_Scored(tuple(result.winners for result in results), causes))
        for number, found in enumerate(causes):
            for cause in found:
                if (number, cause) not in done.examples:
                    done.examples[number, cause] = (index, game.to_record())
        if task.rows:
            for result, found in zip(results, causes, strict=True):
                done.rows.extend(
                    _rows_of(
                        task.seed, index, result, game, labels, found, winner_changed=bool(found)
                    )
                )
    return done


def _first_examples(
    examples: Iterable[ChangeExample], rulesets: Sequence[str]
) -> tuple[ChangeExample, ...]:
    """The first game (by seed and game number) of each rule set and cause, in the order
    of the rule sets and :data:`CHANGE_CAUSES`."""
    firsts: dict[tuple[str, str], ChangeExample] = {}
    for example in sorted(examples, key=lambda e: (e.seed, e.game)):
        firsts.setdefault((example.ruleset, example.cause), example)
    return tuple(
        sorted(
            firsts.values(),
            key=lambda e: (rulesets.index(e.ruleset), CHANGE_CAUSES.index(e.cause)),
        )
    )


@attrs.frozen(kw_only=True)
class Comparison(_Batched):
    """What :func:`compare` found: each game played once, scored under every rule set.

    Lists with one item per rule set are in the order of ``rulesets``; the first rule
    set is the one the games were played under, and the others are compared with it.
    Every share has a 95% Wilson interval (``*_ci95``); comparisons of other games merge
    exactly (:meth:`merge`).
    """

    rulesets: tuple[str, ...]
    players: int
    agents: tuple[str, ...]
    batches: tuple[Batch, ...]
    """The games compared, as runs of game numbers per seed, in order."""
    winners: tuple[tuple[tuple[int, ...], ...], ...]
    """For each game, in the order of ``batches``, the winners under each rule set."""
    changes: tuple[int, ...]
    """For each rule set, the games whose winners differ from the first rule set's."""
    any_changes: int
    """The games whose winners differ under at least one rule set."""
    causes: tuple[FrozenDict[str, int], ...]
    """For each rule set, the changed games per cause (a game may have several)."""
    examples: tuple[ChangeExample, ...]
    """The first game of each rule set and cause."""
    rows: tuple[GameRow, ...] | None = None
    """One row per game, rule set and seat, in game order, when asked for (``rows=True``)."""

    @property
    def change_share(self) -> tuple[float, ...]:
        """For each rule set, the share of games whose winner differs from the first's."""
        return tuple(count / self.games for count in self.changes)

    @property
    def change_ci95(self) -> tuple[tuple[float, float], ...]:
        """The 95% interval of each :attr:`change_share`."""
        return tuple(Share(count, self.games).ci95 for count in self.changes)

    @property
    def any_change_share(self) -> float:
        """The share of games whose winner differs under at least one rule set."""
        return self.any_changes / self.games

    @property
    def any_change_ci95(self) -> tuple[float, float]:
        """The 95% interval of :attr:`any_change_share`."""
        return Share(self.any_changes, self.games).ci95

    def to_dict(self) -> dict[str, Any]:
        """The comparison as JSON types; ``ci95`` holds the 95% interval of each share as
        ``[low, high]``, under the share's key. ``rows`` is there only when they were kept."""
        data: dict[str, Any] = {
            "rulesets": list(self.rulesets),
            "players": self.players,
            "agents": list(self.agents),
            "games": self.games,
            "seed": self.seed,
            "batches": [list(batch) for batch in self.batches],
            "changes": list(self.changes),
            "change_share": list(self.change_share),
            "any_changes": self.any_changes,
            "any_change_share": self.any_change_share,
            "ci95": {
                "change_share": [list(ci) for ci in self.change_ci95],
                "any_change_share": list(self.any_change_ci95),
            },
            "causes": [dict(causes) for causes in self.causes],
            "examples": [example.to_dict() for example in self.examples],
            "winners": [[list(w) for w in game] for game in self.winners],
        }
        if self.rows is not None:
            data["rows"] = [row._asdict() for row in self.rows]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Comparison:
        """The comparison from :meth:`to_dict` (the figures are computed again from the
        counts): ``Comparison.from_dict(comparison.to_dict()) == comparison``."""
        try:
            return cls(
                rulesets=tuple(data["rulesets"]),
                players=data["players"],
                agents=tuple(data["agents"]),
                batches=_batches_from(data),
                winners=tuple(tuple(tuple(w) for w in game) for game in data.get("winners", ())),
                changes=tuple(data["changes"]),
                any_changes=data["any_changes"],
                causes=tuple(
                    FrozenDict((c, found[c]) for c in CHANGE_CAUSES if c in found)
                    for found in data["causes"]
                ),
                examples=tuple(ChangeExample.from_dict(e) for e in data["examples"]),
                rows=_rows_from(data),
            )
        except (KeyError, TypeError, AttributeError) as error:
            raise InvalidArgument(f"not a comparison of Comparison.to_dict(): {error!r}") from None

    def _winners_by_batch(self) -> list[tuple[Batch, tuple[tuple[tuple[int, ...], ...], ...]]]:
        pieces = []
        offset = 0
        for batch in self.batches:
            size = batch.stop - batch.start
            pieces.append((batch, self.winners[offset : offset + size]))
            offset += size
        return pieces

    def merge(self, other: Comparison) -> Comparison:
        """Both comparisons' games together, exactly as one comparison of them all would
        give: of the same rule sets, players and agents, and of different games.

        >>> args = (["en", "en-early"], 4, "random", 10)
        >>> halves = [compare(*args, seed=3, start=s) for s in (0, 10)]
        >>> halves[0].merge(halves[1]) == compare(["en", "en-early"], 4, "random", 20, seed=3)
        True
        """
        _check_same("rule sets", self.rulesets, other.rulesets)
        _check_same("players", self.players, other.players)
        _check_same("agents", self.agents, other.agents)
        batches = _coalesce((*self.batches, *other.batches))
        pieces = sorted(self._winners_by_batch() + other._winners_by_batch())
        return Comparison(
            rulesets=self.rulesets,
            players=self.players,
            agents=self.agents,
            batches=batches,
            winners=tuple(game for _, winners in pieces for game in winners),
            changes=_add(self.changes, other.changes),
            any_changes=self.any_changes + other.any_changes,
            causes=tuple(
                _add_counts(mine, theirs, CHANGE_CAUSES)
                for mine, theirs in zip(self.causes, other.causes, strict=True)
            ),
            examples=_first_examples((*self.examples, *other.examples), self.rulesets),
            rows=_merged_rows(self.rows, other.rows),
        )

    def write_rows(self, path: str | os.PathLike[str]) -> None:
        """Write :attr:`rows` as CSV or Parquet (see :func:`write_rows`)."""
        if self.rows is None:
            raise InvalidArgument("this comparison kept no rows: compare with rows=True")
        write_rows(self.rows, path)


def _check_comparable(rulesets: Sequence[RuleSet], players: int) -> None:
    first = rulesets[0]
    for rules in rulesets[1:]:
        problem = None
        if players not in rules.player_counts:
            problem = f"it is not played by {players} players"
        elif not set(first.companies(players)) <= set(rules.companies(players)):
            problem = "its deck lacks tiles of the first rule set's deck"
        elif not set(first.nations(players)) <= set(rules.nations(players)):
            problem = "it lacks nations of the first rule set"
        elif not set(first.industries(players)) <= set(rules.industries(players)):
            problem = "it lacks industry tokens of the first rule set"
        if problem:
            raise InvalidArgument(
                f"rule set {rules.id!r} cannot score the games of {first.id!r} with "
                f"{players} players: {problem}"
            )


@attrs.frozen(kw_only=True)
class PlayedComparison:
    """What :func:`compare` with ``play="each"`` found: the same games (same setups, same
    agent seeds) played under each rule set, not only rescored.

    Each tuple has one :class:`~qe_rules.Share` per rule set, in the order of
    ``rulesets``, each with its 95% Wilson interval; the first rule set is the one the
    others are compared with (its changes are 0 of ``games``).
    """

    rulesets: tuple[str, ...]
    players: int
    agents: tuple[str, ...]
    seed: int
    start: int
    games: int
    winner_changed: tuple[Share, ...]
    """Games whose winners differ from those under the first rule set."""
    awarded_differently: tuple[Share, ...]
    """Games in which some tile ends with another owner (or with none) than under the
    first rule set."""
    unsold: tuple[Share, ...]
    """Games in which some tile is sold to nobody."""
    rows: tuple[GameRow, ...] | None = None
    """One row per game, rule set and seat, in game order, when asked for (``rows=True``):
    each from the game as played under that rule set. ``winner_changed`` compares its
    winners with the first rule set's game; ``causes`` is empty (the games differ in
    play, not only in scoring)."""

    def to_dict(self) -> dict[str, Any]:
        """The comparison as JSON types; each share has ``ci95: [low, high]``."""
        data = {
            "play": "each",
            "rulesets": list(self.rulesets),
            "players": self.players,
            "agents": list(self.agents),
            "seed": self.seed,
            "start": self.start,
            "games": self.games,
            "winner_changed": [share.to_dict() for share in self.winner_changed],
            "awarded_differently": [share.to_dict() for share in self.awarded_differently],
            "unsold": [share.to_dict() for share in self.unsold],
        }
        if self.rows is not None:
            data["rows"] = [row._asdict() for row in self.rows]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PlayedComparison:
        """The comparison from :meth:`to_dict` (the shares' figures are recomputed).

        >>> each = compare(["en", "en:beyond_table=zero"], 3, "random", 4, seed=1, play="each")
        >>> PlayedComparison.from_dict(each.to_dict()) == each
        True
        """
        try:
            return cls(
                rulesets=tuple(data["rulesets"]),
                players=data["players"],
                agents=tuple(data["agents"]),
                seed=data["seed"],
                start=data["start"],
                games=data["games"],
                winner_changed=tuple(Share.from_dict(s) for s in data["winner_changed"]),
                awarded_differently=tuple(Share.from_dict(s) for s in data["awarded_differently"]),
                unsold=tuple(Share.from_dict(s) for s in data["unsold"]),
                rows=_rows_from(dict(data)),
            )
        except (KeyError, TypeError) as error:
            raise InvalidArgument(f"not a played comparison: {shown(error)}") from None

    def write_rows(self, path: str | os.PathLike[str]) -> None:
        """Write :attr:`rows` as CSV or Parquet (see :func:`write_rows`)."""
        if self.rows is None:
            raise InvalidArgument("this comparison kept no rows: compare with rows=True")
        write_rows(self.rows, path)

    def __str__(self) -> str:
        lines = [
            f"{self.games} games of {self.players} players ({', '.join(self.agents)}), "
            f"played under each rule set; compared with {self.rulesets[0]}:"
        ]
        for number, rid in enumerate(self.rulesets):
            parts = []
            for label, shares in (
                ("winner changed", self.winner_changed),
                ("tile awarded differently", self.awarded_differently),
                ("unsold tile", self.unsold),
            ):
                share = shares[number]
                low, high = share.ci95
                parts.append(f"{label} {share.value:.1%} [{low:.1%}, {high:.1%}]")
            lines.append(f"  {rid}: " + "; ".join(parts))
        return "\n".join(lines)


def _owners(game: Game) -> tuple[frozenset[Any], ...]:
    return tuple(frozenset(record.companies) for record in game.player_records())


class _PlayedChunk(NamedTuple):
    """A chunk of a played comparison, per rule set: the games whose winners changed,
    whose tiles were awarded differently and with an unsold tile; and the rows when
    asked for."""

    winners: list[int]
    awards: list[int]
    unsold: list[int]
    rows: list[GameRow]


def _played_chunk(task: _Task) -> _PlayedChunk:
    rulesets = [_local(rules) for rules in task.rulesets]
    factories = [_factories(task.specs, rules) for rules in rulesets]
    labels = [agent_label(spec) for spec in task.specs] if task.rows else []
    count = len(rulesets)
    done = _PlayedChunk([0] * count, [0] * count, [0] * count, [])
    for index in range(task.start, task.stop):
        played = [
            _play(rules, task.players, made, task.seed, index)
            for rules, made in zip(rulesets, factories, strict=True)
        ]
        first_winners, first_owners = played[0].result().winners, _owners(played[0])
        for number, game in enumerate(played):
            result = game.result()
            changed = result.winners != first_winners
            done.winners[number] += changed
            done.awards[number] += _owners(game) != first_owners
            done.unsold[number] += any(isinstance(e, NotAwarded) for e in game.events)
            if task.rows:
                done.rows.extend(
                    _rows_of(task.seed, index, result, game, labels, winner_changed=changed)
                )
    return done


def _compare_played(run: _Run, parts: Sequence[_PlayedChunk]) -> PlayedComparison:
    def shares(counts: Callable[[_PlayedChunk], list[int]]) -> tuple[Share, ...]:
        return tuple(
            Share(sum(found), run.games) for found in zip(*map(counts, parts), strict=True)
        )

    return PlayedComparison(
        rulesets=tuple(rules.id for rules in run.rulesets),
        players=run.players,
        agents=tuple(agent_label(spec) for spec in run.specs),
        seed=run.seed,
        start=run.start,
        games=run.games,
        winner_changed=shares(lambda part: part.winners),
        awarded_differently=shares(lambda part: part.awards),
        unsold=shares(lambda part: part.unsold),
        rows=tuple(row for part in parts for row in part.rows) if run.rows else None,
    )


@overload
def compare(
    rulesets: Sequence[RuleSet | str],
    players: int,
    agents: AgentSpec | Sequence[AgentSpec],
    games: int,
    *,
    seed: int,
    start: int = ...,
    workers: int = ...,
    executor: concurrent.futures.Executor | None = ...,
    rows: bool = ...,
    progress: Progress | None = ...,
    play: Literal["first"] = ...,
) -> Comparison: ...


@overload
def compare(
    rulesets: Sequence[RuleSet | str],
    players: int,
    agents: AgentSpec | Sequence[AgentSpec],
    games: int,
    *,
    seed: int,
    start: int = ...,
    workers: int = ...,
    executor: concurrent.futures.Executor | None = ...,
    rows: bool = ...,
    progress: Progress | None = ...,
    play: Literal["each"],
) -> PlayedComparison: ...


def compare(
    rulesets: Sequence[RuleSet | str],
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
    play: Literal["first", "each"] = "first",
) -> Comparison | PlayedComparison:
    """Play ``games`` games under the first rule set and score each one's final holdings
    under every rule set, to see how often and why the winner changes.

    With ``play="each"`` every game is played under each rule set instead (the same
    setups and agent seeds), and a :class:`PlayedComparison` gives the shares of games
    whose winner changes, whose tiles are awarded differently and with an unsold tile,
    each with its 95% interval. ``workers``, ``executor``, ``rows`` and ``progress``
    work for both: the same seed gives the same numbers whatever runs the games.

    >>> each = compare(["en-early", "en-early:unique_bid_pool=standing-bids"], 4,
    ...                "random", 20, seed=1, play="each")
    >>> each.games, each.winner_changed[0].count
    (20, 0)

    Arguments as for :func:`simulate`; the same ``seed`` plays the same games as
    :func:`simulate` does under the first rule set. A rule set that cannot score the
    games (another deck, player count, nations or tokens) raises
    :class:`~qe_rules.InvalidArgument` naming it.
    """
    if isinstance(rulesets, str | RuleSet) or not isinstance(rulesets, Sequence):
        raise InvalidArgument(f"rulesets is a list of rule sets or ids, got {shown(rulesets)}")
    if not rulesets:
        raise InvalidArgument("rulesets: give at least one rule set")
    chosen = tuple(_check_rules(rules) for rules in rulesets)
    players = chosen[0].check_players(players)
    _check_comparable(chosen, players)
    specs = _check_agents(agents, players)
    games = _check_int(games, "games", 1)
    seed = _check_seed(seed)
    start = _check_int(start, "start", 0)
    workers = _check_int(workers, "workers", 1)
    executor = _check_executor(executor)
    rows = _check_rows(rows)
    progress = _check_progress(progress)
    if play not in ("first", "each"):
        raise InvalidArgument(f"play is 'first' or 'each', got {shown(play)}")
    run = _Run(chosen, players, specs, games, seed, start, rows)
    if play == "each":
        return _compare_played(run, _run(_played_chunk, run, workers, executor, progress))
    parts: list[_Compared] = _run(_compare_chunk, run, workers, executor, progress)
    winners: list[tuple[tuple[int, ...], ...]] = []
    changes = [0] * len(chosen)
    any_changes = 0
    causes: list[dict[str, int]] = [{} for _ in chosen]
    ids = tuple(rules.id for rules in chosen)
    for part in parts:
        for row in part.scored:
            winners.append(row.winners)
            changed = False
            for number, reasons in enumerate(row.causes):
                if reasons:
                    changed = True
                    changes[number] += 1
                    for cause in reasons:
                        causes[number][cause] = causes[number].get(cause, 0) + 1
            any_changes += changed
    examples = [
        ChangeExample(
            ruleset=ids[number],
            cause=cause,
            seed=seed,
            game=game,
            winners=winners[game - start][0],
            other_winners=winners[game - start][number],
            record=GameRecord.from_dict(record),
        )
        for part in parts
        for (number, cause), (game, record) in part.examples.items()
    ]
    return Comparison(
        rulesets=ids,
        players=players,
        agents=tuple(agent_label(spec) for spec in specs),
        batches=(Batch(seed, start, start + games),),
        winners=tuple(winners),
        changes=tuple(changes),
        any_changes=any_changes,
        causes=tuple(
            FrozenDict((c, found[c]) for c in CHANGE_CAUSES if c in found) for found in causes
        ),
        examples=_first_examples(examples, ids),
        rows=tuple(row for part in parts for row in part.rows) if rows else None,
    )


# --------------------------------------------------------------------------- text


def _percent(share: float) -> str:
    return f"{share * 100:.1f}%"


def _interval(interval: tuple[float, float]) -> str:
    low, high = interval
    return f"{low * 100:.1f}-{high * 100:.1f}%"


def _share_text(share: float, interval: tuple[float, float]) -> str:
    return f"{_percent(share)} of games (95% interval {_interval(interval)})"


def _labelled(pairs: Sequence[tuple[str, str]]) -> list[str]:
    width = max(len(label) for label, _ in pairs)
    return [f"{label.ljust(width)}  {value}" for label, value in pairs]


def format_stats(stats: SimulationStats) -> str:
    """:class:`SimulationStats` as a plain-text report."""
    lines = [
        f"{stats.games} games of {stats.ruleset} with {stats.players} players, "
        f"{_batches_text(stats.batches)}",
        "",
    ]
    lines += table(
        ("seat", "agent", "wins", "share", "(95%)", "total", "(sd)", "spend", "(sd)"),
        (
            (
                seat,
                stats.agents[seat],
                stats.wins[seat],
                _percent(stats.win_share[seat]),
                _interval(stats.win_ci95[seat]),
                f"{stats.seat_total_mean[seat]:.1f}",
                f"{stats.seat_total_stdev[seat]:.1f}",
                f"{stats.seat_spend_mean[seat]:.1f}",
                f"{stats.seat_spend_stdev[seat]:.1f}",
            )
            for seat in range(stats.players)
        ),
        left=2,
    )
    lines.append("")
    intervals = stats.agent_win_ci95
    lines += table(
        ("agent", "seats", "win share per seat", "(95%)"),
        (
            (agent, stats.agents.count(agent), _percent(share), _interval(intervals[agent]))
            for agent, share in stats.agent_win_share.items()
        ),
    )
    winning = stats.winning_total_mean
    gaps = ", ".join(f"{code} {count}" for code, count in stats.gap_codes.items())
    lines.append("")
    lines += _labelled(
        [
            ("total points", f"mean {stats.total_mean:.1f}, sd {stats.total_stdev:.1f}"),
            ("spend", f"mean {stats.spend_mean:.1f}, sd {stats.spend_stdev:.1f}"),
            ("winning total", "-" if winning is None else f"mean {winning:.1f}"),
            ("no single winner", _share_text(stats.no_winner_share, stats.no_winner_ci95)),
            (
                "lowest spender won",
                _share_text(stats.lowest_spender_win_share, stats.lowest_spender_win_ci95),
            ),
            ("unsold sales", f"{stats.unsold_mean:.2f} per game"),
            ("rule gaps", _share_text(stats.gap_share, stats.gap_ci95)),
            *([("gap codes", gaps)] if gaps else []),
        ]
    )
    return "\n".join(lines)


def format_comparison(comparison: Comparison) -> str:
    """:class:`Comparison` as a plain-text report."""
    c = comparison
    first = c.rulesets[0]
    lines = [
        f"{c.games} games of {first} with {c.players} players, {_batches_text(c.batches)}, "
        f"agents {', '.join(c.agents)}",
        f"scored under {', '.join(c.rulesets)}",
        "",
    ]
    if len(c.rulesets) == 1:
        return "\n".join([*lines, "no other rule set to compare with"])
    used = [cause for cause in CHANGE_CAUSES if any(cause in found for found in c.causes)]
    lines += table(
        ("rule set", "winner changes", "share", "(95%)", *used),
        (
            (
                c.rulesets[number],
                c.changes[number],
                _percent(c.change_share[number]),
                _interval(c.change_ci95[number]),
                *(c.causes[number].get(cause, 0) for cause in used),
            )
            for number in range(1, len(c.rulesets))
        ),
    )
    lines += [
        "",
        f"under any of them: {c.any_changes} ({_percent(c.any_change_share)}, 95% interval "
        f"{_interval(c.any_change_ci95)})",
    ]
    if c.examples:
        lines += ["", "examples (game number: winners before -> after)"]
        lines += [
            f"  {e.ruleset}, {e.cause}: game {e.game}: {list(e.winners)} -> {list(e.other_winners)}"
            for e in c.examples
        ]
    return "\n".join(lines)


def measure_open_questions(games: int, *, seed: int = 0, players: int = 4) -> dict[str, Any]:
    """The data of ``qe_rules/data/open-questions-measured.toml``: for every reading of
    every open question (see :func:`qe_rules.texts.questions.readings_to_measure`) and for
    random and value agents, how many of ``games`` games change their winner when played
    under that reading instead of the base rule set's (``compare(..., play="each")``)."""
    from qe_rules.texts.questions import readings_to_measure

    readings = []
    for question, base, value in readings_to_measure():
        other = question.spec(base, value)
        for agents in ("random", "value"):
            played = compare([base, other], players, agents, games, seed=seed, play="each")
            readings.append(
                {
                    "field": question.field,
                    "base": base,
                    "reading": other.split("=", 1)[1],
                    "agents": agents,
                    "games": games,
                    "changed": played.winner_changed[1].count,
                }
            )
    return {"players": players, "games": games, "seed": seed, "readings": readings}
