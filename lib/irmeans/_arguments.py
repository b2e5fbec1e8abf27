"""Argument types shared by the ``irmeans`` subcommands: numbers in C's syntax, as trec_eval reads them.

Python's ``int("1_0")`` is 10; trec_eval reads ``1``. Every count on the
command line goes through here so that no subcommand reads one differently.
"""

from __future__ import annotations

import argparse

from .trec.numbers import INT64_MAX, c_int

__all__ = ["integer", "positive_integer", "digits", "EXIT_STATUS"]


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


def digits(text: str) -> int:
    """Decimals to print: 0 to 17."""
    value = integer(text)
    if not 0 <= value <= 17:
        raise argparse.ArgumentTypeError(f"{text!r} is not between 0 and 17")
    return value


#: What ``irmeans COMMAND --help`` says of the exit status.
EXIT_STATUS = """\
exit status: 0 done; 1 an error (bad input, or the results could not all be
written: a full disk, a file size limit), with one line on standard error;
2 a usage error; 141 the output was closed before all of it was written (as
with '| head'), with one line on standard error; 130 interrupted (Ctrl-C)."""
