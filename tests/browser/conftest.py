"""Fixtures of the browser tests: the built and served site, Chromium, and one visit of every page."""

from __future__ import annotations

import shutil

import pytest
import sitetools
from visit import visit_all


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
def browser(site, playwright):
    """Debian's Chromium, driven by Playwright; a missing browser is a failure, not a skip.

    After ``site``: building the site runs ``npm ci``, which installs axe-core.
    """
    if not sitetools.CHROMIUM.is_file():
        pytest.fail(
            sitetools.chromium_missing(),
            pytrace=False,
        )
    if not sitetools.AXE.is_file():
        pytest.fail(f"{sitetools.AXE} is missing: run `npm ci`", pytrace=False)
    chromium = playwright.chromium.launch(executable_path=str(sitetools.CHROMIUM), args=sitetools.CHROMIUM_ARGS)
    yield chromium
    chromium.close()


@pytest.fixture(scope="session")
def visits(site, base_url, browser, output_dir):
    """Every page of the site opened once in light mode: what it logged, loaded, linked and lacked."""
    return visit_all(browser, base_url, sitetools.pages(site), output_dir)
