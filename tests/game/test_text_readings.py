"""The readings the texts allow, played by the engine and the scorer: the tie fallback
outside the top tie, the fallback finding no bid, the tied auctioneer's rebid, the
last tile's tie and amount, who sees the rebids, and the final scoring's open cases."""

from __future__ import annotations

import pytest

import qe_rules as qe
from qe_rules import Awarded, NotAwarded, PlayerRecord, SecretBid, score_game
from qe_rules.game.sales import Award, NoAward, bid_limits, settle


def _settle(spec, standing, **kwargs):
    kwargs.setdefault("ties", 2)
    kwargs.setdefault("history", ())
    kwargs.setdefault("last_tile", False)
    kwargs.setdefault("auctioneer", 0)
    return settle(qe.get_ruleset(spec), standing, **kwargs)


# ----------------------------------------------------------------- the tie fallback


def test_the_highest_bid_outside_the_top_tie_wins():
    spec = "en:tie_fallback=highest-outside-top-tie"
    assert _settle(spec, (3, 9, 9, 5, 4)) == Award(3, 5, fallback=True, ties=3)
    assert _settle("en", (3, 9, 9, 5, 4)) == Award(3, 5, fallback=True, ties=3)
    # 9, 9, 5, 5: en passes over every tied bid; the literal de-summary reading stops at 5
    assert _settle("en", (3, 9, 9, 5, 5)) == Award(0, 3, fallback=True, ties=3)
    assert _settle(spec, (3, 9, 9, 5, 5)) == NoAward("fallback-bid-tied", 3)


def test_when_the_fallback_finds_no_bid_the_auctioneer_may_take_the_tile():
    spec = "en:tie_fallback=highest-outside-top-tie,fallback_finds_no_bid=auctioneer-wins"
    assert _settle(spec, (3, 9, 9, 5, 5)) == Award(0, 3, fallback=True, ties=3)
    early = "en-early:fallback_finds_no_bid=auctioneer-wins"
    rounds = [[(0, 5), (1, 5), (2, 5)], [(0, 3), (1, 3), (2, 3)], [(0, 4), (1, 4), (2, 4)]]
    assert _settle("en-early", (4, 4, 4), history=rounds) == NoAward("no-unique-bid", 3)
    assert _settle(early, (4, 4, 4), history=rounds) == Award(0, 4, fallback=True, ties=3)
    # without an auctioneer (the 3-player last tile) nobody can take it
    assert _settle(early, (4, 4, 4), history=rounds, auctioneer=None) == NoAward("no-unique-bid", 3)


def test_a_game_under_the_auctioneer_wins_reading_awards_every_tile():
    """en-early with no unique amount (the audit's case): unsold, or the auctioneer's."""
    for reading, owner in (("unsold", None), ("auctioneer-wins", 0)):
        game = qe.new_game(f"en-early:fallback_finds_no_bid={reading}", 4, seed=5)
        a, b, c, d = ((game.auctioneer + k) % 4 for k in range(4))
        game = game.bid(a, 1).bid(b, 1).bid(c, 1).bid(d, 1)  # all four tied
        game = game.bid(a, 2).bid(b, 2).bid(c, 0).bid(d, 0)  # a and b tied again
        game = game.bid(a, 3).bid(b, 3)  # the third tie: no amount of the sale is unique
        ended = [e for e in game.events if isinstance(e, Awarded | NotAwarded)]
        if owner is None:
            assert [(type(e), e.reason) for e in ended] == [(NotAwarded, "no-unique-bid")]
        else:
            (award,) = ended
            assert (award.seat, award.amount, award.fallback, award.public) == (a, 3, True, True)


# ----------------------------------------------------------------- the tied auctioneer


@pytest.mark.parametrize(
    ("changes", "limits"),
    [
        ("", (1, 3)),
        (":auctioneer_rebid_may_be_zero=true", (0, 3)),
        (":auctioneer_rebid_may_repeat_opening=true", (1, None)),
    ],
)
def test_the_tied_auctioneers_rebid_limits(changes, limits):
    rules = qe.get_ruleset("en-early" + changes)
    found = bid_limits(rules, opening=3, auctioneer=True, rebid=True)
    assert (found.minimum, found.forbidden) == limits
    other = bid_limits(rules, opening=3, auctioneer=False, rebid=True)
    assert (other.minimum, other.forbidden) == (0, 3)
    game = qe.new_game(rules, 4, seed=1)
    auctioneer = game.auctioneer
    game = game.bid(auctioneer, 3)
    for seat, amount in zip([s for s in range(4) if s != auctioneer], (3, 1, 0), strict=True):
        game = game.bid(seat, amount)
    assert game.phase is qe.Phase.REBIDDING and auctioneer in game.to_act
    assert game.can_bid(auctioneer, 0) is (limits[0] == 0)
    assert game.can_bid(auctioneer, 3) is (limits[1] is None)


# ----------------------------------------------------------------- the 3-player last tile


def _last_sale(spec, bids):
    """A 3-player game whose first 15 sales go to their auctioneer for 1, then the last
    tile with ``bids`` by seat."""
    game = qe.new_game(spec, 3, seed=0)
    while game.auctioneer is not None:
        auctioneer = game.auctioneer
        game = game.bid(auctioneer, 2)
        for seat in sorted(game.to_act):
            game = game.bid(seat, 1)
    for seat, amount in enumerate(bids):
        game = game.bid(seat, amount)
    return game


def test_two_equal_lower_bids_on_the_last_tile_are_a_tie_only_under_any():
    highest = [e for e in _last_sale("en", (5, 3, 3)).events if isinstance(e, Awarded)][-1]
    assert (highest.sale, highest.seat, highest.amount) == (15, 0, 5)
    game = _last_sale("en:last_tile_tie=any", (5, 3, 3))
    (unsold,) = [e for e in game.events if isinstance(e, NotAwarded)]
    assert (unsold.sale, unsold.reason) == (15, "last-tile-tie")
    assert game.is_over
    # distinct bids still award the tile under either reading
    assert [
        e for e in _last_sale("en:last_tile_tie=any", (5, 4, 3)).events if isinstance(e, Awarded)
    ][-1].seat == 0


@pytest.mark.parametrize("public", [False, True])
def test_the_last_tiles_amount_is_public_only_under_that_reading(public):
    game = _last_sale(f"en:last_tile_amount_public={str(public).lower()}", (5, 4, 3))
    award = [e for e in game.events if isinstance(e, Awarded)][-1]
    assert award.public is public
    assert game.public_view().history[-1].amount == (5 if public else None)
    assert game.view(1).history[-1].amount == (5 if public else None)
    assert game.view(0).history[-1].amount == 5


# ----------------------------------------------------------------- who sees the rebids


def _tied_sale(spec):
    """A 4-player sale: seats 1 and 2 tie at 6 and rebid 7 and 4; seat 1 wins for 7."""
    game = qe.new_game(spec, 4, seed=3)
    assert game.auctioneer == 0
    game = game.bid(0, 2).bid(1, 6).bid(2, 6).bid(3, 1)
    return game.bid(1, 7).bid(2, 4)


@pytest.mark.parametrize("visibility", list(qe.RebidVisibility))
def test_who_sees_the_rebids(visibility):
    game = _tied_sale(f"en:rebid_visibility={visibility.value}")
    first = ((0, 2), (1, 6), (2, 6), (3, 1))
    rebids = ((1, 7), (2, 4))
    auctioneer = game.view(0).history[0]
    assert auctioneer.amount == 7  # under every reading
    if visibility is qe.RebidVisibility.FIRST_BIDS:
        assert auctioneer.bids == (first,)
    else:
        assert auctioneer.bids == (first, rebids)
    tied = game.view(2).history[0]
    assert tied.bids == (((), rebids) if visibility is qe.RebidVisibility.TIED_PLAYERS else ())
    assert game.view(3).history[0].bids == ()
    seen_by_2 = {(e.seat, e.amount) for e in game.events_for(2) if isinstance(e, SecretBid)}
    assert ((1, 7) in seen_by_2) is (visibility is qe.RebidVisibility.TIED_PLAYERS)
    seen_by_0 = {(e.seat, e.amount) for e in game.events_for(0) if isinstance(e, SecretBid)}
    assert ((1, 7) in seen_by_0) is (visibility is not qe.RebidVisibility.FIRST_BIDS)
    assert (1, 6) in seen_by_0


def test_the_old_visibility_field_reads_as_its_replacement_or_names_it(tmp_path):
    with pytest.warns(DeprecationWarning, match="rebid_visibility"):
        assert qe.get_ruleset("en").evolve(auctioneer_sees_all_bids=True) == qe.get_ruleset("en")
    with pytest.raises(qe.InvalidRuleSet, match="replaced by rebid_visibility"):
        qe.get_ruleset("en:auctioneer_sees_all_bids=false")
    data = qe.get_ruleset("en-early").to_dict()
    data["rules"]["auctioneer_sees_all_bids"] = data["rules"].pop("rebid_visibility")
    data["rules"]["auctioneer_sees_all_bids"] = True
    data["provenance"]["auctioneer_sees_all_bids"] = data["provenance"].pop("rebid_visibility")
    with pytest.warns(DeprecationWarning, match="auctioneer_sees_all_bids"):
        assert qe.RuleSet.from_dict(data) == qe.get_ruleset("en-early")
    path = tmp_path / "old.toml"
    path.write_text('id = "old"\nextends = "en"\n[rules]\nauctioneer_sees_all_bids = false\n')
    with pytest.raises(qe.InvalidRuleSet, match="rebid_visibility"):
        qe.load_ruleset(path)


# ----------------------------------------------------------------- the final scoring


def _records(spends, nations=("US", "EU", "CN")):
    industries = ("HOUSING", "FINANCE", "AGRICULTURE")
    return [
        PlayerRecord(n, i, [], spent=s) for n, i, s in zip(nations, industries, spends, strict=True)
    ]


def test_when_everyone_ties_for_most_spent_nobody_may_be_eliminated():
    records = [
        PlayerRecord("US", "HOUSING", ["US-HOU-1"], spent=7),
        PlayerRecord("EU", "FINANCE", [], spent=7),
        PlayerRecord("CN", "AGRICULTURE", [], spent=7),
    ]
    assert score_game("en", records).winners == ()
    spared = score_game("en:everyone_tied_for_most_spent=none-eliminated", records)
    assert not any(s.eliminated for s in spared.sheets)
    assert spared.winners == (0,) and not spared.gaps
    # a tie of some players for most spent still eliminates them
    some = [*records[:2], PlayerRecord("CN", "AGRICULTURE", [], spent=3)]
    assert score_game("en:everyone_tied_for_most_spent=none-eliminated", some).winners == (2,)


def test_a_tie_the_tie_break_leaves_is_shared_or_wins_nothing():
    records = _records((4, 4, 9))
    shared = score_game("en", records)
    assert shared.winners == (0, 1)
    nobody = score_game("en:tie_after_tiebreak=no-winner", records)
    assert nobody.winners == () and [g.code for g in nobody.gaps] == ["tie-after-tiebreak"]


def test_five_of_one_industry_continue_the_tables_pattern():
    records = [
        PlayerRecord(
            "US", "AGRICULTURE", ["US-AGR-4", "CN-AGR-2", "JP-AGR-3", "EU-AGR-1"], spent=4
        ),
        PlayerRecord("EU", "HOUSING", [], spent=9),
        PlayerRecord("CN", "FINANCE", [], spent=1),
    ]
    points = {
        policy: score_game(f"en:beyond_table={policy}", records).sheets[0].monopolization
        for policy in ("cap", "continue-pattern", "zero")
    }
    assert points == {"cap": 10, "continue-pattern": 15, "zero": 0}
