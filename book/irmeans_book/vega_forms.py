"""The library's averages written in Vega's expression language, for a page to compute with no kernel.

A page computes each average of a reader's scores in the browser (:mod:`irmeans_book.yourscores`):
it takes ``transform`` of each score, aggregates those with Vega's ``op`` (``"sum"`` or
``"median"``) into a total, and maps the total (and the count of scores) back with ``back``;
``refused`` is true of a score the average cannot take.  :func:`vega_form` writes these
expressions from the average's own kind and ε (its :attr:`~irmeans.averages.Average.spec`), one
formula a kind, each the library's formula (a test renders them with Vega and holds every value
to the library's).

>>> from irmeans.averages import AM, GM
>>> vega_form(AM(), "x", "t", "n")
VegaForm(transform='x', op='sum', back='t / n', refused='false')
>>> vega_form(GM(eps=0.01), "x", "t", "n").transform
'log(x + 0.01)'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from irmeans.averages import Average

__all__ = ["VegaForm", "vega_form"]


@dataclass(frozen=True)
class VegaForm:
    """One average in Vega's expression language: ``transform`` of a score, ``op`` over them, ``back`` of the
    total, and when a score is ``refused``."""

    transform: str
    op: str
    back: str
    refused: str


def _js(number: float) -> str:
    """A float as a literal of Vega's expression language (JavaScript's): 1e-05, 0.01."""
    return repr(float(number))


def _am(eps: float, x: str, total: str, count: str) -> VegaForm:
    return VegaForm(transform=x, op="sum", back=f"{total} / {count}", refused="false")


def _gm(eps: float, x: str, total: str, count: str) -> VegaForm:
    e, mean = _js(eps), f"({total} / {count})"
    if eps > 1:  # as the library: ε·(exp(mean(log1p(x/ε))) − 1)
        return VegaForm(f"log(1 + {x} / {e})", "sum", f"max({e} * (exp{mean} - 1), 0)", f"{x} < 0")
    # A zero without ε: log 0 = -Infinity, whose sum stays -Infinity and whose exp is 0.
    return VegaForm(f"log({x} + {e})", "sum", f"max(exp{mean} - {e}, 0)", f"{x} < 0")


def _gm_floor(eps: float, x: str, total: str, count: str) -> VegaForm:
    return VegaForm(f"log(max({x}, {_js(eps)}))", "sum", f"exp({total} / {count})", f"{x} < 0")


def _gm_zeros(eps: float, x: str, total: str, count: str) -> VegaForm:
    return VegaForm(f"log({x} == 0 ? {_js(eps)} : {x})", "sum", f"exp({total} / {count})", f"{x} < 0")


def _hm(eps: float, x: str, total: str, count: str) -> VegaForm:
    e = _js(eps)
    refused = f"{x} < 0" if eps else f"{x} <= 0"
    return VegaForm(f"1 / ({x} + {e})", "sum", f"max({count} / {total} - {e}, 0)", refused)


def _median(eps: float, x: str, total: str, count: str) -> VegaForm:
    return VegaForm(transform=x, op="median", back=total, refused="false")


def _logit(eps: float, x: str, total: str, count: str) -> VegaForm:
    e, one = _js(eps), _js(1 + eps)
    y, ex = f"({total} / {count})", f"exp(-abs({total} / {count}))"
    # Mapped back as the library does, through exp(-|y|), so that a large |y| does not overflow.
    back = f"clamp({y} >= 0 ? ({one} - {e} * {ex}) / (1 + {ex}) : ({one} * {ex} - {e}) / (1 + {ex}), 0, 1)"
    refused = f"{x} < 0 || {x} > 1" if eps else f"{x} <= 0 || {x} >= 1"
    return VegaForm(f"log({x} + {e}) - log(1 - {x} + {e})", "sum", back, refused)


#: Each kind of average (the spec's name before ``:``) and its expressions, from its ε.
FORMS: dict[str, Callable[[float, str, str, str], VegaForm]] = {
    "am": _am,
    "gm": _gm,
    "gm-floor": _gm_floor,
    "gm-zeros": _gm_zeros,
    "hm": _hm,
    "median": _median,
    "logit": _logit,
}


def vega_form(
    average: Average, x: str = "datum.score", total: str = "datum.total", count: str = "datum.count"
) -> VegaForm:
    """``average`` in Vega's expression language: ``x`` names a score, ``total`` the aggregate of the transformed
    scores, ``count`` how many there are."""
    kind = average.spec.partition(":")[0]
    if kind not in FORMS:
        raise ValueError(f"{average.label} has no form in Vega's expression language")
    return FORMS[kind](float(getattr(average, "eps", 0.0)), x, total, count)
