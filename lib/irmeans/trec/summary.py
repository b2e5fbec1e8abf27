"""The average stage: the ``all`` line of every chosen measure, from its per-topic values, and the ``-a`` lines.

Each chosen family carries its average (:attr:`~.table.Chosen.average`): the mean, added
topic by topic as trec_eval adds, a sum, trec_eval's floored geometric mean, or, for the
extra lines, another of :mod:`irmeans.averages`.  trec_eval's own lines are formed with C's
arithmetic (a NaN among the topics' values gives a NaN, :meth:`~irmeans.averages.Average.unchecked`);
an extra line is the library's average itself, which refuses what it cannot take: the line
is then left out, with a note saying why, naming the topic whose value it refused.  So is an
``-a`` line (``map/gm:0.01``: a measure printed per topic, averaged with an average asked for).

>>> import numpy as np
>>> from irmeans.trec.table import parse_measures
>>> ap = np.array([0.5, 0.0])
>>> chosen = parse_measures(["map", "hm_map"], eps=0)
>>> totals, notes = summarize({"map": ap, "hm_map": ap}, chosen, topics=["401", "402"])
>>> totals, notes["hm_map"].split(";")[0]
({'map': 0.25}, "topic '402': its value 0 is refused: the harmonic mean of a set with a zero is undefined")
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..averages import Average
from ..errors import IrmeansError, RefusedScore
from .table import Selection

__all__ = ["summarize"]


def summarize(
    per_topic: dict[str, np.ndarray],
    chosen: Selection,
    *,
    runid: str = "",
    judged_positive: int | None = None,
    topics: Sequence[str] = (),
) -> tuple[dict[str, float | int | str], dict[str, str]]:
    """The ``all`` values by line name, in printing order, and the extra lines left out with the reason.

    ``runid`` is the ``runid`` line's value; ``judged_positive``, when given (under ``-c``),
    is ``num_rel``'s: trec_eval then counts every qrels line with a grade above 0, whatever
    the relevance level.  ``topics`` (the topics of the values, in order) name the topic of a
    value an average refuses.
    """
    out: dict[str, float | int | str] = {}
    notes: dict[str, str] = {}
    for c in chosen:
        fam, average = c.family, c.average
        if fam.kernel is None:  # runid
            out[fam.name] = runid
            continue
        if average is None:
            continue
        for line in c.lines:
            values = per_topic[line]
            if fam.name == "num_rel" and judged_positive is not None:
                out[line] = judged_positive
            elif not fam.extra:
                out[line] = average.unchecked(values)
            else:
                _checked(line, average, values, topics, out, notes)  # e.g. ε = 0 with an AP of 0: undefined
    for name, line, average in chosen.averaged:  # a count averaged in log-odds, a NaN of -M 0, a zero with ε = 0
        _checked(name, average, per_topic[line], topics, out, notes)
    return out, notes


def _checked(
    name: str,
    average: Average,
    values: np.ndarray,
    topics: Sequence[str],
    out: dict[str, float | int | str],
    notes: dict[str, str],
) -> None:
    """The average of the values into ``out``, or into ``notes`` why it is undefined (naming the topic refused)."""
    try:
        out[name] = float(average(values))
    except RefusedScore as exc:
        i = exc.index if isinstance(exc.index, int) else exc.index[0]
        where = f"topic {topics[i]!r}" if i < len(topics) else f"the value at index {i}"
        notes[name] = f"{where}: its value {0 if exc.value == 0 else exc.value!r} is refused: {exc.reason}"
    except IrmeansError as exc:
        notes[name] = str(exc).splitlines()[0] if str(exc) else "undefined"
