"""Numeric helpers shared by the teaching measures and the evaluator."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["safe_div"]


def safe_div(num: ArrayLike, den: ArrayLike) -> np.ndarray:
    """``num / den`` elementwise, and 0 where ``den`` is 0 (a topic with nothing relevant scores 0).

    >>> safe_div([1, 2], [4, 0]).tolist()
    [0.25, 0.0]
    """
    num, den = np.broadcast_arrays(np.asarray(num, dtype=np.float64), np.asarray(den, dtype=np.float64))
    out = np.zeros(num.shape)
    np.divide(num, den, out=out, where=den != 0)
    return out
