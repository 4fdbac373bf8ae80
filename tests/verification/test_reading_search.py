"""The verifier explores the readings the texts allow: the complete sale search meets
what each new reading does (a tie below the top tie, the auctioneer taking the tile)."""

import pytest

import qe_rules as qe
from qe_rules import Verdict


def _codes(spec):
    report = qe.verify(spec, checks=["sale-outcomes"])
    return {(f.players, f.gap) for f in report.findings if f.verdict is Verdict.GAP}


def test_the_search_finds_a_tie_below_the_top_tie_under_the_literal_summary_reading():
    found = _codes("en:tie_fallback=highest-outside-top-tie")
    assert (5, "fallback-bid-tied") in found
    assert not any(code == "fallback-bid-tied" for _, code in _codes("en"))


@pytest.mark.slow
def test_under_auctioneer_wins_every_en_early_sale_finds_an_owner():
    assert any(code == "no-unique-bid" for _, code in _codes("en-early"))
    assert _codes("en-early:fallback_finds_no_bid=auctioneer-wins") == set()
