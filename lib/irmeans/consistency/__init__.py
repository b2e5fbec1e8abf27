"""Split-half consistency: how consistently an average of per-topic scores orders a set of systems.

Ravana & Moffat's experiment (2009) and how sure it is, a module for each part, each
importing only those above it in this list:

- :mod:`.topics`: per-topic views of a systems × topics matrix (difficulty, standardized scores);
- :mod:`.halves`: the two halves of a split, random or by topic difficulty;
- :mod:`.kendall`: Kendall's τ-b of one pair of score vectors or of a whole stack;
- :mod:`.experiment`: the experiment itself, :func:`split_half` and :func:`halves_tau`;
- :mod:`.intervals`: intervals of its mean τ over splits and over topics, :func:`~.intervals.tau_intervals`.

The names of the first four are re-exported here (``irmeans.consistency.split_half``); every
public name is also one of :mod:`irmeans`'s.

>>> from irmeans import consistency
>>> consistency.split_half([[0.1, 0.2, 0.3, 0.4], [0.2, 0.3, 0.4, 0.5]], "am", n_splits=2, seed=1).tolist()
[1.0, 1.0]
"""

from .experiment import halves_tau, split_half
from .halves import SPLIT_KINDS, difficulty_halves, draw_halves, make_halves
from .kendall import kendall_tau
from .topics import DIFFICULTY, standardize, topic_difficulty

__all__ = [
    "kendall_tau",
    "draw_halves",
    "halves_tau",
    "split_half",
    "DIFFICULTY",
    "SPLIT_KINDS",
    "topic_difficulty",
    "difficulty_halves",
    "make_halves",
    "standardize",
]
