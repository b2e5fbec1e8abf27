"""The ``irmeans`` command line: one parser, a subcommand per task.

``irmeans eval`` is :mod:`.eval_command`, ``irmeans consistency`` :mod:`.consistency_command`,
``irmeans compare`` :mod:`.compare_command`, ``irmeans datasets`` :mod:`.datasets_command`
(each imported only when it is used); their shared argument types are in :mod:`.arguments`,
the options ``consistency`` and ``compare`` share in :mod:`.options`, and the output stream in
:mod:`.output`. Usage
errors exit 2, the library's own errors (:class:`~irmeans.errors.IrmeansError`) and a
failed or short write of the results (the help included) print one line and exit 1, an
output closed early (``| head``) prints one line and exits 141, Ctrl-C exits 130, and
anything else is a bug and shows its traceback. Messages go to standard error only: with
standard error closed they are left out, never written into standard output.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from .. import __version__
from ..errors import IrmeansError, one_line
from .output import Output, say

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

__all__ = ["build_parser", "main", "Output"]

# Each subcommand's module, imported only when the subcommand is used or listed.
_SUBCOMMANDS = {
    "eval": "eval_command",
    "consistency": "consistency_command",
    "compare": "compare_command",
    "datasets": "datasets_command",
}


class _UsageError(Exception):
    pass


class _StoreOnce(argparse._StoreAction):
    """An option that takes one value: given twice, a usage error (argparse kept the last and dropped the others
    without a word, so that 'compare -m map -m P.10' compared P.10 alone)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        given: set[str] = namespace.__dict__.setdefault("_given_once", set())
        if option_string is not None and self.dest in given:
            names = "/".join(self.option_strings)
            parser.error(f"{names} given twice: it takes one value (the last would have replaced the first)")
        given.add(self.dest)
        super().__call__(parser, namespace, values, option_string)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.register("action", None, _StoreOnce)
        self.register("action", "store", _StoreOnce)
        # A value that starts with '-' is a negative number, as C reads numbers (-1e-9, -.5, -inf), not an option:
        # argparse's own matcher knows only -1 and -1.5, and took '--alpha -1e-9' for an option without its value.
        self._negative_number_matcher = re.compile(r"^-(?:[0-9.]|inf|nan)", re.IGNORECASE)

    def error(self, message: str) -> NoReturn:
        raise _UsageError(f"{self.prog}: {message}")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # argparse writes --help and --version with file.write() and ignores a failure (a full
        # disk, a file size limit): the help is then lost and the status 0. Through Output, every
        # byte is written or main() says why not and exits 1.
        if not message:
            return
        if file is None or file is sys.stdout:
            Output(sys.stdout).write(message)
        else:
            say(message.rstrip("\n"))


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``irmeans`` argument parser with its subcommands, or with the subcommand ``only`` (usage errors raise)."""
    parser = _Parser(prog="irmeans", description="IR effectiveness measures and their averages across topics.")
    parser.add_argument("--version", action="version", version=f"irmeans {__version__}")
    sub: argparse._SubParsersAction[argparse.ArgumentParser] = parser.add_subparsers(
        dest="command", metavar="COMMAND", parser_class=_Parser
    )
    for name, module in _SUBCOMMANDS.items():
        if only is None or name == only:
            importlib.import_module(f".{module}", __name__).add_parser(sub)
    return parser


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so that exiting does not try to flush it again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real file descriptor, or standard output closed
        pass


def _no_stderr_into_stdout() -> None:
    """With standard error closed (``sys.stderr`` is None), ``print(..., file=sys.stderr)`` would write to
    standard output: messages go to /dev/null instead."""
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # for the rest of the process


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``irmeans`` console script; returns the exit status.

    Usage errors exit 2; the library's own errors, an unreadable file or output that could
    not all be written (a full disk, a file size limit, standard output closed) print one
    line on standard error and exit 1; an output closed early (``| head``) prints one line
    and exits 141, the status of a C program killed by the signal; Ctrl-C exits 130 without
    a word.
    """
    _no_stderr_into_stdout()
    args = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(args[0] if args and args[0] in _SUBCOMMANDS else None)  # irmeans eval loads no other
    opts = None

    def what() -> str:
        command = getattr(opts, "command", None) or next((a for a in args if a in _SUBCOMMANDS), None)
        return f"irmeans {command}" if command else "irmeans"

    try:
        stdout = sys.stdout
        if stdout is not None and hasattr(stdout, "reconfigure"):  # ids that are not UTF-8 written back as read
            try:
                stdout.reconfigure(encoding="utf-8", errors="surrogateescape")
            except (ValueError, OSError):  # pragma: no cover
                pass
        opts = parser.parse_args(args)
        if opts.command is None:
            say(parser.format_help().rstrip("\n"))
            return 2
        out = Output(stdout)
        status: int = opts.handler(opts, out)
        out.flush()
        return status
    except _UsageError as exc:
        say(one_line(str(exc)))
        return 2
    except IrmeansError as exc:
        say(f"{what()}: error: {one_line(str(exc))}")
        return 1
    except KeyboardInterrupt:
        _quiet_stdout()
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        say(f"{what()}: error: the output was closed before all of it was written")
        return 141
    except MemoryError:
        _quiet_stdout()
        say(f"{what()}: error: out of memory")
        return 1
    except OSError as exc:  # writing the output: a full disk, /dev/full, a closed terminal or standard output
        _quiet_stdout()
        reason = exc.strerror or one_line(str(exc)) if str(exc) else type(exc).__name__
        say(f"{what()}: error: cannot write the output ({reason})")
        return 1
