"""The trec_eval-compatible evaluator.

Data flow one way, stage after stage, each module importing only its own stage's and earlier
ones' (:func:`.evaluate.evaluate` runs them in turn):

- shared by the stages: :mod:`.strings` holds the docnos and hashes, compares and orders
  them; :mod:`.arrow_buffers` lets numpy and pyarrow share arrays;
- read: :mod:`.source` gives a file's bytes in chunks of whole lines (a file, ``-``, gzip),
  for a run ending where the topic changes, and :mod:`.ahead` reads and splits the next chunk
  in a thread of its own while this one is used; :mod:`.tokens` splits a chunk into fields with
  numpy (numbers read as C reads them, with :mod:`irmeans.number_syntax`), :mod:`.arrow`
  with pyarrow's CSV reader for a big file; :mod:`.duplicates` finds a document judged or
  retrieved twice; :mod:`.files` makes :class:`~.files.Qrels` and :class:`~.files.Run` and
  reports a file's errors in one order; :mod:`.run_blocks` gives a run file a block of
  whole topics at a time, each checked (:class:`~.run_blocks.RunReader`);
- rank and join: :mod:`.ranking` orders each topic as trec_eval does, :mod:`.join` looks up
  the grades, block by block, into a :class:`~.ranked.Ranked` (:mod:`.ranked`);
- measure: :mod:`.table` is trec_eval's table of measures and reads ``-m``; :mod:`.measure`
  runs its kernels (:mod:`.kernels`, with :mod:`.context`, what several measures share,
  :mod:`.gains` and :mod:`.segments`, per-topic vectorised sums);
- average: :mod:`.summary` forms the ``all`` lines, each family's own average;
- print: ``irmeans eval`` (:mod:`irmeans.cli.eval_command`), which only formats.

Import from the modules (``from irmeans.trec.evaluate import evaluate``) or
from the top level (``irmeans.evaluate``); the package re-exports nothing, so
each name in it is its module.
"""

__all__: list[str] = []
