"""Planted faults: every check of ``qe.verify`` reports its own deliberately broken rule
set, engine, scorer or settlement.

Each fault is planted for one test only (a changed rule set, or a function replaced with
``monkeypatch``); the library itself is never changed. A check that cannot fail would let a
broken rule through unnoticed, so a check without a planted fault here fails
:func:`test_every_check_has_a_planted_fault`.
"""

import importlib
from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs
import pytest

import qe_rules as qe
from qe_rules import RULESETS, Verdict
from qe_rules.game.events import ZeroBids
from qe_rules.game.sales import Award, Rebid
from qe_rules.texts.questions import open_questions

verify_module = importlib.import_module(
    "qe_rules.verification.checks"
)  # qe_rules.verify is the function
engine_module = importlib.import_module("qe_rules.game.engine")

EN = RULESETS["en"]
real_settle = verify_module.settle


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

    monkeypatch.setattr(verify_module, "settle", settle)
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

    monkeypatch.setattr(verify_module, "settle", settle)
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

    monkeypatch.setattr(verify_module, "settle", settle)
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


def test_every_check_has_a_planted_fault():
    assert {fault.check for fault in FAULTS} == set(verify_module.check_names())


def test_the_checks_named_are_the_checks_run():
    report = qe.verify("en", random_games=2)
    assert {f.check for f in report.findings} == set(verify_module.check_names())


def _shows(fault: Fault, finding: qe.Finding, rules: qe.RuleSet) -> None:
    """The finding's example shows the fault (with the fault still planted)."""
    example = finding.example
    if fault.check.startswith("deck-") or fault.check == "last-tile":
        assert example is None  # the rule set or the sale search is the example
        return
    assert example is not None
    if example.kind == "scoring":
        records = [qe.PlayerRecord.from_dict(p) for p in example.data["players"]]
        assert finding.gap in {g.code for g in qe.score_game(rules, records).gaps}
        return
    game = qe.replay(example.data)
    if fault.check == "zero-bid-limit":
        scored = Counter(
            (seat, e.round) for e in game.events if isinstance(e, ZeroBids) for seat in e.scoring
        )
        limit_broken = game.players not in EN.zero_bid_player_counts or max(scored.values()) > 1
        assert scored and limit_broken
    elif fault.check == "score-sums":
        assert any(s.total != s.subtotal + s.lowest_spend_bonus for s in game.result().sheets)
    elif fault.check == "one-winner":
        assert finding.gap in {g.code for g in game.result().gaps}
    elif fault.check == "sale-outcomes":
        assert game.moves()  # the bids of the sale whose settlement broke a property


@pytest.mark.parametrize("fault", FAULTS, ids=lambda fault: f"{fault.check}: {fault.name}")
def test_every_check_reports_its_planted_fault(fault, monkeypatch):
    rules = fault.plant(monkeypatch)
    report = qe.verify(rules, random_games=5, checks=[fault.check])
    fired = [f for f in report.findings if f.verdict is fault.verdict and fault.words in f.summary]
    assert fired, report.to_text()
    assert {f.check for f in report.findings} == {fault.check}
    _shows(fault, fired[0], rules)


@pytest.mark.parametrize("fault", FAULTS[:4], ids=lambda fault: fault.check)
def test_the_static_checks_hold_without_their_fault(fault):
    report = qe.verify(EN, checks=[fault.check])
    assert report.findings
    assert Verdict.VIOLATED not in {f.verdict for f in report.findings}


def test_the_search_and_property_checks_hold_without_a_fault():
    checks = ["sale-outcomes", "last-tile", "zero-bid-limit", "score-sums"]
    report = qe.verify(EN, random_games=5, checks=checks)
    assert {f.check for f in report.findings} == set(checks)
    assert {f.verdict for f in report.findings} == {Verdict.HOLDS}


def test_one_winner_holds_for_everyone_eliminated_when_ties_are_spared():
    rules = attrs.evolve(EN, id="spare-ties", eliminate_all_tied_highest=False)
    report = qe.verify(rules, checks=["one-winner"])
    assert "everyone-eliminated" not in {f.gap for f in report.findings}


def test_a_reading_of_what_a_seat_sees_changes_no_outcome_without_a_fault():
    report = qe.verify(EN, checks=["reading:peek_shows"])
    assert report.findings
    assert {f.verdict for f in report.findings} == {Verdict.HOLDS}
