"""Every reading of every open question plays complete games with 3, 4 and 5 players."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import qe_rules as qe

CASES = [
    (base, question.field, value)
    for question in qe.open_questions()
    for value in question.values
    for base in ("en", "en-early")
]


def check_complete(game, rules, players):
    assert game.is_over and not game.to_act
    held = [tile for record in game.player_records() for tile in record.companies]
    unsold = [e for e in game.events if isinstance(e, qe.NotAwarded)]
    awarded = [e for e in game.events if isinstance(e, qe.Awarded)]
    assert len(held) == len(set(held)) == len(awarded)
    assert len(held) + len(unsold) == rules.sales(players)
    assert {e.sale for e in awarded}.isdisjoint(e.sale for e in unsold)
    gaps = {gap.code for gap in game.gaps}
    for sale in unsold:  # a tile nobody gets is a rule of the text or a reported gap
        assert sale.reason == "last-tile-tie" or sale.reason in gaps
    assert qe.replay(game.to_record()) == game
    assert game.result().sheets  # the game scores


@pytest.mark.parametrize(("base", "field", "value"), CASES)
@given(seed=st.integers(0, 2**20), agents=st.sampled_from(["random", "value"]))
@settings(max_examples=2, deadline=None)
def test_every_reading_plays_complete_games(base, field, value, seed, agents):
    question = qe.get_open_question(field)
    rules = question.variants(qe.get_ruleset(base))[question.values.index(value)]
    for players in rules.player_counts:
        game = qe.play_game(rules, players, agents, seed=seed)
        check_complete(game, rules, players)
