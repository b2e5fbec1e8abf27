"""The per-topic scores ``irmeans consistency`` and ``irmeans compare`` work on, given one of three ways.

- ``--dataset COLLECTION:MEASURE``: a TREC matrix shipped with irmeans;
- ``--scores CSV``: a CSV of per-topic scores (:func:`irmeans.datasets.read_csv`);
- ``QRELS RUN RUN...`` with ``-m MEASURE``: runs evaluated on every qrels topic
  (:func:`irmeans.evaluate_runs`, trec_eval's ``-c``), its warnings shown on standard error.
"""

from __future__ import annotations

import argparse
import warnings
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .._progress import Progress
from ..errors import IrmeansError, one_line, shown_path
from .arguments import dataset
from .output import say

if TYPE_CHECKING:
    from ..score_matrix import ScoreMatrix

__all__ = ["add_arguments", "read_matrix", "Given"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The three sources' options: ``--dataset``, ``--scores``, ``-m`` and the positional ``QRELS RUN...``."""
    p.add_argument(
        "--dataset",
        type=dataset,
        metavar="COLLECTION:MEASURE",
        help="a TREC matrix shipped with irmeans, e.g. adhoc8:ap or robust2004:ap ('irmeans datasets' lists them)",
    )
    p.add_argument("--scores", metavar="CSV", help="a CSV of per-topic scores, its header starting 'system' or 'topic'")
    p.add_argument("-m", metavar="MEASURE", default="map", help="measure evaluated from QRELS and RUNs (default map)")
    p.add_argument("files", nargs="*", metavar="QRELS RUN", help="qrels file, then two or more run files")


@dataclass(frozen=True)
class Given:
    """The matrix read, and how to name its source in a message (``--dataset adhoc8:ap``, the CSV, ``-m map``)."""

    matrix: ScoreMatrix
    where: str


def read_matrix(opts: argparse.Namespace, command: str) -> Given:
    """The scores from the one source ``opts`` gives (refused: none, or more than one)."""
    from .. import datasets  # here: `irmeans eval` never needs it

    given = [
        name
        for name, used in (("--dataset", opts.dataset), ("--scores", opts.scores), ("QRELS RUN", opts.files))
        if used
    ]
    if len(given) > 1:
        raise IrmeansError(f"give one of --dataset, --scores or QRELS RUN..., not {' and '.join(given)}")
    if opts.dataset:
        collection, measure = opts.dataset
        where = f"--dataset {collection}:{measure}"
        try:
            return Given(datasets.load(collection, measure), where)
        except IrmeansError as exc:
            raise IrmeansError(f"{where}: {exc}") from None
    if opts.scores:
        matrix = datasets.read_csv(opts.scores)
        return Given(replace(matrix, label=shown_path(opts.scores)), shown_path(opts.scores))
    if len(opts.files) < 3:
        raise IrmeansError(
            "nothing to read: give a qrels file and two or more runs, --scores CSV or --dataset COLLECTION:MEASURE"
            if not opts.files
            else "give a qrels file and at least two run files (or --scores or --dataset)"
        )
    from ..score_matrix import evaluate_runs

    qrels, runs = opts.files[0], opts.files[1:]
    with Progress(len(runs), command, "runs", what=" evaluated") as bar:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            matrix = evaluate_runs(qrels, runs, opts.m, progress=bar.update)
    for w in caught:
        say(f"{command}: warning: {one_line(str(w.message))}")
    label = f"{matrix.measure} of {len(runs)} runs against {shown_path(qrels)}"
    return Given(replace(matrix, label=label), f"-m {opts.m}")
