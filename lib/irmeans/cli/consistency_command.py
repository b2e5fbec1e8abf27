"""``irmeans consistency``: Ravana & Moffat's split-half test on your own runs.

Three ways to give the per-topic scores:

- ``irmeans consistency --dataset COLLECTION:MEASURE``: one of the TREC
  matrices shipped with irmeans (``adhoc8:ap`` is Ravana & Moffat's TREC8;
  ``irmeans datasets`` lists them all).

- ``irmeans consistency --scores SCORES.csv``: your own CSV, whose header's
  first field says which way it runs: ``system`` (a row per system, its name
  first, the header naming the topics) or ``topic`` (a row per topic, its id
  first, the header naming the systems)::

      system,401,402,403              topic,runA,runB
      runA,0.3120,0.0000,0.5512       401,0.3120,0.2871
      runB,0.2871,0.0154,0.4980       402,0.0000,0.0154

  Scores are numbers as C reads them (``0.5``, ``5e-1``; not ``0_5`` or ``0,5``).

- ``irmeans consistency -m map QRELS RUN RUN...``: one qrels file and
  several runs, evaluated with irmeans' trec_eval-compatible evaluator on
  every qrels topic (trec_eval's ``-c``: a topic a run has no line for scores
  0), one measure chosen with ``-m`` (``map`` for AP, ``P.10``,
  ``recip_rank``, ``ndcg_cut.20``...).

For each average (``-a``, repeatable: ``am``, ``gm:0.01``, ``gm-floor:1e-5``,
``hm:0.01``, ``median``, ``logit:0.01``, and ``std-`` before any of them for
the average of standardized scores; ``gm``, ``hm`` and ``logit`` name their
ε: ``gm:0.01`` is the ε the book advises, ``gm:0`` the plain GM; every line
names the ε used) the
command prints the mean Kendall's τ over the splits, with two 95 % intervals
of that mean: over splits (how far other random splits of these topics would
move it) and over topics (how far another sample of topics would: the
bootstrap, resampling the topics and rerunning the splits; by default about as
many splits in all as -n asks for, so that -n sets the cost of both); then the same for
each average's difference from the AM on the same splits. The splits share
their topics, so no test across splits is printed: its p-value would mean
nothing. A split on which one half gives every system the same average has no
τ: such splits are counted and left out, and if no split has a τ the command
says so and exits 1.

With fewer than 10 systems or 20 topics the command warns on standard error
that its intervals can say little: tau moves by 2/(pairs of systems) when one
pair swaps (0.67 for 3 systems, more than 0.05 below 10), and each half holds
half the topics (5 of 10), too few for an average or a bootstrap over topics
to mean much. One -m: a second is a usage error.

With ``--split hard-easy`` or ``middle-rest`` (Ravana & Moffat's one split by
topic difficulty) ``--difficulty-from`` says whose scores decide difficulty:
each average's own (``own``, the default: the standardized scores for a
``std-`` average, as Ravana & Moffat's standardized cells are reproduced), the
raw scores, or the standardized scores, for every average.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from .._progress import Progress
from ..averages import Average
from ..consistency.halves import SPLIT_KINDS
from ..consistency.topics import DIFFICULTY, DIFFICULTY_FROM
from ..errors import IrmeansError, TooFewToTellWarning
from . import options
from .arguments import count, splits, subcommand
from .output import Output, say

if TYPE_CHECKING:
    from ..consistency.intervals import Interval

__all__ = ["add_parser", "run_consistency", "DEFAULT_AVERAGES"]

#: The averages compared when ``-a`` is not given.
DEFAULT_AVERAGES = ["am", "gm:0.01", "gm-floor:1e-5", "std-am"]

#: The average every other is compared with, on the same splits.
BASELINE = "am"

DESCRIPTION = __doc__.split("\n", 2)[2].replace("``", "'")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add the ``consistency`` subcommand to the ``irmeans`` subparsers ``sub``."""
    p = subcommand(
        sub, "consistency", "split-half consistency of averages of per-topic scores (Ravana & Moffat 2009)", DESCRIPTION
    )
    options.add_source(p)
    options.add_averages(p, options.standardized_average, DEFAULT_AVERAGES, "; std- before one: of standardized scores")
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
    p.add_argument(
        "--difficulty-from",
        choices=DIFFICULTY_FROM,
        default="own",
        help="whose scores decide difficulty: each average's own (standardized for std-; default), raw, standardized",
    )
    # -n is compare's option too, where it counts the randomization test's sign vectors: the help says which.
    options.add_draws(
        p, "--splits", splits, 10_000, "random splits of the topics into halves here, sign vectors in compare"
    )
    options.add_seed(p, "the random splits and resamples")
    p.add_argument(
        "--bootstrap",
        type=count,
        metavar="B",
        help="resamples of the topics for the intervals over topics (default: as many as --splits, at most 1000; "
        "0: none)",
    )
    p.add_argument(
        "--bootstrap-splits",
        type=splits,
        metavar="N",
        help="random splits of each resample (default: --splits over the resamples, 1 to 50, so that the "
        "resamples draw about as many splits as the experiment: 10 at the default --splits and --bootstrap)",
    )
    options.add_digits(p)
    p.set_defaults(handler=run_consistency)
    return p


def _check_scores(
    scores: np.ndarray,
    systems: Sequence[str],
    topics: Sequence[str],
    parsed: dict[str, tuple[Average, bool]],
    where: str,
) -> None:
    """Refuse a score an average cannot take, naming the system, the topic and the average."""
    for label, (avg, std) in parsed.items():
        if std:  # standardized scores lie in (0, 1), which every average takes
            continue
        bad = avg.refuses(scores)
        if bad.any():
            i, j = np.argwhere(bad)[0]
            raise IrmeansError(
                f"{where}: system {systems[i]!r}, topic {topics[j]!r}: score {float(scores[i, j])!r}; "
                f"{label} needs {avg.requirement}"
            )


def _described(label: str, avg: Average, std: bool) -> str:
    """``gm:0.01 = εGM (ε = 0.01)``: the label and what it means, its ε named."""
    words = avg.label
    if getattr(avg, "eps", None) == 0 and "ε" not in words:
        words += " (ε = 0)"
    return f"{label} = {words}{' of standardized scores' if std else ''}"


def _zeros_reason(avg: Average, std: bool, scores: np.ndarray, topics: Sequence[str]) -> str | None:
    """Why a geometric mean with ε = 0 leaves splits without a τ, if that is why."""
    if std or not avg.zero_gives_zero:
        return None
    all_zero = np.flatnonzero((scores == 0).all(axis=0))
    if all_zero.size:
        return (
            f"every system scores 0 on topic {topics[int(all_zero[0])]!r}, and with ε = 0 a single zero makes a "
            "geometric mean 0, so every system's GM is 0 on a half holding that topic; give ε > 0 (for example "
            "gm:0.01)"
        )
    if (scores == 0).any():
        return (
            "with ε = 0 a single zero makes a geometric mean 0, so systems with a zero on a half all tie at 0 there; "
            "give ε > 0 (for example gm:0.01)"
        )
    return None


def _interval(value: Interval | None, fmt: str) -> list[str]:
    return ["-", "-"] if value is None else [fmt.format(value.low), fmt.format(value.high)]


def run_consistency(opts: argparse.Namespace, out: Output) -> int:
    """Run ``irmeans consistency`` for parsed ``opts``, writing the report to ``out``; returns 0."""
    # here, not at the top: `irmeans eval` never needs them
    from ..consistency.intervals import bootstrap_size, parse_spec, spec_label, tau_intervals

    specs = opts.average or DEFAULT_AVERAGES
    parsed = {spec_label(s): parse_spec(s) for s in specs}  # each average once, in the order given

    given = options.read_matrix(opts, "irmeans consistency")
    scores, systems, topics = np.array(given.matrix.scores), given.matrix.systems, given.matrix.topics
    source, where = given.matrix.label, given.where
    n_systems, n_topics = scores.shape
    if n_topics < 2 or n_systems < 2:
        raise IrmeansError(f"{where}: need at least 2 systems and 2 topics, got {n_systems} x {n_topics}")
    _check_scores(scores, systems, topics, parsed, where)

    random = opts.split == "random"
    n_splits = opts.splits if random else 1
    resamples, per_resample = bootstrap_size(n_splits, opts.bootstrap, opts.bootstrap_splits, random=random)
    n_averages = len(set(parsed) | {BASELINE})
    what = f" ({n_averages} averages)" if n_averages > 1 else ""
    total = (n_splits + resamples * per_resample) * n_averages
    with Progress(total, "irmeans consistency", "splits", what=what, per=n_averages) as progress:
        report = tau_intervals(
            scores,
            specs,
            n_splits,
            opts.seed,
            baseline=BASELINE,
            split=opts.split,
            difficulty=opts.difficulty,
            difficulty_from=opts.difficulty_from,
            n_bootstrap=resamples,
            bootstrap_splits=per_resample,
            progress=progress.update,
        )
    taus = report.taus
    splits_word = f"{n_splits:,} random splits" if random else f"the {opts.split} split"
    for label, (avg, std) in parsed.items():
        if np.isnan(taus[label]).all():
            which = f"every one of {splits_word}" if n_splits > 1 else splits_word
            reason = _zeros_reason(avg, std, scores, topics) or (
                "systems that differ on no topic, or on one topic only, cannot be ordered on both halves"
            )
            raise IrmeansError(
                f"{where}: Kendall's tau is undefined on {which} for {label}: one half always gives every "
                f"system the same average ({reason})"
            )

    d = opts.digits
    fmt = f"{{:.{d}f}}"
    kind = f"{splits_word} (seed {opts.seed})" if random else splits_word
    out.write(f"# {source}: {n_systems} systems x {n_topics} topics; Kendall's tau over {kind}\n")
    out.write("# averages: " + "; ".join(_described(label, *parsed[label]) for label in parsed) + "\n")
    if not random:
        out.write(f"# topic difficulty: {opts.difficulty}, {_difficulty_words(opts.difficulty_from, parsed)}\n")
    for label, (avg, std) in parsed.items():
        undefined = report.rows[label].undefined
        if undefined:
            why = _zeros_reason(avg, std, scores, topics)
            out.write(
                f"# {label}: {undefined:,} of {n_splits:,} splits left out, their tau undefined "
                f"(a half on which every system has the same average{': ' + why if why else ''})\n"
            )
    level = f"{report.level:.0%}".replace("%", " %")
    topics_words = (
        f"over topics, from {report.n_bootstrap:,} bootstrap resamples of the {n_topics} topics"
        + (f" ({report.bootstrap_splits:,} split{'s' * (report.bootstrap_splits != 1)} each)" if random else "")
        if report.n_bootstrap
        else "over topics: none (--bootstrap 0)"
    )
    splits_words = "over splits, how far other random splits of these topics would move the mean; " if random else ""
    out.write(f"# {level} intervals of the mean tau: {splits_words}{topics_words}\n")
    spread = f"tau_{(1 - report.level) / 2:.1%}\ttau_{(1 + report.level) / 2:.1%}"
    out.write(f"average\tmean_tau\tsplits_low\tsplits_high\ttopics_low\ttopics_high\t{spread}\n")
    for label, row in report.rows.items():
        fields = [fmt.format(row.mean), *_interval(row.over_splits, fmt), *_interval(row.over_topics, fmt)]
        out.write("\t".join([label, *fields, *_interval(row.spread, fmt)]) + "\n")
    others = [label for label in parsed if label != BASELINE]
    if others:
        out.write(f"\n# difference from {BASELINE} on the same splits ({'average'} - {BASELINE}), {level} intervals\n")
        out.write("average\tmean_diff\thigher\tlower\tsplits_low\tsplits_high\ttopics_low\ttopics_high\n")
        signed = f"{{:+.{d}f}}"
        for label in others:
            row = report.rows[label]
            if row.difference is None or not np.isfinite(row.difference):
                out.write(f"{label}\t-\t-\t-\t-\t-\t-\t-\n")
                continue
            fields = [signed.format(row.difference), str(row.higher), str(row.lower)]
            fields += _interval(row.difference_over_splits, signed) + _interval(row.difference_over_topics, signed)
            out.write("\t".join([label, *fields]) + "\n")
    few = TooFewToTellWarning.check(n_systems, n_topics)
    if few is not None:  # once the report is written whole: an error (no tau, no room for it) stays one line
        out.flush()
        say(f"irmeans consistency: warning: {few}")
    return 0


def _difficulty_words(difficulty_from: str, parsed: dict[str, tuple[Average, bool]]) -> str:
    """Whose scores decided the topics' difficulty, for the header."""
    if difficulty_from != "own":
        return f"from the {difficulty_from} scores, for every average"
    raw = [label for label, (_, std) in parsed.items() if not std]
    std = [label for label, (_, s) in parsed.items() if s]
    parts = [f"the raw scores for {', '.join(raw)}"] if raw else []
    parts += [f"the standardized scores for {', '.join(std)}"] if std else []
    return "from each average's own scores: " + "; ".join(parts) + " (--difficulty-from)"
