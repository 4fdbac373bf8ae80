"""Games a seat cannot tell from the real one (qe_rules.learning.determinize)."""

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules.learning.determinize import determinize
from qe_rules.simulation.agents import RandomAgent, ValueAgent
from qe_rules.simulation.play import play_game
from tests.support import examples
from tests.support import states as states_of


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
@examples(60)
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


def rebidding_states(players, seed, bids=3):
    """The states of one game whose seats bid at most ``bids`` (ties again and again),
    each with the seats asked in each rebid round of its sale so far."""
    draw = random.Random(seed)
    game = qe.new_game("en", players, seed=seed)
    asked = []
    while not game.is_over:
        yield game, tuple(asked)
        seats = sorted(game.to_act)
        before = game
        if game.phase is qe.Phase.PEEKING:
            for seat in seats:
                game = game.decline_peek(seat)
            continue
        choices = {}
        for seat in seats:
            limits = game.bid_limits(seat)
            choices[seat] = limits.legal(draw.randint(limits.minimum, max(limits.minimum, bids)))
        game = game.bid(*choices.popitem()) if len(seats) == 1 else game.bid_many(choices)
        if game.sale != before.sale:
            asked = []
        elif game.phase is qe.Phase.REBIDDING:
            asked.append(frozenset(game.to_act))


def rounds_asked(game, sale):
    """The seats asked in each rebid round of ``sale`` in ``game``'s record so far."""
    asked, ties = [], 0
    for state in states_of(game.to_record()):
        tied = state.view(0).ties
        if state.sale == sale and state.phase is qe.Phase.REBIDDING and tied > ties:
            asked.append(frozenset(state.to_act))
        ties = tied if state.sale == sale else 0
    return asked


@given(st.integers(0, 2**16), st.sampled_from([3, 4, 5]))
@settings(max_examples=20, deadline=None)
def test_a_drawn_past_asks_the_same_seats_to_rebid_in_each_round(seed, players):
    # the view shows only who is tied now; the seats asked in each earlier rebid round of
    # the sale are public (who acted), and the drawn past asks the same
    repeated = [(g, a) for g, a in rebidding_states(players, seed) if g.view(0).ties >= 2]
    assume(repeated)
    real, asked = repeated[len(repeated) // 2]
    seat = min(real.to_act)
    drawn = determinize(real.view(seat), random.Random(seed), rebids=asked)
    assert drawn.view(seat) == real.view(seat)
    assert rounds_asked(drawn, real.sale) == list(asked) == rounds_asked(real, real.sale)
