"""The open questions as switches: each reading of each switch, on the examples of the
texts' review, under the spec string that names it."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given

import qe_rules as qe
from qe_rules import strategies as qst
from qe_rules.apps.cli import main as qe_cli
from qe_rules.game.views import Phase
from tests.support import examples


def awarded(game):
    return [e for e in game.events if isinstance(e, qe.Awarded)][-1]


def zero_bids(game):
    return [e for e in game.events if isinstance(e, qe.ZeroBids)][-1]


# ----------------------------------------------------------------- unique_bid_pool


def unique_pool_example(rules):
    """en-early, 5 players: opens 5; 9, 9, 9, 1; rebids 8, 8, 8; rebids 10, 10, 8."""
    game = qe.new_game(rules, 5, seed=1).bid(0, 5)
    game = game.bid_many({1: 9, 2: 9, 3: 9, 4: 1}).bid_many({1: 8, 2: 8, 3: 8})
    return game.bid_many({1: 10, 2: 10, 3: 8})


def test_every_bid_counts_overridden_bids_and_the_opening_bid():
    sale = awarded(unique_pool_example("en-early"))
    assert (sale.seat, sale.amount, sale.fallback) == (0, 5, True)


def test_standing_bids_count_only_the_bids_at_the_last_tie():
    sale = awarded(unique_pool_example("en-early:unique_bid_pool=standing-bids"))
    assert (sale.seat, sale.amount, sale.fallback) == (3, 8, True)


# ----------------------------------------------------------------- tie_streak


def tie_streak_example(rules):
    """en, 4 players: opens 5; 7, 7, 6; rebids 6, 4 (seats 1 and 3 tie); rebids 6, 6."""
    game = qe.new_game(rules, 4, seed=9).bid(0, 5)
    game = game.bid_many({1: 7, 2: 7, 3: 6}).bid_many({1: 6, 2: 4})
    return game.bid_many({1: 6, 3: 6})


def test_any_players_counts_every_tie():
    game = tie_streak_example("en")
    assert awarded(game).seat == 0 and awarded(game).fallback
    assert game.sale == 1


def test_same_players_starts_the_count_again_when_other_players_tie():
    game = tie_streak_example("en:tie_streak=same-players")
    assert game.sale == 0 and game.to_act == {1, 3}
    ties = [e for e in game.events if isinstance(e, qe.Tie)]
    assert [(t.seats, t.ties) for t in ties] == [((1, 2), 1), ((1, 3), 1), ((1, 3), 2)]
    game = game.bid_many({1: 6, 3: 6})  # the third tie of the same players
    assert awarded(game).seat == 0 and awarded(game).fallback


# ----------------------------------------------------------------- tied_auctioneer


def tied_auctioneer_example(rules):
    """en-early, 4 players: opens 5; 5, 5, 3 (the auctioneer is tied)."""
    return qe.new_game(rules, 4, seed=2).bid(0, 5).bid_many({1: 5, 2: 5, 3: 3})


def test_a_tied_auctioneer_rebids():
    game = tied_auctioneer_example("en-early")
    assert game.to_act == {0, 1, 2}


def test_a_tied_auctioneer_stands_and_the_others_may_not_equal_the_opening_bid():
    game = tied_auctioneer_example("en-early:tied_auctioneer=stands")
    assert game.to_act == {1, 2}
    assert not game.can_bid(1, 5)
    sale = awarded(game.bid_many({1: 4, 2: 4}))
    assert (sale.seat, sale.amount, sale.fallback) == (0, 5, False)


# ----------------------------------------------------------------- zero bids


def zero_wins_example(rules):
    """en-early, 4 players: opens 5; 5, 5, 0; rebids 6, 6, 6 twice: the only amount bid
    once in the sale is seat 3's zero, which wins the tile through the fallback."""
    game = qe.new_game(rules, 4, seed=4).bid(0, 5).bid_many({1: 5, 2: 5, 3: 0})
    return game.bid_many({0: 6, 1: 6, 2: 6}).bid_many({0: 6, 1: 6, 2: 6})


@pytest.mark.parametrize(("value", "scoring"), [("true", (3,)), ("false", ())])
def test_a_winning_zero_bid_scores_by_zero_bid_winner_scores(value, scoring):
    game = zero_wins_example(f"en-early:zero_bid_winner_scores={value}")
    assert (awarded(game).seat, awarded(game).amount) == (3, 0)
    assert zero_bids(game).seats == (3,) and zero_bids(game).scoring == scoring


@pytest.mark.parametrize(("value", "scoring"), [("true", (1,)), ("false", ())])
def test_a_zero_rebid_scores_by_zero_rebid_scores(value, scoring):
    game = qe.new_game(f"en:zero_rebid_scores={value}", 4, seed=5).bid(0, 5)
    game = game.bid_many({1: 7, 2: 7, 3: 2}).bid_many({1: 0, 2: 3})
    assert awarded(game).seat == 0
    assert zero_bids(game).seats == (1,) and zero_bids(game).scoring == scoring


@pytest.mark.parametrize(("value", "scoring"), [("true", (2, 3)), ("false", ())])
def test_zero_bids_in_an_unsold_sale_score_by_zero_bids_score_when_unsold(value, scoring):
    game = qe.new_game(f"en-early:zero_bids_score_when_unsold={value}", 4, seed=6).bid(0, 5)
    game = game.bid_many({1: 5, 2: 0, 3: 0}).bid_many({0: 6, 1: 6}).bid_many({0: 6, 1: 6})
    assert isinstance([e for e in game.events if isinstance(e, qe.NotAwarded)][-1], qe.NotAwarded)
    assert zero_bids(game).seats == (2, 3) and zero_bids(game).scoring == scoring


# ----------------------------------------------------------------- diversification


def five_player_records(rules):
    """Seat 0 holds industries 2, 2, 1, 1, 1 (token included) in a 5-player game."""
    tiles = ["US-AGR-4", "CN-AGR-2", "CN-HOU-3", "EU-HOU-2", "CN-GOV-4", "US-FIN-2"]
    return [
        qe.PlayerRecord("US", "MANUFACTURING", tiles, spent=10),  # AGR 2, HOU 2
        qe.PlayerRecord("EU", "AGRICULTURE", [], spent=0),
        qe.PlayerRecord("CN", "HOUSING", [], spent=0),
        qe.PlayerRecord("JP", "GOVERNMENT", [], spent=0),
        qe.PlayerRecord("UK", "FINANCE", [], spent=0),
    ]


@pytest.mark.parametrize(
    ("spec", "points"),
    [
        ("en", 20),
        ("en:diversification_sets=largest-first", 17),
        ("en:tiles_once_per_category=false", 68),
    ],
)
def test_diversification_by_the_switches(spec, points):
    result = qe.score_game(spec, five_player_records(spec))
    assert result.sheets[0].diversification == points


# ----------------------------------------------------------------- the peek


def before_the_last_award(rules):
    game = qe.new_game(rules, 5, seed=3)
    while game.sale < game.ruleset.sales(5) - 1 or game.phase is Phase.PEEKING:
        seat = min(game.to_act)
        if game.phase is Phase.PEEKING:
            game = game.decline_peek(seat)
        else:
            offset = (seat - game.auctioneer) % 5
            game = game.bid(seat, game.bid_limits(seat).legal(2 + offset))
    return game


def finish_sale(game):
    auctioneer = game.auctioneer
    game = game.bid(auctioneer, 2)
    return game.bid_many({seat: 3 + (seat - auctioneer) % 5 for seat in game.to_act})


def test_the_last_sale_opens_no_window_by_default():
    game = finish_sale(before_the_last_award("en"))
    assert game.is_over and isinstance(game.events[-1], qe.GameEnded)


def test_the_last_sale_can_be_peeked_at_by_peek_after_last_sale():
    game = finish_sale(before_the_last_award("en:peek_after_last_sale=true"))
    assert not game.is_over and game.phase is Phase.PEEKING
    assert not any(isinstance(e, qe.GameEnded) for e in game.events)
    last = awarded(game)
    first, *others = sorted(game.to_act)
    game = game.peek(first)
    assert game.view(first).history[-1].amount == last.amount
    for seat in others:
        game = game.decline_peek(seat)
    assert game.is_over and isinstance(game.events[-1], qe.GameEnded)
    assert qe.replay(game.to_record()) == game


@pytest.mark.parametrize(("value", "sees_bids"), [("winning-amount", False), ("all-bids", True)])
def test_what_a_peek_shows(value, sees_bids):
    game = qe.new_game(f"en:peek_shows={value}", 5, seed=3)
    game = game.bid(0, 5).bid_many({1: 6, 2: 7, 3: 8, 4: 9})
    assert game.phase is Phase.PEEKING and game.to_act == {1, 2, 3}
    seen = game.peek(1).view(1).history[0]
    assert seen.amount == 9 and seen.peeked
    assert bool(seen.bids) is sees_bids
    assert game.decline_peek(1).view(1).history[0].bids == ()


# ----------------------------------------------------------------- spec strings


def test_a_spec_string_names_a_variant_with_its_changes_cited():
    variant = qe.get_ruleset("en-early:tied_auctioneer=stands,zero_bid_winner_scores=false")
    assert variant.id == "en-early:tied_auctioneer=stands,zero_bid_winner_scores=false"
    assert variant.tied_auctioneer is qe.TiedAuctioneer.STANDS
    assert variant.zero_bid_winner_scores is False
    assert variant.cite("tied_auctioneer").basis is qe.Basis.INTERPRETATION
    assert variant.cite("tie_fallback") == qe.get_ruleset("en-early").cite("tie_fallback")
    assert qe.get_ruleset(variant.id) is variant
    back = variant.evolve(tied_auctioneer="rebids")  # en-early's own value: not named
    assert back.id == "en-early:zero_bid_winner_scores=false"
    assert qe.get_ruleset(back.id) == back
    assert qe.get_ruleset("en").evolve(tie_streak="any-players") is qe.get_ruleset("en")


@pytest.mark.parametrize(
    ("spec", "error", "words"),
    [
        ("en:nonsense=1", qe.InvalidRuleSet, ["'nonsense'", "tie_streak"]),
        ("en:tie_streak=sometimes", qe.InvalidRuleSet, ["tie_streak", "'same-players'"]),
        ("en:zero_rebid_scores=yes", qe.InvalidRuleSet, ["zero_rebid_scores", "true or false"]),
        ("en:tie_streak", qe.InvalidRuleSet, ["field=value"]),
        ("xx:tie_streak=same-players", qe.UnknownRuleSet, ["'xx'", "'en-early'"]),
        ("en:ties_before_fallback=99", qe.InvalidRuleSet, ["ties_before_fallback", "10"]),
    ],
)
def test_a_bad_spec_string_raises_one_line_naming_what_is_allowed(spec, error, words):
    with pytest.raises(error) as raised:
        qe.get_ruleset(spec)
    message = str(raised.value)
    assert "\n" not in message
    for word in words:
        assert word in message


def test_a_variant_game_record_replays_by_its_spec_string():
    game = tie_streak_example("en:tie_streak=same-players")
    record = game.to_record()
    assert qe.replay(record) == game


# ----------------------------------------------------------------- largest first, by hand

LARGEST_FIRST = [r.evolve(diversification_sets="largest-first") for r in qe.RULESETS.values()]


def by_hand(rules, players, record):
    """Diversification as a person scores it: lay out the tiles (and the token) by
    industry, take one of each industry still on the table as a set, look its size up in
    the table, and repeat until the table is empty."""
    table = rules.diversification[players]
    pile = Counter(tile.industry for tile in record.companies)
    if qe.Category.DIVERSIFICATION in rules.token_categories:
        pile[record.industry] += 1
    points = 0
    while +pile:
        size = len(+pile)
        if size in table:
            points += table[size]
        elif size > max(table):
            points += beyond_the_table(table, size, rules.beyond_table)
        pile.subtract(set(+pile))
    return points


def beyond_the_table(table, count, policy):
    """A count above the table: its last entry, nothing, or the steps continued."""
    top = max(table)
    if policy is qe.BeyondTable.ZERO:
        return 0
    if policy is qe.BeyondTable.CAP or top - 1 not in table:
        return table[top]
    points, step = table[top], table[top] - table[top - 1]
    for _ in range(top, count):
        step += 1
        points += step
    return points


@given(qst.scoring_inputs(LARGEST_FIRST))
@examples(200)
def test_largest_first_scores_as_people_score_by_hand(inputs):
    rules, records = inputs
    result = qe.score_game(rules, records)
    for sheet, record in zip(result.sheets, records, strict=True):
        assert sheet.diversification == by_hand(rules, len(records), record)


@given(qst.scoring_inputs())
@examples(100)
def test_the_best_split_never_scores_less_than_largest_first(inputs):
    rules, records = inputs
    best = qe.score_game(rules, records)
    hand = qe.score_game(rules.evolve(diversification_sets="largest-first"), records)
    for a, b in zip(best.sheets, hand.sheets, strict=True):
        assert a.diversification >= b.diversification


# ----------------------------------------------------------------- the verifier


@pytest.mark.slow
def test_verify_reports_every_en_early_reading_that_matters_with_a_replaying_example(
    builtin_reports,
):
    report = builtin_reports["en-early"]
    assert report.ok
    differs = {f.fields[0]: f for f in report.findings if f.verdict is qe.Verdict.DIFFERS}
    for field in ("tied_auctioneer", "unique_bid_pool", "zero_bid_winner_scores", "tie_streak"):
        assert field in differs, field
    for finding in differs.values():
        assert finding.check == f"reading:{finding.fields[0]}"
        game = qe.replay(finding.example.data)  # the game under the other reading
        assert game.ruleset.id.startswith("en-early:" + finding.fields[0])


# ----------------------------------------------------------------- compare, play each


def test_compare_each_plays_the_same_games_under_each_rule_set():
    specs = ["en", "en:tiles_once_per_category=false"]
    each = qe.compare(specs, 4, "value", 30, seed=3, play="each")
    assert each.rulesets == tuple(specs) and each.games == 30
    assert each.winner_changed[0].count == 0 and each.awarded_differently[0].count == 0
    for index in (0, 7):  # the same setups and agent seeds as play_game under each
        games = [qe.play_game(spec, 4, "value", seed=3, index=index) for spec in specs]
        assert games[0].deck == games[1].deck and games[0].nations == games[1].nations
    changed = sum(
        qe.play_game(specs[0], 4, "value", seed=3, index=i).result().winners
        != qe.play_game(specs[1], 4, "value", seed=3, index=i).result().winners
        for i in range(30)
    )
    assert each.winner_changed[1].count == changed
    low, high = each.winner_changed[1].ci95
    assert low <= each.winner_changed[1].value <= high
    data = each.to_dict()
    assert data["winner_changed"][1]["ci95"] == [low, high]


def test_the_cli_compares_with_play_each(capsys):
    spec = "en-early:unique_bid_pool=standing-bids"
    status = qe_cli(
        ["compare", "en-early", spec, "--play", "each", "--games", "5", "--format", "json"]
    )
    assert status == 0
    data = json.loads(capsys.readouterr().out)
    assert data["play"] == "each" and len(data["unsold"]) == 2
    assert all(len(share["ci95"]) == 2 for share in data["winner_changed"])
