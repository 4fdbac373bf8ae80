"""No reading makes a seat lose what a text grants it: under every value of every switch
the auctioneer of a plain sale knows the winning amount and sees the first bids, and a
peeker learns what its text literally names (en: the winning bid; de and de-summary: the
highest bid)."""

from __future__ import annotations

import pytest

import qe_rules as qe
from qe_rules import Awarded, Peeked
from tests.support import fallback_sale

VARIANTS = [
    (base, question.field, rules)
    for base in ("en", "en-early", "de", "de-summary")
    for question in qe.open_questions()
    for rules in question.variants(qe.RULESETS[base])
]
IDS = [rules.id if rules.id != base else f"{base}:{field}" for base, field, rules in VARIANTS]


@pytest.mark.parametrize(("base", "field", "rules"), VARIANTS, ids=IDS)
def test_the_auctioneer_of_a_plain_sale_knows_the_amount_and_sees_the_first_bids(
    base, field, rules
):
    game = qe.new_game(rules, 4, seed=1)
    auctioneer = game.auctioneer
    others = [seat for seat in range(4) if seat != auctioneer]
    game = game.bid(auctioneer, 3)
    for seat, amount in zip(others, (5, 1, 0), strict=True):
        game = game.bid(seat, amount)
    (sale,) = game.view(auctioneer).history
    assert (sale.winner, sale.amount) == (others[0], 5)
    assert set(sale.bids[0]) == {(auctioneer, 3), *zip(others, (5, 1, 0), strict=True)}
    awarded = [e for e in game.events_for(auctioneer) if isinstance(e, Awarded)]
    assert [(e.seat, e.amount) for e in awarded] == [(others[0], 5)]
    # the winner knows it too; the other bidders do not
    assert game.view(others[0]).history[0].amount == 5
    assert game.view(others[1]).history[0].amount is None


LITERAL = {"en": "winning", "de": "highest", "de-summary": "highest"}


@pytest.mark.parametrize(
    ("base", "field", "rules"), [v for v in VARIANTS if v[0] in LITERAL], ids=lambda v: str(v)
)
def test_a_peeker_learns_what_its_text_literally_names(base, field, rules):
    game = fallback_sale(rules)
    announced = [e.seat for e in game.events if isinstance(e, Peeked)]
    if game.phase is not qe.Phase.PEEKING and not announced:
        return  # the variant's sale ended without a secret award to peek at
    award = next(e for e in game.events if isinstance(e, Awarded))
    standing = {}
    for event in game.events:
        if isinstance(event, qe.OpeningBid | qe.SecretBid):
            standing[event.seat] = event.amount
    if announced:  # before-bids: the peek was announced, the award showed it
        peeker = announced[0]
    else:
        peeker = min(game.to_act)
        game = game.peek(peeker)
    peeked = [e for e in game.events_for(peeker) if isinstance(e, Peeked)][-1]
    assert peeked.sale == award.sale
    shows = rules.peek_shows
    if field != "peek_shows":  # the text's own reading
        wanted = LITERAL[base]
        assert (
            shows
            is {"winning": qe.PeekShows.WINNING_AMOUNT, "highest": qe.PeekShows.HIGHEST_BID}[wanted]
        )
    made = max(e.amount for e in game.events if isinstance(e, qe.OpeningBid | qe.SecretBid))
    if shows is qe.PeekShows.HIGHEST_BID:
        assert peeked.amount == max(standing.values())
    elif shows is qe.PeekShows.HIGHEST_BID_MADE:
        assert peeked.amount == made  # here the tied 9s, as the highest standing bid
    else:  # the winning amount, alone or with every bid (a house rule)
        assert peeked.amount == award.amount
        assert game.view(peeker).history[0].amount == award.amount


def test_after_a_fallback_en_shows_the_price_and_de_the_highest_bid():
    shown = {}
    for rid in ("en", "de", "de-summary"):
        game = fallback_sale(rid)
        award = next(e for e in game.events if isinstance(e, Awarded))
        assert award.fallback and award.amount == 5
        peeker = min(game.to_act)
        game = game.peek(peeker)
        shown[rid] = next(e.amount for e in game.events_for(peeker) if isinstance(e, Peeked))
        # de's peeker knows the tied highest bid, not the price; the view says so
        assert game.view(peeker).history[0].amount == (5 if rid == "en" else None)
    assert shown == {"en": 5, "de": 9, "de-summary": 9}


def test_a_de_peekers_view_keeps_the_highest_bid_after_a_fallback():
    game = fallback_sale("de")
    peeker = min(game.to_act)
    view = game.peek(peeker).view(peeker)
    sale = view.to_dict()["history"][0]
    assert (sale["peeked"], sale["peeked_amount"], sale["amount"]) == (True, 9, None)
    assert qe.PlayerView.from_dict(view.to_dict()) == view
    # a seat that did not peek knows neither
    other = next(seat for seat in range(5) if seat not in (peeker, 0, sale["winner"]))
    assert game.view(other).history[0].peeked_amount is None


def _rebid_sale(shows):
    """A 5-player sale tied at 9, whose rebids (5 and 7) award it to the 7; the peek
    window after it."""
    game = qe.new_game(f"en:peek_shows={shows}", 5, seed=2)
    auctioneer = game.auctioneer
    others = [seat for seat in range(5) if seat != auctioneer]
    game = game.bid(auctioneer, 3)
    for seat, amount in zip(others, (9, 9, 2, 1), strict=True):
        game = game.bid(seat, amount)
    assert game.phase is qe.Phase.REBIDDING
    game = game.bid(others[0], 5).bid(others[1], 7)
    return game, others


@pytest.mark.parametrize(
    ("shows", "seen", "known"),
    [("winning-amount", 7, 7), ("highest-bid", 7, 7), ("highest-bid-made", 9, None)],
)
def test_the_highest_bid_made_is_the_tied_amount_a_rebid_replaced(shows, seen, known):
    game, others = _rebid_sale(shows)
    award = next(e for e in game.events if isinstance(e, Awarded))
    assert (award.seat, award.amount, award.fallback) == (others[1], 7, False)
    peeker = others[2]
    game = game.peek(peeker)
    (peeked,) = [e for e in game.events_for(peeker) if isinstance(e, Peeked)]
    assert peeked.amount == seen
    sale = game.view(peeker).history[0]
    assert (sale.peeked_amount, sale.amount) == (seen, known)
