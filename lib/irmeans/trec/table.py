"""trec_eval's table of measures: every family the evaluator knows, and how ``-m`` selects them.

:data:`MEASURE_FAMILIES` holds one :class:`Family` per trec_eval measure family, in
trec_eval's printing order (its ``te_trec_measures`` table): its kernel, how it prints, how
it is averaged, how its parameters are read and what it does for a topic without results.
:func:`parse_measures` reads ``-m`` specifications as trec_eval 10 reads them, and
:func:`line_names` gives the names trec_eval prints.

>>> sel = parse_measures(["P.5,10", "official"])["P"]
>>> line_names(BY_NAME["P"], sel)
['P_5', 'P_10']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..errors import IrmeansError
from ..measures import STANDARD_RECALL_LEVELS
from ..number_syntax import INT64_MAX, c_float, c_int
from . import kernels as k

__all__ = [
    "Family",
    "Selected",
    "MEASURE_FAMILIES",
    "BY_NAME",
    "NICKNAMES",
    "OTHER_FORMATS",
    "parse_measures",
    "line_names",
]


@dataclass(frozen=True)
class Family:
    """A trec_eval measure family.

    Everything the evaluator knows of a family is here, as in trec_eval's table of
    measures: how its values are computed, printed, averaged and read from ``-m``.

    Attributes
    ----------
    name : str
        trec_eval's name.
    kernel : callable or None
        ``kernel(context, params)``, the family's values (:mod:`.kernels`); None for
        ``runid`` and ``num_q``, which are not per-topic measures.
    kind : {"long", "double", "string"}
        Printed as an integer, with ``--digits`` decimals, or as it is.
    agg : {"sum", "mean", "gm", "none", "count"}
        The ``all`` value: a sum or a mean over topics, trec_eval's geometric mean
        (:data:`irmeans.averages.TREC_EVAL_GM`, a floor of 1e-5), none (per-topic only),
        or the number of topics.
    form : {"none", "cut_long", "cut_double", "doubles", "pairs"}
        How ``name.params`` is read, as trec_eval reads it: parameters ignored,
        ``P.5,10`` (integer cutoffs, sorted, one line each), ``Rprec_mult.0.5,1.5``,
        ``set_F.2`` (numbers, in order, one line named ``set_F_2``) or
        ``ndcg.1=0,2=5`` (``name=value`` pairs, one line named ``ndcg_1=0,2=5``).
    params : tuple or None
        The default parameters.
    doc : str
        One line for ``irmeans eval --help``.
    reset : {"never", "plain", "always"}
        Whether a topic evaluated under ``-c`` without results (trec_eval's ranking of
        one unjudged stand-in document) gets 0 (``''`` for a string) instead of the
        stand-in's value: never; only under the plain name (``utility``, not
        ``utility.1,-2,0,0``: trec_eval resets by exact name); or always.
    per_topic : bool
        Whether ``-q`` prints the family's value for each topic (not for gm_map and
        gm_bpref, which trec_eval prints only as an average).
    """

    name: str
    kernel: Callable[..., k.Values] | None
    kind: str = "double"
    agg: str = "mean"
    form: str = "none"
    params: tuple[Any, ...] | None = None
    doc: str = ""
    reset: str = "never"
    per_topic: bool = True


_LONG_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALL_FRACTIONS = tuple(STANDARD_RECALL_LEVELS.tolist())
_GAINS = "gains: GRADE=GAIN,... (e.g. 1=0,2=5)"

# In trec_eval's printing order (its te_trec_measures table).
MEASURE_FAMILIES = [
    Family("runid", None, "string", "none", doc="the run's tag"),
    Family("num_q", None, "long", "count", doc="number of topics evaluated"),
    Family("num_ret", k.calc_num_ret, "long", "sum", doc="documents retrieved", reset="always"),
    Family("num_rel", k.calc_num_rel, "long", "sum", doc="relevant documents judged"),
    Family("num_rel_ret", k.calc_num_rel_ret, "long", "sum", doc="relevant documents retrieved"),
    Family("map", k.calc_map, doc="mean average precision"),
    Family("gm_map", k.calc_map, agg="gm", doc="geometric mean of AP (floor 1e-5)", per_topic=False),
    Family("Rprec", k.calc_rprec, doc="precision after num_rel documents"),
    Family("bpref", k.calc_bpref, doc="binary preference"),
    Family("recip_rank", k.calc_recip_rank, doc="reciprocal rank of the first relevant document"),
    Family(
        "iprec_at_recall",
        k.calc_iprec_at_recall,
        form="cut_double",
        params=_RECALL_FRACTIONS,
        doc="interpolated precision at recall levels",
    ),
    Family("P", k.calc_P, form="cut_long", params=_LONG_CUTS, doc="precision at cutoffs"),
    Family(
        "relstring",
        k.calc_relstring,
        "string",
        "none",
        form="doubles",
        params=(10.0,),
        doc="grades of the first N documents (per topic only)",
        reset="plain",
    ),
    Family("recall", k.calc_recall, form="cut_long", params=_LONG_CUTS, doc="recall at cutoffs"),
    Family("infAP", k.calc_infAP, doc="inferred AP"),
    Family("gm_bpref", k.calc_bpref, agg="gm", doc="geometric mean of bpref", per_topic=False),
    Family(
        "Rprec_mult",
        k.calc_Rprec_mult,
        form="cut_double",
        params=(0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0),
        doc="precision after M x num_rel documents",
    ),
    Family(
        "utility",
        k.calc_utility,
        form="doubles",
        params=(1.0, -1.0, 0.0, 0.0),
        doc="p1 a + p2 b + p3 c + p4 d of the contingency table (4 numbers; d needs -N)",
        reset="plain",
    ),
    Family(
        "11pt_avg",
        k.calc_11pt_avg,
        form="doubles",
        params=_RECALL_FRACTIONS,
        doc="interpolated precision averaged over recall levels",
    ),
    Family("binG", k.calc_binG, doc="binary G"),
    Family("G", k.calc_G, form="pairs", params=(), doc="normalised gain; " + _GAINS),
    Family("dcg", k.calc_dcg, form="pairs", params=(), doc="discounted cumulative gain; " + _GAINS),
    Family("ideal_dcg", k.calc_ideal_dcg, form="pairs", params=(), doc="DCG of the ideal ranking; " + _GAINS),
    Family("ndcg", k.calc_ndcg, form="pairs", params=(), doc="normalised DCG; " + _GAINS),
    Family(
        "ndcg_rel", k.calc_ndcg_rel, form="pairs", params=(), doc="nDCG averaged over relevant documents; " + _GAINS
    ),
    Family("Rndcg", k.calc_Rndcg, form="pairs", params=(), doc="nDCG averaged at the R levels; " + _GAINS),
    Family("ndcg_cut", k.calc_ndcg_cut, form="cut_long", params=_LONG_CUTS, doc="nDCG at cutoffs"),
    Family("map_cut", k.calc_map_cut, form="cut_long", params=_LONG_CUTS, doc="AP at cutoffs"),
    Family(
        "relative_P", k.calc_relative_P, form="cut_long", params=_LONG_CUTS, doc="precision at k over min(k, num_rel)"
    ),
    Family("success", k.calc_success, form="cut_long", params=(1, 5, 10), doc="a relevant document in the first k"),
    Family("set_P", k.calc_set_P, doc="precision of the retrieved set"),
    Family("set_relative_P", k.calc_set_relative_P, doc="set precision over min(num_ret, num_rel)"),
    Family("set_recall", k.calc_set_recall, doc="recall of the retrieved set"),
    Family("set_map", k.calc_set_map, doc="num_rel_ret^2 / (num_ret num_rel)"),
    Family("set_F", k.calc_set_F, form="doubles", params=(1.0,), doc="F measure; parameter: the weight of recall"),
    Family("num_nonrel_judged_ret", k.calc_num_nonrel_judged_ret, "long", "sum", doc="judged non-relevant retrieved"),
    Family("yaap", k.calc_yaap, doc="yet another AP: log((1 + S) / (1 + num_rel - S))"),
    Family("rbp", k.calc_rbp, form="pairs", params=(), doc="rank-biased precision; p=PERSISTENCE (0.9) and gains"),
    Family(
        "rbp_resid",
        k.calc_rbp_resid,
        form="pairs",
        params=(),
        doc="RBP residual; p=PERSISTENCE (0.9)",
        reset="plain",
    ),
    Family("unj", k.calc_unj, form="cut_long", params=(5, 10, 20), doc="unjudged fraction at cutoffs", reset="always"),
]
BY_NAME = {f.name: f for f in MEASURE_FAMILIES}

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

    params: tuple[Any, ...] | None
    printable: str | None = None


def _numbers(spec: str, text: str, parse: Callable[[str], float | None], what: str) -> list[float]:
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


def parse_measures(specs: Iterable[str] | str | None) -> dict[str, Selected]:
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
    marked: set[str]
    texts: dict[str, str]
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
        elif name in BY_NAME:
            marked.add(name)
        else:
            raise IrmeansError(f"unknown measure {spec!r} (irmeans eval --help lists them)")
    out = {}
    for fam in MEASURE_FAMILIES:
        if fam.name in marked:
            out[fam.name] = _parse_params(fam, texts.get(fam.name), f"{fam.name}.{texts.get(fam.name)}")
    return out


def line_names(fam: Family, sel: Selected) -> list[str]:
    """The names trec_eval prints for a selected family (``P_5``, ``ndcg_1=0,2=5``, ``relstring_20``).

    Examples
    --------
    >>> line_names(BY_NAME["Rprec_mult"], Selected((0.5, 1.0)))
    ['Rprec_mult_0.50', 'Rprec_mult_1.00']
    """
    if fam.form == "cut_long":
        assert sel.params is not None  # a family of cutoffs always has them (its defaults, or those given)
        return [f"{fam.name}_{k}" for k in sel.params]
    if fam.form == "cut_double":
        assert sel.params is not None
        return [f"{fam.name}_{p:3.2f}" for p in sel.params]
    return [fam.name if sel.printable is None else f"{fam.name}_{sel.printable}"]
