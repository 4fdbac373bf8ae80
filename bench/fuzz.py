"""The long fuzz run: many hostile inputs per public entry point (not run in CI).

Run: ``python bench/fuzz.py [--inputs 100000] [--target NAME ...] [--group GROUP ...]
[--memory-every 100] [--timeout 30] [--list]``.

The targets (``--list`` names them) come in groups:

- ``readers``: ``reader:<name>``, one per reader of untrusted documents (the views, events,
  results, score sheets, gaps, records, ``replay``, record files, player records,
  statistics, comparisons, shares, change examples, score files, rule sets as data, rule
  files): a mutated document the library made, read; what is accepted is used and must
  agree with itself, and where a JSON Schema is shipped the schema and the reader agree
  both ways (``tests/support/readers.py``);
- ``cli``: ``cli:<command>``, one per command of ``qe-rules``: hostile command lines,
  files and input; only documented exit statuses, never a traceback or status 4, one
  line on stderr for a failure (``tests/support/commands.py``);
- ``calls``: ``api`` (public functions with hostile arguments) and ``envs`` (the
  learning environments made and played with hostile actions: refused, and still
  usable) (``tests/support/calls.py``);
- ``earlier``: the targets of the first two rounds (``tests/support/fuzz.py``,
  ``tests/support/hostile.py``), and ``variants-verified`` (too slow for CI).

For each target the run reports the inputs tried, their outcomes (accepted or refused,
the exit statuses), the escapes (an exception that is not a ``qe_rules.RulesError``, or a
broken promise: an accepted document that disagrees with itself, a rejected move that
changed the game, a command failing in more than one line) with each escape site and the
seed of its first input, the inputs stopped by ``--timeout``, the slowest input (for a
reader: the reader's own time, apart from this harness's checks) and the largest
allocation peak measured (with tracemalloc, on every ``--memory-every``-th input),
against the bounds of issue 12: 2 s and 200 MB per input under 1 MB. Every escape is
printed with its seed, so that ``python bench/fuzz.py --target NAME --seed SEED
--inputs 1`` replays it. ``--markdown`` ends with the table of every target.
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import signal
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from tests.support.calls import TARGETS as CALL_TARGETS
from tests.support.commands import command_targets
from tests.support.fuzz import measured, scratch_folder, targets
from tests.support.hostile import fuzz_variants_verified
from tests.support.readers import reader_targets

LONG_RUN_ONLY = {"variants-verified": fuzz_variants_verified}
"""Targets too slow for CI: a random valid variant played, replayed, drawn and verified
(``qe.verify`` of every check, its sale searches bounded by ``CANDIDATES_PER_PATH``)."""

SECONDS_BOUND = 2.0
BYTES_BOUND = 200 * 2**20


class Timeout(BaseException):
    """An input that ran past ``--timeout`` (a BaseException: no library handler takes it)."""


def groups() -> dict[str, dict[str, Callable[[Any], Any]]]:
    """Every target by group, then by name."""
    return {
        "readers": dict(reader_targets()),
        "cli": dict(command_targets()),
        "calls": dict(CALL_TARGETS),
        "earlier": {**targets(scratch_folder()), **LONG_RUN_ONLY},
    }


class Tally:
    """What the inputs of one target gave."""

    def __init__(self) -> None:
        self.outcomes: collections.Counter[str] = collections.Counter()
        self.escapes: collections.Counter[str] = collections.Counter()
        self.first: dict[str, tuple[int, str]] = {}
        self.slowest, self.slowest_seed, self.peak, self.peak_seed = 0.0, -1, 0, -1
        self.inputs = 0
        self.seconds = 0.0
        self.timeout_seeds: list[int] = []  # the first few inputs stopped by --timeout

    def escaped(self, error: BaseException, seed: int) -> None:
        frame = traceback.extract_tb(error.__traceback__)[-1]
        where = f"{type(error).__name__} at {pathlib.Path(frame.filename).name}:{frame.lineno}"
        self.escapes[where] += 1
        self.first.setdefault(where, (seed, str(error)[:300]))

    def timed(self, seconds: float, allocated: int, seed: int) -> None:
        if seconds > self.slowest:
            self.slowest, self.slowest_seed = seconds, seed
        if allocated > self.peak:
            self.peak, self.peak_seed = allocated, seed

    def line(self, name: str, memory_every: int) -> str:
        outcomes = ", ".join(f"{key} {count}" for key, count in sorted(self.outcomes.items()))
        return (
            f"{name}: {self.inputs} inputs in {self.seconds:.0f} s ({outcomes}); escapes "
            f"{sum(self.escapes.values())} at {len(self.escapes)} sites; slowest "
            f"{self.slowest:.3f} s (seed {self.slowest_seed}); largest peak "
            f"{self.peak / 2**20:.1f} MB (seed {self.peak_seed}, every {memory_every}th input)"
        )


def _alarm(signum: int, frame: Any) -> None:
    raise Timeout()


def run_target(name: str, target: Callable[[Any], Any], args: argparse.Namespace) -> Tally:
    """Feed ``target`` the inputs of seeds ``args.seed`` on; report progress on stderr."""
    tally = Tally()
    started = time.perf_counter()
    for seed in range(args.seed, args.seed + args.inputs):
        memory = args.memory_every > 0 and seed % args.memory_every == 0
        outcome: Any = None
        signal.setitimer(signal.ITIMER_REAL, args.timeout)
        try:
            seconds, allocated, outcome = measured(target, seed, memory)
        except Timeout:
            tally.outcomes["timeout"] += 1
            if len(tally.timeout_seeds) < 10:
                tally.timeout_seeds.append(seed)
            continue
        except Exception as error:  # an escape: what this run looks for
            tally.escaped(error, seed)
            continue
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            tally.inputs += 1
        if isinstance(outcome, tuple):  # a reader: its outcome and its own seconds
            outcome, seconds = outcome
        tally.outcomes[str(outcome) if outcome is not None else "done"] += 1
        tally.timed(seconds, allocated, seed)
        if args.progress and tally.inputs % args.progress == 0:
            print(
                f"  {name}: {tally.inputs} inputs, {sum(tally.escapes.values())} escapes, "
                f"slowest {tally.slowest:.3f} s (seed {tally.slowest_seed})",
                file=sys.stderr,
                flush=True,
            )
    tally.seconds = time.perf_counter() - started
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000, help="inputs per target")
    parser.add_argument(
        "--seconds-bound", type=float, default=SECONDS_BOUND, help="the slowest input allowed"
    )
    parser.add_argument("--target", action="append", help="only this target (repeatable)")
    parser.add_argument(
        "--group", action="append", help="only the targets of this group (repeatable)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the first seed")
    parser.add_argument(
        "--memory-every", type=int, default=100, help="measure memory on every n-th input"
    )
    parser.add_argument(
        "--timeout", type=float, default=30.0, help="seconds before an input is stopped"
    )
    parser.add_argument(
        "--progress", type=int, default=10_000, help="report on stderr every n inputs (0: never)"
    )
    parser.add_argument("--list", action="store_true", help="name the targets and stop")
    parser.add_argument("--markdown", action="store_true", help="end with a Markdown table")
    args = parser.parse_args()
    everything = groups()
    if args.list:
        for group, found in everything.items():
            print(f"{group}: {' '.join(found)}")
        return 0
    every = {name: target for found in everything.values() for name, target in found.items()}
    chosen = [name for group in args.group or [] for name in everything[group]]
    names = [*(args.target or []), *chosen] or list(every)
    signal.signal(signal.SIGALRM, _alarm)
    failed = False
    rows = []
    for name in names:
        tally = run_target(name, every[name], args)
        print(tally.line(name, args.memory_every), flush=True)
        for where, count in tally.escapes.most_common():
            seed, message = tally.first[where]
            print(f"  escape {where}: {count} (first seed {seed}): {message}", flush=True)
        if tally.timeout_seeds:
            print(f"  stopped by --timeout: seeds {tally.timeout_seeds}", flush=True)
        rows.append((name, tally))
        if tally.escapes or tally.slowest > args.seconds_bound or tally.peak > BYTES_BOUND:
            failed = True
    if args.markdown:
        print("\n| target | inputs | outcomes | escapes | sites | timeouts | slowest (s) |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for name, tally in rows:
            outcomes = ", ".join(
                f"{key} {count}"
                for key, count in sorted(tally.outcomes.items())
                if key != "timeout"
            )
            print(
                f"| {name} | {tally.inputs:,} | {outcomes} | {sum(tally.escapes.values())} | "
                f"{len(tally.escapes)} | {tally.outcomes['timeout']} | {tally.slowest:.2f} |"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
