"""The facts that follow from a rule set (``qe_rules.game.facts``): one home that both
engines read, and every fast copy of them compared with the definition."""

import itertools

import attrs
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules import batch
from qe_rules.game import _state, facts
from qe_rules.game.facts import amount_is_public, may_peek_at, rule_facts
from qe_rules.game.sales import bid_limits
from qe_rules.rules.model import RULESETS, RuleSet
from qe_rules.simulation.batch.compiled import compile_rules
from qe_rules.texts import rulebooks
from qe_rules.verification import strategies as qst
from tests.support import examples


def one_tile(players=3):
    """``en`` with a deck of one tile at ``players`` players, sold without auctioneer."""
    en = qe.get_ruleset("en")
    deck = en.companies(players)
    removed = dict(en.removed_companies)
    removed[players] = tuple(deck[1:]) + tuple(en.removed_companies[players])
    return attrs.evolve(
        en,
        id="one-tile",
        removed_companies=removed,
        last_tile_without_auctioneer=(players,),
    )


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_both_engines_read_the_same_facts(ruleset, players):
    rules = qe.get_ruleset(ruleset)
    found = rule_facts(rules, players)
    constants = _state._constants(rules, players)
    compiled = compile_rules(rules, players)
    assert constants.facts is found and compiled.facts is found
    assert constants.round_of is found.round_of is compiled.round_of
    assert constants.companies is found.companies
    assert (constants.sales, constants.last_tile, constants.zero_bids, constants.peek) == (
        compiled.sales,
        compiled.last_tile,
        compiled.zero_bids,
        compiled.peek,
    )
    assert compiled.peek_windows is found.peek_windows
    game = qe.new_game(rules, players, seed=1)
    assert game._setup.facts is found


def test_a_one_tile_deck_is_round_0_on_both_engines():
    """The engines once derived each sale's round apart: for a deck of one tile sold
    without auctioneer the reference engine said round 0 and the batch -1."""
    rules = one_tile()
    assert rule_facts(rules, 3).round_of == (0,)
    assert compile_rules(rules, 3).round_of == (0,)
    played = batch.play(rules, 3, 50, seed=2, keep_moves=True)
    for index in range(50):
        game = qe.replay(played.record(index))
        assert game.result().winners == tuple(np.flatnonzero(played.winners[index]))
        (opened,) = [e for e in game.events if isinstance(e, qe.SaleOpened)]
        assert opened.round == 0


@examples(40)
@given(rules=qst.rulesets(), opening=st.integers(0, qe.limits.MAX_BID))
def test_each_kind_of_bid_has_the_limits_bid_limits_gives(rules, opening):
    for players in rules.player_counts:
        found = rule_facts(rules, players)
        for kind, auctioneer, rebid in (
            (found.opening, True, False),
            (found.secret, False, False),
            (found.rebid, False, True),
            (found.auctioneer_rebid, True, True),
        ):
            for shown in (opening, None):
                expected = bid_limits(rules, opening=shown, auctioneer=auctioneer, rebid=rebid)
                assert kind.limits(shown) == expected
        assert found.opening_limits == bid_limits(rules, opening=None, auctioneer=True, rebid=False)
        assert found.first_limits == bid_limits(rules, opening=None, auctioneer=False, rebid=False)


@pytest.mark.parametrize(
    ("auctioneer_win", "last_tile"), list(itertools.product([False, True], repeat=2))
)
def test_the_batchs_public_amounts_and_peeks_are_the_definitions(auctioneer_win, last_tile):
    """``CompiledRules.public`` and ``may_peek_at`` apply the scalar rules of
    ``qe_rules.game.facts`` to many games: every case of one sale, compared."""
    rules = qe.get_ruleset("en").evolve(
        auctioneer_win_public=auctioneer_win,
        last_tile_amount_public=last_tile,
        peek_player_counts=[5],
    )
    compiled = compile_rules(rules, 5)
    winners = np.arange(-1, 5)  # -1: unsold
    for auctioneer in (None, *range(5)):
        public = compiled.public(winners, auctioneer)
        inside = compiled.may_peek_at(winners, auctioneer, public)
        for game, winner in enumerate(winners.tolist()):
            won = None if winner < 0 else winner
            expected = won is not None and amount_is_public(rules, won, auctioneer)
            assert public[game] == expected, (winner, auctioneer)
            for seat in range(5):
                assert inside[seat, game] == may_peek_at(seat, won, auctioneer, expected)


def test_a_peek_window_waits_for_each_seat_with_a_peek_left_that_may_peek():
    found = rule_facts(qe.get_ruleset("en").evolve(peeks_per_player=2), 5)
    assert found.peek_window((0, 2, 1, 0, 2), lambda seat: seat != 3) == {0, 2}


def test_a_peek_window_follows_every_sale_but_the_last_unless_the_rules_say():
    en = qe.get_ruleset("en")
    assert rule_facts(en, 5).peek_windows == (True,) * 14 + (False,)
    after = en.evolve(peek_after_last_sale=True)
    assert rule_facts(after, 5).peek_windows == (True,) * 15
    assert not any(rule_facts(en, 4).peek_windows)


def test_the_rulebook_writer_reads_which_rules_apply_from_the_facts():
    assert rulebooks.applies is facts.applies
    assert set(facts.APPLIES) <= set(RuleSet.rule_fields())
