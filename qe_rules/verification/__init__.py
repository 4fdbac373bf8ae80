"""Verifying rule sets (level 4): the entry point (``suite``: ``verify``, ``checks``), the
report model (``report``), the static checks of decks and tables (``static``), the sale
search (``sale_search``), whole-game checks (``games``, with the games they play in
``play``), reading checks (``readings``), and hypothesis strategies for users' own property
tests (``strategies``).

May import: ``texts``, ``present``, ``game``, ``rules`` and the foundation; not
``simulation``, its sibling.
"""
