"""The static checks: the deck of every player count (``deck-size``, ``deck-nations``,
``deck-industries``) and the reach of every scoring table (``table-coverage``), with score
files that show each table gap."""

import attrs
import pytest

import qe_rules as qe
from qe_rules import RULESETS, Verdict

EN = RULESETS["en"]


def static(rules):
    checks = ["deck-size", "deck-nations", "deck-industries", "table-coverage"]
    return qe.verify(rules, checks=checks).findings


def score_example(finding, rules=EN):
    data = finding.example.data
    assert data["ruleset"] == rules.id
    records = [qe.PlayerRecord.from_dict(p) for p in data["players"]]
    return records, qe.score_game(rules, records)


def gap_shown(rules, code, words):
    """The ``code`` gaps of ``rules``: the first is at 3 players, says ``words``, and its
    score file gives seat 0 the Housing token and shows the gap."""
    found = [f for f in static(rules) if f.gap == code]
    finding = found[0]
    assert finding.players == 3
    assert words in finding.summary
    records, result = score_example(finding, rules)
    assert records[0].industry is qe.Industry.HOUSING
    assert code in {g.code for g in result.gaps}
    return found


def without(rules, players, *codes, **more):
    """``rules`` without the tiles ``codes`` at ``players`` players."""
    gone = [c for c in qe.COMPANIES if f"{c.nation.code}-{c.industry.value}" in codes]
    removed = (*rules.removed_companies[players], *gone)
    size = rules.deck_sizes[players] - len(gone)
    return attrs.evolve(
        rules,
        id=f"without-{'-'.join(codes)}",
        removed_companies={**rules.removed_companies, players: removed},
        deck_sizes={**rules.deck_sizes, players: size},
        **more,
    )


@pytest.mark.kills_mutants
def test_the_static_checks_of_en():
    findings = static(EN)
    assert [(f.check, f.players, f.verdict, f.gap) for f in findings] == [
        (check, players, verdict, gap)
        for players in (3, 4, 5)
        for check, verdict, gap in [
            ("deck-size", Verdict.HOLDS, None),
            ("deck-nations", Verdict.HOLDS, None),
            ("deck-industries", Verdict.HOLDS, None),
            ("table-coverage", Verdict.HOLDS, None),
            (
                "table-coverage",
                Verdict.GAP if players < 5 else Verdict.HOLDS,
                "monopolization-beyond-table" if players < 5 else None,
            ),
            ("table-coverage", Verdict.HOLDS, None),
        ]
    ]
    by_check = {(f.check, f.players): f for f in findings}
    assert by_check["deck-size", 5].fields == ("removed_companies", "deck_sizes")
    assert by_check["deck-nations", 5].fields == ("removed_companies", "nations_in_play")
    assert by_check["deck-industries", 5].fields == ("removed_companies", "industries_in_play")
    assert "15 tiles" in by_check["deck-size", 5].summary
    coverage = [f for f in findings if f.check == "table-coverage" and f.players == 5]
    assert [f.fields for f in coverage] == [
        ("nationalization",),
        ("monopolization", "token_categories"),
        ("diversification", "token_categories"),
    ]
    assert "up to 3 tiles of one nation" in coverage[0].summary
    assert "up to 4 of one industry" in coverage[1].summary
    assert "up to 5 industries" in coverage[2].summary
    assert all(f.example is None for f in findings if f.verdict is Verdict.HOLDS)


@pytest.mark.kills_mutants
def test_a_deck_that_contradicts_its_stated_size():
    rules = attrs.evolve(EN, id="wrong-size", deck_sizes={3: 16, 4: 17, 5: 15})
    (finding,) = [f for f in static(rules) if f.verdict is Verdict.VIOLATED]
    assert (finding.check, finding.players) == ("deck-size", 4)
    assert "leave 16 tiles" in finding.summary and "states 17" in finding.summary
    assert finding.fields == ("removed_companies", "deck_sizes")


@pytest.mark.kills_mutants
def test_a_deck_with_tiles_of_pieces_nobody_plays():
    rules = attrs.evolve(
        EN, id="five-deck", removed_companies={**EN.removed_companies, 3: EN.removed_companies[5]}
    )
    violated = [f for f in static(rules) if f.verdict is Verdict.VIOLATED]
    assert [(f.check, f.players) for f in violated] == [
        ("deck-size", 3),
        ("deck-nations", 3),
        ("deck-industries", 3),
    ]
    assert "tiles of UK, a nation" in violated[1].summary
    assert violated[1].fields == ("removed_companies", "nations_in_play")
    assert "holds Government tiles" in violated[2].summary
    assert violated[2].fields == ("removed_companies", "industries_in_play")


@pytest.mark.kills_mutants
def test_a_coverage_gap_comes_with_a_score_file_that_meets_it():
    (finding, *_) = [f for f in static(EN) if f.verdict is Verdict.GAP]
    assert finding.acknowledged
    assert finding.fields == ("monopolization", "token_categories", "beyond_table")
    assert "5 of one industry (Agriculture: 4 tiles and the token)" in finding.summary
    assert "stops at 4" in finding.summary
    records, result = score_example(finding)
    assert len(records) == 3
    first = records[0]
    assert first.industry is qe.Industry.AGRICULTURE
    assert {c.industry for c in first.companies} == {qe.Industry.AGRICULTURE}
    assert len(first.companies) == 4 and first.nation is first.companies[0].nation
    assert [r.spent for r in records] == [1, 3, 2]
    assert all(not r.companies for r in records[1:])
    assert [g.code for g in result.gaps] == ["monopolization-beyond-table"]


@pytest.mark.kills_mutants
def test_a_token_outside_monopolization_is_not_counted_in_its_reach():
    rules = attrs.evolve(
        EN,
        id="no-token",
        token_categories=frozenset(EN.token_categories) - {qe.Category.MONOPOLIZATION},
    )
    gaps = [f for f in static(rules) if f.verdict is Verdict.GAP]
    assert gaps == []
    short = attrs.evolve(rules, id="short", monopolization={n: {1: 1, 2: 3} for n in (3, 4, 5)})
    gaps = [f for f in static(short) if f.gap == "monopolization-beyond-table"]
    assert [f.players for f in gaps] == [3, 4, 5]
    assert "(Agriculture: 4 tiles), the monopolization table stops at 2" in gaps[0].summary
    for finding in gaps:
        _, result = score_example(finding, short)
        assert "monopolization-beyond-table" in {g.code for g in result.gaps}


@pytest.mark.kills_mutants
def test_a_short_nationalization_table_is_a_gap_with_an_example():
    rules = attrs.evolve(EN, id="short-nat", nationalization={**EN.nationalization, 4: {1: 1}})
    (finding,) = [f for f in static(rules) if f.gap == "nationalization-beyond-table"]
    assert finding.players == 4 and not finding.acknowledged
    assert finding.fields == ("nationalization", "beyond_table")
    assert "hold 4 tiles of their nation (US)" in finding.summary
    assert "stops at 1" in finding.summary
    records, result = score_example(finding, rules)
    assert len(records) == 4
    assert {c.nation for c in records[0].companies} == {records[0].nation}
    assert "nationalization-beyond-table" in {g.code for g in result.gaps}


@pytest.mark.kills_mutants
@pytest.mark.parametrize("token_counts", [True, False])
def test_a_short_diversification_table_is_a_gap_with_an_example(token_counts):
    categories = frozenset(EN.token_categories)
    if not token_counts:
        categories -= {qe.Category.DIVERSIFICATION}
    rules = attrs.evolve(
        EN,
        id="short-div",
        token_categories=categories,
        diversification={3: {3: 4}, 4: {3: 4}, 5: {3: 8, 4: 12}},
    )
    gaps = [f for f in static(rules) if f.gap == "diversification-beyond-table"]
    assert [f.players for f in gaps] == [3, 4, 5]
    assert gaps[2].fields == ("diversification", "token_categories", "beyond_table")
    assert "hold 5 distinct industries" in gaps[2].summary and "stops at 4" in gaps[2].summary
    for finding in gaps:
        records, result = score_example(finding, rules)
        first = records[0]
        assert len({c.industry for c in first.companies}) == len(first.companies)
        assert first.nation is first.companies[0].nation
        assert "diversification-beyond-table" in {g.code for g in result.gaps}


@pytest.mark.kills_mutants
def test_a_token_whose_industry_left_the_deck_still_counts_in_diversification():
    # 3 players without Housing tiles: three industries in the deck and the Housing token
    housing = [c for c in qe.COMPANIES if c.industry is qe.Industry.HOUSING]
    removed = (*EN.removed_companies[3], *(c for c in housing if c not in EN.removed_companies[3]))
    rules = attrs.evolve(
        EN,
        id="no-housing",
        removed_companies={**EN.removed_companies, 3: removed},
        deck_sizes={**EN.deck_sizes, 3: 16 - 4},
        diversification={**EN.diversification, 3: {3: 4}},
    )
    assert len(gap_shown(rules, "diversification-beyond-table", "hold 4 distinct industries")) == 1


@pytest.mark.kills_mutants
def test_a_monopolization_example_holds_the_token_that_reaches_beyond_the_table():
    # without US Agriculture, Housing (4 tiles and its token) reaches furthest, not the
    # first token in play
    rules = without(EN, 3, "US-AGR")
    gap_shown(rules, "monopolization-beyond-table", "(Housing: 4 tiles and the token)")


@pytest.mark.kills_mutants
def test_a_token_outside_diversification_adds_no_industry_to_its_reach():
    # without Housing tiles and without the token in diversification: three industries
    housing = [f"{n}-HOU" for n in ("US", "EU", "CN", "JP")]
    categories = frozenset(EN.token_categories) - {qe.Category.DIVERSIFICATION}
    rules = without(
        EN,
        3,
        *housing,
        token_categories=categories,
        diversification={**EN.diversification, 3: {3: 4}},
    )
    coverage = [f for f in static(rules) if f.players == 3 and "diversification" in f.fields]
    assert [(f.verdict, f.summary) for f in coverage] == [
        (Verdict.HOLDS, "3 players: diversification covers sets of up to 3 industries")
    ]


@pytest.mark.kills_mutants
@pytest.mark.parametrize(
    "changes",
    [
        {"nationalization": {**EN.nationalization, 4: {1: 1}}},
        {"diversification": {3: {3: 4}, 4: {3: 4}, 5: {3: 8, 4: 12}}},
        {},
    ],
    ids=["nationalization", "diversification", "monopolization"],
)
def test_the_player_who_shows_a_table_gap_spends_least(changes):
    rules = attrs.evolve(EN, id="short-table", **changes)
    gaps = [f for f in static(rules) if f.verdict is Verdict.GAP]
    assert gaps
    for finding in gaps:
        records, _ = score_example(finding, rules)
        assert [r.spent for r in records] == [1, 3] + [2] * (finding.players - 2)
