"""The checker of generated texts: every rulebook says what its rule set says.

:func:`check_rulebook` reads one :class:`~qe_rules.texts.rulebooks.Rulebook` against its
rule set and reports :class:`TextFinding`\\ s of four kinds:

- ``missing``: a rule field that applies and that no paragraph of the rules states (or
  states with a value, a number or a table cell the rule set does not have);
- ``contradiction``: a sentence that says something else than the rule set: the sentence
  of another value of a rule, a sentence relating two rules where the rule set's values
  do not make the relation true ("like a secret bid" where a secret bid differs), a
  phrase of the catalog's ``[claims]`` whose rule value the rule set does not have, or a
  frame paragraph written where it does not hold;
- ``citation``: with citations, a rule paragraph without one, a section its text does
  not have (``sources.toml``), or a text the rule set does not cite for that rule
  (another text's section, borrowed);
- ``glossary``: a form the glossary says a text in that language must not use
  (``nachsehen`` for the peek, a calque), or, across the two languages of one rule set, a
  game term of the English text whose German term the German text lacks.

:func:`check_texts` runs it over rule sets (by default every built-in and
:func:`random_variants`) in every language and edition, with citations::

    >>> report = check_texts(variants=2, seed=1)
    >>> report.findings
    ()
    >>> report.rulebooks, report.variants
    (24, 2)

``qe-rules verify --texts`` prints the report; the test suite runs it over every
built-in and at least 200 random variants (``tests/texts/test_text_checker.py``).
"""

from __future__ import annotations

import enum
import random
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Final

import attrs

from qe_rules.components import COMPANIES, Industry, Nation
from qe_rules.rules.files import SOURCES
from qe_rules.rules.model import (
    RULESETS,
    Category,
    RuleSet,
    encode_field,
    get_ruleset,
    text_support,
)
from qe_rules.texts.catalogs import Catalog, catalog, conditions_hold, languages, value_keys
from qe_rules.texts.glossary import GLOSSARY
from qe_rules.texts.rulebooks import (
    COMPONENT_FIELDS,
    EDITIONS,
    TABLE_FIELDS,
    Block,
    Rulebook,
    applies,
    fill,
    frame_text,
    rulebook,
    template_key,
)

__all__ = [
    "FINDING_KINDS",
    "TextFinding",
    "TextReport",
    "check_rulebook",
    "check_term_pairs",
    "check_texts",
    "random_variant",
    "random_variants",
]

FINDING_KINDS: Final = ("missing", "contradiction", "citation", "glossary")
"""The kinds of :class:`TextFinding`, in the order a report counts them."""

_APPENDICES: Final = ("differences", "idle", "questions")
"""Sections that list other rules than the rule set's own (a base's, other readings):
they are read for citations and glossary terms, not as the rules."""

_CITED: Final = re.compile(r"([\w-]+) §(.+)$")
_PAIRED_KINDS: Final = ("component", "category", "industry", "role", "phase")
_DASH: Final = "\N{EN DASH}"


@attrs.frozen
class TextFinding:
    """One thing a generated text gets wrong: its ``kind`` (:data:`FINDING_KINDS`), the
    rulebook (rule set, language, edition), where (a rule field, a frame paragraph or a
    section) and what."""

    kind: str
    ruleset: str
    language: str
    edition: str
    where: str
    detail: str

    def __str__(self) -> str:
        return (
            f"{self.kind}: {self.ruleset} ({self.language}, {self.edition}), "
            f"{self.where}: {self.detail}"
        )


@attrs.frozen
class TextReport:
    """What :func:`check_texts` checked and found."""

    rulebooks: int
    """How many rulebooks were read (rule sets x languages x editions)."""
    variants: int
    """How many of the rule sets were random variants."""
    checks: int
    """How many single checks were made."""
    findings: tuple[TextFinding, ...]

    def counts(self) -> dict[str, int]:
        """The number of findings of each kind, every kind listed."""
        found = Counter(f.kind for f in self.findings)
        return {kind: found.get(kind, 0) for kind in FINDING_KINDS}

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON types."""
        return {
            "rulebooks": self.rulebooks,
            "variants": self.variants,
            "checks": self.checks,
            "counts": self.counts(),
            "findings": [attrs.asdict(finding) for finding in self.findings],
        }

    def to_text(self) -> str:
        """The report in a few lines, then every finding."""
        counts = ", ".join(f"{n} {kind}" for kind, n in self.counts().items())
        lines = [
            f"Checked {self.rulebooks} rulebooks ({self.variants} random variants, every "
            f"language and edition): {self.checks} checks; findings: {counts}."
        ]
        lines += [f"  {finding}" for finding in self.findings]
        return "\n".join(lines)


# --------------------------------------------------------------------------- one rulebook


class _Check:
    """The checks of one rulebook; ``findings`` and ``checks`` collect what they find."""

    def __init__(self, book: Rulebook, rules: RuleSet) -> None:
        self.book = book
        self.rules = rules
        self.words: Catalog = catalog(book.language)
        self.findings: list[TextFinding] = []
        self.checks = 0
        self.rule_blocks = [
            block
            for section in book.sections
            if section.key not in _APPENDICES
            for block in section.blocks
        ]

    def find(self, kind: str, where: str, detail: str) -> None:
        book = self.book
        self.findings.append(
            TextFinding(kind, book.ruleset, book.language, book.edition, where, detail)
        )

    def expect(self, ok: bool, kind: str, where: str, detail: str) -> None:
        self.checks += 1
        if not ok:
            self.find(kind, where, detail)

    # ------------------------------------------------------------------ the rules

    def fields(self) -> None:
        for field in RuleSet.rule_fields():
            stating = [b for b in self.rule_blocks if b.fields[:1] == (field,)]
            if field in COMPONENT_FIELDS:
                stating = [b for b in self.rule_blocks if field in b.fields and b.kind == "table"]
            if not applies(self.rules, field):
                idle = [
                    b
                    for s in self.book.sections
                    if s.key == "idle"
                    for b in s.blocks
                    if field in b.fields
                ]
                where = "the rules that do not come up"
                if self.book.edition == "reference":
                    self.expect(bool(idle), "missing", field, f"not written under {where}")
                    stating = idle
                if not stating:
                    continue
            self.expect(bool(stating), "missing", field, "no paragraph of the rules states it")
            for block in stating:
                self.value(field, block)

    def value(self, field: str, block: Block) -> None:
        rules, words = self.rules, self.words
        value = getattr(rules, field)
        if field in COMPONENT_FIELDS:
            self.components(field, block)
        elif field in TABLE_FIELDS:
            if block.kind == "table":
                self.table(field, block)
            else:
                self.sentence(field, block, value)
                self.expect(
                    any(b.kind == "table" and field in b.fields for b in self.rule_blocks),
                    "missing",
                    field,
                    "the scoring table is not written",
                )
        elif field == "scoring_order" and block.kind == "ordered":
            named = [words.category(c.value) for c in value]
            self.expect(
                list(block.items) == named,
                "contradiction",
                field,
                f"lists {list(block.items)}, the rule set scores {named}",
            )
        else:
            self.sentence(field, block, value)

    def sentence(self, field: str, block: Block, value: Any) -> None:
        """The paragraph of ``field`` is its value's sentence, or a sentence relating it
        to another rule whose conditions the rule set meets."""
        words, rules = self.words, self.rules
        key = template_key(field, value, words)
        allowed = {fill(words.template(field, key), field, value, words)}
        for conditions, template in words.related(field, key):
            if conditions_hold(rules, conditions):
                allowed.add(fill(template, field, value, words))
        self.numbers(field, block, value, key)
        if block.text in allowed:
            self.expect(True, "contradiction", field, "")
            return
        related = [
            (conditions, fill(template, field, value, words))
            for conditions, template in words.related(field, key)
        ]
        if any(text == block.text for _, text in related):
            self.find(
                "contradiction",
                field,
                f"relates rules the rule set's values do not relate: {block.text!r}",
            )
        else:
            self.find("contradiction", field, f"does not state {encode_field(field, value)!r}")

    def numbers(self, field: str, block: Block, value: Any, key: str) -> None:
        """The numbers a rule's sentence names are its value's, whatever its template
        says: a count the value, a list of player counts those counts."""
        named = _named_numbers(block.text)
        if isinstance(value, int) and not isinstance(value, bool) and key == "text":
            self.expect(
                named == {value},
                "contradiction",
                field,
                f"names {sorted(named)}, the rule set's value is {value}",
            )
        elif isinstance(value, tuple) and value and all(type(n) is int for n in value):
            self.expect(
                named == set(value),
                "contradiction",
                field,
                f"names the player counts {sorted(named)}, the rule set's are {list(value)}",
            )

    def rows(
        self, field: str, block: Block
    ) -> Iterator[tuple[int, tuple[str, ...], tuple[str, ...]]]:
        """The table's header and its row for each player count (a missing row found)."""
        header, *rows = block.rows
        for players in self.rules.player_counts:
            row = _row_of(rows, players)
            if row is None:
                self.find("missing", field, f"the table has no row for {players} players")
            else:
                yield players, header, row

    def table(self, field: str, block: Block) -> None:
        value: Mapping[int, Mapping[int, int]] = getattr(self.rules, field)
        for players, header, row in self.rows(field, block):
            for count, points in value[players].items():
                cell = row[header.index(str(count))] if str(count) in header else None
                self.expect(
                    cell == str(points),
                    "contradiction",
                    field,
                    f"{players} players, count {count}: {cell!r}, the rule set says {points}",
                )

    def components(self, field: str, block: Block) -> None:
        words = self.words
        label = words.label(field)
        for players, header, row in self.rows(field, block):
            column = header.index(label[:1].upper() + label[1:])
            held = getattr(self.rules, field)[players]
            if field == "deck_sizes":
                expected = str(held)
            elif field == "industries_in_play":
                expected = ", ".join(words.industry(i.name) for i in held)
            elif field == "nations_in_play":
                expected = ", ".join(n.code for n in held)
            else:
                expected = ", ".join(map(str, held)) or words.word("none")
            self.expect(
                row[column] == expected,
                "contradiction",
                field,
                f"{players} players: {row[column]!r}, the rule set says {expected!r}",
            )

    # ------------------------------------------------------------------ contradictions

    def frames(self) -> None:
        """Each frame paragraph is written exactly where it holds, as it holds."""
        for block in self.rule_blocks:
            if not block.frame:
                continue
            expected = frame_text(self.rules, block.frame, self.words, self.book.edition)
            self.expect(
                expected is not None,
                "contradiction",
                block.frame,
                "written where it does not hold",
            )
            self.expect(
                expected is None or block.text == expected,
                "contradiction",
                block.frame,
                f"says {block.text!r}, the rule set's frame is {expected!r}",
            )

    def other_values(self) -> None:
        """No sentence of another value of a rule, nor a relation that is false."""
        text = "\n".join(_texts(self.rule_blocks))
        rules, words = self.rules, self.words
        for field in RuleSet.rule_fields():
            value = getattr(rules, field)
            if not isinstance(value, bool | enum.Enum):
                continue
            own = template_key(field, value, words)
            said = {words.template(field, own)}
            said |= {t for c, t in words.related(field, own) if conditions_hold(rules, c)}
            for key in value_keys(field):
                others = [words.template(field, key)] if key != own else []
                others += [t for c, t in words.related(field, key) if not conditions_hold(rules, c)]
                for other in others:
                    if other in said:
                        continue
                    self.expect(
                        other not in text,
                        "contradiction",
                        field,
                        f"a sentence of another reading is written: {other!r}",
                    )

    def claims(self) -> None:
        """Every phrase of the catalog's claims holds where it is written."""
        rules = self.rules
        for text in _texts(self.rule_blocks):
            lowered = text.casefold()
            for phrase, conditions in self.words.claims():
                if phrase in lowered:
                    self.expect(
                        conditions_hold(rules, conditions),
                        "contradiction",
                        _condition_fields(conditions),
                        f"{text!r} says {phrase!r}, which the rule set's values deny",
                    )

    # ------------------------------------------------------------------ citations

    def citations(self) -> None:
        rules = self.rules
        for section in self.book.sections:
            appendix = section.key in _APPENDICES
            for block in section.blocks:
                stated = block.frame or (block.fields and block.kind == "paragraph")
                if self.book.cited and not appendix and stated:
                    self.expect(
                        bool(block.cite),
                        "citation",
                        block.frame or block.fields[0],
                        "a rule paragraph without its citation",
                    )
                for cite in [block.cite, *_item_cites(block)]:
                    for source, section_name in self.sections_of(cite):
                        self.cited(block, source, section_name, appendix, rules)

    def sections_of(self, cite: str) -> Iterator[tuple[str, str]]:
        """The (source, section) pairs a citation names, its markers taken off."""
        for key in ("interpretation", "corrected", "silent", "house-rule"):
            cite = cite.replace(f" ({self.words.word(key)})", "")
        for part in cite.split("; "):
            found = _CITED.search(part.rpartition(": ")[2])
            if found is not None:
                source, section = found.groups()
                yield source, section

    def cited(
        self, block: Block, source: str, section: str, appendix: bool, rules: RuleSet
    ) -> None:
        where = block.frame or (block.fields[0] if block.fields else "text")
        known = SOURCES.get(source)
        if known is not None:
            self.expect(
                known.has_section(section),
                "citation",
                where,
                f"cites {source} §{section}, a section {source} does not have",
            )
        if appendix:
            return  # other readings are cited to the texts that support them
        allowed = {rules.source} if block.frame else set()
        for field in block.fields:
            cite = rules.cite(field)
            allowed.add(cite.source)
            support = text_support(field, getattr(rules, field))
            if cite.section == "(variant)" and support is not None:
                allowed.add(support.source)
        self.expect(
            source in allowed,
            "citation",
            where,
            f"borrows {source} §{section}; the rule set cites {sorted(allowed)}",
        )

    # ------------------------------------------------------------------ glossary

    def glossary(self) -> None:
        text = self.book.to_markdown()
        language = self.book.language
        for term in GLOSSARY:
            preferred = term.de if language == "de" else term.en
            for form in term.avoided(language):
                found = re.search(rf"\b{re.escape(form)}\w*", text, flags=re.IGNORECASE)
                self.expect(
                    found is None,
                    "glossary",
                    term.en,
                    f"uses {found.group(0) if found else form!r}; the glossary's term is "
                    f"{preferred!r}",
                )


def _row_of(rows: Sequence[tuple[str, ...]], players: int) -> tuple[str, ...] | None:
    for row in rows:
        if players in _label_counts(row[0]):
            return row
    return None


def _label_counts(label: str) -> set[int]:
    """The player counts a row label names: a run (3-4 with an en dash) or a list."""
    if _DASH in label:
        low, _, high = label.partition(_DASH)
        if low.isdigit() and high.isdigit():
            return set(range(int(low), int(high) + 1))
        return set()
    parts = [p.strip() for p in label.split(",")]
    return {int(p) for p in parts if p.isdigit()}


def _named_numbers(text: str) -> set[int]:
    """Every whole number ``text`` names, a run such as 3-5 (an en dash) naming 3, 4, 5."""
    named = {int(n) for n in re.findall(r"\d+", text)}
    for low, high in re.findall(rf"(\d+){_DASH}(\d+)", text):
        named |= set(range(int(low), int(high) + 1))
    return named


def _texts(blocks: Iterable[Block]) -> Iterator[str]:
    for block in blocks:
        if block.kind == "paragraph":
            yield block.text
        elif block.kind in ("list", "ordered"):
            yield from block.items


def _item_cites(block: Block) -> list[str]:
    """The citations inside a list's items (the open questions' other readings)."""
    return [m for item in block.items for m in re.findall(r"\*\[([^\]]+)\]\*", item)]


def _condition_fields(conditions: Iterable[tuple[str, bool, Any]]) -> str:
    return ", ".join(dict.fromkeys(field for field, _, _ in conditions))


def check_rulebook(book: Rulebook, rules: RuleSet | None = None) -> tuple[list[TextFinding], int]:
    """The findings of one rulebook against its rule set (by default the one it names),
    and the number of checks made. Citations are checked where the rulebook has them."""
    rules = rules if rules is not None else get_ruleset(book.ruleset)
    check = _Check(book, rules)
    check.fields()
    check.frames()
    check.other_values()
    check.claims()
    check.citations()
    check.glossary()
    return check.findings, check.checks


def _words_of(book: Rulebook) -> str:
    """The words of a rulebook without its citations: headings, paragraphs, list items
    and table cells."""
    parts = [book.title]
    for section in book.sections:
        parts.append(section.title)
        for block in section.blocks:
            parts += [block.text, *block.items, *(cell for row in block.rows for cell in row)]
    return re.sub(r"\*\[[^\]]*\]\*", "", "\n".join(parts))  # the readings' citations


def _inflected(term: str) -> str:
    """A pattern of ``term`` whose words may take an ending (``erster`` as ``erste``)."""
    stems = [re.escape(w[:-2] if len(w) > 5 else w) + r"\w*" for w in term.split()]
    return r"\b" + r"\s+".join(stems)


def check_term_pairs(english: Rulebook, german: Rulebook) -> tuple[list[TextFinding], int]:
    """Across the English and the German rulebook of one rule set: every game term
    (component, phase, category, industry, role) of the English text has the glossary's
    German term in the German text (its words perhaps inflected)."""
    en, de = _words_of(english), _words_of(german)
    findings, checks = [], 0
    for term in GLOSSARY:
        if term.kind not in _PAIRED_KINDS:
            continue
        if not re.search(rf"\b{re.escape(term.en)}\b", en, flags=re.IGNORECASE):
            continue
        checks += 1
        if not re.search(_inflected(term.de), de, flags=re.IGNORECASE):
            findings.append(
                TextFinding(
                    "glossary",
                    german.ruleset,
                    german.language,
                    german.edition,
                    term.en,
                    f"the English text says {term.en!r}; the German one lacks {term.de!r}",
                )
            )
    return findings, checks


# --------------------------------------------------------------------------- many rulebooks


def check_texts(
    rulesets: Iterable[RuleSet | str] | None = None,
    *,
    variants: int = 200,
    seed: int = 0,
    langs: Sequence[str] | None = None,
    editions: Sequence[str] = EDITIONS,
) -> TextReport:
    """Check the rulebooks of ``rulesets`` (by default every built-in) and of
    ``variants`` random variants (:func:`random_variants` with ``seed``), in every
    language of ``langs`` (default: every catalog) and every edition; the reference
    edition with citations."""
    chosen = [get_ruleset(r) for r in (rulesets if rulesets is not None else RULESETS)]
    chosen += random_variants(variants, seed)
    langs = tuple(langs) if langs is not None else languages()
    findings: list[TextFinding] = []
    checks = books = 0
    for rules in chosen:
        for edition in editions:
            made = {}
            for lang in langs:
                book = rulebook(rules, lang=lang, cite=edition == "reference", edition=edition)
                found, count = check_rulebook(book, rules)
                findings += found
                checks += count
                books += 1
                made[lang] = book
            if "en" in made and "de" in made:
                found, count = check_term_pairs(made["en"], made["de"])
                findings += found
                checks += count
    return TextReport(rulebooks=books, variants=variants, checks=checks, findings=tuple(findings))


# --------------------------------------------------------------------------- variants

_NUMBERS: Final = {
    "min_opening_bid": (0, 5),
    "min_secret_bid": (0, 5),
    "ties_before_fallback": (1, 5),
    "zero_bid_points": (0, 5),
    "zero_bid_limit_per_round": (0, 3),
    "peeks_per_player": (0, 3),
}
_COUNT_LISTS: Final = (
    "zero_bid_player_counts",
    "last_tile_without_auctioneer",
    "peek_player_counts",
)


def _subset(rng: random.Random, items: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(x for x in items if rng.random() < 0.5)


def _table(rng: random.Random) -> dict[int, int]:
    start = rng.randint(1, 3)
    return {start + i: rng.randint(0, 30) for i in range(rng.randint(1, 5))}


def random_variant(rng: random.Random) -> RuleSet:
    """A built-in with any of its rule fields changed at random (player counts
    included, a quarter of the time), every value one the model accepts."""
    base = rng.choice(list(RULESETS.values()))
    counts = base.player_counts
    changes: dict[str, Any] = {}
    if rng.randint(0, 3) == 0:
        counts = tuple(sorted(rng.sample((3, 4, 5), rng.randint(1, 3))))
        changes["player_counts"] = counts
        for name in RuleSet.per_player_fields():
            changes[name] = {n: getattr(base, name)[n] for n in counts}
        for name in _COUNT_LISTS:
            changes[name] = tuple(n for n in getattr(base, name) if n in counts)
    for name in RuleSet.rule_fields():
        if name == "player_counts" or rng.random() < 0.5:
            continue
        value = getattr(base, name)
        if isinstance(value, bool):
            changes[name] = not value
        elif isinstance(value, enum.Enum):
            changes[name] = rng.choice(list(type(value)))
        elif name in _NUMBERS:
            changes[name] = rng.randint(*_NUMBERS[name])
        elif name in _COUNT_LISTS:
            changes[name] = _subset(rng, counts)
        elif name == "token_categories":
            changes[name] = frozenset(
                _subset(rng, (Category.MONOPOLIZATION, Category.DIVERSIFICATION))
            )
        elif name == "scoring_order":
            changes[name] = tuple(rng.sample(list(Category), len(Category)))
        elif name in TABLE_FIELDS:
            changes[name] = {n: _table(rng) for n in counts}
        elif name == "lowest_spend_bonus":
            changes[name] = {n: rng.randint(0, 10) for n in counts}
        elif name == "deck_sizes":
            changes[name] = {n: rng.randint(1, 21) for n in counts}
        elif name == "removed_companies":
            changes[name] = {n: tuple(rng.sample(COMPANIES, rng.randint(0, 8))) for n in counts}
        elif name == "nations_in_play":
            changes[name] = {
                n: tuple(rng.sample(list(Nation), len(Nation)))[: rng.randint(n, 5)] for n in counts
            }
        elif name == "industries_in_play":
            changes[name] = {
                n: tuple(rng.sample(list(Industry), len(Industry)))[: rng.randint(n, 5)]
                for n in counts
            }
    return base.evolve(**changes) if changes else base


def random_variants(count: int, seed: int = 0) -> list[RuleSet]:
    """``count`` random variants (:func:`random_variant`), the same for the same seed."""
    rng = random.Random(seed)
    return [random_variant(rng) for _ in range(count)]
