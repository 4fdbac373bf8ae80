"""The ``qe-rules`` command line.

- ``qe-rules variants [--files]``: the built-in rule sets (``--files``: every shipped rule file).
- ``qe-rules score FILE.json``: score a game's final holdings, from a score file or a
  finished game's record (``--example`` scores the rulebooks' scoring example).
- ``qe-rules play``: play a game at the terminal against the built-in agents. Exit status
  0 at the end of the game, 5 when the input ends (Ctrl-D), 130 on Ctrl-C.
- ``qe-rules show RECORD.json``: a recorded game sale by sale, every bid included.
- ``qe-rules rules ID``: every rule of a rule set with its citation.
- ``qe-rules diff A B``: where two rule sets differ.
- ``qe-rules discrepancies``: the register of differences between the texts.
- ``qe-rules glossary [TERM]``: German-English game terms.
- ``qe-rules verify [ID | FILE.toml | --all] [--thorough]``: search rule sets for rule
  gaps; exit status 1 on a new gap or a violation.
- ``qe-rules simulate``: play many games between agents and sum them up.
- ``qe-rules compare A B ...``: play games once and score them under several rule sets.
- ``qe-rules rulebook RULESET [--lang en|de] [--format md|html] [--edition
  reference|print] [--against BASE] [--cite]``: the rulebook of a rule set, written from
  the project's own templates; ``--edition print`` gives the rules a player reads.
- ``qe-rules docs [--check] [--force] [DIR]``: write (or check) the generated documentation
  pages; DIR must already hold generated pages unless ``--force`` is given.
- ``qe-rules evaluate [AGENT ...]``, ``qe-rules exploit AGENT``: a cross-play matrix of
  agents, and the exploitability probe (:mod:`qe_rules.apps.research`).
- ``qe-rules completion bash|zsh|tcsh``: a shell completion script (the ``completion``
  extra: shtab).

A rule set argument is a built-in id, the name of a shipped rule file (listed by
``qe-rules variants --files``) or a TOML file. Every failure prints one line on stderr,
never a traceback, and ends with a documented exit status (see ``docs/limits.md``):

- 0: done; 1: findings (``verify`` found a new gap, ``docs --check`` stale pages);
- 2: a usage or input error (arguments, files, rule sets, records);
- 3: the output could not be written (a full disk, a folder that cannot be written);
- 4: an internal error (a bug: please report it with the command line);
- 5: ``play`` ended by the end of its input (Ctrl-D);
- 130: interrupted (Ctrl-C); 141: the reader closed the output pipe (ends quietly).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib.metadata
import json
import os
import sys
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any, Final, NoReturn, TextIO, TypeAlias, TypeVar

import attrs

from qe_rules._util import toml as _toml
from qe_rules._util.i18n import languages as table_languages
from qe_rules._util.paths import open_input, open_output
from qe_rules.apps.console import (
    ProgressBar,
    WholeWordsFormatter,
    add_completion_command,
    add_completions,
    add_lang_option,
    chosen_language,
    completion_script,
    end_progress_lines,
    forget_progress_bars,
)
from qe_rules.apps.output_files import OutputError as _OutputError
from qe_rules.apps.output_files import check_output_path, check_writable, write_file, writing
from qe_rules.apps.pages import (
    generated_pages,
    measure_open_questions,
    page_makers,
    verification_markdown,
)
from qe_rules.apps.project import project_url
from qe_rules.apps.research import add_research_parsers
from qe_rules.apps.rulebook_files import FORMATS, write_rulebook
from qe_rules.apps.serving import add_serve_arguments, serve_from_arguments
from qe_rules.apps.terminal import GameStopped, play_in_terminal
from qe_rules.components import Nation
from qe_rules.errors import RulesError, shown
from qe_rules.game.engine import Game, replay
from qe_rules.game.records import RECORD_FORMAT
from qe_rules.game.scoring import PlayerRecord, score_game
from qe_rules.limits import MAX_FILE_BYTES, MAX_TEXT_LENGTH
from qe_rules.present.text import game_text, score_board_text
from qe_rules.rules.files import data_file, shipped_rulesets
from qe_rules.rules.model import RULESETS, SOURCES, RuleSet, get_ruleset, load_ruleset
from qe_rules.simulation.agents import AGENT_NAMES
from qe_rules.simulation.comparison import Comparison, PlayedComparison, compare
from qe_rules.simulation.plot import check_picture_path, plot_comparison, plot_stats
from qe_rules.simulation.rows import check_rows_path
from qe_rules.simulation.stats import SimulationStats, simulate
from qe_rules.texts import reports
from qe_rules.texts.catalogs import languages as rulebook_languages
from qe_rules.texts.diffs import diff
from qe_rules.texts.discrepancies import DISCREPANCIES, TOPICS, DiscrepancyKind, find_discrepancies
from qe_rules.texts.glossary import GLOSSARY, lookup_term
from qe_rules.texts.questions import MEASURED_FILE
from qe_rules.texts.rulebooks import EDITIONS
from qe_rules.verification.suite import verify
from qe_rules.verification.texts import check_texts

__all__ = ["main"]

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_OUTPUT = 3
EXIT_INTERNAL = 4
EXIT_END_OF_INPUT = 5
EXIT_INTERRUPTED = 130
EXIT_CLOSED_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a writer the pipe ended

_FORMAT_HELP = "the output format (default text)"

# what add_subparsers returns: each _add_<command>_parser adds its command to it
_Commands: TypeAlias = "argparse._SubParsersAction[_Parser]"


class _InputError(Exception):
    """An input problem to report in one line."""


# --------------------------------------------------------------------------- variants


def _add_variants_parser(commands: _Commands) -> None:
    """The ``variants`` command's arguments."""
    variants = commands.add_parser("variants", help="list the built-in rule sets")
    variants.add_argument(
        "--files",
        action="store_true",
        help="list every rule file the package ships (built-ins and house rules) by name",
    )
    variants.set_defaults(run=_cmd_variants)


def _cmd_variants(args: argparse.Namespace, out: TextIO) -> int:
    if args.files:
        rows = [[name, str(path)] for name, path in shipped_rulesets().items()]
        print("\n".join(reports.table(["name", "file"], rows, left=2)), file=out)
        return EXIT_OK
    header = ["id", "language", "players", "source"]
    rows = [
        [rs.id, rs.language, reports.counts(rs.player_counts), SOURCES[rs.source].title]
        for rs in RULESETS.values()
    ]
    print("\n".join(reports.table(header, rows, left=len(header))), file=out)
    return EXIT_OK


# --------------------------------------------------------------------------- score


def _read_json(path: str) -> Any:
    """A JSON file (``-``: stdin) of at most ``MAX_FILE_BYTES``, refused before the rest
    of a larger one is read."""
    try:
        if path == "-":
            if sys.stdin is None:
                raise _InputError("cannot read stdin: it is closed")
            data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        else:
            with open_input(path) as handle:  # a regular file only: a FIFO would block
                data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise _InputError(f"cannot read {path}: {error.strerror or error}") from None
    except ValueError as error:  # a path no file can have: a NUL, a lone surrogate
        raise _InputError(f"cannot read {shown(path)}: {error}") from None
    if len(data) > MAX_FILE_BYTES:
        raise _InputError(
            f"{path} is larger than {MAX_FILE_BYTES} bytes (qe_rules.limits.MAX_FILE_BYTES)"
        )
    try:
        return json.loads(data.decode("utf-8"))
    except RecursionError:
        raise _InputError(f"{path} is nested too deeply to read") from None
    except ValueError as error:  # JSONDecodeError, UnicodeDecodeError, an int too long
        message = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise _InputError(f"{path} is not valid JSON: {message}") from None


def _example() -> Any:
    text = (
        resources.files("qe_rules")
        .joinpath("examples/scoring-example.json")
        .read_text(encoding="utf-8")
    )
    return json.loads(text)


_SCORE_FILE_KEYS = ("ruleset", "players", "description")


def _parse_score_file(data: Any, where: str) -> tuple[str | None, list[PlayerRecord], list[str]]:
    """Read ``{"ruleset": ..., "players": [...]}`` or a bare list of player records."""
    ruleset = None
    if isinstance(data, dict):
        unknown = [key for key in data if key not in _SCORE_FILE_KEYS]
        if unknown:
            raise _InputError(
                f"{where}: unknown key {shown(unknown[0])}; allowed: {', '.join(_SCORE_FILE_KEYS)}"
            )
        ruleset = data.get("ruleset")
        if "ruleset" in data and not isinstance(ruleset, str):
            raise _InputError(f"{where}: 'ruleset' must be a rule set id such as \"en\"")
        if "description" in data and not isinstance(data["description"], str):
            raise _InputError(f"{where}: 'description' must be a string")
        players = data.get("players")
    else:
        players = data
    if not isinstance(players, list):
        raise _InputError(
            f"{where}: expected a list of player records, or an object with a 'players' list"
        )
    if len(players) > len(Nation):  # counted before any record is read
        raise _InputError(
            f"{where}: a game has at most {len(Nation)} players (one a nation), "
            f"got {len(players)} player records"
        )
    records, names = [], []
    for seat, entry in enumerate(players):
        try:
            records.append(PlayerRecord.from_dict(entry))
        except RulesError as error:
            raise _InputError(f"{where}: player {seat}: {error}") from None
        name = entry.get("name")
        if name is not None and (not isinstance(name, str) or len(name) > MAX_TEXT_LENGTH):
            raise _InputError(
                f"{where}: player {seat}: 'name' must be a string of at most "
                f"{MAX_TEXT_LENGTH} characters, got {shown(name)}"
            )
        names.append(_printable(name) if name else "")  # unnamed: seat 1, seat 2, ...
    return ruleset, records, names


def _is_game_record(data: Any) -> bool:
    return isinstance(data, dict) and data.get("format") == RECORD_FORMAT


def _replayed(data: Any, where: str) -> Game:
    try:
        return replay(data)
    except RulesError as error:
        raise _InputError(f"{where}: {error}") from None


def _add_score_parser(commands: _Commands) -> None:
    """The ``score`` command's arguments."""
    score = commands.add_parser(
        "score",
        help="score a game's final holdings",
        description="Score player records read from a JSON file and print the score board.",
    )
    score.add_argument(
        "file",
        nargs="?",
        metavar="FILE.json",
        help="player records, or a finished game's record (- for stdin)",
    )
    score.add_argument(
        "--example", action="store_true", help="score the rulebooks' scoring example"
    )
    score.add_argument("--ruleset", metavar="ID", help="rule set id (default: the file's, else en)")
    score.add_argument("--format", choices=("text", "json"), default="text", help=_FORMAT_HELP)
    add_lang_option(score, table_languages(), "the score board")
    score.set_defaults(run=_cmd_score)


def _cmd_score(args: argparse.Namespace, out: TextIO) -> int:
    if args.example == (args.file is not None):
        given = f"both {shown(args.file)} and --example" if args.example else "neither"
        raise _InputError(
            f"give a score file (FILE.json, or - for stdin) or --example; got {given}"
        )
    where = "the scoring example" if args.example else args.file
    data = _example() if args.example else _read_json(args.file)
    if _is_game_record(data):
        game = _replayed(data, where)
        if not game.is_over:
            raise _InputError(
                f"{where}: the game is not over (it stops during sale {game.sale + 1}); "
                "only a finished game can be scored"
            )
        ruleset = _ruleset_arg(args.ruleset) if args.ruleset else game.ruleset
        records = list(game.player_records())
        names = [""] * game.players
    else:
        file_ruleset, records, names = _parse_score_file(data, where)
        ruleset = _ruleset_arg(args.ruleset or file_ruleset or "en")
    try:
        result = score_game(ruleset, records)
    except RulesError as error:
        raise _InputError(f"{where}: {error}") from None
    if args.format == "json":
        json.dump(result.to_dict(), out, indent=2)
        out.write("\n")
    else:
        lang = chosen_language(args.lang, table_languages())
        board = score_board_text(
            result, lang=lang, names=names, scoring_order=ruleset.scoring_order
        )
        print(board, file=out)
    return EXIT_OK


# --------------------------------------------------------------------------- play and show


MAX_LINE: Final = 1000
"""The most of a line ``play`` keeps: an answer is a number or a word. The rest of a
longer line is read and dropped, up to ``MAX_FILE_BYTES`` in all; a line longer than
that ends the game as an input error."""


def _read_line() -> str:
    """One line of input, cut after :data:`MAX_LINE` characters ('' at the end of the
    input, or when stdin is closed)."""
    if sys.stdin is None:
        return ""
    try:
        line = sys.stdin.readline(MAX_LINE + 1)
        if len(line) <= MAX_LINE or line.endswith("\n"):
            return line
        dropped = len(line)
        while True:  # the rest of a long line, in bounded pieces
            rest = sys.stdin.readline(MAX_LINE)
            dropped += len(rest)
            if not rest or rest.endswith("\n"):
                return line  # too long to be an answer: the game says so and asks again
            if dropped > MAX_FILE_BYTES:
                raise _InputError(
                    f"a line of input is longer than {MAX_FILE_BYTES} characters "
                    "(qe_rules.limits.MAX_FILE_BYTES)"
                )
    except UnicodeDecodeError:
        raise _InputError("the input is not UTF-8 text") from None


def _printable(text: str) -> str:
    """``text`` with control characters (and anything else not printable) written as
    escapes, so that a name read from a file cannot move the terminal's cursor or
    colour its text."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else ascii(char)[1:-1] for char in text)


def _add_play_parser(commands: _Commands) -> None:
    """The ``play`` command's arguments."""
    player = commands.add_parser(
        "play",
        help="play a game at the terminal against the built-in agents",
        description="Play one seat of a game; the built-in agents play the others. Each "
        "turn shows your view and asks for your bid (or, with 5 players, whether to peek); "
        "h shows the rules and how the game scores. "
        f"Exit status {EXIT_OK} at the end of the game, {EXIT_END_OF_INPUT} when the input "
        f"ends (Ctrl-D), {EXIT_INTERRUPTED} on Ctrl-C.",
    )
    player.add_argument("--players", type=int, default=4, help="3, 4 or 5 (default 4)")
    player.add_argument(
        "--seat", type=int, default=1, help="your seat, counted from 1 as at the table (default 1)"
    )
    player.add_argument(
        "--agents",
        default="value",
        help=f"{', '.join(AGENT_NAMES)}: one for every other seat, or one per other seat "
        "separated by commas (default value)",
    )
    player.add_argument(
        "--ruleset",
        metavar="ID",
        help="the rules (default: the built-in rule set of the game's language, de for "
        "German, else en; --lang and --ruleset are independent)",
    )
    player.add_argument("--seed", type=int, default=0, help="deals the game (default 0)")
    player.add_argument("--record", metavar="FILE", help="save the game record to FILE")
    add_lang_option(player, table_languages(), "the game")
    player.set_defaults(run=_cmd_play)


def _cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    lang = chosen_language(args.lang, table_languages())
    if args.ruleset is None:  # the rules of the game's language, where a text is in it
        spoken = [rules for rules in RULESETS.values() if rules.language == lang]
        ruleset = spoken[0] if spoken else RULESETS["en"]
    else:
        ruleset = _ruleset_arg(args.ruleset)
    agents = _agents(args.agents)
    if args.players in ruleset.player_counts and not 1 <= args.seat <= args.players:
        raise _InputError(f"--seat is a seat from 1 to {args.players}, got {args.seat}")
    try:
        game = play_in_terminal(
            ruleset,
            args.players,
            args.seat - 1,
            agents,
            seed=args.seed,
            read_line=_read_line,
            out=out,
            lang=lang,
        )
    except GameStopped as stopped:
        saved = ""
        if args.record:
            _save_record(stopped.game, args.record)
            saved = f"; the game so far is saved in {args.record}"
        print(f"qe-rules: game left ({stopped.reason}){saved}", file=sys.stderr)
        return EXIT_INTERRUPTED if stopped.reason == "interrupted" else EXIT_END_OF_INPUT
    if args.record:
        _save_record(game, args.record)
        print(f"The game record is saved in {args.record}.", file=out)
    return EXIT_OK


def _save_record(game: Game, path: str) -> None:
    with writing(path), open_output(path) as handle:
        json.dump(game.to_record(), handle)
        handle.write("\n")


def _add_show_parser(commands: _Commands) -> None:
    """The ``show`` command's arguments."""
    shower = commands.add_parser(
        "show",
        help="print a recorded game sale by sale",
        description="Replay a game record and print every sale with all its bids (the "
        "referee's view), then the score board if the game is over.",
    )
    shower.add_argument("file", metavar="RECORD.json", help="a game record (- for stdin)")
    add_lang_option(shower, table_languages(), "the game")
    shower.set_defaults(run=_cmd_show)


def _cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    game = _replayed(_read_json(args.file), args.file)
    print(game_text(game, lang=chosen_language(args.lang, table_languages())), file=out)
    return EXIT_OK


# --------------------------------------------------------------------------- rule sets


def _ruleset_arg(text: str) -> RuleSet:
    """A built-in id, a spec string (``en:tie_streak=same-players``), the name of a
    shipped rule file, or a TOML file."""
    if not isinstance(text, str):  # argparse gives a list for some uses of "--"
        raise _InputError(
            f"give a rule set as a built-in id, a shipped name or a .toml file, got {shown(text)}"
        )
    if text in RULESETS:
        return RULESETS[text]
    if ":" in text and text.partition(":")[0] in RULESETS:
        return get_ruleset(text)
    if text.endswith(".toml") or os.path.exists(text):
        return load_ruleset(text)
    shipped = shipped_rulesets()
    if text in shipped:
        return load_ruleset(shipped[text])
    raise _InputError(
        f"unknown rule set {shown(text)}: give a built-in id ({', '.join(RULESETS)}), "
        "a spec string (en:field=value), a shipped name (qe-rules variants --files) "
        "or a .toml file"
    )


def _emit(out: TextIO, data: Any) -> None:
    json.dump(data, out, indent=2, ensure_ascii=False)
    out.write("\n")


def _add_rules_parser(commands: _Commands) -> None:
    """The ``rules`` command's arguments."""
    rules = commands.add_parser(
        "rules",
        help="show every rule of a rule set with its citation",
        description="Show a rule set: every rule, its value and where it comes from. "
        "--format toml writes a file that load_ruleset reads back (with --base, only what "
        "differs from that built-in rule set).",
    )
    rules.add_argument(
        "ruleset", metavar="ID", help="a built-in id, a shipped name or a .toml file"
    )
    rules.add_argument(
        "--format", choices=("text", "markdown", "json", "toml"), default="text", help=_FORMAT_HELP
    )
    rules.add_argument("--base", metavar="ID", help="with --format toml: extend this built-in")
    rules.set_defaults(run=_cmd_rules)


def _cmd_rules(args: argparse.Namespace, out: TextIO) -> int:
    ruleset = _ruleset_arg(args.ruleset)
    if args.format == "json":
        _emit(out, ruleset.to_dict())
    elif args.format == "toml":
        out.write(ruleset.to_toml(base=args.base))
    elif args.format == "markdown":
        out.write(reports.ruleset_markdown(ruleset))
    else:
        print(reports.ruleset_text(ruleset), file=out)
    return EXIT_OK


def _add_diff_parser(commands: _Commands) -> None:
    """The ``diff`` command's arguments."""
    differ = commands.add_parser(
        "diff",
        help="show where two rule sets differ",
        description="List every rule on which rule set B differs from rule set A, with both "
        "values and both citations. Exits 0 whether or not they differ.",
    )
    differ.add_argument("a", metavar="A", help="a built-in id, a shipped name or a .toml file")
    differ.add_argument("b", metavar="B", help="a built-in id, a shipped name or a .toml file")
    differ.add_argument(
        "--format", choices=("text", "json", "markdown"), default="text", help=_FORMAT_HELP
    )
    differ.set_defaults(run=_cmd_diff)


def _cmd_diff(args: argparse.Namespace, out: TextIO) -> int:
    change = diff(_ruleset_arg(args.a), _ruleset_arg(args.b))
    if args.format == "json":
        _emit(out, change.to_dict())
    elif args.format == "markdown":
        out.write(reports.diff_markdown(change))
    else:
        print(reports.diff_text(change), file=out)
    return EXIT_OK


def _add_discrepancies_parser(commands: _Commands) -> None:
    """The ``discrepancies`` command's arguments."""
    register = commands.add_parser(
        "discrepancies",
        help="list where the QE texts differ or are unclear",
        description=f"The discrepancy register ({len(DISCREPANCIES)} entries).",
    )
    register.add_argument(
        "--class",
        dest="kind",
        choices=[k.value for k in DiscrepancyKind],
        help="only entries of this class",
    )
    register.add_argument("--source", choices=list(SOURCES), help="only entries citing a text")
    register.add_argument("--topic", choices=list(TOPICS), metavar="TOPIC", help="only a topic")
    register.add_argument(
        "--format", choices=("text", "json", "markdown"), default="text", help=_FORMAT_HELP
    )
    register.set_defaults(run=_cmd_discrepancies)


def _cmd_discrepancies(args: argparse.Namespace, out: TextIO) -> int:
    entries = find_discrepancies(kind=args.kind, source=args.source, topic=args.topic)
    if args.format == "json":
        _emit(out, [entry.to_dict() for entry in entries])
    elif args.format == "markdown":
        out.write(reports.discrepancies_markdown(entries))
    else:
        print(reports.discrepancies_text(entries), file=out)
    return EXIT_OK


def _add_glossary_parser(commands: _Commands) -> None:
    """The ``glossary`` command's arguments."""
    glossary = commands.add_parser(
        "glossary",
        help="German-English game terms",
        description="The glossary, or the terms matching TERM in either language.",
    )
    glossary.add_argument(
        "term", nargs="?", metavar="TERM", help="an English or German term (default: all)"
    )
    glossary.add_argument("--format", choices=("text", "json"), default="text", help=_FORMAT_HELP)
    glossary.set_defaults(run=_cmd_glossary)


def _cmd_glossary(args: argparse.Namespace, out: TextIO) -> int:
    terms = lookup_term(args.term) if args.term else GLOSSARY
    if not terms:
        raise _InputError(f"no glossary term matches {shown(args.term)}; run qe-rules glossary")
    if args.format == "json":
        _emit(out, [term.to_dict() for term in terms])
    else:
        print(reports.glossary_text(terms), file=out)
    return EXIT_OK


# --------------------------------------------------------------------------- verify


def _add_verify_parser(commands: _Commands) -> None:
    """The ``verify`` command's arguments."""
    checker = commands.add_parser(
        "verify",
        help="search rule sets for rule gaps",
        description="Run the verifier. Exit status 0 when every finding holds or is a gap "
        "the rule set acknowledges, 1 when there is a new gap or a violation.",
    )
    checker.add_argument(
        "ruleset", nargs="?", metavar="ID", help="a built-in id, a shipped name or a .toml file"
    )
    checker.add_argument("--all", action="store_true", help="every built-in rule set")
    checker.add_argument(
        "--thorough",
        action="store_true",
        help="search sales from every auctioneer seat, with a larger bound on paths",
    )
    checker.add_argument(
        "--format", choices=("text", "json", "markdown"), default="text", help=_FORMAT_HELP
    )
    checker.add_argument(
        "--texts", action="store_true", help="check the generated rulebooks instead"
    )
    checker.add_argument("--variants", type=int, default=200, help="--texts: random variants")
    checker.add_argument("--seed", type=int, default=0, help="--texts: their seed")
    _add_progress_option(checker)
    checker.set_defaults(run=_cmd_verify)


def _cmd_verify_texts(args: argparse.Namespace, out: TextIO) -> int:
    if args.variants < 0:
        raise _InputError(f"--variants must be 0 or more, got {args.variants}")
    if args.ruleset is not None:
        report = check_texts([_ruleset_arg(args.ruleset)], variants=0)
    else:
        report = check_texts(variants=args.variants, seed=args.seed)
    if args.format == "json":
        _emit(out, report.to_dict())
    else:
        print(report.to_text(), file=out)
    return EXIT_OK if not report.findings else EXIT_FINDINGS


def _cmd_verify(args: argparse.Namespace, out: TextIO) -> int:
    if args.texts:
        return _cmd_verify_texts(args, out)
    if args.all == (args.ruleset is not None):
        given = f"both {shown(args.ruleset)} and --all" if args.all else "neither"
        raise _InputError(f"give a rule set (a built-in id or a .toml file) or --all; got {given}")
    rulesets = list(RULESETS.values()) if args.all else [_ruleset_arg(args.ruleset)]
    progress = _progress(args, "verifying")
    width = max(len(ruleset.id) for ruleset in rulesets)  # one label length: no leftovers
    results = []
    for done, ruleset in enumerate(rulesets):
        if progress is not None:
            progress.label = f"verifying {ruleset.id:<{width}}"
            progress(done, len(rulesets))
        results.append(verify(ruleset, thorough=args.thorough))
    if progress is not None:
        progress(len(rulesets), len(rulesets))
    if args.format == "json":
        data = [r.to_dict() for r in results]
        _emit(out, data if args.all else data[0])
    elif args.format == "markdown":
        out.write(verification_markdown(results) if args.all else results[0].to_markdown())
    else:
        print("\n\n".join(r.to_text() for r in results), file=out)
    return EXIT_OK if all(r.ok for r in results) else EXIT_FINDINGS


# --------------------------------------------------------------------------- simulate


def _progress(args: argparse.Namespace, label: str) -> ProgressBar | None:
    stream = sys.stderr
    if args.progress == "never" or (args.progress == "auto" and not stream.isatty()):
        return None
    return ProgressBar(stream, label)


def _agents(text: str) -> str | list[str]:
    """The agent names of ``--agents``: one name for every seat, or a list per seat."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in AGENT_NAMES]
    if not names or unknown:
        raise _InputError(
            f"agents are {', '.join(AGENT_NAMES)}, one for every seat or one per seat "
            f"separated by commas; got {text!r}"
        )
    return names if len(names) > 1 else names[0]


_Results = TypeVar("_Results", SimulationStats, Comparison)


def _check_extras(args: argparse.Namespace) -> None:
    """Refuse a file type for ``--rows`` or ``--plot`` before any game is played."""
    if args.rows:
        check_rows_path(args.rows)
    if args.plot:
        check_picture_path(args.plot)


def _write_extras(
    args: argparse.Namespace, results: _Results, plot: Callable[[_Results, str], object]
) -> None:
    """Write the per-game rows (``--rows``) and the picture (``--plot``) asked for."""
    for path, write in (
        (args.rows, results.write_rows),
        (args.plot, lambda path: plot(results, path)),
    ):
        if not path:
            continue
        with writing(path):
            check_output_path(path)
            write(path)


def _add_play_options(command: argparse.ArgumentParser) -> None:
    """The options that ``simulate`` and ``compare`` share."""
    command.add_argument("--players", type=int, default=4, help="3, 4 or 5 (default 4)")
    command.add_argument(
        "--agents",
        default="random",
        help=f"{', '.join(AGENT_NAMES)}: one for every seat, or one per seat separated "
        "by commas (default random)",
    )
    command.add_argument("--games", type=int, default=1000, help="default 1000")
    command.add_argument("--seed", type=int, default=0, help="default 0")
    command.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    command.add_argument(
        "--engine",
        choices=("auto", "batch", "reference"),
        default="auto",
        help="what plays the games: batch (numpy, games in lockstep), reference (the game "
        "engine) or auto (the batch where it can play the run; default)",
    )
    command.add_argument("--format", choices=("text", "json"), default="text", help=_FORMAT_HELP)
    command.add_argument(
        "--rows",
        metavar="FILE",
        help="write one row per game and seat to FILE (.csv, or .parquet with pyarrow)",
    )
    command.add_argument(
        "--plot",
        metavar="FILE",
        help="draw win shares, scores, spends (and causes of changes) to FILE "
        "(.png, .svg, .pdf; needs matplotlib)",
    )
    _add_progress_option(command)


def _add_progress_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="a progress bar on stderr (auto: when stderr is a terminal)",
    )


def _add_simulate_parser(commands: _Commands) -> None:
    """The ``simulate`` command's arguments."""
    simulator = commands.add_parser(
        "simulate",
        help="play many games between agents",
        description="Play games between agents and print win shares, totals, spends and "
        "rule gaps. The same seed gives the same numbers for any number of workers.",
    )
    simulator.add_argument("--ruleset", default="en", metavar="ID", help="default en")
    _add_play_options(simulator)
    simulator.set_defaults(run=_cmd_simulate)


def _cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    ruleset = _ruleset_arg(args.ruleset)
    _check_extras(args)
    stats = simulate(
        ruleset,
        args.players,
        _agents(args.agents),
        args.games,
        seed=args.seed,
        workers=args.workers,
        rows=bool(args.rows or args.plot),
        progress=_progress(args, "simulating"),
        engine=args.engine,
    )
    _write_extras(args, stats, plot_stats)
    if args.format == "json":
        _emit(out, attrs.evolve(stats, rows=None).to_dict())
    else:
        print(stats.to_text(), file=out)
    return EXIT_OK


def _add_compare_parser(commands: _Commands) -> None:
    """The ``compare`` command's arguments."""
    comparer = commands.add_parser(
        "compare",
        help="score the same games under several rule sets",
        description="Play each game once under the first rule set and score it under "
        "every rule set: how often the winner changes, and why.",
    )
    comparer.add_argument(
        "rulesets", nargs="+", metavar="RULESET", help="ids, spec strings or .toml files"
    )
    _add_play_options(comparer)
    comparer.add_argument(
        "--examples",
        metavar="DIR",
        help="write every example game record to DIR (an existing folder)",
    )
    comparer.add_argument(
        "--play",
        choices=("first", "each"),
        default="first",
        help="first: play under the first rule set and rescore (default); each: play the "
        "same games under each rule set and report the shares with 95%% intervals",
    )
    comparer.set_defaults(run=_cmd_compare)


def _cmd_compare(args: argparse.Namespace, out: TextIO) -> int:
    rulesets = [_ruleset_arg(text) for text in args.rulesets]
    if len(rulesets) < 2:
        raise _InputError(f"compare needs at least two rule sets; got {len(rulesets)}")
    if args.examples and not os.path.isdir(args.examples):
        raise _InputError(f"--examples: {shown(args.examples)} is not an existing folder")
    _check_extras(args)
    if args.play == "each" and (args.plot or args.examples):
        raise _InputError("--play each draws no plot and writes no examples; leave those out")
    comparison = compare(
        rulesets,
        args.players,
        _agents(args.agents),
        args.games,
        seed=args.seed,
        workers=args.workers,
        rows=bool(args.rows or args.plot),
        progress=_progress(args, "comparing"),
        play=args.play,
        engine=args.engine,
    )
    if isinstance(comparison, PlayedComparison):
        if args.rows:
            comparison.write_rows(args.rows)
        if args.format == "json":
            _emit(out, attrs.evolve(comparison, rows=None).to_dict())
        else:
            print(comparison, file=out)
        return EXIT_OK
    _write_extras(args, comparison, plot_comparison)
    if args.examples and comparison.examples:
        for example in comparison.examples:
            name = f"{example.ruleset}-{example.cause}-game-{example.game}.json"
            write_file(os.path.join(args.examples, name), json.dumps(example.record.to_dict()))
    if args.format == "json":
        _emit(out, attrs.evolve(comparison, rows=None).to_dict())
        return EXIT_OK
    print(comparison.to_text(), file=out)
    if comparison.examples:
        first = comparison.examples[0]
        where = (
            f"written to {args.examples}"
            if args.examples
            else "--examples DIR writes them (qe.replay and qe-rules show read them)"
        )
        print(
            f"\nexample game records: {len(comparison.examples)} (the first: {first.ruleset}, "
            f"{first.cause}, game {first.game}); {where}",
            file=out,
        )
    return EXIT_OK


# --------------------------------------------------------------------------- rulebook


def _add_rulebook_parser(commands: _Commands) -> None:
    """The ``rulebook`` command's arguments."""
    book = commands.add_parser(
        "rulebook",
        help="write the rulebook of a rule set in English or German",
        description="Write a complete rulebook of a rule set (a built-in id, a spec string, "
        "a shipped name or a .toml file) from the project's templates: components, setup, "
        "the phases of a sale, ties, special rules, final scoring with every table, the "
        "winner, a scored example and the open questions.",
    )
    book.add_argument("ruleset", metavar="RULESET", help="a built-in id, a spec or a .toml file")
    add_lang_option(book, rulebook_languages(), "the rulebook")
    book.add_argument("--format", choices=FORMATS, default="md", help="md or html (default md)")
    book.add_argument(
        "--against", metavar="BASE", help="list and mark every rule that differs from BASE"
    )
    book.add_argument(
        "--cite", action="store_true", help="give every paragraph its source and section"
    )
    book.add_argument(
        "--edition",
        choices=EDITIONS,
        default="reference",
        help="reference: every rule, with differences, open questions and citations on "
        "request; print: the rules a player reads (default reference)",
    )
    book.add_argument(
        "--paper", choices=("a4", "letter"), default="a4", help="html: the printed page size"
    )
    book.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of stdout")
    book.set_defaults(run=_cmd_rulebook)


def _cmd_rulebook(args: argparse.Namespace, out: TextIO) -> int:
    text = write_rulebook(
        _ruleset_arg(args.ruleset),
        lang=chosen_language(args.lang, rulebook_languages()),
        format=args.format,
        against=_ruleset_arg(args.against) if args.against else None,
        cite=args.cite,
        paper=args.paper,
        edition=args.edition,
    )
    if args.output:
        write_file(args.output, text)
    else:
        out.write(text)
    return EXIT_OK


# --------------------------------------------------------------------------- docs


def _add_docs_parser(commands: _Commands) -> None:
    """The ``docs`` command's arguments."""
    docs = commands.add_parser(
        "docs",
        help="write the generated documentation pages",
        description="Write the generated pages (rule sets, reconciliation, verification) "
        "under DIR, or with --check report the stale ones (exit status 1). DIR must already "
        "hold generated pages unless --force is given.",
    )
    docs.add_argument(
        "folder", nargs="?", default="docs", metavar="DIR", help="the docs folder (default docs)"
    )
    docs.add_argument("--check", action="store_true", help="only report stale pages; write none")
    docs.add_argument(
        "--force", action="store_true", help="write even where no generated page is yet"
    )
    docs.add_argument(
        "--measure",
        action="store_true",
        help="first measure the share of changed winners of every reading of every open "
        "question (slow) and write qe_rules/data/open-questions-measured.toml",
    )
    docs.add_argument(
        "--games", type=int, default=10_000, help="games per reading and agent kind (--measure)"
    )
    docs.add_argument(
        "--keep",
        action="store_true",
        help="with --measure, keep the readings already measured and play only the others",
    )
    docs.set_defaults(run=_cmd_docs)


def _cmd_docs(args: argparse.Namespace, out: TextIO) -> int:
    if args.measure:
        if args.check:
            raise _InputError("--measure writes the measured data; leave out --check")
        data = measure_open_questions(args.games, keep=args.keep)
        path = data_file(MEASURED_FILE)
        header = (
            "The measured shares of docs/open-questions.md: written by qe-rules docs "
            "--measure\n(qe_rules.apps.pages.measure_open_questions). Do not edit."
        )
        write_file(path, _toml.dumps(data, header=header))
        print(f"wrote {path}", file=out)
    names = list(page_makers())
    if os.path.exists(args.folder) and not os.path.isdir(args.folder):
        raise _InputError(f"{shown(args.folder)} is not a folder")
    holds_pages = os.path.isdir(args.folder) and any(
        os.path.isfile(os.path.join(args.folder, name)) for name in names
    )
    if not (args.check or args.force or holds_pages):
        raise _InputError(
            f"{shown(args.folder)} is not a folder that holds generated pages (such as "
            f"{names[0]}); give --force to write them there anyway"
        )
    if not args.check:
        check_writable(args.folder)
    stale = []
    for name, text in generated_pages().items():
        path = os.path.join(args.folder, name)
        try:
            with open_input(path) as handle:  # a regular file only: a FIFO would block
                current: str | None = handle.read(MAX_FILE_BYTES + 1).decode("utf-8")
        except FileNotFoundError:
            current = None
        except (OSError, ValueError) as error:  # ValueError: undecodable, or a NUL in the path
            raise _InputError(
                f"cannot read {shown(path)}: {getattr(error, 'strerror', error)}"
            ) from None
        if current == text:
            continue
        stale.append(path)
        if not args.check:
            write_file(path, text, folders=True)
            print(f"wrote {path}", file=out)
    if args.check and stale:
        print("stale: " + ", ".join(stale), file=out)
        return EXIT_FINDINGS
    return EXIT_OK


def _add_serve_parser(commands: _Commands) -> None:
    """The ``serve`` command's arguments (see :mod:`qe_rules.apps.serving`)."""
    server = commands.add_parser(
        "serve",
        help="serve web tables: play in a browser, one private link per seat",
        description="Serve QE tables over the web (needs the extra [web]). A host creates "
        "a table at the start page and gets one private link per seat; agents fill the "
        "other seats. Tables are stored in the database file and survive a restart.",
    )
    add_serve_arguments(server)
    server.set_defaults(run=_cmd_serve)


def _cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    rules = _ruleset_arg(args.ruleset)
    if args.players not in rules.player_counts:
        counts = ", ".join(map(str, rules.player_counts))
        raise _InputError(
            f"--players: {rules.id} is played by {counts} players, not {args.players}"
        )
    serve_from_arguments(args, out)
    return EXIT_OK


# --------------------------------------------------------------------------- completion


def _cmd_completion(args: argparse.Namespace, out: TextIO) -> int:
    try:
        out.write(completion_script(_parser(), args.shell))
    except ModuleNotFoundError as missing:
        raise _InputError(str(missing)) from None
    return EXIT_OK


# --------------------------------------------------------------------------- main


class _Parser(argparse.ArgumentParser):
    """Usage errors in one line, with the command's ``--help`` to read."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _version() -> str:
    try:
        return importlib.metadata.version("qe-rules")
    except importlib.metadata.PackageNotFoundError:
        return "unknown (not installed)"


@functools.cache  # a parser is not changed by parsing: build it once
def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="qe-rules",
        formatter_class=WholeWordsFormatter,
        description="The rules of the auction game QE: rule sets, scoring and more.",
        epilog="Exit status: 0 done, 1 findings, 2 usage or input error, 3 output error, "
        "4 internal error, 5 end of input (play), 130 interrupted, 141 output pipe closed. "
        + _documentation_note(),
    )
    parser.add_argument("--version", action="version", version=f"qe-rules {_version()}")
    commands = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", help="run qe-rules COMMAND --help"
    )
    _add_variants_parser(commands)
    _add_score_parser(commands)
    _add_play_parser(commands)
    _add_show_parser(commands)
    _add_rules_parser(commands)
    _add_diff_parser(commands)
    _add_discrepancies_parser(commands)
    _add_glossary_parser(commands)
    _add_verify_parser(commands)
    _add_simulate_parser(commands)
    _add_compare_parser(commands)
    _add_rulebook_parser(commands)
    _add_docs_parser(commands)
    _add_serve_parser(commands)
    add_research_parsers(commands, _ruleset_arg)
    add_completion_command(commands, _cmd_completion)
    add_completions(parser)
    return parser


def _documentation_note() -> str:
    """Where the exit statuses and limits are documented (the docs site's page)."""
    docs = project_url("Documentation")
    if docs is None:
        return "The limits and exit statuses are documented in the guide's limits page."
    return f"Limits and exit statuses: {docs.rstrip('/')}/limits.html"


def _crash_note() -> str:
    """What a user should do about an internal error: where to report it."""
    issues = project_url("Issues")
    where = f" at {issues}" if issues else ""
    return f"please report it{where} with the command line and this message"


def _report(message: str, status: int) -> int:
    """Report a failure in one line on stderr; returns ``status``."""
    first = message.splitlines()[0] if message.strip() else "(no message)"
    first = _printable(first)
    end_progress_lines()  # the message starts a line of its own, not a bar's
    with contextlib.suppress(OSError):  # when stderr is gone too, the status is what is left
        print(f"qe-rules: error: {first}", file=sys.stderr)
    return status


def _silence_stdout() -> None:
    """Point stdout at the null device so that the interpreter's last flush of a broken
    stream raises nothing more."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; returns the exit status (see ``docs/limits.md``): 0 done,
    1 findings, 2 usage or input error, 3 output error, 4 internal error, 5 end of input
    (``play``), 130 interrupted, 141 output pipe closed."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as done:  # --help, --version, or a usage error already reported
        return done.code if isinstance(done.code, int) else EXIT_USAGE
    stream = out if out is not None else sys.stdout
    if stream is None:  # started with stdout closed: there is nowhere to write
        return _report("cannot write the output: stdout is closed", EXIT_OUTPUT)
    try:
        return _run(args, stream, out)
    finally:
        forget_progress_bars()


def _run(args: argparse.Namespace, stream: TextIO, out: TextIO | None) -> int:
    """Run the command ``args`` names; every failure is one line and an exit status."""
    try:
        status: int = args.run(args, stream)
        stream.flush()
    except (_InputError, RulesError) as error:
        return _report(str(error) or type(error).__name__, EXIT_USAGE)
    except _OutputError as error:
        return _report(str(error), EXIT_OUTPUT)
    except BrokenPipeError:
        if out is None:
            _silence_stdout()
        return EXIT_CLOSED_PIPE
    except OSError as error:  # writing the output failed: a full disk, a closed device
        if out is None:
            _silence_stdout()
        return _report(f"cannot write the output: {error.strerror or error}", EXIT_OUTPUT)
    except KeyboardInterrupt:
        return _report("interrupted", EXIT_INTERRUPTED)
    except (Exception, RecursionError, MemoryError) as error:  # a bug: still one line
        return _report(
            f"internal error ({type(error).__name__}: {shown(str(error))}); {_crash_note()}",
            EXIT_INTERNAL,
        )
    return status


if __name__ == "__main__":
    sys.exit(main())
