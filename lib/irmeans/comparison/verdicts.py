"""A comparison's verdicts: which system each average prefers, where the marking test says so, and how sure.

:class:`Verdicts` is the part of :class:`~irmeans.comparison.result.Comparison` that reads
its numbers as verdicts: :attr:`~Verdicts.better` (+1, −1 or 0 for each pair and average),
:attr:`~Verdicts.significant` (the marking test's Holm-adjusted p below α), whether the
averages :attr:`~Verdicts.disagree`, where the randomization test's p sits on its floor, and
:meth:`~Verdicts.verdicts`, a :class:`Verdict` for each pair. What they read are the
comparison's own numbers (:mod:`.result`), its tests' among them (:class:`Tests`); the tables and
files that show them are :mod:`.outputs`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .._numeric import TOLERANCE
from .significance import SignTest

if TYPE_CHECKING:
    from ..averages import Average
    from ..score_matrix import ScoreMatrix
    from .robustness import Robertson

__all__ = ["Tests", "Verdict", "AverageVerdict", "Verdicts"]


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


class Verdicts:
    """The verdicts of a :class:`~irmeans.comparison.result.Comparison`, read from its numbers (a part of it)."""

    # What the verdicts read: the comparison's own data (irmeans.comparison.result.Comparison).
    matrix: ScoreMatrix
    averages: tuple[Average, ...]
    first: np.ndarray
    second: np.ndarray
    means: np.ndarray
    tests: Tests
    robertson: Robertson
    permutations: int
    exact: bool
    alpha: float
    test: str
    holm_family: int | None

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

    @property
    def robust(self) -> np.ndarray:
        """Robertson's check, (pairs,): the AM prefers one system and no transformation of the family reverses its
        verdict substantially.

        "Substantially" is this library's reading, not Robertson's words: a reversal counts only when the
        reversed difference's own bootstrap interval excludes 0. Robertson (2006) asks whether transformations
        that substantially change the conclusions are "easy to find", and leaves the bar to the reader.

        Examples
        --------
        >>> import irmeans
        >>> c = irmeans.compare({"A": {"1": 0.0, "2": 0.8, "3": 0.8, "4": 0.8},
        ...                      "B": {"1": 0.4, "2": 0.4, "3": 0.4, "4": 0.4}}, ["am"], bootstrap=200)
        >>> c.robust.tolist(), c.reversed_by
        ([True], ('log(x + 1e-05)',))
        """
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

    def verdicts(self) -> list[Verdict]:
        """A :class:`Verdict` for each pair, in order.

        Examples
        --------
        >>> import irmeans
        >>> c = irmeans.compare({"A": {"1": 0.0, "2": 0.8, "3": 0.8, "4": 0.8},
        ...                      "B": {"1": 0.4, "2": 0.4, "3": 0.4, "4": 0.4}}, ["am", "gm:0.01"], bootstrap=200)
        >>> v = c.verdicts()[0]
        >>> [(x.average, x.better) for x in v.by_average], v.disagree
        ([('am', 'A'), ('gm:0.01', 'B')], True)
        """
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
