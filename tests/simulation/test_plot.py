"""Pictures of simulations and comparisons (qe_rules.simulation.plot); they were also looked at."""

import pytest

import qe_rules as qe
from qe_rules.simulation.runs import compare, simulate
from tests.support import cli

pytest.importorskip("matplotlib", reason="plots need the plot extra (matplotlib)")
image = pytest.importorskip("matplotlib.image")
from qe_rules.simulation.plot import plot_comparison, plot_stats  # noqa: E402

AGENTS = ["value", "random", "random", "zero"]


def drawn(path):
    """The picture at ``path`` as pixels; it must not be blank."""
    pixels = image.imread(path)
    assert pixels.shape[0] > 600 and pixels.shape[1] > 900
    assert pixels.std() > 0.05
    return pixels


@pytest.mark.parametrize("rows", [True, False])
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
    assert (tmp_path / "one.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")


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
