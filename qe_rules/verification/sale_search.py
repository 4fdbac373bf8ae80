"""The ``sale-outcomes`` and ``last-tile`` checks: a complete search of one sale by the
order type of its bids.

A sale's outcome depends only on how its bids compare with each other, with the opening
bid and with the thresholds (zero and the two minimums), so one sale per order type stands
for every sale of that type. :class:`SaleSearch` walks every order type of bid paths,
breadth first, through every tie and rebid path up to the fallback. ``docs/verification.md``
gives the argument in full.

``SaleSearch``, ``search_sale``, ``SaleResult``, ``integers``, ``SCALE`` and ``sale_checks``
are internal to the package (the tests use them); :func:`qe_rules.verify` runs the checks.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import Any, Final

import attrs

from qe_rules.errors import InvalidArgument, RulesError
from qe_rules.game.engine import Game
from qe_rules.game.facts import rule_facts
from qe_rules.game.sales import Award, NoAward, Outcome, Rebid, limits_of, settle
from qe_rules.limits import MAX_BID
from qe_rules.rules.model import RuleSet, TieFallback, TieStreak, UniqueBidPool
from qe_rules.verification.report import Coverage, Example, Finding, gap_finding, holds, violated
from qe_rules.verification.scripted import base_game, past_peeks, scripted_game, simple_price

__all__ = ["SALE_SEARCH_PATHS", "THOROUGH_SALE_SEARCH_PATHS"]

SALE_SEARCH_PATHS: Final = 40_000
"""The most bid paths (order types) the sale search settles per player count and
auctioneer seat; the built-in rule sets need at most 10,402 (``en-early``, 5 players)."""
THOROUGH_SALE_SEARCH_PATHS: Final = 250_000
"""The same bound for ``verify(..., thorough=True)``."""

CANDIDATES_PER_PATH: Final = 4
"""The bid rounds a sale search may look at (and merge or drop as seen before) per path
of its bound: past ``CANDIDATES_PER_PATH * bound`` candidates the search stops and says
it was cut. This bounds its time on every rule set (a few seconds a search at the default
bound); the built-in rule sets stay far below it."""
Round = tuple[tuple[int, int], ...]
"""One bidding round of a sale: (seat, amount) pairs, by seat."""
# a sale in progress: (standing bids, ties so far, bidding rounds so far, opening bid,
# the seats of the last tie)
_State = tuple[tuple[int, ...], int, tuple[Round, ...], int | None, tuple[int, ...]]


@attrs.frozen
class SaleResult:
    """What the search of one sale found."""

    outcomes: dict[str, tuple[Round, ...]]  # outcome kind -> the first path that ends so
    paths: int  # the order types of bid paths settled
    violations: dict[str, tuple[Round, ...]]  # problem -> the first path that shows it
    cut: bool  # whether the search stopped at its bound on paths
    first_bids: int = 0  # the order types of the first bidding round


def _thresholds(rules: RuleSet) -> tuple[int, ...]:
    """Every amount the rules compare a bid with, other than bids: zero (the zero-bid
    rules) and the two minimums. (The opening bid, which a bid may not equal, is a bid.)"""
    return tuple(sorted({0, rules.min_secret_bid, rules.min_opening_bid}))


SCALE: Final = 1 << 80
"""The search places amounts on a finer scale: threshold ``t`` at ``t * SCALE``, a new
amount halfway between two others. A path halves an interval at most once per bid, and
has at most 5 * (MAX_TIES_BEFORE_FALLBACK + 3) = 65 bids."""


def integers(values: Collection[int], thresholds: Sequence[int]) -> dict[int, int] | None:
    """The smallest amounts in the order of ``values`` (on the search's scale) that keep
    every threshold and each value's relation to each threshold, by value (thresholds
    included); ``None`` when no amounts up to ``MAX_BID`` can.

    >>> one = SCALE
    >>> integers([one // 2, 7 * one, 3 * one], (0, 1)) is None  # strictly between 0 and 1
    True
    >>> list(integers([7 * one, 3 * one, one], (0, 1)).values())
    [0, 1, 2, 3]
    """
    out: dict[int, int] = {}
    marks = iter(sorted(thresholds))
    mark = next(marks, None)
    low = -1
    for value in sorted({*values, *(t * SCALE for t in thresholds)}):
        if mark is not None and value == mark * SCALE:
            out[value] = low = mark
            mark = next(marks, None)
            continue
        low += 1
        if (mark is not None and low >= mark) or low > MAX_BID:
            return None
        out[value] = low
    return out


class SaleSearch:
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
        self.marks = tuple(t * SCALE for t in self.thresholds)
        self.in_sale_pool = (
            rules.tie_fallback is TieFallback.HIGHEST_UNIQUE_IN_SALE
            and rules.unique_bid_pool is not UniqueBidPool.STANDING_BIDS
        )
        self.same_players = rules.tie_streak is TieStreak.SAME_PLAYERS
        endless = rules.tie_fallback is TieFallback.NONE or self.same_players
        self.rounds_limit = rules.ties_before_fallback + (2 if endless else 0)
        self.seen: set[Any] = set()  # the keys of the states reached
        self.candidates = 0  # bid rounds looked at, against CANDIDATES_PER_PATH * bound
        self.most_candidates = CANDIDATES_PER_PATH * bound

    def points(
        self, standing: Iterable[int], opening: int | None, rounds: Sequence[Round]
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
        rounds: tuple[Round, ...],
        opening: int | None,
        tied: tuple[int, ...],
        points: Collection[int],
    ) -> Any:
        """The order type of a state (``None`` when no integer amounts have it): two
        states with the same key end the same ways. ``points`` are the state's
        :meth:`points`."""
        to_int = integers(points, self.thresholds)
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
        return inside + 1 < (marks[above] - below) // SCALE

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
            following = points[index + 1] if index + 1 < len(points) else point + 2 * SCALE
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
        rounds: Sequence[Round],
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
            floor = minimum * SCALE
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
            floor = minimum * SCALE
            openings = [amounts[0] for amounts, _ in self.group_bids(points, 1, floor, None)]
        states: list[_State] = []
        seen = self.seen
        for opening in openings:
            bidders = self.others
            for bids, points in self.rounds_of(bidders, (), opening, (), ()):
                self.candidates += 1
                if self.candidates > self.most_candidates:
                    return states
                if auctioneer is not None and opening is not None:
                    bids[auctioneer] = opening
                first = tuple(sorted(bids.items()))
                standing = tuple(bids[s] for s in range(self.players))
                state = self.key(standing, 0, (first,), opening, (), points)
                if state is not None and state not in seen:
                    seen.add(state)
                    states.append((standing, 0, (first,), opening, ()))
        return states

    def amounts(self, rounds: Sequence[Round]) -> tuple[Round, ...]:
        """``rounds`` with the smallest amounts of the same order type."""
        to_int = integers({a for rnd in rounds for _, a in rnd}, self.thresholds)
        assert to_int is not None  # the search only keeps paths that have them
        return tuple(tuple((seat, to_int[a]) for seat, a in rnd) for rnd in rounds)

    def run(self) -> SaleResult:
        """Search the sale."""
        self.seen = set()
        frontier = self.first_states()
        first_bids = len(frontier)
        cut = self.candidates > self.most_candidates
        outcomes: dict[str, tuple[Round, ...]] = {}
        violations: dict[str, tuple[Round, ...]] = {}
        paths = 0
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
                    self.candidates += 1
                    if len(next_frontier) >= room or self.candidates > self.most_candidates:
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
        return SaleResult(outcomes, paths, violations, cut, first_bids)


def search_sale(
    rules: RuleSet, players: int, auctioneer: int | None, bound: int = SALE_SEARCH_PATHS
) -> SaleResult:
    """Every order type of bid paths of one sale (see :class:`SaleSearch`), up to
    ``bound`` paths."""
    return SaleSearch(rules, players, auctioneer, bound).run()


def _outcome_kind(outcome: Outcome) -> str:
    if isinstance(outcome, Award):
        return "fallback-award" if outcome.fallback else "award"
    if isinstance(outcome, NoAward):
        return outcome.reason
    return "rebid"


def _check_outcome(
    standing: Sequence[int], rounds: Sequence[Round], outcome: Outcome
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
    rules: RuleSet, players: int, auctioneer: int | None, rounds: Sequence[Round]
) -> dict[str, Any]:
    """A game record whose sale follows ``rounds``: the first sale, or, for the last tile
    without auctioneer, the last sale after earlier sales each won by its auctioneer."""
    game: Game | None
    if auctioneer is None:
        price = simple_price(rules)
        earlier: list[tuple[int, int] | None] = [
            (i % players, price) for i in range(rule_facts(rules, players).sales - 1)
        ]
        game = scripted_game(rules, players, earlier, finish=False)
    else:
        game = base_game(rules, players, auctioneer)
    if game is None:  # the scripted earlier sales could not all be played
        raise InvalidArgument(
            f"{rules.id}: no game of {players} players reaches this sale by the script"
        )
    game = past_peeks(game)  # a peek announced before the bids (peek_timing=before-bids)
    for rnd in rounds:
        first = game.auctioneer
        for seat, amount in sorted(rnd, key=lambda bid: bid[0] != first):  # opening first
            game = game.bid(seat, amount)
    return game.to_record()


def _violation_example(
    rules: RuleSet, players: int, auctioneer: int | None, rounds: Sequence[Round]
) -> Example | None:
    """The bids of a sale whose settlement broke a property, as a game record; ``None``
    when the engine itself refuses those bids (it settled the sale differently)."""
    try:
        return Example("game", _sale_record(rules, players, auctioneer, rounds))
    except RulesError:
        return None


def _sale_coverage(
    rules: RuleSet, auctioneers: str, result: SaleResult | None = None, **more: int
) -> Coverage:
    """The coverage of the sale search: a proof unless the search was cut."""
    search = SaleSearch(rules, 3, None, 0)
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


def sale_checks(rules: RuleSet, thorough: bool) -> Iterator[Finding]:
    """The ``sale-outcomes`` findings of every player count, and the ``last-tile`` finding
    where the rule set has a last tile without auctioneer."""
    fields = (
        "secret_bid_may_equal_opening",
        "rebid_may_equal_opening",
        "rebidders",
        "ties_before_fallback",
        "tie_fallback",
        "tied_auctioneer",
        "tie_streak",
        "unique_bid_pool",
        "fallback_finds_no_bid",
        "auctioneer_rebid_may_be_zero",
        "auctioneer_rebid_may_repeat_opening",
    )
    bound = THOROUGH_SALE_SEARCH_PATHS if thorough else SALE_SEARCH_PATHS
    for players in rules.player_counts:
        found: dict[str, tuple[int | None, tuple[Round, ...]]] = {}
        violations: dict[str, tuple[int, tuple[Round, ...]]] = {}
        paths = first_bids = cut = 0
        # settle treats every seat alike: seat 0 stands for every auctioneer seat
        seats = range(players) if thorough else range(1)
        for auctioneer in seats:
            result = search_sale(rules, players, auctioneer, bound)
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
            yield violated(
                "sale-outcomes",
                f"{players} players: {problem}",
                fields,
                players,
                _violation_example(rules, players, broken_at, path),
                coverage,
            )
        gap_kinds = [
            k
            for k in ("no-unique-bid", "no-untied-bid", "fallback-bid-tied", "endless")
            if k in found
        ]
        for kind in gap_kinds:
            seat, rounds = found[kind]
            code = "endless-ties" if kind == "endless" else kind
            what = {
                "no-unique-bid": "after the last tie no amount was bid exactly once, so the "
                "fallback names nobody and the tile is not sold",
                "no-untied-bid": "after the last tie every standing bid is tied, so the "
                "fallback names nobody and the tile is not sold",
                "fallback-bid-tied": "after the last tie the highest bid below the tie for "
                "first place is tied too, so the fallback names nobody and the tile is not "
                "sold",
                "endless": f"the tied players can tie {len(rounds)} times and go on: "
                + (
                    "without a fallback the sale need not end"
                    if rules.tie_fallback is TieFallback.NONE
                    else "a tie among other players starts the count again (tie_streak "
                    "same-players), so the sale need not end"
                ),
            }[kind]
            yield gap_finding(
                rules,
                "sale-outcomes",
                code,
                f"{players} players: {what}",
                fields,
                players,
                _violation_example(rules, players, seat, rounds),
                coverage,
            )
        if not gap_kinds:
            yield holds(
                "sale-outcomes",
                f"{players} players: every sale ends with exactly one owner"
                + (" (as far as searched: the search was cut)" if cut else ""),
                fields,
                players,
                coverage=coverage,
            )
        if rule_facts(rules, players).last_tile:
            yield from _last_tile_check(rules, players, bound)


def _last_tile_check(rules: RuleSet, players: int, bound: int) -> Iterator[Finding]:
    result = search_sale(rules, players, None, bound)
    coverage = _sale_coverage(rules, "no auctioneer", result)
    fields = ("last_tile_without_auctioneer", "last_tile_tie_awards_nothing", "last_tile_tie")
    tie_found = "last-tile-tie" in result.outcomes
    if tie_found != rules.last_tile_tie_awards_nothing:
        yield violated(
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
        yield holds(
            "last-tile",
            f"{players} players: on the last tile without auctioneer a tie for the highest "
            "bid sells nothing, as the text says (a documented non-award)",
            fields,
            players,
            _violation_example(rules, players, None, result.outcomes["last-tile-tie"]),
            coverage,
        )
    else:
        yield holds(
            "last-tile",
            f"{players} players: the last tile without auctioneer always finds an owner",
            fields,
            players,
            coverage=coverage,
        )
