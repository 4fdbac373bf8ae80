"""The engine's internal contracts: the shape of the events it keeps, the constants each
game copies, how a game is made and kept unchanged, and the renamed record query."""

import random

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules.game import _secrecy, _state, engine
from qe_rules.game.events import (
    Awarded,
    GameEnded,
    NotAwarded,
    OpeningBid,
    PeekDeclined,
    Peeked,
    SaleOpened,
    SecretBid,
    Tie,
    ZeroBids,
)
from qe_rules.verification import strategies as qst
from tests.support import examples

# The order in which the engine writes each event's fields into its raw tuples and reads
# them back by unpacking (``_, sale, seat, amount, rebid = raw``). Reordering the fields of
# an event class breaks every such site: this table must then change too.
ENGINE_ORDER = {
    SaleOpened: ("sale", "round", "company", "auctioneer"),
    OpeningBid: ("sale", "seat", "amount"),
    SecretBid: ("sale", "seat", "amount", "rebid"),
    Tie: ("sale", "seats", "ties"),
    Awarded: ("sale", "company", "seat", "amount", "public", "fallback"),
    NotAwarded: ("sale", "company", "reason"),
    ZeroBids: ("sale", "round", "seats", "scoring"),
    Peeked: ("sale", "seat", "amount"),
    PeekDeclined: ("sale", "seat"),
    GameEnded: ("sales",),
}

FIELD_TYPES = {  # what each field of a raw event holds, by name
    "sale": int,
    "sales": int,
    "round": int,
    "company": qe.Company,
    "auctioneer": (int, type(None)),
    "seat": int,
    "amount": int,  # the engine always knows the amount; views hide it
    "rebid": int,
    "seats": tuple,
    "ties": int,
    "public": bool,
    "fallback": bool,
    "reason": str,
    "scoring": tuple,
}


def _random_game(rules, players, seed):
    """A game played to the end with random legal moves, peeking or declining at random."""
    rng = random.Random(seed)
    game = qe.new_game(rules, players, seed=seed)
    while not game.is_over:
        seat = min(game.to_act)
        if game.phase is qe.Phase.PEEKING:
            game = game.peek(seat) if rng.random() < 0.5 else game.decline_peek(seat)
            continue
        limits = game.bid_limits(seat)
        game = game.bid(seat, limits.legal(rng.choice([0, 0, 1, 2, 3, 4, 5, 6])))
    return game


def _raw_events():
    games = [
        _random_game(rules, players, seed)
        for rules in ("en", "en-early", "de")
        for players in qe.get_ruleset(rules).player_counts
        for seed in range(12)
    ]
    return [(game, raw) for game in games for raw in _state._raws(game._log)]


def test_every_raw_event_is_its_class_in_the_engines_field_order():
    seen = set()
    for game, raw in _raw_events():
        kind, *values = raw
        seen.add(kind)
        names = tuple(field.name for field in attrs.fields(kind))
        assert names == ENGINE_ORDER[kind], kind  # a field order changed: see ENGINE_ORDER
        assert len(values) == len(attrs.fields(kind))
        event = kind(*values)  # round trip: the typed event holds the raw values by name
        assert tuple(getattr(event, name) for name in names) == tuple(values)
        for name, value in zip(names, values, strict=True):
            assert isinstance(value, FIELD_TYPES[name]), (kind, name, value)
            if name in ("seat", "auctioneer") and value is not None:
                assert 0 <= value < game.players
    assert seen == set(ENGINE_ORDER), set(ENGINE_ORDER) - seen


def test_the_typed_events_are_the_raw_events():
    game = _random_game("en", 5, 3)
    assert game.events == tuple(kind(*values) for kind, *values in _state._raws(game._log))


def test_every_constant_is_copied_into_the_setup():
    """``_Setup`` copies each slot of ``_Constants`` (the shared sales and the seats they
    await are those of the game's first auctioneer)."""
    per_first_auctioneer = {"shared_sales": "openings", "opening_seats": "openings_await"}
    for players in (3, 4, 5):
        for first in range(players):
            game = qe.new_game("en", players, seed=1, first_auctioneer=first)
            setup = game._setup
            constants = _state._constants(setup.ruleset, players)
            for name in _state._Constants.__slots__:
                if name in per_first_auctioneer:
                    copied = getattr(setup, per_first_auctioneer[name])
                    assert copied is getattr(constants, name)[first], name
                else:
                    assert getattr(setup, name) is getattr(constants, name), name
    own = set(_state._Setup.__slots__) - set(per_first_auctioneer.values())
    assert own == {
        "deck",
        "first_auctioneer",
        "industries",
        "industries_shown",
        "nations",
        "players",
        "ruleset",
    }


def test_the_secrecy_decided_once_is_what_the_secrecy_module_decides():
    for spec in ("en", "en:peek_shows=all-bids", "en:rebid_visibility=first-bids"):
        game = qe.new_game(spec, 5, seed=4)
        setup = game._setup
        assert setup.visibility is setup.ruleset.rebid_visibility
        assert setup.peek_shows is setup.ruleset.peek_shows
        for over in (False, True):
            assert setup.industries_shown[over] == _secrecy.shown_industries(game.industries, over)


def test_the_progress_before_the_first_sale_is_shared_and_empty():
    one, other = qe.new_game("en", 4, seed=1), qe.new_game("en", 4, seed=2)
    assert one._progress is other._progress
    start = _state._Progress.start(4)
    assert _state._fields_of(start, _state._PROGRESS_FIELDS) == _state._fields_of(
        one._progress, _state._PROGRESS_FIELDS
    )


def test_a_game_refuses_setting_and_deleting_with_one_message():
    game = qe.new_game("en", 4, seed=1)
    with pytest.raises(AttributeError) as setting:
        game.phase = qe.Phase.OVER
    with pytest.raises(AttributeError) as deleting:
        del game.phase
    assert (
        str(setting.value) == str(deleting.value) == ("Game is immutable; moves return a new game")
    )
    assert type(game) is qe.Game and type(game.bid(0, 5)) is qe.Game


def test_records_is_a_deprecated_name_of_player_records():
    game = qe.new_game("en", 4, seed=1).bid(0, 5)
    with pytest.warns(
        DeprecationWarning, match=r"^Game\.records\(\) is deprecated; use Game\.player_records\(\)$"
    ):
        old = game.records()
    assert old == game.player_records()


def test_the_one_test_of_a_bids_amount():
    limits = qe.BidLimits(minimum=1, forbidden=4)
    refused = [
        amount
        for amount in (-1, 0, 1, 3, 4, 5, qe.limits.MAX_BID)
        if engine._refused(limits, amount)
    ]
    assert refused == [-1, 0, 4]
    assert engine._refused(limits, qe.limits.MAX_BID + 1)


@pytest.mark.parametrize("ruleset", ["en", "en-early"])
def test_bid_and_bid_many_refuse_exactly_what_the_one_test_refuses(ruleset):
    """``bid`` and ``bid_many`` write ``_refused`` out for speed: they must agree with it."""
    game = qe.new_game(ruleset, 4, seed=2)
    game = game.bid(game.auctioneer, 5)  # the opening bid
    amounts = (-1, 0, 1, 4, 5, 6, qe.limits.MAX_BID, qe.limits.MAX_BID + 1)
    for seat in sorted(game.to_act):
        limits = game.bid_limits(seat)
        for amount in amounts:
            legal = not engine._refused(limits, amount)
            assert game.can_bid(seat, amount) is legal
            assert game.can_bid_many({seat: amount}) is legal
            try:
                game.bid(seat, amount)
            except qe.RulesError:
                assert not legal
            else:
                assert legal


def _amounts_near(limits):
    """The amounts where a legality test can go wrong: the edges of ``limits`` and of
    ``MAX_BID``."""
    edges = {limits.minimum, qe.limits.MAX_BID}
    if limits.forbidden is not None:
        edges.add(limits.forbidden)
    return sorted({edge + step for edge in edges for step in (-1, 0, 1)})


@examples(60)
@given(st.data())
def test_bid_limits_allow_exactly_what_the_game_accepts(data):
    """``BidLimits.allows`` is the one definition of a legal amount: ``can_bid``, ``bid``
    and ``can_bid_many`` agree with it for every seat awaited, at every edge (1,000,001
    included), and ``_refused`` is its negation."""
    rules = data.draw(qst.rulesets(), label="rules")
    game = data.draw(qst.games([rules]), label="game")
    for seat in range(game.players):
        limits = game.bid_limits(seat)
        if limits is None:
            assert not game.can_bid(seat, 5)
            continue
        for amount in _amounts_near(limits):
            allowed = limits.allows(amount)
            assert game.can_bid(seat, amount) is allowed, (seat, amount, limits)
            assert game.can_bid_many({seat: amount}) is allowed, (seat, amount, limits)
            assert engine._refused(limits, amount) is not allowed
            try:  # Game.bid's own copy of the test
                game.bid(seat, amount)
            except qe.RulesError:
                assert not allowed, (seat, amount, limits)
            else:
                assert allowed, (seat, amount, limits)
