"""Strict reading of untrusted data (JSON objects, rule files, game records) into the
library's types.

One family of readers, :class:`Readers`, parameterised by the error class it raises and
the phrasing of its messages. Each reader takes the value and ``where`` (the path to it,
as the message names it) and returns the value read, or raises:

* ``Readers(InvalidArgument)`` (:data:`ARGUMENTS`, the functions of this module, for the
  ``from_dict`` methods): "``view.history[2].amount`` must be a whole number >= 0, got -1";
* ``Readers(DataError, needs=True)`` (rule sets as data, ``qe_rules.rules.values``):
  "``rules.peeks``: needs true or false, got 'yes'";
* ``Readers(InvalidRecord)`` (game records, with the key quoted in ``where``):
  "``'players'`` must be a whole number, got '4'".

An error met inside a value (a tile code that does not parse) reads "``where``: the
error". A :class:`Fields` wraps one JSON object: it refuses unknown and missing keys, in
the phrasing of a :class:`KeyPhrasing`, and each getter checks one value.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple, TypeVar

from qe_rules.errors import InvalidArgument, RulesError, shown

T = TypeVar("T")


class Readers:
    """Strict readers that raise ``error`` in one phrasing.

    With ``needs=False`` a value of the wrong shape raises
    ``error("<where> must be <expected>, got <value>")``; with ``needs=True``,
    ``error(where, "needs <expected>, got <value>")``, for an error class that takes the
    path and the problem (as :class:`~qe_rules.rules.values.DataError` does, which reads
    "<where>: <problem>"). Either way an error found inside a value reads
    "<where>: <problem>".

    >>> Readers(InvalidArgument).whole(-1, "seat")
    Traceback (most recent call last):
    ...
    qe_rules.errors.InvalidArgument: seat must be a whole number >= 0, got -1
    """

    __slots__ = ("error", "needs")

    def __init__(self, error: Callable[..., RulesError], *, needs: bool = False) -> None:
        self.error = error
        self.needs = needs

    def fail(self, where: str, expected: str, value: Any) -> RulesError:
        """The error for a value of the wrong shape."""
        if self.needs:
            return self.error(where, f"needs {expected}, got {shown(value)}")
        return self.error(f"{where} must be {expected}, got {shown(value)}")

    def inner(self, where: str, problem: str) -> RulesError:
        """The error for a problem found inside the value at ``where``."""
        if self.needs:
            return self.error(where, problem)
        return self.error(f"{where}: {problem}")

    def integer(self, value: Any, where: str) -> int:
        """A whole number, of any sign (``bool`` is not a number here)."""
        if type(value) is not int:
            raise self.fail(where, "a whole number", value)
        return value

    def whole(self, value: Any, where: str) -> int:
        """A whole number >= 0 (``bool`` is not a number here)."""
        if type(value) is not int or value < 0:
            raise self.fail(where, "a whole number >= 0", value)
        return value

    def optional_whole(self, value: Any, where: str) -> int | None:
        """A whole number >= 0, or ``None``."""
        return None if value is None else self.whole(value, where)

    def flag(self, value: Any, where: str) -> bool:
        """``true`` or ``false``."""
        if type(value) is not bool:
            raise self.fail(where, "true or false", value)
        return value

    def text(self, value: Any, where: str) -> str:
        """A string."""
        if not isinstance(value, str):
            raise self.fail(where, "a string", value)
        return value

    def optional_text(self, value: Any, where: str) -> str | None:
        """A string, or ``None``."""
        return None if value is None else self.text(value, where)

    def sequence(self, value: Any, where: str) -> list[Any]:
        """A list (or tuple), its items unread."""
        if not isinstance(value, list | tuple):
            raise self.fail(where, "a list", value)
        return list(value)

    def listed(self, value: Any, where: str, item: Callable[[Any, str], T]) -> tuple[T, ...]:
        """A list, each item read by ``item(value, where)``."""
        if not isinstance(value, list | tuple):
            raise self.fail(where, "a list", value)
        return tuple(item(entry, f"{where}[{index}]") for index, entry in enumerate(value))

    def wholes(self, value: Any, where: str) -> tuple[int, ...]:
        """A list of whole numbers >= 0."""
        return self.listed(value, where, self.whole)

    def parsed(
        self, parse: Callable[[str], T], expected: str = "a string"
    ) -> Callable[[Any, str], T]:
        """A reader of a code (a tile, a nation, an industry) by ``parse``; a value that
        is not a string must be ``expected``."""

        def read(value: Any, where: str) -> T:
            if not isinstance(value, str):
                raise self.fail(where, expected, value)
            try:
                return parse(value)
            except RulesError as error:
                raise self.inner(where, str(error)) from None

        return read

    def pair(self, value: Any, where: str) -> tuple[int, int]:
        """A ``[seat, amount]`` pair."""
        if not isinstance(value, list | tuple) or len(value) != 2:
            raise self.fail(where, "a [seat, amount] pair", value)
        return self.whole(value[0], f"{where}[0]"), self.whole(value[1], f"{where}[1]")

    def bidding_rounds(self, value: Any, where: str) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Bidding rounds: a list of lists of ``[seat, amount]`` pairs."""
        return self.listed(value, where, lambda rnd, at: self.listed(rnd, at, self.pair))


class KeyPhrasing(NamedTuple):
    """How :class:`Fields` words unknown and missing keys: ``unknown(where, keys,
    allowed)`` and ``missing(where, keys)`` give the whole message."""

    unknown: Callable[[str, list[Any], list[str]], str]
    missing: Callable[[str, list[str]], str]


LISTED_KEYS = KeyPhrasing(
    lambda where, unknown, allowed: (
        f"{where} has unknown keys "
        f"{sorted(k if isinstance(k, str) else shown(k) for k in unknown)}; "
        f"its keys are {', '.join(allowed)}"
    ),
    lambda where, missing: f"{where} lacks {', '.join(missing)}",
)
"""``view has unknown keys ['x']; its keys are seat`` and ``view lacks seat``."""

FIRST_KEY = KeyPhrasing(
    lambda where, unknown, allowed: (
        f"unknown key {shown(unknown[0])} in {where}; allowed: {', '.join(allowed)}"
    ),
    lambda where, missing: f"{where} needs {', '.join(missing)}",
)
"""``unknown key 'x' in a player record; allowed: ...`` and ``a player record needs spent``."""


ARGUMENTS = Readers(InvalidArgument)
"""The readers of the ``from_dict`` methods: :class:`~qe_rules.InvalidArgument`,
"<where> must be <expected>, got <value>"."""

fail = ARGUMENTS.fail
whole = ARGUMENTS.whole
optional_whole = ARGUMENTS.optional_whole
flag = ARGUMENTS.flag
text = ARGUMENTS.text
optional_text = ARGUMENTS.optional_text
listed = ARGUMENTS.listed
wholes = ARGUMENTS.wholes
parsed = ARGUMENTS.parsed
pair = ARGUMENTS.pair
bidding_rounds = ARGUMENTS.bidding_rounds


class Fields:
    """One JSON object, read strictly: exactly the ``required`` keys, and any of the
    ``optional`` keys. Errors are raised by ``readers`` (whose error class takes the whole
    message), unknown and missing keys worded by ``keys``.

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
        *,
        readers: Readers = ARGUMENTS,
        keys: KeyPhrasing = LISTED_KEYS,
    ) -> None:
        if not isinstance(data, Mapping):
            raise readers.fail(where, "an object", data)
        needed = list(required)
        allowed = [*needed, *optional]
        unknown = [key for key in data if key not in allowed]
        if unknown:
            raise readers.error(keys.unknown(where, unknown, allowed))
        missing = [key for key in needed if key not in data]
        if missing:
            raise readers.error(keys.missing(where, missing))
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
