"""The command line on hostile input (issue 31): exit 4 only for bugs, one line, files
that are not regular files refused without waiting, bounded line reads, closed streams,
names printed safely, serve's arguments checked before the server starts."""

import io
import json
import os
import subprocess
import sys

import pytest

from qe_rules.apps.cli import EXIT_OUTPUT, EXIT_USAGE, MAX_LINE, main
from qe_rules.limits import MAX_FILE_BYTES


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    saved, sys.stderr = sys.stderr, err
    try:
        status = main(list(argv), out=out)
    finally:
        sys.stderr = saved
    return status, out.getvalue(), err.getvalue()


def one_line_error(status, err, expected=EXIT_USAGE):
    assert status == expected, err
    assert err.count("\n") == 1 and err.startswith("qe-rules: error: "), err
    return err


@pytest.mark.parametrize(
    "ruleset",
    [
        "en:zero_bid_points=²",
        "en:zero_bid_points=" + "9" * 4301,
        "en:beyond_table=" + "[" * 5000,
        "de: token_categories=[[1]]",
        "en:min_secret_bid=1000000",
    ],
)
@pytest.mark.parametrize(
    "command", [["rules"], ["diff", "en"], ["score", "--example", "--ruleset"]]
)
def test_hostile_rule_sets_are_input_errors(command, ruleset):
    status, _, err = run(*command, ruleset)
    one_line_error(status, err)


def test_a_colon_id_rule_file_verifies(tmp_path):
    path = tmp_path / "colon.toml"
    path.write_text('id = "my:house"\nextends = "en"\n', encoding="utf-8")
    status, text, _ = run("rules", str(path))
    assert status == 0 and "my:house" in text


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="a system without FIFOs")
@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["rules", "{fifo}.toml"], EXIT_USAGE),
        (["score", "{fifo}.json"], EXIT_USAGE),
        (["show", "{fifo}.json"], EXIT_USAGE),
        (["simulate", "--games", "1", "--rows", "{fifo}.csv"], EXIT_OUTPUT),
    ],
)
def test_a_fifo_is_refused_without_waiting(tmp_path, argv, expected):
    fifo = tmp_path / "f"
    for suffix in (".toml", ".json", ".csv"):
        os.mkfifo(f"{fifo}{suffix}")
    status, _, err = run(*[arg.format(fifo=fifo) for arg in argv])
    assert "FIFO" in one_line_error(status, err, expected)


def test_play_reads_a_line_in_bounded_pieces(monkeypatch):
    # /dev/zero: a line without end is refused once it passes MAX_FILE_BYTES
    monkeypatch.setattr(sys, "stdin", io.StringIO("\0" * (MAX_FILE_BYTES + 2 * MAX_LINE)))
    status, _, err = run("play", "--players", "3")
    assert "longer than 1048576 characters" in one_line_error(status, err)
    # a long line that ends is cut: the game refuses the answer and asks again
    monkeypatch.setattr(sys, "stdin", io.StringIO("9" * (10 * MAX_LINE) + "\n"))
    status, text, err = run("play", "--players", "3")
    assert status == 5 and text.count("Your opening bid") + text.count("Your bid") >= 2


@pytest.mark.parametrize(
    ("target", "message"),
    [("/dev/full", "cannot write /dev/full"), ("{tmp}", "cannot write"), ("{tmp}/no/x.json", "")],
)
def test_a_record_that_cannot_be_written_exits_3(tmp_path, monkeypatch, target, message):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    if target == "/dev/full" and not os.path.exists(target):
        return
    status, _, err = run("play", "--players", "3", "--record", target.format(tmp=tmp_path))
    assert message in one_line_error(status, err, EXIT_OUTPUT)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--port", "-1"], "--port is a port number from 0 to 65535, got -1"),
        (["--port", "70000"], "--port is a port number from 0 to 65535"),
        (["--bot-delay", "nan"], "--bot-delay is a number of seconds"),
        (["--bot-delay", "-1"], "--bot-delay is a number of seconds"),
        (["--host", ""], "--host is a host name"),
        (["--db", "/no/such/folder/x.db"], "--db: the folder"),
        (["--db", "."], "is not a file"),
    ],
)
def test_serve_checks_its_arguments_before_the_server_starts(argv, message):
    status, _, err = run("serve", *argv)
    assert message in one_line_error(status, err)


def test_score_names_print_safely(tmp_path):
    players = [
        {"nation": "US", "industry": "FIN", "companies": [], "spent": 3, "name": "a\nb\x1b[31m"},
        {"nation": "EU", "industry": "AGR", "companies": [], "spent": 3},
        {"nation": "CN", "industry": "MAN", "companies": [], "spent": 4},
    ]
    path = tmp_path / "score.json"
    path.write_text(json.dumps(players), encoding="utf-8")
    status, text, _ = run("score", str(path))
    assert status == 0 and "a\\nb\\x1b[31m" in text and "\x1b" not in text
    players[0]["name"] = "\ud800"
    path.write_text(json.dumps(players), encoding="utf-8")
    status, _, err = run("score", str(path))
    assert "lone surrogate" in one_line_error(status, err)


def test_a_score_file_of_more_players_than_nations_is_refused_before_its_records_are_read(
    tmp_path,
):
    """Found by the fuzz harness: a list of a million records was read record by record
    (40 s) before scoring refused it."""
    record = {"nation": "US", "industry": "FIN", "companies": [], "spent": 3}
    path = tmp_path / "score.json"
    path.write_text(json.dumps([record] * 6), encoding="utf-8")
    status, _, err = run("score", str(path))
    assert "at most 5 players (one a nation), got 6 player records" in one_line_error(status, err)


def test_a_closed_stdout_is_an_output_error():
    # a process started with its stdout closed: Python sets sys.stdout to None
    done = subprocess.run(
        [sys.executable, "-c", "import os, sys; os.close(1); sys.stdout = None; "
         "from qe_rules.apps.cli import main; raise SystemExit(main(['rules', 'en']))"],
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )  # fmt: skip
    assert done.returncode == EXIT_OUTPUT, done.stderr
    assert done.stderr == "qe-rules: error: cannot write the output: stdout is closed\n"


def test_a_closed_stdin_is_an_input_error(monkeypatch):
    monkeypatch.setattr(sys, "stdin", None)
    status, _, err = run("score", "-")
    assert "stdin: it is closed" in one_line_error(status, err)
    status, _, err = run("play", "--players", "3")
    assert status == 5 and "end of input" in err
