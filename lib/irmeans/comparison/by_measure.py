"""Several measures compared at once: a :class:`~irmeans.comparison.result.Comparison` for each, and a table of
measures × averages.

:func:`compare_measures` runs :func:`irmeans.compare` on each measure's systems × topics matrix
(the same systems, the same settings) and gives a :class:`MeasureComparisons`. Each measure is
its own Holm family by default (``holm="measure"``: pairs × averages); ``holm="all"`` corrects
every measure's comparisons together (pairs × averages × measures, and the sign test over pairs
× measures), and the test that marks the verdicts is then chosen on that family.

Its outputs hold every measure: the text, Markdown and LaTeX give a summary table first (a row
for each pair and measure, a column for each average: the difference, ``*`` where it is marked
significant), then each measure's own report; CSV and the DataFrame put a ``measure`` column in
front of :data:`~irmeans.comparison.result.COLUMNS`; JSON holds each measure's
:meth:`~irmeans.comparison.result.Comparison.to_dict` under its name.

>>> import numpy as np
>>> from irmeans import ScoreMatrix
>>> rng = np.random.default_rng(3)
>>> ap = ScoreMatrix(rng.uniform(0, 1, (3, 8)), ("a", "b", "c"), tuple("12345678"), measure="map")
>>> p10 = ScoreMatrix(rng.uniform(0, 1, (3, 8)), ("a", "b", "c"), tuple("12345678"), measure="P_10")
>>> both = compare_measures([ap, p10], ["am"], permutations=200, bootstrap=100)
>>> both.measures, both.holm, both["P_10"].comparisons
(('map', 'P_10'), 'measure', 3)
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from .._display import json_text
from ..averages import Average
from ..errors import IrmeansError, shown_value
from ..score_matrix import ScoreMatrix
from .compare import compare
from .outputs import csv_cell
from .report import report_tables, text_report, turned_pairs
from .result import COLUMNS, LATEX_NEEDS, Comparison, Tests
from .significance import choose_test, holm
from .tables import FORMATS, Table, csv_text, render, save_text

if TYPE_CHECKING:
    import pandas as pd

    from .results_table import ResultsTable

__all__ = ["compare_measures", "MeasureComparisons", "HOLM_FAMILIES"]

#: How the Holm families are drawn: each measure its own, or every measure's comparisons together.
HOLM_FAMILIES = ("measure", "all")


@dataclass(frozen=True, eq=False)
class MeasureComparisons:
    """The comparisons of several measures: :attr:`by_measure` a :class:`Comparison` for each, in order.

    Attributes
    ----------
    by_measure : tuple of (str, Comparison)
        Each measure's name and its comparison.
    holm : {"measure", "all"}
        The Holm family: each measure its own, or all of them together.
    """

    by_measure: tuple[tuple[str, Comparison], ...]
    holm: str

    @property
    def measures(self) -> tuple[str, ...]:
        """The measures' names, in order."""
        return tuple(name for name, _ in self.by_measure)

    def __getitem__(self, measure: str) -> Comparison:
        return dict(self.by_measure)[measure]

    def turned(self) -> np.ndarray:
        """The pairs every measure's report shows B first, (pairs,): as the first measure's report turns them
        (:func:`~irmeans.comparison.report.turned_pairs`), so that a pair reads the same way in every section.

        Examples
        --------
        >>> from irmeans import ScoreMatrix
        >>> rows = [[0.5, 0.2, 0.9, 0.4], [0.1, 0.3, 0.4, 0.2], [0.6, 0.7, 0.2, 0.8]]
        >>> matrices = [ScoreMatrix(rows, tuple("abc"), tuple("1234"), measure=m) for m in ("map", "P_10")]
        >>> both = compare_measures(matrices, ["am"], bootstrap=100)
        >>> both.turned().tolist()
        [False, True, True]
        """
        return turned_pairs(self.by_measure[0][1])

    def summary_table(self, digits: int = 4) -> Table:
        """A row per pair and measure, a column per average: each difference (A − B, the pairs turned as
        :meth:`turned` says, in every measure alike), ``*`` where it is marked significant.

        Examples
        --------
        >>> from irmeans import ScoreMatrix
        >>> rows = [[0.5, 0.2, 0.9, 0.4], [0.1, 0.3, 0.4, 0.2], [0.6, 0.7, 0.2, 0.8]]
        >>> matrices = [ScoreMatrix(rows, tuple("abc"), tuple("1234"), measure=m) for m in ("map", "P_10")]
        >>> both = compare_measures(matrices, ["am"], bootstrap=100)
        >>> both.summary_table().rows[0]
        ('a', 'b', 'map', '+0.2500')
        """
        first = self.by_measure[0][1]
        turned = self.turned()
        s = np.where(turned, -1.0, 1.0)
        names = first.matrix.systems
        a_idx, b_idx = np.where(turned, first.second, first.first), np.where(turned, first.first, first.second)
        rows = []
        for j in range(first.first.size):
            for measure, c in self.by_measure:
                diff, sig = s[j] * c.difference[:, j], c.significant[:, j]
                cells = [f"{d:+.{digits}f}" + ("*" if m else "") for d, m in zip(diff.tolist(), sig.tolist())]
                rows.append((names[a_idx[j]], names[b_idx[j]], measure, *cells))
        notes = [
            "A - B under each average, in its own units; the pairs in the same order in every measure",
            f"* where the marking test's Holm-adjusted p < {first.alpha:g}",
            "Marking test: "
            + "; ".join(f"{m}, the {c.test}" + ("-test" if c.test == "t" else " test") for m, c in self.by_measure),
            "Holm families: " + ("each measure its own" if self.holm == "measure" else "every measure together"),
        ]
        averages = tuple(a.spec for a in first.averages)
        return Table("Measures x averages", ("A", "B", "measure", *averages), rows, notes)

    def results_table(self, digits: int = 4) -> ResultsTable:
        """The table a paper prints: a row per system, a column per measure × average, marks after Holm over the
        comparisons' family (:func:`irmeans.comparison.results_table.results_table`).

        Examples
        --------
        >>> from irmeans import ScoreMatrix
        >>> rows = [[0.5, 0.2, 0.9, 0.4], [0.1, 0.3, 0.4, 0.2], [0.6, 0.7, 0.2, 0.8]]
        >>> matrices = [ScoreMatrix(rows, tuple("abc"), tuple("1234"), measure=m) for m in ("map", "P_10")]
        >>> both = compare_measures(matrices, ["am"], bootstrap=100)
        >>> table = both.results_table()
        >>> table.columns
        (('map', 'am', 'AM'), ('P_10', 'am', 'AM'))
        """
        from .results_table import results_table

        return results_table(self.by_measure, digits)

    def format(self, fmt: str = "text", digits: int = 4) -> str:
        """Every measure in one of :data:`~irmeans.comparison.result.OUTPUT_FORMATS`: the summary table then
        each measure's report, every pair in the same order (text, Markdown, LaTeX), every row with its
        measure (CSV), or all of it (JSON).

        Examples
        --------
        >>> from irmeans import ScoreMatrix
        >>> rows = [[0.5, 0.2, 0.9, 0.4], [0.1, 0.3, 0.4, 0.2], [0.6, 0.7, 0.2, 0.8]]
        >>> matrices = [ScoreMatrix(rows, tuple("abc"), tuple("1234"), measure=m) for m in ("map", "P_10")]
        >>> both = compare_measures(matrices, ["am"], bootstrap=100)
        >>> print(both.format("text").splitlines()[0])
        # Measures x averages
        """
        if fmt == "csv":
            return self.to_csv()
        if fmt == "json":
            return self.to_json()
        if fmt not in FORMATS:
            raise ValueError(f"format must be one of {', '.join((*FORMATS, 'csv', 'json'))}, got {fmt!r}")
        blocks = [render(self.summary_table(digits), fmt)]
        turned = self.turned()
        for measure, c in self.by_measure:
            if fmt == "text":
                own = text_report(c, digits, turned).rstrip("\n")
            else:
                own = "\n\n".join(render(t, fmt) for t in report_tables(c, digits, turned))
            heading = {"text": f"# Measure: {measure}", "markdown": f"## {measure}", "latex": f"% {measure}"}[fmt]
            blocks.append(heading + "\n\n" + own)
        text = "\n\n".join(blocks) + "\n"
        return LATEX_NEEDS + "\n" + text if fmt == "latex" else text

    def rows(self) -> list[dict[str, Any]]:
        """Every measure's :meth:`Comparison.rows`, each with its ``measure`` first."""
        return [{"measure": m, **row} for m, c in self.by_measure for row in c.rows()]

    def to_csv(self, path: str | os.PathLike[str] | None = None) -> str:
        """:meth:`rows` as CSV: ``measure``, then :data:`~irmeans.comparison.result.COLUMNS`, unrounded."""
        rows = [[csv_cell(v) for v in row.values()] for row in self.rows()]
        return save_text(csv_text(("measure", *COLUMNS), rows), path)

    def to_json(self, path: str | os.PathLike[str] | None = None) -> str:
        """Each measure's :meth:`Comparison.to_dict` under its name, and the Holm family, as strict JSON in valid
        UTF-8 (:func:`irmeans._display.json_text`)."""
        data = {"holm": self.holm, "measures": {m: c.to_dict() for m, c in self.by_measure}}
        return save_text(json_text(data) + "\n", path)

    def to_frame(self) -> pd.DataFrame:
        """Every measure's :meth:`Comparison.to_frame`, indexed by (measure, system_a, system_b, average)."""
        import pandas as pd

        frames = [c.to_frame() for _, c in self.by_measure]
        return pd.concat(frames, keys=list(self.measures), names=["measure"])

    def __str__(self) -> str:
        return self.format("text")


def _holm_together(results: list[Comparison], test: str, alpha: float) -> list[Comparison]:
    """The comparisons with each test's Holm correction run over all of them together, and the marking test
    chosen on that family."""
    family = sum(c.means.shape[0] * c.first.size for c in results)

    def joint(values: list[np.ndarray]) -> list[np.ndarray]:
        flat = holm(np.concatenate([v.ravel() for v in values]))
        parts = np.split(flat, np.cumsum([v.size for v in values])[:-1])
        return [part.reshape(v.shape) for part, v in zip(parts, values)]

    p_t = joint([c.tests.p_t for c in results])
    p_rand = joint([c.tests.p_randomization for c in results])
    p_sign = joint([c.tests.sign.p for c in results])
    out = []
    for k, c in enumerate(results):
        tests = Tests(
            t=c.tests.t,
            p_t=c.tests.p_t,
            p_t_holm=p_t[k],
            p_randomization=c.tests.p_randomization,
            p_randomization_holm=p_rand[k],
            sign=c.tests.sign,
            p_sign_holm=p_sign[k],
        )
        chosen = choose_test(test, family, c.permutations, c.exact, alpha)
        out.append(dataclasses.replace(c, tests=tests, test=chosen, holm_family=family))
    return out


def compare_measures(
    matrices: Sequence[ScoreMatrix],
    averages: Sequence[Average | str] | None = None,
    *,
    holm: str = "measure",
    **settings: Any,
) -> MeasureComparisons:
    """Compare the same systems under several measures: :func:`irmeans.compare` on each measure's matrix.

    Parameters
    ----------
    matrices : sequence of ScoreMatrix
        A systems × topics matrix per measure, each naming its ``measure`` (distinct), all of the same systems
        in the same order (:func:`irmeans.evaluate_runs` once per measure gives them).
    averages : sequence of Average or spec, optional
        As for :func:`irmeans.compare`.
    holm : {"measure", "all"}, default "measure"
        Each measure its own Holm family, or every measure's comparisons corrected together.
    **settings
        :func:`irmeans.compare`'s keyword arguments (``baseline``, ``permutations``, ``seed``...), the same for
        every measure.

    Returns
    -------
    MeasureComparisons

    Raises
    ------
    IrmeansError
        No matrix, two with the same measure, matrices of different systems, an unknown ``holm``.
    """
    if holm not in HOLM_FAMILIES:
        raise IrmeansError(f"holm must be one of {', '.join(HOLM_FAMILIES)}, got {holm!r}")
    matrices = list(matrices) if isinstance(matrices, Iterable) else [matrices]  # a generator read once
    if not matrices:
        raise IrmeansError("no measures to compare under")
    odd = next((m for m in matrices if not isinstance(m, ScoreMatrix)), None)
    if odd is not None:
        raise IrmeansError(f"matrices must be ScoreMatrix values, one a measure; got {shown_value(odd)}")
    names = [m.measure or f"measure {k + 1}" for k, m in enumerate(matrices)]
    if len(set(names)) < len(names):
        raise IrmeansError(f"each measure once: {', '.join(names)}")
    systems = matrices[0].systems
    for name, m in zip(names, matrices):
        if m.systems != systems:
            raise IrmeansError(f"{name}: its systems are not the first measure's ({names[0]}), in the same order")
    results = [compare(m, averages, **settings) for m in matrices]
    if holm == "all" and len(results) > 1:
        results = _holm_together(results, settings.get("test", "auto"), results[0].alpha)
    return MeasureComparisons(tuple(zip(names, results)), holm)
