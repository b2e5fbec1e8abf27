"""The project's version is written once: pyproject.toml's, which the library's ``__version__`` must match."""

from __future__ import annotations

import importlib.metadata
import tomllib
from pathlib import Path

import irmeans

ROOT = Path(__file__).resolve().parents[2]


def _project(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))["project"]


def test_the_library_says_the_version_pyproject_declares():
    declared = _project(ROOT / "pyproject.toml")["version"]
    assert irmeans.__version__ == declared, (
        f"pyproject.toml says {declared}, irmeans.__version__ {irmeans.__version__}: change both, or make one read the other"
    )


def test_the_installed_package_is_that_version():
    # Stale metadata means the environment was not reinstalled after the version changed (make venv does it).
    assert importlib.metadata.version("irmeans") == irmeans.__version__


def test_the_book_package_declares_no_second_version():
    book = _project(ROOT / "book" / "pyproject.toml")
    assert "version" in book.get("dynamic", []) or book["version"] == "0", (
        "book/pyproject.toml's version is a placeholder: the project's version is pyproject.toml's"
    )
