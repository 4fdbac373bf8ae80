"""The verifier: search a rule set for the situations its text leaves open.

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
  search settles at most :data:`SALE_SEARCH_PATHS` paths per auctioneer seat (the
  built-in rule sets need fewer); beyond that, for example with many ties before the
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

import bisect
import enum
import itertools
import random
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from typing import Any, Final

import attrs

from qe_rules.components import Industry
from qe_rules.errors import RulesError
from qe_rules.game.engine import Game, new_game, replay
from qe_rules.game.events import Awarded, NotAwarded, ZeroBids
from qe_rules.game.sales import Award, NoAward, Outcome, Rebid, limits_of, settle
from qe_rules.game.scoring import PlayerRecord
from qe_rules.game.views import Phase
from qe_rules.limits import (
    GAME_ROUNDS_CHECKED,
    GAME_ROUNDS_COMPARED,
    MAX_BID,
    MAX_TIES_BEFORE_FALLBACK,
)
from qe_rules.rules.model import (
    Category,
    RuleSet,
    TieFallback,
    TieStreak,
    UniqueBidPool,
    get_ruleset,
)
from qe_rules.texts.questions import open_questions
from qe_rules.texts.reports import GENERATED_NOTE

__all__ = ["Coverage", "Example", "Finding", "Verdict", "VerificationReport", "verify"]


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


_FROM_DATA: Final = Coverage(True, None, "read from the rule set's data for every player count")


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
        width = max(len(f.check) for f in self.findings)
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


# --------------------------------------------------------------------------- static checks


def _holds(
    check: str,
    summary: str,
    fields: Sequence[str],
    players: int | None = None,
    example: Example | None = None,
    coverage: Coverage | None = None,
) -> Finding:
    return Finding(
        check, Verdict.HOLDS, summary, tuple(fields), players, example=example, coverage=coverage
    )


def _violated(
    check: str,
    summary: str,
    fields: Sequence[str],
    players: int | None = None,
    example: Example | None = None,
    coverage: Coverage | None = None,
) -> Finding:
    return Finding(
        check, Verdict.VIOLATED, summary, tuple(fields), players, example=example, coverage=coverage
    )


def _gap(
    rules: RuleSet,
    check: str,
    code: str,
    summary: str,
    fields: Sequence[str],
    players: int | None,
    example: Example | None,
    coverage: Coverage | None = None,
) -> Finding:
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


def _static_checks(rules: RuleSet, thorough: bool) -> Iterator[Finding]:
    """The deck and table checks: computed from the rule set's data, so exhaustive."""
    for finding in _deck_and_table_checks(rules):
        yield attrs.evolve(finding, coverage=_FROM_DATA)


def _deck_and_table_checks(rules: RuleSet) -> Iterator[Finding]:
    for players in rules.player_counts:
        deck = rules.companies(players)
        stated = rules.deck_sizes[players]
        if len(deck) == stated:
            yield _holds(
                "deck-size",
                f"{players} players: the removals leave {stated} tiles, as stated",
                ("removed_companies", "deck_sizes"),
                players,
            )
        else:
            yield _violated(
                "deck-size",
                f"{players} players: the removals leave {len(deck)} tiles, but the text "
                f"states {stated}",
                ("removed_companies", "deck_sizes"),
                players,
            )
        stray = sorted({c.nation.code for c in deck} - {n.code for n in rules.nations(players)})
        if stray:
            yield _violated(
                "deck-nations",
                f"{players} players: the deck holds tiles of {', '.join(stray)}, a nation "
                "nobody plays",
                ("removed_companies", "nations_in_play"),
                players,
            )
        else:
            yield _holds(
                "deck-nations",
                f"{players} players: every tile belongs to a nation in play",
                ("removed_companies", "nations_in_play"),
                players,
            )
        stray = sorted(
            {c.industry.label for c in deck} - {i.label for i in rules.industries(players)}
        )
        if stray:
            yield _violated(
                "deck-industries",
                f"{players} players: the deck holds {', '.join(stray)} tiles, but no "
                "token of that industry is in play",
                ("removed_companies", "industries_in_play"),
                players,
            )
        else:
            yield _holds(
                "deck-industries",
                f"{players} players: every tile's industry has a token in play",
                ("removed_companies", "industries_in_play"),
                players,
            )
        yield from _table_coverage(rules, players)


def _score_example(rules: RuleSet, players: int, first: PlayerRecord) -> Example:
    """A score file: seat 0 is ``first``; the others hold nothing, seat 1 spends most."""
    nations = [n for n in rules.nations(players) if n is not first.nation]
    tokens = [i for i in rules.industries(players) if i is not first.industry]
    records = [first] + [
        PlayerRecord(nations[seat], tokens[seat], (), 3 if seat == 0 else 2)
        for seat in range(players - 1)
    ]
    return Example(
        "scoring",
        {
            "ruleset": rules.id,
            "players": [r.to_dict() for r in records],
        },
    )


def _table_coverage(rules: RuleSet, players: int) -> Iterator[Finding]:
    deck = rules.companies(players)
    tokens = rules.industries(players)

    # nationalization: the most tiles of one nation a player can hold
    nation, count = max(
        ((n, sum(1 for c in deck if c.nation is n)) for n in rules.nations(players)),
        key=lambda item: item[1],
    )
    top = max(rules.nationalization[players])
    if count > top:
        held = tuple(c for c in deck if c.nation is nation)
        record = PlayerRecord(nation, tokens[0], held, 1)
        yield _gap(
            rules,
            "table-coverage",
            "nationalization-beyond-table",
            f"{players} players: a player can hold {count} tiles of their nation "
            f"({nation.code}), the nationalization table stops at {top}",
            ("nationalization", "beyond_table"),
            players,
            _score_example(rules, players, record),
        )
    else:
        yield _holds(
            "table-coverage",
            f"{players} players: nationalization covers up to {count} tiles of one nation",
            ("nationalization",),
            players,
        )

    # monopolization: the most items of one industry (tiles, and the token if it counts)
    token_counts = Category.MONOPOLIZATION in rules.token_categories

    def reach(industry: Industry) -> int:
        tiles = sum(1 for c in deck if c.industry is industry)
        return tiles + (1 if token_counts and industry in tokens else 0)

    industry = max(Industry, key=reach)
    count = reach(industry)
    top = max(rules.monopolization[players])
    if count > top:
        held = tuple(c for c in deck if c.industry is industry)
        token = industry if token_counts and industry in tokens else tokens[0]
        record = PlayerRecord(held[0].nation, token, held, 1)
        yield _gap(
            rules,
            "table-coverage",
            "monopolization-beyond-table",
            f"{players} players: a player can hold {count} of one industry "
            f"({industry.label}: {count - (1 if token_counts else 0)} tiles"
            f"{' and the token' if token_counts else ''}), the monopolization table stops "
            f"at {top}",
            ("monopolization", "token_categories", "beyond_table"),
            players,
            _score_example(rules, players, record),
        )
    else:
        yield _holds(
            "table-coverage",
            f"{players} players: monopolization covers up to {count} of one industry",
            ("monopolization", "token_categories"),
            players,
        )

    # diversification: the most distinct industries a player can hold
    in_deck = {c.industry for c in deck}
    token_div = Category.DIVERSIFICATION in rules.token_categories
    reachable = in_deck | (set(tokens) if token_div else set())
    top = max(rules.diversification[players])
    if len(reachable) > top:
        held = tuple(next(c for c in deck if c.industry is i) for i in Industry if i in in_deck)
        missing = [i for i in tokens if i not in in_deck]
        token = missing[0] if token_div and missing else tokens[0]
        record = PlayerRecord(held[0].nation, token, held, 1)
        yield _gap(
            rules,
            "table-coverage",
            "diversification-beyond-table",
            f"{players} players: a player can hold {len(reachable)} distinct industries, "
            f"the diversification table stops at {top}",
            ("diversification", "token_categories", "beyond_table"),
            players,
            _score_example(rules, players, record),
        )
    else:
        yield _holds(
            "table-coverage",
            f"{players} players: diversification covers sets of up to {len(reachable)} industries",
            ("diversification", "token_categories"),
            players,
        )


# --------------------------------------------------------------------------- sales

SALE_SEARCH_PATHS: Final = 40_000
"""The most bid paths (order types) the sale search settles per player count and
auctioneer seat; the built-in rule sets need at most 10,402 (``en-early``, 5 players)."""
THOROUGH_SALE_SEARCH_PATHS: Final = 250_000
"""The same bound for ``verify(..., thorough=True)``."""
_Round = tuple[tuple[int, int], ...]
# a sale in progress: (standing bids, ties so far, bidding rounds so far, opening bid,
# the seats of the last tie)
_State = tuple[tuple[int, ...], int, tuple[_Round, ...], int | None, tuple[int, ...]]


@attrs.frozen
class _SaleResult:
    """What the search of one sale found."""

    outcomes: dict[str, tuple[_Round, ...]]  # outcome kind -> the first path that ends so
    paths: int  # the order types of bid paths settled
    violations: dict[str, tuple[_Round, ...]]  # problem -> the first path that shows it
    cut: bool  # whether the search stopped at its bound on paths
    first_bids: int = 0  # the order types of the first bidding round


def _thresholds(rules: RuleSet) -> tuple[int, ...]:
    """Every amount the rules compare a bid with, other than bids: zero (the zero-bid
    rules) and the two minimums. (The opening bid, which a bid may not equal, is a bid.)"""
    return tuple(sorted({0, rules.min_secret_bid, rules.min_opening_bid}))


_SCALE: Final = 1 << 80
"""The search places amounts on a finer scale: threshold ``t`` at ``t * _SCALE``, a new
amount halfway between two others. A path halves an interval at most once per bid, and
has at most 5 * (MAX_TIES_BEFORE_FALLBACK + 3) = 65 bids."""


def _integers(values: Collection[int], thresholds: Sequence[int]) -> dict[int, int] | None:
    """The smallest amounts in the order of ``values`` (on the search's scale) that keep
    every threshold and each value's relation to each threshold, by value (thresholds
    included); ``None`` when no amounts up to ``MAX_BID`` can.

    >>> one = _SCALE
    >>> _integers([one // 2, 7 * one, 3 * one], (0, 1)) is None  # strictly between 0 and 1
    True
    >>> list(_integers([7 * one, 3 * one, one], (0, 1)).values())
    [0, 1, 2, 3]
    """
    out: dict[int, int] = {}
    marks = iter(sorted(thresholds))
    mark = next(marks, None)
    low = -1
    for value in sorted({*values, *(t * _SCALE for t in thresholds)}):
        if mark is not None and value == mark * _SCALE:
            out[value] = low = mark
            mark = next(marks, None)
            continue
        low += 1
        if (mark is not None and low >= mark) or low > MAX_BID:
            return None
        out[value] = low
    return out


class _SaleSearch:
    """Every order type of bid paths of one sale, breadth first: the first bids, then
    every rebid round, up to the ties-before-fallback bound.

    A bid is placed, relative to every amount that can still matter (the thresholds, the
    standing bids, the opening bid, every amount bid in the sale when the fallback looks
    at them, and the bids below the highest threshold), either on one of those amounts or
    in one of the open intervals between them (one representative amount each, a
    midpoint). Seats that play the same part are interchangeable, so each group of them
    bids in non-decreasing order, and states with the same order type are merged. The
    first path to reach each outcome is the shortest.
    """

    def __init__(self, rules: RuleSet, players: int, auctioneer: int | None, bound: int):
        self.rules = rules
        self.players = players
        self.auctioneer = auctioneer
        self.bound = bound
        self.others = [s for s in range(players) if s != auctioneer]
        self.thresholds = _thresholds(rules)
        self.marks = tuple(t * _SCALE for t in self.thresholds)
        self.in_sale_pool = (
            rules.tie_fallback is TieFallback.HIGHEST_UNIQUE_IN_SALE
            and rules.unique_bid_pool is not UniqueBidPool.STANDING_BIDS
        )
        self.same_players = rules.tie_streak is TieStreak.SAME_PLAYERS
        endless = rules.tie_fallback is TieFallback.NONE or self.same_players
        self.rounds_limit = rules.ties_before_fallback + (2 if endless else 0)
        self.seen: set[Any] = set()  # the keys of the states reached

    def points(
        self, standing: Iterable[int], opening: int | None, rounds: Sequence[_Round]
    ) -> set[int]:
        """The amounts a new bid's place among decides the rest of the sale."""
        points = {*standing, *self.marks}
        if opening is not None:
            points.add(opening)
        top = self.marks[-1]
        for rnd in rounds:
            points.update(a for _, a in rnd if self.in_sale_pool or a < top)
        return points

    def key(
        self,
        standing: Sequence[int],
        ties: int,
        rounds: tuple[_Round, ...],
        opening: int | None,
        tied: tuple[int, ...],
        points: Collection[int],
    ) -> Any:
        """The order type of a state (``None`` when no integer amounts have it): two
        states with the same key end the same ways. ``points`` are the state's
        :meth:`points`."""
        to_int = _integers(points, self.thresholds)
        if to_int is None:
            return None
        auctioneer = self.auctioneer
        own = None if auctioneer is None else to_int[standing[auctioneer]]
        rest: tuple[Any, ...]
        if self.same_players:  # which seats tied last matters, not only how many ties
            rest = tuple(sorted((to_int[standing[s]], s in tied) for s in self.others))
        else:
            rest = tuple(sorted(to_int[standing[s]] for s in self.others))
        history = None
        if self.in_sale_pool:  # amounts bid once, and amounts bid more often
            named = Counter(a for rnd in rounds for _, a in rnd)
            history = (
                tuple(sorted(to_int[a] for a, n in named.items() if n == 1)),
                tuple(sorted(to_int[a] for a, n in named.items() if n > 1)),
            )
        low = tuple(sorted(n for a, n in to_int.items() if a < self.marks[-1]))
        opened = None if opening is None else to_int[opening]
        return (own, rest, ties, opened, history, low, auctioneer in tied)

    def fits(self, points: Sequence[int], index: int) -> bool:
        """Whether an integer fits between ``points[index]`` and the next point, when the
        next threshold bounds them."""
        marks = self.marks
        above = bisect.bisect_right(marks, points[index])
        if above == len(marks):
            return True
        below = marks[above - 1]
        inside = bisect.bisect_left(points, marks[above]) - bisect.bisect_right(points, below)
        return inside + 1 < (marks[above] - below) // _SCALE

    def group_bids(
        self, points: list[int], count: int, minimum: int, forbidden: int | None
    ) -> Iterator[tuple[tuple[int, ...], list[int]]]:
        """Every non-decreasing sequence of ``count`` legal bids, up to order type, with
        the points after them."""
        if count == 0:
            yield (), points
            return
        for index, point in enumerate(points):
            if point < minimum:
                continue
            if point != forbidden:
                for rest, after in self.group_bids(points, count - 1, point, forbidden):
                    yield (point, *rest), after
            if not self.fits(points, index):
                continue
            following = points[index + 1] if index + 1 < len(points) else point + 2 * _SCALE
            value = (point + following) // 2
            assert point < value < following  # the scale leaves room for every halving
            new_points = [*points[: index + 1], value, *points[index + 1 :]]
            for rest, after in self.group_bids(new_points, count - 1, value, forbidden):
                yield (value, *rest), after

    def rounds_of(
        self,
        bidders: Sequence[int],
        standing: Sequence[int],
        opening: int | None,
        rounds: Sequence[_Round],
        tied: tuple[int, ...],
    ) -> Iterator[tuple[dict[int, int], list[int]]]:
        """Every bidding round of ``bidders`` up to order type, with the :meth:`points`
        after it; ``rounds`` holds the sale's rounds so far (none: these are the first
        bids)."""
        groups: dict[tuple[bool, bool], list[int]] = {}
        for seat in bidders:
            part = (seat == self.auctioneer, self.same_players and seat in tied)
            groups.setdefault(part, []).append(seat)
        staying = [a for s, a in enumerate(standing) if s not in bidders]
        rebid = bool(rounds)

        def bids(
            parts: list[tuple[tuple[bool, bool], list[int]]], points: list[int]
        ) -> Iterator[tuple[dict[int, int], list[int]]]:
            if not parts:
                yield {}, points
                return
            (lead, _), seats = parts[0]
            minimum, forbidden = limits_of(self.rules, opening, lead, rebid)
            floor = minimum * _SCALE
            for amounts, after in self.group_bids(points, len(seats), floor, forbidden):
                for more, final in bids(parts[1:], after):
                    yield dict(zip(seats, amounts, strict=True)) | more, final

        yield from bids(list(groups.items()), sorted(self.points(staying, opening, rounds)))

    def first_states(self) -> list[_State]:
        """The order types of the first bidding round."""
        auctioneer = self.auctioneer
        openings: list[int | None] = [None]
        if auctioneer is not None:
            minimum, _ = limits_of(self.rules, None, True, False)
            points = sorted(self.marks)
            floor = minimum * _SCALE
            openings = [amounts[0] for amounts, _ in self.group_bids(points, 1, floor, None)]
        states: list[_State] = []
        seen = self.seen
        for opening in openings:
            bidders = self.others
            for bids, points in self.rounds_of(bidders, (), opening, (), ()):
                if auctioneer is not None and opening is not None:
                    bids[auctioneer] = opening
                first = tuple(sorted(bids.items()))
                standing = tuple(bids[s] for s in range(self.players))
                state = self.key(standing, 0, (first,), opening, (), points)
                if state is not None and state not in seen:
                    seen.add(state)
                    states.append((standing, 0, (first,), opening, ()))
        return states

    def amounts(self, rounds: Sequence[_Round]) -> tuple[_Round, ...]:
        """``rounds`` with the smallest amounts of the same order type."""
        to_int = _integers({a for rnd in rounds for _, a in rnd}, self.thresholds)
        assert to_int is not None  # the search only keeps paths that have them
        return tuple(tuple((seat, to_int[a]) for seat, a in rnd) for rnd in rounds)

    def run(self) -> _SaleResult:
        """Search the sale."""
        self.seen = set()
        frontier = self.first_states()
        first_bids = len(frontier)
        outcomes: dict[str, tuple[_Round, ...]] = {}
        violations: dict[str, tuple[_Round, ...]] = {}
        paths = 0
        cut = False
        last_tile = self.auctioneer is None
        while frontier:
            next_frontier: list[_State] = []
            # what is left of the bound is shared by the bidding rounds still to come
            rounds_left = max(1, self.rounds_limit - len(frontier[0][2]))
            room = (self.bound - paths - len(frontier)) // rounds_left
            for standing, ties, rounds, opening, tied in frontier:
                paths += 1
                outcome = settle(
                    self.rules,
                    standing,
                    ties=ties,
                    history=rounds,
                    last_tile=last_tile,
                    auctioneer=self.auctioneer,
                    previous_tie=tied,
                )
                problem = _check_outcome(standing, rounds, outcome)
                if problem and problem not in violations:
                    violations[problem] = self.amounts(rounds)
                if not isinstance(outcome, Rebid) or len(rounds) > self.rounds_limit:
                    kind = "endless" if isinstance(outcome, Rebid) else _outcome_kind(outcome)
                    if kind not in outcomes:
                        outcomes[kind] = self.amounts(rounds)
                    continue
                top = max(standing)
                now_tied = tuple(seat for seat, amount in enumerate(standing) if amount == top)
                for rebids, points in self.rounds_of(
                    outcome.seats, standing, opening, rounds, now_tied
                ):
                    if len(next_frontier) >= room:
                        cut = True
                        break
                    new = list(standing)
                    for seat, amount in rebids.items():
                        new[seat] = amount
                    new_rounds = (*rounds, tuple(sorted(rebids.items())))
                    state = self.key(new, outcome.ties, new_rounds, opening, now_tied, points)
                    if state is not None and state not in self.seen:
                        self.seen.add(state)
                        next_frontier.append(
                            (tuple(new), outcome.ties, new_rounds, opening, now_tied)
                        )
            frontier = next_frontier
        return _SaleResult(outcomes, paths, violations, cut, first_bids)


def _search_sale(
    rules: RuleSet, players: int, auctioneer: int | None, bound: int = SALE_SEARCH_PATHS
) -> _SaleResult:
    """Every order type of bid paths of one sale (see :class:`_SaleSearch`), up to
    ``bound`` paths."""
    return _SaleSearch(rules, players, auctioneer, bound).run()


def _outcome_kind(outcome: Outcome) -> str:
    if isinstance(outcome, Award):
        return "fallback-award" if outcome.fallback else "award"
    if isinstance(outcome, NoAward):
        return outcome.reason
    return "rebid"


def _check_outcome(
    standing: Sequence[int], rounds: Sequence[_Round], outcome: Outcome
) -> str | None:
    """The properties every settlement must keep; a description if one breaks."""
    if isinstance(outcome, Award):
        named = [a for r in rounds for s, a in r if s == outcome.seat]
        if outcome.amount not in named:
            return f"seat {outcome.seat} won for {outcome.amount}, an amount it never bid"
        if not outcome.fallback and standing.count(max(standing)) != 1:
            return "a sale was awarded while the highest bid was tied"
        if not outcome.fallback and standing[outcome.seat] != max(standing):
            return "a sale went to a bid that was not the highest"
    if isinstance(outcome, Rebid) and not outcome.seats:
        return "a tie asked nobody to rebid"
    return None


def _sale_record(
    rules: RuleSet, players: int, auctioneer: int | None, rounds: Sequence[_Round]
) -> dict[str, Any]:
    """A game record whose sale follows ``rounds``: the first sale, or, for the last tile
    without auctioneer, the last sale after earlier sales each won by its auctioneer."""
    game: Game | None
    if auctioneer is None:
        price = _simple_price(rules)
        earlier: list[tuple[int, int] | None] = [
            (i % players, price) for i in range(rules.sales(players) - 1)
        ]
        game = _scripted_game(rules, players, earlier, finish=False)
    else:
        game = _base_game(rules, players, auctioneer)
    assert game is not None
    for rnd in rounds:
        first = game.auctioneer
        for seat, amount in sorted(rnd, key=lambda bid: bid[0] != first):  # opening first
            game = game.bid(seat, amount)
    return game.to_record()


def _violation_example(
    rules: RuleSet, players: int, auctioneer: int, rounds: Sequence[_Round]
) -> Example | None:
    """The bids of a sale whose settlement broke a property, as a game record; ``None``
    when the engine itself refuses those bids (it settled the sale differently)."""
    try:
        return Example("game", _sale_record(rules, players, auctioneer, rounds))
    except RulesError:
        return None


def _base_game(rules: RuleSet, players: int, first_auctioneer: int = 0) -> Game:
    return new_game(
        rules,
        players,
        deck=rules.companies(players),
        nations=rules.nations(players)[:players],
        industries=rules.industries(players)[:players],
        first_auctioneer=first_auctioneer,
    )


def _sale_coverage(
    rules: RuleSet, auctioneers: str, result: _SaleResult | None = None, **more: int
) -> Coverage:
    """The coverage of the sale search: a proof unless the search was cut."""
    search = _SaleSearch(rules, 3, None, 0)
    assert result is not None or more
    paths = more.get("paths", 0) if result is None else result.paths
    first = more.get("first_bids", 0) if result is None else result.first_bids
    cut = bool(more.get("cut")) if result is None else result.cut
    thresholds = ", ".join(str(t) for t in search.thresholds)
    rounds = f"up to {search.rounds_limit + 1} bidding rounds"
    if search.rounds_limit > rules.ties_before_fallback:
        rounds += " (ties can go on: the ties before the fallback and two more)"
    bounds = (
        f"every order type of the bids (against each other, the opening bid and the "
        f"thresholds {thresholds}), {auctioneers}, every tie and rebid path, {rounds}; "
        f"{first} order types of the first bids"
    )
    if cut:
        return Coverage(False, paths, f"bid paths of {bounds}: cut at the bound on paths")
    return Coverage(True, paths, bounds)


def _sale_checks(rules: RuleSet, thorough: bool) -> Iterator[Finding]:
    fields = (
        "secret_bid_may_equal_opening",
        "rebid_may_equal_opening",
        "rebidders",
        "ties_before_fallback",
        "tie_fallback",
        "tied_auctioneer",
        "tie_streak",
        "unique_bid_pool",
    )
    bound = THOROUGH_SALE_SEARCH_PATHS if thorough else SALE_SEARCH_PATHS
    for players in rules.player_counts:
        found: dict[str, tuple[int | None, tuple[_Round, ...]]] = {}
        violations: dict[str, tuple[int, tuple[_Round, ...]]] = {}
        paths = first_bids = cut = 0
        # settle treats every seat alike: seat 0 stands for every auctioneer seat
        seats = range(players) if thorough else range(1)
        for auctioneer in seats:
            result = _search_sale(rules, players, auctioneer, bound)
            paths += result.paths
            first_bids += result.first_bids
            cut = cut or result.cut
            for problem, rounds in result.violations.items():
                violations.setdefault(problem, (auctioneer, rounds))
            for kind, rounds in result.outcomes.items():
                found.setdefault(kind, (auctioneer, rounds))
        auctioneers = (
            "every auctioneer seat"
            if thorough
            else "auctioneer seat 0 (every seat is the same up to renaming the seats)"
        )
        coverage = _sale_coverage(rules, auctioneers, paths=paths, first_bids=first_bids, cut=cut)
        for problem, (broken_at, path) in violations.items():
            yield _violated(
                "sale-outcomes",
                f"{players} players: {problem}",
                fields,
                players,
                _violation_example(rules, players, broken_at, path),
                coverage,
            )
        gap_kinds = [k for k in ("no-unique-bid", "no-untied-bid", "endless") if k in found]
        for kind in gap_kinds:
            seat, rounds = found[kind]
            code = "endless-ties" if kind == "endless" else kind
            what = {
                "no-unique-bid": "after the last tie no amount was bid exactly once, so the "
                "fallback names nobody and the tile is not sold",
                "no-untied-bid": "after the last tie every standing bid is tied, so the "
                "fallback names nobody and the tile is not sold",
                "endless": f"the tied players can tie {len(rounds)} times and go on: "
                + (
                    "without a fallback the sale need not end"
                    if rules.tie_fallback is TieFallback.NONE
                    else "a tie among other players starts the count again (tie_streak "
                    "same-players), so the sale need not end"
                ),
            }[kind]
            yield _gap(
                rules,
                "sale-outcomes",
                code,
                f"{players} players: {what}",
                fields,
                players,
                Example("game", _sale_record(rules, players, seat, rounds)),
                coverage,
            )
        if not gap_kinds:
            yield _holds(
                "sale-outcomes",
                f"{players} players: every sale ends with exactly one owner"
                + (" (as far as searched: the search was cut)" if cut else ""),
                fields,
                players,
                coverage=coverage,
            )
        if rules.has_last_tile_rule(players):
            yield from _last_tile_check(rules, players, bound)


def _last_tile_check(rules: RuleSet, players: int, bound: int) -> Iterator[Finding]:
    result = _search_sale(rules, players, None, bound)
    coverage = _sale_coverage(rules, "no auctioneer", result)
    fields = ("last_tile_without_auctioneer", "last_tile_tie_awards_nothing")
    tie_found = "last-tile-tie" in result.outcomes
    if tie_found != rules.last_tile_tie_awards_nothing:
        yield _violated(
            "last-tile",
            f"{players} players: on the last tile without auctioneer a tie for the highest "
            + (
                "bid sold nothing, but the rule set says such a tie awards the tile"
                if tie_found
                else "bid never sold nothing, but the rule set says such a tie awards nothing"
            ),
            fields,
            players,
            coverage=coverage,
        )
    elif tie_found:
        yield _holds(
            "last-tile",
            f"{players} players: on the last tile without auctioneer a tie for the highest "
            "bid sells nothing, as the text says (a documented non-award)",
            fields,
            players,
            Example("game", _sale_record(rules, players, None, result.outcomes["last-tile-tie"])),
            coverage,
        )
    else:
        yield _holds(
            "last-tile",
            f"{players} players: the last tile without auctioneer always finds an owner",
            fields,
            players,
            coverage=coverage,
        )


# --------------------------------------------------------------------------- whole games


def _past_peeks(game: Game) -> Game:
    """``game`` after its peek window, if one is open: every seat in it declines."""
    while game.phase is Phase.PEEKING:
        game = game.decline_peek(min(game.to_act))
    return game


def _simple_price(rules: RuleSet) -> int:
    """The smallest amount that wins a sale when everyone else bids the minimum."""
    return max(rules.min_opening_bid, rules.min_secret_bid + 1)


def _scripted_game(
    rules: RuleSet,
    players: int,
    plan: Sequence[tuple[int, int] | None],
    *,
    finish: bool = True,
) -> Game | None:
    """The game in which sale ``i`` goes to ``plan[i] = (winner, amount)``, everyone else
    bidding the minimum (``None``: everybody bids the minimum, a tie on a last tile
    without auctioneer). ``None`` if the plan cannot be bid so, or (with ``finish``) does
    not end the game."""
    game = _base_game(rules, players)
    try:
        for step in plan:
            game = _past_peeks(game)
            sale = game.sale
            if step is None:
                for seat in sorted(game.to_act):
                    game = game.bid(seat, rules.min_secret_bid)
            else:
                winner, amount = step
                auctioneer = game.auctioneer
                if auctioneer is not None:
                    opening = amount if winner == auctioneer else rules.min_opening_bid
                    game = game.bid(auctioneer, opening)
                for seat in sorted(game.to_act):
                    limits = game.bid_limits(seat)
                    assert limits is not None
                    game = game.bid(
                        seat, amount if seat == winner else limits.legal(limits.minimum)
                    )
            if game.sale == sale:  # a tie: the plan asked for something else
                return None
        game = _past_peeks(game)  # a window after the last sale, under peek_after_last_sale
    except RulesError:
        return None
    if finish and not game.is_over:
        return None
    awards = [(e.seat, e.amount) for e in game.events if isinstance(e, Awarded)]
    if awards != [step for step in plan if step is not None]:
        return None
    return game


_PLANS: Final = 400
"""The seeded random plans the ``one-winner`` check tries per player count."""


def _plans(rules: RuleSet, players: int) -> Iterator[list[tuple[int, int] | None]]:
    """Candidate plans, simplest first: every auctioneer wins at the smallest price; then
    seeded random winners and prices."""
    sales = rules.sales(players)
    last = rules.has_last_tile_rule(players)
    price = _simple_price(rules)
    simple: list[tuple[int, int] | None] = [(i % players, price) for i in range(sales)]
    if last:
        simple[-1] = None
    yield simple
    rng = random.Random(f"verify-{players}")
    for _ in range(_PLANS):
        plan: list[tuple[int, int] | None] = [
            (rng.randrange(players), price + rng.randrange(4)) for _ in range(sales)
        ]
        if last and rng.random() < 0.5:
            plan[-1] = None
        yield plan


_WINNER_GAPS: Final[dict[str, tuple[tuple[str, ...], str]]] = {
    "everyone-eliminated": (
        ("eliminate_highest_spender", "eliminate_all_tied_highest"),
        "every player spends the same, so all tie for the highest spend and all are "
        "eliminated: no winner",
    ),
    "tie-after-tiebreak": (
        ("final_tiebreak",),
        "two players end equal on points and on spend: the tie-break leaves both",
    ),
}
"""The gaps the ``one-winner`` check looks for: the rule fields and what happens."""


def _winner_checks(rules: RuleSet, thorough: bool) -> Iterator[Finding]:
    found: dict[str, tuple[int, Game]] = {}
    tried = 0
    for players in rules.player_counts:
        for plan in _plans(rules, players):
            if len(found) == len(_WINNER_GAPS):
                break
            tried += 1
            game = _scripted_game(rules, players, plan)
            if game is None:
                continue
            for gap in game.result().gaps:
                if gap.code in _WINNER_GAPS and gap.code not in found:
                    found[gap.code] = (players, game)
    coverage = Coverage(
        False,
        tried,
        "scripted games (every auctioneer wins at the smallest price, then seeded random "
        f"winners and prices; at most {_PLANS + 1} per player count, fewest players first)",
    )
    for code, (fields, what) in _WINNER_GAPS.items():
        if code in found:
            players, game = found[code]
            yield _gap(
                rules,
                "one-winner",
                code,
                f"{players} players: {what}",
                fields,
                players,
                Example("game", game.to_record()),
                coverage,
            )
        else:
            yield _holds(
                "one-winner", f"no searched game ends with {code}", fields, coverage=coverage
            )


def _random_round(game: Game, rng: random.Random, spread: int) -> Game:
    """``game`` after one random bid of each seat to act, each below the smallest legal
    bid plus ``spread``; the round stops where the sale ends."""
    for seat in sorted(game.to_act):
        limits = game.bid_limits(seat)
        assert limits is not None
        game = game.bid(seat, limits.legal(limits.minimum + rng.randrange(spread)))
        if game.phase is Phase.PEEKING or game.is_over:
            break
    return game


def _random_games(rules: RuleSet, players: int, count: int) -> Iterator[Game]:
    rng = random.Random(f"verify-random-{rules.id}-{players}")
    for index in range(count):
        game = new_game(rules, players, seed=f"{rules.id}-{players}-{index}")
        rounds = 0
        # ties may go on for ever (no fallback, or a same-players tie streak that other
        # seats keep breaking): such a game is left out
        while not game.is_over and rounds < GAME_ROUNDS_CHECKED:
            game = _random_round(_past_peeks(game), rng, 5)
            rounds += 1
        if game.is_over:
            yield game


def _property_checks(rules: RuleSet, games_per_count: int) -> Iterator[Finding]:
    zero_fields = ("zero_bid_points", "zero_bid_limit_per_round", "zero_bid_player_counts")
    for players in rules.player_counts:
        zero_problem: Game | None = None
        sum_problem: Game | None = None
        played = 0
        for game in _random_games(rules, players, games_per_count):
            played += 1
            if zero_problem is None and not _zero_bids_within_limit(rules, game):
                zero_problem = game
            if sum_problem is None and not _sums_hold(game):
                sum_problem = game
        limit = rules.zero_bid_limit_per_round
        coverage = Coverage(False, played, f"random games of {players} players")
        if zero_problem is not None:
            yield _violated(
                "zero-bid-limit",
                f"{players} players: a seat scored more zero bids in a round than the limit",
                zero_fields,
                players,
                Example("game", zero_problem.to_record()),
                coverage,
            )
        elif not rules.has_zero_bid_points(players):
            yield _holds(
                "zero-bid-limit",
                f"{players} players: in {played} random games zero bids never scored, as "
                "the rules say for this player count",
                zero_fields,
                players,
                coverage=coverage,
            )
        else:
            points = rules.zero_bid_points * limit if limit else None
            yield _holds(
                "zero-bid-limit",
                f"{players} players: in {played} random games no seat scored more than "
                + (
                    f"{points} zero-bid points in a round"
                    if points is not None
                    else "one zero bid per sale"
                ),
                zero_fields,
                players,
                coverage=coverage,
            )
        if sum_problem is not None:
            yield _violated(
                "score-sums",
                f"{players} players: a total is not the sum of its categories",
                ("scoring_order",),
                players,
                Example("game", sum_problem.to_record()),
                coverage,
            )
        else:
            yield _holds(
                "score-sums",
                f"{players} players: in {played} random games every subtotal is the sum of "
                "the five point categories and every total adds the lowest-spend bonus",
                ("scoring_order",),
                players,
                coverage=coverage,
            )


def _zero_bids_within_limit(rules: RuleSet, game: Game) -> bool:
    limit = rules.zero_bid_limit_per_round
    scored: Counter[tuple[int, int]] = Counter()
    for event in game.events:
        if isinstance(event, ZeroBids):
            for seat in event.scoring:
                scored[seat, event.round] += 1
    if not rules.has_zero_bid_points(game.players):
        return not scored
    return not limit or all(n <= limit for n in scored.values())


def _sums_hold(game: Game) -> bool:
    result = game.result()
    for sheet in result.sheets:
        parts = (
            sheet.company_points
            + sheet.zero_bids
            + sheet.nationalization
            + sheet.monopolization
            + sheet.diversification
        )
        if parts != sheet.subtotal or sheet.subtotal + sheet.lowest_spend_bonus != sheet.total:
            return False
    return bool(result.winners) or bool(result.gaps)


# --------------------------------------------------------------------------- readings

_READING_GAMES: Final = 64
"""Games per player count in which each reading of an open question is compared."""


def _sale_outcomes(game: Game) -> list[tuple[Any, ...]]:
    """Each finished sale's outcome: the owner and price, or why nobody owns the tile,
    and who scored a zero bid."""
    out: list[tuple[Any, ...]] = []
    for event in game.events:
        if isinstance(event, Awarded):
            out.append((event.sale, event.seat, event.amount))
        elif isinstance(event, NotAwarded):
            out.append((event.sale, None, event.reason))
        elif isinstance(event, ZeroBids) and out:
            out[-1] = (*out[-1], event.scoring)
    return out


def _reading_game(rules: RuleSet, players: int, index: int) -> Game:
    """Game ``index`` of the comparison of readings: small random bids (so that ties are
    frequent) from a random stream that depends only on the player count and the index,
    so that two readings see the same bids until their games part."""
    rng = random.Random(f"verify-readings-{players}-{index}")
    game = new_game(rules, players, seed=f"readings-{players}-{index}")
    rounds = 0
    while not game.is_over and rounds < GAME_ROUNDS_COMPARED:
        game = _random_round(_past_peeks(game), rng, 4)
        rounds += 1
    return _past_peeks(game)


def _until_sale(game: Game, sale: int) -> dict[str, Any]:
    """The record of ``game`` cut after sale ``sale`` ends: a short example."""
    record = game.to_record()
    short = replay({**record, "moves": []})
    for move in game.moves():
        if short.is_over or any(
            isinstance(e, Awarded | NotAwarded) and e.sale == sale for e in short.events
        ):
            break
        short = short.apply(move)
    return short.to_record()


def _describe(outcome: tuple[Any, ...] | None, game: Game) -> str:
    """A sale's outcome in words; ``None`` when ``game`` has no such sale."""
    if outcome is None:
        if game.is_over:
            return "the game has ended"
        return f"the game was stopped after {GAME_ROUNDS_COMPARED} bidding rounds without an end"
    if outcome[1] is None:
        text = f"nobody gets the tile ({outcome[2]})"
    else:
        text = f"seat {outcome[1]} wins for {outcome[2]}"
    if len(outcome) > 3:  # zero bids were scored (or might have been) in this sale
        text += f", zero bids scored by {list(outcome[3]) or 'nobody'}"
    return text


def _reading_difference(
    rules: RuleSet, other: RuleSet, players: int
) -> tuple[str, dict[str, Any]] | None:
    """How ``other`` changes the first differing game of the comparison, if any: a
    description and an example game record under ``other``."""
    for index in range(_READING_GAMES):
        mine, theirs = _reading_game(rules, players, index), _reading_game(other, players, index)
        a, b = _sale_outcomes(mine), _sale_outcomes(theirs)
        for x, y in itertools.zip_longest(a, b):
            if x != y:
                sale = (x or y)[0]
                return (
                    f"sale {sale}: {_describe(x, mine)}; under the other reading "
                    f"{_describe(y, theirs)}",
                    _until_sale(theirs, sale),
                )
        if mine.is_over and theirs.is_over:
            left, right = mine.result(), theirs.result()
            if left.winners != right.winners:
                return (
                    f"the same sales, but the winners are {list(left.winners)}; under the "
                    f"other reading {list(right.winners)}",
                    theirs.to_record(),
                )
            if [s.total for s in left.sheets] != [s.total for s in right.sheets]:
                return (
                    f"the same sales, but the totals are {[s.total for s in left.sheets]}; "
                    f"under the other reading {[s.total for s in right.sheets]}",
                    theirs.to_record(),
                )
    return None


def _reading_checks(rules: RuleSet, fields: Collection[str] | None = None) -> Iterator[Finding]:
    """For each open question (of ``fields``, if given), each other reading against the
    rule set's own: whether it changes an award, a price, a zero-bid scoring, the scores
    or the winner."""
    for question in open_questions():
        field = question.field
        if fields is not None and field not in fields:
            continue
        for other in question.variants(rules):
            if other is rules:
                continue
            shown_value = other.id.rpartition(f"{field}=")[2]
            check = f"reading:{field}"
            found = False
            coverage = Coverage(
                False,
                _READING_GAMES * len(rules.player_counts),
                f"games of small random bids ({_READING_GAMES} per player count, "
                "fewest players first, until one differs)",
            )
            for players in rules.player_counts:
                difference = _reading_difference(rules, other, players)
                if difference is not None:
                    summary, record = difference
                    yield Finding(
                        check,
                        Verdict.DIFFERS,
                        f"{players} players, {field}={shown_value}: {summary}",
                        (field,),
                        players,
                        example=Example("game", record),
                        coverage=coverage,
                    )
                    found = True
                    break
            if not found:
                yield _holds(
                    check,
                    f"{field}={shown_value} changes no award, price, score or winner in "
                    f"{_READING_GAMES} games per player count",
                    (field,),
                    coverage=coverage,
                )


# --------------------------------------------------------------------------- entry point

_CHECKS: Final[tuple[tuple[tuple[str, ...], Callable[[RuleSet, bool], Iterator[Finding]]], ...]] = (
    (("deck-size", "deck-nations", "deck-industries", "table-coverage"), _static_checks),
    (("sale-outcomes", "last-tile"), _sale_checks),
    (("one-winner",), _winner_checks),
)
"""Each group of checks, by the names of its findings, and the function that runs it
(given the rule set and whether the search is thorough)."""

_PROPERTY_CHECKS: Final = ("zero-bid-limit", "score-sums")


def check_names() -> tuple[str, ...]:
    """The name of every check :func:`verify` runs, ``reading:<field>`` once per open
    question.

    >>> check_names()[:3]
    ('deck-size', 'deck-nations', 'deck-industries')
    """
    fixed = [name for names, _ in _CHECKS for name in names]
    readings = [f"reading:{question.field}" for question in open_questions()]
    return (*fixed, *_PROPERTY_CHECKS, *readings)


def verification_markdown(reports: Sequence[VerificationReport]) -> str:
    """``docs/verification.md``: the reports of the built-in rule sets, and how to read
    them."""
    lines = [
        "# Verification of the built-in rule sets",
        "",
        GENERATED_NOTE,
        "",
        "`qe.verify(ruleset)` (or `qe-rules verify ID`) searches a rule set for the places "
        "where its text decides nothing. Each finding *holds*, is a *gap* (the rules leave "
        "the situation open; an example shows it) or is *violated* (the rule set "
        "contradicts itself, or a property breaks). A gap that the rule set's "
        "interpretations acknowledge is *acknowledged*: the library has chosen a reading "
        "and documents it. Any other gap is *new*, and makes `qe-rules verify` exit with "
        "status 1, so a translator can run it in CI on a TOML file.",
        "",
        "The checks: `deck-size`, `deck-nations`, `deck-industries` (the deck matches the "
        "text); `table-coverage` (every scoring table covers every count a player can "
        "reach); `sale-outcomes` (a complete search of one sale by the order type of its "
        "bids, every tie and rebid path, every player count: see below); `last-tile` (the "
        "auctioneer-less last tile, by the same search); `one-winner` "
        "(scripted games, fewest players first, searched for games without a single "
        "winner); `zero-bid-limit` and `score-sums` (properties over random games); "
        f"`reading:<field>` (each other reading of each open question, in {_READING_GAMES} "
        "games of small random bids per player count: *differs* when it changes an award, "
        "a price, a zero-bid scoring, the scores or the winner; see "
        "[Open questions](open-questions.md)).",
        "",
        "Examples are concrete: a game example is a game record (`qe.replay` accepts it; "
        "the JSON report holds it), a scoring example is a score file for `qe-rules score`.",
        "",
        "Each finding says how far its check searched (the *search* column; "
        "`Finding.coverage` in Python, `coverage` in the JSON report): *exhaustive* is a "
        "proof within the stated bounds; *sampled* names the sample size. The deck and "
        "table checks read the rule data and are exhaustive; the sale search is "
        "exhaustive unless its bound on paths cut it; `one-winner`, the property checks "
        "and the readings are sampled.",
        "",
        *_SALE_SEARCH_TEXT,
        *_search_counts(reports),
    ]
    for report in reports:
        lines.append(report.to_markdown())
    return "\n".join(lines).rstrip() + "\n"


_SALE_SEARCH_TEXT: Final = (
    "## The complete sale search",
    "",
    "A sale's outcome depends only on the *order type* of its bids. Within a sale the "
    "rules read amounts only by comparing them: with each other (the highest bid, which "
    "bids are equal, so who is tied; the highest amount bid once or not tied, for the "
    "fallbacks), with the opening bid (a bid may not equal it, under "
    "`secret_bid_may_equal_opening` and `rebid_may_equal_opening`), and with three "
    "thresholds: `min_opening_bid`, `min_secret_bid` and 0 (the zero-bid rules). No "
    "rule adds or scales amounts inside a sale. So take any map of amounts that keeps "
    "their order (equal stays equal, higher stays higher) and keeps each amount's "
    "relation to each threshold: a sale and its image are both legal or both illegal, "
    "and every bidding round settles the same way (the same seats rebid, the same seat "
    "wins, for the image of the same amount, or nobody does for the same reason). One "
    "sale per order type stands for all the sales of that type.",
    "",
    "The search builds the order types bid by bid. A new bid goes onto one of the "
    "amounts that can still matter (the thresholds, the standing bids, the opening bid, "
    "every amount bid in the sale when the fallback looks at all of them, and any bid "
    "below the highest threshold), or into one of the open intervals between them, or "
    "above them all, with one representative amount per interval. Every whole amount "
    "falls into exactly one of these places, so every sale in whole amounts has its "
    "representative. An order type that no whole amounts can fill (a bid strictly "
    "between 0 and 1) is dropped: each state is mapped to the smallest whole amounts of "
    "its order type that keep the thresholds, and a state with none is discarded; the "
    "examples use those smallest amounts. States of the same order type, up to renaming "
    "seats that play the same part, are merged.",
    "",
    "The bounds: rebid rounds go on until the fallback decides (`ties_before_fallback`, "
    f"at most `MAX_TIES_BEFORE_FALLBACK` = {MAX_TIES_BEFORE_FALLBACK}); where ties can "
    "go on for ever (no fallback, or `tie_streak = same-players`) the search follows "
    "two rounds more and then reports `endless-ties`. The search settles at most "
    f"`SALE_SEARCH_PATHS` = {SALE_SEARCH_PATHS:,} paths per player count and auctioneer "
    "seat; a search cut there is reported as *sampled*. The settlement treats seats "
    "alike (renaming the seats renames the winner and the rebidders and changes "
    "nothing else), so auctioneer seat 0 stands for every seat; `qe.verify(..., "
    "thorough=True)` (`qe-rules verify --thorough`) searches every auctioneer seat with "
    f"a bound of {THOROUGH_SALE_SEARCH_PATHS:,} paths each. A test compares the search "
    "with a search of every whole amount from 0 to 6 (3 players, several readings): the "
    "same order types and the same outcomes.",
    "",
    "Other readings: the same search runs under every reading of the sale questions "
    "(`rule set:field=value`, see [Open questions](open-questions.md)). Measured with "
    "seat 0 and the default bound over the 28 other readings of the built-ins at 3, 4 "
    "and 5 players, it finds the same outcomes as the earlier search in each, and it "
    "is exhaustive for all but three: `en-early:ties_before_fallback=4` at 5 players "
    "is cut at 40,000 paths (at 4 players it is now exhaustive, 16,164 paths; the "
    "earlier search was cut at both), and `en-early:tie_streak=same-players` at 4 and "
    "5 players is cut even at 250,000 paths before it ends or finds an endless tie. At "
    "3 players the latter proves `endless-ties` after 81,897 paths.",
    "",
    "Order types of the first bids (the opening bid and the secret bids), auctioneer "
    "seat 0: 16, 40 and 96 for 3, 4 and 5 players where a secret bid may not equal the "
    "opening bid (`en`, `de`, `de-summary`), 24, 64 and 160 where it may (`en-early`); "
    "15 on the 3-player last tile without auctioneer. Time, as CPU time on a 2-core "
    "machine, with the floor of the benchmarks (`floor_sim.py`, 2.0 s) as the yardstick: the sale "
    "searches of the four built-in rule sets take 1.1 s (0.5 floor; the earlier search "
    "by the four smallest amounts took 1.3 s), 6.3 s with `thorough=True` (3 floor); "
    "`qe-rules verify --all` takes 9 to 12 s (5 to 6 floor), as before. `en-early` at 5 "
    "players, where the fallback looks at every bid of the sale, needs the most "
    "paths. The paths of each search:",
    "",
)
"""The argument for the complete sale search, for ``docs/verification.md``."""


def _search_counts(reports: Sequence[VerificationReport]) -> list[str]:
    """A table of the paths the sale search settled, per rule set and player count."""
    lines = [
        "| rule set | players | sale paths | last-tile paths | exhaustive |",
        "|---|---|---|---|---|",
    ]
    for report in reports:
        rows: dict[int, dict[str, Coverage]] = {}
        for finding in report.findings:
            if finding.check in ("sale-outcomes", "last-tile") and finding.coverage:
                assert finding.players is not None
                rows.setdefault(finding.players, {})[finding.check] = finding.coverage
        for players, found in sorted(rows.items()):
            sale, last = found.get("sale-outcomes"), found.get("last-tile")
            exhaustive = all(c.exhaustive for c in found.values())
            lines.append(
                f"| `{report.ruleset}` | {players} | {sale.size if sale else ''} | "
                f"{last.size if last else ''} | {'yes' if exhaustive else 'no'} |"
            )
    return [*lines, ""]


def verify(
    ruleset: RuleSet | str,
    *,
    random_games: int = 60,
    checks: Collection[str] | None = None,
    thorough: bool = False,
) -> VerificationReport:
    """Run every check on a rule set (a ``RuleSet`` or a built-in id).

    ``random_games`` is how many random games per player count the property checks play.
    ``checks``, if given, names the checks to run (from :func:`check_names`); the report
    then holds only their findings. Checks that are computed together still run together.
    ``thorough`` searches sales from every auctioneer seat (not only seat 0, which stands
    for all of them) with a larger bound on paths (:data:`THOROUGH_SALE_SEARCH_PATHS`).
    Each finding's ``coverage`` says whether its check was exhaustive or sampled.
    """
    rules = get_ruleset(ruleset)
    wanted = None if checks is None else frozenset(checks)

    def chosen(names: Sequence[str]) -> bool:
        return wanted is None or not wanted.isdisjoint(names)

    findings: list[Finding] = []
    for names, check in _CHECKS:
        if chosen(names):
            findings.extend(check(rules, thorough))
    reading_fields = None if wanted is None else {w[len("reading:") :] for w in wanted}
    findings.extend(_reading_checks(rules, reading_fields))
    if chosen(_PROPERTY_CHECKS):
        findings.extend(_property_checks(rules, random_games))
    if wanted is not None:
        findings = [f for f in findings if f.check in wanted]
    return VerificationReport(rules.id, tuple(findings))
