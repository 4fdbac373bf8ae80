"""The exceptions of qe_rules.

Every error the library raises on purpose is a :class:`RulesError`, and its message
says what was wrong and what is allowed::

    >>> import qe_rules as qe
    >>> qe.get_ruleset("fr")
    Traceback (most recent call last):
    ...
    qe_rules.errors.UnknownRuleSet: unknown rule set 'fr'; built-in rule sets: 'en', 'en-early', 'de', 'de-summary'
"""

from __future__ import annotations

import reprlib

__all__ = [
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
    """Base class of every error that qe_rules raises on purpose."""


class InvalidArgument(RulesError, ValueError):
    """An argument has the wrong type or a value outside what the rules allow.

    Examples: a seat that does not exist, a bid that is not an ``int``, a player record
    naming a nation that is not in play.
    """


class UnknownRuleSet(RulesError, LookupError):
    """No rule set has the requested id."""


class InvalidRuleSet(RulesError):
    """A rule set definition is inconsistent or malformed (for example a TOML file)."""


class IllegalAction(RulesError):
    """A well-formed move that the rules do not allow in the current state.

    Examples: bidding out of turn, an opening bid below the minimum, a secret bid equal to
    the opening bid where the rule set forbids it, a move after the end of the game.
    """


class GameNotOver(RulesError):
    """A result was asked for before the game ended."""


class InvalidRecord(RulesError):
    """A game record cannot be replayed: malformed, or one of its moves is illegal."""


class AgentError(InvalidArgument):
    """An agent of a run failed: its code raised, its factory did not make an agent, or
    it bid what the rules refuse. The message names the agent, the seat, the game's
    number and the run's seed (``play_game(..., seed=seed, index=game)`` replays it);
    the agent's own exception is chained as ``__cause__``.
    """

    def __init__(self, message: str, *, agent: str, seat: int, seed: int, game: int) -> None:
        super().__init__(message)
        self.agent = agent
        self.seat = seat
        self.seed = seed
        self.game = game

    def __reduce__(self) -> tuple[object, ...]:  # travels back from a worker process
        return _agent_error, (str(self), self.agent, self.seat, self.seed, self.game)


def _agent_error(message: str, agent: str, seat: int, seed: int, game: int) -> AgentError:
    return AgentError(message, agent=agent, seat=seat, seed=seed, game=game)


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
