"""Rule sets compared: :func:`compare` plays games once and scores each under several rule
sets, to show how often and why the winner changes (a :class:`Comparison`), or plays the
same games under each rule set (a :class:`PlayedComparison`).

>>> from qe_rules.simulation.comparison import compare
>>> c = compare(["en", "en-early"], 4, "random", 20, seed=1)
>>> c.games, c.changes[0]
(20, 0)
"""

from __future__ import annotations

import concurrent.futures
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final, Literal, overload

import attrs

from qe_rules._util.deprecation import renamed
from qe_rules._util.frozen import FrozenDict
from qe_rules._util.reading import (
    ARGUMENTS,
    MAX_INTEGER,
    Fields,
    agree,
    listed,
    seats,
    text,
    whole,
)
from qe_rules.errors import InvalidArgument, RulesError, shown
from qe_rules.game.engine import Game, replay
from qe_rules.game.events import NotAwarded
from qe_rules.game.records import GameRecord
from qe_rules.game.scoring import GameResult, score_game
from qe_rules.rules.model import Category, RuleSet
from qe_rules.simulation._documents import (
    agents_of,
    at_most_each,
    batches_of,
    check_figures,
    counts_of,
    games_of,
    given_rulesets,
    grouped_rows,
    players_of,
    rows_of,
    rules_of,
    seat_of,
    texts,
)
from qe_rules.simulation._text import interval_text, percent
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
    dealt_game,
)
from qe_rules.simulation.rows import GameRow, _merged_rows, _rows_of, write_rows
from qe_rules.simulation.runner import _local, _Run, _run, _Task
from qe_rules.simulation.stats import (
    GameRange,
    _add,
    _add_counts,
    _batch_plays,
    _Batched,
    _batches_text,
    _check_same,
    _coalesce,
    _engine_of,
)
from qe_rules.simulation.tallies import CHANGE_CAUSES, _Compared, _PlayedChunk, _rescored
from qe_rules.texts.reports import table

__all__ = [
    "CHANGE_CAUSES",
    "ChangeExample",
    "Comparison",
    "PlayedComparison",
    "compare",
    "format_comparison",
]


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
    def from_dict(
        cls,
        data: Any,
        where: str = "example",
        *,
        rulesets: Sequence[RuleSet | str] | RuleSet | str | None = None,
    ) -> ChangeExample:
        """The example from :meth:`to_dict`; raises :class:`~qe_rules.InvalidArgument`
        naming the key that is missing, unknown or wrong, or the fields that disagree.

        An example is accepted only where it is what :func:`compare` finds: its record
        the deal of game ``game`` of the run with ``seed``, played to the end, whose
        winners are ``winners``, and scored under ``ruleset`` gives ``other_winners``
        with ``cause`` among the causes. ``ruleset`` is a built-in id or a spec string,
        or one of the rule sets given as ``rulesets``."""
        fields = Fields(
            data,
            where,
            ("ruleset", "cause", "game", "winners", "other_winners", "record"),
            ("seed",),
        )
        get = fields.get
        try:
            record = GameRecord.from_dict(data["record"])
        except RulesError as error:
            raise InvalidArgument(f"{where}.record: {error}") from None
        example = cls(
            ruleset=get("ruleset", text),
            cause=get("cause", _cause),
            seed=get("seed", ARGUMENTS.integer, 0),
            game=get("game", whole),
            winners=get("winners", _winners),
            other_winners=get("other_winners", _winners),
            record=record,
        )
        seats(example.winners, record.players, f"{where}.winners")
        seats(example.other_winners, record.players, f"{where}.other_winners")
        agree(example.winners != example.other_winners, where, "the winners do not change")
        _check_example(example, given_rulesets(rulesets), where)
        return example


def _compared_rules(
    ids: Sequence[str], players: int, given: Mapping[str, RuleSet], where: str
) -> tuple[RuleSet, ...]:
    """The rule sets a comparison names, each able to score the first's games."""
    chosen = tuple(rules_of(rid, given, f"{where}[{n}]") for n, rid in enumerate(ids))
    agree(
        players in chosen[0].player_counts,
        where,
        f"{chosen[0].id} is not played by {players} players",
    )
    try:
        _check_comparable(chosen, players)
    except InvalidArgument as error:
        raise ARGUMENTS.disagree(where, str(error)) from None
    return chosen


def _check_compared(comparison: Comparison, chosen: Sequence[RuleSet]) -> None:
    """Check a comparison's examples and rows against its games: one example per rule set
    and cause counted, in order, each a game of the run with the winners given; the rows
    the games' score sheets under each rule set, whose winners, changes and causes are
    the comparison's."""
    where, ids = "comparison", comparison.rulesets
    numbers = [(b.seed, game) for b in comparison.batches for game in range(b.start, b.stop)]
    position = {number: index for index, number in enumerate(numbers)}
    counted = {(ids[n], cause) for n, found in enumerate(comparison.causes) for cause in found}
    pairs = [(example.ruleset, example.cause) for example in comparison.examples]
    agree(
        len(set(pairs)) == len(pairs) and set(pairs) == counted,
        f"{where}.examples",
        "hold one example for each rule set and cause counted",
    )
    order = sorted(pairs, key=lambda pair: (ids.index(pair[0]), CHANGE_CAUSES.index(pair[1])))
    agree(pairs == order, f"{where}.examples", "are in the order of the rule sets and causes")
    for index, example in enumerate(comparison.examples):
        at = f"{where}.examples[{index}]"
        agree(example.record.ruleset == chosen[0], f"{at}.record", f"is not a game of {ids[0]}")
        game = position.get((example.seed, example.game))
        agree(game is not None, at, f"game {example.game} of seed {example.seed} is not compared")
        assert game is not None
        winners = comparison.winners[game]
        agree(
            winners[0] == example.winners
            and any(
                winners[n] == example.other_winners
                for n, rid in enumerate(ids)
                if rid == example.ruleset
            ),
            at,
            f"the comparison gives that game the winners {[list(w) for w in winners]}",
        )
    if comparison.rows is None:
        return
    causes: list[dict[str, int]] = [{} for _ in ids]
    grouped = grouped_rows(
        comparison.rows, numbers, chosen, comparison.players, comparison.agents, f"{where}.rows"
    )
    for number, per_rules in enumerate(grouped):
        base = per_rules[0].result
        for n, found in enumerate(per_rules):
            at = f"{where}.rows[{(number * len(ids) + n) * comparison.players}]"
            agree(
                found.result.winners == comparison.winners[number][n],
                f"{at}.won",
                "the rows' sheets decide other winners than the comparison's",
            )
            reasons = () if found.result.winners == base.winners else _causes(base, found.result)
            agree(
                all(
                    (row.winner_changed, row.causes, row.unsold)
                    == (bool(reasons), " ".join(reasons), per_rules[0].rows[0].unsold)
                    for row in found.rows
                ),
                f"{at}.causes",
                f"the rows' sheets give {' '.join(reasons) or 'no change'}",
            )
            for cause in reasons:
                causes[n][cause] = causes[n].get(cause, 0) + 1
    for n, by_cause in enumerate(causes):
        agree(
            dict(comparison.causes[n]) == by_cause,
            f"{where}.causes[{n}]",
            f"the rows give {by_cause}",
        )


def _check_played(played: PlayedComparison, chosen: Sequence[RuleSet]) -> None:
    """Check a played comparison's rows (where kept) against its shares: each game's rows
    under each rule set its score sheets, the games whose winners change and the games
    with an unsold tile counted as the shares count them."""
    if played.rows is None:
        return
    where = "played comparison"
    numbers = [(played.seed, game) for game in range(played.start, played.start + played.games)]
    changed = [0] * len(chosen)
    unsold = [0] * len(chosen)
    grouped = grouped_rows(
        played.rows, numbers, chosen, played.players, played.agents, f"{where}.rows"
    )
    for per_rules in grouped:
        base = per_rules[0].result.winners
        for n, found in enumerate(per_rules):
            change = found.result.winners != base
            agree(
                all(row.winner_changed is change and not row.causes for row in found.rows),
                f"{where}.rows",
                "a row's winner_changed differs from its sheets' winners",
            )
            changed[n] += change
            unsold[n] += found.rows[0].unsold > 0
    for key, counts in (("winner_changed", changed), ("unsold", unsold)):
        given = [share.count for share in getattr(played, key)]
        agree(given == counts, f"{where}.{key}", f"the rows give the counts {counts}")


def _check_example(example: ChangeExample, given: Mapping[str, RuleSet], where: str) -> None:
    """Check an example against its game: the deal of its seed and number, replayed to
    the end, scored under both rule sets."""
    record = example.record
    other = rules_of(example.ruleset, given, f"{where}.ruleset")
    dealt = dealt_game(record.ruleset, record.players, example.seed, example.game)
    setup = ("deck", "nations", "industries", "first_auctioneer")
    deal, written = dealt.to_record(), record.to_dict()
    agree(
        all(deal[key] == written[key] for key in setup),
        f"{where}.record",
        f"is not the deal of game {example.game} of seed {example.seed}",
    )
    try:
        game = replay(record)
    except RulesError as error:
        raise ARGUMENTS.disagree(f"{where}.record", str(error)) from None
    agree(game.is_over, f"{where}.record", "is not a finished game")
    base = game.result()
    try:
        scored = score_game(other, game.player_records())
    except RulesError as error:
        raise ARGUMENTS.disagree(f"{where}.ruleset", f"cannot score the game: {error}") from None
    agree(
        example.winners == base.winners,
        f"{where}.winners",
        f"the record's game has the winners {list(base.winners)}",
    )
    agree(
        example.other_winners == scored.winners,
        f"{where}.other_winners",
        f"the record's game scored under {other.id} has the winners {list(scored.winners)}",
    )
    agree(
        example.cause in _causes(base, scored),
        f"{where}.cause",
        f"the change is put down to {', '.join(_causes(base, scored))}",
    )


def _cause(value: Any, where: str) -> str:
    if value not in CHANGE_CAUSES:
        raise ARGUMENTS.fail(where, "one of " + ", ".join(map(repr, CHANGE_CAUSES)), value)
    return str(value)


def _winners(value: Any, where: str) -> tuple[int, ...]:
    winners = listed(value, where, seat_of)
    agree(len(set(winners)) == len(winners), where, "repeats a seat")
    return winners


def _scorings(
    game: Game, rulesets: Sequence[RuleSet]
) -> tuple[list[GameResult], tuple[tuple[str, ...], ...]]:
    """A finished game of the first rule set scored under each rule set, and per rule
    set the causes of its change of winners from the first's (none where they agree)."""
    records = game.player_records()
    results = [game.result()]
    results += [_rescored(rules, rulesets[0], game.players, records) for rules in rulesets[1:]]
    base = results[0]
    causes = tuple(
        () if result.winners == base.winners else _causes(base, result) for result in results
    )
    return results, causes


def _compare_chunk(task: _Task) -> _Compared:
    rulesets = [_local(rules) for rules in task.rulesets]
    first = rulesets[0]
    factories = _factories(task.specs, first)
    labels = [agent_label(spec) for spec in task.specs] if task.rows else []
    count = len(rulesets)
    done = _Compared([], [0] * count, 0, [{} for _ in rulesets], {}, [])
    any_changes = 0
    for index in range(task.start, task.stop):
        game = _play(first, task.players, factories, task.seed, index)
        results, causes = _scorings(game, rulesets)
        done.winners.append(tuple(result.winners for result in results))
        any_changes += any(causes)
        for number, found in enumerate(causes):
            done.changes[number] += bool(found)
            for cause in found:
                done.causes[number][cause] = done.causes[number].get(cause, 0) + 1
                if (number, cause) not in done.examples:
                    done.examples[number, cause] = (index, game.to_record())
        if task.rows:
            for result, found in zip(results, causes, strict=True):
                done.rows.extend(
                    _rows_of(
                        task.seed, index, result, game, labels, found, winner_changed=bool(found)
                    )
                )
    return done._replace(any_changes=any_changes)


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
    batches: tuple[GameRange, ...]
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
    engine: str = "reference"
    """The engine that played the games under the first rule set (see
    :func:`~qe_rules.simulate`); the rescoring is the same on both."""

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
            "engine": self.engine,
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
    def from_dict(
        cls,
        data: Mapping[str, Any],
        *,
        rulesets: Sequence[RuleSet | str] | RuleSet | str | None = None,
    ) -> Comparison:
        """The comparison from :meth:`to_dict` (the figures are computed again from the
        counts): ``Comparison.from_dict(comparison.to_dict()) == comparison``.

        Raises :class:`~qe_rules.InvalidArgument` naming the key that is missing, unknown
        or wrong, or the counts that disagree: the winners of each game under each rule
        set decide the changes, which must be those given; the examples are the games of
        the run (``ChangeExample.from_dict``), one for each rule set and cause counted;
        rows (where kept) are the games' score sheets and add up to the counts. Rule sets
        are named by their ids, or (loaded from files) given as ``rulesets``.
        """
        fields = Fields(
            data,
            "comparison",
            (
                "rulesets",
                "players",
                "agents",
                "winners",
                "changes",
                "any_changes",
                "causes",
                "examples",
            ),
            ("batches", "seed", "games", "rows", "engine", *_COMPARISON_FIGURES),
        )
        get = fields.get
        ids = get("rulesets", texts)
        agree(bool(ids), "comparison.rulesets", "needs at least one rule set")
        players = get("players", players_of)
        batches = batches_of(fields)
        games = sum(stop - start for _, start, stop in batches)

        def game_winners(value: Any, where: str) -> tuple[tuple[int, ...], ...]:
            found = listed(value, where, _winners)
            per_ruleset(found, len(ids), where)
            seats([seat for winners in found for seat in winners], players, where)
            return found

        winners = get("winners", lambda v, at: listed(v, at, game_winners))
        agree(len(winners) == games, "comparison.winners", f"needs one entry per game ({games})")
        changes = get("changes", counts_of)
        per_ruleset(changes, len(ids), "comparison.changes")
        counted = [sum(game[n] != game[0] for game in winners) for n in range(len(ids))]
        agree(list(changes) == counted, "comparison.changes", f"the winners give {counted}")
        any_changes = get("any_changes", whole)
        any_counted = sum(any(w != game[0] for w in game) for game in winners)
        agree(
            any_changes == any_counted, "comparison.any_changes", f"the winners give {any_counted}"
        )
        causes = get("causes", lambda v, at: listed(v, at, _causes_counts))
        per_ruleset(causes, len(ids), "comparison.causes")
        for number, found in enumerate(causes):
            at_most_each(
                list(found.values()), changes[number], f"comparison.causes[{number}]", "changes"
            )
        given = given_rulesets(rulesets)
        chosen = _compared_rules(ids, players, given, "comparison.rulesets")
        raw = fields.data["examples"]
        most = (len(ids) - 1) * len(CHANGE_CAUSES)
        if isinstance(raw, list | tuple):  # counted before any example is replayed
            agree(
                len(raw) <= most,
                "comparison.examples",
                f"holds one example per rule set and cause, at most {most}, got {len(raw)}",
            )
        examples = get(
            "examples",
            lambda v, at: listed(
                v, at, lambda e, a: ChangeExample.from_dict(e, a, rulesets=chosen)
            ),
        )
        for index, example in enumerate(examples):
            where = f"comparison.examples[{index}]"
            agree(example.ruleset in ids[1:], where, "names a rule set not compared")
            agree(example.record.players == players, where, f"is not a game of {players} players")
            agree(
                example.cause in causes[ids.index(example.ruleset)],
                where,
                "has a cause the counts do not have",
            )
        comparison = cls(
            rulesets=ids,
            players=players,
            agents=agents_of(data["agents"], "comparison.agents", players),
            batches=tuple(GameRange(*batch) for batch in batches),
            winners=winners,
            changes=changes,
            any_changes=any_changes,
            causes=tuple(
                FrozenDict((c, found[c]) for c in CHANGE_CAUSES if c in found) for found in causes
            ),
            examples=examples,
            rows=rows_of(fields, games * players * len(ids)),
            engine=get("engine", _engine_of, "reference"),
        )
        check_figures(fields, comparison.to_dict(), _COMPARISON_FIGURES)
        _check_compared(comparison, chosen)
        return comparison

    def _winners_by_batch(self) -> list[tuple[GameRange, tuple[tuple[tuple[int, ...], ...], ...]]]:
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
        if not isinstance(other, Comparison):
            raise InvalidArgument(f"merge takes another Comparison, got {shown(other)}")
        _check_same("rule sets", self.rulesets, other.rulesets)
        _check_same("players", self.players, other.players)
        _check_same("agents", self.agents, other.agents)
        _check_same("engine", self.engine, other.engine)
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
            engine=self.engine,
        )

    def write_rows(self, path: str | os.PathLike[str]) -> None:
        """Write :attr:`rows` as CSV or Parquet (see :func:`write_rows`)."""
        if self.rows is None:
            raise InvalidArgument("this comparison kept no rows: compare with rows=True")
        write_rows(self.rows, path)

    def to_text(self) -> str:
        """The comparison as a plain-text report: for each rule set after the first, its
        winner changes with their 95% interval and causes, then the first example games."""
        first = self.rulesets[0]
        lines = [
            f"{self.games} games of {first} with {self.players} players, {_batches_text(self.batches)}, "
            f"agents {', '.join(self.agents)}, played by the {self.engine} engine",
            f"scored under {', '.join(self.rulesets)}",
            "",
        ]
        if len(self.rulesets) == 1:
            return "\n".join([*lines, "no other rule set to compare with"])
        used = [cause for cause in CHANGE_CAUSES if any(cause in found for found in self.causes)]
        lines += table(
            ("rule set", "winner changes", "share", "(95%)", *used),
            (
                (
                    self.rulesets[number],
                    self.changes[number],
                    percent(self.change_share[number]),
                    interval_text(self.change_ci95[number]),
                    *(self.causes[number].get(cause, 0) for cause in used),
                )
                for number in range(1, len(self.rulesets))
            ),
        )
        lines += [
            "",
            f"under any of them: {self.any_changes} ({percent(self.any_change_share)}, 95% interval "
            f"{interval_text(self.any_change_ci95)})",
        ]
        if self.examples:
            lines += ["", "examples (game number: winners before -> after)"]
            lines += [
                f"  {e.ruleset}, {e.cause}: game {e.game}: {list(e.winners)} -> {list(e.other_winners)}"
                for e in self.examples
            ]
        return "\n".join(lines)

    __str__ = to_text


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
class PlayedComparison(_Batched):
    """What :func:`compare` with ``play="each"`` found: the same games (same setups, same
    agent seeds) played under each rule set, not only rescored.

    Each tuple has one :class:`~qe_rules.Share` per rule set, in the order of
    ``rulesets``, each with its 95% Wilson interval; the first rule set is the one the
    others are compared with (its changes are 0 of ``games``). Comparisons of other games
    merge exactly (:meth:`merge`).
    """

    rulesets: tuple[str, ...]
    players: int
    agents: tuple[str, ...]
    batches: tuple[GameRange, ...]
    """The games compared, as runs of game numbers per seed, in order."""
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
    engine: str = "reference"
    """The engine that played the games (see :func:`~qe_rules.simulate`). On the batch
    every rule set plays from the same draws (common random numbers): a game differs
    between rule sets only where the rules make it differ, so each share is of paired
    games."""

    @property
    def start(self) -> int:
        """The first game's number in the (first) run."""
        return self.batches[0].start

    def to_dict(self) -> dict[str, Any]:
        """The comparison as JSON types; each share has ``ci95: [low, high]``."""
        data = {
            "play": "each",
            "engine": self.engine,
            "rulesets": list(self.rulesets),
            "players": self.players,
            "agents": list(self.agents),
            "seed": self.seed,
            "start": self.start,
            "games": self.games,
            "batches": [list(batch) for batch in self.batches],
            "winner_changed": [share.to_dict() for share in self.winner_changed],
            "awarded_differently": [share.to_dict() for share in self.awarded_differently],
            "unsold": [share.to_dict() for share in self.unsold],
        }
        if self.rows is not None:
            data["rows"] = [row._asdict() for row in self.rows]
        return data

    @classmethod
    def from_dict(
        cls,
        data: Mapping[str, Any],
        *,
        rulesets: Sequence[RuleSet | str] | RuleSet | str | None = None,
    ) -> PlayedComparison:
        """The comparison from :meth:`to_dict` (the shares' figures are recomputed);
        raises :class:`~qe_rules.InvalidArgument` naming the key that is missing,
        unknown or wrong, or the counts that disagree (one share per rule set, each out
        of the games, none for the first rule set against itself; rows, where kept, the
        games' score sheets, whose changes of winner and unsold tiles are the shares').
        Rule sets are named by their ids, or (loaded from files) given as ``rulesets``.

        >>> each = compare(["en", "en:beyond_table=zero"], 3, "random", 4, seed=1, play="each")
        >>> PlayedComparison.from_dict(each.to_dict()) == each
        True
        """
        fields = Fields(
            data,
            "played comparison",
            ("rulesets", "players", "agents", *_SHARE_KEYS),
            ("play", "rows", "engine", "batches", "seed", "start", "games"),
        )
        get = fields.get
        given = rulesets
        if "play" in fields.data and fields.data["play"] != "each":
            raise ARGUMENTS.fail("played comparison.play", "'each'", fields.data["play"])
        rulesets = get("rulesets", texts)
        agree(bool(rulesets), "played comparison.rulesets", "needs at least one rule set")
        players = get("players", players_of)
        batches = _played_batches(fields)
        games = sum(stop - start for _, start, stop in batches)
        shares = {}
        for key in _SHARE_KEYS:
            where = f"played comparison.{key}"
            found = get(key, lambda v, at: listed(v, at, Share.from_dict))
            per_ruleset(found, len(rulesets), where)
            for number, share in enumerate(found):
                agree(
                    share.total == games and share.parts == 1,
                    f"{where}[{number}]",
                    f"a share of the {games} games",
                )
            shares[key] = found
        for key in ("winner_changed", "awarded_differently"):
            agree(
                shares[key][0].count == 0,
                f"played comparison.{key}[0]",
                "the first rule set does not differ from itself",
            )
        chosen = _compared_rules(
            rulesets, players, given_rulesets(given), "played comparison.rulesets"
        )
        played = cls(
            rulesets=rulesets,
            players=players,
            agents=agents_of(data["agents"], "played comparison.agents", players),
            batches=tuple(GameRange(*batch) for batch in batches),
            winner_changed=shares["winner_changed"],
            awarded_differently=shares["awarded_differently"],
            unsold=shares["unsold"],
            rows=rows_of(fields, games * players * len(rulesets)),
            engine=get("engine", _engine_of, "reference"),
        )
        _check_played(played, chosen)
        return played

    def merge(self, other: PlayedComparison) -> PlayedComparison:
        """Both comparisons' games together, exactly as one comparison of them all would
        give: of the same rule sets, players, agents and engine, and of different games.

        >>> args = (["en", "en-early"], 4, "random")
        >>> halves = [compare(*args, 10, seed=3, start=s, play="each") for s in (0, 10)]
        >>> halves[0].merge(halves[1]) == compare(*args, 20, seed=3, play="each")
        True
        """
        _check_same("rule sets", self.rulesets, other.rulesets)
        _check_same("players", self.players, other.players)
        _check_same("agents", self.agents, other.agents)
        _check_same("engine", self.engine, other.engine)

        def added(mine: tuple[Share, ...], theirs: tuple[Share, ...]) -> tuple[Share, ...]:
            return tuple(a + b for a, b in zip(mine, theirs, strict=True))

        return PlayedComparison(
            rulesets=self.rulesets,
            players=self.players,
            agents=self.agents,
            batches=_coalesce((*self.batches, *other.batches)),
            winner_changed=added(self.winner_changed, other.winner_changed),
            awarded_differently=added(self.awarded_differently, other.awarded_differently),
            unsold=added(self.unsold, other.unsold),
            rows=_merged_rows(self.rows, other.rows),
            engine=self.engine,
        )

    def write_rows(self, path: str | os.PathLike[str]) -> None:
        """Write :attr:`rows` as CSV or Parquet (see :func:`write_rows`)."""
        if self.rows is None:
            raise InvalidArgument("this comparison kept no rows: compare with rows=True")
        write_rows(self.rows, path)

    def to_text(self) -> str:
        """The comparison as a plain-text report: for each rule set, its three shares with
        their 95% intervals."""
        lines = [
            f"{self.games} games of {self.players} players ({', '.join(self.agents)}), "
            f"{_batches_text(self.batches)}, played under each rule set by the {self.engine} "
            f"engine; compared with {self.rulesets[0]}:"
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

    __str__ = to_text


_SHARE_KEYS: Final = ("winner_changed", "awarded_differently", "unsold")


def _played_batches(fields: Fields) -> tuple[tuple[int, int, int], ...]:
    """The batches of a played comparison: ``batches``, or the ``seed``, ``start`` and
    ``games`` of one run (the form written before comparisons merged); where both are
    given they must agree."""
    if "batches" in fields.data:
        batches = batches_of(fields)  # checks seed and games against them
        if "start" in fields.data:
            agree(
                fields.get("start", whole) == batches[0][1],
                f"{fields.where}.start",
                "disagrees with batches",
            )
        return batches
    agree(
        all(key in fields.data for key in ("seed", "start", "games")),
        fields.where,
        "needs batches, or seed, start and games",
    )
    seed = fields.get("seed", ARGUMENTS.integer)
    start = fields.get("start", whole)
    games = fields.get("games", games_of)
    agree(
        start + games <= MAX_INTEGER,
        f"{fields.where}.start",
        f"the games end beyond {MAX_INTEGER}",
    )
    return ((seed, start, start + games),)


_COMPARISON_FIGURES: Final = ("change_share", "any_change_share", "ci95")


def per_ruleset(values: Any, count: int, where: str) -> None:
    """Check that ``values`` has one entry per rule set."""
    agree(len(values) == count, where, f"needs one entry per rule set ({count}), got {len(values)}")


def _causes_counts(value: Any, where: str) -> dict[str, int]:
    found = Fields(value, where, (), CHANGE_CAUSES)
    return {cause: found.get(cause, whole) for cause in CHANGE_CAUSES if cause in found.data}


def _owners(game: Game) -> tuple[frozenset[Any], ...]:
    return tuple(frozenset(record.companies) for record in game.player_records())


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
        batches=(GameRange(run.seed, run.start, run.start + run.games),),
        winner_changed=shares(lambda part: part.winners),
        awarded_differently=shares(lambda part: part.awards),
        unsold=shares(lambda part: part.unsold),
        rows=tuple(row for part in parts for row in part.rows) if run.rows else None,
        engine="batch" if run.batched else "reference",
    )


def _compare_first(run: _Run, parts: Sequence[_Compared]) -> Comparison:
    """The comparison of the chunks' games; an example the batch found has its record
    made here (the game played again on its own)."""
    ids = tuple(rules.id for rules in run.rulesets)
    winners = [game for part in parts for game in part.winners]
    changes = [sum(found) for found in zip(*(part.changes for part in parts), strict=True)]
    causes: list[dict[str, int]] = [{} for _ in ids]
    firsts: dict[tuple[int, str], tuple[int, dict[str, Any] | None]] = {}
    for part in parts:  # in game order: the first chunk's example of a kind is the first
        for number, counts in enumerate(part.causes):
            for cause, count in counts.items():
                causes[number][cause] = causes[number].get(cause, 0) + count
        for key, example in part.examples.items():
            firsts.setdefault(key, example)
    examples = [
        ChangeExample(
            ruleset=ids[number],
            cause=cause,
            seed=run.seed,
            game=game,
            winners=winners[game - run.start][0],
            other_winners=winners[game - run.start][number],
            record=GameRecord.from_dict(record if record is not None else _batch_record(run, game)),
        )
        for (number, cause), (game, record) in firsts.items()
    ]
    return Comparison(
        rulesets=ids,
        players=run.players,
        agents=tuple(agent_label(spec) for spec in run.specs),
        batches=(GameRange(run.seed, run.start, run.start + run.games),),
        winners=tuple(winners),
        changes=tuple(changes),
        any_changes=sum(part.any_changes for part in parts),
        causes=tuple(
            FrozenDict((c, found[c]) for c in CHANGE_CAUSES if c in found) for found in causes
        ),
        examples=_first_examples(examples, ids),
        rows=tuple(row for part in parts for row in part.rows) if run.rows else None,
        engine="batch" if run.batched else "reference",
    )


def _batch_record(run: _Run, game: int) -> dict[str, Any]:
    from qe_rules.simulation.batch.tally import batch_record  # numpy: the batch played

    return batch_record(run, game)


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
    engine: str = ...,
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
    engine: str = ...,
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
    engine: str = "auto",
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
    :func:`simulate` does under the first rule set, on the same engine. ``engine`` as
    for :func:`simulate` (``"auto"`` by default): the batch plays both ways, with
    ``play="first"`` rescoring its games' holdings under the other rule sets (as
    :func:`~qe_rules.score_game` does) and with ``play="each"`` playing every rule set from
    the same draws. A rule set that cannot score the games (another deck, player count,
    nations or tokens, or fewer zero-bid scorings than a game has) raises
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
    games, start = _check_games(games, start)
    seed = _check_seed(seed)
    workers = _check_int(workers, "workers", 1)
    executor = _check_executor(executor)
    rows = _check_rows(rows)
    progress = _check_progress(progress)
    if play not in ("first", "each"):
        raise InvalidArgument(f"play is 'first' or 'each', got {shown(play)}")
    batched = uses_batch(engine, specs) and _batch_plays(engine, chosen, players)
    run = _Run(chosen, players, specs, games, seed, start, rows, batched)
    if play == "each":
        work: Callable[[_Task], Any] = _played_chunk
        if batched:
            from qe_rules.simulation.batch.tally import played_chunk as work  # numpy: first use
        return _compare_played(run, _run(work, run, workers, executor, progress))
    work = _compare_chunk
    if batched:
        from qe_rules.simulation.batch.rescore import compare_chunk as work  # numpy: first use
    return _compare_first(run, _run(work, run, workers, executor, progress))


def format_comparison(comparison: Comparison) -> str:
    """:class:`Comparison` as a plain-text report: ``comparison.to_text()``, which this
    name is kept for (deprecated)."""
    renamed("format_comparison(c)", "c.to_text() or str(c)")
    return comparison.to_text()
