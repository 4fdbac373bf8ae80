"""The end-of-game rewards of the learning environments, and what they report at the end.

Every reward is paid once, when the game ends (0 before; 0 to every seat when a sale is
cut short by ``max_rounds``). :data:`REWARDS` names the kinds an environment takes as
``reward=``:

``"win"``
    ``1 / len(winners)`` to each winner, 0 to everyone else: the game's own goal, and
    the default. A fresh policy almost never wins (a uniformly random bidder spends more
    than anyone and is eliminated), so a learner starting from scratch sees no signal.
``"shaped"``
    The win share plus a small margin, and for an eliminated seat a penalty that eases
    the less it overspent. An eliminated seat gets
    ``-1 + SHAPING * tanh((top other spend - own spend) / SCALE)`` (at most -1: it spent
    the most, or as much as the top); a seat still in the running gets its win share plus
    ``SHAPING * tanh((own total - best other total) / SCALE)``, the best other total among
    the seats not eliminated. Tiles never pay an eliminated seat: its reward reads only
    the spends, so buying more never makes elimination better.
``"rank"``
    From ``1`` for the first place to ``-1`` for the last: ``1 - 2 * ahead / (players - 1)``,
    where ``ahead`` counts the seats still in the running ranked strictly better: the
    winners first, then the others by total. An eliminated seat gets ``-1``.
``"score"``
    The margin alone: ``tanh((own total - best other total) / SCALE)`` for a seat still
    in the running, ``-1`` for an eliminated one.

>>> import qe_rules as qe
>>> from qe_rules.learning.rewards import final_rewards
>>> from qe_rules.simulation.play import play_game
>>> result = play_game("en", 4, "value", seed=10).result()
>>> result.winners, [sheet.eliminated for sheet in result.sheets]
((3,), [False, False, True, False])
>>> [(sheet.total, sheet.spent) for sheet in result.sheets]
[(21, 24), (28, 18), (34, 37), (30, 28)]
>>> final_rewards(result, "win")
(0.0, 0.0, 0.0, 1.0)
>>> [round(r, 2) for r in final_rewards(result, "rank")]
[-0.33, 0.33, -1.0, 1.0]
>>> [round(r, 2) for r in final_rewards(result, "shaped")]
[-0.36, -0.1, -1.36, 1.1]
>>> [round(r, 2) for r in final_rewards(result, "score")]
[-0.72, -0.2, -1.0, 0.2]

Seat 2 scored the most points but spent the most: its reward reads only its spend.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Final

from qe_rules.errors import InvalidArgument, shown
from qe_rules.game.scoring import GameResult

__all__ = [
    "REWARDS",
    "SCALE",
    "SHAPING",
    "RewardFunction",
    "check_reward",
    "end_info",
    "final_rewards",
]

REWARDS: Final[tuple[str, ...]] = ("win", "shaped", "rank", "score")
"""The kinds of reward an environment takes as ``reward=``; ``"win"`` is the default."""

SHAPING: Final = 0.5
"""The weight of the margin and of the spending term in the ``"shaped"`` reward."""

SCALE: Final = 10.0
"""Points (or spend) that make one unit inside the ``tanh`` of the margins."""

RewardFunction = Callable[[GameResult], tuple[float, ...]]
"""A reward given as a function: each seat's reward from the game's result."""


def _win(result: GameResult) -> tuple[float, ...]:
    winners = result.winners
    return tuple(
        1.0 / len(winners) if seat in winners else 0.0 for seat in range(len(result.sheets))
    )


def _margins(result: GameResult) -> list[float]:
    """Each seat's total less the best total of the other seats still in the running
    (against 0 where there is none)."""
    sheets = result.sheets
    margins = []
    for sheet in sheets:
        others = [o.total for o in sheets if o.seat != sheet.seat and not o.eliminated]
        margins.append(float(sheet.total - max(others, default=0)))
    return margins


def _shaped(result: GameResult) -> tuple[float, ...]:
    sheets = result.sheets
    wins = _win(result)
    margins = _margins(result)
    rewards = []
    for sheet in sheets:
        if sheet.eliminated:
            top = max((o.spent for o in sheets if o.seat != sheet.seat), default=0)
            rewards.append(-1.0 + SHAPING * math.tanh((top - sheet.spent) / SCALE))
        else:
            margin = math.tanh(margins[sheet.seat] / SCALE)
            rewards.append(wins[sheet.seat] + SHAPING * margin)
    return tuple(rewards)


def _rank(result: GameResult) -> tuple[float, ...]:
    sheets = result.sheets
    players = len(sheets)
    winners = result.winners
    standings = [(seat in winners, sheet.total) for seat, sheet in enumerate(sheets)]
    running = [standings[s.seat] for s in sheets if not s.eliminated]
    rewards = []
    for seat, sheet in enumerate(sheets):
        if sheet.eliminated:
            rewards.append(-1.0)
            continue
        ahead = sum(1 for other in running if other > standings[seat])
        rewards.append(1.0 - 2.0 * ahead / (players - 1))
    return tuple(rewards)


def _score(result: GameResult) -> tuple[float, ...]:
    margins = _margins(result)
    return tuple(
        -1.0 if sheet.eliminated else math.tanh(margins[sheet.seat] / SCALE)
        for sheet in result.sheets
    )


_KINDS: Final[dict[str, RewardFunction]] = {
    "win": _win,
    "shaped": _shaped,
    "rank": _rank,
    "score": _score,
}


def check_reward(reward: object) -> RewardFunction:
    """The function of a reward given by name (one of :data:`REWARDS`) or as a function
    of the result."""
    if isinstance(reward, str):
        found = _KINDS.get(reward)
        if found is not None:
            return found
    elif callable(reward):
        return reward
    raise InvalidArgument(
        f"reward is one of {', '.join(REWARDS)} or a function of the result, got {shown(reward)}"
    )


def final_rewards(result: GameResult, reward: str | RewardFunction = "win") -> tuple[float, ...]:
    """Each seat's reward of kind ``reward`` (see the module) for a finished game."""
    return tuple(float(r) for r in check_reward(reward)(result))


def end_info(result: GameResult, seat: int | None = None) -> dict[str, Any]:
    """What an environment adds to a seat's ``info`` at the end of a game: the
    ``result`` (every score sheet), the ``spends`` and ``totals`` of every seat, the
    ``winners``, and with ``seat`` its ``win_share`` (the ``"win"`` reward, whatever the
    environment pays) and whether it was ``eliminated``."""
    info: dict[str, Any] = {
        "result": result,
        "spends": tuple(sheet.spent for sheet in result.sheets),
        "totals": tuple(sheet.total for sheet in result.sheets),
        "winners": result.winners,
    }
    if seat is not None:
        info["win_share"] = _win(result)[seat]
        info["eliminated"] = result.sheets[seat].eliminated
    return info
