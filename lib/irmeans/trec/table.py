"""trec_eval's table of measures: every family the evaluator knows, and how ``-m`` selects them.

:data:`MEASURE_FAMILIES` holds one :class:`Family` per trec_eval measure family, in
trec_eval's printing order (its ``te_trec_measures`` table): its kernel, how it prints, its
``all`` line's average (:mod:`irmeans.averages`: the mean, added topic by topic as trec_eval
adds, a sum, or trec_eval's floored geometric mean), how its parameters are read and what it
does for a topic without results.  :data:`EXTRA_FAMILIES` are irmeans' own ``all`` lines,
other averages of the per-topic AP.  :func:`parse_measures` reads ``-m`` specifications as
trec_eval 10 reads them, once, into the :class:`Chosen` measures of an evaluation, each with
the names trec_eval prints (:attr:`Chosen.lines`).

>>> [c.lines for c in parse_measures(["P.5,10", "official"]) if c.family.name == "P"]
[['P_5', 'P_10']]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeAlias

import numpy as np
from numpy.typing import ArrayLike

from ..averages import AM, DEFAULT_EPS, REGISTRY, TREC_EVAL_GM, Average, parse_averages
from ..errors import IrmeansError, shown_value
from ..number_syntax import INT64_MAX, c_float, c_int
from . import kernels as k
from .context import Context

__all__ = [
    "Family",
    "Sum",
    "eval_lines",
    "Chosen",
    "Selection",
    "Kind",
    "Form",
    "Reset",
    "MEASURE_FAMILIES",
    "EXTRA_FAMILIES",
    "BY_NAME",
    "NICKNAMES",
    "OTHER_FORMATS",
    "parse_measures",
    "selected",
]

#: How a family's values print: an integer, a number with ``--digits`` decimals, or as they are.
Kind: TypeAlias = Literal["long", "double", "string"]
#: How ``name.params`` is read (see :class:`Family`).
Form: TypeAlias = Literal["none", "cut_long", "cut_double", "doubles", "pairs"]
#: Whether a ``-c`` topic without results gets 0 instead of its stand-in document's value (see :class:`Family`).
Reset: TypeAlias = Literal["never", "plain", "always"]
#: A kernel: ``kernel(context, params)``, one per-topic array per line (:mod:`.kernels`).
Kernel: TypeAlias = Callable[..., k.Values]

_MEAN = AM()


@dataclass(frozen=True)
class Sum(Average):
    """The sum of the scores, not an average: trec_eval's ``all`` value of its counts (``num_ret``, ``num_rel``).

    Integers are added exactly; floats one after the other, as trec_eval adds. It has no spec
    (:func:`~irmeans.averages.parse_average` does not read it): this table names it.

    >>> Sum()([3, 4, 5])
    12
    """

    def __call__(self, x: ArrayLike, axis: int | None = None) -> Any:
        a = np.asarray(x)
        if a.dtype.kind in "iub" and axis is None:
            return int(a.sum())
        return super().__call__(x, axis)

    def _value(self, a: np.ndarray, axis: int | None) -> Any:
        total = np.cumsum(a, axis=axis)
        return total[-1] if axis is None else np.take(total, -1, axis=axis)

    def unchecked(self, values: np.ndarray) -> float | int:
        """Integers added exactly (an int), anything else as trec_eval adds it (a float)."""
        return int(values.sum()) if values.dtype.kind in "iub" else super().unchecked(values)

    @property
    def spec(self) -> str:
        return "sum"


def eval_lines(eps: float) -> dict[str, tuple[Average, str]]:
    """``irmeans eval``'s extra ``all`` lines: line name -> (the average, with ``eps`` where it takes one; help text).

    >>> {name: avg.spec for name, (avg, _) in eval_lines(0.01).items()}
    {'gm_map_add': 'gm:0.01', 'hm_map': 'hm:0.01', 'median_map': 'median', 'logit_map': 'logit:0.01'}
    """
    out = {}
    for cls in dict.fromkeys(cls for cls, _ in REGISTRY.values()):
        for line, (fixed, text) in cls.eval_lines.items():
            # cls takes eps when its takes_eps says so, which mypy cannot see from type[Average].
            out[line] = (cls(eps=eps, **fixed) if cls.takes_eps else cls(**fixed), text)  # type: ignore[call-arg]
    return out


_SUM = Sum()


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
        ``runid``, which is not a per-topic measure (its ``all`` value is the run's tag).
    kind : {"long", "double", "string"}
        Printed as an integer, with ``--digits`` decimals, or as it is.
    average : Average or None
        The ``all`` value from the per-topic values: :class:`~irmeans.averages.AM` (the
        mean, added topic by topic as trec_eval adds), :class:`Sum`,
        trec_eval's geometric mean (:data:`irmeans.averages.TREC_EVAL_GM`, a floor of 1e-5),
        another average (the extra lines); None for a measure printed per topic only.
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
    extra : bool
        An ``all`` line of irmeans' own, which trec_eval does not have: printed only when
        named, without ``-m`` or with ``--extra``.
    """

    name: str
    kernel: Kernel | None
    kind: Kind = "double"
    average: Average | None = _MEAN
    form: Form = "none"
    params: tuple[Any, ...] | None = None
    doc: str = ""
    reset: Reset = "never"
    per_topic: bool = True
    extra: bool = False


_LONG_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_RECALL_FRACTIONS = tuple(k / 10 for k in range(11))  # trec_eval's 0.0, 0.1, ..., 1.0
_GAINS = "gains: GRADE=GAIN,... (e.g. 1=0,2=5)"

# In trec_eval's printing order (its te_trec_measures table).
MEASURE_FAMILIES = [
    Family("runid", None, "string", None, doc="the run's tag", per_topic=False),
    Family("num_q", k.calc_num_q, "long", _SUM, doc="number of topics evaluated", per_topic=False),
    Family("num_ret", k.calc_num_ret, "long", _SUM, doc="documents retrieved", reset="always"),
    Family("num_rel", k.calc_num_rel, "long", _SUM, doc="relevant documents judged"),
    Family("num_rel_ret", k.calc_num_rel_ret, "long", _SUM, doc="relevant documents retrieved"),
    Family("map", k.calc_map, doc="mean average precision"),
    Family("gm_map", k.calc_map, average=TREC_EVAL_GM, doc="geometric mean of AP (floor 1e-5)", per_topic=False),
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
        None,
        form="doubles",
        params=(10.0,),
        doc="grades of the first N documents (per topic only)",
        reset="plain",
    ),
    Family("recall", k.calc_recall, form="cut_long", params=_LONG_CUTS, doc="recall at cutoffs"),
    Family("infAP", k.calc_infAP, doc="inferred AP"),
    Family("gm_bpref", k.calc_bpref, average=TREC_EVAL_GM, doc="geometric mean of bpref", per_topic=False),
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
    Family("num_nonrel_judged_ret", k.calc_num_nonrel_judged_ret, "long", _SUM, doc="judged non-relevant retrieved"),
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

#: irmeans' own ``all`` lines: other averages of the per-topic AP (:func:`eval_lines`).
EXTRA_FAMILIES = [
    Family(name, k.calc_map, average=average, doc=text, per_topic=False, extra=True)
    for name, (average, text) in eval_lines(DEFAULT_EPS).items()
]
BY_NAME = {f.name: f for f in [*MEASURE_FAMILIES, *EXTRA_FAMILIES]}

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
class Chosen:
    """A measure family chosen for an evaluation: its parameters, its lines' names and its ``all`` average.

    ``params`` are the kernel's (the family's defaults, or those given), ``printable`` the
    suffix of a family printed under one line (``ndcg_1=0,2=5``), and ``average`` the family's
    average (an extra line's with the ε of the evaluation).
    """

    family: Family
    params: tuple[Any, ...] | None
    printable: str | None = None
    average: Average | None = None

    @property
    def lines(self) -> list[str]:
        """The names trec_eval prints for the family (``P_5``, ``ndcg_1=0,2=5``, ``relstring_20``).

        Examples
        --------
        >>> Chosen(BY_NAME["Rprec_mult"], (0.5, 1.0)).lines
        ['Rprec_mult_0.50', 'Rprec_mult_1.00']
        """
        fam = self.family
        if fam.form == "cut_long":
            assert self.params is not None  # a family of cutoffs always has them (its defaults, or those given)
            return [f"{fam.name}_{k}" for k in self.params]
        if fam.form == "cut_double":
            assert self.params is not None
            return [f"{fam.name}_{p:3.2f}" for p in self.params]
        return [fam.name if self.printable is None else f"{fam.name}_{self.printable}"]

    def values(self, context: Context) -> k.Values:
        """The family's per-topic values, one array per line (:meth:`lines`)."""
        assert self.family.kernel is not None  # runid has no per-topic values
        if self.params is None:
            return self.family.kernel(context)
        return self.family.kernel(context, self.params)


def _numbers(spec: str, text: str, parse: Callable[[str], float | None], what: str) -> list[float]:
    values = []
    for piece in text.split(","):
        value = parse(piece.strip(_C_SPACE))  # C's atol and atof skip blanks before; trec_eval takes 'P.5 ' too
        if value is None:
            raise IrmeansError(
                f"measure {spec!r}: {what} {piece!r} is not {'an integer' if parse is c_int else 'a number'}"
            )
        if parse is c_float and not math.isfinite(value):
            raise IrmeansError(f"measure {spec!r}: {what} {piece!r} is not a finite number")
        values.append(value)
    return values


_C_SPACE = " \t\n\v\f\r"  # C's isspace


def _parse_params(fam: Family, text: str | None, spec: str) -> Chosen:
    """trec_eval's reading of ``fam.text``: the same values, the same line names, the same refusals."""
    if text is None or fam.form == "none":
        return Chosen(fam, fam.params)
    if fam.form == "cut_long":
        values = sorted(min(v, INT64_MAX) for v in _numbers(spec, text, c_int, "cutoff"))
        if values[0] <= 0:
            raise IrmeansError(f"measure {spec!r}: cutoffs must be positive")
        if len(set(values)) != len(values):
            raise IrmeansError(f"measure {spec!r}: duplicate cutoffs")
        return Chosen(fam, tuple(values))
    if fam.form == "cut_double":
        values = sorted(_numbers(spec, text, c_float, "cutoff"))
        if len(set(values)) != len(values):
            raise IrmeansError(f"measure {spec!r}: duplicate cutoffs")
        return Chosen(fam, tuple(values))
    if fam.form == "doubles":
        values = _numbers(spec, text, c_float, "parameter")
        if fam.name == "utility" and len(values) != 4:
            raise IrmeansError(f"measure {spec!r}: utility takes 4 coefficients (a, b, c, d), got {len(values)}")
        return Chosen(fam, tuple(values), text)
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
        number = c_float(value.strip(_C_SPACE))
        if number is None or not math.isfinite(number):
            raise IrmeansError(f"measure {spec!r}: value {value!r} of {name!r} is not a finite number")
        pairs.append((name, number))
    return Chosen(fam, tuple(pairs), text)


@dataclass(frozen=True)
class Selection:
    """The measures chosen for an evaluation, in printing order: what ``-m``, ``--extra`` and ``--eps`` say, read once.

    Iterating gives the :class:`Chosen` measures.
    """

    chosen: tuple[Chosen, ...]
    #: Averages (``-a``) to give every measure printed per topic, each as an extra ``all`` line ``NAME/SPEC``.
    averages: tuple[Average, ...] = ()

    def __iter__(self) -> Iterator[Chosen]:
        return iter(self.chosen)

    @property
    def kinds(self) -> dict[str, Kind]:
        """How each line prints, by line name."""
        return {line: c.family.kind for c in self.chosen for line in c.lines}

    @property
    def printed(self) -> list[str]:
        """The lines ``-q`` prints for each topic, in order."""
        return [line for c in self.chosen if c.family.per_topic for line in c.lines]

    @property
    def numbers(self) -> list[str]:
        """The lines that give a number for each topic, in order (``-q``'s, but ``relstring``)."""
        kinds = self.kinds
        return [line for line in self.printed if kinds[line] != "string"]

    @property
    def averaged(self) -> list[tuple[str, str, Average]]:
        """(line name, the per-topic line it averages, the average) of each ``-a`` line, in printing order."""
        return [(f"{line}/{a.spec}", line, a) for line in self.numbers for a in self.averages]


def parse_measures(
    specs: Iterable[str] | str | None,
    *,
    extra: bool = False,
    eps: float = DEFAULT_EPS,
    averages: Iterable[str | Average] = (),
) -> Selection:
    """Read ``-m`` style specifications, as trec_eval 10 reads them, into the chosen measures, in printing order.

    A family's parameters come from the first specification that gives it some (as in
    trec_eval); a family without parameters ignores them; nicknames (``official``,
    ``set``, ``all_trec``) select their families.  The extra lines (``gm_map_add``,
    ``hm_map``, ``median_map``, ``logit_map``) come after trec_eval's, when named, with
    ``extra``, or without specifications, each with the ε ``eps``.

    Parameters
    ----------
    specs : iterable of str or None
        ``None`` selects ``all_trec`` and the extra lines.
    extra : bool
        Add the extra lines whatever ``specs`` select.
    eps : float
        The extra lines' ε (the median takes none).
    averages : iterable of str or Average
        Averages (``"gm:0.01"``, :func:`irmeans.averages.parse_average`'s specs) each measure
        printed per topic is also averaged with, in lines named ``NAME/SPEC``.

    Examples
    --------
    >>> chosen = parse_measures(["P.5,10", "map", "P.20", "ndcg.1=0,2=5"])
    >>> {c.family.name: c.params for c in chosen}
    {'map': None, 'P': (5, 10), 'ndcg': (('1', 0.0), ('2', 5.0))}
    >>> [c.family.name for c in parse_measures(["official"])][:3]
    ['runid', 'num_q', 'num_ret']
    >>> [c.average.spec for c in parse_measures(["hm_map", "gm_map"], eps=0.1)]
    ['gm-floor:1e-05', 'hm:0.1']

    >>> [name for name, _, _ in parse_measures(["map", "P.5"], averages=["gm:0.01", "median"]).averaged]
    ['map/gm:0.01', 'map/median', 'P_5/gm:0.01', 'P_5/median']
    """
    if specs is None:
        specs, extra = ["all_trec"], True
    if isinstance(specs, str):
        specs = [specs]
    given = list(specs) if isinstance(specs, Iterable) else None
    if given is None or not all(isinstance(spec, str) for spec in given):
        raise IrmeansError(
            f"measures must be a trec_eval measure such as 'map' or 'P.10', or a list of them; got {shown_value(specs)}"
        )
    specs = given
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
    if extra:
        marked.update(f.name for f in EXTRA_FAMILIES)
    out = []
    for fam in [*MEASURE_FAMILIES, *EXTRA_FAMILIES]:
        if fam.name in marked:
            chosen = _parse_params(fam, texts.get(fam.name), f"{fam.name}.{texts.get(fam.name)}")
            average = fam.average
            if fam.extra and average is not None and average.takes_eps:
                average = replace(average, eps=eps)  # type: ignore[call-arg]  # an average that takes ε has it
            out.append(replace(chosen, average=average))
    if not out:
        raise IrmeansError("no measure selected")
    return Selection(tuple(out), tuple(parse_averages(averages)))


def selected(
    measures: Iterable[str] | str | Selection | None,
    *,
    extra: bool = False,
    eps: float = DEFAULT_EPS,
    averages: Iterable[str | Average] = (),
) -> Selection:
    """The measures an evaluation computes: a :class:`Selection` as it is, anything else read by :func:`parse_measures`.

    A :class:`Selection` was read once, where it was made (``irmeans eval`` reads its ``-m``
    before the files), with its own extra lines, ε and averages: giving others with it is an
    error, not a choice made silently.

    >>> chosen = parse_measures(["map"])
    >>> selected(chosen) is chosen, [c.family.name for c in selected("P.5")]
    (True, ['P'])
    """
    if not isinstance(measures, Selection):
        return parse_measures(measures, extra=extra, eps=eps, averages=averages)
    if extra or eps != DEFAULT_EPS or tuple(averages):
        raise IrmeansError(
            "measures given as a Selection have their own extra lines, eps and averages: "
            "give extra, eps and averages to parse_measures, which makes it"
        )
    return measures
