"""The release checks of .ci/run: install the package as users do and try it.

- build: the wheel and the sdist (``uv build``), ``twine check --strict`` and
  ``check-wheel-contents``, the licence files and the project URLs in the metadata;
- core: the wheel alone (attrs only) runs the README's main command, ``import qe_rules``
  loads no optional package;
- extras: each extra of pyproject.toml alone in a fresh venv, importing its module and
  running its smallest example (an extra added later and not named in ``SMOKE`` still
  installs alone, and the modules it makes importable import and pass their doctests);
- lowest: each extra alone at its lowest allowed versions (``uv pip install --resolution
  lowest-direct``), asserting that every floor it declares is the version installed; then
  the tests that use the extras with the dev group at its floors, in a venv of every extra
  whose floors go together and one of each extra that raises another's floor (OpenSpiel
  needs a newer numpy than ``[rl]``'s floor);
- pythons: Python 3.12 on a subset of the tests, and Python 3.13 on the whole quick suite
  from the unpacked sdist (which checks that the sdist holds what its tests need);
- docs: the docs site, built with warnings as errors.

Run it from the checkout with a Python that has the ``release`` and ``docs`` groups
(``.ci/run`` does): ``python .ci/extras.py [--only PART ...]``. The interpreters are the
machine's (``/root/.pyenv/versions``); nothing downloads one (``UV_PYTHON_DOWNLOADS=never``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
EXTRAS: dict[str, list[str]] = PYPROJECT["project"]["optional-dependencies"]

PYTHONS = {
    "3.11": "/root/.pyenv/versions/3.11.7/bin/python3.11",
    "3.12": "/root/.pyenv/versions/3.12.1/bin/python3.12",
    "3.13": "/root/.pyenv/versions/3.13.0/bin/python3.13",
}

# Extras too heavy for the CI's 30 minutes on two cores, with the reason.
EXCLUDED = {
    "train": "PyTorch: gigabytes of wheels for a fresh venv",
}

# The smallest example of each extra, run in a venv that has the wheel and that extra only.
SMOKE = {
    "verify": """
from hypothesis import given, settings
from qe_rules.strategies import games

@settings(max_examples=5, deadline=None)
@given(games(finished=True))
def finished(game):
    assert game.is_over

finished()
""",
    "dask": """
from dask.distributed import Client, LocalCluster
import qe_rules as qe

with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \\
        Client(cluster) as client:
    stats = qe.simulate("en", 4, "random", 40, seed=1, executor=client.get_executor(), workers=2)
assert stats == qe.simulate("en", 4, "random", 40, seed=1)
""",
    "parquet": """
import tempfile, pathlib
import pyarrow.parquet as pq
import qe_rules as qe

stats = qe.simulate("en", 4, "random", 20, seed=1, rows=True)
path = pathlib.Path(tempfile.mkdtemp()) / "rows.parquet"
stats.write_rows(str(path))
assert pq.read_table(path).num_rows == 80
""",
    "plot": """
import subprocess, tempfile, pathlib
path = pathlib.Path(tempfile.mkdtemp()) / "sim.png"
subprocess.run(["qe-rules", "simulate", "--games", "20", "--plot", str(path)], check=True,
               stdout=subprocess.DEVNULL)
assert path.read_bytes().startswith(b"\\x89PNG")
""",
    "rl": """
import numpy as np
from qe_rules.rl import QEEnv
import gymnasium, qe_rules.gymnasium_env

env = QEEnv("en", 4)
env.reset(seed=42)
rng = np.random.default_rng(0)
for agent in env.agent_iter():
    observation, reward, terminated, truncated, info = env.last()
    action = None if terminated or truncated else int(
        rng.choice(np.flatnonzero(observation["action_mask"])))
    env.step(action)
assert env.game.is_over
seat = gymnasium.make("qe_rules/QESeat-v0")
seat.reset(seed=0)
""",
    "batch": """
from qe_rules import batch, replay

played = batch.play("en", 4, 50, agents="random", seed=1)
result = replay(played.record(7)).result()
assert [sheet.total for sheet in result.sheets] == played.totals[7].tolist()
""",
    "openspiel": """
import random
import pyspiel
import qe_rules.openspiel

game = pyspiel.load_game("python_qe", {"players": 4})
state = game.new_initial_state()
rng = random.Random(0)
while not state.is_terminal():
    if state.is_chance_node():
        actions, weights = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(actions, weights)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))
assert sum(state.returns()) in (0.0, 1.0)
""",
    "web": """
import json, socket, subprocess, sys, time, urllib.request

with socket.socket() as probe:
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
server = subprocess.Popen(["qe-rules", "serve", "--port", str(port), "--db", ":memory:"])
try:
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/", timeout=1)
            break
        except OSError:
            time.sleep(0.1)
    body = json.dumps({"ruleset": "en", "players": 3,
                       "seats": ["person", "random", "random"]}).encode()
    request = urllib.request.Request(base + "/api/tables", body,
                                     {"Content-Type": "application/json"})
    links = json.load(urllib.request.urlopen(request, timeout=5))
    token = links["seats"][0].rstrip("/").rsplit("/", 1)[-1]
    state = json.load(urllib.request.urlopen(f"{base}/api/seat/{token}/state", timeout=5))
    assert state, state
finally:
    server.terminate()
    server.wait(10)
""",
    "completion": """
import subprocess
script = subprocess.run(["qe-rules", "completion", "bash"], check=True, capture_output=True,
                        text=True).stdout
assert "complete" in script and "verify" in script
""",
}

# The tests that use the extras, for the lowest-versions job (the browser tests need the
# browser group, which that job leaves out).
LOWEST_TESTS = [
    "tests/learning",
    "tests/simulation",
    "tests/apps/test_web.py",
    "tests/apps/test_cli.py",
    "tests/game/test_schemas.py",
    "tests/properties/test_public_api.py",
    "docs",
    "README.md",
]
# Extras whose package needs more than another extra's floor (open_spiel 1.5: numpy >=
# 1.26, above [rl]'s 1.24): the lowest job tests them in a venv of their own, with these
# tests, so that the venv of the others reaches every floor.
LOWEST_APART = {"openspiel": ["tests/learning/test_openspiel_game.py"]}
# Python 3.12: a cross-section of every layer (3.13 runs the whole quick suite).
PY312_TESTS = [
    "tests/foundation",
    "tests/rules",
    "tests/game",
    "tests/present",
    "tests/simulation",
    "tests/learning",
    "tests/apps/test_cli.py",
    "tests/apps/test_cli_release.py",
    "tests/properties/test_public_api.py",
    "docs",
    "README.md",
    "qe_rules",
]

OPTIONAL_MODULES = [
    "hypothesis",
    "numpy",
    "numba",
    "threadpoolctl",
    "gymnasium",
    "pettingzoo",
    "pyspiel",
    "starlette",
    "uvicorn",
    "jinja2",
    "matplotlib",
    "pyarrow",
    "distributed",
    "shtab",
]

# Imports every module of the package that imports; prints the names that did.
IMPORTABLE = """
import importlib, json, pkgutil, qe_rules
names = []
for info in pkgutil.walk_packages(qe_rules.__path__, "qe_rules."):
    try:
        importlib.import_module(info.name)
    except ImportError:
        continue
    names.append(info.name)
print(json.dumps(names))
"""


def normalized(name: str) -> str:
    """A distribution's name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def declared_floors(extra: str) -> dict[str, str]:
    """The lowest version each requirement of ``extra`` allows (``numpy>=1.24``: 1.24),
    by normalized name; an extra it includes (``qe-rules[rl]``) declares its own."""
    floors = {}
    for requirement in EXTRAS[extra]:
        found = re.fullmatch(r"\s*([A-Za-z0-9_.-]+)\s*>=\s*([0-9][0-9A-Za-z.]*)\s*", requirement)
        if found and normalized(found.group(1)) != "qe-rules":
            floors[normalized(found.group(1))] = found.group(2)
    return floors


def same_version(declared: str, installed: str) -> bool:
    """``1.24`` and ``1.24.0`` are the same version; ``1.24.4`` is not ``1.24``."""

    def parts(version: str) -> list[str]:
        pieces = version.split(".")
        while len(pieces) > 1 and pieces[-1] == "0":
            pieces.pop()
        return pieces

    return parts(declared) == parts(installed)


def check_floors(extras: Sequence[str], installed: dict[str, str]) -> None:
    """Fail unless every floor the ``extras`` declare is the version installed (a floor
    that the resolver had to raise is a floor no user can install)."""
    wrong = [
        f"[{extra}] {name}>={floor} installed {installed.get(name, 'nothing')}"
        for extra in extras
        for name, floor in declared_floors(extra).items()
        if not same_version(floor, installed.get(name, ""))
    ]
    if wrong:
        raise SystemExit("release checks: a declared floor is not installable: " + "; ".join(wrong))
    print(f"floors of [{', '.join(extras)}] installed as declared", flush=True)


class Checks:
    """One run of the checks, in a scratch folder."""

    def __init__(self, scratch: Path) -> None:
        self.scratch = scratch
        self.uv = shutil.which("uv") or str(Path(sys.executable).parent / "uv")
        self.wheel: Path | None = None
        self.sdist: Path | None = None
        self.core_modules: list[str] = []
        self.times: list[tuple[str, float]] = []
        self.env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never", "PYTHONDONTWRITEBYTECODE": "1"}
        self.env.pop("PYTHONPATH", None)
        self.env.pop("VIRTUAL_ENV", None)

    # ------------------------------------------------------------------ tools

    def run(self, argv: Sequence[str | Path], *, cwd: Path | None = None, **extra: str) -> str:
        shown = " ".join(
            str(a).strip().split("\n")[0] + " ..." if "\n" in str(a) else str(a) for a in argv
        )
        print(f"$ {shown}", flush=True)
        done = subprocess.run(
            [str(a) for a in argv],
            cwd=cwd or ROOT,
            env={**self.env, **extra},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        if done.returncode != 0:
            print(done.stdout, flush=True)
            raise SystemExit(f"release checks: failed ({done.returncode}): {shown}")
        if "pytest" in [str(a) for a in argv[:3]]:
            print(done.stdout.strip().splitlines()[-1], flush=True)  # pytest's count
        return done.stdout

    def venv(self, name: str, python: str = "3.11") -> Path:
        path = self.scratch / name
        self.run([self.uv, "venv", "-q", "--python", PYTHONS[python], path])
        return path

    def install(
        self, venv: Path, *requirements: str, options: Sequence[str] = (), cwd: Path = ROOT
    ) -> None:
        python = venv / "bin/python"
        self.run(
            [self.uv, "pip", "install", "-q", "--python", python, *options, *requirements], cwd=cwd
        )

    def python(self, venv: Path, code: str, **extra: str) -> str:
        """Run ``code`` in the venv, its scripts (qe-rules) first on the path."""
        path = f"{venv / 'bin'}{os.pathsep}{self.env['PATH']}"
        return self.run([venv / "bin/python", "-c", code], cwd=self.scratch, PATH=path, **extra)

    def pytest(self, venv: Path, *args: str, cwd: Path | None = None, **extra: str) -> None:
        """The quick tests of ``args`` in the venv, quietly (pytest's addopts leave out the
        slow ones: .ci/run runs them once, on its own venv, and again here they would take
        CI past its 30 minutes)."""
        quiet = ["-q", "-p", "no:cacheprovider"]
        self.run([venv / "bin/python", "-m", "pytest", *quiet, *args], cwd=cwd, **extra)

    def timed(self, name: str, part: Callable[[], None]) -> None:
        start = time.monotonic()
        print(f"\n=== {name}", flush=True)
        part()
        self.times.append((name, time.monotonic() - start))
        print(f"=== {name}: {self.times[-1][1]:.0f} s", flush=True)

    # ------------------------------------------------------------------ parts

    @staticmethod
    def built(path: Path | None) -> Path:
        """A file of the build part (which runs before the parts that use it)."""
        assert path is not None, "the build part makes the wheel and the sdist first"
        return path

    def build(self) -> None:
        dist = self.scratch / "dist"
        self.run([self.uv, "build", "-q", "--out-dir", dist])
        (self.wheel,) = dist.glob("*.whl")
        (self.sdist,) = dist.glob("*.tar.gz")
        bin_ = Path(sys.executable).parent
        self.run([bin_ / "twine", "check", "--strict", self.wheel, self.sdist])
        self.run([bin_ / "check-wheel-contents", self.wheel])
        with zipfile.ZipFile(self.wheel) as wheel:
            names = wheel.namelist()
            (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
            text = wheel.read(metadata).decode()
        licences = {n.rsplit("/", 1)[-1] for n in names if ".dist-info/licenses/" in n}
        assert licences == {"LICENSE", "NOTICE"}, licences
        assert "License-Expression: MIT" in text
        for label in PYPROJECT["project"]["urls"]:
            assert f"Project-URL: {label}, " in text, label
        assert not any(n.startswith(("tests/", "docs/", "bench/")) for n in names)
        with tarfile.open(self.sdist) as sdist:
            members = {m.name.split("/", 1)[1] for m in sdist.getmembers() if "/" in m.name}
        needed = {
            "LICENSE",
            "NOTICE",
            "conftest.py",
            "pyproject.toml",
            "README.md",
            "tests/conftest.py",
            "docs/conf.py",
            ".ci/extras.py",
        }
        assert needed <= members, needed - members
        assert not any(m.startswith(("docs/_build", "docs/api/generated")) for m in members)

    def core(self) -> None:
        venv = self.venv("core")
        self.install(venv, str(self.built(self.wheel)))
        board = self.run([venv / "bin/qe-rules", "score", "--example"], cwd=self.scratch)
        assert "Winner: Example player (US)" in board, board
        loaded = self.python(
            venv,
            (
                "import sys, qe_rules\n"
                f"print(sorted(m for m in {OPTIONAL_MODULES!r} if m in sys.modules))"
            ),
        )
        assert loaded.strip() == "[]", loaded
        frozen = self.run([self.uv, "pip", "freeze", "--python", venv / "bin/python"])
        installed = {
            re.split("==| @ ", line)[0]
            for line in frozen.splitlines()
            if "=" in line or "@" in line
        }
        assert installed == {"attrs", "qe-rules"}, frozen
        docs = PYPROJECT["project"]["urls"]["Documentation"]
        usage = self.run([venv / "bin/qe-rules", "--help"], cwd=self.scratch)
        assert docs.replace("-", "") in "".join(usage.split()).replace("-", ""), usage
        self.core_modules = json.loads(self.python(venv, IMPORTABLE))

    def extras(self) -> None:
        for extra in sorted(EXTRAS):
            if extra in EXCLUDED:
                print(f"\n--- [{extra}]: left out ({EXCLUDED[extra]})", flush=True)
                continue
            print(f"\n--- [{extra}] alone", flush=True)
            venv = self.venv(f"extra-{extra}")
            self.install(venv, f"qe-rules[{extra}] @ {self.built(self.wheel).as_uri()}")
            self.run([self.uv, "pip", "check", "--python", venv / "bin/python"])
            unlocked = set(json.loads(self.python(venv, IMPORTABLE))) - set(self.core_modules)
            for module in sorted(unlocked):  # the modules the extra makes importable
                self.python(
                    venv,
                    (
                        "import doctest, importlib, sys\n"
                        f"failed, _ = doctest.testmod(importlib.import_module({module!r}))\n"
                        "sys.exit(failed)"
                    ),
                )
            if extra in SMOKE:
                self.python(venv, SMOKE[extra], MPLBACKEND="Agg")
            elif not unlocked:
                print(f"note: [{extra}] has no example in .ci/extras.py SMOKE", flush=True)

    def lowest(self) -> None:
        lowest = ["--resolution", "lowest-direct"]
        extras = sorted(set(EXTRAS) - set(EXCLUDED))
        for extra in extras:  # each alone: its floors are what gets installed
            venv = self.venv(f"lowest-{extra}")
            self.install(venv, f"{ROOT}[{extra}]", options=lowest)
            check_floors([extra], self.installed(venv))
        together = [extra for extra in extras if extra not in LOWEST_APART]
        runs = [(together, LOWEST_TESTS), *(([e], t) for e, t in LOWEST_APART.items())]
        for chosen, tests in runs:  # the tests, with the dev group at its floors
            venv = self.venv("lowest-tests-" + ("-".join(chosen) if len(chosen) == 1 else "all"))
            self.install(venv, f"{ROOT}[{','.join(chosen)}]", "--group", "dev", options=lowest)
            installed = self.installed(venv)
            print("\n".join(f"{n}=={v}" for n, v in sorted(installed.items())), flush=True)
            check_floors(chosen, installed)
            self.pytest(venv, "-p", "no:randomly", *tests)

    def installed(self, venv: Path) -> dict[str, str]:
        """The venv's distributions and versions, by normalized name."""
        frozen = self.run([self.uv, "pip", "freeze", "--python", venv / "bin/python"])
        found = {}
        for line in frozen.splitlines():
            name, equals, version = line.partition("==")
            if equals:
                found[normalized(name)] = version.strip()
        return found

    def pythons(self) -> None:
        chosen = ",".join(sorted(set(EXTRAS) - set(EXCLUDED)))
        # 3.12: a cross-section of the suite, from the checkout
        venv = self.venv("py312", "3.12")
        self.install(venv, f"{ROOT}[{chosen}]", "--group", "dev")
        self.pytest(venv, *PY312_TESTS, CI="")
        # 3.13: the whole quick suite from the unpacked sdist
        with tarfile.open(self.built(self.sdist)) as sdist:
            sdist.extractall(self.scratch / "sdist", filter="data")
        (source,) = (self.scratch / "sdist").iterdir()
        venv = self.venv("py313", "3.13")
        self.install(
            venv, f"{source}[{chosen}]", "--group", "dev", "--group", "browser", cwd=source
        )
        self.pytest(venv, cwd=source, CI="")

    def docs(self) -> None:
        build = self.scratch / "docs-html"
        self.run(
            [
                Path(sys.executable).parent / "sphinx-build",
                "-q",
                "-W",
                "--keep-going",
                "-b",
                "html",
                "-d",
                self.scratch / "doctrees",
                "docs",
                build,
            ]
        )
        assert (build / "api/index.html").is_file()


PARTS = ("build", "core", "extras", "lowest", "pythons", "docs")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=PARTS, help="run only these parts")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="qe-release-"))
    checks = Checks(scratch)
    needed = set(args.only or PARTS)
    if needed & {"core", "extras", "pythons"}:
        needed.add("build")  # they install the wheel or unpack the sdist
    if "extras" in needed:
        needed.add("core")  # an extra's modules are those the core cannot import
    try:
        for part in PARTS:
            if part in needed:
                checks.timed(part, getattr(checks, part))
    finally:
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    print("\nrelease checks passed: " + ", ".join(f"{n} {s:.0f} s" for n, s in checks.times))
    return 0


if __name__ == "__main__":
    sys.exit(main())
