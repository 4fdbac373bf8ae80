"""Random rule sets that change any rule field, for properties of generated texts: the
library's own generator (``qe_rules.verification.texts.random_variant``) driven by
hypothesis, so that a failing variant shrinks."""

from hypothesis import strategies as st

from qe_rules.verification.texts import random_variant


def any_variants():
    """A built-in with any of its rule fields changed (player counts included)."""
    return st.randoms(use_true_random=False).map(random_variant)
