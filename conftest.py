"""Doctest collection: a module whose optional extra is not installed is not imported
(its tests skip, saying which extra it needs); the docs site's configuration and build
are not tests; a doctest that runs something end to end is marked slow, as a test that
does is. The run's header says when the slow tests are left out."""

import importlib.util

import pytest

OPTIONAL = {
    "qe_rules/learning/pettingzoo_env.py": "pettingzoo",
    "qe_rules/learning/gymnasium_env.py": "gymnasium",
    "qe_rules/learning/openspiel_game.py": "pyspiel",
    "qe_rules/learning/sb3.py": "stable_baselines3",
    "qe_rules/rl.py": "pettingzoo",
    "qe_rules/gymnasium_env.py": "gymnasium",
    "qe_rules/openspiel.py": "pyspiel",
    "qe_rules/apps/web.py": "starlette",
    "qe_rules/verification/strategies.py": "hypothesis",
    "qe_rules/strategies.py": "hypothesis",
}

collect_ignore = [
    path for path, module in OPTIONAL.items() if importlib.util.find_spec(module) is None
]
collect_ignore += ["docs/conf.py", "docs/_build"]

# doctests (by the module or page they are in) left out of the quick run, with the reason
SLOW_DOCTESTS = {
    "qe_rules.verification.suite": "verifies the whole of en (about 3 s)",
}


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(items):
    """Mark the doctests of ``SLOW_DOCTESTS`` slow."""
    for item in items:
        if isinstance(item, pytest.DoctestItem) and item.name in SLOW_DOCTESTS:
            item.add_marker(pytest.mark.slow)


def pytest_report_header(config):
    """Say when the quick run leaves the slow tests out (pyproject's ``-m 'not slow'``)."""
    if config.getoption("markexpr") == "not slow":
        return "quick run: the tests marked slow are left out (pytest -m slow runs them)"
    return None
