"""Vectorised, trec_eval-compatible evaluation of a run against qrels.

:func:`evaluate` ranks the run (score descending, docno descending on ties),
cuts it at ``depth``, joins it with the qrels and computes trec_eval 10's
measures for every topic at once, then the ``all`` aggregates exactly as
trec_eval forms them (means over topics, sums for the counts, a geometric
mean with a 1e-5 floor for ``gm_map`` and ``gm_bpref``).

Measure selection follows trec_eval's ``-m``: a measure family name
(``"P"``), a family with parameters (``"P.5,10"``) or a nickname
(``"official"``, ``"all_trec"``, ``"set"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._validation import whole_number
from ..errors import IrmeansError
from . import measures as m
from .files import Qrels, Run, read_qrels, read_run
from .join import build_ranked

__all__ = ["Evaluation", "evaluate", "parse_measures", "MEASURE_FAMILIES", "NICKNAMES"]


@dataclass(frozen=True)
class Family:
    """A trec_eval measure family.

    kind: ``"long"`` (printed as an integer), ``"double"`` or ``"string"``;
    agg: ``"sum"``, ``"mean"``, ``"gm"`` (geometric mean, floor 1e-5,
    summary only) or ``"none"`` (per-topic only); params: default cutoffs or
    parameters (``None`` when the family takes none); param_type: ``int`` or
    ``float``.
    """

    name: str
    func: object
    kind: str = "double"
    agg: str = "mean"
    params: tuple | None = None
    param_type: type = int


_LONG_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALL_FRACTIONS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)

# In trec_eval's printing order.
MEASURE_FAMILIES = [
    Family("runid", None, "string", "none"),
    Family("num_q", None, "long", "count"),
    Family("num_ret", m.counts, "long", "sum"),
    Family("num_rel", m.counts, "long", "sum"),
    Family("num_rel_ret", m.counts, "long", "sum"),
    Family("map", m.map_),
    Family("gm_map", m.gm_map, agg="gm"),
    Family("Rprec", m.rprec),
    Family("bpref", m.bpref),
    Family("recip_rank", m.recip_rank),
    Family("iprec_at_recall", m.iprec_at_recall, params=_RECALL_FRACTIONS, param_type=float),
    Family("P", m.P, params=_LONG_CUTS),
    Family("relstring", m.relstring, "string", "none", params=(10,)),
    Family("recall", m.recall, params=_LONG_CUTS),
    Family("infAP", m.infap),
    Family("gm_bpref", m.gm_bpref, agg="gm"),
    Family("Rprec_mult", m.rprec_mult, params=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0), param_type=float),
    Family("utility", m.utility),
    Family("11pt_avg", m.eleven_pt, params=_RECALL_FRACTIONS, param_type=float),
    Family("binG", m.bin_g),
    Family("G", m.g_measure),
    Family("ndcg", m.ndcg),
    Family("ndcg_rel", m.ndcg_rel),
    Family("Rndcg", m.rndcg),
    Family("ndcg_cut", m.ndcg_cut, params=_LONG_CUTS),
    Family("map_cut", m.map_cut, params=_LONG_CUTS),
    Family("relative_P", m.relative_P, params=_LONG_CUTS),
    Family("success", m.success, params=(1, 5, 10)),
    Family("set_P", m.sets),
    Family("set_relative_P", m.sets),
    Family("set_recall", m.sets),
    Family("set_map", m.sets),
    Family("set_F", m.sets),
    Family("num_nonrel_judged_ret", m.num_nonrel_judged_ret, "long", "sum"),
    Family("rbp", m.rbp),
    Family("rbp_resid", m.rbp_resid),
    Family("unj", m.unj, params=(5, 10, 20)),
]
_BY_NAME = {f.name: f for f in MEASURE_FAMILIES}

NICKNAMES = {
    "official": [
        "runid",
        "num_q",
        "num_ret",
        "num_rel",
        "num_rel_ret",
        "map",
        "gm_map",
        "Rprec",
        "bpref",
        "recip_rank",
        "iprec_at_recall",
        "P",
    ],
    "all_trec": [f.name for f in MEASURE_FAMILIES],
    "set": [
        "runid",
        "num_q",
        "num_ret",
        "num_rel",
        "num_rel_ret",
        "utility",
        "set_P",
        "set_recall",
        "set_relative_P",
        "set_map",
        "set_F",
    ],
}


def parse_measures(specs) -> dict:
    """Turn ``-m`` style specifications into ``{family: parameters}``.

    Parameters
    ----------
    specs : iterable of str or None
        ``None`` selects every measure (``all_trec``).

    Examples
    --------
    >>> parse_measures(["P.5,10", "map"])
    {'map': None, 'P': (5, 10)}
    >>> list(parse_measures(["official"]))[:3]
    ['runid', 'num_q', 'num_ret']
    """
    if specs is None:
        specs = ["all_trec"]
    if isinstance(specs, str):
        specs = [specs]
    chosen = {}
    for spec in specs:
        name, dot, rest = spec.partition(".")
        if name in NICKNAMES and not dot:
            for fam in NICKNAMES[name]:
                chosen.setdefault(fam, _BY_NAME[fam].params)
            continue
        if name not in _BY_NAME:
            raise IrmeansError(f"unknown measure {spec!r}")
        fam = _BY_NAME[name]
        if not dot:
            chosen[name] = fam.params
            continue
        if fam.params is None:
            raise IrmeansError(f"measure {name!r} takes no parameters (got {spec!r})")
        try:
            values = tuple(fam.param_type(v) for v in rest.split(","))
        except ValueError:
            raise IrmeansError(
                f"measure {spec!r}: parameters must be comma-separated "
                f"{'integers' if fam.param_type is int else 'numbers'}"
            ) from None
        if fam.param_type is int and any(v <= 0 for v in values) and name != "relstring":
            raise IrmeansError(f"measure {spec!r}: cutoffs must be positive")
        if fam.param_type is int and len(set(values)) != len(values):
            raise IrmeansError(f"measure {spec!r}: cutoffs must not repeat")
        if fam.param_type is int and name != "relstring":
            values = tuple(sorted(values))
        chosen[name] = values
    order = {f.name: i for i, f in enumerate(MEASURE_FAMILIES)}
    return {k: chosen[k] for k in sorted(chosen, key=order.__getitem__)}


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
    """

    topics: list
    per_topic: dict
    aggregates: dict
    kinds: dict
    missing: list = field(default_factory=list)
    runid: str = ""

    def to_frame(self):
        """Per-topic values as a pandas DataFrame indexed by topic (needs pandas: ``pip install irmeans[pandas]``)."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("Evaluation.to_frame needs pandas: pip install 'irmeans[pandas]'") from None

        return pd.DataFrame(self.per_topic, index=pd.Index(self.topics, name="topic"))

    def __getitem__(self, name):
        return self.per_topic[name]


def _as_qrels(qrels) -> Qrels:
    if isinstance(qrels, Qrels):
        return qrels
    if isinstance(qrels, (tuple, list)) and len(qrels) == 3:
        return Qrels.from_arrays(*qrels)
    return read_qrels(qrels)


def _as_run(run) -> Run:
    if isinstance(run, Run):
        return run
    if isinstance(run, (tuple, list)) and len(run) in (3, 4):
        return Run.from_arrays(*run)
    return read_run(run)


def evaluate(qrels, run, *, relevance_level=1, depth=None, complete=False, measures=None) -> Evaluation:
    """Evaluate a run against qrels as trec_eval 10 does.

    Parameters
    ----------
    qrels : Qrels, path, or (topics, docnos, rels) sequences
    run : Run, path, or (topics, docnos, scores[, runid]) sequences
    relevance_level : int
        Grade from which a document counts as relevant (trec_eval ``-l``).
    depth : int or None
        Keep only the first ``depth`` documents of each ranking (``-M``).
    complete : bool
        Evaluate qrels topics missing from the run as empty rankings (``-c``);
        otherwise they are left out with a warning.
    measures : list of str or None
        trec_eval ``-m`` specifications; ``None`` means all measures.

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
    qrels, run = _as_qrels(qrels), _as_run(run)
    if depth is not None:
        depth = whole_number(depth, "depth", minimum=1)
    relevance_level = whole_number(relevance_level, "relevance_level")
    chosen = parse_measures(measures)
    ranked = build_ranked(qrels, run, relevance_level=relevance_level, depth=depth, complete=complete)
    ctx = m.Context(ranked)
    per_topic, kinds, agg = {}, {}, {}
    done = {}
    for name, params in chosen.items():
        fam = _BY_NAME[name]
        if fam.func is None:
            continue
        key = (fam.func, params)
        if key not in done:
            done[key] = fam.func(ctx, params) if fam.params is not None else fam.func(ctx)
        values = done[key]
        names = [name] if fam.params is None else list(values)
        for n in names:
            per_topic[n] = values[n]
            kinds[n] = fam.kind
            agg[n] = fam.agg
    aggregates = {}
    nq = ranked.ntopics
    if "runid" in chosen:
        aggregates["runid"] = ranked.runid
        kinds["runid"] = "string"
    if "num_q" in chosen:
        aggregates["num_q"] = nq
        kinds["num_q"] = "long"
    for n, values in per_topic.items():
        how = agg[n]
        if how == "sum":
            aggregates[n] = int(values.sum())
        elif how == "mean":
            aggregates[n] = float(np.cumsum(values)[-1] / nq)
        elif how == "gm":
            logs = np.log(np.maximum(values, m.MIN_GEO_MEAN))
            aggregates[n] = float(np.exp(np.cumsum(logs)[-1] / nq))
    order = list(aggregates)
    order.sort(key=lambda n: _print_rank(n, per_topic))
    aggregates = {n: aggregates[n] for n in order}
    topics = [t.decode("utf-8", "replace") for t in ranked.topics.tolist()]
    return Evaluation(topics, per_topic, aggregates, kinds, ranked.missing, ranked.runid)


def _print_rank(name, per_topic):
    keys = list(per_topic)
    if name == "runid":
        return -2
    if name == "num_q":
        return -1
    return keys.index(name)


def printed_per_topic(ev: Evaluation) -> list:
    """Measures trec_eval prints for each topic (all but gm_map/gm_bpref), in order."""
    return [n for n in ev.per_topic if n not in ("gm_map", "gm_bpref")]
