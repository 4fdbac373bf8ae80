"""Random rule sets that change any rule field, and the checks that a rulebook states
every rule field's value."""

import enum
import re

from hypothesis import strategies as st

from qe_rules import COMPANIES, RULESETS, Category, Industry, Nation
from qe_rules.rules.model import RuleSet
from qe_rules.texts.catalogs import value_keys

_NUMBERS = {
    "min_opening_bid": (0, 5),
    "min_secret_bid": (0, 5),
    "ties_before_fallback": (1, 5),
    "zero_bid_points": (0, 5),
    "zero_bid_limit_per_round": (0, 3),
    "peeks_per_player": (0, 3),
}
_COUNT_LISTS = ("zero_bid_player_counts", "last_tile_without_auctioneer", "peek_player_counts")
_TABLES = ("nationalization", "monopolization", "diversification")


DASH = "\N{EN DASH}"  # between the ends of a run of player counts, as the catalogs write it


def _subset(draw, items):
    return tuple(x for x in items if draw(st.booleans()))


@st.composite
def _table(draw):
    start = draw(st.integers(1, 3))
    points = draw(st.lists(st.integers(0, 30), min_size=1, max_size=5))
    return {start + i: p for i, p in enumerate(points)}


@st.composite
def any_variants(draw):
    """A built-in with any of its rule fields changed (player counts included)."""
    base = draw(st.sampled_from(list(RULESETS.values())))
    counts = base.player_counts
    changes = {}
    if draw(st.integers(0, 3)) == 0:
        counts = tuple(sorted(draw(st.sets(st.sampled_from((3, 4, 5)), min_size=1))))
        changes["player_counts"] = counts
        for name in RuleSet.per_player_fields():
            changes[name] = {n: getattr(base, name)[n] for n in counts}
        for name in _COUNT_LISTS:
            changes[name] = tuple(n for n in getattr(base, name) if n in counts)
    for name in RuleSet.rule_fields():
        if name == "player_counts" or not draw(st.booleans()):
            continue
        value = getattr(base, name)
        if isinstance(value, bool):
            changes[name] = not value
        elif isinstance(value, enum.Enum):
            changes[name] = draw(st.sampled_from(list(type(value))))
        elif name in _NUMBERS:
            changes[name] = draw(st.integers(*_NUMBERS[name]))
        elif name in _COUNT_LISTS:
            changes[name] = _subset(draw, counts)
        elif name == "token_categories":
            changes[name] = frozenset(
                _subset(draw, (Category.MONOPOLIZATION, Category.DIVERSIFICATION))
            )
        elif name == "scoring_order":
            changes[name] = tuple(draw(st.permutations(list(Category))))
        elif name in _TABLES:
            changes[name] = {n: draw(_table()) for n in counts}
        elif name == "lowest_spend_bonus":
            changes[name] = {n: draw(st.integers(0, 10)) for n in counts}
        elif name == "deck_sizes":
            changes[name] = {n: draw(st.integers(1, 21)) for n in counts}
        elif name == "removed_companies":
            changes[name] = {
                n: tuple(draw(st.lists(st.sampled_from(COMPANIES), max_size=8, unique=True)))
                for n in counts
            }
        elif name == "nations_in_play":
            changes[name] = {
                n: tuple(draw(st.permutations(list(Nation))))[: draw(st.integers(n, 5))]
                for n in counts
            }
        elif name == "industries_in_play":
            changes[name] = {
                n: tuple(draw(st.permutations(list(Industry))))[: draw(st.integers(n, 5))]
                for n in counts
            }
    return base.evolve(**changes) if changes else base


def _named_counts(text):
    """Every whole number ``text`` names, a run such as 3-5 (en dash) naming 3, 4 and 5."""
    named = {int(n) for n in re.findall(r"\d+", text)}
    for low, high in re.findall(rf"(\d+){DASH}(\d+)", text):
        named |= set(range(int(low), int(high) + 1))
    return named


def table_rows(markdown):
    """The rows of the Markdown tables in ``markdown``, as lists of cells (headers too)."""
    rows = []
    for line in markdown.splitlines():
        if line.startswith("| ") and not line.startswith("|---"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split(" | ")])
    return rows


def label_counts(label):
    """The player counts a row label names: a run (3-4, en dash) or a list (3, 5)."""
    if DASH in label:
        low, high = label.split(DASH)
        return set(range(int(low), int(high) + 1))
    return {int(part) for part in label.split(", ")}


def row_for(rows, players):
    found = [
        row
        for row in rows
        if re.fullmatch(rf"[\d{DASH}, ]+", row[0]) and players in label_counts(row[0])
    ]
    assert len(found) == 1, (players, rows)
    return found[0]


def check_every_value(book, rs, words):
    """Assert that the rulebook ``book`` states every rule field of ``rs`` by the catalog
    ``words``; returns the number of checks."""
    checks = 0
    vp = words.word("vp")
    for name in RuleSet.rule_fields():
        text = book.field_text(name)
        assert text, f"{name} is not in the rulebook"
        value = getattr(rs, name)
        keys = value_keys(name)
        if isinstance(value, bool | enum.Enum):
            own = "true" if value is True else "false" if value is False else value.value
            assert words.template(name, own) in text, name
            for other in keys:
                template = words.template(name, other)
                if other != own and template != words.template(name, own):
                    assert template not in text, (name, other)
            checks += 1
        elif isinstance(value, int):
            if words.has_template(name, str(value)):
                assert words.template(name, str(value)) in text, name
            else:
                assert re.search(rf"(?<!\d){value}(?!\d)", text), (name, value)
            checks += 1
        elif name == "scoring_order":
            items = [line[3:] for line in text.splitlines() if line.startswith("1. ")]
            assert items == [words.category(c.value) for c in value], name
            checks += 1
        elif name == "token_categories":
            if not value:
                assert words.template(name, "none") in text
            for category in value:
                assert words.category(category.value) in text, name
                checks += 1
        elif isinstance(value, tuple):
            if not value:
                assert words.template(name, "none") in text, name
            named = _named_counts(text)
            for players in value:
                assert players in named, (name, players)
                checks += 1
        elif name in _TABLES:
            rows = table_rows(text)
            header = rows[0]
            for players in rs.player_counts:
                row = row_for(rows, players)
                for count, points in value[players].items():
                    assert row[header.index(str(count))] == str(points), (name, players, count)
                    checks += 1
        elif name == "lowest_spend_bonus":
            for players in rs.player_counts:
                assert f"{value[players]} {vp}" in text, (name, players)
                checks += 1
        else:  # the components table
            rows = table_rows(text)
            label = words.label(name)
            column = rows[0].index(label[:1].upper() + label[1:])
            for players in rs.player_counts:
                cell = row_for(rows, players)[column]
                held = value[players]
                if name == "deck_sizes":
                    expected = str(held)
                elif name == "industries_in_play":
                    expected = ", ".join(words.industry(i.name) for i in held)
                elif name == "nations_in_play":
                    expected = ", ".join(n.code for n in held)
                else:
                    expected = ", ".join(map(str, held)) or words.word("none")
                assert cell == expected, (name, players, cell, expected)
                checks += 1
    return checks
