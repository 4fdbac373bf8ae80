"""The PettingZoo environment of qe_rules.rl."""

import warnings

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import qe_rules as qe

np = pytest.importorskip("numpy", reason="the environments need the rl extra")
pytest.importorskip("pettingzoo", reason="the PettingZoo environment needs the rl extra")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from qe_rules.learning import encode  # noqa: E402
from qe_rules.rl import QEEnv, agent_name, seat_of  # noqa: E402


def play_randomly(env, seed, choose=None):
    """Play one game with random legal actions; return the seats' summed rewards."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(choose(legal) if choose else rng.choice(legal)))
    return totals


@pytest.mark.parametrize("players", [3, 4, 5])
def test_pettingzoo_api_test(players):
    with warnings.catch_warnings():
        # Dict observations with action masks are PettingZoo's own convention for board
        # games; its checker names them only in a list of its built-in games.
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably")
        api_test(QEEnv("en", players), num_cycles=1000)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_pettingzoo_seed_test(players):
    seed_test(lambda: QEEnv("en", players), num_cycles=1000)


@pytest.mark.parametrize("reward", ["shaped", "rank", "score"])
def test_the_reward_option_pays_its_rewards_and_the_end_info(reward):
    from qe_rules.learning.rewards import final_rewards

    env = QEEnv("en", 4, reward=reward)
    env.reset(seed=6)
    paid, infos = {}, {}
    for agent in env.agent_iter():
        observation, reward_now, terminated, _, info = env.last()
        if terminated:
            paid[agent], infos[agent] = reward_now, info
            env.step(None)
        else:
            env.step(int(np.flatnonzero(observation["action_mask"])[-1]))
    result = env.game.result()
    for seat, expected in enumerate(final_rewards(result, reward)):
        assert paid[agent_name(seat)] == pytest.approx(expected)
        info = infos[agent_name(seat)]
        assert info["result"] == result and info["spends"][seat] == result.sheets[seat].spent
        assert info["win_share"] == (1.0 if result.winners == (seat,) else 0.0)


@pytest.mark.parametrize(("ruleset", "players"), [("en", 4), ("de", 5), ("en-early", 3)])
def test_a_game_ends_with_the_winner_rewarded(ruleset, players):
    env = QEEnv(ruleset, players)
    totals = play_randomly(env, seed=3)
    result = env.game.result()
    assert env.game.is_over and not env.agents
    for seat in range(players):
        share = 1 / len(result.winners) if seat in result.winners else 0.0
        assert totals[agent_name(seat)] == pytest.approx(share)


def test_the_seats_of_a_bidding_round_observe_the_same_state():
    env = QEEnv("en", 4)
    env.reset(seed=5)
    env.step(4)  # the opening bid
    bidders = sorted(env.game.to_act)
    before = env.game
    for seat in bidders:
        assert env.agent_selection == agent_name(seat)
        observation = env.observe(agent_name(seat))
        assert observation["observation"].tolist() == encode.observation(before.view(seat)).tolist()
        env.step(0 if seat != bidders[-1] else 1)
        if seat != bidders[-1]:
            assert env.game is before  # held until the last bidder has acted
            assert not env.observe(agent_name(seat))["action_mask"].any()
            assert not env.action_mask(agent_name(seat)).any()
    assert env.game.sale == 1


def test_the_peek_window_is_played_with_the_peek_actions():
    env = QEEnv("en", 5)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    peeked = declined = 0
    while not env.game.is_over:
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        if env.game.phase is qe.Phase.PEEKING:
            assert seat_of(agent) in env.game.to_act
            assert mask[encode.DECLINE_PEEK] and mask[encode.PEEK]
            assert not mask[: encode.BID_CAP + 1].any()
            action = encode.PEEK if peeked == 0 else encode.DECLINE_PEEK
            peeked += action == encode.PEEK
            declined += action == encode.DECLINE_PEEK
        else:
            assert not mask[encode.PEEK] and not mask[encode.DECLINE_PEEK]
            legal = np.flatnonzero(mask)
            action = int(legal[0] if seat_of(agent) == env.game.auctioneer else rng.choice(legal))
        env.step(action)
    kinds = {type(event).__name__ for event in env.game.events}
    assert peeked == 1 and declined > 0
    assert {"Peeked", "PeekDeclined"} <= kinds


def test_an_illegal_action_raises_and_changes_nothing():
    env = QEEnv("en", 4)
    env.reset(seed=2)
    game, agent = env.game, env.agent_selection
    with pytest.raises(qe.IllegalAction, match="cannot take action 0"):
        env.step(0)  # an opening bid is at least 1
    with pytest.raises(qe.IllegalAction):
        env.step(encode.PEEK)
    with pytest.raises(qe.InvalidArgument):
        env.step("5")
    assert env.game is game and env.agent_selection == agent


def test_endless_ties_truncate():
    endless = attrs.evolve(qe.get_ruleset("en"), id="endless", tie_fallback=qe.TieFallback.NONE)
    env = QEEnv(endless, 3, max_rounds=5)
    env.reset(seed=1)
    env.step(3)  # the opening bid
    rounds = 0
    while not any(env.truncations.values()):
        env.step(7)  # everyone bids 7, again and again
        rounds += 1
        assert rounds < 100
    assert env.game.sale == 0 and not any(env.terminations.values())
    assert rounds == 2 * 5  # two bidders, five bidding rounds
    for _ in env.agent_iter():
        assert env.last()[3]
        env.step(None)
    assert not env.agents


def test_render_svg_and_text():
    env = QEEnv("en", 4, render_mode="svg")
    env.reset(seed=1)
    public = env.render()
    assert public.startswith("<svg") and "You" not in public
    seat = QEEnv("en", 4, render_mode="svg", render_seat=2)
    seat.reset(seed=1)
    assert "You" in seat.render()
    text = QEEnv("en", 4, render_mode="ansi")
    play_randomly(text, seed=4)
    board = text.render()
    assert board.startswith("Sale 1 (") and str(text.game.result()) in board
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert QEEnv("en", 4).render() is None


def test_an_unknown_render_mode_warns_and_renders_nothing():
    with pytest.warns(UserWarning, match="'human' is not one of ansi, svg"):
        env = QEEnv("en", 4, render_mode="human")
    env.reset(seed=1)
    assert env.render_mode is None
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert env.render() is None


def test_pettingzoo_render_test():
    from pettingzoo.test import render_test

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", ".*is not one of ansi, svg")
        warnings.filterwarnings("ignore", ".*without a render_mode")
        render_test(
            lambda render_mode=None: QEEnv("en", 3, render_mode=render_mode),
            custom_tests={"svg": lambda picture: picture.startswith("<svg")},
        )


def test_arguments_are_checked():
    with pytest.raises(qe.InvalidArgument, match="render_mode"):
        QEEnv("en", 4, render_mode=3)
    with pytest.raises(qe.InvalidArgument, match="reward"):
        QEEnv("en", 4, reward="points")
    with pytest.raises(qe.InvalidArgument):
        QEEnv("en", 6)
    with pytest.raises(qe.InvalidArgument, match="max_rounds"):
        QEEnv("en", 4, max_rounds=0)
    with pytest.raises(qe.InvalidArgument, match="player_<seat>"):
        seat_of("seat_1")


@given(st.sampled_from([("en", 3), ("en", 4), ("de", 5), ("en-early", 4)]), st.data())
@settings(max_examples=20, deadline=None)
def test_every_observation_is_the_encoding_of_the_seats_view(table, data):
    ruleset, players = table
    env = QEEnv(ruleset, players)
    env.reset(seed=data.draw(st.integers(0, 2**32)))
    for _ in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = seat_of(env.agent_selection)
        view = env.game.view(seat)
        assert observation["observation"].tolist() == encode.observation(view).tolist()
        mask = observation["action_mask"]
        assert mask.tolist() == encode.action_mask(view).astype(np.int8).tolist()
        legal = [int(a) for a in np.flatnonzero(mask)]
        if env.game.phase is qe.Phase.PEEKING:
            assert all(env.game.can_peek(seat) for a in legal if a == encode.PEEK)
        else:
            assert all(env.game.can_bid(seat, a) for a in legal)
        env.step(data.draw(st.sampled_from(legal)))
    assert env.game.is_over
