"""Documents read with ``from_dict`` agree with themselves (issue 31): players against
every per-seat list, seats in range, winners among the seats, codes exactly as written,
text a file can hold; records, likewise, and JSON Lines files of them."""

import io
import json

import pytest

import qe_rules as qe
from qe_rules import svg
from qe_rules._util.reading import MAX_INTEGER, is_disagreement
from qe_rules.simulation.play import play_game

RESULT = play_game("en", 3, "zero", seed=1).result().to_dict()
PUBLIC = qe.new_game("en", 3, seed=1).public_view().to_dict()
VIEW = qe.new_game("en", 3, seed=1).view(1).to_dict()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"winners": [4]}, r"result.winners: seat 4 is not one of the 3 seats"),
        ({"winners": [0, 0]}, "result.winners: repeat a seat"),
        ({"sheets": RESULT["sheets"][:1]}, "needs 2 to 5 sheets"),
        ({"sheets": RESULT["sheets"][::-1]}, r"sheets\[0\].seat: is 2, not 0"),
    ],
)
def test_a_result_whose_seats_disagree_is_refused(change, message):
    with pytest.raises(qe.InvalidArgument, match=message) as raised:
        qe.GameResult.from_dict({**RESULT, **change})
    assert is_disagreement(raised.value)


def test_a_winner_beyond_any_game_is_refused_as_a_field():
    with pytest.raises(
        qe.InvalidArgument, match=r"winners\[0\] must be a whole number from 0 to 4"
    ):
        qe.GameResult.from_dict({**RESULT, "winners": [7]})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": 4}, r"public view.nations: needs one entry per seat \(4 players\)"),
        ({"auctioneer": 9}, r"auctioneer must be a whole number from 0 to 4"),
        ({"auctioneer": 4}, "public view.auctioneer: seat 4 is not one of the 3 seats"),
        ({"holdings": [[], []]}, "public view.holdings: needs one entry per seat"),
        ({"zero_bid_rounds": [0]}, "public view.zero_bid_rounds: needs one entry per seat"),
        ({"to_act": [3]}, "public view.to_act: seat 3 is not one of the 3 seats"),
        ({"nations": ["US", "US", "EU"]}, "public view.nations: repeats a nation"),
        ({"nations": ["us", "EU", "CN"]}, r"nations\[0\] must be one of 'US'"),
        ({"ruleset": "\ud800"}, "lone surrogate"),
        ({"sale": 0.0}, None),
        ({"sale": 1.5}, r"public view.sale must be a whole number"),
        ({"ties": 10**5000}, r"ties must be a whole number at most"),
    ],
)
def test_a_public_view_that_disagrees_with_itself_is_refused(change, message):
    if message is None:  # JSON's 0.0 is the whole number 0, as JSON Schema counts it
        assert qe.PublicView.from_dict({**PUBLIC, **change}).sale == 0
        return
    with pytest.raises(qe.InvalidArgument, match=message):
        qe.PublicView.from_dict({**PUBLIC, **change})


def test_a_player_view_of_a_seat_that_is_not_there_is_refused():
    with pytest.raises(qe.InvalidArgument, match=r"view\.seat: seat 2 is not one of the 2"):
        qe.PlayerView.from_dict(
            {**VIEW, "seat": 2, "players": 2, "nations": ["US", "EU"], "holdings": [[], []],
             "zero_bid_rounds": [0, 0], "peeks_used": [0, 0]}
        )  # fmt: skip
    with pytest.raises(qe.InvalidArgument, match=r"view.seat must be a whole number from 0"):
        qe.PlayerView.from_dict({**VIEW, "seat": 7})


def test_what_a_reader_accepts_draws():
    view = qe.PlayerView.from_dict(VIEW)
    assert "<svg" in svg.view(view) and "<svg" in view._repr_html_()
    assert "Score board" in svg.score_board(qe.GameResult.from_dict(RESULT))


def test_an_opening_bid_event_has_an_amount():
    event = {"kind": "opening-bid", "sale": 0, "seat": 0, "amount": None}
    with pytest.raises(qe.InvalidArgument, match=r"opening-bid event\.amount must be"):
        qe.Event.from_dict(event)
    assert qe.Event.from_dict({**event, "amount": 3}).amount == 3


def test_a_record_whose_setup_disagrees_is_refused():
    record = qe.new_game("en", 3, seed=1).to_record()
    for change, message in [
        ({"players": -5}, "'players': en is played by 3, 4, 5 players, got -5"),
        ({"first_auctioneer": 3}, "'first_auctioneer': seat 3 is not one of the 3 seats"),
        ({"moves": [{"move": "peek", "seat": -3}]}, "move 0: seat -3 is not one of"),
        ({"nations": ["US", "EU"]}, r"'nations': needs one entry per seat \(3 players\)"),
        ({"metadata": {"names": ["a"]}}, "'metadata'.names: needs one entry per seat"),
        ({"metadata": {"event": "\ud800"}}, "lone surrogate"),
    ]:
        with pytest.raises(qe.InvalidRecord, match=message):
            qe.GameRecord.from_dict({**record, **change})


def test_records_files_refuse_what_is_not_a_file_of_records():
    for given in (None, 5, "records.jsonl", {"a": 1}):
        with pytest.raises(qe.InvalidArgument, match="file must be"):
            qe.load_records(given)
    with pytest.raises(qe.InvalidArgument, match="records must be"):
        qe.dump_records(None, io.StringIO())
    with pytest.raises(qe.InvalidArgument, match="file must be a text file open for writing"):
        qe.dump_records([], None)
    broken = io.TextIOWrapper(io.BytesIO(b"\xff\xfe{\n"), encoding="utf-8")
    with pytest.raises(qe.InvalidRecord, match="not UTF-8 text"):
        list(qe.load_records(broken))


def test_whatever_dump_records_accepts_a_utf8_file_holds(tmp_path):
    record = qe.new_game("en", 3, seed=1).to_record(metadata={"event": "été"})
    path = tmp_path / "games.jsonl"
    with open(path, "w", encoding="utf-8") as handle:
        assert qe.dump_records([record], handle) == 1
    with open(path, encoding="utf-8") as handle:
        assert [r.to_dict() for r in qe.load_records(handle)] == [record]


def test_numbers_beyond_the_readers_bound_are_refused_not_printed():
    with pytest.raises(qe.InvalidArgument, match="a move's seat is a whole number"):
        qe.Move("peek", 10**5000)
    sheet = RESULT["sheets"][0]
    with pytest.raises(qe.InvalidArgument, match="at most"):
        qe.ScoreSheet.from_dict({**sheet, "total": 10**5000})
    largest = {**sheet, "companies": 0, "zero_bids": 0, "nationalization": 0,
               "monopolization": 0, "diversification": MAX_INTEGER, "subtotal": MAX_INTEGER,
               "lowest_spend_bonus": 0, "total": MAX_INTEGER}  # fmt: skip
    assert qe.ScoreSheet.from_dict(largest).total == MAX_INTEGER
    with pytest.raises(qe.InvalidArgument, match="a game has at most 5 seats"):
        qe.Event.from_dict({"kind": "peek-declined", "sale": 0, "seat": 10**5000})
    with pytest.raises(qe.InvalidArgument, match="a deck has at most 63 tiles"):
        qe.Event.from_dict({"kind": "game-ended", "sales": 10**5000})


def test_a_one_tile_deck_sold_without_auctioneer_gives_views_its_reader_reads():
    en = qe.get_ruleset("en")
    removed = {3: tuple(qe.COMPANIES[1:]), 4: en.removed_companies[4], 5: en.removed_companies[5]}
    game = qe.new_game(en.evolve(removed_companies=removed), 3, seed=0)
    assert game.view(0).round == 0
    assert qe.PlayerView.from_dict(game.view(0).to_dict()) == game.view(0)
    game = game.bid_many({0: 1, 1: 2, 2: 3})
    assert game.is_over
    assert qe.PublicView.from_dict(json.loads(json.dumps(game.public_view().to_dict())))
    assert all(qe.Event.from_dict(e.to_dict()) == e for e in game.events)
