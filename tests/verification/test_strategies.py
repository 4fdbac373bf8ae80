"""The rule-set variations of ``qe_rules.strategies``: every rule field is varied, with
values its kind declares, unless it is excused with a reason."""

import pytest
from hypothesis import Phase, given, settings

import qe_rules as qe
from qe_rules import strategies as qst
from qe_rules.rules.model import RuleSet
from tests.support import examples

EN = qe.get_ruleset("en")


def test_every_rule_field_is_varied_or_excused_with_a_reason():
    varied, excused = set(qst.VARIED_FIELDS), set(qst.EXCUSED)
    assert varied | excused == set(RuleSet.rule_fields())
    assert not varied & excused
    assert all(reason.strip() for reason in qst.EXCUSED.values())


def _changed_fields(strategy, base, tries):
    """The fields ``tries`` variations of ``base`` change, and the values they took."""
    changed = {}

    @settings(
        max_examples=tries,
        database=None,
        derandomize=True,
        phases=[Phase.generate],
        deadline=None,
    )
    @given(strategy)
    def collect(rules):
        for name in RuleSet.rule_fields():
            if getattr(rules, name) != getattr(base, name):
                changed.setdefault(name, set()).add(repr(getattr(rules, name)))

    collect()
    return changed


@pytest.mark.slow  # 150 variations and their games' rule sets
def test_each_varied_field_takes_other_values():
    """A field counts as varied only if the variations really change it (a field whose
    kind has no values makes ``field_values`` raise instead); the readings that may not
    end come only when asked for."""
    base = EN.evolve(last_tile_without_auctioneer=[4])
    changed = _changed_fields(qst.ruleset_variations(base, endless=True), base, 150)
    assert set(changed) == set(qst.VARIED_FIELDS)
    for name, value in qst.ENDLESS_READINGS.items():
        assert repr(value) in changed[name]
    finite = _changed_fields(qst.ruleset_variations(base), base, 100)
    for name, value in qst.ENDLESS_READINGS.items():
        assert repr(value) not in finite.get(name, set())


@examples(60)
@given(qst.ruleset_variations())
def test_a_variation_without_endless_readings_keeps_games_finite(rules):
    for name, value in qst.ENDLESS_READINGS.items():
        assert getattr(rules, name) is not value
    assert set(rules.player_counts) <= {2, 3, 4, 5}
    for players in rules.player_counts:
        assert rules.sales(players) >= 1
