"""Rule-set diffs: every rule on which two rule sets differ, with both citations.

>>> import qe_rules as qe
>>> d = qe.diff("en", "en-early")
>>> [f.field for f in d.rules][:4]
['nation_assignment', 'first_auctioneer', 'secret_bid_may_equal_opening', 'tie_fallback']
>>> d.field("diversification").players
(3, 4, 5)
>>> [f.field for f in qe.diff("en", "de").rules], [m.name for m in qe.diff("en", "de").metadata]
(['peek_shows'], ['id', 'title', 'language', 'source'])
"""

from __future__ import annotations

from typing import Any

import attrs

from qe_rules.errors import InvalidArgument, shown
from qe_rules.rules.model import Provenance, RuleSet, encode_field, get_ruleset

__all__ = ["FieldDiff", "MetadataDiff", "RuleSetDiff", "diff"]

_PER_PLAYER = frozenset(RuleSet.per_player_fields())


@attrs.frozen
class FieldDiff:
    """One rule field whose values differ: both values, both citations.

    ``players`` lists the player counts whose values differ, for per-player-count fields
    (empty for the others).
    """

    field: str
    a: Any
    b: Any
    a_cite: Provenance
    b_cite: Provenance
    players: tuple[int, ...] = ()

    @property
    def label(self) -> str:
        """A short human label of the field."""
        return RuleSet.field_label(self.field)

    @property
    def group(self) -> str:
        """The field's group: setup, bidding, zero bids, special or scoring."""
        return RuleSet.field_group(self.field)

    def mirror(self) -> FieldDiff:
        """The same difference seen from the other side."""
        return FieldDiff(self.field, self.b, self.a, self.b_cite, self.a_cite, self.players)

    def to_dict(self) -> dict[str, Any]:
        """The difference as JSON types (values as in TOML files)."""
        return {
            "field": self.field,
            "label": self.label,
            "group": self.group,
            "a": encode_field(self.field, self.a),
            "b": encode_field(self.field, self.b),
            "a_cite": self.a_cite.to_dict(),
            "b_cite": self.b_cite.to_dict(),
            "players": list(self.players),
        }


@attrs.frozen
class MetadataDiff:
    """A metadata field (id, title, language, source) that differs."""

    name: str
    a: str
    b: str

    def mirror(self) -> MetadataDiff:
        """The same difference seen from the other side."""
        return MetadataDiff(self.name, self.b, self.a)


@attrs.frozen
class RuleSetDiff:
    """How rule set ``b`` differs from rule set ``a``.

    ``rules`` holds the rule fields whose values differ, in field order; ``agreeing`` the
    rule fields with equal values; ``metadata`` the differing metadata. A diff is false
    when the two rule sets are equal in every rule and every metadata field.
    """

    a: str
    b: str
    rules: tuple[FieldDiff, ...]
    agreeing: tuple[str, ...]
    metadata: tuple[MetadataDiff, ...]

    def __bool__(self) -> bool:
        return bool(self.rules or self.metadata)

    @property
    def rules_agree(self) -> bool:
        """Whether the two rule sets have the same rules (metadata may differ)."""
        return not self.rules

    def field(self, name: str) -> FieldDiff:
        """The difference in rule field ``name``; raises if the field does not differ."""
        for change in self.rules:
            if change.field == name:
                return change
        raise InvalidArgument(
            f"{self.a} and {self.b} agree on {shown(name)}; differing fields: "
            + (", ".join(c.field for c in self.rules) or "none")
        )

    def mirror(self) -> RuleSetDiff:
        """``diff(b, a)``."""
        return RuleSetDiff(
            self.b,
            self.a,
            tuple(c.mirror() for c in self.rules),
            self.agreeing,
            tuple(m.mirror() for m in self.metadata),
        )

    def to_dict(self) -> dict[str, Any]:
        """The diff as JSON types."""
        return {
            "a": self.a,
            "b": self.b,
            "rules_agree": self.rules_agree,
            "rules": [c.to_dict() for c in self.rules],
            "agreeing": list(self.agreeing),
            "metadata": [{"name": m.name, "a": m.a, "b": m.b} for m in self.metadata],
        }


def _differing_counts(a: Any, b: Any) -> tuple[int, ...]:
    counts = sorted(set(a) | set(b))
    return tuple(n for n in counts if a.get(n) != b.get(n))


def diff(a: RuleSet | str, b: RuleSet | str) -> RuleSetDiff:
    """Every rule field whose value differs between ``a`` and ``b`` (ids or rule sets)."""
    left, right = get_ruleset(a), get_ruleset(b)
    changes = []
    agreeing = []
    for name in RuleSet.rule_fields():
        va, vb = getattr(left, name), getattr(right, name)
        if va == vb:
            agreeing.append(name)
            continue
        players = _differing_counts(va, vb) if name in _PER_PLAYER else ()
        changes.append(FieldDiff(name, va, vb, left.cite(name), right.cite(name), players))
    metadata = tuple(
        MetadataDiff(name, getattr(left, name), getattr(right, name))
        for name in ("id", "title", "language", "source")
        if getattr(left, name) != getattr(right, name)
    )
    return RuleSetDiff(left.id, right.id, tuple(changes), tuple(agreeing), metadata)
