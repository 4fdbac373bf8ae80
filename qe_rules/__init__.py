"""qe_rules: the rules of QE, the auction board game by Gavin Birnbaum, as typed data.

>>> import qe_rules as qe
>>> sorted(qe.RULESETS)
['de', 'de-summary', 'en', 'en-early']

Modules, in the order data flows (a module imports only from modules above it):
``errors`` -> ``components`` -> ``rulesets`` -> ``scoring`` -> ``cli``.
"""

from qe_rules._frozen import FrozenDict
from qe_rules.components import COMPANIES, Company, Industry, Nation
from qe_rules.errors import (
    GameNotOver,
    IllegalAction,
    InvalidArgument,
    InvalidRecord,
    InvalidRuleSet,
    RulesError,
    UnknownRuleSet,
)
from qe_rules.rulesets import (
    GAP_CODES,
    RULESETS,
    SOURCES,
    Basis,
    BeyondTable,
    Category,
    FinalTieBreak,
    FirstAuctioneer,
    Interpretation,
    NationAssignment,
    Provenance,
    RebidScope,
    RuleSet,
    Source,
    TieFallback,
    get_ruleset,
)
from qe_rules.scoring import GameResult, Gap, PlayerRecord, ScoreSheet, score_game

__version__ = "0.1.0.dev0"

__all__ = [
    "COMPANIES",
    "GAP_CODES",
    "RULESETS",
    "SOURCES",
    "Basis",
    "BeyondTable",
    "Category",
    "Company",
    "FinalTieBreak",
    "FirstAuctioneer",
    "FrozenDict",
    "GameNotOver",
    "GameResult",
    "Gap",
    "IllegalAction",
    "Industry",
    "Interpretation",
    "InvalidArgument",
    "InvalidRecord",
    "InvalidRuleSet",
    "Nation",
    "NationAssignment",
    "PlayerRecord",
    "Provenance",
    "RebidScope",
    "RuleSet",
    "RulesError",
    "ScoreSheet",
    "Source",
    "TieFallback",
    "UnknownRuleSet",
    "__version__",
    "get_ruleset",
    "score_game",
]
