"""One seed, one game: game ``i`` of a run with a seed is the same game on the reference
engine (``play_game``, ``simulate``, ``compare``) and on the batch (``batch.play``, the
vector environment), so their statistics are equal, not just alike."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules import batch
from qe_rules.rules.model import RULESETS
from qe_rules.simulation.play import dealt_game, play_game
from qe_rules.strategies import ruleset_variations
from tests.support import THOROUGH, examples, slow_except

GAMES = 1000 if THOROUGH else 60

TABLES = {
    "random": ["random"] * 5,
    "value": ["value"] * 5,
    "trained": ["trained"] * 5,
    "mixed": ["zero", "random", "value", "trained", "zero"],
}


def figures(stats):
    """What statistics say about the games (all but which engine played them)."""
    data = stats.to_dict()
    data.pop("engine")
    return data


# the trained agents alone are slow to play by the reference engine; "mixed" seats one
@pytest.mark.parametrize("table", slow_except(sorted(TABLES), "random", "value", "mixed"))
@pytest.mark.parametrize("players", slow_except([3, 4, 5], 4))
@pytest.mark.parametrize("ruleset", slow_except(sorted(RULESETS), "en"))
def test_both_engines_give_equal_statistics(ruleset, players, table):
    agents = TABLES[table][:players]
    reference = qe.simulate(ruleset, players, agents, GAMES, seed=17, engine="reference")
    batched = qe.simulate(ruleset, players, agents, GAMES, seed=17, engine="batch")
    assert (reference.engine, batched.engine) == ("reference", "batch")
    assert figures(reference) == figures(batched)


@pytest.mark.parametrize("players", slow_except([3, 4, 5], 5))
@pytest.mark.parametrize(
    "rulesets", slow_except(["en,en-early", "de,de-summary,en", "en-early,de"], "en,en-early")
)
def test_both_engines_compare_played_under_each_rule_set_equally(rulesets, players):
    rulesets = rulesets.split(",")
    agents = ["value", "random", "zero", "trained", "random"][:players]
    games = GAMES
    reference = qe.compare(
        rulesets, players, agents, games, seed=5, play="each", engine="reference"
    )
    batched = qe.compare(rulesets, players, agents, games, seed=5, play="each", engine="batch")
    assert figures(reference) == figures(batched)


@examples(40)
@given(
    rules=ruleset_variations(),
    data=st.data(),
    seed=st.integers(-(2**63) + 1, 2**63 - 1),
    start=st.integers(0, 2**40),
)
def test_a_batch_game_is_the_game_play_game_plays(rules, data, seed, start):
    players = data.draw(st.sampled_from(rules.player_counts), label="players")
    agents = data.draw(
        st.lists(st.sampled_from(["random", "value", "zero"]), min_size=players, max_size=players),
        label="agents",
    )
    played = batch.play(rules, players, 12, agents=agents, seed=seed, start=start)
    for index in range(played.games):
        game = play_game(rules, players, agents, seed=seed, index=start + index)
        assert played.record(index).to_dict() == game.to_record(), index


def test_a_dealt_game_is_the_batch_s_deal_and_its_first_auctioneer():
    played = batch.play("de", 5, 30, agents="zero", seed=8, start=3)
    for index in range(30):
        record = played.record(index)
        dealt = qe.GameRecord.from_dict(
            dealt_game(qe.get_ruleset("de"), 5, 8, 3 + index).to_record()
        )
        assert (dealt.deck, dealt.nations, dealt.industries, dealt.first_auctioneer) == (
            record.deck,
            record.nations,
            record.industries,
            record.first_auctioneer,
        )
        assert played.first_auctioneer[index] == record.first_auctioneer


def test_the_vector_environment_plays_the_run_s_games_seated_from_the_first_auctioneer():
    np = pytest.importorskip("numpy")
    from qe_rules.learning.vector_env import BatchVectorEnv

    env = BatchVectorEnv("en", 4, num_envs=6)
    env.reset(seed=21)
    chunk = env.chunk
    for index in range(6):
        first = int(chunk.first[index])
        dealt = qe.GameRecord.from_dict(dealt_game(qe.get_ruleset("en"), 4, 21, index).to_record())
        assert first == dealt.first_auctioneer
        order = [(first + column) % 4 for column in range(4)]
        rules = chunk.rules
        nations = [qe.Nation(list(qe.Nation)[rules.nations[n]]) for n in chunk.nations[index]]
        assert nations == [dealt.nations[seat] for seat in order]
        deck = [rules.ruleset.companies(4)[tile] for tile in chunk.deck[index]]
        assert deck == list(dealt.deck)
    assert np.array_equal(chunk.actual_seat[0], chunk.first)
    env.close()
