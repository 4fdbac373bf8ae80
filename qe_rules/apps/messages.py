"""The template of the table's message catalogs, ``qe_rules/data/locale/qe_rules.pot``:
every text people read in the pictures, the terminal game and the web table.

A translator starts a language from it and keeps the language's catalog in step with it
(GNU gettext's ``msginit`` and ``msgmerge``, or Babel's ``pybabel init`` and ``update``);
see ``docs/presentation.md``. Write it after changing a text::

    python -m qe_rules.apps.messages            # writes qe_rules/data/locale/qe_rules.pot
    python -m qe_rules.apps.messages --check    # exit status 1 when it is stale

The texts come from three places:

- the code: every ``_("...")``, ``self._("...")`` and ``gettext_for(lang)("...")`` with a
  string, or a module's string constant, as its argument, and every
  ``ngettext_for(lang)("...", "...", count)``, in every module of the package;
- the web table's page templates (Jinja2): every ``_("...")`` of
  ``apps/web_static/*.html``, as Jinja2's Babel extractor finds it;
- labels made at run time and translated as they are shown: the industries' names, the
  phases of a sale, the score board's rows, the reason a tile is not sold and the lines
  describing the agents a host may seat.

The writer is a few lines of Python rather than Babel's ``write_po``: Babel writes the
creation date and its own version into the header, which would make the file change with
every run and every Babel release, and the tests check that it is fresh.
"""

from __future__ import annotations

import argparse
import ast
import functools
import os
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Final

import attrs

from qe_rules._util.i18n import DOMAIN, LOCALE_FOLDER
from qe_rules.apps.lobby import AGENT_LEVELS
from qe_rules.components import Industry
from qe_rules.game.scoring import score_board_rows
from qe_rules.game.views import Phase
from qe_rules.rules.model import RULESETS, Category
from qe_rules.simulation.play import play_game

__all__ = ["TEMPLATE", "Message", "main", "table_messages", "template_text"]

PACKAGE: Final = Path(__file__).resolve().parent.parent
"""The ``qe_rules`` folder; references are relative to the folder above it."""

TEMPLATE: Final = os.path.join(LOCALE_FOLDER, f"{DOMAIN}.pot")
"""Where the template is: ``qe_rules/data/locale/qe_rules.pot``."""

_PLACEHOLDER: Final = re.compile(r"\{[A-Za-z_]\w*\}")
_HEADER: Final = (
    "# The template of the message catalogs of qe-rules: every text people read in the\n"
    "# pictures, the terminal game and the web table. Made by python -m\n"
    "# qe_rules.apps.messages; do not edit (a language's catalog is its own .po file).\n"
    "#, fuzzy\n"
    'msgid ""\n'
    'msgstr ""\n'
    '"Project-Id-Version: qe-rules\\n"\n'
    '"Report-Msgid-Bugs-To: https://github.com/qe-rules/qe-rules/issues\\n"\n'
    '"PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\\n"\n'
    '"Last-Translator: FULL NAME <EMAIL@ADDRESS>\\n"\n'
    '"Language-Team: LANGUAGE <LL@li.org>\\n"\n'
    '"Language: \\n"\n'
    '"MIME-Version: 1.0\\n"\n'
    '"Content-Type: text/plain; charset=UTF-8\\n"\n'
    '"Content-Transfer-Encoding: 8bit\\n"\n'
)


@attrs.frozen
class Message:
    """One text of the template: the English ``msgid``, the files that ask for it (as
    ``xgettext --add-location=file`` writes them: a line number would make the template
    stale at every edit above it), and what a translator should know (``notes``)."""

    msgid: str
    references: tuple[str, ...]
    notes: tuple[str, ...] = ()
    plural: str | None = None
    """The plural form's msgid, for a text that depends on a count (``ngettext``)."""

    @property
    def is_format(self) -> bool:
        """Whether the text holds ``{placeholders}`` that must survive translation."""
        return bool(_PLACEHOLDER.search(self.msgid + (self.plural or "")))


def _relative(path: Path) -> str:
    return path.relative_to(PACKAGE.parent).as_posix()


def _constants(tree: ast.Module) -> dict[str, str]:
    """A module's top-level string constants, by name."""
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            found.update({t.id: value.value for t in targets if isinstance(t, ast.Name)})
    return found


def _texts_asked(function: ast.expr) -> int:
    """How many msgids a call of ``function`` looks up: 1 for ``_``, ``self._`` and
    ``gettext_for(...)``, 2 (the singular and the plural) for ``ngettext_for(...)``, 0
    for anything else."""
    if isinstance(function, ast.Name):
        return int(function.id == "_")
    if isinstance(function, ast.Attribute):
        return int(function.attr == "_")
    if isinstance(function, ast.Call):
        called = function.func
        name = called.id if isinstance(called, ast.Name) else getattr(called, "attr", "")
        return {"gettext_for": 1, "ngettext_for": 2}.get(name, 0)
    return 0


def _code_messages() -> Iterator[tuple[str, str | None, str]]:
    """``(msgid, plural, path:line)`` for every msgid the package's modules ask for."""
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = _constants(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            count = _texts_asked(node.func)
            if not count or len(node.args) < count:
                continue
            texts = []
            for argument in node.args[:count]:
                if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                    texts.append(argument.value)
                elif isinstance(argument, ast.Name) and argument.id in constants:
                    texts.append(constants[argument.id])
            if len(texts) == count:
                yield (
                    texts[0],
                    (texts[1] if count == 2 else None),
                    f"{_relative(path)}:{node.lineno}",
                )


def _page_messages() -> Iterator[tuple[str, str | None, str]]:
    """``(msgid, plural, path:line)`` for every ``_("...")`` (and ``ngettext``) of the web
    table's page templates, as Jinja2's Babel extractor finds them (the extra ``[web]``)."""
    from jinja2.ext import babel_extract

    for path in sorted((PACKAGE / "apps" / "web_static").glob("*.html")):
        with path.open("rb") as template:
            found = babel_extract(template, ("_", "gettext", "ngettext"), [], {})
            for line, _function, message, _comments in found:
                parts = (message,) if isinstance(message, str) else (message or ())
                texts = [part for part in parts if part]
                if texts:
                    plural = texts[1] if len(texts) > 1 else None
                    yield texts[0], plural, f"{_relative(path)}:{line}"


def _runtime_messages() -> Iterator[tuple[str, str, str]]:
    """``(msgid, path, note)`` for the labels made at run time and translated as shown."""
    for industry in Industry:
        yield industry.label, "qe_rules/components.py", "the name of an industry (Industry.label)"
    for phase in Phase:
        yield phase.value, "qe_rules/game/views.py", "a phase of the sale (Phase)"
    result = play_game("en", 4, "zero", seed=0).result()
    for order in (tuple(Category), *(rules.scoring_order for rules in RULESETS.values())):
        for label, _values in score_board_rows(result, order):
            yield label, "qe_rules/game/scoring.py", "a row of the score board"
    yield "out", "qe_rules/game/scoring.py", "a score board's cell: the seat is eliminated"
    for reason in ("last-tile-tie", "no-unique-bid", "no-untied-bid", "fallback-bid-tied"):
        yield reason, "qe_rules/game/sales.py", "why a tile is not sold (NoAward.reason)"
    for _name, line in AGENT_LEVELS:
        yield line, "qe_rules/apps/lobby.py", "an agent a host may seat (AGENT_LEVELS)"


@functools.cache  # the package's files do not change while it runs
def table_messages() -> tuple[Message, ...]:
    """Every text of the template: the code's and the pages' by file and text, then the
    run-time labels."""
    references: dict[str, list[str]] = {}
    notes: dict[str, list[str]] = {}
    plurals: dict[str, str] = {}
    # by file, then text: moving code within a file leaves the template as it is
    found = sorted(
        [*_code_messages(), *_page_messages()], key=lambda item: (_place(item[2])[0], item[0])
    )
    for msgid, plural, place in found:
        where = place.rpartition(":")[0]  # the file: an edit elsewhere in it changes nothing
        if where not in references.setdefault(msgid, []):
            references[msgid].append(where)
        if plural is not None:
            plurals[msgid] = plural
    for msgid, where, note in _runtime_messages():
        if where not in references.setdefault(msgid, []):
            references[msgid].append(where)
        if note not in notes.setdefault(msgid, []):
            notes[msgid].append(note)
    return tuple(
        Message(
            msgid=msgid,
            references=tuple(where),
            notes=tuple(notes.get(msgid, ())),
            plural=plurals.get(msgid),
        )
        for msgid, where in references.items()
    )


def _place(reference: str) -> tuple[str, int]:
    path, _, line = reference.rpartition(":")
    return path, int(line)


def _quoted(text: str) -> str:
    """``text`` as a PO string: backslashes, quotes and control characters escaped."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\n", "\\n").replace("\t", "\\t") + '"'


def template_text() -> str:
    """The text of the template file (UTF-8, no creation date: the same code gives the
    same file)."""
    entries = [_HEADER]
    for message in table_messages():
        lines = [f"#. {note}" for note in message.notes]
        lines += [f"#: {where}" for where in message.references]
        if message.is_format:
            lines.append("#, python-brace-format")
        lines.append(f"msgid {_quoted(message.msgid)}")
        if message.plural is None:
            lines.append('msgstr ""')
        else:
            lines += [f"msgid_plural {_quoted(message.plural)}", 'msgstr[0] ""', 'msgstr[1] ""']
        entries.append("\n".join(lines) + "\n")
    return "\n".join(entries)


def main(argv: Sequence[str] | None = None) -> int:
    """Write the template, or with ``--check`` say whether it is fresh (exit status 1
    when it is not)."""
    parser = argparse.ArgumentParser(
        prog="python -m qe_rules.apps.messages",
        description="Write the message catalog template qe_rules/data/locale/qe_rules.pot.",
    )
    parser.add_argument("--check", action="store_true", help="only say whether it is fresh")
    args = parser.parse_args(argv)
    text = template_text()
    try:
        current = Path(TEMPLATE).read_text(encoding="utf-8")
    except FileNotFoundError:
        current = None
    if args.check:
        if current != text:
            print(f"{TEMPLATE} is stale: run python -m qe_rules.apps.messages", file=sys.stderr)
            return 1
        return 0
    if current != text:
        Path(TEMPLATE).write_text(text, encoding="utf-8")
        print(f"wrote {TEMPLATE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
