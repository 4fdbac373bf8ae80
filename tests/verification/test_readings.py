"""The ``reading:<field>`` checks: each other reading of each open question against the
rule set's own, told as the example game plays it, the reading first."""

import attrs
import pytest

import qe_rules as qe
from qe_rules import RULESETS, Verdict
from qe_rules.game.events import Awarded, NotAwarded
from qe_rules.verification import readings
from tests.support.verification import (
    ENDLESS,
    played_rounds,
    reading_parts,
    shows_its_check,
    told,
)

EN = RULESETS["en"]


@pytest.mark.kills_mutants
def test_a_reading_that_changes_a_sale_differs_with_an_example_that_replays():
    finding = qe.verify(EN, checks=["reading:tie_fallback"]).findings[0]
    assert finding.verdict is Verdict.DIFFERS
    assert finding.fields == ("tie_fallback",)
    assert finding.summary.startswith(f"{finding.players} players, sale ")
    assert ": under tie_fallback=highest-unique-in-sale, " in finding.summary
    assert "; under the rule set's own reading (tie_fallback=highest-untied), " in finding.summary
    game = qe.replay(finding.example.data)
    assert game.ruleset.tie_fallback is not EN.tie_fallback
    holds = qe.verify(EN, checks=["reading:peek_after_last_sale"]).findings
    assert [(f.verdict, f.players) for f in holds] == [(Verdict.HOLDS, None)] * len(holds)
    assert all("in 64 games per player count" in f.summary for f in holds)


@pytest.mark.kills_mutants
def test_a_reading_that_only_changes_the_scores():
    (finding,) = qe.verify(EN, checks=["reading:diversification_sets"]).findings
    assert finding.verdict is Verdict.DIFFERS
    assert "the same sales; under diversification_sets=largest-first the totals are" in (
        finding.summary
    )
    game = qe.replay(finding.example.data)
    assert game.is_over


@pytest.mark.kills_mutants
@pytest.mark.parametrize("field", ["tie_fallback", "zero_rebid_scores", "last_tile_tie"])
def test_a_differing_sale_is_told_as_the_example_plays_it(field):
    finding = qe.verify(EN, checks=[f"reading:{field}"]).findings[0]
    assert finding.verdict is Verdict.DIFFERS
    _, sale, reading, theirs, own, mine = reading_parts(finding.summary)
    assert reading.startswith(f"{field}=") and own.startswith(f"{field}=") and reading != own
    game = qe.replay(finding.example.data)
    assert theirs == told(game, sale)
    assert mine != theirs
    # the example stops where that sale ends
    ends = [e for e in game.events if isinstance(e, Awarded | NotAwarded)]
    assert ends[-1].sale == sale
    assert game.is_over or len(ends) == sale + 1


@pytest.mark.kills_mutants
def test_differing_scores_and_winners_are_those_of_the_example():
    (totals,) = qe.verify(EN, checks=["reading:diversification_sets"]).findings
    result = qe.replay(totals.example.data).result()
    _, sale, _, theirs, _, _ = reading_parts(totals.summary)
    assert sale is None and theirs == f"the totals are {[s.total for s in result.sheets]}"
    (winners,) = qe.verify(EN, checks=["reading:tie_after_tiebreak"]).findings
    result = qe.replay(winners.example.data).result()
    _, sale, reading, theirs, own, mine = reading_parts(winners.summary)
    assert (sale, reading) == (None, "tie_after_tiebreak=no-winner")
    assert own == "tie_after_tiebreak=shared-win"
    assert theirs == f"the winners are {list(result.winners)}" == "the winners are []"
    assert mine.startswith("[") and "," in mine  # the shared win of several seats


@pytest.mark.kills_mutants
@pytest.mark.parametrize(
    ("spec", "field"),
    [("en-early", "zero_rebid_scores"), ("en-early", "zero_bids_score_when_unsold")],
)
def test_an_unsold_tile_whose_zero_bids_differ_is_told_so(spec, field):
    (finding,) = qe.verify(spec, checks=[f"reading:{field}"]).findings
    _, sale, _, theirs, _, mine = reading_parts(finding.summary)
    assert mine.startswith("nobody gets the tile") and theirs.startswith("nobody gets the tile")
    assert mine != theirs
    assert theirs == told(qe.replay(finding.example.data), sale)


@pytest.mark.kills_mutants
def test_a_reading_whose_games_never_end_is_compared_up_to_400_rounds(monkeypatch):
    rounds = played_rounds(monkeypatch)
    finding = qe.verify(ENDLESS, checks=["reading:tie_fallback"]).findings[0]
    assert finding.verdict is Verdict.DIFFERS and finding.players == 3
    stuck = [after for game, after in rounds if game.ruleset is ENDLESS]
    # the rule set's own game, once against each of the three readings of the question
    assert len(stuck) == 3 * 400
    assert len(stuck[399].moves()) == len(stuck[-1].moves()) == 1 + 2 * 399
    assert not any(game.is_over for game, _ in rounds)  # a finished game is not played on
    players, sale, reading, theirs, own, mine = reading_parts(finding.summary)
    assert (players, sale, own) == (3, 0, "tie_fallback=none")
    assert reading == "tie_fallback=highest-untied"
    # the rule set's own game has no outcome of sale 0: it was stopped, it did not end
    assert mine == "the game was stopped after 400 bidding rounds without an end"
    assert theirs == told(qe.replay(finding.example.data), 0) == "seat 0 wins for 1"


@pytest.mark.kills_mutants
def test_a_reading_that_sells_nothing_is_told_as_its_game_plays_it():
    rules = qe.get_ruleset("en:last_tile_tie=any")
    (finding,) = qe.verify(rules, checks=["reading:last_tile_tie"]).findings
    shows_its_check(finding, rules)
    assert finding.coverage.exhaustive is False
    players, sale, reading, theirs, own, mine = reading_parts(finding.summary)
    assert (players, sale, reading, own) == (3, 15, "last_tile_tie=highest", "last_tile_tie=any")
    assert theirs == told(qe.replay(finding.example.data), 15)
    assert theirs.startswith("seat ") and mine == "nobody gets the tile (last-tile-tie)"


@pytest.mark.kills_mutants
def test_zero_bids_that_score_for_nobody_are_told_so():
    spec = "en-early:zero_bid_winner_scores=true"
    (finding,) = qe.verify(spec, checks=["reading:zero_bid_winner_scores"]).findings
    _, sale, _, theirs, _, _ = reading_parts(finding.summary)
    assert theirs == told(qe.replay(finding.example.data), sale)
    assert theirs.endswith(", zero bids scored by nobody")


@pytest.mark.kills_mutants
def test_a_reading_is_named_by_its_value_whatever_the_rule_set_is_called():
    rules = attrs.evolve(EN, id="my tie_fallback=x")
    finding = qe.verify(rules, checks=["reading:tie_fallback"]).findings[0]
    assert reading_parts(finding.summary)[2] == "tie_fallback=highest-unique-in-sale"


@pytest.mark.kills_mutants
def test_a_reading_that_changes_nothing_says_how_many_games_it_compared(monkeypatch):
    monkeypatch.setattr(readings, "READING_GAMES", 2)
    (finding,) = qe.verify(EN, checks=["reading:peek_after_last_sale"]).findings
    assert finding.verdict is Verdict.HOLDS and finding.players is None
    assert finding.fields == ("peek_after_last_sale",)
    assert finding.summary.endswith("in 2 games per player count")
    assert finding.coverage == qe.Coverage(
        False,
        6,
        "games of small random bids (2 per player count, fewest players first, until one differs)",
    )
