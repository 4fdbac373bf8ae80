"""Policies as agents, self-play snapshots, the shipped PPO networks and the search agent."""

import subprocess
import sys

import pytest

import qe_rules as qe

np = pytest.importorskip("numpy", reason="the policies need the rl extra")

from qe_rules.learning import encode  # noqa: E402
from qe_rules.learning.policies import (  # noqa: E402
    MLPPolicy,
    PolicyAgent,
    PPOAgent,
    SelfPlay,
    policy_factory,
    ppo_policy,
)
from qe_rules.learning.search import SearchAgent  # noqa: E402
from qe_rules.simulation.agents import agent_from_name, agent_label  # noqa: E402
from qe_rules.simulation.intervals import wilson_interval  # noqa: E402
from qe_rules.simulation.play import play_game  # noqa: E402
from qe_rules.simulation.stats import simulate  # noqa: E402


def highest(observation, mask):
    return int(np.flatnonzero(mask)[-1])


def test_a_policy_agent_plays_the_policys_legal_actions():
    seen = []

    def record(observation, mask):
        seen.append((observation.shape, mask.dtype, int(mask.sum())))
        return 99 if len(seen) % 2 else encode.PEEK  # out of range, then a peek: made legal

    game = play_game("en", 5, [policy_factory(record), "value", "value", "value", "value"], seed=2)
    assert game.is_over and seen
    assert all(
        shape == (encode.OBSERVATION_SIZE,) and dtype.kind == "b" for shape, dtype, _ in seen
    )
    bids = [e for e in game.events if isinstance(e, qe.SecretBid | qe.OpeningBid) and e.seat == 0]
    assert bids and all(e.amount >= 0 for e in bids)


def test_a_policy_agent_is_seated_like_any_other():
    stats = simulate(
        "en", 4, [policy_factory(highest), "value", "value", "value"], games=20, seed=1
    )
    assert stats.games == 20 and stats.win_share[0] == 0.0  # bidding 30 every time loses
    assert agent_label(policy_factory(highest)) == "policy"
    with pytest.raises(qe.InvalidArgument, match="callable"):
        PolicyAgent(3)
    with pytest.raises(qe.InvalidArgument, match="whole number"):
        play_game("en", 4, [policy_factory(lambda o, m: "5"), "zero", "zero", "zero"], seed=1)


def test_self_play_seats_frozen_snapshots():
    class Fixed:
        def __init__(self, amount):
            self.amount = amount

        def __call__(self, observation, mask):
            return self.amount if mask[self.amount] else int(np.flatnonzero(mask)[0])

    play = SelfPlay(keep=2, latest=1.0)
    assert type(play.factory(1)).__name__ == "ValueAgent"
    live = Fixed(3)
    play.snapshot(live)
    live.amount = 9  # training goes on: the snapshot stays as it was
    assert play.snapshots[0].amount == 3
    play.snapshot(live, freeze=False)
    play.snapshot(Fixed(5))
    assert [p.amount for p in play.snapshots] == [9, 5]  # keeps two, the latest last
    agent = play.factory(7)
    view = qe.new_game("en", 4, seed=7).bid(0, 1).view(1)
    assert agent.bid(view) == 5
    with pytest.raises(qe.InvalidArgument, match="keep"):
        SelfPlay(keep=0)


def test_an_mlp_policy_checks_its_arrays_and_picks_the_best_legal_action():
    rng = np.random.default_rng(0)
    arrays = {
        "w0": rng.normal(size=(encode.OBSERVATION_SIZE, 8)).astype(np.float32),
        "b0": np.zeros(8, np.float32),
        "w1": rng.normal(size=(8, encode.ACTIONS)).astype(np.float32),
        "b1": np.zeros(encode.ACTIONS, np.float32),
        "obs_mean": np.zeros(encode.OBSERVATION_SIZE),
        "obs_var": np.ones(encode.OBSERVATION_SIZE),
        "clip": 10.0,
        "epsilon": 1e-8,
    }
    policy = MLPPolicy(arrays)
    observation = rng.normal(size=encode.OBSERVATION_SIZE).astype(np.float32)
    logits = policy.logits(observation)
    mask = np.zeros(encode.ACTIONS, bool)
    mask[[2, 5, 7]] = True
    assert policy(observation, mask) == [2, 5, 7][int(np.argmax(logits[[2, 5, 7]]))]
    assert policy.logits(np.stack([observation] * 3)).shape == (3, encode.ACTIONS)
    with pytest.raises(qe.InvalidArgument, match="maps 265 numbers to 33 actions"):
        MLPPolicy({**arrays, "w1": arrays["w1"][:, :5]})
    with pytest.raises(qe.InvalidArgument, match="not the arrays"):
        MLPPolicy({"w0": arrays["w0"]})


# the least win share (the low end of the 95% interval, 300 games) the shipped networks
# must reach against value agents: above a value agent's share in that seat (about 33%
# with 3 players, 25% with 4, 19% with 5)
BEATS_VALUE = {3: 0.45, 4: 0.35, 5: 0.30}


@pytest.mark.slow
@pytest.mark.parametrize("players", sorted(BEATS_VALUE))
def test_the_ppo_agent_loads_without_torch_and_beats_value_agents(players):
    code = (
        "import sys\n"
        "from qe_rules.simulation.stats import simulate\n"
        f"agents = ['ppo'] + ['value'] * {players - 1}\n"
        f"stats = simulate('en', {players}, agents, games=300, seed=29)\n"
        "assert 'torch' not in sys.modules\n"
        "print(round(stats.win_share[0] * 300))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    wins = int(done.stdout)
    low, _ = wilson_interval(wins, 300)
    assert low > BEATS_VALUE[players], (wins, low)
    assert ppo_policy("en", players) is not None
    assert isinstance(agent_from_name("ppo"), PPOAgent)
    assert repr(PPOAgent(4)) == "PPOAgent(seed=4)"


def test_the_ppo_agent_plays_as_a_value_agent_where_no_network_applies():
    ppo = play_game("en-early", 5, ["ppo", "random", "value", "random", "value"], seed=4)
    value = play_game("en-early", 5, ["value", "random", "value", "random", "value"], seed=4)
    assert ppo.to_record() == value.to_record()
    # de differs from en only in what a peek shows: the en network plays there
    assert ppo_policy("de", 5) is ppo_policy("en", 5) is not None
    mine = play_game("de", 4, ["ppo", "value", "value", "value"], seed=4)
    assert mine.to_record() != play_game("de", 4, "value", seed=4).to_record()


def test_the_search_agent_bids_legally_and_the_same_for_the_same_view():
    game = qe.new_game("en", 4, seed=3)
    opener = next(iter(game.to_act))
    game = game.bid(opener, 4)
    seat = min(game.to_act)
    agent = SearchAgent(seed=2, simulations=12)
    view = game.view(seat)
    bid = agent.bid(view)
    assert view.limits.allows(bid) and bid in agent.candidates(view)
    assert SearchAgent(seed=2, simulations=12).bid(view) == bid
    with pytest.raises(qe.InvalidArgument, match="simulations"):
        SearchAgent(simulations=0)
    with pytest.raises(qe.InvalidArgument, match="not to bid"):
        agent.bid(game.view(opener))


@pytest.mark.slow  # a subprocess
def test_the_built_in_agents_of_other_modules_are_found_through_their_entry_points():
    """The simulation layer never imports the learning layer: ``trained`` (in the
    simulation layer, built on the agents module) and ``ppo`` (in the learning layer) are
    declared in the ``qe_rules.agents`` and ``qe_rules.batch_agents`` entry-point groups
    (and ``ppo`` registered when ``qe_rules.learning.policies`` is imported)."""
    import pathlib
    import tomllib

    from qe_rules.learning.policies import PPOBatchAgent
    from qe_rules.simulation import agents
    from qe_rules.simulation.batch.learned import TrainedBids
    from qe_rules.simulation.learned import TrainedAgent

    pyproject = pathlib.Path(__file__).resolve().parents[2] / "pyproject.toml"
    declared = tomllib.loads(pyproject.read_text())["project"]["entry-points"]
    assert declared[agents.AGENT_GROUP] == {
        "trained": "qe_rules.simulation.learned:TrainedAgent",
        "ppo": "qe_rules.learning.policies:PPOAgent",
        "adaptive": "qe_rules.learning.adaptive:AdaptiveAgent",
    }
    assert declared[agents.BATCH_AGENT_GROUP] == {
        "trained": "qe_rules.simulation.batch.learned:TrainedBids",
        "ppo": "qe_rules.learning.policies:PPOBatchAgent",
        "adaptive": "qe_rules.learning.adaptive:AdaptiveBatchAgent",
    }
    assert agents.agent_elsewhere(agents.AGENT_GROUP, "trained") is TrainedAgent
    assert agents.agent_elsewhere(agents.BATCH_AGENT_GROUP, "trained") is TrainedBids
    assert agents.agent_elsewhere(agents.AGENT_GROUP, "ppo") is PPOAgent
    assert agents.agent_elsewhere(agents.BATCH_AGENT_GROUP, "ppo") is PPOBatchAgent
    code = (
        "import sys\n"
        "from qe_rules.simulation.agents import agent_factory\n"
        "from qe_rules.simulation.batch.agents import batch_agent\n"
        "names = [agent_factory('trained').__name__, type(batch_agent('trained')).__name__]\n"
        "assert not any(name.startswith('qe_rules.learning') for name in sys.modules)\n"
        "names += [agent_factory('ppo').__name__, type(batch_agent('ppo')).__name__]\n"
        "names += [agent_factory('adaptive').__name__, type(batch_agent('adaptive')).__name__]\n"
        "print(*names)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [
        "TrainedAgent", "TrainedBids", "PPOAgent", "PPOBatchAgent", "AdaptiveAgent",
        "AdaptiveBatchAgent",
    ]  # fmt: skip
