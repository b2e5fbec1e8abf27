"""The options ``irmeans consistency`` and ``irmeans compare`` share, each defined once, and the scores they read.

Both commands work on per-topic scores given one of three ways (:func:`add_source`, read by
:func:`read_matrix`):

- ``--dataset COLLECTION:MEASURE``: a TREC matrix shipped with irmeans;
- ``--scores CSV``: a CSV of per-topic scores (:func:`irmeans.datasets.read_csv`);
- ``QRELS RUN RUN...`` with ``-m MEASURE``: runs evaluated on every qrels topic
  (:func:`irmeans.evaluate_runs`, trec_eval's ``-c``), its warnings shown on standard error;

and both take averages (``-a``, :func:`add_averages`), a number of random draws (``-n``,
:func:`add_draws`), a seed (:func:`add_seed`) and the decimals printed (:func:`add_digits`).
The module of datasets is imported only for ``--dataset`` or ``--scores``.
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from .._progress import Progress
from ..errors import IrmeansError, shown_path
from .arguments import dataset, digits, seed
from .output import in_our_words, say

if TYPE_CHECKING:
    from ..score_matrix import ScoreMatrix

__all__ = [
    "add_source",
    "add_averages",
    "add_draws",
    "add_seed",
    "add_digits",
    "read_matrix",
    "measures_of",
    "Given",
]


def add_averages(
    p: argparse.ArgumentParser, read: Callable[[str], Any], default: Sequence[str], more: str = ""
) -> None:
    """``-a SPEC`` (``--average``), repeatable, each read by ``read`` (a bad spec is a usage error)."""
    p.add_argument(
        "-a",
        "--average",
        action="append",
        type=read,
        metavar="SPEC",
        help=f"average, repeatable (default: {', '.join(default)}){more}",
    )


def add_draws(p: argparse.ArgumentParser, long: str, read: Callable[[str], int], default: int, what: str) -> None:
    """``-n N`` (``long``): how many random draws (``what``)."""
    p.add_argument("-n", long, type=read, default=default, metavar="N", help=f"{what} (default {default})")


def add_seed(p: argparse.ArgumentParser, what: str) -> None:
    """``--seed``: a whole number >= 0, default 0."""
    p.add_argument("--seed", type=seed, default=0, help=f"seed of {what} (default 0)")


def add_digits(p: argparse.ArgumentParser, what: str = "decimals") -> None:
    """``--digits D``: 0 to 17, default 4."""
    p.add_argument("--digits", type=digits, default=4, metavar="D", help=f"{what} (default 4)")


def standardized_average(text: str) -> str:
    """An ``-a`` of ``irmeans consistency``: a spec, ``std-`` before it for standardized scores, read back as its
    label (``gm:0.01``, ``std-am``), or a usage error."""
    from ..consistency.intervals import spec_label  # here: the other commands never need it

    try:
        return spec_label(text)
    except IrmeansError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_source(p: argparse.ArgumentParser, measures: bool = False) -> None:
    """The three sources' options: ``--dataset``, ``--scores``, ``-m`` and the positional ``QRELS RUN...``;
    ``-m`` repeatable with ``measures`` (a list, read by :func:`measures_of`), else one measure."""
    p.add_argument(
        "--dataset",
        type=dataset,
        metavar="COLLECTION:MEASURE",
        help="a TREC matrix shipped with irmeans, e.g. adhoc8:ap or robust2004:ap ('irmeans datasets' lists them)",
    )
    p.add_argument("--scores", metavar="CSV", help="a CSV of per-topic scores, its header starting 'system' or 'topic'")
    if measures:
        p.add_argument(
            "-m",
            metavar="MEASURE",
            action="append",
            help="measure evaluated from QRELS and RUNs, repeatable: several give a table of measures x averages "
            "(default map)",
        )
    else:
        what = "measure evaluated from QRELS and RUNs (default map)"
        p.add_argument("-m", metavar="MEASURE", default="map", help=what)
    p.add_argument("files", nargs="*", metavar="QRELS RUN", help="qrels file, then two or more run files")


@dataclass(frozen=True)
class Given:
    """The matrix read, and how to name its source in a message (``--dataset adhoc8:ap``, the CSV, ``-m map``)."""

    matrix: ScoreMatrix
    where: str


def measures_of(opts: argparse.Namespace) -> list[str]:
    """The measures a repeatable ``-m`` gave, each once, in order (``map`` when none was)."""
    given = opts.m if isinstance(opts.m, list) else [opts.m] if opts.m else []
    return list(dict.fromkeys(given)) or ["map"]


def read_matrix(opts: argparse.Namespace, command: str, measure: str | None = None) -> Given:
    """The scores from the one source ``opts`` gives (refused: none, or more than one), the runs evaluated with
    ``measure`` (default ``opts.m``)."""
    measure = measure or (opts.m if isinstance(opts.m, str) else measures_of(opts)[0])
    given = [
        name
        for name, used in (("--dataset", opts.dataset), ("--scores", opts.scores), ("QRELS RUN", opts.files))
        if used
    ]
    if len(given) > 1:
        raise IrmeansError(f"give one of --dataset, --scores or QRELS RUN..., not {' and '.join(given)}")
    if opts.dataset or opts.scores:
        from .. import datasets  # here: only a shipped matrix or a CSV needs it
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
    from ..comparison.report import runs_label
    from ..score_matrix import evaluate_runs

    qrels, runs = opts.files[0], opts.files[1:]
    with Progress(len(runs), command, "runs", what=" evaluated") as bar:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            matrix = evaluate_runs(qrels, runs, measure, progress=bar.update)
    for w in caught:
        say(f"{command}: warning: {in_our_words(w.message)}")
    label = runs_label(matrix.measure, len(runs), shown_path(qrels))
    return Given(replace(matrix, label=label), f"-m {measure}")
