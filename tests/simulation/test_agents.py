"""Agents: legal bids under every built-in rule set, determinism, and no cheating.

Also checks that ``Game.view`` (which builds views from parts shared between seats and
states) gives exactly the view that the plain construction of its fields gives.
"""

import importlib.metadata
import json
import pickle

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules import strategies as qst
from qe_rules.game._secrecy import peek_amount, seen_rounds
from qe_rules.simulation import agents
from qe_rules.simulation.agents import (
    AGENT_NAMES,
    Agent,
    RandomAgent,
    ValueAgent,
    ZeroAgent,
    agent_factory,
    agent_from_name,
    agent_label,
)
from qe_rules.simulation.play import play_game
from tests.support import INTERNAL, examples, reachable, states

RULESETS = sorted(qe.RULESETS)


# ----------------------------------------------------------------- views as agents see them


def by_seat(rounds):
    """Bidding rounds with each round's bids in seat order, as views show them."""
    return tuple(tuple(sorted(rnd)) for rnd in rounds)


def reference_view(game, seat):
    """The view built field by field from the game's state, through PlayerView's __init__."""
    setup, table, sale = game._setup, game._progress, game._sale
    rules = setup.ruleset
    over = sale.phase is qe.Phase.OVER
    return qe.PlayerView(
        seat=seat,
        ruleset=rules.id,
        players=setup.players,
        nations=setup.nations,
        industry=setup.industries[seat],
        first_auctioneer=setup.first_auctioneer,
        sales=setup.sales,
        sale=sale.number,
        round=sale.round,
        phase=sale.phase,
        auctioneer=sale.auctioneer,
        company=game.current_company,
        remaining=0 if over else setup.sales - sale.number - 1,
        to_act=game.to_act,
        opening_bid=sale.opening,
        tied=sale.tie_log[-1] if sale.phase is qe.Phase.REBIDDING else (),
        ties=sale.ties,
        my_bids=tuple(
            a for rnd in (*sale.closed, game._open_bids) for who, a in rnd if who == seat
        ),
        seen_bids=seen_rounds(seat, sale.auctioneer, sale.closed, rules.rebid_visibility),
        limits=game.bid_limits(seat),
        holdings=table.holdings,
        spent=table.spent[seat],
        zero_bid_rounds=table.zero_counts,
        peeks_used=table.peeks,
        can_peek=game.can_peek(seat),
        history=tuple(
            qe.SaleView(
                f.sale,
                f.round,
                f.company,
                f.auctioneer,
                f.opening_bid,
                f.ties,
                f.winner,
                f.amount
                if f.public
                or seat == f.winner
                or seat == f.auctioneer
                or (
                    f.sale in table.peeked[seat]
                    and peek_amount(f, rules.peek_shows) == f.amount  # it showed the price
                )
                else None,
                f.reason,
                f.zero_bidders,
                tuple(a for rnd in f.closed for who, a in rnd if who == seat),
                seen_rounds(seat, f.auctioneer, f.closed, rules.rebid_visibility),
                f.sale in table.peeked[seat],
                peek_amount(f, rules.peek_shows) if f.sale in table.peeked[seat] else None,
            )
            for f in table.facts
        ),
        industries=setup.industries if over else None,
        result=game.result() if over else None,
    )


@given(qst.games(rulesets=None), st.data())
@examples(40)
def test_a_view_equals_its_plain_construction_at_every_step(game, data):
    order = data.draw(st.permutations(range(game.players)))
    for state in states(game.to_record()):
        for seat in order:
            view = state.view(seat)
            expected = reference_view(state, seat)
            assert view == expected
            assert view.to_dict() == expected.to_dict()
            assert hash(view) == hash(expected)


def test_views_are_immutable_picklable_and_replaceable():
    game = play_game("en", 5, "random", seed=3)
    view = game.view(2)
    with pytest.raises(AttributeError):
        view.spent = 0
    assert pickle.loads(pickle.dumps(view)) == view
    assert view._replace(spent=view.spent) == view
    assert view._replace(spent=view.spent + 1) != view
    assert json.loads(json.dumps(view.to_dict())) == view.to_dict()


# ----------------------------------------------------------------- legal moves


@attrs.frozen
class Checked:
    """An agent factory: every bid and peek its agent chooses is checked against the view
    it was given, and every view is kept in ``views``."""

    name: str
    views: list

    def __call__(self, seed):
        return _Checking(agent_from_name(self.name, seed), self.views)


@attrs.define
class _Checking:
    inner: Agent
    views: list

    def bid(self, view):
        amount = self.inner.bid(view)
        assert type(amount) is int
        assert view.limits is not None and view.limits.allows(amount), (view.limits, amount)
        self.views.append(view)
        return amount

    def wants_peek(self, view):
        assert view.can_peek
        return self.inner.wants_peek(view)


@given(
    ruleset=st.sampled_from(RULESETS),
    players=st.sampled_from([3, 4, 5]),
    names=st.lists(st.sampled_from(AGENT_NAMES), min_size=5, max_size=5),
    seed=st.integers(-(2**40), 2**40),
)
@examples(60)
def test_agents_only_make_legal_moves(ruleset, players, names, seed):
    views = []
    game = play_game(ruleset, players, [Checked(n, views) for n in names[:players]], seed=seed)
    assert game.is_over
    assert len(views) == sum(1 for m in game.moves() if m.kind == "bid")
    sample = views[:: max(1, len(views) // 5)]
    for view in sample:
        assert not any(isinstance(obj, INTERNAL) for obj in reachable(view))


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_agent_finishes_games_under_every_ruleset(ruleset, players):
    for name in AGENT_NAMES:
        for seed in range(3):
            game = play_game(ruleset, players, name, seed=seed)
            assert game.is_over and len(game.result().sheets) == players


def test_random_agents_peek_and_value_agents_peek_late():
    peeks = [
        e
        for seed in range(5)
        for e in play_game("en", 5, "random", seed=seed).events
        if isinstance(e, qe.Peeked)
    ]
    assert peeks
    late = [
        e
        for seed in range(5)
        for e in play_game("en", 5, "value", seed=seed).events
        if isinstance(e, qe.Peeked)
    ]
    assert late and all(e.sale >= 6 for e in late)  # asked from sale 7 (15 // 2) on
    for seed in range(3):  # en-early has no peek
        game = play_game("en-early", 5, "random", seed=seed)
        assert not any(isinstance(e, qe.Peeked) for e in game.events)


# ----------------------------------------------------------------- each agent


def test_zero_agent_bids_the_least_legal_amount():
    game = qe.new_game("en", 4, seed=7)
    assert ZeroAgent().bid(game.view(0)) == 1  # the smallest opening bid
    game = game.bid(0, 1)
    assert [ZeroAgent().bid(game.view(s)) for s in (1, 2, 3)] == [0, 0, 0]
    house = attrs.evolve(qe.get_ruleset("en"), id="house", min_opening_bid=0)
    game = qe.new_game(house, 4, seed=7).bid(0, 0)  # now 0 is the forbidden amount
    assert game.view(1).limits == qe.BidLimits(0, 0)
    assert ZeroAgent().bid(game.view(1)) == 1


def test_an_agent_asked_out_of_turn_raises():
    game = qe.new_game("en", 4, seed=7)
    for name in AGENT_NAMES:
        with pytest.raises(qe.InvalidArgument, match="not to bid now"):
            agent_from_name(name, 1).bid(game.view(2))


def test_agents_are_deterministic_given_their_seed():
    game = qe.new_game("en", 4, seed=7).bid(0, 3)
    view = game.view(1)
    for name in AGENT_NAMES:
        first = agent_from_name(name, 5)
        second = agent_from_name(name, 5)
        assert [first.bid(view) for _ in range(20)] == [second.bid(view) for _ in range(20)]
    draws = {RandomAgent(seed).bid(view) for seed in range(20)}
    assert len(draws) > 5
    later = game.bid_many({1: 4, 2: 4, 3: 0})  # a tie: seats 1 and 2 rebid
    assert RandomAgent(5).bid(later.view(1)) != RandomAgent(5).bid(later.view(2)) or (
        RandomAgent(6).bid(later.view(1)) != RandomAgent(6).bid(later.view(2))
    )
    spread = {RandomAgent(seed, spread=0).bid(view) for seed in range(20)}
    assert spread == {0}


def test_value_agent_values_its_nation_and_industries():
    rules = qe.get_ruleset("en")
    game = qe.new_game(
        rules,
        4,
        deck=["US-FIN-2", *[str(c) for c in rules.companies(4) if str(c) != "US-FIN-2"]],
        nations=["US", "EU", "CN", "JP"],
        industries=["FINANCE", "HOUSING", "AGRICULTURE", "MANUFACTURING"],
    ).bid(0, 1)
    agent = ValueAgent(seed=0)
    own_nation_and_token = agent.worth(game.view(0))  # US, and the finance token
    neither = agent.worth(game.view(2))  # CN, agriculture
    assert own_nation_and_token > neither > 2
    assert agent.worth(game.view(1)) == neither  # EU, housing: the same to it
    assert agent.others_spent(game.view(1)) == (0.0, 0.0, 0.0, 0.0)
    assert agent.spending_room(game.view(1)) > 0


def test_value_agent_wins_more_than_random_and_zero_agents():
    from qe_rules.simulation.stats import simulate

    stats = simulate("en", 4, ["value", "random", "random", "zero"], 150, seed=2)
    share = stats.agent_win_share
    assert share["value"] > share["random"] > share["zero"]


def test_value_agent_reads_custom_rulesets_given_to_it():
    house = attrs.evolve(qe.get_ruleset("en"), id="house", zero_bid_points=5)
    game = qe.new_game(house, 4, seed=1).bid(0, 2)
    with pytest.raises(qe.UnknownRuleSet):
        ValueAgent(1).bid(game.view(1))
    assert ValueAgent(1, house).bid(game.view(1)) >= 0
    with pytest.raises(qe.InvalidArgument, match="made for rule set 'en'"):
        ValueAgent(1, "en").bid(game.view(1))
    assert play_game(house, 4, "value", seed=1).is_over


def test_agent_names_factories_and_labels():
    assert AGENT_NAMES == ("random", "zero", "value", "trained", "ppo", "adaptive")
    assert agent_factory("random") is RandomAgent
    assert isinstance(agent_from_name("value", 3), ValueAgent)
    assert agent_from_name("random", 3).seed == 3
    assert agent_label("zero") == "zero"
    assert agent_label(RandomAgent) == "random"
    assert agent_label(agent_factory("value", ruleset="en")) == "value"

    def mine(seed):
        return ZeroAgent(seed)

    assert agent_label(mine) == "mine"
    for agent in (ZeroAgent(), RandomAgent(1), ValueAgent(1)):
        assert isinstance(agent, Agent)
        assert pickle.loads(pickle.dumps(agent)).seed == agent.seed


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: agent_from_name("smart"), "unknown agent 'smart'; agents are random, zero, value"),
        (lambda: agent_from_name(3), "unknown agent 3"),
        (lambda: agent_from_name("random", "x"), "seed is a whole number"),
        (lambda: RandomAgent(1.5), "seed is a whole number"),
        (lambda: RandomAgent(1, spread=-1), "spread is a whole number >= 0"),
        (lambda: RandomAgent(1, peek_chance=2), "peek_chance is a number from 0 to 1"),
        (lambda: ValueAgent(1, ruleset=4), "ruleset is a RuleSet, a rule set id or None"),
        (lambda: ZeroAgent(True), "seed is a whole number"),
    ],
)
def test_bad_agent_arguments_raise(make, message):
    with pytest.raises(qe.InvalidArgument, match=message):
        make()


# ----------------------------------------------------------------- no cheating


def test_an_agent_holds_no_reference_to_a_game():
    for name in AGENT_NAMES:
        agent = agent_from_name(name, 1)
        game = qe.new_game("en", 4, seed=4)
        while not game.is_over:
            seat = min(game.to_act)
            game = game.bid(seat, agent.bid(game.view(seat)))
        assert not any(isinstance(obj, INTERNAL) for obj in reachable(agent))


def hidden_changes(record, seat):
    """Records that differ from ``record`` only in what ``seat`` may not know: the other
    seats' industry tokens (swapped among them, or for tokens not in play)."""
    rules = qe.get_ruleset(record["ruleset"])
    tokens = record["industries"]
    spare = [i.name for i in rules.industries(record["players"]) if i.name not in tokens]
    others = [s for s in range(record["players"]) if s != seat]
    pool = [tokens[s] for s in others] + spare
    changed = []
    for shift in range(1, len(pool)):
        new = list(tokens)
        for index, other in enumerate(others):
            new[other] = pool[(index + shift) % len(pool)]
        changed.append({**record, "industries": new})
    return changed


def decisions(record, seat, name, seed):
    """Replay ``record``, asking a fresh agent for ``seat``'s decision before each of its
    moves (the other seats' moves are taken from the record)."""
    agent = agent_from_name(name, seed)
    chosen = []
    for move, game in zip(qe.GameRecord.from_dict(record).moves, states(record), strict=False):
        if move.seat == seat:
            view = game.view(seat)
            if move.kind == "bid":
                chosen.append(("bid", agent.bid(view)))
            else:
                chosen.append(("peek", agent.wants_peek(view)))
        elif game.view(seat).can_peek:
            chosen.append(("may peek", agent.wants_peek(game.view(seat))))
    return chosen


@pytest.mark.parametrize(("ruleset", "players"), [("en", 4), ("en", 5), ("en-early", 3)])
def test_decisions_do_not_depend_on_what_the_seat_may_not_know(ruleset, players):
    for seed in range(2):
        record = play_game(
            ruleset, players, ["value", "random", "zero", "value", "random"][:players], seed=seed
        ).to_record()
        for seat in range(players):
            for name in ("value", "random"):
                mine = decisions(record, seat, name, seed=seat)
                assert mine
                for changed in hidden_changes(record, seat):
                    assert decisions(changed, seat, name, seed=seat) == mine


def test_decisions_do_change_with_what_the_seat_knows():
    """The check above is not blind: changing the seat's own token changes its decisions."""
    record = play_game("en", 4, "value", seed=1).to_record()
    differing = 0
    for seat in range(4):
        mine = decisions(record, seat, "value", seed=seat)
        tokens = list(record["industries"])
        for other in range(4):
            if other != seat:
                swapped = list(tokens)
                swapped[seat], swapped[other] = tokens[other], tokens[seat]
                changed = {**record, "industries": swapped}
                differing += decisions(changed, seat, "value", seed=seat) != mine
    assert differing


@pytest.fixture
def no_agents_registered(monkeypatch):
    """The registry of agents found by name, empty for one test."""
    monkeypatch.setattr(
        agents, "_REGISTERED", {agents.AGENT_GROUP: {}, agents.BATCH_AGENT_GROUP: {}}
    )


def test_an_agent_registered_by_name_plays_by_name(no_agents_registered):
    from qe_rules import batch
    from qe_rules.simulation.batch.agents import ZeroBids

    agents.register_agent("cautious", ZeroAgent, batched=ZeroBids)
    assert agent_factory("cautious") is ZeroAgent
    mine = play_game("en", 3, ["cautious", "random", "random"], seed=2)
    zero = play_game("en", 3, [ZeroAgent, "random", "random"], seed=2)
    assert mine.to_record() == zero.to_record()
    played = batch.play("en", 3, 20, agents=["cautious", "random", "zero"], seed=2)
    assert (
        played.totals == batch.play("en", 3, 20, agents=["zero", "random", "zero"], seed=2).totals
    ).all()
    with pytest.raises(qe.InvalidArgument, match="new non-empty str"):
        agents.register_agent("random", ZeroAgent)
    with pytest.raises(qe.InvalidArgument, match="unknown agent 'careful'"):
        agent_factory("careful")


def test_an_agent_declared_as_an_entry_point_is_found_by_name(no_agents_registered, monkeypatch):
    declared = importlib.metadata.EntryPoint(
        "cautious", "qe_rules.simulation.agents:ZeroAgent", agents.AGENT_GROUP
    )
    broken = importlib.metadata.EntryPoint(
        "broken", "qe_rules.no_such_module:Agent", agents.AGENT_GROUP
    )

    def entry_points(group, name):
        return [e for e in (declared, broken) if e.group == group and e.name == name]

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    assert agent_factory("cautious") is ZeroAgent
    with pytest.raises(qe.InvalidArgument, match=r"the broken agent \(qe_rules.no_such_module"):
        agent_factory("broken")
    with pytest.raises(qe.InvalidArgument, match="reinstall qe-rules"):
        agent_factory("trained")  # a built-in name this installation does not declare
