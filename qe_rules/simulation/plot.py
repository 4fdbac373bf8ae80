"""Pictures of simulations and comparisons (needs the ``plot`` extra, matplotlib).

:func:`plot_stats` draws a :class:`~qe_rules.simulation.stats.SimulationStats`: each seat's win
share with its 95% interval, the other shares (no single winner, lowest spender won, rule
gaps) with theirs, and the distributions of each seat's final total and spend.
:func:`plot_comparison` draws a :class:`~qe_rules.simulation.comparison.Comparison`: each seat's win
share under each rule set, how often and why the winner changes, and the distributions
of totals under each rule set and of spends. The distributions need the per-game rows
(``rows=True``); without them those panels say so. The file type follows the name's
ending (``.png``, ``.svg``, ``.pdf``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from qe_rules.errors import InvalidArgument
from qe_rules.simulation.comparison import CHANGE_CAUSES, Comparison
from qe_rules.simulation.intervals import Share
from qe_rules.simulation.rows import GameRow
from qe_rules.simulation.stats import SimulationStats

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["check_picture_path", "plot_comparison", "plot_stats"]

_KEY = "error bars: 95% Wilson intervals; boxes: middle half, line: median, triangle: mean"


def _figure() -> tuple[Figure, Any]:
    try:
        from matplotlib.figure import Figure  # an optional extra, loaded where used
    except ImportError:
        raise InvalidArgument("plots need matplotlib: pip install 'qe-rules[plot]'") from None
    figure = Figure(figsize=(12, 8.5), layout="constrained")
    return figure, figure.subplots(2, 2)


def _bars_with_intervals(
    axes: Axes,
    shares: Sequence[Share],
    positions: Sequence[float],
    *,
    width: float = 0.8,
    label: str | None = None,
    horizontal: bool = False,
) -> None:
    """Bars of the shares (in percent), with their 95% intervals as error bars."""
    values = [100 * share.value for share in shares]
    below = [100 * (share.value - share.ci95[0]) for share in shares]
    above = [100 * (share.ci95[1] - share.value) for share in shares]
    if horizontal:
        axes.barh(positions, values, height=width, xerr=[below, above], capsize=4, label=label)
    else:
        axes.bar(positions, values, width=width, yerr=[below, above], capsize=4, label=label)


def _distribution(
    axes: Axes,
    seats: Sequence[str],
    series: Sequence[tuple[str, Sequence[Sequence[int]]]],
    what: str,
    title: str,
) -> None:
    """Box plots of a whole-number value per seat, one box per series side by side:
    the box spans the middle half, the line is the median, the triangle the mean, and
    the whiskers reach 1.5 box lengths (points beyond them are drawn one by one)."""
    if not any(values for _, columns in series for values in columns):
        axes.text(0.5, 0.5, "no per-game rows kept", ha="center", va="center")
        axes.set_title(title)
        axes.set_axis_off()
        return
    width = 0.8 / len(series)
    from matplotlib import rcParams

    colours = rcParams["axes.prop_cycle"].by_key()["color"]  # the colours bars take too
    for number, (label, columns) in enumerate(series):
        colour = colours[number % len(colours)]
        positions = [seat - 0.4 + width * (number + 0.5) for seat in range(len(seats))]
        axes.boxplot(
            [list(values) or [0] for values in columns],
            positions=positions,
            widths=width * 0.8,
            showmeans=True,
            patch_artist=True,
            boxprops={"facecolor": colour, "alpha": 0.6},
            medianprops={"color": "black"},
            meanprops={"markerfacecolor": "white", "markeredgecolor": "black"},
            flierprops={"markersize": 2, "markeredgecolor": colour},
            label=label,
        )
    axes.set_xticks(list(range(len(seats))), seats)
    axes.set_ylabel(what)
    axes.set_title(title)
    if len(series) > 1:
        axes.legend(fontsize="small")


def _seat_labels(agents: Sequence[str]) -> list[str]:
    return [f"seat {seat}\n{agent}" for seat, agent in enumerate(agents)]


def _per_seat(rows: Sequence[GameRow] | None, players: int, field: str) -> list[list[int]]:
    columns: list[list[int]] = [[] for _ in range(players)]
    for row in rows or ():
        columns[row.seat].append(getattr(row, field))
    return columns


def check_picture_path(path: str | os.PathLike[str]) -> str:
    """``path`` as a string if its ending names a picture type matplotlib writes (``.png``,
    ``.svg``, ``.pdf``, ...); raises :class:`~qe_rules.InvalidArgument` otherwise."""
    figure, _ = _figure()
    kinds = figure.canvas.get_supported_filetypes()
    name = os.fspath(path)
    if os.path.splitext(name)[1].lstrip(".").lower() not in kinds:
        raise InvalidArgument(f"a picture is written as .{', .'.join(sorted(kinds))}; got {name!r}")
    return name


def _save(figure: Figure, path: str | os.PathLike[str]) -> None:
    figure.savefig(check_picture_path(path), dpi=110)


def plot_stats(stats: SimulationStats, path: str | os.PathLike[str]) -> None:
    """Draw ``stats`` to ``path``: win shares with 95% intervals, the other shares, and
    the distributions of totals and spends per seat (from ``stats.rows``)."""
    figure, ((wins, others), (totals, spends)) = _figure()
    figure.suptitle(
        f"{stats.games} games of {stats.ruleset} with {stats.players} players "
        f"(seed {stats.seed}); {_KEY}"
    )
    seats = range(stats.players)
    _bars_with_intervals(wins, [Share(won, stats.games) for won in stats.wins], list(seats))
    wins.axhline(100 / stats.players, color="grey", linestyle="--", label="an even share")
    wins.set_xticks(list(seats), _seat_labels(stats.agents))
    wins.set_ylabel("games won alone (%)")
    wins.set_title("win share per seat")
    wins.legend(fontsize="small")

    named = [
        ("no single winner", stats.no_winner_games),
        ("lowest spender won", stats.lowest_spender_wins),
        ("met a rule gap", stats.gap_games),
    ]
    positions = list(range(len(named)))
    _bars_with_intervals(
        others,
        [Share(count, stats.games) for _, count in named],
        positions,
        width=0.6,
        horizontal=True,
    )
    others.set_yticks(positions, [name for name, _ in named])
    others.invert_yaxis()
    others.set_xlabel("games (%)")
    others.set_title("other shares of games")

    labels = _seat_labels(stats.agents)
    for axes, field, what in ((totals, "total", "final total"), (spends, "spent", "spend")):
        columns = _per_seat(stats.rows, stats.players, field)
        _distribution(axes, labels, [(stats.ruleset, columns)], what, f"{what} per seat")
    _save(figure, path)


def plot_comparison(comparison: Comparison, path: str | os.PathLike[str]) -> None:
    """Draw ``comparison`` to ``path``: each seat's win share under each rule set, the
    share of games whose winner changes (with 95% intervals) and its causes, and the
    distributions of totals per rule set and of spends per seat (from the rows)."""
    c = comparison
    figure, ((wins, changes), (totals, spends)) = _figure()
    figure.suptitle(
        f"{c.games} games of {c.rulesets[0]} with {c.players} players (seed {c.seed}), "
        f"scored under {', '.join(c.rulesets)}\n{_KEY}"
    )
    count = len(c.rulesets)
    width = 0.8 / count
    for number, ruleset in enumerate(c.rulesets):
        won = [0] * c.players
        for game in c.winners:
            if len(game[number]) == 1:
                won[game[number][0]] += 1
        positions = [seat - 0.4 + width * (number + 0.5) for seat in range(c.players)]
        shares = [Share(w, len(c.winners)) for w in won]
        _bars_with_intervals(wins, shares, positions, width=width, label=ruleset)
    wins.axhline(100 / c.players, color="grey", linestyle="--", label="an even share")
    wins.set_xticks(list(range(c.players)), _seat_labels(c.agents))
    wins.set_ylabel("games won alone (%)")
    wins.set_title("win share per seat and rule set")
    wins.legend(fontsize="small")

    _plot_changes(changes, c)

    seats = _seat_labels(c.agents)
    totals_by_rules = [
        (ruleset, _per_seat([r for r in c.rows or () if r.ruleset == ruleset], c.players, "total"))
        for ruleset in c.rulesets
    ]
    _distribution(
        totals, seats, totals_by_rules, "final total", "final total per seat and rule set"
    )
    first = [row for row in c.rows or () if row.ruleset == c.rulesets[0]]
    spent = [(c.rulesets[0], _per_seat(first, c.players, "spent"))]
    _distribution(spends, seats, spent, "spend", "spend per seat (the same under every rule set)")
    _save(figure, path)


def _plot_changes(axes: Axes, c: Comparison) -> None:
    """Winner changes per rule set, as a share with its interval, and their causes."""
    others = range(1, len(c.rulesets))
    if not others:
        axes.text(0.5, 0.5, "no other rule set to compare with", ha="center", va="center")
        axes.set_axis_off()
        return
    used = [cause for cause in CHANGE_CAUSES if any(cause in found for found in c.causes)]
    groups = ["winner changed", *used]
    width = 0.8 / len(others)
    for slot, number in enumerate(others):
        shares = [Share(c.changes[number], c.games)] + [
            Share(c.causes[number].get(cause, 0), c.games) for cause in used
        ]
        positions = [group - 0.4 + width * (slot + 0.5) for group in range(len(groups))]
        low, high = c.change_ci95[number]
        label = (
            f"{c.rulesets[number]}: {100 * c.change_share[number]:.1f}% "
            f"({100 * low:.1f}-{100 * high:.1f}%)"
        )
        _bars_with_intervals(axes, shares, positions, width=width, label=label)
    axes.set_xticks(list(range(len(groups))), [group.replace("_", " ") for group in groups])
    axes.tick_params(axis="x", labelrotation=20)
    axes.set_ylabel(f"games (%) whose winner differs from {c.rulesets[0]}'s")
    axes.set_title("winner changes and their causes (a game may have several)")
    if not any(c.changes[number] for number in others):
        axes.text(
            0.5,
            0.6,
            f"the winner never changed in {c.games} games",
            ha="center",
            transform=axes.transAxes,
            bbox={"facecolor": "white", "edgecolor": "grey"},
        )
    top = max(100 * c.change_ci95[number][1] for number in others)
    axes.set_ylim(0, max(top, 0.1) * 1.3)  # room for the legend above the bars
    axes.legend(fontsize="small")
