"""The ``reading:<field>`` checks: each other reading of each open question against the
rule set's own, in the same games of small random bids.

``READING_GAMES`` and ``reading_checks`` are internal to the package;
:func:`qe_rules.verify` runs the checks.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Collection, Iterator
from typing import Any, Final

from qe_rules.errors import InvalidRuleSet
from qe_rules.game.engine import Game, new_game, replay
from qe_rules.game.events import Awarded, NotAwarded, ZeroBids
from qe_rules.limits import GAME_ROUNDS_COMPARED
from qe_rules.rules.model import RuleSet, encode_field
from qe_rules.texts.questions import open_questions, python_value
from qe_rules.verification.report import Coverage, Example, Finding, Verdict, holds
from qe_rules.verification.scripted import past_peeks, random_round

__all__: list[str] = []

READING_GAMES: Final = 64
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
        game = random_round(past_peeks(game), rng, 4)
        rounds += 1
    return past_peeks(game)


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
    rules: RuleSet, other: RuleSet, players: int, reading: str, own: str
) -> tuple[str, dict[str, Any]] | None:
    """How ``other`` changes the first differing game of the comparison, if any: a
    description, the reading first (``reading``, e.g. ``"tie_fallback=..."``), then the
    rule set's own (``own``), and an example game record under ``other``."""
    under, mine_under = f"under {reading}", f"under the rule set's own reading ({own})"
    for index in range(READING_GAMES):
        mine, theirs = _reading_game(rules, players, index), _reading_game(other, players, index)
        a, b = _sale_outcomes(mine), _sale_outcomes(theirs)
        for x, y in itertools.zip_longest(a, b):
            if x != y:
                sale = (x or y)[0]
                return (
                    f"sale {sale}: {under}, {_describe(y, theirs)}; "
                    f"{mine_under}, {_describe(x, mine)}",
                    _until_sale(theirs, sale),
                )
        if mine.is_over and theirs.is_over:
            left, right = mine.result(), theirs.result()
            if left.winners != right.winners:
                return (
                    f"the same sales; {under} the winners are {list(right.winners)}; "
                    f"{mine_under} {list(left.winners)}",
                    theirs.to_record(),
                )
            if [s.total for s in left.sheets] != [s.total for s in right.sheets]:
                return (
                    f"the same sales; {under} the totals are "
                    f"{[s.total for s in right.sheets]}; {mine_under} "
                    f"{[s.total for s in left.sheets]}",
                    theirs.to_record(),
                )
    return None


def _plain(field: str, value: Any) -> Any:
    """A field's value as plain data (a list as a tuple, as a question holds it)."""
    plain = encode_field(field, value)
    return tuple(plain) if isinstance(plain, list) else plain


def reading_checks(rules: RuleSet, fields: Collection[str] | None = None) -> Iterator[Finding]:
    """For each open question (of ``fields``, if given), each other reading against the
    rule set's own: whether it changes an award, a price, a zero-bid scoring, the scores
    or the winner."""
    for question in open_questions():
        field = question.field
        if fields is not None and field not in fields:
            continue
        for value, other in _other_readings(rules, question.field, question.values):
            if isinstance(other, InvalidRuleSet):  # this reading cannot go with the others
                yield holds(
                    f"reading:{field}",
                    f"another reading of {field} is not a rule set with the other fields: {other}",
                    (field,),
                    coverage=Coverage(True, 0, "no game: the reading is refused"),
                )
                continue
            shown_value = question.spec("", value).partition("=")[2]
            own_value = question.spec("x", _plain(field, getattr(rules, field))).split("=", 1)[1]
            check = f"reading:{field}"
            found = False
            coverage = Coverage(
                False,
                READING_GAMES * len(rules.player_counts),
                f"games of small random bids ({READING_GAMES} per player count, "
                "fewest players first, until one differs)",
            )
            for players in rules.player_counts:
                difference = _reading_difference(
                    rules, other, players, f"{field}={shown_value}", f"{field}={own_value}"
                )
                if difference is not None:
                    summary, record = difference
                    yield Finding(
                        check,
                        Verdict.DIFFERS,
                        f"{players} players, {summary}",
                        (field,),
                        players,
                        example=Example("game", record),
                        coverage=coverage,
                    )
                    found = True
                    break
            if not found:
                yield holds(
                    check,
                    f"{field}={shown_value} changes no award, price, score or winner in "
                    f"{READING_GAMES} games per player count",
                    (field,),
                    coverage=coverage,
                )


def _other_readings(
    rules: RuleSet, field: str, values: Collection[Any]
) -> Iterator[tuple[Any, RuleSet | InvalidRuleSet]]:
    """Each other reading of ``field`` (its plain value) and ``rules`` under it, or the
    error of a reading that the other fields do not allow (a smallest bid of ``MAX_BID``
    with a rebid that may not equal the opening bid)."""
    for value in values:
        try:
            other = rules.evolve(**{field: python_value(field, value)})
        except InvalidRuleSet as error:
            yield value, error
            continue
        if other is not rules:
            yield value, other
