"""The PettingZoo environments (extra ``[rl]``): the public path ``qe_rules.rl``.

Everything is defined in :mod:`qe_rules.learning.pettingzoo_env` (the AEC environment) and
:mod:`qe_rules.learning.parallel_env` (the parallel one); this module re-exports their
public names so that ``import qe_rules.rl`` keeps working.
"""

from qe_rules._util.extras import require_extra

require_extra("rl", "numpy", "gymnasium", "pettingzoo")

from qe_rules.learning.parallel_env import *  # noqa: F403
from qe_rules.learning.parallel_env import __all__ as _parallel_all
from qe_rules.learning.pettingzoo_env import *  # noqa: F403
from qe_rules.learning.pettingzoo_env import __all__ as _aec_all

__all__ = [*_aec_all, *_parallel_all]
