"""The static checks: the deck of every player count (``deck-size``, ``deck-nations``,
``deck-industries``) and the reach of every scoring table (``table-coverage``), read from
the rule set's data.

``static_checks`` is internal to the package; :func:`qe_rules.verify` runs it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

import attrs

from qe_rules.components import Industry
from qe_rules.game.scoring import PlayerRecord
from qe_rules.rules.model import Category, RuleSet
from qe_rules.verification.report import Coverage, Example, Finding, gap_finding, holds, violated

__all__: list[str] = []

_FROM_DATA: Final = Coverage(True, None, "read from the rule set's data for every player count")


def static_checks(rules: RuleSet, thorough: bool) -> Iterator[Finding]:
    """The deck and table checks: computed from the rule set's data, so exhaustive."""
    for finding in _deck_and_table_checks(rules):
        yield attrs.evolve(finding, coverage=_FROM_DATA)


def _deck_and_table_checks(rules: RuleSet) -> Iterator[Finding]:
    for players in rules.player_counts:
        deck = rules.companies(players)
        stated = rules.deck_sizes[players]
        if len(deck) == stated:
            yield holds(
                "deck-size",
                f"{players} players: the removals leave {stated} tiles, as stated",
                ("removed_companies", "deck_sizes"),
                players,
            )
        else:
            yield violated(
                "deck-size",
                f"{players} players: the removals leave {len(deck)} tiles, but the text "
                f"states {stated}",
                ("removed_companies", "deck_sizes"),
                players,
            )
        stray = sorted({c.nation.code for c in deck} - {n.code for n in rules.nations(players)})
        if stray:
            yield violated(
                "deck-nations",
                f"{players} players: the deck holds tiles of {', '.join(stray)}, a nation "
                "nobody plays",
                ("removed_companies", "nations_in_play"),
                players,
            )
        else:
            yield holds(
                "deck-nations",
                f"{players} players: every tile belongs to a nation in play",
                ("removed_companies", "nations_in_play"),
                players,
            )
        stray = sorted(
            {c.industry.label for c in deck} - {i.label for i in rules.industries(players)}
        )
        if stray:
            yield violated(
                "deck-industries",
                f"{players} players: the deck holds {', '.join(stray)} tiles, but no "
                "token of that industry is in play",
                ("removed_companies", "industries_in_play"),
                players,
            )
        else:
            yield holds(
                "deck-industries",
                f"{players} players: every tile's industry has a token in play",
                ("removed_companies", "industries_in_play"),
                players,
            )
        yield from _table_coverage(rules, players)


def _score_example(rules: RuleSet, players: int, first: PlayerRecord) -> Example:
    """A score file: seat 0 is ``first``; the others hold nothing, seat 1 spends most."""
    nations = [n for n in rules.nations(players) if n is not first.nation]
    tokens = [i for i in rules.industries(players) if i is not first.industry]
    records = [first] + [
        PlayerRecord(nations[seat], tokens[seat], (), 3 if seat == 0 else 2)
        for seat in range(players - 1)
    ]
    return Example(
        "scoring",
        {
            "ruleset": rules.id,
            "players": [r.to_dict() for r in records],
        },
    )


def _table_coverage(rules: RuleSet, players: int) -> Iterator[Finding]:
    deck = rules.companies(players)
    tokens = rules.industries(players)

    # nationalization: the most tiles of one nation a player can hold
    nation, count = max(
        ((n, sum(1 for c in deck if c.nation is n)) for n in rules.nations(players)),
        key=lambda item: item[1],
    )
    top = max(rules.nationalization[players])
    if count > top:
        held = tuple(c for c in deck if c.nation is nation)
        record = PlayerRecord(nation, tokens[0], held, 1)
        yield gap_finding(
            rules,
            "table-coverage",
            "nationalization-beyond-table",
            f"{players} players: a player can hold {count} tiles of their nation "
            f"({nation.code}), the nationalization table stops at {top}",
            ("nationalization", "beyond_table"),
            players,
            _score_example(rules, players, record),
        )
    else:
        yield holds(
            "table-coverage",
            f"{players} players: nationalization covers up to {count} tiles of one nation",
            ("nationalization",),
            players,
        )

    # monopolization: the most items of one industry (tiles, and the token if it counts)
    token_counts = Category.MONOPOLIZATION in rules.token_categories

    def reach(industry: Industry) -> int:
        tiles = sum(1 for c in deck if c.industry is industry)
        return tiles + (1 if token_counts and industry in tokens else 0)

    industry = max(Industry, key=reach)
    count = reach(industry)
    top = max(rules.monopolization[players])
    if count > top:
        held = tuple(c for c in deck if c.industry is industry)
        token = industry if token_counts and industry in tokens else tokens[0]
        record = PlayerRecord(held[0].nation, token, held, 1)
        yield gap_finding(
            rules,
            "table-coverage",
            "monopolization-beyond-table",
            f"{players} players: a player can hold {count} of one industry "
            f"({industry.label}: {count - (1 if token_counts else 0)} tiles"
            f"{' and the token' if token_counts else ''}), the monopolization table stops "
            f"at {top}",
            ("monopolization", "token_categories", "beyond_table"),
            players,
            _score_example(rules, players, record),
        )
    else:
        yield holds(
            "table-coverage",
            f"{players} players: monopolization covers up to {count} of one industry",
            ("monopolization", "token_categories"),
            players,
        )

    # diversification: the most distinct industries a player can hold
    in_deck = {c.industry for c in deck}
    token_div = Category.DIVERSIFICATION in rules.token_categories
    reachable = in_deck | (set(tokens) if token_div else set())
    top = max(rules.diversification[players])
    if len(reachable) > top:
        held = tuple(next(c for c in deck if c.industry is i) for i in Industry if i in in_deck)
        missing = [i for i in tokens if i not in in_deck]
        token = missing[0] if token_div and missing else tokens[0]
        record = PlayerRecord(held[0].nation, token, held, 1)
        yield gap_finding(
            rules,
            "table-coverage",
            "diversification-beyond-table",
            f"{players} players: a player can hold {len(reachable)} distinct industries, "
            f"the diversification table stops at {top}",
            ("diversification", "token_categories", "beyond_table"),
            players,
            _score_example(rules, players, record),
        )
    else:
        yield holds(
            "table-coverage",
            f"{players} players: diversification covers sets of up to {len(reachable)} industries",
            ("diversification", "token_categories"),
            players,
        )
