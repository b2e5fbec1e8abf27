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

import math
from dataclasses import dataclass, field

import numpy as np

from .._validation import whole_number
from ..errors import IrmeansError
from . import measures as m
from .files import Qrels, Run, read_qrels, read_run
from .join import build_ranked
from .numbers import INT64_MAX, c_float, c_int

__all__ = [
    "Evaluation",
    "evaluate",
    "parse_measures",
    "line_names",
    "printed_per_topic",
    "Family",
    "Selected",
    "MEASURE_FAMILIES",
    "NICKNAMES",
    "OTHER_FORMATS",
]


@dataclass(frozen=True)
class Family:
    """A trec_eval measure family.

    kind: ``"long"`` (printed as an integer), ``"double"`` or ``"string"``;
    agg: ``"sum"``, ``"mean"``, ``"gm"`` (geometric mean, floor 1e-5,
    summary only) or ``"none"`` (per-topic only); form: how ``name.params``
    is read, as trec_eval reads it: ``"none"`` (parameters ignored),
    ``"cut_long"`` (``P.5,10``: integer cutoffs, sorted, one line each),
    ``"cut_double"`` (``Rprec_mult.0.5,1.5``), ``"doubles"`` (``set_F.2``:
    numbers, in order, one line named ``set_F_2``) or ``"pairs"``
    (``ndcg.1=0,2=5``: ``name=value`` pairs, one line named ``ndcg_1=0,2=5``);
    params: the defaults; doc: one line for ``irmeans eval --help``.
    """

    name: str
    func: object
    kind: str = "double"
    agg: str = "mean"
    form: str = "none"
    params: tuple | None = None
    doc: str = ""


_LONG_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALL_FRACTIONS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)
_GAINS = "gains: GRADE=GAIN,... (e.g. 1=0,2=5)"

# In trec_eval's printing order (its te_trec_measures table).
MEASURE_FAMILIES = [
    Family("runid", None, "string", "none", doc="the run's tag"),
    Family("num_q", None, "long", "count", doc="number of topics evaluated"),
    Family("num_ret", m.counts, "long", "sum", doc="documents retrieved"),
    Family("num_rel", m.counts, "long", "sum", doc="relevant documents judged"),
    Family("num_rel_ret", m.counts, "long", "sum", doc="relevant documents retrieved"),
    Family("map", m.map_, doc="mean average precision"),
    Family("gm_map", m.gm_map, agg="gm", doc="geometric mean of AP (floor 1e-5)"),
    Family("Rprec", m.rprec, doc="precision after num_rel documents"),
    Family("bpref", m.bpref, doc="binary preference"),
    Family("recip_rank", m.recip_rank, doc="reciprocal rank of the first relevant document"),
    Family(
        "iprec_at_recall",
        m.iprec_at_recall,
        form="cut_double",
        params=_RECALL_FRACTIONS,
        doc="interpolated precision at recall levels",
    ),
    Family("P", m.P, form="cut_long", params=_LONG_CUTS, doc="precision at cutoffs"),
    Family(
        "relstring",
        m.relstring,
        "string",
        "none",
        form="doubles",
        params=(10.0,),
        doc="grades of the first N documents (per topic only)",
    ),
    Family("recall", m.recall, form="cut_long", params=_LONG_CUTS, doc="recall at cutoffs"),
    Family("infAP", m.infap, doc="inferred AP"),
    Family("gm_bpref", m.gm_bpref, agg="gm", doc="geometric mean of bpref"),
    Family(
        "Rprec_mult",
        m.rprec_mult,
        form="cut_double",
        params=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
        doc="precision after M x num_rel documents",
    ),
    Family(
        "utility",
        m.utility,
        form="doubles",
        params=(1.0, -1.0, 0.0, 0.0),
        doc="p1 a + p2 b + p3 c + p4 d of the contingency table (4 numbers; d needs -N)",
    ),
    Family(
        "11pt_avg",
        m.eleven_pt,
        form="doubles",
        params=_RECALL_FRACTIONS,
        doc="interpolated precision averaged over recall levels",
    ),
    Family("binG", m.bin_g, doc="binary G"),
    Family("G", m.g_measure, form="pairs", params=(), doc="normalised gain; " + _GAINS),
    Family("dcg", m.dcg, form="pairs", params=(), doc="discounted cumulative gain; " + _GAINS),
    Family("ideal_dcg", m.ideal_dcg, form="pairs", params=(), doc="DCG of the ideal ranking; " + _GAINS),
    Family("ndcg", m.ndcg, form="pairs", params=(), doc="normalised DCG; " + _GAINS),
    Family("ndcg_rel", m.ndcg_rel, form="pairs", params=(), doc="nDCG averaged over relevant documents; " + _GAINS),
    Family("Rndcg", m.rndcg, form="pairs", params=(), doc="nDCG averaged at the R levels; " + _GAINS),
    Family("ndcg_cut", m.ndcg_cut, form="cut_long", params=_LONG_CUTS, doc="nDCG at cutoffs"),
    Family("map_cut", m.map_cut, form="cut_long", params=_LONG_CUTS, doc="AP at cutoffs"),
    Family("relative_P", m.relative_P, form="cut_long", params=_LONG_CUTS, doc="precision at k over min(k, num_rel)"),
    Family("success", m.success, form="cut_long", params=(1, 5, 10), doc="a relevant document in the first k"),
    Family("set_P", m.sets, doc="precision of the retrieved set"),
    Family("set_relative_P", m.sets, doc="set precision over min(num_ret, num_rel)"),
    Family("set_recall", m.sets, doc="recall of the retrieved set"),
    Family("set_map", m.sets, doc="num_rel_ret^2 / (num_ret num_rel)"),
    Family("set_F", m.set_f, form="doubles", params=(1.0,), doc="F measure; parameter: the weight of recall"),
    Family("num_nonrel_judged_ret", m.num_nonrel_judged_ret, "long", "sum", doc="judged non-relevant retrieved"),
    Family("yaap", m.yaap, doc="yet another AP: log((1 + S) / (1 + num_rel - S))"),
    Family("rbp", m.rbp, form="pairs", params=(), doc="rank-biased precision; p=PERSISTENCE (0.9) and gains"),
    Family("rbp_resid", m.rbp_resid, form="pairs", params=(), doc="RBP residual; p=PERSISTENCE (0.9)"),
    Family("unj", m.unj, form="cut_long", params=(5, 10, 20), doc="unjudged fraction at cutoffs"),
]
_BY_NAME = {f.name: f for f in MEASURE_FAMILIES}
# trec_eval resets these (by exact name) for a -c topic without results; with parameters the name differs
_RESET_WHEN_PLAIN = {"utility", "relstring", "rbp_resid"}

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
    "all_trec": [
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
        "relstring",
        "recall",
        "unj",
        "rbp",
        "rbp_resid",
        "infAP",
        "gm_bpref",
        "utility",
        "11pt_avg",
        "ndcg",
        "relative_P",
        "Rprec_mult",
        "success",
        "map_cut",
        "ndcg_cut",
        "ndcg_rel",
        "Rndcg",
        "binG",
        "G",
        "set_P",
        "set_recall",
        "set_relative_P",
        "set_map",
        "set_F",
        "num_nonrel_judged_ret",
    ],
}

#: trec_eval measures and nicknames that need judgments irmeans does not read (preferences, qrels_jg).
OTHER_FORMATS = {
    "prefs_num_prefs_poss",
    "prefs_num_prefs_ful",
    "prefs_num_prefs_ful_ret",
    "prefs_simp",
    "prefs_pair",
    "prefs_avgjg",
    "prefs_avgjg_Rnonrel",
    "prefs_simp_ret",
    "prefs_pair_ret",
    "prefs_avgjg_ret",
    "prefs_avgjg_Rnonrel_ret",
    "prefs_simp_imp",
    "prefs_pair_imp",
    "prefs_avgjg_imp",
    "map_avgjg",
    "P_avgjg",
    "Rprec_mult_avgjg",
    "all_prefs",
    "prefs",
    "qrels_jg",
}


@dataclass(frozen=True)
class Selected:
    """A measure family chosen by ``-m``: its parameters and the suffix of its printed name."""

    params: tuple | None
    printable: str | None = None


def _numbers(spec, text, parse, what):
    values = []
    for piece in text.split(","):
        value = parse(piece)
        if value is None:
            raise IrmeansError(
                f"measure {spec!r}: {what} {piece!r} is not {'an integer' if parse is c_int else 'a number'}"
            )
        if parse is c_float and not math.isfinite(value):
            raise IrmeansError(f"measure {spec!r}: {what} {piece!r} is not a finite number")
        values.append(value)
    return values


def _parse_params(fam: Family, text: str | None, spec: str) -> Selected:
    """trec_eval's reading of ``fam.text``: the same values, the same line names, the same refusals."""
    if text is None or fam.form == "none":
        return Selected(fam.params)
    if fam.form == "cut_long":
        values = sorted(min(v, INT64_MAX) for v in _numbers(spec, text, c_int, "cutoff"))
        if values[0] <= 0:
            raise IrmeansError(f"measure {spec!r}: cutoffs must be positive")
        if len(set(values)) != len(values):
            raise IrmeansError(f"measure {spec!r}: duplicate cutoffs")
        return Selected(tuple(values))
    if fam.form == "cut_double":
        values = sorted(_numbers(spec, text, c_float, "cutoff"))
        if len(set(values)) != len(values):
            raise IrmeansError(f"measure {spec!r}: duplicate cutoffs")
        return Selected(tuple(values))
    if fam.form == "doubles":
        values = _numbers(spec, text, c_float, "parameter")
        if fam.name == "utility" and len(values) != 4:
            raise IrmeansError(f"measure {spec!r}: utility takes 4 coefficients (a, b, c, d), got {len(values)}")
        return Selected(tuple(values), text)
    # pairs: name=value,name=value (trec_eval's check: '=' and ',' alternate, ending on a value)
    last = ","
    for ch in text:
        if ch in ",=":
            if ch == last:
                last = "bad"
                break
            last = ch
    if last != "=":
        raise IrmeansError(f"measure {spec!r}: parameters must be name=value pairs separated by commas")
    pairs = []
    for piece in text.split(","):
        name, _, value = piece.partition("=")
        number = c_float(value)
        if number is None or not math.isfinite(number):
            raise IrmeansError(f"measure {spec!r}: value {value!r} of {name!r} is not a finite number")
        pairs.append((name, number))
    return Selected(tuple(pairs), text)


def parse_measures(specs) -> dict:
    """Turn ``-m`` style specifications into ``{family: Selected}``, as trec_eval 10 reads them.

    A family's parameters come from the first specification that gives it some (as in
    trec_eval); a family without parameters ignores them; nicknames (``official``,
    ``set``, ``all_trec``) select their families.

    Parameters
    ----------
    specs : iterable of str or None
        ``None`` selects ``all_trec``.

    Examples
    --------
    >>> chosen = parse_measures(["P.5,10", "map", "P.20", "ndcg.1=0,2=5"])
    >>> {name: sel.params for name, sel in chosen.items()}
    {'map': None, 'P': (5, 10), 'ndcg': (('1', 0.0), ('2', 5.0))}
    >>> list(parse_measures(["official"]))[:3]
    ['runid', 'num_q', 'num_ret']
    """
    if specs is None:
        specs = ["all_trec"]
    if isinstance(specs, str):
        specs = [specs]
    marked, texts = set(), {}
    for spec in specs:
        name, dot, rest = spec.partition(".")
        if dot:
            if not rest:
                raise IrmeansError(f"measure {spec!r}: nothing after the '.'")
            texts.setdefault(name, rest)
        if name in OTHER_FORMATS:
            raise IrmeansError(
                f"measure {name!r} needs preference or qrels_jg judgments (trec_eval -R), which irmeans does not read"
            )
        if name in NICKNAMES:
            marked.update(NICKNAMES[name])
        elif name in _BY_NAME:
            marked.add(name)
        else:
            raise IrmeansError(f"unknown measure {spec!r} (irmeans eval --help lists them)")
    out = {}
    for fam in MEASURE_FAMILIES:
        if fam.name in marked:
            out[fam.name] = _parse_params(fam, texts.get(fam.name), f"{fam.name}.{texts.get(fam.name)}")
    return out


def line_names(fam: Family, sel: Selected) -> list:
    """The names trec_eval prints for a selected family (``P_5``, ``ndcg_1=0,2=5``, ``relstring_20``).

    Examples
    --------
    >>> line_names(_BY_NAME["Rprec_mult"], Selected((0.5, 1.0)))
    ['Rprec_mult_0.50', 'Rprec_mult_1.00']
    """
    if fam.form == "cut_long":
        return [f"{fam.name}_{k}" for k in sel.params]
    if fam.form == "cut_double":
        return [f"{fam.name}_{p:3.2f}" for p in sel.params]
    return [fam.name if sel.printable is None else f"{fam.name}_{sel.printable}"]


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
    return read_run(run, check=False)  # duplicates are checked while joining


def _is_stdin(source) -> bool:
    return isinstance(source, str) and source == "-"


def _whole(value, name, minimum=None):
    """:func:`whole_number`, also for Python ints beyond a double's exact range."""
    if isinstance(value, int) and not isinstance(value, bool):
        if minimum is not None and value < minimum:
            raise IrmeansError(f"{name} must be a whole number >= {minimum}, got {value!r}")
        return value
    return whole_number(value, name, minimum=minimum)


def evaluate(qrels, run, *, relevance_level=1, depth=None, complete=False, measures=None, num_docs=0) -> Evaluation:
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
        depth = min(_whole(depth, "depth", minimum=0), INT64_MAX)
    relevance_level = _whole(relevance_level, "relevance_level")
    relevance_level = max(min(relevance_level, INT64_MAX), -INT64_MAX - 1)
    num_docs = _whole(num_docs, "num_docs", minimum=0)
    chosen = parse_measures(measures)
    if _is_stdin(qrels) and _is_stdin(run):
        raise IrmeansError("'-' (standard input) may be given once: the qrels and the run cannot both be read from it")
    # a run read here is only evaluated: its arrays are released as the join is done with them
    consume = not isinstance(run, Run)
    qrels, run = _as_qrels(qrels), _as_run(run)
    ranked = build_ranked(qrels, run, relevance_level=relevance_level, depth=depth, complete=complete, consume=consume)
    del run
    ctx = m.Context(ranked, num_docs)
    per_topic, kinds, agg = {}, {}, {}
    done = {}
    for name, sel in chosen.items():
        fam = _BY_NAME[name]
        if fam.func is None:
            continue
        key = (fam.func, sel.params)
        if key not in done:
            if name in _RESET_WHEN_PLAIN and sel.printable is not None:
                done[key] = fam.func(ctx, sel.params, clear=False)
            else:
                done[key] = fam.func(ctx, sel.params) if sel.params is not None else fam.func(ctx)
        values = done[key]
        if isinstance(values, dict):
            values = values[name]
        names = line_names(fam, sel)
        for n, v in zip(names, values if isinstance(values, list) else [values]):
            per_topic[n] = v
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
    if complete and "num_rel" in aggregates:
        # trec_eval's num_rel under -c: the qrels lines with a grade > 0, whatever -l is
        aggregates["num_rel"] = ranked.judged_positive
    topics = [t.decode("utf-8", "surrogateescape") for t in ranked.topics.tolist()]
    return Evaluation(topics, per_topic, aggregates, kinds, ranked.missing, ranked.runid)


def printed_per_topic(ev: Evaluation) -> list:
    """Measures trec_eval prints for each topic (all but gm_map/gm_bpref), in order."""
    return [n for n in ev.per_topic if n not in ("gm_map", "gm_bpref")]
