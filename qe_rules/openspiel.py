"""QE as an OpenSpiel game (extra ``[openspiel]``): the public path ``qe_rules.openspiel``.

Everything is defined in :mod:`qe_rules.learning.openspiel_game`; this module re-exports its public names
so that ``import qe_rules.openspiel`` keeps working.
"""

from qe_rules._util.extras import require_extra

require_extra("openspiel", "numpy", "pyspiel")

from qe_rules.learning.openspiel_game import *  # noqa: F403
from qe_rules.learning.openspiel_game import __all__ as __all__
