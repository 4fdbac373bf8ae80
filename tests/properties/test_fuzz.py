"""Fuzzing the public entry points with hostile input (the CI part; see bench/fuzz.py).

Each target feeds one hostile input, drawn by hypothesis through a ``random.Random``, to
one entry point and fails on anything but a :class:`qe_rules.RulesError` (or a broken
promise: a rejected move that changed the game, a command line failing in more than one
line). Time and memory bounds (2 s, 200 MB per input) are measured by the long run,
``bench/fuzz.py``, not asserted here: a loaded machine would make them flaky.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support import examples
from tests.support.fuzz import scratch_folder, targets

TARGETS = targets(scratch_folder())
# The CI budget: a few seconds per target (a quarter of it in the quick default profile).
QUICK = examples(60)


@pytest.mark.parametrize(
    "name",
    [
        "replay",
        "engine",
        "lookups",
        "score-file",
        "cli",
        # the second round: documents, schemas, spec strings, evolve, variants, pictures,
        # agents, record files, rule-set arguments, shares
        "documents",
        "schemas",
        "specs",
        "evolve",
        "variants",
        "svg",
        "agents",
        "record-files",
        "cli-rulesets",
        "shares",
    ],
)
@QUICK
@given(rng=st.randoms(use_true_random=False))
def test_only_rules_errors_escape(name, rng):
    TARGETS[name](rng)


@QUICK
@given(rng=st.randoms(use_true_random=False))
def test_only_rules_errors_escape_the_ruleset_loader(rng):
    TARGETS["ruleset-loader"](rng)
