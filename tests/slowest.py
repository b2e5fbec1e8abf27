"""Print the slowest tests of one or more pytest runs, from their JUnit XML reports (``pytest --junitxml``).

Usage: ``python tests/slowest.py [-n 15] REPORT.xml ...``; ``make test`` prints the 15 slowest of all its runs.

A fixture shared by many tests (the browser tests' one tour of the site) is timed in the setup of the test that
asks for it first. The report names such a fixture in a suite property, ``shared_fixture:NAME`` = "SECONDS
NODEID": its time is taken off that test's and listed on a line of its own.
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

SHARED = "shared_fixture:"


def _asked_by(case, nodeid: str) -> bool:
    """Whether the JUnit test case ``case`` is the test ``nodeid`` (``tests/browser/test_x.py::test_y[a]``)."""
    path, _, name = nodeid.partition("::")
    dotted = f"{path.removesuffix('.py').replace('/', '.')}.{name.replace('::', '.')}"
    reported = f"{case.get('classname', '')}.{case.get('name', '')}"
    return bool(name) and (dotted.endswith(reported) or reported.endswith(dotted))


def slowest(reports: list[Path], count: int) -> list[tuple[float, str]]:
    """The ``count`` slowest test cases of ``reports``: (seconds, run: class::name), slowest first; a shared
    fixture is an entry of its own (``run: the shared fixture NAME, set up for TEST``), its time off that test's."""
    found = []
    for report in reports:
        root = ET.parse(report).getroot()
        shared = {}
        for prop in root.iter("property"):
            if prop.get("name", "").startswith(SHARED):
                seconds, _, nodeid = prop.get("value", "").partition(" ")
                shared[prop.get("name").removeprefix(SHARED)] = (float(seconds), nodeid)
        for case in root.iter("testcase"):
            name = f"{case.get('classname', '')}::{case.get('name', '')}".strip(":")
            seconds = float(case.get("time", 0))
            for fixture, (took, nodeid) in shared.items():
                if _asked_by(case, nodeid):
                    seconds = max(0.0, seconds - took)
                    found.append((took, f"{report.stem}: the shared fixture {fixture}, set up for {nodeid}"))
            found.append((seconds, f"{report.stem}: {name}"))
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
