"""irmeans: per-topic IR effectiveness measures and the ways of averaging them.

>>> import irmeans
>>> ap = [irmeans.average_precision(r, num_relevant=2) for r in ([1, 0, 1], [0, 0, 1], [0, 0, 0])]
>>> round(irmeans.arithmetic_mean(ap), 4), round(irmeans.GM(eps=1e-5)(ap), 4)
(0.3333, 0.0111)

The names below are imported from their modules when first used, so that ``import irmeans``
(and the ``irmeans`` command, which starts with it) loads only what is asked for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"

# name -> the module that defines it
_HOMES = {
    "averages": ["AM", "GM", "HM", "Average", "Logit", "Median", "parse_average"],
    "consistency.experiment": ["halves_tau", "split_half"],
    "consistency.intervals": ["tau_intervals"],
    "consistency.kendall": ["kendall_tau"],
    "consistency.halves": ["difficulty_halves", "draw_halves", "make_halves"],
    "consistency.topics": ["standardize", "topic_difficulty"],
    "comparison.significance": ["holm", "paired_t_test", "randomization_test", "sign_test"],
    "errors": ["FileFormatError", "IrmeansError", "TopicsLeftOutWarning", "TooFewToTellWarning"],
    "means": ["TREC_EVAL_GM_EPS", "arithmetic_mean", "geometric_mean", "harmonic_mean", "logit_mean", "median"],
    "measures": [
        "STANDARD_RECALL_LEVELS",
        "ap_unretrieved_at_end",
        "average_precision",
        "expected_ap_random_order",
        "interpolated_precision",
        "ndcg",
        "expected_reciprocal_rank",
        "precision_at",
        "precision_recall_points",
        "r_precision",
        "recall_at",
        "reciprocal_rank",
    ],
    "trec.evaluate": ["Evaluation", "evaluate"],
    "trec.files": ["Qrels", "Run", "read_qrels", "read_run"],
    "score_matrix": ["ScoreMatrix", "evaluate_runs"],
    "comparison.compare": ["compare"],
    "comparison.by_measure": ["compare_measures"],
    "comparison.result": ["Comparison"],
}
_MODULE_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "AM",
    "GM",
    "HM",
    "Average",
    "Logit",
    "Median",
    "parse_average",
    "difficulty_halves",
    "draw_halves",
    "halves_tau",
    "kendall_tau",
    "make_halves",
    "split_half",
    "tau_intervals",
    "standardize",
    "topic_difficulty",
    "paired_t_test",
    "randomization_test",
    "sign_test",
    "holm",
    "FileFormatError",
    "IrmeansError",
    "TopicsLeftOutWarning",
    "TooFewToTellWarning",
    "TREC_EVAL_GM_EPS",
    "arithmetic_mean",
    "geometric_mean",
    "harmonic_mean",
    "logit_mean",
    "median",
    "STANDARD_RECALL_LEVELS",
    "ap_unretrieved_at_end",
    "average_precision",
    "expected_ap_random_order",
    "interpolated_precision",
    "ndcg",
    "expected_reciprocal_rank",
    "precision_at",
    "precision_recall_points",
    "r_precision",
    "recall_at",
    "reciprocal_rank",
    "Evaluation",
    "evaluate",
    "Qrels",
    "Run",
    "read_qrels",
    "read_run",
    "ScoreMatrix",
    "evaluate_runs",
    "compare",
    "compare_measures",
    "Comparison",
]


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'irmeans' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # what type checkers and editors see: the same names, imported at once
    from .averages import AM, GM, HM, Average, Logit, Median, parse_average
    from .comparison.by_measure import compare_measures
    from .comparison.compare import compare
    from .comparison.result import Comparison
    from .comparison.significance import holm, paired_t_test, randomization_test, sign_test
    from .consistency.experiment import halves_tau, split_half
    from .consistency.halves import difficulty_halves, draw_halves, make_halves
    from .consistency.intervals import tau_intervals
    from .consistency.kendall import kendall_tau
    from .consistency.topics import standardize, topic_difficulty
    from .errors import FileFormatError, IrmeansError, TooFewToTellWarning, TopicsLeftOutWarning
    from .means import (
        TREC_EVAL_GM_EPS,
        arithmetic_mean,
        geometric_mean,
        harmonic_mean,
        logit_mean,
        median,
    )
    from .measures import (
        STANDARD_RECALL_LEVELS,
        ap_unretrieved_at_end,
        average_precision,
        expected_ap_random_order,
        expected_reciprocal_rank,
        interpolated_precision,
        ndcg,
        precision_at,
        precision_recall_points,
        r_precision,
        recall_at,
        reciprocal_rank,
    )
    from .score_matrix import ScoreMatrix, evaluate_runs
    from .trec.evaluate import Evaluation, evaluate
    from .trec.files import Qrels, Run, read_qrels, read_run
