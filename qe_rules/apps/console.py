"""What the command line writes besides its output: help wrapped between whole words,
progress bars with their rate and time left, and how a shell completes the values of
its arguments (for ``qe-rules completion``, through shtab).

>>> duration(340), duration(3725), duration(12.4)
('5m40s', '1h02m', '12s')
"""

from __future__ import annotations

import argparse
import contextlib
import textwrap
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, TextIO

from qe_rules._util.i18n import environment_language
from qe_rules.rules.files import shipped_rulesets
from qe_rules.rules.model import RULESETS

__all__ = [
    "SHELLS",
    "ProgressBar",
    "WholeWordsFormatter",
    "add_completion_command",
    "add_completions",
    "add_lang_option",
    "chosen_language",
    "completion_preamble",
    "completion_script",
    "duration",
    "end_progress_lines",
    "forget_progress_bars",
]


class WholeWordsFormatter(argparse.HelpFormatter):
    """argparse's help, its paragraphs wrapped between words only: a URL with a hyphen
    (``https://qe-rules...``) stays whole, so that a terminal links all of it."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(
            " ".join(text.split()), width, break_on_hyphens=False, break_long_words=False
        )

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return textwrap.fill(
            " ".join(text.split()),
            width,
            initial_indent=indent,
            subsequent_indent=indent,
            break_on_hyphens=False,
            break_long_words=False,
        )


_RULESET_IDS: Final = " ".join(RULESETS)
_COMPLETE_RULESET: Final = {
    "bash": "_qe_rules_rulesets",
    "zsh": "_qe_rules_rulesets",
    "tcsh": f"({_RULESET_IDS})",
}
"""How a shell completes a rule set: a built-in id, a shipped name or a ``.toml`` file
(tcsh: the built-in ids)."""
_COMPLETE_FILE: Final = {"bash": "_shtab_compgen_files", "zsh": "_files", "tcsh": "f"}
_COMPLETE_FOLDER: Final = {"bash": "_shtab_compgen_dirs", "zsh": "_files -/", "tcsh": "d"}
_RULESET_ARGUMENTS: Final = ("ruleset", "rulesets", "a", "b", "against", "base")
_FILE_ARGUMENTS: Final = ("file", "record", "rows", "plot", "output", "db")
_FOLDER_ARGUMENTS: Final = ("folder", "examples")


def completion_preamble() -> dict[str, str]:
    """The shell functions the rule-set completion calls: the built-in ids and shipped
    names, then ``.toml`` files and folders."""
    names = " ".join([*RULESETS, *(n for n in shipped_rulesets() if n not in RULESETS)])
    return {
        "bash": (
            "_qe_rules_rulesets() {\n"
            f'  compgen -W "{names}" -- "$1"\n'
            '  compgen -f -X "!*.toml" -- "$1"\n'
            '  compgen -d -S / -- "$1"\n'
            "}\n"
        ),
        "zsh": (
            "_qe_rules_rulesets() {\n"
            f"  _alternative 'ids:rule set:({names})' 'files:rule file:_files -g \"*.toml\"'\n"
            "}\n"
        ),
    }


def add_completions(parser: argparse.ArgumentParser) -> None:
    """Tell shtab how to complete the values: rule sets, files and folders (read by
    ``qe-rules completion``; argparse ignores the attribute)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                add_completions(command)
        elif action.dest in _RULESET_ARGUMENTS:
            action.complete = _COMPLETE_RULESET  # type: ignore[attr-defined]
        elif action.dest in _FILE_ARGUMENTS:
            action.complete = _COMPLETE_FILE  # type: ignore[attr-defined]
        elif action.dest in _FOLDER_ARGUMENTS:
            action.complete = _COMPLETE_FOLDER  # type: ignore[attr-defined]


SHELLS: Final = ("bash", "zsh", "tcsh")
"""The shells ``qe-rules completion`` writes a script for."""


def add_completion_command(commands: Any, run: Callable[..., int]) -> None:
    """The ``completion`` command's arguments, run by ``run``."""
    completion = commands.add_parser(
        "completion",
        help="print a shell completion script",
        description="Print a completion script for qe-rules (needs the completion extra: "
        "pip install 'qe-rules[completion]'). bash: qe-rules completion bash > "
        "~/.local/share/bash-completion/completions/qe-rules; zsh: qe-rules completion zsh > "
        "_qe-rules in a folder of $fpath; tcsh: qe-rules completion tcsh > ~/.qe-rules.tcsh "
        "and source it from ~/.tcshrc. Open a new shell to use it.",
    )
    completion.add_argument("shell", choices=SHELLS, help="the shell")
    completion.set_defaults(run=run)


def completion_script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of ``parser`` for ``shell``; raises
    :class:`ModuleNotFoundError` naming the extra when shtab is not installed."""
    try:
        import shtab
    except ImportError:
        raise ModuleNotFoundError(
            "shell completion needs shtab: pip install 'qe-rules[completion]'"
        ) from None
    return str(shtab.complete(parser, shell=shell, preamble=completion_preamble().get(shell, "")))


def chosen_language(asked: str | None, known: Sequence[str]) -> str:
    """The language of ``--lang``, else the locale's (``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``) where it is one of ``known``, else English."""
    if asked is not None:
        return asked
    found = environment_language()
    return found if found in known else "en"


def add_lang_option(command: argparse.ArgumentParser, known: Sequence[str], what: str) -> None:
    """The ``--lang`` option of a command whose output people read."""
    command.add_argument(
        "--lang",
        choices=known,
        help=f"the language of {what} (default: the locale's, as LANG names it, else en)",
    )


def duration(seconds: float) -> str:
    """``5m40s``, ``1h02m``, ``12s``: a time left, as a person reads it."""
    whole = int(seconds + 0.5)
    if whole >= 3600:
        return f"{whole // 3600}h{whole % 3600 // 60:02d}m"
    if whole >= 60:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole}s"


class ProgressBar:
    """A one-line progress bar on a terminal stream, with the rate and the time left;
    silent when the stream is piped. :meth:`end_line` ends a line it left open, so that a
    message written next starts on a line of its own."""

    def __init__(self, stream: TextIO, label: str, clock: Callable[[], float] = time.monotonic):
        self.stream = stream
        self.label = label
        self.clock = clock
        self.started = clock()
        self.shown: tuple[int, int] | None = None
        self.open = False
        self.width = 0
        _BARS.append(self)

    def __call__(self, done: int, total: int) -> None:
        width = 30
        filled = width * done // max(total, 1)
        elapsed = self.clock() - self.started
        second = int(elapsed)
        if (filled, second) == self.shown and done != total:
            return  # at most once a second, or when the bar grows
        self.shown = (filled, second)
        bar = "#" * filled + "." * (width - filled)
        line = f"{self.label} [{bar}] {done}/{total}"
        if 0 < done < total and elapsed > 0:
            rate = done / elapsed
            shown = f"{rate:,.0f}" if rate >= 10 else f"{rate:.2g}"  # 583/s, 0.33/s
            line += f" · {shown}/s · {duration((total - done) / rate)} left"
        elif done >= total:
            line += f" · {duration(elapsed)}"
        self.stream.write("\r" + line.ljust(self.width))
        self.width = len(line)
        self.open = done < total
        if not self.open:
            self.stream.write("\n")
        self.stream.flush()

    def end_line(self) -> None:
        """End the bar's line if it is left open (a message is about to be written)."""
        if self.open:
            self.open = False
            with contextlib.suppress(OSError, ValueError):
                self.stream.write("\n")
                self.stream.flush()


_BARS: list[ProgressBar] = []
"""The progress bars of this run, whose open lines :func:`end_progress_lines` ends."""


def end_progress_lines() -> None:
    """End the open line of every progress bar of this run (before a message)."""
    for bar in _BARS:
        bar.end_line()


def forget_progress_bars() -> None:
    """Forget the progress bars of a run that ended."""
    _BARS.clear()
