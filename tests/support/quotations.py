"""The fingerprints of the rulebooks' runs of eight words, for checking generated text
(the same fingerprints as ``tests/properties/test_no_quotations.py``)."""

import functools
import hashlib
import pathlib
import re

FINGERPRINTS = pathlib.Path(__file__).resolve().parents[1] / "data" / "rulebook-8grams.txt"
RUN = 8
WORD = re.compile(r"\w+")


@functools.cache
def fingerprints():
    return frozenset(FINGERPRINTS.read_text(encoding="ascii").split())


def copied_runs(text):
    """The runs of eight words of ``text`` that a rulebook holds."""
    words = WORD.findall(text.casefold())
    runs = {" ".join(words[i : i + RUN]) for i in range(len(words) - RUN + 1)}
    known = fingerprints()
    return sorted(r for r in runs if hashlib.sha256(r.encode("utf-8")).hexdigest()[:16] in known)
