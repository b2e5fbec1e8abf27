"""The ``irmeans`` command line: one parser, a subcommand per task.

``irmeans eval`` is :mod:`irmeans.trec.command`. Usage errors exit 2,
the library's own errors (:class:`~irmeans.errors.IrmeansError`) print one
line and exit 1, and anything else is a bug and shows its traceback.
"""

from __future__ import annotations

import argparse
import sys

from .errors import IrmeansError
from .trec import command as eval_command

__all__ = ["build_parser", "main"]


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
    return parser


def main(argv=None) -> int:
    """Entry point of the ``irmeans`` console script; returns the exit status."""
    parser = build_parser()
    try:
        opts = parser.parse_args(argv)
        if opts.command is None:
            parser.print_help()
            return 2
        return opts.handler(opts, sys.stdout)
    except _UsageError as exc:
        print(str(exc).splitlines()[0], file=sys.stderr)
        return 2
    except IrmeansError as exc:
        print(f"irmeans {opts.command}: error: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
