"""A small TOML writer for rule-set data (reading uses the standard ``tomllib``).

It writes what rule sets need: strings, integers, booleans, lists of those, tables and
arrays of tables. Tables nested two levels deep become sections; deeper ones are written
inline.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

_BARE_KEY: Final = re.compile(r"[A-Za-z0-9_-]+")


def dumps(data: Mapping[str, Any], *, header: str = "") -> str:
    """``data`` as TOML text, with an optional comment ``header`` on top."""
    lines = [f"# {line}".rstrip() for line in header.splitlines()]
    if lines:
        lines.append("")
    _table(data, (), lines)
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines) + "\n"


def _table(data: Mapping[str, Any], path: tuple[str, ...], lines: list[str]) -> None:
    sections: list[tuple[str, Any]] = []
    for key, value in data.items():
        if _is_section(value, len(path)):
            sections.append((key, value))
        else:
            lines.append(f"{_key(key)} = {_value(value)}")
    for key, value in sections:
        inner = (*path, key)
        name = ".".join(_key(part) for part in inner)
        if isinstance(value, Mapping):
            if not value or not all(_is_section(v, len(inner)) for v in value.values()):
                if lines and lines[-1]:
                    lines.append("")
                lines.append(f"[{name}]")
            _table(value, inner, lines)
        else:
            for item in value:
                if lines and lines[-1]:
                    lines.append("")
                lines.append(f"[[{name}]]")
                _table(item, inner, lines)


def _is_section(value: Any, depth: int) -> bool:
    """Whether ``value`` is written as its own section at this depth."""
    return (isinstance(value, Mapping) and depth < 2) or _is_table_array(value)


def _is_table_array(value: Any) -> bool:
    return (
        isinstance(value, Sequence)
        and not isinstance(value, str)
        and bool(value)
        and all(isinstance(item, Mapping) for item in value)
    )


def _key(key: Any) -> str:
    text = str(key)
    return text if _BARE_KEY.fullmatch(text) else _string(text)


def _string(text: str) -> str:
    escaped = (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("\n", "\\n")
        .replace("\t", "\\t")
        .replace("\r", "\\r")
    )
    escaped = "".join(f"\\u{ord(c):04x}" if c < " " or c == "\x7f" else c for c in escaped)
    return f'"{escaped}"'


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, Mapping):
        inner = ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    if isinstance(value, Sequence):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")
