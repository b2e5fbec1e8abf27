"""Simulated test collections: per-topic AP of many systems on many topics.

Real TREC runs cannot be redistributed, so the consistency experiments use
collections generated from a small model. Each system i has a strength sᵢ,
each topic t a difficulty dₜ, and each pair some noise eᵢₜ, all normal with
mean 0. Their combination

    Lᵢₜ = sᵢ − dₜ + eᵢₜ

says how well system i does on topic t. The pairs with the lowest L (the
share ``zero_share`` of all pairs) score AP = 0: a weak system on a hard
topic finds nothing relevant. Every other pair scores

    AP = logistic(slope · (L − c) + logit(0.1)),

with c the L at which AP is 0.1. Both cut points are read off the sorted L
of the collection itself (c halfway between the ``low_share`` quantile and
the next value), so every collection, whatever the seed, has exactly
round(zero_share · N) zeros and round(low_share · N) scores ≤ 0.1 among its
N scores. The random draws do not depend on the shares, so for one seed the
presets hold the same systems and topics, only mapped to AP differently: a
statistic that depends only on the order of scores, such as the median of an
odd number of topics, ranks the systems alike in all of them.

The presets carry the shares of low AP scores that Ravana & Moffat (2009)
report for three TREC collections: zeros and scores ≤ 0.1 among the AP of
all runs on all topics.
"""

from __future__ import annotations

import numpy as np

__all__ = ["PRESETS", "simulate_collection"]

#: Published shares of AP = 0 and of AP ≤ 0.1, by collection.
PRESETS = {
    "TREC9": {"zero_share": 0.10, "low_share": 0.56},
    "TREC2001": {"zero_share": 0.04, "low_share": 0.49},
    "TREC8": {"zero_share": 0.03, "low_share": 0.36},
}


def _positive(value, name):
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    return float(value)


def simulate_collection(
    preset=None,
    *,
    n_systems=105,
    n_topics=50,
    zero_share=None,
    low_share=None,
    seed=None,
    system_sd=0.5,
    topic_sd=1.0,
    noise_sd=0.8,
    slope=1.25,
):
    """Per-topic AP of simulated systems on simulated topics.

    Parameters
    ----------
    preset : {"TREC9", "TREC2001", "TREC8"}, optional
        Take ``zero_share`` and ``low_share`` from :data:`PRESETS` (the name
        is not case sensitive). Without a preset both shares must be given.
    n_systems, n_topics : int, default 105 and 50
        Size of the collection, as in Ravana & Moffat's experiments.
    zero_share : float, optional
        Share of scores that are exactly 0, in [0, 1).
    low_share : float, optional
        Share of scores ≤ 0.1 (zeros included), in [zero_share, 1).
    seed : int or numpy.random.Generator, optional
        Seed of ``numpy.random.default_rng``; the same seed gives the same
        collection.
    system_sd, topic_sd, noise_sd : float
        Standard deviations of system strength, topic difficulty and noise.
        Topics differ more than systems, as in TREC.
    slope : float, default 1.25
        Steepness of the logistic from L to AP; larger values spread the
        scores above 0.1 further towards 1.

    Returns
    -------
    ndarray, shape (n_systems, n_topics)
        AP scores in [0, 1], float64.

    Examples
    --------
    >>> ap = simulate_collection("TREC9", seed=1)
    >>> ap.shape
    (105, 50)
    >>> float((ap == 0).mean()), float((ap <= 0.1).mean())
    (0.1, 0.56)
    """
    if preset is not None:
        if not isinstance(preset, str) or preset.upper() not in PRESETS:
            raise ValueError(f"unknown preset {preset!r}; choose one of {', '.join(PRESETS)}")
        if zero_share is not None or low_share is not None:
            raise ValueError("give either a preset or zero_share and low_share, not both")
        shares = PRESETS[preset.upper()]
        zero_share, low_share = shares["zero_share"], shares["low_share"]
    elif zero_share is None or low_share is None:
        raise ValueError("give a preset name or both zero_share and low_share")
    for name, value in (("n_systems", n_systems), ("n_topics", n_topics)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
    if not 0 <= zero_share < 1:
        raise ValueError(f"zero_share must be in [0, 1), got {zero_share!r}")
    if not zero_share <= low_share < 1:
        raise ValueError(f"low_share must be in [zero_share, 1) = [{zero_share}, 1), got {low_share!r}")
    sds = [_positive(v, n) for v, n in ((system_sd, "system_sd"), (topic_sd, "topic_sd"), (noise_sd, "noise_sd"))]
    slope = _positive(slope, "slope")

    rng = np.random.default_rng(seed)
    strength = rng.normal(0.0, sds[0], size=(n_systems, 1))
    difficulty = rng.normal(0.0, sds[1], size=(1, n_topics))
    noise = rng.normal(0.0, sds[2], size=(n_systems, n_topics))
    quality = strength - difficulty + noise

    ordered = np.sort(quality, axis=None)
    n = ordered.size
    n_zero = round(zero_share * n)
    n_low = round(low_share * n)
    if n_low == n:
        raise ValueError(f"low_share={low_share} leaves none of the {n} scores above 0.1")
    # Cut halfway between neighbouring values, so that exactly n_zero and
    # n_low scores fall at or below the cuts.
    zero_cut = -np.inf if n_zero == 0 else (ordered[n_zero - 1] + ordered[n_zero]) / 2
    if n_low == 0:
        at_tenth = ordered[0] - 1.0
    else:
        at_tenth = (ordered[n_low - 1] + ordered[n_low]) / 2
    from scipy.special import expit, logit  # here, not at the top: `import irmeans` stays light

    ap = expit(slope * (quality - at_tenth) + logit(0.1))
    ap[quality < zero_cut] = 0.0
    return ap
