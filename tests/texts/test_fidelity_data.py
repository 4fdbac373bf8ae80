"""The labels, register entries and glossary terms a line-by-line reading of the texts
asked for: each is data, and each is checked against the rule sets it describes."""

from __future__ import annotations

import pytest

import qe_rules as qe
from qe_rules import RULESETS, Basis, Industry
from qe_rules.texts.discrepancies import DiscrepancyKind, get_discrepancy


@pytest.mark.parametrize(
    ("rid", "field"),
    [
        ("de-summary", "nationalization"),  # 'zu einer Nation': any tile belongs to one
        ("de-summary", "zero_bid_limit_per_round"),  # limit in one place, none in another
        ("de-summary", "eliminate_highest_spender"),  # 'in einer Runde' vs the game's total
        ("en-early", "eliminate_highest_spender"),  # 'highest bid' vs 'highest total'
        ("de-summary", "tiles_once_per_category"),
    ],
)
def test_a_rule_read_against_its_texts_own_words_is_labelled_corrected(rid, field):
    assert RULESETS[rid].cite(field).basis is Basis.CORRECTED


@pytest.mark.parametrize("rid", ["en", "de", "de-summary"])
def test_a_switch_that_cannot_arise_under_a_text_is_labelled_silent(rid):
    for field in ("zero_bids_score_when_unsold", "zero_bid_winner_scores", "fallback_finds_no_bid"):
        assert RULESETS[rid].cite(field).basis is Basis.SILENT, field


def test_en_early_cites_only_headings_its_text_has():
    early = RULESETS["en-early"]
    sections = {early.cite(field).section for field in qe.RuleSet.rule_fields()}
    assert "Setup" not in sections
    assert any(section.startswith("Objective") for section in sections)


@pytest.mark.parametrize(
    ("entry", "field"),
    [
        ("summary-winner-without-elimination", "eliminate_highest_spender"),
        ("summary-secret-bids-like-the-auctioneer", "min_secret_bid"),
        ("summary-leaves-the-game", "eliminate_highest_spender"),
        ("summary-rebid-not-above-the-last", "rebid_may_equal_opening"),
    ],
)
def test_the_summarys_slips_are_registered(entry, field):
    found = get_discrepancy(entry)
    assert found.kind is DiscrepancyKind.SLIP
    assert "de-summary" in found.sources and "de" in found.sources
    assert field in found.fields
    assert "summary-slips-follow-de" in found.interpretations


def test_the_literal_difference_of_en_and_de_on_the_peek_is_a_rule_entry():
    found = get_discrepancy("peek-winning-or-highest-bid")
    assert found.kind is DiscrepancyKind.RULE and found.fields == ("peek_shows",)
    assert RULESETS["en"].peek_shows != RULESETS["de"].peek_shows


def test_public_tied_players_are_a_registered_reading_of_the_engine():
    found = get_discrepancy("tied-players-public")
    assert found.interpretations == ("tied-players-public",)
    game = qe.new_game("en", 4, seed=3).bid(0, 2).bid(1, 6).bid(2, 6).bid(3, 1)
    assert game.public_view().tied == (1, 2)  # what the entry says the engine does


def test_the_last_tiles_tie_is_a_question_of_its_own():
    found = get_discrepancy("last-tile-a-tie")
    assert found.kind is DiscrepancyKind.AMBIGUITY and "last_tile_tie" in found.fields


def test_no_government_piece_is_in_a_three_or_four_player_game_and_the_glossary_says_so():
    for rules in RULESETS.values():
        for players in (3, 4):
            assert Industry.GOVERNMENT not in rules.industries(players)
            assert all(c.industry is not Industry.GOVERNMENT for c in rules.companies(players))
    (term,) = qe.lookup_term("Regierung")
    assert "all three Government tiles" in term.note and "two Government" not in term.note


@pytest.mark.parametrize("word", ["jeweils", "verdeckt", "offen", "ersteigern"])
def test_the_glossary_has_the_words_a_translator_trips_on(word):
    assert [term.de for term in qe.lookup_term(word)] == [word]


def test_eliminated_means_out_of_the_winner_count_not_out_of_play():
    (term,) = qe.lookup_term("scheidet aus")
    assert "not out of play" in term.note and "scheidet aus dem Spiel aus" in term.note


def test_with_three_players_the_leftover_token_and_the_unplayed_nation_stay_unseen():
    """The register's reading of the setup for 3 players, as the engine plays it: one
    token and one nation in play are nobody's, and nothing a seat or a spectator reads
    names the token; the nobody's nation's tiles are sold like any other."""
    assert get_discrepancy("three-player-leftover-token").kind is DiscrepancyKind.WORDING
    assert get_discrepancy("three-player-nation-without-player").fields == (
        "nations_in_play",
        "deck_sizes",
    )
    rules = RULESETS["en"]
    for seed in range(6):
        game = qe.play_game(rules, 3, "random", seed=seed)
        dealt = set(game.public_view().industries)
        assert len(dealt) == 3 and len(set(rules.industries(3)) - dealt) == 1
        for view in [game.public_view(), *(game.view(seat) for seat in range(3))]:
            assert set(view.industries) == dealt  # the leftover token is nobody's
        (nation,) = set(rules.nations(3)) - set(game.nations)
        auctioned = [sale.company for sale in game.public_view().history]
        assert len(auctioned) == 16
        assert [c for c in rules.companies(3) if c.nation is nation] == [
            c for c in rules.companies(3) if c.nation is nation and c in auctioned
        ]
