"""Helpers shared by the verifier's tests (``tests/verification/``): the planted faults
of every check, a search of every whole amount to compare the sale search with, random
streams that always draw the same, and what every finding must keep.

The faults are planted for one test only (a changed rule set, or a function replaced with
``monkeypatch``); the library itself is never changed.
"""

import itertools
from collections import Counter
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import attrs
import pytest

import qe_rules as qe
from qe_rules import RULESETS, Verdict
from qe_rules.game import engine as engine_module
from qe_rules.game.events import Awarded, NotAwarded, ZeroBids
from qe_rules.game.sales import Award, Rebid, limits_of, settle
from qe_rules.texts.questions import open_questions
from qe_rules.verification import games, readings, sale_search, scripted
from qe_rules.verification.report import Example, Finding, VerificationReport

EN = RULESETS["en"]
real_settle = sale_search.settle


@attrs.frozen
class Fault:
    """A planted fault: ``plant`` breaks something and returns the rule set to verify;
    ``check`` must then report ``verdict`` with ``words`` in its summary."""

    check: str
    name: str
    plant: Callable[[pytest.MonkeyPatch], qe.RuleSet]
    verdict: Verdict
    words: str


def _broken_settle(
    monkeypatch: pytest.MonkeyPatch, change: Callable[[Any, Any], Any]
) -> qe.RuleSet:
    """The verifier's sale search settles through ``change(standing, real outcome)``."""

    def settle(rules: qe.RuleSet, standing: Any, **kwargs: Any) -> Any:
        return change(standing, real_settle(rules, standing, **kwargs))

    monkeypatch.setattr(sale_search, "settle", settle)
    return EN


def _award_never_bid(monkeypatch: pytest.MonkeyPatch) -> qe.RuleSet:
    return _broken_settle(
        monkeypatch,
        lambda _, out: (
            attrs.evolve(out, amount=out.amount + 1000) if isinstance(out, Award) else out
        ),
    )


def _award_never_bid_after_six_amounts(monkeypatch: pytest.MonkeyPatch) -> qe.RuleSet:
    """A settlement that breaks only once a sale has named six different amounts: out of
    reach of a search by the four smallest amounts per bid (at most 0 to 4), found by the
    search by order type."""

    def settle(rules: qe.RuleSet, standing: Any, **kwargs: Any) -> Any:
        out = real_settle(rules, standing, **kwargs)
        named = {amount for bids in kwargs["history"] for _, amount in bids}
        if isinstance(out, Award) and len(named) >= 6:
            return attrs.evolve(out, amount=out.amount + 1000)
        return out

    monkeypatch.setattr(sale_search, "settle", settle)
    return qe.get_ruleset("en:tie_fallback=highest-unique-in-sale")


def _award_while_tied(monkeypatch: pytest.MonkeyPatch) -> qe.RuleSet:
    def change(standing: Any, out: Any) -> Any:
        top = max(standing)
        if standing.count(top) > 1:
            return Award(seat=standing.index(top), amount=top)
        return out

    return _broken_settle(monkeypatch, change)


def _award_to_lower_bid(monkeypatch: pytest.MonkeyPatch) -> qe.RuleSet:
    def change(standing: Any, out: Any) -> Any:
        if isinstance(out, Award) and not out.fallback and min(standing) < max(standing):
            low = standing.index(min(standing))
            return Award(seat=low, amount=standing[low])
        return out

    return _broken_settle(monkeypatch, change)


def _rebid_by_nobody(monkeypatch: pytest.MonkeyPatch) -> qe.RuleSet:
    return _broken_settle(
        monkeypatch,
        lambda _, out: Rebid(seats=(), ties=out.ties) if isinstance(out, Rebid) else out,
    )


def _last_tile_tie_awarded(monkeypatch: pytest.MonkeyPatch) -> qe.RuleSet:
    """A settlement that ignores the rule that a tie on the last tile sells nothing."""
    awarding = attrs.evolve(EN, last_tile_tie_awards_nothing=False)

    def settle(rules: qe.RuleSet, standing: Any, **kwargs: Any) -> Any:
        return real_settle(awarding if kwargs["last_tile"] else rules, standing, **kwargs)

    monkeypatch.setattr(sale_search, "settle", settle)
    return EN


def _zero_bids_without_limit(monkeypatch: pytest.MonkeyPatch) -> qe.RuleSet:
    """An engine in which every zero bid scores, whatever the player count and limit."""
    real = engine_module._zero_bids

    def zero_bids(setup: Any, round_: int, *args: Any) -> Any:
        seats, _, rounds, counts = real(setup, round_, *args)
        rounds, counts = list(rounds), list(counts)
        for seat in seats:
            rounds[seat] += (round_,)
            counts[seat] += 1
        return seats, seats, tuple(rounds), tuple(counts)

    monkeypatch.setattr(engine_module, "_zero_bids", zero_bids)
    return EN


def _scorer(monkeypatch: pytest.MonkeyPatch, change: Callable[[Any, Any], Any]) -> None:
    """The engine scores through ``change(rule set, real result)``."""
    real = engine_module.score_holdings

    def score(ruleset: Any, *args: Any, **kwargs: Any) -> Any:
        return change(ruleset, real(ruleset, *args, **kwargs))

    monkeypatch.setattr(engine_module, "score_holdings", score)


def _first_sheet(result: Any, **more: int) -> Any:
    first = result.sheets[0]
    changed = attrs.evolve(first, **{k: getattr(first, k) + v for k, v in more.items()})
    return attrs.evolve(result, sheets=(changed, *result.sheets[1:]))


def _total_off_by_one(monkeypatch: pytest.MonkeyPatch) -> qe.RuleSet:
    _scorer(monkeypatch, lambda _, result: _first_sheet(result, total=1))
    return EN


def _scorer_reads(field: str) -> Callable[[pytest.MonkeyPatch], qe.RuleSet]:
    """A scorer that gives seat 0 a point when ``field`` is not read as in ``en``."""

    def plant(monkeypatch: pytest.MonkeyPatch) -> qe.RuleSet:
        def change(ruleset: Any, result: Any) -> Any:
            if getattr(ruleset, field) == getattr(EN, field):
                return result
            return _first_sheet(result, company_points=1, subtotal=1, total=1)

        _scorer(monkeypatch, change)
        return EN

    return plant


def _rules(**changes: Any) -> Callable[[pytest.MonkeyPatch], qe.RuleSet]:
    return lambda _: attrs.evolve(EN, id="planted-fault", **changes)


FAULTS: tuple[Fault, ...] = (
    Fault(
        "deck-size",
        "a stated deck size the removals do not leave",
        _rules(deck_sizes={3: 16, 4: 17, 5: 15}),
        Verdict.VIOLATED,
        "but the text states",
    ),
    Fault(
        "deck-nations",
        "the 5-player deck (with UK tiles) for 4 players (without UK)",
        _rules(removed_companies={**EN.removed_companies, 4: EN.removed_companies[5]}),
        Verdict.VIOLATED,
        "a nation nobody plays",
    ),
    Fault(
        "deck-industries",
        "the 5-player deck (with government tiles) for 4 players (without the token)",
        _rules(removed_companies={**EN.removed_companies, 4: EN.removed_companies[5]}),
        Verdict.VIOLATED,
        "no token of that industry",
    ),
    Fault(
        "table-coverage",
        "a nationalization table that stops at 2 tiles",
        _rules(nationalization={**EN.nationalization, 3: {1: 1, 2: 3}}),
        Verdict.GAP,
        "the nationalization table stops at 2",
    ),
    Fault(
        "sale-outcomes",
        "a settlement awarding an amount never bid",
        _award_never_bid,
        Verdict.VIOLATED,
        "an amount it never bid",
    ),
    Fault(
        "sale-outcomes",
        "a settlement awarding an amount never bid once a sale named six amounts",
        _award_never_bid_after_six_amounts,
        Verdict.VIOLATED,
        "an amount it never bid",
    ),
    Fault(
        "sale-outcomes",
        "a settlement awarding a tied highest bid without the fallback",
        _award_while_tied,
        Verdict.VIOLATED,
        "awarded while the highest bid was tied",
    ),
    Fault(
        "sale-outcomes",
        "a settlement awarding the lowest bid",
        _award_to_lower_bid,
        Verdict.VIOLATED,
        "a bid that was not the highest",
    ),
    Fault(
        "sale-outcomes",
        "a settlement asking nobody to rebid",
        _rebid_by_nobody,
        Verdict.VIOLATED,
        "asked nobody to rebid",
    ),
    Fault(
        "last-tile",
        "a settlement awarding a tied last tile",
        _last_tile_tie_awarded,
        Verdict.VIOLATED,
        "never sold nothing",
    ),
    Fault(
        "one-winner",
        "eliminating every tied highest spender",
        _rules(eliminate_all_tied_highest=True),
        Verdict.GAP,
        "all are eliminated",
    ),
    Fault(
        "zero-bid-limit",
        "an engine scoring every zero bid",
        _zero_bids_without_limit,
        Verdict.VIOLATED,
        "more zero bids in a round than the limit",
    ),
    Fault(
        "score-sums",
        "a scorer adding a point to seat 0's total",
        _total_off_by_one,
        Verdict.VIOLATED,
        "not the sum of its categories",
    ),
    *(
        Fault(
            f"reading:{q.field}",
            f"a scorer that reads {q.field}",
            _scorer_reads(q.field),
            Verdict.DIFFERS,
            f"{q.field}=",
        )
        for q in open_questions()
    ),
)


def brute_force_keys(search, rules, players, auctioneer, top):
    """The order types a search over every whole amount up to ``top`` reaches."""
    scale = sale_search.SCALE
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


def with_thresholds(opening, secret=0):
    """``en`` with other minimums: thresholds with room for whole amounts between them."""
    return attrs.evolve(
        EN, id=f"opening-{opening}-secret-{secret}", min_opening_bid=opening, min_secret_bid=secret
    )


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
    rounds = []
    real = scripted.random_round

    def random_round(game, rng, spread):
        after = real(game, rng, spread)
        rounds.append((game, after))
        return after

    for module in (games, readings):  # the modules that play random games
        monkeypatch.setattr(module, "random", SimpleNamespace(Random=SameDraws))
        monkeypatch.setattr(module, "random_round", random_round)
    return rounds


# the auctioneer opens at 1, every other seat must bid 2 (not the opening bid): they tie
ENDLESS = attrs.evolve(EN, id="endless", min_opening_bid=0, tie_fallback=qe.TieFallback.NONE)


# A report with one finding of each verdict and example kind, for the tests of how a
# report reads (tests/verification/test_report.py) and of the page of reports
# (tests/apps/test_verification_page.py).
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


def reading_parts(summary):
    """The parts of a ``reading:<field>`` finding's summary, the reading first:
    ``(players, sale, reading, under it, the rule set's own reading, under that)``;
    ``sale`` is ``None`` when the sales agree and only the totals or winners differ."""
    players, _, rest = summary.partition(" players, ")
    head, _, tail = rest.partition("; under the rule set's own reading (")
    own, _, mine = tail.partition(")")
    mine = mine.removeprefix(",").strip()
    if head.startswith("sale "):
        number, _, under = head.partition(": under ")
        reading, _, theirs = under.partition(", ")
        return int(players), int(number.removeprefix("sale ")), reading, theirs, own, mine
    reading, _, theirs = head.removeprefix("the same sales; under ").partition(" ")
    return int(players), None, reading, theirs, own, mine
