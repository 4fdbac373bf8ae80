"""The batch wherever it can play: ``simulate`` and ``compare`` (both ways) on the batch,
with rows, worker processes and any executor, the same figures as one process; merges
of split runs equal to one run on either engine; and the batch's rescoring and rows equal
to the reference engine's definition, checked on the batch's own games replayed."""

import concurrent.futures
import functools
import itertools

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules import batch
from qe_rules.components import COMPANIES, Nation
from qe_rules.simulation.comparison import PlayedComparison, _scorings
from qe_rules.simulation.rows import _rows_of
from qe_rules.simulation.runner import BATCH_CHUNK, _batch_chunks
from qe_rules.strategies import ruleset_variations
from tests.support import examples, slow_except
from tests.support.simulation import ENGINES, MIXED

AGENTS = list(MIXED)
BLOCK = batch.CHUNK  # the games the batch plays at a time


def replayed(ruleset, players, agents, games, *, seed, start):
    """The batch's games ``start`` to ``start + games``, each replayed by the game engine
    from its record."""
    played = batch.play(
        ruleset, players, games, agents=agents, seed=seed, start=start, keep_moves=True
    )
    return [qe.replay(played.record(index)) for index in range(games)]


def reference_comparison(rulesets, players, agents, games, *, seed, start):
    """What ``compare(..., play="first", rows=True)`` finds, by the reference engine's
    definition, in the batch's games replayed: the winners of each game under each rule
    set and the rows; or the refusal of the first game a rule set cannot score."""
    chosen = [qe.get_ruleset(rules) for rules in rulesets]
    winners, rows = [], []
    for index, game in enumerate(
        replayed(chosen[0], players, agents, games, seed=seed, start=start)
    ):
        results, causes = _scorings(game, chosen)
        winners.append(tuple(result.winners for result in results))
        for result, found in zip(results, causes, strict=True):
            rows += _rows_of(
                seed, start + index, result, game, agents, found, winner_changed=bool(found)
            )
    return tuple(winners), tuple(rows)


# ----------------------------------------------------------------- the chunks


@pytest.mark.parametrize("workers", [1, 2, 3, 8])
@pytest.mark.parametrize("games", [1, 255, 2000, BLOCK, 5 * BLOCK + 17, 40 * BLOCK])
def test_the_batch_chunks_cover_every_game_once_in_few_large_chunks(games, workers):
    chunks = _batch_chunks(games, workers)
    assert BATCH_CHUNK == batch.CHUNK
    assert chunks[0][0] == 0 and chunks[-1][1] == games
    assert all(a[1] == b[0] for a, b in itertools.pairwise(chunks))
    assert all(0 < stop - start <= 8 * BLOCK for start, stop in chunks)
    if workers == 1:
        assert all(stop - start == BLOCK for start, stop in chunks[:-1])
    else:
        assert len(chunks) >= min(workers, games // 256)  # every worker has work
        assert len(chunks) <= max(2 * workers, games // (8 * BLOCK) + 1)


# ----------------------------------------------------------------- executors


RUN_GAMES = {"reference": 24, "batch": 700}


def _three_runs(engine, **options):
    """A simulation, a comparison and a played comparison of one run, with rows."""
    args = (4, AGENTS)
    games = RUN_GAMES[engine]
    start = {"reference": 3, "batch": BLOCK - 300}[engine]
    common = {"seed": 7, "start": start, "rows": True, "engine": engine, **options}
    return (
        qe.simulate("en", *args, games, **common),
        qe.compare(["en", "en-early", "de"], *args, games, **common),
        qe.compare(["en", "en-early"], *args, games, play="each", **common),
    )


@functools.cache
def one_process(engine):
    return _three_runs(engine)


@pytest.mark.parametrize("engine", ENGINES)
def test_worker_processes_and_any_executor_give_the_figures_of_one_process(engine):
    one = one_process(engine)
    assert all(result.engine == engine for result in one)
    assert _three_runs(engine, workers=2) == one
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        assert _three_runs(engine, executor=pool, workers=3) == one


def test_the_engines_give_the_same_figures_rows_and_examples():
    common = {"seed": 5, "start": 11, "rows": True}
    runs = (
        lambda engine: qe.simulate("de", 5, [*AGENTS, "value"], 16, engine=engine, **common),
        lambda engine: qe.compare(["en", "en-early", "de"], 4, AGENTS, 40, engine=engine, **common),
        lambda engine: qe.compare(
            ["en", "en-early"],
            3,
            ["value", "random", "random"],
            16,
            play="each",
            engine=engine,
            **common,
        ),
    )
    for run in runs:
        reference, batched = run("reference"), run("batch")
        assert batched.engine == "batch" and attrs.evolve(reference, engine="batch") == batched


def test_the_batch_keeps_rows_of_every_game_seat_and_rule_set():
    stats, first, each = one_process("batch")
    games = RUN_GAMES["batch"]
    assert len(stats.rows) == games * 4
    assert len(first.rows) == len(each.rows) // 2 * 3 == games * 3 * 4
    assert sum(row.total for row in stats.rows) == sum(stats.total_sums)
    assert [row.game for row in first.rows] == sorted(row.game for row in first.rows)
    assert {row.game for row in each.rows if row.winner_changed} and all(
        row.causes == "" for row in each.rows
    )


# ----------------------------------------------------------------- merges


@st.composite
def split_runs(draw):
    """A run (its kind, engine, games, start) and the places where it is split."""
    engine = draw(st.sampled_from(ENGINES))
    kind = draw(st.sampled_from(["simulate", "first", "each"]))
    most = {"reference": 12, "batch": 2500}[engine]
    games = draw(st.integers(2, most))
    start = draw(st.sampled_from([0, 37, BLOCK - most // 2]))
    cuts = sorted(draw(st.sets(st.integers(1, games - 1), min_size=1, max_size=3)))
    return engine, kind, games, start, cuts


def _run(kind, engine, games, start, rows):
    options = {"seed": 3, "start": start, "rows": rows, "engine": engine}
    if kind == "simulate":
        return qe.simulate("en", 4, AGENTS, games, **options)
    play = {"first": "first", "each": "each"}[kind]
    return qe.compare(["en", "en-early"], 4, AGENTS, games, play=play, **options)


@examples(40)
@given(run=split_runs(), rows=st.booleans(), order=st.randoms(use_true_random=False))
def test_merges_of_split_runs_equal_one_run(run, rows, order):
    engine, kind, games, start, cuts = run
    whole = _run(kind, engine, games, start, rows)
    edges = [0, *cuts, games]
    parts = [_run(kind, engine, b - a, start + a, rows) for a, b in itertools.pairwise(edges)]
    order.shuffle(parts)
    merged = functools.reduce(lambda a, b: a.merge(b), parts)
    assert merged == whole
    assert type(merged).from_dict(merged.to_dict()) == whole


def test_runs_of_other_engines_or_the_same_games_do_not_merge():
    each = [
        qe.compare(["en", "en-early"], 4, "random", 10, seed=1, play="each", engine=engine)
        for engine in ENGINES
    ]
    with pytest.raises(qe.InvalidArgument, match="same engine"):
        each[0].merge(each[1])
    with pytest.raises(qe.InvalidArgument, match="games 0 to 9 of seed 1 are in both runs"):
        each[1].merge(each[1])
    first = [qe.compare(["en", "de"], 4, "random", 10, seed=1, engine=engine) for engine in ENGINES]
    with pytest.raises(qe.InvalidArgument, match="same engine"):
        first[0].merge(first[1])


def test_a_played_comparison_reads_its_older_form_and_refuses_disagreements():
    each = qe.compare(["en", "de"], 3, "random", 20, seed=4, start=6, play="each")
    data = each.to_dict()
    assert data["batches"] == [[4, 6, 26]] and (data["seed"], data["start"], data["games"]) == (
        4,
        6,
        20,
    )
    older = {key: value for key, value in data.items() if key != "batches"}
    assert PlayedComparison.from_dict(older) == each
    with pytest.raises(qe.InvalidArgument, match=r"played comparison\.start"):
        PlayedComparison.from_dict({**data, "start": 7})


# ----------------------------------------------------------------- play="first" on the batch


def test_compare_first_on_the_batch_is_the_reference_definition_in_its_games():
    rulesets = ["en", "en-early", "de", "en:final_tiebreak=none", "en:tie_after_tiebreak=no-winner"]
    found = qe.compare(
        rulesets, 4, AGENTS, 400, seed=12, start=BLOCK - 200, rows=True, engine="batch"
    )
    winners, rows = reference_comparison(rulesets, 4, AGENTS, 400, seed=12, start=BLOCK - 200)
    assert found.winners == winners
    assert found.rows == rows
    assert found.changes[1] > 0 and found.changes[3] > 0  # diversification, the tie-break
    for example in found.examples:
        assert example.record == batch.play(
            "en", 4, 1, agents=AGENTS, seed=12, start=example.game
        ).record(0)


def test_rule_sets_with_a_larger_deck_rescore_the_tiles_by_what_they_are():
    en = qe.get_ruleset("en")
    extra = next(c for c in COMPANIES if c.nation is Nation.US and c.vp == 1)
    removed = {**en.removed_companies, 4: (*en.removed_companies[4], extra)}
    smaller = attrs.evolve(
        en, id="smaller", removed_companies=removed, deck_sizes={**en.deck_sizes, 4: 15}
    )
    rulesets = [smaller, "en-early", "de"]
    found = qe.compare(rulesets, 4, AGENTS, 300, seed=2, rows=True, engine="batch")
    assert found.changes[1] > 0
    assert (found.winners, found.rows) == reference_comparison(
        rulesets, 4, AGENTS, 300, seed=2, start=0
    )


def _other(draw, first, players):
    """A rule set that can score the games of ``first``: a variation of it (its deck,
    nations and tokens kept) or a built-in one with the same pieces."""
    other = draw(ruleset_variations(base=first, keep_setup=True))
    return attrs.evolve(other, id=f"{first.id}-other")


@pytest.mark.slow  # the quick run has the property in its games, on built-in rule sets
@examples(40)
@given(data=st.data(), seed=st.integers(-(2**40), 2**40), start=st.integers(0, 3 * BLOCK))
def test_compare_first_on_the_batch_is_the_reference_definition_under_any_reading(
    data, seed, start
):
    first = data.draw(ruleset_variations(), label="first")
    players = data.draw(st.sampled_from(first.player_counts), label="players")
    other = _other(data.draw, first, players)
    agents = data.draw(
        st.lists(
            st.sampled_from(["random", "zero", "value"]),
            min_size=players,
            max_size=players,
        )
    )
    rulesets = [first, other]
    run = {"seed": seed, "start": start}
    try:
        expected = reference_comparison(rulesets, players, agents, 60, **run)
    except qe.InvalidArgument as error:
        refusal = str(error)
    else:
        found = qe.compare(rulesets, players, agents, 60, **run, rows=True, engine="batch")
        assert (found.winners, found.rows) == expected
        return
    with pytest.raises(qe.InvalidArgument) as raised:
        qe.compare(rulesets, players, agents, 60, **run, rows=True, engine="batch")
    assert str(raised.value) == refusal


def test_a_rule_set_that_cannot_score_the_zero_bids_is_named_as_on_the_reference_engine():
    rulesets, run = ["en:zero_bid_limit_per_round=2", "en"], {"seed": 1, "start": 9}
    with pytest.raises(qe.InvalidArgument) as refused:
        reference_comparison(rulesets, 4, ["zero", "random", "zero", "value"], 30, **run)
    assert "rule set 'en' cannot score the games of 'en:zero_bid_limit_per_round=2'" in str(
        refused.value
    ) and "zero-bid rounds, but a 4-player game allows at most 4" in str(refused.value)
    with pytest.raises(qe.InvalidArgument) as raised:
        qe.compare(rulesets, 4, ["zero", "random", "zero", "value"], 30, **run, engine="batch")
    assert str(raised.value) == str(refused.value)


# ----------------------------------------------------------------- rows


@pytest.mark.parametrize("players", slow_except([3, 5], 3))
def test_rows_on_the_batch_are_the_rows_of_its_games_replayed(players):
    agents = AGENTS[:players] if players < 5 else [*AGENTS, "value"]
    rules = "de" if players == 5 else "en"
    stats = qe.simulate(rules, players, agents, 150, seed=-3, start=40, rows=True, engine="batch")
    expected = []
    for index, game in enumerate(replayed(rules, players, agents, 150, seed=-3, start=40)):
        expected += _rows_of(-3, 40 + index, game.result(), game, agents)
    assert stats.rows == tuple(expected)
    specs = [rules, f"{rules}:tie_streak=same-players", f"{rules}:beyond_table=zero"]
    each = qe.compare(
        specs, players, agents, 80, seed=-3, start=40, play="each", rows=True, engine="batch"
    )
    games = [replayed(spec, players, agents, 80, seed=-3, start=40) for spec in specs]
    expected = []
    for index, played in enumerate(zip(*games, strict=True)):
        first = played[0].result().winners
        for game in played:
            result = game.result()
            changed = result.winners != first
            expected += _rows_of(-3, 40 + index, result, game, agents, winner_changed=changed)
    assert each.rows == tuple(expected)
