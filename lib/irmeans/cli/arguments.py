"""Argument types shared by the ``irmeans`` subcommands: numbers in C's syntax, as trec_eval reads them.

Python's ``int("1_0")`` is 10; trec_eval reads ``1``. Every count on the
command line goes through here so that no subcommand reads one differently.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from .._validation import MAX_SPLITS
from ..errors import IrmeansError
from ..number_syntax import INT64_MAX, MOST_DIGITS, c_float, c_int

if TYPE_CHECKING:
    from ..averages import Average

__all__ = [
    "integer",
    "positive_integer",
    "count",
    "level",
    "digits",
    "eps",
    "seed",
    "splits",
    "dataset",
    "average",
    "MAX_SPLITS",
    "EXIT_STATUS",
    "subcommand",
]


def integer(text: str, what: str = "an integer") -> int:
    """``text`` as an integer in C's syntax, or an ``argparse`` error."""
    value = c_int(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}")
    return value


def positive_integer(text: str) -> int:
    """A whole number >= 1 (a larger one than a C long reads as the largest)."""
    value = integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive integer")
    return min(value, INT64_MAX)


def count(text: str) -> int:
    """A whole number >= 0 (a larger one than a C long reads as the largest), as ``-M`` and ``-N``."""
    value = integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number >= 0")
    return min(value, INT64_MAX)


def level(text: str) -> int:
    """Any integer, clamped to a C long as trec_eval's ``atol`` clamps it (``-l``)."""
    return max(min(integer(text), INT64_MAX), -INT64_MAX - 1)


def seed(text: str) -> int:
    """A random seed: a whole number >= 0 (numpy takes any size) of at most :data:`MOST_DIGITS` digits (longer ones
    would all read as one)."""
    value = integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number >= 0")
    if value >= 10**MOST_DIGITS:
        raise argparse.ArgumentTypeError(f"a seed of more than {MOST_DIGITS:,} digits is more than irmeans reads")
    return value


def splits(text: str) -> int:
    """A number of random splits: 1 to :data:`MAX_SPLITS`."""
    value = positive_integer(text)
    if value > MAX_SPLITS:
        raise argparse.ArgumentTypeError(f"{text!r} is more than the {MAX_SPLITS:,} splits irmeans draws")
    return value


def dataset(text: str) -> tuple[str, str]:
    """``COLLECTION:MEASURE`` of a shipped matrix, both lower-cased."""
    collection, colon, measure = text.partition(":")
    if not colon or not collection or not measure:
        raise argparse.ArgumentTypeError(f"{text!r} is not COLLECTION:MEASURE (for example adhoc8:ap)")
    return collection.strip().lower(), measure.strip().lower()


def average(text: str) -> Average:
    """An average's spec (``gm:0.01``), or a usage error."""
    from ..averages import parse_average

    try:
        return parse_average(text)
    except IrmeansError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def eps(text: str) -> float:
    """An ε in [0, 1), in C's number syntax."""
    value = c_float(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number")
    if not (value >= 0 and value < 1):
        raise argparse.ArgumentTypeError(f"{text!r} is not in [0, 1)")
    return value


def digits(text: str) -> int:
    """Decimals to print: 0 to 17."""
    value = integer(text)
    if not 0 <= value <= 17:
        raise argparse.ArgumentTypeError(f"{text!r} is not between 0 and 17")
    return value


#: What ``irmeans COMMAND --help`` says of the exit status.
EXIT_STATUS = """\
exit status: 0 done; 1 an error (bad input, or the results could not all be
written: a full disk, a file size limit, standard output closed), with one
line on standard error; 2 a usage error; 141 the output was closed before all
of it was written (as with '| head'), with one line on standard error; 130
interrupted (Ctrl-C). Messages go to standard error only (with it closed, the
exit status alone tells). With standard input a directory, Python itself
refuses to start, before irmeans: status 1 and Python's own message."""


def subcommand(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, summary: str, description: str
) -> argparse.ArgumentParser:
    """Add subcommand ``name`` to ``sub``: its description kept as written, the exit statuses after its options,
    and ``--version``."""
    parser: argparse.ArgumentParser = sub.add_parser(
        name,
        help=summary,
        description=description,
        epilog=EXIT_STATUS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from .. import __version__

    # before the positionals are checked: 'irmeans eval --version' prints the version, not a usage error
    parser.add_argument("--version", action="version", version=f"irmeans {__version__}")
    return parser
