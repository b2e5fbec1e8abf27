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


def __getattr__(name: str) -> Any:
    """A public name, imported from its module when first asked for; ``__all__`` and ``_MODULE_OF`` likewise."""
    if name in ("__all__", "_MODULE_OF"):
        homes = _homes()
        value: Any = list(homes) if name == "__all__" else homes
    else:
        module = _homes().get(name)
        if module is None:
            raise AttributeError(f"module 'irmeans' has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_homes()))


_HOMES: dict[str, str] = {}


def _homes() -> dict[str, str]:
    """Each public name and the module that defines it (``"evaluate": "trec.evaluate"``), in the order of the
    imports below, the package's one list of its public names: read from this file when first needed."""
    if not _HOMES:
        import ast
        import importlib.resources

        tree = ast.parse((importlib.resources.files(__name__) / "__init__.py").read_text(encoding="utf-8"))
        block = next(n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
        for node in block.body:
            assert isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 1
            _HOMES.update((alias.asname or alias.name, node.module) for alias in node.names)
    return _HOMES


# The package's public names, each imported from the module that defines it: what type checkers and editors
# see (``X as X``: given by the package), and what _homes reads (it is not run) for the names and their modules.
if TYPE_CHECKING:
    from .averages import AM as AM
    from .averages import GM as GM
    from .averages import HM as HM
    from .averages import Average as Average
    from .averages import Logit as Logit
    from .averages import Median as Median
    from .averages import parse_average as parse_average
    from .comparison.by_measure import compare_measures as compare_measures
    from .comparison.compare import compare as compare
    from .comparison.result import Comparison as Comparison
    from .comparison.significance import holm as holm
    from .comparison.significance import paired_t_test as paired_t_test
    from .comparison.significance import randomization_test as randomization_test
    from .comparison.significance import sign_test as sign_test
    from .consistency.experiment import halves_tau as halves_tau
    from .consistency.experiment import split_half as split_half
    from .consistency.halves import difficulty_halves as difficulty_halves
    from .consistency.halves import draw_halves as draw_halves
    from .consistency.halves import make_halves as make_halves
    from .consistency.intervals import tau_intervals as tau_intervals
    from .consistency.kendall import kendall_tau as kendall_tau
    from .consistency.topics import standardize as standardize
    from .consistency.topics import topic_difficulty as topic_difficulty
    from .errors import FileFormatError as FileFormatError
    from .errors import IrmeansError as IrmeansError
    from .errors import TooFewToTellWarning as TooFewToTellWarning
    from .errors import TopicsLeftOutWarning as TopicsLeftOutWarning
    from .means import TREC_EVAL_GM_EPS as TREC_EVAL_GM_EPS
    from .means import arithmetic_mean as arithmetic_mean
    from .means import geometric_mean as geometric_mean
    from .means import harmonic_mean as harmonic_mean
    from .means import logit_mean as logit_mean
    from .means import median as median
    from .measures import STANDARD_RECALL_LEVELS as STANDARD_RECALL_LEVELS
    from .measures import ap_unretrieved_at_end as ap_unretrieved_at_end
    from .measures import average_precision as average_precision
    from .measures import expected_ap_random_order as expected_ap_random_order
    from .measures import expected_reciprocal_rank as expected_reciprocal_rank
    from .measures import interpolated_precision as interpolated_precision
    from .measures import ndcg as ndcg
    from .measures import precision_at as precision_at
    from .measures import precision_recall_points as precision_recall_points
    from .measures import r_precision as r_precision
    from .measures import recall_at as recall_at
    from .measures import reciprocal_rank as reciprocal_rank
    from .score_matrix import ScoreMatrix as ScoreMatrix
    from .score_matrix import evaluate_runs as evaluate_runs
    from .trec.evaluate import Evaluation as Evaluation
    from .trec.evaluate import evaluate as evaluate
    from .trec.files import Qrels as Qrels
    from .trec.files import Run as Run
    from .trec.files import read_qrels as read_qrels
    from .trec.files import read_run as read_run
