"""A reader's environment apart from the developer's: `make lab` and `make chapter` install what reading the
chapters needs (requirements-book.txt), not the site's build, the tests' tools or the release's; the developer's
set (requirements.txt, `make venv`) is the reader's with those on top, and constraints.txt pins both.

The reader's set is followed through the installed packages' own requirements (the project's environment holds
both sets), so that a developer's tool pulled in by a reading package counts too; and everything the chapters
and the code a reader runs import must be in it.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from importlib import metadata
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
READER = ROOT / "requirements-book.txt"
DEVELOPER = ROOT / "requirements.txt"
#: What a reader never needs: the site's build, the tests, the type checker and linter, the release, the
#: benchmarks' peers (benchmarks/requirements.txt).
DEVELOPERS_ONLY = {
    "jupyter-book",
    "sphinx",
    "sphinx-exercise",
    "sphinxcontrib-bibtex",
    "pypdf",
    "playwright",
    "mypy",
    "ruff",
    "pytest",
    "hypothesis",
    "nbval",
    "pytrec-eval-terrier",
    "build",
    "twine",
    "ranx",
    "ir-measures",
}
#: What reading needs, whatever else the set holds: the issue's list, and the slides' renderer.
READING = {
    "irmeans",
    "irmeans-book",
    "irmeans-lab-settings",
    "altair",
    "ipywidgets",
    "ipykernel",
    "jupyterlab",
    "jupyterlab-myst",
    "vl-convert-python",
}
#: The code a reader runs besides the chapters: the book's package, `make lab`, `make chapter`, `make figures`.
READERS_CODE = [
    *sorted((ROOT / "book" / "irmeans_book").rglob("*.py")),
    ROOT / "book" / "scripts" / "lab.py",
    ROOT / "book" / "scripts" / "execute_notebooks.py",
    ROOT / "book" / "scripts" / "make_figures.py",
    ROOT / "book" / "extensions" / "irmeans_kernel.py",
]
#: The project's own modules, which no distribution of the index provides.
OWN = {"irmeans", "irmeans_book", "irmeans_kernel", "make_figures", "execute_notebooks", "lab"}
#: Modules of the book's package that only the site's build and its tests import: the browser the PDF is printed
#: with (playwright, through make_pdf and tests/browser).
BUILD_ONLY = {"irmeans_book/chromium.py"}
#: Imports of the code a reader runs that only the site's build reaches: the kernel manager's Sphinx setup().
SITE_ONLY_IMPORTS = {"book/extensions/irmeans_kernel.py": {"myst_nb", "jupyter_cache"}}


def _requirements(path: Path) -> tuple[list[str], list[str]]:
    """The files a requirements file includes (-r), and the names of what it requires (editable paths by their
    project's name)."""
    included, names = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split(" #")[0].strip()
        if not line or line.startswith("#") or line.startswith("-c "):
            continue
        if line.startswith("-r "):
            included.append(line[3:].strip())
            continue
        target = line.removeprefix("-e ").strip()
        if target.startswith((".", "/")):
            text = (ROOT / target / "pyproject.toml").read_text(encoding="utf-8")
            names.append(re.search(r'^name = "([^"]+)"', text, re.M).group(1))
        else:
            names.append(Requirement(target).name)
    return included, [canonicalize_name(n) for n in names]


def _closure(names: list[str]) -> set[str]:
    """``names`` and everything their installed distributions require, on this platform, without extras."""
    environment = {**default_environment(), "extra": ""}
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = canonicalize_name(todo.pop())
        if name in seen:
            continue
        seen.add(name)
        for text in metadata.requires(name) or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate(environment):
                todo.append(requirement.name)
    return seen


def _imported(source: str) -> set[str]:
    """The top-level modules ``source`` imports, at any depth (an import inside a function counts)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def _chapters_code() -> str:
    cells = []
    for path in sorted((ROOT / "chapters").glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                source = "".join(cell["source"])
                cells.append(
                    "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))
                )
    return "\n".join(cells)


def test_the_developers_set_is_the_readers_with_more_on_top():
    included, _ = _requirements(DEVELOPER)
    assert included == [READER.name]
    for path in (READER, DEVELOPER):
        assert "-c constraints.txt" in path.read_text(encoding="utf-8").splitlines(), path.name


def test_the_readers_set_has_what_reading_needs_and_no_developers_tool():
    included, names = _requirements(READER)
    assert not included
    reading = _closure(names)
    assert READING <= reading, READING - reading
    pulled = DEVELOPERS_ONLY & reading
    assert not pulled, f"requirements-book.txt brings the developer's {sorted(pulled)}"
    # ... which the developer's set does bring (the names above are real, and installed here).
    _, more = _requirements(DEVELOPER)
    assert DEVELOPERS_ONLY - {"ranx", "ir-measures"} <= _closure(names + more)


def test_everything_a_reader_runs_imports_is_in_the_readers_set():
    reading = _closure(_requirements(READER)[1])
    providers = metadata.packages_distributions()
    sources = {"the chapters": _chapters_code()}
    sources |= {
        str(path.relative_to(ROOT)): path.read_text(encoding="utf-8")
        for path in READERS_CODE
        if path.relative_to(ROOT / "book").as_posix() not in BUILD_ONLY
    }
    missing = {}
    for where, source in sources.items():
        for module in _imported(source) - OWN - set(sys.stdlib_module_names) - SITE_ONLY_IMPORTS.get(where, set()):
            dists = {canonicalize_name(d) for d in providers.get(module, [])}
            if not dists & reading:
                missing.setdefault(where, []).append(f"{module} ({', '.join(sorted(dists)) or 'not installed'})")
    assert not missing, missing


def test_make_lab_and_make_chapter_set_up_the_readers_environment_not_the_developers():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = {m.group(1): m.group(2).split() for m in re.finditer(r"^([\w.-]+):(?!=)(.*)$", makefile, re.M)}
    for target in ("lab", "chapter"):
        assert targets[target] == ["reader"], f"make {target} depends on {targets[target]}"
    stamp = re.search(r"^\$\(READER_STAMP\):.*\n((?:\t.*\n)+)", makefile, re.M)
    assert stamp and "pip install --quiet -r requirements-book.txt" in stamp.group(1)
    assert "-r requirements.txt" not in stamp.group(1)
