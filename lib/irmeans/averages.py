"""Averages as values: each average across topics owns its formula, its parameters and its names.

An average is a small immutable object, callable like a numpy reduction:
``GM(eps=0.01)(scores, axis=1)`` is the εGM of each system. Each one keeps, in one place,
its formula (:meth:`Average.__call__`), its scale: the transform g of the scores of which it
is an increasing function of the mean (:meth:`Average.transform`: the log for the geometric
means) and its name (:attr:`Average.scale`), on which :func:`irmeans.compare` tests it,
Robertson's check transforms the scores and :mod:`irmeans.consistency` sums them to order
systems quickly; the scores it takes (:meth:`Average.refuses`), a readable
:attr:`~Average.label`, a short :attr:`~Average.spec` that :func:`parse_average` reads back,
and the extra line it gives ``irmeans eval``.  :data:`REGISTRY` lists them, and everything
that names averages is built from it.

=================  ==========================  ====================================
spec               object                      what
=================  ==========================  ====================================
``am``             ``AM()``                    arithmetic mean (MAP over AP)
``gm:0.01``        ``GM(eps=0.01)``            εGM, exp(mean(log(x + ε))) − ε
``gm-floor:1e-5``  ``GM(1e-5, form="floor")``  trec_eval's gm_map: exp(mean(log(max(x, ε))))
``gm-zeros:1e-5``  ``GM(1e-5, form="zeros")``  the Robust track's GMAP: zeros alone set to ε
``hm:0.01``        ``HM(eps=0.01)``            εHM, 1 / mean(1 / (x + ε)) − ε
``median``         ``Median()``                median
``logit:0.01``     ``Logit(eps=0.01)``         mean in log-odds space, mapped back
=================  ==========================  ====================================

``gm``, ``hm`` and ``logit`` name their ε (``GM()`` is the plain GM, ε = 0, and the book
advises 0.01: a spec says which); ``gm-floor`` and ``gm-zeros`` without one take trec_eval's
1e-5.  A spec reads back into the same average, whatever its ε, so no two averages share one.

Every average lies between the smallest and the largest score it averages, and equal scores
give that score back, for any finite scores it takes: the sum of huge scores, the reciprocals
of tiny ones and a huge ε neither overflow nor lose the answer.

>>> from irmeans.averages import GM, parse_average
>>> avg = parse_average("gm:0.01")
>>> avg == GM(eps=0.01), avg.label, round(avg([0.0, 0.4, 0.2, 0.4, 0.3]), 3)
(True, 'εGM (ε = 0.01)', 0.151)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, cast

import numpy as np
from numpy.typing import ArrayLike

from ._numeric import log_odds_of, ordered_mean
from ._validation import eps_value, first_index, scores_array
from .errors import IrmeansError, RefusedScore, shown_value
from .number_syntax import c_float

__all__ = ["Average", "AM", "GM", "HM", "Median", "Logit", "parse_average", "parse_averages", "REGISTRY"]
__all__ += ["TREC_EVAL_GM_EPS", "TREC_EVAL_GM", "DEFAULT_EPS"]

#: The ε of trec_eval's ``gm_map``: each AP below it is raised to it before the log.
TREC_EVAL_GM_EPS = 1e-5

#: The ε chapter 10 advises: 0.01.
DEFAULT_EPS = 0.01

#: The averages by spec kind (``"gm-floor"``), each with the class and the fixed arguments it stands for.
REGISTRY: dict[str, tuple[type[Average], dict[str, Any]]] = {}


def _eps_text(eps: float) -> str:
    """ε as a spec writes it: the shortest text that reads back to it (``0.01``, ``1e-05``, ``0.123456789``)."""
    text = f"{eps:g}"
    return text if float(text) == eps else repr(eps)


def _scalar(m: ArrayLike) -> float | np.ndarray:
    m = np.asarray(m)
    return float(m) if m.ndim == 0 else m  # a Python float for one average


@dataclass(frozen=True)
class Average:
    """Base class: an average across topics.

    A subclass sets :attr:`kinds` (its specs and what each fixes), :meth:`_value` (the
    formula) and :meth:`transform`, and may refuse scores (:meth:`refuses`).
    """

    #: Spec kinds -> the arguments each fixes (``{"gm-floor": {"form": "floor"}}``).
    kinds: ClassVar[dict[str, dict[str, Any]]] = {}
    #: Whether the spec takes ``:ε``.
    takes_eps: ClassVar[bool] = False
    #: ``irmeans eval``'s extra ``all`` lines this average gives: line name -> (fixed arguments, help text).
    eval_lines: ClassVar[dict[str, tuple[dict[str, Any], str]]] = {}
    #: The scores the average takes, in words (for messages).
    requirement: ClassVar[str] = "finite scores"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for kind, fixed in cls.kinds.items():
            REGISTRY[kind] = (cls, fixed)

    def __call__(self, x: ArrayLike, axis: int | None = None) -> float | np.ndarray:
        """The average of ``x`` (along ``axis``, as in numpy: ``axis=1`` of a systems × topics array)."""
        a, axis = scores_array(x, axis)
        for bad in self._checks(a):  # the first kind of refusal found wins, as the formula reads them
            if bad.any():
                where = first_index(bad)
                raise RefusedScore(where, float(a[where]), self._refusal(float(a[where])))
        with np.errstate(over="ignore", under="ignore"):
            m = np.asarray(self._value(a, axis))
        # An average lies within the scores it averages, which a formula's rounding (an exp(log(y)) a hair
        # past the largest double, or past y) can leave; equal scores give that score back.
        r = self._averaged(a)
        return _scalar(np.clip(m, np.min(r, axis=axis), np.max(r, axis=axis)))

    def _averaged(self, a: np.ndarray) -> np.ndarray:
        return a  # the scores as the average takes them (the GM's floor lifts them to ε)

    def unchecked(self, values: np.ndarray) -> float | int:
        """The formula on the 1-d ``values`` as they are, without the refusals: C's arithmetic, in which a NaN
        or an infinity among the values is carried into the result (as trec_eval forms its ``all`` lines)."""
        with np.errstate(all="ignore"):
            return float(self._value(np.asarray(values, dtype=np.float64), None))

    def _checks(self, a: np.ndarray) -> list[np.ndarray]:
        """Masks of refused scores, the first that has one decides the message (see :meth:`refuses`)."""
        return [self.refuses(a)]

    # The formula's value: a numpy float, or an array along an axis. numpy types its reductions
    # and ufuncs as returning Any, and so do the formulas built from them.
    def _value(self, a: np.ndarray, axis: int | None) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _refusal(self, value: float) -> str:
        return f"this mean needs {self.requirement}"  # why a score is refused

    def refuses(self, x: ArrayLike) -> np.ndarray:
        """A mask of the (finite) scores this average cannot take: those outside :attr:`requirement`."""
        return np.zeros(np.shape(x), dtype=bool)

    def transform(self, x: ArrayLike) -> np.ndarray | None:
        """g(x), elementwise, such that the average is a strictly increasing function of mean(g(x)): two sets of
        scores are ordered by the average as by the sum of g over them.  None for one without (the median)."""
        return None

    @property
    def scale(self) -> str | None:
        """The scale g of :meth:`transform`, in words (``"log(x + 0.01)"``); None for an average without one."""
        return None

    def on_scale(self, x: ArrayLike) -> np.ndarray | None:
        """g(x) (:meth:`transform`) where it is finite for every score; None where it is not, or there is no scale.

        >>> GM(eps=0.01).on_scale([0.0, 1.0]).round(3).tolist(), GM().on_scale([0.0, 1.0])
        ([-4.605, 0.01], None)
        """
        with np.errstate(invalid="ignore", divide="ignore"):  # the log of a score below -ε: not on the scale
            g = self.transform(x)
        return g if g is not None and bool(np.isfinite(g).all()) else None

    def maps_back(self, g: np.ndarray) -> bool:
        """Whether means of these values of g map back to averages (:meth:`from_mean`) with their digits, so that
        systems can be told apart by the sums of g (what :mod:`irmeans.consistency` orders them by)."""
        return True

    @property
    def zero_gives_zero(self) -> bool:
        """Whether one score of 0 makes the average 0, whatever the other scores (a geometric mean without ε)."""
        return False

    def from_mean(self, m: ArrayLike) -> np.ndarray:
        """The average of scores whose transform (:meth:`transform`) has mean ``m``: a strictly increasing map.

        >>> gm = GM(eps=0.01)
        >>> float(gm.from_mean(gm.transform([0.2, 0.8]).mean())) == gm([0.2, 0.8])
        True
        """
        raise IrmeansError(f"{self.label} is not a function of the mean of a transform of the scores")

    @property
    def spec(self) -> str:
        """The short text :func:`parse_average` reads back into this average."""
        kind = next(k for k, fixed in self.kinds.items() if all(getattr(self, f) == v for f, v in fixed.items()))
        # Every average that takes ε has an eps field; the base class, which mypy sees here, has none.
        return f"{kind}:{_eps_text(self.eps)}" if self.takes_eps else kind  # type: ignore[attr-defined]

    @property
    def label(self) -> str:
        """A readable name for tables and legends."""
        return self.spec.upper()

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True)
class AM(Average):
    """The arithmetic mean: MAP when the scores are per-topic AP.

    >>> AM()([0.1, 0.1, 0.3, 0.8, 0.1])
    0.28
    """

    kinds: ClassVar = {"am": {}}

    def _value(self, a: np.ndarray, axis: int | None) -> Any:
        return ordered_mean(a, axis)

    @property
    def scale(self) -> str:
        return "x"

    def transform(self, x: ArrayLike) -> np.ndarray:
        return np.asarray(x, dtype=np.float64)

    def from_mean(self, m: ArrayLike) -> np.ndarray:
        return np.asarray(m, dtype=np.float64)


@dataclass(frozen=True)
class GM(Average):
    """The geometric mean with ε: additive (εGM, GMAP), trec_eval's floor, or zeros alone lifted.

    Parameters
    ----------
    eps : float, default 0
        The ε; finite and >= 0 (> 0 for the floor and zeros forms).
    form : {"add", "floor", "zeros"}
        ``"add"``: exp(mean(log(x + ε))) − ε, the form of Robertson (2006) and Ravana &
        Moffat's εGM; as ε grows it tends to the arithmetic mean. ``"floor"``:
        exp(mean(log(max(x, ε)))), trec_eval's ``gm_map`` with ε = 1e-5. ``"zeros"``: only
        scores of exactly 0 become ε, then the plain geometric mean: the TREC Robust
        track's GMAP. In these two the logs are added in order, as trec_eval adds them, so
        the floor form's value is trec_eval's ``gm_map`` to the last bit.

    Examples
    --------
    >>> GM(eps=1e-5, form="floor").label
    'GM, trec_eval floor (ε = 1e-05)'
    >>> round(GM(eps=1e-5, form="floor")([0.0, 0.4, 0.2, 0.4, 0.3]), 3)
    0.039
    """

    eps: float = 0.0
    form: str = "add"
    kinds: ClassVar = {"gm": {"form": "add"}, "gm-floor": {"form": "floor"}, "gm-zeros": {"form": "zeros"}}
    takes_eps: ClassVar = True
    eval_lines: ClassVar = {
        "gm_map_add": ({"form": "add"}, "additive epsilon geometric mean: exp(mean(log(AP + eps))) - eps")
    }
    requirement: ClassVar = "scores >= 0"

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", eps_value(self.eps))
        if self.form not in ("add", "floor", "zeros"):
            raise IrmeansError(f"form must be 'add', 'floor' or 'zeros', got {self.form!r}")
        if self.form != "add" and self.eps == 0:
            raise IrmeansError(f"form={self.form!r} needs eps > 0 (trec_eval uses 1e-5)")

    def refuses(self, x: ArrayLike) -> np.ndarray:
        return np.asarray(x) < 0

    def _averaged(self, a: np.ndarray) -> np.ndarray:
        floor, zeros = self.form == "floor", self.form == "zeros"
        return np.maximum(a, self.eps) if floor else np.where(a == 0, self.eps, a) if zeros else a

    @property
    def zero_gives_zero(self) -> bool:
        return self.form == "add" and self.eps == 0

    @property
    def scale(self) -> str:
        eps = _eps_text(self.eps)
        if self.form == "floor":
            return f"log(max(x, {eps}))"
        if self.form == "zeros":
            return f"log(x, 0 as {eps})"
        return f"log(1 + x/{eps})" if self.eps > 1 else f"log(x + {eps})"

    def transform(self, x: ArrayLike) -> np.ndarray:
        """log(x + ε) (log1p(x/ε) for ε > 1); the floor form log(max(x, ε)); the zeros form log(x), zeros as ε."""
        x = np.asarray(x, dtype=np.float64)
        with np.errstate(divide="ignore"):  # log(0) = -inf: a zero without ε
            if self.form == "floor":
                return cast(np.ndarray, np.log(np.maximum(x, self.eps)))
            if self.form == "zeros":
                return np.log(np.where(x == 0, self.eps, x))
            # log(x + ε) up to the constant log ε for a large ε, which would swamp the scores in x + ε
            return np.log1p(x / self.eps) if self.eps > 1 else np.log(x + self.eps)

    def from_mean(self, m: ArrayLike) -> np.ndarray:
        """exp(m) − ε for the additive form (ε·expm1(m) for ε > 1), exp(m) for the others; never below 0."""
        m = np.asarray(m, dtype=np.float64)
        with np.errstate(over="ignore"):
            if self.form != "add":
                return np.asarray(np.exp(m))
            # ε·(exp(mean(log1p(x/ε))) − 1) for a large ε: the mean then tends to the arithmetic mean.
            # exp(log(y)) may come back a hair below y; a mean of scores >= 0 is never below 0.
            # (log(0) = -inf gives exp(-inf) = 0, as it should.)
            back = self.eps * np.expm1(m) if self.eps > 1 else np.exp(m) - self.eps
            return np.asarray(np.maximum(back, 0.0))

    def _value(self, a: np.ndarray, axis: int | None) -> Any:
        if self.form == "add":
            m = self.from_mean(np.mean(self.transform(a), axis=axis))
            near = m < self.eps
            if 0 < self.eps <= 1 and near.any():
                # Scores far below ε: exp(mean(log(x + ε))) − ε keeps nothing of them (0 for the GM
                # of 1e-200 with ε = 1). ε·expm1(mean(log1p(x/ε))), the same mean, keeps them.
                with np.errstate(over="ignore", under="ignore"):
                    kept = self.eps * np.expm1(np.mean(np.log1p(a / self.eps), axis=axis))
                m = np.where(near & np.isfinite(kept), kept, m)
            if self.eps > 1:
                # Scores below 2^-60 of ε: log1p(x/ε) is x/ε, which may be subnormal and lose its digits;
                # the mean is then the arithmetic mean to the last bit.
                with np.errstate(under="ignore"):
                    swamped = np.max(a, axis=axis) / self.eps < 2.0**-60
                if swamped.any():
                    m = np.where(swamped, np.mean(a, axis=axis), m)
            return m
        # trec_eval's own arithmetic: the logs added one topic after the other, then divided
        return self.from_mean(ordered_mean(self.transform(a), axis))

    @property
    def label(self) -> str:
        if self.form == "floor":
            return f"GM, trec_eval floor (ε = {_eps_text(self.eps)})"
        if self.form == "zeros":
            return f"GM, zeros set to ε = {_eps_text(self.eps)}"
        return f"εGM (ε = {_eps_text(self.eps)})" if self.eps else "GM"


@dataclass(frozen=True)
class HM(Average):
    """The harmonic mean with ε: 1 / mean(1 / (x + ε)) − ε.

    With ε = 0 a zero score has no reciprocal, and is refused.

    >>> round(HM(eps=0.01)([0.0, 0.4, 0.2, 0.4, 0.3]), 3)
    0.034
    """

    eps: float = 0.0
    kinds: ClassVar = {"hm": {}}
    takes_eps: ClassVar = True
    eval_lines: ClassVar = {"hm_map": ({}, "epsilon harmonic mean: 1 / mean(1 / (AP + eps)) - eps")}

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", eps_value(self.eps))

    @property
    def requirement(self) -> str:  # type: ignore[override]  # a class attribute in the base: here, words of ε
        """The scores it takes, in words: ``scores >= 0`` with ε, scores > 0 without."""
        return "scores >= 0" if self.eps else "scores > 0 (a zero needs eps > 0)"

    def refuses(self, x: ArrayLike) -> np.ndarray:
        x = np.asarray(x)
        return x < 0 if self.eps else x <= 0

    def _checks(self, a: np.ndarray) -> list[np.ndarray]:
        return [a < 0, self.refuses(a)]  # a negative score first, then a zero without ε

    def _refusal(self, value: float) -> str:
        if value:
            return "this mean needs scores >= 0"
        return (
            "the harmonic mean of a set with a zero is undefined; pass eps > 0 (for example eps=0.01) to use "
            "the ε-harmonic mean"
        )

    @property
    def scale(self) -> str:
        eps = _eps_text(self.eps)
        return f"x/(x + {eps})" if self.eps > 1 else f"-1/(x + {eps})"

    def transform(self, x: ArrayLike) -> np.ndarray:
        """−1/(x + ε), or x/(x + ε) for ε > 1 (an increasing map of it that a large ε does not swamp)."""
        x = np.asarray(x, dtype=np.float64)
        if self.eps > 1:
            # x / (x + ε) = 1 − ε/(x + ε), an increasing map of −1/(x + ε) that a large ε does not swamp
            return x / (x + self.eps)
        with np.errstate(divide="ignore", over="ignore"):  # a zero without ε, or a subnormal score
            return -1.0 / (x + self.eps)

    def from_mean(self, m: ArrayLike) -> np.ndarray:
        """−1/m − ε, or ε·m/(1 − m) for ε > 1; never below 0."""
        m = np.asarray(m, dtype=np.float64)
        with np.errstate(divide="ignore", over="ignore"):
            back = self.eps * (m / (1.0 - m)) if self.eps > 1 else -1.0 / m - self.eps
        return np.asarray(np.maximum(back, 0.0))

    def _ratio(self, a: np.ndarray, axis: int | None) -> np.ndarray:
        """The same mean as mean(x·w) / mean(w), w = 1/(1 + x/ε): no difference of close numbers, no swamping.

        With a large ε it tends to the arithmetic mean; x·w is ε where x/ε passes the largest double.
        """
        with np.errstate(over="ignore", under="ignore"):
            u = a / self.eps
            w = 1.0 / (1.0 + u)
            top = np.where(np.isfinite(u), a * w, self.eps)
            return np.asarray(np.mean(top, axis=axis) / np.mean(w, axis=axis))

    def _value(self, a: np.ndarray, axis: int | None) -> Any:
        eps = self.eps
        if eps > 1:  # x + ε would swamp the scores
            return np.maximum(self._ratio(a, axis), 0.0)
        b = a + eps
        t = a.size if axis is None else a.shape[axis]
        with np.errstate(divide="ignore", over="ignore"):
            m = t / np.sum(1.0 / b, axis=axis) - eps
        # Reciprocals past the largest double (subnormal scores) or below the smallest normal
        # one (scores near 1e308): each b over the least of them, which lies in (0, 1], instead.
        low, high = np.min(b, axis=axis), np.max(b, axis=axis)
        off = ~np.isfinite(m) | (low < 2.0**-1000) | (high > 2.0**1000)
        if off.any():
            with np.errstate(under="ignore"):
                ratio = t / np.sum(np.expand_dims(low, axis) / b if axis is not None else low / b, axis=axis)
            m = np.where(off, low * ratio - eps, m)
        # Scores far below ε: 1 / mean(1/b) comes out a hair above ε, and taking ε off leaves
        # nothing of them; the ratio form keeps them.
        near = m < eps
        if near.any():
            m = np.where(near, self._ratio(a, axis), m)
        return np.maximum(m, 0.0)

    @property
    def label(self) -> str:
        return f"εHM (ε = {_eps_text(self.eps)})" if self.eps else "HM"


@dataclass(frozen=True)
class Median(Average):
    """The median (for an even number of scores, the mean of the two middle ones).

    >>> Median()([0.0, 0.4, 0.2, 0.4, 0.3])
    0.3
    """

    kinds: ClassVar = {"median": {}}
    eval_lines: ClassVar = {"median_map": ({}, "median AP")}

    def _value(self, a: np.ndarray, axis: int | None) -> Any:
        # np.median's values (the middle score, or the mean of the two middle ones), from one sort of
        # each row: faster than its partitions on the many short rows of a split-half experiment
        x = np.sort(a.reshape(-1) if axis is None else np.moveaxis(a, axis, -1), axis=-1)
        h = x.shape[-1]
        if h % 2:
            return x[..., h // 2]
        low, high = x[..., h // 2 - 1], x[..., h // 2]
        with np.errstate(over="ignore"):
            middle = (low + high) / 2
        # two middle scores whose sum passes the largest double: halved first (exact)
        return np.where(np.isfinite(middle), middle, low / 2 + high / 2)

    @property
    def label(self) -> str:
        return "median"


@dataclass(frozen=True)
class Logit(Average):
    """The mean in log-odds space with ε, mapped back to a score.

    Each score becomes log((x + ε) / (1 − x + ε)); the mean of those, y, maps back through
    x = ((1 + ε)·e^y − ε) / (1 + e^y), so that equal scores give that score back. ε > 0
    keeps scores of 0 and 1 finite (Robertson 2006, §4.2).

    >>> round(Logit()([0.9, 0.99]), 4)
    0.9676
    """

    eps: float = 0.0
    kinds: ClassVar = {"logit": {}}
    takes_eps: ClassVar = True
    eval_lines: ClassVar = {"logit_map": ({}, "logit mean of AP with epsilon")}

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", eps_value(self.eps))

    @property
    def requirement(self) -> str:  # type: ignore[override]
        """The scores it takes, in words: [0, 1] with ε, strictly between 0 and 1 without."""
        return "scores in [0, 1]" if self.eps else "scores strictly between 0 and 1 (0 and 1 need eps > 0)"

    def refuses(self, x: ArrayLike) -> np.ndarray:
        x = np.asarray(x)
        return ((x < 0) | (x > 1)) if self.eps else ((x <= 0) | (x >= 1))

    def _checks(self, a: np.ndarray) -> list[np.ndarray]:
        return [(a < 0) | (a > 1), self.refuses(a)]  # outside [0, 1] first, then 0 or 1 without ε

    def _refusal(self, value: float) -> str:
        if 0 <= value <= 1:
            return "its log-odds are infinite; pass eps > 0 (for example eps=0.01)"
        return "the logit needs scores in [0, 1]"

    @property
    def scale(self) -> str:
        return f"log-odds with ε = {_eps_text(self.eps)}"

    def transform(self, x: ArrayLike) -> np.ndarray:
        """The log-odds with ε: log((x + ε) / (1 − x + ε))."""
        x = np.asarray(x, dtype=np.float64)
        with np.errstate(divide="ignore"):
            return log_odds_of(x, self.eps)

    def maps_back(self, g: np.ndarray) -> bool:
        # far out in the log-odds the map back to a score saturates at 0 or 1
        return bool(np.abs(g).max(initial=0.0) <= 30)

    def from_mean(self, m: ArrayLike) -> np.ndarray:
        """The score whose log-odds with ε is ``m``: ((1 + ε)·e^m − ε) / (1 + e^m), clipped to [0, 1]."""
        y = np.asarray(m, dtype=np.float64)
        eps = self.eps
        with np.errstate(invalid="ignore"):  # y = ±inf (0 or 1 without ε): e = 0, and the clip decides
            # Written with e = exp(-|y|) so that large |y| neither overflows nor loses the answer;
            # for ε > 1 with 1 − e = −expm1(−|y|), so that ε·(1 − e) keeps its digits when y is tiny.
            e = np.exp(-np.abs(y))
            if eps > 1:
                rest = -np.expm1(-np.abs(y))
                m = np.where(y >= 0, (1.0 + eps * rest) / (1.0 + e), (e - eps * rest) / (1.0 + e))
            else:
                m = np.where(y >= 0, ((1 + eps) - eps * e) / (1 + e), ((1 + eps) * e - eps) / (1 + e))
        return np.asarray(np.clip(m, 0.0, 1.0))

    def _value(self, a: np.ndarray, axis: int | None) -> Any:
        return self.from_mean(np.mean(log_odds_of(a, self.eps), axis=axis))

    @property
    def label(self) -> str:
        return f"logit (ε = {_eps_text(self.eps)})" if self.eps else "logit"


#: trec_eval's ``gm_map``: the floor form with ε = 1e-5.
TREC_EVAL_GM = GM(eps=TREC_EVAL_GM_EPS, form="floor")


def parse_average(spec: str | Average) -> Average:
    """Read an average from its short spec: ``parse_average(a.spec) == a`` for every average ``a``.

    Specs: ``am``, ``gm:0.01``, ``gm-floor:1e-5``, ``gm-zeros:1e-5``, ``hm:0.01``, ``median``, ``logit:0.01``.

    ``gm``, ``hm`` and ``logit`` must name their ε (``gm:0`` is ``GM()``, the plain GM;
    chapter 10 advises ``gm:0.01``); ``gm-floor`` and ``gm-zeros`` without one take trec_eval's
    1e-5. ε is read as C reads a number (:mod:`irmeans.number_syntax`, as every number irmeans
    reads): ``1e-5``, ``.5``, not ``1_0``; it must be finite and >= 0. An :class:`Average` is
    returned as it is.

    >>> parse_average("gm-floor")
    GM(eps=1e-05, form='floor')
    >>> [parse_average(s).spec for s in ("AM", "gm:1e-2", "hm:0.5", "median")]
    ['am', 'gm:0.01', 'hm:0.5', 'median']
    """
    if isinstance(spec, Average):
        return spec
    if not isinstance(spec, str):
        raise IrmeansError(f"an average is a spec such as 'gm:0.01' or an Average, got {shown_value(spec)}")
    kind, sep, eps_text = spec.strip().lower().partition(":")
    if kind not in REGISTRY:
        known = ", ".join(sorted(REGISTRY))
        eps_kinds = ", ".join(sorted({k.partition("-")[0] for k, (cls, _) in REGISTRY.items() if cls.takes_eps}))
        raise IrmeansError(f"unknown average {spec!r}: expected one of {known}, with ':eps' for {eps_kinds}")
    cls, fixed = REGISTRY[kind]
    if not cls.takes_eps:
        if sep:
            raise IrmeansError(f"average {spec!r}: {kind} takes no ε")
        return cls(**fixed)
    eps = TREC_EVAL_GM_EPS
    if not sep and fixed.get("form", "add") == "add":
        raise IrmeansError(
            f"average {spec!r} names no ε: write {kind}:0.01 (the ε chapter 10 advises) or {kind}:0 "
            f"({cls.__name__}(), ε = 0)"
        )
    if sep:
        value = c_float(eps_text)
        if value is None or not (0 <= value < float("inf")):
            raise IrmeansError(f"average {spec!r}: ε {eps_text!r} is not a finite number >= 0, such as 0.01 or 1e-5")
        eps = value + 0.0  # -0 is 0
    # cls takes eps (its takes_eps says so), which mypy cannot see from type[Average].
    return cls(eps=eps, **fixed)  # type: ignore[call-arg]


def parse_averages(specs: str | Average | Iterable[str | Average], name: str = "averages") -> list[Average]:
    """One average or several (specs or :class:`Average` values) as a list, each once, in the order given.

    A single spec is one average, not a sequence of letters.  Two specs of one average
    (``"gm:0.01"`` and ``"gm:1e-2"``) are one: every average in the list has a spec of its own.

    >>> [a.spec for a in parse_averages("gm:0.01")]
    ['gm:0.01']
    >>> [a.spec for a in parse_averages(["am", "AM", "gm:1e-2", "gm:0.01"])]
    ['am', 'gm:0.01']
    """
    if isinstance(specs, (str, Average)):
        specs = [specs]
    try:
        items = list(specs)
    except TypeError:
        raise IrmeansError(
            f"{name} must be an average spec, an Average or a list of them, got {shown_value(specs)}"
        ) from None
    return list(dict.fromkeys(parse_average(a) for a in items))
