"""Private helpers of the foundation layer (level 0): frozen mappings, strict readers of
untrusted values, plain-text tables and TOML writing.

May import: ``qe_rules.errors``, ``qe_rules.limits``, ``qe_rules.components`` and the
standard library. Nothing here is public API.
"""
