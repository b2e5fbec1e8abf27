"""The 15-slowest summary lists a fixture shared by many tests on a line of its own (tests/slowest.py).

The browser tests' tour of the site is one session fixture: pytest times it in the setup of the test that asks
for it first, which then looked like the slowest test of all. Here a real pytest run of a shared fixture that
records itself as the tour does (tests/browser/conftest.py) is read back.
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
import slowest  # noqa: E402 - a script of the tests', not an installed module

SUITE = """
import os
import time

import pytest


@pytest.fixture(scope="session")
def shared(record_testsuite_property):
    asked_by = os.environ["PYTEST_CURRENT_TEST"].rsplit(" ", 1)[0]
    time.sleep(0.6)
    record_testsuite_property("shared_fixture:tour", f"0.6 {asked_by}")


@pytest.mark.parametrize("n", [1, 2])
def test_reads_the_tour(shared, n):
    pass


def test_alone():
    time.sleep(0.2)
"""


def test_a_shared_fixture_is_listed_on_its_own_and_taken_off_the_test_that_asked_first(tmp_path):
    (tmp_path / "test_suite.py").write_text(SUITE, encoding="utf-8")
    report = tmp_path / "browser.xml"
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}", "test_suite.py"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
    )
    found = dict((name, seconds) for seconds, name in slowest.slowest([report], 10))
    assert found["browser: the shared fixture tour, set up for test_suite.py::test_reads_the_tour[1]"] == 0.6
    reported = {case.get("name"): float(case.get("time")) for case in ET.parse(report).getroot().iter("testcase")}
    assert reported["test_reads_the_tour[1]"] >= 0.6  # as pytest counts it: the tour in its setup
    # The first reader no longer carries the tour's time; the others are as reported.
    assert found["browser: test_suite::test_reads_the_tour[1]"] == max(0.0, reported["test_reads_the_tour[1]"] - 0.6)
    assert found["browser: test_suite::test_reads_the_tour[2]"] == reported["test_reads_the_tour[2]"]
    assert found["browser: test_suite::test_alone"] == reported["test_alone"]
    assert len(found) == 4
