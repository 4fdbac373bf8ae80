"""The batched engine (extra ``[batch]``: numpy and numba): many games played in lockstep
as arrays.

Its modules: :mod:`~qe_rules.simulation.batch.compiled` (a rule set as numbers and
tables), :mod:`~qe_rules.simulation.batch.lockstep` (the games, sale by sale, and their
randomness), :mod:`~qe_rules.simulation.batch.knowledge` (what each seat knows, for
agents that read it), :mod:`~qe_rules.simulation.batch.agents` (the batched agents),
:mod:`~qe_rules.simulation.batch.chunks` (chunks played one after another, records),
:mod:`~qe_rules.simulation.batch.outcome` (``play`` and its :class:`Batch`),
:mod:`~qe_rules.simulation.batch.loops` (the loops numba compiles),
:mod:`~qe_rules.simulation.batch.settling` (a sale's bids compared and its ties settled),
:mod:`~qe_rules.simulation.batch.buffers` (arrays kept to write in again),
:mod:`~qe_rules.simulation.batch.tally` (the sums ``simulate`` and ``compare`` report)
and :mod:`~qe_rules.simulation.batch.choice` (which engine plays a run; no numpy). The
public path is :mod:`qe_rules.batch`.
"""
