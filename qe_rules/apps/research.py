"""The research commands of ``qe-rules``: ``evaluate`` (a cross-play matrix of a population
of agents, :mod:`qe_rules.learning.evaluation`) and ``exploit`` (an exploitability probe,
:mod:`qe_rules.learning.exploit`)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any, Final, TextIO

from qe_rules.errors import InvalidArgument

__all__ = ["DEFAULT_POPULATION", "add_research_parsers"]

DEFAULT_POPULATION: Final = (
    "random",
    "value",
    "trained",
    "ppo",
    "adaptive",
    "value-frugal",
    "value-eager",
    "value-spender",
    "value-tight",
    "value-timid",
    "value-zeros",
    "value-noisy",
)
"""The agents ``qe-rules evaluate`` plays when none are named."""


def _numpy_needed(what: str) -> None:
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise InvalidArgument(f"{what} plays on the batch: pip install 'qe-rules[batch]'") from None


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _written(found: Any, form: str, out: TextIO) -> int:
    """Write a matrix or a report as JSON or as text; the command's status."""
    if form == "json":
        json.dump(found.to_dict(), out, indent=2)
        out.write("\n")
    else:
        print(found.to_text(), file=out)
    return 0


def _cmd_evaluate(args: argparse.Namespace, out: TextIO) -> int:
    _numpy_needed("evaluate")
    from qe_rules.learning.evaluation import EVALUATION_SEED, cross_play

    def progress(done: int, total: int) -> None:
        _say(f"evaluate: {done} of {total} cells")

    seed = EVALUATION_SEED if args.seed is None else args.seed
    matrix = cross_play(
        args.agents or list(DEFAULT_POPULATION),
        ruleset=args.read_ruleset(args.ruleset),  # read here: its errors are the command's
        players=args.players,
        games=args.games,
        seed=seed,
        progress=progress if args.progress else None,
    )
    return _written(matrix, args.format, out)


def _cmd_exploit(args: argparse.Namespace, out: TextIO) -> int:
    _numpy_needed("exploit")
    from qe_rules.learning.evaluation import EVALUATION_SEED
    from qe_rules.learning.exploit import exploit

    report = exploit(
        args.agent,
        ruleset=args.read_ruleset(args.ruleset),
        players=args.players,
        minutes=args.minutes,
        num_envs=args.envs,
        seed=args.seed,
        games=args.games,
        eval_seed=EVALUATION_SEED if args.eval_seed is None else args.eval_seed,
        out=args.out,
        progress=_say if args.progress else None,
    )
    return _written(report, args.format, out)


def add_research_parsers(commands: Any, ruleset_arg: Callable[[str], Any]) -> None:
    """Add ``evaluate`` and ``exploit`` to ``commands`` (``ruleset_arg`` reads a rule set
    argument as the other commands do)."""
    evaluate = commands.add_parser(
        "evaluate",
        help="play every agent of a population against every other",
        description="A cross-play matrix on the batch: each agent in one seat against "
        "copies of each agent (itself included), every deal played with it in each seat, "
        "with 95%% intervals, Elo ratings and Nash averaging (docs/rl.md). An agent is a "
        "batched agent's name, a value-agent variant (value-frugal, ...), a learned "
        "agent's weights (.toml) or a policy network (.npz). Needs numpy; the Nash "
        "average needs scipy.",
    )
    evaluate.add_argument(
        "agents", nargs="*", metavar="AGENT", help="default: " + " ".join(DEFAULT_POPULATION)
    )
    evaluate.add_argument("--ruleset", default="en", metavar="ID", help="default en")
    evaluate.add_argument("--players", type=int, default=4, help="3 to 5 (default 4)")
    evaluate.add_argument("--games", type=int, default=2000, help="games a cell (default 2000)")
    evaluate.add_argument(
        "--seed",
        type=int,
        default=None,
        help="the deals' seed (default: the evaluation's)",
    )
    evaluate.add_argument(
        "--format", choices=["text", "json"], default="text", help="Markdown tables or JSON"
    )
    evaluate.add_argument("--progress", action="store_true", help="report each cell on stderr")
    evaluate.set_defaults(run=_cmd_evaluate, read_ruleset=ruleset_arg)

    probe = commands.add_parser(
        "exploit",
        help="learn a best response to an agent and measure it",
        description="The exploitability probe: MaskablePPO from the agent's own network "
        "(or from an imitation of it) for a fixed budget of processor minutes against "
        "copies of the agent, then its win share against them on other deals "
        "(docs/rl.md). Needs the train extra (torch's CPU wheel, sb3-contrib).",
    )
    probe.add_argument("agent", metavar="AGENT", help="the agent probed (a name or a file)")
    probe.add_argument("--ruleset", default="en", metavar="ID", help="default en")
    probe.add_argument("--players", type=int, default=4, help="3 to 5 (default 4)")
    probe.add_argument("--minutes", type=float, default=12.0, help="processor minutes (12)")
    probe.add_argument("--envs", type=int, default=64, help="games learnt from at once (64)")
    probe.add_argument("--games", type=int, default=2000, help="games of the measure (2000)")
    probe.add_argument("--seed", type=int, default=0, help="the learning's seed")
    probe.add_argument(
        "--eval-seed",
        type=int,
        default=None,
        help="the measure's deals' seed (default: the evaluation's)",
    )
    probe.add_argument("--out", metavar="FILE.npz", help="keep the best response's network")
    probe.add_argument("--format", choices=["text", "json"], default="text", help="text or JSON")
    probe.add_argument("--progress", action="store_true", help="report the progress on stderr")
    probe.set_defaults(run=_cmd_exploit, read_ruleset=ruleset_arg)
