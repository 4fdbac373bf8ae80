"""Rulebooks written from a rule set: every rule in words, in English or German.

:func:`rulebook` turns any rule set (a built-in, a file, a spec string) into a
:class:`Rulebook`: sections of paragraphs, tables and lists, each tagged with the rule
fields it states. Every sentence comes from a template of the language's catalog
(:mod:`qe_rules.texts.catalogs`), one per rule field and value, so the German and the
English rulebook of a rule set are translations of each other, and a rulebook cannot
disagree with the game the engine plays::

    >>> import qe_rules as qe
    >>> book = qe.rulebook("en-early", lang="de", against="en")
    >>> print(book.field_text("secret_bid_may_equal_opening"))
    Ein geheimes Gebot darf denselben Betrag nennen wie das Eröffnungsgebot.
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
from qe_rules.game.scoring import GameResult, PlayerRecord, score_game
from qe_rules.rules.files import SOURCES, house_rule_values, parse_toml, read_text
from qe_rules.rules.model import (
    Basis,
    Category,
    RebidScope,
    RuleSet,
    TiedAuctioneer,
    TieFallback,
    decode_field,
    encode_field,
    get_ruleset,
)
from qe_rules.texts.catalogs import CATALOG_FOLDER, Catalog, catalog
from qe_rules.texts.diffs import diff
from qe_rules.texts.questions import OpenQuestion, open_questions

__all__ = ["PAPER_SIZES", "Block", "Rulebook", "Section", "rulebook", "rulebook_stylesheet"]

PAPER_SIZES: Final = ("a4", "letter")
"""The paper sizes the HTML rulebook's print stylesheet sets (``@page size``)."""

_TABLE_FIELDS: Final = ("nationalization", "monopolization", "diversification")
_COMPONENT_FIELDS: Final = (
    "nations_in_play",
    "industries_in_play",
    "removed_companies",
    "deck_sizes",
)


@attrs.frozen(kw_only=True)
class Block:
    """One block of a rulebook: a paragraph, a table, a list or a row of tiles.

    ``fields`` names the rule fields it states (empty for the game's frame and for
    derived text); ``cite`` is its provenance when the rulebook was asked for it;
    ``differs`` marks a block that states a rule differing from the base.
    """

    kind: str
    """``"paragraph"``, ``"table"`` (``rows``, the first the header), ``"list"``
    (``items``), ``"ordered"`` (a numbered list) or ``"tiles"`` (``tiles``)."""
    text: str = ""
    rows: tuple[tuple[str, ...], ...] = ()
    items: tuple[str, ...] = ()
    tiles: tuple[Company, ...] = ()
    fields: tuple[str, ...] = ()
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


# --------------------------------------------------------------------------- outline


@functools.cache
def _outline() -> Mapping[str, Any]:
    path = os.path.join(CATALOG_FOLDER, "outline.toml")
    return parse_toml(
        read_text(path, InvalidArgument), "qe_rules/data/rulebook/outline.toml", InvalidArgument
    )


# --------------------------------------------------------------------------- applying rules


def _rebids_happen(rs: RuleSet) -> bool:
    return rs.ties_before_fallback > 1 or rs.tie_fallback is TieFallback.NONE


def _zero_bids(rs: RuleSet) -> bool:
    return bool(rs.zero_bid_player_counts)


def _peeks(rs: RuleSet) -> bool:
    return bool(rs.peek_player_counts) and rs.peeks_per_player > 0


def _auctioneer_may_tie(rs: RuleSet) -> bool:
    return rs.secret_bid_may_equal_opening or rs.rebid_may_equal_opening


def _auctioneer_rebids(rs: RuleSet) -> bool:
    """Whether the auctioneer can ever rebid: with everyone after a tie, or tied itself."""
    return _rebids_happen(rs) and (
        rs.rebidders is RebidScope.ALL
        or (_auctioneer_may_tie(rs) and rs.tied_auctioneer is TiedAuctioneer.REBIDS)
    )


def _fallback_may_find_nothing(rs: RuleSet) -> bool:
    """Whether the fallback can find no single bid. Where nobody can equal the opening
    bid, the auctioneer never rebids and every sale has an auctioneer when it is tied, the
    opening bid is always single, so only the fallback below the top tie can fail (from 4
    players on, when two bids below the tie are equal)."""
    if rs.tie_fallback is TieFallback.NONE:
        return False
    last_tile_ties = bool(rs.last_tile_without_auctioneer) and not rs.last_tile_tie_awards_nothing
    if _auctioneer_may_tie(rs) or rs.rebidders is RebidScope.ALL or last_tile_ties:
        return True
    return rs.tie_fallback is TieFallback.HIGHEST_OUTSIDE_TOP_TIE and max(rs.player_counts) >= 4


_APPLIES: Final[Mapping[str, Callable[[RuleSet], bool]]] = {
    "rebidders": _rebids_happen,
    "rebid_may_equal_opening": _rebids_happen,
    "rebid_visibility": _rebids_happen,
    "tied_auctioneer": lambda rs: _rebids_happen(rs) and _auctioneer_may_tie(rs),
    "auctioneer_rebid_may_be_zero": _auctioneer_rebids,
    "auctioneer_rebid_may_repeat_opening": lambda rs: (
        _auctioneer_rebids(rs) and not rs.rebid_may_equal_opening
    ),
    "ties_before_fallback": lambda rs: rs.tie_fallback is not TieFallback.NONE,
    "tie_streak": lambda rs: (
        rs.tie_fallback is not TieFallback.NONE and rs.ties_before_fallback > 1
    ),
    "unique_bid_pool": lambda rs: rs.tie_fallback is TieFallback.HIGHEST_UNIQUE_IN_SALE,
    "fallback_finds_no_bid": _fallback_may_find_nothing,
    "zero_bid_points": _zero_bids,
    "zero_bid_limit_per_round": _zero_bids,
    "zero_bid_winner_scores": _zero_bids,
    "zero_bids_score_when_unsold": _zero_bids,
    "zero_rebid_scores": lambda rs: _zero_bids(rs) and _rebids_happen(rs),
    "last_tile_tie_awards_nothing": lambda rs: bool(rs.last_tile_without_auctioneer),
    "last_tile_tie": lambda rs: (
        bool(rs.last_tile_without_auctioneer) and rs.last_tile_tie_awards_nothing
    ),
    "last_tile_amount_public": lambda rs: bool(rs.last_tile_without_auctioneer),
    "peeks_per_player": lambda rs: bool(rs.peek_player_counts),
    "peek_after_last_sale": _peeks,
    "peek_shows": _peeks,
    "peek_timing": _peeks,
    "eliminate_all_tied_highest": lambda rs: rs.eliminate_highest_spender,
    "everyone_tied_for_most_spent": lambda rs: (
        rs.eliminate_highest_spender and rs.eliminate_all_tied_highest
    ),
    "lowest_spend_bonus_to_all_tied": lambda rs: any(rs.lowest_spend_bonus.values()),
}
"""When a rule can come up at all: a rule that cannot (the unique-bid pool of a rule set
without that fallback) is written in the section of rules that do not come up."""


def applies(rs: RuleSet, field: str) -> bool:
    """Whether the situation rule field ``field`` settles can come up under ``rs``."""
    check = _APPLIES.get(field)
    return check is None or check(rs)


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


def field_sentence(rs: RuleSet, field: str, book: Catalog, value: Any = _OWN) -> str:
    """Rule field ``field`` of ``rs`` as its template in ``book`` writes it (or
    ``value``, a reading of the field, in place of the rule set's own)."""
    if value is _OWN:
        value = getattr(rs, field)
    vp = book.word("vp")
    if isinstance(value, bool):
        return book.template(field, "true" if value else "false")
    if isinstance(value, enum.Enum):
        return book.template(field, str(value.value))
    if isinstance(value, int):
        key = str(value) if book.has_template(field, str(value)) else "text"
        return book.template(field, key).format(value=value, vp=vp)
    if isinstance(value, frozenset):
        if not value:
            return book.template(field, "none")
        return book.template(field, "text").format(categories=_categories(value, book))
    if isinstance(value, tuple) and all(type(n) is int for n in value):
        if not value and book.has_template(field, "none"):
            return book.template(field, "none")
        return book.template(field, "text").format(players=_count_phrase(value, book), vp=vp)
    if field == "lowest_spend_bonus":
        return book.template(field, "text").format(value=_per_players(value, book, vp), vp=vp)
    return book.template(field, "text").format(vp=vp)


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

    def __init__(self, rs: RuleSet, book: Catalog, base: RuleSet | None, cite: bool) -> None:
        self.rs = rs
        self.book = book
        self.base = base
        self.cite = cite
        self.changes = tuple(c.field for c in diff(base, rs).rules) if base is not None else ()
        self.idle: list[Block] = []

    # blocks

    def block(
        self,
        kind: str,
        fields: tuple[str, ...] = (),
        fixed: str = "",
        *,
        cited: bool = True,
        **parts: Any,
    ) -> Block:
        cite = self._cite(fields, fixed) if self.cite and cited else ""
        differs = any(f in self.changes for f in fields)
        return Block(kind=kind, fields=fields, cite=cite, differs=differs, **parts)

    def _cite(self, fields: tuple[str, ...], fixed: str) -> str:
        found: list[str] = []
        for field in fields:
            text = self._field_cite(field)
            if text not in found:
                found.append(text)
        if fixed:
            found.append(self._fixed_cite(fixed))
        return "; ".join(found)

    def _field_cite(self, field: str) -> str:
        book = self.book
        cite = self.rs.cite(field)
        if cite.section == "(variant)":
            base = cite.source.partition(":")[0]
            if cite.basis is Basis.HOUSE_RULE:
                return book.word("house_variant", base=base)
            return book.word("variant", base=base)
        if cite.source not in SOURCES:
            return book.word("house", file=f"{cite.source}, {cite.section}")
        marker = book.word(cite.basis.value)
        return f"{cite.source} §{cite.section}" + (f" ({marker})" if marker else "")

    def _fixed_cite(self, key: str) -> str:
        sections = _outline()["fixed"].get(key, {}).get("cite", {})
        source = self.rs.source if self.rs.source in sections else "en"
        text = f"{source} §{sections.get(source, '?')}"
        if source != self.rs.source:
            text += f" ({self.book.word('frame')})"
        return text

    def paragraph_of(self, field: str) -> Block:
        return self.block("paragraph", (field,), text=field_sentence(self.rs, field, self.book))

    # sections

    def sections(self) -> list[Section]:
        out: list[Section] = []
        for entry in _outline()["sections"]:
            key = entry["key"]
            if key == "differences" and self.base is None:
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
            if key == "categories" or (not blocks and entry.get("blocks") == ["categories"]):
                continue
            if blocks or key != "idle":
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
            if item in _TABLE_FIELDS:
                return self.scoring_table(item)
            if item == "scoring_order":
                order = tuple(self.book.category(c.value) for c in self.rs.scoring_order)
                return [
                    self.paragraph_of(item),
                    self.block("ordered", (item,), items=order, cited=False),
                ]
            block = self.paragraph_of(item)
            if not applies(self.rs, item):
                self.idle.append(block)
                return []
            return [block]
        values: dict[str, Any] = {}
        if item == "sales_count":
            values["sales"] = _join(
                [
                    self.book.word("sales", sales=sales, players=_count_phrase(players, self.book))
                    for players, sales in _groups(
                        {n: self.rs.sales(n) for n in self.rs.player_counts}
                    )
                ],
                self.book,
            )
        return [self.block("paragraph", fixed=item, text=self.book.fixed(item, **values))]

    def category_sections(self) -> list[Section]:
        categories = _outline()["categories"]
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
        intro = " ".join(field_sentence(rs, f, book) for f in _COMPONENT_FIELDS)
        header = (
            _capital(book.word("players_column")),
            *(_capital(book.label(f)) for f in _COMPONENT_FIELDS),
        )
        combined = {
            n: tuple(getattr(rs, f)[n] for f in _COMPONENT_FIELDS) for n in rs.player_counts
        }
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
                self.block(
                    "tiles",
                    ("removed_companies",),
                    cited=False,
                    text=f"{book.word('tiles_in_play')} ({book.word('players', players=label)})",
                    tiles=rs.companies(players[0]),
                )
            )
        return [
            self.block("paragraph", _COMPONENT_FIELDS, text=intro),
            self.block("table", _COMPONENT_FIELDS, rows=tuple(rows), cited=False),
            *tiles,
        ]

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
        lines = []
        for category in rs.scoring_order:
            name = book.category(category.value)
            points = sheet.points(category)
            if category is Category.COMPANIES and me.companies:
                total = " + ".join(
                    str(vp) for vp in sorted((c.vp for c in me.companies), reverse=True)
                )
                lines.append(
                    book.word("example_companies", category=name, sum=total, points=points, vp=vp)
                )
            elif category is Category.SPENDING:
                lines.append(
                    book.word("example_line", category=book.word("row_bonus"), points=points, vp=vp)
                )
            else:
                lines.append(book.word("example_line", category=name, points=points, vp=vp))
        lines.append(
            book.word(
                "example_line", category=book.word("row_subtotal"), points=sheet.subtotal, vp=vp
            )
        )
        lines.append(
            book.word("example_line", category=book.word("row_total"), points=sheet.total, vp=vp)
        )
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
        outcome = outcome[0].upper() + outcome[1:]
        return [
            self.block("paragraph", text=intro),
            self.block("tiles", tiles=tuple(me.companies)),
            self.block(
                "paragraph",
                text=book.word("example_spent", spent=me.spent, zero=me.zero_bid_rounds),
            ),
            self.block("list", items=tuple(lines)),
            self.block("paragraph", text=book.word("example_board")),
            self.block("table", rows=board),
            self.block("paragraph", text=outcome),
        ]


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
    rows: list[tuple[str, ...]] = [("", *names)]
    for category in rs.scoring_order:
        label = (
            book.word("row_bonus")
            if category is Category.SPENDING
            else book.category(category.value)
        )
        rows.append((label, *(str(s.points(category)) for s in result.sheets)))
    rows.append((book.word("row_subtotal"), *(str(s.subtotal) for s in result.sheets)))
    rows.append((book.word("row_total"), *(str(s.total) for s in result.sheets)))
    rows.append((book.word("row_spent"), *(str(s.spent) for s in result.sheets)))
    rows.append(
        (
            book.word("row_eliminated"),
            *(book.word("yes") if s.eliminated else book.word("no") for s in result.sheets),
        )
    )
    return tuple(rows)


# --------------------------------------------------------------------------- the example


@functools.cache
def _example_data() -> tuple[dict[str, Any], ...]:
    path = os.path.join(
        os.path.dirname(CATALOG_FOLDER), os.pardir, "examples", "scoring-example.json"
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
) -> Rulebook:
    """The rulebook of ``ruleset`` (a rule set, a built-in id or a spec string) in
    language ``lang`` (``"en"``, ``"de"``; see :func:`qe_rules.texts.catalogs.languages`).

    ``against`` (a rule set or id) adds a section listing every rule that differs from
    it and marks the paragraphs that state them; ``cite=True`` gives every block its
    provenance: the text and section, or that it is an interpretation, a correction or a
    variant. Unknown languages and rule sets raise :class:`~qe_rules.RulesError`
    subclasses naming what is allowed.
    """
    rs = get_ruleset(ruleset)
    book = catalog(lang)
    base = get_ruleset(against) if against is not None else None
    if type(cite) is not bool:
        raise InvalidArgument(f"cite must be True or False, got {shown(cite)}")
    writer = _Writer(rs, book, base, cite)
    sections = tuple(writer.sections())
    legend = ", ".join(f"{i.code} {book.industry(i.name)}" for i in Industry)
    return Rulebook(
        ruleset=rs.id,
        language=book.language,
        title=book.heading("title"),
        subtitle=book.word("generated", ruleset=rs.id),
        base=base.id if base is not None else None,
        differences=writer.changes,
        sections=sections,
        legend=f"{book.word('legend')}: {legend}",
        difference_note=book.word("differs", base=base.id) if base is not None else "",
    )


# --------------------------------------------------------------------------- Markdown


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _block_markdown(block: Block, *, cite: bool = True, mark: bool = True) -> str:
    marker = "▲ " if block.differs and mark else ""
    tail = f" *[{block.cite}]*" if cite and block.cite else ""
    if block.kind == "paragraph":
        return f"{marker}{block.text}{tail}"
    if block.kind == "table":
        header, *rows = block.rows
        lines = ["| " + " | ".join(map(_cell, header)) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(map(_cell, row)) + " |" for row in rows]
        if tail or marker:
            lines.append("")
            lines.append(f"{marker}{tail.strip()}".strip())
        return "\n".join(lines)
    if block.kind in ("list", "ordered"):
        bullet = "1." if block.kind == "ordered" else "-"
        lines = [f"{bullet} {item}" for item in block.items]
        if tail or marker:
            lines.append("")
            lines.append(f"{marker}{tail.strip()}".strip())
        return "\n".join(lines)
    codes = ", ".join(str(c) for c in block.tiles)
    return f"{block.text}: {codes}" if block.text else codes


def _markdown(book: Rulebook) -> str:
    lines = [f"# {book.title}", "", f"*{book.subtitle}*", ""]
    for section in book.sections:
        lines += ["#" * section.level + " " + section.title, ""]
        for block in section.blocks:
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
@media print {
  .qe-rulebook { max-width: none; font-size: 10pt; }
  .qe-rulebook h2 { break-before: auto; }
}
"""


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
                f"<th>{html.escape(c)}</th>" if i == 0 else f"<td>{html.escape(c)}</td>"
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
