"""The ``irmeans`` command line: one parser, a subcommand per task.

``irmeans eval`` is :mod:`irmeans.trec.command`. Usage errors exit 2,
the library's own errors (:class:`~irmeans.errors.IrmeansError`) and a
failed or short write of the results print one line and exit 1, an output
closed early (``| head``) prints one line and exits 141, Ctrl-C exits 130,
and anything else is a bug and shows its traceback.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys

from . import consistency_command
from .errors import IrmeansError, one_line
from .trec import command as eval_command

__all__ = ["build_parser", "main", "Output"]


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise _UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    """The ``irmeans`` argument parser with its subcommands (usage errors raise)."""
    parser = _Parser(prog="irmeans", description="IR effectiveness measures and their averages across topics.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    eval_command.add_parser(sub)
    consistency_command.add_parser(sub)
    return parser


class Output:
    """Standard output for results: every byte written, or an ``OSError``, never a silent loss.

    Python's own text stream does not check how much of a write went through when it is
    unbuffered (``PYTHONUNBUFFERED``): a file size limit could cut the output with no error.
    Here the text is written with ``os.write`` until every byte is out; a write that fails
    raises, and :func:`main` turns that into one line and a non-zero exit status.  A stream
    without a file descriptor (a test's ``StringIO``) is written to as it is.
    """

    def __init__(self, stream):
        self.stream = stream
        try:
            self.fd = stream.fileno()
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


def _quiet_stdout():
    """Point standard output at /dev/null, so that exiting does not try to flush it again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # pragma: no cover - no real file descriptor
        pass


def main(argv=None) -> int:
    """Entry point of the ``irmeans`` console script; returns the exit status.

    Usage errors exit 2; the library's own errors, an unreadable file or output that could
    not all be written (a full disk, a file size limit) print one line on standard error and
    exit 1; an output closed early (``| head``) prints one line and exits 141, the status of a
    C program killed by the signal; Ctrl-C exits 130 without a word.
    """
    parser = build_parser()
    opts = None
    try:
        stdout = sys.stdout
        if hasattr(stdout, "reconfigure"):  # topic ids that are not UTF-8 are written back as they were read
            try:
                stdout.reconfigure(encoding="utf-8", errors="surrogateescape")
            except (ValueError, OSError):  # pragma: no cover
                pass
        opts = parser.parse_args(argv)
        if opts.command is None:
            parser.print_help()
            return 2
        out = Output(stdout)
        status = opts.handler(opts, out)
        out.flush()
        return status
    except _UsageError as exc:
        print(one_line(str(exc)), file=sys.stderr)
        return 2
    except IrmeansError as exc:
        print(f"irmeans {opts.command}: error: {one_line(str(exc))}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        _quiet_stdout()
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        what = getattr(opts, "command", "")
        print(f"irmeans {what}: error: the output was closed before all of it was written", file=sys.stderr)
        return 141
    except MemoryError:
        _quiet_stdout()
        print(f"irmeans {getattr(opts, 'command', '')}: error: out of memory", file=sys.stderr)
        return 1
    except OSError as exc:  # writing the output: a full disk, /dev/full, a closed terminal
        _quiet_stdout()
        what = exc.strerror or one_line(str(exc)) if str(exc) else type(exc).__name__
        print(f"irmeans {getattr(opts, 'command', '')}: error: cannot write the output ({what})", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
