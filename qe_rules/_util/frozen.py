"""Immutable data for the library's declarations: a hashable mapping, and the converter
and validator of their text fields."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, TypeVar, overload

import attrs

from qe_rules.errors import InvalidArgument

K = TypeVar("K")
V = TypeVar("V")


class FrozenDict(Mapping[K, V]):
    """A read-only dict that compares and hashes by value.

    >>> FrozenDict({3: 6, 5: 7})[5]
    7
    """

    __slots__ = ("_data", "_hash")

    _data: dict[K, V]
    _hash: int | None

    @overload
    def __init__(self) -> None: ...
    @overload
    def __init__(self, items: Mapping[K, V]) -> None: ...
    @overload
    def __init__(self, items: Iterable[tuple[K, V]]) -> None: ...
    def __init__(self, items: Any = ()) -> None:
        object.__setattr__(self, "_data", dict(items))
        object.__setattr__(self, "_hash", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __getitem__(self, key: K) -> V:
        return self._data[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenDict):
            return self._data == other._data
        if isinstance(other, Mapping):
            return self._data == dict(other)
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            object.__setattr__(self, "_hash", hash(frozenset(self._data.items())))
        assert self._hash is not None
        return self._hash

    def __repr__(self) -> str:
        return f"FrozenDict({self._data!r})"

    def __reduce__(self) -> tuple[type[FrozenDict[K, V]], tuple[dict[K, V]]]:
        return (type(self), (self._data,))


def text_tuple(value: Iterable[str]) -> tuple[str, ...]:
    """An attrs converter: any iterable of strings as a tuple."""
    return tuple(value)


def check_text(instance: object, attribute: attrs.Attribute[str], value: str) -> None:
    """An attrs validator: ``value`` is a string with more than white space."""
    if not isinstance(value, str) or not value.strip():
        raise InvalidArgument(f"{attribute.name} needs a non-empty string, got {value!r}")
