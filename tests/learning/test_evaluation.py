"""Evaluation as research expects (qe_rules.learning.evaluation): a cross-play matrix with
seats rotated on the same deals, intervals, Elo and Nash averaging."""

import numpy as np
import pytest

import qe_rules as qe
from qe_rules import batch
from qe_rules._util.toml import dumps
from qe_rules.learning.evaluation import CrossPlay, cross_play, one_against_rest, population_agent
from qe_rules.simulation.learned import LearnedWeights


def test_a_cell_is_the_row_agent_in_every_seat_on_the_same_deals():
    matrix = cross_play(["value", "random"], players=3, games=60, seed=4)
    assert matrix.games == 60 and matrix.deals == 20
    for seat in range(3):
        agents = ["random"] * 3
        agents[seat] = "value"
        played = batch.play("en", 3, 20, agents=agents, seed=4)
        assert matrix.seat_wins[0, 1, seat] == (played.winner == seat).sum()
    wins, rest = one_against_rest(
        population_agent("value")[1], population_agent("random")[1], players=3, deals=20, seed=4
    )
    assert wins.tolist() == matrix.seat_wins[0, 1].tolist() and rest == matrix.rest_wins[0, 1]
    low, high = matrix.interval("value", "random")
    assert low <= matrix.share("value", "random") <= high


def test_the_population_takes_names_variants_and_files(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(dumps(LearnedWeights.value_agent((3,)).to_dict()))
    matrix = cross_play(["value", "value-frugal", str(path)], players=4, games=40, seed=2)
    assert matrix.labels == ("value", "value-frugal", "mine")
    # weights that play as the value agent: the same games, the same wins
    assert (matrix.seat_wins[0] == matrix.seat_wins[2]).all()
    with pytest.raises(qe.InvalidArgument, match="no agent"):
        population_agent("nobody.toml")
    with pytest.raises(qe.InvalidArgument, match="once"):
        cross_play(["value", "value"], games=8)


def made(shares, players=4, games=1000):
    """A matrix with the given shares (rows against columns) and even other seats."""
    shares = np.array(shares)
    wins = np.rint(shares * games).astype(np.int64)
    rest = np.rint((1 - shares) * games).astype(np.int64)
    seat_wins = np.zeros((*shares.shape, players), dtype=np.int64)
    seat_wins[..., 0] = wins
    return CrossPlay("en", players, 1, games // players, ("a", "b", "c"), seat_wins, rest)


def test_elo_orders_a_transitive_population_and_nash_plays_the_best():
    matrix = made([[0.25, 0.45, 0.6], [0.12, 0.25, 0.45], [0.05, 0.12, 0.25]])
    elo = matrix.elo(anchor="b")
    assert elo["b"] == pytest.approx(1000) and elo["a"] > elo["b"] > elo["c"]
    pytest.importorskip("scipy")
    mixture, payoff = matrix.nash()
    assert mixture["a"] == pytest.approx(1) and payoff["a"] == pytest.approx(0, abs=1e-9)
    assert payoff["b"] < 0 and payoff["c"] < payoff["b"]


def test_nash_averaging_mixes_a_cycle():
    pytest.importorskip("scipy")
    # a beats b, b beats c, c beats a: the equilibrium mixes all three evenly
    matrix = made([[0.25, 0.4, 0.1], [0.1, 0.25, 0.4], [0.4, 0.1, 0.25]])
    mixture, payoff = matrix.nash()
    assert [mixture[k] for k in "abc"] == pytest.approx([1 / 3] * 3, abs=1e-3)
    assert all(abs(v) < 1e-3 for v in payoff.values())
    text = matrix.to_text()
    assert "| a |" in text and "Nash" in text
    assert matrix.to_dict()["nash"]["mixture"]["a"] == pytest.approx(1 / 3, abs=1e-3)


def test_the_command_prints_the_matrix_and_its_summary():
    from tests.support import cli

    status, printed = cli("evaluate", "value", "random", "--players", "3", "--games", "30")
    assert status == 0
    assert "| value |" in printed and "Elo" in printed
    status, printed = cli("evaluate", "value", "zero", "--games", "8", "--format", "json")
    import json

    assert status == 0 and json.loads(printed)["agents"] == ["value", "zero"]
    status, printed = cli("evaluate", "nobody")
    assert status == 2
