"""The limits the library sets on untrusted input, and on games that might not end.

Rule files, game records and score files may come over a network. Every value the
library reads from them is checked against these limits before any work that grows with
the value, and a value beyond a limit raises a :class:`~qe_rules.RulesError` whose message
names the limit. The limits are far above anything a real game needs.

>>> from qe_rules import limits
>>> limits.MAX_BID, limits.MAX_TABLE_COUNT
(1000000, 64)
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "GAME_ROUNDS_CHECKED",
    "GAME_ROUNDS_COMPARED",
    "MAX_BATCH_GAMES",
    "MAX_BID",
    "MAX_ENV_ROUNDS",
    "MAX_EXTENDS_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_MOVES",
    "MAX_NESTING",
    "MAX_SEED_BITS",
    "MAX_TABLE_COUNT",
    "MAX_TEXT_LENGTH",
    "MAX_TIES_BEFORE_FALLBACK",
    "MAX_VECTOR_ENVS",
    "ROUNDS_PER_SALE",
]

MAX_BID: Final = 1_000_000
"""The largest amount a bid may name (opening bids, secret bids and rebids), and the
largest minimum bid a rule set may set. Spends, sums of winning bids, stay below
``21 * MAX_BID``."""

MAX_TABLE_COUNT: Final = 64
"""The largest count a scoring table may name (a real game reaches 22: 21 tiles and a
token), and the largest value of any other count field of a rule set."""

MAX_TIES_BEFORE_FALLBACK: Final = 10
"""The most ties in a row a rule set may allow before its tie fallback decides."""

MAX_EXTENDS_DEPTH: Final = 16
"""The longest chain of rule files that ``extends`` one another."""

MAX_FILE_BYTES: Final = 1_048_576
"""The largest rule file, game record or score file the library reads (1 MiB)."""

MAX_MOVES: Final = 10_000
"""The most moves a game record may hold."""

MAX_NESTING: Final = 64
"""The deepest nesting of lists and tables accepted anywhere in input data."""

MAX_TEXT_LENGTH: Final = 10_000
"""The longest string accepted in a field of input data (an id, a title, a citation)."""

MAX_SEED_BITS: Final = 1024
"""The most bits of a whole-number seed of a game's deal (``new_game``), either way (far
more than a seed needs; a run's seed is at most 2**63 - 1 either way)."""


# Sizes of what is made at once: checked before the arrays are made.

MAX_BATCH_GAMES: Final = 10_000_000
"""The most games one ``qe_rules.batch.play`` returns arrays for (about 210 bytes a game,
so about 2 GB at most); ``simulate(..., engine="batch")`` sums any number of games
without keeping them."""

MAX_VECTOR_ENVS: Final = 65_536
"""The most games one ``BatchVectorEnv`` steps together (about 27 kB a game of 5 players,
so about 1.8 GB at most)."""


# Round caps: a rule set without a tie fallback can tie forever, so every loop that plays
# games for the caller stops after a bounded number of bidding rounds.

ROUNDS_PER_SALE: Final = 100
"""The bidding rounds one sale may take before a simulated game is given up; the learning
environments truncate after as many by default."""

MAX_ENV_ROUNDS: Final = 100 * ROUNDS_PER_SALE
"""The largest ``max_rounds`` (bidding rounds of one sale) a learning environment takes."""

GAME_ROUNDS_CHECKED: Final = 200
"""The bidding rounds (an opening bid counts as one) a random game of the verifier's
property checks may take before it is left out; a game of 5 players without ties takes
42."""

GAME_ROUNDS_COMPARED: Final = 400
"""The bidding rounds a game of the verifier's reading comparisons may take before it is
stopped (and described as stopped, not ended)."""
