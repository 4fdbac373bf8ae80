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
from qe_rules.rules.model import PeekTiming, RuleSet

__all__ = ["BATCHED_NAMES", "ENGINES", "batch_available", "batch_refusal", "uses_batch"]

ENGINES: Final = ("auto", "batch", "reference")
"""The engines a run may ask for."""

BATCHED_NAMES: Final = ("random", "zero", "floor", "value")
"""The agent names with a batched form (``qe_rules.batch.BATCH_AGENTS``)."""


def batch_available() -> bool:
    """Whether numpy, which the batched engine needs, is installed."""
    return importlib.util.find_spec("numpy") is not None


def batch_refusal(rules: RuleSet) -> str | None:
    """Why the batch cannot play ``rules`` (naming the field and the values it plays), or
    ``None`` when it can. The batch plays ``peek_timing=last-sale`` only."""
    if rules.peek_timing is not PeekTiming.LAST_SALE:
        return (
            f"the batch plays peek_timing={PeekTiming.LAST_SALE.value} only, and {rules.id} "
            f"has peek_timing={rules.peek_timing.value}; use the reference engine "
            "(engine='auto' falls back to it)"
        )
    return None


def uses_batch(
    engine: object,
    specs: Sequence[object],
    *,
    rows: bool = False,
    executor: object = None,
    rulesets: Sequence[RuleSet] = (),
) -> bool:
    """Whether a run with these agents and ``rulesets`` plays on the batch: ``"batch"``
    always (raising when it cannot), ``"auto"`` when numpy is installed, every agent is
    named and has a batched form, the batch plays every rule set (:func:`batch_refusal`),
    and no per-game rows or executor are asked for."""
    if engine not in ENGINES:
        raise InvalidArgument(
            f"engine is one of {', '.join(map(repr, ENGINES))}, got {shown(engine)}"
        )
    if engine == "reference":
        return False
    batched = all(isinstance(spec, str) and spec in BATCHED_NAMES for spec in specs)
    refusals = [reason for rules in rulesets if (reason := batch_refusal(rules)) is not None]
    if engine == "auto":
        return batched and not refusals and not rows and executor is None and batch_available()
    if refusals:
        raise InvalidArgument(f"engine='batch': {refusals[0]}")
    if not batch_available():
        raise InvalidArgument("engine='batch' needs numpy: pip install 'qe-rules[batch]'")
    if not batched:
        raise InvalidArgument(
            f"engine='batch' plays only the agents {', '.join(BATCHED_NAMES)}; got "
            f"{', '.join(map(shown, specs))} (engine='auto' falls back to the reference engine)"
        )
    if rows or executor is not None:
        raise InvalidArgument(
            "engine='batch' keeps no per-game rows and runs in this process (no executor); "
            "use engine='reference' for those"
        )
    return True
