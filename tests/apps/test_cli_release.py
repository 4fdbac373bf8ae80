"""What the command line tells a user about the project: where its documentation is and
where to report a crash (the URLs of ``[project.urls]``), shell completion, and progress on
``verify``."""

import sys
import tomllib
from pathlib import Path

import pytest

from qe_rules.apps import cli, project
from tests.support import cli as run

URLS = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())["project"]["urls"]


def test_help_points_at_the_documentation_site_not_a_file_of_the_checkout(capsys):
    assert run("--help")[0] == 0
    text = "".join(capsys.readouterr().out.split())  # argparse wraps the epilog, even a URL
    assert f"{URLS['Documentation'].rstrip('/')}/limits.html" in text
    assert "docs/limits.md" not in text


def test_an_internal_error_names_the_issue_tracker(monkeypatch, capsys):
    def broken(args, out):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(cli, "_cmd_variants", broken)
    cli._parser.cache_clear()
    try:
        status, _ = run("variants")
    finally:
        cli._parser.cache_clear()
    err = capsys.readouterr().err
    assert status == 4
    assert err.count("\n") == 1 and "internal error (ZeroDivisionError: 'a bug')" in err
    assert f"please report it at {URLS['Issues']} " in err


def test_installed_metadata_gives_the_same_urls_as_the_checkout(monkeypatch):
    entries = [f"{label}, {url}" for label, url in URLS.items()]

    class Metadata:
        def get_all(self, name):
            assert name == "Project-URL"
            return entries

    monkeypatch.setattr(project, "_checkout_urls", lambda: None)
    monkeypatch.setattr(project.importlib.metadata, "metadata", lambda name: Metadata())
    assert {label: project.project_url(label) for label in URLS} == URLS
    assert project.project_url("Funding") is None


@pytest.mark.parametrize("shell", ["bash", "zsh", "tcsh"])
def test_completion_scripts_name_every_command(shell):
    status, script = run("completion", shell)
    commands = cli._parser()._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert status == 0 and "qe-rules" in script
    assert all(name in script for name in commands)
    assert "--thorough" in script or shell == "tcsh"  # options too, where the shell has them


def test_completion_without_shtab_says_which_extra(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "shtab", None)  # an import of it fails
    status, out = run("completion", "bash")
    assert (status, out) == (2, "")
    assert "pip install 'qe-rules[completion]'" in capsys.readouterr().err


def test_verify_shows_progress_when_asked_and_stays_quiet_in_a_pipe(
    capsys, commands_verify_at_once
):
    assert run("verify", "en")[0] == 0
    assert capsys.readouterr().err == ""  # stderr is not a terminal here
    assert run("verify", "--all", "--progress", "always")[0] == 0
    steps = capsys.readouterr().err.split("\r")[1:]
    assert [step.split()[1] for step in steps] == [
        "en",
        "en-early",
        "de",
        "de-summary",
        "de-summary",
    ]
    assert steps[-1].endswith("4/4\n") and len({len(step.rstrip()) for step in steps}) == 1
