"""`make test`: every part of the proof, two at a time on the machine's two cores, each run to its end whatever the
others do, then one summary.

Usage: ``python tests/make_test.py`` (``make test`` runs it once ``.venv/``, the system's packages and the site's
JavaScript are there).

The parts (:func:`parts`), started as soon as a core is free and what each needs is done, in this order:

1. the site: its pages and its two PDFs (``make site``: rebuilt only if a source changed);
2. the book's tests and the chapters' stored outputs (nbval), numpy held to its baseline
   (``tests/numpy_baseline.py``), so that the outputs stored on one CPU meet what another computes;
3. the tests in the browser and in JupyterLab, on the built site (after 1: the two make the longest chain);
4. the library alone (``make standalone``): the release's files built and checked, the wheel in an environment of
   its own with the pinned set, every library and evaluator test (property and combination tests too: their one
   run), ``irmeans eval`` on a small pair;
5. lint: ruff and mypy (``make lint``);
6. the library's tests in the floor, Python 3.12 and newest environments (``tests/environments.py``, after 4,
   whose wheel they install), without the property and combination tests;
7. last and alone, since it measures speed: the quick benchmarks (``make bench QUICK=1``).

Each part's output goes to ``_build/test-reports/NAME.log`` and is printed when the part ends. Then the 15
slowest tests, and the summary: each part's result, time and CPU time (what it costs, whatever else loads the
machine), the failing tests of each failed part by name (from its JUnit report) or its log's last lines, what was
not run and why; it ends with one line, ``parts: N passed, N failed`` (and ``, N skipped`` for environments whose
Python this machine lacks). The exit status is 1 if any part failed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPORTS = ROOT / "_build" / "test-reports"
PYTHON = sys.executable
PYTEST = [PYTHON, "-m", "pytest", "-p", "no:cacheprovider"]
MAKE = ["make", "--no-print-directory"]
#: An environment's exit status when its Python is not on this machine (tests/environments.py).
NOT_RUN = 3
#: How many parts run at once: the machine's cores.
CORES = 2


@dataclass
class Part:
    """One part of the proof: its name, what it says it is, its command, and the parts it waits for."""

    name: str
    title: str
    command: list[str]
    after: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    junit: bool = False  # the command writes REPORTS/NAME.xml
    alone: bool = False  # runs when every other part has ended, and nothing beside it
    status: int | None = None
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # the part's processes' CPU time, user and system: its cost whatever the load


def parts(reports: Path) -> list[Part]:
    """The parts, in the order they start when a core is free."""
    features = subprocess.run(
        [PYTHON, str(ROOT / "tests" / "numpy_baseline.py")], capture_output=True, text=True, check=True
    ).stdout.strip()
    junit = lambda name: f"--junitxml={reports / name}.xml"  # noqa: E731
    nbval = ["--nbval", "--nbval-sanitize-with", "tests/nbval_sanitize.cfg"]
    environments = [
        Part(name, f"the library's tests, {title}", [PYTHON, "tests/environments.py", name, "--reports", str(reports)])
        for name, title in (("floor", "floor"), ("python3.12", "Python 3.12, pinned"), ("newest", "newest releases"))
    ]
    for part in environments:
        part.after, part.junit = ("library",), True
    return [
        Part("site", "the site: its pages and PDFs (make site)", [*MAKE, "site"]),
        Part(
            "book",
            f"the book's tests and the chapters' stored outputs (NPY_DISABLE_CPU_FEATURES=\"{features}\")",
            [*PYTEST, "tests/book", "chapters", *nbval, junit("book")],
            env={"NPY_DISABLE_CPU_FEATURES": features},
            junit=True,
        ),
        Part(
            "browser-and-lab",
            "the tests in the browser and in JupyterLab",
            [*PYTEST, "tests/browser", "tests/lab", junit("browser-and-lab")],
            after=("site",),
            junit=True,
        ),
        Part("library", "the library alone, pinned, every test (make standalone)", [*MAKE, "standalone"], junit=True),
        Part("lint", "ruff and mypy (make lint)", [*MAKE, "lint"]),
        *environments,
        Part("bench", "the quick benchmarks (make bench QUICK=1)", [*MAKE, "bench", "QUICK=1"], alone=True),
    ]


def failures(report: Path) -> list[str]:
    """The failed and erroneous tests of a JUnit report, by name (``path::test``)."""
    if not report.is_file():
        return []
    found = []
    for case in ET.parse(report).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            module = case.get("classname", "").replace(".", "/")
            found.append(f"{module}.py::{case.get('name', '')}" if module else case.get("name", ""))
    return found


def _minutes(seconds: float) -> str:
    return f"{int(seconds // 60)}:{int(seconds % 60):02d}"


class Runner:
    """Runs :class:`Part`\\ s at most :data:`CORES` at a time, each as soon as what it waits for has ended."""

    def __init__(self, todo: list[Part], reports: Path):
        self.todo, self.reports = list(todo), reports
        self.running: dict[str, tuple[Part, subprocess.Popen, float, object]] = {}
        self.done: list[Part] = []

    def _ready(self) -> Part | None:
        ended = {p.name for p in self.done}
        for part in self.todo:
            if part.alone and (self.running or len(self.todo) > 1):
                continue
            if set(part.after) <= ended:
                return part
        return None

    def _start(self, part: Part) -> None:
        log = (self.reports / f"{part.name}.log").open("w", encoding="utf-8")
        print(f"== started: {part.title}", flush=True)
        process = subprocess.Popen(
            part.command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **part.env}
        )
        self.todo.remove(part)
        self.running[part.name] = (part, process, time.monotonic(), log)

    def _finish(self, name: str, status: int, usage) -> None:
        part, process, started, log = self.running.pop(name)
        log.close()
        process.returncode = part.status = os.waitstatus_to_exitcode(status)
        part.seconds, part.cpu_seconds = time.monotonic() - started, usage.ru_utime + usage.ru_stime
        self.done.append(part)
        took = f"{_minutes(part.seconds)} (CPU {_minutes(part.cpu_seconds)})"
        print(f"== {_result(part)} in {took}: {part.title} ({self.reports / part.name}.log)")
        print((self.reports / f"{part.name}.log").read_text(encoding="utf-8", errors="replace"), flush=True)

    def run(self) -> list[Part]:
        while self.todo or self.running:
            while len(self.running) < (1 if any(p.alone for p, *_ in self.running.values()) else CORES):
                part = self._ready()
                if part is None:
                    break
                self._start(part)
            time.sleep(0.5)
            for name, (_, process, _, _) in list(self.running.items()):
                pid, status, usage = os.wait4(process.pid, os.WNOHANG)  # its CPU time too, which poll() loses
                if pid:
                    self._finish(name, status, usage)
        return self.done


def _result(part: Part) -> str:
    return {0: "passed", NOT_RUN: "not run"}.get(part.status, "FAILED")


def summary(done: list[Part], reports: Path, seconds: float) -> list[str]:
    """The summary's lines: each part's result, time and title, what failed by name, and the closing count."""
    cpu = sum(p.cpu_seconds for p in done)
    lines = [f"== make test: {_minutes(seconds)} in all, {_minutes(cpu)} of CPU time in its parts ({reports})"]
    lines.append(f"  {'result':8} {'time':>6} {'CPU':>6}  part")
    for part in done:
        lines.append(f"  {_result(part):8} {_minutes(part.seconds):>6} {_minutes(part.cpu_seconds):>6}  {part.title}")
        said = reports / f"{part.name}.txt"
        if said.is_file():
            lines.append(f"{'':18}{said.read_text(encoding='utf-8').strip()}")
        if part.status not in (0, NOT_RUN):
            failed = failures(reports / f"{part.name}.xml") if part.junit else []
            if not failed:
                log = (reports / f"{part.name}.log").read_text(encoding="utf-8", errors="replace").splitlines()
                failed = [line for line in log[-8:] if line.strip()]
            lines += [f"{'':18}{name}" for name in failed]
    counts = {r: sum(_result(p) == r for p in done) for r in ("passed", "FAILED", "not run")}
    closing = f"parts: {counts['passed']} passed, {counts['FAILED']} failed"
    return [*lines, closing + (f", {counts['not run']} skipped" if counts["not run"] else "")]


def main(argv: list[str]) -> int:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args(argv)
    reports = REPORTS  # where make standalone writes its report too
    reports.mkdir(parents=True, exist_ok=True)
    for old in reports.iterdir():
        old.unlink()
    started = time.monotonic()
    done = Runner(parts(reports), reports).run()
    seconds = time.monotonic() - started
    subprocess.run([PYTHON, str(ROOT / "tests" / "slowest.py"), "-n", "15", *map(str, sorted(reports.glob("*.xml")))])
    print("\n".join(summary(done, reports, seconds)), flush=True)
    return 0 if all(p.status in (0, NOT_RUN) for p in done) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
