"""The shape of the installed library: every public module says what it exports, and nothing else comes in."""

import ast
import importlib
import importlib.resources
import pathlib
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


LIBRARY = pathlib.Path(irmeans.__file__).parent


def test_the_package_lists_its_public_names_once():
    # the imports type checkers read are the one list: __all__ and each name's module are read from them
    tree = ast.parse((LIBRARY / "__init__.py").read_text())
    assigned = {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    assert "__all__" not in assigned
    block = next(n for n in tree.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING")
    imported = [alias for node in block.body for alias in node.names]
    assert all(alias.asname == alias.name for alias in imported)  # `X as X`: given by the package, to type checkers
    assert irmeans.__all__ == [alias.name for alias in imported]
    spelled = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in irmeans.__all__]
    assert spelled == []  # no other list names them


def _modules():
    return sorted(p for p in LIBRARY.rglob("*.py") if "__pycache__" not in p.parts)


def test_no_two_library_modules_share_a_file_name_and_none_is_over_600_lines():
    names = [p.name for p in _modules() if p.name not in ("__init__.py", "__main__.py")]
    assert sorted(n for n in set(names) if names.count(n) > 1) == []
    long = {str(p.relative_to(LIBRARY)): n for p in _modules() if (n := len(p.read_text().splitlines())) > 600}
    assert long == {}


def test_trec_eval_s_floor_of_1e_5_is_defined_once():
    """Any module-level name bound to 1e-5 is either the GM floor or trec_eval's own infAP ε."""
    bound = {}
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and node.value.value == 1e-5:
                for target in node.targets:
                    bound[f"{path.relative_to(LIBRARY)}:{ast.unparse(target)}"] = node.value.value
    assert set(bound) == {"averages.py:TREC_EVAL_GM_EPS", "trec/kernels.py:INFAP_EPSILON"}
    from irmeans.averages import TREC_EVAL_GM
    from irmeans.trec.table import BY_NAME

    assert BY_NAME["gm_map"].average is TREC_EVAL_GM  # the evaluator's gm_map is the library's floor GM
    assert (TREC_EVAL_GM.eps, TREC_EVAL_GM.form) == (irmeans.TREC_EVAL_GM_EPS, "floor")


def test_the_advised_eps_of_0_01_has_one_name():
    """The ε chapter 10 advises is averages.DEFAULT_EPS, and the evaluator's extra lines and --eps take it from there."""
    import inspect

    from irmeans.averages import DEFAULT_EPS
    from irmeans.cli import build_parser
    from irmeans.trec import evaluate, table

    bound = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and node.value.value == 0.01:
                bound += [f"{path.relative_to(LIBRARY)}:{ast.unparse(target)}" for target in node.targets]
    assert bound == ["averages.py:DEFAULT_EPS"]
    assert inspect.signature(evaluate.evaluate).parameters["eps"].default is DEFAULT_EPS
    assert inspect.signature(table.parse_measures).parameters["eps"].default is DEFAULT_EPS
    assert table.BY_NAME["hm_map"].average.eps == DEFAULT_EPS
    assert build_parser("eval").parse_args(["eval", "q", "r"]).eps is DEFAULT_EPS
