"""The reports as text: one idiom, ``to_text()`` and ``str()``, and the deprecated functions
that give the same text."""

import pytest

from qe_rules.simulation.comparison import PlayedComparison, compare, format_comparison
from qe_rules.simulation.stats import format_stats
from tests.support.simulation import MIXED, mixed_stats


def test_str_is_the_text_of_statistics_and_both_comparisons():
    stats = mixed_stats(40)
    first = compare(["en", "en-early"], 4, MIXED, 30, seed=2)
    each = compare(["en", "en-early"], 4, MIXED, 10, seed=2, play="each")
    assert isinstance(each, PlayedComparison)
    for result in (stats, first, each):
        text = result.to_text()
        assert str(result) == text and f"{result}" == text
        assert text.startswith(f"{result.games} games of ")
    assert "no single winner" in str(stats)
    assert "winner changes" in str(first)
    assert "seed 2, played under each rule set by the batch engine; compared with en:" in str(each)
    for result in (stats, first):
        assert result.to_text().splitlines()[0].endswith(f"played by the {result.engine} engine")


def test_the_deprecated_functions_give_the_same_text():
    stats = mixed_stats(40)
    c = compare(["en", "en-early"], 4, MIXED, 30, seed=2)
    with pytest.deprecated_call(match=r"stats\.to_text\(\)"):
        assert format_stats(stats) == stats.to_text()
    with pytest.deprecated_call(match=r"c\.to_text\(\)"):
        assert format_comparison(c) == c.to_text()


def test_a_played_comparison_reads_as_before():
    each = compare(["en", "en:beyond_table=zero"], 3, "random", 4, seed=1, play="each")
    lines = each.to_text().splitlines()
    assert lines[0] == (
        "4 games of 3 players (random, random, random), seed 1, played under each rule set "
        "by the batch engine; compared with en:"
    )
    assert lines[1].startswith("  en: winner changed 0.0% [0.0%, ")
    assert len(lines) == 3 and lines[2].startswith("  en:beyond_table=zero: winner changed ")
    assert "; tile awarded differently " in lines[2] and "; unsold tile " in lines[2]
