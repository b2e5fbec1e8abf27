"""The ``irmeans`` command line: one parser, a subcommand per task.

``irmeans eval`` is :mod:`.eval_command`, ``irmeans consistency``
:mod:`.consistency_command`, ``irmeans compare`` :mod:`.compare_command`; their shared argument types are in
:mod:`.arguments` and the output stream in :mod:`.output`. Usage errors exit 2,
the library's own errors (:class:`~irmeans.errors.IrmeansError`) and a
failed or short write of the results print one line and exit 1, an output
closed early (``| head``) prints one line and exits 141, Ctrl-C exits 130,
and anything else is a bug and shows its traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from ..errors import IrmeansError, one_line
from . import compare_command, consistency_command, eval_command
from .output import Output

__all__ = ["build_parser", "main", "Output"]


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    """The ``irmeans`` argument parser with its subcommands (usage errors raise)."""
    parser = _Parser(prog="irmeans", description="IR effectiveness measures and their averages across topics.")
    sub: argparse._SubParsersAction[argparse.ArgumentParser] = parser.add_subparsers(
        dest="command", metavar="COMMAND", parser_class=_Parser
    )
    eval_command.add_parser(sub)
    consistency_command.add_parser(sub)
    compare_command.add_parser(sub)
    return parser


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so that exiting does not try to flush it again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # pragma: no cover - no real file descriptor
        pass


def main(argv: Sequence[str] | None = None) -> int:
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
        status: int = opts.handler(opts, out)
        out.flush()
        return status
    except _UsageError as exc:
        print(one_line(str(exc)), file=sys.stderr)
        return 2
    except IrmeansError as exc:
        print(f"irmeans {getattr(opts, 'command', '')}: error: {one_line(str(exc))}", file=sys.stderr)
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
