"""``irmeans consistency``: Ravana & Moffat's split-half test on your own runs.

Three ways to give the per-topic scores:

- ``irmeans consistency --dataset COLLECTION:MEASURE``: one of the TREC
  matrices shipped with irmeans (``adhoc8:ap`` is Ravana & Moffat's TREC8;
  ``irmeans.datasets.catalog()`` lists them all).

- ``irmeans consistency --scores SCORES.csv``: your own CSV, whose header's
  first field says which way it runs: ``system`` (a row per system, its name
  first, the header naming the topics) or ``topic`` (a row per topic, its id
  first, the header naming the systems)::

      system,401,402,403              topic,runA,runB
      runA,0.3120,0.0000,0.5512       401,0.3120,0.2871
      runB,0.2871,0.0154,0.4980       402,0.0000,0.0154

- ``irmeans consistency -m map QRELS RUN RUN...``: one qrels file and
  several runs, evaluated with irmeans' trec_eval-compatible evaluator on
  every qrels topic (trec_eval's ``-c``: a topic a run has no line for scores
  0), one measure chosen with ``-m`` (``map`` for AP, ``P.10``,
  ``recip_rank``, ``ndcg_cut.20``...).

For each average (``-a``, repeatable: ``am``, ``gm:0.01``, ``gm-floor:1e-5``,
``hm:0.01``, ``median``, ``logit:0.01``, and ``std-`` before any of them for
the average of standardized scores) the command prints the mean Kendall's τ
over the splits with the range of the middle 95 % of the splits' τ, and the
paired comparison of each average with the AM of the raw scores on the same
splits (mean difference, paired t-test, Wilcoxon signed-rank test).  A split
on which one half gives every system the same average has no τ: such splits
are counted and left out, and if no split has a τ the command says so and
exits 1.
"""

from __future__ import annotations

import argparse
import os
import warnings
from collections.abc import Sequence

import numpy as np

from .._progress import Progress
from ..averages import Average, parse_average
from ..errors import FileFormatError, IrmeansError, shown_path
from ..halves import SPLIT_KINDS
from ..topics import DIFFICULTY
from .arguments import dataset, digits, seed, splits, subcommand
from .output import Output

__all__ = ["add_parser", "run_consistency", "DEFAULT_AVERAGES", "parse_spec"]

#: The averages compared when ``-a`` is not given.
DEFAULT_AVERAGES = ["am", "gm:0.01", "gm-floor:1e-5", "std-am"]

DESCRIPTION = __doc__.split("\n", 2)[2].replace("``", "'")


def parse_spec(spec: str) -> tuple[Average, bool]:
    """An average spec with an optional ``std-`` prefix: (Average, standardize?).

    >>> avg, std = parse_spec("std-gm:0.01")
    >>> avg.spec, std
    ('gm:0.01', True)
    """
    text = spec.strip().lower()
    standardized = text.startswith("std-")
    return parse_average(text[4:] if standardized else text), standardized


def _label(spec: str) -> str:
    avg, std = parse_spec(spec)
    return ("std-" if std else "") + avg.spec


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add the ``consistency`` subcommand to the ``irmeans`` subparsers ``sub``."""
    p = subcommand(
        sub, "consistency", "split-half consistency of averages of per-topic scores (Ravana & Moffat 2009)", DESCRIPTION
    )
    p.add_argument(
        "--dataset",
        type=dataset,
        metavar="COLLECTION:MEASURE",
        help="a TREC matrix shipped with irmeans, e.g. adhoc8:ap or robust2004:ap",
    )
    p.add_argument("--scores", metavar="CSV", help="a CSV of per-topic scores, its header starting 'system' or 'topic'")
    p.add_argument("-m", metavar="MEASURE", default="map", help="measure evaluated from QRELS and RUNs (default map)")
    p.add_argument(
        "-a",
        "--average",
        action="append",
        metavar="SPEC",
        help="average, repeatable (default: " + ", ".join(DEFAULT_AVERAGES) + ")",
    )
    p.add_argument(
        "--split",
        choices=SPLIT_KINDS,
        default="random",
        help="random halves, or the one split by topic difficulty (default random)",
    )
    p.add_argument(
        "--difficulty",
        choices=DIFFICULTY,
        default="eq2",
        help="topic difficulty for hard-easy and middle-rest: Ravana & Moffat's Equation 2 or 1, or 1 - max",
    )
    p.add_argument("-n", "--splits", type=splits, default=10_000, help="random splits (default 10000)")
    p.add_argument("--seed", type=seed, default=0, help="seed of the random splits (default 0)")
    p.add_argument("--digits", type=digits, default=4, metavar="D", help="decimals (default 4)")
    p.add_argument("files", nargs="*", metavar="QRELS RUN", help="qrels file, then two or more run files")
    p.set_defaults(handler=run_consistency)
    return p


def _scores_from_runs(qrels: str, runs: list[str], measure: str) -> tuple[np.ndarray, list[str], list[str]]:
    """Evaluate every run on every qrels topic; (systems × topics array, system names, topics)."""
    from ..trec.evaluate import evaluate
    from ..trec.files import read_qrels

    if len(runs) < 2:
        raise IrmeansError("give a qrels file and at least two run files (or --dataset or --scores)")
    q = read_qrels(qrels)
    rows, names, topics = [], [], None
    with Progress(len(runs), "irmeans consistency", "runs", what=" evaluated") as progress:
        for path in runs:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ev = evaluate(q, path, complete=True, measures=[measure])
            if len(ev.per_topic) != 1:
                names_found = ", ".join(ev.per_topic) or "none"
                raise IrmeansError(
                    f"-m {measure} gives {len(ev.per_topic)} per-topic measures ({names_found}): pick one"
                )
            (values,) = ev.per_topic.values()
            if topics is None:
                topics = list(ev.topics)
            elif list(ev.topics) != topics:  # pragma: no cover - complete=True evaluates the qrels topics
                raise FileFormatError("its topics differ from the first run's", path=path)
            rows.append(np.asarray(values, dtype=float))
            names.append(ev.runid or os.path.basename(path))
            progress.update()
    return np.vstack(rows), names, topics or []


def _p(p: float) -> str:
    """A p-value; one below the smallest float prints as such, not as 0."""
    return "<1e-300" if p < 1e-300 else f"{p:.3g}"


def _read_scores(opts: argparse.Namespace) -> tuple[np.ndarray, Sequence[str], Sequence[str], str, str]:
    """(scores, systems, topics, what the scores are, where they come from for messages)."""
    given = [
        name
        for name, used in (("--dataset", opts.dataset), ("--scores", opts.scores), ("QRELS RUN", opts.files))
        if used
    ]
    if len(given) > 1:
        raise IrmeansError(f"give one of --dataset, --scores or QRELS RUN..., not {' and '.join(given)}")
    from .. import datasets  # here: `irmeans eval` never needs it

    if opts.dataset:
        collection, measure = opts.dataset
        try:
            matrix = datasets.load(collection, measure)
        except IrmeansError as exc:
            raise IrmeansError(f"--dataset {collection}:{measure}: {exc}") from None
        return (
            np.array(matrix.scores),
            matrix.systems,
            matrix.topics,
            str(matrix.label),
            f"--dataset {collection}:{measure}",
        )
    if opts.scores:
        matrix = datasets.read_csv(opts.scores)
        return np.array(matrix.scores), matrix.systems, matrix.topics, opts.scores, shown_path(opts.scores)
    if not opts.files:
        raise IrmeansError(
            "nothing to read: give --dataset COLLECTION:MEASURE, --scores CSV, or a qrels file and two or more runs"
        )
    scores, systems, topics = _scores_from_runs(opts.files[0], opts.files[1:], opts.m)
    source = f"{opts.m} of {len(opts.files) - 1} runs against {opts.files[0]}"
    return scores, systems, topics, source, f"-m {opts.m}"


def _check_scores(
    scores: np.ndarray,
    systems: Sequence[str],
    topics: Sequence[str],
    parsed: list[tuple[Average, bool]],
    labels: list[str],
    where: str,
) -> None:
    """Refuse a score an average cannot take, naming the system, the topic and the average."""
    for (avg, std), label in zip(parsed, labels):
        if std:  # standardized scores lie in (0, 1), which every average takes
            continue
        bad = avg.refuses(scores)
        if bad.any():
            i, j = np.argwhere(bad)[0]
            raise IrmeansError(
                f"{where}: system {systems[i]!r}, topic {topics[j]!r}: score {float(scores[i, j])!r}; "
                f"{label} needs {avg.requirement}"
            )


def _mean_and_range(t: np.ndarray, digits: int) -> tuple[str, str, str]:
    fmt = f"{{:.{digits}f}}"
    if len(t) > 1:
        lo, hi = (fmt.format(v) for v in np.percentile(t, [2.5, 97.5]))
    else:
        lo = hi = "-"
    return fmt.format(t.mean()), lo, hi


def run_consistency(opts: argparse.Namespace, out: Output) -> int:
    """Run ``irmeans consistency`` for parsed ``opts``, writing the report to ``out``; returns 0."""
    specs = opts.average or DEFAULT_AVERAGES
    parsed = [parse_spec(s) for s in specs]
    labels = [_label(s) for s in specs]
    from .. import consistency  # here, not at the top: `irmeans eval` never needs it

    scores, systems, topics, source, where = _read_scores(opts)
    n_systems, n_topics = scores.shape
    if n_topics < 2 or n_systems < 2:
        raise IrmeansError(f"{where}: need at least 2 systems and 2 topics, got {n_systems} x {n_topics}")
    _check_scores(scores, systems, topics, parsed, labels, where)

    standardized = None
    if any(std for _, std in parsed):
        standardized = consistency.standardize(scores, constant="half")
    baseline = "am"
    # Each average once (a repeated -a is the same column), and the baseline of the paired tests.
    experiments: dict[str, tuple[np.ndarray, Average]] = {}
    for (avg, std), label in zip(parsed, labels):
        experiments[label] = (standardized if std and standardized is not None else scores, avg)
    experiments.setdefault(baseline, (scores, parse_average("am")))
    if opts.split == "random":
        n_splits = opts.splits
        # The splits are drawn and evaluated block by block, every average on each block:
        # memory does not grow with --splits beyond the taus themselves.
        n_averages = len(experiments)
        what = f" ({n_averages} averages)" if n_averages > 1 else ""
        with Progress(n_splits * n_averages, "irmeans consistency", "splits", what=what, per=n_averages) as progress:
            columns = consistency._split_half_taus(
                list(experiments.values()), n_splits, opts.seed, progress=progress.update
            )
    else:
        first, second = consistency.make_halves(scores, opts.split, difficulty=opts.difficulty)
        n_splits = first.shape[0]
        columns = [consistency.halves_tau(s, avg, first, second) for s, avg in experiments.values()]
    taus = dict(zip(experiments, columns))
    splits_word = f"{n_splits:,} random splits" if opts.split == "random" else f"the {opts.split} split"
    for label in labels:
        if np.isnan(taus[label]).all():
            which = f"every one of {splits_word}" if n_splits > 1 else splits_word
            raise IrmeansError(
                f"{where}: Kendall's tau is undefined on {which} for {label}: one half always gives every "
                "system the same average (systems that differ on no topic, or on one topic only, cannot be "
                "ordered on both halves)"
            )

    d = opts.digits
    kind = f"{splits_word} (seed {opts.seed})" if opts.split == "random" else splits_word
    out.write(f"# {source}: {n_systems} systems x {n_topics} topics; Kendall's tau over {kind}\n")
    if opts.split != "random":
        out.write(f"# topic difficulty: {opts.difficulty}\n")
    for label in labels:
        undefined = int(np.isnan(taus[label]).sum())
        if undefined:
            out.write(
                f"# {label}: {undefined:,} of {n_splits:,} splits left out, their tau undefined "
                "(a half on which every system has the same average)\n"
            )
    out.write("average\tmean_tau\tlow_95\thigh_95\n")
    for label in labels:
        t = taus[label]
        out.write(label + "\t" + "\t".join(_mean_and_range(t[~np.isnan(t)], d)) + "\n")
    others = [label for label in labels if label != baseline]
    if others and n_splits > 1:
        out.write(f"\n# paired with {baseline} over the same splits (difference = average - {baseline})\n")
        out.write("average\tmean_diff\thigher\tlower\tt\tp_t\tp_wilcoxon\n")
        for label in others:
            a, b = taus[label], taus[baseline]
            ok = ~(np.isnan(a) | np.isnan(b))
            if ok.sum() < 2:
                out.write(f"{label}\t-\t-\t-\t-\t-\t-\n")
                continue
            from ..significance import compare_taus

            c = compare_taus(a[ok], b[ok])
            out.write(
                f"{label}\t{c.mean_difference:+.{d}f}\t{c.a_higher}\t{c.b_higher}\t{c.t:.2f}\t"
                f"{_p(c.t_p)}\t{_p(c.wilcoxon_p)}\n"
            )
    return 0
