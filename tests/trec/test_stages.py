"""The library's modules import one another without a cycle, each part of it only the parts below, and the
evaluator's stages only those before them.

Imports are read from the source (every ``import``, at the top, in a function or for the type
checker alone), so a cycle hidden in a function or behind ``TYPE_CHECKING`` counts too.  The
library's parts stand on one another (:data:`PARTS`): a module imports only modules of its own
part or of the parts below, and the split-half experiment and the comparison, side by side,
not each other.  The evaluator is read → rank and join → measure → average → pipeline: each
of its modules may import only modules of its own stage or the stages before it.  ``irmeans
eval`` loads only what it uses: none of the consistency command's modules.
"""

import ast
import pathlib
import subprocess
import sys

import irmeans
import pytest

LIBRARY = pathlib.Path(irmeans.__file__).parent

#: The evaluator's modules, stage by stage (a module may import its own stage's and earlier ones').
STAGES = [
    ("shared", ["strings", "arrow_buffers"]),
    ("read", ["ahead", "source", "tokens", "arrow", "duplicates", "files", "run_blocks", "inputs"]),
    ("rank and join", ["ranked", "ranking", "join"]),
    ("measure", ["segments", "gains", "context", "kernels", "table", "measure"]),
    ("average", ["summary"]),
    ("pipeline", ["evaluate"]),
]
#: The library's parts, from the bottom up: each a list of modules or packages (a package with every module in
#: it); those in one part's inner list stand side by side and import nothing of each other.
PARTS = [
    [["irmeans._display"]],  # names shown safely, in every output and message
    [["irmeans.errors", "irmeans.number_syntax", "irmeans._numeric", "irmeans._validation", "irmeans._progress"]],
    [["irmeans._python_input"]],  # what the Python API is given, read as the files are
    [["irmeans.averages", "irmeans.means", "irmeans.measures"]],  # the teaching API
    [["irmeans.trec"]],  # the evaluator
    [["irmeans.score_matrix", "irmeans.datasets"]],
    [["irmeans.consistency"], ["irmeans.comparison"]],  # side by side
    [["irmeans.cli"]],
    [["irmeans"]],  # the package's one public face
]
#: What ``irmeans eval`` never needs: the consistency command and the modules only it uses.
CONSISTENCY = {
    "irmeans.cli.consistency_command",
    "irmeans.cli.compare_command",
    "irmeans.consistency",
    "irmeans.consistency.experiment",
    "irmeans.consistency.halves",
    "irmeans.consistency.topics",
    "irmeans.consistency.kendall",
    "irmeans.comparison",
    "irmeans.comparison.significance",
    "irmeans._progress",
    "irmeans.measures",
    "irmeans.means",
    "irmeans.datasets",
}


def modules(root=LIBRARY):
    """Every module of the library: dotted name -> (path, is a package)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if package else parts)] = (path, package)
    return out


def import_graph(root=LIBRARY):
    """Module -> the library modules it imports anywhere in its source."""
    known = modules(root)
    graph = {}
    for name, (path, package) in known.items():
        here = name.split(".") if package else name.split(".")[:-1]
        deps = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name in known)
            elif isinstance(node, ast.ImportFrom):
                base = here[: len(here) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                for a in node.names:
                    deps.add(f"{target}.{a.name}" if f"{target}.{a.name}" in known else target)
        graph[name] = (deps & set(known)) - {name}
    return graph


def cycles(graph):
    """The import cycles of ``graph``, each as a list of modules (the first repeated at the end)."""
    state, stack, found = {}, [], []

    def visit(u):
        state[u] = "open"
        stack.append(u)
        for v in sorted(graph[u]):
            if state.get(v) == "open":
                found.append(stack[stack.index(v) :] + [v])
            elif v not in state:
                visit(v)
        stack.pop()
        state[u] = "done"

    for m in sorted(graph):
        if m not in state:
            visit(m)
    return found


def test_no_library_module_imports_another_in_a_cycle():
    assert cycles(import_graph()) == []


def test_a_cycle_is_found_where_there_is_one(tmp_path):
    # the check itself can fail: two modules importing each other, one of them for the type checker alone
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n")
    (pkg / "b.py").write_text("def f():\n    from . import a\n")
    assert cycles(import_graph(pkg)) == [["pkg.a", "pkg.b", "pkg.a"]]


def part_of(module):
    """(floor, side) of a library module in :data:`PARTS`, from its longest listed prefix."""
    best = None
    for floor, sides in enumerate(PARTS):
        for side, names in enumerate(sides):
            for name in names:
                if (module == name or module.startswith(name + ".")) and (best is None or len(name) > best[0]):
                    best = (len(name), floor, side)
    assert best is not None, f"{module} has no part"
    return best[1], best[2]


def test_each_part_of_the_library_imports_only_its_own_and_the_parts_below():
    graph = import_graph()
    up = sorted(
        (m, d)
        for m, deps in graph.items()
        for d in deps - {"irmeans"}  # the package itself, for its __version__: it imports every module lazily
        if part_of(d)[0] > part_of(m)[0] or (part_of(d)[0] == part_of(m)[0] and part_of(d)[1] != part_of(m)[1])
    )
    assert up == []


def test_an_import_from_a_part_above_is_found():
    # the check itself can fail: the teaching API importing the comparison
    graph = {"irmeans.averages": {"irmeans.comparison.compare"}, "irmeans.comparison.compare": set()}
    assert [m for m, deps in graph.items() for d in deps if part_of(d)[0] > part_of(m)[0]] == ["irmeans.averages"]
    assert part_of("irmeans.consistency.kendall")[0] == part_of("irmeans.comparison.tables")[0]


def test_each_stage_of_the_evaluator_imports_only_its_own_and_earlier_stages():
    graph = import_graph()
    rank = {f"irmeans.trec.{m}": k for k, (_, names) in enumerate(STAGES) for m in names}
    trec = {m for m in graph if m.startswith("irmeans.trec.")}
    assert trec == set(rank), "every module of the evaluator has its stage"
    later = {(m, d) for m in trec for d in graph[m] if d in rank and rank[d] > rank[m]}
    assert later == set()
    assert not {d for m in trec for d in graph[m] if d.startswith("irmeans.cli")}, "the library never prints"


@pytest.mark.parametrize("measures", [["-m", "map"], []])
def test_irmeans_eval_loads_none_of_the_consistency_modules(tmp_path, measures):
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text("1 0 a 1\n1 0 b 0\n2 0 c 1\n")
    r.write_text("1 Q0 a 1 2 run\n1 Q0 b 2 1 run\n2 Q0 c 1 1 run\n")
    code = (
        "import sys, io, irmeans.cli; sys.stdout = io.StringIO(); "
        f"status = irmeans.cli.main(['eval', *{measures!r}, {str(q)!r}, {str(r)!r}]); "
        "sys.stdout = sys.__stdout__; print(status); print(' '.join(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0] == "0"
    loaded = set(out[1].split())
    assert "irmeans.cli.eval_command" in loaded
    assert loaded & CONSISTENCY == set()
