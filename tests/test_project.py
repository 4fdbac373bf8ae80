"""Project hygiene: public API, module order, docs coverage."""

import ast
import importlib
import importlib.util
import inspect
import pathlib

import qe_rules as qe
from qe_rules import RuleSet

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "qe_rules"

# The order data flows in; a module may import only from modules before it.
MODULE_ORDER = [
    "errors",
    "limits",
    "intervals",
    "_text",
    "_reading",
    "_frozen",
    "_toml",
    "components",
    "rulevalues",
    "datafiles",
    "rulecodec",
    "rulesets",
    "scoring",
    "sales",
    "events",
    "views",
    "svg",
    "records",
    "engine",
    "diffs",
    "discrepancies",
    "questions",
    "glossary",
    "reports",
    "verify",
    "agents",
    "encode",
    "simulate",
    "plot",
    "terminal",
    "rl",
    "gymnasium_env",
    "openspiel",
    "strategies",
    "web",
    "cli",
    "__main__",
]


def test_every_module_is_in_the_order():
    modules = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__"}
    assert modules <= set(MODULE_ORDER)
    assert {"errors", "components", "rulesets", "scoring", "engine", "cli"} <= modules


# Display hooks may load the picture module when first called, as chess.Board._repr_svg_
# loads chess.svg: the classes come before svg, and svg draws them.
DISPLAY_HOOKS = {"_repr_svg_", "_repr_html_"}


def _display_imports(tree):
    """The import nodes inside display hooks that load qe_rules.svg."""
    allowed = set()
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef) and function.name in DISPLAY_HOOKS:
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom) and (
                    node.module == "qe_rules.svg"
                    or (node.module == "qe_rules" and [a.name for a in node.names] == ["svg"])
                ):
                    allowed.add(id(node))
    return allowed


def test_modules_import_only_from_earlier_modules():
    for position, name in enumerate(MODULE_ORDER):
        path = PACKAGE / f"{name}.py"
        if not path.exists():
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        hooks = _display_imports(tree)
        for node in ast.walk(tree):
            if id(node) in hooks:
                continue
            if isinstance(node, ast.ImportFrom) and node.module == "qe_rules":
                for alias in node.names:  # from qe_rules import <module>
                    assert alias.name in MODULE_ORDER[:position], f"{name} imports {alias.name}"
            elif (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("qe_rules.")
            ):
                imported = node.module.split(".")[1]
                assert imported in MODULE_ORDER[:position], f"{name} imports {node.module}"
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert not alias.name.startswith("qe_rules"), f"{name} imports {alias.name}"


def test_public_names_exist_and_have_docstrings():
    for name in qe.__all__:
        obj = getattr(qe, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert obj.__doc__ and obj.__doc__.strip(), name
    assert len(set(qe.__all__)) == len(qe.__all__)


# Modules that need an optional package beyond the dev extra, by the package they need.
EXTRA_MODULES = {"openspiel": "pyspiel"}


def test_each_module_all_lists_defined_names():
    for name in MODULE_ORDER:
        if not (PACKAGE / f"{name}.py").exists():
            continue
        needs = EXTRA_MODULES.get(name)
        if needs and importlib.util.find_spec(needs) is None:
            continue  # the openspiel extra is not installed; tests/test_openspiel.py skips
        module = importlib.import_module(f"qe_rules.{name}")
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


def test_the_library_and_its_commands_work_without_hypothesis():
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['hypothesis'] = None\n"
        "import qe_rules as qe\n"
        "from qe_rules.cli import main\n"
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
