"""A rule set's scoring tables for one player count, ready for lookups, and the
diversification search: what :mod:`qe_rules.game.scoring` scores with, kept apart so that
the scorer and its readers read one module of tables.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Final, NamedTuple

import attrs

from qe_rules.components import Company, Industry, Nation
from qe_rules.rules.model import BeyondTable, Category, DiversificationSets, RuleSet

__all__ = [
    "TILE_LIMIT",
    "ScoringTables",
    "diversification",
    "most_points",
    "points_by_count",
    "scoring_tables",
]


@attrs.frozen
class ScoringTables:
    """One rule set's scoring data for one player count, ready for lookups."""

    nations: frozenset[Nation]
    industries: frozenset[Industry]
    deck: frozenset[Company]
    nationalization: tuple[int, ...]  # points by count, beyond-table policy applied
    nationalization_max: int
    monopolization: tuple[int, ...]
    monopolization_max: int
    set_points: tuple[int, ...]  # diversification points by set size
    diversification_max: int
    token_in_monopolization: bool
    token_in_diversification: bool
    diversification_sets: DiversificationSets
    tiles_once_per_category: bool
    max_zero_bid_rounds: int
    zero_bid_points: int
    bonus: int
    # (tiles by industry in Industry order, the token's index) -> points; filled on use
    industry_memo: dict[tuple[tuple[int, ...], int], _IndustryPoints] = attrs.field(
        factory=dict, eq=False
    )

    def industry_points(self, counts: tuple[int, ...], token: int) -> _IndustryPoints:
        """Monopolization and diversification of a seat holding ``counts`` tiles of each
        industry (in :class:`Industry` order) and the token of industry number ``token``."""
        found = self.industry_memo.get((counts, token))
        if found is None:
            found = self.industry_memo[counts, token] = self._industry_points(counts, token)
        return found

    def _industry_points(self, counts: tuple[int, ...], token: int) -> _IndustryPoints:
        in_monopolization = list(counts)
        if self.token_in_monopolization:
            in_monopolization[token] += 1
        in_diversification = list(counts)
        if self.token_in_diversification:
            in_diversification[token] += 1
        present = sorted((count for count in in_diversification if count > 0), reverse=True)
        return _IndustryPoints(
            monopolization=sum(self.monopolization[count] for count in in_monopolization),
            diversification=diversification(self, present),
            beyond_monopolization=tuple(
                (industry, count)
                for industry, count in zip(Industry, in_monopolization, strict=True)
                if count > self.monopolization_max
            ),
            distinct=len(present),
        )


class _IndustryPoints(NamedTuple):
    """One seat's points for its tiles by industry and its token."""

    monopolization: int
    diversification: int
    beyond_monopolization: tuple[tuple[Industry, int], ...]  # counts past the table's end
    distinct: int  # industries counted in diversification


def points_by_count(table: Mapping[int, int], size: int, policy: BeyondTable) -> tuple[int, ...]:
    """A points table as a tuple indexed by count, 0 to ``size``, past its end as ``policy``
    says: ``CAP`` keeps the last value, ``CONTINUE_PATTERN`` goes on with steps one larger
    each time (a table of one entry, or one whose last step does not rise, is capped: no
    pattern of growing steps to continue), ``ZERO`` scores 0.

    >>> points_by_count({2: 3, 3: 6, 4: 10}, 6, BeyondTable.CONTINUE_PATTERN)
    (0, 0, 3, 6, 10, 15, 21)
    >>> points_by_count({2: 3, 3: 6, 4: 10}, 5, BeyondTable.CAP)
    (0, 0, 3, 6, 10, 10)
    >>> points_by_count({1: 100, 2: 1}, 4, BeyondTable.CONTINUE_PATTERN)
    (0, 100, 1, 1, 1)
    """
    top = max(table)
    points = [table.get(count, 0) for count in range(min(top, size) + 1)]
    last = table[top]
    step = table[top] - table[top - 1] if top - 1 in table else None
    if step is not None and step <= 0:
        step = None
    for _ in range(top + 1, size + 1):
        if policy is BeyondTable.ZERO:
            points.append(0)
        elif policy is BeyondTable.CONTINUE_PATTERN and step is not None:
            step += 1
            last += step
            points.append(last)
        else:
            points.append(table[top])
    return tuple(points)


_CACHE: Final[dict[tuple[RuleSet, int], ScoringTables]] = {}
TILE_LIMIT: Final = 22  # more than any count a player can reach (21 tiles + a token)


def scoring_tables(ruleset: RuleSet, players: int) -> ScoringTables:
    """What scoring needs of ``ruleset`` at ``players`` players, made once and kept."""
    key = (ruleset, players)
    found = _CACHE.get(key)
    if found is not None:
        return found
    policy = ruleset.beyond_table
    tables = ScoringTables(
        nations=frozenset(ruleset.nations(players)),
        industries=frozenset(ruleset.industries(players)),
        deck=frozenset(ruleset.companies(players)),
        nationalization=points_by_count(ruleset.nationalization[players], TILE_LIMIT, policy),
        nationalization_max=max(ruleset.nationalization[players]),
        monopolization=points_by_count(ruleset.monopolization[players], TILE_LIMIT, policy),
        monopolization_max=max(ruleset.monopolization[players]),
        set_points=points_by_count(ruleset.diversification[players], len(Industry), policy),
        diversification_max=max(ruleset.diversification[players]),
        token_in_monopolization=Category.MONOPOLIZATION in ruleset.token_categories,
        token_in_diversification=Category.DIVERSIFICATION in ruleset.token_categories,
        diversification_sets=ruleset.diversification_sets,
        tiles_once_per_category=ruleset.tiles_once_per_category,
        max_zero_bid_rounds=ruleset.max_zero_bid_scorings(players),
        zero_bid_points=ruleset.zero_bid_points,
        bonus=ruleset.lowest_spend_bonus[players],
    )
    _CACHE[key] = tables
    return tables


@functools.lru_cache(maxsize=65536)
def _best_diversification(counts: tuple[int, ...], set_points: tuple[int, ...]) -> int:
    """The most diversification points from items with these per-industry ``counts``.

    Each item (a tile or the token) may be used in at most one set; a set holds items of
    distinct industries and scores ``set_points[size]``. This is an exact search over
    every choice of sets, not a greedy one:

    >>> _best_diversification((2, 2, 1, 1), (0, 0, 0, 8, 12, 17))
    16
    """
    present = tuple(sorted((c for c in counts if c > 0), reverse=True))
    if present != counts:
        return _best_diversification(present, set_points)
    best = 0
    width = len(present)
    for size in range(1, width + 1):
        points = set_points[size]
        if points <= 0:
            continue
        for chosen in itertools.combinations(range(width), size):
            rest = list(present)
            for index in chosen:
                rest[index] -= 1
            best = max(best, points + _best_diversification(tuple(rest), set_points))
    return best


def _largest_first(counts: Sequence[int], set_points: tuple[int, ...]) -> int:
    """Diversification as people score it by hand: a set of one item of every industry
    present, scored and removed, again until nothing is left.

    >>> _largest_first((2, 2, 1, 1, 1), (0, 0, 0, 8, 12, 17))
    17
    """
    left = [c for c in counts if c > 0]
    points = 0
    while left:
        points += set_points[len(left)]
        left = [c - 1 for c in left if c > 1]
    return points


def _every_full_set(counts: Sequence[int], set_points: tuple[int, ...]) -> int:
    """Diversification where a tile may count in several sets (``tiles_once_per_category``
    false): every set of one item of each industry present scores, and no two such sets
    hold the same items, so there are as many sets as the product of the counts.

    >>> _every_full_set((2, 2, 1, 1, 1), (0, 0, 0, 8, 12, 17))
    68
    """
    present = [c for c in counts if c > 0]
    return math.prod(present) * set_points[len(present)] if present else 0


def diversification(tables: ScoringTables, counts: Sequence[int]) -> int:
    if not tables.tiles_once_per_category:
        return _every_full_set(counts, tables.set_points)
    if tables.diversification_sets is DiversificationSets.LARGEST_FIRST:
        return _largest_first(counts, tables.set_points)
    return _best_diversification(tuple(sorted(counts, reverse=True)), tables.set_points)


def most_points(rules: RuleSet, players: int) -> dict[str, int]:
    """Bounds of the points of one seat in a game of ``rules``: per sheet field (company
    points, monopolization, diversification) a number no sheet scoring writes exceeds,
    and under ``"total"`` one for the total."""
    tables = scoring_tables(rules, players)
    most = {
        "company_points": sum(tile.vp for tile in tables.deck),
        "zero_bids": tables.zero_bid_points * tables.max_zero_bid_rounds,
        "nationalization": max(tables.nationalization),
        "monopolization": len(Industry) * max(tables.monopolization),
        "diversification": _MOST_SETS * max(tables.set_points),
        "lowest_spend_bonus": tables.bonus,
    }
    return {**most, "total": sum(most.values())}


_MOST_SETS: Final = 5**5  # more sets than 22 items of 5 industries can make
