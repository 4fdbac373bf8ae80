"""The qe-rules command line: output, exit status, one-line errors."""

import io
import json
import subprocess
import sys

import pytest

from qe_rules.apps.cli import main


def run(*argv):
    out = io.StringIO()
    status = main(list(argv), out=out)
    return status, out.getvalue()


def test_score_example_prints_the_board_and_the_winner():
    status, text = run("score", "--example")
    assert status == 0
    assert "subtotal                         39" in text
    assert "total                            45" in text
    assert "Winner: Example player (US)" in text


def test_score_follows_the_rule_sets_category_order():
    _, text = run("score", "--example", "--ruleset", "en-early")
    labels = [line.split("  ")[0] for line in text.splitlines()[3:14]]
    assert labels[:4] == ["nation", "spent", "lowest-spend bonus", "out (highest spend)"]
    assert labels[-2:] == ["subtotal", "total"]


def test_score_json(tmp_path):
    status, text = run("score", "--example", "--format", "json")
    data = json.loads(text)
    assert status == 0
    assert data["winners"] == [0]
    assert data["sheets"][0]["total"] == 45


def test_variants_lists_the_four_rule_sets():
    status, text = run("variants")
    assert status == 0
    for rs_id in ("en", "en-early", "de", "de-summary"):
        assert any(line.split()[0] == rs_id for line in text.splitlines()[1:])


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not valid JSON"),
        ('{"players": 3}', "expected a list of player records"),
        ('[{"nation": "US"}]', "needs industry, companies, spent"),
        ('{"ruleset": "fr", "players": []}', "unknown rule set 'fr'"),
        ('{"ruleset": 5, "players": []}', "'ruleset' must be a rule set id"),
        ('[{"nation": "US", "industry": "FIN", "companies": [], "spent": -3}]', "spent must be"),
        ("[]", "got 0 player records"),
    ],
)
def test_malformed_files_give_one_line_and_status_2(tmp_path, capsys, content, message):
    path = tmp_path / "game.json"
    path.write_text(content, encoding="utf-8")
    status, text = run("score", str(path))
    err = capsys.readouterr().err
    assert status == 2
    assert text == ""
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("qe-rules: error: ")
    assert message in err


def test_deeply_nested_input_gives_one_line(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100000 + "]" * 100000, encoding="utf-8")
    assert run("score", str(path))[0] == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_score_with_a_toml_rule_set(tmp_path):
    rules = tmp_path / "house.toml"
    rules.write_text('id = "house"\nextends = "en"\n[rules]\nzero_bid_points = 3\n', "utf-8")
    status, text = run("score", "--example", "--ruleset", str(rules))
    assert status == 0 and "Rule set house" in text
    assert "zero bids                         9" in text


def test_missing_file_and_missing_argument(capsys):
    assert run("score", "/no/such/file.json")[0] == 2
    assert "cannot read" in capsys.readouterr().err
    assert run("score")[0] == 2
    assert "give a score file" in capsys.readouterr().err


@pytest.mark.slow
def test_verify_markdown_of_one_file_is_its_own_report(tmp_path, commands_verify_once):
    rules = tmp_path / "house.toml"
    rules.write_text('id = "house"\nextends = "en"\n[rules]\nzero_bid_points = 3\n', "utf-8")
    status, text = run("verify", str(rules), "--format", "markdown")
    assert status == 0
    assert text.startswith("## `house`\n")
    assert "# Verification of the built-in rule sets" not in text
    assert "## `en`" not in text
    _, page = run("verify", "--all", "--format", "markdown")
    assert page.startswith("# Verification of the built-in rule sets\n")
    assert "## `en`\n" in page and "## `house`" not in page


def test_installed_entry_point_runs():
    done = subprocess.run(
        [sys.executable, "-m", "qe_rules.apps.cli", "score", "--example"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert "Winner: Example player" in done.stdout


def test_a_game_record_that_cannot_be_written_is_an_output_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # the input ends at the first prompt
    record = tmp_path / "no-such-folder" / "game.json"
    status, _ = run("play", "--record", str(record))
    assert status == 3
    error = capsys.readouterr().err
    assert error.startswith(f"qe-rules: error: cannot write {record}: ")
    assert error.count("\n") == 1
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    saved = tmp_path / "game.json"
    assert run("play", "--record", str(saved))[0] == 5  # end of input, the game saved
    assert saved.exists()


def test_verify_texts_checks_the_generated_rulebooks():
    out = io.StringIO()
    assert main(["verify", "--texts", "--variants", "3", "--seed", "5"], out=out) == 0
    assert out.getvalue().startswith("Checked 28 rulebooks (3 random variants")
    assert "0 missing, 0 contradiction, 0 citation, 0 glossary" in out.getvalue()
    out = io.StringIO()
    assert main(["verify", "--texts", "en-early", "--format", "json"], out=out) == 0
    data = json.loads(out.getvalue())
    assert data["rulebooks"] == 4 and data["findings"] == [] and data["checks"] > 1000
    assert main(["verify", "--texts", "--variants", "-1"], out=io.StringIO()) == 2
