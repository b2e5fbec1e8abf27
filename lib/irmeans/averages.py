"""Averages as values: an average across topics together with its parameters.

Each average is a small immutable object, callable like the function it
wraps: ``GM(eps=0.01)(scores, axis=1)`` is
``geometric_mean(scores, eps=0.01, axis=1)``. It has a readable
:attr:`~Average.label` for tables and figures and a short :attr:`~Average.spec`
that :func:`parse_average` reads back, so the same average can be named on
the command line, in a figure and in a chapter.

=================  ==========================  ====================================
spec               object                      what
=================  ==========================  ====================================
``am``             ``AM()``                    arithmetic mean (MAP over AP)
``gm:0.01``        ``GM(eps=0.01)``            εGM, exp(mean(log(x + ε))) − ε
``gm-floor:1e-5``  ``GM(1e-5, form="floor")``  trec_eval's gm_map: exp(mean(log(max(x, ε))))
``hm:0.01``        ``HM(eps=0.01)``            εHM, 1 / mean(1 / (x + ε)) − ε
``median``         ``Median()``                median
``gm-zeros:1e-5``  ``GM(1e-5, form="zeros")``  the Robust track's GMAP: zeros alone set to ε
``logit:0.01``     ``Logit(eps=0.01)``         mean in log-odds space, mapped back
=================  ==========================  ====================================

>>> from irmeans.averages import GM, parse_average
>>> avg = parse_average("gm:0.01")
>>> avg == GM(eps=0.01), avg.label, round(avg([0.0, 0.4, 0.2, 0.4, 0.3]), 3)
(True, 'εGM (ε = 0.01)', 0.151)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from . import means
from ._validation import eps_value
from .errors import IrmeansError

__all__ = ["Average", "AM", "GM", "HM", "Median", "Logit", "parse_average", "TREC_EVAL_GM"]


def _eps_text(eps: float) -> str:
    return f"{eps:g}"


@dataclass(frozen=True)
class Average:
    """Base class: an average across topics. Subclasses set :attr:`name` and :meth:`__call__`."""

    name: ClassVar[str] = ""

    def __call__(self, x, axis: int | None = None):  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def spec(self) -> str:
        """The short text :func:`parse_average` reads back into this average."""
        return self.name

    #: The scores the average takes, in words (for messages).
    requirement: ClassVar[str] = "finite scores"

    def refuses(self, x) -> np.ndarray:
        """A mask of the (finite) scores this average cannot take: those outside :attr:`requirement`."""
        return np.zeros(np.shape(x), dtype=bool)

    @property
    def label(self) -> str:
        """A readable name for tables and legends."""
        return self.name.upper()

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True)
class AM(Average):
    """The arithmetic mean: MAP when the scores are per-topic AP.

    >>> AM()([0.1, 0.1, 0.3, 0.8, 0.1])
    0.28
    """

    name: ClassVar[str] = "am"

    def __call__(self, x, axis: int | None = None):
        return means.arithmetic_mean(x, axis=axis)


@dataclass(frozen=True)
class GM(Average):
    """The geometric mean with ε: additive (εGM, GMAP) or trec_eval's floor form.

    Parameters
    ----------
    eps : float, default 0
        The ε; finite and >= 0 (> 0 for the floor form).
    form : {"add", "floor", "zeros"}
        ``"add"``: exp(mean(log(x + ε))) − ε. ``"floor"``: exp(mean(log(max(x, ε)))),
        trec_eval's ``gm_map`` with ε = 1e-5. ``"zeros"``: zeros alone become ε,
        the TREC Robust track's GMAP.

    >>> GM(eps=1e-5, form="floor").label
    'GM, trec_eval floor (ε = 1e-05)'
    >>> round(GM(eps=1e-5, form="floor")([0.0, 0.4, 0.2, 0.4, 0.3]), 3)
    0.039
    """

    eps: float = 0.0
    form: str = "add"
    name: ClassVar[str] = "gm"

    def __post_init__(self):
        object.__setattr__(self, "eps", eps_value(self.eps))
        if self.form not in ("add", "floor", "zeros"):
            raise IrmeansError(f"form must be 'add', 'floor' or 'zeros', got {self.form!r}")
        if self.form != "add" and self.eps == 0:
            raise IrmeansError(f"the {self.form} form needs eps > 0 (trec_eval uses 1e-5)")

    def __call__(self, x, axis: int | None = None):
        return means.geometric_mean(x, eps=self.eps, method=self.form, axis=axis)

    requirement: ClassVar[str] = "scores >= 0"

    def refuses(self, x) -> np.ndarray:
        return np.asarray(x) < 0

    @property
    def spec(self) -> str:
        return f"gm{'' if self.form == 'add' else '-' + self.form}:{_eps_text(self.eps)}"

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

    >>> round(HM(eps=0.01)([0.0, 0.4, 0.2, 0.4, 0.3]), 3)
    0.034
    """

    eps: float = 0.0
    name: ClassVar[str] = "hm"

    def __post_init__(self):
        object.__setattr__(self, "eps", eps_value(self.eps))

    def __call__(self, x, axis: int | None = None):
        return means.harmonic_mean(x, eps=self.eps, axis=axis)

    @property
    def requirement(self) -> str:  # type: ignore[override]
        return "scores >= 0" if self.eps else "scores > 0 (a zero needs eps > 0)"

    def refuses(self, x) -> np.ndarray:
        x = np.asarray(x)
        return x < 0 if self.eps else x <= 0

    @property
    def spec(self) -> str:
        return f"hm:{_eps_text(self.eps)}"

    @property
    def label(self) -> str:
        return f"εHM (ε = {_eps_text(self.eps)})" if self.eps else "HM"


@dataclass(frozen=True)
class Median(Average):
    """The median.

    >>> Median()([0.0, 0.4, 0.2, 0.4, 0.3])
    0.3
    """

    name: ClassVar[str] = "median"

    def __call__(self, x, axis: int | None = None):
        return means.median(x, axis=axis)

    @property
    def label(self) -> str:
        return "median"


@dataclass(frozen=True)
class Logit(Average):
    """The mean in log-odds space with ε, mapped back to a score.

    >>> round(Logit()([0.9, 0.99]), 4)
    0.9676
    """

    eps: float = 0.0
    name: ClassVar[str] = "logit"

    def __post_init__(self):
        object.__setattr__(self, "eps", eps_value(self.eps))

    def __call__(self, x, axis: int | None = None):
        return means.logit_mean(x, eps=self.eps, axis=axis)

    @property
    def requirement(self) -> str:  # type: ignore[override]
        return "scores in [0, 1]" if self.eps else "scores strictly between 0 and 1 (0 and 1 need eps > 0)"

    def refuses(self, x) -> np.ndarray:
        x = np.asarray(x)
        return ((x < 0) | (x > 1)) if self.eps else ((x <= 0) | (x >= 1))

    @property
    def spec(self) -> str:
        return f"logit:{_eps_text(self.eps)}"

    @property
    def label(self) -> str:
        return f"logit (ε = {_eps_text(self.eps)})" if self.eps else "logit"


#: trec_eval's ``gm_map``: the floor form with ε = 1e-5.
TREC_EVAL_GM = GM(eps=means.TREC_EVAL_GM_EPS, form="floor")

_NUMBER = re.compile(r"[+]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_KINDS = {"am": AM, "gm": GM, "gm-floor": GM, "gm-zeros": GM, "hm": HM, "median": Median, "logit": Logit}
_TAKES_EPS = {"gm", "gm-floor", "gm-zeros", "hm", "logit"}


def parse_average(spec: str | Average) -> Average:
    """Read an average from its short spec.

    Specs: ``am``, ``gm:0.01``, ``gm-floor:1e-5``, ``gm-zeros:1e-5``, ``hm:0.01``, ``median``, ``logit:0.01``.

    ``gm``, ``hm`` and ``logit`` without ``:ε`` take ε = 0; ``gm-floor`` and
    ``gm-zeros`` without ε take trec_eval's 1e-5. ε is written as a plain
    decimal or e-notation number (no ``_``, ``inf`` or ``nan``). An :class:`Average` is returned as it is.

    >>> parse_average("gm-floor")
    GM(eps=1e-05, form='floor')
    >>> [parse_average(s).spec for s in ("AM", "hm:0.01", "median")]
    ['am', 'hm:0.01', 'median']
    """
    if isinstance(spec, Average):
        return spec
    if not isinstance(spec, str):
        raise IrmeansError(f"an average is a spec such as 'gm:0.01' or an Average, got {spec!r}")
    kind, sep, eps_text = spec.strip().lower().partition(":")
    if kind not in _KINDS:
        known = ", ".join(sorted(_KINDS))
        raise IrmeansError(f"unknown average {spec!r}: expected one of {known}, with ':eps' for gm, hm and logit")
    if sep and kind not in _TAKES_EPS:
        raise IrmeansError(f"average {spec!r}: {kind} takes no ε")
    eps = means.TREC_EVAL_GM_EPS if kind in ("gm-floor", "gm-zeros") else 0.0
    if sep:
        if not _NUMBER.fullmatch(eps_text):
            raise IrmeansError(f"average {spec!r}: ε {eps_text!r} is not a plain number such as 0.01 or 1e-5")
        eps = float(eps_text)
    if kind in ("gm-floor", "gm-zeros"):
        return GM(eps=eps, form=kind.partition("-")[2])
    return _KINDS[kind](eps=eps) if kind in _TAKES_EPS else _KINDS[kind]()
