"""Programs built on the library (level 6): the command line, the generated docs pages,
the terminal game and the web table (extra ``[web]``).

May import: every layer below.
"""
