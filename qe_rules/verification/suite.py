"""The verifier's entry point: search a rule set for the situations its text leaves open.

``qe.verify(ruleset)`` runs a fixed list of checks and returns a
:class:`VerificationReport`. Each :class:`Finding` says whether a property *holds*, is a
*gap* (the rules decide nothing; a concrete example shows the situation) or is *violated*
(the rule set contradicts itself, or the engine breaks a property). A gap the rule set's
interpretations acknowledge is *acknowledged*; any other gap is *new*.

>>> import qe_rules as qe
>>> report = qe.verify("en")
>>> sorted({f.gap for f in report.gaps})
['everyone-eliminated', 'monopolization-beyond-table', 'tie-after-tiebreak']
>>> report.ok, [f.gap for f in report.new_gaps]
(True, [])

The checks are deterministic: the same rule set always gives the same report. Each
finding's :class:`Coverage` says whether its check is exhaustive (a proof within the
stated bounds) or sampled, with the sample size.

- ``deck-size``, ``deck-nations``, ``deck-industries``: the deck of every player count has
  the size the text states, and holds only nations and industries in play.
- ``table-coverage``: every scoring table covers every count a player can reach.
- ``sale-outcomes``: every sale ends with one owner or a non-award the text decides; a
  complete search of one sale by the order type of its bids (which bids are equal, which
  higher, against each other, the opening bid and the thresholds: zero and the two
  minimums), through every tie and rebid path, for every player count; a sale's outcome
  depends on nothing else, so one amount per order type stands for every amount. The
  search settles at most
  :data:`~qe_rules.verification.sale_search.SALE_SEARCH_PATHS` paths per auctioneer seat, and
  looks at most :data:`~qe_rules.verification.sale_search.CANDIDATES_PER_PATH` bid rounds per
  path of that bound (the built-in rule sets need fewer); beyond that, for example with many ties before the
  fallback, it keeps the first paths of every bidding round up to the fallback and its
  finding's coverage says it was sampled. Auctioneer seat 0 stands for every seat
  (``thorough=True`` searches each). A settlement that breaks a property (an award for an
  amount never bid, while tied without the fallback, or to a bid that is not the
  highest; a rebid by nobody) is a violation whose example holds the bids of that sale.
- ``last-tile``: how the auctioneer-less last tile ends; a violation when a tie there
  sells nothing against ``last_tile_tie_awards_nothing``, or never does despite it.
- ``one-winner``: every finished game names one winner; otherwise the first game found in
  a fixed search order (fewest players first) where it does not.
- ``zero-bid-limit``, ``score-sums``: over many random games, zero-bid points stay within
  the per-round limit and every total is the sum of its categories.
- ``reading:<field>``: for each open question (:func:`qe_rules.open_questions`), each
  other reading against the rule set's own, in the same games of small random bids: a
  finding *differs* when the reading changes an award, a price, a zero-bid scoring, the
  scores or the winner, with the game under the other reading cut after the first sale
  that differs (or whole, when only the scores differ) as its example.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from typing import Final

from qe_rules._util.deprecation import renamed
from qe_rules._util.reading import MAX_INTEGER
from qe_rules.errors import InvalidArgument, shown
from qe_rules.rules.model import RuleSet, get_ruleset
from qe_rules.texts.questions import open_questions
from qe_rules.verification.games import property_checks, winner_checks
from qe_rules.verification.readings import reading_checks
from qe_rules.verification.report import Finding, VerificationReport
from qe_rules.verification.sale_search import sale_checks
from qe_rules.verification.static import static_checks

__all__ = ["check_names", "checks", "verify"]

_CHECKS: Final[tuple[tuple[tuple[str, ...], Callable[[RuleSet, bool], Iterator[Finding]]], ...]] = (
    (("deck-size", "deck-nations", "deck-industries", "table-coverage"), static_checks),
    (("sale-outcomes", "last-tile"), sale_checks),
    (("one-winner",), winner_checks),
)
"""Each group of checks, by the names of its findings, and the function that runs it
(given the rule set and whether the search is thorough)."""

_PROPERTY_CHECKS: Final = ("zero-bid-limit", "score-sums")


def checks() -> tuple[str, ...]:
    """The checks :func:`verify` runs, by name (the names ``verify(checks=...)`` takes),
    ``reading:<field>`` once per open question.

    >>> checks()[:3]
    ('deck-size', 'deck-nations', 'deck-industries')
    """
    fixed = [name for names, _ in _CHECKS for name in names]
    readings = [f"reading:{question.field}" for question in open_questions()]
    return (*fixed, *_PROPERTY_CHECKS, *readings)


def _wanted(names: object) -> frozenset[str]:
    """The checks ``verify(checks=...)`` names, each one of :func:`checks`."""
    if isinstance(names, str | bytes) or not isinstance(names, Collection):
        raise InvalidArgument(
            f"checks is a list of check names (qe_rules.checks()) or None, got {shown(names)}"
        )
    known = checks()
    if len(names) > len(known):
        raise InvalidArgument(f"checks names at most the {len(known)} checks, got {len(names)}")
    for name in names:
        if not isinstance(name, str) or name not in known:
            raise InvalidArgument(f"unknown check {shown(name)}; the checks are {', '.join(known)}")
    return frozenset(names)


def check_names() -> tuple[str, ...]:
    """Deprecated: the former name of :func:`checks`, which it returns."""
    renamed("qe_rules.check_names()", "qe_rules.checks()")
    return checks()


def verify(
    ruleset: RuleSet | str,
    *,
    random_games: int = 60,
    checks: Collection[str] | None = None,
    thorough: bool = False,
) -> VerificationReport:
    """Run every check on a rule set (a ``RuleSet`` or a built-in id).

    ``random_games`` is how many random games per player count the property checks play.
    ``checks``, if given, names the checks to run (from :func:`checks`); the report
    then holds only their findings. Checks that are computed together still run together.
    ``thorough`` searches sales from every auctioneer seat (not only seat 0, which stands
    for all of them) with a larger bound on paths (:data:`~qe_rules.verification.sale_search.THOROUGH_SALE_SEARCH_PATHS`).
    Each finding's ``coverage`` says whether its check was exhaustive or sampled.
    """
    if not isinstance(ruleset, RuleSet | str):
        raise InvalidArgument(f"ruleset is a RuleSet or a rule set id, got {shown(ruleset)}")
    rules = get_ruleset(ruleset)
    if type(random_games) is not int or not 0 <= random_games <= MAX_INTEGER:
        raise InvalidArgument(
            f"random_games is a whole number (int) from 0 to {MAX_INTEGER}, got {shown(random_games)}"
        )
    if type(thorough) is not bool:
        raise InvalidArgument(f"thorough is True or False, got {shown(thorough)}")
    wanted = None if checks is None else _wanted(checks)

    def chosen(names: Sequence[str]) -> bool:
        return wanted is None or not wanted.isdisjoint(names)

    findings: list[Finding] = []
    for names, check in _CHECKS:
        if chosen(names):
            findings.extend(check(rules, thorough))
    reading_fields = None if wanted is None else {w[len("reading:") :] for w in wanted}
    findings.extend(reading_checks(rules, reading_fields))
    if chosen(_PROPERTY_CHECKS):
        findings.extend(property_checks(rules, random_games))
    if wanted is not None:
        findings = [f for f in findings if f.check in wanted]
    return VerificationReport(rules.id, tuple(findings))
