"""The exceptions of qe_rules.

Every error the library raises on purpose is a :class:`RulesError`, and its message
says what was wrong and what is allowed::

    >>> import qe_rules as qe
    >>> qe.get_ruleset("fr")
    Traceback (most recent call last):
    ...
    qe_rules.errors.UnknownRuleSet: unknown rule set 'fr'; built-in rule sets: 'en', 'en-early', 'de', 'de-summary'

Every error also carries a stable ``code`` and its ``params``, for an app that shows
errors in its reader's language (``qe_rules.present.text.error_text`` does for the
table's languages). An error raised with no code of its own has its class's code
(``illegal-action``, ``invalid-argument``, ...); the errors about a move or a seat have
their own (``not-to-act``, ``bid-below-minimum``, ...). Seats and sales in ``params``
are counted from 0, as the library counts them::

    >>> try:
    ...     qe.new_game("en", 4, seed=1).bid(2, 3)
    ... except qe.RulesError as error:
    ...     print(error.code, error.params)
    not-to-act {'seat': 2, 'sale': 0, 'auctioneer': 0}
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping
from typing import Any, ClassVar

__all__ = [
    "ERROR_CODES",
    "AgentError",
    "GameNotOver",
    "IllegalAction",
    "InvalidArgument",
    "InvalidRecord",
    "InvalidRuleSet",
    "RulesError",
    "UnknownRuleSet",
]


class RulesError(Exception):
    """Base class of every error that qe_rules raises on purpose.

    ``code`` is a stable identifier of what went wrong (the class's ``default_code``
    unless the error was raised with its own), ``params`` the values its message names
    (JSON values: numbers, strings, lists). ``str(error)`` is the English message.
    """

    default_code: ClassVar[str] = "rules-error"

    def __init__(self, *args: object, code: str | None = None, **params: Any) -> None:
        super().__init__(*args)
        self.code: str = code or type(self).default_code
        self.params: Mapping[str, Any] = params

    def to_dict(self) -> dict[str, Any]:
        """``{"code": ..., "message": ..., "params": {...}}``: the error as JSON, for an
        app or a client that shows it in its own words."""
        return {"code": self.code, "message": str(self), "params": dict(self.params)}

    def __reduce__(self) -> tuple[Any, ...]:  # keeps code and params across processes
        return _rebuilt, (type(self), self.args, self.code, dict(self.params))


def _rebuilt(
    kind: type[RulesError], args: tuple[object, ...], code: str, params: dict[str, Any]
) -> RulesError:
    error = kind.__new__(kind)
    Exception.__init__(error, *args)
    error.code, error.params = code, params
    return error


class InvalidArgument(RulesError, ValueError):
    """An argument has the wrong type or a value outside what the rules allow.

    Examples: a seat that does not exist, a bid that is not an ``int``, a player record
    naming a nation that is not in play.
    """

    default_code = "invalid-argument"


class UnknownRuleSet(RulesError, LookupError):
    """No rule set has the requested id."""

    default_code = "unknown-ruleset"


class InvalidRuleSet(RulesError):
    """A rule set definition is inconsistent or malformed (for example a TOML file)."""

    default_code = "invalid-ruleset"


class IllegalAction(RulesError):
    """A well-formed move that the rules do not allow in the current state.

    Examples: bidding out of turn, an opening bid below the minimum, a secret bid equal to
    the opening bid where the rule set forbids it, a move after the end of the game.
    """

    default_code = "illegal-action"


class GameNotOver(RulesError):
    """A result was asked for before the game ended."""

    default_code = "game-not-over"


class InvalidRecord(RulesError):
    """A game record cannot be replayed: malformed, or one of its moves is illegal."""

    default_code = "invalid-record"


class AgentError(InvalidArgument):
    """An agent of a run failed: its code raised, its factory did not make an agent, or
    it bid what the rules refuse. The message names the agent, the seat, the game's
    number and the run's seed (``play_game(..., seed=seed, index=game)`` replays it);
    the agent's own exception is chained as ``__cause__``.
    """

    default_code = "agent-error"

    def __init__(self, message: str, *, agent: str, seat: int, seed: int, game: int) -> None:
        super().__init__(message, agent=agent, seat=seat, seed=seed, game=game)
        self.agent = agent
        self.seat = seat
        self.seed = seed
        self.game = game

    def __reduce__(self) -> tuple[object, ...]:  # travels back from a worker process
        return _agent_error, (str(self), self.agent, self.seat, self.seed, self.game)


def _agent_error(message: str, agent: str, seat: int, seed: int, game: int) -> AgentError:
    return AgentError(message, agent=agent, seat=seat, seed=seed, game=game)


ERROR_CODES: Mapping[str, str] = {
    # a class's code: an error raised without one of its own
    "rules-error": "any other error of the library (RulesError)",
    "invalid-argument": "an argument has the wrong type or value (InvalidArgument)",
    "unknown-ruleset": "no rule set has the id (UnknownRuleSet)",
    "invalid-ruleset": "a rule set definition is inconsistent or malformed (InvalidRuleSet)",
    "illegal-action": "a move the rules do not allow now (IllegalAction)",
    "game-not-over": "a result was asked for before the end (GameNotOver)",
    "invalid-record": "a game record cannot be replayed (InvalidRecord)",
    "agent-error": "an agent failed (AgentError); params agent, seat, seed, game",
    "move-refused": "the web table refuses a move for its seat now (an agent plays the seat, "
    "the move answers an earlier moment); where the rules refuse it, the engine's code",
    # a move or a seat (Game.bid, bid_many, peek, decline_peek, verify_bid)
    "not-a-seat": "no seat has this number; params players, value",
    "bid-not-a-whole-number": "a bid is not an int; params seat, value",
    "bid-too-large": "a bid above MAX_BID; params seat, maximum",
    "bid-out-of-range": "a bid outside 0 to MAX_BID, refused before the rules are asked (the "
    "web table); params seat, minimum, maximum, amount",
    "game-over": "a move after the end of the game",
    "not-to-act": "the sale waits for the auctioneer's opening bid; params seat, sale, auctioneer",
    "waiting-for-peeks": "the bidding waits for answers to a peek; params seat, sale, waiting, "
    "peek_sale",
    "not-tied": "a rebid from a seat that is not tied; params seat, sale, tied, waiting",
    "already-bid": "the seat has bid in this bidding round; params seat, sale, waiting",
    "bid-below-minimum": "a bid below its minimum; params seat, bid, minimum, amount",
    "bid-equals-opening-bid": "a bid equal to the opening bid where the rules forbid it; "
    "params seat, bid, amount, minimum",
    # a peek (Game.peek, decline_peek, verify_peek)
    "no-peek": "the rule set has no peek at this player count; params players, peek_players",
    "no-peek-window": "no peek window is open (none after an unsold or public sale, none "
    "after the last sale)",
    "peek-other-sale": "a peek names another sale than the one it may look at; params sale, named",
    "peek-unsold": "the sale looked at was not awarded; params sale",
    "peek-public": "the sale's amount is public (its auctioneer won it); params sale",
    "peek-ran-sale": "the seat ran the sale and saw every bid; params seat, sale",
    "peek-won-sale": "the seat won the sale and knows the amount; params seat, sale",
    "peek-seen": "the seat has already seen the sale's amount; params seat, sale",
    "peeks-used": "the seat has used every peek of the game; params seat, limit",
    "peek-declined": "the seat has answered this peek window without peeking; params seat, sale",
    "peek-runs-sale": "under peek_timing=before-bids, the seat runs the sale it would peek at; "
    "params seat, sale",
    "no-peekable-sale": "under peek_timing=any-earlier-sale, no earlier sale's amount is "
    "hidden from the seat; params seat",
    "peek-sale-not-over": "the sale named is not over; params sale, last",
    "not-in-peek-window": "a peek outside the seat's peek window; params seat",
}
"""Every ``code`` an error of the library carries, with what it means and its params.
Codes are stable; seats and sales in params are counted from 0."""


_SHOWN = reprlib.Repr()
_SHOWN.maxlevel = 2
_SHOWN.maxstring = 60
_SHOWN.maxother = 60
_SHOWN.maxlong = 40


_LOG10_2 = 0.30103
_SHOWN_BITS = 128  # a longer int is described, never converted to decimal (which may fail)


def shown(value: object) -> str:
    """A short ``repr`` of a value for an error message: cut at a sensible length and
    depth, so that a huge or deeply nested input never breaks the message itself.

    >>> shown(-10**5000)
    '<an int of about 5001 digits>'
    >>> shown([[[[1]]]])
    '[[[...]]]'
    """
    if type(value) is int and value.bit_length() > _SHOWN_BITS:
        digits = int(value.bit_length() * _LOG10_2) + 1
        return f"<an int of about {digits} digits>"
    try:
        return _SHOWN.repr(value)
    except Exception:  # a value whose repr fails still gets a message
        return f"<{type(value).__name__}>"
