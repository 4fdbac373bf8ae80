"""The single-seat Gymnasium environment of qe_rules.gymnasium_env."""

import warnings

import attrs
import pytest

import qe_rules as qe

np = pytest.importorskip("numpy", reason="the environments need the rl extra")
pytest.importorskip("gymnasium", reason="the Gymnasium environment needs the rl extra")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from qe_rules.gymnasium_env import QESeatEnv  # noqa: E402
from qe_rules.learning import encode  # noqa: E402
from qe_rules.simulation.agents import ZeroAgent  # noqa: E402


def episode(env, seed, choose):
    """Play one episode; return the rewards, the last info and how it ended."""
    observation, info = env.reset(seed=seed)
    rewards, done = [], False
    while not done:
        assert env.observation_space.contains(observation)
        action = choose(env.action_masks())
        observation, reward, terminated, truncated, info = env.step(action)
        rewards.append(reward)
        done = terminated or truncated
    return rewards, info, terminated


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("render_mode", ["svg", "ansi"])
def test_gymnasium_check_env(players, render_mode):
    with warnings.catch_warnings():
        # Made directly rather than through gymnasium.make, so it has no registry spec.
        warnings.filterwarnings("ignore", ".*environment not having a spec")
        check_env(QESeatEnv("en", players, seat=players - 1, render_mode=render_mode))


@pytest.mark.parametrize(
    ("ruleset", "players", "seat"), [("en", 4, 0), ("de", 5, 3), ("en-early", 3, 2)]
)
def test_an_episode_is_a_game_rewarded_at_its_end(ruleset, players, seat):
    env = QESeatEnv(ruleset, players, seat=seat, opponents="random")
    rng = np.random.default_rng(1)
    rewards, info, terminated = episode(env, 5, lambda mask: rng.choice(np.flatnonzero(mask)))
    winners = env.game.result().winners
    assert terminated and env.game.is_over
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == (1 / len(winners) if seat in winners else 0.0)
    assert not info["action_mask"].any() and not info["illegal_action"]


def test_the_same_seed_plays_the_same_episode():
    def run():
        env = QESeatEnv("en", 4, seat=2)
        rewards, _, _ = episode(env, 9, lambda mask: int(np.flatnonzero(mask)[-1]))
        return rewards, env.game.to_record()

    assert run() == run()


def test_the_seat_answers_the_peek_window_with_its_actions():
    env = QESeatEnv("en", 5, seat=4, opponents="random")
    answered = 0
    for seed in range(10):
        env.reset(seed=seed)
        while not env.game.is_over:
            mask = env.action_masks()
            if env.game.phase is qe.Phase.PEEKING:
                assert mask[encode.PEEK] and mask[encode.DECLINE_PEEK]
                answered += 1
                action = encode.PEEK
            else:
                action = int(np.flatnonzero(mask)[0])
            env.step(action)
        if answered:
            break
    peeks = [e for e in env.game.events if isinstance(e, qe.Peeked) and e.seat == 4]
    assert answered and len(peeks) == 1  # one peek a game; later windows skip the seat


def test_a_forbidden_action_is_played_as_the_nearest_legal_one():
    env = QESeatEnv("en", 4, seat=1, opponents=ZeroAgent)
    env.reset(seed=2)
    while env.game.opening_bid is None:  # seat 1 opens: any amount from 1
        env.step(1)
    opening = env.game.opening_bid
    _, _, _, _, info = env.step(opening)  # equal to the opening bid: raised by one
    assert info["illegal_action"]
    bids = [e for e in env.game.events if isinstance(e, qe.SecretBid) and e.seat == 1]
    assert bids[-1].amount == opening + 1
    with pytest.raises(qe.InvalidArgument, match="from 0 to 32"):
        env.step(33)


def test_endless_ties_truncate_the_episode():
    endless = attrs.evolve(qe.get_ruleset("en"), id="endless", tie_fallback=qe.TieFallback.NONE)

    class Seven(ZeroAgent):
        def bid(self, view):
            return view.limits.legal(7)

    env = QESeatEnv(endless, 3, seat=0, opponents=Seven, max_rounds=4)
    _, _, terminated = episode(env, 0, lambda mask: 7 if mask[7] else int(np.flatnonzero(mask)[0]))
    assert not terminated and not env.game.is_over
    with pytest.raises(qe.InvalidArgument, match="reset"):
        QESeatEnv("en", 4).step(0)


def test_arguments_are_checked():
    with pytest.raises(qe.InvalidArgument, match="seat"):
        QESeatEnv("en", 4, seat=4)
    with pytest.raises(qe.InvalidArgument, match="unknown agent"):
        QESeatEnv("en", 4, opponents="smart")
    with pytest.raises(qe.InvalidArgument, match="render_mode"):
        QESeatEnv("en", 4, render_mode=["svg"])
    with pytest.raises(qe.InvalidArgument, match="reward"):
        QESeatEnv("en", 4, reward="margin")
    env = QESeatEnv("en", 4)
    with pytest.raises(qe.InvalidArgument, match="reset options"):
        env.reset(options={"players": 3})
    with pytest.raises(qe.InvalidArgument, match="seat"):
        env.reset(options={"seat": 4})
    assert env.seat == 0


def test_an_unknown_render_mode_warns_and_renders_nothing():
    with pytest.warns(UserWarning, match="'rgb_array' is not one of ansi, svg"):
        env = QESeatEnv("en", 4, render_mode="rgb_array")
    env.reset(seed=1)
    assert env.render_mode is None
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert env.render() is None


@pytest.mark.parametrize("reward", ["win", "shaped", "rank", "score"])
def test_the_last_step_pays_the_reward_option_and_reports_the_result(reward):
    from qe_rules.learning.rewards import final_rewards

    env = QESeatEnv("en", 4, seat=1, opponents="random", reward=reward)
    rewards, info, terminated = episode(env, 8, lambda mask: int(np.flatnonzero(mask)[0]))
    result = env.game.result()
    assert terminated and rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == final_rewards(result, reward)[1]
    assert info["result"] == result and info["winners"] == result.winners
    assert info["spends"] == tuple(sheet.spent for sheet in result.sheets)
    assert info["eliminated"] == result.sheets[1].eliminated


def test_reset_options_change_the_seat_and_the_opponents():
    env = QESeatEnv("en", 4, seat=0, opponents="value")
    env.reset(seed=3, options={"seat": 2, "opponents": ZeroAgent})
    assert env.seat == 2 and 2 in env.game.to_act | {env.game.auctioneer}
    assert all(isinstance(agent, ZeroAgent) for agent in env.agents if agent is not None)
    assert env.agents[2] is None


def test_gymnasium_make_builds_the_registered_environment():
    import gymnasium

    from qe_rules.gymnasium_env import ENV_ID

    made = gymnasium.make(ENV_ID, ruleset="de", players=5, seat=4, opponents="random")
    assert isinstance(made.unwrapped, QESeatEnv)
    assert (made.unwrapped.rules.id, made.unwrapped.players, made.unwrapped.seat) == ("de", 5, 4)
    _, info = made.reset(seed=2)
    assert made.get_wrapper_attr("action_masks")().tolist() == info["action_mask"].tolist()
    check_env(made.unwrapped)  # as made, with its registry spec: no warning to silence
    with warnings.catch_warnings():
        # check_env warns that a made environment is wrapped (in Gymnasium's own checks).
        warnings.filterwarnings("ignore", ".*different from the unwrapped version")
        check_env(made)


def test_gymnasium_make_imports_the_module_and_import_qe_rules_does_not_load_gymnasium():
    import subprocess
    import sys

    code = (
        "import sys, qe_rules\n"
        "assert 'gymnasium' not in sys.modules and 'numpy' not in sys.modules\n"
        "import gymnasium\n"
        "assert 'qe_rules/QESeat-v0' not in gymnasium.registry\n"
        "env = gymnasium.make('qe_rules.gymnasium_env:qe_rules/QESeat-v0', players=3)\n"
        "print(type(env.unwrapped).__name__, env.reset(seed=1)[0].shape)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["QESeatEnv", "(265,)"]


def test_the_registered_id_as_libraries_make_it():
    import gymnasium

    from qe_rules.gymnasium_env import ENV_ID

    # Stable-Baselines3's make_vec_env(id) asks for render_mode="rgb_array" whatever the
    # environment offers: Gymnasium warns, and so does the environment, which draws nothing.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        made = gymnasium.make(ENV_ID, render_mode="rgb_array", reward="shaped")
    assert any("rgb_array" in str(w.message) for w in caught)
    made.reset(seed=4)
    with pytest.warns(UserWarning, match="render"):
        assert made.render() is None
    assert made.unwrapped.render_mode is None and made.unwrapped.reward == "shaped"
    vector = gymnasium.make_vec(ENV_ID, num_envs=2, vectorization_mode="sync", players=3)
    observations, infos = vector.reset(seed=[1, 2])
    assert observations.shape == (2, encode.OBSERVATION_SIZE)
    masks = vector.call("action_masks")
    assert [m.tolist() for m in masks] == infos["action_mask"].tolist()
    steps = 0
    finished = np.zeros(2, bool)
    while not finished.all():
        actions = np.array([int(np.flatnonzero(m)[0]) for m in vector.call("action_masks")])
        _, _, terminated, truncated, infos = vector.step(actions)
        if terminated.any():
            assert all(infos["_win_share"] == terminated)
        finished |= terminated | truncated
        steps += 1
    assert steps < 100
    vector.close()
