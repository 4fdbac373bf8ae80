"""Pictures of QE as SVG text: the public path ``qe_rules.svg``.

Everything is defined in :mod:`qe_rules.present.svg`; this module re-exports its public names
so that ``import qe_rules.svg`` keeps working.
"""

from qe_rules.present.svg import *  # noqa: F403
from qe_rules.present.svg import __all__ as __all__
