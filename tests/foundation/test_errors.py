"""Errors an app can translate (``qe_rules.errors``): every error carries a stable code
and its params, its class's code when it was raised without one of its own."""

import pickle
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules import errors
from qe_rules import strategies as qst
from qe_rules.errors import ERROR_CODES
from qe_rules.present.text import error_text
from tests.support import examples

PACKAGE = Path(qe.__file__).parent


def every_error_class():
    found, todo = [], [errors.RulesError]
    while todo:
        kind = todo.pop()
        found.append(kind)
        todo += kind.__subclasses__()
    return found


def test_a_seat_not_to_act_is_refused_with_a_stable_code():
    game = qe.new_game("en", 4, seed=1)
    waiting = [seat for seat in range(4) if seat not in game.to_act]
    for seat in waiting:
        with pytest.raises(qe.IllegalAction) as refused:
            game.bid(seat, 3)
        error = refused.value
        assert error.code == "not-to-act" and error.code in ERROR_CODES
        assert error.params == {"seat": seat, "sale": 0, "auctioneer": game.auctioneer}
        assert error.to_dict() == {
            "code": "not-to-act",
            "message": str(error),
            "params": error.params,
        }


def test_every_error_class_has_a_listed_code_and_is_its_code_without_one():
    import qe_rules.apps.web  # noqa: F401 (its errors are RulesErrors too)

    for kind in every_error_class():
        assert kind.default_code in ERROR_CODES or kind.__module__.startswith("qe_rules.apps"), kind
    assert qe.InvalidArgument("no code given").code == "invalid-argument"
    assert qe.IllegalAction("x", code="game-over").code == "game-over"


def test_every_code_the_library_raises_is_listed_and_documented():
    raised = set()
    for path in PACKAGE.rglob("*.py"):
        raised |= set(re.findall(r'\bcode="([a-z-]+)"', path.read_text(encoding="utf-8")))
    assert raised and raised <= ERROR_CODES.keys(), raised - ERROR_CODES.keys()
    documented = (PACKAGE.parent / "docs" / "engine.md").read_text(encoding="utf-8")
    for code in ERROR_CODES:
        assert f"| `{code}` |" in documented, code


def test_code_and_params_survive_a_pickle():
    error = qe.IllegalAction("a message", code="already-bid", seat=1, sale=2, waiting=[0, 3])
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is qe.IllegalAction and str(again) == "a message"
    assert (again.code, dict(again.params)) == (
        "already-bid",
        {"seat": 1, "sale": 2, "waiting": [0, 3]},
    )


@given(qst.games(), st.data())
@examples(60)
def test_every_refused_move_has_a_code_and_a_text_in_each_language(game, data):
    kind, seat, amount = data.draw(qst.illegal_moves(game))
    with pytest.raises(qe.RulesError) as refused:
        game.apply(qe.Move(kind, seat, amount))
    error = refused.value
    assert error.code in ERROR_CODES
    english, german = error_text(error, lang="en"), error_text(error, lang="de")
    assert english and german
    if error.code in ("not-to-act", "already-bid", "not-tied", "bid-below-minimum",
                      "bid-equals-opening-bid", "waiting-for-peeks", "game-over"):  # fmt: skip
        assert german != english and "seat 0" not in english


PEEK_CODES = {code for code in ERROR_CODES if "peek" in code} - {"waiting-for-peeks"}


def test_every_refused_peek_has_its_own_code_and_a_text_in_each_language():
    """Every seat asks to peek (and to name sales) at every moment of games under each peek
    timing: each refusal carries a peek code whose text differs by language."""
    from qe_rules.simulation.play import play_game
    from tests.support import states

    seen = set()
    specs = [
        ("en", 5), ("en", 4), ("en:peek_timing=any-earlier-sale", 5),
        ("en:peek_timing=before-bids", 5), ("en:peeks_per_player=2", 5),
    ]  # fmt: skip
    for spec, players in specs:
        for seed in range(3):
            game = play_game(spec, players, "value", seed=seed)
            for state in [*list(states(game.to_record()))[::3], game]:
                for seat in range(players):
                    for named in (None, 0, 99):
                        if state.can_peek(seat, named):
                            continue
                        with pytest.raises(qe.IllegalAction) as refused:
                            state.verify_peek(seat, named)
                        error = refused.value
                        seen.add(error.code)
                        if error.code in PEEK_CODES:
                            english = error_text(error, lang="en")
                            assert english != str(error) and "seat 0" not in english
                            assert error_text(error, lang="de") != english
    assert seen <= PEEK_CODES | {"game-over"}, seen - PEEK_CODES
    assert len(seen & PEEK_CODES) >= 10, sorted(seen)
    params = {"seat": 1, "sale": 2, "players": 4, "peek_players": [5], "limit": 1, "last": 3}
    for code in PEEK_CODES:  # those no game above raised too
        error = qe.IllegalAction("the English message", code=code, named="0", **params)
        english, german = error_text(error, lang="en"), error_text(error, lang="de")
        assert english != "the English message" and german != english, code
