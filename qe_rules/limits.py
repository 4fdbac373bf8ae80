"""The limits the library sets on untrusted input.

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
    "MAX_BID",
    "MAX_EXTENDS_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_MOVES",
    "MAX_NESTING",
    "MAX_TABLE_COUNT",
    "MAX_TEXT_LENGTH",
    "MAX_TIES_BEFORE_FALLBACK",
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
