"""Each test folder is a layer, marked by its name: ``pytest -m lib`` or ``pytest tests/lib``."""

import pytest

LAYERS = ("lib", "trec", "book", "browser", "lab")


def pytest_collection_modifyitems(items):
    for item in items:
        parts = item.path.parts
        for layer in LAYERS:
            if "tests" in parts and layer in parts[parts.index("tests") + 1 : parts.index("tests") + 2]:
                item.add_marker(getattr(pytest.mark, layer))
