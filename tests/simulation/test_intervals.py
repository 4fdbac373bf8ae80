"""The Wilson interval and the Share that keeps a count, its total and its interval together."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules.simulation.intervals import Z95, Share, wilson_interval


def test_a_hand_computed_interval():
    # 12 of 1000: p = 0.012, z^2 = 3.8415; centre 0.0139207, half-width 0.0070167,
    # both divided by 1 + z^2 / 1000 = 1.0038415
    low, high = wilson_interval(12, 1000)
    assert low == pytest.approx(0.0068776, abs=2e-6)
    assert high == pytest.approx(0.0208575, abs=2e-6)


@given(total=st.integers(1, 10**6), data=st.data())
def test_the_bounds_are_where_the_score_test_turns(total, data):
    """Each inner bound p solves (share - p)^2 = z^2 p (1 - p) / total: the definition of
    the Wilson interval, checked here apart from the closed form the code uses."""
    count = data.draw(st.integers(0, total))
    share = count / total
    low, high = wilson_interval(count, total)
    assert 0 <= low <= share <= high <= 1
    for bound in (low, high):
        if 0 < bound < 1:
            gap = (share - bound) ** 2 - Z95**2 * bound * (1 - bound) / total
            assert gap == pytest.approx(0, abs=1e-9)
    assert (low == 0) == (count == 0) and (high == 1) == (count == total)
    mirrored = wilson_interval(total - count, total)
    assert mirrored == pytest.approx((1 - high, 1 - low), abs=1e-12)


def test_more_games_give_a_narrower_interval():
    widths = [wilson_interval(n // 4, n)[1] - wilson_interval(n // 4, n)[0] for n in (40, 400)]
    assert widths[1] < widths[0] / 3


@pytest.mark.parametrize(("count", "total"), [(-1, 10), (11, 10), (1.0, 10), (1, True)])
def test_a_count_beyond_its_total_is_refused(count, total):
    with pytest.raises(qe.InvalidArgument, match="whole count between 0 and its total"):
        wilson_interval(count, total)
    with pytest.raises(qe.InvalidArgument):
        Share(count, total)


def test_a_share_keeps_its_figures_together():
    share = Share(3, 8, parts=2)
    assert share.value == 3 / 16
    assert share.ci95 == tuple(bound / 2 for bound in wilson_interval(3, 8))
    assert Share.from_dict(share.to_dict()) == share
    assert share.to_dict()["ci95"] == list(share.ci95)
    assert Share(1, 4) + Share(2, 6) == Share(3, 10)
    with pytest.raises(TypeError):
        Share(1, 4) + Share(1, 4, parts=2)
