"""What a release promises besides the code: the API reference names every public name,
every guide page is on the docs site, the README's links work on a package index, and the
package metadata is written once."""

import importlib
import re
import tomllib
from pathlib import Path

import qe_rules as qe

ROOT = Path(__file__).parents[2]
DOCS = ROOT / "docs"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]


def toctree_entries(page):
    """The entries of the toctrees of a Markdown page, as paths under its folder."""
    text = page.read_text(encoding="utf-8")
    entries = []
    for block in re.findall(r"```\{toctree\}\n(.*?)```", text, re.DOTALL):
        entries += [line for line in block.splitlines() if line and not line.startswith(":")]
    return [page.parent / f"{entry}.md" for entry in entries]


def test_the_api_reference_lists_every_public_name_once():
    listed = re.findall(r"\{py:obj\}`~?qe_rules\.(\w+)`", (DOCS / "api/index.md").read_text())
    assert sorted(listed) == sorted(set(qe.__all__) - {"__version__"})


PUBLIC_PATHS = ["batch", "rl", "gymnasium_env", "openspiel", "strategies", "svg"]


def test_every_public_path_has_its_section_listing_its_names():
    page = (DOCS / "api/paths.md").read_text(encoding="utf-8")
    sections = dict(re.findall(r"## `qe_rules\.(\w+)`\n(.*?)(?=\n## |\Z)", page, re.DOTALL))
    assert sorted(sections) == sorted(PUBLIC_PATHS)
    for path, section in sections.items():
        module = importlib.import_module(f"qe_rules.{path}")
        listed = re.findall(r"^   (\w+)$", section, re.MULTILINE)
        listed += re.findall(rf":py:data:`~qe_rules\.{path}\.(\w+)`", section)
        assert sorted(listed) == sorted(module.__all__), path


def test_the_example_rulebooks_in_german_say_so_to_the_browser():
    from qe_rules.apps.pages import page_languages  # docs/conf.py writes <html lang> by it

    assert page_languages() == {"rulebooks/de.md": "de", "rulebooks/en-early.de.md": "de"}
    assert "page_languages().get(" in (DOCS / "conf.py").read_text(encoding="utf-8")


def test_every_subpackage_has_its_page_in_the_api_reference():
    packages = sorted(p.parent.name for p in (ROOT / "qe_rules").glob("*/__init__.py"))
    pages = toctree_entries(DOCS / "api/index.md")
    for package in set(packages) - {"_util"}:  # the private helpers are the foundation's
        page = DOCS / "api" / f"{package}.md"
        assert page in pages and f"   qe_rules.{package}\n" in page.read_text(), package
    assert DOCS / "api/foundation.md" in pages


def test_every_page_of_the_guide_is_on_the_site():
    pages = {p for p in DOCS.rglob("*.md") if "_build" not in p.parts}
    on_site = {DOCS / "contents.md", *toctree_entries(DOCS / "contents.md")}
    on_site |= set(toctree_entries(DOCS / "api/index.md"))
    assert pages == on_site


def test_the_readme_links_are_absolute_and_name_the_projects_own_places():
    links = re.findall(r"\]\(([^)]*)\)", (ROOT / "README.md").read_text(encoding="utf-8"))
    places = (PROJECT["urls"]["Repository"] + "/", PROJECT["urls"]["Documentation"])
    assert links and all(link.startswith(places) for link in links), links
    for link in links:  # each names a file of the checkout or a page the site builds
        if link.startswith(PROJECT["urls"]["Documentation"]):
            page = link.removeprefix(PROJECT["urls"]["Documentation"]).partition("#")[0]
            page = page or "index.html"
            assert (DOCS / page.replace(".html", ".md")).is_file(), link
        else:
            assert (ROOT / link.split("/blob/main/")[1].partition("#")[0]).exists(), link


def test_the_version_is_written_once_in_the_package():
    assert "version" not in PROJECT and "version" in PROJECT["dynamic"]
    assert PYPROJECT["tool"]["hatch"]["version"]["path"] == "qe_rules/__init__.py"
    assert re.fullmatch(r"\d+\.\d+\.\d+(\.dev\d+|[ab]\d+|rc\d+)?", qe.__version__)


def test_the_licence_and_notice_ship_and_the_sdist_holds_what_its_tests_need():
    assert PROJECT["license"] == "MIT" and set(PROJECT["license-files"]) == {"LICENSE", "NOTICE"}
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    notice = " ".join((ROOT / "NOTICE").read_text().split())
    assert "not affiliated" in notice and "not reproduced" in notice
    included = set(PYPROJECT["tool"]["hatch"]["build"]["targets"]["sdist"]["include"])
    assert {"conftest.py", "tests", "docs", "qe_rules", "LICENSE", "NOTICE"} <= included


def test_every_python_the_project_tests_is_listed():
    classifiers = set(PROJECT["classifiers"])
    tested = re.findall(r"pyenv/versions/(3\.\d+)", (ROOT / ".ci/extras.py").read_text())
    assert tested and all(f"Programming Language :: Python :: {v}" in classifiers for v in tested)


def test_every_address_of_the_project_is_one_of_its_urls():
    """The URLs are written in pyproject.toml; the notes that repeat them follow it."""
    places = tuple(PROJECT["urls"].values())
    for name in ("README.md", "CONTRIBUTING.md", "SECURITY.md", "NOTICE"):
        text = (ROOT / name).read_text(encoding="utf-8")
        found = re.findall(r"https://(?:github\.com|[\w-]+\.readthedocs\.io)[^\s)>\"'`]*", text)
        assert all(url.startswith(places) for url in found), (name, found)
