"""The message catalog template (``qe_rules.apps.messages``): fresh, complete, and a file
the standard tools read."""

import pathlib

from babel.messages.pofile import read_po

from qe_rules.apps import messages
from qe_rules.apps.lobby import AGENT_LEVELS
from qe_rules.apps.terminal import _HELP
from qe_rules.components import Industry


def read_template(path=messages.TEMPLATE):
    with open(path, "rb") as handle:
        return read_po(handle)


def test_the_shipped_template_is_fresh():
    text = pathlib.Path(messages.TEMPLATE).read_text(encoding="utf-8")
    assert text == messages.template_text(), "stale: run python -m qe_rules.apps.messages"
    assert messages.main(["--check"]) == 0


def test_the_template_holds_the_code_the_pages_and_the_run_time_labels():
    found = {message.msgid: message for message in messages.table_messages()}
    assert found["seat {seat}"].references[0].startswith("qe_rules/")  # gettext_for(lang)(...)
    assert "Answer y (peek) or n (do not peek)." in found  # self._(...)
    assert _HELP in found  # a module's string constant
    assert "Open tables" in found  # a page template's _("...")
    assert {industry.label for industry in Industry} <= found.keys()
    assert {line for _name, line in AGENT_LEVELS} <= found.keys()
    assert {"out", "total", "lowest-spend bonus", "last-tile-tie", "opening"} <= found.keys()
    assert found["out"].notes and found["out"].references == ("qe_rules/game/scoring.py",)
    for message in found.values():
        assert message.references and message.msgid


def test_babel_reads_the_template_with_its_references_and_format_flags():
    catalog = read_template()
    ours = {message.msgid: message for message in messages.table_messages()}
    read = {message.id if isinstance(message.id, str) else message.id[0]: message
            for message in catalog if message.id}  # fmt: skip
    assert read.keys() == ours.keys()
    for msgid, message in read.items():
        assert ("python-brace-format" in message.flags) == ("{" in msgid), msgid
        assert message.locations and not any(message.string)
        assert message.pluralizable == (ours[msgid].plural is not None)
    assert read["seat {seat}"].flags == {"python-brace-format"}
    assert read["{count} tile"].id == ("{count} tile", "{count} tiles")


def test_quotes_backslashes_and_line_breaks_survive(tmp_path, monkeypatch):
    odd = 'a "quoted" back\\slash,\ta tab and\na line break'
    planted = [messages.Message(msgid=odd, references=("qe_rules/x.py:1",), notes=("a note",))]
    monkeypatch.setattr(messages, "table_messages", lambda: planted)
    path = tmp_path / "odd.pot"
    path.write_text(messages.template_text(), encoding="utf-8")
    (message,) = [m for m in read_template(path) if m.id]
    assert message.id == odd and message.auto_comments == ["a note"]


def test_the_command_writes_a_stale_template_and_checks_it(tmp_path, monkeypatch, capsys):
    path = tmp_path / "qe_rules.pot"
    monkeypatch.setattr(messages, "TEMPLATE", str(path))
    assert messages.main(["--check"]) == 1
    assert "stale: run python -m qe_rules.apps.messages" in capsys.readouterr().err
    assert messages.main([]) == 0 and capsys.readouterr().out == f"wrote {path}\n"
    assert path.read_text(encoding="utf-8") == messages.template_text()
    assert messages.main([]) == 0 and capsys.readouterr().out == ""  # fresh: not written again
    assert messages.main(["--check"]) == 0
