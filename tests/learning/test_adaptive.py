"""The adaptive agent: the batch makes the reference agent's decisions, its switch reads
the public zero bids, and each network plays where the switch says."""

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules import batch
from qe_rules.learning.adaptive import (
    SWITCHES,
    AdaptiveAgent,
    AdaptiveBatchAgent,
    Switch,
    zero_share,
)
from qe_rules.simulation.agents import agent_from_name
from qe_rules.simulation.batch.agents import RandomBids
from qe_rules.simulation.play import play_game
from qe_rules.strategies import ruleset_variations
from tests.support import examples, moves_with_views


def modes(record, seats):
    """Whether the sharper network made each bid of ``seats`` in ``record``, as the
    reference agent reads the views (every seat of a moment sees it as it began)."""
    agent = AdaptiveAgent()
    found = []
    for move, view in moves_with_views(record):
        if move.seat in seats and move.kind == "bid":
            found.append(agent.exploits(view))
    return found


@pytest.mark.parametrize(
    ("ruleset", "players", "others"),
    [("en", 4, "value"), ("en", 4, "random"), ("en", 3, "value"), ("en", 5, "random"),
     ("de", 4, "random"), ("en-early", 4, "value"), ("en:zero_bid_points=0", 4, "random")],
)  # fmt: skip
def test_a_batch_game_of_the_adaptive_agent_is_the_game_play_game_plays(ruleset, players, others):
    agents = ["adaptive", others, "adaptive"] + [others] * (players - 3)
    played = batch.play(ruleset, players, 24, agents=agents, seed=5, start=40)
    seen = set()
    for index in range(played.games):
        game = play_game(ruleset, players, agents, seed=5, index=40 + index)
        assert played.record(index).to_dict() == game.to_record(), index
        seen.update(modes(played.record(index), {0, 2}))
    assert seen == ({False} if players == 3 else {True, False})


def test_copies_of_the_agent_keep_it_mostly_trained_and_value_agents_switch_it():
    def sharper(agents, seats):
        played = batch.play("en", 4, 40, agents=agents, seed=8)
        made = [m for index in range(40) for m in modes(played.record(index), seats)]
        return sum(made) / len(made)

    # copies bid zero often, so each sees a high share; value agents seldom
    assert sharper("adaptive", {0, 1, 2, 3}) < 0.2
    assert sharper(["adaptive", "value", "value", "value"], {0}) > 0.6


@examples(12)
@given(st.integers(0, 2**16), st.sampled_from([3, 4, 5]), st.integers(0, 12))
def test_the_zero_share_counts_the_other_seats_zero_bids(seed, players, sales):
    # zero agents: the auctioneer opens above zero and wins, every other seat bids zero
    game = qe.new_game("en", players, seed=seed)
    zero = agent_from_name("zero")
    while game.view(0).sale < sales:
        seat = min(game.to_act)
        view = game.view(seat)
        game = game.bid(seat, zero.bid(view)) if view.to_bid else game.decline_peek(seat)
    for seat in range(players):
        view = game.view(seat)
        ran = sum(sale.auctioneer == seat for sale in view.history)
        zeros = sales * (players - 2) + ran  # not the auctioneer's opening
        if players not in game.ruleset.zero_bid_player_counts:
            zeros = 0  # nobody's zero bid is on record
        assert zero_share(view) == (zeros + 1) / (sales * (players - 1) + 2)


@given(st.floats(0, 1), st.integers(0, 20), st.floats(0, 1), st.integers(0, 20))
def test_the_switch_exploits_from_its_sale_below_its_share(share, from_sale, seen, sale):
    switch = Switch(share=share, from_sale=from_sale)
    assert switch.exploits(seen, sale) == (sale >= from_sale and seen < share)


def test_the_switches_are_data_and_checked():
    assert set(SWITCHES) == {3, 4, 5}
    for switch in SWITCHES.values():
        assert 0 <= switch.share < 1 and switch.from_sale >= 1
    for players in (4, 5):
        assert SWITCHES[players].share > 0  # zero bids are on record: the switch reads them
    for share, from_sale, match in (
        (1.5, 0, "share"), (-0.1, 0, "share"), ("0.5", 0, "share"), (True, 0, "share"),
        (0.5, -1, "from_sale"), (0.5, 1.0, "from_sale"), (0.5, None, "from_sale"),
    ):  # fmt: skip
        with pytest.raises(qe.InvalidArgument, match=match):
            Switch(share=share, from_sale=from_sale)
    assert attrs.evolve(SWITCHES[4], share=0.0).exploits(0.0, 10) is False


def test_the_agent_names_find_it():
    from qe_rules.simulation.batch.agents import batch_agent

    assert isinstance(agent_from_name("adaptive", 3), AdaptiveAgent)
    assert isinstance(batch_agent("adaptive"), AdaptiveBatchAgent)
    view = qe.new_game("en", 4, seed=7).bid(0, 3).view(1)
    assert not AdaptiveAgent().exploits(view)  # no sale has ended: the trained agent plays
    assert np.isfinite(zero_share(view))


def test_with_3_players_it_plays_as_the_trained_agent():
    # no zero bid is on record with 3 players: the switch never picks the sharper network
    agents = ["value", "adaptive", "random"]
    played = batch.play("en", 3, 60, agents=agents, seed=9)
    trained = batch.play("en", 3, 60, agents=["value", "trained", "random"], seed=9)
    assert SWITCHES[3].share == 0.0
    assert (played.spent == trained.spent).all() and (played.winner == trained.winner).all()


class _Spy:
    """The random agent, keeping the batch's games it was last asked about."""

    name = "spy"
    reads_state = True

    def __init__(self):
        self.random, self.state = RandomBids(), None

    def bids(self, ask):
        self.state = ask.state
        return self.random.bids(ask)

    def peeks(self, ask):
        return self.random.peeks(ask)


def assert_zero_counts_shown(rules, players, others, seed, chunk=batch.CHUNK):
    """The batch's count of each seat's zero bids is what the seat's views show (in the
    last chunk played)."""
    spy = _Spy()
    played = batch.play(rules, players, 16, agents=[spy, *others], seed=seed, chunk=chunk)
    chunk = spy.state
    before = played.games - chunk.games  # the games of the chunks before the last
    for index in range(chunk.games):
        history = qe.replay(played.record(before + index)).view(0).history
        for column in range(players):
            seat = int(chunk.actual_seat[column, index])
            zeros = sum(seat in sale.zero_bidders for sale in history)
            assert chunk.zero_bids_made[column, index] == zeros


def test_each_chunk_counts_its_own_zero_bids():
    """The second chunk plays in the arrays of the first, emptied."""
    assert_zero_counts_shown("en", 4, ["value", "zero", "random"], 4, chunk=8)


@pytest.mark.parametrize(
    ("ruleset", "players"), [("en", 4), ("en", 5), ("de", 5), ("en-early", 4), ("en", 3)]
)
def test_the_batch_counts_each_seat_s_zero_bids_as_its_views_show_them(ruleset, players):
    assert_zero_counts_shown(
        ruleset, players, ["value", "zero", "random", "value"][: players - 1], 4
    )


@examples(25)
@given(rules=ruleset_variations(), data=st.data(), seed=st.integers(0, 2**32))
def test_the_zero_counts_hold_in_every_rule_set(rules, data, seed):
    players = data.draw(st.sampled_from(rules.player_counts), label="players")
    others = data.draw(
        st.lists(st.sampled_from(["random", "value", "zero"]), min_size=players - 1,
                 max_size=players - 1), label="others",
    )  # fmt: skip
    assert_zero_counts_shown(rules, players, others, seed)
