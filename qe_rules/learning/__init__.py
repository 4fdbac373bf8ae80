"""Learning environments (level 5): the observation encoder and the PettingZoo,
Gymnasium and OpenSpiel games (extras ``[rl]`` and ``[openspiel]``).

May import: ``simulation`` (agents), ``present``, ``game``, ``rules`` and the foundation.
Public paths: ``qe_rules.rl``, ``qe_rules.gymnasium_env``, ``qe_rules.openspiel``.
"""
