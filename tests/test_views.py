"""Hidden information: a seat's view shows what that seat may know, and nothing else.

Non-interference: two games that differ only in something seat S may not know must give S
identical views (as JSON), at every step.
"""

import json
import random

from hypothesis import assume, given, reject
from hypothesis import strategies as st
from support import INTERNAL, examples, is_json, reachable, states

import qe_rules as qe
from qe_rules import Awarded, NotAwarded, OpeningBid, Peeked, SecretBid, Tie, ZeroBids
from qe_rules import strategies as qst

SETTINGS = examples(60)


def views_along(record, seat, *, stop_at_end=True):
    """``view(seat).to_dict()`` after setup and after every move of the record."""
    views = []
    for game in states(record):
        if stop_at_end and game.is_over:
            break
        views.append(game.view(seat).to_dict())
    return views


def with_amount(record, index, amount):
    """``record`` with ``amount`` as the amount of move ``index``, and its game; rejects
    the example when the record is no longer a legal game."""
    moves = [dict(m) for m in record["moves"]]
    moves[index]["amount"] = amount
    changed = {**record, "moves": moves}
    try:
        return changed, qe.replay(changed)
    except qe.InvalidRecord:
        reject()


def move_events(game):
    return [e for e in game.events if isinstance(e, OpeningBid | SecretBid | Peeked)]


def public_outcome(game, sale):
    """The announced results of a sale: ties, award (amount only if public), zero bids."""
    out = []
    for event in game.events:
        if getattr(event, "sale", None) != sale:
            continue
        if isinstance(event, Tie | NotAwarded | ZeroBids):
            out.append(event)
        elif isinstance(event, Awarded):
            out.append((event.seat, event.public, event.amount if event.public else None))
    return out


# ----------------------------------------------------------------- JSON and isolation


@given(qst.games(rulesets=None), st.data())
@SETTINGS
def test_views_are_json(game, data):
    seat = data.draw(st.integers(0, game.players - 1))
    view = game.view(seat).to_dict()
    assert is_json(view, floats=False)
    assert json.loads(json.dumps(view)) == view


@given(qst.games(), st.data())
@SETTINGS
def test_a_view_holds_no_reference_to_the_game(game, data):
    view = game.view(data.draw(st.integers(0, game.players - 1)))
    assert not any(isinstance(obj, INTERNAL) for obj in reachable(view))
    if not game.is_over:
        assert view.industries is None and view.result is None


# ----------------------------------------------------------------- what a view shows


def test_a_view_shows_own_bids_and_hides_others():
    game = qe.new_game("en", 4, seed=3, first_auctioneer=0).bid(0, 4).bid(1, 6)
    assert game.view(1).my_bids == (6,)
    assert game.view(2).my_bids == ()
    assert game.view(0).seen_bids == ()  # the round is still open
    game = game.bid(2, 0).bid(3, 2)
    history = [game.view(seat).history[0] for seat in range(4)]
    assert [h.amount for h in history] == [6, 6, None, None]  # auctioneer and winner
    assert history[0].bids == (((0, 4), (1, 6), (2, 0), (3, 2)),)
    assert history[2].bids == () and history[2].my_bids == (0,)
    assert history[3].zero_bidders == (2,)
    assert game.view(2).spent == 0 and game.view(1).spent == 6


def test_the_auctioneers_win_is_public_and_scoring_is_public_at_the_end():
    game = qe.new_game("en", 4, seed=3).bid(0, 9).bid(1, 6).bid(2, 0).bid(3, 2)
    assert all(game.view(seat).history[0].amount == 9 for seat in range(4))
    while not game.is_over:
        for seat in sorted(game.to_act):
            limits = game.bid_limits(seat)
            game = game.bid(seat, limits.legal(limits.minimum + 1))
    view = game.view(2)
    assert view.industries == game.industries
    assert view.result == game.result()


def test_a_tied_seat_learns_who_is_tied():
    game = qe.new_game("en", 4, seed=3).bid(0, 2).bid(1, 5).bid(2, 5).bid(3, 1)
    for seat in range(4):
        assert game.view(seat).tied == (1, 2)
    assert game.view(0).seen_bids == (((0, 2), (1, 5), (2, 5), (3, 1)),)
    assert game.view(3).seen_bids == ()


# ----------------------------------------------------------------- non-interference


@given(qst.games(), st.data())
@SETTINGS
def test_other_tokens_do_not_change_a_view(game, data):
    record = game.to_record()
    seat = data.draw(st.integers(0, game.players - 1))
    tokens = list(record["industries"])
    others = [i for i in range(game.players) if i != seat]
    spare = [i.name for i in game.ruleset.industries(game.players) if i.name not in tokens]
    pool = [tokens[i] for i in others] + spare
    shuffled = data.draw(st.permutations(pool))
    for index, other in enumerate(others):
        tokens[other] = shuffled[index]
    assume(tokens != record["industries"])
    changed = {**record, "industries": tokens}
    assert views_along(record, seat) == views_along(changed, seat)


@given(qst.games(), st.data())
@SETTINGS
def test_the_order_of_unrevealed_tiles_does_not_change_a_view(game, data):
    record = game.to_record()
    cut = data.draw(st.integers(0, len(record["moves"])))
    partial = qe.replay({**record, "moves": record["moves"][:cut]})
    assume(not partial.is_over)
    seat = data.draw(st.integers(0, game.players - 1))
    hidden = record["deck"][partial.sale + 1 :]
    assume(len(set(hidden)) > 1)
    reordered = data.draw(st.permutations(hidden))
    assume(list(reordered) != hidden)
    changed = {
        **record,
        "deck": record["deck"][: partial.sale + 1] + list(reordered),
        "moves": record["moves"][:cut],
    }
    short = {**record, "moves": record["moves"][:cut]}
    assert views_along(short, seat) == views_along(changed, seat)


@given(qst.games(finished=True), st.data())
@SETTINGS
def test_a_losing_bid_in_a_sale_the_seat_did_not_run_does_not_change_its_view(game, data):
    record = game.to_record()
    seat = data.draw(st.integers(0, game.players - 1))
    opened = {e.sale: e.auctioneer for e in game.events if hasattr(e, "auctioneer")}
    winners = {e.sale: e.seat for e in game.events if isinstance(e, Awarded)}
    candidates = [
        (index, event)
        for index, event in enumerate(move_events(game))
        if isinstance(event, SecretBid)
        and event.seat != seat
        and opened.get(event.sale) != seat
        and winners.get(event.sale) != event.seat
        and event.amount > 0
    ]
    assume(candidates)
    index, event = data.draw(st.sampled_from(candidates))
    amount = data.draw(st.integers(1, 40).filter(lambda a: a != event.amount))
    changed, other = with_amount(record, index, amount)
    assume(public_outcome(other, event.sale) == public_outcome(game, event.sale))
    assert views_along(record, seat, stop_at_end=False) == views_along(
        changed, seat, stop_at_end=False
    )


@given(qst.games(finished=True), st.data())
@SETTINGS
def test_a_winning_amount_the_seat_may_not_see_does_not_change_its_view(game, data):
    record = game.to_record()
    seat = data.draw(st.integers(0, game.players - 1))
    opened = {e.sale: e.auctioneer for e in game.events if hasattr(e, "auctioneer")}
    peeked = {e.sale for e in game.events if isinstance(e, Peeked) and e.seat == seat}
    events = move_events(game)
    awards = [
        e
        for e in game.events
        if isinstance(e, Awarded)
        and not e.public
        and e.seat != seat
        and opened.get(e.sale) != seat
        and e.sale not in peeked
        and not e.fallback
    ]
    assume(awards)
    award = data.draw(st.sampled_from(awards))
    index = max(
        i
        for i, e in enumerate(events)
        if isinstance(e, SecretBid | OpeningBid) and e.sale == award.sale and e.seat == award.seat
    )
    raised = award.amount + data.draw(st.integers(1, 30))
    changed, other = with_amount(record, index, raised)
    assume(public_outcome(other, award.sale) == public_outcome(game, award.sale))
    assert views_along(record, seat) == views_along(changed, seat)


def test_non_interference_on_a_fixed_game():
    """A hand-made case of the properties above, so that they can never pass vacuously."""
    rng = random.Random(5)
    game = qe.new_game("en", 4, seed=8)
    while not game.is_over:
        for seat in sorted(game.to_act):
            limits = game.bid_limits(seat)
            game = game.bid(seat, limits.legal(limits.minimum + rng.randrange(1, 9)))
    record = game.to_record()
    events = move_events(game)
    # seat 3 lost sale 0 (run by seat 0) with a secret bid: change that bid
    award = next(e for e in game.events if isinstance(e, Awarded) and e.sale == 0)
    losers = [
        i
        for i, e in enumerate(events)
        if isinstance(e, SecretBid) and e.sale == 0 and e.seat not in (award.seat, 0)
    ]
    assert losers
    index = losers[0]
    loser = events[index].seat
    watcher = next(s for s in range(4) if s not in (0, loser, award.seat))
    changed, other = with_amount(record, index, 1 if events[index].amount != 1 else 2)
    assert public_outcome(other, 0) == public_outcome(game, 0)
    assert views_along(record, watcher, stop_at_end=False) == views_along(
        changed, watcher, stop_at_end=False
    )
    # and the auctioneer of sale 0 does see the change
    assert views_along(record, 0) != views_along(changed, 0)
