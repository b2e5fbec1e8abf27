"""The answers of the book's self-check exercises, computed by the library when the book is built.

A self-check exercise is an ordinary ``{exercise}`` whose class is
``selfcheck`` and whose label names an answer registered here, with an
optional ``{hint}`` admonition in its body::

    ````{exercise}
    :label: sc-ch4-s1-ehm
    :class: selfcheck

    What is the εHM of S1 with ε = 0.1? Give three decimals.

    ```{hint}
    Add ε to every score, take the harmonic mean, and subtract ε again.
    ```
    ````

On the site, the book's Sphinx extension ``irmeans_selfcheck`` calls the
answer function of the label and adds an answer box (a number) or a set of
radio buttons (a choice); a small script served by the site says whether the
reader's answer is right and shows the hint when it is not. In Jupyter the
same cell is an exercise with a hint, as the MyST renderer draws it. No answer
is typed by hand: every answer is a function of the library's results, and a
function may assert what the chapter's text says about them.

Each answer function takes no argument and returns a :class:`Number` or a
:class:`Choice`; :data:`ANSWERS` maps every label to its function.

Examples
--------
>>> answer("sc-ch2-r-precision").accepts(0.4)
True
>>> answer("sc-ch4-first-ehm").answer
'S3'
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import irmeans
import numpy as np

__all__ = ["ANSWERS", "Choice", "Number", "answer", "selfcheck"]


@dataclass(frozen=True)
class Number:
    """A numeric answer, right within ``tolerance``.

    ``decimals`` is how many decimals the question asks for; the default
    tolerance, one unit in the last asked decimal, accepts the value rounded
    or cut off there.

    Examples
    --------
    >>> n = Number(2 / 3, decimals=3)
    >>> n.tolerance, n.shown
    (0.001, '0.667')
    >>> n.accepts(0.667), n.accepts(0.666), n.accepts(0.665)
    (True, True, False)
    """

    value: float
    decimals: int = 3
    tolerance: float | None = None

    def __post_init__(self):
        object.__setattr__(self, "value", float(self.value))
        if not math.isfinite(self.value):
            raise ValueError(f"a self-check answer must be a finite number, not {self.value!r}")
        if self.tolerance is None:
            object.__setattr__(self, "tolerance", 10.0**-self.decimals)
        if not self.tolerance >= 0:
            raise ValueError(f"tolerance must be >= 0, not {self.tolerance!r}")

    @property
    def shown(self) -> str:
        """The answer as the site prints it once the reader has it right."""
        return f"{self.value:.{self.decimals}f}"

    def accepts(self, given: float) -> bool:
        """Whether ``given`` counts as right (the site's script applies the same rule)."""
        return abs(float(given) - self.value) <= self.tolerance + 1e-12


@dataclass(frozen=True)
class Choice:
    """One right option among ``options``.

    Examples
    --------
    >>> Choice(("A", "B"), "B").accepts("B")
    True
    >>> Choice(("A", "B"), "C")
    Traceback (most recent call last):
    ...
    ValueError: the answer 'C' is not one of the options ('A', 'B')
    """

    options: tuple[str, ...]
    answer: str

    def __post_init__(self):
        object.__setattr__(self, "options", tuple(self.options))
        if len(set(self.options)) != len(self.options) or len(self.options) < 2:
            raise ValueError(f"a choice needs two or more distinct options, not {self.options!r}")
        if self.answer not in self.options:
            raise ValueError(f"the answer {self.answer!r} is not one of the options {self.options!r}")

    @property
    def shown(self) -> str:
        return self.answer

    def accepts(self, given: str) -> bool:
        return given == self.answer


Answer = Number | Choice
#: Every self-check exercise's label, mapped to the function computing its answer.
ANSWERS: dict[str, Callable[[], Answer]] = {}


def selfcheck(label: str):
    """Register the decorated function as the answer of the exercise labelled ``label``."""
    if not label.startswith("sc-"):
        raise ValueError(f"self-check labels start with 'sc-': {label!r}")

    def register(function):
        if label in ANSWERS:
            raise ValueError(f"two answers for {label!r}")
        ANSWERS[label] = function
        return function

    return register


def answer(label: str) -> Answer:
    """The answer of the exercise labelled ``label``, computed now.

    Raises
    ------
    KeyError
        If no answer is registered under ``label``.
    """
    try:
        function = ANSWERS[label]
    except KeyError:
        raise KeyError(f"no self-check answer is registered for {label!r} in {__name__}") from None
    result = function()
    if not isinstance(result, Number | Choice):
        raise TypeError(f"{function.__name__} returned {type(result).__name__}, not a Number or a Choice")
    return result


def _winner(scores: dict[str, float]) -> str:
    """The one name with the highest score; a tie is a mistake in the question."""
    best = max(scores.values())
    names = [name for name, value in scores.items() if np.isclose(value, best, rtol=0, atol=1e-12)]
    assert len(names) == 1, f"no single winner: {scores}"
    return names[0]


# ---------------------------------------------------------------------------
# Chapter 1: two systems, five topics
# ---------------------------------------------------------------------------

# The chapters' example data are their figure modules' (irmeans_book.figures): the one copy of each.
from irmeans_book.figures import averaging, boost, epsilon, introduction, ranked_lists, scales  # noqa: E402

CH1_A, CH1_B = introduction.SCORES_A, introduction.SCORES_B


@selfcheck("sc-ch1-gm-b")
def ch1_gm_b() -> Number:
    """The geometric mean of chapter 1's system B."""
    return Number(irmeans.geometric_mean(CH1_B), decimals=3)


@selfcheck("sc-ch1-hm-winner")
def ch1_hm_winner() -> Choice:
    """Which of chapter 1's systems the harmonic mean prefers."""
    hm = {"A": irmeans.harmonic_mean(CH1_A), "B": irmeans.harmonic_mean(CH1_B)}
    return Choice(("A", "B"), _winner(hm))


# ---------------------------------------------------------------------------
# Chapter 2: relevant at ranks 1, 3 and 6, R = 5
# ---------------------------------------------------------------------------

CH2_RANKING, CH2_R = ranked_lists.RANKING, ranked_lists.R


@selfcheck("sc-ch2-r-precision")
def ch2_r_precision() -> Number:
    """R-precision of chapter 2's ranking."""
    return Number(irmeans.r_precision(CH2_RANKING, CH2_R), decimals=2)


@selfcheck("sc-ch2-interpolated")
def ch2_interpolated() -> Number:
    """Interpolated precision at recall 0.4 of chapter 2's ranking."""
    (value,) = irmeans.interpolated_precision(CH2_RANKING, CH2_R, recall_levels=[0.4])
    return Number(value, decimals=3)


# ---------------------------------------------------------------------------
# Chapter 3: six topics, A excellent on two, B middling
# ---------------------------------------------------------------------------

CH3_A, CH3_B = scales.SCORES_A, scales.SCORES_B


@selfcheck("sc-ch3-gm-doubled")
def ch3_gm_doubled() -> Number:
    """The geometric mean of chapter 3's system A with its last score doubled, 0.05 to 0.10."""
    doubled = np.array(CH3_A)
    doubled[-1] *= 2
    gm = irmeans.geometric_mean(doubled)
    # Doubling one score of six multiplies the geometric mean by 2 ** (1/6).
    assert np.isclose(gm, irmeans.geometric_mean(CH3_A) * 2 ** (1 / 6))
    return Number(gm, decimals=3)


@selfcheck("sc-ch3-logit-winner")
def ch3_logit_winner() -> Choice:
    """Which of chapter 3's systems the logit mean prefers."""
    lm = {"A": irmeans.logit_mean(CH3_A), "B": irmeans.logit_mean(CH3_B)}
    return Choice(("A", "B"), _winner(lm))


# ---------------------------------------------------------------------------
# Chapter 4: Ravana and Moffat's Table 1, ε = 0.01
# ---------------------------------------------------------------------------


def _table1() -> dict[str, tuple[float, ...]]:
    return {name: tuple(scores) for name, scores in averaging.TABLE1_SCORES.items()}


@selfcheck("sc-ch4-s1-ehm")
def ch4_s1_ehm() -> Number:
    """εHM of S1 with ε = 0.1."""
    return Number(irmeans.harmonic_mean(_table1()["S1"], eps=0.1), decimals=3)


@selfcheck("sc-ch4-first-ehm")
def ch4_first_ehm() -> Choice:
    """The system εHM with ε = 1 puts first (the arithmetic mean puts S1 first)."""
    table = _table1()
    ehm = {name: irmeans.harmonic_mean(x, eps=1.0) for name, x in table.items()}
    assert _winner({name: irmeans.arithmetic_mean(x) for name, x in table.items()}) == "S1"
    return Choice(tuple(table), _winner(ehm))


# ---------------------------------------------------------------------------
# Chapter 5: the reconstructed 50 AP values of Robertson's example, its boost of 0.05
# ---------------------------------------------------------------------------

CH5_EPS = 1e-5
CH5_BOOST = boost.BOOST


@selfcheck("sc-ch5-map-ten")
def ch5_map_ten() -> Number:
    """How much MAP rises when the 10 lowest topics gain the chapter's boost, 0.05: 10 x 0.05 / 50."""
    from irmeans_book import robertson

    ap = robertson.load_example()
    boosted = ap.copy()
    boosted[np.argsort(ap, kind="stable")[:10]] += CH5_BOOST
    gain = irmeans.arithmetic_mean(boosted) - irmeans.arithmetic_mean(ap)
    assert np.isclose(gain, 10 * CH5_BOOST / ap.size)
    return Number(gain, decimals=4)


CH5_ZEROS = f"the three zeros raised to {CH5_BOOST:g}"
CH5_TOP = f"the 25 highest topics raised by {CH5_BOOST:g} each"


@selfcheck("sc-ch5-zeros-or-top")
def ch5_zeros_or_top() -> Choice:
    """Which change raises GMAP (ε = 10⁻⁵) more: three zeros to 0.05, or 0.05 on each of the 25 highest."""
    from irmeans_book import robertson

    ap = robertson.load_example()
    zeros = np.where(ap == 0, CH5_BOOST, ap)
    top = robertson.boost(ap, CH5_BOOST, "highest")
    assert (ap == 0).sum() == 3
    gmap = {CH5_ZEROS: irmeans.geometric_mean(zeros, eps=CH5_EPS), CH5_TOP: irmeans.geometric_mean(top, eps=CH5_EPS)}
    return Choice((CH5_ZEROS, CH5_TOP), _winner(gmap))


# ---------------------------------------------------------------------------
# Chapter 6: S2 = (0, 0.4, 0.2, 0.4, 0.3); the rules for a tiny AP
# ---------------------------------------------------------------------------


@selfcheck("sc-ch6-s2-floor")
def ch6_s2_floor() -> Number:
    """trec_eval's floor form of the geometric mean of S2 with ε = 0.1."""
    return Number(irmeans.geometric_mean(epsilon.S2, eps=0.1, form="floor"), decimals=3)


CH6_RULES = {"the Robust track's rule": "Robust track", "trec_eval's floor": "floor", "the additive ε": "additive"}


@selfcheck("sc-ch6-late-below-none")
def ch6_late_below_none() -> Choice:
    """The one rule under which one relevant document at rank 900 of R = 200 scores below finding none."""
    late = irmeans.average_precision(np.eye(1, 1000, 899)[0], num_relevant=200)
    found, none = epsilon.zero_rules([late]), epsilon.zero_rules([0.0])
    below = [option for option, key in CH6_RULES.items() if found[key] < none[key]]
    assert len(below) == 1, below
    return Choice(tuple(CH6_RULES), below[0])


# ---------------------------------------------------------------------------
# Chapter 7: MAP, GMAP and MRR
# ---------------------------------------------------------------------------

CH7_RANKS = (1, 2, 4, None)  # None: the item is not retrieved
CH7_SMALL = "0.05 to 0.10 on the first topic"
CH7_LARGE = "0.40 to 0.75 on the second topic"


@selfcheck("sc-ch7-mrr")
def ch7_mrr() -> Number:
    """MRR of a system finding the known item at ranks 1, 2 and 4, and not at all on a fourth topic."""
    depth = 10
    rankings = np.array([[int(rank == r) for r in range(1, depth + 1)] for rank in CH7_RANKS])
    return Number(irmeans.arithmetic_mean(irmeans.reciprocal_rank(rankings)), decimals=4)


@selfcheck("sc-ch7-gmap-step")
def ch7_gmap_step() -> Choice:
    """Which of two changes to a system's AP (0.05, 0.40, 0.20, 0.60) raises GMAP (ε = 10⁻⁵) more."""
    scores = np.array([0.05, 0.40, 0.20, 0.60])
    small, large = scores.copy(), scores.copy()
    small[0], large[1] = 0.10, 0.75
    gmap = {CH7_SMALL: irmeans.geometric_mean(small, eps=1e-5), CH7_LARGE: irmeans.geometric_mean(large, eps=1e-5)}
    # MAP says the opposite: the larger step in AP wins there.
    assert irmeans.arithmetic_mean(large) > irmeans.arithmetic_mean(small)
    return Choice((CH7_SMALL, CH7_LARGE), _winner(gmap))


# ---------------------------------------------------------------------------
# Chapter 8: the logit
# ---------------------------------------------------------------------------


@selfcheck("sc-ch8-logit-step")
def ch8_logit_step() -> Number:
    """How far apart 0.9 and 0.99 are on the logit scale (no ε)."""
    step = irmeans.means.log_odds(0.99) - irmeans.means.log_odds(0.9)
    return Number(float(step), decimals=2)


@selfcheck("sc-ch8-logit-mean")
def ch8_logit_mean() -> Number:
    """The logit mean of the scores 0.5 and 0.9 (no ε)."""
    return Number(irmeans.logit_mean([0.5, 0.9]), decimals=3)


# ---------------------------------------------------------------------------
# Chapter 9: consistency
# ---------------------------------------------------------------------------

CH9_HALF1 = (0.40, 0.35, 0.30, 0.20)  # systems S1..S4 by AM on the first half
CH9_HALF2 = (0.33, 0.38, 0.25, 0.21)  # and on the second: S1 and S2 swap places


@selfcheck("sc-ch9-tau")
def ch9_tau() -> Number:
    """Kendall's τ between the system orders of two halves that swap one pair of four systems."""
    return Number(irmeans.kendall_tau(CH9_HALF1, CH9_HALF2), decimals=3)


@selfcheck("sc-ch9-one-zero")
def ch9_one_zero() -> Number:
    """εGM (ε = 10⁻⁵) of a half of 25 topics: one zero, 24 topics at 0.3."""
    return Number(irmeans.geometric_mean([0.0] + [0.3] * 24, eps=1e-5), decimals=3)


# ---------------------------------------------------------------------------
# Chapter 10: which average, when?
# ---------------------------------------------------------------------------

CH10_A = (0.0, 0.8, 0.8, 0.8)
CH10_B = (0.4, 0.4, 0.4, 0.4)
CH10_AVERAGES = {
    "the arithmetic mean": irmeans.arithmetic_mean,
    "the median": irmeans.median,
    "the geometric mean with ε = 0.01 added": lambda x: irmeans.geometric_mean(x, eps=0.01),
}


@selfcheck("sc-ch10-prefers-b")
def ch10_prefers_b() -> Choice:
    """The one average of three that prefers the flat system B to A, which fails one topic of four."""
    prefers_b = [name for name, mean in CH10_AVERAGES.items() if mean(CH10_B) > mean(CH10_A)]
    assert len(prefers_b) == 1, prefers_b
    return Choice(tuple(CH10_AVERAGES), prefers_b[0])


@selfcheck("sc-ch10-floor")
def ch10_floor() -> Number:
    """trec_eval's gm_map of system A: the floor form with ε = 10⁻⁵."""
    return Number(irmeans.geometric_mean(CH10_A, eps=irmeans.TREC_EVAL_GM_EPS, form="floor"), decimals=3)
