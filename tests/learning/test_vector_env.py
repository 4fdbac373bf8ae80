"""The vector environment on the batched engine: every observation and mask of a seat
whose game is not waiting is the encoder's of that seat's view in the reference game
played with the same moves; rewards and the last observations are the reference's."""

import itertools

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence

import qe_rules as qe
from qe_rules.learning import encode
from qe_rules.learning.vector_env import VECTOR_ENV_ID, BatchVectorEnv


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


@pytest.mark.parametrize("timing", ["any-earlier-sale", "before-bids"])
def test_the_vector_env_refuses_a_peek_timing_the_batch_does_not_play(timing):
    with pytest.raises(qe.RulesError, match=f"peek_timing=last-sale only.*peek_timing={timing}"):
        BatchVectorEnv(f"en:peek_timing={timing}", 5, num_envs=2)


def test_gymnasium_makes_it_from_its_vector_entry_point():
    env = gymnasium.make_vec(VECTOR_ENV_ID, num_envs=3, ruleset="en", players=5)
    assert isinstance(env.unwrapped, BatchVectorEnv)
    assert (env.num_envs, env.unwrapped.players) == (3, 5)
    assert env.metadata["autoreset_mode"] is gymnasium.vector.AutoresetMode.SAME_STEP
    env.close()


def play(env, seed, steps):
    """Every value ``env`` hands out over ``steps`` steps of seeded random actions."""
    observations, info = env.reset(seed=seed)
    handed = [(observations, info)]
    env.action_space.seed(seed)
    for _ in range(steps):
        handed.append(env.step(env.action_space.sample()))
    return handed


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_vector_api_holds(players):
    """Gymnasium's vector environment contract (Gymnasium has no checker for vector
    environments; these are the checks its env_checker makes of one environment, on every
    game): spaces, types and shapes, seeded determinism of reset and step, returned data
    not reused, same-step autoreset."""
    env = BatchVectorEnv("en", players, num_envs=5)
    first = play(env, seed=9, steps=80)
    again = play(env, seed=9, steps=80)
    assert data_equivalence(first, again, exact=True)
    observations, info = first[0]
    assert env.observation_space.contains(observations)
    assert info["action_mask"].shape == (5, players, encode.ACTIONS)
    ended = 0
    for before, after in itertools.pairwise(first):
        observations, rewards, terminated, truncated, info = after
        assert env.observation_space.contains(observations)
        assert observations is not before[0]  # copies, never the same array again
        assert rewards.shape == (5, players) and rewards.dtype == np.float32
        assert terminated.shape == truncated.shape == (5,) and terminated.dtype == bool
        if terminated.any():
            ended += 1
            total = rewards.sum(axis=1)
            assert (np.isclose(total, 1) | (total == 0)).all()
            assert env.observation_space.contains(info["final_obs"])
            assert not np.array_equal(info["final_obs"], observations)
    assert ended >= 1
    env.close()
    with pytest.raises(qe.InvalidArgument, match="reset"):
        env.step(env.action_space.sample())


def test_without_copies_the_same_arrays_hold_the_same_observations():
    copying = BatchVectorEnv("en", 4, num_envs=6)
    sharing = BatchVectorEnv("en", 4, num_envs=6, copy=False)
    kept, _ = sharing.reset(seed=2)
    expected, _ = copying.reset(seed=2)
    assert np.array_equal(kept, expected)
    actions = np.random.default_rng(2).integers(0, encode.ACTIONS, (200, 6, 4))
    arrays = {id(kept)}
    ends = 0
    for chosen in actions:
        observations, _, done, _, info = sharing.step(chosen)
        expected, _, _, _, copied = copying.step(chosen)
        assert np.array_equal(observations, expected)
        assert np.array_equal(info["action_mask"], copied["action_mask"])
        if done.any():  # the last observations stay apart from the new games'
            ends += 1
            assert info["final_obs"] is not observations
            assert np.array_equal(info["final_obs"], copied["final_obs"])
            assert np.array_equal(
                info["final_info"]["action_mask"], copied["final_info"]["action_mask"]
            )
            arrays.add(id(observations))
        else:
            assert id(observations) in arrays
    assert ends >= 2
    assert len(arrays) == 2  # two sets of arrays take turns
