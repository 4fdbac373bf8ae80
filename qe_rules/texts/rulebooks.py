"""Rulebooks written from a rule set: every rule in words, in English or German.

:func:`rulebook` turns any rule set (a built-in, a file, a spec string) into a
:class:`Rulebook`: sections of paragraphs, tables and lists, each tagged with the rule
fields it states or the frame paragraph it writes. Every sentence comes from a template of
the language's catalog (:mod:`qe_rules.texts.catalogs`), one per rule field and value
(and one per pair of values where a sentence relates two rules), so the German and the
English rulebook of a rule set are translations of each other, and a rulebook cannot
disagree with the game the engine plays; :mod:`qe_rules.verification.texts` checks that
it does not. ``edition="print"`` gives the rules a player reads::

    >>> import qe_rules as qe
    >>> book = qe.rulebook("en-early", lang="de", against="en")
    >>> print(book.field_text("secret_bid_may_equal_opening"))
    Ein geheimes Gebot darf genauso hoch sein wie das Eröffnungsgebot.
    >>> book.differences == tuple(c.field for c in qe.diff("en", "en-early").rules)
    True
    >>> book.to_markdown().startswith("# QE: Spielregel")
    True

``to_markdown()`` and ``to_html()`` write it out; ``to_html(picture=qe.svg.tile)`` draws
the tiles (this module, at the level of the texts, does not draw; the command line and
the web table pass the picture function), and ``to_html(fragment=True)`` leaves out the
``<html>`` wrapper for a page that embeds it.
"""

from __future__ import annotations

import enum
import functools
import html
import json
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

import attrs

from qe_rules.components import Company, Industry
from qe_rules.errors import InvalidArgument, RulesError, shown
from qe_rules.game.facts import applies
from qe_rules.game.scoring import GameResult, PlayerRecord, score_game
from qe_rules.rules.files import SOURCES, house_rule_values, read_text
from qe_rules.rules.model import (
    RULESETS,
    Basis,
    Category,
    RuleSet,
    decode_field,
    encode_field,
    get_ruleset,
    text_support,
)
from qe_rules.texts.catalogs import Catalog, catalog, conditions_hold, outline
from qe_rules.texts.diffs import diff
from qe_rules.texts.questions import OpenQuestion, open_questions

__all__ = [
    "COMPONENT_FIELDS",
    "EDITIONS",
    "PAPER_SIZES",
    "TABLE_FIELDS",
    "Block",
    "Rulebook",
    "Section",
    "applies",
    "field_sentence",
    "fill",
    "frame_text",
    "related_sentence",
    "rulebook",
    "rulebook_stylesheet",
    "template_key",
]

PAPER_SIZES: Final = ("a4", "letter")
"""The paper sizes the HTML rulebook's print stylesheet sets (``@page size``)."""

EDITIONS: Final = ("reference", "print")
"""The editions of a rulebook: ``reference`` keeps everything a translator or a referee
looks up (the differences from a base, the rules that do not come up, the open
questions, citations on request); ``print`` is the rules a player reads, without them,
without field ids and without words about the software."""

_WORD: Final = re.compile(r"\w+")

TABLE_FIELDS: Final = ("nationalization", "monopolization", "diversification")
"""The rule fields a rulebook writes as scoring tables."""
COMPONENT_FIELDS: Final = (
    "nations_in_play",
    "industries_in_play",
    "removed_companies",
    "deck_sizes",
)
"""The rule fields a rulebook writes as the columns of its components table."""


@attrs.frozen(kw_only=True)
class Block:
    """One block of a rulebook: a paragraph, a table, a list or a row of tiles.

    ``fields`` names the rule fields it states (empty for the game's frame and for
    derived text); ``frame`` the frame paragraph it writes (its key in the outline);
    ``cite`` is its provenance when the rulebook was asked for it; ``differs`` marks a
    block that states a rule differing from the base.
    """

    kind: str
    """``"paragraph"``, ``"table"`` (``rows``, the first the header), ``"list"``
    (``items``), ``"ordered"`` (a numbered list) or ``"tiles"`` (``tiles``)."""
    text: str = ""
    rows: tuple[tuple[str, ...], ...] = ()
    items: tuple[str, ...] = ()
    tiles: tuple[Company, ...] = ()
    fields: tuple[str, ...] = ()
    frame: str = ""
    cite: str = ""
    differs: bool = False


@attrs.frozen(kw_only=True)
class Section:
    """A titled section (``level`` 2) or subsection (``level`` 3) of blocks."""

    key: str
    title: str
    level: int
    blocks: tuple[Block, ...]


@attrs.frozen(kw_only=True)
class Rulebook:
    """A rulebook of one rule set in one language; see :func:`rulebook`."""

    ruleset: str
    language: str
    title: str
    subtitle: str
    base: str | None
    differences: tuple[str, ...]
    """The rule fields that differ from ``base``, in field order (empty without one)."""
    sections: tuple[Section, ...]
    legend: str
    difference_note: str = ""
    """What the HTML says over a block marked as differing (``"differs from en"``)."""
    edition: str = "reference"
    """``"reference"`` (every rule, the differences, the rules that do not come up, the
    open questions, a tip) or ``"print"`` (the rules a player reads); see
    :data:`EDITIONS`."""
    cited: bool = False
    """Whether every rule paragraph carries its citation (``cite=True``)."""

    def blocks(self) -> Iterable[Block]:
        """Every block, in order."""
        for section in self.sections:
            yield from section.blocks

    def field_text(self, field: str) -> str:
        """The text of every block stating rule field ``field``, one block a line (tables
        as their Markdown rows)."""
        return "\n".join(
            _block_markdown(b, cite=False, mark=False) for b in self.blocks() if field in b.fields
        )

    def to_markdown(self) -> str:
        """The rulebook as Markdown."""
        return _markdown(self)

    def words(self) -> int:
        """How many words the Markdown has (runs of letters and digits, as the texts'
        ``rules_words`` in ``qe_rules/data/sources.toml`` are counted)."""
        return len(_WORD.findall(self.to_markdown()))

    def to_html(
        self,
        *,
        fragment: bool = False,
        picture: Callable[[Company], str] | None = None,
        paper: str = "a4",
        stylesheet: bool = True,
    ) -> str:
        """The rulebook as HTML with a print stylesheet for ``paper`` (``"a4"`` or
        ``"letter"``). ``picture`` draws a tile as SVG (pass ``qe_rules.svg.tile``);
        without it tiles are listed by code. ``fragment=True`` gives an ``<article>``
        (with its scoped stylesheet) to put into another page; ``stylesheet=False``
        leaves the ``<style>`` element out, for a page that links
        :func:`rulebook_stylesheet` as a file (a page whose Content-Security-Policy
        forbids inline styles)."""
        if not isinstance(paper, str) or paper not in PAPER_SIZES:
            raise InvalidArgument(
                f"paper must be one of {', '.join(PAPER_SIZES)}, got {shown(paper)}"
            )
        if picture is not None and not callable(picture):
            raise InvalidArgument(
                f"picture is a function drawing a tile as SVG (qe_rules.svg.tile) or None, "
                f"got {shown(picture)}"
            )
        for name, value in (("fragment", fragment), ("stylesheet", stylesheet)):
            if type(value) is not bool:
                raise InvalidArgument(f"{name} is True or False, got {shown(value)}")
        return _html(self, fragment=fragment, picture=picture, paper=paper, stylesheet=stylesheet)


# --------------------------------------------------------------------------- values in words


def _count_phrase(numbers: Sequence[int], book: Catalog) -> str:
    """Player counts: a run of three or more as the catalog's ``range``, else listed
    with its ``or``."""
    numbers = sorted(numbers)
    if len(numbers) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return book.word("range", low=numbers[0], high=numbers[-1])
    return _join([str(n) for n in numbers], book, "or")


def _join(words: Sequence[str], book: Catalog, last: str = "and") -> str:
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {book.word(last)} {words[-1]}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _groups(value: Mapping[int, Any]) -> list[tuple[tuple[int, ...], Any]]:
    """Player counts grouped by equal values, in order of the first count."""
    found: dict[Any, list[int]] = {}
    keys: list[Any] = []
    for players in sorted(value):
        key = _hashable(value[players])
        if key not in found:
            keys.append(key)
            found[key] = []
        found[key].append(players)
    firsts = {key: value[found[key][0]] for key in keys}
    return [(tuple(found[key]), firsts[key]) for key in keys]


def _hashable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    return value


def _row_label(players: Sequence[int], book: Catalog) -> str:
    numbers = sorted(players)
    if len(numbers) > 1 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return book.word("range", low=numbers[0], high=numbers[-1])
    return ", ".join(map(str, numbers))


def _categories(values: Iterable[Category], book: Catalog) -> str:
    order = list(Category)
    return _join([book.category(c.value) for c in sorted(values, key=order.index)], book)


_OWN: Final = object()


def template_key(field: str, value: Any, book: Catalog) -> str:
    """The key of the template that states ``value`` of rule ``field``: ``true`` or
    ``false``, the value of a choice, a number with its own template, ``none`` for an
    empty list, else ``text``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, int):
        return str(value) if book.has_template(field, str(value)) else "text"
    if isinstance(value, frozenset | tuple) and not value and book.has_template(field, "none"):
        return "none"
    return "text"


def fill(template: str, field: str, value: Any, book: Catalog) -> str:
    """``template`` with its placeholders filled from ``value`` of rule ``field``."""
    vp = book.word("vp")
    if isinstance(value, bool | enum.Enum):
        return template
    if isinstance(value, int):
        return template.format(value=value, vp=vp)
    if isinstance(value, frozenset):
        return template.format(categories=_categories(value, book))
    if isinstance(value, tuple) and all(type(n) is int for n in value):
        return template.format(players=_count_phrase(value, book), vp=vp)
    if field == "lowest_spend_bonus":
        return template.format(value=_per_players(value, book, vp), vp=vp)
    return template.format(vp=vp)


def field_sentence(rs: RuleSet, field: str, book: Catalog, value: Any = _OWN) -> str:
    """Rule field ``field`` of ``rs`` as its template in ``book`` writes it (or
    ``value``, a reading of the field, in place of the rule set's own)."""
    if value is _OWN:
        value = getattr(rs, field)
    return fill(book.template(field, template_key(field, value, book)), field, value, book)


def related_sentence(rs: RuleSet, field: str, book: Catalog) -> tuple[str, tuple[str, ...]]:
    """Rule ``field`` of ``rs`` in words, and the other fields the words state: a
    sentence relating it to another rule (``"like a secret bid"``) where the catalog has
    one and the rule set's values make it true, else the field's own sentence."""
    value = getattr(rs, field)
    key = template_key(field, value, book)
    for conditions, template in book.related(field, key):
        if conditions_hold(rs, conditions):
            others = tuple(dict.fromkeys(name for name, _, _ in conditions if name != field))
            return fill(template, field, value, book), others
    return field_sentence(rs, field, book), ()


def _per_players(value: Mapping[int, int], book: Catalog, vp: str) -> str:
    groups = _groups(value)
    if len(groups) == 1:
        return f"{groups[0][1]} {vp}"
    parts = [
        book.word("per_players", value=f"{points} {vp}", players=_count_phrase(players, book))
        for players, points in groups
    ]
    return _join(parts, book)


def _compact(rs: RuleSet, field: str, book: Catalog) -> str:
    """A rule's value in short, for the list of differences."""
    value = getattr(rs, field)
    if field in RuleSet.per_player_fields():
        parts = []
        for players, inner in _groups(value):
            parts.append(f"{_row_label(players, book)}: {_compact_value(inner, book)}")
        return "; ".join(parts)
    if field == "scoring_order":
        return ", ".join(book.category(c.value) for c in value)
    return field_sentence(rs, field, book)


def _compact_value(value: Any, book: Catalog) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{k} → {v}" for k, v in sorted(value.items()))
    if isinstance(value, tuple):
        return ", ".join(_piece(v, book) for v in value) or book.word("none")
    return str(value)


def _piece(value: Any, book: Catalog) -> str:
    if isinstance(value, Company):
        return str(value)
    name = getattr(value, "name", None)
    if name is not None and name in book.tables["industries"]:
        return book.industry(name)
    return str(getattr(value, "code", value))


# --------------------------------------------------------------------------- the writer


class _Writer:
    """Writes the sections of one rulebook."""

    def __init__(
        self, rs: RuleSet, book: Catalog, base: RuleSet | None, cite: bool, edition: str
    ) -> None:
        self.rs = rs
        self.book = book
        self.base = base
        self.cite = cite
        self.edition = edition
        self.changes = tuple(c.field for c in diff(base, rs).rules) if base is not None else ()
        self.idle: list[Block] = []

    # blocks

    def block(
        self,
        kind: str,
        fields: tuple[str, ...] = (),
        frame: str = "",
        *,
        cited: bool = True,
        **parts: Any,
    ) -> Block:
        cite = self._cite(fields, frame) if self.cite and cited else ""
        differs = any(f in self.changes for f in fields)
        return Block(kind=kind, fields=fields, frame=frame, cite=cite, differs=differs, **parts)

    def _cite(self, fields: tuple[str, ...], frame: str) -> str:
        found: list[str] = []
        for field in fields:
            text = self._field_cite(field)
            if text not in found:
                found.append(text)
        if frame:
            found.append(self._frame_cite(frame))
        return "; ".join(found)

    def _marked(self, source: str, section: str, basis: Basis) -> str:
        marker = self.book.word(basis.value)
        return f"{source} §{section}" + (f" ({marker})" if marker else "")

    def _field_cite(self, field: str) -> str:
        """The rule set's own citation of ``field``: its text and section; for a changed
        field of a variant, the text that supports the new value (or that none does)."""
        book = self.book
        cite = self.rs.cite(field)
        if cite.section == "(variant)":
            base = cite.source.partition(":")[0]
            support = text_support(field, getattr(self.rs, field))
            if support is None:
                return book.word("house_variant", base=base)
            return book.word(
                "variant_of",
                base=base,
                cite=self._marked(support.source, support.section, support.basis),
            )
        if cite.source not in SOURCES:
            if cite.basis is Basis.HOUSE_RULE:
                return book.word("house", file=f"{cite.source}, {cite.section}")
            return self._marked(cite.source, cite.section, cite.basis)
        return self._marked(cite.source, cite.section, cite.basis)

    def _frame_cite(self, key: str) -> str:
        """A frame paragraph's citation: the section of the rule set's own text that
        states it (and how), that the text is silent, or, where the rule set's value of
        the field that chooses the paragraph is not its text's, that field's citation."""
        entry = outline()["fixed"].get(key, {})
        source = self.rs.source
        if source not in SOURCES:
            return self.book.word("frame")
        by = entry.get("by")
        if by is not None and getattr(RULESETS[source], by) != getattr(self.rs, by):
            return self._field_cite(by)
        found = entry.get("cite", {}).get(source)
        if found is None:
            return f"{source} ({self.book.word('silent')})"
        if isinstance(found, str):
            return self._marked(source, found, Basis.STATED)
        return self._marked(source, str(found["section"]), Basis(found.get("basis", "stated")))

    def paragraph_of(self, field: str) -> Block:
        text, others = related_sentence(self.rs, field, self.book)
        return self.block("paragraph", (field, *others), text=text)

    # sections

    def _in_edition(self, entry: Mapping[str, Any]) -> bool:
        return self.edition in entry.get("editions", EDITIONS)

    def sections(self) -> list[Section]:
        out: list[Section] = []
        for entry in outline()["sections"]:
            key = entry["key"]
            if not self._in_edition(entry) or (key == "differences" and self.base is None):
                continue
            blocks: list[Block] = []
            for item in entry.get("items", []):
                blocks.extend(self.item(item))
            for name in entry.get("blocks", []):
                if name == "categories":
                    out.append(self.section(key, entry, blocks))
                    out.extend(self.category_sections())
                    blocks = []
                    continue
                blocks.extend(getattr(self, f"_{name}")())
            if blocks or (
                key not in ("idle", "tips") and "categories" not in entry.get("blocks", [])
            ):
                out.append(self.section(key, entry, blocks))
        return out

    def section(self, key: str, entry: Mapping[str, Any], blocks: list[Block]) -> Section:
        base = self.base.id if self.base is not None else ""
        return Section(
            key=key,
            title=self.book.heading(key, base=base),
            level=int(entry.get("level", 2)),
            blocks=tuple(blocks),
        )

    def item(self, item: str) -> list[Block]:
        if item in RuleSet.rule_fields():
            return self.rule(item)
        text = frame_text(self.rs, item, self.book, self.edition)
        if text is None:
            return []
        return [self.block("paragraph", frame=item, text=text)]

    def rule(self, field: str) -> list[Block]:
        """The blocks that state rule ``field``: written where the rule applies; in the
        reference edition the others go to the rules that do not come up."""
        if field in TABLE_FIELDS:
            return self.scoring_table(field)
        if field == "scoring_order":
            order = tuple(self.book.category(c.value) for c in self.rs.scoring_order)
            return [
                self.paragraph_of(field),
                self.block("ordered", (field,), items=order, cited=False),
            ]
        block = self.paragraph_of(field)
        if not applies(self.rs, field):
            if self.edition == "reference":
                self.idle.append(block)
            return []
        return [block]

    def category_sections(self) -> list[Section]:
        categories = outline()["categories"]
        out = []
        for category in self.rs.scoring_order:
            blocks: list[Block] = []
            for item in categories[category.value]:
                blocks.extend(self.item(item))
            out.append(
                Section(
                    key=f"category-{category.value}",
                    title=self.book.category(category.value),
                    level=3,
                    blocks=tuple(blocks),
                )
            )
        return out

    def scoring_table(self, field: str) -> list[Block]:
        value: Mapping[int, Mapping[int, int]] = getattr(self.rs, field)
        counts = sorted({k for table in value.values() for k in table})
        header = (
            self.book.word("table_corner"),
            *map(str, range(counts[0], counts[-1] + 1)),
        )
        rows: list[tuple[str, ...]] = [header]
        for players, table in _groups(value):
            low = min(table)
            cells = []
            for count in range(counts[0], counts[-1] + 1):
                if count in table:
                    cells.append(str(table[count]))
                else:
                    cells.append("0" if count < low else self.book.word("beyond"))
            rows.append((_row_label(players, self.book), *cells))
        return [
            self.paragraph_of(field),
            self.block("table", (field,), rows=tuple(rows), cited=False),
        ]

    # the blocks named in the outline

    def _components_table(self) -> list[Block]:
        book, rs = self.book, self.rs
        header = (
            _capital(book.word("players_column")),
            *(_capital(book.label(f)) for f in COMPONENT_FIELDS),
        )
        combined = {n: tuple(getattr(rs, f)[n] for f in COMPONENT_FIELDS) for n in rs.player_counts}
        rows: list[tuple[str, ...]] = [header]
        tiles: list[Block] = []
        for players, (nations, industries, removed, size) in _groups(combined):
            label = _row_label(players, book)
            rows.append(
                (
                    label,
                    ", ".join(n.code for n in nations),
                    ", ".join(book.industry(i.name) for i in industries),
                    ", ".join(map(str, removed)) or book.word("none"),
                    str(size),
                )
            )
            tiles.append(
                Block(
                    kind="tiles",
                    fields=("removed_companies",),
                    cite=book.word("tiles_source") if self.cite else "",
                    text=f"{book.word('tiles_in_play')} ({book.word('players', players=label)})",
                    tiles=rs.companies(players[0]),
                )
            )
        return [self.block("table", COMPONENT_FIELDS, rows=tuple(rows)), *tiles]

    def _differences(self) -> list[Block]:
        assert self.base is not None
        book, base = self.book, self.base
        if not self.changes:
            return [self.block("paragraph", text=book.word("no_differences", base=base.id))]
        items = tuple(
            f"**{_capital(book.label(field))}** (`{field}`): {_compact(self.rs, field, book)} "
            f"— *{base.id}:* {_compact(base, field, book)}"
            for field in self.changes
        )
        intro = book.word(
            "differences_intro_one" if len(self.changes) == 1 else "differences_intro",
            base=base.id,
            count=len(self.changes),
        )
        return [
            self.block("paragraph", text=intro),
            self.block("list", items=items),
        ]

    def _idle(self) -> list[Block]:
        if not self.idle:
            return []
        return [self.block("paragraph", text=self.book.word("idle_intro")), *self.idle]

    def _questions(self) -> list[Block]:
        book = self.book
        blocks = [self.block("paragraph", text=book.word("questions_intro"))]
        for question in open_questions():
            blocks.extend(self.question(question))
        return blocks

    def question(self, question: OpenQuestion) -> list[Block]:
        book, field = self.book, question.field
        own_value = getattr(self.rs, field)
        own = field_sentence(self.rs, field, book)
        house = _house_rules(field)
        taken = book.word("reading_taken")
        if _plain(field, own_value) in house:
            taken += f" ({book.word('reading_house')})"
        items = [f"**{taken}:** {own}"]
        shown_texts = {own}
        for reading in question.readings:
            value = _reading(field, reading.value)
            text = field_sentence(self.rs, field, book, value)
            if value != own_value and text not in shown_texts:
                shown_texts.add(text)
                where = f" *[{reading.source} §{reading.section}]*" if self.cite else ""
                items.append(f"*{book.word('reading_other')}:* {text}{where}")
        for plain in house:
            value = _reading(field, plain)
            text = field_sentence(self.rs, field, book, value)
            if value != own_value and text not in shown_texts:
                shown_texts.add(text)
                items.append(f"*{book.word('reading_house')}:* {text}")
        heading = self.block(
            "paragraph",
            (field,),
            text=f"**{_capital(book.label(field))}** (`{field}`): "
            f"{book.template(field, 'question')}",
        )
        return [
            attrs.evolve(heading, fields=()),  # cited and marked; the rule is stated above
            self.block("list", items=tuple(items)),
        ]

    def _example(self) -> list[Block]:
        book, rs = self.book, self.rs
        records, result = _example_game(rs)
        me, sheet = records[0], result.sheets[0]
        vp = book.word("vp")
        intro = book.word(
            "example_intro",
            players=len(records),
            nation=me.nation.code,
            token=book.industry(me.industry.name),
        )
        subtotal = rs.scoring_order[-1] is Category.SPENDING
        lines = []
        for category in rs.scoring_order:
            points = sheet.points(category)
            if category is Category.SPENDING:
                if subtotal:
                    lines.append(_line(book, "row_subtotal", sheet.subtotal))
                lines.append(_line(book, "row_bonus", points))
            elif category is Category.COMPANIES and me.companies:
                total = " + ".join(
                    str(vp) for vp in sorted((c.vp for c in me.companies), reverse=True)
                )
                lines.append(
                    book.word(
                        "example_companies",
                        category=book.category(category.value),
                        sum=total,
                        points=points,
                        vp=vp,
                    )
                )
            else:
                lines.append(
                    book.word(
                        "example_line", category=book.category(category.value), points=points, vp=vp
                    )
                )
        lines.append(_line(book, "row_total" if subtotal else "row_total_alone", sheet.total))
        blocks = [
            self.block("paragraph", text=intro),
            self.block("tiles", tiles=tuple(me.companies)),
            self.block(
                "paragraph",
                text=book.word("example_spent", spent=me.spent, zero=me.zero_bid_rounds),
            ),
            self.block("list", items=tuple(lines)),
        ]
        if self.edition == "print":
            return blocks
        names = [book.word("example_player")] + [
            book.word("seat", seat=seat + 1) for seat in range(1, len(records))
        ]
        board = _board(rs, result, names, book)
        if result.winner is None:
            outcome = book.word("no_winner")
        else:
            outcome = book.word(
                "winner",
                player=names[result.winner],
                points=result.sheets[result.winner].total,
                vp=vp,
            )
        return [
            *blocks,
            self.block("paragraph", text=book.word("example_board")),
            self.block("table", rows=board),
            self.block("paragraph", text=_capital(outcome)),
        ]


def frame_text(rs: RuleSet, key: str, book: Catalog, edition: str = "reference") -> str | None:
    """The frame paragraph ``key`` of the outline as rule set ``rs`` has it in ``book``'s
    language, or ``None`` where the paragraph is not written: not in this edition, where
    the rule it belongs to (``with``) does not apply, where its condition (``when``)
    holds at no player count. Its text is the one for ``rs``'s value of the field ``by``
    names, with the player counts of its condition and the sales of a game filled in."""
    entry = outline()["fixed"].get(key, {})
    if edition not in entry.get("editions", EDITIONS):
        return None
    if "with" in entry and not applies(rs, entry["with"]):
        return None
    values: dict[str, Any] = {}
    if "when" in entry:
        counts = _FRAME_CONDITIONS[entry["when"]](rs)
        if not counts:
            return None
        values["players"] = _count_phrase(counts, book)
    if key == "sales_count":
        values["sales"] = _sales(rs, book)
    by = entry.get("by")
    variant = template_key(by, getattr(rs, by), book) if by else None
    return book.fixed(key, variant, **values)


def _sales(rs: RuleSet, book: Catalog) -> str:
    """The sales of a game per player count, with the rounds they make."""
    facts = {n: (rs.sales(n), rs.rounds(n), rs.has_last_tile_rule(n)) for n in rs.player_counts}
    parts = []
    for players, (sales, rounds, last) in _groups(facts):
        count = book.word("sales", sales=sales, players=_count_phrase(players, book))
        made = book.word("sales_last_tile" if last else "sales_rounds", rounds=rounds)
        parts.append(f"{count} ({made})")
    return _join(parts, book)


def _line(book: Catalog, row: str, points: int) -> str:
    return book.word("example_line", category=book.word(row), points=points, vp=book.word("vp"))


def _leftover_tokens(rs: RuleSet) -> tuple[int, ...]:
    """The player counts that leave industry tokens undealt."""
    return tuple(n for n in rs.player_counts if len(rs.industries(n)) > n)


def _unplayed_nations(rs: RuleSet) -> tuple[int, ...]:
    """The player counts at which a nation in play has no player."""
    return tuple(n for n in rs.player_counts if len(rs.nations(n)) > n)


_FRAME_CONDITIONS: Final[Mapping[str, Callable[[RuleSet], tuple[int, ...]]]] = {
    "leftover_tokens": _leftover_tokens,
    "unplayed_nations": _unplayed_nations,
}
"""The conditions a frame paragraph's ``when`` names: each gives the player counts at
which the paragraph holds (none: the paragraph is not written)."""


def _house_rules(field: str) -> tuple[Any, ...]:
    """The house-rule values of rule field ``field`` (plain data, lists as tuples)."""
    return tuple(_frozen(v) for v in house_rule_values().get(field, ()))


def _plain(field: str, value: Any) -> Any:
    return _frozen(encode_field(field, value))


def _frozen(plain: Any) -> Any:
    return tuple(plain) if isinstance(plain, list) else plain


def _reading(field: str, plain: Any) -> Any:
    """A reading of an open question (plain data) as the field's value."""
    value = decode_field(field, list(plain) if isinstance(plain, tuple) else plain)
    convert = attrs.fields_dict(RuleSet)[field].converter
    return convert(value) if callable(convert) else value


def _board(
    rs: RuleSet, result: GameResult, names: Sequence[str], book: Catalog
) -> tuple[tuple[str, ...], ...]:
    """The example's score board, in the texts' order: the categories, the subtotal
    (where the spending is scored last), the total spent, the lowest-spend bonus, the
    total and who is eliminated."""
    sheets = result.sheets
    rows: list[tuple[str, ...]] = [("", *names)]
    subtotal = rs.scoring_order[-1] is Category.SPENDING
    for category in rs.scoring_order:
        if category is Category.SPENDING:
            if subtotal:
                rows.append((book.word("row_subtotal"), *(str(s.subtotal) for s in sheets)))
            rows.append((book.word("row_spent"), *(str(s.spent) for s in sheets)))
            label = book.word("row_bonus")
        else:
            label = book.category(category.value)
        rows.append((label, *(str(s.points(category)) for s in sheets)))
    total = book.word("row_total" if subtotal else "row_total_alone")
    rows.append((total, *(str(s.total) for s in sheets)))
    rows.append(
        (
            book.word("row_eliminated"),
            *(book.word("yes") if s.eliminated else book.word("no") for s in sheets),
        )
    )
    return tuple(rows)


# --------------------------------------------------------------------------- the example


@functools.cache
def _example_data() -> tuple[dict[str, Any], ...]:
    path = os.path.join(
        os.path.dirname(os.path.abspath(__file__)), os.pardir, "examples", "scoring-example.json"
    )
    data = json.loads(read_text(os.path.normpath(path), InvalidArgument))
    return tuple(data["players"])


def _example_game(rs: RuleSet) -> tuple[list[PlayerRecord], GameResult]:
    """The rulebooks' scoring example where the rule set allows it (4 players, those
    tiles in play); otherwise the deck dealt out in turn to as many players."""
    data = _example_data()
    players = len(data) if len(data) in rs.player_counts else rs.player_counts[-1]
    most_zero = rs.max_zero_bid_scorings(players)
    if players == len(data):
        try:
            records = [
                PlayerRecord.from_dict(
                    {
                        **{k: v for k, v in p.items() if k != "name"},
                        "zero_bid_rounds": min(p["zero_bid_rounds"], most_zero),
                    }
                )
                for p in data
            ]
            return records, score_game(rs, records)
        except RulesError:
            pass
    deck = rs.companies(players)
    nations, industries = rs.nations(players), rs.industries(players)
    records = [
        PlayerRecord(
            nations[seat],
            industries[seat],
            list(deck[seat::players]),
            spent=int(data[seat % len(data)]["spent"]),
            zero_bid_rounds=min(int(data[seat % len(data)]["zero_bid_rounds"]), most_zero),
        )
        for seat in range(players)
    ]
    return records, score_game(rs, records)


# --------------------------------------------------------------------------- the entry point


def rulebook(
    ruleset: RuleSet | str,
    *,
    lang: str = "en",
    against: RuleSet | str | None = None,
    cite: bool = False,
    edition: str = "reference",
) -> Rulebook:
    """The rulebook of ``ruleset`` (a rule set, a built-in id or a spec string) in
    language ``lang`` (``"en"``, ``"de"``; see :func:`qe_rules.texts.catalogs.languages`).

    ``edition`` is ``"reference"`` or ``"print"`` (:data:`EDITIONS`). The reference
    edition writes every rule: ``against`` (a rule set or id) adds a section listing
    every rule that differs from it and marks the paragraphs that state them;
    ``cite=True`` gives every block the rule set's own provenance: the section of its
    text, or that the text is silent, that it is an interpretation, a correction or a
    variant. The print edition writes the rules a player reads, with neither. Unknown
    languages, editions and rule sets raise :class:`~qe_rules.RulesError` subclasses
    naming what is allowed.
    """
    rs = get_ruleset(ruleset)
    book = catalog(lang)
    if type(cite) is not bool:
        raise InvalidArgument(f"cite must be True or False, got {shown(cite)}")
    if edition not in EDITIONS:
        raise InvalidArgument(f"edition must be one of {', '.join(EDITIONS)}, got {shown(edition)}")
    if edition == "print" and (cite or against is not None):
        raise InvalidArgument(
            "the print edition has neither citations nor a list of differences; "
            "ask the reference edition for --cite or --against"
        )
    base = get_ruleset(against) if against is not None else None
    writer = _Writer(rs, book, base, cite, edition)
    sections = tuple(writer.sections())
    legend = ", ".join(f"{i.code} {book.industry(i.name)}" for i in Industry)
    if edition == "print":
        subtitle = book.word("print_subtitle", players=_count_phrase(rs.player_counts, book))
    else:
        subtitle = book.word("generated", ruleset=rs.id)
    return Rulebook(
        ruleset=rs.id,
        language=book.language,
        title=book.heading("title"),
        subtitle=subtitle,
        base=base.id if base is not None else None,
        differences=writer.changes,
        sections=sections,
        legend=f"{book.word('legend')}: {legend}",
        difference_note=book.word("differs", base=base.id) if base is not None else "",
        edition=edition,
        cited=cite,
    )


# --------------------------------------------------------------------------- Markdown


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _block_markdown(block: Block, *, cite: bool = True, mark: bool = True) -> str:
    """One block as Markdown. A differing table carries its ▲ in its first header cell,
    a differing list on its first item, so that no line is a bare ▲."""
    marker = "▲ " if block.differs and mark else ""
    tail = f" *[{block.cite}]*" if cite and block.cite else ""
    if block.kind == "paragraph":
        return f"{marker}{block.text}{tail}"
    if block.kind == "table":
        header, *rows = block.rows
        header = (f"{marker}{header[0]}".strip(), *header[1:])
        lines = ["| " + " | ".join(map(_cell, header)) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(map(_cell, row)) + " |" for row in rows]
        if tail:
            lines += ["", tail.strip()]
        return "\n".join(lines)
    if block.kind in ("list", "ordered"):
        bullet = "1." if block.kind == "ordered" else "-"
        lines = [f"{bullet} {marker if i == 0 else ''}{item}" for i, item in enumerate(block.items)]
        if tail:
            lines += ["", tail.strip()]
        return "\n".join(lines)
    codes = ", ".join(str(c) for c in block.tiles)
    text = f"{block.text}: {codes}" if block.text else codes
    return f"{text}{tail}"


def _markdown(book: Rulebook) -> str:
    lines = [f"# {book.title}", "", f"*{book.subtitle}*", ""]
    for section in book.sections:
        lines += ["#" * section.level + " " + section.title, ""]
        for block in section.blocks:
            if block.kind == "tiles" and block.fields and book.edition == "print":
                continue  # the components table names the tiles; the HTML draws them
            lines += [_block_markdown(block), ""]
        if section.key == "components":
            lines += [f"*{book.legend}*", ""]
    return "\n".join(lines).rstrip() + "\n"


# --------------------------------------------------------------------------- HTML

_STRONG: Final = re.compile(r"\*\*(.+?)\*\*")
_EMPHASIS: Final = re.compile(r"\*(.+?)\*")
_CODE: Final = re.compile(r"`(.+?)`")


def _inline(text: str) -> str:
    text = html.escape(text, quote=False)
    text = _CODE.sub(r"<code>\1</code>", text)
    text = _STRONG.sub(r"<strong>\1</strong>", text)
    return _EMPHASIS.sub(r"<em>\1</em>", text)


_CSS: Final = """
.qe-rulebook { font-family: "DejaVu Serif", Georgia, serif; color: #222; line-height: 1.45;
  max-width: 46em; margin: 0 auto; font-size: 11pt; }
.qe-rulebook h1 { font-size: 20pt; margin: 0 0 .2em; }
.qe-rulebook h2 { font-size: 14pt; border-bottom: 1px solid #bbb; margin: 1.2em 0 .4em;
  break-after: avoid; }
.qe-rulebook h3 { font-size: 12pt; margin: 1em 0 .3em; break-after: avoid; }
.qe-rulebook p { margin: .35em 0; }
.qe-rulebook .subtitle { color: #666; font-style: italic; margin-bottom: 1em; }
.qe-rulebook table { border-collapse: collapse; margin: .4em 0 .6em; break-inside: avoid; }
.qe-rulebook th, .qe-rulebook td { border: 1px solid #bbb; padding: .15em .5em;
  text-align: left; vertical-align: top; font-size: 10pt; }
.qe-rulebook th { background: #f0ede4; }
.qe-rulebook .cite { display: block; color: #666; font-size: 8.5pt; font-style: italic; }
.qe-rulebook .differs { border-left: 3px solid #c0392b; padding-left: .5em; }
.qe-rulebook p.differs::before { content: "▲ "; color: #c0392b; }
.qe-rulebook .tiles { display: flex; flex-wrap: wrap; gap: 3px; margin: .3em 0 .6em;
  break-inside: avoid; }
.qe-rulebook .tiles svg { width: 11mm; height: auto; }
.qe-rulebook .tiles-caption { font-size: 9.5pt; color: #444; margin-top: .5em; }
.qe-rulebook .legend { font-size: 9pt; color: #555; }
.qe-rulebook code { font-size: 9pt; }
.qe-rulebook .code { white-space: nowrap; }
.qe-rulebook ol, .qe-rulebook ul { break-inside: avoid; }
.qe-rulebook p:has(+ table), .qe-rulebook p:has(+ div > table),
.qe-rulebook p:has(+ div > ol), .qe-rulebook p:has(+ div > ul) { break-after: avoid; }
@media print {
  .qe-rulebook { max-width: none; font-size: 10pt; }
  .qe-rulebook h2 { break-before: auto; }
}
"""


_TILE_CODE: Final = re.compile(r"\b[A-Z]{2}-[A-Z]{3}-\d\b")


def _cell_html(text: str) -> str:
    """A table cell, its tile codes kept whole on one line (never broken at a hyphen)."""
    return _TILE_CODE.sub(lambda m: f'<span class="code">{m.group(0)}</span>', html.escape(text))


def _html_block(block: Block, picture: Callable[[Company], str] | None, note: str) -> str:
    title = html.escape(note, quote=True)
    classes = f' class="differs" title="{title}"' if block.differs else ""
    cite = f'<span class="cite">{html.escape(block.cite)}</span>' if block.cite else ""
    if block.kind == "paragraph":
        return f"<p{classes}>{_inline(block.text)}{cite}</p>"
    if block.kind == "table":
        header, *rows = block.rows
        head = "".join(f"<th>{html.escape(c)}</th>" for c in header)
        body = "".join(
            "<tr>"
            + "".join(
                f"<th>{html.escape(c)}</th>" if i == 0 else f"<td>{_cell_html(c)}</td>"
                for i, c in enumerate(row)
            )
            + "</tr>"
            for row in rows
        )
        table = f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        return f"<div{classes}>{table}{cite}</div>" if classes or cite else table
    if block.kind in ("list", "ordered"):
        tag = "ol" if block.kind == "ordered" else "ul"
        items = "".join(f"<li>{_inline(item)}</li>" for item in block.items)
        return f"<div{classes}><{tag}>{items}</{tag}>{cite}</div>"
    caption = f'<div class="tiles-caption">{html.escape(block.text)}</div>' if block.text else ""
    if picture is None:
        return f"{caption}<p>{html.escape(', '.join(map(str, block.tiles)))}</p>"
    drawn = [picture(c) for c in block.tiles]
    for item in drawn:
        if not isinstance(item, str):
            raise InvalidArgument(f"picture(tile) must return SVG text, got {shown(item)}")
    pictures = "".join(drawn)
    return f'{caption}<div class="tiles">{pictures}</div>'


def rulebook_stylesheet() -> str:
    """The stylesheet of the HTML rulebook (scoped to ``.qe-rulebook``), for a page that
    serves it as a file and embeds ``to_html(fragment=True, stylesheet=False)``."""
    return _CSS.lstrip()


def _html(
    book: Rulebook,
    *,
    fragment: bool,
    picture: Callable[[Company], str] | None,
    paper: str,
    stylesheet: bool = True,
) -> str:
    parts = [
        f'<article class="qe-rulebook" lang="{book.language}">',
        f"<style>{_CSS}</style>" if stylesheet else "",
        f"<h1>{html.escape(book.title)}</h1>",
        f'<p class="subtitle">{_inline(book.subtitle)}</p>',
    ]
    for section in book.sections:
        parts.append(f"<section><h{section.level}>{html.escape(section.title)}</h{section.level}>")
        parts.extend(_html_block(block, picture, book.difference_note) for block in section.blocks)
        if section.key == "components":
            parts.append(f'<p class="legend">{html.escape(book.legend)}</p>')
        parts.append("</section>")
    parts.append("</article>")
    article = "\n".join(part for part in parts if part)
    if fragment:
        return article
    size = "A4" if paper == "a4" else "letter"
    return (
        f'<!DOCTYPE html>\n<html lang="{book.language}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(book.title)}: {html.escape(book.ruleset)}</title>\n"
        f"<style>@page {{ size: {size}; margin: 16mm 15mm; }} "
        "body { margin: 0; padding: 1em; background: #fff; } "
        "@media print { body { padding: 0; } }</style>\n"
        f"</head>\n<body>\n{article}\n</body>\n</html>\n"
    )
