"""Hostile inputs of the second round (issue 31): documents read back with ``from_dict``,
the shipped JSON Schemas against the readers, spec strings, ``evolve``, random valid
variants, pictures, agents and game-record files.

Every target takes a ``random.Random`` and returns normally when the library either
accepted the input and everything done with what it accepted worked, or raised a
:class:`qe_rules.RulesError`; anything else escapes. :func:`use` is what "everything done
with it" means: ``to_dict``, ``json.dumps`` to UTF-8, ``from_dict`` of that, ``str``,
``repr``, the text and SVG renderers, ``merge``, ``replay``. Shared by the fuzz tests
(``tests/properties/test_fuzz.py``, driven by hypothesis) and ``bench/fuzz.py``.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import random
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import jsonschema

import qe_rules as qe
from qe_rules import limits, svg
from qe_rules._util.reading import ARGUMENTS, is_disagreement
from qe_rules.simulation.comparison import ChangeExample, Comparison, PlayedComparison
from qe_rules.simulation.intervals import Share
from qe_rules.simulation.play import play_game
from qe_rules.simulation.stats import SimulationStats
from tests.support.fuzz import GAMES, INTS, TEXTS, mutated, value

# ------------------------------------------------------------------ documents


def _read_score_file(data: Any) -> Any:
    """A score file as ``qe-rules score`` reads and scores it (its errors as RulesError).
    What scoring refuses is counted as fields that disagree: records against one another
    or against the rule set named (the two rules of one record's list that a schema can
    state, 2 to 5 records and no tile twice in one seat, it does: see test_schemas)."""
    from qe_rules.apps import cli

    try:
        ruleset, records, _ = cli._parse_score_file(data, "score file")
    except cli._InputError as error:
        if is_disagreement(error.__context__):  # a record's fields (or text no file holds)
            raise ARGUMENTS.disagree("score file", str(error)) from None
        raise qe.InvalidArgument(str(error)) from None
    try:
        return qe.score_game(ruleset or "en", records)
    except qe.RulesError as error:
        raise ARGUMENTS.disagree("score file", str(error)) from None


def _documents() -> dict[str, tuple[type[Any] | Callable[[Any], Any], list[dict[str, Any]]]]:
    """Each reader and documents it reads, made by the library itself."""
    over = [game for game in GAMES if game.is_over]
    views = [game.view(seat) for game in GAMES for seat in range(game.players)]
    stats = [qe.simulate("en", 3, "random", 4, seed=1), qe.simulate("de", 5, "zero", 3, seed=2)]
    comparison = qe.compare(["en", "de"], 3, "random", 6, seed=1)
    played = qe.compare(["en", "de"], 3, "random", 4, seed=1, play="each")
    return {
        "player-view": (qe.PlayerView, [view.to_dict() for view in views]),
        "public-view": (qe.PublicView, [game.public_view().to_dict() for game in GAMES]),
        "sale-view": (
            qe.SaleView,
            [sale.to_dict() for view in views for sale in view.history[:3]],
        ),
        "event": (qe.Event, [event.to_dict() for game in GAMES for event in game.events[:40]]),
        "game-result": (qe.GameResult, [game.result().to_dict() for game in over]),
        "score-sheet": (
            qe.ScoreSheet,
            [sheet.to_dict() for game in over for sheet in game.result().sheets],
        ),
        "game-record": (qe.GameRecord, [game.to_record() for game in GAMES]),
        "player-record": (
            qe.PlayerRecord,
            [{**r.to_dict(), "name": "Ann"} for game in over for r in game.player_records()],
        ),
        "statistics": (SimulationStats, [s.to_dict() for s in stats]),
        "comparison": (Comparison, [comparison.to_dict()]),
        "played-comparison": (PlayedComparison, [played.to_dict()]),
        "share": (Share, [Share(3, 40).to_dict(), Share(1, 9, parts=3).to_dict()]),
        "change-example": (ChangeExample, [e.to_dict() for e in comparison.examples]),
        "score-file": (
            _read_score_file,
            [
                {
                    "ruleset": game.ruleset.id,
                    "players": [r.to_dict() for r in game.player_records()],
                }
                for game in over
            ]
            + [[{**r.to_dict(), "name": "Ann"} for r in over[0].player_records()]],
        ),
    }


DOCUMENTS = _documents()

SCHEMA_OF = {
    "player-view": "player-view",
    "public-view": "public-view",
    "event": "event",
    "game-result": "game-result",
    "game-record": "game-record",
    "score-file": "score-file",
}
"""The readers whose documents have a shipped schema (the score file's players are checked
through ``score-file``)."""

VALIDATORS = {name: jsonschema.Draft202012Validator(qe.json_schema(name)) for name in qe.SCHEMAS}


def _read(name: str, data: Any) -> Any:
    if name == "score-file":
        return _read_score_file(data)
    reader = DOCUMENTS[name][0]
    if name == "game-record":
        return qe.GameRecord.from_dict(data)
    return reader.from_dict(data)  # type: ignore[union-attr]


def use(found: Any) -> None:
    """Do with an accepted object what a caller would: every call must work or raise a
    :class:`~qe_rules.RulesError`."""
    data = found.to_dict()
    text = json.dumps(data, ensure_ascii=False)
    text.encode("utf-8")  # a file can hold it
    again = type(found).from_dict(json.loads(text))
    assert again == found or isinstance(found, qe.GameRecord), (type(found), data)
    str(found), repr(found)
    with contextlib.suppress(qe.RulesError):
        if isinstance(found, qe.PlayerView | qe.PublicView):
            ET.fromstring(svg.view(found))
            ET.fromstring(svg.view(found, spectator=True))
            if isinstance(found, qe.PlayerView):
                found._repr_html_()
        elif isinstance(found, qe.GameResult):
            ET.fromstring(svg.score_board(found))
            found.score_board()
        elif isinstance(found, qe.GameRecord):
            out = io.StringIO()
            qe.dump_records([found], out)
            assert list(qe.load_records(io.StringIO(out.getvalue())))
            game = qe.replay(data)
            game.view(0), game.public_view()
            if game.is_over:
                use(game.result())
        elif isinstance(found, SimulationStats | Comparison):
            found.merge(found)  # the same games: refused, as a RulesError
    if isinstance(found, SimulationStats | Comparison):
        found.to_text()


def fuzz_documents(rng: random.Random) -> None:
    """``from_dict`` of a mangled document of any reader; what is accepted is used."""
    name = rng.choice(
        [name for name, (_, found) in DOCUMENTS.items() if found and name != "score-file"]
    )
    data = mutated(rng, rng.choice(DOCUMENTS[name][1]))
    try:
        found = _read(name, data)
    except qe.RulesError:
        return
    use(found)


def schema_agrees(name: str, data: Any) -> None:
    """The shipped schema ``name`` and the reader agree on ``data``: what the reader
    accepts validates, and what validates is accepted unless fields disagree with each
    other (which no JSON Schema states)."""
    schema = SCHEMA_OF[name]
    try:
        text = json.dumps(data, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return  # not a JSON document: only Python callers can pass it
    if len(text) > limits.MAX_FILE_BYTES:
        return  # larger than any file the library reads; a validator takes seconds a MB
    data = json.loads(text)  # the document as JSON has it
    try:
        valid = VALIDATORS[schema].is_valid(data)
    except RecursionError:
        return  # the validator itself cannot read it
    refused = _refusal(lambda: _read(name, data))
    if refused is not None:
        assert not valid or is_disagreement(refused), (name, str(refused))
        return
    assert valid, (name, [e.message for e in VALIDATORS[schema].iter_errors(data)][:3])


def _refusal(call: Callable[[], Any]) -> qe.RulesError | None:
    """The error ``call`` raised, or ``None`` when it returned."""
    try:
        call()
    except qe.RulesError as error:
        return error
    return None


def fuzz_schemas(rng: random.Random, name: str | None = None) -> None:
    """A mangled document, against its shipped schema and its reader."""
    name = name or rng.choice(list(SCHEMA_OF))
    data = mutated(rng, rng.choice(DOCUMENTS[name][1]))
    if rng.random() < 0.3:  # a number-like value where a number stands
        with contextlib.suppress(RecursionError):  # a hostile value nested too deep
            data = _renumbered(rng, data)
    schema_agrees(name, data)


_NUMBERS = (0, 1, 4, 5, 1.0, 3.0, -0.0, 2.5, 1e308, limits.MAX_BID, limits.MAX_BID + 1, 2**63)


def _renumbered(rng: random.Random, data: Any) -> Any:
    """``data`` with one number replaced by another (a float, a bound)."""
    if isinstance(data, dict) and data:
        key = rng.choice(list(data))
        return {**data, key: _renumbered(rng, data[key])}
    if isinstance(data, list) and data:
        index = rng.randrange(len(data))
        return [*data[:index], _renumbered(rng, data[index]), *data[index + 1 :]]
    if type(data) is int:
        return rng.choice(_NUMBERS)
    return data


# ------------------------------------------------------------------ spec strings, evolve

_FIELDS = qe.get_ruleset("en").rule_fields()
_VALUES = (
    "1", "0", "64", "65", "1000000", "999999", "true", "false", "²", "٣", "9" * 4301, "-1",
    "stands", "cap", "[]", "[3,4]", "[[1]]", '["monopolization"]', '{"3":1}', "{}", '"x"',
    "[" * 5000, "[" * 70 + "]" * 70, "nan", "1e3", "\x00", "\ud800", " 3", "x" * 20_000,
)  # fmt: skip


def spec_string(rng: random.Random) -> str:
    """A hostile spec string: known and unknown fields, odd values, odd separators."""
    base = rng.choice([*qe.RULESETS, "fr", "", "en "])
    items = []
    for _ in range(rng.randrange(1, 4)):
        field = rng.choice(_FIELDS) if rng.random() < 0.85 else rng.choice(TEXTS)
        known = field in _FIELDS and rng.random() < 0.3
        text = _plain_text(rng, field) if known else rng.choice(_VALUES)
        items.append(f"{field}{rng.choice(['=', '=', '==', ''])}{text}")
    return base + rng.choice([":", ":", "::", ": "]) + rng.choice([",", ",", ",,"]).join(items)


def _plain_text(rng: random.Random, field: str) -> str:
    plain = qe.get_ruleset(rng.choice(list(qe.RULESETS))).to_dict()["rules"][field]
    return plain if isinstance(plain, str) else json.dumps(plain, separators=(",", ":"))


def check_variant(variant: qe.RuleSet) -> None:
    """An accepted variant is named by its id, evolves again, and round-trips."""
    named = qe.get_ruleset(variant.id) if ":" in variant.id else variant
    assert named == variant, (variant.id, "the id does not name the variant")
    assert qe.RuleSet.from_dict(variant.to_dict()) == variant
    field = rng_field = _FIELDS[len(variant.id) % len(_FIELDS)]
    again = variant.evolve(**{rng_field: getattr(variant, field)})
    assert again == variant


def fuzz_specs(rng: random.Random) -> None:
    """``get_ruleset`` of a hostile spec string; an accepted variant names itself."""
    try:
        variant = qe.get_ruleset(spec_string(rng))
    except qe.RulesError:
        return
    check_variant(variant)


def fuzz_evolve(rng: random.Random) -> None:
    """``RuleSet.evolve`` with a hostile value for a field (or a hostile name)."""
    rules = qe.get_ruleset(rng.choice(list(qe.RULESETS)))
    field = rng.choice(_FIELDS) if rng.random() < 0.9 else rng.choice(TEXTS)
    pick = rng.random()
    if pick < 0.4:
        given = value(rng)
    elif pick < 0.5:
        given = rng.choice([range(10**12), iter([1, 2]), (x for x in [3]), [[]], {3: [[1]]}])
    else:
        plain = _plain_text(rng, field) if field in _FIELDS else "1"
        given = json.loads(plain) if plain[:1] in "[{" else plain
        given = mutated(rng, given) if rng.random() < 0.5 else given
    try:
        variant = rules.evolve(**{field: given})
    except qe.RulesError:
        return
    check_variant(variant)


# ------------------------------------------------------------------ random valid variants


def random_value(rng: random.Random, rules: qe.RuleSet, field: str) -> Any:
    """A plausible value for ``field``: what a variant might set."""
    now = getattr(rules, field)
    counts = rules.player_counts
    if isinstance(now, bool):
        return not now
    if hasattr(now, "value") and hasattr(type(now), "__members__"):
        return rng.choice(list(type(now)))
    if type(now) is int:
        return rng.choice([0, 1, 2, 3, 5, 10, 64, limits.MAX_BID - 1, rng.randrange(0, 65)])
    if field == "player_counts":
        return tuple(sorted(rng.sample([2, 3, 4, 5], rng.randrange(1, 5))))
    if isinstance(now, tuple) and all(type(n) is int for n in now):
        return tuple(n for n in counts if rng.random() < 0.5)
    if field == "scoring_order":
        return tuple(rng.sample(list(now), len(now)))
    if field == "token_categories":
        both = [qe.Category.MONOPOLIZATION, qe.Category.DIVERSIFICATION]
        return frozenset(rng.sample(both, rng.randrange(0, 3)))
    if isinstance(now, dict | qe.FrozenDict):
        return {n: _per_count(rng, field, now[n], n) for n in counts}
    return now


def _per_count(rng: random.Random, field: str, now: Any, players: int) -> Any:
    if field == "removed_companies":
        return tuple(rng.sample(list(qe.COMPANIES), rng.choice([0, 3, 5, 10, 20])))
    if field == "nations_in_play":
        return tuple(rng.sample(list(qe.Nation), rng.randrange(players, 6)))
    if field == "industries_in_play":
        return tuple(rng.sample(list(qe.Industry), rng.randrange(players, 6)))
    if isinstance(now, dict | qe.FrozenDict):  # a scoring table
        first = rng.randrange(1, 4)
        return {
            k: rng.choice([0, 1, 5, 20, 10**6]) for k in range(first, first + rng.randrange(1, 8))
        }
    if type(now) is int:
        return rng.choice([0, 1, 6, 21, 64, limits.MAX_BID])
    return now


def random_variant(rng: random.Random, tries: int = 30) -> qe.RuleSet:
    """A random valid variant of a built-in: one to four fields changed."""
    for _ in range(tries):
        rules = qe.get_ruleset(rng.choice(list(qe.RULESETS)))
        changes = {
            field: random_value(rng, rules, field)
            for field in rng.sample(_FIELDS, rng.randrange(1, 5))
        }
        with contextlib.suppress(qe.RulesError):
            return rules.evolve(**changes)
    return qe.get_ruleset("en")


def play_variant(rng: random.Random, variant: qe.RuleSet, verify: bool) -> None:
    """A game of ``variant`` to the end (or its round cap), replayed and drawn; with
    ``verify``, its checks too."""
    check_variant(variant)
    players = rng.choice(variant.player_counts)
    agents = [rng.choice(["random", "zero", "value"]) for _ in range(players)]
    played: list[qe.Game] = []
    seed = rng.randrange(2**32)
    refused = _refusal(lambda: played.append(play_game(variant, players, agents, seed=seed)))
    if refused is not None:
        assert "does not end" in str(refused), str(refused)  # a tie without end, documented
        return
    game = played[0]
    assert game.is_over
    assert qe.replay(json.loads(json.dumps(game.to_record()))) == game
    for seat in range(players):
        view = game.view(seat)
        assert qe.PlayerView.from_dict(view.to_dict()) == view
    use(game.public_view() if rng.random() < 0.5 else game.view(0))
    use(game.result())
    use(qe.GameRecord.from_dict(game.to_record()))
    if verify:
        qe.verify(variant)


def fuzz_variants(rng: random.Random) -> None:
    """A random valid variant: it plays, replays, and is drawn (verified in the long run)."""
    play_variant(rng, random_variant(rng), verify=False)


def fuzz_variants_verified(rng: random.Random) -> None:
    """A random valid variant, verified as well (the long run's bounded verify)."""
    play_variant(rng, random_variant(rng), verify=True)


# ------------------------------------------------------------------ pictures, agents, files


def fuzz_svg(rng: random.Random) -> None:
    """A picture with hostile arguments; what is drawn is well-formed XML."""
    game = rng.choice(GAMES)
    tiles = list(game.holdings[0]) or [qe.COMPANIES[0]]
    odd = (
        value(rng)
        if rng.random() < 0.6
        else rng.choice(
            [
                0,
                -1,
                1e-9,
                1e308,
                math.inf,
                math.nan,
                10**400,
                "90",
                None,
                "\x01",
                "\ud800",
                "a" * 20_000,
            ]
        )
    )
    result = GAMES[-1].result()
    calls: list[Callable[[], str]] = [
        lambda: svg.tile(rng.choice([tiles[0], odd]), size=rng.choice([90, odd])),
        lambda: svg.holdings(
            rng.choice([tiles, odd, [odd]]),
            nation=rng.choice([None, qe.Nation.US, odd]),
            industry=rng.choice([None, qe.Industry.FINANCE, odd]),
            title=rng.choice([None, "t", odd]),
            size=rng.choice([44, odd]),
        ),
        lambda: svg.view(rng.choice([game.view(0), game.public_view(), odd])),
        lambda: svg.score_board(
            rng.choice([result, odd]),
            names=rng.choice([None, [odd] * len(result.sheets), [odd], odd]),
        ),
    ]
    try:
        picture = rng.choice(calls)()
    except qe.RulesError:
        return
    ET.fromstring(picture)


class _Boom(Exception):
    pass


def _hostile_agent(rng: random.Random) -> Callable[[int], Any]:
    pick = rng.randrange(8)

    class Agent:
        def bid(self, view: Any) -> Any:
            if pick == 0:
                raise _Boom("agent bug")
            if pick == 1:
                return rng.choice([None, 1.0, "3", True, 10**5000, -1, limits.MAX_BID + 1])
            if pick == 2 and view.limits is not None:
                return view.limits.forbidden if view.limits.forbidden is not None else -1
            return view.limits.minimum if view.limits is not None else 0

        def wants_peek(self, view: Any) -> Any:
            if pick == 3:
                raise _Boom("peek bug")
            return "yes" if pick == 4 else False

    if pick == 5:
        return lambda seed: None
    if pick == 6:
        return lambda seed: 5
    return lambda seed: Agent()


def fuzz_agents(rng: random.Random) -> None:
    """A game with a hostile agent in one seat: an AgentError naming it, or a game."""
    players = rng.choice([3, 4, 5])
    agents: list[Any] = ["random"] * players
    seat = rng.randrange(players)
    agents[seat] = _hostile_agent(rng)
    seed = rng.randrange(1000)
    ruleset = rng.choice(["en", "de"])
    refused = _refusal(lambda: play_game(ruleset, players, agents, seed=seed, index=1))
    if isinstance(refused, qe.AgentError):
        assert (refused.seat, refused.seed, refused.game) == (seat, seed, 1), str(refused)
        if "_Boom" in str(refused):  # the agent's own exception, chained
            assert isinstance(refused.__cause__, _Boom), str(refused)
    elif refused is not None:
        assert "does not end" in str(refused), str(refused)


def fuzz_record_files(rng: random.Random) -> None:
    """``load_records`` and ``dump_records`` of hostile arguments and lines."""
    pick = rng.randrange(4)
    with contextlib.suppress(qe.RulesError):
        if pick == 0:
            list(qe.load_records(value(rng)))
        elif pick == 1:
            qe.dump_records(value(rng), io.StringIO())
        elif pick == 2:
            record = mutated(rng, rng.choice(GAMES).to_record())
            try:
                line = json.dumps(record, default=repr)
            except (TypeError, ValueError, RecursionError):  # values no JSON text holds
                line = "[" * 100_000
            list(qe.load_records(io.StringIO(line + "\n")))
        else:
            raw = bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
            list(qe.load_records(io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")))


def fuzz_cli_rulesets(rng: random.Random) -> None:
    """A hostile rule-set argument through the commands that take one."""
    from tests.support.fuzz import _check_cli

    spec = spec_string(rng)
    command = rng.choice(
        [["rules", spec], ["diff", "en", spec], ["score", "--example", "--ruleset", spec]]
    )
    _check_cli(command)


def shares(rng: random.Random) -> None:
    """``wilson_interval`` and ``Share`` with hostile numbers."""
    count, total = rng.choice(INTS), rng.choice(INTS)
    z = rng.choice([1.96, 0, -1, math.nan, math.inf, "x", 1, 10**400])
    with contextlib.suppress(qe.RulesError):
        low, high = qe.wilson_interval(count, total, z=z)
        assert 0.0 <= low <= high <= 1.0, (count, total, z, low, high)


TARGETS: dict[str, Callable[[random.Random], None]] = {
    "documents": fuzz_documents,
    "schemas": fuzz_schemas,
    "specs": fuzz_specs,
    "evolve": fuzz_evolve,
    "variants": fuzz_variants,
    "svg": fuzz_svg,
    "agents": fuzz_agents,
    "record-files": fuzz_record_files,
    "cli-rulesets": fuzz_cli_rulesets,
    "shares": shares,
}
"""The second round's targets by name (``variants-verified`` is the long run's only)."""
