"""The rule model (level 1): :class:`~qe_rules.rules.model.RuleSet`, the kinds of rule
values, the rule-set codec (``extends``, spec strings) and the shipped data files.

No game logic lives here: a rule set is data with citations.
May import: the foundation (``errors``, ``limits``, ``components``, ``_util``).
"""
