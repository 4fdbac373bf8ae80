"""Hypothesis strategies for QE games (extra ``[verify]``): the public path ``qe_rules.strategies``.

Everything is defined in :mod:`qe_rules.verification.strategies`; this module re-exports its public names
so that ``import qe_rules.strategies`` keeps working.
"""

from qe_rules._util.extras import require_extra

require_extra("verify", "hypothesis")

from qe_rules.verification.strategies import *  # noqa: F403
from qe_rules.verification.strategies import __all__ as __all__
