"""The verifier's report: its findings sorted by verdict, how it reads as text, Markdown
and JSON, and how far each finding's check searched (its coverage)."""

import pytest

import qe_rules as qe
from qe_rules import Verdict
from qe_rules.verification.report import Example, Finding, VerificationReport
from tests.support.verification import FINDINGS, REPORT, SCORE_FILE


@pytest.mark.kills_mutants
def test_a_report_sorts_its_findings_by_verdict():
    assert REPORT.gaps == FINDINGS[1:3]
    assert REPORT.new_gaps == (FINDINGS[2],)
    assert REPORT.violations == (FINDINGS[3],)
    assert not REPORT.ok
    assert not VerificationReport("x", FINDINGS[:3]).ok  # a new gap
    assert not VerificationReport("x", (FINDINGS[1], FINDINGS[3])).ok  # a violation
    assert VerificationReport("x", FINDINGS[:2] + FINDINGS[4:]).ok


@pytest.mark.kills_mutants
def test_a_report_as_text():
    assert REPORT.to_text().splitlines() == [
        "Verification of custom: NOT OK: 5 findings, 2 gaps (1 acknowledged, 1 new), 1 violated",
        "  holds     deck-size       fine",
        "  gap       table-coverage  a | b [monopolization-beyond-table, acknowledged]",
        "                            example: seat 0 (US, token AGRICULTURE) holds US-AGR-4, "
        "EU-AGR-1",
        "  gap       one-winner      nobody [everyone-eliminated, NEW]",
        "                            example: a complete 4-player game of 25 moves (the game "
        "record is in the JSON report)",
        "  violated  deck-size       short",
        "                            example: 3 players, first auctioneer 1, bids (seat:amount) "
        "1:2 0:1",
        "  differs   reading:x       other",
    ]
    one = VerificationReport("x", FINDINGS[1:2])
    assert one.to_text().splitlines()[0] == (
        "Verification of x: OK: 1 findings, 1 gap (1 acknowledged, 0 new), 0 violated"
    )


@pytest.mark.kills_mutants
def test_a_report_as_markdown():
    assert REPORT.to_markdown().splitlines() == [
        "## `custom`",
        "",
        "NOT OK: 5 findings, 2 gaps (1 acknowledged, 1 new), 1 violated.",
        "",
        "| check | players | verdict | finding | search |",
        "|---|---|---|---|---|",
        "| `deck-size` | 3 | holds | fine |  |",
        "| `table-coverage` | 4 | gap `monopolization-beyond-table` (acknowledged) | a \\| b"
        "<br>Example: seat 0 (US, token AGRICULTURE) holds US-AGR-4, EU-AGR-1 |  |",
        "| `one-winner` | 3 | gap `everyone-eliminated` (**new**) | nobody<br>Example: a "
        "complete 4-player game of 25 moves (the game record is in the JSON report) |  |",
        "| `deck-size` | 5 | violated | short<br>Example: 3 players, first auctioneer 1, bids "
        "(seat:amount) 1:2 0:1 |  |",
        "| `reading:x` |  | differs | other |  |",
    ]
    assert REPORT.to_markdown().endswith(" |\n")


@pytest.mark.kills_mutants
def test_a_report_as_a_dict():
    data = REPORT.to_dict()
    assert data["ruleset"] == "custom" and data["ok"] is False
    assert data["findings"][1] == {
        "check": "table-coverage",
        "verdict": "gap",
        "summary": "a | b",
        "fields": ["monopolization"],
        "players": 4,
        "gap": "monopolization-beyond-table",
        "acknowledged": True,
        "example": {"kind": "scoring", "data": SCORE_FILE.data},
        "coverage": None,
    }
    assert data["findings"][4]["example"] is None
    assert data["findings"][4]["players"] is None


@pytest.mark.kills_mutants
def test_a_coverage_as_text():
    assert qe.Coverage(True, None, "b").text() == "exhaustive: b"
    assert qe.Coverage(True, 7, "b").text() == "exhaustive: 7 cases, b"
    assert qe.Coverage(False, 7, "b").text() == "sampled: 7 b"
    finding = Finding("one-winner", Verdict.HOLDS, "x", coverage=qe.Coverage(True, 2, "b"))
    lines = VerificationReport("r", (finding,)).to_text().splitlines()
    assert lines[1:] == ["  holds     one-winner  x", " " * 24 + "exhaustive: 2 cases, b"]


@pytest.mark.kills_mutants
def test_a_game_of_24_moves_is_told_bid_by_bid():
    moves = [{"seat": seat % 3, "amount": 1} for seat in range(24)]
    example = Example("game", {"players": 3, "first_auctioneer": 0, "moves": moves})
    finding = Finding("one-winner", Verdict.GAP, "x", (), 3, "g", True, example)
    text = VerificationReport("r", (finding,)).to_text()
    assert "bids (seat:amount) 0:1 1:1 2:1 0:1" in text
    assert "a complete" not in text


def test_every_finding_says_how_far_its_check_searched():
    report = qe.verify("en", random_games=3, checks=["deck-size", "one-winner", "score-sums"])
    by_check = {f.check: f.coverage for f in report.findings}
    assert by_check["deck-size"].exhaustive and by_check["deck-size"].size is None
    assert not by_check["one-winner"].exhaustive and by_check["one-winner"].size > 0
    assert by_check["score-sums"] == qe.Coverage(False, 3, "random games of 5 players")
    data = report.to_dict()["findings"][-1]["coverage"]
    assert data == {"exhaustive": False, "size": 3, "bounds": "random games of 5 players"}
    assert "sampled: 3 random games of 5 players" in report.to_text()
    assert "| sampled: 3 random games of 5 players |" in report.to_markdown()


def test_a_report_as_text_is_its_str():
    report = qe.verify("en", random_games=2, checks=["deck-size", "one-winner", "last-tile"])
    assert str(report) == report.to_text()
    assert str(report).startswith("Verification of en: ")
    empty = qe.verify("en", checks=[])  # no check asked for: no finding, still a report
    assert (
        str(empty)
        == "Verification of en: OK: 0 findings, 0 gaps (0 acknowledged, 0 new), 0 violated"
    )
