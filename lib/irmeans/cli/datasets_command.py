"""``irmeans datasets``: the TREC score matrices shipped with irmeans, one line each.

Each line gives the name ``irmeans consistency --dataset`` takes (``COLLECTION:MEASURE``),
the track and its year, the size (systems x topics) and the measure, tab-separated
under a header line. The scores are per-topic values of real TREC runs (CC BY-SA 4.0;
their sources are in the package's ``datasets/data/README.md``).
"""

from __future__ import annotations

import argparse

from .arguments import subcommand
from .output import Output

__all__ = ["add_parser", "run_datasets"]

DESCRIPTION = __doc__.split("\n", 2)[2].replace("``", "'")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> argparse.ArgumentParser:
    """Add the ``datasets`` subcommand to the ``irmeans`` subparsers ``sub``."""
    p = subcommand(sub, "datasets", "list the TREC score matrices shipped with irmeans", DESCRIPTION)
    p.set_defaults(handler=run_datasets)
    return p


def run_datasets(opts: argparse.Namespace, out: Output) -> int:
    """Write the catalogue of shipped matrices to ``out``; returns 0."""
    from .. import datasets  # here: the other commands never need it

    lines = ["dataset\ttrack\tyear\tsystems x topics\tmeasure"]
    for e in datasets.catalog():
        measure = datasets.MEASURES[e.measure]
        lines.append(f"{e.collection}:{e.measure}\t{e.track}\t{e.year}\t{e.systems} x {e.topics}\t{measure}")
    out.write("\n".join(lines) + "\n")
    return 0
