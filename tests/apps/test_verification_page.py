"""The generated page ``docs/verification.md`` (``qe_rules.apps.pages.verification_markdown``):
the reports it holds and its table of the sale search's paths."""

import pytest

import qe_rules as qe
from qe_rules import RULESETS, Verdict
from qe_rules.apps.pages import verification_markdown
from qe_rules.verification import sale_search
from qe_rules.verification.report import Finding, VerificationReport
from tests.support.verification import FINDINGS, REPORT

EN = RULESETS["en"]


@pytest.mark.kills_mutants
def test_the_page_of_reports_holds_each_report():
    page = verification_markdown([REPORT, VerificationReport("x", FINDINGS[:1])])
    assert page.startswith("# Verification of the built-in rule sets\n")
    assert REPORT.to_markdown() in page
    assert page.endswith("| `deck-size` | 3 | holds | fine |  |\n")


# golden: pins the figures of the current search (how to regenerate: run the test, and
# copy the figures it reports into the expected values, after checking why they changed)
@pytest.mark.golden
@pytest.mark.kills_mutants
def test_the_search_table_counts_paths_and_says_whether_each_search_ended(monkeypatch):
    whole = verification_markdown([qe.verify(EN, checks=["sale-outcomes", "last-tile"])])
    rows = [line for line in whole.splitlines() if line.startswith("| `en` |")]
    assert rows == [
        "| `en` | 3 | 48 | 15 | yes |",
        "| `en` | 4 | 120 |  | yes |",
        "| `en` | 5 | 288 |  | yes |",
    ]
    monkeypatch.setattr(sale_search, "SALE_SEARCH_PATHS", 50)
    report = qe.verify("en-early", checks=["sale-outcomes"])
    assert all(f.coverage.exhaustive is False for f in report.findings)
    cut = verification_markdown([report])
    rows = [line for line in cut.splitlines() if line.startswith("| `en-early` |")]
    assert rows and all(row.endswith("| no |") for row in rows)


@pytest.mark.kills_mutants
def test_a_page_without_sale_findings_has_an_empty_search_table():
    finding = Finding(
        "deck-size", Verdict.HOLDS, "x", ("deck_sizes",), 3, coverage=qe.Coverage(True, None, "b")
    )
    page = verification_markdown([VerificationReport("r", (finding,))])
    assert (
        "| rule set | players | sale paths | last-tile paths | exhaustive |\n|---|---|---|---|---|\n"
        "\n## `r`\n"
    ) in page
