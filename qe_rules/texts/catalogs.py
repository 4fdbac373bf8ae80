"""The template catalogs of generated rulebooks: the words of each language as data.

A catalog is a TOML file ``qe_rules/data/rulebook/<language>.toml``: for every rule field
a ``label`` and one template per value (``true``/``false``, one per value of a choice,
``text`` for numbers, lists and tables), the paragraphs every rule set shares
(``[fixed]``), headings, the names of categories and industries, and the words the code
puts around values. Adding a language is adding a catalog; :func:`missing_templates`
names every template a catalog lacks::

    >>> from qe_rules.texts.catalogs import catalog, missing_templates
    >>> catalog("de").template("tie_streak", "any-players").startswith("Dabei zählt jeder")
    True
    >>> catalog("de").category("zero_bids"), catalog("de").industry("MANUFACTURING")
    ('Null-Gebote', 'Industrie')
    >>> missing_templates()
    []
"""

from __future__ import annotations

import enum
import functools
import json
import os
from collections.abc import Mapping
from typing import Any, Final

import attrs

from qe_rules._util.frozen import FrozenDict
from qe_rules.components import Industry
from qe_rules.errors import InvalidArgument, InvalidRuleSet, shown
from qe_rules.rules.files import data_file, parse_toml, read_text
from qe_rules.rules.model import RULESETS, Category, RuleSet, decode_field, encode_field
from qe_rules.rules.values import CATEGORY_SET, PLAYER_COUNTS
from qe_rules.texts.questions import open_questions

__all__ = [
    "CATALOG_FOLDER",
    "Catalog",
    "Condition",
    "catalog",
    "conditions_hold",
    "languages",
    "missing_templates",
    "outline",
    "parse_conditions",
    "value_keys",
]

CATALOG_FOLDER: Final = data_file("rulebook")
"""The folder of the catalogs (and of ``outline.toml``, the rulebook's sections)."""

_TABLES: Final = (
    "words",
    "headings",
    "terms",
    "categories",
    "industries",
    "fixed",
    "fields",
    "claims",
)

Condition = tuple[str, bool, Any]
"""A condition on a rule set: ``(field, equal, value)``, the field's value as plain data
(as a rule file writes it) equal to ``value`` (``equal`` true) or not."""


@attrs.frozen
class Catalog:
    """One language's templates; every lookup of a missing key raises
    :class:`~qe_rules.InvalidArgument` naming the language, the table and the key."""

    language: str
    name: str
    tables: FrozenDict[str, FrozenDict[str, Any]]

    def _get(self, table: str, key: str) -> str:
        found = self.tables[table].get(key)
        if not isinstance(found, str):
            raise InvalidArgument(
                f"rulebook catalog {self.language!r} ({_path(self.language)}) has no "
                f"[{table}] entry {shown(key)}"
            )
        return found

    def word(self, key: str, **values: Any) -> str:
        """A word or phrase of ``[words]``, its ``{placeholders}`` filled with ``values``."""
        return self._get("words", key).format(**values)

    def heading(self, key: str, **values: Any) -> str:
        """The heading of a rulebook section."""
        return self._get("headings", key).format(**values)

    def fixed(self, key: str, variant: str | None = None, **values: Any) -> str:
        """A paragraph of the game's frame; ``variant`` names its text where the frame
        has one per value of a rule field (``"true"``, ``"false"``)."""
        if variant is None:
            return self._get("fixed", key).format(**values)
        entry = self.tables["fixed"].get(key)
        found = entry.get(variant) if isinstance(entry, Mapping) else None
        if not isinstance(found, str):
            raise InvalidArgument(
                f"rulebook catalog {self.language!r} ({_path(self.language)}) has no "
                f"[fixed.{key}] entry {shown(variant)}"
            )
        return found.format(**values)

    def related(self, field: str, key: str) -> tuple[tuple[tuple[Condition, ...], str], ...]:
        """The sentences that state rule ``field``'s value ``key`` together with other
        rules (``"false|secret_bid_may_equal_opening=false"``), each with the conditions
        under which it is true.

        >>> [c for c, _ in catalog("en").related("rebid_may_equal_opening", "false")]
        [(('secret_bid_may_equal_opening', True, False),)]
        """
        entry = self.tables["fields"].get(field)
        if not isinstance(entry, Mapping):
            return ()
        found = []
        for name, text in entry.items():
            value, bar, conditions = name.partition("|")
            if bar and value == key and isinstance(text, str):
                found.append((parse_conditions(conditions), text))
        return tuple(found)

    def claims(self) -> tuple[tuple[str, tuple[Condition, ...]], ...]:
        """The phrases that assert rules' values (``[claims]``), lower case, each with
        the conditions it asserts."""
        return tuple(
            (phrase.casefold(), parse_conditions(str(conditions)))
            for phrase, conditions in self.tables["claims"].items()
        )

    def category(self, key: str) -> str:
        """The name of a scoring category (``Category`` value)."""
        return self._get("categories", key)

    def industry(self, name: str) -> str:
        """The name of an industry (``Industry`` member name)."""
        return self._get("industries", name)

    def has_template(self, field: str, key: str) -> bool:
        """Whether field ``field`` has a template under ``key``."""
        entry = self.tables["fields"].get(field)
        return isinstance(entry, Mapping) and isinstance(entry.get(key), str)

    def template(self, field: str, key: str) -> str:
        """The template of rule field ``field`` for ``key`` (a value, ``text``,
        ``none``, ``label`` or ``question``)."""
        if not self.has_template(field, key):
            raise InvalidArgument(
                f"rulebook catalog {self.language!r} ({_path(self.language)}) has no "
                f"template for field {shown(field)}, value {shown(key)}"
            )
        found: str = self.tables["fields"][field][key]
        return found

    def label(self, field: str) -> str:
        """The short name of a rule field."""
        return self.template(field, "label")


def parse_conditions(text: str) -> tuple[Condition, ...]:
    """Conditions written ``field=value&field!=value``; a value is JSON (``false``,
    ``[]``, ``3``) or else a plain word (``tied``).

    >>> parse_conditions("rebidders=tied&zero_bid_player_counts!=[]")
    (('rebidders', True, 'tied'), ('zero_bid_player_counts', False, []))
    """
    found = []
    for part in text.split("&"):
        field, op, value = part.partition("!=") if "!=" in part else part.partition("=")
        if not op:
            raise InvalidArgument(f"{shown(part)} is not a condition field=value")
        try:
            plain = json.loads(value)
        except ValueError:
            plain = value
        found.append((field.strip(), op == "=", plain))
    return tuple(found)


def conditions_hold(rules: RuleSet, conditions: tuple[Condition, ...]) -> bool:
    """Whether every condition holds of ``rules``."""
    return all(
        (encode_field(field, getattr(rules, field)) == value) is equal
        for field, equal, value in conditions
    )


@functools.cache
def outline() -> Mapping[str, Any]:
    """The rulebook's outline, ``qe_rules/data/rulebook/outline.toml``: its sections and
    the frame paragraphs, each with the section of every text that states it."""
    path = os.path.join(CATALOG_FOLDER, "outline.toml")
    return parse_toml(
        read_text(path, InvalidArgument), "qe_rules/data/rulebook/outline.toml", InvalidArgument
    )


def _path(language: str) -> str:
    return f"qe_rules/data/rulebook/{language}.toml"


def languages() -> tuple[str, ...]:
    """The languages that have a catalog, English first."""
    found = sorted(
        name.removesuffix(".toml")
        for name in os.listdir(CATALOG_FOLDER)
        if name.endswith(".toml") and name != "outline.toml"
    )
    return tuple(sorted(found, key=lambda code: (code != "en", code)))


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return FrozenDict((str(k), _freeze(v)) for k, v in value.items())
    return value


def catalog(language: str) -> Catalog:
    """The catalog of ``language`` (``"en"``, ``"de"``), read once."""
    known = languages()
    if not isinstance(language, str) or language not in known:
        raise InvalidArgument(
            f"no rulebook catalog for language {shown(language)}; languages: {', '.join(known)}"
        )
    return _catalog(language)


@functools.cache
def _catalog(language: str) -> Catalog:
    origin = _path(language)
    data = parse_toml(read_text(os.path.join(CATALOG_FOLDER, f"{language}.toml")), origin)
    tables = {}
    for table in _TABLES:
        value = data.get(table, {})
        if not isinstance(value, Mapping):
            raise InvalidArgument(f"{origin}: [{table}] needs a table")
        tables[table] = _freeze(value)
    return Catalog(
        language=language, name=str(data.get("name", language)), tables=FrozenDict(tables)
    )


catalog.cache_clear = _catalog.cache_clear  # type: ignore[attr-defined]  # as before


def value_keys(field: str) -> tuple[str, ...]:
    """The template keys rule field ``field`` needs besides its ``label``: ``true`` and
    ``false`` for a yes-or-no rule, every value of a choice, else ``text`` (and ``none``
    for a list that may be empty).

    >>> value_keys("tie_streak"), value_keys("zero_bid_points")
    (('any-players', 'same-players'), ('text',))
    """
    value = getattr(RULESETS["en"], field)
    if isinstance(value, bool):
        return ("true", "false")
    if isinstance(value, enum.Enum):
        return tuple(str(member.value) for member in type(value))
    kind = _kind(field)
    if field != "player_counts" and (kind is PLAYER_COUNTS or kind is CATEGORY_SET):
        return ("text", "none")
    return ("text",)


def _kind(field: str) -> Any:
    return attrs.fields_dict(RuleSet)[field].metadata["kind"]


def _question_fields() -> tuple[str, ...]:
    return tuple(q.field for q in open_questions())


def _bad_conditions(where: str, what: str, conditions: str) -> list[str]:
    try:
        parsed = parse_conditions(conditions)
    except InvalidArgument as error:
        return [f"{where}: {what}: {error}"]
    problems = []
    for field, _, value in parsed:
        if field not in RuleSet.rule_fields():
            problems.append(f"{where}: {what} names {field!r}, which is not a rule field")
            continue
        try:
            decode_field(field, value)
        except InvalidRuleSet:
            problems.append(f"{where}: {what} gives {field!r} the value {value!r}, not one of its")
    return problems


def _bad_relation(
    where: str, field: str, value: str, conditions: str, allowed: set[str]
) -> list[str]:
    if value not in allowed and not (value.isdigit() and "text" in allowed):
        return [f"{where} relates field {field!r}, value {value!r}, which the field does not take"]
    return _bad_conditions(where, f"the relation of {field!r}, value {value!r}", conditions)


def missing_templates() -> list[str]:
    """Every template some catalog lacks, every template for a field or value that does
    not exist, and every ``question`` of a field that is no open question, one line each
    (empty when every catalog is complete)."""
    problems = []
    reference = catalog("en")
    questions = _question_fields()
    for language in languages():
        book = catalog(language)
        where = f"rulebook catalog {language!r} ({_path(language)})"
        for field in RuleSet.rule_fields():
            needed = ("label", *value_keys(field))
            if field in questions:
                needed = (*needed, "question")
            for key in needed:
                if not book.has_template(field, key):
                    problems.append(f"{where} has no template for field {field!r}, value {key!r}")
        for field, entry in book.tables["fields"].items():
            if field not in RuleSet.rule_fields():
                problems.append(f"{where} has templates for {field!r}, which is not a rule field")
                continue
            allowed = {"label", *value_keys(field)}
            for key in entry:
                value, bar, conditions = key.partition("|")
                if bar:
                    problems.extend(_bad_relation(where, field, value, conditions, allowed))
                    continue
                if key == "question" and field not in questions:
                    problems.append(
                        f"{where} has a question for field {field!r}, which is not an open "
                        "question (qe_rules/data/open-questions.toml)"
                    )
                elif key == "question":
                    continue
                elif key not in allowed and not (key.isdigit() and "text" in allowed):
                    problems.append(
                        f"{where} has a template for field {field!r}, value {key!r}, "
                        "which the field does not take"
                    )
        for table in ("words", "headings", "fixed", "categories", "industries"):
            for key in reference.tables[table]:
                if key not in book.tables[table]:
                    problems.append(f"{where} has no [{table}] entry {key!r}")
        for key, entry in reference.tables["fixed"].items():
            if isinstance(entry, Mapping):
                mine = book.tables["fixed"].get(key)
                for variant in entry:
                    if not isinstance(mine, Mapping) or variant not in mine:
                        problems.append(f"{where} has no [fixed.{key}] entry {variant!r}")
        for key, entry in outline()["fixed"].items():
            by = entry.get("by")
            if by is None:
                continue
            mine = book.tables["fixed"].get(key)
            for variant in value_keys(by):
                if not isinstance(mine, Mapping) or variant not in mine:
                    problems.append(f"{where} has no [fixed.{key}] entry {variant!r}")
        for phrase, conditions in book.tables["claims"].items():
            problems.extend(_bad_conditions(where, f"claim {phrase!r}", str(conditions)))
        for category in Category:
            if category.value not in book.tables["categories"]:
                problems.append(f"{where} has no [categories] entry {category.value!r}")
        for industry in Industry:
            if industry.name not in book.tables["industries"]:
                problems.append(f"{where} has no [industries] entry {industry.name!r}")
    return problems
