"""Games a seat cannot tell from the real one (qe_rules.learning.determinize)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules.learning.determinize import determinize
from qe_rules.simulation.agents import RandomAgent, ValueAgent
from qe_rules.simulation.play import play_game


def states(ruleset, players, seed):
    """The states of one game of value and random agents, one after another."""
    draw = random.Random(seed)
    agents = [draw.choice([ValueAgent, RandomAgent])(seed * 8 + s) for s in range(players)]
    game = qe.new_game(ruleset, players, seed=seed, first_auctioneer=seed % players)
    while not game.is_over:
        yield game
        seats = sorted(game.to_act)
        if game.phase is qe.Phase.PEEKING:
            for seat in seats:
                wants = agents[seat].wants_peek(game.view(seat))
                game = game.peek(seat) if wants else game.decline_peek(seat)
        elif len(seats) == 1:
            game = game.bid(seats[0], agents[seats[0]].bid(game.view(seats[0])))
        else:
            game = game.bid_many({s: agents[s].bid(game.view(s)) for s in seats})


@given(
    st.sampled_from([("en", 3), ("en", 4), ("de", 5), ("en-early", 4), ("en", 5)]),
    st.integers(0, 2**16),
    st.data(),
)
@settings(max_examples=25, deadline=None)
def test_the_drawn_game_looks_the_same_from_the_seat(table, seed, data):
    ruleset, players = table
    every = list(states(ruleset, players, seed))
    real = data.draw(st.sampled_from(every))
    seat = data.draw(st.integers(0, players - 1))
    view = real.view(seat)
    drawn = determinize(view, random.Random(seed))
    assert drawn.view(seat) == view
    assert drawn.deck[: len(view.history) + 1] == real.deck[: len(view.history) + 1]
    assert drawn.view(seat).industry == view.industry


def test_the_hidden_parts_are_drawn():
    real = list(states("en", 4, 3))[25]
    view = real.view(1)
    drawn = [determinize(view, random.Random(seed)) for seed in range(20)]
    tokens = {tuple(g.view(s).industry for s in range(4)) for g in drawn}
    decks = {g.deck for g in drawn}
    spends = {tuple(r.spent for r in g.player_records()) for g in drawn}
    assert len(tokens) > 1 and len(decks) > 1 and len(spends) > 1
    assert all(g.view(1) == view for g in drawn)


def test_a_finished_game_or_a_wrong_argument_is_refused():
    over = play_game("en", 3, "value", seed=1)
    with pytest.raises(qe.InvalidArgument, match="over"):
        determinize(over.view(0), random.Random(0))
    with pytest.raises(qe.InvalidArgument, match="PlayerView"):
        determinize(over, random.Random(0))
