"""The checks over whole games: ``one-winner`` (scripted games) and the properties of random
games (``zero-bid-limit``, ``score-sums``), and the games they play."""

import attrs
import pytest

import qe_rules as qe
from qe_rules import RULESETS, Verdict
from qe_rules.game.events import Awarded, PeekDeclined
from qe_rules.verification import games, scripted
from tests.support.verification import ENDLESS, played_rounds, shows_its_check, with_thresholds

EN = RULESETS["en"]


@pytest.mark.kills_mutants
def test_one_winner_finds_both_gaps_of_en_with_games_that_show_them():
    findings = qe.verify(EN, checks=["one-winner"]).findings
    assert [(f.gap, f.players, f.fields) for f in findings] == [
        ("everyone-eliminated", 3, ("eliminate_highest_spender", "eliminate_all_tied_highest")),
        ("tie-after-tiebreak", 3, ("final_tiebreak",)),
    ]
    for finding in findings:
        game = qe.replay(finding.example.data)
        assert game.is_over
        assert finding.gap in {g.code for g in game.result().gaps}
    spared = attrs.evolve(EN, id="spared", eliminate_all_tied_highest=False)
    findings = qe.verify(spared, checks=["one-winner"]).findings
    assert [(f.check, f.verdict, f.players) for f in findings] == [
        ("one-winner", Verdict.HOLDS, None),
        ("one-winner", Verdict.GAP, 3),
    ]
    assert "everyone-eliminated" in findings[0].summary


@pytest.mark.kills_mutants
def test_the_simplest_game_shows_that_everyone_can_be_eliminated():
    (finding, _) = qe.verify(EN, checks=["one-winner"]).findings
    game = qe.replay(finding.example.data)
    assert {r.spent for r in game.player_records()} == {5}
    awards = [e for e in game.events if isinstance(e, Awarded)]
    assert [e.seat for e in awards] == [sale % 3 for sale in range(len(awards))]


@pytest.mark.kills_mutants
def test_scripted_sales_win_at_a_price_others_cannot_tie():
    # with an opening bid of 0 allowed, a price of 0 would let every other seat bid 1
    rules = with_thresholds(0)
    findings = qe.verify(rules, checks=["last-tile", "one-winner"]).findings
    last, eliminated, _ = findings
    game = qe.replay(last.example.data)
    awards = [e for e in game.events if isinstance(e, Awarded)]
    assert [(e.seat, e.amount) for e in awards] == [(sale % 3, 1) for sale in range(15)]
    assert eliminated.gap == "everyone-eliminated"
    assert {r.spent for r in qe.replay(eliminated.example.data).player_records()} == {5}


@pytest.mark.kills_mutants
def test_a_scripted_game_ends_after_the_peek_window_of_the_last_sale():
    """Under peek_after_last_sale a window opens after the last sale; the scripted game
    declines it and ends, instead of being refused as unfinished."""
    rules = qe.get_ruleset("en:peek_after_last_sale=true")
    sales, price = rules.sales(5), scripted.simple_price(rules)
    plan = [(sale % 5, price) for sale in range(sales)]  # each auctioneer wins: no window
    plan[-1] = ((sales - 1 + 1) % 5, price + 1)  # the last sale won by a bidder: secret
    game = scripted.scripted_game(rules, 5, plan)
    assert game is not None and game.is_over
    assert {e.sale for e in game.events if isinstance(e, PeekDeclined)} == {sales - 1}


# golden: pins the figures of the current search (how to regenerate: run the test, and
# copy the figures it reports into the expected values, after checking why they changed)
@pytest.mark.golden
@pytest.mark.kills_mutants
def test_the_sampled_checks_of_en_find_what_the_verification_page_shows():
    # docs/verification.md, section `en`: the same plans and games on every run
    (first, _) = qe.verify(EN, checks=["one-winner"]).findings
    assert first.coverage.size == 275
    reading, outside = qe.verify(EN, checks=["reading:tie_fallback"]).findings
    assert reading.summary == (
        "4 players, sale 9: under tie_fallback=highest-unique-in-sale, seat 1 wins for 1; "
        "under the rule set's own reading (tie_fallback=highest-untied), seat 2 wins for 2"
    )
    assert reading.coverage.size == 192
    assert outside.summary == (
        "tie_fallback=highest-outside-top-tie changes no award, price, score or winner in 64 "
        "games per player count"
    )


# golden: pins the figures of the current search (how to regenerate: run the test, and
# copy the figures it reports into the expected values, after checking why they changed)
@pytest.mark.golden
@pytest.mark.kills_mutants
def test_the_one_winner_search_tries_the_same_plans_on_every_run():
    # measured when the search was written; a plan ends with an unsold last tile in about
    # half the 3-player plans
    (first, _) = qe.verify("en:final_tiebreak=none", checks=["one-winner"]).findings
    assert first.coverage.size == 275


@pytest.mark.kills_mutants
def test_the_property_checks_say_how_many_games_they_played():
    findings = qe.verify(EN, checks=["zero-bid-limit", "score-sums"], random_games=3).findings
    assert [(f.check, f.players, f.verdict) for f in findings] == [
        (check, players, Verdict.HOLDS)
        for players in (3, 4, 5)
        for check in ("zero-bid-limit", "score-sums")
    ]
    assert all("in 3 random games" in f.summary for f in findings)
    assert "never scored" in findings[0].summary  # en: no zero-bid points with 3 players
    assert "more than 2 zero-bid points in a round" in findings[2].summary
    assert findings[0].fields == (
        "zero_bid_points",
        "zero_bid_limit_per_round",
        "zero_bid_player_counts",
    )
    assert findings[1].fields == ("scoring_order",)
    unlimited = attrs.evolve(EN, id="unlimited", zero_bid_limit_per_round=0)
    findings = qe.verify(unlimited, checks=["zero-bid-limit"], random_games=2).findings
    assert "one zero bid per sale" in findings[1].summary


@pytest.mark.kills_mutants
def test_the_property_checks_play_60_random_games_unless_told(monkeypatch):
    asked = []

    def random_games(rules, players, count):
        asked.append((players, count))
        return iter(())

    monkeypatch.setattr(games, "random_games", random_games)
    findings = qe.verify(EN, checks=["score-sums"]).findings
    assert asked == [(3, 60), (4, 60), (5, 60)]
    assert all("in 0 random games" in f.summary for f in findings)


@pytest.mark.kills_mutants
def test_random_games_without_a_fallback_still_end_or_are_left_out():
    rules = attrs.evolve(EN, id="no-fallback", tie_fallback=qe.TieFallback.NONE)
    findings = qe.verify(rules, checks=["score-sums"], random_games=4).findings
    assert {f.verdict for f in findings} == {Verdict.HOLDS}
    played = [int(f.summary.split("in ")[1].split(" ")[0]) for f in findings]
    assert all(1 <= n <= 4 for n in played)


@pytest.mark.kills_mutants
def test_random_games_whose_ties_never_end_are_left_out_after_200_rounds(monkeypatch):
    rounds = played_rounds(monkeypatch)
    findings = qe.verify(ENDLESS, checks=["score-sums"], random_games=1).findings
    assert all("in 0 random games" in f.summary for f in findings)
    assert len(rounds) == 200 * 3
    for players, start in zip((3, 4, 5), range(0, 600, 200), strict=True):
        games = rounds[start : start + 200]
        assert {g.players for g, _ in games} == {players}
        assert not any(g.is_over for g, _ in games)
        last = games[-1][1]
        # one opening bid, then every other seat in each of 199 rounds, in the first sale
        assert len(last.moves()) == 1 + (players - 1) * 199 and last.sale == 0


@pytest.mark.kills_mutants
def test_random_games_are_left_out_after_200_rounds_whatever_the_tie_fallback(monkeypatch):
    """A same-players tie streak has a fallback, yet other seats may keep breaking it:
    every rule set's random games stop after 200 rounds. Here no round ever ends."""
    calls = []

    def stuck(game, rng, spread):
        calls.append(game)
        assert len(calls) <= 200 * 3, "a random game went on past 200 rounds"
        return game

    monkeypatch.setattr(games, "random_round", stuck)
    rules = qe.get_ruleset("en-early:tie_streak=same-players")
    assert rules.tie_fallback is not qe.TieFallback.NONE
    findings = qe.verify(rules, checks=["score-sums"], random_games=1).findings
    assert all("in 0 random games" in f.summary for f in findings)
    assert len(calls) == 200 * len(rules.player_counts)


@pytest.mark.kills_mutants
def test_random_games_that_nobody_wins_still_hold_their_sums(monkeypatch):
    # every auctioneer wins its sales at 2, every player spends the same: all are out
    rounds = played_rounds(monkeypatch)
    findings = qe.verify(EN, checks=["score-sums"], random_games=1).findings
    assert [(f.verdict, f.players) for f in findings] == [(Verdict.HOLDS, n) for n in (3, 4, 5)]
    assert all("in 1 random games" in f.summary for f in findings)
    ends = [after for _, after in rounds if after.is_over]
    assert [game.result().winners for game in ends] == [()] * 3
    assert {g.code for game in ends for g in game.result().gaps} == {"everyone-eliminated"}


@pytest.mark.kills_mutants
def test_the_property_and_winner_findings_are_complete():
    report = qe.verify(EN, random_games=2, checks=["zero-bid-limit", "score-sums", "one-winner"])
    for finding in report.findings:
        shows_its_check(finding, EN)
        assert finding.coverage.exhaustive is False
    assert {f.example.kind for f in report.findings if f.example} == {"game"}
