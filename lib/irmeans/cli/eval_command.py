"""``irmeans eval``: the trec_eval-compatible evaluator on the command line.

``irmeans eval [-q] [-c] [-n] [-M N] [-l N] [-N N] [-m MEASURE]... [-a SPEC]... QRELS RUN [RUN ...]`` prints
trec_eval's line format, ``measure<TAB>topic<TAB>value`` (with several runs, each line
prefixed by the run's name and a tab).  Topic ids and the run's tag are
written back byte for byte (ids that are not UTF-8 included).
"""

from __future__ import annotations

import argparse
import os
import warnings
from typing import TYPE_CHECKING

# irmeans eval never multiplies matrices: one BLAS thread spares every call the start-up of
# OpenBLAS's thread pool (tens of milliseconds of CPU when numpy is imported, just below).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402 - after the BLAS setting


def _one_malloc_arena() -> None:
    """Where the C library is glibc, one malloc arena for the process.

    glibc gives a second thread an arena of its own: the chunks the reading thread splits
    (``irmeans.trec.ahead``) would be held apart from the rest of the heap, several megabytes
    more at the peak of a big evaluation.  Elsewhere there is nothing to set.
    """
    import ctypes  # numpy has imported it

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, TypeError):  # no C library to ask, or not glibc's
        return
    mallopt(-8, 1)  # M_ARENA_MAX


_one_malloc_arena()

from .._display import shown  # noqa: E402
from ..averages import DEFAULT_EPS  # noqa: E402
from ..errors import IrmeansError, TopicsLeftOutWarning, one_line  # noqa: E402
from ..trec.table import EXTRA_FAMILIES, MEASURE_FAMILIES, NICKNAMES, Selection, parse_measures  # noqa: E402
from .arguments import average, count, digits, eps, level, subcommand  # noqa: E402
from .output import Output, in_our_words, say  # noqa: E402

if TYPE_CHECKING:
    from ..trec.evaluate import Evaluation

__all__ = ["add_parser", "run_eval", "EVAL_DESCRIPTION", "measures_help", "write_evaluation"]


def measures_help() -> str:
    """The measures ``-m`` takes, with their parameters, for ``irmeans eval --help``."""
    forms = {
        "cut_long": "CUTOFFS e.g. {}.5,10",
        "cut_double": "LEVELS e.g. {}.0.25,0.5",
        "doubles": "NUMBERS e.g. {}.{}",
        "pairs": "NAME=VALUE,... e.g. {}.1=0,2=5",
    }
    out = []
    for fam in MEASURE_FAMILIES:
        line = f"  {fam.name:<22}{fam.doc}"
        if fam.form in forms:
            example = forms[fam.form]
            if fam.form == "doubles":
                example = example.format(fam.name, ",".join(f"{p:g}" for p in fam.params or ()))
            elif fam.name in ("rbp", "rbp_resid"):
                example = f"p=P,GRADE=GAIN,... e.g. {fam.name}.p=0.5"
            else:
                example = example.format(fam.name)
            default = ""
            if fam.form in ("cut_long", "cut_double"):
                default = " (default " + ",".join(f"{p:g}" for p in fam.params or ()) + ")"
            line += f"\n  {'':<22}  -m {example}{default}"
        out.append(line)
    return "\n".join(out)


def _extra_help() -> str:
    return "\n".join(f"  {fam.name:<12} {fam.doc}" for fam in EXTRA_FAMILIES)


EVAL_DESCRIPTION = f"""\
Evaluate RUN against QRELS as trec_eval 10 does and print trec_eval's lines
(measure, topic, value).  Anything printed under a trec_eval name means what
it means in trec_eval, and -m takes every measure string trec_eval -m takes
(nicknames: {", ".join(NICKNAMES)}), printing it under trec_eval's name
(-m relstring.20 prints relstring_20, -m ndcg.1=0,2=5 prints ndcg_1=0,2=5).
Without -m, trec_eval's all_trec set is printed, then the extra lines below.
With -a SPEC, every measure printed per topic is also averaged with SPEC,
in an 'all' line named after it (-a gm:0.01 prints ndcg_cut_10/gm:0.01).
QRELS or RUN may be '-' (standard input, once) and may be gzip-compressed.

Several runs (irmeans eval QRELS RUN RUN ...) are evaluated in turn against
the qrels, read once: each output line is the run's own line with the RUN
argument as given and a tab in front of it, runs in the order given.  A run
that cannot be read gets its one-line error on standard error, the others
are still evaluated, and the exit status is then 1.

measures (-m NAME or NAME.PARAMETERS):
{measures_help()}

extra 'all' lines, averages of the per-topic AP that trec_eval lacks:
{_extra_help()}
with eps given by --eps (default {DEFAULT_EPS:g}: the ε the book advises, added to
every AP).  They are printed without -m, when named (-m hm_map), or with
--extra; never otherwise, so that output under trec_eval's -m arguments has
exactly trec_eval's lines.
"""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add the ``eval`` subcommand to the ``irmeans`` subparsers ``sub``."""
    ev = subcommand(sub, "eval", "evaluate a TREC run against qrels (trec_eval compatible)", EVAL_DESCRIPTION)
    ev.add_argument("-q", action="store_true", help="also print the values of every topic")
    ev.add_argument("-c", action="store_true", help="count qrels topics missing from the run as empty rankings")
    ev.add_argument("-n", action="store_true", help="print no 'all' lines (with -q: per-topic lines only)")
    # -M 0: every ranking empty, as in trec_eval (which crashes on a negative N)
    ev.add_argument("-M", type=count, metavar="N", help="evaluate only the top N per topic")
    ev.add_argument("-l", type=level, default=1, metavar="N", help="lowest grade that counts as relevant (default 1)")
    ev.add_argument("-N", type=count, default=0, metavar="N", help="documents in the collection (utility's d)")
    ev.add_argument(
        "-m",
        action="append",
        metavar="MEASURE",
        help="measure, measure.params or nickname (official, all_trec, set); repeatable",
    )
    ev.add_argument("--digits", type=digits, default=4, metavar="D", help="decimals printed (default 4)")
    ev.add_argument(
        "--eps",
        type=eps,
        default=DEFAULT_EPS,
        metavar="E",
        help=f"epsilon of the extra gm_map_add, hm_map and logit_map lines (default {DEFAULT_EPS:g})",
    )
    ev.add_argument("--extra", action="store_true", help="print the four extra 'all' lines whatever -m selects")
    ev.add_argument(
        "-a",
        action="append",
        type=average,
        metavar="SPEC",
        help="also average every measure printed per topic with SPEC (am, gm:0.01, gm-floor:1e-5, hm:0.01, "
        "median, logit:0.01): an 'all' line NAME/SPEC each; repeatable",
    )
    ev.add_argument("qrels", metavar="QRELS")
    ev.add_argument("runs", metavar="RUN", nargs="+", help="one run, or several evaluated in turn (see above)")
    ev.set_defaults(handler=run_eval)
    return ev


def _number(value: float, digits: int) -> str:
    """A double as C's ``printf("%6.*f")`` prints it (NaN with its sign: x86's 0/0 is ``-nan``)."""
    if value != value:
        return "%6s" % ("-nan" if np.signbit(value) else "nan")
    return "%6.*f" % (digits, value)


def _line(name: str, topic: str, value: float | int | str, kind: str, digits: int) -> str:
    if kind == "long":
        text = "%d" % int(value)
    elif kind == "string":  # the runid: a character that does not print shown as its escape
        text = shown(str(value), keep_bytes=True)
    else:
        text = _number(float(value), digits)
    return "%-22s\t%s\t%s\n" % (name, shown(topic, keep_bytes=True), text)


# Topics whose per-topic lines are formed and written at a time: the lines of a big
# evaluation are never all in memory.
_TOPICS_AT_ONCE = 512


def _per_topic(ev: Evaluation, digits: int, prefix: str, out: Output) -> None:
    """``-q``'s lines, topic after topic, written a few hundred topics at a time.

    Each topic's lines are one format string applied to its values (C's ``printf`` formats
    are Python's ``%`` formats), so that no line is formed value by value in Python.
    """
    names = ev.printed
    if not names or not ev.topics:
        return
    columns: list[np.ndarray] = []
    formats = []
    for name in names:
        values, kind = ev.per_topic[name], ev.kinds[name]
        if kind == "double" and np.isnan(values).any():  # C's -nan: formed one by one
            values, kind = np.array([_number(v, digits) for v in values.tolist()], dtype=object), "string"
        columns.append(values)
        fmt = {"long": "%d", "string": "%s", "double": f"%6.{digits}f"}[kind]
        formats.append(("%s%-22s\t" % (prefix, name)).replace("%", "%%") + "%s\t" + fmt + "\n")
    template = "".join(formats)
    # an id's control characters as escapes (no ESC reaches a terminal), its bytes that are not UTF-8 as read
    topics = np.array([shown(t, keep_bytes=True) for t in ev.topics], dtype=object)
    for a in range(0, len(topics), _TOPICS_AT_ONCE):
        b = min(a + _TOPICS_AT_ONCE, len(topics))
        args = np.empty((b - a, 2 * len(names)), dtype=object)
        args[:, 0::2] = topics[a:b, None]
        for j, col in enumerate(columns):
            args[:, 2 * j + 1] = col[a:b]
        out.write((template * (b - a)) % tuple(args.ravel().tolist()))


def write_evaluation(ev: Evaluation, opts: argparse.Namespace, out: Output, prefix: str = "") -> None:
    """Write an evaluation as trec_eval prints it: ``-q``'s per-topic lines, then the ``all`` lines.

    ``prefix`` starts every line (the run's name and a tab, with several runs).  An extra
    line left out (undefined on these values) gets a note on standard error.
    """
    if opts.q:
        _per_topic(ev, opts.digits, prefix, out)
    if opts.n:
        return
    lines = [prefix + _line(name, "all", value, ev.kinds[name], opts.digits) for name, value in ev.aggregates.items()]
    if lines:
        out.write("".join(lines))
    for name, reason in ev.notes.items():
        undefined = f"undefined with --eps {opts.eps:g}" if "/" not in name else "undefined"
        _note(f"note: {name} line left out, {undefined}: {reason}")


def _note(text: str) -> None:
    """A note, warning or error of ``irmeans eval`` on standard error, through the one path of messages: one that
    cannot be written (standard error full or closed) never costs the results."""
    say(f"irmeans eval: {text}")


def _warn(w: warnings.WarningMessage) -> None:
    message = w.message
    if isinstance(message, TopicsLeftOutWarning):
        _note(f"warning: {message.text(remedy='-c')}")
    else:
        _note(f"warning: {in_our_words(message)}")


def run_eval(opts: argparse.Namespace, out: Output) -> int:
    """Run ``irmeans eval`` for parsed ``opts``, writing trec_eval's lines to ``out``; returns the exit status.

    The measures are read once and the qrels once, and each run evaluated in turn, its lines
    written as soon as it is done.  With several runs each line starts with the run's name as
    given and a tab; a run that cannot be evaluated gets its one-line error on standard
    error, the others are still evaluated, and the status is then 1.
    """
    from ..trec.evaluate import evaluate
    from ..trec.files import read_qrels

    selection: Selection = parse_measures(opts.m, extra=opts.extra, eps=opts.eps, averages=opts.a or ())
    runs = opts.runs
    if opts.qrels == "-" and "-" in runs:  # before reading the qrels, which would take the run's lines too
        raise IrmeansError(
            "'-' (standard input) is given as the qrels and as a run: both cannot be read from one stream"
        )
    qrels = read_qrels(opts.qrels)
    failed = 0
    for run in runs:
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                ev = evaluate(
                    qrels,
                    run,
                    relevance_level=opts.l,
                    depth=opts.M,
                    complete=opts.c,
                    measures=selection,
                    num_docs=opts.N,
                )
        except IrmeansError as exc:
            if len(runs) == 1:
                raise
            _note(f"error: {one_line(str(exc))}")
            failed += 1
            continue
        for w in caught:
            _warn(w)
        write_evaluation(ev, opts, out, "" if len(runs) == 1 else one_line(run) + "\t")
    return 1 if failed else 0
