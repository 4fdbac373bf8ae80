"""Project hygiene: public API, module order, docs coverage."""

import ast
import importlib
import importlib.util
import inspect
import pathlib

import pytest

import qe_rules as qe
from qe_rules import RuleSet

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "qe_rules"

# The layers, in the order data flows: a module imports only from its own layer and the
# layers below, never from a sibling of its own level. Each subpackage's __init__ says what
# its layer is for. Top-level modules: the foundation, the facade, and the public paths
# that re-export a layer's module (qe_rules.svg as chess.svg).
LAYERS = {
    "foundation": 0,
    "rules": 1,
    "game": 2,
    "present": 3,
    "texts": 3,
    "verification": 4,
    "simulation": 4,
    "learning": 5,
    "apps": 6,
}
PUBLIC_PATHS = {
    "_util": "foundation",
    "errors": "foundation",
    "limits": "foundation",
    "components": "foundation",
    "svg": "present",
    "strategies": "verification",
    "rl": "learning",
    "batch": "simulation",
    "gymnasium_env": "learning",
    "openspiel": "learning",
    "__main__": "apps",
}
FACADE_LEVEL = 4  # qe_rules/__init__: every layer up to verification and simulation


def _unit(module):
    """The layer unit of a dotted module name inside qe_rules: a subpackage, a foundation
    module, or a public path (counted as the layer it re-exports)."""
    name = module.split(".")[1]
    return PUBLIC_PATHS.get(name, name)


def _level(unit):
    return FACADE_LEVEL if unit == "__init__" else LAYERS[unit]


def _string_import(node):
    """The module an ``import_module("qe_rules...")`` (or ``__import__``) call names by a
    string literal, or ``None``: an import the statements do not show."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    called = node.func
    name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", None)
    value = getattr(node.args[0], "value", None)  # a string literal: an ast.Constant
    if name in ("import_module", "__import__") and isinstance(value, str):
        return value if value.startswith("qe_rules") else None
    return None


def _imports(path):
    """Every qe_rules module an AST of ``path`` imports, lazily or not, with its line: by
    an import statement, or by ``import_module`` with a string literal."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        named = _string_import(node)
        if named is not None:
            yield named, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "qe_rules":
                for alias in node.names:
                    yield f"qe_rules.{alias.name}", node.lineno
            elif node.module.startswith("qe_rules."):
                yield node.module, node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("qe_rules"):
                    yield alias.name, node.lineno


def layer_violations(package=PACKAGE):
    """Each import that goes up a layer or across to a sibling of the same level."""
    found = []
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package).with_suffix("").parts
        unit = PUBLIC_PATHS.get(parts[0], parts[0])
        for module, line in _imports(path):
            if module == "qe_rules":
                found.append(f"{path.relative_to(package)}:{line} imports the facade")
                continue
            target = _unit(module)
            if target == unit or (target == "__init__" and unit == "__init__"):
                continue
            if target not in LAYERS:
                found.append(f"{path.relative_to(package)}:{line} imports {module}, in no layer")
            elif (unit != "__init__" and _level(target) >= _level(unit)) or (
                unit == "__init__" and _level(target) > FACADE_LEVEL
            ):
                found.append(f"{path.relative_to(package)}:{line} imports {module}")
    return found


def test_every_module_is_in_a_layer():
    for path in PACKAGE.rglob("*.py"):
        first = path.relative_to(PACKAGE).parts[0].removesuffix(".py")
        assert first in LAYERS or first in PUBLIC_PATHS or first == "__init__", path
    top = [p.name for p in PACKAGE.glob("*.py")]
    assert len(top) <= 12, top
    for folder in (p for p in PACKAGE.iterdir() if p.is_dir() and p.name in LAYERS):
        docstring = ast.get_docstring(ast.parse((folder / "__init__.py").read_text()))
        assert docstring and "May import" in docstring, folder.name


def test_modules_import_only_from_their_layer_and_below():
    assert layer_violations() == []


def test_the_layer_check_fails_on_an_upward_import(tmp_path):
    package = tmp_path / "qe_rules"
    (package / "game").mkdir(parents=True)
    (package / "game" / "views.py").write_text(
        "def _repr_svg_(self):\n    from qe_rules.present import svg\n    return svg.view(self)\n"
    )
    (package / "texts").mkdir()
    (package / "texts" / "glossary.py").write_text("from qe_rules.present.svg import view\n")
    (package / "rules").mkdir()
    (package / "rules" / "model.py").write_text("from qe_rules.game.sales import settle\n")
    (package / "simulation").mkdir()
    (package / "simulation" / "agents.py").write_text(
        "import importlib\n\n\ndef _trained():\n"
        '    return importlib.import_module("qe_rules.learning.policies").TrainedAgent\n'
    )
    assert layer_violations(package) == [
        "game/views.py:2 imports qe_rules.present",
        "rules/model.py:1 imports qe_rules.game.sales",
        "simulation/agents.py:5 imports qe_rules.learning.policies",
        "texts/glossary.py:1 imports qe_rules.present.svg",
    ]


def test_no_module_is_over_1200_lines():
    for path in PACKAGE.rglob("*.py"):
        lines = path.read_text(encoding="utf-8").count("\n")
        assert lines <= 1200, f"{path.relative_to(PACKAGE)}: {lines} lines"


def _module_graph(package):
    """Each module of ``package`` (dotted) and the modules it imports, lazily or not
    (``from qe_rules.present import svg`` imports the module ``qe_rules.present.svg``)."""
    names = {}
    for path in package.rglob("*.py"):
        parts = path.relative_to(package).with_suffix("").parts
        names[".".join(("qe_rules", *parts)).removesuffix(".__init__")] = path
    graph = {}
    for name, path in names.items():
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            named = _string_import(node)
            if named is not None:
                targets.add(named)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    targets.add(full if full in names else node.module)
            elif isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
        graph[name] = {target for target in targets if target in names and target != name}
    return graph


def import_cycles(package=PACKAGE):
    """The import cycles among the modules of ``package``, each as a path of modules
    (the facade ``qe_rules`` left out: no module imports it)."""
    graph = _module_graph(package)
    found, state = [], {}

    def visit(node, trail):
        state[node] = "open"
        for target in sorted(graph[node]):
            if state.get(target) == "open":
                found.append(" -> ".join([*trail[trail.index(target) :], target]))
            elif target not in state:
                visit(target, [*trail, target])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state and node != "qe_rules":
            visit(node, [node])
    return found


def test_no_import_cycle():
    assert import_cycles() == []


@pytest.mark.parametrize(
    ("files", "cycle"),
    [
        (  # through a lazy import
            {
                "game/scoring.py": "def _repr_svg_(self):\n    from qe_rules.present import svg\n",
                "present/svg.py": "from qe_rules.game.scoring import GameResult\n",
            },
            "qe_rules.game.scoring -> qe_rules.present.svg -> qe_rules.game.scoring",
        ),
        (  # through a string import
            {
                "simulation/agents.py": (
                    'import importlib\nimportlib.import_module("qe_rules.learning.policies")\n'
                ),
                "learning/policies.py": "from qe_rules.simulation.agents import Agent\n",
            },
            "qe_rules.learning.policies -> qe_rules.simulation.agents -> qe_rules.learning.policies",
        ),
    ],
    ids=["lazy", "string"],
)
def test_the_cycle_check_finds_a_planted_cycle(tmp_path, files, cycle):
    package = tmp_path / "qe_rules"
    for name, text in files.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text)
    assert import_cycles(package) == [cycle]


def test_no_function_shadows_a_module():
    packages = [p.parent for p in PACKAGE.rglob("__init__.py")]
    for folder in packages:
        parts = folder.relative_to(PACKAGE).parts
        if parts and parts[0] == "learning":
            continue  # needs the extras; it binds no names in its __init__
        package = importlib.import_module(".".join(("qe_rules", *parts)))
        modules = {p.stem for p in folder.glob("*.py")} | {p.name for p in folder.iterdir()}
        for name, value in vars(package).items():
            if inspect.isfunction(value) or inspect.isclass(value):
                assert name not in modules, f"{package.__name__}.{name} shadows a module"


def test_public_names_exist_and_have_docstrings():
    for name in qe.__all__:
        obj = getattr(qe, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert obj.__doc__ and obj.__doc__.strip(), name
    assert len(set(qe.__all__)) == len(qe.__all__)


# Modules that need an optional package beyond the dev extra, by the package they need.
EXTRA_MODULES = {"openspiel": "pyspiel", "openspiel_game": "pyspiel", "sb3": "stable_baselines3"}


def test_each_module_all_lists_defined_names():
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        name = ".".join(("qe_rules", *parts)).removesuffix(".__init__")
        needs = EXTRA_MODULES.get(parts[-1])
        if needs and importlib.util.find_spec(needs) is None:
            continue  # its extra is not installed (openspiel, train): tested where it is
        module = importlib.import_module(name)
        for public in getattr(module, "__all__", []):
            assert hasattr(module, public), f"{name}.{public}"


def test_py_typed_is_shipped():
    assert (PACKAGE / "py.typed").exists()


def test_every_rule_field_is_documented():
    text = (ROOT / "docs" / "rulesets.md").read_text(encoding="utf-8")
    for field in RuleSet.rule_fields():
        assert f"`{field}`" in text, field


def test_import_does_not_need_hypothesis():
    source = (PACKAGE / "__init__.py").read_text(encoding="utf-8")
    assert "strategies" not in {
        node.module.split(".")[-1]
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom) and node.module
    }


@pytest.mark.slow
def test_the_library_and_its_commands_work_without_hypothesis():
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['hypothesis'] = None\n"
        "import qe_rules as qe\n"
        "from qe_rules.apps.cli import main\n"
        "assert qe.verify('en').ok\n"
        "assert main(['score', '--example']) == 0\n"
        "try:\n"
        "    import qe_rules.strategies\n"
        "except ImportError:\n"
        "    print('strategies need hypothesis')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("strategies need hypothesis")
