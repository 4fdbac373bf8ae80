"""The rule-set codec for files: what a rule file that ``extends`` another means as plain
data, and what such a file holds for a rule set.

A rule file is the plain data of :meth:`~qe_rules.RuleSet.to_dict` with two more keys:
``extends`` (a base to start from) and ``inherit_interpretations`` /
``drop_interpretations`` (which of the base's interpretations to keep). :func:`merge`
turns a file's data into the complete plain data of a rule set; :func:`extension` is its
inverse for :meth:`~qe_rules.RuleSet.to_toml`. Both work on plain data only: the base is
given as a function, so the same code reads a user's file and a built-in one::

    >>> base = {"id": "b", "title": "b", "language": "de", "source": "b",
    ...         "rules": {"zero_bid_points": 2, "peeks_per_player": 1},
    ...         "provenance": {}, "interpretations": []}
    >>> own = {"id": "t", "extends": "b", "rules": {"zero_bid_points": 3}}
    >>> merged = merge(own, "t.toml", {"zero_bid_points": "points for a zero bid"},
    ...                lambda extends: base)
    >>> merged["rules"], merged["language"]
    ({'zero_bid_points': 3, 'peeks_per_player': 1}, 'de')
    >>> merged["provenance"]["zero_bid_points"]["summary"]
    'Set by t: points for a zero bid.'
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any, Final

from qe_rules.errors import shown
from qe_rules.rules.values import (
    DataError,
    check_keys,
    decode_interpretation,
    decode_list,
    decode_text,
)

__all__ = ["TOML_KEYS", "extension", "merge"]

TOML_KEYS: Final = (
    "id",
    "title",
    "language",
    "source",
    "extends",
    "inherit_interpretations",
    "drop_interpretations",
    "rules",
    "provenance",
    "interpretations",
)
"""The top-level keys of a rule file."""


def merge(
    data: Mapping[str, Any],
    origin: str,
    labels: Mapping[str, str],
    base: Callable[[Any], Mapping[str, Any]],
) -> dict[str, Any]:
    """The complete plain data of the rule file ``data`` (named ``origin``).

    ``labels`` maps each rule field to its label; ``base(extends)`` returns the plain
    data of the rule set that the file extends. A rule the file sets without citing it is
    cited to the file itself. Raises :class:`~qe_rules.rules.values.DataError` naming the
    key.
    """
    check_keys(data, "top level", TOML_KEYS, "needs a table of keys")
    own_id = decode_text(data.get("id"), "id")
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise DataError("rules", "needs a table of rule fields")
    unknown = sorted(set(rules) - set(labels))
    if unknown:
        raise DataError("rules", f"unknown rule fields {unknown}; rule fields: {', '.join(labels)}")
    provenance = data.get("provenance", {})
    if not isinstance(provenance, dict) or any(
        not isinstance(v, dict) for v in provenance.values()
    ):
        raise DataError("provenance", "needs a table per rule field, [provenance.<field>]")
    unknown = sorted(set(provenance) - set(labels))
    if unknown:
        raise DataError("provenance", f"entries for unknown rule fields {unknown}")
    interpretations = decode_list(data.get("interpretations", []), "interpretations")
    for index, entry in enumerate(interpretations):  # checked here to name the file's index
        decode_interpretation(entry, f"interpretations[{index}]", labels)
    inherit = data.get("inherit_interpretations", True)
    if type(inherit) is not bool:
        raise DataError("inherit_interpretations", "needs true or false")
    dropped = decode_list(data.get("drop_interpretations", []), "drop_interpretations")
    cited = {name: {"source": own_id, **entry} for name, entry in provenance.items()}
    extends = data.get("extends")
    if extends is None:
        if dropped:
            raise DataError("drop_interpretations", "needs extends: there is nothing to drop")
        return {
            "id": own_id,
            "title": data.get("title", own_id),
            "language": data.get("language", "en"),
            "source": data.get("source", own_id),
            "rules": rules,
            "provenance": cited,
            "interpretations": interpretations,
        }
    base_data = base(extends)
    inherited = base_data["interpretations"] if inherit else []
    codes = [i["code"] for i in inherited]
    for index, code in enumerate(dropped):
        if not isinstance(code, str) or code not in codes:
            raise DataError(
                f"drop_interpretations[{index}]",
                f"{shown(code)} is not an interpretation of {base_data['id']}: {', '.join(codes)}",
            )
    section = os.path.basename(origin)
    for name in rules:
        cited.setdefault(
            name,
            {"source": own_id, "section": section, "summary": f"Set by {own_id}: {labels[name]}."},
        )
    return {
        "id": own_id,
        "title": data.get("title", own_id),
        "language": data.get("language", base_data["language"]),
        "source": data.get("source", own_id),
        "rules": {**base_data["rules"], **rules},
        "provenance": {**base_data["provenance"], **cited},
        "interpretations": [i for i in inherited if i["code"] not in dropped] + interpretations,
    }


def extension(data: Mapping[str, Any], base_data: Mapping[str, Any]) -> dict[str, Any]:
    """What a rule file that extends ``base_data`` holds so that :func:`merge` reads it
    back to ``data``: the rules and citations that differ, and the interpretations."""
    rules = {k: v for k, v in data["rules"].items() if base_data["rules"][k] != v}
    provenance = {
        k: v for k, v in data["provenance"].items() if k in rules or base_data["provenance"][k] != v
    }
    out: dict[str, Any] = {key: data[key] for key in ("id", "title", "language", "source")}
    out["extends"] = base_data["id"]
    own = data["interpretations"]
    kept = [i for i in base_data["interpretations"] if i in own]
    if own[: len(kept)] == kept and kept:
        dropped = [i["code"] for i in base_data["interpretations"] if i not in kept]
        if dropped:
            out["drop_interpretations"] = dropped
        extra = own[len(kept) :]
    else:
        if base_data["interpretations"]:
            out["inherit_interpretations"] = False
        extra = own
    out["rules"] = rules
    if provenance:
        out["provenance"] = provenance
    if extra:
        out["interpretations"] = extra
    return out
