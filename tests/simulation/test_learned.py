"""The learned agent (qe_rules.simulation.learned) and its batched form decide alike: every
move of a learned seat in the batch's games is what the reference agent, made with that
seat's keyed seed, chooses from the same view; and the shipped ``trained`` agent."""

import itertools
import random

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules.game.draws import agent_seed, game_key, run_key
from qe_rules.simulation.agents import agent_from_name
from qe_rules.simulation.learned import (
    FEATURES,
    OUTPUTS,
    TRAINED_WEIGHTS,
    VALUE_VARIANTS,
    LearnedAgent,
    LearnedWeights,
    TrainedAgent,
    agrees_with_en,
    trained_weights,
)
from qe_rules.simulation.play import play_game
from tests.support import examples, slow_except, states

np = pytest.importorskip("numpy", reason="the batched engine needs numpy (the batch extra)")

from qe_rules import batch  # noqa: E402
from qe_rules.simulation.batch.learned import LearnedBids, TrainedBids  # noqa: E402


def drawn_weights(seed, hidden=(8,), spread=200):
    """Weights drawn at random: every feature and setting counts."""
    draw = random.Random(seed)
    sizes = [len(FEATURES), *hidden, len(OUTPUTS)]
    layers = tuple(
        (
            tuple(tuple(draw.randint(-spread, spread) for _ in range(b)) for _ in range(a)),
            tuple(draw.randint(-spread // 2, spread // 2) for _ in range(b)),
        )
        for a, b in itertools.pairwise(sizes)
    )
    return LearnedWeights(
        layers,
        noise=draw.randint(0, 1000),
        opening_noise=draw.randint(0, 1000),
        margin=draw.randint(-300, 300),
        rebid_steps=draw.randint(0, 1000),
        style_cap=draw.randint(-2000, 2000),
    )


def reference_decisions(played, seed, make):
    """Each move of a seat whose agent is named ``learned`` or ``trained`` against the
    choice of ``make(seat seed)`` from the same view: the differences, and the count."""
    wrong, count = [], 0
    for index in range(played.games):
        record = played.record(index)
        key = game_key(run_key(seed), played.start + index)
        agents = [make(agent_seed(key, seat)) for seat in range(played.players)]
        for move, game in zip(record.moves, states(record.to_dict()), strict=False):
            if played.agents[move.seat] not in ("learned", "trained"):
                continue
            view = game.view(move.seat)
            count += 1
            if move.kind == "bid":
                chosen = agents[move.seat].bid(view)
                if chosen != move.amount:
                    wrong.append((index, move, chosen))
            elif agents[move.seat].wants_peek(view) != (move.kind == "peek"):
                wrong.append((index, move))
    return wrong, count


@pytest.mark.parametrize(
    ("ruleset", "players", "hidden"),
    slow_except(
        [
            ("en", 3, (8,)),
            ("en", 4, (8,)),
            ("en", 5, (8,)),
            ("de", 5, (6,)),
            ("en-early", 4, ()),
            ("en:tie_streak=same-players,min_secret_bid=2,rebid_may_equal_opening=true", 5, (4, 3)),
        ],
        ("en", 4, (8,)),
    ),
)
def test_the_batched_learned_agent_decides_as_the_learned_agent(ruleset, players, hidden):
    rules = qe.get_ruleset(ruleset)
    weights = drawn_weights(players, hidden)
    agent = LearnedBids(weights)
    agents = [agent, "value", "random", agent, agent][:players]
    played = batch.play(rules, players, 25, agents=agents, seed=7, keep_moves=True)
    wrong, count = reference_decisions(played, 7, lambda s: LearnedAgent(weights, s, rules))
    assert (wrong, count > 100) == ([], True)


@examples(12)
@given(st.integers(0, 2**20), st.sampled_from([(), (3,), (8,)]), st.sampled_from([3, 4, 5]))
def test_any_weights_decide_alike_on_both_engines(seed, hidden, players):
    weights = drawn_weights(seed, hidden, spread=random.Random(seed).choice([20, 200, 2000]))
    agent = LearnedBids(weights)
    played = batch.play("en", players, 6, agents=[agent] * players, seed=seed, keep_moves=True)
    wrong, _ = reference_decisions(played, seed, lambda s: LearnedAgent(weights, s))
    assert wrong == []


@pytest.mark.parametrize(("ruleset", "players"), slow_except([
    ("en", 3), ("en", 4), ("en", 5), ("de", 4), ("de-summary", 5), ("en-early", 4),
], ("en", 4)))  # fmt: skip
def test_the_batched_trained_agent_decides_as_the_trained_agent(ruleset, players):
    agents = ["trained", "value", TrainedBids(), "random", "trained"][:players]
    played = batch.play(ruleset, players, 20, agents=agents, seed=3, keep_moves=True)
    wrong, count = reference_decisions(played, 3, lambda s: TrainedAgent(s))
    assert (wrong, count > 50) == ([], True)


def test_weights_of_the_value_agent_play_as_the_value_agent():
    weights = LearnedWeights.value_agent((5,))
    learned = play_game("en", 4, [lambda s: LearnedAgent(weights, s)] * 4, seed=12)
    assert learned.to_record() == play_game("en", 4, "value", seed=12).to_record()
    played = batch.play("en", 4, 300, agents=LearnedBids(weights), seed=2)
    value = batch.play("en", 4, 300, agents="value", seed=2)
    assert (played.totals == value.totals).all()


def test_the_shipped_weights_apply_where_the_rules_agree_with_en():
    assert agrees_with_en(qe.get_ruleset("de")) and agrees_with_en(qe.get_ruleset("de-summary"))
    assert not agrees_with_en(qe.get_ruleset("en-early"))
    assert not agrees_with_en(qe.get_ruleset("en:zero_bid_points=3"))
    for players in (3, 4, 5):
        assert trained_weights("de", players) is trained_weights("en", players) is not None
        assert trained_weights("en-early", players) is None
    trained = play_game("en-early", 4, ["trained", "random", "value", "zero"], seed=4)
    value = play_game("en-early", 4, ["value", "random", "value", "zero"], seed=4)
    assert trained.to_record() == value.to_record()
    assert isinstance(agent_from_name("trained"), TrainedAgent)
    assert repr(TrainedAgent(4)) == "TrainedAgent(seed=4)"


def test_the_shipped_weights_are_small_and_read_back():
    from importlib import resources

    for players, name in TRAINED_WEIGHTS.items():
        path = resources.files("qe_rules").joinpath(f"data/agents/{name}")
        assert len(path.read_bytes()) < 8_000
        with resources.as_file(path) as file:
            weights = LearnedWeights.load(file)
        assert weights.players == players and weights.ruleset == "en"
        assert LearnedWeights.from_dict(weights.to_dict()) == weights


def test_the_variants_change_the_value_agent():
    plain = batch.play("en", 4, 200, agents="value", seed=5)
    for name, weights in VALUE_VARIANTS.items():
        played = batch.play("en", 4, 200, agents=[LearnedBids(weights)] + ["value"] * 3, seed=5)
        assert (played.spent != plain.spent).any(), name


def test_weights_that_do_not_fit_are_refused():
    good = LearnedWeights.value_agent((2,))
    with pytest.raises(qe.InvalidArgument, match="layer 0 maps"):
        LearnedWeights(((((0,),), (0,)),))
    with pytest.raises(qe.InvalidArgument, match="whole numbers"):
        attrs.evolve(good, layers=((((0.5,) * 4,) * len(FEATURES), (0,) * 4),))
    with pytest.raises(qe.InvalidArgument, match="gives 4 numbers"):
        LearnedWeights(((((0,) * 3,) * len(FEATURES), (0,) * 3),))
    with pytest.raises(qe.InvalidArgument, match="not the weights"):
        LearnedWeights.from_dict({"layers": []})
    data = drawn_weights(5).to_dict()
    assert LearnedWeights.from_dict(data) == drawn_weights(5)
    for field, value, match in (
        ("features", list(reversed(FEATURES)), "in this order"),
        ("features", [*FEATURES, "zero_share"], "in this order"),
        ("features", list(FEATURES[:-1]), "in this order"),
        ("outputs", ["target", "opening", "cap", "pass_below"], "in this order"),
        ("features", 7, "in this order"),
    ):
        with pytest.raises(qe.InvalidArgument, match=match):
            LearnedWeights.from_dict({**data, field: value})
    with pytest.raises(qe.InvalidArgument, match="LearnedWeights"):
        LearnedAgent("weights")


def test_the_learned_agents_products_run_on_one_blas_thread_and_restore_the_rest():
    threadpoolctl = pytest.importorskip("threadpoolctl")

    def blas_threads():  # numpy's own BLAS (scipy, once imported, brings another)
        pools = threadpoolctl.threadpool_info()
        return [
            p["num_threads"] for p in pools if p["user_api"] == "blas" and "numpy" in p["filepath"]
        ]

    before = blas_threads()
    seen = []

    class Watched:  # a layer's matrix that notes the BLAS threads at each product
        def __init__(self, matrix):
            self.matrix = matrix

        def __getitem__(self, key):
            return self.matrix[key]

        def __matmul__(self, other):
            seen.extend(blas_threads())
            return self.matrix @ other

    agent = LearnedBids(trained_weights("en", 4))
    agent._layers = [(Watched(matrix), bias) for matrix, bias in agent._layers]
    batch.play("en", 4, 50, agents=agent, seed=3)
    assert seen and set(seen) == {1}
    assert blas_threads() == before


def test_without_threadpoolctl_the_learned_agent_plays_the_same_games(monkeypatch):
    from qe_rules.simulation.batch import learned

    with_limit = batch.play("en", 4, 60, agents="trained", seed=8)
    monkeypatch.setattr(learned, "_blas", lambda: None)
    without = batch.play("en", 4, 60, agents="trained", seed=8)
    assert (with_limit.totals == without.totals).all()
    assert (with_limit.spent == without.spent).all()
