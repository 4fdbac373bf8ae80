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

Every reader checks ranges as well as types: whole numbers are at most
:data:`MAX_INTEGER` (or a closer limit, :meth:`Readers.at_most`), strings at most
``MAX_TEXT_LENGTH`` characters of encodable text (no lone surrogates), numbers finite.
Fields that must agree with each other (a seat among the players, one entry per seat)
are checked by :meth:`Readers.agree` and :meth:`Readers.seats`, whose errors say which
fields disagree. With ``json_numbers=True`` (the readers of JSON documents) a number
with no fractional part, such as ``1.0``, is a whole number, as JSON Schema counts it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, NamedTuple, TypeVar

from qe_rules.errors import InvalidArgument, RulesError, shown
from qe_rules.limits import MAX_TEXT_LENGTH

T = TypeVar("T")

MAX_INTEGER: Final = 2**63 - 1
"""The largest whole number any reader accepts where no closer limit applies (seeds,
points, sums of statistics): far above any real figure, and small enough that every
operation on it stays cheap and it prints in full."""

MAX_PLAYERS: Final = 5
"""The most seats a game document may name (one nation per seat)."""


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

    __slots__ = ("error", "json_numbers", "needs")

    def __init__(
        self,
        error: Callable[..., RulesError],
        *,
        needs: bool = False,
        json_numbers: bool = False,
    ) -> None:
        self.error = error
        self.needs = needs
        self.json_numbers = json_numbers

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

    def _number(self, value: Any) -> Any:
        """``value`` as an int where it is one (an integral float of a JSON document
        counts, with ``json_numbers``); anything else unchanged."""
        if (
            self.json_numbers
            and type(value) is float
            and math.isfinite(value)
            and value.is_integer()
            and abs(value) <= MAX_INTEGER
        ):
            return int(value)
        return value

    def integer(self, value: Any, where: str) -> int:
        """A whole number, of any sign, at most :data:`MAX_INTEGER` either way (``bool``
        is not a number here)."""
        value = self._number(value)
        if type(value) is not int:
            raise self.fail(where, "a whole number", value)
        if not -MAX_INTEGER <= value <= MAX_INTEGER:
            raise self.fail(where, f"a whole number from -{MAX_INTEGER} to {MAX_INTEGER}", value)
        return value

    def whole(self, value: Any, where: str) -> int:
        """A whole number >= 0 and at most :data:`MAX_INTEGER` (``bool`` is not a number
        here)."""
        value = self._number(value)
        if type(value) is not int or value < 0:
            raise self.fail(where, "a whole number >= 0", value)
        if value > MAX_INTEGER:
            raise self.fail(where, f"a whole number at most {MAX_INTEGER}", value)
        return value

    def at_most(self, most: int, limit: str = "", *, least: int = 0) -> Callable[[Any, str], int]:
        """A reader of a whole number from ``least`` to ``most`` (``limit`` names where
        the bound comes from, as ``"qe_rules.limits.MAX_BID"``)."""
        source = f" ({limit})" if limit else ""

        def read(value: Any, where: str) -> int:
            value = self._number(value)
            if type(value) is not int or not least <= value <= most:
                raise self.fail(where, f"a whole number from {least} to {most}{source}", value)
            return value

        return read

    def number(self, value: Any, where: str) -> float:
        """A finite number (an int or a float; not NaN or infinite)."""
        if type(value) is int:
            if abs(value) > MAX_INTEGER:
                raise self.fail(where, f"a finite number at most {MAX_INTEGER} either way", value)
            return value
        if type(value) is not float or not math.isfinite(value):
            raise self.fail(where, "a finite number", value)
        return value

    def disagree(self, where: str, problem: str) -> RulesError:
        """The error for fields that disagree with each other, ``"<where>: <problem>"``;
        :func:`is_disagreement` tells it from an error of one field (a JSON Schema
        states each field's shape, not how fields relate)."""
        error = self.inner(where, problem)
        error.disagreement = True  # type: ignore[attr-defined]
        return error

    def agree(self, condition: bool, where: str, problem: str) -> None:
        """Raise :meth:`disagree` unless ``condition`` holds."""
        if not condition:
            raise self.disagree(where, problem)

    def seats(self, values: Iterable[int | None], players: int, where: str) -> None:
        """Check that every seat of ``values`` (``None`` skipped) is one of ``players``."""
        for seat in values:
            if seat is not None and not 0 <= seat < players:
                raise self.disagree(where, f"seat {seat} is not one of the {players} seats")

    def per_seat(self, values: Any, players: int, where: str) -> None:
        """Check that ``values`` has one entry per seat."""
        if len(values) != players:
            raise self.disagree(
                where, f"needs one entry per seat ({players} players), got {len(values)}"
            )

    def optional_whole(self, value: Any, where: str) -> int | None:
        """A whole number >= 0, or ``None``."""
        return None if value is None else self.whole(value, where)

    def flag(self, value: Any, where: str) -> bool:
        """``true`` or ``false``."""
        if type(value) is not bool:
            raise self.fail(where, "true or false", value)
        return value

    def text(self, value: Any, where: str) -> str:
        """A string of at most ``MAX_TEXT_LENGTH`` characters that can be written as
        UTF-8 (no lone surrogates)."""
        if not isinstance(value, str):
            raise self.fail(where, "a string", value)
        if len(value) > MAX_TEXT_LENGTH:
            raise self.inner(where, f"longer than MAX_TEXT_LENGTH ({MAX_TEXT_LENGTH} characters)")
        if not encodable(value):
            # a JSON text can carry one as an escape, but no schema can state it
            raise self.disagree(
                where, f"holds a lone surrogate, which no file can hold: {shown(value)}"
            )
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

    def one_of(self, table: Mapping[str, T], expected: str) -> Callable[[Any, str], T]:
        """A reader of a code written exactly as the library writes it: a key of
        ``table``, read as its value; anything else must be ``expected``."""

        def read(value: Any, where: str) -> T:
            if isinstance(value, str) and value in table:
                return table[value]
            raise self.fail(where, expected, value)

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


def is_disagreement(error: BaseException) -> bool:
    """Whether ``error`` was raised for fields that disagree with each other (or for
    text no file can hold), not for the shape of one field."""
    return getattr(error, "disagreement", False) is True


def encodable(value: str) -> bool:
    """Whether ``value`` can be written as UTF-8 (it holds no lone surrogate)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


ARGUMENTS = Readers(InvalidArgument, json_numbers=True)
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
at_most = ARGUMENTS.at_most
number = ARGUMENTS.number
agree = ARGUMENTS.agree
seats = ARGUMENTS.seats
per_seat = ARGUMENTS.per_seat
one_of = ARGUMENTS.one_of


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
        if not isinstance(where, str):
            raise InvalidArgument(f"where names the document in messages, got {shown(where)}")
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
