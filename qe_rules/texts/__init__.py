"""Reconciling the rulebooks (level 3): rule-set diffs, the discrepancy register, the
open questions, the German-English glossary and text reports of rule sets.

May import: ``game``, ``rules`` and the foundation; not ``present``, its sibling.
"""
