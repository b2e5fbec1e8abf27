"""The project's version is written once, as ``irmeans.__version__``: pyproject.toml reads it from there."""

from __future__ import annotations

import importlib.metadata
import tomllib
from pathlib import Path

import irmeans

ROOT = Path(__file__).resolve().parents[2]


def _project(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))["project"]


def test_pyproject_takes_its_version_from_the_library():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in config["project"] and "version" in config["project"]["dynamic"]
    assert config["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "irmeans.__version__"}


def test_the_installed_package_is_that_version():
    # Stale metadata means the environment was not reinstalled after the version changed (make venv does it).
    assert importlib.metadata.version("irmeans") == irmeans.__version__


def test_the_book_package_declares_no_second_version():
    book = _project(ROOT / "book" / "pyproject.toml")
    assert "version" in book.get("dynamic", []) or book["version"] == "0", (
        "book/pyproject.toml's version is a placeholder: the project's version is irmeans.__version__"
    )
