"""A pytest plugin for the mutation runs of ``bench/mutation.py`` (``-p mutation_plugin``).

A property that fails on a mutant has caught it: hypothesis need not shrink the example
nor store it, which can take longer than the test itself and would make the mutant time
out. Loaded after ``tests/conftest.py`` has chosen its profile, so the numbers of examples
stay that profile's.
"""

from hypothesis import Phase, settings


def pytest_configure(config):
    settings.register_profile(
        "mutation",
        settings(
            settings.default,
            phases=(Phase.explicit, Phase.reuse, Phase.generate),
            database=None,
        ),
    )
    settings.load_profile("mutation")
