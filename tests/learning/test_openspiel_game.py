"""QE as an OpenSpiel game (qe_rules.openspiel), where the open_spiel wheel installs."""

import pytest

import qe_rules as qe

pyspiel = pytest.importorskip(
    "pyspiel",
    reason="OpenSpiel is the openspiel extra (pip install 'qe-rules[openspiel]'); its wheel "
    "is not installed here",
)
openspiel = pytest.importorskip("qe_rules.openspiel")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_openspiel_random_simulation_with_serialization(players):
    game = pyspiel.load_game("python_qe", {"players": players})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_another_rule_set_by_parameter():
    game = pyspiel.load_game("python_qe", {"players": 3, "ruleset": "en-early"})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def dealt(players, seed=0):
    """A state just after chance has dealt, sampling each deal with ``seed``."""
    import random

    draw = random.Random(seed)
    state = pyspiel.load_game("python_qe", {"players": players}).new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(draw.choice([a for a, _ in outcomes]))
    return state


def test_the_deal_makes_a_game_of_the_rule_set():
    state = dealt(4)
    game = state.game
    rules = qe.get_ruleset("en")
    assert sorted(map(str, game.deck)) == sorted(map(str, rules.companies(4)))
    assert len(set(game.nations)) == 4 and len(set(game.industries)) == 4
    assert state.current_player() == game.auctioneer


def test_the_seats_of_a_round_act_from_the_same_state():
    state = dealt(4, seed=3)
    state.apply_action(5)  # the opening bid
    before = state.game
    bidders = sorted(before.to_act)
    observations = {seat: state.observation_tensor(seat) for seat in range(4)}
    for seat in bidders[:-1]:
        assert state.current_player() == seat
        state.apply_action(state.legal_actions()[0])
        assert state.game is before
        assert state.legal_actions(seat) == []
        assert {s: state.observation_tensor(s) for s in range(4)} == observations
    state.apply_action(state.legal_actions()[-1])
    assert state.game.sale == 1 and not state.is_terminal()
