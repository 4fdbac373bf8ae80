"""The single-learner vector environment: game ``i`` is play_game's game ``i`` with the
learner's moves in its seat and the opponents' agents in the others; every observation
and mask the learner gets is the encoder's of its view at that moment; rewards are the
reference rewards; Gymnasium's vector conventions hold."""

import gymnasium
import numpy as np
import pytest

import qe_rules as qe
from qe_rules.learning import encode
from qe_rules.learning.rewards import final_rewards
from qe_rules.learning.seat_vector_env import SEAT_VECTOR_ENV_ID, SeatVectorEnv
from qe_rules.simulation.agents import Agent
from qe_rules.simulation.play import play_game


class Replayed(Agent):
    """Plays the given actions in turn, keeping the encoding of each view it is asked in."""

    def __init__(self, actions):
        self.actions = list(actions)
        self.seen = []

    def _next(self, view):
        self.seen.append((encode.observation(view), encode.action_mask(view)))
        return self.actions.pop(0)

    def bid(self, view):
        action = self._next(view)
        return view.limits.legal(action if 0 <= action <= encode.BID_CAP else 0)

    def wants_peek(self, view):
        return view.can_peek and self._next(view) == encode.PEEK


def one_set(env, rng, seed):
    """Play one set of games with random legal actions: per game the learner's (observation,
    mask, action) at each decision, and the last step's rewards and info."""
    observations, info = env.reset(seed=seed)
    taken = [[] for _ in range(env.num_envs)]
    while True:
        masks = info["action_mask"]
        actions = (masks * rng.random(masks.shape)).argmax(axis=1)
        for game in np.flatnonzero(~info["waiting"]):
            taken[game].append((observations[game], masks[game], int(actions[game])))
        observations, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        if terminated.any():
            assert terminated.all()
            return taken, rewards, info


@pytest.mark.parametrize(
    ("ruleset", "players", "opponents", "seat"),
    [
        ("en", 4, ["value", "random", "trained"], 1),
        ("en", 3, "value", 0),
        ("en", 5, ["zero", "value", "random", "value"], 4),
        ("de", 5, "trained", 2),
        ("en-early", 4, "random", 3),
        ("en", 4, ["adaptive", "value", "adaptive"], 2),
    ],
)
def test_the_games_are_play_games_with_the_learner_in_its_seat(ruleset, players, opponents, seat):
    env = SeatVectorEnv(
        ruleset, players, num_envs=12, opponents=opponents, seat=seat, reward="shaped"
    )
    taken, rewards, info = one_set(env, np.random.default_rng(players), seed=11)
    names = opponents if isinstance(opponents, list) else [opponents] * (players - 1)
    for game, moves in enumerate(taken):
        table_seat = int(info["final_info"]["seat"][game])
        learner = Replayed(action for _, _, action in moves)
        agents = [None] * players
        agents[table_seat] = lambda _seed, learner=learner: learner
        for k, name in enumerate(names):
            agents[(table_seat + 1 + k) % players] = name
        played = play_game(ruleset, players, agents, seed=11, index=game)
        assert learner.actions == []
        assert len(learner.seen) == len(moves)
        for (observation, mask, _), (expected, expected_mask) in zip(
            moves, learner.seen, strict=True
        ):
            assert np.array_equal(observation, expected)
            assert np.array_equal(mask, expected_mask)
        result = played.result()
        shaped = final_rewards(result, "shaped")[table_seat]
        assert rewards[game] == pytest.approx(shaped)
        win = final_rewards(result, "win")[table_seat]
        assert info["final_info"]["win_share"][game] == pytest.approx(win)
        assert info["final_info"]["spent"][game] == result.sheets[table_seat].spent


def test_the_vector_conventions_hold():
    env = SeatVectorEnv("en", 4, num_envs=6, opponents="value")
    assert isinstance(env, gymnasium.vector.VectorEnv)
    assert env.single_action_space == gymnasium.spaces.Discrete(encode.ACTIONS)
    observations, info = env.reset(seed=2)
    assert observations in env.observation_space
    rng = np.random.default_rng(1)
    places = []
    for _ in range(3):
        places.append(env.column)
        while True:
            masks = info["action_mask"]
            assert masks.any(axis=1).all()  # a waiting game allows action 0 alone
            assert (masks[info["waiting"]].sum(axis=1) == 1).all()
            assert env.action_masks().tolist() == masks.tolist()
            actions = (masks * rng.random(masks.shape)).argmax(axis=1)
            observations, rewards, terminated, truncated, info = env.step(actions)
            assert rewards.shape == terminated.shape == truncated.shape == (6,)
            assert rewards.dtype == np.float32 and terminated.dtype == bool
            if terminated.any():
                break
            assert not rewards.any()
        assert info["_final_obs"].all() and info["final_obs"].shape == (6, encode.OBSERVATION_SIZE)
        assert info["_final_info"].all()
        assert set(rewards.tolist()) <= {0.0, 1.0}
    assert places == [0, 1, 2]  # the learner's place rotates with each set of games
    again = SeatVectorEnv("en", 4, num_envs=6, opponents="value")
    first, _ = again.reset(seed=2)
    assert np.array_equal(first, env.reset(seed=2)[0])
    made = gymnasium.make_vec(SEAT_VECTOR_ENV_ID, num_envs=3, players=3, opponents="random")
    assert made.reset(seed=1)[0].shape == (3, encode.OBSERVATION_SIZE)
    wrapped = gymnasium.wrappers.vector.RecordEpisodeStatistics(SeatVectorEnv("en", 4, 4))
    observations, info = wrapped.reset(seed=1)
    for _ in range(40):
        masks = info["action_mask"]
        observations, rewards, terminated, truncated, info = wrapped.step(masks.argmax(axis=1))
        if terminated.any():
            assert "episode" in info
            break
    else:
        pytest.fail("no game ended")


def test_bad_arguments_and_actions_are_refused():
    with pytest.raises(qe.InvalidArgument, match="seat"):
        SeatVectorEnv("en", 4, 2, seat=4)
    with pytest.raises(qe.InvalidArgument, match="reward"):
        SeatVectorEnv("en", 4, 2, reward="money")
    with pytest.raises(qe.InvalidArgument, match="agents"):
        SeatVectorEnv("en", 4, 2, opponents=["value"])
    env = SeatVectorEnv("en", 4, 2)
    with pytest.raises(qe.InvalidArgument, match="reset"):
        env.step(np.zeros(2, dtype=int))
    env.reset(seed=1)
    with pytest.raises(qe.InvalidArgument, match="2 whole numbers"):
        env.step(np.zeros(3, dtype=int))
    with pytest.raises(qe.InvalidArgument, match="seed"):
        env.reset(seed=[1, 2])


@pytest.mark.parametrize(
    ("ruleset", "players", "opponents", "copy"),
    [("en", 5, "random", False), ("de", 5, "value", True), ("en", 3, "value", False),
     ("en-early", 4, "value", False)],
)  # fmt: skip
def test_a_waiting_game_shows_its_last_observation(ruleset, players, opponents, copy):
    env = SeatVectorEnv(ruleset, players, num_envs=24, opponents=opponents, copy=copy)
    rng = np.random.default_rng(players)
    observations, info = env.reset(seed=5)
    last = observations.copy()
    partial = 0
    for _ in range(3 * 60):
        masks = info["action_mask"]
        observations, _, terminated, _, info = env.step((masks * rng.random(masks.shape)).argmax(1))
        if terminated.any():
            last = observations.copy()
            continue
        waiting = info["waiting"]
        partial += bool(waiting.any())
        assert np.array_equal(observations[waiting], last[waiting])
        last = observations.copy()
    assert partial > 10
