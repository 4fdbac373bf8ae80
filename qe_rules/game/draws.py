"""The random draws of a run of games, as keyed functions: one definition for every engine.

Game ``index`` of a run with ``seed`` is dealt, and its built-in agents draw, from
``(seed, index)`` alone, through counter-based functions rather than a generator that
advances: a draw is a pure function of a key and a counter, so any engine can compute any
draw in any order. The reference engine (:func:`qe_rules.simulation.play.play_game`)
computes each draw as a Python ``int``; the batched engine computes the same draws for
many games at once (:func:`mixed`, on numpy ``uint64`` arrays), and a test compares the two.

Two functions do it. Keys are SplitMix64's outputs: key number ``counter`` of a 64-bit
``key`` is ``mix(key + (counter + 1) * GOLDEN)`` modulo 2**64 (:func:`keyed`), where
:func:`mix` is SplitMix64's finalizer (a bijection of 64-bit words). A draw, 32 bits, is a
Weyl sequence in the key's high half, offset by its low half and finalized in 32 bits:
``mix32((high + counter * GOLDEN32) mod 2**32 ^ low)`` (:func:`draw`; :func:`mix32` is a
two-multiply 32-bit finalizer, a bijection), cheap enough to compute for every bid of a
million games. From the seed down:

========================  =====================================================
key or draw               how
========================  =====================================================
the run's key             ``keyed(seed mod 2**64, RUN)``
game ``index``'s key      ``keyed(run key, index)``
the deal                  ``draw(game key, DECK | item)``, ``NATIONS | item``,
                          ``TOKENS | item``: sort keys (the high 27 bits, the
                          item's place below them); ``draw(game key, FIRST)``:
                          the first auctioneer (``bits * players >> 32``)
seat ``s``'s agent seed   ``keyed(game key, AGENT | s)``
an agent's draw           ``draw(agent seed, agent_counter(seat, sale, number,
                          peek))``
========================  =====================================================

An agent's draw is keyed by the sale, the number of bids its seat has already made in
that sale (0 for the opening or first secret bid, 1 for its first rebid, ...; a view's
``len(my_bids)``) and, for a peek window, the sale the window's views show. The same
moment of a game therefore draws the same bits whichever engine plays it, and two plays of
one game under different rule sets share their draws for as long as they agree (common
random numbers).

>>> run = run_key(1)
>>> game = game_key(run, 0)
>>> dealt = deal_order(game, 5)      # a shuffle of range(5)
>>> sorted(dealt) == [0, 1, 2, 3, 4], first_seat(game, 4) in range(4)
(True, True)
>>> agent_draw(agent_seed(game, 2), seat=2, sale=0, number=0) < 2**32
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, Final

__all__ = [
    "AGENT",
    "COUNTER_BIDS",
    "COUNTER_SEATS",
    "DECK",
    "FIRST",
    "GOLDEN",
    "GOLDEN32",
    "MASK",
    "MASK32",
    "NATIONS",
    "RUN",
    "TOKENS",
    "agent_counter",
    "agent_draw",
    "agent_seed",
    "deal_order",
    "draw",
    "first_seat",
    "game_key",
    "keyed",
    "mix",
    "mix32",
    "mixed",
    "mixed32",
    "run_key",
    "seed_word",
    "shuffled",
    "uniform",
]

MASK: Final = 2**64 - 1
"""Whole numbers modulo 2**64 (64-bit words)."""
GOLDEN: Final = 0x9E3779B97F4A7C15
"""SplitMix64's increment (2**64 divided by the golden ratio, odd)."""
_MUL1: Final = 0xBF58476D1CE4E5B9
_MUL2: Final = 0x94D049BB133111EB
MASK32: Final = 2**32 - 1
"""Whole numbers modulo 2**32 (32-bit words)."""
GOLDEN32: Final = 0x9E3779B9
"""The 32-bit Weyl increment of :func:`draw` (2**32 divided by the golden ratio, odd)."""
_MUL32_1: Final = 0x21F0AAAD
_MUL32_2: Final = 0x735A2D97

# Counters of a game's key: each purpose in its own range (items and seats below 256).
RUN: Final = 1 << 62
"""The counter of a run's key (of the seed)."""
DECK: Final = 1 << 8
"""The counters of the deck's sort keys: ``DECK | item``."""
NATIONS: Final = 2 << 8
"""The counters of the nations' sort keys."""
TOKENS: Final = 3 << 8
"""The counters of the industry tokens' sort keys."""
FIRST: Final = 4 << 8
"""The counter of the first auctioneer."""
AGENT: Final = 5 << 8
"""The counters of the seats' agent seeds: ``AGENT | seat``."""

COUNTER_SEATS: Final = 8
"""The seats an agent counter makes room for (``MAX_PLAYERS`` fits)."""
COUNTER_BIDS: Final = 1 << 16
"""The bids of a seat in one sale an agent counter makes room for (``ROUNDS_PER_SALE``
fits)."""


def mix(word: int) -> int:
    """SplitMix64's finalizer of a 64-bit word (a bijection)."""
    word = (word ^ (word >> 30)) * _MUL1 & MASK
    word = (word ^ (word >> 27)) * _MUL2 & MASK
    return word ^ (word >> 31)


def keyed(key: int, counter: int) -> int:
    """Key number ``counter`` of ``key``: SplitMix64's output at that place."""
    return mix((key + (counter + 1) * GOLDEN) & MASK)


def mix32(word: int) -> int:
    """A 32-bit finalizer (two multiplies, a bijection of 32-bit words)."""
    word = (word ^ (word >> 16)) * _MUL32_1 & MASK32
    word = (word ^ (word >> 15)) * _MUL32_2 & MASK32
    return word ^ (word >> 15)


def draw(key: int, counter: int) -> int:
    """Draw number ``counter`` of ``key``: 32 random bits."""
    return mix32(((key >> 32) + counter * GOLDEN32) & MASK32 ^ key & MASK32)


def seed_word(seed: int | str) -> int:
    """A seed as a 64-bit word: an ``int`` modulo 2**64, a ``str`` by its BLAKE2b hash."""
    if isinstance(seed, str):
        digest = hashlib.blake2b(seed.encode("utf-8", "surrogatepass"), digest_size=8)
        return int.from_bytes(digest.digest(), "big")
    return seed & MASK


def run_key(seed: int | str) -> int:
    """The key of a run with ``seed``."""
    return keyed(seed_word(seed), RUN)


def game_key(run: int, index: int) -> int:
    """The key of game ``index`` of the run whose key is ``run``."""
    return keyed(run, index)


def deal_order(game: int, size: int, purpose: int = DECK) -> list[int]:
    """A random order of ``range(size)`` (``size`` at most 32) for ``purpose`` (``DECK``,
    ``NATIONS`` or ``TOKENS``): the items sorted by their sort keys, 27 random bits above
    the item's place (items whose random bits tie keep their order)."""
    keys = sorted(draw(game, purpose | item) & ~31 | item for item in range(size))
    return [key & 31 for key in keys]


def shuffled(game: int, items: Sequence[Any], purpose: int) -> list[Any]:
    """``items`` in the order :func:`deal_order` gives for ``purpose``."""
    return [items[place] for place in deal_order(game, len(items), purpose)]


def uniform(bits: int, count: int) -> int:
    """A whole number from 0 to ``count - 1`` from 32 random bits: ``bits * count >> 32``."""
    return bits * count >> 32


def first_seat(game: int, players: int) -> int:
    """The first auctioneer of the game whose key is ``game``."""
    return uniform(draw(game, FIRST), players)


def agent_seed(game: int, seat: int) -> int:
    """The seed of ``seat``'s agent in the game whose key is ``game``."""
    return keyed(game, AGENT | seat)


def agent_counter(seat: int, sale: int, number: int, peek: bool = False) -> int:
    """The counter of an agent's draw: at ``sale``, for the seat's bid after ``number``
    bids in that sale, or (``peek``) its answer in the window whose views show ``sale``."""
    return ((sale * COUNTER_BIDS + number) * 2 + peek) * COUNTER_SEATS + seat


def agent_draw(seed: int, *, seat: int, sale: int, number: int, peek: bool = False) -> int:
    """32 random bits of the agent with ``seed`` (an ``int``) at that moment of the game
    (:func:`agent_counter`)."""
    return draw(seed & MASK, agent_counter(seat, sale, number, peek))


# ----------------------------------------------------------------- on numpy arrays


def mixed(words: Any) -> Any:
    """:func:`mix` of every element of a numpy ``uint64`` array, in place (the batched
    engine's copy; a test compares the two)."""
    return _finalized(words, (30, 27, 31), (_MUL1, _MUL2))


def mixed32(words: Any) -> Any:
    """:func:`mix32` of every element of a numpy ``uint32`` array, in place (the batched
    engine's copy; a test compares the two)."""
    return _finalized(words, (16, 15, 15), (_MUL32_1, _MUL32_2))


def _finalized(words: Any, shifts: tuple[int, int, int], multipliers: tuple[int, int]) -> Any:
    """``words ^= words >> shift`` then ``words *= multiplier``, twice, then a last
    xor-shift: the two finalizers' steps on an array, in place, in its own word size."""
    import numpy as np  # only the batched engine calls this: the core needs no numpy

    word = words.dtype.type
    scratch = np.empty_like(words)
    for shift, multiplier in zip(shifts, (*multipliers, None), strict=True):
        np.right_shift(words, word(shift), out=scratch)
        words ^= scratch
        if multiplier is not None:
            words *= word(multiplier)
    return words
