"""The pieces of the simulation's plain-text reports: percentages, intervals, labels."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["interval_text", "labelled", "percent", "share_text"]


def percent(share: float) -> str:
    """``share`` as a percentage with one decimal."""
    return f"{share * 100:.1f}%"


def interval_text(interval: tuple[float, float]) -> str:
    """A 95% interval as ``low-high%``."""
    low, high = interval
    return f"{low * 100:.1f}-{high * 100:.1f}%"


def share_text(share: float, interval: tuple[float, float]) -> str:
    """A share of games with its 95% interval."""
    return f"{percent(share)} of games (95% interval {interval_text(interval)})"


def labelled(pairs: Sequence[tuple[str, str]]) -> list[str]:
    """Label and value pairs as lines, the values lined up."""
    width = max(len(label) for label, _ in pairs)
    return [f"{label.ljust(width)}  {value}" for label, value in pairs]
