"""`make test` tells the whole story (tests/make_test.py): every part runs to its end whatever the others do, two at
a time, each when what it waits for has ended; the summary gives each part's result and time and the failing tests
by name; the exit status is 1 if any part failed, and an environment whose Python is missing is "not run".

The parts here are small commands of their own, one of them a pytest run with a failing test.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import make_test

FAILING = """
def test_that_holds():
    assert True

def test_that_fails():
    assert 1 == 2
"""


def _parts(tmp_path: Path) -> list[make_test.Part]:
    (tmp_path / "test_sample.py").write_text(FAILING, encoding="utf-8")
    log = tmp_path / "order.txt"
    say = lambda word: [sys.executable, "-c", f"open({str(log)!r}, 'a').write({word!r} + '\\n')"]  # noqa: E731
    return [
        make_test.Part(
            "tests",
            "a pytest run with a failing test",
            [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                str(tmp_path / "test_sample.py"),
                f"--junitxml={tmp_path / 'reports' / 'tests.xml'}",
            ],
            junit=True,
        ),
        make_test.Part(
            "broken", "a part that fails without a report", [sys.executable, "-c", "print('no luck'); exit(2)"]
        ),
        make_test.Part("later", "a part that waits for the failing one", say("later"), after=("tests",)),
        make_test.Part("absent", "an environment whose Python is missing", [sys.executable, "-c", "exit(3)"]),
        make_test.Part("last", "a part that runs alone, at the end", say("last"), alone=True),
    ]


def test_every_part_runs_and_the_summary_names_what_failed(tmp_path, capsys):
    reports = tmp_path / "reports"
    reports.mkdir()
    done = make_test.Runner(_parts(tmp_path), reports).run()
    assert {p.name for p in done} == {"tests", "broken", "later", "absent", "last"}
    assert done[-1].name == "last" and (tmp_path / "order.txt").read_text() == "later\nlast\n"
    assert [p.status for p in sorted(done, key=lambda p: p.name)] == [3, 2, 0, 0, 1]  # absent broken last later tests
    lines = make_test.summary(done, reports, 12.0)
    text = "\n".join(lines)
    assert re.search(r"FAILED +\d+:\d\d +\d+:\d\d  a pytest run with a failing test", text)
    assert "test_sample.py::test_that_fails" in text and "test_that_holds" not in text  # the failing test by name
    assert "no luck" in text  # a part without a report: its log's last lines
    assert re.search(r"not run +\d+:\d\d +\d+:\d\d  an environment whose Python is missing", text)
    assert lines[-1] == "parts: 2 passed, 2 failed, 1 skipped"
    printed = capsys.readouterr().out
    assert printed.count("== started:") == 5 and "1 failed, 1 passed" in printed  # each part's log, when it ends


def test_the_proof_has_every_part_and_the_browser_waits_for_the_site():
    parts = {p.name: p for p in make_test.parts(make_test.REPORTS)}
    assert list(parts) == [
        "site",
        "book",
        "browser-and-lab",
        "library",
        "lint",
        "floor",
        "python3.12",
        "newest",
        "bench",
    ]
    assert parts["browser-and-lab"].after == ("site",) and parts["bench"].alone
    assert all(parts[name].after == ("library",) for name in ("floor", "python3.12", "newest"))
