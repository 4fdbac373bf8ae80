"""Every deprecated name still works, warns once with one phrasing ("OLD is deprecated;
use NEW"), and the warning points at the caller's line, not into the library."""

import warnings

import pytest

import qe_rules as qe
from qe_rules.rules import values
from qe_rules.simulation import stats
from qe_rules.simulation.comparison import format_comparison
from qe_rules.simulation.stats import format_stats

STATS = qe.simulate("en", 3, "random", 2, seed=1)
COMPARISON = qe.compare(["en", "en-early"], 3, "random", 2, seed=1)
GAME = qe.new_game("en", 4, seed=1)
SHEET = qe.score_game("en", GAME.player_records()).sheets[0]

DEPRECATED = {
    "RuleSet.to_data": (lambda: qe.get_ruleset("en").to_data(), "RuleSet.to_dict"),
    "RuleSet.from_data": (
        lambda: qe.RuleSet.from_data(qe.get_ruleset("en").to_dict()),
        "RuleSet.from_dict",
    ),
    "Game.records()": (GAME.records, "Game.player_records()"),
    "ScoreSheet.companies": (lambda: SHEET.companies, "ScoreSheet.company_points"),
    "qe_rules.check_names()": (qe.check_names, "qe_rules.checks()"),
    "qe_rules.rules.values.COMPANIES": (lambda: values.COMPANIES, "COMPANY_LIST"),
    "format_stats(stats)": (lambda: format_stats(STATS), "stats.to_text() or str(stats)"),
    "format_comparison(c)": (lambda: format_comparison(COMPARISON), "c.to_text() or str(c)"),
    "qe_rules.Batch": (lambda: qe.Batch, "qe_rules.GameRange"),
    "qe_rules.simulation.stats.Batch": (lambda: stats.Batch, "qe_rules.GameRange"),
    "the rule field auctioneer_sees_all_bids": (
        lambda: qe.get_ruleset("en").evolve(auctioneer_sees_all_bids=True),
        'rebid_visibility = "auctioneer"',
    ),
}


@pytest.mark.parametrize("old", sorted(DEPRECATED))
def test_a_deprecated_name_warns_at_the_callers_line(old):
    use, new = DEPRECATED[old]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        use()
    assert [(w.category, str(w.message)) for w in caught] == [
        (DeprecationWarning, f"{old} is deprecated; use {new}")
    ]
    assert caught[0].filename == __file__


def test_the_new_names_give_what_the_old_ones_gave():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert GAME.records() == GAME.player_records()
        assert SHEET.companies == SHEET.company_points
        assert qe.get_ruleset("en").to_data() == qe.get_ruleset("en").to_dict()
        assert qe.check_names() == qe.checks()
        assert values.COMPANIES is values.COMPANY_LIST
        assert qe.Batch is stats.Batch is qe.GameRange
        assert STATS.batches == (qe.GameRange(seed=1, start=0, stop=2),)
        assert format_stats(STATS) == STATS.to_text() == str(STATS)
        assert format_comparison(COMPARISON) == COMPARISON.to_text() == str(COMPARISON)
