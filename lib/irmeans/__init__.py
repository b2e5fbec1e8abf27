"""irmeans: per-topic IR effectiveness measures and the ways of averaging them.

>>> import irmeans
>>> ap = [irmeans.average_precision(r) for r in ([1, 0, 1], [0, 0, 1], [0, 0, 0])]
>>> round(irmeans.arithmetic_mean(ap), 4), round(irmeans.geometric_mean(ap, eps=1e-5), 4)
(0.3889, 0.014)
"""

from .means import (
    TREC_EVAL_GM_EPS,
    arithmetic_mean,
    geometric_mean,
    harmonic_mean,
    logit_mean,
    median,
)
from .ranked import (
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
from .consistency import draw_halves, kendall_tau, split_half, standardize
from .simulate import PRESETS, simulate_collection
from .trec_files import Qrels, Run, read_qrels, read_run
from .evaluation import Evaluation, evaluate

__version__ = "0.1.0"
