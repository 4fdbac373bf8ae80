"""Final scoring: the rulebook example, brute-force readings of every table, bad input."""

import contextlib
import itertools
from collections import Counter

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules import RULESETS, Category, Industry, PlayerRecord, score_game
from qe_rules import strategies as qst

# ----------------------------------------------------------------- the rulebook example

EXAMPLE_TILES = ["JP-FIN-1", "CN-MAN-1", "US-FIN-2", "US-HOU-1", "CN-FIN-4", "EU-MAN-4"]


def example_records():
    return [
        PlayerRecord("US", "AGRICULTURE", EXAMPLE_TILES, spent=20, zero_bid_rounds=3),
        PlayerRecord("EU", "HOUSING", ["EU-FIN-3", "CN-AGR-2", "JP-MAN-2"], spent=31),
        PlayerRecord("CN", "FINANCE", ["CN-HOU-3", "JP-AGR-3", "EU-AGR-1"], spent=25),
        PlayerRecord("JP", "MANUFACTURING", ["JP-HOU-4", "US-AGR-4", "EU-HOU-2"], spent=38),
    ]


@pytest.mark.parametrize("ruleset", ["en", "de", "de-summary"])
def test_rulebook_scoring_example(ruleset):
    sheet = score_game(ruleset, example_records()).sheets[0]
    # en §Scoring example / de §Wertungsbeispiel: 13 + 6 + 3 + (6 + 3) + 8 = 39, + 6 = 45
    assert (sheet.companies, sheet.zero_bids, sheet.nationalization) == (13, 6, 3)
    assert (sheet.monopolization, sheet.diversification) == (9, 8)
    assert (sheet.subtotal, sheet.lowest_spend_bonus, sheet.total) == (39, 6, 45)
    assert not sheet.eliminated


def test_example_under_en_early_uses_its_diversification_table():
    # en-early §Final Scoring: 6 VP per set of 3, 10 per set of 4. Finance 3, Manufacturing 2,
    # Agriculture 1, Housing 1 make two sets of three (12) rather than one of four (10).
    sheet = score_game("en-early", example_records()).sheets[0]
    assert sheet.diversification == 12
    assert sheet.total == 49


@pytest.mark.parametrize("players", [3, 4])
def test_en_early_scores_one_set_of_four_industries_as_ten(players):
    # en-early §Final Scoring, 3-4 players: 10 VP for a set of four. One tile of each other
    # industry and the token: the only split is one set of four.
    tiles = ["US-HOU-1", "US-FIN-2", "US-MAN-3"]
    records = [
        PlayerRecord("US", "AGRICULTURE", tiles, spent=6),
        PlayerRecord("EU", "HOUSING", [], spent=0),
        PlayerRecord("CN", "FINANCE", [], spent=0),
        PlayerRecord("JP", "MANUFACTURING", [], spent=0),
    ][:players]
    assert score_game("en-early", records).sheets[0].diversification == 10
    assert score_game("en", records).sheets[0].diversification == 8  # en's table: 8 for four


def test_diversification_is_the_best_partition_not_greedy():
    # en §Final scoring: 5 players, Agriculture 1, Housing 1, Finance 2, Manufacturing 2
    # (token included) is two sets of three (8 + 8), not one of four and nothing (12).
    records = [
        PlayerRecord(
            "US",
            "AGRICULTURE",
            ["US-FIN-2", "EU-FIN-3", "US-MAN-3", "JP-MAN-2", "EU-HOU-2"],
            spent=5,
        ),
        PlayerRecord("EU", "HOUSING", [], spent=0),
        PlayerRecord("CN", "FINANCE", [], spent=0),
        PlayerRecord("JP", "MANUFACTURING", [], spent=0),
        PlayerRecord("UK", "GOVERNMENT", [], spent=0),
    ]
    assert score_game("en", records).sheets[0].diversification == 16


def test_monopolization_beyond_the_table_is_capped_and_reported():
    records = [
        PlayerRecord(
            "US", "AGRICULTURE", ["US-AGR-4", "CN-AGR-2", "JP-AGR-3", "EU-AGR-1"], spent=4
        ),
        PlayerRecord("EU", "HOUSING", [], spent=9),
        PlayerRecord("CN", "FINANCE", [], spent=1),
    ]
    result = score_game("en", records)
    assert result.sheets[0].monopolization == 10
    assert [g.code for g in result.gaps] == ["monopolization-beyond-table"]
    assert result.gaps[0].seats == (0,)
    zero = attrs.evolve(RULESETS["en"], beyond_table=qe.BeyondTable.ZERO)
    assert score_game(zero, records).sheets[0].monopolization == 0


def test_everyone_eliminated_names_no_winner():
    records = [
        PlayerRecord(n, i, [], spent=7)
        for n, i in zip(["US", "EU", "CN"], ["HOUSING", "FINANCE", "AGRICULTURE"], strict=False)
    ]
    result = score_game("en", records)
    assert result.winners == () and result.winner is None
    assert all(s.eliminated and s.lowest_spend_bonus == 6 for s in result.sheets)
    assert [g.code for g in result.gaps] == ["everyone-eliminated"]


def test_equal_points_and_spend_leave_a_tie():
    records = [
        PlayerRecord("US", "HOUSING", ["EU-FIN-3"], spent=3),
        PlayerRecord("EU", "FINANCE", ["CN-HOU-3"], spent=3),
        PlayerRecord("CN", "AGRICULTURE", [], spent=10),
    ]
    result = score_game("en", records)
    assert result.sheets[0].total == result.sheets[1].total == 9
    assert result.winners == (0, 1)
    assert [g.code for g in result.gaps] == ["tie-after-tiebreak"]


def test_lower_spend_breaks_a_points_tie():
    records = [
        PlayerRecord("US", "HOUSING", ["EU-FIN-3", "JP-MAN-2", "US-AGR-4"], spent=3),
        PlayerRecord("EU", "FINANCE", ["EU-MAN-4", "CN-AGR-2", "CN-HOU-3"], spent=4),
        PlayerRecord("CN", "AGRICULTURE", [], spent=1),
        PlayerRecord("JP", "MANUFACTURING", [], spent=10),
    ]
    result = score_game("en", records)
    assert result.sheets[0].total == result.sheets[1].total == 18
    assert result.winners == (0,) and result.gaps == ()


# ----------------------------------------------------------------- brute-force readings


def table_points(table, count, policy):
    if count < min(table):
        return 0
    if count > max(table):
        return table[max(table)] if policy is qe.BeyondTable.CAP else 0
    return table[count]


def brute_diversification(items, table, policy):
    """Try every multiset of sets of distinct industries that the items can fill."""
    kinds = sorted(set(items), key=lambda i: i.value)
    available = Counter(items)
    set_types = [
        frozenset(combo)
        for size in range(1, len(kinds) + 1)
        for combo in itertools.combinations(kinds, size)
        if table_points(table, size, policy) > 0
    ]
    best = 0
    for number in range(len(items) // 1 + 1):
        found_any = False
        for chosen in itertools.combinations_with_replacement(set_types, number):
            used = Counter(i for s in chosen for i in s)
            if all(used[i] <= available[i] for i in used):
                found_any = True
                best = max(best, sum(table_points(table, len(s), policy) for s in chosen))
        if not found_any:
            break
    return best


def brute_sheet(rules, players, record):
    policy = rules.beyond_table
    own = sum(1 for c in record.companies if c.nation is record.nation)
    nationalization = table_points(rules.nationalization[players], own, policy)
    mono_items = [c.industry for c in record.companies]
    if Category.MONOPOLIZATION in rules.token_categories:
        mono_items.append(record.industry)
    monopolization = sum(
        table_points(rules.monopolization[players], n, policy) for n in Counter(mono_items).values()
    )
    div_items = [c.industry for c in record.companies]
    if Category.DIVERSIFICATION in rules.token_categories:
        div_items.append(record.industry)
    diversification = brute_diversification(div_items, rules.diversification[players], policy)
    return (
        sum(c.vp for c in record.companies),
        rules.zero_bid_points * record.zero_bid_rounds,
        nationalization,
        monopolization,
        diversification,
    )


@given(qst.scoring_inputs())
def test_every_category_matches_a_brute_force_reading(case):
    rules, records = case
    result = score_game(rules, records)
    for sheet, record in zip(result.sheets, records, strict=True):
        expected = brute_sheet(rules, len(records), record)
        actual = (
            sheet.companies,
            sheet.zero_bids,
            sheet.nationalization,
            sheet.monopolization,
            sheet.diversification,
        )
        assert actual == expected
        assert sheet.subtotal == sum(expected)


@given(qst.scoring_inputs())
def test_totals_eliminations_and_winners(case):
    rules, records = case
    result = score_game(rules, records)
    spends = [r.spent for r in records]
    players = len(records)
    for sheet in result.sheets:
        assert sheet.total == sheet.subtotal + sheet.lowest_spend_bonus
        assert sheet.eliminated == (sheet.spent == max(spends))
        expected_bonus = rules.lowest_spend_bonus[players] if sheet.spent == min(spends) else 0
        assert sheet.lowest_spend_bonus == expected_bonus
    for seat in result.winners:
        assert not result.sheets[seat].eliminated
    assert len(result.winners) == 1 or result.gaps
    if len(result.winners) == 1:
        winner = result.sheets[result.winners[0]]
        for sheet in result.sheets:
            if not sheet.eliminated and sheet.seat != winner.seat:
                assert (sheet.total, -sheet.spent) < (winner.total, -winner.spent)


@given(qst.scoring_inputs())
def test_scoring_is_deterministic_and_compares_by_value(case):
    rules, records = case
    assert score_game(rules, records) == score_game(rules.id, list(records))
    assert hash(score_game(rules, records)) == hash(score_game(rules, records))


@given(qst.scoring_inputs())
def test_rule_set_id_does_not_change_scoring(case):
    rules, records = case
    renamed = attrs.evolve(rules, id="renamed")
    original, copy = score_game(rules, records), score_game(renamed, records)
    assert original.sheets == copy.sheets and original.winners == copy.winners


@given(qst.scoring_inputs())
def test_records_round_trip_through_dicts(case):
    _, records = case
    assert [PlayerRecord.from_dict(r.to_dict()) for r in records] == records


# ----------------------------------------------------------------- bad input


def ok(nation="US", industry="HOUSING", companies=(), spent=0, zero=0):
    return PlayerRecord(nation, industry, list(companies), spent, zero)


THREE = [ok("US", "HOUSING"), ok("EU", "FINANCE"), ok("CN", "AGRICULTURE")]


@pytest.mark.parametrize(
    ("records", "message"),
    [
        (THREE[:2], "played by 3, 4, 5 players; got 2"),
        ([*THREE, ok("JP", "MANUFACTURING"), ok("UK", "GOVERNMENT"), ok("US", "HOUSING")], "got 6"),
        ([ok("UK", "HOUSING"), *THREE[1:]], "UK is not in play with 3 players"),
        ([ok("EU", "HOUSING"), *THREE[1:]], "EU is already seat"),
        ([ok("US", "GOVERNMENT"), *THREE[1:]], "Government is not in play"),
        ([ok("US", "FINANCE"), *THREE[1:]], "Finance is already seat"),
        ([ok(companies=["UK-FIN-4"]), *THREE[1:]], "UK-FIN-4 is not in the 3-player deck"),
        ([ok(companies=["US-FIN-2", "US-FIN-2"]), *THREE[1:]], "US-FIN-2 is held twice"),
        (
            [ok(companies=["US-FIN-2"]), ok("EU", "FINANCE", ["US-FIN-2"]), THREE[2]],
            "held also by seat 0",
        ),
        ([ok(zero=1), *THREE[1:]], "zero bids score nothing with 3 players"),
        ([ok(zero=5), *THREE[1:], ok("JP", "MANUFACTURING")], "allows at most 4"),
        ("USEUCN", "sequence of PlayerRecord"),
        ([ok(), *THREE[1:2], "CN"], "expected a PlayerRecord"),
    ],
)
def test_bad_records_raise_rules_errors(records, message):
    with pytest.raises(qe.RulesError, match=message):
        score_game("en", records)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("US", "HOUSING", [], -1), "spent must be a whole number"),
        (("US", "HOUSING", [], 1.0), "spent must be a whole number"),
        (("US", "HOUSING", [], True), "spent must be a whole number"),
        (("US", "HOUSING", [], 0, -2), "zero_bid_rounds must be"),
        (("FR", "HOUSING", [], 0), "unknown nation"),
        (("US", 3, [], 0), "industry token must be"),
        (("US", "HOUSING", "US-FIN-2", 0), "companies must be a list"),
        (("US", "HOUSING", [4], 0), "a company must be"),
    ],
)
def test_bad_player_records_raise_rules_errors(args, message):
    with pytest.raises(qe.RulesError, match=message):
        PlayerRecord(*args)


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=5),
    )
)
def test_from_dict_raises_only_rules_errors(data):
    with contextlib.suppress(qe.RulesError):
        PlayerRecord.from_dict(data)


def test_sheet_points_by_category():
    sheet = score_game("en", example_records()).sheets[0]
    assert [sheet.points(c) for c in RULESETS["en"].scoring_order] == [13, 6, 3, 9, 8, 6]
    assert Industry.FINANCE in {c.industry for c in sheet_tiles()}


def sheet_tiles():
    return example_records()[0].companies


def test_the_scorers_sheets_are_what_the_constructor_makes():
    # The scorer builds sheets without the class call (ScoreSheet._scored): that is only
    # the same while the constructor has nothing to convert, check or fill in.
    for field in attrs.fields(qe.ScoreSheet):
        assert field.validator is None and field.converter is None
        assert field.default is attrs.NOTHING
    assert not hasattr(qe.ScoreSheet, "__attrs_post_init__")
    result = score_game("en", example_records())
    for sheet in result.sheets:
        rebuilt = qe.ScoreSheet(**{name: getattr(sheet, name) for name in vars(sheet)})
        assert rebuilt == sheet and vars(rebuilt) == vars(sheet)
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            sheet.total = 0  # type: ignore[misc]
