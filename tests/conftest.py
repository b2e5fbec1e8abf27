"""Each test folder is a layer, marked by its name: ``pytest -m lib`` or ``pytest tests/lib``.

Every Hypothesis test is marked ``property`` too. ``make test`` runs the property tests and those marked
``combinations`` (tests that go through many combinations of options) once, in the pinned environment, and leaves
them out of the other environments it runs the library's tests in (``-m "not property and not combinations"``):
they search the same inputs whatever the versions, and they cost about two fifths of the library's tests.
"""

import pytest
from hypothesis import is_hypothesis_test

LAYERS = ("lib", "trec", "book", "browser", "lab")


def pytest_collection_modifyitems(items):
    for item in items:
        parts = item.path.parts
        for layer in LAYERS:
            if "tests" in parts and layer in parts[parts.index("tests") + 1 : parts.index("tests") + 2]:
                item.add_marker(getattr(pytest.mark, layer))
        if is_hypothesis_test(getattr(item, "obj", None)):
            item.add_marker(pytest.mark.property)


@pytest.fixture(scope="session")
def playwright():
    """One Playwright for the whole run: its sync API runs an event loop in this thread, so the browser
    tests and the JupyterLab tests each launch their Chromium from it rather than start a second one."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright):
    """Debian's Chromium, driven by Playwright, one for the whole run (the site's tests and JupyterLab's);
    a missing browser is a failure, not a skip. The tests never download a browser of their own."""
    from irmeans_book import chromium

    if not chromium.EXECUTABLE.is_file():
        pytest.fail(chromium.missing_message(), pytrace=False)
    launched = playwright.chromium.launch(executable_path=str(chromium.EXECUTABLE), args=chromium.ARGS)
    yield launched
    launched.close()


@pytest.fixture(autouse=True)
def _no_progress_bars(request, monkeypatch):
    """No progress bar in any test's output, however slow the machine: a bar appears after two seconds of work,
    and tests compare standard error exactly. The tests of the bars themselves are marked ``progress``."""
    if request.node.get_closest_marker("progress") is None:
        monkeypatch.setenv("IRMEANS_PROGRESS", "off")
