"""The vector environment on the batched engine: every observation and mask of a seat
whose game is not waiting is the encoder's of that seat's view in the reference game
played with the same moves; rewards and the last observations are the reference's."""

import numpy as np
import pytest

import qe_rules as qe
from qe_rules.learning import encode
from qe_rules.learning.vector_env import BatchVectorEnv


def reference_games(env):
    """The env's current games, dealt alike, in the reference engine."""
    chunk, compiled = env.chunk, env.compiled
    companies = env.rules.companies(env.players)
    return [
        qe.new_game(
            env.rules,
            env.players,
            deck=[companies[i] for i in chunk.deck[game]],
            nations=[list(qe.Nation)[compiled.nations[i]] for i in chunk.nations[game]],
            industries=[list(qe.Industry)[compiled.industries[i]] for i in chunk.tokens[game]],
            first_auctioneer=0,
        )
        for game in range(env.num_envs)
    ]


@pytest.mark.parametrize(
    ("ruleset", "players"),
    [
        ("en", 3),
        ("en", 4),
        ("en", 5),
        ("en-early", 4),
        ("en:rebidders=all,tie_streak=same-players", 5),
        ("de", 5),
        ("en:rebid_visibility=first-bids,auctioneer_rebid_may_be_zero=true", 4),
        (
            "en:rebid_visibility=tied-players,auctioneer_rebid_may_repeat_opening=true,"
            "tie_fallback=highest-outside-top-tie,fallback_finds_no_bid=auctioneer-wins,"
            "peek_shows=highest-bid",
            5,
        ),
        ("en:rebid_visibility=tied-players,last_tile_tie=any,last_tile_amount_public=true", 3),
    ],
)
def test_the_vector_env_observes_as_the_encoder_does(ruleset, players):
    env = BatchVectorEnv(ruleset, players, num_envs=4)
    observations, info = env.reset(seed=5)
    assert observations.shape == (4, players, encode.OBSERVATION_SIZE)
    games = reference_games(env)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(150):
        masks = info["action_mask"]
        for number, game in enumerate(games):
            if not masks[number].any():  # waiting for the other games' rebids
                continue
            for seat in range(players):
                view = game.view(seat)
                assert np.array_equal(observations[number, seat], encode.observation(view))
                assert np.array_equal(masks[number, seat], encode.action_mask(view))
        actions = (masks * rng.random(masks.shape)).argmax(axis=2)
        for number, game in enumerate(games):
            if not masks[number].any():
                continue
            if game.phase is qe.Phase.PEEKING:
                for seat in sorted(game.to_act):
                    peeks = actions[number, seat] == encode.PEEK
                    game = game.peek(seat) if peeks else game.decline_peek(seat)
            else:
                game = game.bid_many({seat: int(actions[number, seat]) for seat in game.to_act})
            games[number] = game
        observations, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        if terminated.any():
            assert terminated.all()
            ended += 1
            for number, game in enumerate(games):
                winners = game.result().winners
                expected = [1 / len(winners) if s in winners else 0 for s in range(players)]
                assert np.allclose(rewards[number], expected)
                for seat in range(players):
                    final = info["final_obs"][number, seat]
                    assert np.array_equal(final, encode.observation(game.view(seat)))
            games = reference_games(env)
    assert ended >= 1
    env.close()


def test_the_vector_env_checks_its_actions():
    env = BatchVectorEnv("en", 4, num_envs=2)
    env.reset(seed=1)
    with pytest.raises(qe.InvalidArgument, match="actions are"):
        env.step(np.zeros((3, 4), dtype=int))
    assert env.action_space.shape == (2, 4)
    env.close()
