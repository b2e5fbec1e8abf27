"""What :func:`irmeans.compare` finds, and its tables: text, Markdown, LaTeX, CSV, JSON, a DataFrame and a plot.

A :class:`Comparison` holds, for every compared pair of systems (A, B) and every average,
the two averages and their difference A − B with its bootstrap interval, the paired t-test on
the average's scale and the randomization test, the sign test of the pair, each with Holm's
adjusted p-values, and Robertson's check of the pair. It reads as two tables:

- **differences**, a row per pair and average: the means, the difference, the interval and
  the Holm-adjusted p-values of the t-test and the randomization test;
- **verdicts**, a row per pair: which system each average prefers (``>``: A, ``<``: B,
  ``=``: neither; ``*`` where the chosen test, Holm-adjusted, is below α), the sign test,
  whether the averages disagree, and Robertson's check (the first transformation of its family that reverses
  the arithmetic mean's verdict, and whether it does so substantially).

:meth:`Comparison.to_text` is another thing: the report for people of :mod:`.report`.

CSV and JSON hold every number unrounded (raw and adjusted p-values alike); the text,
Markdown and LaTeX tables round them for reading.  A number that is not finite is written as
CSV writes it (``inf``, ``-inf``; NaN, a test that does not apply, as an empty cell) and, since
JSON has no such numbers, in JSON as the string ``"inf"`` or ``"-inf"`` (t is infinite when a
pair's differences are all equal and not 0) and NaN as ``null``.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .._numeric import TOLERANCE
from ..averages import Average
from ..errors import IrmeansError
from ..score_matrix import ScoreMatrix
from .report import p_text as _p
from .report import robust_cell as _robust_cell
from .robustness import Robertson
from .significance import SignTest
from .tables import FORMATS, Table, csv_text, render

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "Comparison",
    "Tests",
    "Verdict",
    "AverageVerdict",
    "OUTPUT_FORMATS",
    "COLUMNS",
    "MAX_PLOT_PAIRS",
    "LATEX_NEEDS",
]

#: What :meth:`Comparison.format` writes.
OUTPUT_FORMATS = (*FORMATS, "csv", "json")
#: The columns of :meth:`Comparison.rows` and of the CSV, in order.
COLUMNS = (
    "system_a",
    "system_b",
    "average",
    "label",
    "mean_a",
    "mean_b",
    "difference",
    "ci_low",
    "ci_high",
    "t",
    "p_t",
    "p_t_holm",
    "p_randomization",
    "p_randomization_holm",
    "wins",
    "losses",
    "ties",
    "p_sign",
    "p_sign_holm",
    "better",
    "significant",
    "disagree",
    "robust",
    "reversed_by",
    "reversal_difference",
    "reversal_ci_low",
    "reversal_ci_high",
    "reversal_substantial",
)
#: The first line of the LaTeX output: what the document must load for its tables.
LATEX_NEEDS = r"% needs \usepackage{booktabs} (\toprule, \midrule, \bottomrule)"
#: The most pairs :meth:`Comparison.plot_spec` draws (a row of panels each).
MAX_PLOT_PAIRS = 25


@dataclass(frozen=True, eq=False)
class Tests:
    """The tests' statistics and p-values: (averages, pairs) arrays, the sign test's (pairs,); NaN where a test
    does not apply (the t-test for an average without a finite transform, such as the median)."""

    t: np.ndarray
    p_t: np.ndarray
    p_t_holm: np.ndarray
    p_randomization: np.ndarray
    p_randomization_holm: np.ndarray
    sign: SignTest
    p_sign_holm: np.ndarray


@dataclass(frozen=True)
class AverageVerdict:
    """One average's verdict on a pair: its spec, the difference A − B, the better system (None for a tie),
    and whether the chosen test's Holm-adjusted p-value is below α."""

    average: str
    difference: float
    better: str | None
    significant: bool


@dataclass(frozen=True)
class Verdict:
    """A pair's verdicts: one per average, whether they disagree, the sign test and Robertson's check (the first
    transformation that reverses the arithmetic mean's verdict, or None, and whether it does so substantially)."""

    system_a: str
    system_b: str
    by_average: tuple[AverageVerdict, ...]
    disagree: bool
    wins: int
    losses: int
    ties: int
    p_sign_holm: float
    robust: bool
    reversed_by: str | None
    substantial: bool


def _float(x: Any) -> float | str | None:
    """A number as JSON holds it: a finite one as it is, an infinite one as the string "inf" or "-inf", NaN as None."""
    v = float(x)
    if math.isnan(v):
        return None
    return v if math.isfinite(v) else ("inf" if v > 0 else "-inf")


@dataclass(frozen=True, eq=False)
class Comparison:
    """The result of :func:`irmeans.compare`: pairs of systems under several averages.

    Attributes
    ----------
    matrix : ScoreMatrix
        The scores compared.
    averages : tuple of Average
    first, second : ndarray of int, shape (pairs,)
        Each pair's systems A and B (rows of ``matrix``); every difference is A − B.
    baseline : str or None
        The system every other was compared with, or None for every pair.
    means : ndarray, shape (averages, systems)
        Each system's average.
    ci_low, ci_high : ndarray, shape (averages, pairs)
        Percentile bootstrap interval of each difference, at ``confidence``.
    tests : Tests
    robertson : Robertson
        Robertson's check of each pair (:func:`irmeans.comparison.robustness.robertson_check`); ``robust``,
        ``reversed_by`` and ``family`` are its own.
    permutations : int
        Sign vectors of the randomization test (2**topics when ``exact``).
    exact : bool
        Whether the randomization test enumerated every sign vector.
    bootstrap, confidence, alpha, seed
        The settings :func:`irmeans.compare` was called with.
    test : str
        The test that marks the verdicts: ``randomization``, ``t`` or ``sign``.
    requested_test : str
        The test asked for; ``auto`` when :func:`irmeans.compare` chose ``test``.
    holm_family : int or None
        The comparisons each test's Holm correction ran over, when more than these (several measures corrected
        together: :func:`irmeans.comparison.by_measure.compare_measures`); None for pairs × averages.
    """

    matrix: ScoreMatrix
    averages: tuple[Average, ...]
    first: np.ndarray
    second: np.ndarray
    baseline: str | None
    means: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    tests: Tests
    robertson: Robertson
    permutations: int
    exact: bool
    bootstrap: int
    confidence: float
    alpha: float
    test: str
    requested_test: str
    seed: int
    holm_family: int | None = None

    # -- derived values ---------------------------------------------------------------------------------------

    @property
    def robust(self) -> np.ndarray:
        """Robertson's check, (pairs,): the AM prefers one system and no transformation reverses it substantially."""
        return self.robertson.robust

    @property
    def reversed_by(self) -> tuple[str | None, ...]:
        """For each pair, the first transformation that reverses the arithmetic mean's verdict, or None."""
        return self.robertson.reversed_by

    @property
    def family(self) -> tuple[str, ...]:
        """The transformations of Robertson's check (:data:`irmeans.comparison.robustness.FAMILY`, those that take
        the scores)."""
        return self.robertson.family

    @property
    def comparisons(self) -> int:
        """The size of each test's Holm family: pairs × averages (the sign test's is the pairs alone), or
        :attr:`holm_family` when it was corrected with other measures' comparisons."""
        return self.holm_family or int(self.means.shape[0] * self.first.size)

    @property
    def p_floor(self) -> float:
        """The smallest p-value the randomization test can give with its sign vectors (2 / 2**n exact,
        1 / (permutations + 1) at random)."""
        from .significance import randomization_floor

        return randomization_floor(self.permutations, self.exact)

    @property
    def p_floor_holm(self) -> float:
        """The smallest Holm-adjusted p-value of the randomization test: :attr:`p_floor` × :attr:`comparisons`."""
        return min(1.0, self.p_floor * self.comparisons)

    def on_floor(self) -> np.ndarray:
        """Where the randomization test's Holm-adjusted p-value is its floor, (averages, pairs): no p could be
        smaller with these sign vectors, so a verdict there may only lack sign vectors."""
        floor = self.p_floor_holm
        return np.asarray(np.abs(self.tests.p_randomization_holm - floor) <= 1e-9 * floor)

    @property
    def pairs(self) -> list[tuple[str, str]]:
        """Each pair's (A, B) system names."""
        names = self.matrix.systems
        return [(names[i], names[j]) for i, j in zip(self.first.tolist(), self.second.tolist())]

    @property
    def difference(self) -> np.ndarray:
        """A's average − B's, (averages, pairs)."""
        d: np.ndarray = self.means[:, self.first] - self.means[:, self.second]
        return d

    @property
    def better(self) -> np.ndarray:
        """+1 where an average prefers A, −1 where it prefers B, 0 for a tie (averages, pairs)."""
        a, b = self.means[:, self.first], self.means[:, self.second]
        tie = np.abs(a - b) <= TOLERANCE * np.maximum(np.abs(a), np.abs(b))
        return np.where(tie, 0, np.sign(a - b)).astype(np.int8)

    @property
    def disagree(self) -> np.ndarray:
        """Pairs on which one average prefers A and another B (a tie disagrees with neither)."""
        b = self.better
        return np.asarray((b > 0).any(axis=0) & (b < 0).any(axis=0))

    @property
    def p_holm(self) -> np.ndarray:
        """The chosen test's Holm-adjusted p-values, (averages, pairs) (the sign test's repeated for each average)."""
        if self.test == "t":
            return self.tests.p_t_holm
        if self.test == "sign":
            return np.broadcast_to(self.tests.p_sign_holm, self.means[:, self.first].shape)
        return self.tests.p_randomization_holm

    @property
    def significant(self) -> np.ndarray:
        """Where the chosen test's Holm-adjusted p-value is below α, (averages, pairs)."""
        with np.errstate(invalid="ignore"):
            significant: np.ndarray = self.p_holm < self.alpha
        return significant

    def verdicts(self) -> list[Verdict]:
        """A :class:`Verdict` for each pair, in order."""
        names, diff, better, sig = self.matrix.systems, self.difference, self.better, self.significant
        sign, disagree = self.tests.sign, self.disagree
        out = []
        for j, (a, b) in enumerate(self.pairs):
            by_average = tuple(
                AverageVerdict(
                    avg.spec,
                    float(diff[k, j]),
                    None if better[k, j] == 0 else names[self.first[j] if better[k, j] > 0 else self.second[j]],
                    bool(sig[k, j]),
                )
                for k, avg in enumerate(self.averages)
            )
            out.append(
                Verdict(
                    a,
                    b,
                    by_average,
                    bool(disagree[j]),
                    int(sign.wins[j]),
                    int(sign.losses[j]),
                    int(sign.ties[j]),
                    float(self.tests.p_sign_holm[j]),
                    bool(self.robust[j]),
                    self.reversed_by[j],
                    bool(self.robertson.substantial[j]),
                )
            )
        return out

    # -- rows, frames and files -------------------------------------------------------------------------------

    def columns(self) -> dict[str, list[Any]]:
        """Every column of :data:`COLUMNS` as a list, a value per pair and average (pairs outer, as in :meth:`rows`)."""
        n_avg, n_pairs = len(self.averages), self.first.size
        tests, sign, names = self.tests, self.tests.sign, self.matrix.systems

        def each(a: np.ndarray) -> list[Any]:  # (averages, pairs) -> pairs outer
            return list(np.asarray(a).T.ravel().tolist())

        def repeat(values: Any) -> list[Any]:  # (pairs,) -> each value once for every average
            return [v for v in list(values) for _ in range(n_avg)]

        better = self.better
        winner = np.where(better > 0, self.first, self.second)
        winners = [names[w] if b else "" for w, b in zip(each(winner), each(better))]
        return {
            "system_a": repeat(names[i] for i in self.first.tolist()),
            "system_b": repeat(names[i] for i in self.second.tolist()),
            "average": [a.spec for a in self.averages] * n_pairs,
            "label": [a.label for a in self.averages] * n_pairs,
            "mean_a": each(self.means[:, self.first]),
            "mean_b": each(self.means[:, self.second]),
            "difference": each(self.difference),
            "ci_low": each(self.ci_low),
            "ci_high": each(self.ci_high),
            "t": each(tests.t),
            "p_t": each(tests.p_t),
            "p_t_holm": each(tests.p_t_holm),
            "p_randomization": each(tests.p_randomization),
            "p_randomization_holm": each(tests.p_randomization_holm),
            "wins": repeat(sign.wins.tolist()),
            "losses": repeat(sign.losses.tolist()),
            "ties": repeat(sign.ties.tolist()),
            "p_sign": repeat(sign.p.tolist()),
            "p_sign_holm": repeat(tests.p_sign_holm.tolist()),
            "better": winners,
            "significant": each(self.significant),
            "disagree": repeat(self.disagree.tolist()),
            "robust": repeat(self.robust.tolist()),
            "reversed_by": repeat(self.reversed_by),
            "reversal_difference": repeat(self.robertson.difference.tolist()),
            "reversal_ci_low": repeat(self.robertson.low.tolist()),
            "reversal_ci_high": repeat(self.robertson.high.tolist()),
            "reversal_substantial": repeat(self.robertson.substantial.tolist()),
        }

    def rows(self) -> list[dict[str, Any]]:
        """A dict per pair and average (pairs outer), keyed by :data:`COLUMNS`; NaN where a test does not apply."""
        columns = self.columns()
        return [dict(zip(COLUMNS, values)) for values in zip(*(columns[c] for c in COLUMNS))]

    def to_frame(self) -> pd.DataFrame:
        """:meth:`rows` as a pandas DataFrame indexed by (system_a, system_b, average) (needs pandas)."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("Comparison.to_frame needs pandas: pip install 'irmeans[pandas]'") from None
        return pd.DataFrame(self.columns(), columns=list(COLUMNS)).set_index(["system_a", "system_b", "average"])

    def to_csv(self, path: str | os.PathLike[str] | None = None) -> str:
        """:meth:`rows` as CSV (numbers unrounded, NaN as an empty cell); written to ``path`` if given."""
        rows = [[_cell(v) for v in row.values()] for row in self.rows()]
        return _save(csv_text(COLUMNS, rows), path)

    def to_dict(self) -> dict[str, Any]:
        """Everything, as plain Python values (NaN as None, ±inf as "inf" and "-inf"): what :meth:`to_json` writes."""
        names = self.matrix.systems
        verdicts = []
        for v in self.verdicts():
            verdicts.append(
                {
                    "system_a": v.system_a,
                    "system_b": v.system_b,
                    "better": {x.average: x.better for x in v.by_average},
                    "significant": {x.average: x.significant for x in v.by_average},
                    "disagree": v.disagree,
                    "sign_test": {"wins": v.wins, "losses": v.losses, "ties": v.ties, "p_holm": v.p_sign_holm},
                    "robust": v.robust,
                    "reversed_by": v.reversed_by,
                    "reversal_substantial": v.substantial,
                }
            )
        return {
            "scores": {
                "label": self.matrix.label,
                "collection": self.matrix.collection,
                "measure": self.matrix.measure,
                "systems": list(names),
                "topics": list(self.matrix.topics),
            },
            "settings": {
                "averages": [{"spec": a.spec, "label": a.label} for a in self.averages],
                "baseline": self.baseline,
                "test": self.test,
                "requested_test": self.requested_test,
                "holm_family": self.comparisons,
                "p_floor": self.p_floor,
                "p_floor_holm": self.p_floor_holm,
                "alpha": self.alpha,
                "permutations": self.permutations,
                "exact": self.exact,
                "bootstrap": self.bootstrap,
                "confidence": self.confidence,
                "seed": self.seed,
                "robertson_family": list(self.family),
            },
            "means": {a.spec: dict(zip(names, map(_float, self.means[k]))) for k, a in enumerate(self.averages)},
            "comparisons": [{key: _json_value(v) for key, v in row.items()} for row in self.rows()],
            "verdicts": verdicts,
        }

    def to_json(self, path: str | os.PathLike[str] | None = None) -> str:
        """:meth:`to_dict` as JSON text, strict (JSON has no NaN or infinity: null for NaN, the strings "inf" and
        "-inf" for ±inf); written to ``path`` if given."""
        import json  # here: the command line's other subcommands never need it

        # On one line: json's C encoder writes it (an indented dump is written in Python, 10 times slower).
        return _save(json.dumps(self.to_dict(), ensure_ascii=False, allow_nan=False) + "\n", path)

    # -- tables to read ---------------------------------------------------------------------------------------

    def notes(self) -> list[str]:
        """What was compared and how, a sentence each: the header of every table."""
        m = self.matrix
        n_pairs = self.first.size
        what = f"each system against {self.baseline}" if self.baseline else f"all {n_pairs:,} pairs"
        flips = (
            f"all {self.permutations:,} sign vectors (exact)"
            if self.exact
            else f"{self.permutations:,} random sign vectors (seed {self.seed})"
        )
        scales = ", ".join(
            f"{a.spec} on {a.scale}" if not np.isnan(self.tests.p_t[k]).all() else f"none for {a.spec}"
            for k, a in enumerate(self.averages)
        )
        return [
            f"{m.label or 'scores'}: {m.shape[0]} systems x {m.shape[1]} topics; {what}; difference = A - B",
            f"paired t-test on each average's scale ({scales}); randomization test, {flips}; sign test",
            f"p-values Holm-adjusted over the {self.comparisons:,} comparisons of each test "
            f"({n_pairs:,} for the sign test); {self.confidence:.0%} bootstrap intervals, {self.bootstrap:,} "
            "resamples of the topics",
            f"the randomization test's smallest possible p: {self.p_floor:.3g} ({self.p_floor_holm:.3g} after Holm); "
            f"verdicts marked by the {'t-test on each average scale' if self.test == 't' else self.test + ' test'}",
        ]

    def differences_table(self, digits: int = 4) -> Table:
        """The differences: a row per pair and average."""
        f = f"{{:+.{digits}f}}"
        rows = []
        for r in self.rows():
            rows.append(
                (
                    r["system_a"],
                    r["system_b"],
                    r["average"],
                    f"{r['mean_a']:.{digits}f}",
                    f"{r['mean_b']:.{digits}f}",
                    f.format(r["difference"]),
                    f.format(r["ci_low"]),
                    f.format(r["ci_high"]),
                    "-" if math.isnan(r["t"]) else f"{r['t']:.2f}",
                    _p(r["p_t_holm"]),
                    _p(r["p_randomization_holm"]),
                )
            )
        columns = ("system_a", "system_b", "average", "mean_a", "mean_b", "difference", "ci_low", "ci_high", "t")
        return Table("Differences", (*columns, "p_t_holm", "p_randomization_holm"), rows, self.notes())

    def verdicts_table(self) -> Table:
        """The verdicts: a row per pair."""
        sym = {1: ">", -1: "<", 0: "="}
        better, sig = self.better, self.significant
        rows = []
        for j, v in enumerate(self.verdicts()):
            marks = [sym[int(better[k, j])] + ("*" if sig[k, j] else "") for k in range(len(self.averages))]
            robust = _robust_cell(v)
            rows.append(
                (
                    v.system_a,
                    v.system_b,
                    *marks,
                    f"{v.wins}-{v.losses}-{v.ties}",
                    _p(v.p_sign_holm),
                    "yes" if v.disagree else "no",
                    robust,
                )
            )
        test = {"randomization": "the randomization test", "t": "the t-test", "sign": "the sign test"}[self.test]
        notes = [
            f"> the average prefers A, < B, = neither; * {test}'s Holm-adjusted p < {self.alpha:g}",
            "sign test: topics A wins-loses-ties, Holm-adjusted p; disagree: one average prefers A, another B",
            "robust: no transformation of Robertson's family reverses the AM's verdict substantially (the reversed "
            f"difference's {self.confidence:.0%} interval excluding 0); the first that reverses it is named: "
            + ", ".join(self.family),
        ]
        columns = (*(a.spec for a in self.averages), "sign_test", "p_sign_holm", "disagree", "robust")
        return Table("Verdicts", ("system_a", "system_b", *columns), rows, notes)

    def format(self, fmt: str = "text", digits: int = 4) -> str:
        """The comparison in one of :data:`OUTPUT_FORMATS`: the differences and verdicts tables (text,
        Markdown, LaTeX), or every number (CSV, JSON)."""
        if fmt == "csv":
            return self.to_csv()
        if fmt == "json":
            return self.to_json()
        if fmt not in FORMATS:
            raise ValueError(f"format must be one of {', '.join(OUTPUT_FORMATS)}, got {fmt!r}")
        if fmt == "text":
            from .report import text_report

            return text_report(self, digits)
        tables = "\n\n".join(render(t, fmt) for t in (self.differences_table(digits), self.verdicts_table())) + "\n"
        return (LATEX_NEEDS + "\n" + tables) if fmt == "latex" else tables

    def to_text(self, digits: int = 4) -> str:
        """The report for people (:func:`irmeans.comparison.report.text_report`): notes, a verdict in words for
        each pair, the differences and the tests, at most 100 columns wide."""
        return self.format("text", digits)

    def to_markdown(self, digits: int = 4) -> str:
        """Both tables as Markdown pipe tables."""
        return self.format("markdown", digits)

    def to_latex(self, digits: int = 4) -> str:
        """Both tables as LaTeX ``table`` environments, the notes in their captions, after a comment line saying
        that they need ``\\usepackage{booktabs}`` (:data:`LATEX_NEEDS`)."""
        return self.format("latex", digits)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        specs = ", ".join(a.spec for a in self.averages)
        return f"Comparison({self.matrix.label!r}, pairs={self.first.size}, averages=[{specs}])"

    # -- the plot ---------------------------------------------------------------------------------------------

    def plot_spec(self) -> dict[str, Any]:
        """A Vega-Lite spec: each pair's per-topic differences on each average's scale, sorted (a row per pair)."""
        from .plot import topic_differences_spec  # here: only a plot needs it

        return topic_differences_spec(*self._plot_data())

    def save_plot(self, path: str | os.PathLike[str]) -> None:
        """Draw :meth:`plot_spec`'s figure into ``path`` (SVG or PNG) with matplotlib, ``irmeans[plot]``."""
        from .plot_drawing import save_topic_differences  # here: only a drawing needs matplotlib

        save_topic_differences(path, *self._plot_data())

    def _plot_data(self) -> tuple[list[str], list[str], tuple[str, ...], np.ndarray, str]:
        """The plot's pairs, columns (each average on its scale), topics, differences and title."""
        if self.first.size > MAX_PLOT_PAIRS:
            raise IrmeansError(
                f"{self.first.size:,} pairs are too many to plot (at most {MAX_PLOT_PAIRS}, a row each): "
                "compare with a baseline, or fewer systems"
            )
        s = self.matrix.scores
        # each average's own scale, or the scores themselves where it has none that is finite on them
        scaled = [g if (g := a.on_scale(s)) is not None else s for a in self.averages]
        columns = [f"{a.label}: {a.scale if a.on_scale(s) is not None else 'x'}" for a in self.averages]
        by_pair = [g[self.first] - g[self.second] for g in scaled]
        names = [f"{a} - {b}" for a, b in self.pairs]
        return names, columns, tuple(self.matrix.topics), np.stack(by_pair, axis=1), self.notes()[0]


def _cell(v: Any) -> Any:
    """A CSV cell: a float unrounded (its repr), NaN empty."""
    if isinstance(v, float):
        return "" if math.isnan(v) else repr(v)
    return v


def _json_value(v: Any) -> Any:
    return _float(v) if isinstance(v, float) else v


def _save(text: str, path: str | os.PathLike[str] | None) -> str:
    if path is not None:
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    return text
