"""``python -m qe_rules``: the ``qe-rules`` command line."""

import sys

from qe_rules.apps.cli import main

if __name__ == "__main__":
    sys.exit(main())
