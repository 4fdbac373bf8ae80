"""The batch's fast copies of the legality of an amount, each against the one definition,
:meth:`qe_rules.BidLimits.allows` (and :meth:`~qe_rules.BidLimits.legal`)."""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules.limits import MAX_BID
from qe_rules.simulation.batch import agents
from tests.support import examples

# amounts and smallest bids near the edges: 0, a few, and MAX_BID
EDGES = st.one_of(st.integers(0, 6), st.integers(MAX_BID - 6, MAX_BID))
AMOUNTS = st.one_of(EDGES, st.integers(MAX_BID + 1, MAX_BID + 20), st.integers(-3, -1))


@st.composite
def asks(draw):
    """A minimum, per game an amount and a forbidden amount (or none at all)."""
    minimum = draw(EDGES)
    games = draw(st.integers(1, 8))
    amounts = draw(st.lists(AMOUNTS, min_size=games, max_size=games))
    forbidden = None
    if draw(st.booleans()):
        forbidden = draw(st.lists(EDGES, min_size=games, max_size=games))
        # limits that leave no legal amount: no rule set gives them (RuleSet's checks)
        assume(minimum < MAX_BID or MAX_BID not in forbidden)
    return minimum, amounts, forbidden


def limits_of_game(minimum, forbidden, game):
    return qe.BidLimits(minimum, None if forbidden is None else forbidden[game])


@examples(80)
@given(asks())
def test_legal_is_bid_limits_legal_for_many_games(ask):
    minimum, amounts, forbidden = ask
    got = agents.legal(
        np.array(amounts, dtype=np.int64),
        minimum,
        None if forbidden is None else np.array(forbidden, dtype=np.int64),
    )
    for game, amount in enumerate(amounts):
        limits = limits_of_game(minimum, forbidden, game)
        assert got[game] == limits.legal(amount), (amount, limits)
        assert limits.allows(int(got[game]))


@pytest.mark.parametrize("agent", [agents.RandomBids(), agents.FloorBids(), agents.ZeroBids()])
@examples(40)
@given(ask=asks(), phase=st.sampled_from(["opening", "secret", "rebid"]), data=st.data())
def test_the_batched_agents_bid_only_allowed_amounts(agent, ask, phase, data):
    minimum, amounts, forbidden = ask
    draws = data.draw(
        st.lists(st.integers(0, 2**32 - 1), min_size=len(amounts), max_size=len(amounts))
    )
    question = agents.BidAsk(
        state=None, seat=0, rows=None, phase=phase, minimum=minimum,
        forbidden=None if forbidden is None else np.array(forbidden, dtype=np.int64),
        draws=np.array(draws, dtype=np.uint32),
    )  # fmt: skip
    for game, amount in enumerate(agent.bids(question)):
        assert limits_of_game(minimum, forbidden, game).allows(int(amount)), amount


@examples(40)
@given(asks())
def test_a_policys_masks_are_the_allowed_amounts(ask):
    minimum, amounts, forbidden = ask
    seen = []

    def policy(features, masks):
        seen.append(masks)
        return np.array(amounts[: len(masks)])

    hook = agents.PolicyBids(policy, max_bid=12)
    question = agents.BidAsk(
        state=None, seat=0, rows=None, phase="secret", minimum=minimum,
        forbidden=None if forbidden is None else np.array(forbidden, dtype=np.int64),
        draws=np.zeros(len(amounts), dtype=np.uint32),
    )  # fmt: skip
    chosen = hook.bids(question)
    (masks,) = seen
    for game in range(len(amounts)):
        limits = limits_of_game(minimum, forbidden, game)
        assert masks[game].tolist() == [limits.allows(a) for a in range(13)]
        assert limits.allows(int(chosen[game]))
