"""Regression tests for the broken promises on untrusted input listed in issue 12."""

import argparse
import io
import json
import os
import subprocess
import sys

import attrs
import pytest

import qe_rules as qe
from qe_rules import limits
from qe_rules.apps import cli
from qe_rules.errors import shown
from qe_rules.verification import sale_search
from tests.support.fuzz import HUGE, deep, run_cli


@pytest.fixture
def game():
    return qe.new_game("en", 4, seed=1)


# ------------------------------------------------------------------ engine entry points


def test_apply_checks_its_argument(game):
    with pytest.raises(qe.InvalidArgument, match=r"a move is a qe_rules\.Move, got None"):
        game.apply(None)
    with pytest.raises(qe.InvalidArgument, match=r"a move is a qe_rules\.Move"):
        game.apply({"move": "bid", "seat": 0, "amount": 3})


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("bid", 0), "a bid's amount is a whole number"),
        (("bid", 0, 2.5), "a bid's amount is a whole number"),
        (("bid", 0, HUGE), "MAX_BID"),
        (("peek", 0, 3), "a peek move has no amount"),
        (("pass", 0), "a move's kind is 'bid' or 'peek'"),
        ((None, 0), "a move's kind"),
        (("bid", "0", 3), "a move's seat is a whole number"),
    ],
)
def test_a_move_checks_itself(args, message):
    with pytest.raises(qe.InvalidArgument, match=message):
        qe.Move(*args)


def test_views_checks_its_argument(game):
    with pytest.raises(qe.InvalidArgument, match="seats are an iterable of seat numbers, got 5"):
        game.views(5)
    with pytest.raises(qe.InvalidArgument, match="a seat is a whole number"):
        game.views([0, "1"])
    assert [view.seat for view in game.views([2, 0])] == [2, 0]


def test_bids_beyond_the_limit_are_refused(game):
    for amount in (HUGE, limits.MAX_BID + 1):
        with pytest.raises(qe.InvalidArgument, match="MAX_BID"):
            game.bid(0, amount)
        assert not game.can_bid(0, amount)
    game = game.bid(0, limits.MAX_BID - 1)
    with pytest.raises(qe.InvalidArgument, match="at most 1000000"):
        game.bid_many({1: 0, 2: HUGE})
    assert game.bid_many({1: 0, 2: limits.MAX_BID}).to_record()["moves"][-1]["amount"] == (
        limits.MAX_BID
    )


def test_the_error_for_a_huge_negative_bid_can_be_formatted(game):
    with pytest.raises(qe.IllegalAction, match="got <an int of about 5001 digits>"):
        game.bid(0, -HUGE)


def test_shown_describes_huge_ints_without_converting_them():
    assert shown(-HUGE) == "<an int of about 5001 digits>"
    assert shown(2**100) == str(2**100)


def test_a_rejected_move_changes_nothing(game):
    before = game.to_record()
    for bad in (lambda: game.bid(0, HUGE), lambda: game.apply(None), lambda: game.views(5)):
        with pytest.raises(qe.RulesError):
            bad()
        assert game.to_record() == before


# ------------------------------------------------------------------ lookups


@pytest.mark.parametrize(
    "lookup",
    [
        qe.lookup_term,
        qe.translate_term,
        qe.get_discrepancy,
        lambda q: qe.find_discrepancies(kind=q),
        lambda q: qe.find_discrepancies(source=q),
        lambda q: qe.find_discrepancies(topic=q),
    ],
)
def test_lookups_refuse_deeply_nested_input(lookup):
    import random

    with pytest.raises(qe.InvalidArgument):
        lookup(deep(random.Random(0), 3000))


# ------------------------------------------------------------------ game records


def test_a_record_holds_at_most_max_moves(game):
    record = game.to_record()
    record["moves"] = [{"move": "bid", "seat": 0, "amount": 1}] * (limits.MAX_MOVES + 1)
    with pytest.raises(qe.InvalidRecord, match="MAX_MOVES"):
        qe.replay(record)


@pytest.mark.parametrize(
    "change",
    [
        {HUGE: 1},
        {"players": HUGE},
        {"first_auctioneer": -HUGE},
        {"moves": [{"move": "bid", "seat": HUGE, "amount": 1}]},
        {"moves": [{"move": "bid", "seat": 0, "amount": HUGE}]},
        {"moves": [{"move": "bid", "seat": 0, "amount": 1, HUGE: 2}]},
        {"ruleset": {HUGE: 1}},
    ],
)
def test_huge_integers_in_records(game, change):
    with pytest.raises(qe.InvalidRecord):
        qe.replay(game.to_record() | change)


# ------------------------------------------------------------------ player records, score files


def test_player_records_are_strict():
    entry = {"nation": "US", "industry": "FIN", "companies": [], "spent": 0}
    assert qe.PlayerRecord.from_dict(entry | {"name": "Ada"}).spent == 0
    with pytest.raises(qe.InvalidArgument, match=r"unknown key 'zero_bid_round'.*zero_bid_rounds"):
        qe.PlayerRecord.from_dict(entry | {"zero_bid_round": 2})
    with pytest.raises(qe.InvalidArgument, match="spent must be a whole number"):
        qe.PlayerRecord.from_dict(entry | {"spent": HUGE})


def score(tmp_path, content, *argv):
    path = tmp_path / "score.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return run_cli(["score", str(path), *argv])


def example_players():
    return cli._example()["players"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rulset": "de"}, "unknown key 'rulset'; allowed: ruleset, players"),
        ({"players": [{"zero_bid_round": 1}]}, "unknown key 'zero_bid_round'"),
        ({"players": [{"name": 5}]}, "name must be a string, got 5"),
    ],
)
def test_score_files_are_strict(tmp_path, change, message):
    data = {"ruleset": "en", "players": example_players()}
    if "players" in change:
        data["players"][0] |= change.pop("players")[0]
    status, err = score(tmp_path, json.dumps(data | change))
    assert status == cli.EXIT_USAGE
    assert message in err and err.count("\n") == 1


def test_score_files_with_huge_integers(tmp_path):
    status, err = score(tmp_path, '{"players": [{"spent": ' + "9" * 5000 + "}]}")
    assert status == cli.EXIT_USAGE
    assert "is not valid JSON" in err and err.count("\n") == 1


def test_large_score_files_are_refused(tmp_path):
    status, err = score(tmp_path, b" " * (limits.MAX_FILE_BYTES + 1) + b"[]")
    assert status == cli.EXIT_USAGE
    assert "MAX_FILE_BYTES" in err


def test_deeply_nested_score_files(tmp_path):
    status, err = score(tmp_path, "[" * 100_000)
    assert status == cli.EXIT_USAGE and err.count("\n") == 1


# ------------------------------------------------------------------ verify


def test_verify_is_bounded_with_the_most_ties_allowed():
    rules = attrs.evolve(
        qe.get_ruleset("en-early"), ties_before_fallback=limits.MAX_TIES_BEFORE_FALLBACK
    )
    result = sale_search.search_sale(rules, 3, 0, bound=2_000)
    assert result.cut
    assert result.paths <= 2_000
    assert not qe.get_ruleset("en-early").ties_before_fallback > 3  # built-ins stay exhaustive
    assert not sale_search.search_sale(qe.get_ruleset("en-early"), 3, 0).cut


# ------------------------------------------------------------------ the command line


def shell(command, tmp_path):
    env = os.environ | {"PYTHONPATH": os.getcwd()}
    return subprocess.run(
        ["/bin/bash", "-c", command],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        check=False,
    )


class ClosedPipe(io.StringIO):
    def write(self, text):
        raise BrokenPipeError(32, "Broken pipe")


def test_a_closed_pipe_ends_quietly(tmp_path, capsys):
    assert cli.main(["rules", "en"], out=ClosedPipe()) == cli.EXIT_CLOSED_PIPE
    assert capsys.readouterr().err == ""
    # a reader that stops at once: whether the write fails depends on timing, the quiet not
    command = f"set -o pipefail; {sys.executable} -m qe_rules discrepancies --format json"
    for reader in ("head -1", "true"):
        done = shell(f"{command} | {reader}", tmp_path)
        assert done.stderr == ""
        assert done.returncode in (cli.EXIT_OK, cli.EXIT_CLOSED_PIPE)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_full_disk_gives_one_line(tmp_path):
    done = shell(f"{sys.executable} -m qe_rules rules en > /dev/full", tmp_path)
    assert done.returncode == cli.EXIT_OUTPUT
    assert done.stderr == "qe-rules: error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize(
    "argv",
    [
        ["docs", "/dev/null"],
        ["docs", "/dev/null", "--force"],
        ["docs", "--check", "/dev/null"],
        ["compare", "en", "de", "--games", "1", "--examples", "/dev/null"],
        ["compare", "en", "de", "--games", "1", "--examples", "/no/such/folder"],
        ["rules"],
        ["score", "--format", "xml"],
        ["nope"],
        ["diff", "de", "--", "--"],  # argparse gives B as a list
    ],
)
def test_failures_print_one_line(argv):
    status, err = run_cli(argv)
    assert status == cli.EXIT_USAGE
    assert err.count("\n") == 1 and err.startswith("qe-rules")


def test_docs_writes_only_where_generated_pages_are(tmp_path, monkeypatch):
    monkeypatch.setattr(cli, "generated_pages", lambda: {"verification.md": "text\n"})
    status, err = run_cli(["docs", str(tmp_path)])
    assert status == cli.EXIT_USAGE and "give --force" in err
    assert list(tmp_path.iterdir()) == []
    assert run_cli(["docs", str(tmp_path), "--force"])[0] == cli.EXIT_OK
    assert (tmp_path / "verification.md").read_text() == "text\n"
    assert run_cli(["docs", str(tmp_path)])[0] == cli.EXIT_OK


def test_give_x_or_y_says_what_was_given():
    assert "got neither" in run_cli(["score"])[1]
    assert "got both 'x.json' and --example" in run_cli(["score", "x.json", "--example"])[1]
    assert "got neither" in run_cli(["verify"])[1]


def test_version_and_python_m(tmp_path):
    done = shell(f"{sys.executable} -m qe_rules --version", tmp_path)
    assert done.returncode == 0
    assert done.stdout.strip() == f"qe-rules {qe.__version__}"


def test_every_command_and_option_has_help():
    parser = cli._parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in [("qe-rules", parser), *commands.choices.items()]:
        assert command.description or name == "variants" or command.format_help()
        for action in command._actions:
            assert action.help, f"{name} {action.dest}"
    assert {c.dest for c in commands._choices_actions} == set(commands.choices)


def test_a_seed_that_is_not_valid_unicode():
    with pytest.raises(qe.InvalidArgument, match="valid Unicode"):
        qe.new_game("en", 4, seed="\ud800")
