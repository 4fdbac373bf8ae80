"""The package's data files, and reading any rule file within the input limits.

Facts live in TOML files under ``qe_rules/data/``: the texts (``sources.toml``), one rule
set per text (``rulesets/<id>.toml``), shipped house rules (``house/<name>.toml``), the
discrepancy register and the glossary. :func:`shipped_rulesets` lists the rule-set files
by name::

    >>> from qe_rules.rules.files import SOURCES, shipped_rulesets
    >>> list(SOURCES)
    ['en', 'en-early', 'de', 'de-summary']
    >>> list(shipped_rulesets())
    ['en', 'en-early', 'de', 'de-summary', 'house-equal-bids']
"""

from __future__ import annotations

import functools
import os
import threading
import tomllib
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final, TypeVar

from qe_rules._util.frozen import FrozenDict
from qe_rules._util.paths import open_input
from qe_rules.errors import InvalidArgument, InvalidRuleSet, RulesError, shown
from qe_rules.limits import MAX_FILE_BYTES
from qe_rules.rules.values import Source, decode_text

__all__ = [
    "DATA",
    "SOURCES",
    "Builtins",
    "data_file",
    "entry_table",
    "house_rule_values",
    "parse_toml",
    "read_data",
    "read_entries",
    "read_text",
    "reading_citations",
    "shipped_rulesets",
]

T = TypeVar("T")

DATA: Final = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
"""The folder of the package's data files."""


def read_text(path: str | os.PathLike[str], error: type[RulesError] = InvalidRuleSet) -> str:
    """The UTF-8 text of a file of at most ``MAX_FILE_BYTES``, refused before it is read
    whole; problems raise ``error`` naming the file."""
    if isinstance(path, bytes) or not isinstance(path, str | os.PathLike):
        raise InvalidArgument(f"a file path must be a str or os.PathLike, got {shown(path)}")
    name = os.fspath(path)
    if not isinstance(name, str):
        raise InvalidArgument(f"a file path must be a str or os.PathLike, got {shown(path)}")
    try:
        with open_input(name) as handle:  # a regular file only: a FIFO would block
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as problem:
        raise error(f"cannot read {name}: {problem.strerror or problem}") from None
    except ValueError as problem:  # e.g. a NUL character in the path
        raise error(f"cannot read {shown(name)}: {problem}") from None
    if len(data) > MAX_FILE_BYTES:
        raise error(f"{name}: larger than MAX_FILE_BYTES ({MAX_FILE_BYTES} bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as problem:
        raise error(f"{name}: not UTF-8 text ({problem.reason})") from None


def parse_toml(text: str, origin: str, error: type[RulesError] = InvalidRuleSet) -> dict[str, Any]:
    """TOML ``text`` as data; a syntax error, a number too long to read or nesting too deep
    raise ``error`` naming ``origin``."""
    if not isinstance(text, str):
        raise InvalidArgument(f"TOML text must be a str, got {shown(text)}")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as problem:
        raise error(f"{origin}: not valid TOML: {problem}") from None
    except ValueError as problem:  # an integer beyond Python's digit limit
        raise error(f"{origin}: not valid TOML: {problem}") from None
    except RecursionError:
        raise error(f"{origin}: not valid TOML: nested too deeply") from None


def read_data(name: str, error: type[RulesError] = InvalidArgument) -> dict[str, Any]:
    """The parsed data file ``qe_rules/data/<name>``."""
    path = os.path.join(DATA, name)
    return parse_toml(read_text(path, error), f"qe_rules/data/{name}", error)


def read_entries(name: str, key: str, decode: Callable[[Any, str], T]) -> tuple[T, ...]:
    """The ``[[key]]`` tables of the data file ``name``, each read by ``decode(table,
    path)``; any problem raises :class:`~qe_rules.InvalidArgument` naming the file, the
    entry and the key."""
    origin = f"qe_rules/data/{name}"
    entries = read_data(name).get(key)
    if not isinstance(entries, list):
        raise InvalidArgument(f"{origin}: needs [[{key}]] tables")
    result = []
    for index, data in enumerate(entries):
        path = f"{key}[{index}]"
        try:
            result.append(decode(data, path))
        except RulesError as error:
            where = "" if str(error).startswith(path) else f"{path}: "
            raise InvalidArgument(f"{origin}: {where}{error}") from None
    return tuple(result)


def entry_table(value: Any, path: str, keys: tuple[str, ...]) -> dict[str, Any]:
    """``value`` if it is a table whose keys are among ``keys``, else InvalidArgument."""
    if not isinstance(value, dict):
        raise InvalidArgument(f"{path}: needs a table")
    unknown = [k for k in value if k not in keys]
    if unknown:
        raise InvalidArgument(f"{path}: unknown keys {unknown}; allowed: {', '.join(keys)}")
    return value


def _source(entry: Any, path: str) -> Source:
    keys = ("id", "title", "language", "kind")
    table = entry_table(entry, path, (*keys, "sections", "rules_words"))
    sections = table.get("sections", [])
    words = table.get("rules_words", 0)
    if not isinstance(sections, list) or type(words) is not int:
        raise InvalidArgument(f"{path}: sections needs a list and rules_words a whole number")
    source_id, title, language, kind = (
        decode_text(table.get(key), f"{path}.{key}") for key in keys
    )
    return Source(
        source_id,
        title,
        language,
        kind,
        sections=tuple(decode_text(name, f"{path}.sections") for name in sections),
        rules_words=words,
    )


def _sources() -> FrozenDict[str, Source]:
    return FrozenDict((s.id, s) for s in read_entries("sources.toml", "sources", _source))


SOURCES: Final[Mapping[str, Source]] = _sources()
"""The four QE texts, by id (from ``qe_rules/data/sources.toml``)."""


@functools.cache
def house_rule_values(*, of_questions: bool = True) -> FrozenDict[str, tuple[Any, ...]]:
    """The house-rule values of rule fields, as plain data by field: values no text
    supports, which ``qe_rules/data/open-questions.toml`` lists (a question's
    ``house_rules``, unless ``of_questions`` is false, and the ``[[house_rules]]`` tables
    of the fields whose rule every text states). A variant taking one is cited with the
    basis ``house-rule``.

    >>> house_rule_values()["peek_shows"]
    ('all-bids',)
    """
    data = read_data("open-questions.toml")
    found: dict[str, list[Any]] = {}
    for entry in data.get("questions", []) if of_questions else []:
        found.setdefault(str(entry["field"]), []).extend(entry.get("house_rules", []))
    for entry in data.get("house_rules", []):
        found.setdefault(str(entry["field"]), []).extend(entry.get("values", []))
    return FrozenDict((field, tuple(values)) for field, values in found.items() if values)


@functools.cache
def reading_citations() -> FrozenDict[str, tuple[tuple[Any, str, str, str], ...]]:
    """The cited readings of the open questions by field, each as ``(value, source,
    section, note)`` with the value as plain data (lists as tuples), as
    ``qe_rules/data/open-questions.toml`` lists them. A variant taking one is cited with
    the basis ``interpretation``.

    >>> [(value, source) for value, source, _, _ in reading_citations()["peek_shows"]]
    [('winning-amount', 'en'), ('highest-bid', 'de'), ('highest-bid-made', 'de-summary')]
    """
    data = read_data("open-questions.toml")
    found: dict[str, list[tuple[Any, str, str, str]]] = {}
    for entry in data.get("questions", []):
        for reading in entry.get("readings", []):
            value = reading["value"]
            found.setdefault(str(entry["field"]), []).append(
                (
                    tuple(value) if isinstance(value, list) else value,
                    str(reading["source"]),
                    str(reading["section"]),
                    str(reading["note"]),
                )
            )
    return FrozenDict((field, tuple(items)) for field, items in found.items())


def data_file(*parts: str) -> str:
    """The path of a file under ``qe_rules/data/``."""
    return os.path.join(DATA, *parts)


def shipped_rulesets() -> dict[str, str]:
    """Every rule-set file the package ships, by name: the built-in texts first (in the
    order of :data:`SOURCES`), then the house rules under ``data/house``."""
    found = {rid: data_file("rulesets", f"{rid}.toml") for rid in SOURCES}
    for name in sorted(os.listdir(data_file("house"))):
        if name.endswith(".toml"):
            found.setdefault(name.removesuffix(".toml"), data_file("house", name))
    return found


class Builtins(Mapping[str, T]):
    """The built-ins by source id (in the order of :data:`SOURCES`), each made by
    ``load(id)`` on first use and then kept: the registry behind ``qe.RULESETS``."""

    def __init__(self, load: Callable[[str], T]) -> None:
        self._load = load
        self._loaded: dict[str, T] = {}
        self._loading: set[str] = set()
        self._lock = threading.RLock()  # one thread loads; a built-in may load its base

    def __getitem__(self, key: str) -> T:
        if not isinstance(key, str) or key not in SOURCES:
            raise KeyError(key)
        found = self._loaded.get(key)
        if found is not None:
            return found
        with self._lock:
            if key not in self._loaded:
                if key in self._loading:
                    raise InvalidRuleSet(f"built-in {key!r} extends itself")
                self._loading.add(key)
                try:
                    self._loaded[key] = self._load(key)
                finally:
                    self._loading.discard(key)
            return self._loaded[key]

    def __iter__(self) -> Iterator[str]:
        return iter(SOURCES)

    def __len__(self) -> int:
        return len(SOURCES)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key in SOURCES

    def __repr__(self) -> str:
        return f"Builtins({', '.join(map(repr, self))})"
