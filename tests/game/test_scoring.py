"""Final scoring: the rulebook example, the score board, records and results as dicts,
brute-force readings of every table, the rule gaps met while scoring, and bad input.

The rulebook's example is the shipped ``qe_rules/examples/scoring-example.json``
(``tests.support.example_records``): seat 0 is the rulebook's player (en §Scoring example:
13 + 6 + 3 + 9 + 8 = 39, and the lowest-spend bonus of 6). Tests marked ``kills_mutants``
pin down what mutation testing found loose.
"""

import contextlib
import itertools
from collections import Counter

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules import (
    RULESETS,
    Category,
    GameResult,
    Gap,
    Industry,
    PlayerRecord,
    ScoreSheet,
    score_game,
)
from qe_rules import strategies as qst
from qe_rules.game.scoring import diversification_points, score_holdings
from qe_rules.limits import MAX_BID
from tests.support import example_records, examples

EN = RULESETS["en"]


def record(nation, industry, companies=(), spent=0, zero=0):
    return PlayerRecord(nation, industry, list(companies), spent, zero)


THREE = [record("US", "HOUSING"), record("EU", "FINANCE"), record("CN", "AGRICULTURE")]

# ----------------------------------------------------------------- the rulebook example


@pytest.mark.parametrize("ruleset", ["en", "de", "de-summary"])
def test_rulebook_scoring_example(ruleset):
    sheet = score_game(ruleset, example_records()).sheets[0]
    # en §Scoring example / de §Wertungsbeispiel: 13 + 6 + 3 + (6 + 3) + 8 = 39, + 6 = 45
    assert (sheet.company_points, sheet.zero_bids, sheet.nationalization) == (13, 6, 3)
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
        return beyond_the_table(table, count, policy)
    return table[count]


def beyond_the_table(table, count, policy):
    """A count above the table: its last entry, nothing, or the steps continued, each
    one larger than the step before (a table of one entry is capped)."""
    top = max(table)
    if policy is qe.BeyondTable.ZERO:
        return 0
    if policy is qe.BeyondTable.CAP or top - 1 not in table:
        return table[top]
    points, step = table[top], table[top] - table[top - 1]
    for _ in range(top, count):
        step += 1
        points += step
    return points


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
            sheet.company_points,
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
    spared = (
        spends.count(max(spends)) == players
        and rules.everyone_tied_for_most_spent is qe.EveryoneTiedForMostSpent.NONE_ELIMINATED
    )
    for sheet in result.sheets:
        assert sheet.total == sheet.subtotal + sheet.lowest_spend_bonus
        assert sheet.eliminated == (sheet.spent == max(spends) and not spared)
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


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=5),
    )
)
def test_from_dict_raises_only_rules_errors(data):
    with contextlib.suppress(qe.RulesError):
        PlayerRecord.from_dict(data)


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


# ----------------------------------------------------------------------- the score board

BOARD = """\
Rule set en, 4 players

                     seat 0  seat 1  seat 2  seat 3
nation                   US      EU      CN      JP
companies                13       7       7      13
zero bids                 6       2       4       0
nationalization           3       1       1       1
monopolization            9       0       3       6
diversification           8       8       4       4
subtotal                 39      18      19      24
spent                    20      31      25      38
lowest-spend bonus        6       0       0       0
out (highest spend)       -       -       -     out
total                    45      18      19      24

Winner: seat 0 (US)"""


@pytest.mark.kills_mutants
def test_the_score_board_of_the_rulebook_example():
    result = score_game("en", example_records())
    assert result.score_board() == BOARD
    assert str(result) == BOARD


@pytest.mark.kills_mutants
def test_the_score_board_with_names_and_another_order():
    result = score_game("en", example_records())
    board = result.score_board(["a", "b", "c", "d"], [Category.SPENDING, Category.COMPANIES])
    assert board.splitlines()[2:] == [
        "                      a   b   c    d",
        "nation               US  EU  CN   JP",
        "spent                20  31  25   38",
        "lowest-spend bonus    6   0   0    0",
        "out (highest spend)   -   -   -  out",
        "companies            13   7   7   13",
        "subtotal             39  18  19   24",
        "total                45  18  19   24",
        "",
        "Winner: a (US)",
    ]
    with pytest.raises(qe.InvalidArgument, match=r"give one name per seat \(4\), got 3"):
        result.score_board(["a", "b", "c"])


@pytest.mark.kills_mutants
def test_a_custom_rule_set_orders_its_board_by_category():
    result = score_game(attrs.evolve(EN, id="custom"), example_records())
    labels = [line.split("  ")[0] for line in result.score_board().splitlines()[3:-2]]
    assert labels == [
        "nation",
        "companies",
        "zero bids",
        "nationalization",
        "monopolization",
        "diversification",
        "subtotal",
        "spent",
        "lowest-spend bonus",
        "out (highest spend)",
        "total",
    ]


@pytest.mark.kills_mutants
def test_a_board_without_a_single_winner_says_who_is_level():
    tie = [
        record("US", "HOUSING", ["EU-FIN-3"], 3),
        record("EU", "FINANCE", ["CN-HOU-3"], 3),
        record("CN", "AGRICULTURE", [], 10),
    ]
    assert score_game("en", tie).gaps[0].seats == (0, 1)
    lines = score_game("en", tie).score_board().splitlines()
    assert lines[-2:] == [
        "No single winner under en; still level: seat 0, seat 1",
        "Rule gap tie-after-tiebreak: seats 0, 1 tie with 9 points and equal spend",
    ]
    none = score_game("en:final_tiebreak=none", tie)
    assert none.gaps[0].message == "seats 0, 1 tie with 9 points and the rule set has no tie-break"
    everyone = [record(n, i, [], 7) for n, i in [("US", "HOU"), ("EU", "FIN"), ("CN", "AGR")]]
    lines = score_game("en", everyone).score_board().splitlines()
    assert lines[-2:] == [
        "No single winner under en; still level: nobody",
        "Rule gap everyone-eliminated: every player tied for the highest spend, so every "
        "player is eliminated",
    ]
    assert score_game("en", everyone).gaps[0].seats == (0, 1, 2)


@pytest.mark.kills_mutants
def test_the_result_shows_as_a_picture_in_a_notebook():
    result = score_game("en", example_records())
    html = result._repr_html_()
    assert html.startswith('<div class="qe-rules"><svg')
    assert html.endswith("</svg></div>")


# ----------------------------------------------------------------------- as dicts


@pytest.mark.kills_mutants
def test_a_player_record_as_a_dict():
    first = example_records()[0]
    assert first.to_dict() == {
        "nation": "US",
        "industry": "AGRICULTURE",
        "companies": ["JP-FIN-1", "CN-MAN-1", "US-FIN-2", "US-HOU-1", "CN-FIN-4", "EU-MAN-4"],
        "spent": 20,
        "zero_bid_rounds": 3,
    }
    data = {"nation": "US", "industry": "FIN", "companies": [], "spent": 4, "name": "Ann"}
    assert PlayerRecord.from_dict(data) == record("US", "FINANCE", [], 4, 0)


@pytest.mark.kills_mutants
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1], "a player record must be an object, got [1]"),
        ({"nation": "US"}, "a player record needs industry, companies, spent"),
        (
            {"nation": "US", "industry": "FIN", "companies": [], "spent": 0, "x": 1},
            "unknown key 'x' in a player record; allowed: nation, industry, companies, spent, "
            "zero_bid_rounds, name",
        ),
    ],
)
def test_a_bad_player_record_dict_says_what_is_wrong(data, message):
    with pytest.raises(qe.InvalidArgument) as error:
        PlayerRecord.from_dict(data)
    assert str(error.value) == message


@pytest.mark.kills_mutants
def test_a_result_as_a_dict_and_back():
    result = score_game("en", example_records())
    data = result.to_dict()
    assert data["ruleset"] == "en" and data["winners"] == [0] and data["gaps"] == []
    assert data["sheets"][3] == {
        "seat": 3,
        "nation": "JP",
        "companies": 13,
        "zero_bids": 0,
        "nationalization": 1,
        "monopolization": 6,
        "diversification": 4,
        "subtotal": 24,
        "lowest_spend_bonus": 0,
        "total": 24,
        "spent": 38,
        "eliminated": True,
    }
    assert GameResult.from_dict(data) == result
    assert ScoreSheet.from_dict(data["sheets"][3]) == result.sheets[3]


@pytest.mark.kills_mutants
def test_a_gap_as_text_and_as_a_dict():
    gap = Gap("tie-after-tiebreak", "seats 0, 1 tie", (0, 1))
    assert str(gap) == "tie-after-tiebreak: seats 0, 1 tie"
    assert gap.to_dict() == {
        "code": "tie-after-tiebreak",
        "message": "seats 0, 1 tie",
        "seats": [0, 1],
    }
    assert Gap.from_dict(gap.to_dict()) == gap
    tie = [
        record("US", "HOUSING", ["EU-FIN-3"], 3),
        record("EU", "FINANCE", ["CN-HOU-3"], 3),
        record("CN", "AGRICULTURE", [], 10),
    ]
    result = score_game("en", tie)
    assert GameResult.from_dict(result.to_dict()) == result


@pytest.mark.kills_mutants
@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"ruleset": "en", "sheets": [], "winners": []}, "gaps"),
        ({"ruleset": "en", "sheets": [{}], "winners": [], "gaps": []}, "seat"),
        ({"ruleset": "en", "sheets": [], "winners": [], "gaps": [{"code": "x"}]}, "message"),
    ],
)
def test_a_bad_result_dict_names_what_is_missing(data, words):
    with pytest.raises(qe.InvalidArgument, match=words):
        GameResult.from_dict(data)


@pytest.mark.kills_mutants
def test_a_sheet_reads_its_points_by_category():
    sheet = score_game("en", example_records()).sheets[0]
    assert [sheet.points(c) for c in RULESETS["en"].scoring_order] == [13, 6, 3, 9, 8, 6]
    assert [sheet.points(c) for c in Category] == [13, 6, 3, 9, 8, 6]
    assert sheet.points(Category.COMPANIES) == sheet.company_points == 13
    assert Industry.FINANCE in {c.industry for c in example_records()[0].companies}
    assert sheet.points(Category.SPENDING) == 6
    assert sheet.points(Category.ZERO_BIDS) == 6
    assert sheet.points(Category.DIVERSIFICATION) == 8


# ----------------------------------------------------------------------- bad input


@pytest.mark.kills_mutants
@pytest.mark.parametrize(
    ("records", "message"),
    [
        (
            [record("UK", "HOUSING"), *THREE[1:]],
            "seat 0: nation UK is not in play with 3 players; nations in play: US, EU, CN, JP",
        ),
        ([record("EU", "HOUSING"), *THREE[1:]], "seat 1: nation EU is already seat 0's"),
        (
            [record("US", "GOVERNMENT"), *THREE[1:]],
            "seat 0: industry token Government is not in play with 3 players; industry "
            "tokens in play: Agriculture, Housing, Finance, Manufacturing",
        ),
        (
            [record("US", "FINANCE"), *THREE[1:]],
            "seat 1: industry token Finance is already seat 0's",
        ),
        (
            [record("US", "HOUSING", ["UK-FIN-4"]), *THREE[1:]],
            "seat 0: UK-FIN-4 is not in the 3-player deck of en",
        ),
        (
            [record("US", "HOUSING", ["US-FIN-2", "US-FIN-2"]), *THREE[1:]],
            "seat 0: US-FIN-2 is held twice",
        ),
        (
            [
                record("US", "HOUSING", ["US-FIN-2"]),
                record("EU", "FINANCE", ["US-FIN-2"]),
                THREE[2],
            ],
            "seat 1: US-FIN-2 is held also by seat 0",
        ),
        (
            [record("US", "HOUSING", zero=1), *THREE[1:]],
            "seat 0: zero bids score nothing with 3 players under en; zero_bid_rounds must be "
            "0, got 1",
        ),
        (
            [*THREE, record("JP", "MANUFACTURING", zero=5)],
            "seat 3: 5 zero-bid rounds, but a 4-player game allows at most 4",
        ),
        (
            [record("US", "HOUSING", zero=5), *THREE[1:], record("JP", "MANUFACTURING")],
            "seat 0: 5 zero-bid rounds, but a 4-player game allows at most 4",
        ),
        ([*THREE[:2], "CN"], "seat 2: expected a PlayerRecord, got 'CN'"),
        ("USEU", "records must be a sequence of PlayerRecord, got 'USEU'"),
        ("USEUCN", "records must be a sequence of PlayerRecord, got 'USEUCN'"),
        (THREE[:2], "en is played by 3, 4, 5 players; got 2 player records"),
        (
            [*THREE, record("JP", "MANUFACTURING"), record("UK", "GOVERNMENT"), THREE[0]],
            "en is played by 3, 4, 5 players; got 6 player records",
        ),
    ],
)
def test_bad_records_say_exactly_what_is_wrong(records, message):
    with pytest.raises(qe.InvalidArgument) as error:
        score_game("en", records)
    assert str(error.value) == message


@pytest.mark.kills_mutants
def test_held_twice_across_seats_even_when_each_seat_alone_is_fine():
    records = [*THREE[:2], record("CN", "AGRICULTURE", ["US-FIN-2", "US-FIN-2"])]
    with pytest.raises(qe.InvalidArgument, match="seat 2: US-FIN-2 is held twice"):
        score_game("en", records)


@pytest.mark.kills_mutants
def test_the_largest_zero_bid_count_is_allowed_and_one_more_is_not():
    four = [*THREE, record("JP", "MANUFACTURING")]
    four[1] = record("EU", "FINANCE", zero=4)
    assert score_game("en", four).sheets[1].zero_bids == 4 * EN.zero_bid_points
    four[1] = record("EU", "FINANCE", zero=5)
    with pytest.raises(qe.InvalidArgument, match="seat 1: 5 zero-bid rounds"):
        score_game("en", four)


@pytest.mark.kills_mutants
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("US", "HOUSING", [], -1),
            "spent must be a whole number (int) from 0 to 21000000 (qe_rules.limits), got -1",
        ),
        (("US", "HOUSING", [], 1.0), "spent must be a whole number (int) from 0 to 21000000 "),
        (("US", "HOUSING", [], True), "spent must be a whole number (int) from 0 to 21000000 "),
        (
            ("US", "HOUSING", [], 0, 65),
            "zero_bid_rounds must be a whole number (int) from 0 to 64 ",
        ),
        (
            ("US", "HOUSING", [], 0, -2),
            "zero_bid_rounds must be a whole number (int) from 0 to 64 (qe_rules.limits), got -2",
        ),
        (("FR", "HOUSING", [], 0), "unknown nation 'FR'; nations are US, EU, CN, JP, UK"),
        (("US", 3, [], 0), "an industry token must be an Industry or its name, got 3"),
        (("US", "HOUSING", "US-FIN-2", 0), "companies must be a list of tiles, got 'US-FIN-2'"),
        (("US", "HOUSING", 7, 0), "companies must be a list of tiles, got 7"),
        (("US", "HOUSING", [4], 0), "a company must be a Company or its code, got 4"),
        ((3, "HOUSING", [], 0), "a nation must be a Nation or its code, got 3"),
    ],
)
def test_bad_fields_say_what_is_allowed(args, message):
    with pytest.raises(qe.InvalidArgument) as error:
        PlayerRecord(*args)
    assert str(error.value).startswith(message)


@pytest.mark.kills_mutants
def test_the_largest_counts_are_allowed():
    assert PlayerRecord("US", "HOUSING", [], 21 * MAX_BID, 64).spent == 21_000_000


@pytest.mark.kills_mutants
def test_pieces_may_be_given_as_objects_or_codes():
    tiles = (qe.Company.parse("US-FIN-2"),)
    made = PlayerRecord(qe.Nation.US, qe.Industry.FINANCE, tiles, 1)
    assert made == PlayerRecord("US", "FIN", ["US-FIN-2"], 1)
    assert made.companies is tiles
    assert PlayerRecord("US", "FIN", [tiles[0]], 1).companies == tiles


# ----------------------------------------------------------------------- rule gaps


@pytest.mark.kills_mutants
def test_scoring_beyond_a_table_names_the_seat_the_count_and_the_table_end():
    records = [
        record("US", "AGRICULTURE", ["US-AGR-4", "CN-AGR-2", "JP-AGR-3", "EU-AGR-1"], 4),
        record("EU", "HOUSING", [], 9),
        record("CN", "FINANCE", [], 1),
    ]
    assert_only_gap(score_game("en", records), "monopolization", "5 Agriculture", 4)
    short = attrs.evolve(
        EN, id="short", nationalization={3: {1: 1, 2: 3}, 4: {1: 1, 2: 3}, 5: {1: 1, 2: 3}}
    )
    records = [
        record("US", "HOUSING", ["US-FIN-2", "US-HOU-1", "US-MAN-3"], 4),
        record("EU", "FINANCE", [], 9),
        record("CN", "AGRICULTURE", [], 1),
    ]
    result = score_game(short, records)
    assert_only_gap(result, "nationalization", "3", 2)
    assert result.sheets[0].nationalization == 3  # capped: the table's last entry
    zero = attrs.evolve(short, id="short-zero", beyond_table=qe.BeyondTable.ZERO)
    assert score_game(zero, records).sheets[0].nationalization == 0


def assert_only_gap(result, category, reached, top):
    message = f"seat 0 reaches {reached} in {category}, but the table stops at {top}"
    assert result.gaps == (Gap(f"{category}-beyond-table", message, (0,)),)


@pytest.mark.kills_mutants
def test_diversification_beyond_its_table():
    short = attrs.evolve(
        EN, id="short", diversification={3: {3: 4, 4: 8}, 4: {3: 4, 4: 8}, 5: {3: 8, 4: 12}}
    )
    records = [
        record("US", "GOVERNMENT", ["US-FIN-2", "EU-HOU-2", "JP-MAN-2", "CN-AGR-2"], 4),
        record("EU", "FINANCE", [], 9),
        record("CN", "AGRICULTURE", [], 1),
        record("JP", "MANUFACTURING", [], 3),
        record("UK", "HOUSING", [], 2),
    ]
    result = score_game(short, records)
    assert_only_gap(result, "diversification", "5", 4)
    assert result.sheets[0].diversification == 12


# ----------------------------------------------------------------------- diversification

COUNTS = (2, 2, 1, 1, 1)  # tiles (and the token) by industry


@pytest.mark.kills_mutants
def test_diversification_under_each_reading():
    # en, 5 players: 3 -> 8, 4 -> 12, 5 -> 17 points
    assert diversification_points(EN, 5, COUNTS) == 20  # {5} + {2} is 17 + 0; {3} + {4} is 20
    largest = qe.get_ruleset("en:diversification_sets=largest-first")
    assert diversification_points(largest, 5, COUNTS) == 17
    every = qe.get_ruleset("en:tiles_once_per_category=false")
    assert diversification_points(every, 5, COUNTS) == 4 * 17
    for rules in (EN, largest, every):
        assert diversification_points(rules, 5, (0, 0, 0, 0, 0)) == 0
        assert diversification_points(rules, 5, ()) == 0
        assert diversification_points(rules, 5, (1, 1, 1, 0, 0)) == 8
    assert diversification_points(EN, 5, (3, 3, 3, 0, 0)) == 24
    assert diversification_points(largest, 5, (3, 3, 3, 0, 0)) == 24
    assert diversification_points(every, 5, (3, 3, 3, 0, 0)) == 27 * 8
    assert diversification_points(EN, 5, (2, 1, 1, 0, 0)) == 8


@pytest.mark.kills_mutants
@given(st.lists(st.integers(0, 3), min_size=5, max_size=5))
@examples(40)
def test_the_best_partition_is_never_below_the_hand_method(counts):
    largest = qe.get_ruleset("en:diversification_sets=largest-first")
    best = diversification_points(EN, 5, counts)
    by_hand = diversification_points(largest, 5, counts)
    assert best >= by_hand
    assert best == diversification_points(EN, 5, sorted(counts))
    present = [c for c in counts if c > 0]
    if len(set(present)) <= 1:  # a rectangle: every reading takes the full sets
        assert best == by_hand


# ----------------------------------------------------------------------- spend


SPENDS = (5, 9, 9, 1)  # seats 1 and 2 tie for the highest spend; seat 3 spends least


def spend_records(spends=SPENDS):
    pieces = [("US", "HOU"), ("EU", "FIN"), ("CN", "AGR"), ("JP", "MAN")]
    return [record(n, i, [], s) for (n, i), s in zip(pieces, spends, strict=True)]


@pytest.mark.kills_mutants
def test_tied_highest_spenders_are_all_out_or_all_in():
    out = score_game(EN, spend_records())  # en: every tied highest spender is out
    assert [s.eliminated for s in out.sheets] == [False, True, True, False]
    spared = attrs.evolve(EN, id="spared", eliminate_all_tied_highest=False)
    assert [s.eliminated for s in score_game(spared, spend_records()).sheets] == [False] * 4
    alone = score_game(spared, spend_records((5, 9, 8, 1)))
    assert [s.eliminated for s in alone.sheets] == [False, True, False, False]
    nobody = attrs.evolve(EN, id="nobody-out", eliminate_highest_spender=False)
    assert [s.eliminated for s in score_game(nobody, spend_records((5, 9, 8, 1))).sheets] == [
        False
    ] * 4


@pytest.mark.kills_mutants
def test_the_lowest_spend_bonus_goes_to_one_or_to_every_tied_seat():
    bonus = EN.lowest_spend_bonus[4]
    result = score_game(EN, spend_records())
    assert [s.lowest_spend_bonus for s in result.sheets] == [0, 0, 0, bonus]
    tied = spend_records((1, 9, 8, 1))
    assert [s.lowest_spend_bonus for s in score_game(EN, tied).sheets] == [bonus, 0, 0, bonus]
    alone = attrs.evolve(EN, id="alone", lowest_spend_bonus_to_all_tied=False)
    assert [s.lowest_spend_bonus for s in score_game(alone, tied).sheets] == [0] * 4
    assert [s.lowest_spend_bonus for s in score_game(alone, spend_records()).sheets] == [
        0,
        0,
        0,
        bonus,
    ]


@pytest.mark.kills_mutants
def test_the_best_total_of_the_seats_left_in_wins():
    # seat 1 has the most points but spends most; seat 0 has the most of the others
    records = [
        record("US", "HOUSING", ["EU-FIN-3"], 2),
        record("EU", "FINANCE", ["CN-HOU-3", "US-MAN-3", "JP-AGR-3"], 9),
        record("CN", "AGRICULTURE", [], 5),
    ]
    result = score_game(EN, records)
    assert result.sheets[1].total > result.sheets[0].total > result.sheets[2].total
    assert result.winners == (0,) and result.winner == 0 and result.gaps == ()


# ----------------------------------------------------------------------- table ends


@pytest.mark.kills_mutants
def test_reaching_the_last_entry_of_a_table_is_no_gap():
    # en, 3 players: the nationalization and monopolization tables end at 4
    records = [
        record("US", "AGRICULTURE", ["US-AGR-4", "CN-AGR-2", "JP-AGR-3"], 4),
        record("EU", "HOUSING", ["EU-FIN-3", "EU-HOU-2", "EU-MAN-4", "EU-AGR-1"], 9),
        record("CN", "FINANCE", [], 1),
    ]
    result = score_game(EN, records)
    assert result.gaps == ()
    assert result.sheets[0].monopolization == 10  # 3 tiles and the token
    assert result.sheets[1].nationalization == EN.nationalization[3][4]


@pytest.mark.kills_mutants
def test_the_last_entry_of_a_table_scores_under_either_policy():
    records = [
        record("US", "AGRICULTURE", ["US-AGR-4", "CN-AGR-2", "JP-AGR-3"], 4),
        record("EU", "HOUSING", ["EU-FIN-3", "EU-HOU-2", "EU-MAN-4", "EU-AGR-1"], 9),
        record("CN", "FINANCE", [], 1),
    ]
    zero = attrs.evolve(EN, id="zero", beyond_table=qe.BeyondTable.ZERO)
    sheets = score_game(zero, records).sheets
    assert sheets[0].monopolization == EN.monopolization[3][4] == 10
    assert sheets[1].nationalization == EN.nationalization[3][4]


@pytest.mark.kills_mutants
@given(qst.scoring_inputs())
@examples(20)
def test_the_engine_path_scores_as_score_game(case):
    rules, records = case
    by_seat = score_holdings(
        rules,
        [r.nation for r in records],
        [r.industry for r in records],
        [r.companies for r in records],
        [r.spent for r in records],
        [r.zero_bid_rounds for r in records],
    )
    assert by_seat == score_game(rules, records)


@pytest.mark.kills_mutants
def test_a_built_in_rule_set_orders_the_board_its_own_way():
    # en-early scores spending first (en-early §Final Scoring)
    result = score_game("en-early", example_records())
    labels = [line.split("  ")[0] for line in result.score_board().splitlines()[3:7]]
    assert labels == ["nation", "spent", "lowest-spend bonus", "out (highest spend)"]


@pytest.mark.kills_mutants
@pytest.mark.parametrize(
    ("read", "data", "message"),
    [
        (GameResult.from_dict, 5, "result must be an object, got 5"),
        (GameResult.from_dict, {"ruleset": "en", "sheets": [], "winners": []}, "result lacks gaps"),
        (
            GameResult.from_dict,
            {"ruleset": "en", "sheets": [{"seat": 0}], "winners": [], "gaps": []},
            "result.sheets[0] lacks nation, companies, zero_bids, nationalization, "
            "monopolization, diversification, subtotal, lowest_spend_bonus, total, spent, "
            "eliminated",
        ),
        (
            GameResult.from_dict,
            {"ruleset": "en", "sheets": [], "winners": [], "gaps": [{"code": "x"}]},
            "result.gaps[0] lacks message, seats",
        ),
        (Gap.from_dict, {}, "gap lacks code, message, seats"),
        (ScoreSheet.from_dict, 5, "sheet must be an object, got 5"),
    ],
)
def test_a_bad_dict_is_named_by_where_it_is(read, data, message):
    with pytest.raises(qe.InvalidArgument) as error:
        read(data)
    assert str(error.value) == message


@pytest.mark.kills_mutants
def test_records_may_come_as_any_sequence():
    records = example_records()
    assert score_game("en", tuple(records)) == score_game("en", records)


@pytest.mark.kills_mutants
def test_a_set_beyond_a_short_diversification_table_scores_its_last_entry_by_hand():
    # largest-first takes all five industries as one set: the table stops at 4 (12 points)
    short = attrs.evolve(
        qe.get_ruleset("en:diversification_sets=largest-first"),
        id="short-largest",
        diversification={3: {3: 4, 4: 8}, 4: {3: 4, 4: 8}, 5: {3: 8, 4: 12}},
    )
    assert diversification_points(short, 5, (1, 1, 1, 1, 1)) == 12
    zero = attrs.evolve(short, id="short-largest-zero", beyond_table=qe.BeyondTable.ZERO)
    assert diversification_points(zero, 5, (1, 1, 1, 1, 1)) == 0


def test_a_sheets_company_points_keep_their_plain_data_key_and_old_name():
    sheet = score_game("en", example_records()).sheets[0]
    assert sheet.company_points == 13
    assert sheet.to_dict()["companies"] == 13 and "company_points" not in sheet.to_dict()
    assert repr(sheet).startswith(
        "ScoreSheet(seat=0, nation=<Nation.US: 'US'>, companies=13, zero_bids=6, "
    )
    assert repr(sheet).endswith("total=45, spent=20, eliminated=False)")
    with pytest.warns(DeprecationWarning, match="ScoreSheet.companies is deprecated"):
        assert sheet.companies == 13
    with pytest.raises(AttributeError):
        sheet.companies = 1  # type: ignore[misc]


def test_a_result_as_text_is_its_score_board():
    result = qe.score_game("en", example_records())
    assert str(result) == result.to_text() == result.score_board()


@given(
    st.dictionaries(st.integers(1, 6), st.integers(0, 10**6), min_size=1, max_size=6),
    st.integers(0, 22),
)
def test_a_continued_table_never_scores_less_past_its_end(table, size):
    # A table whose last step does not rise has no pattern of growing steps: it is capped
    # (a decreasing table once scored negative points past its end).
    from qe_rules.game._tables import points_by_count

    points = points_by_count(table, size, qe.BeyondTable.CONTINUE_PATTERN)
    top = max(table)
    beyond = points[top + 1 :]
    assert all(p >= table[top] for p in beyond)
    assert list(beyond) == sorted(beyond)
    rising = top - 1 in table and table[top] > table[top - 1]
    if not rising:
        assert set(beyond) <= {table[top]}
