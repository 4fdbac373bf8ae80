"""The web table's secrets inside the game: the deal and the agents' moves, each drawn
from its own 256-bit key from :mod:`secrets`.

A deal is a function of its key alone (:func:`deal`), through BLAKE2b keyed with it
(:class:`KeyedRandom`), so what a seat sees tells it nothing of the rest: there is no
seed to search. An agent's move at a moment of the game is made from a keyed hash of that
moment (:func:`agent_move`), so its draws have nothing to do with the deal, and a
restarted server makes the same moves.

>>> import qe_rules as qe
>>> key = bytes(range(32))
>>> deal(qe.get_ruleset("en"), 4, key).to_record()["deck"] == deal("en", 4, key).to_record()["deck"]
True
"""

from __future__ import annotations

import hashlib
import random
import secrets
from typing import Any, Final

from qe_rules.errors import InvalidArgument, shown
from qe_rules.game.engine import Game, new_game
from qe_rules.game.views import Phase
from qe_rules.limits import MAX_BID
from qe_rules.rules.model import RuleSet, get_ruleset
from qe_rules.simulation.agents import agent_factory

__all__ = [
    "KEY_BYTES",
    "KeyedRandom",
    "agent_choice",
    "agent_move",
    "checked_amount",
    "deal",
    "new_key",
    "played",
]

KEY_BYTES: Final = 32
"""The size of each secret key: the deal's and every agent's (256 bits from secrets)."""


def new_key() -> bytes:
    """A fresh secret key (the deal's or an agent's)."""
    return secrets.token_bytes(KEY_BYTES)


class KeyedRandom(random.Random):
    """A generator whose bits are BLAKE2b of a counter keyed with a secret key: a
    pseudo-random function of the key, so that no output tells anything of the others
    (the Mersenne Twister behind ``random.Random`` does not promise that)."""

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._counter = 0
        self._pool = 0
        self._bits = 0
        super().__init__()

    def seed(self, *args: Any, **kwargs: Any) -> None:  # the key is the seed
        """Nothing: the generator is made from its key."""

    def getrandbits(self, k: int) -> int:
        """``k`` random bits."""
        while self._bits < k:
            block = hashlib.blake2b(self._counter.to_bytes(8, "big"), key=self._key).digest()
            self._pool = (self._pool << 512) | int.from_bytes(block, "big")
            self._bits += 512
            self._counter += 1
        value = self._pool & ((1 << k) - 1)
        self._pool >>= k
        self._bits -= k
        return value

    def random(self) -> float:
        """A float in [0, 1)."""
        return self.getrandbits(53) * 2.0**-53


def deal(ruleset: RuleSet | str, players: int, key: bytes) -> Game:
    """A new game whose deck, nations and industry tokens are drawn from ``key`` alone
    (the same key, the same deal)."""
    rules = get_ruleset(ruleset)
    draw = KeyedRandom(key)
    deck = list(rules.companies(players))
    draw.shuffle(deck)
    nations = draw.sample(rules.nations(players), players)
    industries = draw.sample(rules.industries(players), players)
    return new_game(rules, players, deck=deck, nations=nations, industries=industries)


def agent_move(kind: str, key: bytes, game: Game, seat: int, version: int) -> Game:
    """The game after the move of the agent ``kind`` at ``seat`` when the game has had
    ``version`` moves: the agent is made from a seed that is a keyed hash of the moment,
    so every move draws afresh from the agent's own key, and a restarted server makes the
    same move."""
    return played(game, seat, *agent_choice(kind, key, game, seat, version))


def agent_choice(
    kind: str, key: bytes, game: Game, seat: int, version: int
) -> tuple[str, int | None]:
    """The move (``bid`` with its amount, ``peek`` or ``decline-peek``) of an agent."""
    moment = version.to_bytes(8, "big") + seat.to_bytes(1, "big")
    seed = int.from_bytes(hashlib.blake2b(moment, key=key, digest_size=16).digest(), "big")
    agent = agent_factory(kind, ruleset=game.ruleset)(seed)
    view = game.view(seat)
    if game.phase is Phase.PEEKING:
        return ("peek" if agent.wants_peek(view) else "decline-peek"), None
    return "bid", agent.bid(view)


def checked_amount(seat: int, amount: Any) -> int:
    """``amount`` if it is a whole number from 0 to ``MAX_BID``; else raises
    :class:`~qe_rules.InvalidArgument` with its code (``bid-not-a-whole-number``,
    ``bid-out-of-range``) before the rules are asked."""
    what = f"a bid is a whole number from 0 to {MAX_BID}"
    if type(amount) is not int:
        raise InvalidArgument(
            f"{what}, got {shown(amount)}",
            code="bid-not-a-whole-number",
            seat=seat,
            value=shown(amount),
        )
    if not 0 <= amount <= MAX_BID:
        raise InvalidArgument(
            f"{what}, got {amount}",
            code="bid-out-of-range",
            seat=seat,
            minimum=0,
            maximum=MAX_BID,
            amount=amount,
        )
    return amount


def played(game: Game, seat: int, action: str, amount: Any) -> Game:
    """The game after a move; raises a RulesError naming what is wrong."""
    if action == "bid":
        return game.bid(seat, checked_amount(seat, amount))
    if action == "peek":
        return game.peek(seat)
    if action == "decline-peek":
        return game.decline_peek(seat)
    raise InvalidArgument(f"unknown move {shown(action)}; moves are bid, peek, decline-peek")
