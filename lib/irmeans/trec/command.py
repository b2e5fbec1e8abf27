"""``irmeans eval``: the trec_eval-compatible evaluator on the command line.

``irmeans eval [-q] [-c] [-M N] [-l N] [-m MEASURE]... QRELS RUN`` prints
trec_eval's line format, ``measure<TAB>topic<TAB>value``.
"""

from __future__ import annotations

import argparse
import sys
import warnings

__all__ = ["add_parser", "run_eval", "EVAL_DESCRIPTION", "EXTRA_AVERAGES"]

from ..averages import GM, HM, Logit, Median
from ..errors import IrmeansError

EVAL_DESCRIPTION = """\
Evaluate RUN against QRELS as trec_eval 10 does and print trec_eval's lines
(measure, topic, value).  Without -m every measure irmeans implements is
printed (trec_eval's 'all_trec' set); -m official gives trec_eval's own
default set.  Anything printed under a trec_eval name means what it means
in trec_eval.

After the trec_eval lines, irmeans adds 'all' lines of its own that
trec_eval does not have, all computed over the per-topic AP values:
  gm_map_add   additive epsilon geometric mean: exp(mean(log(AP + eps))) - eps
  hm_map       epsilon harmonic mean: 1 / mean(1 / (AP + eps)) - eps
  median_map   median AP
  logit_map    logit mean of AP with epsilon
with eps given by --eps (default 1e-5).  They are printed only when map is
selected.
"""


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive integer")
    return value


def _int(text):
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None


def _digits(text):
    value = _int(text)
    if not 0 <= value <= 17:
        raise argparse.ArgumentTypeError(f"{text!r} is not between 0 and 17")
    return value


def _eps(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (value >= 0 and value < 1):
        raise argparse.ArgumentTypeError(f"{text!r} is not in [0, 1)")
    return value


def add_parser(sub) -> argparse.ArgumentParser:
    """Add the ``eval`` subcommand to the ``irmeans`` subparsers ``sub``."""
    ev = sub.add_parser(
        "eval",
        help="evaluate a TREC run against qrels (trec_eval compatible)",
        description=EVAL_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ev.add_argument("-q", action="store_true", help="also print the values of every topic")
    ev.add_argument("-c", action="store_true", help="count qrels topics missing from the run as empty rankings")
    ev.add_argument("-M", type=_positive_int, metavar="N", help="evaluate only the top N per topic")
    ev.add_argument("-l", type=_int, default=1, metavar="N", help="lowest grade that counts as relevant (default 1)")
    ev.add_argument(
        "-m",
        action="append",
        metavar="MEASURE",
        help="measure, measure.params or nickname (official, all_trec, set); repeatable",
    )
    ev.add_argument("--digits", type=_digits, default=4, metavar="D", help="decimals printed (default 4)")
    ev.add_argument(
        "--eps",
        type=_eps,
        default=1e-5,
        metavar="E",
        help="epsilon of the extra gm_map_add, hm_map and logit_map lines (default 1e-5)",
    )
    ev.add_argument("qrels", metavar="QRELS")
    ev.add_argument("run", metavar="RUN")
    ev.set_defaults(handler=run_eval)
    return ev


def _format(name, qid, value, kind, digits):
    if kind == "long":
        text = "%d" % int(value)
    elif kind == "string":
        text = str(value)
    else:
        text = "%6.*f" % (digits, value)
    return "%-22s\t%s\t%s" % (name, qid, text)


#: The extra ``all`` lines: each an average of the per-topic AP values, made with --eps.
EXTRA_AVERAGES = {
    "gm_map_add": lambda eps: GM(eps=eps),
    "hm_map": lambda eps: HM(eps=eps),
    "median_map": lambda eps: Median(),
    "logit_map": lambda eps: Logit(eps=eps),
}


def _extra_lines(ap, eps, digits):
    values = [(name, make(eps)) for name, make in EXTRA_AVERAGES.items()]
    lines = []
    for name, average in values:
        try:
            value = float(average(ap))
        except IrmeansError as exc:  # e.g. eps = 0 with an AP of 0: the mean is undefined
            reason = str(exc).splitlines()[0] if str(exc) else "undefined"
            print(f"irmeans eval: note: {name} line left out, undefined with --eps {eps:g}: {reason}", file=sys.stderr)
            continue
        lines.append(_format(name, "all", value, "double", digits))
    return lines


def run_eval(opts, out) -> int:
    """Run ``irmeans eval`` for parsed ``opts``, writing trec_eval's lines to ``out``; returns 0."""
    from .evaluate import evaluate, printed_per_topic

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ev = evaluate(opts.qrels, opts.run, relevance_level=opts.l, depth=opts.M, complete=opts.c, measures=opts.m)
    for w in caught:
        print(f"irmeans eval: warning: {w.message}", file=sys.stderr)
    lines = []
    if opts.q:
        names = printed_per_topic(ev)
        columns = [ev.per_topic[n] for n in names]
        kinds = [ev.kinds[n] for n in names]
        for i, qid in enumerate(ev.topics):
            for n, col, kind in zip(names, columns, kinds):
                lines.append(_format(n, qid, col[i], kind, opts.digits))
    for n, value in ev.aggregates.items():
        lines.append(_format(n, "all", value, ev.kinds[n], opts.digits))
    if "map" in ev.per_topic:
        lines.extend(_extra_lines(ev.per_topic["map"], opts.eps, opts.digits))
    out.write("\n".join(lines) + "\n")
    return 0
