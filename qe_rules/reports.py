"""Readable reports: rule sets, diffs, the discrepancy register and the glossary, as plain
text or Markdown.

The Markdown pages under ``docs/`` that describe the built-in rule sets and the
reconciliation of the texts are made by :func:`generated_pages`; a test fails when the
committed pages are stale. Regenerate them with ``python -m qe_rules.reports docs``.
"""

from __future__ import annotations

import enum
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from qe_rules.components import Company, Industry, Nation
from qe_rules.diffs import RuleSetDiff, diff
from qe_rules.discrepancies import DISCREPANCIES, TOPICS, Discrepancy, DiscrepancyKind
from qe_rules.glossary import Term
from qe_rules.rulesets import RULESETS, SOURCES, Provenance, RuleSet

__all__ = [
    "describe",
    "diff_markdown",
    "diff_text",
    "discrepancies_markdown",
    "discrepancies_text",
    "generated_pages",
    "glossary_text",
    "reconciliation_markdown",
    "ruleset_markdown",
    "ruleset_text",
]

_GROUPS = ("setup", "bidding", "zero bids", "special", "scoring")


# --------------------------------------------------------------------------- values


def _item(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Company):
        return str(value)
    if isinstance(value, Nation):
        return value.code
    if isinstance(value, Industry):
        return value.label
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k}: {v} VP" for k, v in sorted(value.items())) or "(empty)"
    if isinstance(value, frozenset):
        return ", ".join(sorted(_item(v) for v in value)) or "none"
    if isinstance(value, tuple):
        return ", ".join(_item(v) for v in value) or "none"
    return str(value)


def _counts(counts: Sequence[int]) -> str:
    if len(counts) > 1 and list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]}"
    return ", ".join(map(str, counts))


def describe(name: str, value: Any) -> str:
    """A rule field's value in words, e.g. ``"3-4 players: 3: 4 VP, 4: 8 VP; 5 players:
    ..."`` for a table per player count.

    >>> import qe_rules as qe
    >>> describe("diversification", qe.get_ruleset("en").diversification)
    '3-4 players: 3: 4 VP, 4: 8 VP; 5 players: 3: 8 VP, 4: 12 VP, 5: 17 VP'
    >>> describe("scoring_order", qe.get_ruleset("en-early").scoring_order)
    'spending, companies, zero_bids, nationalization, monopolization, diversification'
    """
    if name in (
        "player_counts",
        "zero_bid_player_counts",
        "last_tile_without_auctioneer",
        "peek_player_counts",
    ):
        return f"{_counts(value)} players" if value else "none"
    if name == "zero_bid_limit_per_round" and value == 0:
        return "no limit"
    if isinstance(value, Mapping) and name not in ("provenance",):
        groups: dict[str, list[int]] = {}
        for players, inner in sorted(value.items()):
            groups.setdefault(_item(inner), []).append(players)
        if len(groups) == 1:
            return next(iter(groups))
        return "; ".join(f"{_counts(counts)} players: {text}" for text, counts in groups.items())
    return _item(value)


def _cite(cite: Provenance) -> str:
    marker = "" if cite.basis.value == "stated" else f" [{cite.basis.value}]"
    return f"{cite.source} §{cite.section}{marker}"


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


# --------------------------------------------------------------------------- rule sets


def _fields_by_group() -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {group: [] for group in _GROUPS}
    for name in RuleSet.rule_fields():
        groups[RuleSet.field_group(name)].append(name)
    return groups


def ruleset_text(ruleset: RuleSet) -> str:
    """Every rule of a rule set with its value and citation, as plain text."""
    lines = [f"{ruleset.id}: {ruleset.title} (language {ruleset.language})"]
    for group, names in _fields_by_group().items():
        lines += ["", group.upper()]
        for name in names:
            cite = ruleset.cite(name)
            lines.append(f"  {RuleSet.field_label(name)}: {describe(name, getattr(ruleset, name))}")
            lines.append(f"      {name}; {_cite(cite)}: {cite.summary}")
    if ruleset.interpretations:
        lines += ["", "INTERPRETATIONS"]
        for item in ruleset.interpretations:
            gaps = f" (acknowledges: {', '.join(item.gaps)})" if item.gaps else ""
            lines.append(f"  {item.code}{gaps}: {item.summary}")
    return "\n".join(lines)


def ruleset_markdown(ruleset: RuleSet) -> str:
    """A Markdown page for a rule set: every rule, its value and its citation."""
    source = SOURCES.get(ruleset.source)
    lines = [
        f"# Rule set `{ruleset.id}`",
        "",
        "<!-- Generated by `python -m qe_rules.reports docs`; do not edit by hand. -->",
        "",
        f"{ruleset.title}. Language: `{ruleset.language}`. Source: `{ruleset.source}`"
        + (f" ({source.kind})." if source else "."),
        "",
        "Each rule gives its value, then where it comes from: source id, section and a "
        "paraphrase. A basis other than *stated* is marked: *silent* (the text says nothing), "
        "*interpretation* (the library's reading of an open text), *corrected* (a slip set "
        "right).",
    ]
    for group, names in _fields_by_group().items():
        lines += ["", f"## {group.capitalize()}", "", "| rule | value | source |", "|---|---|---|"]
        for name in names:
            cite = ruleset.cite(name)
            lines.append(
                f"| {_md(RuleSet.field_label(name))} (`{name}`) "
                f"| {_md(describe(name, getattr(ruleset, name)))} "
                f"| {_md(_cite(cite))}: {_md(cite.summary)} |"
            )
    if ruleset.interpretations:
        lines += ["", "## Interpretations", ""]
        for item in ruleset.interpretations:
            gaps = (
                f" Acknowledges the rule gaps {', '.join(f'`{g}`' for g in item.gaps)}."
                if (item.gaps)
                else ""
            )
            fields = ", ".join(f"`{f}`" for f in item.fields)
            lines.append(f"- **`{item.code}`** ({fields}): {item.summary}{gaps}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- diffs


def diff_text(change: RuleSetDiff) -> str:
    """A diff as plain text: each differing rule with both values and citations."""
    agree = len(change.agreeing)
    if change.rules_agree:
        head = f"{change.a} and {change.b} agree on every rule ({agree} rules)."
    else:
        head = (
            f"{change.a} -> {change.b}: {len(change.rules)} rule"
            f"{'s differ' if len(change.rules) != 1 else ' differs'}, {agree} agree."
        )
    lines = [head]
    if change.metadata:
        lines.append("Metadata differs: " + ", ".join(m.name for m in change.metadata) + ".")
    width = max(len(change.a), len(change.b))
    group = None
    for field in change.rules:
        if field.group != group:
            group = field.group
            lines += ["", group.upper()]
        players = f" (differs for {_counts(field.players)} players)" if field.players else ""
        lines.append(f"  {field.label} [{field.field}]{players}")
        for side, value, cite in (
            (change.a, field.a, field.a_cite),
            (change.b, field.b, field.b_cite),
        ):
            lines.append(f"    {side.ljust(width)}  {describe(field.field, value)}")
            lines.append(f"    {' ' * width}  {_cite(cite)}: {cite.summary}")
    return "\n".join(lines)


def diff_markdown(change: RuleSetDiff) -> str:
    """A diff as a Markdown table."""
    if change.rules_agree:
        text = f"`{change.a}` and `{change.b}` agree on every rule ({len(change.agreeing)} rules)."
        if change.metadata:
            text += " Only metadata differs: " + ", ".join(m.name for m in change.metadata) + "."
        return text + "\n"
    lines = [
        f"| rule | `{change.a}` | `{change.b}` |",
        "|---|---|---|",
    ]
    for field in change.rules:
        players = f" ({_counts(field.players)} players)" if field.players else ""
        cells = [
            f"{_md(describe(field.field, value))}<br>*{_md(_cite(cite))}*"
            for value, cite in ((field.a, field.a_cite), (field.b, field.b_cite))
        ]
        lines.append(f"| {_md(field.label)}{players} (`{field.field}`) | {cells[0]} | {cells[1]} |")
    lines += ["", f"The other {len(change.agreeing)} rules agree."]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- register


def discrepancies_text(entries: Iterable[Discrepancy]) -> str:
    """Register entries as plain text."""
    lines: list[str] = []
    for entry in entries:
        if lines:
            lines.append("")
        lines.append(f"{entry.id} [{entry.kind.value}, {entry.topic}]")
        lines.append(f"  {entry.summary}")
        for reading in entry.readings:
            lines.append(f"  - {reading.source} §{reading.section}: {reading.says}")
        lines.append(f"  Resolution: {entry.resolution}")
        refs = [f"field {f}" for f in entry.fields] + [
            f"interpretation {i}" for i in entry.interpretations
        ]
        if refs:
            lines.append(f"  Encoded by: {', '.join(refs)}")
    return "\n".join(lines) if lines else "No entries."


def discrepancies_markdown(entries: Iterable[Discrepancy]) -> str:
    """Register entries as Markdown, grouped by topic."""
    chosen = list(entries)
    lines: list[str] = []
    for topic in TOPICS:
        in_topic = [e for e in chosen if e.topic == topic]
        if not in_topic:
            continue
        lines += [f"### {topic.capitalize()}", ""]
        for entry in in_topic:
            lines.append(f"**`{entry.id}`** ({entry.kind.value}): {_md(entry.summary)}")
            lines.append("")
            for reading in entry.readings:
                lines.append(f"- `{reading.source}` §{reading.section}: {_md(reading.says)}")
            lines.append(f"- *Resolution:* {_md(entry.resolution)}")
            refs = [f"field `{f}`" for f in entry.fields] + [
                f"interpretation `{i}`" for i in entry.interpretations
            ]
            if refs:
                lines.append(f"- *Encoded by:* {', '.join(refs)}")
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


# --------------------------------------------------------------------------- glossary


def glossary_text(terms: Iterable[Term]) -> str:
    """Glossary terms as an aligned table, with notes and variants underneath."""
    rows = list(terms)
    if not rows:
        return "No terms."
    width_en = max(len(t.en) for t in rows)
    width_de = max(len(t.de) for t in rows)
    lines = [f"{'English'.ljust(width_en)}  {'German'.ljust(width_de)}  kind"]
    for term in rows:
        lines.append(f"{term.en.ljust(width_en)}  {term.de.ljust(width_de)}  {term.kind}")
        variants = [*term.en_variants, *term.de_variants]
        if variants:
            lines.append(f"{'':{width_en}}  also: {', '.join(variants)}")
        if term.note:
            lines.append(f"{'':{width_en}}  note: {term.note}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- pages


def reconciliation_markdown() -> str:
    """``docs/reconciliation.md``: how the four texts differ, from the diffs and the
    register."""
    counts = {kind: sum(1 for d in DISCREPANCIES if d.kind is kind) for kind in DiscrepancyKind}
    lines = [
        "# Reconciling the QE texts",
        "",
        "<!-- Generated by `python -m qe_rules.reports docs`; do not edit by hand. -->",
        "",
        "The library encodes four texts of QE as rule sets. This page shows where their rules "
        "differ (from `qe.diff`) and every place where the texts differ or leave a question "
        "open (from the discrepancy register, `qe.DISCREPANCIES`).",
        "",
        "| id | text | language | kind |",
        "|---|---|---|---|",
    ]
    for source in SOURCES.values():
        lines.append(f"| `{source.id}` | {source.title} | {source.language} | {source.kind} |")
    lines += ["", "## Rule differences", ""]
    base = RULESETS["en"]
    for other in list(RULESETS.values())[1:]:
        lines += [f"### `en` and `{other.id}`", "", diff_markdown(diff(base, other))]
    lines += [
        "## The discrepancy register",
        "",
        f"{len(DISCREPANCIES)} entries: "
        + ", ".join(f"{n} {kind.value}" for kind, n in counts.items())
        + ". A *rule* difference changes play or score; *wording* is the same rule in other "
        "words; a *slip* is a text contradicting itself or the others; an *ambiguity* is a "
        "text allowing two readings or leaving a case open. `qe-rules discrepancies "
        "--class slip` lists one kind.",
        "",
        discrepancies_markdown(DISCREPANCIES),
    ]
    return "\n".join(lines).rstrip() + "\n"


def generated_pages() -> dict[str, str]:
    """Every generated documentation page, by path relative to ``docs/``."""
    pages = {"reconciliation.md": reconciliation_markdown()}
    for ruleset in RULESETS.values():
        pages[f"rulesets/{ruleset.id}.md"] = ruleset_markdown(ruleset)
    return pages


def _write_pages(folder: str) -> None:
    import pathlib

    root = pathlib.Path(folder)
    for name, text in generated_pages().items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    _write_pages(sys.argv[1] if len(sys.argv) > 1 else "docs")
