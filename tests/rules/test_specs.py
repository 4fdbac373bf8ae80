"""Spec strings and ``evolve`` read strictly (issue 31): the field name before the value,
bounded numbers and nesting, plain data through each field's reader; a variant's id is a
spec string that names it, however often it is evolved; every accepted rule set leaves a
legal bid at every turn."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules.limits import MAX_BID, MAX_TEXT_LENGTH
from qe_rules.simulation.play import play_game
from tests.support import examples
from tests.support.hostile import check_variant, random_variant

EN = qe.get_ruleset("en")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("en:zero_bid_points=²", "zero_bid_points: needs a whole number, got '²'"),
        ("en:zero_bid_points=" + "9" * 4301, "zero_bid_points: needs a whole number"),
        ("en:beyond_table=" + "[" * 5000, r"nests lists deeper than MAX_NESTING \(64\)"),
        ("en:a=" + "[" * 5000, "'a' is not a rule field"),
        ("en:_decks==²", "'_decks' is not a rule field"),
        ("en:a=" + "[" * 100_000, f"at most MAX_TEXT_LENGTH \\({MAX_TEXT_LENGTH}\\)"),
        ("de: token_categories=[[1]]", r"token_categories\[0\]: needs one of 'companies'"),
        ("en:zero_bid_points=٣", "needs a whole number"),
    ],
)
def test_hostile_spec_strings_are_refused_in_one_line(spec, message):
    with pytest.raises(qe.InvalidRuleSet, match=message) as raised:
        qe.get_ruleset(spec)
    assert "\n" not in str(raised.value) and len(str(raised.value)) < 2000


@pytest.mark.parametrize(
    ("field", "given", "message"),
    [
        ("player_counts", range(10**12), "holds at most 64 items, got 1000000000000"),
        ("token_categories", [[]], r"token_categories\[0\]: needs one of"),
        ("scoring_order", iter([]), "give a value, a list or a table"),
        ("nations_in_play", {(3,): ["US"]}, "a table's keys are numbers or strings"),
        ("zero_bid_points", "huge", "zero_bid_points: needs a whole number from"),
        ("lowest_spend_bonus", "negative huge key", "keys must be whole numbers"),
    ],
)
def test_hostile_evolve_values_are_refused_cheaply(field, given, message):
    # not test ids: numbers without a decimal text
    if given == "huge":
        given = 10**5000
    elif given == "negative huge key":
        given = {-(10**5000): 1}
    with pytest.raises(qe.InvalidRuleSet, match=message):
        EN.evolve(**{field: given})


def test_a_variant_of_a_list_or_table_field_evolves_again_and_names_itself():
    order = EN.evolve(scoring_order=tuple(reversed(EN.scoring_order)))
    twice = order.evolve(zero_bid_points=3)
    assert twice.id.startswith("en:zero_bid_points=3,scoring_order=[")
    assert qe.get_ruleset(twice.id) == twice
    assert (
        twice.evolve(zero_bid_points=EN.zero_bid_points).evolve(scoring_order=EN.scoring_order)
        == EN
    )


@pytest.mark.parametrize(
    "changes",
    [
        {"token_categories": frozenset({qe.Category.MONOPOLIZATION})},
        {"scoring_order": tuple(reversed(EN.scoring_order))},
        {
            "nations_in_play": {
                3: EN.nations_in_play[3][::-1],
                4: EN.nations_in_play[4],
                5: EN.nations_in_play[5],
            }
        },
        {"lowest_spend_bonus": {"3": 2, "4": 6, "5": 7}},
    ],
)
def test_a_variant_id_is_a_spec_string_that_names_it(changes):
    variant = EN.evolve(**changes)
    assert qe.get_ruleset(variant.id) == variant


def test_a_rule_file_id_that_is_a_built_in_spec_string_must_name_its_rules(tmp_path):
    path = tmp_path / "colon.toml"
    path.write_text('id = "my:house"\nextends = "en"\n', encoding="utf-8")
    house = qe.load_ruleset(path)  # names no rule set get_ruleset knows
    assert house.evolve(zero_bid_points=3).evolve(peeks_per_player=2).zero_bid_points == 3
    path.write_text('id = "en:house"\nextends = "en"\n', encoding="utf-8")
    with pytest.raises(qe.InvalidRuleSet, match="a spec string of a built-in rule set"):
        qe.load_ruleset(path)
    path.write_text('id = "en:zero_bid_points=3"\nextends = "en"\n', encoding="utf-8")
    with pytest.raises(qe.InvalidRuleSet, match="a spec string naming other rules"):
        qe.load_ruleset(path)
    path.write_text(
        'id = "en:zero_bid_points=3"\nextends = "en"\n[rules]\nzero_bid_points = 3\n',
        encoding="utf-8",
    )
    named = qe.load_ruleset(path)
    assert named.zero_bid_points == 3
    spec = qe.get_ruleset(named.id)
    assert all(getattr(spec, f) == getattr(named, f) for f in named.rule_fields())
    assert named.evolve(zero_bid_points=2).evolve(peeks_per_player=2).zero_bid_points == 2


@pytest.mark.parametrize(
    "spec",
    [
        "en:min_secret_bid=1000000",
        "en:min_opening_bid=1000000,min_secret_bid=1000000",
        "de:min_opening_bid=1000000",
    ],
)
def test_a_smallest_bid_that_leaves_no_legal_bid_is_refused(spec):
    with pytest.raises(qe.InvalidRuleSet, match="leaves no legal bid"):
        qe.get_ruleset(spec)


def test_smallest_bids_near_max_bid_play_to_the_end_with_the_built_in_agents():
    for spec in (
        "en:min_secret_bid=999999",
        "en:min_opening_bid=1000000,secret_bid_may_equal_opening=true,rebid_may_equal_opening=true",
    ):
        rules = qe.get_ruleset(spec)
        for agents in ("random", "zero", "value"):
            game = play_game(rules, 4, agents, seed=1)
            assert game.is_over
            assert all(
                amount <= MAX_BID for e in game.events if (amount := getattr(e, "amount", 0))
            )


@given(st.randoms(use_true_random=False))
@examples(20)
def test_random_valid_variants_name_themselves_and_evolve_again(rng):
    check_variant(random_variant(rng))
