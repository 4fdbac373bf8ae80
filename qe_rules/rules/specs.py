"""Spec strings and the values of :meth:`~qe_rules.RuleSet.evolve`, read strictly.

A spec string ``"<built-in id>:<field>=<value>,..."`` names a variant of a built-in rule
set; :meth:`~qe_rules.RuleSet.evolve` takes Python values or their plain-data form. Both
come from users (a command line, a web form, a notebook), so both are read here before
any work that grows with them:

* a spec string is at most ``MAX_TEXT_LENGTH`` characters, its field names are checked
  before their values are read, its lists and tables nest at most ``MAX_NESTING`` deep,
  and a number is ASCII digits short enough to be a rule value;
* an ``evolve`` value is turned into plain data (enum members into their values, tiles
  into their codes, lists of at most :data:`MOST_ITEMS` items) and read by the field's own
  reader, exactly as a rule file's value is: a value is accepted by ``evolve`` if and
  only if the same value written in a spec string or a rule file is.

>>> spec_value("3"), spec_value("[1, 2]"), spec_value("stands")
(3, [1, 2], 'stands')
>>> split_id("en:zero_bid_points=3,scoring_order=[\\"a\\",\\"b\\"]")
('en', {'zero_bid_points': '3', 'scoring_order': '["a","b"]'})
"""

from __future__ import annotations

import enum
import json
from collections.abc import Collection, Mapping
from typing import Any, Final

from qe_rules.components import Company, Industry, Nation
from qe_rules.errors import InvalidRuleSet, shown
from qe_rules.limits import MAX_NESTING, MAX_TABLE_COUNT, MAX_TEXT_LENGTH

__all__ = ["MOST_ITEMS", "plain_value", "spec_items", "spec_value", "split_id"]

MOST_ITEMS: Final = MAX_TABLE_COUNT
"""The most items a list or table of a rule field may hold (a deck has 21 tiles, a
scoring table at most ``MAX_TABLE_COUNT`` counts)."""

_WORDS: Final[Mapping[str, bool]] = {"true": True, "false": False}
_MOST_DIGITS: Final = 20  # far beyond MAX_BID; a longer number is refused as text


def spec_value(text: str) -> Any:
    """The plain value a spec string writes as ``text``: ``true``/``false``, a whole
    number (ASCII digits), a JSON list or table, or else the text itself (a choice's
    value; the field's reader refuses what it does not allow)."""
    if text in _WORDS:
        return _WORDS[text]
    if text.isascii() and text.isdigit() and len(text) <= _MOST_DIGITS:
        return int(text)
    if text[:1] in "[{":  # a list or table, as JSON
        if _depth(text) > MAX_NESTING:
            raise InvalidRuleSet(f"a value nests lists deeper than MAX_NESTING ({MAX_NESTING})")
        try:
            return json.loads(text)
        except (ValueError, RecursionError):
            return text  # refused by the field's check with what it needs
    return text


def _depth(text: str) -> int:
    """The deepest nesting of brackets in ``text`` (strings not told apart: a bound)."""
    depth = deepest = 0
    for char in text:
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def spec_items(text: str) -> list[str]:
    """The ``field=value`` items of a spec string: split at commas outside brackets."""
    items, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        elif char == "," and depth == 0:
            items.append(text[start:index])
            start = index + 1
    items.append(text[start:])
    return items


def split_id(ruleset_id: str, fields: Collection[str] = ()) -> tuple[str, dict[str, str]]:
    """A rule set id as its base and the ``field -> value text`` changes it names, when
    it is ``<base>:<field>=<value>,...`` with known ``fields`` (every field when none are
    given); otherwise the whole id and no changes (an id of a rule file may hold a
    colon)."""
    base, colon, rest = ruleset_id.partition(":")
    if not colon:
        return ruleset_id, {}
    changes: dict[str, str] = {}
    for item in spec_items(rest):
        name, equals, value = item.partition("=")
        if not equals or (fields and name not in fields) or name in changes:
            return ruleset_id, {}
        changes[name] = value
    return base, changes


def check_spec(spec: str) -> None:
    """Refuse a spec string too long to name a rule set."""
    if len(spec) > MAX_TEXT_LENGTH:
        raise InvalidRuleSet(
            f"a spec string is at most MAX_TEXT_LENGTH ({MAX_TEXT_LENGTH}) characters, "
            f"got {len(spec)}"
        )


def plain_value(value: Any, where: str, depth: int = 0) -> Any:
    """A Python value given to ``evolve`` as plain data (what a rule file would hold):
    enum members as their values, tiles as codes, nations as codes, industries as names,
    lists, sets and tuples as lists, mappings as tables. Anything else, a list of more
    than :data:`MOST_ITEMS` items, or nesting beyond ``MAX_NESTING``, raises
    :class:`~qe_rules.InvalidRuleSet` before any work that grows with it."""
    if depth > MAX_NESTING:
        raise InvalidRuleSet(f"{where}: nests deeper than MAX_NESTING ({MAX_NESTING})")
    if value is None or isinstance(value, bool | int | str | float):
        return value
    if isinstance(value, Company):
        return str(value)
    if isinstance(value, Nation):
        return value.code
    if isinstance(value, Industry):
        return value.name
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Mapping | list | tuple | set | frozenset | range):
        size = len(value)
        if size > MOST_ITEMS:
            raise InvalidRuleSet(
                f"{where}: a rule field holds at most {MOST_ITEMS} items, got {size}"
            )
        if isinstance(value, Mapping):
            for key in value:
                if not isinstance(key, str | int):
                    raise InvalidRuleSet(
                        f"{where}: a table's keys are numbers or strings, got {shown(key)}"
                    )
            return {key: plain_value(item, where, depth + 1) for key, item in value.items()}
        items = sorted(value, key=repr) if isinstance(value, set | frozenset) else value
        return [plain_value(item, where, depth + 1) for item in items]
    raise InvalidRuleSet(
        f"{where}: give a value, a list or a table (as a rule file holds), got {shown(value)}"
    )
