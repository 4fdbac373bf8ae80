"""The verifier, pinned down where mutation testing found it loose: how a report reads,
what each check reports about a rule set (fields, player counts, examples), and which
checks a call runs.

The tests ask ``qe.verify`` for the checks they are about (``checks=[...]``) and few random
games, so that each stays fast; the sale search is tested by its findings, not by how it
walks the bids.
"""

import importlib

import attrs
import pytest
from test_verify_faults import FAULTS

import qe_rules as qe
from qe_rules import RULESETS, Verdict
from qe_rules.events import Awarded, NotAwarded, Tie, ZeroBids
from qe_rules.verify import Example, Finding, VerificationReport

verify_module = importlib.import_module("qe_rules.verify")  # qe_rules.verify is the function

EN = RULESETS["en"]
SHORT_GAME = Example(
    "game",
    {
        "players": 3,
        "first_auctioneer": 1,
        "moves": [{"seat": 1, "amount": 2}, {"seat": 0, "amount": 1}, {"kind": "peek"}],
    },
)
LONG_GAME = Example(
    "game", {"players": 4, "first_auctioneer": 0, "moves": [{"seat": 0, "amount": 1}] * 25}
)
SCORE_FILE = Example(
    "scoring",
    {
        "ruleset": "en",
        "players": [
            {"nation": "US", "industry": "AGRICULTURE", "companies": ["US-AGR-4", "EU-AGR-1"]}
        ],
    },
)
FINDINGS = (
    Finding("deck-size", Verdict.HOLDS, "fine", ("deck_sizes",), 3, example=SHORT_GAME),
    Finding(
        "table-coverage",
        Verdict.GAP,
        "a | b",
        ("monopolization",),
        4,
        "monopolization-beyond-table",
        True,
        SCORE_FILE,
    ),
    Finding("one-winner", Verdict.GAP, "nobody", (), 3, "everyone-eliminated", False, LONG_GAME),
    Finding("deck-size", Verdict.VIOLATED, "short", ("deck_sizes",), 5, example=SHORT_GAME),
    Finding("reading:x", Verdict.DIFFERS, "other", ("x",)),
)
REPORT = VerificationReport("custom", FINDINGS)


# ----------------------------------------------------------------------- reports


def test_a_report_sorts_its_findings_by_verdict():
    assert REPORT.gaps == FINDINGS[1:3]
    assert REPORT.new_gaps == (FINDINGS[2],)
    assert REPORT.violations == (FINDINGS[3],)
    assert not REPORT.ok
    assert not VerificationReport("x", FINDINGS[:3]).ok  # a new gap
    assert not VerificationReport("x", (FINDINGS[1], FINDINGS[3])).ok  # a violation
    assert VerificationReport("x", FINDINGS[:2] + FINDINGS[4:]).ok


def test_a_report_as_text():
    assert REPORT.to_text().splitlines() == [
        "Verification of custom: NOT OK: 5 findings, 2 gaps (1 acknowledged, 1 new), 1 violated",
        "  holds     deck-size       fine",
        "  gap       table-coverage  a | b [monopolization-beyond-table, acknowledged]",
        "                            example: seat 0 (US, token AGRICULTURE) holds US-AGR-4, "
        "EU-AGR-1",
        "  gap       one-winner      nobody [everyone-eliminated, NEW]",
        "                            example: a complete 4-player game of 25 moves (the game "
        "record is in the JSON report)",
        "  violated  deck-size       short",
        "                            example: 3 players, first auctioneer 1, bids (seat:amount) "
        "1:2 0:1",
        "  differs   reading:x       other",
    ]
    one = VerificationReport("x", FINDINGS[1:2])
    assert one.to_text().splitlines()[0] == (
        "Verification of x: OK: 1 findings, 1 gap (1 acknowledged, 0 new), 0 violated"
    )


def test_a_report_as_markdown():
    assert REPORT.to_markdown().splitlines() == [
        "## `custom`",
        "",
        "NOT OK: 5 findings, 2 gaps (1 acknowledged, 1 new), 1 violated.",
        "",
        "| check | players | verdict | finding | search |",
        "|---|---|---|---|---|",
        "| `deck-size` | 3 | holds | fine |  |",
        "| `table-coverage` | 4 | gap `monopolization-beyond-table` (acknowledged) | a \\| b"
        "<br>Example: seat 0 (US, token AGRICULTURE) holds US-AGR-4, EU-AGR-1 |  |",
        "| `one-winner` | 3 | gap `everyone-eliminated` (**new**) | nobody<br>Example: a "
        "complete 4-player game of 25 moves (the game record is in the JSON report) |  |",
        "| `deck-size` | 5 | violated | short<br>Example: 3 players, first auctioneer 1, bids "
        "(seat:amount) 1:2 0:1 |  |",
        "| `reading:x` |  | differs | other |  |",
    ]
    assert REPORT.to_markdown().endswith(" |\n")


def test_a_report_as_a_dict():
    data = REPORT.to_dict()
    assert data["ruleset"] == "custom" and data["ok"] is False
    assert data["findings"][1] == {
        "check": "table-coverage",
        "verdict": "gap",
        "summary": "a | b",
        "fields": ["monopolization"],
        "players": 4,
        "gap": "monopolization-beyond-table",
        "acknowledged": True,
        "example": {"kind": "scoring", "data": SCORE_FILE.data},
        "coverage": None,
    }
    assert data["findings"][4]["example"] is None
    assert data["findings"][4]["players"] is None


# ----------------------------------------------------------------------- which checks run


def test_only_the_named_checks_are_reported():
    report = qe.verify("en", checks=["deck-nations", "reading:peek_shows"])
    assert {f.check for f in report.findings} == {"deck-nations", "reading:peek_shows"}
    assert report.ruleset == "en"
    assert [f.players for f in report.findings if f.check == "deck-nations"] == [3, 4, 5]
    report = qe.verify("en", checks=["zero-bid-limit"], random_games=2)
    assert {f.check for f in report.findings} == {"zero-bid-limit"}
    assert qe.verify("en", checks=[]).findings == ()


def test_the_check_names_in_order():
    names = verify_module.check_names()
    assert names[:9] == (
        "deck-size",
        "deck-nations",
        "deck-industries",
        "table-coverage",
        "sale-outcomes",
        "last-tile",
        "one-winner",
        "zero-bid-limit",
        "score-sums",
    )
    assert names[9:] == tuple(f"reading:{q.field}" for q in qe.open_questions())


# ----------------------------------------------------------------------- static checks


def static(rules):
    checks = ["deck-size", "deck-nations", "deck-industries", "table-coverage"]
    return qe.verify(rules, checks=checks).findings


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


def test_a_deck_that_contradicts_its_stated_size():
    rules = attrs.evolve(EN, id="wrong-size", deck_sizes={3: 16, 4: 17, 5: 15})
    (finding,) = [f for f in static(rules) if f.verdict is Verdict.VIOLATED]
    assert (finding.check, finding.players) == ("deck-size", 4)
    assert "leave 16 tiles" in finding.summary and "states 17" in finding.summary
    assert finding.fields == ("removed_companies", "deck_sizes")


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


def score_example(finding, rules=EN):
    data = finding.example.data
    assert data["ruleset"] == rules.id
    records = [qe.PlayerRecord.from_dict(p) for p in data["players"]]
    return records, qe.score_game(rules, records)


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


# ----------------------------------------------------------------------- games


def test_one_winner_finds_both_gaps_of_en_with_games_that_show_them():
    findings = qe.verify(EN, checks=["one-winner"]).findings
    assert [(f.gap, f.players, f.fields) for f in findings] == [
        ("everyone-eliminated", 3, ("eliminate_highest_spender", "eliminate_all_tied_highest")),
        ("tie-after-tiebreak", 3, ("final_tiebreak",)),
    ]
    for finding in findings:
        game = qe.replay(finding.example.data)
        assert game.is_over
        assert finding.gap in {g.code for g in game.result().gaps}
    spared = attrs.evolve(EN, id="spared", eliminate_all_tied_highest=False)
    findings = qe.verify(spared, checks=["one-winner"]).findings
    assert [(f.check, f.verdict, f.players) for f in findings] == [
        ("one-winner", Verdict.HOLDS, None),
        ("one-winner", Verdict.GAP, 3),
    ]
    assert "everyone-eliminated" in findings[0].summary


def test_the_property_checks_say_how_many_games_they_played():
    findings = qe.verify(EN, checks=["zero-bid-limit", "score-sums"], random_games=3).findings
    assert [(f.check, f.players, f.verdict) for f in findings] == [
        (check, players, Verdict.HOLDS)
        for players in (3, 4, 5)
        for check in ("zero-bid-limit", "score-sums")
    ]
    assert all("in 3 random games" in f.summary for f in findings)
    assert "never scored" in findings[0].summary  # en: no zero-bid points with 3 players
    assert "more than 2 zero-bid points in a round" in findings[2].summary
    assert findings[0].fields == (
        "zero_bid_points",
        "zero_bid_limit_per_round",
        "zero_bid_player_counts",
    )
    assert findings[1].fields == ("scoring_order",)
    unlimited = attrs.evolve(EN, id="unlimited", zero_bid_limit_per_round=0)
    findings = qe.verify(unlimited, checks=["zero-bid-limit"], random_games=2).findings
    assert "one zero bid per sale" in findings[1].summary


def test_random_games_without_a_fallback_still_end_or_are_left_out():
    rules = attrs.evolve(EN, id="no-fallback", tie_fallback=qe.TieFallback.NONE)
    findings = qe.verify(rules, checks=["score-sums"], random_games=4).findings
    assert {f.verdict for f in findings} == {Verdict.HOLDS}
    played = [int(f.summary.split("in ")[1].split(" ")[0]) for f in findings]
    assert all(1 <= n <= 4 for n in played)


def test_a_reading_that_changes_a_sale_differs_with_an_example_that_replays():
    (finding,) = qe.verify(EN, checks=["reading:tie_fallback"]).findings
    assert finding.verdict is Verdict.DIFFERS
    assert finding.fields == ("tie_fallback",)
    assert finding.summary.startswith(f"{finding.players} players, tie_fallback=")
    game = qe.replay(finding.example.data)
    assert game.ruleset.tie_fallback is not EN.tie_fallback
    holds = qe.verify(EN, checks=["reading:peek_shows"]).findings
    assert [(f.verdict, f.players) for f in holds] == [(Verdict.HOLDS, None)] * len(holds)
    assert all("in 64 games per player count" in f.summary for f in holds)


def test_a_reading_that_only_changes_the_scores():
    (finding,) = qe.verify(EN, checks=["reading:diversification_sets"]).findings
    assert finding.verdict is Verdict.DIFFERS
    assert "the same sales, but the totals are" in finding.summary
    game = qe.replay(finding.example.data)
    assert game.is_over


def told(game, sale):
    """How a reading finding tells the outcome of ``sale`` in ``game``."""
    text = None
    for event in game.events:
        if getattr(event, "sale", None) != sale:
            continue
        if isinstance(event, Awarded):
            text = f"seat {event.seat} wins for {event.amount}"
        elif isinstance(event, NotAwarded):
            text = f"nobody gets the tile ({event.reason})"
        elif isinstance(event, ZeroBids):
            text += f", zero bids scored by {list(event.scoring) or 'nobody'}"
    return text


@pytest.mark.parametrize(
    "field", ["tie_fallback", "zero_rebid_scores", "last_tile_tie_awards_nothing"]
)
def test_a_differing_sale_is_told_as_the_example_plays_it(field):
    (finding,) = qe.verify(EN, checks=[f"reading:{field}"]).findings
    assert finding.verdict is Verdict.DIFFERS
    head, _, theirs = finding.summary.partition("; under the other reading ")
    sale = int(head.split(": sale ")[1].split(":")[0])
    game = qe.replay(finding.example.data)
    assert theirs == told(game, sale)
    assert head.split(f"sale {sale}: ")[1] != theirs
    # the example stops where that sale ends
    ends = [e for e in game.events if isinstance(e, Awarded | NotAwarded)]
    assert ends[-1].sale == sale
    assert game.is_over or len(ends) == sale + 1


def test_differing_scores_and_winners_are_those_of_the_example():
    (totals,) = qe.verify(EN, checks=["reading:diversification_sets"]).findings
    result = qe.replay(totals.example.data).result()
    assert totals.summary.endswith(f"under the other reading {[s.total for s in result.sheets]}")
    (winners,) = qe.verify(EN, checks=["reading:final_tiebreak"]).findings
    result = qe.replay(winners.example.data).result()
    assert "the same sales, but the winners are" in winners.summary
    assert winners.summary.endswith(f"under the other reading {list(result.winners)}")


@pytest.mark.parametrize("check", ["score-sums", "zero-bid-limit", "sale-outcomes"])
def test_a_violation_and_its_example_are_the_same_on_every_run(check, monkeypatch):
    (fault, *_) = [f for f in FAULTS if f.check == check]
    rules = fault.plant(monkeypatch)
    first = qe.verify(rules, random_games=3, checks=[check])
    assert first.violations
    assert qe.verify(rules, random_games=3, checks=[check]) == first


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
    (finding,) = [f for f in static(rules) if f.gap == "diversification-beyond-table"]
    assert finding.players == 3
    assert "hold 4 distinct industries" in finding.summary
    records, result = score_example(finding, rules)
    assert records[0].industry is qe.Industry.HOUSING
    assert "diversification-beyond-table" in {g.code for g in result.gaps}


# ----------------------------------------------------------------------- sales


def test_under_the_same_players_streak_every_sale_of_en_still_ends():
    findings = qe.verify("en:tie_streak=same-players", checks=["sale-outcomes"]).findings
    assert [(f.verdict, f.players) for f in findings] == [(Verdict.HOLDS, n) for n in (3, 4, 5)]


def test_the_sale_search_of_en_holds_without_being_cut():
    findings = qe.verify(EN, checks=["sale-outcomes", "last-tile"]).findings
    sales = [f for f in findings if f.check == "sale-outcomes"]
    assert [(f.verdict, f.players) for f in sales] == [(Verdict.HOLDS, n) for n in (3, 4, 5)]
    assert all("cut" not in f.summary for f in sales)
    (last,) = [f for f in findings if f.check == "last-tile"]
    assert (last.verdict, last.players) == (Verdict.HOLDS, 3)
    assert last.fields == ("last_tile_without_auctioneer", "last_tile_tie_awards_nothing")
    game = qe.replay(last.example.data)
    assert game.is_over and game.events[-2].reason == "last-tile-tie"


def test_endless_ties_come_with_a_game_still_rebidding():
    rules = attrs.evolve(EN, id="no-fallback", tie_fallback=qe.TieFallback.NONE)
    findings = qe.verify(rules, checks=["sale-outcomes"]).findings
    assert [(f.gap, f.players, f.acknowledged) for f in findings] == [
        ("endless-ties", n, False) for n in (3, 4, 5)
    ]
    for finding in findings:
        game = qe.replay(finding.example.data)
        assert game.players == finding.players
        assert not game.is_over and game.phase is qe.Phase.REBIDDING
        ties = sum(1 for e in game.events if isinstance(e, Tie))
        assert ties > EN.ties_before_fallback


def test_the_simplest_game_shows_that_everyone_can_be_eliminated():
    (finding, _) = qe.verify(EN, checks=["one-winner"]).findings
    game = qe.replay(finding.example.data)
    assert {r.spent for r in game.records()} == {5}
    awards = [e for e in game.events if isinstance(e, Awarded)]
    assert [e.seat for e in awards] == [sale % 3 for sale in range(len(awards))]


def test_sales_without_a_unique_bid_under_the_unique_bid_fallback():
    # en-early's rules (a secret bid may equal the opening bid, so the auctioneer can tie
    # and rebid), with the fallback after two ties to keep the search small
    rules = attrs.evolve(RULESETS["en-early"], id="early-2", ties_before_fallback=2)
    findings = qe.verify(rules, checks=["sale-outcomes"]).findings
    gaps = [f for f in findings if f.verdict is Verdict.GAP]
    assert [(f.gap, f.players, f.acknowledged) for f in gaps] == [
        ("no-unique-bid", n, True) for n in (3, 4, 5)
    ]
    for finding in gaps:
        game = qe.replay(finding.example.data)
        assert "no-unique-bid" in {g.code for g in game.gaps}


def test_the_page_of_reports_holds_each_report():
    page = verify_module.verification_markdown([REPORT, VerificationReport("x", FINDINGS[:1])])
    assert page.startswith("# Verification of the built-in rule sets\n")
    assert REPORT.to_markdown() in page
    assert page.endswith("| `deck-size` | 3 | holds | fine |  |\n")


@pytest.mark.parametrize(
    ("check", "players", "fields"),
    [
        ("last-tile", [3], ("last_tile_without_auctioneer", "last_tile_tie_awards_nothing")),
        ("score-sums", [3, 4, 5], ("scoring_order",)),
    ],
)
def test_a_violation_names_its_player_count_and_fields(check, players, fields, monkeypatch):
    (fault, *_) = [f for f in FAULTS if f.check == check]
    report = qe.verify(fault.plant(monkeypatch), random_games=3, checks=[check])
    assert [f.players for f in report.violations] == players
    assert {f.fields for f in report.violations} == {fields}


def test_a_sale_search_states_its_thresholds_and_first_bids():
    report = qe.verify(EN, checks=["sale-outcomes", "last-tile"])
    by_players = {(f.check, f.players): f.coverage for f in report.findings}
    thresholds = sorted({0, EN.min_opening_bid, EN.min_secret_bid})
    for coverage in by_players.values():
        assert coverage.exhaustive is True
        assert f"thresholds {', '.join(map(str, thresholds))})" in coverage.bounds
    firsts = {key: c.bounds.rsplit("; ", 1)[1] for key, c in by_players.items()}
    assert firsts == {
        ("sale-outcomes", 3): "16 order types of the first bids",
        ("last-tile", 3): "15 order types of the first bids",
        ("sale-outcomes", 4): "40 order types of the first bids",
        ("sale-outcomes", 5): "96 order types of the first bids",
    }


def test_the_search_table_counts_paths_and_says_whether_each_search_ended(monkeypatch):
    whole = verify_module.verification_markdown(
        [qe.verify(EN, checks=["sale-outcomes", "last-tile"])]
    )
    rows = [line for line in whole.splitlines() if line.startswith("| `en` |")]
    assert rows == [
        "| `en` | 3 | 48 | 15 | yes |",
        "| `en` | 4 | 120 |  | yes |",
        "| `en` | 5 | 288 |  | yes |",
    ]
    monkeypatch.setattr(verify_module, "SALE_SEARCH_PATHS", 50)
    report = qe.verify("en-early", checks=["sale-outcomes"])
    assert all(f.coverage.exhaustive is False for f in report.findings)
    cut = verify_module.verification_markdown([report])
    rows = [line for line in cut.splitlines() if line.startswith("| `en-early` |")]
    assert rows and all(row.endswith("| no |") for row in rows)
