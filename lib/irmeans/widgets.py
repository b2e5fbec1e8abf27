"""Live controls for readers running the chapters in Jupyter (ipywidgets).

The callbacks only print what a pure function here returns, so the logic is
tested without a kernel. The static site shows the Vega-Lite versions of the
same figures (:mod:`irmeans.plots`) instead of these controls.

Examples
--------
>>> print(describe_comparison([0.6, 0.1], [0.3, 0.3], "median"))
median: A 0.3500, B 0.3000 -> A is higher
"""

from __future__ import annotations

import numpy as np

from . import ranked
from .plots import AVERAGES

__all__ = ["describe_comparison", "ranking_measures", "describe_ranking", "averages_controls", "ranking_controls"]


def describe_comparison(scores_a, scores_b, average):
    """One line: the chosen average of two systems' per-topic scores, and which is higher.

    Parameters
    ----------
    scores_a, scores_b : array_like
        Per-topic scores of systems A and B.
    average : str
        A key of :data:`irmeans.plots.AVERAGES`.

    Examples
    --------
    >>> print(describe_comparison([0.5, 0.5], [0.5, 0.5], "arithmetic mean"))
    arithmetic mean: A 0.5000, B 0.5000 -> a tie
    """
    mean = AVERAGES[average]
    a, b = mean(scores_a), mean(scores_b)
    verdict = "A is higher" if a > b else "B is higher" if b > a else "a tie"
    return f"{average}: A {a:.4f}, B {b:.4f} -> {verdict}"


def ranking_measures(relevant_ranks, num_relevant, depth=10):
    """The measures of chapter 2 for a ranking given by its relevant ranks.

    Parameters
    ----------
    relevant_ranks : iterable of int
        Ranks (1-based, at most ``depth``) holding a relevant document.
    num_relevant : int
        R; raised to the number of relevant ranks if smaller.
    depth : int
        Length of the ranking.

    Returns
    -------
    dict
        ``R`` (as used), ``P@5``, ``P@10``, ``R-precision``, ``AP``, ``RR``.

    Examples
    --------
    >>> m = ranking_measures([1, 3], num_relevant=4)
    >>> m["R"], round(m["AP"], 4), m["RR"]
    (4, 0.4167, 1.0)
    """
    rels = np.zeros(depth)
    rels[np.asarray(list(relevant_ranks), dtype=int) - 1] = 1
    R = max(int(num_relevant), int(rels.sum()), 1)
    return {
        "R": R,
        "P@5": ranked.precision_at(rels, 5),
        "P@10": ranked.precision_at(rels, 10),
        "R-precision": ranked.r_precision(rels, R),
        "AP": ranked.average_precision(rels, R),
        "RR": ranked.reciprocal_rank(rels),
    }


def describe_ranking(relevant_ranks, num_relevant, depth=10):
    """:func:`ranking_measures` as lines of text.

    Examples
    --------
    >>> print(describe_ranking([2], 1).splitlines()[-1])
    RR           0.5000
    """
    m = ranking_measures(relevant_ranks, num_relevant, depth)
    lines = [f"R used       {m.pop('R')}"]
    lines += [f"{name:<12} {value:.4f}" for name, value in m.items()]
    return "\n".join(lines)


def averages_controls(scores_a, scores_b):
    """A slider for A's last topic score and a dropdown of averages, printing the comparison."""
    import ipywidgets as w

    a = np.asarray(scores_a, dtype=float)

    def update(weakest, average):
        print(describe_comparison(np.append(a[:-1], weakest), scores_b, average))

    return w.interactive(
        update,
        weakest=w.FloatSlider(value=float(a[-1]), min=0.01, max=0.30, step=0.01,
                              description="A, last topic"),
        average=w.Dropdown(options=list(AVERAGES), description="Average"),
    )


def ranking_controls(depth=10, max_r=15, initial=(1, 3, 6), initial_r=5):
    """Ten checkboxes (relevant ranks) and an R slider, printing the measures."""
    import ipywidgets as w

    boxes = {f"rank{k}": w.Checkbox(value=k in initial, description=f"Rank {k}") for k in range(1, depth + 1)}

    def update(R, **ticked):
        ranks = [int(name[4:]) for name, on in ticked.items() if on]
        print(describe_ranking(ranks, R, depth))

    return w.interactive(update, R=w.IntSlider(value=initial_r, min=1, max=max_r, description="R"), **boxes)
