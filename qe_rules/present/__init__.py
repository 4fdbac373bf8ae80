"""How a game looks (level 3): SVG pictures and plain-text renderers of views, sales and
results, used by the learning environments and the apps alike.

May import: ``game``, ``rules`` and the foundation; not ``texts``, its sibling.
"""
