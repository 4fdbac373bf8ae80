"""A digest of what the engine and ``simulate`` produce, to compare before and after a
change that should change nothing (a speed-up of the hot path).

Run: ``python bench/simulate_digest.py``; run it again after the change and compare the
two lines. It hashes, for every built-in rule set and 3 to 5 players and every built-in
agent: ``simulate``'s statistics; for some played games their events, result and gaps;
replayed move by move, every seat's view, ``bid_limits`` and ``events_for`` and the
public view and events at every step; pickled games and views; and seeded deals.
"""

from __future__ import annotations

import hashlib
import pickle
from typing import Any

import qe_rules as qe
from qe_rules.rules.model import RULESETS
from qe_rules.simulation.agents import AGENT_NAMES
from qe_rules.simulation.play import play_game
from qe_rules.simulation.stats import simulate


def digest() -> str:
    """The hex digest of everything listed in the module's docstring."""
    h = hashlib.sha256()

    def add(value: Any) -> None:
        h.update(repr(value).encode())

    for rid in sorted(RULESETS):
        rules = qe.get_ruleset(rid)
        for players in (count for count in rules.player_counts if 3 <= count <= 5):
            for agent in AGENT_NAMES:
                try:
                    add(simulate(rid, players, agent, 6, seed=3, engine="reference").to_dict())
                except qe.RulesError as error:
                    add(("error", str(error)))
                for index in range(2):
                    try:
                        game = play_game(rid, players, agent, seed=5, index=index)
                    except qe.RulesError as error:
                        add(("error", str(error)))
                        continue
                    add((game.events, game.result(), game.gaps))
                    step = qe.replay({**game.to_record(), "moves": []})
                    for move in game.moves():
                        for seat in range(players):
                            add((step.view(seat), step.bid_limits(seat), step.events_for(seat)))
                        add((step.public_view(), step.public_events()))
                        step = step.apply(move)
                    add(step.views())
                    add(step.public_view())
                    copy = pickle.loads(pickle.dumps(step))
                    add((copy == step, copy.view(0)))
            add(qe.new_game(rid, players, seed=11).deck)
            add(qe.new_game(rid, players, seed="abc").nations)
    return h.hexdigest()


if __name__ == "__main__":
    print(digest())
