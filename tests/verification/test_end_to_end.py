"""The verifier end to end: every check at once on the built-in rule sets (the gaps each
must report, with examples that reproduce them) and on changed or random rule sets. Slow
(the whole verifier, several times): ``pytest -m slow`` runs them."""

import json

import attrs
import pytest
from hypothesis import given

import qe_rules as qe
from qe_rules import RULESETS, Verdict
from qe_rules import strategies as qst
from tests.support import examples

pytestmark = pytest.mark.slow


@pytest.fixture
def reports(builtin_reports):
    return builtin_reports


def gaps(report):
    return {(f.gap, f.players) for f in report.gaps}


def test_en_reports_exactly_its_known_gaps(reports):
    report = reports["en"]
    assert gaps(report) == {
        ("monopolization-beyond-table", 3),
        ("monopolization-beyond-table", 4),
        ("everyone-eliminated", 3),
        ("tie-after-tiebreak", 3),
    }
    assert report.ok and not report.violations
    sales = [f for f in report.findings if f.check == "sale-outcomes"]
    assert [f.verdict for f in sales] == [Verdict.HOLDS] * 3


def test_en_early_also_has_sales_without_a_unique_bid(reports):
    found = gaps(reports["en-early"])
    assert {("no-unique-bid", n) for n in (3, 4, 5)} <= found
    assert reports["en-early"].ok


# The sale gaps (gap code, players) the search by the four smallest amounts per bid found
# on the built-in rule sets, before the complete search by order type replaced it.
SAMPLED_SALE_GAPS = {
    "en": set(),
    "en-early": {("no-unique-bid", 3), ("no-unique-bid", 4), ("no-unique-bid", 5)},
    "de": set(),
    "de-summary": set(),
}


def test_the_complete_sale_search_finds_the_gaps_of_the_sampled_search(reports):
    for ruleset, expected in SAMPLED_SALE_GAPS.items():
        sales = [f for f in reports[ruleset].findings if f.check in ("sale-outcomes", "last-tile")]
        assert {(f.gap, f.players) for f in sales if f.gap} == expected
        assert all(f.coverage.exhaustive for f in sales)


def test_de_and_de_summary_match_en(reports):
    assert gaps(reports["de"]) == gaps(reports["en"]) == gaps(reports["de-summary"])


def test_the_last_tile_is_a_documented_non_award(reports):
    (finding,) = [f for f in reports["en"].findings if f.check == "last-tile"]
    assert finding.verdict is Verdict.HOLDS and finding.players == 3
    game = qe.replay(finding.example.data)
    assert game.is_over and game.events[-2].reason == "last-tile-tie"


def test_every_example_reproduces_its_gap(reports):
    for report in reports.values():
        for finding in report.gaps:
            example = finding.example
            assert example is not None, finding
            if example.kind == "game":
                game = qe.replay(example.data)
                assert finding.gap in {g.code for g in game.gaps}
            else:
                records = [qe.PlayerRecord.from_dict(p) for p in example.data["players"]]
                result = qe.score_game(example.data["ruleset"], records)
                assert finding.gap in {g.code for g in result.gaps}


def test_the_smallest_examples(reports):
    (sale,) = [f for f in reports["en-early"].gaps if f.gap == "no-unique-bid" and f.players == 3]
    moves = [(m["seat"], m["amount"]) for m in sale.example.data["moves"]]
    assert len(moves) == 8  # three tied bids, then two rounds of rebids that tie again
    assert max(amount for _, amount in moves) <= 3
    (everyone,) = [f for f in reports["en"].gaps if f.gap == "everyone-eliminated"]
    game = qe.replay(everyone.example.data)
    assert {r.spent for r in game.player_records()} == {5}


def test_the_report_is_deterministic(reports):
    assert qe.verify("en-early") == reports["en-early"]
    assert json.loads(json.dumps(reports["en"].to_dict())) == reports["en"].to_dict()


def test_a_table_without_five_industries_is_a_new_gap():
    rules = attrs.evolve(
        RULESETS["en"],
        id="short-table",
        diversification={3: {3: 4, 4: 8}, 4: {3: 4, 4: 8}, 5: {3: 8, 4: 12}},
    )
    report = qe.verify(rules)
    (finding,) = report.new_gaps
    assert (finding.gap, finding.players) == ("diversification-beyond-table", 5)
    assert not report.ok


@given(qst.ruleset_variations())
@examples(8)
def test_any_valid_rule_set_can_be_verified(rules):
    report = qe.verify(rules, random_games=5)
    assert report.ruleset == rules.id
    assert not report.violations
    for finding in report.gaps:
        assert finding.gap in qe.GAP_CODES
        assert finding.acknowledged == (finding.gap in rules.acknowledged_gaps)
        assert finding.example is not None


def test_the_sale_search_examples_pass_a_peek_announced_before_the_bids():
    # The example records of the sale search bid from a fresh game; under
    # peek_timing=before-bids a peek window is open there first.
    rules = qe.get_ruleset(
        "en:rebid_may_equal_opening=true,auctioneer_rebid_may_be_zero=true,peek_timing=before-bids"
    )
    report = qe.verify(rules, random_games=5)
    assert not report.violations
    records = [f.example.data for f in report.findings if f.example and f.example.kind == "game"]
    assert records
    for record in records:
        qe.replay(record)
