"""The batched engine (extra ``[batch]``: numpy and numba): the public path ``qe_rules.batch``.

``batch.play(ruleset, players, games, agents=..., seed=...)`` plays many games in lockstep
and returns a :class:`Batch` of numpy arrays; ``Batch.record(i)`` is game ``i`` as an
ordinary record, ``Batch.stats()`` the statistics ``simulate`` gives. Everything is defined
in :mod:`qe_rules.simulation.batch`; this module re-exports its public names.

>>> from qe_rules import batch
>>> played = batch.play("en", 4, 100, agents="random", seed=1)
>>> played.games, played.totals.shape
(100, (100, 4))
"""

from qe_rules._util.extras import require_extra
from qe_rules.simulation.batch.choice import BATCH_PACKAGES

require_extra("batch", *BATCH_PACKAGES)

from qe_rules.simulation.batch.agents import (
    BATCH_AGENTS,
    BatchAgent,
    BidAsk,
    FloorBids,
    PeekAsk,
    PolicyBids,
    RandomBids,
    ValueBids,
    ZeroBids,
)
from qe_rules.simulation.batch.chunks import CHUNK
from qe_rules.simulation.batch.compiled import FIELD_USE, GAP_ORDER, compile_rules
from qe_rules.simulation.batch.outcome import Batch, play

__all__ = [
    "BATCH_AGENTS",
    "CHUNK",
    "FIELD_USE",
    "GAP_ORDER",
    "Batch",
    "BatchAgent",
    "BidAsk",
    "FloorBids",
    "PeekAsk",
    "PolicyBids",
    "RandomBids",
    "ValueBids",
    "ZeroBids",
    "compile_rules",
    "play",
]
