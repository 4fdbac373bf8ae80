"""The open questions: where a QE text allows more than one reading, as switches.

Each :class:`OpenQuestion` is a rule field whose every value the library plays (a
*switch*), the readings (its values), what each built-in rule set chose and why (its
provenance), and the entries of the discrepancy register it answers. Which fields are
questions is data: ``qe_rules/data/open-questions.toml``.

>>> import qe_rules as qe
>>> question = qe.get_open_question("tie_streak")
>>> question.values
('any-players', 'same-players')
>>> question.register
('tie-streak-players',)
>>> choice = question.choices["en"]
>>> choice.value, choice.provenance.basis.value
('any-players', 'interpretation')

Try another reading with a spec string: ``qe.new_game("en:tie_streak=same-players", 4)``.
"""

from __future__ import annotations

import enum
import functools
import json
from collections.abc import Mapping
from typing import Any, Final

import attrs

from qe_rules._util.frozen import FrozenDict
from qe_rules.errors import InvalidArgument, shown
from qe_rules.rules.files import entry_table, read_entries
from qe_rules.rules.model import RULESETS, Provenance, RuleSet, decode_field, encode_field

__all__ = ["Choice", "OpenQuestion", "get_open_question", "open_questions"]


@attrs.frozen
class Choice:
    """What one rule set chose for an open question: the value (as plain data, as in a
    rule file) and its citation."""

    value: Any
    provenance: Provenance


@attrs.frozen
class OpenQuestion:
    """One open question of the texts as a switch.

    ``field`` is the rule field; ``values`` its readings as plain data (as a rule file or
    a spec string writes them); ``question`` the question in one sentence; ``register``
    the ids of the register entries it answers (see :mod:`qe_rules.texts.discrepancies`);
    ``choices`` what each built-in rule set chose, by id.
    """

    field: str
    question: str
    values: tuple[Any, ...]
    register: tuple[str, ...]
    choices: FrozenDict[str, Choice]

    def spec(self, base: str, value: Any) -> str:
        """The spec string of ``base`` read with ``value`` for this question.

        >>> get_open_question("tie_streak").spec("en", "same-players")
        'en:tie_streak=same-players'
        """
        plain = list(value) if isinstance(value, tuple) else value
        text = plain if isinstance(plain, str) else json.dumps(plain, separators=(",", ":"))
        return f"{base}:{self.field}={text}"

    def variants(self, ruleset: RuleSet) -> tuple[RuleSet, ...]:
        """``ruleset`` under each reading, in the order of :attr:`values` (the rule set
        itself for the value it has)."""
        return tuple(
            ruleset.evolve(**{self.field: python_value(self.field, v)}) for v in self.values
        )


def python_value(field: str, plain: Any) -> Any:
    """A reading's plain value in the form :meth:`RuleSet.evolve` takes."""
    return decode_field(field, list(plain)) if isinstance(plain, tuple) else plain


def _all_values(field: str) -> tuple[Any, ...]:
    value = getattr(RULESETS["en"], field)
    if isinstance(value, bool):
        return (True, False)
    if isinstance(value, enum.Enum):
        return tuple(member.value for member in type(value))
    raise InvalidArgument(
        f"qe_rules/data/open-questions.toml: {field} needs its readings listed under 'values'"
    )


_KEYS: Final = ("field", "register", "question", "values")


def _decode(value: Any, path: str) -> tuple[str, str, tuple[Any, ...], tuple[str, ...]]:
    table = entry_table(value, path, _KEYS)
    field = table.get("field")
    if field not in RuleSet.rule_fields():
        raise InvalidArgument(f"{path}.field: {shown(field)} is not a rule field")
    register = table.get("register")
    if not isinstance(register, list) or not register:
        raise InvalidArgument(f"{path}.register: needs a list of register ids")
    values = table["values"] if "values" in table else _all_values(field)
    return field, str(table.get("question")), tuple(values), tuple(register)


def _choices(field: str) -> FrozenDict[str, Choice]:
    return FrozenDict(
        (rid, Choice(_frozen_value(encode_field(field, getattr(rs, field))), rs.cite(field)))
        for rid, rs in RULESETS.items()
    )


def _frozen_value(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


@functools.cache
def open_questions() -> tuple[OpenQuestion, ...]:
    """Every open question of the texts, in the order of a game (bidding first)."""
    entries = read_entries("open-questions.toml", "questions", _decode)
    return tuple(
        OpenQuestion(
            field,
            question,
            tuple(_frozen_value(v) for v in values),
            register,
            _choices(field),
        )
        for field, question, values, register in entries
    )


def get_open_question(field: str) -> OpenQuestion:
    """The open question whose switch is rule field ``field``."""
    found: Mapping[str, OpenQuestion] = {q.field: q for q in open_questions()}
    if field not in found:
        raise InvalidArgument(
            f"{shown(field)} is not an open question; the switches are {', '.join(found)}"
        )
    return found[field]


# --------------------------------------------------------------------------- the page

MEASURED_FILE: Final = "open-questions-measured.toml"
"""The data file under ``qe_rules/data/`` with the measured shares of changed winners,
written by ``qe-rules docs --measure``."""


def measurement_base(question: OpenQuestion) -> str:
    """The built-in a reading is measured against: ``en``, or ``en-early`` where ``en``
    cannot meet the question (its citation is *silent*)."""
    silent = RULESETS["en"].cite(question.field).basis.value == "silent"
    return "en-early" if silent else "en"


def readings_to_measure() -> tuple[tuple[OpenQuestion, str, Any], ...]:
    """Every (question, base id, other reading) whose share of changed winners the page
    shows: each reading other than the base's own."""
    found: list[tuple[OpenQuestion, str, Any]] = []
    for question in open_questions():
        base = measurement_base(question)
        own = question.choices[base].value
        found.extend((question, base, value) for value in question.values if value != own)
    return tuple(found)


def measured_shares() -> dict[tuple[str, str, str, str], Any]:
    """The measured data, by (field, base, reading as spec text, agents): each a mapping
    with ``changed`` and ``games``."""
    from qe_rules.rules.files import read_data

    data = read_data(MEASURED_FILE)
    return {(e["field"], e["base"], e["reading"], e["agents"]): e for e in data.get("readings", [])}


def _reading_text(question: OpenQuestion, value: Any) -> str:
    return question.spec("x", value).split("=", 1)[1]
