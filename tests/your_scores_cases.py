"""Scores a reader types into a "your scores" box: one case of each kind that has broken, or could break, an average.

Shared by the check of the box's Vega formulas (tests/book/test_yourscores.py, rendered by vl-convert) and
the check of the boxes on the site (tests/browser/test_site_your_scores.py), which type them in.
"""

from __future__ import annotations

import numpy as np
from irmeans_book.yourscores import entries

#: (what the case is, system A's text, system B's text).
CASES = [
    ("one score each, a tie", "0.5", "0.5"),
    ("a failed topic (a zero) against none", "0 0.2 0.4", "0.1, 0.2, 0.3"),
    ("every score zero", "0 0 0", "0.2 0.5"),
    ("scores at and near 1 against scores near 0", "1 1 0.99", "0.01 0.02 0.03"),
    ("one topic against thirteen", "0.7", " ".join(f"{x:g}" for x in np.linspace(0.05, 0.95, 13))),
    ("many decimals", "0.12345 0.6789", "0.40005"),
    ("commas, spaces and tabs", "0.1,0.2 ,\t0.3", "0.3\t0.2 0.1"),
    ("a near tie", "0.3 0.5", "0.3 0.500001"),
    ("decimal commas", "0,5 0,25 0,1", "0,3 0,2"),
    ("decimal commas and commas between them", "0,5, 0,25", "0.5,0.25"),
]

#: How a box or a self-check reads what is typed (irmeans_book.yourscores.entries): (text, the numbers read).
#: A comma between digits is a decimal comma only when the text holds no '.' and no ';'.
ENTRIES = [
    ("0,5 0,25 0,1", [0.5, 0.25, 0.1]),
    ("0.5,0.25", [0.5, 0.25]),
    ("0,5, 0,25", [0.5, 0.25]),
    ("0,5;0,25", [0, 5, 0, 25]),
    ("0.5 0,25", [0.5, 0, 25]),
    ("1,0\t0,0", [1.0, 0.0]),
    ("0,275", [0.275]),
    (" ;0.1;; 0.2 ,", [0.1, 0.2]),
]


def random_cases(seed: int, count: int = 2) -> list[tuple[str, str, str]]:
    """``count`` cases of random scores (1 to 14 topics, 1 to 4 decimals, now and then a zero or a one)."""
    rng = np.random.default_rng(seed)
    cases = []
    for trial in range(count):
        a, b = (np.round(rng.uniform(0, 1, rng.integers(1, 15)), rng.integers(1, 5)) for _ in range(2))
        a[0], b[-1] = (0.0, 1.0) if trial % 2 else (a[0], b[-1])
        cases.append((f"random {seed}.{trial}", ", ".join(f"{x:g}" for x in a), " ".join(f"{x:g}" for x in b)))
    return cases


def scores(text: str) -> np.ndarray:
    """The scores a box reads from ``text`` (irmeans_book.yourscores.entries)."""
    return np.array([float(t) for t in entries(text)])
