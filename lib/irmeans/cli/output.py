"""Standard output for results that never loses a byte silently, and messages that never land in it."""

from __future__ import annotations

import errno
import os
import sys
from typing import TextIO

__all__ = ["Output", "say", "in_our_words"]


class Output:
    """Standard output for results: every byte written, or an ``OSError``, never a silent loss.

    Python's own text stream does not check how much of a write went through when it is
    unbuffered (``PYTHONUNBUFFERED``): a file size limit could cut the output with no error.
    Here the text is written with ``os.write`` until every byte is out; a write that fails
    raises, and :func:`main` turns that into one line and a non-zero exit status.  A stream
    without a file descriptor (a test's ``StringIO``) is written to as it is. Standard output
    closed before the command started (``sys.stdout`` is None) is an ``OSError`` at the first
    write: the command's work may still end in an error of its own, or in no output at all.
    """

    def __init__(self, stream: TextIO | None):
        self.stream = stream
        try:
            self.fd: int | None = None if stream is None else stream.fileno()
        except (OSError, AttributeError, ValueError):  # io.UnsupportedOperation is an OSError
            self.fd = None

    def write(self, text: str) -> None:
        """Write all of ``text``: through the stream, or encoded and written with ``os.write`` until every
        byte is out; an ``OSError`` if standard output is closed or a write fails.
        """
        if self.stream is None:
            raise OSError(errno.EBADF, "standard output is closed")
        if self.fd is None:
            self.stream.write(text)
            return
        self.stream.flush()  # anything already written through the stream goes first
        view = memoryview(text.encode("utf-8", "surrogateescape"))
        while view:
            done = os.write(self.fd, view)
            if done <= 0:  # pragma: no cover - write(2) reports errors, not 0, for a regular file
                raise OSError(errno.EIO, "nothing could be written")
            view = view[done:]

    def flush(self) -> None:
        """Flush the stream, where text goes through it (``os.write`` keeps nothing back)."""
        if self.stream is not None and self.fd is None:
            self.stream.flush()


def in_our_words(message: Warning | str) -> str:
    """A warning as a subcommand says it, on one line: irmeans' own as they are; one of numpy's arithmetic
    ("invalid value encountered in cast"), which should not happen, named for what it is.

    >>> in_our_words(RuntimeWarning("overflow encountered in multiply")).startswith("a number went beyond")
    True
    """
    from ..errors import one_line

    text = one_line(str(message))
    if type(message) is RuntimeWarning:  # numpy's floating-point warnings are plain RuntimeWarnings
        return (
            "a number went beyond what a double holds, or had no value, in the arithmetic (numpy's words: "
            f"{text}): a value printed may be inf or nan, which is a fault of irmeans to report"
        )
    return text


def say(text: str) -> None:
    """One line on standard error, if there is a standard error to write it to.

    Closed (``sys.stderr`` is None), full or gone, it is left out: never written to standard
    output instead, and never an error of its own (the exit status still says what happened).
    """
    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(text + "\n")
        stream.flush()
    except (OSError, ValueError):
        pass
