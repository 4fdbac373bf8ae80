"""The game engine: the rules it enforces, and stateful properties over whole games."""

import random
import re

import attrs
import pytest
from hypothesis import event as note_event
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import qe_rules as qe
from qe_rules import Awarded, NotAwarded, Phase, SaleOpened, Tie, ZeroBids
from qe_rules import strategies as qst
from tests.support import examples

EN = qe.get_ruleset("en")
EARLY = qe.get_ruleset("en-early")
FOUR_DECK = EN.companies(4)


def game4(ruleset="en", **kwargs):
    kwargs.setdefault("deck", FOUR_DECK)
    kwargs.setdefault("nations", ["US", "EU", "CN", "JP"])
    kwargs.setdefault("industries", ["AGRICULTURE", "HOUSING", "FINANCE", "MANUFACTURING"])
    return qe.new_game(ruleset, 4, **kwargs)


def play(game, *bids):
    for seat, amount in bids:
        game = game.bid(seat, amount)
    return game


def kinds(events):
    return [type(e).__name__ for e in events]


def legal(game, seat, extra):
    """A legal bid of ``extra`` above the minimum (one more if that is forbidden)."""
    limits = game.bid_limits(seat)
    return limits.legal(limits.minimum + extra)


# ----------------------------------------------------------------- setup


def test_same_seed_same_game_and_setup_is_validated():
    assert qe.new_game("en", 4, seed=3) == qe.new_game(EN, 4, seed=3)
    assert qe.new_game("en", 4, seed=3).deck != qe.new_game("en", 4, seed=4).deck
    game = game4()
    assert game.deck == FOUR_DECK and game.current_company == FOUR_DECK[0]
    assert game.nations == (qe.Nation.US, qe.Nation.EU, qe.Nation.CN, qe.Nation.JP)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"deck": FOUR_DECK[:-1]}, "exactly once"),
        ({"deck": [*FOUR_DECK[:-1], "UK-FIN-4"]}, "exactly once"),
        ({"nations": ["US", "EU", "CN", "UK"]}, "UK is not in play"),
        ({"nations": ["US", "EU", "CN", "CN"]}, "each must be different"),
        ({"nations": ["US", "EU", "CN"]}, "one per seat"),
        ({"industries": ["GOVERNMENT", "HOUSING", "FINANCE", "MANUFACTURING"]}, "not in play"),
        ({"first_auctioneer": 4}, "first_auctioneer is a seat from 0 to 3"),
        ({"first_auctioneer": True}, "first_auctioneer"),
        ({"seed": 1.5}, r"a seed is a whole number \(int\) of at most 1024 bits"),
    ],
)
def test_bad_setups_raise(kwargs, message):
    with pytest.raises(qe.InvalidArgument, match=message):
        game4(**kwargs)


def _dealt_as_before(rules, players, seed):
    """The deal as ``random.Random(seed)`` and a shuffle on ``getrandbits`` give it (the
    engine's written-out ``random.shuffle`` of CPython 3.11): what seeds have dealt."""
    draw = random.Random(seed).getrandbits

    def shuffled(items):
        items = list(items)
        for i in reversed(range(1, len(items))):
            j = draw((i + 1).bit_length())
            while j > i:
                j = draw((i + 1).bit_length())
            items[i], items[j] = items[j], items[i]
        return items

    deck = shuffled(rules.companies(players))
    nations = shuffled(rules.nations(players))
    industries = shuffled(rules.industries(players))
    return tuple(deck), tuple(nations[:players]), tuple(industries[:players])


@given(
    seed=st.one_of(
        st.integers(-(2**1024) + 1, 2**1024 - 1),
        st.integers(-(2**200), 2**200),
        st.text(max_size=8),
    ),
    players=st.sampled_from([3, 4, 5]),
)
def test_a_seed_deals_what_it_always_dealt(seed, players):
    game = qe.new_game("en", players, seed=seed)
    assert (game.deck, game.nations, game.industries) == _dealt_as_before(EN, players, seed)


def test_player_count_and_ruleset_are_checked():
    with pytest.raises(qe.InvalidArgument, match="played by 3, 4, 5 players, not 6"):
        qe.new_game("en", 6)
    with pytest.raises(qe.UnknownRuleSet):
        qe.new_game("fr", 4)


def test_a_game_cannot_be_built_directly_nor_changed():
    with pytest.raises(TypeError, match="new_game"):
        qe.Game()
    game = game4()
    with pytest.raises(AttributeError, match="immutable"):
        game._sale = None
    with pytest.raises(AttributeError):
        game.to_act = frozenset()


# ----------------------------------------------------------------- bidding


def test_opening_then_secret_bids_then_award():
    game = game4()
    assert game.phase is Phase.OPENING and game.to_act == {0}
    game = game.bid(0, 5)
    assert game.phase is Phase.BIDDING and game.to_act == {1, 2, 3} and game.opening_bid == 5
    game = play(game, (2, 9), (1, 0))
    assert game.to_act == {3}
    game = game.bid(3, 4)
    assert kinds(game.last_events) == ["SecretBid", "Awarded", "ZeroBids", "SaleOpened"]
    assert (
        game.player_records()[2].companies == (FOUR_DECK[0],)
        and game.player_records()[2].spent == 9
    )
    assert game.auctioneer == 1 and game.sale == 1


def test_opening_bid_minimum_and_equal_secret_bids():
    game = game4()
    with pytest.raises(qe.IllegalAction, match="opening bid must be at least 1, got 0"):
        game.bid(0, 0)
    game = game.bid(0, 5)
    with pytest.raises(qe.IllegalAction, match=r"may not equal the opening bid \(5\) under en"):
        game.bid(1, 5)
    with pytest.raises(qe.IllegalAction, match="must be at least 0, got -1"):
        game.bid(1, -1)
    early = game4("en-early").bid(0, 5)
    assert early.can_bid(1, 5)


def test_wrong_seat_and_malformed_arguments():
    game = game4()
    with pytest.raises(qe.IllegalAction, match="waits for the opening bid of seat 0"):
        game.bid(2, 3)
    game = game.bid(0, 4).bid(1, 2)
    with pytest.raises(qe.IllegalAction, match="already bid in this bidding round"):
        game.bid(1, 3)
    with pytest.raises(qe.InvalidArgument, match="a seat is a whole number from 0 to 3"):
        game.bid(4, 3)
    with pytest.raises(qe.InvalidArgument, match="a bid is a whole number"):
        game.bid(2, 3.0)
    with pytest.raises(qe.InvalidArgument, match="a bid is a whole number"):
        game.bid(2, True)
    with pytest.raises(qe.InvalidArgument):
        game.bid("2", 3)
    assert not game.can_bid(2, 3.0)
    assert game.can_bid(2, qe.limits.MAX_BID)
    assert not game.can_bid(2, qe.limits.MAX_BID + 1)


def test_tie_rebid_by_tied_players_only_then_award():
    game = play(game4().bid(0, 3), (1, 7), (2, 7), (3, 1))
    assert game.phase is Phase.REBIDDING and game.to_act == {1, 2}
    assert isinstance(game.last_events[-1], Tie)
    with pytest.raises(qe.IllegalAction, match="not tied"):
        game.bid(3, 2)
    game = play(game, (1, 2), (2, 6))
    awarded = next(e for e in game.last_events if isinstance(e, Awarded))
    assert (awarded.seat, awarded.amount, awarded.fallback) == (2, 6, False)


def test_third_tie_falls_back_to_highest_untied_bid_under_en():
    game = play(game4().bid(0, 3), (1, 7), (2, 7), (3, 1))
    game = play(game, (1, 5), (2, 5))  # second tie
    game = play(game, (1, 4), (2, 4))  # third tie: 3 (auctioneer) is the highest untied
    awarded = next(e for e in game.last_events if isinstance(e, Awarded))
    assert (awarded.seat, awarded.amount, awarded.fallback, awarded.public) == (0, 3, True, True)
    ties = [e for e in game.events if isinstance(e, Tie)]
    assert [t.ties for t in ties] == [1, 2, 3]


def test_en_early_tied_auctioneer_rebids_and_no_unique_bid_leaves_the_tile_unsold():
    game = qe.new_game("en-early", 3, seed=1)
    game = play(game.bid(0, 5), (1, 5), (2, 5))
    assert game.to_act == {0, 1, 2}
    with pytest.raises(qe.IllegalAction, match="at least 1"):
        game.bid(0, 0)  # the auctioneer keeps the opening minimum
    with pytest.raises(qe.IllegalAction, match="may not equal the opening bid"):
        game.bid(1, 5)
    game = play(game, (0, 3), (1, 3), (2, 3))
    game = play(game, (0, 4), (1, 4), (2, 4))
    event = next(e for e in game.last_events if isinstance(e, NotAwarded))
    assert event.reason == "no-unique-bid"
    assert [g.code for g in game.gaps] == ["no-unique-bid"]
    assert sum(len(r.companies) for r in game.player_records()) == 0 and game.sale == 1


def test_en_early_unique_bid_of_the_whole_sale_wins():
    game = qe.new_game("en-early", 4, seed=1)
    game = play(game.bid(0, 2), (1, 8), (2, 8), (3, 4))
    game = play(game, (1, 6), (2, 6))
    game = play(game, (1, 4), (2, 4))  # 4 was also bid by seat 3: highest unique is 2
    awarded = next(e for e in game.last_events if isinstance(e, Awarded))
    assert (awarded.seat, awarded.amount, awarded.fallback) == (0, 2, True)


def test_zero_bids_score_once_per_round_and_never_with_three_players():
    game = game4()
    game = play(game, (0, 3), (1, 0), (2, 0), (3, 5))  # sale 0, round 0
    game = play(game, (1, 3), (0, 0), (2, 0), (3, 5))  # sale 1, round 0: seat 2 again
    zero = [e for e in game.events if isinstance(e, ZeroBids)]
    assert [(z.seats, z.scoring) for z in zero] == [((1, 2), (1, 2)), ((0, 2), (0,))]
    assert [r.zero_bid_rounds for r in game.player_records()] == [1, 1, 1, 0]
    three = qe.new_game("en", 3, seed=2)
    three = play(three, (0, 3), (1, 0), (2, 0))
    assert not any(isinstance(e, ZeroBids) for e in three.events)
    assert all(r.zero_bid_rounds == 0 for r in three.player_records())


def test_the_last_tile_belongs_to_the_last_round():
    rules = attrs.evolve(EN, id="zero-bids-for-three", zero_bid_player_counts=(3, 4, 5))
    game = qe.new_game(rules, 3, seed=1)
    while not game.is_over:
        for seat in sorted(game.to_act):
            extra = 2 if seat == game.auctioneer else 0  # the others bid zero
            game = game.bid(seat, legal(game, seat, extra))
    last = [e for e in game.events if isinstance(e, SaleOpened)][-1]
    assert last.auctioneer is None and last.round == rules.rounds(3) - 1
    assert [r.zero_bid_rounds for r in game.player_records()] == [5, 5, 5]
    assert qe.score_game(rules, game.player_records()) == game.result()


def test_three_player_last_tile_has_no_auctioneer_and_a_tie_awards_nothing():
    game = qe.new_game("en", 3, seed=5)
    while game.sale < 15:
        for seat in sorted(game.to_act):
            game = game.bid(seat, legal(game, seat, 1 + seat))
    assert game.auctioneer is None and game.to_act == {0, 1, 2}
    assert game.phase is Phase.BIDDING
    assert game.bid_limits(1) == qe.BidLimits(0)
    done = play(game, (0, 4), (1, 4), (2, 1))
    assert done.is_over
    assert isinstance(done.events[-2], NotAwarded) and done.events[-2].reason == "last-tile-tie"
    assert done.gaps == done.result().gaps  # a documented non-award is no gap
    won = play(game, (0, 0), (1, 2), (2, 1))
    assert won.player_records()[1].companies[-1] == game.current_company


def test_five_player_peek():
    game = qe.new_game("en", 5, seed=11)
    assert not game.can_peek(1)  # nothing sold yet
    game = play(game, (0, 3), (1, 7), (2, 1), (3, 0), (4, 2))
    # the peek window: every seat that may peek is to act, and nobody bids
    assert game.phase is Phase.PEEKING and game.to_act == {2, 3, 4}
    assert game.sale == 1 and game.auctioneer == 1 and game.bid_limits(1) is None
    assert not game.can_peek(0) and not game.can_peek(1)  # auctioneer, winner
    with pytest.raises(qe.IllegalAction, match="ran sale 0"):
        game.peek(0)
    with pytest.raises(qe.IllegalAction, match="won sale 0"):
        game.decline_peek(1)
    with pytest.raises(qe.IllegalAction, match="waits until seats 2, 3, 4 answer the peek"):
        game.bid(1, 4)
    with pytest.raises(qe.IllegalAction, match="waits until"):
        game.bid(2, 4)  # a seat in the window does not bid either
    assert game.view(2).history[0].amount is None
    assert game.view(2).can_peek and not game.view(2).to_bid and game.view(2).limits is None
    peeked = game.peek(2)
    assert peeked.view(2).history[0].amount == 7 and peeked.view(2).history[0].peeked
    assert peeked.view(2).peeks_used == (0, 0, 1, 0, 0) == peeked.view(3).peeks_used
    assert peeked.view(3).history[0].amount is None
    assert peeked.to_act == {3, 4} and not peeked.view(2).can_peek
    with pytest.raises(qe.IllegalAction, match="already seen"):
        peeked.peek(2)
    declined = peeked.decline_peek(4)
    assert declined.to_act == {3} and declined.last_events == (qe.PeekDeclined(0, 4),)
    with pytest.raises(qe.IllegalAction, match="seat 4 has declined to peek at sale 0"):
        declined.peek(4)
    closed = declined.decline_peek(3)  # the last answer closes the window
    assert closed.phase is Phase.OPENING and closed.to_act == {1}
    after = closed.bid(1, 4)
    with pytest.raises(qe.IllegalAction, match="nothing to peek at"):
        after.peek(3)
    assert [m.kind for m in after.moves()[5:]] == ["peek", "decline-peek", "decline-peek", "bid"]
    assert not qe.new_game("en", 4, seed=1).can_peek(1)
    with pytest.raises(qe.IllegalAction, match="en-early has no peek"):
        qe.new_game("en-early", 5, seed=1).peek(1)
    with pytest.raises(qe.IllegalAction, match="en-early has no peek"):
        qe.new_game("en-early", 5, seed=1).verify_decline_peek(1)


def test_peek_used_up_and_public_amounts():
    game = qe.new_game("en", 5, seed=11)
    game = play(game, (0, 3), (1, 7), (2, 1), (3, 0), (4, 2)).peek(2)
    game = game.decline_peek(3).decline_peek(4)
    game = play(game, (1, 3), (2, 1), (3, 9), (4, 0), (0, 2))
    assert game.to_act == {0, 4}  # seat 2 has used its peek: it is not asked
    with pytest.raises(qe.IllegalAction, match="used its peek"):
        game.peek(2)
    game = game.decline_peek(0).decline_peek(4)
    game = play(game, (2, 9), (3, 1), (4, 0), (0, 2), (1, 3))  # the auctioneer wins
    assert game.phase is Phase.OPENING  # a public amount opens no window
    with pytest.raises(qe.IllegalAction, match="public"):
        game.peek(4)


def test_result_only_at_the_end_and_no_move_after_it():
    game = game4()
    with pytest.raises(qe.GameNotOver, match="not over"):
        game.result()
    while not game.is_over:
        for seat in sorted(game.to_act):
            game = game.bid(seat, legal(game, seat, seat + 1))
    assert game.to_act == frozenset() and game.current_company is None
    assert game.result() == qe.score_game(EN, game.player_records())
    with pytest.raises(qe.IllegalAction, match="game is over"):
        game.bid(0, 1)
    with pytest.raises(qe.IllegalAction, match="game is over"):
        game.peek(1)


def test_rules_are_read_from_fields_not_the_id():
    renamed = attrs.evolve(EARLY, id="en")
    game = qe.new_game(renamed, 4, seed=1).bid(0, 5)
    assert game.can_bid(1, 5)  # behaves like en-early whatever its id


# ----------------------------------------------------------------- stateful properties


class GameMachine(RuleBasedStateMachine):
    """Random legal and illegal moves on every rule set and player count."""

    @initialize(rules=qst.rulesets(), data=st.data())
    def start(self, rules, data):
        players = data.draw(qst.player_counts(rules))
        self.game = qe.new_game(
            rules,
            players,
            seed=data.draw(st.integers(0, 2**16)),
            first_auctioneer=data.draw(st.integers(0, players - 1)),
        )
        self.moves = 0
        self.bound = 3 * players * rules.sales(players) * max(1, rules.ties_before_fallback)
        self.amounts: dict[int, int] = {}

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def legal_move(self, data):
        move = data.draw(qst.legal_moves(self.game, peek_chance=0.2))
        self.game = self.game.apply(move)
        self.moves += 1
        for event in self.game.last_events:
            if isinstance(event, Awarded):
                self.amounts.setdefault(event.seat, 0)
                self.amounts[event.seat] += event.amount

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def finish_the_sale(self, data):
        sale = self.game.sale
        while not self.game.is_over and self.game.sale == sale:
            self.legal_move(data)

    @rule(data=st.data())
    def illegal_move(self, data):
        kind, seat, amount = data.draw(qst.illegal_moves(self.game))
        before = self.game
        record = before.to_record()
        if kind == "bid":
            assert not before.can_bid(seat, amount)
            with pytest.raises(qe.RulesError):
                before.bid(seat, amount)
            with pytest.raises(qe.RulesError):
                before.verify_bid(seat, amount)
        elif kind == "peek":
            assert not before.can_peek(seat)
            with pytest.raises(qe.RulesError):
                before.peek(seat)
        else:
            assert not before.can_decline_peek(seat)
            with pytest.raises(qe.RulesError):
                before.decline_peek(seat)
            with pytest.raises(qe.RulesError):
                before.verify_decline_peek(seat)
        assert self.game is before and before == qe.replay(record)
        assert before.to_record() == record

    @invariant()
    def tiles_are_conserved(self):
        game = self.game
        won = sum(len(r.companies) for r in game.player_records())
        unsold = sum(1 for e in game.events if isinstance(e, NotAwarded))
        in_deck = game.ruleset.sales(game.players) - game.sale
        assert won + unsold + in_deck == game.ruleset.sales(game.players)

    @invariant()
    def spend_is_the_sum_of_winning_amounts(self):
        spent = [r.spent for r in self.game.player_records()]
        assert spent == [self.amounts.get(seat, 0) for seat in range(self.game.players)]

    @invariant()
    def the_auctioneer_rotates(self):
        game = self.game
        sales = game.ruleset.sales(game.players)
        for event in game.events:
            if isinstance(event, SaleOpened):
                last = event.sale == sales - 1 and game.ruleset.has_last_tile_rule(game.players)
                expected = None if last else (game.first_auctioneer + event.sale) % game.players
                assert event.auctioneer == expected

    @invariant()
    def the_game_ends_within_a_bound(self):
        assert self.moves <= self.bound

    @invariant()
    def a_finished_game_has_one_winner_or_a_gap(self):
        note_event("over" if self.game.is_over else "in progress")
        if self.game.is_over:
            result = self.game.result()
            assert len(result.winners) == 1 or result.gaps
            assert result == qe.score_game(self.game.ruleset, self.game.player_records())


GameMachine.TestCase.settings = examples(40, stateful_step_count=80)
test_game_machine = GameMachine.TestCase


@given(qst.games(finished=True))
@examples(60)
def test_finished_games_have_a_winner_or_a_gap(game):
    result = game.result()
    assert len(result.winners) == 1 or result.gaps
    assert all(not result.sheets[s].eliminated for s in result.winners)
    assert game.gaps[-len(result.gaps) :] == result.gaps or not result.gaps


@given(qst.games(), st.data())
@examples(60)
def test_can_and_verify_agree_with_the_move(game, data):
    seat = data.draw(st.integers(-1, game.players))
    amount = data.draw(st.one_of(st.integers(-2, 30), st.sampled_from([1.0, True, "2"])))
    try:
        game.bid(seat, amount)
    except qe.RulesError as error:
        assert not game.can_bid(seat, amount)
        with pytest.raises(type(error), match=re.escape(str(error))):
            game.verify_bid(seat, amount)
    else:
        assert game.can_bid(seat, amount)
        assert game.verify_bid(seat, amount) is None


@given(qst.games(), st.data())
@examples(60)
def test_bid_many_is_the_same_as_bids_in_seat_order(game, data):
    if game.phase not in (Phase.BIDDING, Phase.REBIDDING):  # no secret bids are due
        return
    seats = data.draw(st.lists(st.sampled_from(sorted(game.to_act)), unique=True, min_size=1))
    bids = {seat: data.draw(qst.bids(game, seat)) for seat in seats}
    one_by_one = game
    for seat in sorted(bids):
        one_by_one = one_by_one.bid(seat, bids[seat])
    together = game.bid_many(bids)
    assert together == one_by_one and hash(together) == hash(one_by_one)
    assert together.events == one_by_one.events
    assert together.to_record() == one_by_one.to_record()
    assert together.views() == one_by_one.views()


def test_bid_many_refuses_as_a_whole():
    game = game4().bid(0, 5)
    with pytest.raises(qe.IllegalAction, match="may not equal the opening bid"):
        game.bid_many({1: 3, 2: 5})
    assert not game.can_bid_many({1: 3, 2: 5}) and game.can_bid_many({1: 3, 2: 6})
    with pytest.raises(qe.InvalidArgument, match="mapping of seat to amount"):
        game.bid_many([(1, 3)])
    with pytest.raises(qe.InvalidArgument, match="a seat is a whole number"):
        game.bid_many({"1": 3})
    opening = game4().bid_many({0: 4})  # the opening bid works too
    assert opening == game4().bid(0, 4)


@given(qst.games(), st.data())
@examples(40)
def test_views_are_the_views_of_each_seat(game, data):
    seats = data.draw(st.lists(st.integers(0, game.players - 1), max_size=4))
    assert game.views(seats) == tuple(game.view(seat) for seat in seats)
    assert game.views() == tuple(game.view(seat) for seat in range(game.players))
    with pytest.raises(qe.InvalidArgument):
        game.views([game.players])
