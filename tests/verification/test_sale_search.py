"""The complete sale search (``sale-outcomes``, ``last-tile``): it finds what the earlier
search by small amounts found, agrees with a search of every whole amount, states how far
it searched, and reports what a sale can end in."""

import attrs
import pytest

import qe_rules as qe
from qe_rules import RULESETS, Verdict
from qe_rules.game.events import Tie
from qe_rules.game.sales import Award
from qe_rules.verification import sale_search
from tests.support import slow_except
from tests.support.verification import brute_force_keys, shows_its_check, with_thresholds

EN = RULESETS["en"]

# What the sale search by the four smallest amounts per bid found on the built-in rule
# sets (every auctioneer seat): the outcome kinds of a sale per rule set, reading and
# player count. Readings it could not search completely are left out, and so is
# en-early at 4 and 5 players (test_verify.py compares its gaps).
SAMPLED_OUTCOMES = {
    ("en", 3): {"award", "fallback-award", "last-tile-tie"},
    ("en", 4): {"award", "fallback-award"},
    ("en-early", 3): {"award", "fallback-award", "last-tile-tie", "no-unique-bid"},
    ("en:rebid_may_equal_opening=true", 3): {
        "award",
        "fallback-award",
        "last-tile-tie",
        "no-untied-bid",
    },
    ("en:rebid_may_equal_opening=true", 4): {"award", "fallback-award", "no-untied-bid"},
    ("en:last_tile_tie_awards_nothing=false", 3): {"award", "fallback-award", "no-untied-bid"},
    ("en:tie_fallback=highest-unique-in-sale", 4): {"award", "fallback-award"},
    ("en:tie_streak=same-players", 4): {"award", "fallback-award"},
    ("en:ties_before_fallback=4", 4): {"award", "fallback-award"},
    ("en-early:tie_fallback=highest-untied", 3): {
        "award",
        "fallback-award",
        "last-tile-tie",
        "no-untied-bid",
    },
    ("en-early:tied_auctioneer=stands", 4): {"award", "fallback-award", "no-unique-bid"},
    ("de", 4): {"award", "fallback-award"},
    ("de-summary:rebid_may_equal_opening=true", 4): {
        "award",
        "fallback-award",
        "no-untied-bid",
    },
}


def outcome_kinds(spec, players):
    rules = qe.get_ruleset(spec)
    seats = [0, None] if rules.has_last_tile_rule(players) else [0]
    kinds = set()
    for seat in seats:
        result = sale_search.search_sale(rules, players, seat)
        assert not result.cut and not result.violations
        kinds |= set(result.outcomes)
    return kinds


@pytest.mark.parametrize(("spec", "players"), sorted(SAMPLED_OUTCOMES))
def test_the_complete_search_finds_every_outcome_the_sampled_search_found(spec, players):
    assert outcome_kinds(spec, players) == SAMPLED_OUTCOMES[spec, players]


@pytest.mark.parametrize(
    "spec", slow_except(["en", "en-early", "en:rebid_may_equal_opening=true"], "en")
)
def test_the_order_types_are_those_of_every_whole_amount(spec):
    rules = qe.get_ruleset(spec)
    for auctioneer in (0, None):
        search = sale_search.SaleSearch(rules, 3, auctioneer, sale_search.SALE_SEARCH_PATHS)
        search.run()
        # at 3 players, whole amounts up to 6 fill every order type the search reaches
        assert brute_force_keys(search, rules, 3, auctioneer, 6) == search.seen


@pytest.mark.parametrize(("spec", "players"), [("en-early", 3), ("en:tie_streak=same-players", 4)])
def test_every_auctioneer_seat_searches_alike(spec, players):
    rules = qe.get_ruleset(spec)
    results = [sale_search.search_sale(rules, players, seat) for seat in range(players)]
    assert len({(r.paths, r.first_bids, frozenset(r.outcomes)) for r in results}) == 1


def test_the_smallest_whole_amounts_keep_the_thresholds():
    one = sale_search.SCALE
    assert sale_search.integers([one // 2], (0, 1)) is None
    assert sale_search.integers([5 * one, one // 2], (0, 2)) == {
        0: 0,
        one // 2: 1,
        2 * one: 2,
        5 * one: 3,
    }
    assert sale_search.integers([one], (0, qe.limits.MAX_BID)) == {
        0: 0,
        one: 1,
        qe.limits.MAX_BID * one: qe.limits.MAX_BID,
    }


@pytest.mark.kills_mutants
def test_the_smallest_whole_amounts_may_reach_the_largest_bid():
    one, top = sale_search.SCALE, qe.limits.MAX_BID
    assert sale_search.integers([top * one], (0, top - 1)) == {
        0: 0,
        (top - 1) * one: top - 1,
        top * one: top,
    }
    assert sale_search.integers([top * one, (top + 3) * one], (0, top - 1)) is None


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


# golden: pins the figures of the current search (how to regenerate: run the test, and
# copy the figures it reports into the expected values, after checking why they changed)
@pytest.mark.golden
@pytest.mark.kills_mutants
@pytest.mark.parametrize(("spec", "players", "seat"), sorted(SEARCHES, key=str))
def test_each_search_settles_the_paths_it_settled_when_it_was_written(spec, players, seat):
    rules = RULES.get(spec) or qe.get_ruleset(spec)
    result = sale_search.search_sale(rules, players, seat)
    assert (result.paths, result.first_bids) == SEARCHES[spec, players, seat]
    assert not result.cut and not result.violations


@pytest.mark.kills_mutants
@pytest.mark.parametrize("rules", [with_thresholds(3), with_thresholds(3, 1)], ids=lambda r: r.id)
def test_the_order_types_between_thresholds_are_those_of_every_whole_amount(rules):
    for auctioneer in (0, None):
        search = sale_search.SaleSearch(rules, 3, auctioneer, sale_search.SALE_SEARCH_PATHS)
        search.run()
        # amounts up to 8 leave room for every order type above the opening bid of 3
        assert brute_force_keys(search, rules, 3, auctioneer, 8) == search.seen


@pytest.mark.kills_mutants
@pytest.mark.parametrize("bound", [100, 300, 700])
def test_a_cut_search_settles_as_many_paths_as_its_bound(bound):
    rules = RULESETS["en-early"]
    for players in (3, 4):
        result = sale_search.search_sale(rules, players, 0, bound)
        assert result.cut and result.paths == bound


@pytest.mark.kills_mutants
def test_the_thresholds_always_hold_zero():
    (finding,) = qe.verify(with_thresholds(3, 1), checks=["sale-outcomes"]).findings[:1]
    assert "the thresholds 0, 1, 3)" in finding.coverage.bounds
    (finding,) = qe.verify(with_thresholds(3), checks=["sale-outcomes"]).findings[:1]
    assert "the thresholds 0, 3)" in finding.coverage.bounds


# golden: pins the figures of the current search (how to regenerate: run the test, and
# copy the figures it reports into the expected values, after checking why they changed)
@pytest.mark.golden
def test_a_sale_search_is_exhaustive_within_its_stated_bounds():
    report = qe.verify("en", checks=["sale-outcomes", "last-tile", "reading:tie_streak"])
    for finding in report.findings:
        coverage = finding.coverage
        if finding.check == "reading:tie_streak":
            assert not coverage.exhaustive and coverage.size == 3 * 64
            continue
        assert coverage.exhaustive, finding
        assert "every order type of the bids" in coverage.bounds
        assert "up to 4 bidding rounds" in coverage.bounds
    sizes = [f.coverage.size for f in report.findings if f.check == "sale-outcomes"]
    assert sizes == [48, 120, 288]


# golden: pins the figures of the current search (how to regenerate: run the test, and
# copy the figures it reports into the expected values, after checking why they changed)
@pytest.mark.golden
@pytest.mark.kills_mutants
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


@pytest.mark.kills_mutants
def test_the_bounds_say_when_ties_can_go_on():
    en = qe.verify(EN, checks=["sale-outcomes"]).findings[0].coverage.bounds
    assert "up to 4 bidding rounds; " in en
    rules = attrs.evolve(EN, id="no-fallback", tie_fallback=qe.TieFallback.NONE)
    bounds = qe.verify(rules, checks=["sale-outcomes"]).findings[0].coverage.bounds
    assert (
        ", up to 6 bidding rounds (ties can go on: the ties before the fallback and two "
        "more); " in bounds
    )


def test_a_cut_search_is_reported_as_sampled(monkeypatch):
    monkeypatch.setattr(sale_search, "SALE_SEARCH_PATHS", 50)
    report = qe.verify("en-early", checks=["sale-outcomes"])
    (three, *_) = report.findings
    assert not three.coverage.exhaustive and three.coverage.size <= 50
    assert "cut at the bound on paths" in three.coverage.text()


# golden: pins the figures of the current search (how to regenerate: run the test, and
# copy the figures it reports into the expected values, after checking why they changed)
@pytest.mark.golden
def test_a_thorough_search_tries_every_auctioneer_seat():
    quick = qe.verify("en", checks=["sale-outcomes"])
    thorough = qe.verify("en", checks=["sale-outcomes"], thorough=True)
    assert [f.verdict for f in thorough.findings] == [f.verdict for f in quick.findings]
    assert [f.coverage.size for f in thorough.findings] == [48 * 3, 120 * 4, 288 * 5]
    assert "every auctioneer seat" in thorough.findings[0].coverage.bounds


# golden: pins the figures of the current search (how to regenerate: run the test, and
# copy the figures it reports into the expected values, after checking why they changed)
@pytest.mark.golden
@pytest.mark.kills_mutants
def test_a_thorough_search_counts_the_first_bids_of_every_seat():
    report = qe.verify(EN, checks=["sale-outcomes"], thorough=True)
    firsts = [f.coverage.bounds.rsplit("; ", 1)[1] for f in report.findings]
    assert firsts == [f"{n} order types of the first bids" for n in (16 * 3, 40 * 4, 96 * 5)]


@pytest.mark.kills_mutants
def test_a_thorough_search_has_its_own_bound_on_paths(monkeypatch):
    # a tie on the last tile is rebid here, so that its search can be cut too
    rules = qe.get_ruleset("en:last_tile_tie_awards_nothing=false")
    monkeypatch.setattr(sale_search, "SALE_SEARCH_PATHS", 10)
    quick = qe.verify(rules, checks=["sale-outcomes", "last-tile"])
    assert [f.coverage.exhaustive for f in quick.findings] == [False] * 4
    thorough = qe.verify(rules, checks=["sale-outcomes", "last-tile"], thorough=True)
    assert [f.coverage.exhaustive for f in thorough.findings] == [True] * 4


@pytest.mark.kills_mutants
def test_a_fault_at_one_auctioneer_seat_is_shown_from_that_seat(monkeypatch):
    real = sale_search.settle

    def settle(rules, standing, **kwargs):
        out = real(rules, standing, **kwargs)
        if kwargs["auctioneer"] == 1 and isinstance(out, Award):
            return attrs.evolve(out, amount=out.amount + 1000)
        return out

    monkeypatch.setattr(sale_search, "settle", settle)
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


@pytest.mark.kills_mutants
def test_under_the_same_players_streak_every_sale_of_en_still_ends():
    findings = qe.verify("en:tie_streak=same-players", checks=["sale-outcomes"]).findings
    assert [(f.verdict, f.players) for f in findings] == [(Verdict.HOLDS, n) for n in (3, 4, 5)]


@pytest.mark.kills_mutants
def test_the_sale_search_of_en_holds_without_being_cut():
    findings = qe.verify(EN, checks=["sale-outcomes", "last-tile"]).findings
    sales = [f for f in findings if f.check == "sale-outcomes"]
    assert [(f.verdict, f.players) for f in sales] == [(Verdict.HOLDS, n) for n in (3, 4, 5)]
    assert all("cut" not in f.summary for f in sales)
    (last,) = [f for f in findings if f.check == "last-tile"]
    assert (last.verdict, last.players) == (Verdict.HOLDS, 3)
    assert last.fields == (
        "last_tile_without_auctioneer",
        "last_tile_tie_awards_nothing",
        "last_tile_tie",
    )
    game = qe.replay(last.example.data)
    assert game.is_over and game.events[-2].reason == "last-tile-tie"


@pytest.mark.kills_mutants
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


@pytest.mark.kills_mutants
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


@pytest.mark.kills_mutants
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
    assert last.fields == (
        "last_tile_without_auctioneer",
        "last_tile_tie_awards_nothing",
        "last_tile_tie",
    )
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


@pytest.mark.kills_mutants
@pytest.mark.parametrize(
    "spec", slow_except(["en", "en-early", "en:last_tile_tie_awards_nothing=false"], "en")
)
def test_the_last_tile_finding_counts_the_paths_its_search_took(spec):
    rules = qe.get_ruleset(spec)
    report = qe.verify(rules, checks=["last-tile"])
    (finding,) = [f for f in report.findings if f.check == "last-tile"]
    result = sale_search.search_sale(rules, 3, None, sale_search.SALE_SEARCH_PATHS)
    assert result.paths > 0
    assert finding.coverage.size == result.paths
    assert finding.coverage.bounds.endswith(f"; {result.first_bids} order types of the first bids")
