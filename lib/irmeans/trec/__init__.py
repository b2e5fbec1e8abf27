"""The trec_eval-compatible evaluator.

Data flow one way: :mod:`.files` reads qrels and runs, :mod:`.join` ranks
the run and joins it with the qrels, :mod:`.measures` computes trec_eval's
measures for every topic at once (with :mod:`.segments`, the per-topic
vectorised sums), :mod:`.evaluate` holds the table of measures and forms the
``all`` averages, and :mod:`.command` is ``irmeans eval``.

Import from the modules (``from irmeans.trec.evaluate import evaluate``) or
from the top level (``irmeans.evaluate``); the package re-exports nothing, so
each name in it is its module.
"""

__all__: list[str] = []
