"""Print the slowest tests of one or more pytest runs, from their JUnit XML reports (``pytest --junitxml``).

Usage: ``python tests/slowest.py [-n 15] REPORT.xml ...``; ``make test`` prints the 15 slowest of all its runs.
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def slowest(reports: list[Path], count: int) -> list[tuple[float, str]]:
    """The ``count`` slowest test cases of ``reports``: (seconds, run: class::name), slowest first."""
    found = []
    for report in reports:
        for case in ET.parse(report).getroot().iter("testcase"):
            name = f"{case.get('classname', '')}::{case.get('name', '')}".strip(":")
            found.append((float(case.get("time", 0)), f"{report.stem}: {name}"))
    return sorted(found, reverse=True)[:count]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=15, help="how many (default 15)")
    parser.add_argument("reports", nargs="+", type=Path)
    args = parser.parse_args(argv)
    reports = [r for r in args.reports if r.is_file()]
    cases = slowest(reports, args.n)
    total = sum(float(s.get("time", 0)) for r in reports for s in ET.parse(r).getroot().iter("testsuite"))
    print(f"== the {len(cases)} slowest tests of {len(reports)} pytest runs ({total / 60:.1f} min of tests in all)")
    for seconds, name in cases:
        print(f"{seconds:8.1f} s  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
