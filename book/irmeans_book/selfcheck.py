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
:class:`Choice`; :data:`ANSWERS` maps every label to its function. The answers
live with their chapter's data, in the chapter's module
(:mod:`irmeans_book.chapters`): ``sc-ch7-mrr`` is answered in
``ch07_map_gmap_mrr``; :func:`registered` imports them all.

Examples
--------
>>> answer("sc-ch2-r-precision").accepts(0.5)
True
>>> answer("sc-ch4-first-ehm").answer
'S3'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

__all__ = ["ANSWERS", "Choice", "Number", "answer", "registered", "selfcheck", "winner"]


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

    def __post_init__(self) -> None:
        object.__setattr__(self, "value", float(self.value))
        if not math.isfinite(self.value):
            raise ValueError(f"a self-check answer must be a finite number, not {self.value!r}")
        if self.tolerance is None:
            object.__setattr__(self, "tolerance", 10.0**-self.decimals)
        if not self.tolerance >= 0:  # type: ignore[operator]  # set just above where None
            raise ValueError(f"tolerance must be >= 0, not {self.tolerance!r}")

    @property
    def shown(self) -> str:
        """The answer as the site prints it once the reader has it right."""
        return f"{self.value:.{self.decimals}f}"

    def accepts(self, given: float) -> bool:
        """Whether ``given`` counts as right (the site's script applies the same rule)."""
        return abs(float(given) - self.value) <= self.tolerance + 1e-12  # type: ignore[operator]  # never None after __post_init__


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

    def __post_init__(self) -> None:
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


def selfcheck(label: str) -> Callable[[Callable[[], Answer]], Callable[[], Answer]]:
    """Register the decorated function as the answer of the exercise labelled ``label``."""
    if not label.startswith("sc-"):
        raise ValueError(f"self-check labels start with 'sc-': {label!r}")

    def register(function: Callable[[], Answer]) -> Callable[[], Answer]:
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
        function = registered()[label]
    except KeyError:
        raise KeyError(f"no self-check answer is registered for {label!r} in {__name__}") from None
    result = function()
    if not isinstance(result, Number | Choice):
        raise TypeError(f"{function.__name__} returned {type(result).__name__}, not a Number or a Choice")
    return result


def winner(scores: Mapping[str, float | np.ndarray]) -> str:
    """The one name with the highest score; a tie is a mistake in the question."""
    best = max(scores.values())
    names = [name for name, value in scores.items() if np.isclose(value, best, rtol=0, atol=1e-12)]
    assert len(names) == 1, f"no single winner: {scores}"
    return names[0]


def registered() -> dict[str, Callable[[], Answer]]:
    """:data:`ANSWERS`, with every chapter's answers in it (each chapter's module registers its own on import)."""
    from irmeans_book import chapters

    chapters.chapter_modules()
    return ANSWERS
