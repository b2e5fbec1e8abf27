"""What :func:`irmeans.compare` finds: :class:`Comparison`, the numbers of every pair under every average.

A :class:`Comparison` holds, for every compared pair of systems (A, B) and every average,
the two averages and their difference A − B with its bootstrap interval, the paired t-test on
the average's scale and the randomization test, the sign test of the pair, each with Holm's
adjusted p-values, and Robertson's check of the pair. That is its data, here; it is read in
two more parts, each a module of its own:

- :mod:`.verdicts` (:class:`~.verdicts.Verdicts`): which system each average prefers
  (``better``), where the marking test's Holm-adjusted p is below α (``significant``), whether the
  averages disagree, and a :class:`Verdict` for each pair;
- :mod:`.outputs` (:class:`~.outputs.Outputs`): rows, a DataFrame, CSV, JSON, the report for
  people (text, Markdown, LaTeX: :mod:`.report`), the table a paper prints
  (:meth:`Comparison.results_table`, :mod:`.results_table`) and the plot.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..averages import Average
from ..score_matrix import ScoreMatrix
from .outputs import COLUMNS, MAX_PLOT_PAIRS, OUTPUT_FORMATS, Outputs
from .robustness import Robertson
from .tables import LATEX_NEEDS
from .verdicts import AverageVerdict, Tests, Verdict

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


@dataclass(frozen=True, eq=False)
class Comparison(Outputs):
    """The result of :func:`irmeans.compare`: pairs of systems under several averages.

    Its verdicts (``better``, ``significant``, ``disagree``, ``robust``, :meth:`verdicts`) come from
    :class:`~irmeans.comparison.verdicts.Verdicts`, its outputs (:meth:`to_text`, :meth:`to_latex`,
    :meth:`results_table`, :meth:`to_json`...) from :class:`~irmeans.comparison.outputs.Outputs`.

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

    def __repr__(self) -> str:
        specs = ", ".join(a.spec for a in self.averages)
        return f"Comparison({self.matrix.label!r}, pairs={self.first.size}, averages=[{specs}])"
