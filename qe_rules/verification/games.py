"""The checks over whole games: ``one-winner`` (scripted games searched for a game without
a single winner) and the properties of random games (``zero-bid-limit``, ``score-sums``).

``winner_checks``, ``property_checks`` and ``random_games`` are internal to the package;
:func:`qe_rules.verify` runs the checks.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Final

from qe_rules.game.engine import Game, new_game
from qe_rules.game.events import ZeroBids
from qe_rules.game.facts import rule_facts
from qe_rules.limits import GAME_ROUNDS_CHECKED
from qe_rules.rules.model import RuleSet
from qe_rules.verification.report import Coverage, Example, Finding, gap_finding, holds, violated
from qe_rules.verification.scripted import past_peeks, random_round, scripted_game, simple_price

__all__: list[str] = []


_PLANS: Final = 400
"""The seeded random plans the ``one-winner`` check tries per player count."""


def _plans(rules: RuleSet, players: int) -> Iterator[list[tuple[int, int] | None]]:
    """Candidate plans, simplest first: every auctioneer wins at the smallest price; then
    seeded random winners and prices."""
    facts = rule_facts(rules, players)
    sales, last = facts.sales, facts.last_tile
    price = simple_price(rules)
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


def winner_checks(rules: RuleSet, thorough: bool) -> Iterator[Finding]:
    """The ``one-winner`` findings: a gap with its game for each way a searched game ends
    without one winner, or a finding that holds."""
    found: dict[str, tuple[int, Game]] = {}
    tried = 0
    for players in rules.player_counts:
        for plan in _plans(rules, players):
            if len(found) == len(_WINNER_GAPS):
                break
            tried += 1
            game = scripted_game(rules, players, plan)
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
            yield gap_finding(
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
            yield holds(
                "one-winner", f"no searched game ends with {code}", fields, coverage=coverage
            )


def random_games(rules: RuleSet, players: int, count: int) -> Iterator[Game]:
    """The finished games among ``count`` seeded random games of ``players`` players."""
    rng = random.Random(f"verify-random-{rules.id}-{players}")
    for index in range(count):
        game = new_game(rules, players, seed=f"{rules.id}-{players}-{index}")
        rounds = 0
        # ties may go on for ever (no fallback, or a same-players tie streak that other
        # seats keep breaking): such a game is left out
        while not game.is_over and rounds < GAME_ROUNDS_CHECKED:
            game = random_round(past_peeks(game), rng, 5)
            rounds += 1
        if game.is_over:
            yield game


def property_checks(rules: RuleSet, games_per_count: int) -> Iterator[Finding]:
    """The ``zero-bid-limit`` and ``score-sums`` findings of every player count, over
    ``games_per_count`` random games each."""
    zero_fields = ("zero_bid_points", "zero_bid_limit_per_round", "zero_bid_player_counts")
    for players in rules.player_counts:
        zero_problem: Game | None = None
        sum_problem: Game | None = None
        played = 0
        for game in random_games(rules, players, games_per_count):
            played += 1
            if zero_problem is None and not _zero_bids_within_limit(rules, game):
                zero_problem = game
            if sum_problem is None and not _sums_hold(game):
                sum_problem = game
        limit = rules.zero_bid_limit_per_round
        coverage = Coverage(False, played, f"random games of {players} players")
        if zero_problem is not None:
            yield violated(
                "zero-bid-limit",
                f"{players} players: a seat scored more zero bids in a round than the limit",
                zero_fields,
                players,
                Example("game", zero_problem.to_record()),
                coverage,
            )
        elif not rule_facts(rules, players).zero_bids:
            yield holds(
                "zero-bid-limit",
                f"{players} players: in {played} random games zero bids never scored, as "
                "the rules say for this player count",
                zero_fields,
                players,
                coverage=coverage,
            )
        else:
            points = rules.zero_bid_points * limit if limit else None
            yield holds(
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
            yield violated(
                "score-sums",
                f"{players} players: a total is not the sum of its categories",
                ("scoring_order",),
                players,
                Example("game", sum_problem.to_record()),
                coverage,
            )
        else:
            yield holds(
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
    if not rule_facts(rules, game.players).zero_bids:
        return not scored
    return not limit or all(n <= limit for n in scored.values())


def _sums_hold(game: Game) -> bool:
    result = game.result()
    for sheet in result.sheets:
        if (
            sheet.category_points != sheet.subtotal
            or sheet.subtotal + sheet.lowest_spend_bonus != sheet.total
        ):
            return False
    return bool(result.winners) or bool(result.gaps)
