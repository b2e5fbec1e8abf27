"""Each test folder is a layer, marked by its name: ``pytest -m lib`` or ``pytest tests/lib``."""

import pytest

LAYERS = ("lib", "trec", "book", "browser", "lab")


def pytest_collection_modifyitems(items):
    for item in items:
        parts = item.path.parts
        for layer in LAYERS:
            if "tests" in parts and layer in parts[parts.index("tests") + 1 : parts.index("tests") + 2]:
                item.add_marker(getattr(pytest.mark, layer))


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
