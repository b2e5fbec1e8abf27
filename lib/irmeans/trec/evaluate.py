"""Vectorised, trec_eval-compatible evaluation of a run against qrels.

:func:`evaluate` is the evaluator's pipeline, one stage after the other: read the qrels
and the run (:mod:`.files`), rank the run and join it with the qrels (:mod:`.join`), compute
the selected measures for every topic at once (:mod:`.kernels`, chosen from the table of
:mod:`.table`), and form the ``all`` values as trec_eval forms them (means over topics, sums
for the counts, trec_eval's floored geometric mean for ``gm_map`` and ``gm_bpref``).
Printing is the command line's (:mod:`irmeans.cli`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np

from .._validation import whole_number
from ..averages import TREC_EVAL_GM
from ..errors import IrmeansError
from ..number_syntax import INT64_MAX
from .context import Context
from .files import Qrels, Run, read_qrels
from .join import Ranked, build_ranked
from .kernels import Values
from .table import BY_NAME, Selected, line_names, parse_measures

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Evaluation", "evaluate", "printed_per_topic"]

#: What :func:`evaluate` reads qrels from: :class:`~.files.Qrels`, a file, or (topics, docnos, rels) sequences.
QrelsInput: TypeAlias = Qrels | str | os.PathLike[str] | tuple[Any, ...] | list[Any]
#: What :func:`evaluate` reads a run from: :class:`~.files.Run`, a file, or (topics, docnos, scores[, runid]) sequences.
RunInput: TypeAlias = Run | str | os.PathLike[str] | tuple[Any, ...] | list[Any]
#: Per-topic values, kinds, averaging and the lines printed per topic, by line name (see :func:`_measure`).
_Measured: TypeAlias = tuple[dict[str, np.ndarray], dict[str, str], dict[str, str], list[str]]


@dataclass
class Evaluation:
    """Result of :func:`evaluate`.

    Attributes
    ----------
    topics : list of str
        Evaluated topics, in trec_eval's (strcmp) order.
    per_topic : dict of str to numpy.ndarray
        Per-topic values, one array per measure, in printing order.
    aggregates : dict of str to float, int or str
        The ``all`` values as trec_eval prints them.
    kinds : dict of str to str
        ``"long"``, ``"double"`` or ``"string"`` for each measure.
    missing : list of str
        Qrels topics without results (left out unless ``complete``).
    runid : str
    printed : list of str
        The measures ``-q`` prints for each topic, in order (trec_eval prints gm_map and
        gm_bpref only as an average).
    """

    topics: list[str]
    per_topic: dict[str, np.ndarray]
    aggregates: dict[str, float | int | str]
    kinds: dict[str, str]
    missing: list[str] = field(default_factory=list)
    runid: str = ""
    printed: list[str] = field(default_factory=list)

    def to_frame(self) -> pd.DataFrame:
        """Per-topic values as a pandas DataFrame indexed by topic (needs pandas: ``pip install irmeans[pandas]``)."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("Evaluation.to_frame needs pandas: pip install 'irmeans[pandas]'") from None

        return pd.DataFrame(self.per_topic, index=pd.Index(self.topics, name="topic"))

    def __getitem__(self, name: str) -> np.ndarray:
        return self.per_topic[name]


def _as_qrels(qrels: QrelsInput) -> Qrels:
    if isinstance(qrels, Qrels):
        return qrels
    if isinstance(qrels, (tuple, list)) and len(qrels) == 3:
        return Qrels.from_arrays(*qrels)
    return read_qrels(_path(qrels, "qrels", "a Qrels, a file, or (topics, docnos, rels) sequences"))


def _as_run(run: RunInput) -> Run | str:
    """A :class:`Run`, or a file to read as it is joined (see :func:`~.join.build_ranked`)."""
    if isinstance(run, Run):
        return run
    if isinstance(run, (tuple, list)) and len(run) in (3, 4):
        return Run.from_arrays(*run)
    return _path(run, "run", "a Run, a file, or (topics, docnos, scores[, runid]) sequences")


def _path(source: object, name: str, expected: str) -> str:
    """``source`` as a file name, or the error saying what ``name`` may be."""
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    given = f"a {type(source).__name__} of {len(source)}" if isinstance(source, (tuple, list)) else repr(source)
    raise IrmeansError(f"{name} must be {expected}; got {given:.80}")


def _is_stdin(source: object) -> bool:
    return isinstance(source, str) and source == "-"


def evaluate(
    qrels: QrelsInput,
    run: RunInput,
    *,
    relevance_level: int = 1,
    depth: int | None = None,
    complete: bool = False,
    measures: Iterable[str] | str | None = None,
    num_docs: int = 0,
) -> Evaluation:
    """Evaluate a run against qrels as trec_eval 10 does.

    Parameters
    ----------
    qrels : Qrels, path, or (topics, docnos, rels) sequences
    run : Run, path, or (topics, docnos, scores[, runid]) sequences
    relevance_level : int
        Grade from which a document counts as relevant (trec_eval ``-l``).
    depth : int or None
        Keep only the first ``depth`` documents of each ranking (``-M``); with 0,
        every ranking is empty, as in trec_eval.
    complete : bool
        Evaluate qrels topics missing from the run as empty rankings (``-c``);
        otherwise they are left out with a warning.
    measures : list of str or None
        trec_eval ``-m`` specifications (``"map"``, ``"P.5,10"``,
        ``"ndcg.1=0,2=5"``, ``"official"``); ``None`` means ``all_trec``.
    num_docs : int
        Documents in the collection (trec_eval ``-N``), used by ``utility``'s
        fourth coefficient.

    Returns
    -------
    Evaluation

    Examples
    --------
    >>> qrels = (["1", "1", "2"], ["a", "b", "c"], [1, 0, 1])
    >>> run = (["1", "1", "2", "2"], ["a", "b", "c", "d"], [2.0, 1.0, 1.0, 1.0])
    >>> ev = evaluate(qrels, run, measures=["map", "P.1"])
    >>> ev.topics, ev["map"].tolist(), ev.aggregates["P_1"]
    (['1', '2'], [1.0, 0.5], 0.5)
    """
    if depth is not None:
        depth = min(whole_number(depth, "depth", minimum=0), INT64_MAX)
    relevance_level = whole_number(relevance_level, "relevance_level")
    relevance_level = max(min(relevance_level, INT64_MAX), -INT64_MAX - 1)
    num_docs = whole_number(num_docs, "num_docs", minimum=0)
    chosen = parse_measures(measures)
    if _is_stdin(qrels) and _is_stdin(run):
        raise IrmeansError("'-' (standard input) may be given once: the qrels and the run cannot both be read from it")
    qrels, run = _as_qrels(qrels), _as_run(run)
    ranked = build_ranked(qrels, run, relevance_level=relevance_level, depth=depth, complete=complete)
    per_topic, kinds, aggs, printed = _measure_by_parts(ranked, num_docs, chosen)
    aggregates: dict[str, float | int | str] = {}
    if "runid" in chosen:
        aggregates["runid"] = ranked.runid
        kinds["runid"] = "string"
    if "num_q" in chosen:
        aggregates["num_q"] = ranked.ntopics
        kinds["num_q"] = "long"
    aggregates.update(_aggregate(per_topic, aggs, ranked.ntopics))
    if complete and "num_rel" in aggregates:
        # trec_eval's num_rel under -c: the qrels lines with a grade > 0, whatever -l is
        aggregates["num_rel"] = ranked.judged_positive
    topics = [t.decode("utf-8", "surrogateescape") for t in ranked.topics.tolist()]
    return Evaluation(topics, per_topic, aggregates, kinds, ranked.missing, ranked.runid, printed)


#: The measures are computed for about this many ranked rows at a time (whole topics): each
#: topic's values are its own, and the temporaries stay small.
_MEASURE_ROWS = 1 << 16


def _measure_by_parts(ranked: Ranked, num_docs: int, chosen: dict[str, Selected]) -> _Measured:
    """:func:`_measure` over consecutive groups of topics of about :data:`_MEASURE_ROWS` rows, put together."""
    ends = np.cumsum(ranked.num_ret)
    cuts = [0]
    while cuts[-1] < ranked.ntopics:
        done = int(ends[cuts[-1] - 1]) if cuts[-1] else 0
        cuts.append(max(cuts[-1] + 1, int(np.searchsorted(ends, done + _MEASURE_ROWS, side="right"))))
    if len(cuts) == 2:
        return _measure(Context(ranked, num_docs), chosen)
    parts = [_measure(Context(ranked.topic_slice(a, b), num_docs), chosen) for a, b in zip(cuts[:-1], cuts[1:])]
    per_topic = {name: np.concatenate([p[0][name] for p in parts]) for name in parts[0][0]}
    return per_topic, *parts[0][1:]


def _measure(context: Context, chosen: dict[str, Selected]) -> _Measured:
    """Every chosen family's per-topic values: (values, kinds, averaging, printed per topic) by line name."""
    per_topic: dict[str, np.ndarray]
    kinds: dict[str, str]
    aggs: dict[str, str]
    printed: list[str]
    per_topic, kinds, aggs, printed = {}, {}, {}, []
    # a kernel with the same parameters runs once (map and gm_map, bpref and gm_bpref)
    done: dict[tuple[Callable[..., Values], tuple[Any, ...] | None], Values] = {}
    bogus = context.r.bogus
    for name, sel in chosen.items():
        fam = BY_NAME[name]
        if fam.kernel is None:
            continue
        key = (fam.kernel, sel.params)
        if key not in done:
            done[key] = fam.kernel(context, sel.params) if sel.params is not None else fam.kernel(context)
        reset = bogus.any() and (fam.reset == "always" or (fam.reset == "plain" and sel.printable is None))
        for line, values in zip(line_names(fam, sel), done[key]):
            if reset:  # trec_eval's stand-in document for a -c topic without results does not count here
                values = np.where(bogus, "''" if fam.kind == "string" else 0, values).astype(values.dtype)
            per_topic[line] = values
            kinds[line] = fam.kind
            aggs[line] = fam.agg
            if fam.per_topic:
                printed.append(line)
    return per_topic, kinds, aggs, printed


def _aggregate(per_topic: dict[str, np.ndarray], aggs: dict[str, str], n_topics: int) -> dict[str, int | float]:
    """The ``all`` values, summed and averaged in trec_eval's order (topic by topic)."""
    out: dict[str, int | float] = {}
    for line, values in per_topic.items():
        how = aggs[line]
        if how == "sum":
            out[line] = int(values.sum())
        elif how == "mean":
            out[line] = float(np.cumsum(values)[-1] / n_topics)
        elif how == "gm":
            out[line] = float(TREC_EVAL_GM(values))
    return out


def printed_per_topic(ev: Evaluation) -> list[str]:
    """Measures trec_eval prints for each topic (all but gm_map/gm_bpref), in order."""
    return list(ev.printed)
