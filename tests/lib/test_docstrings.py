"""Every example in the library's docstrings runs and prints what it says."""

import importlib
import pkgutil

import irmeans
import pytest
from stored_outputs import failed_examples

MODULES = ["irmeans"] + [m.name for m in pkgutil.walk_packages(irmeans.__path__, prefix="irmeans.")]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failed = failed_examples(module)  # numbers as printed on another CPU pass too (stored_outputs.py)
    assert failed == 0, f"{failed} docstring example(s) failed in {name}"
