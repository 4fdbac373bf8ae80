"""One game (level 2): sales, scoring, events, views, game records and the engine, the
hot path of every simulation.

May import: ``rules`` and the foundation. Pictures of games live in ``present``; the
display hooks (``_repr_svg_``) reach them through :mod:`qe_rules._util.display`.
"""
