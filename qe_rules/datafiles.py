"""The package's data files, and reading any rule file within the input limits.

Facts live in TOML files under ``qe_rules/data/``: the texts (``sources.toml``), one rule
set per text (``rulesets/<id>.toml``), shipped house rules (``house/<name>.toml``), the
discrepancy register and the glossary. :func:`shipped_rulesets` lists the rule-set files
by name::

    >>> from qe_rules.datafiles import SOURCES, shipped_rulesets
    >>> list(SOURCES)
    ['en', 'en-early', 'de', 'de-summary']
    >>> list(shipped_rulesets())
    ['en', 'en-early', 'de', 'de-summary', 'house-equal-bids']
"""

from __future__ import annotations

import os
import pathlib
import tomllib
from collections.abc import Mapping
from typing import Any, Final

from qe_rules._frozen import FrozenDict
from qe_rules.errors import InvalidArgument, InvalidRuleSet, RulesError, shown
from qe_rules.limits import MAX_FILE_BYTES
from qe_rules.rulevalues import DataError, Source, decode_text

__all__ = ["DATA", "SOURCES", "parse_toml", "read_data", "read_text", "shipped_rulesets"]

DATA: Final = pathlib.Path(__file__).resolve().parent / "data"
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
        with open(name, "rb") as handle:
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
    path = DATA / name
    return parse_toml(read_text(path, error), f"qe_rules/data/{name}", error)


def _sources() -> FrozenDict[str, Source]:
    entries = read_data("sources.toml").get("sources", [])
    result = {}
    for index, entry in enumerate(entries):
        where = f"qe_rules/data/sources.toml: sources[{index}]"
        try:
            source = Source(
                *(decode_text(entry.get(key), key) for key in ("id", "title", "language", "kind"))
            )
        except DataError as problem:
            raise InvalidArgument(f"{where}.{problem}") from None
        result[source.id] = source
    return FrozenDict(result)


SOURCES: Final[Mapping[str, Source]] = _sources()
"""The four QE texts, by id (from ``qe_rules/data/sources.toml``)."""


def shipped_rulesets() -> dict[str, pathlib.Path]:
    """Every rule-set file the package ships, by name: the built-in texts first (in the
    order of :data:`SOURCES`), then the house rules under ``data/house``."""
    found = {rid: DATA / "rulesets" / f"{rid}.toml" for rid in SOURCES}
    for path in sorted((DATA / "house").glob("*.toml")):
        found.setdefault(path.stem, path)
    return found
