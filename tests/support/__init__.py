"""Helpers shared by the tests."""

import functools
import gc
import inspect
import io
import json
import os
from collections.abc import Mapping
from importlib import resources

import pytest
from hypothesis import assume, settings
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules.game import _state

# The thorough hypothesis profile (see conftest.py): CI=true, as .ci/run sets it, or
# HYPOTHESIS_PROFILE=ci.
THOROUGH = bool(os.environ.get("CI")) or os.environ.get("HYPOTHESIS_PROFILE") == "ci"
# The long runs at the counts an issue's acceptance names (QE_LONG_RUNS=1; docs/testing.md,
# "Long runs"): the tests that take it run a tenth or so of that count otherwise, .ci/run
# included, to keep CI within its time.
LONG_RUNS = os.environ.get("QE_LONG_RUNS") == "1"


def long_run(full, short):
    """``full`` under ``QE_LONG_RUNS=1``, else ``short``."""
    return full if LONG_RUNS else short


SCORING_EXAMPLE = resources.files("qe_rules").joinpath("examples/scoring-example.json")


def scoring_example():
    """The shipped score file ``qe_rules/examples/scoring-example.json`` as data (a new
    copy each call): the one source of the rulebook's scoring example. Seat 0 is the
    rulebook's player (en §Scoring example: 13 + 6 + 3 + 9 + 8 = 39, and a lowest-spend
    bonus of 6); seats 1-3 complete a 4-player game under ``en``."""
    return json.loads(SCORING_EXAMPLE.read_text(encoding="utf-8"))


def example_records():
    """The scoring example's player records, seat by seat (a new list each call)."""
    return [qe.PlayerRecord.from_dict(player) for player in scoring_example()["players"]]


def slow_except(values, *quick):
    """The values of a ``parametrize`` (a tuple: the values of its several arguments),
    every one not in ``quick`` marked ``slow``: the quick default run tries the ``quick``
    ones, ``pytest -m slow`` the rest."""
    return [
        value
        if value in quick
        else pytest.param(
            *(value if isinstance(value, tuple) else (value,)), marks=pytest.mark.slow
        )
        for value in values
    ]


def examples(count, **options):
    """Settings for a property that needs ``count`` examples: all of them in the thorough
    ``ci`` profile, a quarter (at least 2) in the quick default profile."""
    return settings(
        max_examples=count if THOROUGH else max(2, count // 4), deadline=None, **options
    )


def remembering(verify):
    """``verify`` (``qe.verify``'s signature) that computes each report once and then
    returns the same report again. A report is frozen and the verifier is deterministic
    (``test_the_report_is_deterministic``), so a repeated call would give an equal one.
    Calls are the same when their rule sets are equal and their other arguments are."""
    signature = inspect.signature(verify)
    reports = {}

    @functools.wraps(verify)
    def remembered(*args, **kwargs):
        call = signature.bind(*args, **kwargs)
        call.apply_defaults()
        try:
            key = tuple(
                qe.get_ruleset(value) if name == "ruleset" else _hashable(value)
                for name, value in call.arguments.items()
            )
            hash(key)
        except (qe.RulesError, TypeError):  # left to verify: its error, or no key
            return verify(*args, **kwargs)
        if key not in reports:
            reports[key] = verify(*args, **kwargs)
        return reports[key]

    return remembered


class BuiltinReports(Mapping):
    """The reports of ``verify`` on the built-in rule sets, by id, each made when first
    looked up."""

    def __init__(self, verify):
        self._verify = verify

    def __getitem__(self, ruleset_id):
        if ruleset_id not in qe.RULESETS:
            raise KeyError(ruleset_id)
        return self._verify(ruleset_id)

    def __iter__(self):
        return iter(qe.RULESETS)

    def __len__(self):
        return len(qe.RULESETS)


def _hashable(value):
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, set):
        return frozenset(value)
    return value


# The engine's internal state: nothing a view (or an agent) holds may reach these.
INTERNAL = (
    qe.Game,
    _state._Progress,
    _state._Sale,
    _state._SaleFacts,
    _state._Setup,
    _state._PublicPart,
)


def reachable(root):
    """Every object reachable from ``root`` (classes excluded)."""
    seen, todo = set(), [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen.add(id(obj))
        yield obj
        todo.extend(gc.get_referents(obj))


def is_json(value, *, floats=True):
    """Whether ``value`` is made of JSON types only (``floats=False``: and has no float)."""
    if value is None or isinstance(value, bool | int | str):
        return True
    if isinstance(value, float):
        return floats
    if isinstance(value, list):
        return all(is_json(v, floats=floats) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and is_json(v, floats=floats) for k, v in value.items())
    return False


def cli(*argv):
    """Run ``qe-rules`` with ``argv``: its exit status and what it printed."""
    from qe_rules.apps.cli import main

    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


def states(record):
    """The game of a record after its setup, then after each of its moves."""
    game = qe.replay({**record, "moves": []})
    yield game
    for move in qe.GameRecord.from_dict(record).moves:
        game = game.apply(move)
        yield game


def moves_with_views(record):
    """Each move of ``record`` (a ``GameRecord``) with the view its seat made it from,
    as the reference engine asks (every seat of a bidding round or peek window sees the
    game as the round began, as ``simulate`` plays)."""
    waiting: set[int] = set()
    for move, game in zip(record.moves, states(record.to_dict()), strict=False):
        if not waiting:  # a moment begins
            start, waiting = game, set(game.to_act)
        waiting.discard(move.seat)
        yield move, start.view(move.seat)


def with_other_tokens(game, seat, data):
    """``game``'s record with the other seats' industry tokens drawn again (from theirs
    and the spare ones): a change ``seat`` may not see until the end."""
    record = game.to_record()
    tokens = list(record["industries"])
    others = [i for i in range(game.players) if i != seat]
    spare = [i.name for i in game.ruleset.industries(game.players) if i.name not in tokens]
    shuffled = data.draw(st.permutations([tokens[i] for i in others] + spare))
    for index, other in enumerate(others):
        tokens[other] = shuffled[index]
    assume(tokens != record["industries"])
    return {**record, "industries": tokens}


def with_hidden_tiles_reordered(game, data):
    """``game``'s record cut after a drawn number of moves, and the same with the tiles
    not yet revealed at that point in another order: a change no seat may see."""
    record = game.to_record()
    cut = data.draw(st.integers(0, len(record["moves"])))
    partial = qe.replay({**record, "moves": record["moves"][:cut]})
    assume(not partial.is_over)
    hidden = record["deck"][partial.sale + 1 :]
    reordered = data.draw(st.permutations(hidden))
    assume(list(reordered) != hidden)
    short = {**record, "moves": record["moves"][:cut]}
    return short, {**short, "deck": record["deck"][: partial.sale + 1] + list(reordered)}


def fallback_sale(rules):
    """A 5-player sale whose top bids (9) tie until the fallback gives it to a lower bid;
    the peek window after it, or ``None`` when the variant opened none. Under
    ``peek_timing=before-bids`` the lowest seat that may announces a peek at it first."""
    game = qe.new_game(rules, 5, seed=2)
    if game.phase is qe.Phase.PEEKING:  # before-bids: the window before the first sale
        game = game.peek(min(game.to_act))
        while game.phase is qe.Phase.PEEKING:
            game = game.decline_peek(min(game.to_act))
    auctioneer = game.auctioneer
    others = [seat for seat in range(5) if seat != auctioneer]
    game = game.bid(auctioneer, 3)
    for seat, amount in zip(others, (9, 9, 5, 4), strict=True):
        game = game.bid(seat, amount)
    while game.phase is qe.Phase.REBIDDING:
        for seat in sorted(game.to_act):
            game = game.bid(seat, game.bid_limits(seat).legal(9))
    return game
