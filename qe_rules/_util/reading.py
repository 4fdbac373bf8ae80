"""Strict reading of JSON data into the library's types, for the ``from_dict`` methods.

A :class:`Fields` wraps one JSON object: it refuses unknown and missing keys, and each
getter checks one value's type. Every error is an :class:`~qe_rules.InvalidArgument`
whose message names the path to the value (``view.history[2].amount``), what it must be
and what it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from qe_rules.errors import InvalidArgument, RulesError, shown

T = TypeVar("T")


def fail(where: str, expected: str, value: Any) -> InvalidArgument:
    """The error for a value of the wrong shape."""
    return InvalidArgument(f"{where} must be {expected}, got {shown(value)}")


def whole(value: Any, where: str) -> int:
    """A whole number >= 0 (``bool`` is not a number here)."""
    if type(value) is not int or value < 0:
        raise fail(where, "a whole number >= 0", value)
    return value


def optional_whole(value: Any, where: str) -> int | None:
    """A whole number >= 0, or ``None``."""
    return None if value is None else whole(value, where)


def flag(value: Any, where: str) -> bool:
    """``true`` or ``false``."""
    if type(value) is not bool:
        raise fail(where, "true or false", value)
    return value


def text(value: Any, where: str) -> str:
    """A string."""
    if not isinstance(value, str):
        raise fail(where, "a string", value)
    return value


def optional_text(value: Any, where: str) -> str | None:
    """A string, or ``None``."""
    return None if value is None else text(value, where)


def listed(value: Any, where: str, item: Callable[[Any, str], T]) -> tuple[T, ...]:
    """A list, each item read by ``item(value, where)``."""
    if not isinstance(value, list | tuple):
        raise fail(where, "a list", value)
    return tuple(item(entry, f"{where}[{index}]") for index, entry in enumerate(value))


def wholes(value: Any, where: str) -> tuple[int, ...]:
    """A list of whole numbers >= 0."""
    return listed(value, where, whole)


def parsed(parse: Callable[[str], T]) -> Callable[[Any, str], T]:
    """A reader of a code (a tile, a nation, an industry) by ``parse``."""

    def read(value: Any, where: str) -> T:
        if not isinstance(value, str):
            raise fail(where, "a string", value)
        try:
            return parse(value)
        except RulesError as error:
            raise InvalidArgument(f"{where}: {error}") from None

    return read


def pair(value: Any, where: str) -> tuple[int, int]:
    """A ``[seat, amount]`` pair."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise fail(where, "a [seat, amount] pair", value)
    return whole(value[0], f"{where}[0]"), whole(value[1], f"{where}[1]")


def bidding_rounds(value: Any, where: str) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Bidding rounds: a list of lists of ``[seat, amount]`` pairs."""
    return listed(value, where, lambda rnd, at: listed(rnd, at, pair))


class Fields:
    """One JSON object, read strictly: exactly the ``required`` keys, and any of the
    ``optional`` keys.

    >>> Fields({"seat": 2}, "view", ["seat"]).get("seat", whole)
    2
    >>> Fields({"seat": 2, "x": 1}, "view", ["seat"])
    Traceback (most recent call last):
    ...
    qe_rules.errors.InvalidArgument: view has unknown keys ['x']; its keys are seat
    """

    __slots__ = ("data", "where")

    def __init__(
        self,
        data: Any,
        where: str,
        required: Iterable[str],
        optional: Iterable[str] = (),
    ) -> None:
        if not isinstance(data, Mapping):
            raise fail(where, "an object", data)
        needed, allowed = list(required), [*required, *optional]
        unknown = [key for key in data if key not in allowed]
        if unknown:
            raise InvalidArgument(
                f"{where} has unknown keys {sorted(k if isinstance(k, str) else shown(k) for k in unknown)}; "
                f"its keys are {', '.join(allowed)}"
            )
        missing = [key for key in needed if key not in data]
        if missing:
            raise InvalidArgument(f"{where} lacks {', '.join(missing)}")
        self.data = data
        self.where = where

    def get(self, key: str, read: Callable[[Any, str], T], default: T | None = None) -> T:
        """The value of ``key`` read by ``read``; ``default`` for an absent optional key."""
        if key not in self.data:
            return default  # type: ignore[return-value]  # only optional keys are absent
        return read(self.data[key], f"{self.where}.{key}")

    def optional(self, key: str, read: Callable[[Any, str], T]) -> T | None:
        """The value of ``key`` read by ``read``, or ``None`` when it is ``null``."""
        value = self.data[key]
        return None if value is None else read(value, f"{self.where}.{key}")
