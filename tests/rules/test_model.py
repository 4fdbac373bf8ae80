"""The built-in rule sets: provenance, decks, validation."""

from collections import Counter

import attrs
import pytest

import qe_rules as qe
from qe_rules import RULESETS, SOURCES, Basis, Category, Industry, Nation, RuleSet

BUILTINS = list(RULESETS.values())


def test_four_builtins_with_their_ids():
    assert list(RULESETS) == ["en", "en-early", "de", "de-summary"]
    for rs_id, rs in RULESETS.items():
        assert rs.id == rs_id
        assert rs.source in SOURCES


def test_rulesets_mapping_is_read_only():
    with pytest.raises(TypeError):
        RULESETS["fr"] = RULESETS["en"]  # type: ignore[index]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        RULESETS["en"].min_opening_bid = 0  # type: ignore[misc]


def test_unknown_ruleset_names_the_valid_ids():
    with pytest.raises(qe.UnknownRuleSet) as info:
        qe.get_ruleset("fr")
    for rs_id in RULESETS:
        assert repr(rs_id) in str(info.value)
    assert isinstance(info.value, qe.RulesError)
    with pytest.raises(qe.UnknownRuleSet):
        qe.get_ruleset(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("rs", BUILTINS, ids=lambda r: r.id)
def test_every_rule_field_has_provenance_from_its_own_text(rs):
    assert set(rs.provenance) == set(RuleSet.rule_fields())
    for name in RuleSet.rule_fields():
        cite = rs.cite(name)
        assert cite.source == rs.id
        assert cite.section.strip()
        assert len(cite.summary) > 15
        assert isinstance(cite.basis, Basis)


def test_rule_fields_exclude_metadata():
    fields = RuleSet.rule_fields()
    for meta in ("id", "title", "language", "source", "provenance", "interpretations"):
        assert meta not in fields
    assert "secret_bid_may_equal_opening" in fields
    with pytest.raises(qe.InvalidRuleSet, match="not a rule field"):
        RULESETS["en"].cite("title")


@pytest.mark.parametrize("rs", BUILTINS, ids=lambda r: r.id)
def test_decks_match_the_stated_sizes_and_removals(rs):
    for players in (3, 4, 5):
        deck = rs.companies(players)
        assert len(deck) == rs.deck_sizes[players] == rs.sales(players)
        assert list(deck) == [c for c in qe.COMPANIES if c in deck]
        assert set(deck).isdisjoint(rs.removed_companies[players])
    small = rs.companies(4)
    assert not any(c.nation is Nation.UK or c.industry is Industry.GOVERNMENT for c in small)
    five = rs.companies(5)
    assert Counter(c.nation for c in five) == dict.fromkeys(Nation, 3)
    assert Counter(c.industry for c in five) == dict.fromkeys(Industry, 3)
    assert not any(c.vp == 1 for c in five)


@pytest.mark.parametrize("rs", BUILTINS, ids=lambda r: r.id)
def test_nations_tokens_and_rounds(rs):
    assert rs.nations(4) == (Nation.US, Nation.EU, Nation.CN, Nation.JP)
    assert set(rs.nations(5)) == set(Nation)
    assert Industry.GOVERNMENT not in rs.industries(3)
    assert set(rs.industries(5)) == set(Industry)
    assert (rs.rounds(3), rs.rounds(4), rs.rounds(5)) == (5, 4, 3)
    assert rs.max_zero_bid_scorings(3) == 0
    assert rs.max_zero_bid_scorings(4) == 4
    with pytest.raises(qe.InvalidArgument, match="played by 3, 4, 5 players, not 6"):
        rs.companies(6)


def test_the_known_differences_are_fields():
    en, early = RULESETS["en"], RULESETS["en-early"]
    assert not en.secret_bid_may_equal_opening and early.secret_bid_may_equal_opening
    assert not early.rebid_may_equal_opening
    assert en.tie_fallback is qe.TieFallback.HIGHEST_UNTIED
    assert early.tie_fallback is qe.TieFallback.HIGHEST_UNIQUE_IN_SALE
    assert dict(early.diversification[5]) == {3: 10, 4: 15, 5: 21}
    assert dict(en.diversification[4]) == {3: 4, 4: 8}
    assert early.scoring_order[0] is Category.SPENDING
    assert en.scoring_order[-1] is Category.SPENDING
    assert early.cite("diversification").basis is Basis.CORRECTED
    assert not early.has_peek(5) and en.has_peek(5) and not en.has_peek(4)


def test_en_de_and_de_summary_agree_on_every_rule_but_what_a_peek_shows():
    """de and de-summary name the highest bid where en names the winning bid."""
    for name in RuleSet.rule_fields():
        values = {repr(getattr(RULESETS[i], name)) for i in ("en", "de", "de-summary")}
        assert len(values) == (2 if name == "peek_shows" else 1), name
    assert RULESETS["de"].peek_shows is RULESETS["de-summary"].peek_shows


def test_interpretations_are_listed_and_acknowledge_gaps():
    for rs in BUILTINS:
        codes = [i.code for i in rs.interpretations]
        assert len(codes) == len(set(codes))
        for interpretation in rs.interpretations:
            assert set(interpretation.fields) <= set(RuleSet.rule_fields())
            assert set(interpretation.gaps) <= set(qe.GAP_CODES)
        assert "monopolization-beyond-table" in rs.acknowledged_gaps
    assert "no-unique-bid" in RULESETS["en-early"].acknowledged_gaps
    assert "no-unique-bid" not in RULESETS["en"].acknowledged_gaps


def _variant(**changes):
    return attrs.evolve(RULESETS["en"], **changes)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"player_counts": (3, 4)}, "needs exactly the player counts"),
        ({"monopolization": {3: {2: 3, 4: 10}, 4: {2: 3}, 5: {2: 6}}}, "skips a count"),
        ({"lowest_spend_bonus": {3: 6, 4: -1, 5: 7}}, "whole number >= 0"),
        ({"ties_before_fallback": 0}, "ties_before_fallback"),
        ({"min_opening_bid": 1.5}, "min_opening_bid"),
        ({"secret_bid_may_equal_opening": 1}, "true or false"),
        ({"tie_fallback": "none"}, "needs one of"),
        ({"scoring_order": (Category.COMPANIES,)}, "every scoring category"),
        ({"token_categories": {Category.COMPANIES}}, "industry token"),
        ({"nations_in_play": {3: (Nation.US,), 4: (Nation.US,), 5: (Nation.US,)}}, "need 3"),
        ({"provenance": {}}, "no provenance"),
    ],
)
def test_inconsistent_rule_sets_are_rejected(changes, message):
    with pytest.raises(qe.InvalidRuleSet, match=message):
        _variant(**changes)


def test_rule_sets_are_hashable_and_compare_by_value():
    en = RULESETS["en"]
    same = attrs.evolve(en)
    assert same == en and hash(same) == hash(en)
    assert en != RULESETS["de"]


def test_the_kind_of_a_list_of_tiles_is_company_list_and_the_old_name_warns():
    from qe_rules.rules import values

    assert values.COMPANY_LIST.decode(["US-FIN-2"], "x") == (qe.Company.parse("US-FIN-2"),)
    with pytest.warns(DeprecationWarning, match="values.COMPANIES is deprecated; use COMPANY_LIST"):
        assert values.COMPANIES is values.COMPANY_LIST
    with pytest.raises(AttributeError, match="has no attribute 'NOPE'"):
        values.NOPE  # noqa: B018
