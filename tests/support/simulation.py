"""Runs shared by the simulation tests: each is played once per test session."""

import functools

from qe_rules.simulation.stats import simulate

MIXED = ("value", "random", "zero", "random")
"""A table of every built-in agent, one of them twice."""


@functools.cache
def mixed_stats(games, workers=1):
    """``simulate("en", 4, MIXED, games, seed=11, workers=workers)``, played once."""
    return simulate("en", 4, MIXED, games, seed=11, workers=workers)
