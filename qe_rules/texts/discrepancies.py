"""The discrepancy register: where the four QE texts differ, and what the library does.

Each :class:`Discrepancy` names a topic, a kind (a rule difference, a wording difference,
a slip, or an ambiguity), what every relevant text says (a paraphrase with its source id
and section, never a quotation), and how the built-in rule sets resolve it: the rule
fields that encode it and the interpretation codes that settle it::

    >>> from qe_rules.texts.discrepancies import DiscrepancyKind, find_discrepancies, get_discrepancy
    >>> entry = get_discrepancy("secret-bid-equal-to-opening")
    >>> entry.kind, entry.fields
    (<DiscrepancyKind.RULE: 'rule'>, ('secret_bid_may_equal_opening',))
    >>> entry.sources
    ('en', 'en-early', 'de', 'de-summary')
    >>> entry.readings[1].source, entry.readings[1].section
    ('en-early', 'Gameplay/2. Secret Bids')
    >>> [d.id for d in find_discrepancies(kind="slip", topic="elimination")]
    ['summary-elimination-in-a-round', 'early-highest-bid-vs-total', 'summary-leaves-the-game', 'summary-winner-without-elimination']

Sections are named as in the rule sets' citations (``RuleSet.cite``).
"""

from __future__ import annotations

import difflib
import enum
import functools
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

import attrs

from qe_rules._util.frozen import check_text, text_tuple
from qe_rules.errors import InvalidArgument, shown
from qe_rules.rules.files import SOURCES, entry_table, read_entries

__all__ = [
    "DISCREPANCIES",
    "TOPICS",
    "Discrepancy",
    "DiscrepancyKind",
    "Reading",
    "find_discrepancies",
    "get_discrepancy",
]


class DiscrepancyKind(enum.Enum):
    """What sort of difference a register entry records."""

    RULE = "rule"
    """The texts give different rules: play or score changes."""
    WORDING = "wording"
    """The same rule in different words (component names included)."""
    SLIP = "slip"
    """A text contradicts itself or the other texts by mistake."""
    AMBIGUITY = "ambiguity"
    """A text allows more than one reading, or leaves a case open."""


TOPICS: Final[tuple[str, ...]] = (
    "metadata",
    "setup",
    "components",
    "turn order",
    "bidding",
    "ties",
    "zero bids",
    "award and secrecy",
    "scoring tables",
    "scoring order",
    "elimination",
    "tie-breaks",
    "3-player",
    "5-player",
    "end of game",
    "vocabulary",
)
"""The topics of the register, roughly in the order of a game."""

_ID_PATTERN: Final = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def _reading_tuple(value: Iterable[Reading]) -> tuple[Reading, ...]:
    return tuple(value)


def _check_source(instance: Reading, attribute: attrs.Attribute[str], value: str) -> None:
    if value not in SOURCES:
        allowed = ", ".join(SOURCES)
        raise InvalidArgument(f"unknown source {value!r}; sources are {allowed}")


@attrs.frozen
class Reading:
    """What one text says on a discrepancy's topic: a paraphrase with its section.

    >>> print(Reading("de", "Sonderregeln/3-Spieler", "A tie gives the tile to nobody."))
    de §Sonderregeln/3-Spieler: A tie gives the tile to nobody.
    """

    source: str = attrs.field(validator=_check_source)
    """A source id of :data:`qe_rules.rules.model.SOURCES`."""
    section: str = attrs.field(validator=check_text)
    """The section of that text, named as in the rule sets' citations."""
    says: str = attrs.field(validator=check_text)
    """A paraphrase of the text, or ``"silent: ..."`` when it says nothing."""

    def __str__(self) -> str:
        return f"{self.source} §{self.section}: {self.says}"


def _check_id(instance: Discrepancy, attribute: attrs.Attribute[str], value: str) -> None:
    if not isinstance(value, str) or not _ID_PATTERN.fullmatch(value):
        raise InvalidArgument(f"a discrepancy id is kebab-case, got {value!r}")


def _check_topic(instance: Discrepancy, attribute: attrs.Attribute[str], value: str) -> None:
    if value not in TOPICS:
        raise InvalidArgument(f"unknown topic {value!r}; topics are {', '.join(TOPICS)}")


def _check_readings(
    instance: Discrepancy,
    attribute: attrs.Attribute[tuple[Reading, ...]],
    value: tuple[Reading, ...],
) -> None:
    if not value:
        raise InvalidArgument("a discrepancy needs at least one reading")
    if any(not isinstance(r, Reading) for r in value):
        raise InvalidArgument("readings must be Reading objects")


@attrs.frozen
class Discrepancy:
    """One difference between the QE texts, with what each says and how it is resolved."""

    id: str = attrs.field(validator=_check_id)
    """A stable kebab-case id, e.g. ``"secret-bid-equal-to-opening"``."""
    topic: str = attrs.field(validator=_check_topic)
    """One of :data:`TOPICS`."""
    kind: DiscrepancyKind = attrs.field(validator=attrs.validators.instance_of(DiscrepancyKind))
    """Rule, wording, slip or ambiguity."""
    summary: str = attrs.field(validator=check_text)
    """The difference in one line."""
    readings: tuple[Reading, ...] = attrs.field(converter=_reading_tuple, validator=_check_readings)
    """What each relevant text says."""
    resolution: str = attrs.field(validator=check_text)
    """How the built-in rule sets handle it."""
    fields: tuple[str, ...] = attrs.field(default=(), converter=text_tuple)
    """The ``RuleSet`` rule fields that encode it."""
    interpretations: tuple[str, ...] = attrs.field(default=(), converter=text_tuple)
    """The interpretation codes of the built-in rule sets that settle it."""

    @property
    def sources(self) -> tuple[str, ...]:
        """The source ids of the readings, each once, in reading order."""
        return tuple(dict.fromkeys(r.source for r in self.readings))

    def to_dict(self) -> dict[str, Any]:
        """The entry as JSON types."""
        return {
            "id": self.id,
            "topic": self.topic,
            "kind": self.kind.value,
            "summary": self.summary,
            "readings": [
                {"source": r.source, "section": r.section, "says": r.says} for r in self.readings
            ],
            "resolution": self.resolution,
            "fields": list(self.fields),
            "interpretations": list(self.interpretations),
        }


def _to_kind(kind: DiscrepancyKind | str) -> DiscrepancyKind:
    try:
        return DiscrepancyKind(kind.strip().lower() if isinstance(kind, str) else kind)
    except ValueError:
        allowed = ", ".join(repr(k.value) for k in DiscrepancyKind)
        raise InvalidArgument(f"unknown discrepancy kind {kind!r}; kinds are {allowed}") from None


def _entry(data: Any, path: str) -> Discrepancy:
    entry = entry_table(data, path, _ENTRY_KEYS)
    readings = entry.get("readings")
    if not isinstance(readings, list):
        raise InvalidArgument(f"{path}.readings: needs a list of [[discrepancies.readings]]")
    return Discrepancy(
        id=entry.get("id", ""),
        topic=entry.get("topic", ""),
        kind=_to_kind(entry.get("kind", "")),
        summary=entry.get("summary", ""),
        readings=(_reading(r, f"{path}.readings[{i}]") for i, r in enumerate(readings)),
        resolution=entry.get("resolution", ""),
        fields=_texts(entry.get("fields", []), f"{path}.fields"),
        interpretations=_texts(entry.get("interpretations", []), f"{path}.interpretations"),
    )


def _reading(data: Any, path: str) -> Reading:
    reading = entry_table(data, path, _READING_KEYS)
    return Reading(reading.get("source", ""), reading.get("section", ""), reading.get("says", ""))


_ENTRY_KEYS: Final = tuple(a.name for a in attrs.fields(Discrepancy))
_READING_KEYS: Final = tuple(a.name for a in attrs.fields(Reading))


def _texts(value: Any, path: str) -> tuple[str, ...]:
    if not isinstance(value, list) or any(not isinstance(v, str) for v in value):
        raise InvalidArgument(f"{path}: needs a list of strings")
    return tuple(value)


@functools.cache
def _register() -> tuple[Discrepancy, ...]:
    """The register, read from its data file on first use."""
    return read_entries("discrepancies.toml", "discrepancies", _entry)


@functools.cache
def _by_id() -> dict[str, Discrepancy]:
    by_id = {d.id: d for d in _register()}
    if len(by_id) != len(_register()):  # pragma: no cover - a data error, caught by tests
        raise InvalidArgument("qe_rules/data/discrepancies.toml: an id appears twice")
    return by_id


if TYPE_CHECKING:
    DISCREPANCIES: tuple[Discrepancy, ...]
    """The register, grouped by topic (read from ``qe_rules/data/discrepancies.toml``)."""


def __getattr__(name: str) -> Any:
    # DISCREPANCIES is read on first use, so that importing the library stays cheap.
    if name == "DISCREPANCIES":
        return _register()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def find_discrepancies(
    *,
    kind: DiscrepancyKind | str | None = None,
    source: str | None = None,
    topic: str | None = None,
) -> tuple[Discrepancy, ...]:
    """The register entries matching every filter given, in register order.

    ``kind`` is a :class:`DiscrepancyKind` or its value; ``source`` keeps entries with a
    reading from that text; ``topic`` is one of :data:`TOPICS`.

    >>> from qe_rules.texts.discrepancies import DISCREPANCIES
    >>> find_discrepancies() == DISCREPANCIES
    True
    >>> [d.id for d in find_discrepancies(topic="3-player")]
    ['three-player-leftover-token', 'three-player-nation-without-player', 'three-player-last-tile', 'last-tile-a-tie']
    >>> find_discrepancies(kind="typo")
    Traceback (most recent call last):
    ...
    qe_rules.errors.InvalidArgument: unknown discrepancy kind 'typo'; kinds are 'rule', 'wording', 'slip', 'ambiguity'
    """
    for name, value, choices in (
        ("kind", kind, [k.value for k in DiscrepancyKind]),
        ("source", source, SOURCES),
        ("topic", topic, TOPICS),
    ):
        if value is not None and not isinstance(value, str | DiscrepancyKind):
            names = ", ".join(repr(c) for c in choices)
            raise InvalidArgument(f"unknown {name} {shown(value)}; a {name} is one of {names}")
    wanted_kind = None if kind is None else _to_kind(kind)
    if source is not None and (not isinstance(source, str) or source not in SOURCES):
        allowed = ", ".join(repr(s) for s in SOURCES)
        raise InvalidArgument(f"unknown source {source!r}; sources are {allowed}")
    if topic is not None and (not isinstance(topic, str) or topic not in TOPICS):
        allowed = ", ".join(repr(t) for t in TOPICS)
        raise InvalidArgument(f"unknown topic {topic!r}; topics are {allowed}")
    return tuple(
        d
        for d in _register()
        if (wanted_kind is None or d.kind is wanted_kind)
        and (source is None or source in d.sources)
        and (topic is None or d.topic == topic)
    )


def get_discrepancy(id: str) -> Discrepancy:
    """The register entry with this id.

    >>> get_discrepancy("tie-fallback").fields
    ('tie_fallback',)
    >>> get_discrepancy("tie-fallbak")
    Traceback (most recent call last):
    ...
    qe_rules.errors.InvalidArgument: unknown discrepancy 'tie-fallbak' (did you mean 'tie-fallback'?); list the ids with [d.id for d in DISCREPANCIES]
    """
    if not isinstance(id, str):
        raise InvalidArgument(f"a discrepancy id is a string, got {shown(id)}")
    found = _by_id().get(id)
    if found is not None:
        return found
    close = difflib.get_close_matches(id, _by_id(), n=1) if isinstance(id, str) else []
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise InvalidArgument(
        f"unknown discrepancy {id!r}{hint}; list the ids with [d.id for d in DISCREPANCIES]"
    )
