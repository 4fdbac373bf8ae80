"""The readers of untrusted documents, fed mutated documents the library made (the third
round, issue 40): one target per reader, for ``bench/fuzz.py`` (100,000 inputs each) and
the hypothesis tests.

Each input is a document of the corpus (:func:`corpus`: what the library writes for games
of every built-in and of variants, finished and cut short, every seat's view, events,
results, records, statistics, comparisons, rule sets and rule files) changed by one to
four mutations (:func:`mutated_document`: hostile values, values spliced from other
documents, keys dropped, added or renamed, list items dropped, repeated, shuffled or
multiplied, numbers and strings nudged). The reader must either raise a
:class:`qe_rules.RulesError` or return an object that

- works like one the library made (:func:`tests.support.hostile.use`: its ``to_dict``
  read back equal, ``str``, ``repr``, the pictures, ``replay``, ``merge``), and
- agrees with itself (:func:`check_consistent`: this module's own, simpler statement of
  what the library computes: totals from parts, winners from totals, the phase and the
  result, holdings from the history, variances of at least 0, examples that replay).

Where the reader has a shipped JSON Schema, the schema and the reader agree both ways
(:func:`tests.support.hostile.schema_agrees`). A target returns ``"accepted"`` or
``"refused"``; anything else escapes (an exception that is not a ``RulesError``, or an
``AssertionError`` of a broken promise).
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import math
import os
import random
import tempfile
import time
from collections.abc import Callable
from typing import Any

import qe_rules as qe
from qe_rules.errors import shown
from qe_rules.game.scoring import DECIDED_GAPS
from qe_rules.simulation.comparison import ChangeExample, Comparison, PlayedComparison
from qe_rules.simulation.intervals import Share
from qe_rules.simulation.play import dealt_game, play_game
from qe_rules.simulation.stats import SimulationStats
from tests.support.fuzz import TEXTS, value
from tests.support.hostile import SCHEMA_OF, _read_score_file, schema_agrees, use

# ------------------------------------------------------------------ the corpus

_VARIANTS = (
    "en:peek_after_last_sale=true",
    "de:peek_timing=before-bids",
    "en:peek_timing=any-earlier-sale,peeks_per_player=2",
    "de:secret_bid_may_equal_opening=true,tied_auctioneer=stands",
    "en-early:tie_fallback=none",
    "en:beyond_table=zero,final_tiebreak=none",
    "de-summary:eliminate_all_tied_highest=true,everyone_tied_for_most_spent=all-eliminated",
)


def _played(rules: qe.RuleSet, players: int, seed: int, moves: int) -> qe.Game:
    """A game after up to ``moves`` random legal moves (peeks taken half the time)."""
    rng = random.Random(seed)
    game = qe.new_game(rules, players, seed=seed, first_auctioneer=seed % players)
    for _ in range(moves):
        if game.is_over:
            break
        seat = min(game.to_act)
        if game.phase is qe.Phase.PEEKING:
            wants = game.can_peek(seat) and rng.random() < 0.5
            game = game.peek(seat) if wants else game.decline_peek(seat)
            continue
        limits = game.bid_limits(seat)
        if limits is None:
            game = game.peek(seat) if game.can_peek(seat) else game.decline_peek(seat)
            continue
        game = game.bid(seat, limits.legal(limits.minimum + rng.choice([0, 0, 1, 2, 3, 6])))
    return game


def _games() -> list[qe.Game]:
    games = []
    for number, rid in enumerate([*qe.RULESETS, *_VARIANTS]):
        rules = qe.get_ruleset(rid)
        for players in rules.player_counts:
            for cut in (3, 25, 10_000):
                with contextlib.suppress(qe.RulesError):  # a rule set whose ties go on
                    games.append(_played(rules, players, number * 10 + players + cut, cut))
    return games


def _stats() -> list[SimulationStats]:
    return [
        qe.simulate("en", 3, "random", 6, seed=1, rows=True),
        qe.simulate("de", 5, ["zero", "value", "random", "random", "value"], 4, seed=2),
        qe.simulate("en-early", 4, "random", 5, seed=3, rows=True),
        qe.simulate(_VARIANTS[-1], 4, "zero", 3, seed=4, rows=True),
        qe.simulate("en", 4, "random", 40, seed=5, engine="batch"),
        qe.simulate("de", 3, "random", 5, seed=6).merge(
            qe.simulate("de", 3, "random", 5, seed=6, start=5)
        ),
    ]


_COMPARED = (
    "en",
    "en-early",
    "en:final_tiebreak=none",
    "en:eliminate_highest_spender=false",
    "en:lowest_spend_bonus_to_all_tied=false,zero_bid_points=5",
)


def _comparisons() -> list[Comparison]:
    return [
        qe.compare(_COMPARED, 4, "random", 60, seed=3),
        qe.compare(["en", "en:beyond_table=zero,final_tiebreak=none"], 3, "random", 8, seed=1),
        qe.compare(["de", "de-summary"], 5, "value", 6, seed=2, rows=True),
    ]


def _gaps() -> list[dict[str, Any]]:
    """A gap of each kind a game meets, as the library writes it."""
    found = [
        gap.to_dict()
        for rid in ("en:beyond_table=zero", "de-summary:eliminate_all_tied_highest=true")
        for seed in range(12)
        for gap in play_game(rid, 3, "zero", seed=seed).gaps
    ]
    return [
        *found,
        {"code": "tie-after-tiebreak", "message": "seats 0, 1 tie with 30 points", "seats": [0, 1]},
        {"code": "no-unique-bid", "message": "sale 3 (US-FIN-2): not sold", "seats": []},
    ]


def _played_comparisons() -> list[PlayedComparison]:
    return [
        qe.compare(["en", "de"], 3, "random", 4, seed=1, play="each", rows=True),
        qe.compare(["en", "en-early"], 4, "random", 30, seed=2, play="each", engine="batch"),
    ]


def _rule_files() -> list[str]:
    files = [qe.get_ruleset(rid).to_toml() for rid in qe.RULESETS]
    files += [qe.get_ruleset(rid).to_toml(base=rid.split(":")[0]) for rid in _VARIANTS]
    shipped = qe.shipped_rulesets()
    for path in shipped.values():
        with open(path, encoding="utf-8") as handle:
            files.append(handle.read())
    return files


@functools.cache
def corpus() -> dict[str, list[Any]]:
    """Documents the library wrote, by the reader that reads them (made once)."""
    games = _games()
    over = [game for game in games if game.is_over]
    views = [game.view(seat) for game in games for seat in range(game.players)]
    stats = _stats()
    comparisons = _comparisons()
    examples = [e.to_dict() for c in comparisons for e in c.examples]
    results = [game.result() for game in over]
    records = [game.to_record() for game in games]
    return {
        "player-view": [view.to_dict() for view in views],
        "public-view": [game.public_view().to_dict() for game in games],
        "sale-view": [sale.to_dict() for view in views for sale in view.history[:4]],
        "event": [
            event.to_dict()
            for game in games[::3]
            for events in (game.events, game.public_events(), game.events_for(0))
            for event in events[:60]
        ],
        "game-result": [result.to_dict() for result in results],
        "score-sheet": [sheet.to_dict() for result in results for sheet in result.sheets],
        "gap": [gap.to_dict() for game in over for gap in game.gaps] + _gaps(),
        "game-record": records,
        "replay": records,
        "load-records": [records[i : i + 3] for i in range(0, len(records), 3)],
        "player-record": [
            {**r.to_dict(), "name": "Ann"} for game in over for r in game.player_records()
        ],
        "statistics": [s.to_dict() for s in stats],
        "comparison": [c.to_dict() for c in comparisons],
        "played-comparison": [p.to_dict() for p in _played_comparisons()],
        "share": [Share(3, 40).to_dict(), Share(1, 9, parts=3).to_dict(), Share(0, 1).to_dict()],
        "change-example": examples,
        "score-file": [
            {"ruleset": game.ruleset.id, "players": [r.to_dict() for r in game.player_records()]}
            for game in over
        ]
        + [[{**r.to_dict(), "name": "Ann"} for r in over[0].player_records()]],
        "ruleset": [qe.get_ruleset(rid).to_dict() for rid in (*qe.RULESETS, *_VARIANTS)],
        "rule-file": _rule_files(),
    }


@functools.cache
def _values_by_key() -> dict[str, list[Any]]:
    """Every value under each key in the corpus: what splicing draws from."""
    found: dict[str, list[Any]] = {}

    def walk(data: Any) -> None:
        if isinstance(data, dict):
            for key, item in data.items():
                found.setdefault(key, [])
                if len(found[key]) < 200:
                    found[key].append(item)
                walk(item)
        elif isinstance(data, list):
            for item in data[:30]:
                walk(item)

    for documents in corpus().values():
        for document in documents[:40]:
            walk(document)
    return found


# ------------------------------------------------------------------ the mutator


def _nudged(rng: random.Random, data: Any) -> Any:
    """A small change of a scalar: a number nudged or retyped, a string reshaped."""
    if isinstance(data, bool):
        return not data
    if isinstance(data, int):
        retyped = float(data) if abs(data) < 2**1000 else 1e308
        shown = str(data) if abs(data) < 10**100 else "9" * 101
        return rng.choice([data + 1, data - 1, -data, data * 1000, retyped, shown, 0, 2**63])
    if isinstance(data, float):
        whole = int(data) if math.isfinite(data) else 0
        return rng.choice([math.nan, math.inf, whole, data + 0.5, -data])
    if isinstance(data, str):
        return rng.choice(
            [data.upper(), data.lower(), f" {data}", data[: len(data) // 2], data * 2, ""]
        )
    return rng.choice([0, "", [], {}, False])


def _changed(rng: random.Random, data: Any, key: str | None) -> Any:
    """``data`` (found under ``key``) replaced by something else."""
    pick = rng.random()
    if pick < 0.3:
        return value(rng)
    if pick < 0.55 and key is not None and _values_by_key().get(key):
        return rng.choice(_values_by_key()[key])  # a value of the same key elsewhere
    if pick < 0.85 and not isinstance(data, dict | list):
        return _nudged(rng, data)
    return rng.choice([None, rng.choice(TEXTS), rng.randrange(-2, 70), [], {}])


def _list_changed(rng: random.Random, items: list[Any]) -> list[Any]:
    items = list(items)
    pick = rng.randrange(7)
    if not items or pick == 0:
        items.insert(rng.randrange(len(items) + 1), value(rng))
    elif pick == 1:
        del items[rng.randrange(len(items))]
    elif pick == 2:
        at = rng.randrange(len(items))
        items.insert(at, items[at])
    elif pick == 3:
        rng.shuffle(items)
    elif pick == 4:
        items = items[: rng.randrange(len(items))]
    elif pick == 5:
        items = items * rng.choice([2, 3, 10, 100, 1000])
    else:
        items.reverse()
    return items


def _dict_changed(rng: random.Random, data: dict[str, Any]) -> dict[str, Any]:
    data = dict(data)
    pick = rng.randrange(3)
    if not data or pick == 0:
        data[rng.choice([*TEXTS[:20], *_values_by_key()])] = value(rng)
    elif pick == 1:
        del data[rng.choice(list(data))]
    else:
        key = rng.choice(list(data))
        name = key if isinstance(key, str) else shown(key)  # a hostile value's key
        data[rng.choice([name.upper(), name + "s", name[:-1], f" {name}"])] = data.pop(key)
    return data


def _mutate(rng: random.Random, data: Any, key: str | None = None) -> Any:
    """``data`` with one change at a random place in it."""
    if isinstance(data, dict) and data and rng.random() < 0.75:
        place = rng.choice(list(data))
        if rng.random() < 0.6:
            return {**data, place: _mutate(rng, data[place], place)}
        return {**data, place: _changed(rng, data[place], place)}
    if isinstance(data, list) and data and rng.random() < 0.7:
        at = rng.randrange(len(data))
        return [*data[:at], _mutate(rng, data[at], key), *data[at + 1 :]]
    if isinstance(data, dict):
        return _dict_changed(rng, data)
    if isinstance(data, list):
        return _list_changed(rng, data)
    return _changed(rng, data, key)


def mutated_document(rng: random.Random, document: Any) -> Any:
    """``document`` after one to three mutations (one in half of the inputs)."""
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        document = _mutate(rng, document)
    return document


def _mutated_toml(rng: random.Random, text: str) -> str:
    """A rule file with lines dropped, repeated, changed or added."""
    lines = text.splitlines()
    for _ in range(rng.randrange(1, 4)):
        at = rng.randrange(len(lines) + 1)
        pick = rng.randrange(6)
        if pick == 0 and lines:
            del lines[min(at, len(lines) - 1)]
        elif pick == 1 and lines:
            lines.insert(at, lines[min(at, len(lines) - 1)])
        elif pick == 2 and lines and "=" in lines[min(at, len(lines) - 1)]:
            key = lines[min(at, len(lines) - 1)].split("=")[0]
            try:
                shown = json.dumps(value(rng))
            except (TypeError, ValueError, RecursionError):
                shown = "9" * 5000
            lines[min(at, len(lines) - 1)] = f"{key}= {shown[:20_000]}"
        elif pick == 3:
            lines.insert(at, rng.choice(['id = "en:zero_bid_points=3"', 'id = "x\\u001b[31m"',
                                         'title = "t\\u0000"', 'language = "xx y"', 'id = ":"',
                                         'extends = "de"', "[rules]", "[provenance]", '"" = 1']))  # fmt: skip
        elif pick == 4 and lines:
            line = lines[min(at, len(lines) - 1)]
            cut = rng.randrange(len(line) + 1)
            lines[min(at, len(lines) - 1)] = (
                line[:cut] + rng.choice(["\x00", '"', "[", "]", "=", "\ud800"]) + line[cut:]
            )
        else:
            rng.shuffle(lines)
    return "\n".join(lines)


# ------------------------------------------------------------------ reading


def _read_records_file(documents: Any) -> list[qe.GameRecord]:
    lines = []
    # load_records streams a file line by line; the first 2,000 records of a list
    # multiplied within itself (300,000 of them, gigabytes) are the file read here
    for document in documents[:2000] if isinstance(documents, list) else [documents]:
        if _larger_than(document, qe.limits.MAX_FILE_BYTES):
            # lists multiplied within lists: writing it out would be the harness's minutes
            lines.append("[" * (qe.limits.MAX_FILE_BYTES + 1))
            continue
        try:
            lines.append(json.dumps(document, ensure_ascii=False))
        except (TypeError, ValueError, RecursionError):
            lines.append("[" * 10_000)
    return list(qe.load_records(io.StringIO("\n".join(lines) + "\n")))


def _larger_than(document: Any, most: int) -> bool:
    """Whether ``document`` written as JSON would take more than ``most`` characters, told
    without writing it out (lists multiplied within lists, or a long text repeated, would
    take gigabytes): texts by their length, other values by a few characters each."""
    size, todo = 0, [document]
    while todo:
        item = todo.pop()
        size += len(item) + 2 if isinstance(item, str) else 2
        if size > most:
            return True
        if isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, list | tuple):
            todo.extend(item)
    return False


_FOLDER = tempfile.mkdtemp(prefix="qe-readers-")


def _read_rule_file(text: str) -> qe.RuleSet:
    path = os.path.join(_FOLDER, "rules.toml")
    with open(path, "w", encoding="utf-8", errors="surrogatepass") as handle:
        handle.write(text)
    return qe.load_ruleset(path)


READERS: dict[str, Callable[[Any], Any]] = {
    "player-view": qe.PlayerView.from_dict,
    "public-view": qe.PublicView.from_dict,
    "sale-view": qe.SaleView.from_dict,
    "event": qe.Event.from_dict,
    "game-result": qe.GameResult.from_dict,
    "score-sheet": qe.ScoreSheet.from_dict,
    "gap": qe.Gap.from_dict,
    "game-record": qe.GameRecord.from_dict,
    "replay": qe.replay,
    "load-records": _read_records_file,
    "player-record": qe.PlayerRecord.from_dict,
    "statistics": SimulationStats.from_dict,
    "comparison": Comparison.from_dict,
    "played-comparison": PlayedComparison.from_dict,
    "share": Share.from_dict,
    "change-example": ChangeExample.from_dict,
    "score-file": _read_score_file,
    "ruleset": qe.RuleSet.from_dict,
    "rule-file": _read_rule_file,
}
"""Every reader of untrusted documents, by name."""


def read_mutated(name: str, rng: random.Random) -> tuple[str, float]:
    """Feed reader ``name`` one mutated document of the corpus: ``"refused"`` (a
    RulesError) or ``"accepted"`` (and everything done with it worked and agreed), and
    the seconds the reader itself took (the rest is this harness's work)."""
    document = rng.choice(corpus()[name])
    if name == "rule-file":
        data: Any = _mutated_toml(rng, document)
    else:
        data = mutated_document(rng, document)
    if name in SCHEMA_OF:
        schema_agrees(name, data)
    start = time.perf_counter()
    try:
        found = READERS[name](data)
    except qe.RulesError:
        return _timed("refused", time.perf_counter() - start, data)
    outcome, seconds = _timed("accepted", time.perf_counter() - start, data)
    for item in found[:3] if isinstance(found, list) else [found]:  # a file's first records
        if isinstance(item, qe.Game):
            _use_game(item)
        else:
            use(item)
        check_consistent(item)
    return outcome, seconds


_LARGE = 2**20  # the time bound is for inputs under 1 MB; larger ones are linear in size


def _timed(outcome: str, seconds: float, data: Any) -> tuple[str, float]:
    """The outcome and the reader's seconds; a slow input over 1 MB is told apart (its
    time is not held against the bound)."""
    if seconds < 0.5:
        return outcome, seconds
    if not isinstance(data, str) and _larger_than(data, _LARGE):
        return f"{outcome} over 1 MB", 0.0  # too many values to write out (gigabytes)
    try:
        size = len(data) if isinstance(data, str) else len(json.dumps(data, default=repr))
    except (TypeError, ValueError, RecursionError):
        size = 0
    if size > _LARGE:
        return f"{outcome} over 1 MB", 0.0
    return outcome, seconds


def _use_game(game: qe.Game) -> None:
    """What a caller does with a replayed game: every view read back (with the game's
    rule set, which a record may carry whole under an id of its own), its record replayed
    again, its result read back."""
    rules = game.ruleset
    views = [game.public_view(), *(game.view(seat) for seat in range(game.players))]
    for view in views:
        again = type(view).from_dict(json.loads(json.dumps(view.to_dict())), ruleset=rules)
        assert again == view, "a view of a replayed game reads back otherwise"
        check_consistent(view, rules)
    assert qe.replay(json.loads(json.dumps(game.to_record()))) == game, "a replay differs"
    if game.is_over:
        result = game.result()
        again = qe.GameResult.from_dict(json.loads(json.dumps(result.to_dict())), ruleset=rules)
        assert again == result, "a result of a replayed game reads back otherwise"
        check_consistent(result, rules)


# ------------------------------------------------------------------ what accepted means


def check_consistent(found: Any, rules: qe.RuleSet | None = None) -> None:
    """Assert what the library would have computed, stated simply and apart from the
    readers' own checks: an object that fails was accepted although inconsistent. A view
    or a result is of ``rules`` if given, else of the rule set its id names."""
    if isinstance(found, qe.ScoreSheet):
        _sheet(found)
    elif isinstance(found, qe.GameResult):
        _result(found, rules or qe.get_ruleset(found.ruleset))
    elif isinstance(found, qe.PlayerView | qe.PublicView):
        _view(found, rules or qe.get_ruleset(found.ruleset))
    elif isinstance(found, SimulationStats):
        _stats_ok(found)
    elif isinstance(found, Comparison):
        pairs = [(e.ruleset, e.cause) for e in found.examples]
        assert len(pairs) == len(set(pairs)), "an example repeats"
        for example in found.examples:
            _example(example)
    elif isinstance(found, ChangeExample):
        _example(found)
    elif isinstance(found, qe.SaleView):
        assert (found.winner is None) == (found.reason is not None), "reason and winner"
    elif isinstance(found, qe.RuleSet):
        assert found.id.isprintable() and found.title.isprintable(), "printable id and title"
        if ":" in found.id and found.id.partition(":")[0] in qe.RULESETS:
            named = qe.get_ruleset(found.id)
            assert all(
                getattr(named, field) == getattr(found, field) for field in found.rule_fields()
            ), "a spec-string id naming other rules"


def _sheet(sheet: qe.ScoreSheet) -> None:
    parts = (
        sheet.company_points + sheet.zero_bids + sheet.nationalization + sheet.monopolization
        + sheet.diversification
    )  # fmt: skip
    assert sheet.subtotal == parts, "subtotal is not the sum of the categories"
    assert sheet.total == sheet.subtotal + sheet.lowest_spend_bonus, "total != subtotal + bonus"


def _result(result: qe.GameResult, rules: qe.RuleSet) -> None:
    assert result.ruleset == rules.id, "a result of another rule set"
    for sheet in result.sheets:
        _sheet(sheet)
    spends = [s.spent for s in result.sheets]
    for sheet in result.sheets:
        assert not sheet.eliminated or sheet.spent == max(spends), "eliminated not highest"
        assert not sheet.lowest_spend_bonus or sheet.spent == min(spends), "bonus not lowest"
    standing = [s for s in result.sheets if not s.eliminated]
    best = max((s.total for s in standing), default=None)
    for seat in result.winners:
        assert not result.sheets[seat].eliminated, "an eliminated winner"
        assert result.sheets[seat].total == best, "a winner without the highest total"
    if not result.winners:
        assert any(gap.code in DECIDED_GAPS for gap in result.gaps), "no winner, no tie gap"


def _view(view: qe.PlayerView | qe.PublicView, rules: qe.RuleSet) -> None:
    assert view.ruleset == rules.id, "a view of another rule set"
    assert view.players in rules.player_counts, "a player count the rule set has not"
    assert (view.phase is qe.Phase.OVER) == (view.result is not None), "phase and result"
    assert len(view.history) == view.sale, "a history of another length than the sales"
    held = [tile for tiles in view.holdings for tile in tiles]
    assert view.company not in held, "the tile on sale is held"
    assert len(held) <= view.sale, "more tiles held than sold"
    for seat, tiles in enumerate(view.holdings):
        won = [sale.company for sale in view.history if sale.winner == seat]
        assert list(tiles) == won, "holdings that differ from the sales won"
    if view.result is not None and view.industries is not None:
        records = [
            qe.PlayerRecord(
                view.nations[seat],
                view.industries[seat],
                view.holdings[seat],
                view.result.sheets[seat].spent,
                view.zero_bid_rounds[seat],
            )
            for seat in range(view.players)
        ]
        assert qe.score_game(rules, records) == view.result, "a result the holdings do not give"


def _stats_ok(stats: SimulationStats) -> None:
    rules = qe.get_ruleset(stats.ruleset)
    assert stats.players in rules.player_counts, "a player count the rule set has not"
    games = stats.games
    for sums, squares in ((stats.total_sums, stats.total_squares),
                          (stats.spend_sums, stats.spend_squares)):  # fmt: skip
        for total, square in zip(sums, squares, strict=True):
            assert games * square >= total * total, "a negative variance"
    assert stats.unsold_sales <= games * rules.sales(stats.players), "more unsold than sales"
    assert stats.winning_totals <= sum(stats.total_sums), "winners' totals above all totals"
    if stats.rows is not None:
        for seat in range(stats.players):
            rows = [row for row in stats.rows if row.seat == seat]
            assert sum(row.total for row in rows) == stats.total_sums[seat], "rows and sums"
            assert sum(row.won for row in rows) == stats.wins[seat], "rows and wins"


def _example(example: ChangeExample) -> None:
    record = example.record
    dealt = dealt_game(record.ruleset, record.players, example.seed, example.game)
    setup = ("deck", "nations", "industries", "first_auctioneer")
    deal, written = dealt.to_record(), record.to_dict()
    assert all(deal[key] == written[key] for key in setup), "an example of another game"
    game = qe.replay(record)
    assert game.result().winners == example.winners, "an example's winners"
    other = qe.score_game(example.ruleset, game.player_records())
    assert other.winners == example.other_winners, "an example's other winners"


def reader_targets() -> dict[str, Callable[[random.Random], tuple[str, float]]]:
    """One target per reader, ``reader:<name>``."""
    return {f"reader:{name}": functools.partial(read_mutated, name) for name in READERS}


__all__ = ["READERS", "check_consistent", "corpus", "mutated_document", "reader_targets"]
