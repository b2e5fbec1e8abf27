"""The book's package has no import cycle: its modules form layers, as the library's do.

``plots`` and ``slides`` imported each other (plots took ``FORMATS``, ``render`` and ``slide_spec`` from slides,
slides took ``controls`` from plots): a figure's controls are now a module of their own,
:mod:`irmeans_book.controls`, under both. Every import counts, at the top of a module or inside a function.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "book" / "irmeans_book"


def imports(path: Path) -> set[str]:
    """The package's modules ``path`` imports (``irmeans_book.plots``), wherever in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("irmeans_book"):
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("irmeans_book")}
    return found


def graph() -> dict[str, set[str]]:
    modules = {
        ".".join(("irmeans_book", *path.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__"): path
        for path in PACKAGE.rglob("*.py")
    }
    return {name: imports(path) & set(modules) - {name} for name, path in modules.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Each cycle of ``edges`` found by a depth-first walk, as the modules along it.

    Examples
    --------
    >>> cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}})
    [['a', 'b', 'a']]
    >>> cycles({"a": {"b"}, "b": set()})
    []
    """
    found, done = [], set()

    def walk(node, path):
        if node in path:
            found.append(path[path.index(node) :] + [node])
            return
        if node in done:
            return
        for other in sorted(edges.get(node, ())):
            walk(other, [*path, node])
        done.add(node)

    for node in sorted(edges):
        walk(node, [])
    return found


def test_the_books_package_has_no_import_cycle():
    edges = graph()
    assert "irmeans_book.controls" in edges["irmeans_book.slides"]  # the walk sees the imports
    assert not cycles(edges), cycles(edges)


def test_the_plots_and_slides_cycle_would_be_found():
    edges = graph()
    edges["irmeans_book.slides"] = edges["irmeans_book.slides"] | {"irmeans_book.plots"}
    assert ["irmeans_book.plots", "irmeans_book.slides", "irmeans_book.plots"] in cycles(edges)
