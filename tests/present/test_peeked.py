"""What a seat learned from its peek is shown wherever its view is: after a tie fallback a
de peeker saw the tied highest bid, not the price, and every presenter says so."""

import io

import pytest

import qe_rules as qe
from qe_rules import svg
from qe_rules.apps.panels import panel_data
from qe_rules.apps.terminal import TerminalPlayer
from qe_rules.present.text import sale_text
from tests.support import fallback_sale


def _window(rules):
    """The peek window after a 5-player sale whose top bids (9) tie until the fallback
    gives it to the 5, and a seat in it (neither the auctioneer nor the winner)."""
    game = fallback_sale(rules)
    assert game.phase is qe.Phase.PEEKING
    return game, max(game.to_act)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_peeked_highest_bid_is_shown_by_every_presenter(lang):
    game, seat = _window("de")
    before = game.view(seat)
    assert before.can_peek
    hint = {"en": "you may peek now", "de": "du darfst jetzt „Höchstgebot ansehen“ nutzen"}
    assert hint[lang] in svg.view(before, lang=lang)
    assert "amount just paid" not in svg.view(before, lang="en")
    game = game.peek(seat)
    view = game.view(seat)
    sale = view.history[0]
    assert (sale.amount, sale.peeked_amount) == (None, 9)
    assert view.to_dict()["history"][0]["peeked_amount"] == 9
    line = {"en": "you peeked: highest bid 9", "de": "angesehen: Höchstgebot 9"}[lang]
    assert line in sale_text(sale, lang=lang)
    picture = {"en": "you peeked at sale 1: highest bid 9", "de": "Höchstgebot 9"}[lang]
    assert picture in svg.view(view, lang=lang)
    summary = panel_data(view, game.events_for(seat), lang=lang)["summary"]
    told = {"en": "You peeked: the highest bid was 9.", "de": "Das Höchstgebot war 9."}
    assert told[lang] in summary


def test_the_terminal_tells_the_peeker_the_highest_bid_not_a_price():
    game, seat = _window("de")
    out = io.StringIO()
    player = TerminalPlayer(game, seat, [None] * 5, read_line=lambda: "y\n", out=out, lang="en")
    player.game = game.peek(seat)
    player.tell_peek(seat)
    assert "You peeked: the highest bid for" in out.getvalue() and "was 9." in out.getvalue()
    assert "paid" not in out.getvalue()


def test_where_the_peek_shows_the_price_the_presenters_say_it_was_paid():
    game, seat = _window("en")
    game = game.peek(seat)
    sale = game.view(seat).history[0]
    assert (sale.amount, sale.peeked_amount) == (5, 5)
    assert " (you peeked)" in sale_text(sale)
    assert "you peeked at sale 1: it went for 5" in svg.view(game.view(seat))
