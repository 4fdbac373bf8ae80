"""The PettingZoo parallel environment of qe_rules.rl (QEParallelEnv)."""

import warnings

import pytest

import qe_rules as qe

np = pytest.importorskip("numpy", reason="the environments need the rl extra")
pytest.importorskip("pettingzoo", reason="the PettingZoo environments need the rl extra")
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test  # noqa: E402
from pettingzoo.utils.conversions import aec_to_parallel, parallel_to_aec  # noqa: E402

from qe_rules.learning import encode  # noqa: E402
from qe_rules.rl import STATE_SIZE, QEEnv, QEParallelEnv, agent_name, parallel_env  # noqa: E402

QUIET = (
    # Dict observations with action masks are PettingZoo's own convention for board games.
    "Observation is not a NumPy array",
    "Observation space for each agent probably",
)


def play(env, seed, choose):
    """Play one game, each seat to act choosing from its legal actions; return the
    rewards, infos and the number of steps."""
    observations, _ = env.reset(seed=seed)
    steps = 0
    while True:
        actions = {}
        for agent, seen in observations.items():
            legal = np.flatnonzero(seen["action_mask"])
            if len(legal):
                actions[agent] = int(choose(legal))
        observations, rewards, terminations, truncations, infos = env.step(actions)
        steps += 1
        if all(terminations.values()) or all(truncations.values()):
            return rewards, infos, steps


@pytest.mark.parametrize("players", [3, 4, 5])
def test_pettingzoo_parallel_api_test(players):
    with warnings.catch_warnings():
        for message in QUIET:
            warnings.filterwarnings("ignore", message)
        parallel_api_test(QEParallelEnv("en", players), num_cycles=1000)


def test_pettingzoo_parallel_seed_test():
    parallel_seed_test(lambda: QEParallelEnv("de", 5))


def test_conversions_round_trip_and_the_aec_form_passes_the_api_test():
    env = QEParallelEnv("en", 4)
    aec = parallel_to_aec(env)
    assert aec_to_parallel(aec) is env
    with warnings.catch_warnings():
        for message in QUIET:
            warnings.filterwarnings("ignore", message)
        api_test(aec, num_cycles=1000)
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(QEEnv("en", 4))  # turn by turn with held bids: use QEParallelEnv


@pytest.mark.parametrize(("ruleset", "players"), [("en", 4), ("de", 5), ("en-early", 3)])
def test_a_seed_deals_the_game_of_the_aec_environment_and_plays_it_alike(ruleset, players):
    parallel = QEParallelEnv(ruleset, players, reward="shaped")
    rewards, infos, steps = play(parallel, 11, lambda legal: legal[len(legal) // 3])
    aec = QEEnv(ruleset, players, reward="shaped")
    aec.reset(seed=11)
    paid = {}
    for agent in aec.agent_iter():
        observation, reward, terminated, _, _ = aec.last()
        if terminated:
            paid[agent] = reward
            aec.step(None)
        else:
            legal = np.flatnonzero(observation["action_mask"])
            aec.step(int(legal[len(legal) // 3]))
    assert aec.game.to_record() == parallel.game.to_record()
    assert paid == pytest.approx(rewards)
    result = parallel.game.result()
    assert all(infos[agent_name(s)]["result"] == result for s in range(players))
    assert steps < len(aec.game.events)  # a bidding round is one step, not one per seat


def test_the_seats_of_a_round_act_in_one_step_and_others_are_ignored():
    env = QEParallelEnv("en", 4)
    observations, _ = env.reset(seed=5)
    (opener,) = [a for a, seen in observations.items() if seen["action_mask"].any()]
    everyone = dict.fromkeys(env.possible_agents, 30)
    everyone[opener] = 4
    observations, *_ = env.step(everyone)  # the others' 30s are ignored
    assert env.game.opening_bid == 4 and env.game.sale == 0
    bidders = sorted(env.game.to_act)
    assert [a for a, seen in observations.items() if seen["action_mask"].any()] == [
        agent_name(s) for s in bidders
    ]
    for seat in bidders:
        view = env.game.view(seat)
        assert observations[agent_name(seat)]["observation"].tolist() == (
            encode.observation(view).tolist()
        )
    env.step({agent_name(s): 0 for s in bidders})
    assert env.game.sale == 1


def test_a_missing_or_illegal_action_raises_and_changes_nothing():
    env = QEParallelEnv("en", 4)
    observations, _ = env.reset(seed=2)
    game = env.game
    (opener,) = [a for a, seen in observations.items() if seen["action_mask"].any()]
    with pytest.raises(qe.InvalidArgument, match=f"{opener} is to act"):
        env.step({})
    with pytest.raises(qe.IllegalAction, match="cannot take action 0"):
        env.step({opener: 0})  # an opening bid is at least 1
    observations[opener]["action_mask"][0] = 1  # changing a handed-out mask allows nothing
    with pytest.raises(qe.IllegalAction):
        env.step({opener: 0})
    assert env.game is game
    with pytest.raises(qe.InvalidArgument, match="reset"):
        QEParallelEnv("en", 4).step({})


def test_the_state_is_every_seats_observation():
    env = parallel_env("en", 3)
    observations, _ = env.reset(seed=4)
    state = env.state()
    assert state.shape == (STATE_SIZE,) and env.state_space.contains(state)
    size = encode.OBSERVATION_SIZE
    for seat in range(3):
        part = state[seat * size : (seat + 1) * size]
        assert part.tolist() == observations[agent_name(seat)]["observation"].tolist()
    assert not state[3 * size :].any()


def test_supersuit_vectorises_it():
    supersuit = pytest.importorskip("supersuit", reason="SuperSuit is in the dev extra")
    vector = supersuit.pettingzoo_env_to_vec_env_v1(QEParallelEnv("en", 4))
    vector = supersuit.concat_vec_envs_v1(vector, 2, num_cpus=0, base_class="gymnasium")
    observations, _ = vector.reset(seed=3)
    assert observations["observation"].shape == (8, encode.OBSERVATION_SIZE)
    ended, rng = 0, np.random.default_rng(0)
    paid = 0.0
    for _ in range(400):
        masks = observations["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        observations, rewards, terminations, truncations, _ = vector.step(actions)
        assert terminations.reshape(2, 4).all(axis=1).tolist() == (
            terminations.reshape(2, 4).any(axis=1).tolist()
        )  # the seats of a game end together, and it starts again
        ended += int(terminations.sum())
        paid += float(rewards.sum())
        if ended >= 8:
            break
    assert ended >= 8 and not truncations.any()
    assert 0 <= paid <= ended / 4  # a win share of 1 at most for each game
    vector.close()
