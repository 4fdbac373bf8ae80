"""Pictures: well-formed SVG that rsvg-convert renders, showing only what the object drawn
holds, and the Jupyter display hooks."""

import os
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules import svg
from qe_rules.present import svg as svg_module
from qe_rules.simulation.play import play_game
from tests.support import examples

SVG = "{http://www.w3.org/2000/svg}"
RSVG = shutil.which("rsvg-convert")


def parsed(picture):
    root = ET.fromstring(picture)  # raises on text that is not well-formed XML
    assert root.tag == f"{SVG}svg"
    assert float(root.get("width")) > 0 and float(root.get("height")) > 0
    return root


def tokens(picture):
    """The texts of the industry-token chips in a picture."""
    return [
        group.find(f"{SVG}text").text
        for group in parsed(picture).iter(f"{SVG}g")
        if group.get("class") == "token"
    ]


@pytest.fixture(scope="module")
def finished():
    return play_game("en", 5, "value", seed=0)


def partway(game, moves):
    record = game.to_record()
    return qe.replay({**record, "moves": record["moves"][:moves]})


def pictures(game):
    """Every kind of picture of a game, by name."""
    middle = partway(game, len(game.moves()) // 2)
    return {
        "tile": svg.tile(game.deck[0]),
        "small tile": svg.tile(game.deck[1], size=30),
        "holdings": svg.holdings(
            game.holdings[0], nation=game.nations[0], industry=game.industries[0]
        ),
        "no holdings": svg.holdings([]),
        "view at the start": svg.view(partway(game, 0).view(0)),
        "view in the middle": svg.view(middle.view(sorted(middle.to_act)[0])),
        "spectator": svg.view(middle.view(0), spectator=True),
        "view at the end": svg.view(game.view(1)),
        "score board": svg.score_board(game.result()),
    }


def test_every_picture_is_well_formed(finished):
    for name, picture in pictures(finished).items():
        assert parsed(picture) is not None, name


@pytest.mark.skipif(
    RSVG is None and not os.environ.get("CI"),
    reason="rsvg-convert (Debian librsvg2-bin) is not installed here; .ci/run installs it",
)
def test_every_picture_renders_in_rsvg_convert(finished, tmp_path):
    assert RSVG is not None, "CI needs rsvg-convert: apt-get install librsvg2-bin"
    for name, picture in pictures(finished).items():
        source = tmp_path / "picture.svg"
        source.write_text(picture, encoding="utf-8")
        done = subprocess.run(
            [RSVG, "--format", "png", str(source)], capture_output=True, check=False
        )
        assert done.returncode == 0 and not done.stderr, (name, done.stderr)
        assert done.stdout.startswith(b"\x89PNG"), name


@examples(20)
@given(moves=st.integers(min_value=0, max_value=110), seat=st.integers(min_value=0, max_value=4))
def test_a_seat_sees_only_its_own_token_until_the_end(finished, moves, seat):
    game = partway(finished, moves)
    picture = svg.view(game.view(seat))
    if game.is_over:
        assert sorted(tokens(picture)) == sorted(
            [i.label for i in game.industries] + [game.industries[seat].label]
        )  # every seat's row, and the seat's own panel
    else:
        assert tokens(picture) == [game.industries[seat].label] * 2
        assert tokens(svg.view(game.view(seat), spectator=True)) == []


def test_a_seat_picture_does_not_depend_on_the_others_tokens(finished):
    """Deal the other seats' tokens differently, play the same moves: seat 0's picture is
    the same until the end."""
    record = finished.to_record()
    others = record["industries"][1:]
    swapped = {**record, "industries": [record["industries"][0], *others[1:], others[0]]}
    for moves in (0, 20, 60, len(record["moves"]) - 1):
        one = qe.replay({**record, "moves": record["moves"][:moves]})
        two = qe.replay({**swapped, "moves": swapped["moves"][:moves]})
        assert svg.view(one.view(0)) == svg.view(two.view(0))
        assert one._repr_svg_() == two._repr_svg_()


def test_display_hooks(finished):
    middle = partway(finished, 40)
    assert middle._repr_svg_() == svg.view(middle.view(0), spectator=True)
    assert middle.view(2)._repr_svg_() == svg.view(middle.view(2))
    assert finished.result()._repr_svg_() == svg.score_board(finished.result())
    for shown in (middle, middle.view(2), finished.result()):
        html = shown._repr_html_()
        assert html.startswith('<div class="qe-rules"><svg') and html.endswith("</svg></div>")


def test_the_score_board_marks_the_winner_and_the_eliminated(finished):
    result = finished.result()
    root = parsed(svg.score_board(result))
    texts = [node.text for node in root.iter(f"{SVG}text")]
    assert f"Winner: seat {result.winner + 1} ({result.sheets[result.winner].nation.code})" in texts
    struck = [
        node.text
        for node in root.iter(f"{SVG}text")
        if node.get("text-decoration") == "line-through"
    ]
    assert struck == [str(s.total) for s in result.sheets if s.eliminated]


def test_str_of_a_result_is_the_score_board(finished):
    result = finished.result()
    text = str(result)
    assert text == result.score_board()
    assert text.splitlines()[0] == "Rule set en, 5 players"
    assert f"Winner: seat {result.winner}" in text
    named = result.score_board(["Ann", "Bo", "Cy", "Di", "Ed"])
    assert "Ann" in named and "seat 0" not in named
    with pytest.raises(qe.InvalidArgument, match="one name per seat"):
        result.score_board(["Ann"])


def test_pictures_are_written_as_elementtree_writes_them_in_either_language(monkeypatch):
    game = play_game("en", 5, "value", seed=8)
    middle = qe.replay({**game.to_record(), "moves": game.to_record()["moves"][:30]})
    names = ["A&B", '<i>"q"</i>', "tab\there", "new\nline", ""]
    cases = [
        (view, lang)
        for view in (middle.view(0), middle.public_view(), game.view(3))
        for lang in ("en", "de")
    ]
    ours = [svg.view(view, lang=lang, names=names) for view, lang in cases]
    board = svg.score_board(game.result(), names, lang="de")
    monkeypatch.setattr(svg_module, "_text_of", lambda root: ET.tostring(root, encoding="unicode"))
    assert ours == [svg.view(view, lang=lang, names=names) for view, lang in cases]
    assert board == svg.score_board(game.result(), names, lang="de")
    assert "A&amp;B" in ours[0] and "Versteigert wird" in ours[1]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_score_boards_row_labels_end_before_the_first_column(lang):
    """The German labels ("Bonus für die geringsten Ausgaben") once ran under the first
    seat's figures: the first column starts after the longest label of the reader's
    language, at 13 px text (7.4 px a character, more than the font's widest average)."""
    game = play_game("de", 5, "value", seed=3)
    root = parsed(svg.score_board(game.result(), lang=lang))
    labels = [t for t in root.iter(f"{SVG}text") if t.get("x") == "22"]
    pills = [r for r in root.iter(f"{SVG}rect") if r.get("rx") == "11"]
    first_column = min(float(r.get("x")) for r in pills)
    assert len(labels) >= 8
    assert all(22 + 7.4 * len(t.text) < first_column for t in labels)
