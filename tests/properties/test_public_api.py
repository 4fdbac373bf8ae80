"""The public API keeps its promises across the move into layers: every name the package
exported before it was cut into subpackages, and every public module path, still imports;
``import qe_rules`` loads no optional package, and only the rules, the game and its
pictures: the texts, the verifier and the simulations load on first use."""

import importlib
import json
import subprocess
import sys

import pytest

import qe_rules as qe

# qe_rules.__all__ as it stood before the package was cut into layers (0.1.0.dev0).
NAMES_BEFORE_LAYERS = [
    "AGENT_NAMES",
    "Agent",
    "AgentFactory",
    "Award",
    "Awarded",
    "Basis",
    "Batch",
    "BeyondTable",
    "BidLimits",
    "CHANGE_CAUSES",
    "COMPANIES",
    "Category",
    "ChangeExample",
    "Choice",
    "Company",
    "Comparison",
    "Coverage",
    "DISCREPANCIES",
    "Discrepancy",
    "DiscrepancyKind",
    "DiversificationSets",
    "Event",
    "Example",
    "FieldDiff",
    "FinalTieBreak",
    "Finding",
    "FirstAuctioneer",
    "FrozenDict",
    "GAP_CODES",
    "GLOSSARY",
    "Game",
    "GameEnded",
    "GameNotOver",
    "GameRecord",
    "GameResult",
    "GameRow",
    "Gap",
    "IllegalAction",
    "Industry",
    "Interpretation",
    "InvalidArgument",
    "InvalidRecord",
    "InvalidRuleSet",
    "MetadataDiff",
    "Move",
    "Nation",
    "NationAssignment",
    "NoAward",
    "NotAwarded",
    "OpenQuestion",
    "OpeningBid",
    "PeekDeclined",
    "PeekShows",
    "PeekTiming",
    "Peeked",
    "Phase",
    "PlayedComparison",
    "PlayerRecord",
    "PlayerView",
    "Provenance",
    "PublicView",
    "RULESETS",
    "RandomAgent",
    "Reading",
    "Rebid",
    "RebidScope",
    "RuleSet",
    "RuleSetDiff",
    "RulesError",
    "SCHEMAS",
    "SOURCES",
    "SaleOpened",
    "SaleView",
    "ScoreSheet",
    "SecretBid",
    "Share",
    "SimulationStats",
    "Source",
    "Term",
    "Tie",
    "TieFallback",
    "TieStreak",
    "TiedAuctioneer",
    "UniqueBidPool",
    "UnknownRuleSet",
    "ValueAgent",
    "Verdict",
    "VerificationReport",
    "ZeroAgent",
    "ZeroBids",
    "__version__",
    "agent_factory",
    "agent_from_name",
    "check_names",
    "compare",
    "diff",
    "diversification_points",
    "dump_records",
    "find_discrepancies",
    "get_discrepancy",
    "get_open_question",
    "get_ruleset",
    "json_schema",
    "load_records",
    "load_ruleset",
    "lookup_term",
    "new_game",
    "open_questions",
    "play_game",
    "replay",
    "score_game",
    "shipped_rulesets",
    "simulate",
    "text_support",
    "translate_term",
    "verify",
    "wilson_interval",
]

# Public module paths people import by name, with a name each must still offer.
PUBLIC_PATHS = {
    "qe_rules.svg": "view",
    "qe_rules.strategies": "games",
    "qe_rules.rl": "env",
    "qe_rules.batch": "play",
    "qe_rules.gymnasium_env": "QESeatEnv",
    "qe_rules.openspiel": "QEGame",
}
EXTRAS = {
    "qe_rules.rl": "pettingzoo",
    "qe_rules.batch": "numpy",
    "qe_rules.gymnasium_env": "gymnasium",
    "qe_rules.openspiel": "pyspiel",
}


# Names renamed since, by their new names: the old name resolves with a warning, outside
# __all__ (so that ``from qe_rules import *`` does not warn).
RENAMED = {"Batch": "GameRange"}


@pytest.mark.parametrize("name", NAMES_BEFORE_LAYERS)
def test_every_name_exported_before_still_resolves(name):
    if name in RENAMED:
        assert name not in qe.__all__ and RENAMED[name] in qe.__all__
        with pytest.warns(DeprecationWarning, match=f"qe_rules.{name} is deprecated"):
            assert getattr(qe, name) is getattr(qe, RENAMED[name])
        return
    assert name in qe.__all__
    assert getattr(qe, name) is not None


@pytest.mark.parametrize("path", sorted(PUBLIC_PATHS))
def test_public_module_paths_still_import(path):
    if path in EXTRAS:
        pytest.importorskip(EXTRAS[path], reason=f"{path} needs its extra")
    module = importlib.import_module(path)
    assert PUBLIC_PATHS[path] in module.__all__
    assert callable(getattr(module, PUBLIC_PATHS[path]))


def test_import_loads_no_optional_package():
    optional = [
        "hypothesis",
        "numpy",
        "gymnasium",
        "pettingzoo",
        "pyspiel",
        "starlette",
        "uvicorn",
        "matplotlib",
        "pyarrow",
        "distributed",
        "shtab",
    ]
    code = (
        "import sys, qe_rules\n"
        f"print(sorted(m for m in {optional!r} if m in sys.modules))\n"
        "print(sorted(m for m in sys.modules if m.startswith('qe_rules.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded, modules = done.stdout.splitlines()
    assert loaded == "[]"
    for layer in ("texts", "verification", "simulation", "learning", "apps"):
        assert f"'qe_rules.{layer}" not in modules, modules  # loaded on first use


def test_every_public_name_is_bound_or_loaded_on_first_use():
    """A name of ``__all__`` is bound when the package is imported, or named in the table
    of names loaded on first use: never both, never neither."""
    code = (
        "import json, qe_rules\n"
        "print(json.dumps([n for n in qe_rules.__all__ if n in vars(qe_rules)]))\n"
        "print(json.dumps(list(qe_rules._LAZY)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    bound, lazy = (json.loads(line) for line in done.stdout.splitlines())
    assert not set(bound) & set(lazy)
    assert set(bound) | set(lazy) == set(qe.__all__)
