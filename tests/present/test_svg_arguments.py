"""Pictures check their arguments and stay well-formed XML (issue 31)."""

import math
import xml.etree.ElementTree as ET

import pytest

import qe_rules as qe
from qe_rules import svg
from qe_rules.simulation.play import play_game

RESULT = play_game("de", 5, "random", seed=1).result()
TILES = [qe.Company.parse("US-FIN-2")]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: svg.score_board(RESULT, names=["a"]), r"give one name per seat \(5\), got 1"),
        (lambda: svg.score_board(RESULT, names=["a"] * 6), r"one name per seat \(5\), got 6"),
        (lambda: svg.score_board(RESULT, names="abcde"), "names must be a list of strings"),
        (lambda: svg.score_board(RESULT, names=[1] * 5), r"names\[0\] must be a string"),
        (lambda: svg.score_board(qe.new_game("en", 3, seed=1)), "result must be a GameResult"),
        (lambda: svg.tile("US-FIN-2"), "company must be a Company"),
        (lambda: svg.holdings(["US-FIN-2"]), r"companies\[0\] must be a Company"),
        (lambda: svg.holdings(None), "companies must be a list of Company"),
        (lambda: svg.holdings(TILES, nation="US"), "nation must be a Nation"),
        (lambda: svg.holdings(TILES, industry="FIN"), "industry must be an Industry"),
        (lambda: svg.holdings(TILES, title=3), "title must be a string"),
        (lambda: svg.view(None), "player_view must be a PlayerView or PublicView"),
        (lambda: svg.tile(TILES[0], size="90"), "size is a number of pixels"),
        (lambda: svg.tile(TILES[0], size=10**400), "size is a number of pixels"),
        (lambda: svg.tile(TILES[0], size=math.nan), "size is a number of pixels"),
        (lambda: svg.tile(TILES[0], size=math.inf), "size is a number of pixels"),
        (lambda: svg.holdings(TILES, size=0), "size is a number of pixels"),
    ],
)
def test_wrong_arguments_raise_invalid_argument(call, message):
    with pytest.raises(qe.InvalidArgument, match=message):
        call()


@pytest.mark.parametrize("text", ["\x01", "\x00", "a\x1b[31mred", "\ud800", "\ufffe", "<&\"'>"])
def test_any_text_makes_a_well_formed_picture(text):
    for picture in (
        svg.holdings(TILES, title=text),
        svg.score_board(RESULT, names=[text] * 5),
    ):
        root = ET.fromstring(picture)
        shown = "".join(root.itertext())
        assert text not in shown or text == "<&\"'>"
        picture.encode("utf-8")
    assert "\\x01" in svg.holdings(TILES, title="\x01")
