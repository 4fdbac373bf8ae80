"""The batched engine (extra ``[batch]``: numpy): many games played in lockstep as arrays.

Its modules: :mod:`~qe_rules.simulation.batch.compiled` (a rule set as numbers and
tables), :mod:`~qe_rules.simulation.batch.lockstep` (the games, sale by sale),
:mod:`~qe_rules.simulation.batch.policies` (the batched agents) and
:mod:`~qe_rules.simulation.batch.outcome` (``play`` and its :class:`Batch`). The public
path is :mod:`qe_rules.batch`.
"""
