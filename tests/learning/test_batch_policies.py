"""A policy as a batched agent makes the decisions :class:`PolicyAgent` makes: every move
of a policy seat in the batch's games is what the policy chooses from the encoding of that
seat's view in the reference game, whatever the first auctioneer and the other agents."""

import numpy as np
import pytest

import qe_rules as qe
from qe_rules import batch
from qe_rules.learning import encode
from qe_rules.learning.policies import (
    PPO_WEIGHTS,
    PolicyAgent,
    PolicyBatchAgent,
    PPOBatchAgent,
    ppo_policy,
)
from tests.support import moves_with_views

# whole-number weights on whole-number observations: a hash of every number, exact row by
# row or all at once; the action it picks among the legal ones changes with any number
HASH = np.random.default_rng(3).integers(1, 2**20, encode.OBSERVATION_SIZE)


def hashed(observations, masks):
    """For each row, a legal action picked by a hash of the whole observation."""
    observations, masks = np.atleast_2d(observations), np.atleast_2d(masks)
    keys = np.rint(observations).astype(np.int64) @ HASH
    legal = masks.sum(axis=1)
    nth = keys % np.maximum(legal, 1)
    order = np.cumsum(masks, axis=1) - 1
    return np.argmax(masks & (order == nth[:, None]), axis=1)


def exact(observation, mask):
    return int(hashed(observation, mask)[0])


def exact_many(observations, masks):
    return hashed(observations, masks)


def policy_moves(record, policy, seats):
    """Each move of ``seats`` in ``record`` beside what PolicyAgent(policy) makes there,
    asked as the reference engine asks it (every seat of a bidding round or peek window
    sees the game as the round began)."""
    agent = PolicyAgent(policy)
    pairs = []
    for move, view in moves_with_views(record):
        if move.seat in seats:
            if move.kind == "bid":
                pairs.append((move.amount, agent.bid(view)))
            else:
                pairs.append((move.kind == "peek", agent.wants_peek(view)))
    return pairs


@pytest.mark.parametrize(
    ("ruleset", "players", "many"),
    [
        ("en", 4, True),
        ("en", 3, False),
        ("en", 5, True),
        ("de", 5, True),
        ("en:rebid_visibility=first-bids,auctioneer_rebid_may_be_zero=true", 4, True),
        (
            "en:rebid_visibility=tied-players,last_tile_tie=any,last_tile_amount_public=true",
            3,
            True,
        ),
        ("en-early", 4, False),
    ],
)
def test_a_batched_policy_decides_as_the_policy_agent(ruleset, players, many):
    agent = PolicyBatchAgent(exact, many=exact_many if many else None)
    # the policy in seats 0 and 2 (the same object: one observer for both), value agents
    # elsewhere; the first auctioneer varies, so the seats' encoding is rotated
    agents = [agent, "value", agent] + ["value"] * (players - 3)
    played = batch.play(ruleset, players, 40, agents=agents, seed=11, keep_moves=True)
    checked = 0
    for number in range(played.games):
        record = played.record(number)
        for made, expected in policy_moves(record, exact, {0, 2}):
            assert made == expected
            checked += 1
    assert checked > 40 * 16


def test_a_policy_that_answers_badly_is_refused():
    agent = PolicyBatchAgent(exact, many=lambda observations, masks: np.zeros(2))
    with pytest.raises(qe.InvalidArgument, match="one action per row"):
        batch.play("en", 4, 8, agents=[agent] + ["random"] * 3, seed=1)
    with pytest.raises(qe.InvalidArgument, match="callable"):
        PolicyBatchAgent(3)


def test_a_batched_policy_refuses_a_peek_timing_it_cannot_encode():
    agent = PolicyBatchAgent(exact)
    with pytest.raises(qe.InvalidArgument, match="peek_timing"):
        batch.play("en:peek_timing=before-bids", 5, 4, agents=[agent] * 5, seed=1)


@pytest.mark.parametrize(
    ("ruleset", "players"), [("en", players) for players in PPO_WEIGHTS] + [("de", 5)]
)
def test_the_batched_ppo_agent_plays_the_shipped_network(ruleset, players):
    policy = ppo_policy(ruleset, players)
    played = batch.play(
        ruleset, players, 12, agents=[PPOBatchAgent()] + ["value"] * (players - 1),
        seed=4, keep_moves=True,
    )  # fmt: skip
    for number in range(played.games):
        record = played.record(number)
        for made, expected in policy_moves(record, policy, {0}):
            assert made == expected
