"""The trec_eval-compatible evaluator.

Data flow one way, stage after stage (:func:`.evaluate.evaluate` runs them in turn):

- read: :mod:`.files` reads qrels and runs (with :mod:`irmeans.number_syntax`, trec_eval's number
  syntax, and :mod:`.arrow`, pyarrow's tokeniser for big files);
- code: :mod:`.strings` stores docnos end to end and hashes and orders them;
- join: :mod:`.join` ranks the run and joins it with the qrels;
- measure: :mod:`.kernels` computes trec_eval's measures for every topic at once, with
  :mod:`.context` (what several measures share), :mod:`.gains` and :mod:`.segments`
  (per-topic vectorised sums); :mod:`.table` is trec_eval's table of measures;
- average: :mod:`.evaluate` forms the ``all`` values;
- print: ``irmeans eval`` (:mod:`.command`).

Import from the modules (``from irmeans.trec.evaluate import evaluate``) or
from the top level (``irmeans.evaluate``); the package re-exports nothing, so
each name in it is its module.
"""

__all__: list[str] = []
