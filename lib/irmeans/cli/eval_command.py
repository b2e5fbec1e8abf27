"""``irmeans eval``: the trec_eval-compatible evaluator on the command line.

``irmeans eval [-q] [-c] [-n] [-M N] [-l N] [-N N] [-m MEASURE]... QRELS RUN [RUN ...]`` prints
trec_eval's line format, ``measure<TAB>topic<TAB>value`` (with several runs, each line
prefixed by the run's name and a tab).  Topic ids and the run's tag are
written back byte for byte (ids that are not UTF-8 included).
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from ..averages import eval_lines
from ..errors import IrmeansError, TopicsLeftOutWarning, one_line
from ..trec.table import MEASURE_FAMILIES, NICKNAMES
from ..trec.tokens import ARROW_BYTES
from .arguments import count, digits, eps, level, subcommand
from .output import Output

if TYPE_CHECKING:
    from ..trec.evaluate import Evaluation

__all__ = ["add_parser", "run_eval", "EVAL_DESCRIPTION", "EXTRA_AVERAGES", "measures_help"]


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
    return "\n".join(f"  {name:<12} {text}" for name, (_, text) in eval_lines(0.0).items())


EVAL_DESCRIPTION = f"""\
Evaluate RUN against QRELS as trec_eval 10 does and print trec_eval's lines
(measure, topic, value).  Anything printed under a trec_eval name means what
it means in trec_eval, and -m takes every measure string trec_eval -m takes
(nicknames: {", ".join(NICKNAMES)}), printing it under trec_eval's name
(-m relstring.20 prints relstring_20, -m ndcg.1=0,2=5 prints ndcg_1=0,2=5).
Without -m, trec_eval's all_trec set is printed, then the extra lines below.
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
with eps given by --eps (default 1e-5).  They are printed without -m, when
named (-m hm_map), or with --extra; never otherwise, so that output under
trec_eval's -m arguments has exactly trec_eval's lines.
"""

#: The extra ``all`` lines' names (see :func:`irmeans.averages.eval_lines`).
EXTRA_AVERAGES = list(eval_lines(0.0))


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
        default=1e-5,
        metavar="E",
        help="epsilon of the extra gm_map_add, hm_map and logit_map lines (default 1e-5)",
    )
    ev.add_argument("--extra", action="store_true", help="print the four extra 'all' lines whatever -m selects")
    ev.add_argument("qrels", metavar="QRELS")
    ev.add_argument("runs", metavar="RUN", nargs="+", help="one run, or several evaluated in turn (see above)")
    ev.set_defaults(handler=run_eval)
    return ev


def _format(name: str, qid: str, value: Any, kind: str, digits: int) -> str:
    if kind == "long":
        text = "%d" % int(value)
    elif kind == "string":
        text = str(value)
    elif value != value:  # NaN: C's printf shows the sign, and x86's 0/0 is negative
        text = "%6s" % ("-nan" if np.signbit(value) else "nan")
    else:
        text = "%6.*f" % (digits, value)
    return "%-22s\t%s\t%s" % (name, qid, text)


def _note(text: str) -> None:
    print(f"irmeans eval: {text}", file=sys.stderr)


def _extra_lines(ap: np.ndarray, names: list[str], eps: float, digits: int) -> list[str]:
    lines: list[str] = []
    averages = eval_lines(eps)
    for name in names:
        try:
            value = float(averages[name][0](ap))
        except IrmeansError as exc:  # e.g. eps = 0 with an AP of 0: the mean is undefined
            reason = str(exc).splitlines()[0] if str(exc) else "undefined"
            _note(f"note: {name} line left out, undefined with --eps {eps:g}: {reason}")
            continue
        lines.append(_format(name, "all", value, "double", digits))
    return lines


def _warn(w: warnings.WarningMessage) -> None:
    message = w.message
    if isinstance(message, TopicsLeftOutWarning):
        _note(f"warning: {message.text(remedy='-c')}")
    else:
        _note(f"warning: {message}")


def _selection(specs: list[str] | None, extra: bool) -> tuple[list[str] | None, list[str], bool]:
    """(trec_eval -m specs for evaluate(), extra lines to print, whether map's own lines are printed)."""
    from ..trec.table import parse_measures

    extras = list(EXTRA_AVERAGES) if (extra or specs is None) else [n for n in EXTRA_AVERAGES if n in specs]
    trec_specs = None if specs is None else [s for s in specs if s not in EXTRA_AVERAGES]
    show_map = trec_specs is None or (bool(trec_specs) and "map" in parse_measures(trec_specs))
    wanted = trec_specs if (show_map or not extras) else (trec_specs or []) + ["map"]
    if wanted == []:
        raise IrmeansError("no measure selected")
    return wanted, extras, show_map


def _lines(ev: Evaluation, opts: argparse.Namespace, extras: list[str], show_map: bool) -> list[str]:
    """trec_eval's output lines of one evaluation."""
    from ..trec.evaluate import printed_per_topic

    lines: list[str] = []
    if opts.q:
        names = [n for n in printed_per_topic(ev) if n != "map" or show_map]
        columns = [ev.per_topic[n] for n in names]
        kinds = [ev.kinds[n] for n in names]
        for i, qid in enumerate(ev.topics):
            for n, col, kind in zip(names, columns, kinds):
                lines.append(_format(n, qid, col[i], kind, opts.digits))
    if not opts.n:
        for n, value in ev.aggregates.items():
            if n == "map" and not show_map:
                continue
            lines.append(_format(n, "all", value, ev.kinds[n], opts.digits))
        if extras:
            lines.extend(_extra_lines(ev.per_topic["map"], extras, opts.eps, opts.digits))
    return lines


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def run_eval(opts: argparse.Namespace, out: Output) -> int:
    """Run ``irmeans eval`` for parsed ``opts``, writing trec_eval's lines to ``out``; returns the exit status.

    The qrels are read once and each run evaluated in turn, its lines written as soon as it is
    done.  With several runs each line starts with the run's name as given and a tab; a run
    that cannot be evaluated gets its one-line error on standard error, the others are still
    evaluated, and the status is then 1.
    """
    from ..trec.evaluate import evaluate
    from ..trec.files import read_qrels

    wanted, extras, show_map = _selection(opts.m, opts.extra)
    runs = opts.runs
    if [opts.qrels, *runs].count("-") > 1:
        raise IrmeansError("'-' (standard input) may be given once: the qrels and the runs cannot share it")
    qrels = read_qrels(opts.qrels)
    if len(runs) > 1 and sum(_size(r) for r in runs) >= ARROW_BYTES:
        from ..trec.arrow import load

        load()  # every run is then read by pyarrow's tokeniser: its import is paid once for all
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
                    measures=wanted,
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
        lines = _lines(ev, opts, extras, show_map)
        prefix = "" if len(runs) == 1 else one_line(run) + "\t"
        if lines:
            out.write("".join(prefix + line + "\n" for line in lines))
    return 1 if failed else 0
