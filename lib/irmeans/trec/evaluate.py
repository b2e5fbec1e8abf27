"""Vectorised, trec_eval-compatible evaluation of a run against qrels: :func:`evaluate`.

:func:`evaluate` runs the evaluator's stages one after the other: take the qrels and the run in
whatever form they are given (:mod:`.inputs`), read the run a block of whole topics at a time,
rank each block and join it with the qrels (:mod:`.join`), compute the chosen measures for every
topic (:mod:`.measure`, with the table of :mod:`.table`), and form the ``all`` lines
(:mod:`.summary`).  The :class:`Evaluation`
it returns holds every line ``irmeans eval`` prints; printing them is the command line's
(:mod:`irmeans.cli.eval_command`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from .._validation import whole_number
from ..averages import DEFAULT_EPS, Average
from ..number_syntax import INT64_MAX
from .inputs import QrelsInput, RunInput, as_qrels, as_run
from .join import build_ranked
from .measure import measure
from .summary import summarize
from .table import Kind, Selection, selected

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Evaluation", "evaluate", "QrelsInput", "RunInput"]


@dataclass
class Evaluation:
    """Result of :func:`evaluate`: every line ``irmeans eval`` prints.

    Attributes
    ----------
    topics : list of str
        Evaluated topics, in trec_eval's (strcmp) order.
    per_topic : dict of str to numpy.ndarray
        Per-topic values, one array per measure line, in printing order.
    aggregates : dict of str to float, int or str
        The ``all`` values as trec_eval prints them, then the extra lines, in printing order.
    kinds : dict of str to {"long", "double", "string"}
        How each line prints.
    missing : list of str
        Qrels topics without results (left out unless ``complete``).
    runid : str
    printed : list of str
        The lines ``-q`` prints for each topic, in order (trec_eval prints gm_map and
        gm_bpref only as an average, relstring only per topic).
    notes : dict of str to str
        Extra lines left out, with the reason (an average that is undefined on these values).
    """

    topics: list[str]
    per_topic: dict[str, np.ndarray]
    aggregates: dict[str, float | int | str]
    kinds: dict[str, Kind]
    missing: list[str] = field(default_factory=list)
    runid: str = ""
    printed: list[str] = field(default_factory=list)
    notes: dict[str, str] = field(default_factory=dict)

    def to_frame(self) -> pd.DataFrame:
        """Per-topic values as a pandas DataFrame indexed by topic (needs pandas: ``pip install irmeans[pandas]``)."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("Evaluation.to_frame needs pandas: pip install 'irmeans[pandas]'") from None

        return pd.DataFrame(self.per_topic, index=pd.Index(self.topics, name="topic"))

    def __getitem__(self, name: str) -> np.ndarray:
        return self.per_topic[name]


def evaluate(
    qrels: QrelsInput,
    run: RunInput,
    *,
    relevance_level: int = 1,
    depth: int | None = None,
    complete: bool = False,
    measures: Iterable[str] | str | Selection | None = None,
    num_docs: int = 0,
    extra: bool = False,
    eps: float = DEFAULT_EPS,
    averages: Iterable[str | Average] = (),
) -> Evaluation:
    """Evaluate a run against qrels as trec_eval 10 does.

    Parameters
    ----------
    qrels : Qrels, path, (topics, docnos, rels) sequences, DataFrame or dict of dicts
        A pandas DataFrame has ir_measures' columns ``query_id``, ``doc_id`` and ``relevance``;
        a dict of dicts is ``{query: {doc: relevance}}``, as pytrec_eval and ranx take them
        (pandas is imported only by the caller: irmeans reads the DataFrame's columns).
    run : Run, path, (topics, docnos, scores[, runid]) sequences, DataFrame or dict of dicts
        Likewise, with ``score`` for ``relevance``.
    relevance_level : int
        Grade from which a document counts as relevant (trec_eval ``-l``).
    depth : int or None
        Keep only the first ``depth`` documents of each ranking (``-M``); with 0,
        every ranking is empty, as in trec_eval.
    complete : bool
        Evaluate qrels topics missing from the run as empty rankings (``-c``);
        otherwise they are left out with a warning.
    measures : list of str, Selection or None
        trec_eval ``-m`` specifications (``"map"``, ``"P.5,10"``, ``"ndcg.1=0,2=5"``,
        ``"official"``) and the extra lines' names (``"hm_map"``); ``None`` means
        ``all_trec`` and the extra lines; or what :func:`~.table.parse_measures` made of
        them, used as it is (with its own ``extra``, ``eps`` and ``averages``).
    num_docs : int
        Documents in the collection (trec_eval ``-N``), used by ``utility``'s
        fourth coefficient.
    extra : bool
        Add the extra lines (``gm_map_add``, ``hm_map``, ``median_map``, ``logit_map``)
        whatever ``measures`` select.
    eps : float
        The extra lines' ε.
    averages : iterable of str or Average
        More averages of every measure printed per topic (``"gm:0.01"``, ``"median"``,
        :func:`irmeans.averages.parse_average`'s specs, or :class:`~irmeans.averages.Average`
        values): each gives an ``all`` line named ``NAME/SPEC`` (``ndcg_cut_10/gm:0.01``) in
        :attr:`Evaluation.aggregates`, or a note where it is undefined on the values.

    Returns
    -------
    Evaluation

    Examples
    --------
    >>> qrels = (["1", "1", "2"], ["a", "b", "c"], [1, 0, 1])
    >>> run = (["1", "1", "2", "2"], ["a", "b", "c", "d"], [2.0, 1.0, 1.0, 1.0])
    >>> ev = evaluate(qrels, run, measures=["map", "P.1", "hm_map"], eps=0.01)
    >>> ev.topics, ev["map"].tolist()
    (['1', '2'], [1.0, 0.5])
    >>> ev.aggregates["P_1"], round(ev.aggregates["hm_map"], 4)
    (0.5, 0.6678)
    """
    if depth is not None:
        depth = min(whole_number(depth, "depth", minimum=0, maximum=None), INT64_MAX)
    relevance_level = whole_number(relevance_level, "relevance_level", maximum=None)
    relevance_level = max(min(relevance_level, INT64_MAX), -INT64_MAX - 1)
    num_docs = whole_number(num_docs, "num_docs", minimum=0)
    chosen = selected(measures, extra=extra, eps=eps, averages=averages)
    ranked = build_ranked(as_qrels(qrels), as_run(run), relevance_level=relevance_level, depth=depth, complete=complete)
    per_topic = measure(ranked, chosen, num_docs)
    topics = [t.decode("utf-8", "surrogateescape") for t in ranked.topics.tolist()]
    aggregates, notes = summarize(
        per_topic,
        chosen,
        runid=ranked.runid,
        judged_positive=ranked.judged_positive if complete else None,
        topics=topics,
    )
    kinds = chosen.kinds | {name: "double" for name, _, _ in chosen.averaged}
    return Evaluation(topics, per_topic, aggregates, kinds, ranked.missing, ranked.runid, chosen.printed, notes)
