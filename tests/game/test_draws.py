"""The keyed draws of a run (qe_rules.game.draws): the definitions, and the batched
engine's copies on numpy arrays compared with them."""

from __future__ import annotations

import collections

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qe_rules._util.reading import MAX_PLAYERS
from qe_rules.game import draws
from qe_rules.limits import ROUNDS_PER_SALE

words64 = st.integers(0, draws.MASK)
words32 = st.integers(0, draws.MASK32)


def test_the_finalizers_are_the_published_ones():
    # SplitMix64 seeded with 0: its first outputs (Vigna's reference implementation)
    assert [draws.keyed(0, n) for n in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]
    assert draws.mix(0) == 0 and draws.mix32(0) == 0


@given(st.lists(words64, min_size=2, max_size=50, unique=True))
def test_mix_is_a_bijection_on_what_it_is_shown(words):
    assert len({draws.mix(word) for word in words}) == len(words)


@given(st.lists(words32, min_size=2, max_size=50, unique=True))
def test_mix32_is_a_bijection_on_what_it_is_shown(words):
    assert len({draws.mix32(word) for word in words}) == len(words)


@given(st.lists(words64, min_size=1, max_size=40))
def test_the_array_copies_of_mix_equal_it(words):
    np = pytest.importorskip("numpy")
    array = np.array(words, dtype=np.uint64)
    assert draws.mixed(array).tolist() == [draws.mix(word) for word in words]


@given(st.lists(words32, min_size=1, max_size=40))
def test_the_array_copies_of_mix32_equal_it(words):
    np = pytest.importorskip("numpy")
    array = np.array(words, dtype=np.uint32)
    assert draws.mixed32(array).tolist() == [draws.mix32(word) for word in words]


@given(words64, st.integers(0, 31))
def test_a_deal_order_is_a_permutation(key, size):
    order = draws.deal_order(key, size)
    assert sorted(order) == list(range(size))


def test_the_purposes_of_a_game_draw_apart():
    game = draws.game_key(draws.run_key(1), 0)
    counters = [
        purpose | item
        for purpose in (draws.DECK, draws.NATIONS, draws.TOKENS)
        for item in range(32)
    ]
    counters += [draws.FIRST] + [draws.AGENT | seat for seat in range(MAX_PLAYERS)]
    assert len(set(counters)) == len(counters)
    assert len({draws.draw(game, counter) for counter in counters}) == len(counters)


moments = st.tuples(
    st.integers(0, MAX_PLAYERS - 1),
    st.integers(0, 40),
    st.integers(0, ROUNDS_PER_SALE + 1),
    st.booleans(),
)


@given(moments, moments)
def test_every_moment_of_a_seat_has_its_own_counter(one, other):
    assert (draws.agent_counter(*one) == draws.agent_counter(*other)) == (one == other)


def test_seeds_runs_and_games_give_different_keys():
    runs = [draws.run_key(seed) for seed in (0, 1, -1, 2**64, "0", "1")]
    # -1 and 2**64 - 1 are one 64-bit word; 2**64 and 0 too
    assert runs[2] == draws.run_key(2**64 - 1) and runs[3] == runs[0]
    assert len({runs[0], runs[1], runs[2], runs[4], runs[5]}) == 5
    games = {draws.game_key(runs[1], index) for index in range(1000)}
    assert len(games) == 1000


def test_draws_are_spread_evenly():
    # 200,000 draws of many seeds and moments: each of 16 equal bins holds 1/16 of them
    # (a chi-square test at the 0.1% level: 37.7 for 15 degrees of freedom), and so do
    # the first auctioneers of 20,000 games of 4 players, and the first place of a deck
    game = draws.game_key(draws.run_key(7), 0)
    bins = collections.Counter()
    for seat in range(4):
        seed = draws.agent_seed(game, seat)
        for sale in range(50):
            for number in range(1000):
                bins[draws.agent_draw(seed, seat=seat, sale=sale, number=number) >> 28] += 1
    assert _chi_square(bins, 16) < 37.7
    run = draws.run_key(11)
    keys = [draws.game_key(run, index) for index in range(20000)]
    assert _chi_square(collections.Counter(draws.first_seat(key, 4) for key in keys), 4) < 16.3
    firsts = collections.Counter(draws.deal_order(key, 16)[0] for key in keys)
    assert _chi_square(firsts, 16) < 37.7


def _chi_square(counts: collections.Counter[int], bins: int) -> float:
    total = sum(counts.values())
    expected = total / bins
    return sum((counts[b] - expected) ** 2 / expected for b in range(bins))


def test_a_str_seed_is_hashed_and_an_int_seed_is_taken_modulo_two_to_the_64():
    assert draws.seed_word("x") == draws.seed_word("x") != draws.seed_word("y")
    assert draws.seed_word(-1) == draws.MASK
