"""Game records: the setup of a game plus its moves, as JSON types.

A record is what ``Game.to_record()`` returns and ``qe.replay()`` reads::

    {
      "format": "qe-rules/game", "version": 2,
      "ruleset": "en",                  # a built-in id, or a whole rule set as data
      "players": 5,
      "deck": ["JP-FIN-1", ...],        # in the order the tiles are sold
      "nations": ["US", "EU", "CN", "JP", "UK"],
      "industries": ["AGRICULTURE", ...],
      "first_auctioneer": 0,
      "moves": [{"move": "bid", "seat": 0, "amount": 5}, {"move": "peek", "seat": 2},
                {"move": "decline-peek", "seat": 3}, ...],
      "metadata": {"names": ["Ada", ...], "date": "2026-11-23", "event": "club night"}
    }

``metadata`` is optional and free: any JSON object, kept with the record and not used by
the game. Its conventional keys ``names`` (one per seat), ``date`` and ``event`` must be
strings where given. Version 1 records (before the peek window was a turn, without
``decline-peek``) are still read: see ``replay``.

:func:`dump_records` writes many records as JSON Lines (one record a line) and
:func:`load_records` reads them back. :func:`json_schema` gives the JSON Schema of each
document the library writes.

This module checks a record's shape; the engine replays its moves and checks each one.
Every problem raises :class:`~qe_rules.InvalidRecord`.
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Iterable, Iterator, Mapping
from importlib import resources
from typing import IO, Any, Final, Protocol, TypeVar

import attrs

from qe_rules._util.frozen import FrozenDict
from qe_rules._util.reading import (
    ARGUMENTS,
    MAX_INTEGER,
    Fields,
    Readers,
    encodable,
    is_disagreement,
)
from qe_rules.components import COMPANIES, Company, Industry, Nation
from qe_rules.errors import InvalidArgument, InvalidRecord, RulesError, shown
from qe_rules.limits import MAX_BID, MAX_FILE_BYTES, MAX_MOVES, MAX_NESTING, MAX_TEXT_LENGTH
from qe_rules.rules.model import RULESETS, RuleSet, get_ruleset

__all__ = [
    "READABLE_VERSIONS",
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "SCHEMAS",
    "GameRecord",
    "Move",
    "dump_records",
    "json_schema",
    "load_records",
]

T = TypeVar("T")

RECORD_FORMAT: Final = "qe-rules/game"
RECORD_VERSION: Final = 2
"""The version this library writes: 2 added the ``decline-peek`` move (the peek window
is a turn)."""
READABLE_VERSIONS: Final = (1, 2)
"""The record versions this library reads."""

MOVE_KINDS: Final = ("bid", "peek", "decline-peek")


def _check_move(move: Move, attribute: attrs.Attribute[Any], value: Any) -> None:
    """A move's kind is known, its seat an int, and only a bid has an amount (an int)."""
    if not isinstance(move.kind, str) or move.kind not in _MOVE_KEYS:
        kinds = " or ".join(repr(kind) for kind in _MOVE_KEYS)
        raise InvalidArgument(f"a move's kind is {kinds}, got {shown(move.kind)}")
    if type(move.seat) is not int or abs(move.seat) > MAX_INTEGER:
        raise InvalidArgument(
            f"a move's seat is a whole number (int) from -{MAX_INTEGER} to {MAX_INTEGER}, "
            f"got {shown(move.seat)}"
        )
    if move.kind != "bid":
        if move.amount is not None:
            raise InvalidArgument(f"a {move.kind} move has no amount, got {shown(move.amount)}")
    elif type(move.amount) is not int or not -MAX_BID <= move.amount <= MAX_BID:
        raise InvalidArgument(
            f"a bid's amount is a whole number (int) from -{MAX_BID} to {MAX_BID} "
            f"(qe_rules.limits.MAX_BID), got {shown(move.amount)}"
        )


def _check_sale(move: Move, attribute: attrs.Attribute[Any], value: Any) -> None:
    """Only a peek names a sale (under ``peek_timing=any-earlier-sale``), by its number."""
    if value is None:
        return
    if move.kind != "peek":
        raise InvalidArgument(f"a {move.kind} move names no sale, got {shown(value)}")
    if type(value) is not int or not 0 <= value <= MAX_MOVES:
        raise InvalidArgument(f"a peek's sale is a sale number (an int >= 0), got {shown(value)}")


@attrs.frozen
class Move:
    """One move: ``Move("bid", seat, amount)``, ``Move("peek", seat)`` or
    ``Move("decline-peek", seat)``. Under ``peek_timing=any-earlier-sale`` a peek names
    the sale it looks at: ``Move("peek", seat, sale=3)`` (the record's optional key
    ``sale``).

    A malformed move raises :class:`~qe_rules.InvalidArgument` when it is made:

    >>> Move("bid", 0)
    Traceback (most recent call last):
    ...
    qe_rules.errors.InvalidArgument: a bid's amount is a whole number (int) from -1000000 to 1000000 (qe_rules.limits.MAX_BID), got None
    """

    kind: str
    seat: int
    amount: int | None = attrs.field(default=None, validator=_check_move)
    sale: int | None = attrs.field(default=None, kw_only=True, validator=_check_sale)

    def to_dict(self) -> dict[str, Any]:
        """The move as JSON types."""
        if self.kind == "bid":
            return {"move": "bid", "seat": self.seat, "amount": self.amount}
        if self.sale is not None:
            return {"move": self.kind, "seat": self.seat, "sale": self.sale}
        return {"move": self.kind, "seat": self.seat}

    def __str__(self) -> str:
        if self.kind == "bid":
            return f"seat {shown(self.seat)} bids {self.amount}"
        if self.kind == "decline-peek":
            return f"seat {shown(self.seat)} declines to peek"
        if self.sale is not None:
            return f"seat {shown(self.seat)} peeks at sale {self.sale}"
        return f"seat {shown(self.seat)} {self.kind}s"


def _frozen_metadata(value: Any) -> FrozenDict[str, Any]:
    """An attrs converter: metadata checked and frozen (lists as tuples, objects as
    :class:`~qe_rules.FrozenDict`)."""
    if isinstance(value, FrozenDict):
        return value
    if not isinstance(value, Mapping):
        raise InvalidArgument(f"metadata must be an object (a dict), got {shown(value)}")
    frozen: FrozenDict[str, Any] = _freeze(value, "metadata", 0)
    for key in ("date", "event"):
        if key in frozen and not isinstance(frozen[key], str):
            raise InvalidArgument(f"metadata.{key} must be a string, got {shown(frozen[key])}")
    names = frozen.get("names")
    if names is not None and (
        not isinstance(names, tuple) or not all(isinstance(n, str) for n in names)
    ):
        raise InvalidArgument(f"metadata.names must be a list of strings, got {shown(names)}")
    return frozen


def _freeze(value: Any, where: str, depth: int) -> Any:
    """``value`` as immutable JSON data, checked against the input limits."""
    if depth > MAX_NESTING:  # free metadata: no schema states its depth or lengths
        raise ARGUMENTS.disagree(where, f"is nested deeper than MAX_NESTING ({MAX_NESTING})")
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if abs(value) > MAX_INTEGER:
            raise ARGUMENTS.disagree(where, f"is beyond {MAX_INTEGER} either way")
        return value
    if isinstance(value, float):
        if not math.isfinite(value):  # JSON has no such number; json.loads reads one
            raise ARGUMENTS.disagree(where, f"a finite number is needed, got {value}")
        return value
    if isinstance(value, str):
        if len(value) > MAX_TEXT_LENGTH:
            raise ARGUMENTS.disagree(
                where, f"is longer than MAX_TEXT_LENGTH ({MAX_TEXT_LENGTH} characters)"
            )
        if not encodable(value):
            raise ARGUMENTS.disagree(where, "holds a lone surrogate, which no file can hold")
        return value
    if isinstance(value, list | tuple):
        return tuple(_freeze(item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value))
    if isinstance(value, Mapping):
        items = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise InvalidArgument(f"{where}: keys must be strings, got {shown(key)}")
            ARGUMENTS.text(key, f"{where} key")
            items[key] = _freeze(item, f"{where}.{key}", depth + 1)
        return FrozenDict(items)
    raise InvalidArgument(f"{where} must hold JSON data only, got {shown(value)}")


def _thaw(value: Any) -> Any:
    """Frozen metadata as JSON types."""
    if isinstance(value, tuple):
        return [_thaw(item) for item in value]
    if isinstance(value, FrozenDict):
        return {key: _thaw(item) for key, item in value.items()}
    return value


@attrs.frozen(kw_only=True)
class GameRecord:
    """A game's setup and moves; ``to_dict``/``from_dict`` convert to and from JSON types.

    ``metadata`` is free JSON data about the game (players' ``names``, a ``date``, an
    ``event``), frozen; ``version`` is the record version it was read from (version 1
    records are replayed by the rules of version 1: see :func:`~qe_rules.replay`).
    """

    ruleset: RuleSet
    players: int
    deck: tuple[Company, ...]
    nations: tuple[Nation, ...]
    industries: tuple[Industry, ...]
    first_auctioneer: int
    moves: tuple[Move, ...]
    metadata: FrozenDict[str, Any] = attrs.field(factory=FrozenDict, converter=_frozen_metadata)
    version: int = RECORD_VERSION

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON types; a built-in rule set is written as its id, and
        ``metadata`` only when there is some."""
        builtin = RULESETS.get(self.ruleset.id)
        data = {
            "format": RECORD_FORMAT,
            "version": self.version,
            "ruleset": self.ruleset.id if builtin == self.ruleset else self.ruleset.to_dict(),
            "players": self.players,
            "deck": [str(c) for c in self.deck],
            "nations": [n.code for n in self.nations],
            "industries": [i.name for i in self.industries],
            "first_auctioneer": self.first_auctioneer,
            "moves": [m.to_dict() for m in self.moves],
        }
        if self.metadata:
            data["metadata"] = _thaw(self.metadata)
        return data

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Read a record's shape; raises :class:`~qe_rules.InvalidRecord` naming the key."""
        Fields(data, "the game record", _KEYS, ("metadata",), readers=_RECORD)
        if data["format"] != RECORD_FORMAT:
            raise InvalidRecord(f"'format' must be {RECORD_FORMAT!r}, got {shown(data['format'])}")
        version = _RECORD._number(data["version"])
        if type(version) is not int or version not in READABLE_VERSIONS:
            raise InvalidRecord(
                "this library reads record versions "
                f"{', '.join(map(str, READABLE_VERSIONS))}, got {shown(version)}"
            )
        try:
            metadata = _frozen_metadata(data.get("metadata", FrozenDict()))
        except RulesError as error:
            raise _as_record_error(error) from None
        record = cls(
            ruleset=_ruleset(data["ruleset"]),
            players=_int(data["players"], "players"),
            deck=_codes(data["deck"], "deck", _TILES),
            nations=_codes(data["nations"], "nations", _NATIONS),
            industries=_codes(data["industries"], "industries", _INDUSTRIES),
            first_auctioneer=_int(data["first_auctioneer"], "first_auctioneer"),
            moves=_moves(data["moves"], version),
            metadata=metadata,
            version=version,
        )
        _check_record(record)
        return record


def _as_record_error(error: RulesError) -> InvalidRecord:
    """``error`` as an :class:`~qe_rules.InvalidRecord` (keeping whether it is about
    fields that disagree)."""
    record_error = InvalidRecord(str(error))
    if is_disagreement(error):
        record_error.disagreement = True  # type: ignore[attr-defined]
    return record_error


def _check_record(record: GameRecord) -> None:
    """Check that a record's setup agrees with itself and its rule set: a player count
    of the rule set, a nation and a token per seat, seats that exist. (Whether the moves
    are legal is for ``replay``.)"""
    players, rules = record.players, record.ruleset
    _RECORD.agree(
        players in rules.player_counts,
        "'players'",
        f"{rules.id} is played by {', '.join(map(str, rules.player_counts))} players, "
        f"got {players}",
    )
    _RECORD.per_seat(record.nations, players, "'nations'")
    _RECORD.per_seat(record.industries, players, "'industries'")
    _RECORD.seats([record.first_auctioneer], players, "'first_auctioneer'")
    for index, move in enumerate(record.moves):
        _RECORD.seats([move.seat], players, f"move {index}")
    names = record.metadata.get("names")
    if names is not None:
        _RECORD.per_seat(names, players, "'metadata'.names")


_KEYS: Final = (
    "format",
    "version",
    "ruleset",
    "players",
    "deck",
    "nations",
    "industries",
    "first_auctioneer",
    "moves",
)


_MOVE_KEYS: Final = {
    "bid": frozenset({"move", "seat", "amount"}),
    "peek": frozenset({"move", "seat"}),
    "decline-peek": frozenset({"move", "seat"}),
}


_NAMED_PEEK_KEYS: Final = frozenset({"move", "seat", "sale"})
"""A peek that names its sale (``peek_timing=any-earlier-sale``): ``sale`` is optional."""


_RECORD: Final = Readers(InvalidRecord, json_numbers=True)  # its callers quote the key
_TILES: Final = {str(c): c for c in COMPANIES}
_NATIONS: Final = {n.code: n for n in Nation}
_INDUSTRIES: Final = {i.name: i for i in Industry}


def _int(value: Any, key: str) -> int:
    return _RECORD.integer(value, f"'{key}'")


def _ruleset(value: Any) -> RuleSet:
    try:
        if isinstance(value, str):
            return get_ruleset(value)
        if isinstance(value, Mapping):
            if not all(isinstance(key, str) for key in value):
                raise InvalidRecord(f"the keys of a rule set are strings, got {shown(value)}")
            return RuleSet.from_dict(value)
    except RulesError as error:
        raise _RECORD.disagree("'ruleset'", str(error)) from None
    raise InvalidRecord(f"'ruleset' must be a rule set id or a rule set, got {shown(value)}")


def _codes(value: Any, key: str, codes: Mapping[str, T]) -> tuple[T, ...]:
    if not isinstance(value, list):  # JSON's list, not a tuple
        raise _RECORD.fail(f"'{key}'", "a list", value)
    expected = "one of " + ", ".join(map(repr, codes))
    return _RECORD.listed(value, f"'{key}'", _RECORD.one_of(codes, expected))


def _moves(value: Any, version: int) -> tuple[Move, ...]:
    if not isinstance(value, list):
        raise _RECORD.fail("'moves'", "a list", value)
    if len(value) > MAX_MOVES:
        raise InvalidRecord(
            f"a game record holds at most {MAX_MOVES} moves (qe_rules.limits.MAX_MOVES), "
            f"got {len(value)}"
        )
    kinds = MOVE_KINDS if version >= 2 else MOVE_KINDS[:2]
    moves = []
    for index, item in enumerate(value):
        where = f"move {index}"
        if not isinstance(item, Mapping):
            raise _RECORD.fail(where, "an object", item)
        kind = item.get("move")
        if not isinstance(kind, str) or kind not in kinds:
            allowed = ", ".join(map(repr, kinds))
            raise InvalidRecord(
                f"{where}: 'move' must be one of {allowed} in a version {version} record, "
                f"got {shown(kind)}"
            )
        keys = set(item)
        if keys != _MOVE_KEYS[kind] and not (kind == "peek" and keys == _NAMED_PEEK_KEYS):
            raise InvalidRecord(
                f"{where}: a {kind} move has exactly the keys {sorted(_MOVE_KEYS[kind])}, "
                f"got {sorted(map(shown, keys))}"
            )
        seat = _int(item["seat"], f"{where}.seat")
        amount = _int(item["amount"], f"{where}.amount") if kind == "bid" else None
        sale = _int(item["sale"], f"{where}.sale") if "sale" in keys else None
        try:
            moves.append(Move(kind, seat, amount, sale=sale))
        except RulesError as error:
            raise InvalidRecord(f"{where}: {error}") from None
    return tuple(moves)


# --------------------------------------------------------------------------- JSON Lines


class _Recorded(Protocol):
    def to_record(self) -> dict[str, Any]: ...


def dump_records(
    records: Iterable[GameRecord | Mapping[str, Any] | _Recorded], file: IO[str]
) -> int:
    """Write game records to ``file`` as JSON Lines: one record a line, in order.

    Each item is a :class:`GameRecord`, a record as JSON types (checked first), or a
    :class:`~qe_rules.Game` (its ``to_record()``). Returns how many were written;
    :func:`load_records` reads them back.

    >>> import io, qe_rules as qe
    >>> games = [qe.new_game("en", 4, seed=seed).bid(0, 3) for seed in range(3)]
    >>> out = io.StringIO()
    >>> qe.dump_records(games, out)
    3
    >>> [qe.replay(record) for record in qe.load_records(io.StringIO(out.getvalue()))] == games
    True
    """
    _check_iterable(records, "records", "a list (or any iterable) of records")
    if (
        not callable(getattr(file, "write", None))
        or isinstance(file, io.RawIOBase | io.BufferedIOBase)
        or getattr(file, "closed", False) is True
    ):
        raise InvalidArgument(
            f"file must be a text file open for writing (not a binary or closed one), "
            f"got {shown(file)}"
        )
    count = 0
    for item in records:
        if isinstance(item, GameRecord):
            data = item.to_dict()
        elif isinstance(item, Mapping):
            data = GameRecord.from_dict(item).to_dict()
        elif callable(getattr(item, "to_record", None)):
            data = item.to_record()
        else:
            raise InvalidArgument(
                f"record {count}: give a Game, a GameRecord or a record dict, got {shown(item)}"
            )
        file.write(json.dumps(data, separators=(",", ":"), ensure_ascii=False))
        file.write("\n")
        count += 1
    return count


def load_records(file: IO[str] | Iterable[str]) -> Iterator[GameRecord]:
    """The game records of a JSON Lines file (as :func:`dump_records` writes), one by
    one; blank lines are skipped. Raises :class:`~qe_rules.InvalidRecord` naming the line
    of a line that is not a record, or longer than ``MAX_FILE_BYTES``."""
    _check_iterable(file, "file", "a text file open for reading, or an iterable of lines")
    return _records_of(iter(file))


def _check_iterable(value: Any, name: str, expected: str) -> None:
    if isinstance(value, str | bytes | bytearray | Mapping) or not hasattr(value, "__iter__"):
        raise InvalidArgument(f"{name} must be {expected}, got {shown(value)}")


def _lines(lines: Iterator[Any]) -> Iterator[Any]:
    """The lines of a file; a file that is not text raises
    :class:`~qe_rules.InvalidRecord`."""
    while True:
        try:
            line = next(lines)
        except StopIteration:
            return
        except UnicodeDecodeError as error:
            raise InvalidRecord(f"the file is not UTF-8 text: {error}") from None
        yield line


def _records_of(lines: Iterator[Any]) -> Iterator[GameRecord]:
    for number, line in enumerate(_lines(lines), start=1):
        if not isinstance(line, str):
            raise InvalidRecord(f"line {number}: expected text, got {shown(line)}")
        if len(line) > MAX_FILE_BYTES:
            raise InvalidRecord(
                f"line {number} is longer than MAX_FILE_BYTES ({MAX_FILE_BYTES} characters)"
            )
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except (RecursionError, ValueError) as error:
            raise InvalidRecord(f"line {number} is not valid JSON: {error}") from None
        try:
            yield GameRecord.from_dict(data)
        except RulesError as error:
            raise InvalidRecord(f"line {number}: {error}") from None


# --------------------------------------------------------------------------- schemas

SCHEMAS: Final = (
    "game-record",
    "player-view",
    "public-view",
    "game-result",
    "event",
    "score-file",
)
"""The names of the JSON Schemas shipped in ``qe_rules/schemas/`` (``NAME.schema.json``)."""


def json_schema(name: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a document the library writes or reads: one of
    :data:`SCHEMAS`. A client in another language can validate what it receives.

    >>> json_schema("player-view")["title"]
    'qe-rules player view'
    """
    if type(name) is not str or name not in SCHEMAS:
        raise InvalidArgument(f"unknown schema {shown(name)}; schemas: {', '.join(SCHEMAS)}")
    path = resources.files("qe_rules").joinpath(f"schemas/{name}.schema.json")
    schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return schema
