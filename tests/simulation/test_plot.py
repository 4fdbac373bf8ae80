"""Pictures of simulations and comparisons (qe_rules.simulation.plot); they were also looked at."""

import xml.etree.ElementTree as ET

import pytest

import qe_rules as qe
from qe_rules.simulation.comparison import compare
from qe_rules.simulation.stats import simulate
from tests.support import cli, slow_except

pytest.importorskip("matplotlib", reason="plots need the plot extra (matplotlib)")
image = pytest.importorskip("matplotlib.image")
from qe_rules.simulation.plot import plot_comparison, plot_stats  # noqa: E402

AGENTS = ["value", "random", "random", "zero"]


# 12 by 8.5 inches at 110 dots per inch (qe_rules.simulation.plot), in pixels and in points
PNG_SIZE = (1320, 935)
SVG_SIZE = ("864pt", "612pt")


def drawn(path):
    """The picture at ``path`` as pixels: a PNG file of the figure's size, not blank."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    size = (int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big"))
    assert size == PNG_SIZE
    pixels = image.imread(path)
    assert pixels.shape[:2] == (PNG_SIZE[1], PNG_SIZE[0])
    assert pixels.std() > 0.05
    return pixels


@pytest.mark.parametrize("rows", slow_except([True, False], False))
def test_statistics_and_comparisons_draw(tmp_path, rows):
    stats = simulate("en", 4, AGENTS, 60, seed=1, rows=rows)
    plot_stats(stats, tmp_path / "stats.png")
    drawn(tmp_path / "stats.png")
    c = compare(["en", "en-early", "de"], 4, AGENTS, 60, seed=1, rows=rows)
    plot_comparison(c, tmp_path / "compare.png")
    drawn(tmp_path / "compare.png")


def test_a_comparison_of_one_rule_set_and_other_file_types_draw(tmp_path):
    c = compare(["de"], 5, "random", 10, seed=1, rows=True)
    plot_comparison(c, tmp_path / "one.svg")
    text = (tmp_path / "one.svg").read_text(encoding="utf-8")
    assert text.lstrip().startswith("<?xml")
    root = ET.fromstring(text.encode())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert (root.get("width"), root.get("height")) == SVG_SIZE
    # bars, axes and lettering, not only the background
    assert len(list(root.iter("{http://www.w3.org/2000/svg}path"))) > 10


@pytest.mark.slow
def test_the_commands_draw(tmp_path):
    code, _ = cli("simulate", "--games", "20", "--plot", str(tmp_path / "s.png"))
    assert code == 0
    drawn(tmp_path / "s.png")
    code, out = cli("compare", "en", "en-early", "--games", "20", "--plot", str(tmp_path / "c.png"))
    assert code == 0 and "winner changes" in out
    drawn(tmp_path / "c.png")


def test_an_unknown_picture_type_is_refused_before_any_game_is_played(tmp_path):
    stats = simulate("en", 3, "random", 5, seed=1)
    with pytest.raises(qe.InvalidArgument, match=r"a picture is written as .*\.png"):
        plot_stats(stats, tmp_path / "stats.xyz")
    code, _ = cli("simulate", "--games", "100000", "--plot", str(tmp_path / "s.xyz"))
    assert code != 0 and not (tmp_path / "s.xyz").exists()
    code, _ = cli("compare", "en", "de", "--rows", str(tmp_path / "rows.txt"))
    assert code != 0 and not (tmp_path / "rows.txt").exists()
