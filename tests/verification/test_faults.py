"""Planted faults: every check of ``qe.verify`` reports its own deliberately broken rule
set, engine, scorer or settlement (``tests.support.verification.FAULTS``), and holds
without it.

A check that cannot fail would let a broken rule through unnoticed, so a check without a
planted fault fails :func:`test_every_check_has_a_planted_fault`.
"""

from collections import Counter

import attrs
import pytest

import qe_rules as qe
from qe_rules import Verdict
from qe_rules.game.events import ZeroBids
from tests.support.verification import EN, FAULTS, Fault, shows_its_check


def test_every_check_has_a_planted_fault():
    assert {fault.check for fault in FAULTS} == set(qe.checks())


def _shows(fault: Fault, finding: qe.Finding, rules: qe.RuleSet) -> None:
    """The finding's example shows the fault (with the fault still planted)."""
    example = finding.example
    if fault.check.startswith("deck-") or fault.check == "last-tile":
        assert example is None  # the rule set or the sale search is the example
        return
    assert example is not None
    if example.kind == "scoring":
        records = [qe.PlayerRecord.from_dict(p) for p in example.data["players"]]
        assert finding.gap in {g.code for g in qe.score_game(rules, records).gaps}
        return
    game = qe.replay(example.data)
    if fault.check == "zero-bid-limit":
        scored = Counter(
            (seat, e.round) for e in game.events if isinstance(e, ZeroBids) for seat in e.scoring
        )
        limit_broken = game.players not in EN.zero_bid_player_counts or max(scored.values()) > 1
        assert scored and limit_broken
    elif fault.check == "score-sums":
        assert any(s.total != s.subtotal + s.lowest_spend_bonus for s in game.result().sheets)
    elif fault.check == "one-winner":
        assert finding.gap in {g.code for g in game.result().gaps}
    elif fault.check == "sale-outcomes":
        assert game.moves()  # the bids of the sale whose settlement broke a property


@pytest.mark.parametrize("fault", FAULTS, ids=lambda fault: f"{fault.check}: {fault.name}")
def test_every_check_reports_its_planted_fault(fault, monkeypatch):
    rules = fault.plant(monkeypatch)
    report = qe.verify(rules, random_games=5, checks=[fault.check])
    fired = [f for f in report.findings if f.verdict is fault.verdict and fault.words in f.summary]
    assert fired, report.to_text()
    assert {f.check for f in report.findings} == {fault.check}
    _shows(fault, fired[0], rules)


@pytest.mark.kills_mutants
@pytest.mark.parametrize(
    "fault",
    [f for f in FAULTS if not f.check.startswith("reading:")],
    ids=lambda fault: f"{fault.check}: {fault.name}",
)
def test_a_planted_fault_is_reported_with_every_part_of_its_finding(fault, monkeypatch):
    rules = fault.plant(monkeypatch)
    report = qe.verify(rules, random_games=3, checks=[fault.check])
    for finding in report.findings:
        shows_its_check(finding, rules)
    fired = [f for f in report.findings if f.verdict is fault.verdict]
    assert fired
    if fault.check == "sale-outcomes":  # the summary ends with what broke, word for word
        assert all(f.summary.endswith(fault.words) for f in fired)
        assert all(f.example.kind == "game" for f in fired)
    if fault.check in ("zero-bid-limit", "score-sums", "one-winner"):
        assert all(f.example.kind == "game" for f in fired)


@pytest.mark.kills_mutants
@pytest.mark.parametrize(
    ("check", "players", "fields"),
    [
        (
            "last-tile",
            [3],
            ("last_tile_without_auctioneer", "last_tile_tie_awards_nothing", "last_tile_tie"),
        ),
        ("score-sums", [3, 4, 5], ("scoring_order",)),
    ],
)
def test_a_violation_names_its_player_count_and_fields(check, players, fields, monkeypatch):
    (fault, *_) = [f for f in FAULTS if f.check == check]
    report = qe.verify(fault.plant(monkeypatch), random_games=3, checks=[check])
    assert [f.players for f in report.violations] == players
    assert {f.fields for f in report.violations} == {fields}


@pytest.mark.kills_mutants
@pytest.mark.parametrize("check", ["score-sums", "zero-bid-limit", "sale-outcomes"])
def test_a_violation_and_its_example_are_the_same_on_every_run(check, monkeypatch):
    (fault, *_) = [f for f in FAULTS if f.check == check]
    rules = fault.plant(monkeypatch)
    first = qe.verify(rules, random_games=3, checks=[check])
    assert first.violations
    assert qe.verify(rules, random_games=3, checks=[check]) == first


@pytest.mark.parametrize("fault", FAULTS[:4], ids=lambda fault: fault.check)
def test_the_static_checks_hold_without_their_fault(fault):
    report = qe.verify(EN, checks=[fault.check])
    assert report.findings
    assert Verdict.VIOLATED not in {f.verdict for f in report.findings}


def test_the_search_and_property_checks_hold_without_a_fault():
    checks = ["sale-outcomes", "last-tile", "zero-bid-limit", "score-sums"]
    report = qe.verify(EN, random_games=5, checks=checks)
    assert {f.check for f in report.findings} == set(checks)
    assert {f.verdict for f in report.findings} == {Verdict.HOLDS}


def test_one_winner_holds_for_everyone_eliminated_when_ties_are_spared():
    rules = attrs.evolve(EN, id="spare-ties", eliminate_all_tied_highest=False)
    report = qe.verify(rules, checks=["one-winner"])
    assert "everyone-eliminated" not in {f.gap for f in report.findings}


def test_a_reading_of_what_a_seat_sees_changes_no_outcome_without_a_fault():
    report = qe.verify(EN, checks=["reading:peek_shows"])
    assert report.findings
    assert {f.verdict for f in report.findings} == {Verdict.HOLDS}
