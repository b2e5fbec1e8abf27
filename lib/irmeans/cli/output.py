"""Standard output for results that never loses a byte silently."""

from __future__ import annotations

import errno
import os
from typing import TextIO

__all__ = ["Output"]


class Output:
    """Standard output for results: every byte written, or an ``OSError``, never a silent loss.

    Python's own text stream does not check how much of a write went through when it is
    unbuffered (``PYTHONUNBUFFERED``): a file size limit could cut the output with no error.
    Here the text is written with ``os.write`` until every byte is out; a write that fails
    raises, and :func:`main` turns that into one line and a non-zero exit status.  A stream
    without a file descriptor (a test's ``StringIO``) is written to as it is.
    """

    def __init__(self, stream: TextIO):
        self.stream = stream
        try:
            self.fd: int | None = stream.fileno()
        except (OSError, AttributeError, ValueError):  # io.UnsupportedOperation is an OSError
            self.fd = None

    def write(self, text: str) -> None:
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
        if self.fd is None:
            self.stream.flush()
