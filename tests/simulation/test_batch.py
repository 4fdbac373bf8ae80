"""The batched engine: every game it plays, exported as a record, replays through the
reference engine to the same totals, spends, eliminations, winners and rule gaps."""

import json
import os
import subprocess
import sys
from pathlib import Path

import attrs
import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules import batch
from qe_rules.game.facts import endless_ties
from qe_rules.rules.model import RULESETS, PeekTiming, RuleSet
from qe_rules.simulation.batch.choice import BATCHED_NAMES, uses_batch
from qe_rules.simulation.batch.chunks import GAME_ARRAYS, SEAT_ARRAYS
from qe_rules.strategies import ruleset_variations
from tests.support import THOROUGH, examples, slow_except, states

BUILTIN_GAMES = 10_000 if THOROUGH else 600


def assert_replays(played, games=None):
    """Every game of ``played`` (or the first ``games``) replays to its arrays."""
    for index in range(played.games if games is None else games):
        game = qe.replay(played.record(index))
        result = game.result()
        sheets = result.sheets
        assert [s.total for s in sheets] == played.totals[index].tolist(), index
        assert [s.spent for s in sheets] == played.spent[index].tolist(), index
        assert [s.eliminated for s in sheets] == played.eliminated[index].tolist(), index
        assert list(result.winners) == np.flatnonzero(played.winners[index]).tolist(), index
        assert [s.monopolization for s in sheets] == played.monopolization[index].tolist()
        assert [s.zero_bids for s in sheets] == played.zero_bids[index].tolist(), index
        codes = {gap.code for gap in game.gaps}
        assert codes == {c for b, c in enumerate(played.gap_codes) if played.gaps[index] >> b & 1}
        assert game.sale - sum(map(len, game.holdings)) == played.unsold[index]
        history = game.view(0).history  # a tie of the first bids, or of the last tile's
        tied = sum(1 for sale in history if sale.ties or sale.reason == "last-tile-tie")
        assert tied == played.tie_sales[index], index


@pytest.mark.parametrize("players", slow_except([3, 4, 5], 4))
@pytest.mark.parametrize("ruleset", slow_except(sorted(RULESETS), "en"))
def test_every_game_of_a_builtin_rule_set_replays_to_the_same_result(ruleset, players):
    agents = ["random", "floor", "random", "zero", "floor"][:players]
    played = batch.play(ruleset, players, BUILTIN_GAMES, agents=agents, seed=7, keep_moves=True)
    assert played.games == BUILTIN_GAMES
    assert_replays(played)


@pytest.mark.slow  # the quick run plays random readings (the property below)
@pytest.mark.parametrize(
    ("spec", "players"),
    [
        (
            "en-early:tie_fallback=highest-outside-top-tie,fallback_finds_no_bid=auctioneer-wins,"
            "auctioneer_rebid_may_be_zero=true,auctioneer_rebid_may_repeat_opening=true",
            4,
        ),
        ("en-early:tie_fallback=highest-outside-top-tie,ties_before_fallback=1", 5),
        ("en:last_tile_tie=any,last_tile_amount_public=true,min_secret_bid=1", 3),
        (
            "de:everyone_tied_for_most_spent=none-eliminated,tie_after_tiebreak=no-winner,"
            "beyond_table=continue-pattern",
            4,
        ),
        ("de-summary:rebid_visibility=tied-players,peek_shows=highest-bid", 5),
        ("de:peek_shows=highest-bid-made,tie_streak=same-players", 5),
        (
            attrs.evolve(
                qe.get_ruleset("en:rebid_visibility=first-bids,peek_shows=highest-bid"),
                peek_player_counts=(4, 5),
            ),
            4,
        ),
    ],
)
def test_games_under_the_new_readings_replay_to_the_same_result(spec, players):
    agents = ["value", "random", "floor", "zero", "value"][:players]
    played = batch.play(spec, players, BUILTIN_GAMES // 5, agents=agents, seed=4, keep_moves=True)
    assert_replays(played)


@pytest.mark.parametrize("reading", ["all-eliminated", "none-eliminated"])
def test_games_where_every_seat_spends_alike_replay_to_the_same_result(reading):
    """Zero agents spend alike in every game: the elimination of a table tied for the most
    spent, which the mixed tables above meet rarely."""
    spec = f"de:everyone_tied_for_most_spent={reading}"
    played = batch.play(spec, 4, 40, agents="zero", seed=1, keep_moves=True)
    assert (played.spent == played.spent[:, :1]).all()
    assert played.eliminated.all() == (reading == "all-eliminated")
    assert_replays(played)


@pytest.mark.parametrize("scores", ["true", "false"])
def test_games_won_with_a_zero_bid_replay_to_the_same_result(scores):
    """Zero agents, no smallest opening bid and the auctioneer taking what the fallback
    cannot sell: every sale is won with a zero bid, which the mixed tables meet rarely."""
    spec = (
        "en:min_opening_bid=0,fallback_finds_no_bid=auctioneer-wins,"
        f"zero_bid_winner_scores={scores}"
    )
    played = batch.play(spec, 4, 40, agents="zero", seed=1, keep_moves=True)
    assert (played.spent == 0).all() and (played.unsold == 0).all()
    assert_replays(played)


def test_games_where_the_unique_bid_pool_decides_replay_to_the_same_result():
    """The games where counting every bid of the sale (en-early) awards otherwise than
    counting the standing bids: rare (a few in 20,000), so the tests above may meet none."""
    every = batch.play("en-early", 4, 20_000, agents="random", seed=7, keep_moves=True)
    standing = batch.play(
        "en-early:unique_bid_pool=standing-bids", 4, 20_000, agents="random", seed=7
    )
    differ = np.flatnonzero((every.totals != standing.totals).any(axis=1))
    assert differ.size
    for index in differ:
        game = qe.replay(every.record(int(index)))
        assert [s.total for s in game.result().sheets] == every.totals[index].tolist()


@pytest.mark.slow  # about 2 s: kept out of the quick run
@examples(100)
@given(
    rules=ruleset_variations(endless=True),
    data=st.data(),
    seed=st.integers(-(2**63) + 1, 2**63 - 1),
    start=st.integers(0, 40_000),
)
def test_games_under_any_reading_replay_to_the_same_result(rules, data, seed, start):
    players = data.draw(st.sampled_from(rules.player_counts), label="players")
    agents = data.draw(
        st.lists(st.sampled_from(["random", "floor"]), min_size=players, max_size=players),
        label="agents",
    )
    try:
        played = batch.play(
            rules, players, 120, agents=agents, seed=seed, start=start, keep_moves=True
        )
    except qe.InvalidArgument as error:
        failure = str(error)
    else:
        assert_replays(played)
        return
    # only where ties may go on without end, and saying why
    assert endless_ties(rules) is not None, failure
    assert "does not end: sale" in failure
    assert f"({endless_ties(rules)})" in failure


@pytest.mark.parametrize("agent", ["random", "floor", "zero", "value"])
def test_a_smallest_bid_near_max_bid_gives_bids_the_reference_engine_accepts(agent):
    """Found by varying every field: with a smallest secret bid a few below ``MAX_BID`` the
    batch's random agent bid up to 1,000,007, which the reference engine refuses; every
    batched agent now keeps to ``MAX_BID`` as ``BidLimits.legal`` does."""
    spec = "en:min_secret_bid=999995,secret_bid_may_equal_opening=true,rebid_may_equal_opening=true"
    played = batch.play(spec, 4, 60, agents=agent, seed=1, keep_moves=True)
    bids = [move.amount for move in played.record(0).moves if move.kind == "bid"]
    assert max(bids) >= 999_995
    assert_replays(played)


def test_equal_agents_given_apart_play_as_one():
    """Two seats with equal but distinct agents (an agent and the same agent by name)
    once left one seat's bids unset: every game bid garbage the reference engine
    refused."""
    from qe_rules.simulation.batch.agents import ZeroBids

    played = batch.play(
        "en", 3, 200, agents=[ZeroBids(), "random", "zero"], seed=2, keep_moves=True
    )
    named = batch.play("en", 3, 200, agents=["zero", "random", "zero"], seed=2)
    assert (played.totals == named.totals).all()
    assert_replays(played)


def test_a_game_is_the_same_whatever_the_chunk_and_the_other_games():
    whole = batch.play("en", 5, 3000, agents="random", seed=3, chunk=700)
    part = batch.play("en", 5, 400, agents="random", seed=3, start=2500)
    assert (whole.totals[2500:2900] == part.totals).all()
    assert (whole.winners[2500:2900] == part.winners).all()
    assert whole.record(2600) == part.record(100)  # played again alone, without moves kept
    kept = batch.play("en", 5, 3000, agents="random", seed=3, keep_moves=True)
    assert kept.record(2600) == whole.record(2600)


@pytest.mark.parametrize(
    "spec",
    [
        "en:peek_timing=last-sale,peek_player_counts=[4]",
        # many sales unsold: the play's gap bits
        "en-early:tie_fallback=highest-outside-top-tie,ties_before_fallback=1,"
        "peek_timing=any-earlier-sale,peek_player_counts=[4]",
    ],
)
def test_agents_that_read_the_game_play_the_same_games_whatever_the_chunk(spec):
    """A chunk plays in the arrays of the chunk before it (its knowledge and tallies,
    emptied): nothing of one chunk may reach the next."""
    agents = ["value", "trained", "value", "random"]
    whole = batch.play(spec, 4, 600, agents=agents, seed=5)
    parts = batch.play(spec, 4, 600, agents=agents, seed=5, chunk=150)
    for name in (*SEAT_ARRAYS, *GAME_ARRAYS):
        assert (getattr(parts, name) == getattr(whole, name)).all(), name


# rule sets whose games go through every compiled loop: each fallback, the unique-bid
# pool of every bid, the auctioneer standing or taking the tile, zero-bid limits, the
# 3-player last tile, the peek after any earlier sale
_LOOP_SPECS = [
    ("en", 4),
    ("en-early", 4),
    ("de", 5),
    ("en", 3),
    ("en-early:tie_fallback=highest-outside-top-tie,fallback_finds_no_bid=auctioneer-wins", 4),
    ("de:tied_auctioneer=stands,zero_bid_limit_per_round=2,peek_timing=any-earlier-sale", 5),
]


def _loop_arrays(spec, players):
    agents = ["value", "trained", "random", "zero", "floor"][:players]
    played = batch.play(spec, players, 40, agents=agents, seed=11, chunk=16)
    return {name: getattr(played, name).tolist() for name in (*SEAT_ARRAYS, *GAME_ARRAYS)}


def test_the_compiled_loops_read_as_python_play_the_same_games():
    """``NUMBA_DISABLE_JIT=1`` runs each compiled loop as the Python it reads as: the games
    are the same (no whole number overflows in the compiled code, where Python has none)."""
    code = """
import json
from tests.simulation.test_batch import _LOOP_SPECS, _loop_arrays
print(json.dumps([_loop_arrays(spec, players) for spec, players in _LOOP_SPECS]))
"""
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parents[2],
        env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    interpreted = json.loads(done.stdout)
    for (spec, players), found in zip(_LOOP_SPECS, interpreted, strict=True):
        assert found == _loop_arrays(spec, players), spec


def test_every_rule_field_is_classified():
    assert set(batch.FIELD_USE) == set(RuleSet.rule_fields())
    refused = [name for name, use in batch.FIELD_USE.items() if use.startswith("refused")]
    assert refused == []


@pytest.mark.parametrize("timing", list(PeekTiming), ids=lambda timing: timing.value)
@pytest.mark.parametrize(
    "extra",
    slow_except(
        [
            "",
            ",peek_after_last_sale=true,peeks_per_player=2,peek_shows=highest-bid",
            ",peeks_per_player=2,peek_shows=highest-bid-made",
        ],
        "",
    ),
)
def test_every_peek_timing_replays_and_the_value_agent_peeks_as_its_reference(timing, extra):
    spec = f"en:peek_timing={timing.value}{extra}"
    rules = qe.get_ruleset(spec)
    mixed = ["value", "random", "floor", "zero", "random"]
    played = batch.play(spec, 5, 60, agents=mixed, seed=4, keep_moves=True)
    assert_replays(played)
    kinds = [move.kind for i in range(played.games) for move in played.record(i).moves]
    assert kinds.count("peek") > 0 and kinds.count("decline-peek") > 0
    valued = batch.play(spec, 5, 20, agents="value", seed=4, keep_moves=True)
    assert reference_value_decisions(valued, rules, 5, 4) == []
    assert_replays(valued)


def test_the_batched_agent_names_are_the_batchs():
    assert set(BATCHED_NAMES) == set(batch.BATCH_AGENTS)


def test_stats_are_simulate_s_on_the_batch():
    played = batch.play("en", 4, 2000, agents="random", seed=5, start=100)
    stats = played.stats()
    assert stats == qe.simulate("en", 4, "random", 2000, seed=5, start=100, engine="batch")
    assert stats.engine == "batch" and stats.games == 2000
    assert sum(stats.wins) + stats.no_winner_games == 2000
    assert stats.total_sums == tuple(int(x) for x in played.totals.sum(axis=0))
    halves = [
        qe.simulate("en", 4, "random", 1000, seed=5, start=s, engine="batch") for s in (100, 1100)
    ]
    assert halves[0].merge(halves[1]) == stats
    assert qe.SimulationStats.from_dict(stats.to_dict()) == stats
    assert "played by the batch engine" in stats.to_text()


def test_auto_uses_the_batch_only_where_every_agent_has_a_batched_form():
    assert qe.simulate("en", 3, "random", 5, seed=1, engine="auto").engine == "batch"
    mixed = ["random", "value", "zero"]
    assert qe.simulate("en", 3, mixed, 5, seed=1, engine="auto").engine == "batch"
    by_factory = ["random", qe.RandomAgent, "zero"]
    assert qe.simulate("en", 3, by_factory, 5, seed=1, engine="auto").engine == "reference"
    assert qe.simulate("en", 3, "random", 5, seed=1).engine == "batch"  # auto, the default
    assert qe.simulate("en", 3, "random", 5, seed=1, rows=True).engine == "batch"
    assert qe.compare(["en", "de"], 3, "zero", 5, seed=1).engine == "batch"
    assert not uses_batch("reference", ["random"]) and not uses_batch("auto", [qe.RandomAgent])
    with pytest.raises(qe.InvalidArgument, match="plays only the agents"):
        qe.simulate("en", 3, qe.ValueAgent, 5, seed=1, engine="batch")
    with pytest.raises(qe.InvalidArgument, match="engine is one of"):
        qe.simulate("en", 3, "random", 5, seed=1, engine="fast")


@pytest.mark.parametrize("missing", ["numpy", "numba"])
def test_without_numpy_or_numba_auto_plays_the_reference_engine_and_batch_says_what_is_missing(
    monkeypatch, missing
):
    import importlib.util

    from qe_rules.simulation.batch import choice

    found = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == missing else found(name, *a)
    )
    assert not choice.batch_available()
    assert not uses_batch("auto", ["random"] * 4)
    with pytest.raises(qe.InvalidArgument, match="needs numpy and numba: pip install"):
        uses_batch("batch", ["random"] * 4)
    assert qe.simulate("en", 4, "random", 3, seed=1).engine == "reference"


def test_compare_each_on_the_batch_plays_every_rule_set_from_the_same_draws():
    same = qe.compare(["en", "en"], 4, "random", 3000, seed=2, play="each", engine="batch")
    assert same.engine == "batch"
    assert [share.count for share in same.winner_changed] == [0, 0]
    assert [share.count for share in same.awarded_differently] == [0, 0]
    other = qe.compare(["en", "en-early"], 4, "random", 3000, seed=2, play="each", engine="batch")
    changed = other.winner_changed[1]
    assert 0 < changed.count < 3000 and changed.ci95[0] <= changed.value <= changed.ci95[1]
    scoring_only = qe.compare(
        ["en", "en:beyond_table=zero"], 4, "random", 3000, seed=2, play="each", engine="batch"
    )
    assert scoring_only.awarded_differently[1].count == 0  # the same draws, the same play


def test_the_cli_plays_compare_each_on_the_batch(capsys):
    from qe_rules.apps.cli import main

    argv = ["compare", "en", "en-early", "--play", "each", "--games", "2000", "--format", "json"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert '"engine": "batch"' in out


def test_a_field_the_batch_cannot_hold_is_named(monkeypatch):
    from qe_rules.simulation.batch import compiled

    monkeypatch.setattr(compiled, "_MAX_TABLE", 10)
    compiled._compiled.cache_clear()
    try:
        with pytest.raises(qe.InvalidArgument, match="removed_companies"):
            batch.compile_rules("en", 4)
        # auto plays such a rule set on the reference engine; batch refuses it, saying why
        assert qe.simulate("en", 4, "random", 3, seed=1).engine == "reference"
        assert qe.compare(["de", "en"], 4, "random", 3, seed=1).engine == "reference"
        with pytest.raises(qe.InvalidArgument, match="removed_companies"):
            qe.compare(["de", "en"], 4, "random", 3, seed=1, play="each", engine="batch")
    finally:
        monkeypatch.undo()
        compiled._compiled.cache_clear()


def test_bad_arguments_are_refused():
    with pytest.raises(qe.InvalidArgument, match="agents"):
        batch.play("en", 4, 10, agents=["random"] * 3, seed=1)
    with pytest.raises(qe.InvalidArgument, match="no agent"):
        batch.play("en", 4, 10, agents="smart", seed=1)
    with pytest.raises(qe.InvalidArgument, match="games"):
        batch.play("en", 4, 0, seed=1)
    played = batch.play("en", 4, 10, seed=1)
    with pytest.raises(qe.InvalidArgument, match="from 0 to 9"):
        played.record(10)


def test_a_policy_hook_bids_from_features_and_masks():
    def policy(features, masks):
        assert features.shape[0] == masks.shape[0]
        return masks.argmax(axis=1) + 2  # the least legal amount, plus 2

    played = batch.play("en", 4, 300, agents=batch.PolicyBids(policy), seed=1, keep_moves=True)
    assert_replays(played, 50)
    assert played.agents == ("policy",) * 4


def reference_value_decisions(played, rules, players, seed):
    """Each value seat's moves of ``played`` against :class:`~qe_rules.ValueAgent`'s
    choice from the same view, made with the seat's seed of that game: the differences."""
    from qe_rules.game.draws import agent_seed, game_key, run_key

    wrong = []
    for index in range(played.games):
        record = played.record(index)
        key = game_key(run_key(seed), played.start + index)
        agents = [qe.ValueAgent(agent_seed(key, seat), ruleset=rules) for seat in range(players)]
        # each move beside the game before it
        for move, game in zip(record.moves, states(record.to_dict()), strict=False):
            if played.agents[move.seat] != "value":
                continue
            view = game.view(move.seat)
            agent = agents[move.seat]
            if move.kind == "bid":
                if agent.bid(view) != move.amount:
                    wrong.append((index, move))
            elif agent.wants_peek(view) != (move.kind == "peek"):
                wrong.append((index, move))
    return wrong


@pytest.mark.parametrize(
    ("ruleset", "players"),
    slow_except(
        [
            ("en", 3),
            ("en", 4),
            ("en", 5),
            # ties in a row start again when other seats tie: the rounds still count on
            ("en:tie_streak=same-players", 4),
            ("en-early:tie_streak=same-players", 4),
            ("en:tie_streak=same-players,min_secret_bid=2,rebid_may_equal_opening=true", 5),
        ],
        ("en", 4),
    ),
)
def test_the_batched_value_agent_decides_as_the_value_agent(ruleset, players):
    rules = qe.get_ruleset(ruleset)
    agents = ["value", "random", "value", "value", "zero"][:players]
    played = batch.play(rules, players, 25, agents=agents, seed=9, keep_moves=True)
    assert reference_value_decisions(played, rules, players, 9) == []
    assert_replays(played)


@examples(10)
@given(rules=ruleset_variations(endless=True), data=st.data())
def test_the_batched_value_agent_decides_as_the_value_agent_under_any_reading(rules, data):
    players = data.draw(st.sampled_from(rules.player_counts), label="players")
    try:
        played = batch.play(rules, players, 8, agents="value", seed=3, keep_moves=True)
    except qe.InvalidArgument as error:  # ties that never reach a fallback
        assume("does not end" not in str(error))
        raise
    assert reference_value_decisions(played, rules, players, 3) == []


ENDLESS = "en:min_opening_bid=0,secret_bid_may_equal_opening=true,tie_fallback=none"


def test_a_sale_tied_without_end_is_refused_as_simulate_refuses_it():
    with pytest.raises(qe.InvalidArgument, match="does not end"):
        batch.play(ENDLESS, 4, 50, agents="zero", seed=1)
    with pytest.raises(qe.InvalidArgument, match="does not end"):
        qe.simulate(ENDLESS, 4, "zero", 5, seed=1, engine="reference")


def test_a_policy_must_give_one_amount_per_game():
    bad = batch.PolicyBids(lambda features, masks: [1, 2, 3])
    with pytest.raises(qe.InvalidArgument, match="one amount per game"):
        batch.play("en", 4, 50, agents=bad, seed=1)
