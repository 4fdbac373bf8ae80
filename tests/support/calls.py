"""Public functions and environments called with hostile arguments and actions (the third
round, issue 40): the targets ``api`` and ``envs`` of ``bench/fuzz.py``.

``api`` calls one public function with one or more hostile arguments, the others valid and
cheap; it must return or raise a :class:`qe_rules.RulesError`. ``envs`` makes an
environment (Gymnasium, PettingZoo AEC and parallel, the vector environment, OpenSpiel)
with hostile arguments, then plays it with hostile actions mixed into legal ones: every
hostile action is refused with a ``RulesError`` and the environment stays usable (the next
legal action is played).
"""

from __future__ import annotations

import io
import math
import random
from collections.abc import Callable
from typing import Any

import numpy as np

import qe_rules as qe
from qe_rules import batch
from tests.support.fuzz import INTS, TEXTS, value
from tests.support.hostile import spec_string


def _work(rng: random.Random, *valid: Any) -> Any:
    """A number of games: as :func:`_odd`, but never a large valid amount of work (2**31
    games, or a million in chunks of 4, would be played, which is what was asked; 10**20
    are refused)."""
    found = _odd(rng, *valid)
    if type(found) is int and found > 100:
        return 10**20
    return found


def _odd(rng: random.Random, *valid: Any, share: float = 0.5) -> Any:
    """One of ``valid`` (``share`` of the time), else a hostile value."""
    if valid and rng.random() < share:
        return rng.choice(valid)
    return value(rng) if rng.random() < 0.7 else rng.choice([*INTS, *TEXTS[:12], None, 1.5])


def _ruleset(rng: random.Random) -> Any:
    return _odd(rng, "en", "de", qe.get_ruleset("en-early"), spec_string(rng))


class _Twisted(str):
    """A string that equals everything (a caller's odd subclass)."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = str.__hash__


def _closed() -> io.StringIO:
    closed = io.StringIO()
    closed.close()
    return closed


_CALLS: tuple[Callable[[random.Random], Any], ...] = (
    lambda rng: qe.diversification_points(
        _ruleset(rng),
        _odd(rng, 3, 4, 5),
        _odd(
            rng, [2, 2, 1, 1, 1], (5, 5, 4, 4, 4), [22], [], [rng.randrange(30)] * rng.randrange(8)
        ),
    ),
    lambda rng: qe.verify(
        _ruleset(rng),
        random_games=_work(rng, 0, 1),
        checks=_odd(rng, ("deck-size",), ["table-coverage"], [], "last-tile", ["nope"]),
        thorough=_odd(rng, False),
    ),
    lambda rng: qe.new_game(
        _ruleset(rng),
        _odd(rng, 3, 4, 5),
        seed=_odd(rng, 1, "x", "", "\x00", 2**64 - 1, -(2**63), None),
        first_auctioneer=_odd(rng, 0, 1),
    ),
    lambda rng: qe.get_open_question(_odd(rng, "tie_streak", [], {}, "x")),
    lambda rng: qe.dump_records(
        _odd(rng, [qe.new_game("en", 3, seed=1)], []),
        _odd(rng, io.StringIO(), io.BytesIO(), _closed(), None),
    ),
    lambda rng: list(qe.load_records(_odd(rng, io.StringIO(""), ["{}"], io.BytesIO(b"{}\n")))),
    lambda rng: qe.json_schema(_odd(rng, "event", _Twisted("x"), "view")),
    lambda rng: qe.rulebook(
        _ruleset(rng),
        lang=_odd(rng, "en", "de"),
        against=_odd(rng, None, "de"),
        cite=_odd(rng, False, True),
    ).to_html(
        picture=_odd(rng, None, qe.svg.tile, lambda tile: 5),
        paper=_odd(rng, "a4", "letter"),
        fragment=_odd(rng, False),
        stylesheet=_odd(rng, True),
    ),
    lambda rng: qe.score_game(_ruleset(rng), _odd(rng, [], [qe.PlayerRecord("US", "FIN", [], 0)])),
    lambda rng: qe.diff(_ruleset(rng), _ruleset(rng)),
    lambda rng: qe.agent_from_name(_odd(rng, "random", "value", "trained"), _odd(rng, 0, 7)),
    lambda rng: qe.play_game(
        _ruleset(rng),
        _odd(rng, 3, 4),
        _odd(rng, "random", ["zero"] * 3, lambda seed: None),
        seed=_odd(rng, 1),
        index=_odd(rng, 0, 3),
    ),
    lambda rng: qe.simulate(
        _ruleset(rng),
        _odd(rng, 3, 4),
        _odd(rng, "random", "zero"),
        _work(rng, 1, 2),
        seed=_odd(rng, 1),
        engine=_odd(rng, "reference", "batch", "auto"),
        rows=_odd(rng, False, True),
    ),
    lambda rng: qe.compare(
        _odd(rng, ["en", "de"], ["en"]),
        _odd(rng, 3, 4),
        "random",
        _work(rng, 1, 2),
        seed=_odd(rng, 1),
        play=_odd(rng, "first", "each"),
    ),
    lambda rng: batch.play(
        _ruleset(rng),
        _odd(rng, 3, 4, 5),
        _work(rng, 1, 10, 10**12, 10**5000),
        agents=_odd(rng, "random", "zero"),
        seed=_odd(rng, 1, -1),
        start=_odd(rng, 0, 5),
        chunk=_odd(rng, 4, 1000),
    ),
    lambda rng: qe.GameResult.from_dict(
        qe.play_game("en", 3, "zero", seed=1).result().to_dict(), ruleset=_ruleset(rng)
    ),
    lambda rng: qe.PlayerView.from_dict(
        qe.new_game("en", 3, seed=1).view(0).to_dict(), ruleset=_ruleset(rng)
    ),
)


def fuzz_api(rng: random.Random) -> str:
    """One public function with hostile arguments: a value or a RulesError."""
    call = rng.choice(_CALLS)
    try:
        call(rng)
    except qe.RulesError:
        return "refused"
    return "returned"


# ------------------------------------------------------------------ environments

_ACTION_ODDITIES = (-1, 33, 999, 10**9, 10**5000, True, 1.5, math.nan, "3", None, b"1", [1])


def _hostile_action(rng: random.Random) -> Any:
    return rng.choice([*_ACTION_ODDITIES, np.int64(-5), np.float32(2.0), object()])


def _refused(call: Callable[[], Any]) -> bool:
    try:
        call()
    except qe.RulesError:
        return True
    return False


def _gym(rng: random.Random) -> None:
    from qe_rules.learning.gymnasium_env import QESeatEnv

    env = QESeatEnv(
        _odd(rng, "en", "de", share=0.9), _odd(rng, 3, 4, 5, share=0.9), seat=_odd(rng, 0, 1, share=0.9),
        opponents=_odd(rng, "random", "value", lambda seed: None, lambda seed: 5, share=0.9),
        max_rounds=_odd(rng, 100, 5, share=0.9),
    )  # fmt: skip
    env.reset(seed=rng.randrange(100))
    for _ in range(60):
        if rng.random() < 0.3:
            assert _refused(lambda: env.step(_hostile_action(rng))), "a hostile action played"
            continue
        legal = np.flatnonzero(env.action_masks())
        _, _, done, cut, _ = env.step(int(rng.choice(legal)))
        if done or cut:
            return


def _aec(rng: random.Random) -> None:
    from qe_rules.learning.pettingzoo_env import QEEnv

    env = QEEnv(
        _odd(rng, "en", "de", share=0.9),
        _odd(rng, 3, 4, 5, share=0.9),
        max_rounds=_odd(rng, 100, share=0.9),
    )
    env.reset(seed=rng.randrange(100))
    for _ in range(150):
        observation, _, done, cut, _ = env.last()
        if done or cut:
            assert _refused(lambda: env.step(rng.choice([0, 5]))), "an action after the end"
            return
        if rng.random() < 0.3:
            assert _refused(lambda: env.step(_hostile_action(rng))), "a hostile action played"
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def _parallel(rng: random.Random) -> None:
    from qe_rules.learning.parallel_env import QEParallelEnv

    env = QEParallelEnv(_odd(rng, "en", "de", share=0.9), _odd(rng, 3, 4, 5, share=0.9))
    observations, _ = env.reset(seed=rng.randrange(100))
    for _ in range(80):
        if not env.agents:
            return
        actions = {
            agent: int(rng.choice(np.flatnonzero(seen["action_mask"])))
            for agent, seen in observations.items()
            if seen["action_mask"].any()  # the seats to act
        }
        if rng.random() < 0.3:
            actions[rng.choice(list(actions))] = _hostile_action(rng)
            if _refused(lambda actions=actions: env.step(actions)):
                continue
        observations, *_ = env.step(actions)


def _vector(rng: random.Random) -> None:
    from qe_rules.learning.vector_env import BatchVectorEnv

    players = _odd(rng, 3, 4, 5, share=0.9)
    env = BatchVectorEnv(
        _odd(rng, "en", "de", share=0.9),
        players,
        num_envs=_odd(rng, 2, 3, share=0.9),
        copy=_odd(rng, True, share=0.9),
    )
    env.reset(seed=_odd(rng, 1, None, share=0.9))
    for _ in range(40):
        actions = env.action_space.sample()
        if rng.random() < 0.3:
            odd = rng.choice([
                actions.astype(float) + 0.5, actions.astype(object), actions - 40,
                actions * 10**9, np.full(actions.shape, "x"), actions[:1], None, [[1, 2], [3]],
            ])  # fmt: skip
            same = isinstance(odd, np.ndarray) and odd.dtype == actions.dtype
            if same and np.array_equal(odd, actions):  # one game, or every action 0
                continue  # well formed after all
            assert _refused(lambda odd=odd: env.step(odd)), "a malformed action array played"
            continue
        env.step(actions)


def _openspiel(rng: random.Random) -> None:
    import pyspiel

    from qe_rules.learning import openspiel_game

    params = {"players": _odd(rng, 3, 4, 5, share=0.9), "max_rounds": _odd(rng, 100, 3, share=0.9)}
    state = openspiel_game.QEGame(params).new_initial_state()
    for _ in range(300):
        if state.is_terminal():
            assert _refused(lambda: state.apply_action(3)), "an action after the end"
            return
        legal = (
            [code for code, _ in state.chance_outcomes()]
            if state.is_chance_node()
            else state.legal_actions()
        )
        if rng.random() < 0.2:
            odd = rng.choice([999, 10**9, 200, 33, max(legal) + 1, 10**5000])
            try:
                state.apply_action(odd)
            except (qe.RulesError, pyspiel.SpielError, OverflowError, TypeError):
                pass  # pybind11 refuses a number no C++ int holds before the game sees it
            else:
                raise AssertionError(f"action {odd} outside {legal} played")
            assert state.legal_actions() == legal or state.is_chance_node(), "a refusal changed"
            continue
        state.apply_action(rng.choice(legal))


_ENVS = (_gym, _aec, _parallel, _vector, _openspiel)


def fuzz_envs(rng: random.Random) -> str:
    """An environment made and played with hostile arguments and actions."""
    try:
        rng.choice(_ENVS)(rng)
    except qe.RulesError:
        return "refused"
    return "played"


TARGETS: dict[str, Callable[[random.Random], str]] = {"api": fuzz_api, "envs": fuzz_envs}
"""The third round's call targets by name."""
