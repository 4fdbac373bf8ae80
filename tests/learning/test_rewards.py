"""The end-of-game rewards of the learning environments (qe_rules.learning.rewards)."""

import math

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules.learning.rewards import REWARDS, SHAPING, end_info, final_rewards
from qe_rules.simulation.play import play_game

results = st.builds(
    lambda agents, seed: play_game("en", len(agents), agents, seed=seed).result(),
    st.lists(st.sampled_from(["random", "value", "zero"]), min_size=3, max_size=5),
    st.integers(0, 2**32),
)


@given(results)
@settings(max_examples=40, deadline=None)
def test_every_reward_is_bounded_and_ranks_a_winner_above_the_others(result):
    for kind in REWARDS:
        rewards = final_rewards(result, kind)
        assert len(rewards) == len(result.sheets)
        assert all(-1 - SHAPING <= r <= 1 + SHAPING for r in rewards)
        for winner in result.winners:
            for sheet in result.sheets:
                if sheet.seat not in result.winners:
                    assert rewards[winner] >= rewards[sheet.seat], (kind, rewards)


@given(results)
@settings(max_examples=40, deadline=None)
def test_an_eliminated_seat_is_paid_nothing_for_its_tiles(result):
    for sheet in result.sheets:
        if not sheet.eliminated:
            continue
        # more points, same spend: the same reward; more spend: never more reward
        richer = attrs.evolve(sheet, total=sheet.total + 50, subtotal=sheet.subtotal + 50)
        dearer = attrs.evolve(sheet, spent=sheet.spent + 5)
        for kind in REWARDS:
            base = final_rewards(result, kind)[sheet.seat]
            for changed, compare in ((richer, math.isclose), (dearer, lambda a, b: a <= b)):
                sheets = list(result.sheets)
                sheets[sheet.seat] = changed
                other = attrs.evolve(result, sheets=tuple(sheets))
                assert compare(final_rewards(other, kind)[sheet.seat], base), kind
            assert base <= 0 if kind != "win" else base == 0


@given(results)
@settings(max_examples=40, deadline=None)
def test_the_shaped_reward_is_the_win_share_give_or_take_the_shaping(result):
    wins = final_rewards(result, "win")
    for seat, (shaped, win) in enumerate(zip(final_rewards(result, "shaped"), wins, strict=True)):
        if result.sheets[seat].eliminated:
            assert -1 - SHAPING <= shaped <= -1
        else:
            assert abs(shaped - win) <= SHAPING


def test_ranks_go_from_one_to_minus_one():
    result = play_game("en", 4, "value", seed=10).result()
    assert final_rewards(result, "rank") == pytest.approx((-1 / 3, 1 / 3, -1.0, 1.0))


def test_a_reward_function_and_a_wrong_name():
    result = play_game("en", 3, "zero", seed=1).result()
    assert final_rewards(result, lambda r: [s.total for s in r.sheets]) == tuple(
        float(s.total) for s in result.sheets
    )
    with pytest.raises(qe.InvalidArgument, match="reward is one of win, shaped, rank, score"):
        final_rewards(result, "margin")


def test_the_end_info_reports_the_sheets_and_spends():
    result = play_game("en", 4, "value", seed=10).result()
    info = end_info(result, 2)
    assert info["spends"] == (24, 18, 37, 28) and info["totals"] == (21, 28, 34, 30)
    assert info["win_share"] == 0.0 and info["eliminated"] and info["winners"] == (3,)
    assert "win_share" not in end_info(result)
