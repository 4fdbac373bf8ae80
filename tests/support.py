"""Helpers shared by the tests."""

import gc

import qe_rules as qe
from qe_rules import engine

# The engine's internal state: nothing a view (or an agent) holds may reach these.
INTERNAL = (qe.Game, engine._Table, engine._Sale, engine._SaleFacts, engine._Setup)


def reachable(root):
    """Every object reachable from ``root`` (classes excluded)."""
    seen, todo = set(), [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen.add(id(obj))
        yield obj
        todo.extend(gc.get_referents(obj))
