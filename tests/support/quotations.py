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


# ----------------------------------------------------------------- the readings' quotes

QUOTES = pathlib.Path(__file__).resolve().parents[1] / "data" / "reading-quotes.txt"
BOOKS = {
    "de": "000_0ef07424459601d2.txt",
    "de-summary": "001_9218a1db4435f2ea.txt",
    "en-early": "002_848ed3466865fee1.txt",
    "en": "003_0080913c57f8b437.txt",
}


def books_folder():
    """The folder of the four texts, where this machine has them (``QE_RULEBOOKS``, or
    ``shared/rulebooks`` beside the repository or its worktree folder), else ``None``."""
    import os

    root = pathlib.Path(__file__).resolve().parents[2]
    for candidate in (
        os.environ.get("QE_RULEBOOKS"),
        root.parent / "shared" / "rulebooks",
        root.parent.parent / "shared" / "rulebooks",
    ):
        if candidate and (pathlib.Path(candidate) / BOOKS["en"]).is_file():
            return pathlib.Path(candidate)
    return None


def quote_fingerprint(source, quote):
    """The fingerprint of a reading's quote: its source and its words (case folded)."""
    words = " ".join(WORD.findall(quote.casefold()))
    return hashlib.sha256(f"{source}|{words}".encode()).hexdigest()[:16]


def quote_in_text(quote, text):
    """Whether the words of ``quote`` are a run of the words of ``text`` (case folded;
    punctuation and a broken ligature between words do not count)."""
    words = " ".join(WORD.findall(quote.casefold()))
    return f" {words} " in " " + " ".join(WORD.findall(text.casefold())) + " "


if __name__ == "__main__":  # python -m tests.support.quotations [PATH]: write QUOTES
    import sys

    import qe_rules as qe

    folder = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else books_folder()
    texts = {
        k: (folder / v).read_text(encoding="utf-8", errors="replace") for k, v in BOOKS.items()
    }
    found = set()
    for question in qe.open_questions():
        for reading in question.readings:
            if not quote_in_text(reading.quote, texts[reading.source]):
                sys.exit(f"{question.field}={reading.value}: {reading.quote!r} is not in its text")
            found.add(quote_fingerprint(reading.source, reading.quote))
    QUOTES.write_text("".join(f"{f}\n" for f in sorted(found)), encoding="ascii")
