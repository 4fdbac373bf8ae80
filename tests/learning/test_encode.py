"""The observation encoding and action mask of qe_rules.learning.encode."""

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules import strategies as qst
from tests.support import examples, states, with_hidden_tiles_reordered, with_other_tokens

np = pytest.importorskip("numpy", reason="the encoding needs the rl extra (numpy)")
encode = pytest.importorskip("qe_rules.learning.encode")

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


@given(st.lists(qst.games(), min_size=2, max_size=3), st.randoms(use_true_random=False))
@SETTINGS
def test_an_encoder_reused_across_games_and_seats_encodes_as_a_fresh_one(games, draw):
    """An encoder keeps parts of the views it saw; whatever order views come in (several
    games, seats and states mixed, the same view twice), it encodes as a new encoder."""
    views = []
    for game in games:
        record = game.to_record()
        for state in states(record):
            views += [state.view(seat) for seat in range(state.players)]
    draw.shuffle(views)
    views += views[:5]
    encoder = encode.Encoder()
    for view in views:
        fresh = encode.Encoder()
        assert encoder.observation(view).tolist() == fresh.observation(view).tolist()
        assert encoder.action_mask(view).tolist() == fresh.action_mask(view).tolist()
    # in play order too, as an environment asks
    encoder = encode.Encoder()
    for state in states(games[0].to_record()):
        for seat in range(state.players):
            view = state.view(seat)
            assert encoder.observation(view).tolist() == encode.Encoder().observation(view).tolist()


def test_the_arrays_an_encoder_returns_are_its_callers():
    game = qe.new_game("en", 4, seed=7).bid(0, 3)
    encoder = encode.Encoder()
    first, mask = encoder.observation(game.view(1)), encoder.action_mask(game.view(1))
    first[:] = -1
    mask[:] = False
    again = encoder.observation(game.view(1))
    assert again.tolist() == encode.Encoder().observation(game.view(1)).tolist()
    assert again[0] != -1 and encoder.action_mask(game.view(1)).any()


def plain_observation(view):
    """The encoding as OBSERVATION_FIELDS documents it, written plainly, part by part."""
    at = {name: start for name, (start, _) in offsets().items()}
    out = np.zeros(encode.OBSERVATION_SIZE, dtype=np.float32)
    out[at["players"] + view.players - 1] = 1
    out[at["seat"] + view.seat] = 1
    out[at["phase"] + encode.PHASES.index(view.phase.value)] = 1
    sale = (view.sale, view.sales, view.remaining, view.round, view.ties)
    out[at["sale"] : at["sale"] + 5] = sale
    if view.company is not None:
        out[at["company"] + qe.COMPANIES.index(view.company)] = 1
    if view.auctioneer is not None:
        out[at["auctioneer"] + view.auctioneer] = 1
    if view.opening_bid is not None:
        out[at["opening_bid"] : at["opening_bid"] + 2] = (view.opening_bid, 1)
    for seat in view.to_act:
        out[at["to_act"] + seat] = 1
    for seat in view.tied:
        out[at["tied"] + seat] = 1
    for seat, nation in enumerate(view.nations):
        out[at["nations"] + seat * len(qe.Nation) + list(qe.Nation).index(nation)] = 1
    out[at["industry"] + list(qe.Industry).index(view.industry)] = 1
    for seat, held in enumerate(view.holdings):
        for company in held:
            out[at["holdings"] + seat * len(qe.COMPANIES) + qe.COMPANIES.index(company)] = 1
    for sold in view.history:
        if sold.winner is None or sold.winner == view.seat:
            continue
        if sold.amount is None:
            out[at["unknown_amounts"] + sold.winner] += 1
        else:
            out[at["known_spend"] + sold.winner] += sold.amount
    out[at["known_spend"] + view.seat] = view.spent
    for seat in range(view.players):
        out[at["zero_bid_rounds"] + seat] = view.zero_bid_rounds[seat]
        out[at["peeks_used"] + seat] = view.peeks_used[seat]
    for number, amount in enumerate(view.my_bids[-encode.ROUNDS_KEPT :]):
        out[at["my_bids"] + 2 * number : at["my_bids"] + 2 * number + 2] = (amount, 1)
    for number, bids in enumerate(view.seen_bids[-encode.ROUNDS_KEPT :]):
        for seat, amount in bids:
            start = at["seen_bids"] + 2 * (encode.MAX_SEATS * number + seat)
            out[start : start + 2] = (amount, 1)
    if view.limits is not None:
        out[at["limits"]] = view.limits.minimum
        if view.limits.forbidden is not None:
            out[at["limits"] + 1 : at["limits"] + 3] = (view.limits.forbidden, 1)
    out[at["can_peek"]] = view.can_peek
    return out


@given(qst.games(), st.data())
@SETTINGS
def test_the_encoding_is_the_documented_layout(game, data):
    seat = data.draw(st.integers(0, game.players - 1))
    encoder = encode.Encoder()
    for state in states(game.to_record()):
        view = state.view(seat)
        assert encoder.observation(view).tolist() == plain_observation(view).tolist()
        assert encode.observation(view).tolist() == plain_observation(view).tolist()
