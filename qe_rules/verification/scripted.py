"""The games the checks play: a game scripted sale by sale (who wins each sale, for how
much), and random bidding rounds. Internal to the package.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from qe_rules.errors import RulesError
from qe_rules.game.engine import Game, new_game
from qe_rules.game.events import Awarded
from qe_rules.game.views import Phase
from qe_rules.rules.model import RuleSet

__all__: list[str] = []


def base_game(rules: RuleSet, players: int, first_auctioneer: int = 0) -> Game:
    """A game with the whole deck in its order and the first nations and tokens."""
    return new_game(
        rules,
        players,
        deck=rules.companies(players),
        nations=rules.nations(players)[:players],
        industries=rules.industries(players)[:players],
        first_auctioneer=first_auctioneer,
    )


def past_peeks(game: Game) -> Game:
    """``game`` after its peek window, if one is open: every seat in it declines."""
    while game.phase is Phase.PEEKING:
        game = game.decline_peek(min(game.to_act))
    return game


def simple_price(rules: RuleSet) -> int:
    """The smallest amount that wins a sale when everyone else bids the minimum."""
    return max(rules.min_opening_bid, rules.min_secret_bid + 1)


def scripted_game(
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
    game = base_game(rules, players)
    try:
        for step in plan:
            game = past_peeks(game)
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
        game = past_peeks(game)  # a window after the last sale, under peek_after_last_sale
    except RulesError:
        return None
    if finish and not game.is_over:
        return None
    awards = [(e.seat, e.amount) for e in game.events if isinstance(e, Awarded)]
    if awards != [step for step in plan if step is not None]:
        return None
    return game


def random_round(game: Game, rng: random.Random, spread: int) -> Game:
    """``game`` after one random bid of each seat to act, each below the smallest legal
    bid plus ``spread``; the round stops where the sale ends."""
    for seat in sorted(game.to_act):
        limits = game.bid_limits(seat)
        assert limits is not None
        game = game.bid(seat, limits.legal(limits.minimum + rng.randrange(spread)))
        if game.phase is Phase.PEEKING or game.is_over:
            break
    return game
