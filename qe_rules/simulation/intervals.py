"""Shares of games and their 95% Wilson score intervals.

A share such as "the winner changed in 12 of 1,000 games" is a count out of a total;
:func:`wilson_interval` gives the range in which the true share lies with 95%
confidence, and :class:`Share` keeps the count, the total and both figures together.

>>> from qe_rules.simulation.intervals import Share, wilson_interval
>>> low, high = wilson_interval(12, 1000)
>>> round(low, 4), round(high, 4)
(0.0069, 0.0209)
>>> Share(12, 1000).to_dict()["ci95"] == [low, high]
True

The Wilson interval stays inside [0, 1] and is sound for shares near 0 or 1 and for
small totals, where the textbook normal interval is not (Wilson, 1927; Brown, Cai and
DasGupta, *Interval Estimation for a Binomial Proportion*, 2001).
"""

from __future__ import annotations

import math
from typing import Any, Final

import attrs

from qe_rules._util.reading import MAX_INTEGER, Fields, at_most, whole
from qe_rules.errors import InvalidArgument, shown

__all__ = ["Z95", "Share", "wilson_interval"]

Z95: Final = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""

_MOST_Z: Final = 40.0  # beyond any confidence a float can tell from 1


def wilson_interval(count: int, total: int, *, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval ``(low, high)`` of the share ``count / total``.

    ``z`` sets the confidence (the default, :data:`Z95`, gives 95%). With ``total`` 0
    nothing is known and the interval is ``(0.0, 1.0)``.

    >>> wilson_interval(0, 10)[0], wilson_interval(10, 10)[1]
    (0.0, 1.0)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if type(count) is not int or type(total) is not int or not 0 <= count <= total:
        raise InvalidArgument(
            f"a share is a whole count between 0 and its total, got {shown(count)} "
            f"of {shown(total)}"
        )
    if total > MAX_INTEGER:
        raise InvalidArgument(f"a share's total is at most {MAX_INTEGER}, got {shown(total)}")
    if type(z) not in (int, float) or not 0 < z <= _MOST_Z:
        raise InvalidArgument(
            f"z is a number above 0 and at most {_MOST_Z} (1.96 gives 95%), got {shown(z)}"
        )
    if total == 0:
        return 0.0, 1.0
    share = count / total
    z2 = z * z
    centre = share + z2 / (2 * total)
    spread = z * math.sqrt(share * (1 - share) / total + z2 / (4 * total * total))
    scale = 1 + z2 / total
    # at 0 and at the total the exact bound is 0 or 1; rounding must not move it
    low = 0.0 if count == 0 else max(0.0, (centre - spread) / scale)
    high = 1.0 if count == total else min(1.0, (centre + spread) / scale)
    return low, high


@attrs.frozen
class Share:
    """``count`` out of ``total``, with the share and its 95% Wilson interval.

    ``parts`` splits the share evenly, as for an agent that holds several seats: the
    value and the interval are divided by it (the count is still out of ``total``).
    Shares of the same thing from separate runs add up: ``a + b``.

    >>> share = Share(3, 40) + Share(5, 60)
    >>> share, share.value
    (Share(count=8, total=100, parts=1), 0.08)
    """

    count: int
    total: int
    parts: int = attrs.field(default=1, kw_only=True)

    def __attrs_post_init__(self) -> None:
        wilson_interval(self.count, self.total)  # raises for a count beyond the total
        if type(self.parts) is not int or not 1 <= self.parts <= MAX_INTEGER:
            raise InvalidArgument(
                f"parts is a whole number from 1 to {MAX_INTEGER}, got {shown(self.parts)}"
            )

    @property
    def value(self) -> float:
        """The share, ``count / total / parts`` (0.0 when the total is 0)."""
        return self.count / (self.total * self.parts) if self.total else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% Wilson interval of :attr:`value`."""
        low, high = wilson_interval(self.count, self.total)
        return low / self.parts, high / self.parts

    def __add__(self, other: Share) -> Share:
        if not isinstance(other, Share) or other.parts != self.parts:
            return NotImplemented
        return Share(self.count + other.count, self.total + other.total, parts=self.parts)

    def to_dict(self) -> dict[str, Any]:
        """The share as JSON types: ``count``, ``total``, ``share`` and ``ci95: [low, high]``
        (and ``parts`` when not 1)."""
        data: dict[str, Any] = {"count": self.count, "total": self.total}
        if self.parts != 1:
            data["parts"] = self.parts
        return {**data, "share": self.value, "ci95": list(self.ci95)}

    @classmethod
    def from_dict(cls, data: Any, where: str = "share") -> Share:
        """The share from :meth:`to_dict` (the computed figures are computed again and,
        where given, must equal those); raises :class:`~qe_rules.InvalidArgument` naming
        the key that is missing, unknown or wrong."""
        fields = Fields(data, where, ("count", "total"), ("parts", "share", "ci95"))
        share = cls(
            fields.get("count", whole),
            fields.get("total", whole),
            parts=fields.get("parts", _parts, 1),
        )
        computed = share.to_dict()
        for key in ("share", "ci95"):
            if key in fields.data and fields.data[key] != computed[key]:
                raise InvalidArgument(
                    f"{where}.{key} differs from the figure computed from the counts"
                )
        return share


_parts = at_most(MAX_INTEGER, least=1)
