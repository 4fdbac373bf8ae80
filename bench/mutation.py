"""Mutation score of the modules whose bugs the tests must catch, with mutmut.

Run: ``python bench/mutation.py [MODULE ...] [--before] [--keep [--only NAME ...]] [--sample N]
[--report]``
(modules: scoring, sales, verify, engine; default all four, in that order; ``--help`` says
what each option does). It needs the ``mutation`` dependency group
(``pip install -e '.[verify,dask,parquet,plot,rl,web]' --group mutation``) and is never
part of ``.ci/run``: a full run takes
from minutes (sales) to hours (engine) on two cores.

Each module is mutated on its own, in ``.mutation/<module>/`` (a copy of ``qe_rules/``,
``tests/`` and ``conftest.py`` with a ``[tool.mutmut]`` table naming that module and its
fast tests, see :data:`MODULES`), with one worker under ``nice``. mutmut runs, for each
mutant, only the selected tests that call the mutated function. After tests were added
(and nothing else changed), ``--keep`` tries again only the mutants the previous run did
not catch: a caught mutant stays caught when tests are only added; with ``--only``, just the
survivors named (mutmut's names, as the report prints them).

The score of a module is ``(killed + timeout) / (mutants - equivalent)``: a mutant whose
tests hang is caught; a mutant no selected test reaches counts as a survivor; an
equivalent mutant is one listed, with the reason it cannot change behaviour, in the table
"Equivalent mutants" of ``docs/testing.md`` (matched by module, function and mutated
line). Survivors that are not listed there are printed with their mutated line (with
``--diffs``, mutmut's whole diff).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = Path(os.environ.get("QE_MUTATION_WORK", ROOT / ".mutation"))  # where runs are kept
DOCS = ROOT / "docs" / "testing.md"

MODULES: dict[str, list[str]] = {
    # module -> the tests each of its mutants may run (mutmut picks those that call it)
    "scoring": [
        "qe_rules/game/scoring.py",
        "tests/game/test_scoring.py",
    ],
    "sales": [
        "qe_rules/game/sales.py",
        "tests/game/test_sales.py",
        "tests/game/test_peek_window.py",
    ],
    "verify": [  # qe_rules/verification/; not its doctest nor tests/verification/
        # test_end_to_end.py: they verify whole rule sets, for every mutant
        "tests/verification/test_report.py",
        "tests/verification/test_static.py",
        "tests/verification/test_sale_search.py",
        "tests/verification/test_games.py",
        "tests/verification/test_readings.py",
        "tests/verification/test_faults.py",
        "tests/verification/test_suite.py",
    ],
    "engine": [
        "qe_rules/game/engine.py",
        "tests/game/test_engine.py",
        "tests/game/test_engine_internals.py",
        "tests/properties/test_secrecy.py",
        "tests/game/test_peek_window.py",
    ],
}

# module -> the files mutated, under qe_rules/ (the verifier is a package of several)
SOURCES: dict[str, tuple[str, ...]] = {
    "scoring": ("game/scoring.py",),
    "sales": ("game/sales.py",),
    "verify": tuple(
        f"verification/{name}.py"
        for name in ("report", "static", "sale_search", "games", "readings", "play", "suite")
    ),
    "engine": ("game/engine.py", "game/_state.py", "game/_secrecy.py"),
}

# The tests written to kill mutants carry this marker; --before deselects them.
KILLS_MUTANTS = "kills_mutants"

# Lines left unmutated, by module: in the verifier the wording of findings and of the generated
# page (lines that start with a string), which tests pin down by meaning, not by letter.
SKIPPED: dict[str, list[str]] = {"verify": [r'^\s*(f|rf|r)?"']}

# Reproducible hypothesis examples, so that a mutant is killed or not the same way each run.
# A failing property has caught its mutant: mutation_plugin.py turns shrinking off.
PYTEST_ARGS = ["-p", "no:cacheprovider", "--hypothesis-seed=0", "-p", "mutation_plugin"]

DETECTED = {"killed", "timeout", "caught by type check"}


def dotted(module: str) -> str:
    """The import path of a module's first mutated file: ``scoring`` ->
    ``qe_rules.game.scoring``."""
    return "qe_rules." + SOURCES[module][0].removesuffix(".py").replace("/", ".")


def mutmut_table(module: str, before: bool = False) -> str:
    """The ``[tool.mutmut]`` table of one module's run (``before``: without the tests
    written to kill mutants, those marked ``kills_mutants``)."""
    tests = [t for t in MODULES[module] if (ROOT / t).exists()]
    # -m replaces pyproject's -m 'not slow': the slow tests of a module run here too
    deselect = ["-m", f"not {KILLS_MUTANTS}" if before else ""]
    table = {
        "source_paths": ["qe_rules"],
        "only_mutate": [f"qe_rules/{source}" for source in SOURCES[module]],
        "also_copy": ["conftest.py", "mutation_plugin.py"],
        "pytest_add_cli_args_test_selection": tests,
        "pytest_add_cli_args": [*PYTEST_ARGS, *deselect],
        "use_git_change_detection": False,
        # each mutant forks from a process that has only collected the tests: a cache
        # filled by an earlier run (scoring's tables, its lru_cache) cannot hide a mutant
        "process_isolation": "forkserver",
        "do_not_mutate_patterns": SKIPPED.get(module, []),
        # a mutant that makes its tests take several times longer loops forever: stop it
        # soon (mutmut's limit is 2 x multiplier x (the tests' time + constant) CPU seconds)
        "timeout_multiplier": 3.0,
        "timeout_constant": 2.0,
    }
    lines = ["", "[tool.mutmut]"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in table.items()]
    return "\n".join(lines) + "\n"


def prepare(module: str, keep: bool, before: bool = False) -> Path:
    """The work folder of ``module``: fresh copies of the sources and tests."""
    work = WORK / module
    if not keep and work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True, exist_ok=True)
    for folder in ("qe_rules", "tests"):
        shutil.rmtree(work / folder, ignore_errors=True)
        shutil.copytree(
            ROOT / folder, work / folder, ignore=shutil.ignore_patterns("__pycache__", "*.so")
        )
        if keep:  # mutmut copies tests only once: refresh them in its own copy
            target = work / "mutants" / folder
            if folder == "tests" and target.exists():
                shutil.rmtree(target)
                shutil.copytree(work / folder, target)
    shutil.copy2(ROOT / "conftest.py", work / "conftest.py")
    shutil.copy2(ROOT / "bench" / "mutation_plugin.py", work / "mutation_plugin.py")
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    (work / "pyproject.toml").write_text(text + mutmut_table(module, before), encoding="utf-8")
    if keep and (work / "mutants").exists():
        shutil.copy2(work / "pyproject.toml", work / "mutants" / "pyproject.toml")
    return work


def mutmut(work: Path, *args: str, quiet: bool = False) -> subprocess.CompletedProcess[str]:
    """Run mutmut in ``work`` under ``nice``, with one worker."""
    command = ["nice", "-n", "10", str(Path(sys.executable).parent / "mutmut"), *args]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(command, cwd=work, env=env, text=True, capture_output=quiet, check=False)


def statuses(work: Path, module: str) -> dict[str, str]:
    """Each mutant's status, by mutmut's name for it."""
    sys.path.insert(0, str(work))
    from mutmut.stats import status_by_exit_code

    found: dict[str, str] = {}
    for source in SOURCES[module]:
        meta_path = work / "mutants" / "qe_rules" / f"{source}.meta"
        if not meta_path.exists():
            continue  # a file with nothing to mutate
        meta = json.loads(meta_path.read_text())
        found.update(
            (name, status_by_exit_code[code]) for name, code in meta["exit_code_by_key"].items()
        )
    return found


def function_of(name: str) -> str:
    """The function a mutant changes: ``qe_rules.game.sales.x_settle__mutmut_3`` -> ``settle``,
    ``qe_rules.game.sales.xǁBidLimitsǁlegal__mutmut_1`` -> ``BidLimits.legal``."""
    local = name.rsplit(".", 1)[1].rsplit("__mutmut_", 1)[0]
    if local.startswith("xǁ"):
        return ".".join(local[2:].split("ǁ"))
    return local[2:]


def mutated_line(work: Path, name: str) -> str:
    """The first line the mutant changes, as it reads after the change (stripped), from
    mutmut's copy of the module: the mutant's function against the original."""
    path = work / "mutants" / Path(*name.split(".")[:-1]).with_suffix(".py")
    spans = json.loads(path.with_name(f"{path.name}.spans").read_text())["spans"]
    lines = path.read_text(encoding="utf-8").splitlines()
    local = name.rsplit(".", 1)[1]

    def body(key: str) -> list[str]:
        start, end = spans[key]
        return [line.strip().replace(key, "") for line in lines[start - 1 : end]]

    mutant, original = body(local), body(local.rsplit("__mutmut_", 1)[0] + "__mutmut_orig")
    for after, before in zip(mutant, original, strict=False):
        if after != before:
            return after
    return mutant[len(original)] if len(mutant) > len(original) else ""


def equivalents() -> dict[str, set[tuple[str, str]]]:
    """The equivalent mutants explained in docs/testing.md: module -> (function, line)."""
    found: dict[str, set[tuple[str, str]]] = {}
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Equivalent mutants", 1)[-1] if "## Equivalent mutants" in text else ""
    for row in re.findall(r"^\| `(\w+)` \| `([\w.]+)` \| `(.+?)` \|", section, re.MULTILINE):
        module, function, line = row
        found.setdefault(module, set()).add((function, line.replace("\\|", "|")))
    return found


def score(
    module: str,
    keep: bool,
    sample: int | None,
    before: bool,
    report: bool = False,
    only: list[str] | None = None,
    children: int = 1,
) -> dict[str, object]:
    """Run mutmut over ``module`` (or a seeded sample of its mutants) and count its
    mutants by status; with ``report``, count the last run's results without running;
    with ``keep`` and ``only``, retry only those of the named mutants not caught yet."""
    saved = WORK / module / "statuses.json"
    if report:
        work = WORK / module
        now = json.loads(saved.read_text()) if saved.exists() else statuses(work, module)
        return summary(module, work, now, now)
    earlier: dict[str, str] = json.loads(saved.read_text()) if keep and saved.exists() else {}
    work = prepare(module, keep, before)
    run_all = ("run", "--max-children", str(children))
    if earlier:  # only the mutants that were not caught: tests are only added
        again = [name for name, status in earlier.items() if status not in DETECTED]
        if only is not None:
            again = [name for name in again if name in only]
        run = mutmut(work, *run_all, *again, quiet=True) if again else None
    elif sample:
        mutmut(work, *run_all, f"{dotted(module)}.no-such-mutant*", quiet=True)  # generates
        every = sorted(statuses(work, module))
        again = sorted(random.Random(f"mutation-{module}").sample(every, min(sample, len(every))))
        run = mutmut(work, *run_all, *again, quiet=True)
    else:
        run = mutmut(work, *run_all, quiet=True)
        again = []
    if run is not None and run.returncode != 0:
        print(run.stdout[-4000:], run.stderr[-4000:], sep="\n")
        raise SystemExit(f"mutmut failed on {module} (status {run.returncode})")
    now = statuses(work, module)
    tried = set(again)
    if earlier or sample:
        names = list(earlier) or again
        by_status = {name: now[name] if name in tried else earlier[name] for name in names}
    else:
        by_status = now
    saved.write_text(json.dumps(by_status, indent=1, sort_keys=True))
    return summary(module, work, by_status, now)


def summary(
    module: str, work: Path, by_status: dict[str, str], now: dict[str, str]
) -> dict[str, object]:
    """The counts of one module's mutants by status, its score and its survivors."""
    explained = equivalents().get(module, set())
    counts = Counter(by_status.values())
    survivors: list[tuple[str, str]] = []
    equivalent = 0
    for name, status in sorted(by_status.items()):
        if status in DETECTED:
            continue
        line = mutated_line(work, name)
        if (function_of(name), line) in explained:
            equivalent += 1
        else:
            survivors.append((name, line))
    detected = sum(counts[s] for s in DETECTED)
    counted = len(by_status) - equivalent
    return {
        "module": module,
        "mutants": len(by_status),
        "generated": len(now),
        "killed": counts["killed"] + counts["caught by type check"],
        "timeout": counts["timeout"],
        "survived": counts["survived"],
        "no tests": counts["no tests"],
        "equivalent": equivalent,
        "score": detected / counted if counted else 1.0,
        "unexplained": survivors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help=f"modules to mutate ({', '.join(MODULES)})")
    parser.add_argument(
        "--keep",
        action="store_true",
        help="after adding tests: retry only the mutants the last run did not catch",
    )
    parser.add_argument(
        "--only",
        nargs="+",
        metavar="NAME",
        help="with --keep: retry only these survivors (mutmut's names, as printed)",
    )
    parser.add_argument(
        "--report", action="store_true", help="summarize the last run without running"
    )
    parser.add_argument(
        "--before",
        action="store_true",
        help="leave out the tests written to kill mutants (marked kills_mutants)",
    )
    parser.add_argument(
        "--sample", type=int, metavar="N", help="run a seeded random sample of N mutants"
    )
    parser.add_argument(
        "--children",
        type=int,
        default=1,
        metavar="N",
        help="mutants run at once (default 1; more finishes sooner on an idle machine)",
    )
    parser.add_argument("--diffs", action="store_true", help="print each unexplained survivor")
    args = parser.parse_args()
    unknown = [m for m in args.modules if m not in MODULES]
    if unknown:
        parser.error(f"unknown module {unknown[0]!r}; choose from {', '.join(MODULES)}")
    if args.only and not args.keep:
        parser.error("--only retries survivors of an earlier run: use it with --keep")
    rows = []
    for module in args.modules or list(MODULES):
        row = score(
            module, args.keep, args.sample, args.before, args.report, args.only, args.children
        )
        rows.append(row)
        print(
            f"{module:<8} {row['mutants']:>5} mutants: {row['killed']} killed, "
            f"{row['timeout']} timeout, {row['survived']} survived, {row['no tests']} "
            f"not reached, {row['equivalent']} equivalent; score {row['score']:.1%}"
            + (
                f" (a sample of the {row['generated']} mutants)"
                if row["generated"] != row["mutants"]
                else ""
            ),
            flush=True,
        )
        for name, line in row["unexplained"]:  # type: ignore[attr-defined]
            print(f"  survivor {name}: {line}")
            if args.diffs:
                print(mutmut(WORK / module, "show", name, quiet=True).stdout)
    print()
    print("| module | mutants | killed | timeout | survived | equivalent | score |")
    print("|---|---|---|---|---|---|---|")
    for row in rows:
        alive = int(row["survived"]) + int(row["no tests"])  # type: ignore[call-overload]
        print(
            f"| `{row['module']}.py` | {row['mutants']} | {row['killed']} | {row['timeout']} "
            f"| {alive - int(row['equivalent'])} | {row['equivalent']} "  # type: ignore[call-overload]
            f"| {row['score']:.1%} |"
        )


if __name__ == "__main__":
    main()
