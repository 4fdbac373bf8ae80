"""Games as plain text (``qe_rules.present.text``): what each renderer shows, and that a
seat's text holds nothing the seat may not know."""

import pytest

import qe_rules as qe
from qe_rules.game.events import SecretBid
from qe_rules.present.text import (
    bid_range,
    event_line,
    game_text,
    sale_text,
    score_board_text,
    view_text,
)
from qe_rules.simulation.play import play_game


@pytest.fixture(scope="module")
def finished():
    return play_game("en", 5, "value", seed=3)


def test_view_text_shows_only_what_the_seat_knows(finished):
    for seat in range(5):
        text = view_text(finished.view(seat))
        assert f"You: seat {seat + 1}, token {finished.industries[seat].label}" in text
    early = qe.replay({**finished.to_record(), "moves": finished.to_record()["moves"][:9]})
    labels = [industry.label for industry in qe.Industry]
    for seat in range(5):
        rows = [line for line in view_text(early.view(seat)).splitlines() if line[:5] == "seat "]
        for other, row in enumerate(rows):
            shown = [label for label in labels if label in row]
            assert shown == ([early.industries[seat].label] if other == seat else []), row


def test_sale_text_tells_a_secret_amount_only_to_those_who_know_it(finished):
    for seat in range(5):
        for sale in finished.view(seat).history:
            text = sale_text(sale)
            assert text.startswith(f"Sale {sale.sale + 1} ({sale.company}): ")
            if sale.winner is not None and sale.amount is None:
                assert "a secret amount" in text
            elif sale.winner is not None:
                assert f"won it for {sale.amount}" in text


def test_game_text_names_every_sale_and_ends_with_the_score_board(finished):
    text = game_text(finished)
    for number in range(1, finished.view(0).sales + 1):
        assert f"\nSale {number}: " in text
    board = score_board_text(finished.result(), scoring_order=finished.ruleset.scoring_order)
    assert text.endswith(board) and "seat 0" not in text


def test_bid_range_names_the_limits_of_the_seat_to_bid():
    game = qe.new_game("en", 4, seed=1)
    game = game.bid(game.auctioneer, 5)  # the opening bid
    seat = min(game.to_act)
    assert bid_range(game.view(seat)) == "from 0 to 1000000, not 5"


def test_event_line_never_shows_a_hidden_amount():
    assert "None" not in event_line(SecretBid(sale=0, seat=2, amount=None, rebid=0))


def test_a_german_game_and_score_board_name_the_eliminated_seat_in_german(finished):
    text = game_text(finished, lang="de", names=["Ann", "Bo", "Cy", "Di", "Ed"])
    assert "\nVersteigerung 1: " in text and "Null-Gebote: " in text and "Gebote: " in text
    out = [seat for seat, sheet in enumerate(finished.result().sheets) if sheet.eliminated]
    assert out  # the highest spender is eliminated
    board = text[text.index("Regelwerk en, 5 Spieler") :]
    assert " aus" in board and " out" not in board
    assert "Sale" not in text and "seat " not in text and "wins" not in text
