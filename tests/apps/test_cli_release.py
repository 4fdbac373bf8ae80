"""What the command line tells a user about the project: where its documentation is and
where to report a crash (the URLs of ``[project.urls]``), shell completion, and progress on
``verify``."""

import io
import itertools
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from qe_rules.apps import cli, project
from qe_rules.apps.console import ProgressBar
from tests.support import cli as run

URLS = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())["project"]["urls"]


@pytest.mark.parametrize("columns", ["40", "80", "200"])
def test_help_points_at_the_documentation_site_not_a_file_of_the_checkout(
    capsys, monkeypatch, columns
):
    monkeypatch.setenv("COLUMNS", columns)
    cli._parser.cache_clear()
    assert run("--help")[0] == 0
    lines = capsys.readouterr().out.splitlines()
    url = f"{URLS['Documentation'].rstrip('/')}/limits.html"
    assert any(url in line for line in lines)  # whole on one line: a terminal links all of it
    assert "docs/limits.md" not in "".join(lines)
    cli._parser.cache_clear()


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


def test_bash_completes_rule_set_ids_and_rule_files(tmp_path):
    status, script = run("completion", "bash")
    assert status == 0 and "_qe_rules_rulesets" in script
    (tmp_path / "house.toml").write_text("", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("", encoding="utf-8")
    path = tmp_path / "qe-rules.bash"
    path.write_text(script, encoding="utf-8")

    def complete(line):
        shell = (
            f"source {path}; COMP_LINE={line!r}; COMP_WORDS=($COMP_LINE); "
            "[[ $COMP_LINE == *' ' ]] && COMP_WORDS+=(''); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); "
            "COMP_POINT=${#COMP_LINE}; _shtab_qe_rules; printf '%s\\n' \"${COMPREPLY[@]}\""
        )
        done = subprocess.run(["bash", "-c", shell], cwd=tmp_path, capture_output=True, text=True)
        return set(done.stdout.split())

    assert {"en", "en-early"} <= complete("qe-rules rules e")
    assert {"de", "de-summary", "house.toml"} <= complete("qe-rules diff en ")
    assert "notes.txt" not in complete("qe-rules diff en ")
    assert {"en", "de"} <= complete("qe-rules play --ruleset ")
    assert "house-equal-bids" in complete("qe-rules verify h")


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
    assert re.search(r" 4/4 · \d+s *\n$", steps[-1])
    for before, after in itertools.pairwise(steps):  # each line covers the one before it
        assert len(after.rstrip("\n")) >= len(before.rstrip())


def test_progress_tells_the_rate_and_the_time_left():
    stream = io.StringIO()
    now = [100.0]
    bar = ProgressBar(stream, "simulating", clock=lambda: now[0])
    bar(0, 200_000)
    now[0] += 12
    bar(7_000, 200_000)
    now[0] += 0.5
    bar(7_001, 200_000)  # the same second and the same bar: not drawn again
    now[0] += 330
    bar(200_000, 200_000)
    lines = stream.getvalue().split("\r")[1:]
    assert len(lines) == 3
    assert lines[1].rstrip().endswith("7000/200000 · 583/s · 5m31s left")
    assert lines[2].rstrip().endswith("200000/200000 · 5m43s") and lines[2].endswith("\n")


def test_a_message_after_a_bar_starts_its_own_line(monkeypatch, capsys):
    def interrupted(args, out):
        bar = cli._progress(args, "simulating")
        bar(7, 100)
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_cmd_simulate", interrupted)
    cli._parser.cache_clear()
    assert run("simulate", "--progress", "always")[0] == 130
    cli._parser.cache_clear()
    err = capsys.readouterr().err
    assert err.startswith("\rsimulating [##") and "7/100" in err
    assert err.endswith("\nqe-rules: error: interrupted\n")


@pytest.mark.parametrize(
    ("path", "extra", "package"),
    [
        ("qe_rules.rl", "rl", "pettingzoo"),
        ("qe_rules.gymnasium_env", "rl", "gymnasium"),
        ("qe_rules.batch", "batch", "numpy"),
        ("qe_rules.openspiel", "openspiel", "pyspiel"),
        ("qe_rules.strategies", "verify", "hypothesis"),
    ],
)
def test_a_public_path_without_its_extra_names_it_in_one_line(path, extra, package):
    code = (
        "import importlib.util, sys\n"
        "find = importlib.util.find_spec\n"
        f"importlib.util.find_spec = lambda name, *a: None if name == {package!r} else find(name, *a)\n"
        f"import {path}\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        f"ModuleNotFoundError: this needs the extra [{extra}]: pip install 'qe-rules[{extra}]' "
        f"({package} is not installed)"
    )
