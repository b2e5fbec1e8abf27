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
import os
import re
import shutil
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

import pytest
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
    "uv",
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
]
#: The project's own modules, which no distribution of the index provides.
OWN = {"irmeans", "irmeans_book", "make_figures", "execute_notebooks", "lab"}
#: Modules of the book's package that only the site's build and its tests import: the browser the PDF is printed
#: with (playwright, through make_pdf and tests/browser).
BUILD_ONLY = {"irmeans_book/chromium.py"}
#: Imports of the code a reader runs that only the site's build reaches: none.
SITE_ONLY_IMPORTS: dict[str, set[str]] = {}


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
    assert stamp and "$(UV_INSTALL) -r requirements-book.txt" in stamp.group(1)
    assert "-r requirements.txt" not in stamp.group(1)


# ---------------------------------------------------------------------------
# What make asks of the machine: the Python, the system's packages, a .venv/ that runs
# ---------------------------------------------------------------------------

SYSTEM = ROOT / "book" / "scripts" / "system_packages.py"
#: The recipe lines make runs for a .venv/ it makes again.
REMADE = ".venv/bin/python cannot run: making .venv/ again"


def _stamped_tree(tmp_path: Path, python: Path | None) -> Path:
    """A folder with the Makefile, the files its .venv/ stamps depend on, and a .venv/ stamped after them, whose
    bin/python is a link to ``python`` (None: to nothing, as in a clone copied from a user whose Python the copier
    cannot read)."""
    tree = tmp_path / "clone"
    for name in ["Makefile", "requirements.txt", "requirements-book.txt", "constraints.txt", "pyproject.toml"]:
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tree / name)
    for name in ["book/pyproject.toml", "book/lab/pyproject.toml"]:
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_text("", encoding="utf-8")
    (tree / ".venv" / "bin").mkdir(parents=True)
    (tree / ".venv" / "bin" / "python").symlink_to(python or tmp_path / "unreadable" / "python3.11")
    for stamp in (".installed", ".installed-book"):
        (tree / ".venv" / stamp).touch()
    later = time.time() + 60
    for stamp in (".installed", ".installed-book"):
        os.utime(tree / ".venv" / stamp, (later, later))
    return tree


@pytest.mark.parametrize("target", ["venv", "reader"])
def test_a_venv_whose_python_cannot_run_is_made_again_whatever_its_stamps_say(tmp_path, target):
    broken = _stamped_tree(tmp_path / "broken", None)
    planned = subprocess.run(["make", "-n", target], cwd=broken, capture_output=True, text=True, check=True).stdout
    assert REMADE in planned and "rm -rf .venv" in planned and "-m venv .venv" in planned
    sound = _stamped_tree(tmp_path / "sound", Path(sys.executable))
    planned = subprocess.run(["make", "-n", target], cwd=sound, capture_output=True, text=True, check=True).stdout
    assert "cannot run" not in planned and "pip install" not in planned, planned  # stamped, and it runs: kept


def _system(purpose: str, path: Path, ci: bool) -> subprocess.CompletedProcess:
    env = {"PATH": str(path), "HOME": os.environ.get("HOME", "/"), **({"CI": "true"} if ci else {})}
    return subprocess.run([sys.executable, str(SYSTEM), "--for", purpose], capture_output=True, text=True, env=env)


def test_what_the_system_lacks_is_named_with_the_one_apt_get_line(tmp_path):
    # Nothing on PATH (and so no apt-get to install with, even as root): each package named, make stops.
    done = _system("book", tmp_path, ci=False)
    assert done.returncode == 1
    for package in ("nodejs", "npm", "chromium", "poppler-utils"):
        assert f"system: missing: {package}, for" in done.stderr
    assert "texlive" not in done.stderr.split("as root")[0]  # the book needs no pdflatex
    line = "as root or with sudo, on Debian or Ubuntu: sudo apt-get install nodejs npm chromium poppler-utils "
    assert line + "python3-venv texlive-latex-recommended" in done.stderr and "elsewhere" in done.stderr


def test_pdflatex_missing_warns_and_fails_only_in_ci(tmp_path):
    """Everything but pdflatex on PATH: the book is fine, the tests are warned about, CI fails."""
    needed = ["node", "npm", "pdftohtml", "pdftotext", "pdftoppm"]
    for name in needed:
        if shutil.which(name) is None:
            pytest.fail(f"{name} is not on this machine's PATH: make system installs it")
        (tmp_path / name).symlink_to(shutil.which(name))
    from irmeans_book import chromium

    (tmp_path / "chromium").symlink_to(chromium.EXECUTABLE)
    assert _system("book", tmp_path, ci=False).returncode == 0
    tests = _system("test", tmp_path, ci=False)
    assert tests.returncode == 0 and "texlive-latex-recommended, for compiling the LaTeX tables" in tests.stderr
    assert "a warning" in tests.stderr and f"system: browser {tmp_path / 'chromium'}" in tests.stdout
    assert _system("test", tmp_path, ci=True).returncode == 1


def test_a_python_older_than_the_floor_is_refused_in_one_line():
    sys.path.insert(0, str(SYSTEM.parent))
    import system_packages

    assert system_packages.too_old(sys.version_info, sys.executable) is None
    said = system_packages.too_old((3, 10, 12), "/usr/bin/python3")
    assert said.startswith("irmeans needs Python 3.11 or later;") and "\n" not in said
    requires = re.search(r'^requires-python = ">=(\d+)\.(\d+)"$', (ROOT / "pyproject.toml").read_text(), re.M)
    assert tuple(map(int, requires.groups())) == system_packages.FLOOR
