"""irmeans: per-topic IR effectiveness measures and the ways of averaging them.

>>> import irmeans
>>> ap = [irmeans.average_precision(r) for r in ([1, 0, 1], [0, 0, 1], [0, 0, 0])]
>>> round(irmeans.arithmetic_mean(ap), 4), round(irmeans.GM(eps=1e-5)(ap), 4)
(0.3889, 0.014)
"""

from .averages import AM, GM, HM, Average, Logit, Median, parse_average
from .consistency import (
    difficulty_halves,
    draw_halves,
    halves_tau,
    kendall_tau,
    make_halves,
    split_half,
    standardize,
    topic_difficulty,
)
from .errors import FileFormatError, IrmeansError, TopicsLeftOutWarning
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
    interpolated_precision,
    ndcg,
    precision_at,
    precision_recall_points,
    r_precision,
    recall_at,
    reciprocal_rank,
)
from .significance import compare_taus, paired_t_test
from .trec.evaluate import Evaluation, evaluate
from .trec.files import Qrels, Run, read_qrels, read_run

__version__ = "0.2.0"

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
    "standardize",
    "topic_difficulty",
    "compare_taus",
    "paired_t_test",
    "FileFormatError",
    "IrmeansError",
    "TopicsLeftOutWarning",
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
    "precision_at",
    "precision_recall_points",
    "r_precision",
    "recall_at",
    "reciprocal_rank",
    "Evaluation",
    "Qrels",
    "Run",
    "evaluate",
    "read_qrels",
    "read_run",
]
