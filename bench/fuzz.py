"""The long fuzz run: many hostile inputs per public entry point (not run in CI).

Run: ``python bench/fuzz.py [--inputs 100000] [--target NAME ...] [--memory-every 100]``.

Each target (see ``tests/support/fuzz.py`` and ``tests/support/hostile.py``) feeds one
hostile input per seed to one entry
point. The run reports, per target, the inputs tried, the escapes (an exception that is
not a ``qe_rules.RulesError``, or a broken promise such as a rejected move that changed
the game), the slowest input and the largest allocation peak measured (with tracemalloc,
on every ``--memory-every``-th input), against the bounds of issue 12: 2 s and 200 MB per
input under 1 MB. Every escape is printed with its seed, so that
``python bench/fuzz.py --target NAME --seed SEED --inputs 1`` replays it.
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import sys
import time
import traceback

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from tests.support.fuzz import measured, scratch_folder, targets
from tests.support.hostile import fuzz_variants_verified

LONG_RUN_ONLY = {"variants-verified": fuzz_variants_verified}
"""Targets too slow for CI: a random valid variant played, replayed, drawn and verified
(``qe.verify`` of every check, its sale searches bounded by ``CANDIDATES_PER_PATH``)."""

SECONDS_BOUND = 2.0
BYTES_BOUND = 200 * 2**20


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000, help="inputs per target")
    parser.add_argument(
        "--seconds-bound", type=float, default=SECONDS_BOUND, help="the slowest input allowed"
    )
    parser.add_argument("--target", action="append", help="only this target (repeatable)")
    parser.add_argument("--seed", type=int, default=0, help="the first seed")
    parser.add_argument(
        "--memory-every", type=int, default=100, help="measure memory on every n-th input"
    )
    parser.add_argument(
        "--progress", type=int, default=10_000, help="report on stderr every n inputs (0: never)"
    )
    args = parser.parse_args()
    every = {**targets(scratch_folder()), **LONG_RUN_ONLY}
    names = args.target or list(every)
    failed = False
    for name in names:
        target = every[name]
        escapes: collections.Counter[str] = collections.Counter()
        first_seed: dict[str, int] = {}
        slowest, slowest_seed, peak, peak_seed = 0.0, -1, 0, -1
        started = time.perf_counter()
        for seed in range(args.seed, args.seed + args.inputs):
            memory = args.memory_every > 0 and seed % args.memory_every == 0
            try:
                seconds, allocated = measured(target, seed, memory)
            except Exception as error:  # an escape: what this run looks for
                frame = traceback.extract_tb(error.__traceback__)[-1]
                where = (
                    f"{type(error).__name__} at {pathlib.Path(frame.filename).name}:{frame.lineno}"
                )
                escapes[where] += 1
                first_seed.setdefault(where, seed)
                continue
            if seconds > slowest:
                slowest, slowest_seed = seconds, seed
            if allocated > peak:
                peak, peak_seed = allocated, seed
            done = seed - args.seed + 1
            if args.progress and done % args.progress == 0:
                escaped = sum(escapes.values())
                print(
                    f"  {name}: {done} inputs, {escaped} escapes, slowest {slowest:.3f} s "
                    f"(seed {slowest_seed})",
                    file=sys.stderr,
                    flush=True,
                )
        elapsed = time.perf_counter() - started
        tried = args.inputs
        print(
            f"{name}: {tried} inputs in {elapsed:.0f} s; escapes {sum(escapes.values())}; "
            f"slowest {slowest:.3f} s (seed {slowest_seed}); largest peak "
            f"{peak / 2**20:.1f} MB (seed {peak_seed}, every {args.memory_every}th input)",
            flush=True,
        )
        for where, count in escapes.most_common():
            print(f"  escape {where}: {count} (first seed {first_seed[where]})", flush=True)
        if escapes or slowest > args.seconds_bound or peak > BYTES_BOUND:
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
