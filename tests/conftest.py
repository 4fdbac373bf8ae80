"""Test configuration: two hypothesis profiles, and the verifier's reports shared by a run.

- ``default``: quick, for a developer's run of ``pytest`` (20 examples per property, and a
  quarter of a property's own count where it sets one with ``support.examples``).
- ``ci``: thorough and reproducible (100 examples per property, each property's own count in
  full, derandomized). ``.ci/run`` selects it through ``CI=true``; ``HYPOTHESIS_PROFILE=ci``
  selects it too.
"""

import os

import pytest
from hypothesis import HealthCheck, settings

import qe_rules as qe
from tests.support import THOROUGH, BuiltinReports, remembering

settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("default", max_examples=20, deadline=None)
settings.load_profile("ci" if THOROUGH else "default")

# The tests run in the plain locale, whatever the developer's is: the commands speak the
# language LANG names (a test that wants another sets it).
for _variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_variable, None)
os.environ["LANG"] = "C.UTF-8"


@pytest.fixture(scope="session")
def verify_once():
    """``qe.verify`` computing each report once per run (see ``support.remembering``)."""
    return remembering(qe.verify)


@pytest.fixture(scope="session")
def builtin_reports(verify_once):
    """The verifier's report on each built-in rule set, by id: each computed once per run,
    when first looked up."""
    return BuiltinReports(verify_once)


@pytest.fixture
def commands_verify_at_once(monkeypatch):
    """The commands (``verify``, ``docs``) get an empty report at once: for tests of what
    a command does around a report (progress, files written), not of what it reports."""

    def verify(ruleset, **_options):
        return qe.VerificationReport(qe.get_ruleset(ruleset).id, ())

    monkeypatch.setattr("qe_rules.apps.cli.verify", verify)
    monkeypatch.setattr("qe_rules.apps.pages.verify", verify)


@pytest.fixture
def commands_verify_once(monkeypatch, verify_once):
    """The commands (``verify``, ``docs``) reuse the run's reports: for tests of what a
    command does with a report, not of the verifier (``test_verify.py`` tests that)."""
    monkeypatch.setattr("qe_rules.apps.cli.verify", verify_once)
    monkeypatch.setattr("qe_rules.apps.pages.verify", verify_once)
