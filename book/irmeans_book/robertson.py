"""Robertson's (2006) "0.05 boost" example, and a data set that reproduces it.

Robertson, *On GMAP: and other transformations* (CIKM 2006), §3, illustrates
how differently MAP and GMAP reward an improvement with 50 AP values (one per
topic) that are spread widely and mostly small, with exactly three zeros and
three values of 0.01. He prints MAP and GMAP for those values as they are, with
0.05 added to every value, to the lowest 25 only and to the highest 25 only,
and GMAP with two other values of ε. The values themselves were not published.

This module holds the printed figures (:data:`PUBLISHED`), computes the same
figures for any set of scores (:func:`boost_figures`, :func:`boosted_means`),
and searches for a set of 50 values that reproduces every printed figure to
three decimals (:func:`reconstruct`). The result of that search is stored in
the library's package data (:func:`irmeans.datasets.robertson_example`) and read by :func:`load_example`. It is a
reconstruction consistent with the figures, not Robertson's data.

GMAP here is the additive form exp(mean(log(x + ε))) − ε with ε = 1e-5,
as in the paper.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from irmeans.datasets import robertson_example
from irmeans.means import arithmetic_mean, geometric_mean
from numpy.typing import ArrayLike
from scipy import optimize, special

__all__ = [
    "Figure",
    "PUBLISHED",
    "IMPLIED",
    "WHICH",
    "boost",
    "boosted_means",
    "boost_figures",
    "rounding_margins",
    "mismatches",
    "reconstruct",
    "load_example",
    "EXAMPLE_SEED",
]


@dataclass(frozen=True)
class Figure:
    """One figure of the example: the value as printed (3 decimals) and what it is."""

    value: float
    meaning: str


#: The eight figures printed in Robertson (2006), §3, keyed as in :func:`boost_figures`.
PUBLISHED: dict[str, Figure] = {
    "map": Figure(0.309, "MAP of the 50 values as they are"),
    "gmap": Figure(0.117, "GMAP (eps = 1e-5 added, then subtracted) of the values as they are"),
    "map_all": Figure(0.359, "MAP after adding 0.05 to every value"),
    "gmap_all": Figure(0.263, "GMAP after adding 0.05 to every value"),
    "gmap_lowest": Figure(0.249, "GMAP after adding 0.05 to the lowest 25 values only"),
    "gmap_highest": Figure(0.123, "GMAP after adding 0.05 to the highest 25 values only"),
    "gmap_eps_smaller": Figure(0.102, "GMAP of the values as they are with eps = 1e-6"),
    "gmap_eps_larger": Figure(0.134, "GMAP of the values as they are with eps = 1e-4"),
}

#: Figures that follow from the printed ones: boosting half of 50 values by 0.05 adds 0.025 to MAP.
#: Robertson prints neither value, only "an increase of 0.025" for both halves.
_NOT_PRINTED = "not printed: 0.309 plus the printed increase of 0.025"
IMPLIED: dict[str, Figure] = {
    "map_lowest": Figure(0.334, f"MAP after adding 0.05 to the lowest 25 values ({_NOT_PRINTED})"),
    "map_highest": Figure(0.334, f"MAP after adding 0.05 to the highest 25 values ({_NOT_PRINTED})"),
}

#: Which values :func:`boost` raises.
WHICH = ("none", "all", "lowest", "highest")

#: The seed whose :func:`reconstruct` result is stored in ``lib/irmeans/datasets/data/robertson2006-example.csv``.
EXAMPLE_SEED = 2006

_N_TOPICS = 50
_FIXED = np.array([0.0, 0.0, 0.0, 0.01, 0.01, 0.01])
_DECIMALS = 4
# Free values live in [_LOW, _HIGH]: above zero (the example has exactly three zeros)
# and at most 0.95 so that a 0.05 boost never takes a score past 1.
_LOW, _HIGH = 0.001, 0.95
# Shape of the starting draw: a Beta with the mean (0.35) and geometric mean (0.26)
# that the 44 free values need for MAP 0.309 and GMAP 0.117.
_BETA_A, _BETA_B = 1.3, 2.4
# Smallest acceptable distance of a computed figure from a rounding boundary.
_MIN_MARGIN = 1e-4


def _as_ap(ap: ArrayLike) -> np.ndarray:
    a = np.asarray(ap, dtype=np.float64)
    if a.ndim != 1 or a.size < 2:
        raise ValueError(f"expected a 1-d array of at least 2 scores, got shape {a.shape}")
    if not np.isfinite(a).all() or (a < 0).any() or (a > 1).any():
        raise ValueError("scores must be finite and in [0, 1]")
    return a


def boost(ap: ArrayLike, amount: float = 0.05, which: str = "all") -> np.ndarray:
    """Add ``amount`` to all, the lowest half, the highest half, or none of the scores.

    Parameters
    ----------
    ap : array_like
        Per-topic scores in [0, 1].
    amount : float, default 0.05
        What to add. The result is not clipped, so a score above 1 − amount
        ends above 1.
    which : {"all", "lowest", "highest", "none"}
        Which scores to raise. A half is ``len(ap) // 2`` scores; ties are
        broken by position, so with ties at the median the choice is arbitrary.

    Returns
    -------
    ndarray
        The boosted scores, in the order of ``ap``.

    Examples
    --------
    >>> boost([0.4, 0.0, 0.2, 0.9], 0.05, "lowest").round(2).tolist()
    [0.4, 0.05, 0.25, 0.9]
    """
    a = _as_ap(ap).copy()
    if which not in WHICH:
        raise ValueError(f"which must be one of {WHICH}, got {which!r}")
    if not np.isfinite(amount):
        raise ValueError(f"amount must be a finite number, got {amount!r}")
    half = a.size // 2
    order = np.argsort(a, kind="stable")
    if which == "all":
        a += amount
    elif which == "lowest":
        a[order[:half]] += amount
    elif which == "highest":
        a[order[a.size - half :]] += amount
    return a


def boosted_means(
    ap: ArrayLike, amount: float = 0.05, which: str = "all", eps: float = 1e-5
) -> tuple[float | np.ndarray, float | np.ndarray]:
    """MAP and GMAP (additive ε) of the scores after :func:`boost`.

    Returns
    -------
    tuple of float
        ``(map, gmap)``.

    Examples
    --------
    >>> m, g = boosted_means([0.0, 0.1, 0.3, 0.6], 0.05, "lowest")
    >>> round(m, 3), round(g, 3)
    (0.275, 0.192)
    """
    b = boost(ap, amount, which)
    if (b < 0).any():
        raise ValueError("a negative boost took a score below 0; GMAP needs scores >= 0")
    return arithmetic_mean(b), geometric_mean(b, eps=eps, form="add")


def boost_figures(
    ap: ArrayLike, boost: float = 0.05, eps: float = 1e-5, eps_smaller: float = 1e-6, eps_larger: float = 1e-4
) -> dict[str, Any]:
    """The figures of Robertson's example, computed for any set of scores.

    Parameters
    ----------
    ap : array_like
        Per-topic scores in [0, 1].
    boost : float, default 0.05
        The amount added to all, the lowest half, or the highest half.
    eps : float, default 1e-5
        ε of the additive GMAP.
    eps_smaller, eps_larger : float
        The two other values of ε for the unboosted GMAP.

    Returns
    -------
    dict of str to float
        Keys ``map``, ``gmap`` (unboosted), ``map_all``, ``gmap_all``,
        ``map_lowest``, ``gmap_lowest``, ``map_highest``, ``gmap_highest``
        (boosted as named), ``gmap_eps_smaller`` and ``gmap_eps_larger``. The
        keys of :data:`PUBLISHED` and :data:`IMPLIED` are among them.

    Examples
    --------
    >>> f = boost_figures(load_example())
    >>> round(f["gmap"], 3), round(f["gmap_lowest"], 3), round(f["gmap_highest"], 3)
    (0.117, 0.249, 0.123)
    """
    a = _as_ap(ap)
    out: dict[str, Any] = {}
    for which, suffix in (("none", ""), ("all", "_all"), ("lowest", "_lowest"), ("highest", "_highest")):
        out["map" + suffix], out["gmap" + suffix] = boosted_means(a, boost, which, eps)
    out["gmap_eps_smaller"] = geometric_mean(a, eps=eps_smaller, form="add")
    out["gmap_eps_larger"] = geometric_mean(a, eps=eps_larger, form="add")
    return out


def _round_half_away(x: ArrayLike, decimals: int = 3) -> Any:
    s = 10.0**decimals
    return np.sign(x) * np.floor(np.abs(x) * s + 0.5) / s


def rounding_margins(figures: dict[str, Any], decimals: int = 3) -> dict[str, float]:
    """Distance of each figure from the nearest rounding boundary at ``decimals``.

    A figure a hair from a boundary (0.1165 for three decimals, say) would
    round either way with a slightly different data set; a good reconstruction
    keeps every margin well above zero.

    Examples
    --------
    >>> {k: round(v, 6) for k, v in rounding_margins({"a": 0.1168, "b": 0.10152}).items()}
    {'a': 0.0003, 'b': 2e-05}
    """
    s = 10.0**decimals
    return {k: float(abs(v * s - (np.floor(v * s) + 0.5)) / s) for k, v in figures.items()}


def mismatches(ap: ArrayLike, min_margin: float = 0.0) -> dict[str, tuple[Any, float]]:
    """Printed and implied figures that ``ap`` does not reproduce.

    Returns
    -------
    dict of str to tuple
        ``name: (computed, printed)`` for each figure that does not round
        (half away from zero) to the printed value, or that lies closer than
        ``min_margin`` to a rounding boundary. Empty when all is well.

    Examples
    --------
    >>> mismatches(load_example())
    {}
    """
    f = boost_figures(ap)
    margins = rounding_margins(f)
    wanted = {k: fig.value for k, fig in {**PUBLISHED, **IMPLIED}.items()}
    return {
        k: (f[k], v)
        for k, v in wanted.items()
        if not np.isclose(_round_half_away(f[k]), v, rtol=0, atol=1e-9) or margins[k] < min_margin
    }


def _constraints_hold(ap: np.ndarray) -> bool:
    """The structural constraints of the example (not the figures)."""
    s = np.sort(ap)
    half = s.size // 2
    return (
        s.size == _N_TOPICS
        and np.count_nonzero(s == 0.0) == 3
        and np.count_nonzero(np.isclose(s, 0.01, rtol=0, atol=1e-12)) == 3
        and s[3] >= _LOW
        and s.max() <= _HIGH
        # The halves must be unambiguous, and not flip under a tiny change.
        and s[half] - s[half - 1] >= 1e-3
    )


def reconstruct(seed: int = EXAMPLE_SEED, max_tries: int = 20) -> np.ndarray:
    """Search for 50 AP values that reproduce every figure of Robertson's example.

    Six values are fixed (three 0.0, three 0.01). The other 44 start as a
    random draw from a right-skewed Beta(1.3, 2.4), the shape that gives
    roughly the right MAP and GMAP. A bounded least-squares fit then moves them
    as little as it can (a ridge pull towards the draw, in logit space) until
    every figure sits at the centre of its rounding interval; the three GMAPs
    with different ε cannot all be centred, so the fit balances them. The
    values are rounded to 4 decimals and checked: each printed figure must
    round to its printed value with at least 1e-4 to spare, no free value may
    be 0 or 0.01, and the 25th and 26th values must differ by at least 0.001.
    If a draw fails (or the fit needs more than 200 evaluations), the next
    draw from the same generator is tried.

    Parameters
    ----------
    seed : int
        Seed of ``numpy.random.default_rng``; the same seed gives the same set.
    max_tries : int, default 20
        Draws to try before giving up.

    Returns
    -------
    ndarray
        50 values rounded to 4 decimals, in a random (seeded) topic order.

    Raises
    ------
    RuntimeError
        If no draw within ``max_tries`` satisfies everything.

    Examples
    --------
    >>> ap = reconstruct(seed=2006)
    >>> round(float(ap.mean()), 3), mismatches(ap)
    (0.309, {})
    """
    if max_tries < 1:
        raise ValueError(f"max_tries must be at least 1, got {max_tries!r}")
    rng = np.random.default_rng(seed)
    wanted = {k: fig.value for k, fig in PUBLISHED.items()}
    # map_all and the implied MAPs move in lockstep with map; fitting them adds nothing.
    keys = [k for k in wanted if k != "map_all"]
    target = np.array([wanted[k] for k in keys])
    half_width = 5e-4
    ridge = np.sqrt(1e-2)

    def to_values(z: np.ndarray) -> Any:
        return _LOW + (_HIGH - _LOW) * special.expit(z)

    for _ in range(max_tries):
        start = np.clip(rng.beta(_BETA_A, _BETA_B, _N_TOPICS - _FIXED.size), _LOW + 1e-3, _HIGH - 1e-3)
        z0 = special.logit((start - _LOW) / (_HIGH - _LOW))

        def residuals(z: np.ndarray, z0: np.ndarray = z0) -> np.ndarray:
            f = boost_figures(np.concatenate([_FIXED, to_values(z)]))
            fit = (np.array([f[k] for k in keys]) - target) / half_width
            return np.concatenate([fit, ridge * (z - z0)])

        # A draw that needs many more evaluations than usual is seldom worth finishing.
        sol = optimize.least_squares(residuals, z0, method="trf", max_nfev=200)
        free = np.round(to_values(sol.x), _DECIMALS)
        ap = rng.permutation(np.concatenate([_FIXED, free]))
        if _constraints_hold(ap) and not mismatches(ap, _MIN_MARGIN):
            return ap
    raise RuntimeError(f"no data set satisfying every figure in {max_tries} draws with seed {seed!r}")


def load_example() -> np.ndarray:
    """The stored reconstruction as an array of 50 values (see :func:`irmeans.datasets.robertson_example`).

    Examples
    --------
    >>> ap = load_example()
    >>> ap.shape, int((ap == 0).sum())
    ((50,), 3)
    """
    return robertson_example()
