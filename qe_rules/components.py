"""The components of QE: nations, industries and the 21 company tiles.

No rulebook lists the tiles; the table below is the component data of
``../shared/rulebooks/README.md`` (the one public digital implementation's data), which
satisfies the removal rules of every text and reproduces the rulebooks' scoring example.

>>> from qe_rules import Company, Industry, Nation
>>> tile = Company.parse("us-finance-2")
>>> tile.nation, tile.industry, tile.vp
(<Nation.US: 'US'>, <Industry.FINANCE: 'FIN'>, 2)
>>> str(tile)
'US-FIN-2'
"""

from __future__ import annotations

import enum
import re
from typing import Any, Final

import attrs

from qe_rules.errors import InvalidArgument, shown

__all__ = ["COMPANIES", "Company", "Industry", "Nation"]


class Nation(enum.Enum):
    """A nation: each player plays one; company tiles belong to one."""

    US = "US"
    EU = "EU"
    CN = "CN"
    JP = "JP"
    UK = "UK"

    # Members are singletons compared by identity; the identity hash is much faster than
    # Enum's name hash, and dictionaries keyed by nations sit on the scoring hot path.
    __hash__ = object.__hash__

    @property
    def code(self) -> str:
        """The short code used in tile codes and records, e.g. ``"US"``."""
        return self.value

    @classmethod
    def parse(cls, text: str) -> Nation:
        """Read a nation from its code (case-insensitive).

        >>> Nation.parse("jp")
        <Nation.JP: 'JP'>
        """
        if isinstance(text, str):
            found = cls.__members__.get(text.strip().upper())
            if found is not None:
                return found
        allowed = ", ".join(n.code for n in cls)
        raise InvalidArgument(f"unknown nation {shown(text)}; nations are {allowed}")


class Industry(enum.Enum):
    """An industry: every company tile has one, and so has every industry token."""

    AGRICULTURE = "AGR"
    HOUSING = "HOU"
    GOVERNMENT = "GOV"
    FINANCE = "FIN"
    MANUFACTURING = "MAN"

    __hash__ = object.__hash__  # as for Nation

    @property
    def code(self) -> str:
        """The three-letter code used in tile codes, e.g. ``"FIN"``."""
        return self.value

    @property
    def label(self) -> str:
        """The English name, e.g. ``"Finance"``."""
        return self.name.capitalize()

    @classmethod
    def parse(cls, text: str) -> Industry:
        """Read an industry from its code or its English name (case-insensitive).

        >>> Industry.parse("Manufacturing"), Industry.parse("fin")
        (<Industry.MANUFACTURING: 'MAN'>, <Industry.FINANCE: 'FIN'>)
        """
        if isinstance(text, str):
            key = text.strip().upper()
            found = cls.__members__.get(key) or _INDUSTRY_BY_CODE.get(key)
            if found is not None:
                return found
        allowed = ", ".join(f"{i.code} ({i.label})" for i in cls)
        raise InvalidArgument(f"unknown industry {shown(text)}; industries are {allowed}")


_INDUSTRY_BY_CODE: Final = {i.code: i for i in Industry}

# (nation, industry) -> victory points printed on the tile.
_TILE_VP: Final[dict[tuple[Nation, Industry], int]] = {
    (Nation.US, Industry.HOUSING): 1,
    (Nation.US, Industry.FINANCE): 2,
    (Nation.US, Industry.MANUFACTURING): 3,
    (Nation.US, Industry.AGRICULTURE): 4,
    (Nation.EU, Industry.AGRICULTURE): 1,
    (Nation.EU, Industry.HOUSING): 2,
    (Nation.EU, Industry.FINANCE): 3,
    (Nation.EU, Industry.MANUFACTURING): 4,
    (Nation.CN, Industry.MANUFACTURING): 1,
    (Nation.CN, Industry.AGRICULTURE): 2,
    (Nation.CN, Industry.HOUSING): 3,
    (Nation.CN, Industry.FINANCE): 4,
    (Nation.CN, Industry.GOVERNMENT): 4,
    (Nation.JP, Industry.FINANCE): 1,
    (Nation.JP, Industry.MANUFACTURING): 2,
    (Nation.JP, Industry.AGRICULTURE): 3,
    (Nation.JP, Industry.GOVERNMENT): 3,
    (Nation.JP, Industry.HOUSING): 4,
    (Nation.UK, Industry.GOVERNMENT): 2,
    (Nation.UK, Industry.AGRICULTURE): 3,
    (Nation.UK, Industry.FINANCE): 4,
}


def _check_tile(instance: Company, attribute: attrs.Attribute[int], vp: int) -> None:
    if not isinstance(instance.nation, Nation) or not isinstance(instance.industry, Industry):
        raise InvalidArgument(
            f"a company needs a Nation and an Industry, got {shown(instance.nation)} and "
            f"{shown(instance.industry)}"
        )
    printed = _TILE_VP.get((instance.nation, instance.industry))
    if printed is None:
        raise InvalidArgument(
            f"there is no {instance.nation.code} {instance.industry.label} tile; "
            f"{instance.nation.code} tiles are "
            + ", ".join(str(c) for c in COMPANIES if c.nation is instance.nation)
        )
    if type(vp) is not int or vp != printed:
        raise InvalidArgument(
            f"the {instance.nation.code} {instance.industry.label} tile is worth {printed} VP, "
            f"not {shown(vp)}"
        )


_CODE_SPLIT: Final = re.compile(r"[\s_-]+")

# Every tile made so far, by nation and industry: there is one object per tile.
_MADE: Final[dict[tuple[Nation, Industry], Company]] = {}


@attrs.frozen(eq=False)
class Company:
    """One of the 21 company tiles: a nation, an industry and the VP printed on it.

    Only the 21 real tiles can be made, each once: making a tile again gives the same
    object, so tiles compare and hash by identity, as nations and industries do (which
    keeps sets and dictionaries of tiles fast). ``str()`` gives the code that ``parse``
    reads.

    >>> Company(Nation.CN, Industry.GOVERNMENT, 4)
    Company('CN-GOV-4')
    >>> Company(Nation.CN, Industry.GOVERNMENT, 4) is Company.parse("CN-GOV-4")
    True
    """

    nation: Nation
    industry: Industry
    vp: int = attrs.field(validator=_check_tile)

    def __new__(cls, nation: Nation, industry: Industry, vp: int) -> Company:
        if isinstance(nation, Nation) and isinstance(industry, Industry):
            made = _MADE.get((nation, industry))
            if made is not None and type(vp) is int and vp == made.vp:
                return made  # __init__ then sets the same values again
        return super().__new__(cls)

    def __attrs_post_init__(self) -> None:
        _MADE.setdefault((self.nation, self.industry), self)  # a real tile: checked

    def __str__(self) -> str:
        return f"{self.nation.code}-{self.industry.code}-{self.vp}"

    def __repr__(self) -> str:
        return f"Company({str(self)!r})"

    @property
    def code(self) -> str:
        """The tile's code, e.g. ``"US-FIN-2"`` (the same as ``str(tile)``)."""
        return str(self)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (_tile, (str(self),))  # a pickle holds the code, and loads the shared tile

    @classmethod
    def parse(cls, text: str) -> Company:
        """Read a tile from its code: nation, industry (code or name) and optionally VP.

        Case does not matter; ``-``, ``_`` or spaces separate the parts.

        >>> Company.parse("JP-Housing-4"), Company.parse("uk gov")
        (Company('JP-HOU-4'), Company('UK-GOV-2'))
        """
        if not isinstance(text, str):
            raise InvalidArgument(f"a company code must be a string, got {shown(text)}")
        found = _BY_CODE.get(text.strip().upper())
        if found is not None:
            return found
        parts = [p for p in _CODE_SPLIT.split(text.strip()) if p]
        if len(parts) in (2, 3):
            try:
                nation = Nation.parse(parts[0])
                industry = Industry.parse(parts[1])
            except InvalidArgument:
                pass
            else:
                tile = _BY_KEY.get((nation, industry))
                if tile is not None and (len(parts) == 2 or parts[2] == str(tile.vp)):
                    return tile
        raise InvalidArgument(
            f"{shown(text)} is not one of the 21 company tiles; write a tile as NATION-INDUSTRY-VP, "
            "for example US-FIN-2 or us-finance-2"
        )


def _canonical_key(tile: Company) -> tuple[int, int, int]:
    nations = list(Nation)
    industries = list(Industry)
    return (nations.index(tile.nation), tile.vp, industries.index(tile.industry))


COMPANIES: Final[tuple[Company, ...]] = tuple(
    sorted(
        (Company(nation, industry, vp) for (nation, industry), vp in _TILE_VP.items()),
        key=_canonical_key,
    )
)
"""The 21 company tiles in canonical order (by nation, then VP, then industry)."""

_BY_KEY: Final = {(c.nation, c.industry): c for c in COMPANIES}
_BY_CODE: Final = {str(c): c for c in COMPANIES}


def _tile(code: str) -> Company:
    """The tile with this code (how a pickled tile is loaded)."""
    return _BY_CODE[code]
