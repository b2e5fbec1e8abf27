"""Every example in the book package's docstrings runs and prints what it says."""

import doctest
import importlib
import pkgutil

import irmeans_book
import pytest

MODULES = ["irmeans_book"] + [m.name for m in pkgutil.walk_packages(irmeans_book.__path__, prefix="irmeans_book.")]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
