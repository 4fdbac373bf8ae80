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

from tests.support import commands, examples, slow_except
from tests.support.calls import TARGETS as CALL_TARGETS
from tests.support.commands import command_targets
from tests.support.fuzz import scratch_folder, targets
from tests.support.readers import reader_targets

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


# The third round: every reader of untrusted documents, every command, the public
# functions and the environments (tests/support/readers.py, commands.py, calls.py).
READER_TARGETS = reader_targets()
COMMAND_TARGETS = command_targets(warm=False)


# load-records writes the longest inputs (files of records): in the slow run only
QUICK_READERS = sorted(set(READER_TARGETS) - {"reader:load-records"})


@pytest.mark.parametrize("name", slow_except(sorted(READER_TARGETS), *QUICK_READERS))
@QUICK
@given(rng=st.randoms(use_true_random=False))
def test_a_reader_accepts_only_what_agrees_with_itself(name, rng):
    READER_TARGETS[name](rng)


@pytest.fixture(scope="module")
def few_pages():
    """``docs`` writes two small pages (the real ones take long to make)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(commands, "_pages", lambda: {"a.md": "a\n", "b/c.md": "c\n"})
        yield


@pytest.mark.parametrize("name", sorted(COMMAND_TARGETS))
@QUICK
@given(rng=st.randoms(use_true_random=False))
def test_every_command_fails_in_one_line_with_a_documented_status(name, rng, few_pages):
    COMMAND_TARGETS[name](rng)


@pytest.mark.parametrize("name", sorted(CALL_TARGETS))
@QUICK
@given(rng=st.randoms(use_true_random=False))
def test_public_functions_and_environments_refuse_without_breaking(name, rng):
    CALL_TARGETS[name](rng)
