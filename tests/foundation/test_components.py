"""The 21 company tiles, nations and industries."""

import copy
import pickle
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import qe_rules as qe
from qe_rules import COMPANIES, Company, Industry, Nation

# The component table of ../shared/rulebooks/README.md, written out independently.
README_TABLE = {
    "US": {1: "Housing", 2: "Finance", 3: "Manufacturing", 4: "Agriculture"},
    "CN": {1: "Manufacturing", 2: "Agriculture", 3: "Housing", 4: "Finance"},
    "JP": {1: "Finance", 2: "Manufacturing", 3: "Agriculture", 4: "Housing"},
    "EU": {1: "Agriculture", 2: "Housing", 3: "Finance", 4: "Manufacturing"},
    "UK": {2: "Government", 3: "Agriculture", 4: "Finance"},
}
README_EXTRAS = {("CN", "Government", 4), ("JP", "Government", 3)}


def test_the_21_tiles_are_the_readme_table():
    expected = {
        (nation, industry, vp)
        for nation, row in README_TABLE.items()
        for vp, industry in row.items()
    } | README_EXTRAS
    actual = {(c.nation.code, c.industry.label, c.vp) for c in COMPANIES}
    assert len(COMPANIES) == 21
    assert actual == expected


def test_canonical_order_is_by_nation_then_vp():
    nations = list(Nation)
    keys = [(nations.index(c.nation), c.vp) for c in COMPANIES]
    assert keys == sorted(keys)


@pytest.mark.parametrize("tile", COMPANIES, ids=str)
def test_code_round_trip(tile):
    assert re.fullmatch(r"(US|EU|CN|JP|UK)-(AGR|HOU|GOV|FIN|MAN)-[1-4]", str(tile))
    assert Company.parse(str(tile)) is tile
    assert Company.parse(str(tile).lower()) is tile
    full = f"{tile.nation.code}-{tile.industry.name.lower()}-{tile.vp}"
    assert Company.parse(full) is tile
    assert Company.parse(f"{tile.nation.code} {tile.industry.label}") is tile


@pytest.mark.parametrize(
    "text",
    ["US-GOV-1", "UK-FIN-2", "US-FIN-3", "XX-FIN-2", "US-FIN-2-2", "", "US", "US-FINANCIAL-2"],
)
def test_parse_rejects_non_tiles(text):
    with pytest.raises(qe.InvalidArgument, match="not one of the 21 company tiles"):
        Company.parse(text)


@given(st.text(max_size=20))
def test_parse_either_reads_a_tile_or_raises_rules_error(text):
    try:
        tile = Company.parse(text)
    except qe.RulesError:
        return
    assert tile in COMPANIES


def test_constructor_accepts_only_real_tiles():
    assert Company(Nation.UK, Industry.GOVERNMENT, 2) == Company.parse("UK-GOV-2")
    with pytest.raises(qe.InvalidArgument, match="no UK Housing tile"):
        Company(Nation.UK, Industry.HOUSING, 2)
    with pytest.raises(qe.InvalidArgument, match="worth 2 VP, not 3"):
        Company(Nation.US, Industry.FINANCE, 3)
    with pytest.raises(qe.InvalidArgument, match="worth 2 VP"):
        Company(Nation.US, Industry.FINANCE, True)


def test_tiles_are_hashable_and_compare_by_value():
    tile = Company(Nation.US, Industry.FINANCE, 2)
    assert tile == Company.parse("US-FIN-2")
    assert len({tile, Company.parse("us-fin-2")}) == 1


def test_nation_and_industry_parse():
    assert Nation.parse(" eu ") is Nation.EU
    assert Industry.parse("housing") is Industry.HOUSING
    assert Industry.parse("GOV") is Industry.GOVERNMENT
    with pytest.raises(qe.InvalidArgument, match="nations are US, EU, CN, JP, UK"):
        Nation.parse("FR")
    with pytest.raises(qe.InvalidArgument, match="industries are"):
        Industry.parse("Mining")


def test_each_tile_is_one_object():
    tile = Company.parse("US-FIN-2")
    assert Company(Nation.US, Industry.FINANCE, 2) is tile
    assert Company(nation=Nation.US, industry=Industry.FINANCE, vp=2) is tile
    assert copy.deepcopy(tile) is tile and pickle.loads(pickle.dumps(tile)) is tile
    for wrong in (True, 3, 2.0):
        with pytest.raises(qe.InvalidArgument, match="worth 2 VP"):
            Company(Nation.US, Industry.FINANCE, wrong)
    assert type(tile.vp) is int and tile.vp == 2  # a failed call leaves the tile as it was
