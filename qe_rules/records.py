"""Game records: the setup of a game plus its moves, as JSON types.

A record is what ``Game.to_record()`` returns and ``qe.replay()`` reads::

    {
      "format": "qe-rules/game", "version": 1,
      "ruleset": "en",                  # a built-in id, or a whole rule set as data
      "players": 4,
      "deck": ["JP-FIN-1", ...],        # in the order the tiles are sold
      "nations": ["US", "EU", "CN", "JP"],
      "industries": ["AGRICULTURE", ...],
      "first_auctioneer": 0,
      "moves": [{"move": "bid", "seat": 0, "amount": 5}, {"move": "peek", "seat": 2}, ...]
    }

This module checks a record's shape; the engine replays its moves and checks each one.
Every problem raises :class:`~qe_rules.InvalidRecord`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from qe_rules.components import Company, Industry, Nation
from qe_rules.errors import InvalidArgument, InvalidRecord, RulesError, shown
from qe_rules.limits import MAX_BID, MAX_MOVES
from qe_rules.rulesets import RULESETS, RuleSet, get_ruleset

__all__ = ["RECORD_FORMAT", "RECORD_VERSION", "GameRecord", "Move"]

RECORD_FORMAT: Final = "qe-rules/game"
RECORD_VERSION: Final = 1


def _check_move(move: Move, attribute: attrs.Attribute[Any], value: Any) -> None:
    """A move's kind is known, its seat an int, and only a bid has an amount (an int)."""
    if not isinstance(move.kind, str) or move.kind not in _MOVE_KEYS:
        kinds = " or ".join(repr(kind) for kind in _MOVE_KEYS)
        raise InvalidArgument(f"a move's kind is {kinds}, got {shown(move.kind)}")
    if type(move.seat) is not int:
        raise InvalidArgument(f"a move's seat is a whole number (int), got {shown(move.seat)}")
    if move.kind != "bid":
        if move.amount is not None:
            raise InvalidArgument(f"a {move.kind} move has no amount, got {shown(move.amount)}")
    elif type(move.amount) is not int or not -MAX_BID <= move.amount <= MAX_BID:
        raise InvalidArgument(
            f"a bid's amount is a whole number (int) from -{MAX_BID} to {MAX_BID} "
            f"(qe_rules.limits.MAX_BID), got {shown(move.amount)}"
        )


@attrs.frozen
class Move:
    """One move: ``Move("bid", seat, amount)`` or ``Move("peek", seat)``.

    A malformed move raises :class:`~qe_rules.InvalidArgument` when it is made:

    >>> Move("bid", 0)
    Traceback (most recent call last):
    ...
    qe_rules.errors.InvalidArgument: a bid's amount is a whole number (int) from -1000000 to 1000000 (qe_rules.limits.MAX_BID), got None
    """

    kind: str
    seat: int
    amount: int | None = attrs.field(default=None, validator=_check_move)

    def to_dict(self) -> dict[str, Any]:
        """The move as JSON types."""
        if self.kind == "bid":
            return {"move": "bid", "seat": self.seat, "amount": self.amount}
        return {"move": self.kind, "seat": self.seat}

    def __str__(self) -> str:
        if self.kind == "bid":
            return f"seat {shown(self.seat)} bids {self.amount}"
        return f"seat {shown(self.seat)} {self.kind}s"


@attrs.frozen(kw_only=True)
class GameRecord:
    """A game's setup and moves; ``to_dict``/``from_dict`` convert to and from JSON types."""

    ruleset: RuleSet
    players: int
    deck: tuple[Company, ...]
    nations: tuple[Nation, ...]
    industries: tuple[Industry, ...]
    first_auctioneer: int
    moves: tuple[Move, ...]

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON types; a built-in rule set is written as its id."""
        builtin = RULESETS.get(self.ruleset.id)
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "ruleset": self.ruleset.id if builtin == self.ruleset else self.ruleset.to_data(),
            "players": self.players,
            "deck": [str(c) for c in self.deck],
            "nations": [n.code for n in self.nations],
            "industries": [i.name for i in self.industries],
            "first_auctioneer": self.first_auctioneer,
            "moves": [m.to_dict() for m in self.moves],
        }

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Read a record's shape; raises :class:`~qe_rules.InvalidRecord` naming the key."""
        if not isinstance(data, Mapping):
            raise InvalidRecord(f"a game record must be an object, got {shown(data)}")
        unknown = set(data) - set(_KEYS)
        if unknown:
            raise InvalidRecord(
                f"unknown keys in the game record: {sorted(map(shown, unknown))}; "
                f"allowed: {', '.join(_KEYS)}"
            )
        missing = [key for key in _KEYS if key not in data]
        if missing:
            raise InvalidRecord(f"the game record lacks {', '.join(missing)}")
        if data["format"] != RECORD_FORMAT:
            raise InvalidRecord(f"'format' must be {RECORD_FORMAT!r}, got {shown(data['format'])}")
        if data["version"] != RECORD_VERSION or type(data["version"]) is not int:
            raise InvalidRecord(
                f"this library reads record version {RECORD_VERSION}, got {shown(data['version'])}"
            )
        return cls(
            ruleset=_ruleset(data["ruleset"]),
            players=_int(data["players"], "players"),
            deck=_codes(data["deck"], "deck", Company.parse),
            nations=_codes(data["nations"], "nations", Nation.parse),
            industries=_codes(data["industries"], "industries", Industry.parse),
            first_auctioneer=_int(data["first_auctioneer"], "first_auctioneer"),
            moves=_moves(data["moves"]),
        )


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
}


def _int(value: Any, key: str) -> int:
    if type(value) is not int:
        raise InvalidRecord(f"'{key}' must be a whole number, got {shown(value)}")
    return value


def _ruleset(value: Any) -> RuleSet:
    try:
        if isinstance(value, str):
            return get_ruleset(value)
        if isinstance(value, Mapping):
            if not all(isinstance(key, str) for key in value):
                raise InvalidRecord(f"the keys of a rule set are strings, got {shown(value)}")
            return RuleSet.from_data(value)
    except RulesError as error:
        raise InvalidRecord(f"'ruleset': {error}") from None
    raise InvalidRecord(f"'ruleset' must be a rule set id or a rule set, got {shown(value)}")


def _codes(value: Any, key: str, parse: Any) -> tuple[Any, ...]:
    if not isinstance(value, list):
        raise InvalidRecord(f"'{key}' must be a list, got {shown(value)}")
    items = []
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise InvalidRecord(f"'{key}'[{index}] must be a string, got {shown(item)}")
        try:
            items.append(parse(item))
        except RulesError as error:
            raise InvalidRecord(f"'{key}'[{index}]: {error}") from None
    return tuple(items)


def _moves(value: Any) -> tuple[Move, ...]:
    if not isinstance(value, list):
        raise InvalidRecord(f"'moves' must be a list, got {shown(value)}")
    if len(value) > MAX_MOVES:
        raise InvalidRecord(
            f"a game record holds at most {MAX_MOVES} moves (qe_rules.limits.MAX_MOVES), "
            f"got {len(value)}"
        )
    moves = []
    for index, item in enumerate(value):
        where = f"move {index}"
        if not isinstance(item, Mapping):
            raise InvalidRecord(f"{where} must be an object, got {shown(item)}")
        kind = item.get("move")
        if not isinstance(kind, str) or kind not in _MOVE_KEYS:
            raise InvalidRecord(f"{where}: 'move' must be 'bid' or 'peek', got {shown(kind)}")
        keys = set(item)
        if keys != _MOVE_KEYS[kind]:
            raise InvalidRecord(
                f"{where}: a {kind} move has exactly the keys {sorted(_MOVE_KEYS[kind])}, "
                f"got {sorted(map(shown, keys))}"
            )
        seat = _int(item["seat"], f"{where}.seat")
        amount = _int(item["amount"], f"{where}.amount") if kind == "bid" else None
        try:
            moves.append(Move(kind, seat, amount))
        except RulesError as error:
            raise InvalidRecord(f"{where}: {error}") from None
    return tuple(moves)
