"""No sentence of a rulebook is copied into the project.

The four QE texts are not part of the repository. ``tests/data/rulebook-8grams.txt`` holds
fingerprints (truncated SHA-256) of every run of eight consecutive words in them, so this
test runs anywhere without the texts. Where the texts are found (``QE_RULEBOOKS`` or
``../shared/rulebooks`` next to the repository), the fingerprint file is checked to be
current too. Regenerate it with ``python tests/test_no_quotations.py PATH_TO_RULEBOOKS``.
"""

import hashlib
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
FINGERPRINTS = ROOT / "tests" / "data" / "rulebook-8grams.txt"
RUN = 8
WORD = re.compile(r"\w+")
BOOKS = (
    "000_0ef07424459601d2.txt",
    "001_9218a1db4435f2ea.txt",
    "002_848ed3466865fee1.txt",
    "003_0080913c57f8b437.txt",
)


def runs(text):
    words = WORD.findall(text.casefold())
    return {" ".join(words[i : i + RUN]) for i in range(len(words) - RUN + 1)}


def fingerprint(run):
    return hashlib.sha256(run.encode("utf-8")).hexdigest()[:16]


def book_fingerprints(folder):
    prints = set()
    for name in BOOKS:
        text = (folder / name).read_text(encoding="utf-8", errors="replace")
        prints |= {fingerprint(run) for run in runs(text)}
    return prints


def books_folder():
    candidates = [os.environ.get("QE_RULEBOOKS"), ROOT.parent / "shared" / "rulebooks"]
    for candidate in candidates:
        if candidate and (pathlib.Path(candidate) / BOOKS[0]).is_file():
            return pathlib.Path(candidate)
    return None


def project_files():
    patterns = [
        "qe_rules/**/*.py",
        "qe_rules/**/*.toml",
        "qe_rules/**/*.json",
        "docs/**/*.md",
        "bench/*.py",
        "tests/**/*.py",
        "README.md",
        "CHANGELOG.md",
    ]
    for pattern in patterns:
        yield from sorted(ROOT.glob(pattern))


def test_no_project_file_repeats_eight_words_of_a_rulebook():
    committed = set(FINGERPRINTS.read_text(encoding="ascii").split())
    assert len(committed) > 3000
    folder = books_folder()
    if folder is not None:
        assert committed == book_fingerprints(folder), "regenerate tests/data/rulebook-8grams.txt"
    copied = []
    for path in project_files():
        for run in runs(path.read_text(encoding="utf-8")):
            if fingerprint(run) in committed:
                copied.append((str(path.relative_to(ROOT)), run))
    assert copied == []


def test_the_check_finds_a_copied_run():
    book = "One two three four five six seven eight nine ten."
    prints = {fingerprint(run) for run in runs(book)}
    assert len(prints) == 3
    assert any(
        fingerprint(r) in prints for r in runs("so: TWO three four five six seven eight nine")
    )
    assert not any(fingerprint(r) in prints for r in runs("two three four five six seven eight"))


if __name__ == "__main__":
    prints = book_fingerprints(pathlib.Path(sys.argv[1]))
    FINGERPRINTS.write_text("\n".join(sorted(prints)) + "\n", encoding="ascii")
    print(f"wrote {len(prints)} fingerprints to {FINGERPRINTS}")
