"""One game of a run: play_game plays what simulate plays; the checks of a run's arguments."""

import functools

import attrs
import pytest

import qe_rules as qe
from qe_rules.simulation.agents import RandomAgent, ZeroAgent
from qe_rules.simulation.play import play_game
from qe_rules.simulation.stats import SimulationStats, simulate
from tests.support import cli
from tests.support.simulation import mixed_stats

# ----------------------------------------------------------------- the game simulate plays


def test_play_game_is_the_game_simulate_plays():
    games = [play_game("de", 3, ["value", "random", "zero"], seed=5, index=i) for i in range(6)]
    stats = simulate("de", 3, ["value", "random", "zero"], 6, seed=5)
    results = [game.result() for game in games]
    assert stats.total_sums == tuple(sum(r.sheets[s].total for r in results) for s in range(3))
    assert stats.spend_sums == tuple(sum(r.sheets[s].spent for r in results) for s in range(3))
    assert stats.wins == tuple(sum(r.winner == s for r in results) for s in range(3))
    assert len({tuple(g.deck) for g in games}) == 6  # each game has its own setup
    assert play_game("de", 3, "random", seed=5, index=2) == play_game(
        "de", 3, "random", seed=5, index=2
    )


def test_factories_and_names_play_the_same_games():
    named = simulate("en", 4, "random", 20, seed=3, engine="reference")
    assert simulate("en", 4, RandomAgent, 20, seed=3) == attrs.evolve(named, agents=named.agents)
    partial = functools.partial(RandomAgent, spread=12)
    assert simulate("en", 4, partial, 20, seed=3, workers=2).wins == named.wins


# ----------------------------------------------------------------- bad arguments


def constant(seed):
    return Constant()


class Constant(ZeroAgent):
    """Opens at the minimum, and bids 5 otherwise: two such bidders tie for ever."""

    def bid(self, view):
        if view.phase is qe.Phase.OPENING:
            return view.limits.minimum
        return 5 if view.limits.allows(5) else 6


def test_a_game_that_cannot_end_raises():
    endless = attrs.evolve(qe.get_ruleset("en"), id="endless", tie_fallback=qe.TieFallback.NONE)
    with pytest.raises(qe.InvalidArgument, match="game 0 does not end"):
        simulate(endless, 3, constant, 1, seed=0)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 6}, "en is played by 3, 4, 5 players, not 6"),
        ({"agents": ["random"] * 3}, r"agents: give one per seat \(4\)"),
        ({"agents": "clever"}, "unknown agent 'clever'; agents are random, zero, value"),
        ({"agents": [1, 2, 3, 4]}, "an agent is a name"),
        ({"agents": 5}, r"agents is an agent \(a name or a factory\) or a list"),
        ({"games": 0}, "games is a whole number from 1 to"),
        ({"games": 2.0}, "games is a whole number from 1 to"),
        ({"seed": "a"}, "seed is a whole number"),
        ({"seed": True}, "seed is a whole number"),
        ({"seed": 10**5000}, "seed is a whole number"),
        ({"games": 2, "start": 2**63 - 2}, "start \\+ games is at most"),
        ({"workers": 0}, "workers is a whole number from 1 to"),
        ({"progress": 3}, "progress is a function"),
        ({"ruleset": 3}, "a rule set is a RuleSet or a rule set id"),
        ({"agents": lambda seed: ZeroAgent(seed), "workers": 2}, "must be picklable"),
    ],
)
def test_bad_arguments_raise(kwargs, message):
    args = {"ruleset": "en", "players": 4, "agents": "random", "games": 3, "seed": 1, **kwargs}
    with pytest.raises(qe.InvalidArgument, match=message):
        simulate(
            args.pop("ruleset"), args.pop("players"), args.pop("agents"), args.pop("games"), **args
        )


def test_an_unknown_ruleset_id_raises_unknown_ruleset():
    with pytest.raises(qe.UnknownRuleSet):
        simulate("fr", 4, "random", 3, seed=1)
    assert isinstance(mixed_stats(60), SimulationStats)


def test_cli_bad_arguments(capsys):
    assert cli("simulate", "--agents", "smart")[0] == 2
    assert "agents are random, zero, value" in capsys.readouterr().err
    assert cli("compare", "en")[0] == 2
    assert "at least two rule sets" in capsys.readouterr().err
    assert cli("simulate", "--players", "6")[0] == 2
