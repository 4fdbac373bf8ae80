"""Every generated documentation page: what ``qe-rules docs`` writes into ``docs/``.

Each page is made from the library's data and results; ``qe-rules docs --check`` fails
when a page in the repository differs from what this module makes.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, Final

from qe_rules.limits import MAX_TIES_BEFORE_FALLBACK
from qe_rules.rules.files import data_file, read_data, read_text
from qe_rules.rules.model import RULESETS
from qe_rules.simulation.comparison import compare
from qe_rules.simulation.intervals import Share
from qe_rules.texts import reports
from qe_rules.texts.discrepancies import get_discrepancy
from qe_rules.texts.questions import (
    MEASURED_FILE,
    OpenQuestion,
    measured_shares,
    measurement_places,
    open_questions,
    readings_to_measure,
)
from qe_rules.texts.reports import GENERATED_NOTE
from qe_rules.texts.rulebooks import rulebook
from qe_rules.verification.readings import READING_GAMES
from qe_rules.verification.report import Coverage, VerificationReport
from qe_rules.verification.sale_search import (
    CANDIDATES_PER_PATH,
    SALE_SEARCH_PATHS,
    THOROUGH_SALE_SEARCH_PATHS,
)
from qe_rules.verification.suite import verify

__all__ = [
    "EXAMPLE_RULEBOOKS",
    "example_rulebook",
    "generated_pages",
    "measure_open_questions",
    "open_questions_markdown",
    "page_languages",
    "page_makers",
    "verification_markdown",
]


def page_makers() -> dict[str, Callable[[], str]]:
    """How to make each generated page, by path relative to ``docs/``."""
    makers: dict[str, Callable[[], str]] = {"reconciliation.md": reports.reconciliation_markdown}
    for ruleset in RULESETS.values():
        makers[f"rulesets/{ruleset.id}.md"] = functools.partial(reports.ruleset_markdown, ruleset)
    makers["verification.md"] = lambda: verification_markdown(
        [verify(r) for r in RULESETS.values()]
    )
    makers["open-questions.md"] = open_questions_markdown
    for name, book, lang, against in EXAMPLE_RULEBOOKS:
        makers[f"rulebooks/{name}.md"] = functools.partial(example_rulebook, book, lang, against)
    return makers


EXAMPLE_RULEBOOKS: Final[tuple[tuple[str, str, str, str | None], ...]] = (
    ("en", "en", "en", None),
    ("de", "de", "de", None),
    ("en-early.de", "en-early", "de", "en"),
)
"""The example rulebooks under ``docs/rulebooks/``: page name, rule set, language and
the base whose differences are marked."""


def page_languages() -> dict[str, str]:
    """The language of each generated page not in English, by path relative to
    ``docs/`` (the docs site writes it in the page's ``<html lang>``)."""
    return {
        f"rulebooks/{name}.md": lang
        for name, _book, lang, _against in EXAMPLE_RULEBOOKS
        if lang != "en"
    }


def example_rulebook(ruleset: str, lang: str, against: str | None) -> str:
    """An example rulebook page: the rulebook with citations, the generated-page note
    under its title."""
    title, rest = (
        rulebook(ruleset, lang=lang, against=against, cite=True).to_markdown().split("\n", 1)
    )
    return f"{title}\n\n{GENERATED_NOTE}\n{rest}"


def generated_pages() -> dict[str, str]:
    """Every generated documentation page, by path relative to ``docs/``."""
    return {name: make() for name, make in page_makers().items()}


def measure_open_questions(
    games: int, *, seed: int = 0, players: int = 4, keep: bool = False
) -> dict[str, Any]:
    """The data of ``qe_rules/data/open-questions-measured.toml``: for every reading of
    every open question (see :func:`qe_rules.texts.questions.readings_to_measure`, each
    at its base and player count) and for random and value agents, how many of ``games``
    games change their winner when played under that reading instead of the base rule
    set's (``compare(..., play="each")``). ``players`` is the file's default player
    count. With ``keep`` a reading already in the file is kept as it is (with its own
    number of games), and only the others are played, ``games`` each."""
    known = measured_shares() if keep else {}
    fresh = games
    readings = []
    for question, base, value, at in readings_to_measure():
        other = question.spec(base, value)
        reading = other.split("=", 1)[1]
        for agents in ("random", "value"):
            found = known.get((question.field, base, reading, agents, at))
            if found is not None:
                changed, played_games = found["changed"], found["games"]
            else:
                played = compare([base, other], at, agents, fresh, seed=seed, play="each")
                changed, played_games = played.winner_changed[1].count, fresh
            readings.append(
                {
                    "field": question.field,
                    "base": base,
                    "reading": reading,
                    "agents": agents,
                    "players": at,
                    "games": played_games,
                    "changed": changed,
                }
            )
    return {"players": players, "games": games, "seed": seed, "readings": readings}


def _reading_text(question: OpenQuestion, value: Any) -> str:
    return question.spec("x", value).split("=", 1)[1]


def open_questions_markdown() -> str:
    """``docs/open-questions.md``: every open question, what each text says, the
    readings, the built-ins' choices and the measured shares of changed winners."""
    measured = measured_shares()
    header = {**_measure_meta()}
    lines = [
        "# Open questions",
        "",
        "<!-- Generated by `qe-rules docs`; the shares by `qe-rules docs --measure`. "
        "Do not edit. -->",
        "",
        "Every place where a QE text allows more than one reading is a *switch*: a rule "
        "field with every reading implemented. `qe.open_questions()` lists them; a spec "
        "string such as `en:tie_streak=same-players` plays another reading "
        "(`qe.get_ruleset`, every command), `qe.verify` shows where a reading changes an "
        'outcome, and `qe.compare([...], play="each")` measures how often.',
        "",
        "Each value of a switch is a reading that a text supports, cited with the text's "
        "id and section, or a *house rule*: a value no text suggests, kept for tables that "
        "want it and labelled so (a variant taking it cites the basis `house-rule`). "
        "Fields whose rule every text states are no switches; their other values are "
        "house rules only.",
        "",
        f"The shares: {header['games']} games per reading and agent kind (or as many as "
        "the last column says), at the player "
        f"count in the table ({header['players']} unless the readings differ only at "
        "another), the same setups and agent seeds under both readings "
        '(`compare(..., play="each")`, seed '
        f"{header['seed']}); the share of games whose winner changes against the base "
        "rule set, with its 95% Wilson interval.",
        "",
    ]
    for question in open_questions():
        lines += [f"## `{question.field}`", "", question.question, ""]
        lines += ["| reading | supported by |", "|---|---|"]
        for reading in question.readings:
            lines.append(
                f"| `{_reading_text(question, reading.value)}` | {reading.source} "
                f"§{reading.section}: {reading.note} |"
            )
        for value in question.house_rules:
            lines.append(f"| `{_reading_text(question, value)}` | house rule: no text |")
        lines += ["", "| rule set | reading | basis | citation |", "|---|---|---|---|"]
        for rid, choice in question.choices.items():
            cite = choice.provenance
            lines.append(
                f"| `{rid}` | `{_reading_text(question, choice.value)}` | {cite.basis.value} "
                f"| {cite.source} §{cite.section}: {cite.summary} |"
            )
        lines.append("")
        for entry_id in question.register:
            entry = get_discrepancy(entry_id)
            lines += [f"What the texts say (register entry `{entry_id}`):", ""]
            lines += [f"- {r.source} §{r.section}: {r.says}" for r in entry.readings]
            lines.append("")
        rows = []
        for base, players in measurement_places(question):
            for value in question.values:
                if value == question.choices[base].value:
                    continue
                text = _reading_text(question, value)
                label = f"`{base}` → `{text}`"
                if question.is_house_rule(value):
                    label += " (house rule)"
                for agents in ("random", "value"):
                    found = measured.get((question.field, base, text, agents, players))
                    if found is None:
                        rows.append(f"| {label} | {players} | {agents} | not measured |")
                        continue
                    share = Share(found["changed"], found["games"])
                    low, high = share.ci95
                    rows.append(
                        f"| {label} | {players} | {agents} | {share.value:.2%} "
                        f"[{low:.2%}, {high:.2%}] ({share.count} of {share.total}) |"
                    )
        lines += [
            "| reading | players | agents | winner changed |",
            "|---|---|---|---|",
            *rows,
            "",
        ]
    return "\n".join(lines).rstrip() + "\n"


def _measure_meta() -> dict[str, Any]:
    data = read_data(MEASURED_FILE)
    return {key: data.get(key, "?") for key in ("players", "games", "seed")}


def verification_markdown(reports: Sequence[VerificationReport]) -> str:
    """``docs/verification.md``: the reports of the built-in rule sets, and how to read
    them."""
    lines = [
        "# Verification of the built-in rule sets",
        "",
        GENERATED_NOTE,
        "",
        "`qe.verify(ruleset)` (or `qe-rules verify ID`) searches a rule set for the places "
        "where its text decides nothing. Each finding *holds*, is a *gap* (the rules leave "
        "the situation open; an example shows it) or is *violated* (the rule set "
        "contradicts itself, or a property breaks). A gap that the rule set's "
        "interpretations acknowledge is *acknowledged*: the library has chosen a reading "
        "and documents it. Any other gap is *new*, and makes `qe-rules verify` exit with "
        "status 1, so a translator can run it in CI on a TOML file. `qe-rules verify "
        "--texts` checks the rulebooks written from rule sets instead: every rule stated, "
        "nothing contradicted, every citation the rule set's own (see "
        "[Rulebooks](rulebooks.md#checking-the-texts)).",
        "",
        "The checks: `deck-size`, `deck-nations`, `deck-industries` (the deck matches the "
        "text); `table-coverage` (every scoring table covers every count a player can "
        "reach); `sale-outcomes` (a complete search of one sale by the order type of its "
        "bids, every tie and rebid path, every player count: see below); `last-tile` (the "
        "auctioneer-less last tile, by the same search); `one-winner` "
        "(scripted games, fewest players first, searched for games without a single "
        "winner); `zero-bid-limit` and `score-sums` (properties over random games); "
        f"`reading:<field>` (each other reading of each open question, in {READING_GAMES} "
        "games of small random bids per player count: *differs* when it changes an award, "
        "a price, a zero-bid scoring, the scores or the winner; see "
        "[Open questions](open-questions.md)).",
        "",
        "Examples are concrete: a game example is a game record (`qe.replay` accepts it; "
        "the JSON report holds it), a scoring example is a score file for `qe-rules score`.",
        "",
        "Each finding says how far its check searched (the *search* column; "
        "`Finding.coverage` in Python, `coverage` in the JSON report): *exhaustive* is a "
        "proof within the stated bounds; *sampled* names the sample size. The deck and "
        "table checks read the rule data and are exhaustive; the sale search is "
        "exhaustive unless its bound on paths cut it; `one-winner`, the property checks "
        "and the readings are sampled.",
        "",
        *_sale_search_method(),
        *_search_counts(reports),
    ]
    for report in reports:
        lines.append(report.to_markdown())
    return "\n".join(lines).rstrip() + "\n"


def _search_counts(reports: Sequence[VerificationReport]) -> list[str]:
    """A table of the paths the sale search settled, per rule set and player count."""
    lines = [
        "| rule set | players | sale paths | last-tile paths | exhaustive |",
        "|---|---|---|---|---|",
    ]
    for report in reports:
        rows: dict[int, dict[str, Coverage]] = {}
        for finding in report.findings:
            if finding.check in ("sale-outcomes", "last-tile") and finding.coverage:
                assert finding.players is not None
                rows.setdefault(finding.players, {})[finding.check] = finding.coverage
        for players, found in sorted(rows.items()):
            sale, last = found.get("sale-outcomes"), found.get("last-tile")
            exhaustive = all(c.exhaustive for c in found.values())
            lines.append(
                f"| `{report.ruleset}` | {players} | {sale.size if sale else ''} | "
                f"{last.size if last else ''} | {'yes' if exhaustive else 'no'} |"
            )
    return [*lines, ""]


SALE_SEARCH_METHOD: Final = "verification-method.md"
"""The argument for the complete sale search, a section of ``docs/verification.md``: a
Markdown file in the package's data folder (``qe_rules/data/``), so that an installed
package makes the page too. Its paragraphs may wrap; ``{NAME}`` fields (with Python's
format specs) take the values of the search's bounds."""


def _sale_search_method() -> list[str]:
    """The lines of :data:`SALE_SEARCH_METHOD`: one line per paragraph, each followed by an
    empty line, with the bounds filled in."""
    text = read_text(data_file(SALE_SEARCH_METHOD)).format(
        MAX_TIES_BEFORE_FALLBACK=MAX_TIES_BEFORE_FALLBACK,
        CANDIDATES_PER_PATH=CANDIDATES_PER_PATH,
        SALE_SEARCH_PATHS=SALE_SEARCH_PATHS,
        THOROUGH_SALE_SEARCH_PATHS=THOROUGH_SALE_SEARCH_PATHS,
    )
    lines = []
    for paragraph in text.strip().split("\n\n"):
        lines += [" ".join(line.strip() for line in paragraph.splitlines()), ""]
    return lines
