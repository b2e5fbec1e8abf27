"""The measure stage: every chosen measure's per-topic values, for the ranked lists of an evaluation.

:func:`measure` runs each chosen family's kernel (:mod:`.kernels`) once (``map`` and
``gm_map`` share theirs, as do ``bpref`` and ``gm_bpref``) on a :class:`~.context.Context` of
a group of whole topics, group after group of about :data:`PART_ROWS` ranked rows, so that
the temporaries stay small; each topic's values are its own, whatever the group.  A topic
evaluated under ``-c`` without results gets what its family's ``reset`` says.

>>> from irmeans.trec.evaluate import evaluate
>>> evaluate((["1"], ["a"], [1]), (["1", "1"], ["b", "a"], [2.0, 1.0]), measures=["P.1,2"])["P_2"].tolist()
[0.5]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .context import Context
from .ranked import Ranked
from .table import Selection

__all__ = ["measure", "PART_ROWS"]

#: The measures are computed for about this many ranked rows at a time (whole topics).
PART_ROWS = 1 << 16


def measure(ranked: Ranked, chosen: Selection, num_docs: int = 0) -> dict[str, np.ndarray]:
    """The per-topic values of every chosen family with a kernel, by line name, in printing order."""
    ends = np.cumsum(ranked.num_ret)
    cuts = [0]
    while cuts[-1] < ranked.ntopics:
        done = int(ends[cuts[-1] - 1]) if cuts[-1] else 0
        cuts.append(max(cuts[-1] + 1, int(np.searchsorted(ends, done + PART_ROWS, side="right"))))
    if len(cuts) <= 2:
        return _measure(Context(ranked, num_docs), chosen)
    out: dict[str, np.ndarray] = {}
    for a, b in zip(cuts[:-1], cuts[1:]):  # each part's values written into place, the part let go
        for name, values in _measure(Context(ranked.topic_slice(a, b), num_docs), chosen).items():
            if name not in out:
                out[name] = np.empty(ranked.ntopics, dtype=values.dtype)
            elif np.result_type(out[name], values) != out[name].dtype:  # a wider type in this part
                out[name] = out[name].astype(np.result_type(out[name], values))
            out[name][a:b] = values
    return out


def _measure(context: Context, chosen: Selection) -> dict[str, np.ndarray]:
    """Every chosen family's per-topic values for the topics of one context."""
    out: dict[str, np.ndarray] = {}
    # a kernel with the same parameters runs once (map and gm_map, bpref and gm_bpref)
    done: dict[tuple[Callable[..., Any], tuple[Any, ...] | None], list[np.ndarray]] = {}
    bogus = context.r.bogus
    for c in chosen:
        fam = c.family
        if fam.kernel is None:
            continue
        key = (fam.kernel, c.params)
        if key not in done:
            # in IEEE doubles, as trec_eval's C: an overflow is inf, 0 / 0 NaN, without numpy's warnings (casts
            # out of int64's range, undefined in C, are kept from happening: kernels._whole)
            with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
                done[key] = c.values(context)
        reset = bogus.any() and (fam.reset == "always" or (fam.reset == "plain" and c.printable is None))
        for line, values in zip(c.lines, done[key]):
            if reset:  # trec_eval's stand-in document for a -c topic without results does not count here
                values = np.where(bogus, "''" if fam.kind == "string" else 0, values).astype(values.dtype)
            out[line] = values
    return out
