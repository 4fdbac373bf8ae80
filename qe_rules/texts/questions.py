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
import re
from collections.abc import Mapping
from typing import Any, Final

import attrs

from qe_rules._util.frozen import FrozenDict
from qe_rules.errors import InvalidArgument, InvalidRuleSet, shown
from qe_rules.rules.files import SOURCES, entry_table, house_rule_values, read_entries
from qe_rules.rules.model import RULESETS, Provenance, RuleSet, decode_field, encode_field

__all__ = [
    "MAX_QUOTE_WORDS",
    "Choice",
    "CitedReading",
    "OpenQuestion",
    "get_open_question",
    "open_questions",
    "uncited_values",
]


@attrs.frozen
class Choice:
    """What one rule set chose for an open question: the value (as plain data, as in a
    rule file) and its citation."""

    value: Any
    provenance: Provenance


@attrs.frozen
class CitedReading:
    """One reading of an open question: the value (as plain data) and the text that
    supports it, by source id and section, with a paraphrase of what it says and
    ``quote``, the few words of that section (at most :data:`MAX_QUOTE_WORDS`) that
    support the reading."""

    value: Any
    source: str
    section: str
    note: str
    quote: str = ""


MAX_QUOTE_WORDS: Final = 7
"""The most words a reading's ``quote`` may have: a phrase of the text, never a sentence
(the project copies no run of eight words of a text)."""


@attrs.frozen
class OpenQuestion:
    """One open question of the texts as a switch.

    ``field`` is the rule field; ``values`` every value the switch plays, as plain data
    (as a rule file or a spec string writes them): its ``readings`` (each cited to a
    text), then its ``house_rules`` (values no text suggests); ``question`` the question
    in one sentence; ``register`` the ids of the register entries it answers (see
    :mod:`qe_rules.texts.discrepancies`); ``choices`` what each built-in rule set chose,
    by id.
    """

    field: str
    question: str
    values: tuple[Any, ...]
    register: tuple[str, ...]
    choices: FrozenDict[str, Choice]
    readings: tuple[CitedReading, ...] = ()
    house_rules: tuple[Any, ...] = ()
    measure: tuple[tuple[str, int], ...] = ()
    """Where the page measures the readings, as (base id, players); empty: the default
    (see :func:`measurement_places`)."""

    def is_house_rule(self, value: Any) -> bool:
        """Whether ``value`` (plain data) is a house rule rather than a reading."""
        return _frozen_value(value) in self.house_rules

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


_KEYS: Final = ("field", "register", "question", "readings", "house_rules", "measure")
_READING_KEYS: Final = ("value", "source", "section", "note", "quote")
_WORD: Final = re.compile(r"\w+")

_Entry = tuple[
    str,
    str,
    tuple["CitedReading", ...],
    tuple[Any, ...],
    tuple[str, ...],
    tuple[tuple[str, int], ...],
]


def _reading(value: Any, path: str, field: str) -> CitedReading:
    table = entry_table(value, path, _READING_KEYS)
    for key in _READING_KEYS:
        if key not in table:
            raise InvalidArgument(f"{path}: missing {key!r}")
    source = SOURCES.get(table["source"])
    if source is None:
        raise InvalidArgument(f"{path}.source: {shown(table['source'])} is not a text id")
    if not source.has_section(str(table["section"])):
        raise InvalidArgument(
            f"{path}.section: {shown(table['section'])} is not a section of {source.id} "
            "(qe_rules/data/sources.toml lists them)"
        )
    quote = str(table["quote"])
    if not 0 < len(_WORD.findall(quote)) <= MAX_QUOTE_WORDS:
        raise InvalidArgument(
            f"{path}.quote: needs 1 to {MAX_QUOTE_WORDS} words of the text, got {shown(quote)}"
        )
    _check_value(field, table["value"], f"{path}.value")
    return CitedReading(
        _frozen_value(table["value"]),
        source.id,
        str(table["section"]),
        str(table["note"]),
        quote,
    )


def _check_value(field: str, value: Any, path: str) -> None:
    try:
        decode_field(field, value, path)
    except InvalidRuleSet as error:  # a DataError naming the path
        raise InvalidArgument(str(error)) from None


def _decode(value: Any, path: str) -> _Entry:
    table = entry_table(value, path, _KEYS)
    field = table.get("field")
    if field not in RuleSet.rule_fields():
        raise InvalidArgument(f"{path}.field: {shown(field)} is not a rule field")
    register = table.get("register")
    if not isinstance(register, list) or not register:
        raise InvalidArgument(f"{path}.register: needs a list of register ids")
    readings = table.get("readings")
    if not isinstance(readings, list) or len(readings) < 2:
        raise InvalidArgument(f"{path}.readings: needs at least two [[questions.readings]]")
    found = tuple(_reading(r, f"{path}.readings[{i}]", field) for i, r in enumerate(readings))
    house = table.get("house_rules", [])
    for index, value in enumerate(house):
        _check_value(field, value, f"{path}.house_rules[{index}]")
    measure = []
    for index, place in enumerate(table.get("measure", [])):
        where = f"{path}.measure[{index}]"
        place = entry_table(place, where, ("base", "players"))
        base, players = place.get("base"), place.get("players")
        if not isinstance(base, str) or base not in RULESETS:
            raise InvalidArgument(f"{where}.base: needs a built-in rule set id")
        if players not in RULESETS[base].player_counts:
            raise InvalidArgument(f"{where}: needs a built-in base and one of its player counts")
        measure.append((str(base), int(players)))
    return field, str(table.get("question")), found, tuple(house), tuple(register), tuple(measure)


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
    questions = []
    for field, question, readings, house, register, measure in entries:
        values: list[Any] = []
        for value in [*(r.value for r in readings), *map(_frozen_value, house)]:
            if value not in values:
                values.append(value)
        questions.append(
            OpenQuestion(
                field,
                question,
                tuple(values),
                register,
                _choices(field),
                readings,
                tuple(_frozen_value(v) for v in house),
                measure,
            )
        )
    return tuple(questions)


def uncited_values(
    questions: tuple[OpenQuestion, ...] | None = None,
) -> tuple[tuple[str, Any], ...]:
    """Every (field, value) of a switch that is neither a reading a text supports nor a
    house rule: a value of a question without a citation, or a value of the switch's
    kind (true/false, a choice) that the data file does not list at all. Empty for the
    shipped data; ``questions`` defaults to :func:`open_questions`."""
    found: list[tuple[str, Any]] = []
    house = house_rule_values(of_questions=False)
    for question in open_questions() if questions is None else questions:
        cited = {reading.value for reading in question.readings}
        listed = cited | set(question.house_rules) | set(house.get(question.field, ()))
        uncited = [v for v in question.values if v not in listed]
        kind = type(getattr(RULESETS["en"], question.field))
        if kind is bool:
            every: tuple[Any, ...] = (True, False)
        elif issubclass(kind, enum.Enum):
            every = tuple(member.value for member in kind)
        else:
            every = ()  # numbers and lists: only the listed values are readings
        uncited += [v for v in every if v not in listed and v not in uncited]
        found.extend((question.field, value) for value in uncited)
    return tuple(found)


def get_open_question(field: str) -> OpenQuestion:
    """The open question whose switch is rule field ``field``."""
    found: Mapping[str, OpenQuestion] = {q.field: q for q in open_questions()}
    if not isinstance(field, str) or field not in found:
        raise InvalidArgument(
            f"{shown(field)} is not an open question; the switches are {', '.join(found)}"
        )
    return found[field]


# --------------------------------------------------------------------------- the page

MEASURED_FILE: Final = "open-questions-measured.toml"
"""The data file under ``qe_rules/data/`` with the measured shares of changed winners,
written by ``qe-rules docs --measure``."""


DEFAULT_MEASURE_PLAYERS: Final = 4
"""The player count a reading is measured at unless its question names others."""


def measurement_base(question: OpenQuestion) -> str:
    """The built-in a reading is measured against by default: ``en``, or ``en-early``
    where ``en`` cannot meet the question (its citation is *silent*)."""
    silent = RULESETS["en"].cite(question.field).basis.value == "silent"
    return "en-early" if silent else "en"


def measurement_places(question: OpenQuestion) -> tuple[tuple[str, int], ...]:
    """Where the readings of ``question`` are measured, as (base id, players): the
    question's ``measure`` list in the data file, where the readings can differ (the
    peek at 5 players, the last tile at 3, ...), else :func:`measurement_base` at
    :data:`DEFAULT_MEASURE_PLAYERS` players."""
    return question.measure or ((measurement_base(question), DEFAULT_MEASURE_PLAYERS),)


def readings_to_measure() -> tuple[tuple[OpenQuestion, str, Any, int], ...]:
    """Every (question, base id, other reading, players) whose share of changed winners
    the page shows: each reading other than the base's own, at each place of
    :func:`measurement_places`."""
    found: list[tuple[OpenQuestion, str, Any, int]] = []
    for question in open_questions():
        for base, players in measurement_places(question):
            own = question.choices[base].value
            found.extend(
                (question, base, value, players) for value in question.values if value != own
            )
    return tuple(found)


def measured_shares() -> dict[tuple[str, str, str, str, int], Any]:
    """The measured data, by (field, base, reading as spec text, agents, players): each a
    mapping with ``changed`` and ``games`` (an entry without ``players`` was measured at
    the file's ``players``)."""
    from qe_rules.rules.files import read_data

    data = read_data(MEASURED_FILE)
    default = data.get("players", DEFAULT_MEASURE_PLAYERS)
    return {
        (e["field"], e["base"], e["reading"], e["agents"], e.get("players", default)): e
        for e in data.get("readings", [])
    }


def _reading_text(question: OpenQuestion, value: Any) -> str:
    return question.spec("x", value).split("=", 1)[1]
