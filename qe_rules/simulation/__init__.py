"""Many games (level 4): agents that see only their own views, simulations and their
statistics, rule-set comparisons, confidence intervals and plots.

May import: ``texts``, ``present``, ``game``, ``rules`` and the foundation; not
``verification``, its sibling.
"""
