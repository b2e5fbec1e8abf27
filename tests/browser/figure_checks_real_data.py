"""Checks of the figures on the real TREC runs (chapter 9), against ``irmeans`` in the browser.

Each figure names its check in its spec (``usermeta.irmeans_check``). The
checks register in :data:`figure_checks.CHECKS` when this module is imported.
"""

from __future__ import annotations

import numpy as np
from figure_checks import Figure, expect, figure_check, find, number
from irmeans import consistency, datasets

#: The chapter's seeds and split counts, as the text states them.
TREC8_SPLITS, TREC8_SEED = 10_000, 2009
REPLICATION_SPLITS, REPLICATION_SEED = 1000, 2009


def _by_label():
    return {m.label: m for m in datasets.load_all()}


@figure_check("score density")
def score_density(figure: Figure) -> list[str]:
    """Shares of zeros and of scores at most 0.1 of the chosen matrix, from the shipped data."""
    matrices = _by_label()
    options = figure.options("matrix")
    assert set(options) == set(matrices), f"{len(options)} matrices offered"
    lines = []
    for label in (options[0], "TREC-8 ad hoc (1999), AP", "TREC 2014 Web (2014), P@10"):
        figure.set("matrix", label)
        zeros, low = find(figure.texts(), r"zeros (\S+)%,\s+at most 0\.1: (\S+)%$")
        s = matrices[label].scores
        expect(f"{label}: zeros", zeros, 100 * float((s == 0).mean()))
        expect(f"{label}: at most 0.1", low, 100 * float((s <= 0.1).mean()))
        lines.append(f"{label}: zeros {zeros} %, at most 0.1 {low} %")
    return lines


@figure_check("topic difficulty")
def topic_difficulty(figure: Figure) -> list[str]:
    """Each topic's Equation 1 and 2 difficulty and its hard-half group, from irmeans.topic_difficulty."""
    matrices = _by_label()
    lines = []
    for label in figure.options("collection")[:3]:
        figure.set("collection", label)
        s = np.array(matrices[label].scores)
        eq1, eq2 = (consistency.topic_difficulty(s, d) for d in ("eq1", "eq2"))
        hard2 = set(consistency.difficulty_halves(eq2, "hard-easy")[0][0])
        points = [m["datum"] for m in figure.shown() if m["marktype"] == "symbol" and "eq2" in m["datum"]]
        assert len(points) == s.shape[1], f"{label}: {len(points)} topics drawn for {s.shape[1]}"
        topics = list(matrices[label].topics)
        for p in points:
            t = topics.index(str(p["topic"]))
            assert abs(float(p["eq1"]) - eq1[t]) < 1e-6 and abs(float(p["eq2"]) - eq2[t]) < 1e-6, (label, p)
            assert (t in hard2) == str(p["group"]).startswith(("hard by both", "hard by Eq. 2")), (label, p)
        lines.append(f"{label}: {len(points)} topics, {len(hard2)} hard by Equation 2")
    return lines


@figure_check("tau sweep")
def tau_sweep(figure: Figure) -> list[str]:
    """Mean τ of εGM, εHM, AM and the median on TREC-8 AP at three ε, from irmeans.split_half."""
    ap = np.array(datasets.load("adhoc8", "ap").scores)

    def mean_tau(spec):
        return float(consistency.split_half(ap, spec, TREC8_SPLITS, seed=TREC8_SEED).mean())

    lines = []
    am, median = mean_tau("am"), mean_tau("median")
    for log_eps in (-5.0, -2.0, 0.0):
        figure.set("logeps", log_eps)
        e, gm, hm, am_shown, median_shown = find(
            figure.texts(), r"log10 ε = (\S+):\s+εGM (\S+),\s+εHM (\S+),\s+AM (\S+),\s+median (\S+)$"
        )
        assert number(e) == log_eps, f"log10 ε shown {e}, slider at {log_eps}"
        eps = float(np.round(10.0**log_eps, 12))  # the grid's ε, as the chapter builds it
        expect(f"εGM at ε = {eps:g}", gm, mean_tau(f"gm:{eps!r}"))
        expect(f"εHM at ε = {eps:g}", hm, mean_tau(f"hm:{eps!r}"))
        expect("AM", am_shown, am)
        expect("median", median_shown, median)
        lines.append(f"log10 ε = {e}: εGM {gm}, εHM {hm}, AM {am_shown}, median {median_shown}")
    return lines


@figure_check("replication")
def replication(figure: Figure) -> list[str]:
    """How many of the 46 matrices the εGM wins at two ε, against the AM and trec_eval's GM, from split_half."""
    matrices = datasets.load_all()
    halves = [consistency.make_halves(m.scores, "random", REPLICATION_SPLITS, seed=REPLICATION_SEED) for m in matrices]

    def taus(spec):
        return np.array([np.nanmean(consistency.halves_tau(m.scores, spec, *h)) for m, h in zip(matrices, halves)])

    am, trec = taus("am"), taus("gm-floor:1e-5")
    lines = []
    for log_eps in (-2.0, 0.0):
        figure.set("logeps", log_eps)
        e, wins, n, over_trec = find(
            figure.texts(), r"log10 ε = (\S+):\s+εGM above AM on (\d+) of (\d+),\s+above trec_eval GM on (\d+)$"
        )
        # The chart compares the values rounded to 6 decimals, as they are stored.
        gm = np.round(taus(f"gm:{float(np.round(10.0**log_eps, 12))!r}"), 6)
        assert number(e) == log_eps and int(n) == len(matrices)
        assert int(wins) == int((gm > np.round(am, 6)).sum()), f"ε = 10^{log_eps}: εGM above AM on {wins} shown"
        assert int(over_trec) == int((gm > np.round(trec, 6)).sum()), f"ε = 10^{log_eps}: above trec_eval GM"
        lines.append(f"log10 ε = {e}: εGM above AM on {wins} of {n}, above trec_eval GM on {over_trec}")
    return lines
