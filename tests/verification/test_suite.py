"""The entry point: which checks ``qe.verify`` runs (``qe.checks()``, ``checks=[...]``,
``thorough``), and the ``qe-rules verify`` command."""

import json

import pytest

import qe_rules as qe
from qe_rules.apps import cli as cli_module
from tests.support import cli


@pytest.mark.kills_mutants
def test_the_check_names_in_order():
    names = qe.checks()
    assert names[:9] == (
        "deck-size",
        "deck-nations",
        "deck-industries",
        "table-coverage",
        "sale-outcomes",
        "last-tile",
        "one-winner",
        "zero-bid-limit",
        "score-sums",
    )
    assert names[9:] == tuple(f"reading:{q.field}" for q in qe.open_questions())


@pytest.mark.slow  # every check on a whole rule set (the module's doctest runs them too)
def test_the_checks_named_are_the_checks_run():
    report = qe.verify("en", random_games=2)
    assert {f.check for f in report.findings} == set(qe.checks())


@pytest.mark.kills_mutants
def test_only_the_named_checks_are_reported():
    report = qe.verify("en", checks=["deck-nations", "reading:peek_shows"])
    assert {f.check for f in report.findings} == {"deck-nations", "reading:peek_shows"}
    assert report.ruleset == "en"
    assert [f.players for f in report.findings if f.check == "deck-nations"] == [3, 4, 5]
    report = qe.verify("en", checks=["zero-bid-limit"], random_games=2)
    assert {f.check for f in report.findings} == {"zero-bid-limit"}
    nothing = qe.verify("en", checks=[])
    assert nothing.findings == ()
    assert str(nothing).startswith("Verification of en: OK: 0 findings")


def test_cli_verify_thorough(monkeypatch):
    asked = []

    def verify(ruleset, **options):
        asked.append(options)
        return qe.VerificationReport("en", ())

    monkeypatch.setattr(cli_module, "verify", verify)
    assert cli("verify", "en", "--thorough", "--format", "json")[0] == 0
    assert cli("verify", "en", "--format", "json")[0] == 0
    assert asked == [{"thorough": True}, {"thorough": False}]


@pytest.mark.slow
def test_cli_verify_exit_status(tmp_path, commands_verify_once):
    status, text = cli("verify", "--all")
    assert status == 0
    assert text.count("Verification of") == 4
    path = tmp_path / "no-div-5.toml"
    path.write_text(
        'id = "no-div-5"\nextends = "en"\n[rules.diversification]\n'
        "3 = { 3 = 4, 4 = 8 }\n4 = { 3 = 4, 4 = 8 }\n5 = { 3 = 8, 4 = 12 }\n",
        encoding="utf-8",
    )
    status, text = cli("verify", str(path))
    assert status == 1 and "diversification-beyond-table, NEW" in text
    status, text = cli("verify", str(path), "--format", "json")
    assert json.loads(text)["ok"] is False
    path = tmp_path / "no-fallback.toml"
    path.write_text('id = "no-fallback"\nextends = "en"\n[rules]\ntie_fallback = "none"\n')
    status, text = cli("verify", str(path))
    assert status == 1 and text.count("endless-ties, NEW") == 3
    status, text = cli("verify", "en-early", "--format", "markdown")
    assert status == 0 and "`no-unique-bid` (acknowledged)" in text


def test_cli_verify_arguments(capsys):
    assert cli("verify")[0] == 2
    assert "or --all" in capsys.readouterr().err
    assert cli("verify", "xx")[0] == 2


def test_check_names_is_the_deprecated_name_of_checks():
    with pytest.warns(
        DeprecationWarning,
        match=r"^qe_rules\.check_names\(\) is deprecated; use qe_rules\.checks\(\)$",
    ):
        assert qe.check_names() == qe.checks()
    assert "check_names" in qe.__all__ and "checks" in qe.__all__
