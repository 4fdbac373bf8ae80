"""Whatever the library accepts is usable (issue 31): every document a reader accepts,
and every random valid variant, works with ``to_dict``, ``str``, ``repr``,
``json.dumps``, the text and SVG renderers, ``merge``, ``replay``, a full game and a
bounded ``verify``, raising nothing but a :class:`qe_rules.RulesError`."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from tests.support import examples
from tests.support.hostile import fuzz_documents, play_variant, random_variant


@given(rng=st.randoms(use_true_random=False))
@examples(100)
def test_every_accepted_document_is_usable(rng):
    fuzz_documents(rng)


@given(rng=st.randoms(use_true_random=False))
@examples(12)
def test_every_random_valid_variant_plays_replays_and_draws(rng):
    play_variant(rng, random_variant(rng), verify=False)


@pytest.mark.slow
@given(rng=st.randoms(use_true_random=False))
@examples(3)
def test_every_random_valid_variant_verifies_within_the_bound(rng):
    # the bound is on work (CANDIDATES_PER_PATH bid rounds per path of a sale search),
    # not on time: bench/fuzz.py measures the time
    report = qe.verify(random_variant(rng))
    assert report.findings and all(f.coverage is not None for f in report.findings)
