"""Runs shared by the simulation tests: each is played once per test session."""

import functools

import qe_rules as qe
from qe_rules.simulation.play import play_game
from qe_rules.simulation.stats import simulate

MIXED = ("value", "random", "zero", "random")
"""A table of every built-in agent, one of them twice."""

ENGINES = ("reference", "batch")
"""The engines that play runs."""


@functools.cache
def mixed_stats(games, workers=1):
    """``simulate("en", 4, MIXED, games, seed=11, workers=workers)``, played once."""
    return simulate("en", 4, MIXED, games, seed=11, workers=workers)


def engine_game(ruleset, players, agents, *, seed, index, engine):
    """Game ``index`` of the run with ``seed`` as ``engine`` plays it (the batch's as its
    record replayed by the game engine)."""
    if engine == "reference":
        return play_game(ruleset, players, agents, seed=seed, index=index)
    from qe_rules import batch

    played = batch.play(ruleset, players, 1, agents=agents, seed=seed, start=index)
    return qe.replay(played.record(0))
