"""An agent that fails is named, with its seat and the game to replay (issue 31)."""

import pickle

import pytest

import qe_rules as qe
from qe_rules.simulation.play import play_game


class Raising:
    def bid(self, view):
        raise RuntimeError("agent bug")


class Bids:
    def __init__(self, amount):
        self.amount = amount

    def bid(self, view):
        return self.amount


class PeeksYes:
    def bid(self, view):
        return view.limits.minimum

    def wants_peek(self, view):
        return "yes"


def raising(seed):
    return Raising()


def _play_until_it_fails(ruleset, players, agents):
    for index in range(50):  # the peek window comes in some games only
        play_game(ruleset, players, agents, seed=7, index=index)


@pytest.mark.parametrize(
    ("factory", "players", "message"),
    [
        (raising, 3, "RuntimeError: 'agent bug'"),
        (lambda seed: None, 3, "the factory made None, which has no bid"),
        (lambda seed: 5, 3, "the factory made 5"),
        (lambda seed: Bids(None), 3, "a bid is a whole number"),
        (lambda seed: Bids(-1), 3, "seat 1"),
        (lambda seed: Bids(qe.limits.MAX_BID + 1), 3, "at most"),
        (lambda seed: PeeksYes(), 5, "wants_peek\\(view\\) must return True or False, got 'yes'"),
    ],
)
def test_an_agent_failure_names_the_agent_the_seat_and_the_game(factory, players, message):
    agents = ["random"] * players
    agents[1] = factory
    ruleset = "de" if players == 5 else "en"
    with pytest.raises(qe.AgentError, match=message) as raised:
        _play_until_it_fails(ruleset, players, agents)
    error = raised.value
    assert error.seat == 1 and error.seed == 7 and isinstance(error.game, int)
    assert f"at seat 1, game {error.game} of seed 7" in str(error)
    assert isinstance(error, qe.RulesError)


def test_the_agents_own_exception_is_chained_and_the_error_travels_between_processes():
    with pytest.raises(qe.AgentError) as raised:
        qe.simulate("en", 3, ["random", raising, "random"], 2, seed=3)
    assert isinstance(raised.value.__cause__, RuntimeError)
    copy = pickle.loads(pickle.dumps(raised.value))
    assert (copy.agent, copy.seat, copy.seed, copy.game, str(copy)) == (
        "raising",
        1,
        3,
        0,
        str(raised.value),
    )
