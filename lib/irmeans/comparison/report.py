"""The text report of a :class:`~irmeans.comparison.result.Comparison`, for people: verdicts in words, then tables.

At most :data:`WIDTH` columns for ordinary names (the notes and verdicts are wrapped, the
tables split in two: the differences, then the tests), readable headers, and each pair turned
so that the system the first average prefers comes first and its differences are positive
(unless a baseline was given: then each system comes first, against the baseline). CSV,
JSON and the DataFrame keep A and B as given and every column, under their own names.

The notes at the top name what was compared, the scale each t-test runs on, the Holm family,
the randomization test's floor (its smallest possible p-value) and which test marks the
verdicts, with the reason when ``compare`` chose the t-test because the randomization test
could not reach α.

>>> import irmeans
>>> scores = {"A": {"1": 0.0, "2": 0.8, "3": 0.8, "4": 0.8}, "B": {"1": 0.4, "2": 0.4, "3": 0.4, "4": 0.4}}
>>> print(text_report(irmeans.compare(scores, ["am"], bootstrap=200)).splitlines()[-1])
A  B  am       1.00  0.391  0.391      0.625  0.625
"""

from __future__ import annotations

import math
import textwrap
from typing import Any

import numpy as np

from .significance import FLOOR_SHARE
from .tables import Table, render

# A Comparison is typed as Any here: its module imports this one, and the library's modules form no cycle.
Comparison = Any

__all__ = ["text_report", "verdict_lines", "p_text", "robust_cell", "WIDTH"]

#: The widest line of the report (names of ordinary length).
WIDTH = 100

_TESTS = {"randomization": "the randomization test", "t": "the t-test on each average's scale", "sign": "the sign test"}


def _wrap(text: str, first: str = "# ", rest: str = "#   ") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False)


def p_text(p: float) -> str:
    """A p-value to read: three significant digits; below the smallest double as such, not 0."""
    if math.isnan(p):
        return "-"
    return "<1e-300" if p < 1e-300 else f"{p:.3g}"


def _turned(c: Comparison) -> np.ndarray:
    """Pairs shown the other way round (B first): without a baseline, where the first average prefers B."""
    if c.baseline is not None:
        return np.zeros(c.first.size, dtype=bool)
    return np.asarray(c.better[0] < 0)


def _notes(c: Comparison) -> list[str]:
    m = c.matrix
    n_pairs = c.first.size
    if c.baseline:
        what = f"each system against {c.baseline} (system first)"
    else:
        what = f"all {n_pairs:,} pairs" if n_pairs > 1 else "one pair"
        what += f", the system the {c.averages[0].label} prefers first"
    lines = _wrap(f"{m.label or 'scores'}: {m.shape[0]} systems x {m.shape[1]} topics; {what}.")
    scales = "; ".join(
        f"{a.label} on {a.scale}" if not np.isnan(c.tests.p_t[k]).all() else f"{a.label}: none (no finite scale)"
        for k, a in enumerate(c.averages)
    )
    lines += _wrap(
        "Differences are in each average's own units (a GM's and a logit mean's mapped back to scores); "
        f"each t-test runs on the average's scale: {scales}."
    )
    flips = (
        f"all {c.permutations:,} sign vectors (exact)"
        if c.exact
        else f"{c.permutations:,} random sign vectors (seed {c.seed})"
    )
    family = (
        f"({n_pairs:,} pairs x {len(c.averages)} averages; the sign test over the {n_pairs:,} pairs)"
        if c.holm_family is None
        else f"of every measure compared together ({n_pairs:,} pairs x {len(c.averages)} averages a measure; "
        "the sign test over the pairs of every measure)"
    )
    lines += _wrap(
        f"Holm's correction over the {c.comparisons:,} comparisons of each test {family}. Randomization test: {flips}; "
        f"its smallest possible p is {c.p_floor:.3g}, {c.p_floor_holm:.3g} after Holm (^ marks a p on it)."
    )
    lines += _wrap(_marking(c))
    lines += _wrap(
        f"{c.confidence:.0%} bootstrap intervals, {c.bootstrap:,} resamples of the topics. Robertson's check: "
        "does a transformation of the scores reverse the AM's verdict substantially (the reversed "
        f"difference's own {c.confidence:.0%} interval excluding 0)? Transformations: " + ", ".join(c.family) + "."
    )
    return lines


def _marking(c: Comparison) -> str:
    """Which test marks the verdicts, and why when it was not the one asked for or cannot reach α."""
    said = f"Verdicts are marked by {_TESTS[c.test]}, Holm-adjusted p < {c.alpha:g}"
    floor_high = c.p_floor_holm > FLOOR_SHARE * c.alpha
    if c.test == "randomization" or not floor_high:
        if c.test == "randomization" and floor_high:
            return said + (
                f". Warning: its smallest Holm-adjusted p, {c.p_floor_holm:.3g}, is not well below α: "
                + _how_to_lower(c)
            )
        return said + "."
    why = f"the randomization test's smallest Holm-adjusted p, {c.p_floor_holm:.3g}, is not well below α"
    return said + (f", since {why}: {_how_to_lower(c)}" if c.requested_test == "auto" else ".")


def _how_to_lower(c: Comparison) -> str:
    if c.exact:
        return f"its {c.permutations:,} sign vectors are every one there is for {c.matrix.shape[1]} topics."
    needed = math.ceil(c.comparisons / (FLOOR_SHARE * c.alpha)) - 1
    return f"-n {needed:,} (permutations) would bring it to {FLOOR_SHARE:g} α."


def robust_cell(v: Any) -> str:
    """Robertson's check of a :class:`~irmeans.comparison.result.Verdict` in a few words: the first transformation
    that reverses it, and how."""
    if v.reversed_by is None:
        return "yes" if v.robust else "no: the AM ties them"
    return f"no: {v.reversed_by} reverses it" if v.substantial else f"yes: {v.reversed_by} reverses it within noise"


def _number(x: float, digits: int) -> str:
    return f"{x:+.{digits}f}"


def verdict_lines(c: Comparison, digits: int = 4) -> list[str]:
    """A verdict in words for each pair, wrapped at :data:`WIDTH` columns: which system each average finds
    better (or no clear difference), with the difference, its interval and the marking test's Holm-adjusted p;
    whether the averages disagree; Robertson's check; the sign test."""
    names = c.matrix.systems
    turned = _turned(c)
    diff, low, high, p, sig = c.difference, c.ci_low, c.ci_high, c.p_holm, c.significant
    on_floor = c.on_floor() if c.test == "randomization" else np.zeros_like(sig)
    sign, rob, disagree = c.tests.sign, c.robertson, c.disagree  # each computed once, not once a pair
    lines = []
    for j, (i_a, i_b) in enumerate(zip(c.first.tolist(), c.second.tolist())):
        s = -1.0 if turned[j] else 1.0
        a, b = (names[i_b], names[i_a]) if turned[j] else (names[i_a], names[i_b])
        parts = []
        for k, avg in enumerate(c.averages):
            d, lo, hi = s * diff[k, j], min(s * low[k, j], s * high[k, j]), max(s * low[k, j], s * high[k, j])
            numbers = f"{_number(d, digits)}, {c.confidence:.0%} CI {_number(lo, digits)} to {_number(hi, digits)}"
            numbers += f", Holm p = {p_text(p[k, j])}"
            if sig[k, j]:
                better, worse = (a, b) if d > 0 else (b, a)
                floor = ", on the test's floor: no smaller p was possible" if on_floor[k, j] else ""
                parts.append(f"{better} is better than {worse} under the {avg.label} ({numbers}{floor})")
            elif on_floor[k, j]:  # not marked, but no p could be smaller with these sign vectors
                ahead = a if d > 0 else b
                parts.append(
                    f"{ahead} ahead under the {avg.label}, unresolved: its p is the test's floor, which more sign "
                    f"vectors (-n) would lower ({numbers})"
                )
            else:
                parts.append(f"no clear difference under the {avg.label} ({numbers})")
        text = f"{a} vs {b}: " + "; ".join(parts) + "."
        if disagree[j]:
            text += " The averages disagree on which is ahead."
        if rob.reversed_by[j] is not None:
            r_low, r_high = sorted((s * rob.low[j], s * rob.high[j]))
            reversal = f"{s * rob.difference[j]:+.3g} on its scale, CI {r_low:+.3g} to {r_high:+.3g}"
            how = "substantially" if rob.substantial[j] else "within the noise"
            text += f" Robertson: {rob.reversed_by[j]} reverses the AM's verdict {how} ({reversal})."
        elif rob.robust[j]:
            text += " Robertson: no transformation reverses the AM's verdict."
        else:
            text += " Robertson: the AM ties them, no verdict to reverse."
        wins, losses = (sign.losses[j], sign.wins[j]) if turned[j] else (sign.wins[j], sign.losses[j])
        text += (
            f" Sign test: {a} ahead on {wins} topics, behind on {losses} (Holm p = {p_text(c.tests.p_sign_holm[j])})."
        )
        lines += _wrap(text, "", "    ")
    return lines


def _tables(c: Comparison, digits: int) -> tuple[Table, Table]:
    names = c.matrix.systems
    turned = _turned(c)
    s = np.where(turned, -1.0, 1.0)  # (pairs,): each pair's numbers turned with it, once for all
    a_idx, b_idx = np.where(turned, c.second, c.first), np.where(turned, c.first, c.second)
    diff, t = s * c.difference, s * c.tests.t
    low = np.minimum(s * c.ci_low, s * c.ci_high)
    high = np.maximum(s * c.ci_low, s * c.ci_high)
    mean_a, mean_b = c.means[:, a_idx], c.means[:, b_idx]
    marks = np.where(c.on_floor(), "^", "")
    tests = c.tests
    f = f"{{:+.{digits}f}}"
    differences, rows = [], []
    for j in range(c.first.size):
        a, b = names[a_idx[j]], names[b_idx[j]]
        for k, avg in enumerate(c.averages):
            differences.append(
                (
                    a,
                    b,
                    avg.spec,
                    f"{mean_a[k, j]:.{digits}f}",
                    f"{mean_b[k, j]:.{digits}f}",
                    f.format(diff[k, j]),
                    f.format(low[k, j]),
                    f.format(high[k, j]),
                )
            )
            rows.append(
                (
                    a,
                    b,
                    avg.spec,
                    "-" if math.isnan(t[k, j]) else f"{t[k, j]:.2f}",
                    p_text(tests.p_t[k, j]),
                    p_text(tests.p_t_holm[k, j]),
                    p_text(tests.p_randomization[k, j]),
                    p_text(tests.p_randomization_holm[k, j]) + marks[k, j],
                )
            )
    level = f"{c.confidence:.0%}"
    return (
        Table("Differences", ("A", "B", "average", "A's", "B's", "A - B", f"{level} CI low", "high"), differences),
        Table("Tests", ("A", "B", "average", "t", "p (t)", "Holm", "p (rand.)", "Holm"), rows),
    )


def text_report(c: Comparison, digits: int = 4) -> str:
    """The comparison as text for people: the notes, a verdict in words for each pair, then the differences and
    the tests (raw and Holm-adjusted p-values side by side).

    Parameters
    ----------
    c : Comparison
    digits : int, default 4
        Decimals of the means, differences and intervals.

    Returns
    -------
    str
    """
    differences, tests = _tables(c, digits)
    blocks = [
        "\n".join(["# Comparison", *_notes(c)]),
        "\n".join(["# Verdicts", *verdict_lines(c, digits)]),
        render(differences, "text"),
        render(tests, "text"),
    ]
    return "\n\n".join(blocks) + "\n"
