"""Test configuration: two hypothesis profiles.

- ``default``: quick, for a developer's run of ``pytest`` (25 examples per property, and a
  quarter of a property's own count where it sets one with ``support.examples``).
- ``ci``: thorough and reproducible (100 examples per property, each property's own count in
  full, derandomized). ``.ci/run`` selects it through ``CI=true``; ``HYPOTHESIS_PROFILE=ci``
  selects it too.
"""

from hypothesis import HealthCheck, settings
from support import THOROUGH

settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("default", max_examples=25, deadline=None)
settings.load_profile("ci" if THOROUGH else "default")
