"""The PettingZoo environment (extra ``[rl]``): the public path ``qe_rules.rl``.

Everything is defined in :mod:`qe_rules.learning.pettingzoo_env`; this module re-exports its public names
so that ``import qe_rules.rl`` keeps working.
"""

from qe_rules.learning.pettingzoo_env import *  # noqa: F403
from qe_rules.learning.pettingzoo_env import __all__ as __all__
