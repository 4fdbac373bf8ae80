"""The statistics documents are read strictly: only counts that agree with each other,
so that whatever is read can be printed, merged and written back (issue 31)."""

import json

import pytest

import qe_rules as qe
from qe_rules.simulation.comparison import ChangeExample, Comparison, PlayedComparison
from qe_rules.simulation.intervals import Share, wilson_interval
from qe_rules.simulation.stats import SimulationStats

STATS = qe.simulate("en", 3, "random", 4, seed=1).to_dict()
COMPARISON = qe.compare(["en", "de"], 3, "random", 4, seed=1).to_dict()
PLAYED = qe.compare(["en", "de"], 3, "random", 4, seed=1, play="each").to_dict()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"batches": [[1, 0, 0]]}, r"batches\[0\]: a batch runs from a game to a later one"),
        ({"agents": ["random"]}, r"statistics.agents: needs one entry per seat \(3 players\)"),
        ({"players": 5}, r"statistics.wins: needs one entry per seat \(5 players\)"),
        ({"wins": ["a", "b", "c"]}, r"statistics.wins\[0\] must be a whole number"),
        ({"players": -3}, r"statistics.players must be a whole number from 2 to 5"),
        ({"ruleset": {"x": 1}}, "statistics.ruleset must be a string"),
        ({"wins": [9, 0, 0]}, r"statistics.wins\[0\]: 9 is more than the 4 games"),
        ({"agents": [[[["x"]]], "random", "random"]}, r"agents\[0\] must be a string"),
        ({"win_share": [0.5, 0.5, 0.5]}, "win_share: differs from the figure computed"),
        ({"gap_codes": {"x": 9}}, r"gap_codes\[0\]: 9 is more than"),
    ],
)
def test_statistics_that_disagree_are_refused(change, message):
    with pytest.raises(qe.InvalidArgument, match=message):
        SimulationStats.from_dict({**STATS, **change})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"agents": [{}, "random", "random"]}, r"agents\[0\] must be a string"),
        ({"changes": [0]}, r"comparison.changes: needs one entry per rule set \(2\)"),
        ({"changes": [0, 4]}, "comparison.changes: the winners give"),
        ({"batches": [[1, 5, 5]]}, "a batch runs from a game to a later one"),
        ({"winners": []}, r"comparison.winners: needs one entry per game \(4\)"),
        ({"examples": [{}]}, r"examples\[0\] lacks ruleset"),
        ({"batches": None}, "batches must be a list"),
    ],
)
def test_comparisons_that_disagree_are_refused(change, message):
    with pytest.raises(qe.InvalidArgument, match=message):
        Comparison.from_dict({**COMPARISON, **change})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rulesets": ["en", "de", "en-early"]}, r"winner_changed: needs one entry per rule set"),
        ({"games": float("nan"), "players": "many"}, "players must be a whole number"),
        ({"games": float("nan")}, "games must be a whole number"),
        ({"play": "first"}, "play must be 'each'"),
    ],
)
def test_played_comparisons_that_disagree_are_refused(change, message):
    with pytest.raises(qe.InvalidArgument, match=message):
        PlayedComparison.from_dict({**PLAYED, **change})


def test_a_document_without_batches_needs_seed_and_games():
    data = {key: value for key, value in COMPARISON.items() if key not in ("batches", "games")}
    with pytest.raises(qe.InvalidArgument, match="needs batches, or seed and games"):
        Comparison.from_dict(data)
    assert Comparison.from_dict({**data, "games": 4}) == Comparison.from_dict(COMPARISON)


def test_what_is_read_back_is_usable_and_equal():
    for reader, data in (
        (SimulationStats, STATS),
        (Comparison, COMPARISON),
        (PlayedComparison, PLAYED),
    ):
        read = reader.from_dict(json.loads(json.dumps(data)))
        assert read.to_dict() == data and str(read) and repr(read)


@pytest.mark.parametrize("data", [{}, [], None, {"count": 1}, {"count": 2, "total": 1}])
def test_shares_and_examples_refuse_what_they_cannot_read(data):
    with pytest.raises(qe.InvalidArgument):
        Share.from_dict(data)
    with pytest.raises(qe.InvalidArgument):
        ChangeExample.from_dict(data)


def test_a_share_read_back_is_the_share():
    share = Share(3, 40, parts=2)
    assert Share.from_dict(share.to_dict()) == share
    with pytest.raises(qe.InvalidArgument, match=r"share\.share differs"):
        Share.from_dict({**share.to_dict(), "share": 0.5})


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, 10**400), "a share's total is at most"),
        ((1, 2, -1), "z is a number above 0"),
        ((1, 2, 0), "z is a number above 0"),
        ((1, 2, float("nan")), "z is a number above 0"),
        ((1, 2, "x"), "z is a number above 0"),
    ],
)
def test_wilson_interval_refuses_what_it_cannot_compute(args, message):
    count, total, *z = args
    with pytest.raises(qe.InvalidArgument, match=message):
        wilson_interval(count, total, **({"z": z[0]} if z else {}))
    with pytest.raises(qe.InvalidArgument):
        Share.from_dict(json.loads('{"count": 0, "total": 1' + "0" * 400 + "}"))


def test_the_text_of_many_seats_takes_time_linear_in_them():
    # the text of statistics computes each per-seat figure once: counting the calls
    # of the figures' properties is the measure (time is measured in bench/)
    stats = qe.simulate("en", 5, "random", 3, seed=1)
    calls = []
    original = SimulationStats.win_ci95

    def counted(self):
        calls.append(1)
        return original.fget(self)

    SimulationStats.win_ci95 = property(counted)
    try:
        assert "seat" in stats.to_text()
    finally:
        SimulationStats.win_ci95 = original
    assert len(calls) == 1
