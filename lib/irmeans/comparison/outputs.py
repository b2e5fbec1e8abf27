"""A comparison written out: rows, a DataFrame, CSV, JSON, the report (text, Markdown, LaTeX), the results table
and the plot.

:class:`Outputs` is the part of :class:`~irmeans.comparison.result.Comparison` that writes it.
CSV and JSON hold every number unrounded (raw and adjusted p-values alike) and keep A and B as
given; the text, Markdown and LaTeX round them for reading (:mod:`.report`), and
:meth:`~Outputs.results_table` is the table a paper prints (:mod:`.results_table`). A number
that is not finite is written as CSV writes it (``inf``, ``-inf``; NaN, a test that does not
apply, as an empty cell) and, since JSON has no such numbers, in JSON as the string ``"inf"``
or ``"-inf"`` (t is infinite when a pair's differences are all equal and not 0) and NaN as
``null``. Both are valid UTF-8 whatever the names hold: JSON keeps each name exactly, with
escapes (:func:`irmeans._display.json_text`), and CSV shows a character that does not print as
its escape, as the text report does (:func:`irmeans.comparison.tables.csv_text`).
"""

from __future__ import annotations

import math
import os
from typing import TYPE_CHECKING, Any

import numpy as np

from .._display import json_text
from ..errors import IrmeansError
from .tables import FORMATS, LATEX_NEEDS, Table, csv_text, render, save_text
from .verdicts import Verdicts

if TYPE_CHECKING:
    import pandas as pd

    from .results_table import ResultsTable

__all__ = ["Outputs", "OUTPUT_FORMATS", "COLUMNS", "MAX_PLOT_PAIRS", "LATEX_NEEDS", "csv_cell"]

#: What :meth:`Outputs.format` writes.
OUTPUT_FORMATS = (*FORMATS, "csv", "json")
#: The columns of :meth:`Outputs.rows` and of the CSV, in order.
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
#: The most pairs :meth:`Outputs.plot_spec` draws (a row of panels each).
MAX_PLOT_PAIRS = 25


def _float(x: Any) -> float | str | None:
    """A number as JSON holds it: a finite one as it is, an infinite one as the string "inf" or "-inf", NaN as None."""
    v = float(x)
    if math.isnan(v):
        return None
    return v if math.isfinite(v) else ("inf" if v > 0 else "-inf")


def csv_cell(v: Any) -> Any:
    """A CSV cell: a float unrounded (its repr), NaN empty, anything else as it is."""
    if isinstance(v, float):
        return "" if math.isnan(v) else repr(v)
    return v


def _json_value(v: Any) -> Any:
    return _float(v) if isinstance(v, float) else v


class Outputs(Verdicts):
    """The ways a :class:`~irmeans.comparison.result.Comparison` is written (a part of it)."""

    baseline: str | None
    ci_low: np.ndarray
    ci_high: np.ndarray
    bootstrap: int
    confidence: float
    requested_test: str
    seed: int

    # -- rows, frames and files -------------------------------------------------------------------------------

    def columns(self) -> dict[str, list[Any]]:
        """Every column of :data:`COLUMNS` as a list, a value per pair and average (pairs outer, as in :meth:`rows`).

        Examples
        --------
        >>> import irmeans
        >>> c = irmeans.compare({"A": {"1": 0.5, "2": 0.6, "3": 0.7}, "B": {"1": 0.1, "2": 0.2, "3": 0.2}}, ["am"])
        >>> c.columns()["better"], len(c.columns()) == len(COLUMNS)
        (['A'], True)
        """
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
        """A dict per pair and average (pairs outer), keyed by :data:`COLUMNS`; NaN where a test does not apply.

        Examples
        --------
        >>> import irmeans
        >>> c = irmeans.compare({"A": {"1": 0.5, "2": 0.6, "3": 0.7}, "B": {"1": 0.1, "2": 0.2, "3": 0.2}}, ["am"])
        >>> row = c.rows()[0]
        >>> row["system_a"], row["average"], round(row["difference"], 4)
        ('A', 'am', 0.4333)
        """
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
        """:meth:`rows` as CSV (numbers unrounded, NaN as an empty cell, a character of a name that does not print
        as its escape); written to ``path`` if given.

        Examples
        --------
        >>> import irmeans
        >>> c = irmeans.compare({"A": {"1": 0.5, "2": 0.6, "3": 0.7}, "B": {"1": 0.1, "2": 0.2, "3": 0.2}}, ["am"])
        >>> c.to_csv().splitlines()[1].split(",")[:3]
        ['A', 'B', 'am']
        """
        rows = [[csv_cell(v) for v in row.values()] for row in self.rows()]
        return save_text(csv_text(COLUMNS, rows), path)

    def to_dict(self) -> dict[str, Any]:
        """Everything, as plain Python values (NaN as None, ±inf as "inf" and "-inf"): what :meth:`to_json` writes.

        Examples
        --------
        >>> import irmeans
        >>> c = irmeans.compare({"A": {"1": 0.5, "2": 0.6, "3": 0.7}, "B": {"1": 0.1, "2": 0.2, "3": 0.2}}, ["am"])
        >>> sorted(c.to_dict())
        ['comparisons', 'means', 'scores', 'settings', 'verdicts']
        """
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
        "-inf" for ±inf) and valid UTF-8 whatever the names hold (a byte that is not UTF-8 as its ``\\udcNN``
        escape, which reads back as itself); written to ``path`` if given.

        Examples
        --------
        >>> import json, irmeans
        >>> c = irmeans.compare({"caf\\udce9": {"1": 0.5, "2": 0.7}, "café": {"1": 0.2, "2": 0.3}}, ["am"])
        >>> json.loads(c.to_json())["scores"]["systems"] == ["caf\\udce9", "café"]
        True
        """
        return save_text(json_text(self.to_dict()) + "\n", path)

    # -- the report and the results table ---------------------------------------------------------------------

    def notes(self) -> list[str]:
        """What was compared and how, a sentence each (:func:`irmeans.comparison.report.notes`, every part's).

        Examples
        --------
        >>> import irmeans
        >>> c = irmeans.compare({"A": {"1": 0.5, "2": 0.6, "3": 0.7}, "B": {"1": 0.1, "2": 0.2, "3": 0.2}}, ["am"])
        >>> c.notes()[0]
        'Compared: scores, 2 systems x 3 topics; one pair, the system the AM prefers first'
        """
        from .report import notes

        return [note for part in notes(self).values() for note in part]

    def verdicts_table(self) -> Table:
        """The verdicts: a row per pair, the pairs turned as in the text report (:func:`~.report.report_tables`).

        Examples
        --------
        >>> import irmeans
        >>> c = irmeans.compare({"A": {"1": 0.5, "2": 0.6, "3": 0.7}, "B": {"1": 0.1, "2": 0.2, "3": 0.2}}, ["am"])
        >>> c.verdicts_table().columns
        ('A', 'B', 'am', 'sign test (Holm p)', 'disagree', 'Robertson')
        """
        from .report import report_tables

        return report_tables(self)[0]

    def differences_table(self, digits: int = 4) -> Table:
        """The differences and their unadjusted intervals: a row per pair and average
        (:func:`~.report.report_tables`).

        Examples
        --------
        >>> import irmeans
        >>> c = irmeans.compare({"A": {"1": 0.5, "2": 0.6, "3": 0.7}, "B": {"1": 0.1, "2": 0.2, "3": 0.2}}, ["am"])
        >>> c.differences_table(2).rows[0]
        ('A', 'B', 'am', '0.60', '0.17', '+0.43', '+0.40', '+0.50')
        """
        from .report import report_tables

        return report_tables(self, digits)[1]

    def tests_table(self, digits: int = 4) -> Table:
        """The tests' raw and Holm-adjusted p-values: a row per pair and average (:func:`~.report.report_tables`).

        Examples
        --------
        >>> import irmeans
        >>> c = irmeans.compare({"A": {"1": 0.5, "2": 0.6, "3": 0.7}, "B": {"1": 0.1, "2": 0.2, "3": 0.2}}, ["am"])
        >>> c.tests_table().rows[0]
        ('A', 'B', 'am', '13.00', '0.00587', '0.00587', '0.25', '0.25^')
        """
        from .report import report_tables

        return report_tables(self, digits)[2]

    def format(self, fmt: str = "text", digits: int = 4) -> str:
        """The comparison in one of :data:`OUTPUT_FORMATS`: the report (text, Markdown, LaTeX), or every number
        (CSV, JSON).

        Examples
        --------
        >>> import irmeans
        >>> c = irmeans.compare({"A": {"1": 0.5, "2": 0.6, "3": 0.7}, "B": {"1": 0.1, "2": 0.2, "3": 0.2}}, ["am"])
        >>> c.format("csv").splitlines()[0].split(",")[:3]
        ['system_a', 'system_b', 'average']
        """
        if fmt == "csv":
            return self.to_csv()
        if fmt == "json":
            return self.to_json()
        if fmt not in FORMATS:
            raise ValueError(f"format must be one of {', '.join(OUTPUT_FORMATS)}, got {fmt!r}")
        from .report import report_tables, text_report

        if fmt == "text":
            return text_report(self, digits)
        tables = "\n\n".join(render(t, fmt) for t in report_tables(self, digits)) + "\n"
        return (LATEX_NEEDS + "\n" + tables) if fmt == "latex" else tables

    def to_text(self, digits: int = 4) -> str:
        """The report for people (:func:`irmeans.comparison.report.text_report`): what was compared, a verdict in
        words for each pair, the differences and the tests, then the notes, at most 100 columns wide.

        Examples
        --------
        >>> import irmeans
        >>> c = irmeans.compare({"A": {"1": 0.5, "2": 0.6, "3": 0.7}, "B": {"1": 0.1, "2": 0.2, "3": 0.2}}, ["am"])
        >>> print(c.to_text().splitlines()[0])
        # Comparison: scores, 2 systems x 3 topics; one pair, the system the AM prefers first.
        """
        return self.format("text", digits)

    def to_markdown(self, digits: int = 4) -> str:
        """The report's three tables (verdicts, differences, tests) as Markdown pipe tables, the notes in their
        captions.

        Examples
        --------
        >>> import irmeans
        >>> c = irmeans.compare({"A": {"1": 0.5, "2": 0.6, "3": 0.7}, "B": {"1": 0.1, "2": 0.2, "3": 0.2}}, ["am"])
        >>> c.to_markdown().splitlines()[2]
        '| A | B | am | sign test (Holm p) | disagree | Robertson |'
        """
        return self.format("markdown", digits)

    def to_latex(self, digits: int = 4) -> str:
        """The report's three tables as booktabs tables (a ``longtable`` when long), the notes in their captions,
        after a comment line saying what they need (:data:`LATEX_NEEDS`).

        Examples
        --------
        >>> import irmeans
        >>> c = irmeans.compare({"A": {"1": 0.5, "2": 0.6, "3": 0.7}, "B": {"1": 0.1, "2": 0.2, "3": 0.2}}, ["am"])
        >>> c.to_latex().count("begin{table}")
        3
        """
        return self.format("latex", digits)

    def results_table(self, digits: int = 4) -> ResultsTable:
        """The table a paper prints: a row per system, a column per average, each value marked where it differs
        from the baseline (Holm-adjusted, by the marking test), the best of each column in bold.

        Without a baseline every pair was compared: a value is then marked with the letters of the systems it is
        significantly better than. :meth:`~irmeans.comparison.results_table.ResultsTable.format` writes it as
        text, Markdown, LaTeX, CSV or JSON.

        Examples
        --------
        >>> import irmeans
        >>> scores = {"base": {"1": 0.1, "2": 0.2, "3": 0.3}, "new": {"1": 0.3, "2": 0.4, "3": 0.6}}
        >>> c = irmeans.compare(scores, ["am"], baseline="base", test="t")
        >>> print(c.results_table().format("text"))
        # Results: scores, each system against base.
        system           AM
        base (baseline)  0.2000
        new              **0.4333**↑
        <BLANKLINE>
        # The best value of each column is between ** (ties all).
        # ↑ (↓): significantly higher (lower) than base by the t-test on each average's scale, Holm-adjusted
        #   p < 0.05 over the 1 comparison of the measure (1 system x 1 average).
        # No mark: no difference the test finds, which is not evidence of none.
        <BLANKLINE>
        """
        from .results_table import results_table

        return results_table([(self.matrix.measure, self)], digits)

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

    def __str__(self) -> str:
        return self.to_text()
