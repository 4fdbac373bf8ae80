"""The observation encoding and action mask of qe_rules.encode."""

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from support import examples, states, with_hidden_tiles_reordered, with_other_tokens

import qe_rules as qe
from qe_rules import strategies as qst

np = pytest.importorskip("numpy", reason="the encoding needs the rl extra (numpy)")
encode = pytest.importorskip("qe_rules.encode")

SETTINGS = examples(30)


def encodings_along(record, seat):
    """The seat's observation and mask after setup and after every move of the record."""
    return [
        (encode.observation(game.view(seat)).tolist(), encode.action_mask(game.view(seat)).tolist())
        for game in states(record)
    ]


def offsets():
    """Where each part of an observation starts."""
    starts, at = {}, 0
    for name, size in encode.OBSERVATION_FIELDS:
        starts[name] = (at, size)
        at += size
    return starts


def part(obs, name):
    start, size = offsets()[name]
    return obs[start : start + size]


@given(qst.games(), st.data())
@SETTINGS
def test_every_view_encodes_to_the_documented_size_and_mask(game, data):
    seat = data.draw(st.integers(0, game.players - 1))
    view = game.view(seat)
    obs = encode.observation(view)
    assert obs.shape == (encode.OBSERVATION_SIZE,) and obs.dtype == np.float32
    assert np.isfinite(obs).all()
    mask = encode.action_mask(view)
    assert mask.shape == (encode.ACTIONS,) and mask.dtype == np.bool_
    for amount in range(encode.BID_CAP + 1):
        allowed = view.limits is not None and view.to_bid and view.limits.allows(amount)
        assert mask[amount] == allowed
    peek_turn = view.phase is qe.Phase.PEEKING and view.seat in view.to_act
    assert mask[encode.DECLINE_PEEK] == peek_turn
    assert mask[encode.PEEK] == (peek_turn and view.can_peek)
    if view.to_bid:
        assert mask.any()  # a capped agent always has a bid under the built-in rule sets
        assert game.can_bid(seat, int(np.flatnonzero(mask)[0]))
    assert part(obs, "seat")[seat] == 1 and part(obs, "players")[game.players - 1] == 1
    assert part(obs, "phase")[encode.PHASES.index(view.phase.value)] == 1
    assert part(obs, "known_spend")[seat] == view.spent


@given(qst.games(), st.data())
@SETTINGS
def test_other_tokens_do_not_change_an_encoding(game, data):
    seat = data.draw(st.integers(0, game.players - 1))
    changed = with_other_tokens(game, seat, data)
    cut = data.draw(st.integers(0, len(changed["moves"])))
    mine = {**game.to_record(), "moves": changed["moves"][:cut]}
    assume(not qe.replay(mine).is_over)  # at the end every token is public
    changed = {**changed, "moves": mine["moves"]}
    assert encodings_along(mine, seat) == encodings_along(changed, seat)


@given(qst.games(), st.data())
@SETTINGS
def test_the_order_of_unrevealed_tiles_does_not_change_an_encoding(game, data):
    short, changed = with_hidden_tiles_reordered(game, data)
    seat = data.draw(st.integers(0, game.players - 1))
    assert encodings_along(short, seat) == encodings_along(changed, seat)


def test_what_a_seat_may_know_shows_in_its_encoding():
    game = qe.new_game("en", 4, seed=7).bid(0, 3)
    view = game.view(1)
    assert part(encode.observation(view), "opening_bid").tolist() == [3.0, 1.0]
    assert part(encode.observation(view), "limits").tolist() == [0.0, 3.0, 1.0]
    tied = game.bid_many({1: 7, 2: 7, 3: 5})  # seats 1 and 2 tie: they rebid
    assert tied.view(0).seen_bids  # the auctioneer sees the round's bids
    seen = part(encode.observation(tied.view(0)), "seen_bids").tolist()
    assert seen[: 2 * 4] == [3.0, 1.0, 7.0, 1.0, 7.0, 1.0, 5.0, 1.0]  # the opening bid too
    assert not part(encode.observation(tied.view(3)), "seen_bids").any()
    mine = part(encode.observation(tied.view(1)), "my_bids").tolist()
    assert mine[:2] == [7.0, 1.0]
    assert part(encode.observation(tied.view(3)), "tied").tolist() == [0, 1, 1, 0, 0]
    mask = encode.action_mask(tied.view(3))
    assert not mask.any()  # seat 3 is out of the rebid


def test_actions_turn_back_into_bids_and_bad_input_is_refused():
    assert [encode.action_bid(a) for a in (0, encode.BID_CAP)] == [0, encode.BID_CAP]
    assert encode.action_bid(encode.PEEK) == "peek"
    assert encode.action_bid(encode.DECLINE_PEEK) == "decline-peek"
    for bad in (-1, encode.ACTIONS, True, 1.0):
        with pytest.raises(qe.InvalidArgument, match="an action is a whole number"):
            encode.action_bid(bad)
    with pytest.raises(qe.InvalidArgument, match="PlayerView"):
        encode.observation({"seat": 0})
