"""The verifier's report: what each check found (:class:`Finding`), how far it searched
(:class:`Coverage`), the concrete case it shows (:class:`Example`), and the whole
:class:`VerificationReport` with its text and Markdown renderings.

``holds``, ``violated`` and ``gap_finding`` make the findings of the checks; they are
internal to the package.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any

import attrs

from qe_rules.rules.model import RuleSet

__all__ = ["Coverage", "Example", "Finding", "Verdict", "VerificationReport"]


class Verdict(enum.Enum):
    """The outcome of one check."""

    HOLDS = "holds"
    GAP = "gap"
    VIOLATED = "violated"
    DIFFERS = "differs"
    """The readings of an open question lead to different outcomes (an example shows
    one); the rule set's choice of reading matters."""


@attrs.frozen
class Example:
    """A concrete case: a game record (``kind="game"``, for :func:`qe_rules.replay`) or a
    score file (``kind="scoring"``, for ``qe-rules score``), as JSON types."""

    kind: str
    data: dict[str, Any]


@attrs.frozen
class Coverage:
    """How much a check searched: ``exhaustive`` when the finding is a proof within the
    stated ``bounds``, otherwise a sample of ``size`` cases (games, plans or bid paths).
    ``size`` counts the cases an exhaustive search went through, where it counts them.

    >>> Coverage(exhaustive=False, size=60, bounds="random games").text()
    'sampled: 60 random games'
    """

    exhaustive: bool
    size: int | None
    bounds: str

    def text(self) -> str:
        """One line: exhaustive or sampled, the size and the bounds."""
        if self.exhaustive:
            size = "" if self.size is None else f"{self.size} cases, "
            return f"exhaustive: {size}{self.bounds}"
        return f"sampled: {self.size} {self.bounds}"

    def to_dict(self) -> dict[str, Any]:
        """The coverage as JSON types."""
        return {"exhaustive": self.exhaustive, "size": self.size, "bounds": self.bounds}


@attrs.frozen
class Finding:
    """One result of one check.

    ``gap`` is the rule-gap code for a gap (see ``qe.GAP_CODES``); ``acknowledged`` tells
    whether the rule set's interpretations acknowledge it. ``players`` is the player count
    the finding is about, if any. ``coverage`` says whether the check was exhaustive (a
    proof within its bounds) or sampled, and how large its search was.
    """

    check: str
    verdict: Verdict
    summary: str
    fields: tuple[str, ...] = ()
    players: int | None = None
    gap: str | None = None
    acknowledged: bool = False
    example: Example | None = None
    coverage: Coverage | None = None

    def to_dict(self) -> dict[str, Any]:
        """The finding as JSON types."""
        return {
            "check": self.check,
            "verdict": self.verdict.value,
            "summary": self.summary,
            "fields": list(self.fields),
            "players": self.players,
            "gap": self.gap,
            "acknowledged": self.acknowledged,
            "example": None
            if self.example is None
            else {"kind": self.example.kind, "data": self.example.data},
            "coverage": None if self.coverage is None else self.coverage.to_dict(),
        }


@attrs.frozen
class VerificationReport:
    """Every finding of the verifier for one rule set."""

    ruleset: str
    findings: tuple[Finding, ...]

    @property
    def gaps(self) -> tuple[Finding, ...]:
        """All gaps, acknowledged or not."""
        return tuple(f for f in self.findings if f.verdict is Verdict.GAP)

    @property
    def new_gaps(self) -> tuple[Finding, ...]:
        """Gaps the rule set does not acknowledge."""
        return tuple(f for f in self.gaps if not f.acknowledged)

    @property
    def violations(self) -> tuple[Finding, ...]:
        """Properties that do not hold."""
        return tuple(f for f in self.findings if f.verdict is Verdict.VIOLATED)

    @property
    def ok(self) -> bool:
        """True when every finding holds or is an acknowledged gap."""
        return not self.new_gaps and not self.violations

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON types."""
        return {
            "ruleset": self.ruleset,
            "ok": self.ok,
            "findings": [f.to_dict() for f in self.findings],
        }

    def _headline(self) -> str:
        gaps, new = len(self.gaps), len(self.new_gaps)
        state = "OK" if self.ok else "NOT OK"
        return (
            f"{state}: {len(self.findings)} findings, {gaps} gap{'s' * (gaps != 1)} "
            f"({gaps - new} acknowledged, {new} new), {len(self.violations)} violated"
        )

    def to_text(self) -> str:
        """The report as plain text: one line per finding; gaps say whether the rule set
        acknowledges them."""
        width = max((len(f.check) for f in self.findings), default=0)
        lines = [f"Verification of {self.ruleset}: {self._headline()}"]
        for finding in self.findings:
            verdict = finding.verdict.value
            note = ""
            if finding.gap:
                status = "acknowledged" if finding.acknowledged else "NEW"
                note = f" [{finding.gap}, {status}]"
            lines.append(f"  {verdict:<8}  {finding.check:<{width}}  {finding.summary}{note}")
            if finding.example is not None and finding.verdict is not Verdict.HOLDS:
                lines.append(f"  {'':<8}  {'':<{width}}  example: {_example_text(finding.example)}")
            if finding.coverage is not None:
                lines.append(f"  {'':<8}  {'':<{width}}  {finding.coverage.text()}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()

    def to_markdown(self) -> str:
        """The report as a Markdown section with a table of findings."""
        lines = [
            f"## `{self.ruleset}`",
            "",
            self._headline() + ".",
            "",
            "| check | players | verdict | finding | search |",
            "|---|---|---|---|---|",
        ]
        for finding in self.findings:
            verdict = finding.verdict.value
            if finding.gap:
                verdict += f" `{finding.gap}`" + (
                    " (acknowledged)" if finding.acknowledged else " (**new**)"
                )
            players = "" if finding.players is None else str(finding.players)
            text = finding.summary.replace("|", "\\|")
            if finding.example is not None and finding.verdict is not Verdict.HOLDS:
                text += f"<br>Example: {_example_text(finding.example)}"
            searched = "" if finding.coverage is None else finding.coverage.text()
            lines.append(f"| `{finding.check}` | {players} | {verdict} | {text} | {searched} |")
        return "\n".join(lines) + "\n"


def _example_text(example: Example) -> str:
    """A short description of an example: the moves of a short game record, or the
    holdings of a score file."""
    data = example.data
    if example.kind == "scoring":
        first = data["players"][0]
        return f"seat 0 ({first['nation']}, token {first['industry']}) holds " + ", ".join(
            first["companies"]
        )
    moves = data["moves"]
    if len(moves) > 24:
        return (
            f"a complete {data['players']}-player game of {len(moves)} moves "
            "(the game record is in the JSON report)"
        )
    bids = " ".join(f"{m['seat']}:{m['amount']}" for m in moves if "amount" in m)
    return (
        f"{data['players']} players, first auctioneer {data['first_auctioneer']}, "
        f"bids (seat:amount) {bids}"
    )


def holds(
    check: str,
    summary: str,
    fields: Sequence[str],
    players: int | None = None,
    example: Example | None = None,
    coverage: Coverage | None = None,
) -> Finding:
    """A finding that holds (internal to the package)."""
    return Finding(
        check, Verdict.HOLDS, summary, tuple(fields), players, example=example, coverage=coverage
    )


def violated(
    check: str,
    summary: str,
    fields: Sequence[str],
    players: int | None = None,
    example: Example | None = None,
    coverage: Coverage | None = None,
) -> Finding:
    """A violation (internal to the package)."""
    return Finding(
        check, Verdict.VIOLATED, summary, tuple(fields), players, example=example, coverage=coverage
    )


def gap_finding(
    rules: RuleSet,
    check: str,
    code: str,
    summary: str,
    fields: Sequence[str],
    players: int | None,
    example: Example | None,
    coverage: Coverage | None = None,
) -> Finding:
    """A gap of code ``code``, acknowledged when the rule set acknowledges it (internal
    to the package)."""
    return Finding(
        check,
        Verdict.GAP,
        summary,
        tuple(fields),
        players,
        code,
        code in rules.acknowledged_gaps,
        example,
        coverage,
    )
