"""Hostile inputs and the public entry points they are fed to.

Shared by the fuzz tests (``tests/test_fuzz.py``, driven by hypothesis) and the long run
(``bench/fuzz.py``, driven by ``random``). Every target takes a ``random.Random`` and
feeds one hostile input to one public entry point; it returns normally when the library
either accepted the input or raised a :class:`qe_rules.RulesError`, and lets anything else
escape, so that a caller sees the escape. Targets also check that a rejected move changes
nothing and that the command line fails in one line.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import random
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import qe_rules as qe
from qe_rules import limits
from qe_rules.apps.cli import main
from tests.support import scoring_example

# ------------------------------------------------------------------ hostile values

HUGE = 10**5000  # beyond the interpreter's 4,300 digits for int <-> str
INTS = (
    0, 1, -1, 2, 3, 4, 5, 7, 64, 65, 1000,
    limits.MAX_BID, limits.MAX_BID + 1, -limits.MAX_BID - 1, limits.MAX_MOVES,
    2**31, 2**63, 10**30, 10**9, HUGE, -HUGE, True, False,
)  # fmt: skip
TEXTS = (
    "", " ", "en", "de", "en-early", "de-summary", "fr", "EN", "bid", "peek", "decline-peek",
    "US", "EU", "CN", "JP", "UK", "FIN", "AGRICULTURE", "JP-FIN-1", "US-HOU-4", "XX-YYY-9",
    "qe-rules/game", "\x00", "\ud800", "é", "Gebot", "round", "tie-fallback", "-", "--",
    "a" * (limits.MAX_TEXT_LENGTH + 1), "1e309", "NaN", "[]", "{}", "../..", "/dev/null",
)  # fmt: skip
FLOATS = (0.0, 1.5, -0.0, math.nan, math.inf, -math.inf, 1e308)


def deep(rng: random.Random, depth: int = 3000) -> Any:
    """A list or table nested ``depth`` deep (far beyond ``MAX_NESTING``)."""
    value: Any = rng.choice([[], {}, 1, "x"])
    shape = rng.getrandbits(depth)  # one draw: lists and tables at random levels
    for level in range(depth):
        value = [value] if shape >> level & 1 else {"k": value}
    return value


def atom(rng: random.Random) -> Any:
    """One hostile scalar."""
    pick = rng.random()
    if pick < 0.4:
        return rng.choice(INTS)
    if pick < 0.75:
        return rng.choice(TEXTS)
    if pick < 0.85:
        return rng.choice(FLOATS)
    if pick < 0.9:
        return rng.choice([None, b"en", bytearray(b"x"), object(), (1, 2), frozenset({1})])
    return "".join(chr(rng.randrange(0x20, 0x3000)) for _ in range(rng.randrange(8)))


def value(rng: random.Random, depth: int = 0) -> Any:
    """A hostile value: a scalar, a container of hostile values, a deep or a long one."""
    pick = rng.random()
    if pick < 0.02:
        return deep(rng)
    if pick < 0.03:
        return [rng.choice(INTS)] * rng.choice([limits.MAX_MOVES + 1, 100_000])
    if depth > 2 or pick < 0.6:
        return atom(rng)
    if pick < 0.8:
        return [value(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {_key(rng): value(rng, depth + 1) for _ in range(rng.randrange(5))}


def _key(rng: random.Random) -> Any:
    """A hashable hostile key."""
    key = rng.choice(TEXTS) if rng.random() < 0.9 else atom(rng)
    return key if key.__hash__ is not None else repr(key)


# ------------------------------------------------------------------ valid starting points


def _play(ruleset: str, players: int, seed: int, bids: int) -> qe.Game:
    """A legal game after up to ``bids`` moves of random legal bids."""
    rng = random.Random(seed)
    game = qe.new_game(ruleset, players, seed=seed)
    for _ in range(bids):
        if game.is_over:
            break
        if game.can_peek(rng.randrange(players)) and rng.random() < 0.5:
            game = game.peek(next(s for s in range(players) if game.can_peek(s)))
            continue
        seat = min(game.to_act)
        bid_limits = game.bid_limits(seat)
        if bid_limits is None:  # the seat is due to answer a peek, not to bid
            game = game.peek(seat)
            continue
        game = game.bid(seat, bid_limits.legal(bid_limits.minimum + rng.randrange(6)))
    return game


GAMES = tuple(
    _play(ruleset, players, seed, bids)
    for ruleset, players, seed, bids in [
        ("en", 4, 1, 0),
        ("en", 3, 2, 7),
        ("de", 5, 3, 30),
        ("en-early", 4, 4, 15),
        ("de-summary", 5, 5, 1000),
    ]
)


def _mutate(rng: random.Random, data: Any) -> Any:
    """``data`` (JSON types) with one part replaced, removed or added."""
    if not (isinstance(data, dict | list) and data):
        return value(rng)
    data = data.copy()
    place = rng.choice(list(data)) if isinstance(data, dict) else rng.randrange(len(data))
    pick = rng.random()
    if pick < 0.15:
        del data[place]
    elif pick < 0.25:
        if isinstance(data, dict):
            data[_key(rng)] = value(rng)
        else:
            data.insert(place, value(rng))
    elif pick < 0.3 and isinstance(data, list):
        data.extend(data[place:])  # repeated moves
    elif pick < 0.6:
        data[place] = value(rng)
    else:
        data[place] = _mutate(rng, data[place])
    return data


def mutated(rng: random.Random, data: Any) -> Any:
    """``data`` after one to three mutations."""
    for _ in range(rng.randrange(1, 4)):
        data = _mutate(rng, data)
    return data


# ------------------------------------------------------------------ targets


def fuzz_replay(rng: random.Random) -> None:
    """``qe.replay`` of a mangled game record: a :class:`~qe_rules.InvalidRecord` or a game."""
    record = rng.choice(GAMES).to_record()
    with contextlib.suppress(qe.InvalidRecord):
        qe.replay(mutated(rng, record))


def fuzz_engine(rng: random.Random) -> None:
    """A hostile argument to a move or a view of a game; a rejected move changes nothing."""
    game = rng.choice(GAMES)
    before = game.to_record()
    pick = rng.randrange(8)
    args = [value(rng) if rng.random() < 0.7 else rng.randrange(-1, 7) for _ in range(2)]
    calls: list[Callable[[], Any]] = [
        lambda: game.bid(*args),
        lambda: game.bid_many(value(rng) if rng.random() < 0.5 else {_key(rng): args[1]}),
        lambda: game.peek(args[0]),
        lambda: game.apply(args[0]),
        lambda: game.apply(qe.Move(rng.choice(TEXTS[7:11]), *args[: rng.randrange(1, 3)])),
        lambda: game.view(args[0]),
        lambda: game.views(args[0]),
        lambda: (game.can_bid(*args), game.bid_limits(args[0]), game.can_peek(args[0])),
    ]
    try:
        calls[pick]()
    except qe.RulesError:
        assert game.to_record() == before, "a rejected move changed the game"
        return
    assert game.to_record() == before, "a move changed the game it was made on"


def fuzz_lookups(rng: random.Random) -> None:
    """A hostile query to the glossary, the register, the rule sets and the components."""
    query = value(rng)
    calls: list[Callable[[], Any]] = [
        lambda: qe.lookup_term(query),
        lambda: qe.translate_term(query),
        lambda: qe.get_discrepancy(query),
        lambda: qe.find_discrepancies(**{rng.choice(["kind", "source", "topic"]): query}),
        lambda: qe.get_ruleset(query),
        lambda: qe.Company.parse(query),
        lambda: qe.Nation.parse(query),
        lambda: qe.new_game(query, rng.choice([3, 4, 5, query])),
        lambda: qe.new_game("en", 4, seed=query),
    ]
    with contextlib.suppress(qe.RulesError):
        rng.choice(calls)()


SCORE_FILE = scoring_example()


def score_file_text(rng: random.Random) -> bytes:
    """The contents of a hostile score file: mangled data, or broken bytes."""
    pick = rng.random()
    if pick < 0.1:
        return b"[" * rng.choice([10, 100_000]) + b"]" * rng.randrange(2)
    if pick < 0.2:
        return b'{"players": [{"spent": ' + b"9" * rng.choice([4301, 50_000]) + b"}]}"
    if pick < 0.25:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
    try:
        text = json.dumps(mutated(rng, SCORE_FILE), default=repr)
    except (ValueError, TypeError, RecursionError):  # values JSON cannot hold
        text = json.dumps(SCORE_FILE)
    return text.encode("utf-8", "surrogatepass")


def run_cli(argv: list[str]) -> tuple[int, str]:
    """Run the command line in this process; returns its status and its stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err):
        status = main(argv, out=out)
    return status, err.getvalue()


def _check_cli(argv: list[str]) -> None:
    status, err = run_cli(argv)
    assert type(status) is int, argv
    if status not in (0, 1):
        assert err.count("\n") == 1 and err.startswith("qe-rules"), (argv, err)
        assert status != 4, (argv, err)  # an internal error is an escape


def fuzz_score_file(rng: random.Random, folder: str) -> None:
    """``qe-rules score FILE`` on a hostile file: a board or one line on stderr."""
    path = os.path.join(folder, "score.json")
    with open(path, "wb") as handle:
        handle.write(score_file_text(rng))
    extra = ["--ruleset", rng.choice(TEXTS[:8])] if rng.random() < 0.2 else []
    _check_cli(["score", path, *extra, "--format", rng.choice(["text", "json"])])


def _arg(rng: random.Random) -> str:
    text = rng.choice(TEXTS)
    return text if rng.random() < 0.8 else str(rng.choice(INTS[:-4]))


FAST_COMMANDS = {
    "variants": [],
    "rules": ["--format", "--base"],
    "diff": ["--format"],
    "discrepancies": ["--class", "--source", "--topic", "--format"],
    "glossary": ["--format"],
    "score": ["--example", "--ruleset", "--format"],
}


def fuzz_cli(rng: random.Random) -> None:
    """A hostile command line to the quick commands: output, or one line on stderr."""
    command = rng.choice([*FAST_COMMANDS, "--version", "--help", "nope", ""])
    argv = [command]
    for _ in range(rng.randrange(4)):
        options = FAST_COMMANDS.get(command, [])
        if options and rng.random() < 0.5:
            argv.append(rng.choice(options))
        argv.append(_arg(rng) if rng.random() < 0.8 else rng.choice(["json", "toml", "text"]))
    with contextlib.redirect_stdout(io.StringIO()):  # --help prints there
        _check_cli(argv)


def fuzz_ruleset_loader(rng: random.Random, folder: str) -> None:
    """``RuleSet.from_toml``, ``from_dict`` and ``load_ruleset`` on hostile text or data."""
    data = mutated(rng, qe.get_ruleset(rng.choice(list(qe.RULESETS))).to_dict())
    pick = rng.randrange(4)
    with contextlib.suppress(qe.RulesError):
        if pick == 0:
            qe.RuleSet.from_dict(data)
        elif pick == 1:
            qe.RuleSet.from_toml(value(rng))
        else:
            text = qe.get_ruleset("de").to_toml(base="en")
            lines = text.splitlines()
            index = rng.randrange(len(lines) + 1)
            try:
                line = f"{rng.choice(TEXTS)} = {json.dumps(atom(rng), default=repr)}"
            except ValueError:  # an int too long for a string
                line = "x = " + "9" * 5000
            lines.insert(index, line)
            path = os.path.join(folder, "rules.toml")
            with open(path, "w", encoding="utf-8", errors="surrogatepass") as handle:
                handle.write("\n".join(lines))
            if pick == 2:
                qe.load_ruleset(path)
            else:
                qe.RuleSet.from_toml("\n".join(lines))


def targets(folder: str) -> dict[str, Callable[[random.Random], None]]:
    """Every fuzz target by name; ``folder`` is a scratch folder for files. The targets
    of the second round (``tests/support/hostile.py``) follow the first's."""
    from tests.support.hostile import TARGETS  # it reads this module's values

    return {
        "replay": fuzz_replay,
        "engine": fuzz_engine,
        "lookups": fuzz_lookups,
        "score-file": lambda rng: fuzz_score_file(rng, folder),
        "cli": fuzz_cli,
        "ruleset-loader": lambda rng: fuzz_ruleset_loader(rng, folder),
        **TARGETS,
    }


def measured(
    target: Callable[[random.Random], Any], seed: int, memory: bool
) -> tuple[float, int, Any]:
    """Run ``target`` on the input of ``seed``; returns seconds, (if ``memory``) the peak
    of bytes allocated meanwhile, and what the target returned (its outcome)."""
    rng = random.Random(seed)
    if memory:
        tracemalloc.start()
    start = time.perf_counter()
    try:
        outcome = target(rng)
    finally:
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1] if memory else 0
        if memory:
            tracemalloc.stop()
    return seconds, peak, outcome


def scratch_folder() -> str:
    """A fresh scratch folder for the file targets."""
    return tempfile.mkdtemp(prefix="qe-fuzz-")
