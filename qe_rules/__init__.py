"""qe_rules: the rules of QE, the auction board game by Gavin Birnbaum, as typed data.

>>> import qe_rules as qe
>>> sorted(qe.RULESETS)
['de', 'de-summary', 'en', 'en-early']

Modules, in the order data flows (a module imports only from modules above it):
``errors`` -> ``intervals`` -> ``components`` -> ``rulevalues`` -> ``datafiles`` ->
``rulecodec`` -> ``rulesets`` -> ``scoring`` -> ``sales`` -> ``events`` -> ``views`` ->
``svg`` -> ``records`` -> ``engine`` -> tools (``diffs``, ``discrepancies``, ``glossary``,
``reports``, ``verify``, ``agents``, ``encode``, ``simulate``, ``plot``, ``terminal``,
``rl``, ``gymnasium_env``, ``openspiel``, ``strategies``, ``cli``). Pictures are in
``qe_rules.present.svg``, as in ``chess.svg``. The learning environments (``rl``: PettingZoo,
``gymnasium_env``: Gymnasium, ``openspiel``: OpenSpiel) need their extras and are imported
by name.
"""

from typing import TYPE_CHECKING, Any

from qe_rules._util.frozen import FrozenDict
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
    FinalTieBreak,
    FirstAuctioneer,
    Interpretation,
    NationAssignment,
    PeekShows,
    Provenance,
    RebidScope,
    RuleSet,
    Source,
    TiedAuctioneer,
    TieFallback,
    TieStreak,
    UniqueBidPool,
    get_ruleset,
    load_ruleset,
)
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
from qe_rules.simulation.stats import Batch, SimulationStats, simulate
from qe_rules.texts import discrepancies, glossary
from qe_rules.texts.diffs import FieldDiff, MetadataDiff, RuleSetDiff, diff
from qe_rules.texts.discrepancies import (
    Discrepancy,
    DiscrepancyKind,
    Reading,
    find_discrepancies,
    get_discrepancy,
)
from qe_rules.texts.glossary import Term, lookup_term, translate_term
from qe_rules.texts.questions import Choice, OpenQuestion, get_open_question, open_questions
from qe_rules.verification.checks import (
    Coverage,
    Example,
    Finding,
    Verdict,
    VerificationReport,
    check_names,
    verify,
)

if TYPE_CHECKING:
    from qe_rules.texts.discrepancies import DISCREPANCIES
    from qe_rules.texts.glossary import GLOSSARY

__version__ = "0.1.0.dev0"

__all__ = [
    "AGENT_NAMES",
    "CHANGE_CAUSES",
    "COMPANIES",
    "DISCREPANCIES",
    "GAP_CODES",
    "GLOSSARY",
    "RULESETS",
    "SCHEMAS",
    "SOURCES",
    "Agent",
    "AgentFactory",
    "Award",
    "Awarded",
    "Basis",
    "Batch",
    "BeyondTable",
    "BidLimits",
    "Category",
    "ChangeExample",
    "Choice",
    "Company",
    "Comparison",
    "Coverage",
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
    "Peeked",
    "Phase",
    "PlayedComparison",
    "PlayerRecord",
    "PlayerView",
    "Provenance",
    "PublicView",
    "RandomAgent",
    "Reading",
    "Rebid",
    "RebidScope",
    "RuleSet",
    "RuleSetDiff",
    "RulesError",
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
    "translate_term",
    "verify",
    "wilson_interval",
]


def __getattr__(name: str) -> Any:
    # The register and the glossary are read from their data files on first use.
    if name == "DISCREPANCIES":
        return discrepancies.DISCREPANCIES
    if name == "GLOSSARY":
        return glossary.GLOSSARY
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
