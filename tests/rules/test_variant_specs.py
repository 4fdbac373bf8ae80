"""A variant whose spec holds a list or a table can be changed again."""

import qe_rules as qe


def test_a_variant_with_a_table_in_its_spec_evolves_again():
    first = qe.get_ruleset("en").evolve(zero_bid_player_counts=[3, 4, 5])
    assert first.id == "en:zero_bid_player_counts=[3,4,5]"
    second = first.evolve(tie_streak="same-players")
    assert second.id == "en:tie_streak=same-players,zero_bid_player_counts=[3,4,5]"
    assert qe.diff(qe.get_ruleset(second.id), second).rules_agree
