"""Doctest collection: a module whose optional extra is not installed is not imported
(its tests skip, saying which extra it needs); the docs site's configuration and build
are not tests. The run's header says when the slow tests are left out."""

import importlib.util

OPTIONAL = {
    "qe_rules/learning/pettingzoo_env.py": "pettingzoo",
    "qe_rules/learning/gymnasium_env.py": "gymnasium",
    "qe_rules/learning/openspiel_game.py": "pyspiel",
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


def pytest_report_header(config):
    """Say when the quick run leaves the slow tests out (pyproject's ``-m 'not slow'``)."""
    if config.getoption("markexpr") == "not slow":
        return "quick run: the tests marked slow are left out (pytest -m slow runs them)"
    return None
