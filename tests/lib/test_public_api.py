"""The shape of the installed library: every public module says what it exports, and nothing else comes in."""

import importlib
import importlib.resources
import pkgutil
import subprocess
import sys

import irmeans
import pytest

MODULES = ["irmeans"] + [
    m.name
    for m in pkgutil.walk_packages(irmeans.__path__, prefix="irmeans.")
    if not m.name.rsplit(".", 1)[1].startswith("_")
]


@pytest.mark.parametrize("name", MODULES)
def test_every_public_module_declares_all_and_each_name_exists(name):
    module = importlib.import_module(name)
    assert hasattr(module, "__all__"), f"{name} has no __all__"
    missing = [n for n in module.__all__ if not hasattr(module, n)]
    assert not missing, f"{name}.__all__ names {missing}, which it does not define"


def test_the_package_is_typed():
    assert (importlib.resources.files("irmeans") / "py.typed").is_file()


def test_importing_irmeans_brings_in_only_its_dependencies():
    code = (
        "import sys, irmeans, irmeans.cli, irmeans.trec.evaluate; "
        "print(sorted({'pandas', 'altair', 'ipywidgets', 'irmeans_book', 'matplotlib'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_package_s_names_are_its_modules_names():
    assert sorted(irmeans.__all__) == sorted(irmeans._MODULE_OF)
    for name in irmeans.__all__:
        module = importlib.import_module(f"irmeans.{irmeans._MODULE_OF[name]}")
        assert getattr(irmeans, name) is getattr(module, name)
