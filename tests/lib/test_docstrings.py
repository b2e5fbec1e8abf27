"""Every example in the library's docstrings runs and prints what it says."""

import importlib
import inspect
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


def _doc(member):
    """The docstring of a class's member (a function, a property, a static or class method), or ""."""
    function = member.fget if isinstance(member, property) else getattr(member, "__func__", member)
    return (function.__doc__ or "").strip() if inspect.isfunction(function) else ""


def _undocumented(module):
    """The public functions of ``module``, and the public methods and properties of its public classes, that it
    defines without a docstring: of their own, or of the method they override (which ``help`` and the API
    reference show)."""
    missing = []
    for name, obj in vars(module).items():
        if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
            continue  # private, or imported from elsewhere: checked in its own module
        if inspect.isfunction(obj) and not (obj.__doc__ or "").strip():
            missing.append(name)
        if inspect.isclass(obj):
            if not (obj.__doc__ or "").strip():
                missing.append(name)
            for attr, member in vars(obj).items():
                function = member.fget if isinstance(member, property) else getattr(member, "__func__", member)
                if attr.startswith("_") or not inspect.isfunction(function) or _doc(member):
                    continue
                if not any(_doc(vars(base).get(attr)) for base in obj.__mro__[1:]):
                    missing.append(f"{name}.{attr}")
    return missing


@pytest.mark.parametrize("name", [m for m in MODULES if not any(p.startswith("_") for p in m.split("."))])
def test_public_names_have_docstrings(name):
    assert _undocumented(importlib.import_module(name)) == []


def test_an_undocumented_method_is_found():
    class Base:
        """A class."""

        def documented(self):
            """Says what it does."""

    class Shown(Base):
        """A subclass."""

        def documented(self):  # the overridden method's docstring stands
            pass

        def bare(self):
            pass

        @property
        def bare_property(self):
            return 1

    module = type(irmeans)("irmeans_example")
    Shown.__module__ = module.__name__
    module.Shown = Shown
    assert _undocumented(module) == ["Shown.bare", "Shown.bare_property"]
