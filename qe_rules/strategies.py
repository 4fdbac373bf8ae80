"""Hypothesis strategies for QE: rule sets, player records, games.

Needs the ``verify`` extra (``pip install 'qe-rules[verify]'``); ``import qe_rules``
works without it. Apps that embed the library can property-test themselves with these::

    from hypothesis import given
    from qe_rules import strategies as qst

    @given(qst.scoring_inputs())
    def test_my_scoreboard(case):
        ruleset, records = case
        ...
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

from qe_rules.rulesets import RULESETS, RuleSet
from qe_rules.scoring import PlayerRecord

__all__ = [
    "builtin_rulesets",
    "player_counts",
    "player_records",
    "scoring_inputs",
]


def builtin_rulesets() -> st.SearchStrategy[RuleSet]:
    """One of the four built-in rule sets."""
    return st.sampled_from(list(RULESETS.values()))


def player_counts(ruleset: RuleSet) -> st.SearchStrategy[int]:
    """A player count the rule set allows."""
    return st.sampled_from(ruleset.player_counts)


@st.composite
def player_records(
    draw: st.DrawFn,
    ruleset: RuleSet,
    players: int,
    *,
    max_spent: int = 80,
) -> list[PlayerRecord]:
    """Valid end-of-game records for ``players`` seats: distinct nations and tokens in
    play, the deck shared out (some tiles may be unsold), spends and zero-bid rounds in
    range. Spends are drawn from a small range now and then, so ties are common.
    """
    nations = draw(st.permutations(ruleset.nations(players)))[:players]
    tokens = draw(st.permutations(ruleset.industries(players)))[:players]
    deck = ruleset.companies(players)
    # each tile goes to a seat, or now and then stays unsold (-1)
    owner = st.sampled_from((*range(players),) * 4 + (-1,))
    owners = draw(st.lists(owner, min_size=len(deck), max_size=len(deck)))
    top = draw(st.sampled_from((3, max_spent)))
    zero_max = ruleset.max_zero_bid_scorings(players)
    records = []
    for seat in range(players):
        held = [tile for tile, owner in zip(deck, owners, strict=True) if owner == seat]
        records.append(
            PlayerRecord(
                nations[seat],
                tokens[seat],
                draw(st.permutations(held)),
                draw(st.integers(0, top)),
                draw(st.integers(0, zero_max)),
            )
        )
    return records


@st.composite
def scoring_inputs(
    draw: st.DrawFn, rulesets: Sequence[RuleSet] | None = None
) -> tuple[RuleSet, list[PlayerRecord]]:
    """A rule set (built-in unless given) with valid records for one of its player counts."""
    ruleset = draw(st.sampled_from(list(rulesets or RULESETS.values())))
    players = draw(player_counts(ruleset))
    return ruleset, draw(player_records(ruleset, players))
