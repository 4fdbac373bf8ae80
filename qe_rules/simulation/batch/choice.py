"""Which engine plays a run: ``engine="auto" | "batch" | "reference"`` of ``simulate`` and
``compare``. This module loads no numpy: it only decides.

>>> from qe_rules.simulation.batch.choice import uses_batch
>>> uses_batch("reference", ("random",) * 4)
False
>>> uses_batch("auto", ("random", "zero", "random", "random")) == batch_available()
True
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from typing import Final

from qe_rules.errors import InvalidArgument, shown

__all__ = ["BATCHED_NAMES", "BATCH_PACKAGES", "ENGINES", "batch_available", "uses_batch"]

ENGINES: Final = ("auto", "batch", "reference")
"""The engines a run may ask for."""

BATCHED_NAMES: Final = ("random", "zero", "floor", "value", "trained", "ppo", "adaptive")
"""The agent names with a batched form (``qe_rules.batch.BATCH_AGENTS``)."""


BATCH_PACKAGES: Final = ("numpy", "numba")
"""What the batched engine imports (the ``batch`` extra): numpy, and numba for its loops."""


def batch_available() -> bool:
    """Whether the packages the batched engine needs (:data:`BATCH_PACKAGES`) are installed."""
    return all(importlib.util.find_spec(package) is not None for package in BATCH_PACKAGES)


def uses_batch(engine: object, specs: Sequence[object]) -> bool:
    """Whether a run with these agents plays on the batch: ``"batch"`` always (raising
    when it cannot), ``"auto"`` when its packages are installed and every agent is named and has
    a batched form. (Per-game rows, worker processes and executors work on either
    engine.)"""
    if engine not in ENGINES:
        raise InvalidArgument(
            f"engine is one of {', '.join(map(repr, ENGINES))}, got {shown(engine)}"
        )
    if engine == "reference":
        return False
    batched = all(isinstance(spec, str) and spec in BATCHED_NAMES for spec in specs)
    if engine == "auto":
        return batched and batch_available()
    if not batch_available():
        raise InvalidArgument(
            f"engine='batch' needs {' and '.join(BATCH_PACKAGES)}: pip install 'qe-rules[batch]'"
        )
    if not batched:
        raise InvalidArgument(
            f"engine='batch' plays only the agents {', '.join(BATCHED_NAMES)}; got "
            f"{', '.join(map(shown, specs))} (engine='auto' falls back to the reference engine)"
        )
    return True
