"""Every command of ``qe-rules`` fed hostile command lines, files and input (the third
round, issue 40): one target per command, ``cli:<command>``, for ``bench/fuzz.py`` and the
hypothesis tests.

A command line is made from the command's own options (read from the parser): valid
values and hostile ones (odd numbers, odd text, rule-set arguments from spec strings to
mangled rule files, input files from mangled records and score files to binary junk and
folders, output paths into missing folders, folders and full devices). It runs in this
process, and must end with a documented status (0, 1, 2, 3; 5 for ``play``), never 4 (an
internal error), and with one line on stderr when it fails. Work that would take long is
kept small: games are few, ``verify`` runs its static checks only, ``docs`` writes pages
made once, ``serve`` checks its arguments (its server is not started).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import os
import random
import sys
import tempfile
from collections.abc import Callable, Iterator
from typing import Any

from qe_rules.apps import cli
from tests.support.fuzz import INTS, TEXTS, score_file_text
from tests.support.hostile import spec_string
from tests.support.readers import _mutated_toml, corpus, mutated_document

_FOLDER = tempfile.mkdtemp(prefix="qe-commands-")
_STATUSES = {"play": {0, 2, 3, 5}}
_DEFAULT_STATUSES = {0, 1, 2, 3}


class Escape(AssertionError):
    """A command ended as no command may: status 4, or a failure in more than one line."""


# ------------------------------------------------------------------ values


def _write(name: str, data: bytes) -> str:
    path = os.path.join(_FOLDER, name)
    with open(path, "wb") as handle:
        handle.write(data)
    return path


def _json_bytes(data: Any) -> bytes:
    try:
        return json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogatepass")
    except (TypeError, ValueError, RecursionError):
        return b"[" * 100_000


def _input_file(rng: random.Random) -> str:
    """A path to a hostile input file (or a path that is no file)."""
    pick = rng.random()
    if pick < 0.3:
        record = rng.choice(corpus()["game-record"])
        return _write("record.json", _json_bytes(mutated_document(rng, record)))
    if pick < 0.6:
        return _write("score.json", score_file_text(rng))
    if pick < 0.7:
        return _write("record.json", _json_bytes(rng.choice(corpus()["game-record"])))
    if pick < 0.8:
        return _write("junk.json", bytes(rng.randrange(256) for _ in range(rng.randrange(64))))
    return rng.choice(_odd_inputs())


@functools.cache
def _odd_inputs() -> tuple[str, ...]:
    """Inputs that are no file of the library's: a folder, devices, a missing file, stdin,
    an empty name, a file of the kernel, files too large or empty (made once)."""
    missing = os.path.join(_FOLDER, "missing", "x.json")
    big = _write("big.json", b" " * (2**20 + 1))
    empty = _write("empty.json", b"")
    return (_FOLDER, "/dev/null", missing, "-", "", "/proc/self/status", big, empty)


def _ruleset_arg(rng: random.Random) -> str:
    """A rule-set argument: an id, a spec string, a shipped name or a (mangled) file."""
    pick = rng.random()
    if pick < 0.3:
        return rng.choice(["en", "de", "en-early", "de-summary", "house-equal-bids"])
    if pick < 0.6:
        return spec_string(rng)
    if pick < 0.85:
        text = _mutated_toml(rng, rng.choice(corpus()["rule-file"]))
        path = os.path.join(_FOLDER, "rules.toml")
        with open(path, "w", encoding="utf-8", errors="surrogatepass") as handle:
            handle.write(text)
        return path
    return rng.choice([*TEXTS, _FOLDER, "/dev/null", "x.toml"])


def _output_path(rng: random.Random, suffixes: tuple[str, ...]) -> str:
    name = "out" + rng.choice(suffixes)
    return rng.choice(
        [os.path.join(_FOLDER, name), os.path.join(_FOLDER, "missing", name), _FOLDER,
         "/dev/full", "/dev/null", os.path.join(_FOLDER, "x" * 300 + name), name[3:] or "x"]
    )  # fmt: skip


def _number(rng: random.Random, small: tuple[int, ...], work: bool = False) -> str:
    """A number option: mostly small valid values, else odd ones. A number of games or
    workers (``work``) is never a large valid amount of work: 10**20 games are refused,
    2**31 would be played."""
    if rng.random() < 0.6:
        return str(rng.choice(small))
    odd = ["-1", "0", "x", "", "1.5", "1e3", str(10**20), "1" + "0" * 5000, "0x10", " 3", "٣"]
    if not work:
        odd.append(str(rng.choice(INTS[:-6])))
    return rng.choice(odd)


def _float(rng: random.Random) -> str:
    return rng.choice(["0.5", "0", "nan", "inf", "-1", "1e308", "x", "60", "61", "24"])


_SMALL = {
    "players": (3, 4, 5, 2, 6),
    "seat": (0, 1, 4, 5),
    "seed": (0, 1, 7, -3),
    "games": (1, 2, 3),
    "workers": (1, 1, 1, 2, 0),
    "port": (0, 0, 1, 65535, 65536, 8000),
    "tables_per_minute": (0, 20),
    "max_tables": (0, 2000),
}
_AGENTS = ("random", "zero", "value", "trained", "random,zero,value", "x", "", "random," * 5)
_HOSTS = ("127.0.0.1", "localhost", "999.1.1.1", "", "x" * 300, "::1", "0.0.0.0", "a b")


def _value(rng: random.Random, command: str, action: argparse.Action) -> list[str]:
    """The words of one argument of ``command``: a value for ``action`` (an option's
    value follows its name)."""
    dest = action.dest
    if action.choices and rng.random() < 0.8:
        word = str(rng.choice(list(action.choices)))
    elif dest in ("ruleset", "a", "b", "base", "against"):
        word = _ruleset_arg(rng)
    elif dest == "rulesets":
        return [_ruleset_arg(rng) for _ in range(rng.randrange(1, 4))]
    elif dest == "file":
        word = _input_file(rng)
    elif dest in ("record", "rows", "plot", "examples", "output", "db", "folder"):
        suffixes = {"rows": (".csv", ".parquet", ".txt"), "plot": (".svg", ".png", ".txt"),
                    "db": (".sqlite3",), "record": (".json",), "output": (".md", ".html")}  # fmt: skip
        word = _output_path(rng, suffixes.get(dest, ("", "/")))
    elif dest in _SMALL:
        word = _number(rng, _SMALL[dest], work=dest in ("games", "workers"))
    elif action.type is float:
        word = _float(rng)
    elif dest == "agents":
        word = rng.choice(_AGENTS)
    elif dest == "host":
        word = rng.choice(_HOSTS)
    else:
        word = rng.choice([*TEXTS[:30], "http://127.0.0.1:8000/", "*", "x" * 2000])
    return [word.replace("\x00", "")]  # argv cannot carry a NUL


def command_line(rng: random.Random, command: str) -> list[str]:
    """A hostile command line of ``command``."""
    parser = _commands()[command]
    argv = [command]
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        if not action.option_strings:  # a positional argument: mostly given
            if rng.random() < 0.9:
                argv += _value(rng, command, action)
            continue
        given = rng.random() < 0.35 or (action.dest == "games" and command != "docs")
        if given:  # games always: the default of 1000 is more work than fuzzing wants
            flag = rng.choice(action.option_strings)
            if action.nargs == 0:
                argv.append(flag)
            else:
                argv += [flag, *_value(rng, command, action)]
    if rng.random() < 0.05:
        argv.insert(rng.randrange(1, len(argv) + 1), rng.choice(["--nope", "-x", "--help"]))
    return argv


@functools.cache
def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = cli._parser()
    found = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(found.choices)


# ------------------------------------------------------------------ running


@functools.cache
def _pages() -> dict[str, str]:
    return dict(_GENERATED_PAGES())


_GENERATED_PAGES = cli.generated_pages


@contextlib.contextmanager
def _kept_small() -> Iterator[None]:
    """The expensive parts of ``verify`` (and ``verify --texts``), ``docs`` and ``serve``
    replaced by small ones (the argument handling and the output around them are real)."""
    real_verify, real_texts = cli.verify, cli.check_texts
    saved = (cli.verify, cli.generated_pages, cli.measure_open_questions, cli.data_file)
    cli.verify = lambda ruleset, **options: real_verify(ruleset, checks=("deck-size",), **options)
    cli.check_texts = lambda rulesets=None, **options: real_texts(
        rulesets if rulesets is not None else ["en"], variants=0
    )
    cli.generated_pages = _pages
    cli.measure_open_questions = lambda games, keep=False: {"measured": games}
    cli.data_file = lambda *parts: os.path.join(_FOLDER, *parts)
    from qe_rules.apps import web

    started = web.serve
    web.serve = lambda **options: None
    try:
        yield
    finally:
        cli.verify, cli.generated_pages, cli.measure_open_questions, cli.data_file = saved
        cli.check_texts = real_texts
        web.serve = started


def _stdin(rng: random.Random) -> io.TextIOWrapper:
    """What a command reads on stdin: answers for ``play``, a record or junk for ``-``."""
    lines = [rng.choice(["3", "0", "peek", "p", "x", "", "-1", "999999999", "q", "help",
                         "1" * 2000]) for _ in range(rng.randrange(40))]  # fmt: skip
    data = ("\n".join(lines) + "\n").encode("utf-8")
    if rng.random() < 0.3:
        data = _json_bytes(mutated_document(rng, rng.choice(corpus()["game-record"])))
    elif rng.random() < 0.1:
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(200)))
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")


def run_command(argv: list[str], stdin: io.TextIOBase) -> tuple[int, str]:
    """Run ``qe-rules argv`` in this process, in the scratch folder, with ``stdin``: its
    status and stderr. An internal error re-raises the exception the command met (its
    site is the escape's)."""
    out, err = io.StringIO(), io.StringIO()
    met: list[BaseException] = []
    report = cli._report

    def reported(message: str, status: int) -> int:
        if status == cli.EXIT_INTERNAL:
            met.append(sys.exc_info()[1] or Escape(message))
        return report(message, status)

    saved_stdin, here = sys.stdin, os.getcwd()
    cli._report = reported
    sys.stdin = stdin
    os.chdir(_FOLDER)  # relative paths (docs' default folder, "x.csv") land in scratch
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            status = cli.main(argv, out=out)
    finally:
        cli._report = report
        sys.stdin = saved_stdin
        os.chdir(here)
    if met:
        raise met[0]
    return status, err.getvalue()


def fuzz_command(command: str, rng: random.Random) -> str:
    """One hostile command line of ``command``: its status, checked."""
    argv = command_line(rng, command)
    with _kept_small():
        status, err = run_command(argv, _stdin(rng))
    allowed = _STATUSES.get(command, _DEFAULT_STATUSES)
    if status not in allowed:
        raise Escape(f"status {status} of {argv!r}: {err[:300]!r}")
    lines = [line for line in err.split("\n") if line and "\r" not in line]  # no progress bar
    if status not in (0, 1) and not (len(lines) == 1 and lines[0].startswith("qe-rules")):
        raise Escape(f"a failure not in one line, status {status} of {argv!r}: {err[-300:]!r}")
    return f"status {status}"


def warm_up() -> None:
    """Do once what the first input of a command would otherwise pay for (and a timeout
    could cut short each time): the generated pages, the plotting library."""
    _pages()
    with contextlib.suppress(ImportError):  # the plotting library and its font cache
        import matplotlib.pyplot as pyplot

        figure = pyplot.figure()
        figure.savefig(os.path.join(_FOLDER, "warm.png"))
        pyplot.close(figure)


def command_targets(*, warm: bool = True) -> dict[str, Callable[[random.Random], str]]:
    """One target per command, ``cli:<command>`` (with ``warm``, the pages of ``docs``
    made first)."""
    if warm:
        warm_up()
    return {f"cli:{command}": functools.partial(fuzz_command, command) for command in _commands()}


__all__ = ["command_line", "command_targets", "run_command"]
