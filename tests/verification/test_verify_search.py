"""The complete sale search: it finds what the earlier search by small amounts found,
agrees with a search of every whole amount, and the report says how far each check
searched."""

import importlib
import itertools
from collections import Counter

import pytest

import qe_rules as qe
from qe_rules.game.sales import Rebid, limits_of, settle
from tests.support import cli

verify_module = importlib.import_module(
    "qe_rules.verification.checks"
)  # qe_rules.verify is the function

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
        result = verify_module._search_sale(rules, players, seat)
        assert not result.cut and not result.violations
        kinds |= set(result.outcomes)
    return kinds


@pytest.mark.parametrize(("spec", "players"), sorted(SAMPLED_OUTCOMES))
def test_the_complete_search_finds_every_outcome_the_sampled_search_found(spec, players):
    assert outcome_kinds(spec, players) == SAMPLED_OUTCOMES[spec, players]


def brute_force_keys(search, rules, players, auctioneer, top):
    """The order types a search over every whole amount up to ``top`` reaches."""
    scale = verify_module._SCALE
    others = [s for s in range(players) if s != auctioneer]

    def amounts(lead, opening, rebid):
        minimum, forbidden = limits_of(rules, opening, lead, rebid)
        return [a * scale for a in range(minimum, top + 1) if a * scale != forbidden]

    frontier = []
    for opening in [None] if auctioneer is None else amounts(True, None, False):
        for combo in itertools.product(*(amounts(False, opening, False) for _ in others)):
            bids = dict(zip(others, combo, strict=True))
            if opening is not None:
                bids[auctioneer] = opening
            standing = tuple(bids[s] for s in range(players))
            frontier.append((standing, 0, (tuple(sorted(bids.items())),), opening, ()))
    seen, keys = set(), set()
    while frontier:
        following = []
        for standing, ties, rounds, opening, tied in frontier:
            named = tuple(sorted(Counter(a for r in rounds for _, a in r).items()))
            if (standing, ties, named, opening, tied) in seen:
                continue
            seen.add((standing, ties, named, opening, tied))
            points = search.points(standing, opening, rounds)
            keys.add(search.key(standing, ties, rounds, opening, tied, points))
            outcome = settle(
                rules,
                standing,
                ties=ties,
                history=rounds,
                last_tile=auctioneer is None,
                auctioneer=auctioneer,
                previous_tie=tied,
            )
            if not isinstance(outcome, Rebid) or len(rounds) > search.rounds_limit:
                continue
            now_tied = tuple(s for s, a in enumerate(standing) if a == max(standing))
            choices = (amounts(s == auctioneer, opening, True) for s in outcome.seats)
            for combo in itertools.product(*choices):
                new = list(standing)
                rebids = tuple(zip(outcome.seats, combo, strict=True))
                for seat, amount in rebids:
                    new[seat] = amount
                following.append((tuple(new), outcome.ties, (*rounds, rebids), opening, now_tied))
        frontier = following
    return keys


@pytest.mark.parametrize("spec", ["en", "en-early", "en:rebid_may_equal_opening=true"])
def test_the_order_types_are_those_of_every_whole_amount(spec):
    rules = qe.get_ruleset(spec)
    for auctioneer in (0, None):
        search = verify_module._SaleSearch(rules, 3, auctioneer, verify_module.SALE_SEARCH_PATHS)
        search.run()
        # at 3 players, whole amounts up to 6 fill every order type the search reaches
        assert brute_force_keys(search, rules, 3, auctioneer, 6) == search.seen


@pytest.mark.parametrize(("spec", "players"), [("en-early", 3), ("en:tie_streak=same-players", 4)])
def test_every_auctioneer_seat_searches_alike(spec, players):
    rules = qe.get_ruleset(spec)
    results = [verify_module._search_sale(rules, players, seat) for seat in range(players)]
    assert len({(r.paths, r.first_bids, frozenset(r.outcomes)) for r in results}) == 1


def test_the_smallest_whole_amounts_keep_the_thresholds():
    one = verify_module._SCALE
    assert verify_module._integers([one // 2], (0, 1)) is None
    assert verify_module._integers([5 * one, one // 2], (0, 2)) == {
        0: 0,
        one // 2: 1,
        2 * one: 2,
        5 * one: 3,
    }
    assert verify_module._integers([one], (0, qe.limits.MAX_BID)) == {
        0: 0,
        one: 1,
        qe.limits.MAX_BID * one: qe.limits.MAX_BID,
    }


# --------------------------------------------------------------------------- coverage


def test_every_finding_says_how_far_its_check_searched():
    report = qe.verify("en", random_games=3, checks=["deck-size", "one-winner", "score-sums"])
    by_check = {f.check: f.coverage for f in report.findings}
    assert by_check["deck-size"].exhaustive and by_check["deck-size"].size is None
    assert not by_check["one-winner"].exhaustive and by_check["one-winner"].size > 0
    assert by_check["score-sums"] == qe.Coverage(False, 3, "random games of 5 players")
    data = report.to_dict()["findings"][-1]["coverage"]
    assert data == {"exhaustive": False, "size": 3, "bounds": "random games of 5 players"}
    assert "sampled: 3 random games of 5 players" in report.to_text()
    assert "| sampled: 3 random games of 5 players |" in report.to_markdown()


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


def test_a_cut_search_is_reported_as_sampled(monkeypatch):
    monkeypatch.setattr(verify_module, "SALE_SEARCH_PATHS", 50)
    report = qe.verify("en-early", checks=["sale-outcomes"])
    (three, *_) = report.findings
    assert not three.coverage.exhaustive and three.coverage.size <= 50
    assert "cut at the bound on paths" in three.coverage.text()


def test_a_thorough_search_tries_every_auctioneer_seat():
    quick = qe.verify("en", checks=["sale-outcomes"])
    thorough = qe.verify("en", checks=["sale-outcomes"], thorough=True)
    assert [f.verdict for f in thorough.findings] == [f.verdict for f in quick.findings]
    assert [f.coverage.size for f in thorough.findings] == [48 * 3, 120 * 4, 288 * 5]
    assert "every auctioneer seat" in thorough.findings[0].coverage.bounds


def test_cli_verify_thorough(monkeypatch):
    cli_module = importlib.import_module("qe_rules.apps.cli")
    asked = []

    def verify(ruleset, **options):
        asked.append(options)
        return qe.VerificationReport("en", ())

    monkeypatch.setattr(cli_module, "verify", verify)
    assert cli("verify", "en", "--thorough", "--format", "json")[0] == 0
    assert cli("verify", "en", "--format", "json")[0] == 0
    assert asked == [{"thorough": True}, {"thorough": False}]
