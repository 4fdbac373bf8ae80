"""qe_rules: the rules of QE, the auction board game by Gavin Birnbaum, as typed data.

>>> import qe_rules as qe
>>> sorted(qe.RULESETS)
['de', 'de-summary', 'en', 'en-early']

The package is cut into layers, in the order data flows: the foundation (``errors``,
``limits``, ``components``), ``rules`` (the rule model and its data files), ``game`` (one
game: sales, scoring, events, views, records, the engine), ``present`` (pictures and text)
and ``texts`` (reconciling the rulebooks), ``verification`` and ``simulation``, ``learning``
(the environments) and ``apps`` (the command line, the terminal game, the web table). Each
subpackage's docstring says what it is for and what it may import;
``tests/properties/test_project.py`` holds the contract. Pictures are in ``qe_rules.svg``,
as in ``chess.svg``; the learning environments (``qe_rules.rl``: PettingZoo,
``qe_rules.gymnasium_env``: Gymnasium, ``qe_rules.openspiel``: OpenSpiel) need their extras
and are imported by name.
"""

import importlib
from typing import TYPE_CHECKING, Any

from qe_rules._util.deprecation import renamed as _renamed
from qe_rules._util.frozen import FrozenDict
from qe_rules.components import COMPANIES, Company, Industry, Nation
from qe_rules.errors import (
    AgentError,
    GameNotOver,
    IllegalAction,
    InvalidArgument,
    InvalidRecord,
    InvalidRuleSet,
    RulesError,
    UnknownRuleSet,
)
from qe_rules.game.engine import Game, new_game, replay
from qe_rules.game.events import (
    Awarded,
    Event,
    GameEnded,
    NotAwarded,
    OpeningBid,
    PeekDeclined,
    Peeked,
    SaleOpened,
    SecretBid,
    Tie,
    ZeroBids,
)
from qe_rules.game.records import (
    SCHEMAS,
    GameRecord,
    Move,
    dump_records,
    json_schema,
    load_records,
)
from qe_rules.game.sales import Award, BidLimits, NoAward, Rebid
from qe_rules.game.scoring import (
    GameResult,
    Gap,
    PlayerRecord,
    ScoreSheet,
    diversification_points,
    score_game,
)
from qe_rules.game.views import Phase, PlayerView, PublicView, SaleView
from qe_rules.present import svg as _svg  # noqa: F401 (registers the display hooks' pictures)
from qe_rules.rules.files import shipped_rulesets
from qe_rules.rules.model import (
    GAP_CODES,
    RULESETS,
    SOURCES,
    Basis,
    BeyondTable,
    Category,
    DiversificationSets,
    EveryoneTiedForMostSpent,
    FallbackFindsNoBid,
    FinalTieBreak,
    FirstAuctioneer,
    Interpretation,
    LastTileTie,
    NationAssignment,
    PeekShows,
    PeekTiming,
    Provenance,
    RebidScope,
    RebidVisibility,
    RuleSet,
    Source,
    TieAfterTiebreak,
    TiedAuctioneer,
    TieFallback,
    TieStreak,
    UniqueBidPool,
    get_ruleset,
    load_ruleset,
    text_support,
)

if TYPE_CHECKING:
    from qe_rules.simulation.agents import (
        AGENT_NAMES,
        Agent,
        AgentFactory,
        RandomAgent,
        ValueAgent,
        ZeroAgent,
        agent_factory,
        agent_from_name,
    )
    from qe_rules.simulation.comparison import (
        CHANGE_CAUSES,
        ChangeExample,
        Comparison,
        PlayedComparison,
        compare,
    )
    from qe_rules.simulation.intervals import Share, wilson_interval
    from qe_rules.simulation.play import play_game
    from qe_rules.simulation.rows import GameRow
    from qe_rules.simulation.stats import GameRange, SimulationStats, simulate
    from qe_rules.texts.diffs import FieldDiff, MetadataDiff, RuleSetDiff, diff
    from qe_rules.texts.discrepancies import (
        DISCREPANCIES,
        Discrepancy,
        DiscrepancyKind,
        Reading,
        find_discrepancies,
        get_discrepancy,
    )
    from qe_rules.texts.glossary import GLOSSARY, Term, lookup_term, translate_term
    from qe_rules.texts.questions import Choice, OpenQuestion, get_open_question, open_questions
    from qe_rules.texts.rulebooks import Rulebook, rulebook
    from qe_rules.verification.report import (
        Coverage,
        Example,
        Finding,
        Verdict,
        VerificationReport,
    )
    from qe_rules.verification.suite import check_names, checks, verify

__version__ = "0.1.0.dev0"

__all__ = [  # noqa: RUF022 (grouped by layer as the package is; sorted within a group)
    "__version__",
    # the foundation: errors and components
    "AgentError",
    "COMPANIES",
    "Company",
    "FrozenDict",
    "GameNotOver",
    "IllegalAction",
    "Industry",
    "InvalidArgument",
    "InvalidRecord",
    "InvalidRuleSet",
    "Nation",
    "RulesError",
    "UnknownRuleSet",
    # rules: the rule model, its value kinds and the shipped rule sets
    "GAP_CODES",
    "RULESETS",
    "SOURCES",
    "Basis",
    "BeyondTable",
    "Category",
    "DiversificationSets",
    "EveryoneTiedForMostSpent",
    "FallbackFindsNoBid",
    "FinalTieBreak",
    "FirstAuctioneer",
    "Interpretation",
    "LastTileTie",
    "NationAssignment",
    "PeekShows",
    "PeekTiming",
    "Provenance",
    "RebidScope",
    "RebidVisibility",
    "RuleSet",
    "Source",
    "TieAfterTiebreak",
    "TieFallback",
    "TieStreak",
    "TiedAuctioneer",
    "UniqueBidPool",
    "get_ruleset",
    "load_ruleset",
    "shipped_rulesets",
    "text_support",
    # game: sales, scoring, events, views, records and the engine
    "SCHEMAS",
    "Award",
    "Awarded",
    "BidLimits",
    "Event",
    "Game",
    "GameEnded",
    "GameRecord",
    "GameResult",
    "Gap",
    "Move",
    "NoAward",
    "NotAwarded",
    "OpeningBid",
    "PeekDeclined",
    "Peeked",
    "Phase",
    "PlayerRecord",
    "PlayerView",
    "PublicView",
    "Rebid",
    "SaleOpened",
    "SaleView",
    "ScoreSheet",
    "SecretBid",
    "Tie",
    "ZeroBids",
    "diversification_points",
    "dump_records",
    "json_schema",
    "load_records",
    "new_game",
    "replay",
    "score_game",
    # texts: diffs, the discrepancy register, open questions, the glossary and rulebooks
    "DISCREPANCIES",
    "GLOSSARY",
    "Choice",
    "Discrepancy",
    "DiscrepancyKind",
    "FieldDiff",
    "MetadataDiff",
    "OpenQuestion",
    "Reading",
    "RuleSetDiff",
    "Rulebook",
    "Term",
    "diff",
    "find_discrepancies",
    "get_discrepancy",
    "get_open_question",
    "lookup_term",
    "open_questions",
    "rulebook",
    "translate_term",
    # verification: the verifier and its report
    "Coverage",
    "Example",
    "Finding",
    "Verdict",
    "VerificationReport",
    "check_names",
    "checks",
    "verify",
    # simulation: agents, simulations, comparisons and intervals
    "AGENT_NAMES",
    "CHANGE_CAUSES",
    "Agent",
    "AgentFactory",
    "ChangeExample",
    "Comparison",
    "GameRange",
    "GameRow",
    "PlayedComparison",
    "RandomAgent",
    "Share",
    "SimulationStats",
    "ValueAgent",
    "ZeroAgent",
    "agent_factory",
    "agent_from_name",
    "compare",
    "play_game",
    "simulate",
    "wilson_interval",
]


# The texts, the verifier and the simulations are loaded on first use (PEP 562), so that
# ``import qe_rules`` loads the rules, one game and its pictures only; the names stay in
# ``__all__`` and behave as if imported here.
_LAZY_MODULES: dict[str, tuple[str, ...]] = {
    "qe_rules.simulation.agents": (
        "AGENT_NAMES",
        "Agent",
        "AgentFactory",
        "RandomAgent",
        "ValueAgent",
        "ZeroAgent",
        "agent_factory",
        "agent_from_name",
    ),
    "qe_rules.simulation.comparison": (
        "CHANGE_CAUSES",
        "ChangeExample",
        "Comparison",
        "PlayedComparison",
        "compare",
    ),
    "qe_rules.simulation.intervals": ("Share", "wilson_interval"),
    "qe_rules.simulation.play": ("play_game",),
    "qe_rules.simulation.rows": ("GameRow",),
    "qe_rules.simulation.stats": ("GameRange", "SimulationStats", "simulate"),
    "qe_rules.texts.diffs": ("FieldDiff", "MetadataDiff", "RuleSetDiff", "diff"),
    "qe_rules.texts.discrepancies": (
        "DISCREPANCIES",
        "Discrepancy",
        "DiscrepancyKind",
        "Reading",
        "find_discrepancies",
        "get_discrepancy",
    ),
    "qe_rules.texts.glossary": ("GLOSSARY", "Term", "lookup_term", "translate_term"),
    "qe_rules.texts.questions": ("Choice", "OpenQuestion", "get_open_question", "open_questions"),
    "qe_rules.texts.rulebooks": ("Rulebook", "rulebook"),
    "qe_rules.verification.report": (
        "Coverage",
        "Example",
        "Finding",
        "Verdict",
        "VerificationReport",
    ),
    "qe_rules.verification.suite": ("check_names", "checks", "verify"),
}
_LAZY: dict[str, str] = {name: module for module, names in _LAZY_MODULES.items() for name in names}


def __getattr__(name: str) -> Any:
    if name == "Batch":  # the old name of GameRange, not kept in __all__
        _renamed("qe_rules.Batch", "qe_rules.GameRange")
        return __getattr__("GameRange")
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
