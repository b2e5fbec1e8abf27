"""Fixtures of the browser tests: the built and served site, Chromium, and one visit of every page."""

from __future__ import annotations

import json
import os
import shutil
import time

import pytest
import sitetools
from visit import tour as take_the_tour


@pytest.fixture(scope="session")
def site():
    """``_build/html``, rebuilt first if a source changed since the last good build."""
    try:
        sitetools.build_site()
    except RuntimeError as e:
        pytest.fail(str(e), pytrace=False)
    found = sitetools.pages(sitetools.SITE)
    assert found, f"no page in {sitetools.SITE}"
    return sitetools.SITE


@pytest.fixture(scope="session")
def base_url(site):
    with sitetools.serve(site) as url:
        yield url


@pytest.fixture(scope="session")
def output_dir(site):
    """The folder screenshots and the report are written to, emptied once per run."""
    shutil.rmtree(sitetools.OUTPUT, ignore_errors=True)
    sitetools.OUTPUT.mkdir(parents=True)
    print(f"\nscreenshots of the site: {sitetools.OUTPUT}")
    return sitetools.OUTPUT


@pytest.fixture(scope="session")
def tour(site, base_url, browser, output_dir, record_testsuite_property):
    """Every page at each width, light then dark, with every reading the test modules registered (visit.py).

    Its time is counted in the setup of the test that asks for it first; the JUnit report says so (a suite
    property, ``shared_fixture:tour``), and tests/slowest.py lists the tour on a line of its own."""
    asked_by = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0]
    start = time.monotonic()
    done = take_the_tour(browser, base_url, sitetools.pages(site), output_dir)
    record_testsuite_property("shared_fixture:tour", f"{time.monotonic() - start:.3f} {asked_by}")
    seconds = dict(sorted(done.seconds.items(), key=lambda item: -item[1]))
    (output_dir / "tour-seconds.json").write_text(json.dumps(seconds, indent=1), encoding="utf-8")
    return done
