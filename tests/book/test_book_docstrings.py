"""Every example in the book package's docstrings runs and prints what it says."""

import importlib
import pkgutil

import irmeans_book
import pytest
from stored_outputs import failed_examples

MODULES = ["irmeans_book"] + [m.name for m in pkgutil.walk_packages(irmeans_book.__path__, prefix="irmeans_book.")]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failed = failed_examples(module)  # numbers as printed on another CPU pass too (stored_outputs.py)
    assert failed == 0, f"{failed} docstring example(s) failed in {name}"
