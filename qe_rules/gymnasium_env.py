"""The Gymnasium single-seat environment (extra ``[rl]``): the public path ``qe_rules.gymnasium_env``.

Everything is defined in :mod:`qe_rules.learning.gymnasium_env`; this module re-exports its public names
so that ``import qe_rules.gymnasium_env`` keeps working.
"""

from qe_rules._util.extras import require_extra

require_extra("rl", "numpy", "gymnasium")

from qe_rules.learning.gymnasium_env import *  # noqa: F403
from qe_rules.learning.gymnasium_env import __all__ as __all__
