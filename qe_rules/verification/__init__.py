"""Verifying rule sets (level 4): the report model, static checks of decks and tables,
the sale search, whole-game checks, reading checks, and hypothesis strategies for users'
own property tests.

May import: ``texts``, ``present``, ``game``, ``rules`` and the foundation; not
``simulation``, its sibling.
"""
