"""``irmeans compare``: which of your runs is better, under each average, and how sure is it?

Three ways to give the per-topic scores (as for 'irmeans consistency'):

- ``irmeans compare -m map QRELS RUN RUN...``: one qrels file and two or more
  runs, each evaluated on every qrels topic (trec_eval's ``-c``: a topic a run
  has no line for scores 0, with a warning), with the measure ``-m`` (``map``
  for AP, ``P.10``, ``ndcg_cut.20``, ``recip_rank``...); a run is named by its
  runid, or by its file if two runs share one;
- ``irmeans compare --scores SCORES.csv``: a CSV whose header starts
  ``system`` (a row per system) or ``topic`` (a row per topic);
- ``irmeans compare --dataset COLLECTION:MEASURE``: a TREC matrix shipped
  with irmeans (``adhoc8:ap``...).

Every pair of systems is compared, or each system with ``--baseline``
(system - baseline), under each average (``-a``, repeatable; default am,
gm:0.01 and logit:0.01): the difference with a bootstrap confidence interval
over topics, the paired t-test on the average's own scale (on log(x + eps) for
a GM) and Fisher's randomization test (the same sign vectors for every pair and
average, or every sign vector when 2^topics is no more than ``-n``), each
Holm-adjusted over its family, the pairs x averages of the measure. A verdict
is marked where the adjusted p of the test ``--test`` chooses is below
``--alpha``. ``-n`` (``--permutations``) is the number of sign vectors of the
randomization test (in 'irmeans consistency', ``-n`` is the number of random
splits). The randomization p has a floor, 1/(n + 1) (2/2^topics when exact),
times the family after Holm; when that is above alpha/10, ``--test auto``
(the default) marks the verdicts by the t-test instead, and the report says so
and how many sign vectors would do. The intervals are not adjusted for the many
comparisons (the report says so wherever it prints one); the p-values are
shown raw and Holm-adjusted.

Robertson's check names the first transformation of a stated family (logs
with eps from 1e-5 to 1, the logit, powers 1/4 to 4) that reverses the
arithmetic mean's verdict, and counts the reversal as substantial only when
the reversed difference's own interval excludes 0. That rule is irmeans'
reading, not Robertson's: he asks whether transformations that would change
the conclusions substantially are "easy to find", and sets no bar.

``--systems A,B,C`` compares just those systems of ``--dataset`` or
``--scores`` (or of the runs given), in that order; it may be given several
times, and a name that holds a comma is given alone, as a value of its own
(``--systems x,y`` names the system x,y when there is one, else x and y). An
unknown name is refused, with the names there are.

Several -m (runs evaluated from QRELS RUN...) give a table of measures x
averages, then each measure's report, every pair in the same order (CSV: a
'measure' column in front; JSON: each measure under its name); each measure is
its own Holm family unless '--holm all' corrects them together.

The text report (at most 100 columns) says in a line what was compared, then
gives the results: a verdict in words for each pair, the better system first,
then the differences and the raw and Holm-adjusted p-values side by side;
its notes come last (the scale of each test, the Holm family, the floor: a p
on it is marked ^). ``--format csv`` and ``json`` keep A and B as given and
hold every number unrounded (raw and adjusted p-values; JSON writes an
infinite t as the string "inf" or "-inf" and a test that does not apply as
null); ``markdown`` and ``latex`` give the report's three tables, rounded,
their notes as captions (LaTeX needs \\usepackage{booktabs,longtable,array}).

``--results-table`` writes instead the table a paper prints: a row per system
(the baseline first), a column per measure x average, the best of each
column in bold (between ** in text), and a mark where a system differs from
the baseline after Holm over the ``--holm`` family (an arrow up or down;
without --baseline, the letters of the systems it is better than), its
caption stating the family, the test, alpha and the marks. For three runs of
TREC-8 ('--dataset adhoc8:ap --systems run8,run2,run3 --baseline run8
--results-table'):

    system           AM           εGM (ε = 0.01)  logit (ε = 0.01)
    run8 (baseline)  0.0287       0.0108          0.0112
    run2             **0.3346**↑  **0.2457**↑     **0.2826**↑
    run3             0.2560↑      0.1745↑         0.2000↑

``--plot FILE.svg`` (or ``.png``) draws each pair's per-topic differences on
each average's scale with matplotlib (needs ``pip install 'irmeans[plot]'``),
written whole or not at all. The results depend only on the inputs and
``--seed``.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from .._progress import Progress
from ..comparison.by_measure import HOLM_FAMILIES, compare_measures
from ..comparison.compare import DEFAULT_AVERAGES, TESTS, compare, work
from ..comparison.result import MAX_PLOT_PAIRS, OUTPUT_FORMATS
from ..errors import IrmeansError, shown_path
from . import options
from .arguments import average, positive_integer, subcommand
from .output import Output

if TYPE_CHECKING:
    from ..score_matrix import ScoreMatrix

__all__ = ["add_parser", "run_compare", "probability", "chosen_systems"]

DESCRIPTION = __doc__.split("\n", 2)[2].replace("``", "'")


def probability(text: str) -> float:
    """A level strictly between 0 and 1 (``--alpha``, ``--confidence``), in C's number syntax."""
    from ..number_syntax import c_float

    value = c_float(text)
    if value is None or not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number strictly between 0 and 1")
    return value


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add the ``compare`` subcommand to the ``irmeans`` subparsers ``sub``."""
    p = subcommand(
        sub, "compare", "compare runs under several averages: differences, paired tests, verdicts", DESCRIPTION
    )
    options.add_source(p, measures=True)
    options.add_averages(p, average, DEFAULT_AVERAGES)
    p.add_argument("--baseline", metavar="NAME", help="compare each system with this one, not every pair")
    options.add_draws(p, "--permutations", positive_integer, 10_000, "sign vectors of the randomization test")
    p.add_argument(
        "-b",
        "--bootstrap",
        type=positive_integer,
        default=10_000,
        metavar="N",
        help="resamples of the topics for the intervals (default 10000)",
    )
    p.add_argument("--confidence", type=probability, default=0.95, help="level of the intervals (default 0.95)")
    p.add_argument("--alpha", type=probability, default=0.05, help="level of the verdicts' marks (default 0.05)")
    p.add_argument(
        "--test",
        choices=TESTS,
        default="auto",
        help="test that marks the verdicts (default auto: the randomization test, or the t-test on each average's "
        "scale when the randomization test's smallest Holm-adjusted p is above alpha/10; the report says which)",
    )
    options.add_seed(p, "the sign vectors and resamples")
    p.add_argument("--format", choices=OUTPUT_FORMATS, default="text", help="output format (default text)")
    options.add_digits(p, "decimals of the rounded tables")
    p.add_argument(
        "--holm",
        choices=HOLM_FAMILIES,
        default="measure",
        help="Holm's family with several -m: each measure its own (default), or all measures' comparisons together",
    )
    p.add_argument(
        "--systems",
        action="append",
        metavar="A,B,C",
        help="compare just these systems, in this order (repeatable; a name holding a comma given alone)",
    )
    p.add_argument(
        "--results-table",
        action="store_true",
        help="write the table a paper prints (systems x measures x averages, marks after Holm) instead of the report",
    )
    p.add_argument("--plot", metavar="FILE", help="draw the per-topic differences into FILE (.svg or .png)")
    p.set_defaults(handler=run_compare)
    return p


def _check_plot(path: str) -> None:
    """Refuse a plot that cannot be drawn before the work starts."""
    from ..comparison.plot import NEEDS, PLOT_FORMATS

    if os.path.splitext(path)[1].lower() not in PLOT_FORMATS:
        raise IrmeansError(f"--plot {shown_path(path)}: the file's extension must be {' or '.join(PLOT_FORMATS)}")
    if importlib.util.find_spec("matplotlib") is None:
        raise IrmeansError("--plot needs matplotlib: " + NEEDS.split(": ", 1)[1])


def run_compare(opts: argparse.Namespace, out: Output) -> int:
    """Run ``irmeans compare`` for parsed ``opts``, writing the tables to ``out``; returns 0."""
    averages = opts.average or list(DEFAULT_AVERAGES)
    if opts.plot:
        _check_plot(opts.plot)
    measures = options.measures_of(opts)
    if len(measures) > 1 and not opts.files:
        raise IrmeansError(f"-m {' -m '.join(measures)}: several measures are evaluated from QRELS RUN... only")
    if opts.plot and len(measures) > 1:
        raise IrmeansError("--plot draws one measure's differences: give one -m")
    matrices = [options.read_matrix(opts, "irmeans compare", m).matrix for m in measures]
    if opts.systems:
        chosen = chosen_systems(opts.systems, matrices[0].systems)
        matrices = [_subset(m, chosen) for m in matrices]
    matrix = matrices[0]
    n_systems, n_topics = matrix.shape
    if opts.baseline is not None and opts.baseline not in matrix.systems:
        if opts.systems:
            raise IrmeansError(f"--baseline {opts.baseline}: not one of the --systems chosen; add it to them")
        shown = ", ".join(matrix.systems[:10]) + (f" and {n_systems - 10} more" if n_systems > 10 else "")
        raise IrmeansError(f"--baseline {opts.baseline}: no such system; the systems are {shown}")
    n_pairs = n_systems - 1 if opts.baseline is not None else n_systems * (n_systems - 1) // 2
    if opts.plot and n_pairs > MAX_PLOT_PAIRS:
        raise IrmeansError(
            f"--plot draws at most {MAX_PLOT_PAIRS} pairs, a row each; {n_pairs:,} pairs here: "
            "give --baseline, or fewer runs"
        )
    steps = len(matrices) * work(max(n_topics, 1), n_pairs, len(set(averages)), opts.permutations, opts.bootstrap)
    what = " (sign vectors, resamples, intervals)"
    settings = dict(
        baseline=opts.baseline,
        permutations=opts.permutations,
        bootstrap=opts.bootstrap,
        confidence=opts.confidence,
        alpha=opts.alpha,
        test=opts.test,
        seed=opts.seed,
    )
    with Progress(steps, "irmeans compare", "steps", what=what) as bar:
        if len(matrices) > 1:
            several = compare_measures(matrices, averages, holm=opts.holm, progress=bar.update, **settings)
            if opts.results_table:
                out.write(several.results_table(opts.digits).format(opts.format))
            else:
                out.write(several.format(opts.format, opts.digits))
            return 0
        result = compare(matrix, averages, progress=bar.update, **settings)
    if opts.plot:
        result.save_plot(opts.plot)
    if opts.results_table:
        out.write(result.results_table(opts.digits).format(opts.format))
    else:
        out.write(result.format(opts.format, opts.digits))
    return 0


def chosen_systems(given: list[str], systems: Sequence[str]) -> list[int]:
    """The rows of the systems ``--systems`` names, in the order given, each once.

    Each value is a comma-separated list of names, or one name that holds a comma when the
    whole value is a system's name.

    Parameters
    ----------
    given : list of str
        The values of ``--systems``, as given.
    systems : sequence of str
        The systems there are.

    Returns
    -------
    list of int

    Raises
    ------
    IrmeansError
        An unknown or empty name (the message lists the systems there are), or fewer than two chosen.

    Examples
    --------
    >>> chosen_systems(["c,a", "x,y"], ["a", "b", "c", "x,y"])
    [2, 0, 3]
    """
    where = {name: i for i, name in enumerate(systems)}
    rows: dict[int, None] = {}
    for value in given:
        for name in [value] if value in where else value.split(","):
            if name not in where:
                said = f"no system {name!r}" if name else f"an empty name in {value!r}"
                raise IrmeansError(f"--systems: {said}; the {len(systems)} systems are {', '.join(systems)}")
            rows[where[name]] = None
    if len(rows) < 2:
        raise IrmeansError(f"--systems chose {len(rows)} system: compare needs at least 2")
    return list(rows)


def _subset(matrix: ScoreMatrix, rows: list[int]) -> ScoreMatrix:
    """The matrix of the chosen systems alone, in the order chosen."""
    return replace(matrix, scores=matrix.scores[rows], systems=tuple(matrix.systems[i] for i in rows))
