"""The verifier, pinned down where mutation testing found it loose: how a report reads,
what each check reports about a rule set (fields, player counts, examples), and which
checks a call runs.

The tests ask ``qe.verify`` for the checks they are about (``checks=[...]``) and few random
games, so that each stays fast; the sale search is tested by its findings, not by how it
walks the bids.
"""

import importlib
from types import SimpleNamespace

import attrs
import pytest

import qe_rules as qe
from qe_rules import RULESETS, Verdict
from qe_rules.game.events import Awarded, NotAwarded, PeekDeclined, Tie, ZeroBids
from qe_rules.game.sales import Award
from qe_rules.verification.checks import Example, Finding, VerificationReport
from tests.verification.test_verify_faults import FAULTS
from tests.verification.test_verify_search import brute_force_keys

verify_module = importlib.import_module(
    "qe_rules.verification.checks"
)  # qe_rules.verify is the function

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


# ----------------------------------------------------------------------- complete findings


def shows_its_check(finding, rules):
    """What every finding keeps: a coverage, the rule fields it is about, a player count
    where the check runs per player count, and an example of the kind it names."""
    assert isinstance(finding.coverage, qe.Coverage), finding
    assert finding.fields and set(finding.fields) <= set(attrs.fields_dict(qe.RuleSet)), finding
    if not finding.check.startswith("reading:") and finding.check != "one-winner":
        assert finding.players in rules.player_counts, finding
    if finding.example is None:
        return
    if finding.example.kind == "scoring":
        assert finding.example.data["ruleset"] == rules.id
    else:
        assert finding.example.kind == "game"
        assert qe.replay(finding.example.data).players == finding.players or (
            finding.players is None
        )


@pytest.mark.parametrize(
    "fault",
    [f for f in FAULTS if not f.check.startswith("reading:")],
    ids=lambda fault: f"{fault.check}: {fault.name}",
)
def test_a_planted_fault_is_reported_with_every_part_of_its_finding(fault, monkeypatch):
    rules = fault.plant(monkeypatch)
    report = qe.verify(rules, random_games=3, checks=[fault.check])
    for finding in report.findings:
        shows_its_check(finding, rules)
    fired = [f for f in report.findings if f.verdict is fault.verdict]
    assert fired
    if fault.check == "sale-outcomes":  # the summary ends with what broke, word for word
        assert all(f.summary.endswith(fault.words) for f in fired)
        assert all(f.example.kind == "game" for f in fired)
    if fault.check in ("zero-bid-limit", "score-sums", "one-winner"):
        assert all(f.example.kind == "game" for f in fired)


@pytest.mark.parametrize(
    "spec", ["en", "en:last_tile_tie_awards_nothing=false", "en:rebid_may_equal_opening=true"]
)
def test_the_sale_findings_of_a_rule_set_are_complete(spec):
    rules = qe.get_ruleset(spec)
    report = qe.verify(rules, checks=["sale-outcomes", "last-tile"])
    for finding in report.findings:
        shows_its_check(finding, rules)
        assert finding.coverage.exhaustive is True
    (last,) = [f for f in report.findings if f.check == "last-tile"]
    assert ", no auctioneer, " in last.coverage.bounds
    assert last.fields == ("last_tile_without_auctioneer", "last_tile_tie_awards_nothing")
    if rules.last_tile_tie_awards_nothing:
        assert last.example.kind == "game"
    else:
        assert "always finds an owner" in last.summary and last.example is None
    gaps = [f for f in report.findings if f.verdict is Verdict.GAP]
    if spec.endswith("rebid_may_equal_opening=true"):
        # a rebid may equal the opening bid: every standing bid can end up tied
        assert [(f.gap, f.players) for f in gaps] == [("no-untied-bid", n) for n in (3, 4, 5)]
        for finding in gaps:
            assert finding.example.kind == "game"
            game = qe.replay(finding.example.data)
            assert "no-untied-bid" in {g.code for g in game.gaps}
    else:
        assert gaps == []


def test_the_property_and_winner_findings_are_complete():
    report = qe.verify(EN, random_games=2, checks=["zero-bid-limit", "score-sums", "one-winner"])
    for finding in report.findings:
        shows_its_check(finding, EN)
        assert finding.coverage.exhaustive is False
    assert {f.example.kind for f in report.findings if f.example} == {"game"}


# ----------------------------------------------------------------------- coverage wording


def test_a_coverage_as_text():
    assert qe.Coverage(True, None, "b").text() == "exhaustive: b"
    assert qe.Coverage(True, 7, "b").text() == "exhaustive: 7 cases, b"
    assert qe.Coverage(False, 7, "b").text() == "sampled: 7 b"
    finding = Finding("one-winner", Verdict.HOLDS, "x", coverage=qe.Coverage(True, 2, "b"))
    lines = VerificationReport("r", (finding,)).to_text().splitlines()
    assert lines[1:] == ["  holds     one-winner  x", " " * 24 + "exhaustive: 2 cases, b"]


def test_a_game_of_24_moves_is_told_bid_by_bid():
    moves = [{"seat": seat % 3, "amount": 1} for seat in range(24)]
    example = Example("game", {"players": 3, "first_auctioneer": 0, "moves": moves})
    finding = Finding("one-winner", Verdict.GAP, "x", (), 3, "g", True, example)
    text = VerificationReport("r", (finding,)).to_text()
    assert "bids (seat:amount) 0:1 1:1 2:1 0:1" in text
    assert "a complete" not in text


def test_the_bounds_say_when_ties_can_go_on():
    en = qe.verify(EN, checks=["sale-outcomes"]).findings[0].coverage.bounds
    assert "up to 4 bidding rounds; " in en
    rules = attrs.evolve(EN, id="no-fallback", tie_fallback=qe.TieFallback.NONE)
    bounds = qe.verify(rules, checks=["sale-outcomes"]).findings[0].coverage.bounds
    assert (
        ", up to 6 bidding rounds (ties can go on: the ties before the fallback and two "
        "more); " in bounds
    )


def test_a_page_without_sale_findings_has_an_empty_search_table():
    finding = Finding(
        "deck-size", Verdict.HOLDS, "x", ("deck_sizes",), 3, coverage=qe.Coverage(True, None, "b")
    )
    page = verify_module.verification_markdown([VerificationReport("r", (finding,))])
    assert (
        "| rule set | players | sale paths | last-tile paths | exhaustive |\n|---|---|---|---|---|\n"
        "\n## `r`\n"
    ) in page


# ----------------------------------------------------------------------- thorough searches


def test_a_thorough_search_counts_the_first_bids_of_every_seat():
    report = qe.verify(EN, checks=["sale-outcomes"], thorough=True)
    firsts = [f.coverage.bounds.rsplit("; ", 1)[1] for f in report.findings]
    assert firsts == [f"{n} order types of the first bids" for n in (16 * 3, 40 * 4, 96 * 5)]


def test_a_thorough_search_has_its_own_bound_on_paths(monkeypatch):
    # a tie on the last tile is rebid here, so that its search can be cut too
    rules = qe.get_ruleset("en:last_tile_tie_awards_nothing=false")
    monkeypatch.setattr(verify_module, "SALE_SEARCH_PATHS", 10)
    quick = qe.verify(rules, checks=["sale-outcomes", "last-tile"])
    assert [f.coverage.exhaustive for f in quick.findings] == [False] * 4
    thorough = qe.verify(rules, checks=["sale-outcomes", "last-tile"], thorough=True)
    assert [f.coverage.exhaustive for f in thorough.findings] == [True] * 4


def test_a_fault_at_one_auctioneer_seat_is_shown_from_that_seat(monkeypatch):
    real = verify_module.settle

    def settle(rules, standing, **kwargs):
        out = real(rules, standing, **kwargs)
        if kwargs["auctioneer"] == 1 and isinstance(out, Award):
            return attrs.evolve(out, amount=out.amount + 1000)
        return out

    monkeypatch.setattr(verify_module, "settle", settle)
    assert not qe.verify(EN, checks=["sale-outcomes"]).violations  # seat 0 stands for all
    violations = qe.verify(EN, checks=["sale-outcomes"], thorough=True).violations
    assert {f.players for f in violations} == {3, 4, 5}
    for finding in violations:
        assert finding.summary.endswith(", an amount it never bid")
        data = finding.example.data
        assert data["first_auctioneer"] == 1
        game = qe.replay(data)
        assert game.moves()[0].seat == 1  # the auctioneer opens
        assert not game.is_over


# ----------------------------------------------------------------------- readings


def test_a_reading_that_sells_nothing_is_told_as_its_game_plays_it():
    rules = qe.get_ruleset("en:last_tile_tie_awards_nothing=false")
    (finding,) = qe.verify(rules, checks=["reading:last_tile_tie_awards_nothing"]).findings
    shows_its_check(finding, rules)
    assert finding.coverage.exhaustive is False
    head, _, theirs = finding.summary.partition("; under the other reading ")
    assert head.startswith("3 players, last_tile_tie_awards_nothing=true: sale 15: seat ")
    assert theirs == told(qe.replay(finding.example.data), 15)
    assert theirs == "nobody gets the tile (last-tile-tie)"


def test_zero_bids_that_score_for_nobody_are_told_so():
    spec = "en-early:zero_bid_winner_scores=true"
    (finding,) = qe.verify(spec, checks=["reading:zero_bid_winner_scores"]).findings
    head, _, theirs = finding.summary.partition("; under the other reading ")
    sale = int(head.split(": sale ")[1].split(":")[0])
    assert theirs == told(qe.replay(finding.example.data), sale)
    assert theirs.endswith(", zero bids scored by nobody")


def test_a_reading_is_named_by_its_value_whatever_the_rule_set_is_called():
    rules = attrs.evolve(EN, id="my tie_fallback=x")
    (finding,) = qe.verify(rules, checks=["reading:tie_fallback"]).findings
    assert finding.summary.startswith(
        f"{finding.players} players, tie_fallback=highest-unique-in-sale: sale "
    )


class SameDraws:
    """A stand-in for the verifier's seeded random streams: every draw is the same, so
    every seat bids its minimum plus one."""

    def __init__(self, seed):
        pass

    def randrange(self, stop):
        return 1

    def random(self):
        return 0.9


def played_rounds(monkeypatch):
    """Make every random bid the same, and keep each random bidding round: the game it
    started from and the game after it."""
    monkeypatch.setattr(verify_module, "random", SimpleNamespace(Random=SameDraws))
    rounds = []
    real = verify_module._random_round

    def random_round(game, rng, spread):
        after = real(game, rng, spread)
        rounds.append((game, after))
        return after

    monkeypatch.setattr(verify_module, "_random_round", random_round)
    return rounds


# the auctioneer opens at 1, every other seat must bid 2 (not the opening bid): they tie
ENDLESS = attrs.evolve(EN, id="endless", min_opening_bid=0, tie_fallback=qe.TieFallback.NONE)


def test_random_games_whose_ties_never_end_are_left_out_after_200_rounds(monkeypatch):
    rounds = played_rounds(monkeypatch)
    findings = qe.verify(ENDLESS, checks=["score-sums"], random_games=1).findings
    assert all("in 0 random games" in f.summary for f in findings)
    assert len(rounds) == 200 * 3
    for players, start in zip((3, 4, 5), range(0, 600, 200), strict=True):
        games = rounds[start : start + 200]
        assert {g.players for g, _ in games} == {players}
        assert not any(g.is_over for g, _ in games)
        last = games[-1][1]
        # one opening bid, then every other seat in each of 199 rounds, in the first sale
        assert len(last.moves()) == 1 + (players - 1) * 199 and last.sale == 0


def test_random_games_are_left_out_after_200_rounds_whatever_the_tie_fallback(monkeypatch):
    """A same-players tie streak has a fallback, yet other seats may keep breaking it:
    every rule set's random games stop after 200 rounds. Here no round ever ends."""
    calls = []

    def stuck(game, rng, spread):
        calls.append(game)
        assert len(calls) <= 200 * 3, "a random game went on past 200 rounds"
        return game

    monkeypatch.setattr(verify_module, "_random_round", stuck)
    rules = qe.get_ruleset("en-early:tie_streak=same-players")
    assert rules.tie_fallback is not qe.TieFallback.NONE
    findings = qe.verify(rules, checks=["score-sums"], random_games=1).findings
    assert all("in 0 random games" in f.summary for f in findings)
    assert len(calls) == 200 * len(rules.player_counts)


def test_a_scripted_game_ends_after_the_peek_window_of_the_last_sale():
    """Under peek_after_last_sale a window opens after the last sale; the scripted game
    declines it and ends, instead of being refused as unfinished."""
    rules = qe.get_ruleset("en:peek_after_last_sale=true")
    sales, price = rules.sales(5), verify_module._simple_price(rules)
    plan = [(sale % 5, price) for sale in range(sales)]  # each auctioneer wins: no window
    plan[-1] = ((sales - 1 + 1) % 5, price + 1)  # the last sale won by a bidder: secret
    game = verify_module._scripted_game(rules, 5, plan)
    assert game is not None and game.is_over
    assert {e.sale for e in game.events if isinstance(e, PeekDeclined)} == {sales - 1}


@pytest.mark.parametrize(
    ("spec", "field"),
    [("en-early", "zero_rebid_scores"), ("en-early", "zero_bids_score_when_unsold")],
)
def test_an_unsold_tile_whose_zero_bids_differ_is_told_so(spec, field):
    (finding,) = qe.verify(spec, checks=[f"reading:{field}"]).findings
    head, _, theirs = finding.summary.partition("; under the other reading ")
    sale = int(head.split(": sale ")[1].split(":")[0])
    mine = head.split(f"sale {sale}: ")[1]
    assert mine.startswith("nobody gets the tile") and theirs.startswith("nobody gets the tile")
    assert mine != theirs
    assert theirs == told(qe.replay(finding.example.data), sale)


def test_a_reading_whose_games_never_end_is_compared_up_to_400_rounds(monkeypatch):
    rounds = played_rounds(monkeypatch)
    (finding, _) = qe.verify(ENDLESS, checks=["reading:tie_fallback"]).findings
    assert finding.verdict is Verdict.DIFFERS and finding.players == 3
    stuck = [after for game, after in rounds if game.ruleset is ENDLESS]
    # the rule set's own game, once against each of the two other readings
    assert len(stuck) == 2 * 400
    assert len(stuck[399].moves()) == len(stuck[-1].moves()) == 1 + 2 * 399
    assert not any(game.is_over for game, _ in rounds)  # a finished game is not played on
    head, _, theirs = finding.summary.partition("; under the other reading ")
    assert head.startswith("3 players, tie_fallback=highest-untied: sale 0: ")
    # the rule set's own game has no outcome of sale 0: it was stopped, it did not end
    assert head.endswith(": sale 0: the game was stopped after 400 bidding rounds without an end")
    assert theirs == told(qe.replay(finding.example.data), 0) == "seat 0 wins for 1"


# ----------------------------------------------------------------------- amounts


def test_the_smallest_whole_amounts_may_reach_the_largest_bid():
    one, top = verify_module._SCALE, qe.limits.MAX_BID
    assert verify_module._integers([top * one], (0, top - 1)) == {
        0: 0,
        (top - 1) * one: top - 1,
        top * one: top,
    }
    assert verify_module._integers([top * one, (top + 3) * one], (0, top - 1)) is None


# ----------------------------------------------------------------------- the sale search


def with_thresholds(opening, secret=0):
    """``en`` with other minimums: thresholds with room for whole amounts between them."""
    return attrs.evolve(
        EN, id=f"opening-{opening}-secret-{secret}", min_opening_bid=opening, min_secret_bid=secret
    )


# The paths and first order types each search settled when it was written: a search that
# merges states it must keep apart, or keeps apart states that end alike, changes them.
# (en-early's are those docs/verification.md states.)
SEARCHES = {
    ("en-early", 3, 0): (876, 24),
    ("en-early", 3, None): (15, 15),
    ("en:tie_streak=same-players", 4, 0): (296, 40),
    ("en:tie_fallback=highest-unique-in-sale", 4, 0): (476, 40),
    ("en-early:tied_auctioneer=stands", 3, 0): (208, 24),
    ("en-early:tie_fallback=highest-untied", 3, 0): (272, 24),
    ("en-early:unique_bid_pool=standing-bids", 3, 0): (272, 24),
    ("en:last_tile_tie_awards_nothing=false", 3, None): (45, 15),
    ("opening 3", 3, 0): (78, 26),
    ("opening 3", 3, None): (31, 31),
    ("opening 3, secret 1", 3, 0): (72, 24),
    ("opening 3, secret 1", 3, None): (26, 26),
    ("no fallback", 4, 0): (240, 40),
    ("en-early, opening 2", 3, 0): (1118, 34),
    ("every seat rebids, opening 3", 3, 0): (446, 26),
    ("en-early, every seat rebids, 2 ties", 3, 0): (604, 24),
}
RULES = {
    "opening 3": with_thresholds(3),
    "opening 3, secret 1": with_thresholds(3, 1),
    "no fallback": attrs.evolve(EN, id="no-fallback", tie_fallback=qe.TieFallback.NONE),
    # the auctioneer, tied (a secret bid may equal the opening bid), rebids at 2 or more
    "en-early, opening 2": attrs.evolve(RULESETS["en-early"], id="early-2", min_opening_bid=2),
    # every seat rebids: amounts below the opening bid leave the standing bids
    "every seat rebids, opening 3": attrs.evolve(with_thresholds(3), rebidders=qe.RebidScope.ALL),
    "en-early, every seat rebids, 2 ties": attrs.evolve(
        RULESETS["en-early"], id="early-all", rebidders=qe.RebidScope.ALL, ties_before_fallback=2
    ),
}


@pytest.mark.parametrize(("spec", "players", "seat"), sorted(SEARCHES, key=str))
def test_each_search_settles_the_paths_it_settled_when_it_was_written(spec, players, seat):
    rules = RULES.get(spec) or qe.get_ruleset(spec)
    result = verify_module._search_sale(rules, players, seat)
    assert (result.paths, result.first_bids) == SEARCHES[spec, players, seat]
    assert not result.cut and not result.violations


@pytest.mark.parametrize("rules", [with_thresholds(3), with_thresholds(3, 1)], ids=lambda r: r.id)
def test_the_order_types_between_thresholds_are_those_of_every_whole_amount(rules):
    for auctioneer in (0, None):
        search = verify_module._SaleSearch(rules, 3, auctioneer, verify_module.SALE_SEARCH_PATHS)
        search.run()
        # amounts up to 8 leave room for every order type above the opening bid of 3
        assert brute_force_keys(search, rules, 3, auctioneer, 8) == search.seen


def test_the_thresholds_always_hold_zero():
    (finding,) = qe.verify(with_thresholds(3, 1), checks=["sale-outcomes"]).findings[:1]
    assert "the thresholds 0, 1, 3)" in finding.coverage.bounds
    (finding,) = qe.verify(with_thresholds(3), checks=["sale-outcomes"]).findings[:1]
    assert "the thresholds 0, 3)" in finding.coverage.bounds


def test_scripted_sales_win_at_a_price_others_cannot_tie():
    # with an opening bid of 0 allowed, a price of 0 would let every other seat bid 1
    rules = with_thresholds(0)
    findings = qe.verify(rules, checks=["last-tile", "one-winner"]).findings
    last, eliminated, _ = findings
    game = qe.replay(last.example.data)
    awards = [e for e in game.events if isinstance(e, Awarded)]
    assert [(e.seat, e.amount) for e in awards] == [(sale % 3, 1) for sale in range(15)]
    assert eliminated.gap == "everyone-eliminated"
    assert {r.spent for r in qe.replay(eliminated.example.data).records()} == {5}


# ----------------------------------------------------------------------- as the page shows


def test_the_sampled_checks_of_en_find_what_the_verification_page_shows():
    # docs/verification.md, section `en`: the same plans and games on every run
    (first, _) = qe.verify(EN, checks=["one-winner"]).findings
    assert first.coverage.size == 275
    (reading,) = qe.verify(EN, checks=["reading:tie_fallback"]).findings
    assert reading.summary == (
        "4 players, tie_fallback=highest-unique-in-sale: sale 9: seat 2 wins for 2; under the "
        "other reading seat 1 wins for 1"
    )
    assert reading.coverage.size == 192


def test_the_one_winner_search_tries_the_same_plans_on_every_run():
    # measured when the search was written; a plan ends with an unsold last tile in about
    # half the 3-player plans
    (first, _) = qe.verify("en:final_tiebreak=none", checks=["one-winner"]).findings
    assert first.coverage.size == 275


def test_the_property_checks_play_60_random_games_unless_told(monkeypatch):
    asked = []

    def random_games(rules, players, count):
        asked.append((players, count))
        return iter(())

    monkeypatch.setattr(verify_module, "_random_games", random_games)
    findings = qe.verify(EN, checks=["score-sums"]).findings
    assert asked == [(3, 60), (4, 60), (5, 60)]
    assert all("in 0 random games" in f.summary for f in findings)


def test_a_reading_that_changes_nothing_says_how_many_games_it_compared(monkeypatch):
    monkeypatch.setattr(verify_module, "_READING_GAMES", 2)
    (finding,) = qe.verify(EN, checks=["reading:peek_shows"]).findings
    assert finding.verdict is Verdict.HOLDS and finding.players is None
    assert finding.fields == ("peek_shows",)
    assert finding.summary.endswith("in 2 games per player count")
    assert finding.coverage == qe.Coverage(
        False,
        6,
        "games of small random bids (2 per player count, fewest players first, until one differs)",
    )


# ----------------------------------------------------------------------- table coverage


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


def test_a_monopolization_example_holds_the_token_that_reaches_beyond_the_table():
    # without US Agriculture, Housing (4 tiles and its token) reaches furthest, not the
    # first token in play
    rules = without(EN, 3, "US-AGR")
    gap_shown(rules, "monopolization-beyond-table", "(Housing: 4 tiles and the token)")


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


@pytest.mark.parametrize("bound", [100, 300, 700])
def test_a_cut_search_settles_as_many_paths_as_its_bound(bound):
    rules = RULESETS["en-early"]
    for players in (3, 4):
        result = verify_module._search_sale(rules, players, 0, bound)
        assert result.cut and result.paths == bound


def test_random_games_that_nobody_wins_still_hold_their_sums(monkeypatch):
    # every auctioneer wins its sales at 2, every player spends the same: all are out
    rounds = played_rounds(monkeypatch)
    findings = qe.verify(EN, checks=["score-sums"], random_games=1).findings
    assert [(f.verdict, f.players) for f in findings] == [(Verdict.HOLDS, n) for n in (3, 4, 5)]
    assert all("in 1 random games" in f.summary for f in findings)
    ends = [after for _, after in rounds if after.is_over]
    assert [game.result().winners for game in ends] == [()] * 3
    assert {g.code for game in ends for g in game.result().gaps} == {"everyone-eliminated"}
