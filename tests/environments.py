"""The library's tests in the three environments besides the pinned one: the floor, Python 3.12, the newest releases.

Usage: ``python tests/environments.py NAME [--reports DIR]``, NAME one of :data:`ENVIRONMENTS` (``make environments``
runs the three; ``make test`` runs each as a part of its own).

- ``floor``: the lowest Python 3.11 found (Debian 12's is 3.11.2), with every dependency of ``pyproject.toml``, its
  extras too, at its lowest installable version: uv's ``--resolution lowest-direct``, as scikit-learn's "min
  dependencies" job does;
- ``python3.12``: Python 3.12 with the pinned set (``constraints.txt``);
- ``newest``: Python 3.13 with the newest releases ``pyproject.toml`` allows: what a fresh ``pip install`` gets.

Each is made afresh in ``_build/environments/NAME`` by uv (from its cache: seconds), with the wheel ``make dist``
built from this tree (``_build/dist``) and the pinned test tools (pytest, Hypothesis, pytrec_eval), so that only the
library's dependencies differ. The library's and the evaluator's tests run there without the property and
combination tests (``tests/conftest.py``), which run once, in the pinned environment (``make standalone``). What
runs is said first, on one line (the Python and the dependencies' versions), and written to ``DIR/NAME.txt`` for
``make test``'s summary.

A Python is looked for on ``PATH`` (``python3.12``), in ``/usr/bin`` and ``/usr/local/bin``, and among pyenv's
(``$PYENV_ROOT/versions``, by default ``~/.pyenv/versions``); uv never downloads one. Without it the environment is
not run (exit status :data:`NOT_RUN`), which is a failure when ``CI`` is set.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOME = ROOT / "_build" / "environments"
DIST = ROOT / "_build" / "dist"
REPORTS = ROOT / "_build" / "test-reports"
#: The exit status of an environment whose Python is not on this machine.
NOT_RUN = 3
#: The test tools, at their pinned versions in every environment.
TOOLS = ("pytest", "hypothesis", "pytrec-eval-terrier")
#: The library's dependencies, extras included, whose versions each environment names.
DEPENDENCIES = ("numpy", "scipy", "pyarrow", "pandas", "matplotlib")
#: What runs there: the library's and the evaluator's tests, less those that run once.
TESTS = ["tests/lib", "tests/trec", "-m", "not property and not combinations"]


@dataclass(frozen=True)
class Environment:
    """One environment: its Python's minor version, and how its dependencies are chosen."""

    python: str
    resolution: str  # "lowest" (pyproject's floors), "pinned" (constraints.txt) or "newest"
    description: str


ENVIRONMENTS = {
    "floor": Environment("3.11", "lowest", "the floor: the lowest Python 3.11 and every dependency at its lowest"),
    "python3.12": Environment("3.12", "pinned", "Python 3.12 with the pinned set"),
    "newest": Environment("3.13", "newest", "Python 3.13 with the newest releases"),
}


def _version(python: str) -> tuple[int, ...] | None:
    try:
        done = subprocess.run(
            [python, "-c", "import sys; print(*sys.version_info[:3])"], capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return tuple(int(p) for p in done.stdout.split()) if done.returncode == 0 and done.stdout.strip() else None


def pythons(minor: str) -> list[tuple[tuple[int, ...], str]]:
    """Every Python ``minor`` (``"3.12"``) that runs here, as (version, path), lowest first."""
    candidates = [shutil.which(f"python{minor}"), f"/usr/bin/python{minor}", f"/usr/local/bin/python{minor}"]
    versions = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    try:
        candidates += sorted(str(p) for p in versions.glob(f"{minor}.*/bin/python{minor}"))
    except OSError:  # a pyenv this user cannot read
        pass
    found = {}
    for candidate in filter(None, candidates):
        version = _version(candidate) if os.access(candidate, os.X_OK) else None
        if version and ".".join(map(str, version[:2])) == minor:
            found.setdefault(version, candidate)
    return sorted(found.items())


def pinned(names: tuple[str, ...]) -> list[str]:
    """``names`` as ``constraints.txt`` pins them (``pytest==8.4.2``)."""
    text = (ROOT / "constraints.txt").read_text(encoding="utf-8")
    wanted = {re.sub(r"[-_.]+", "-", n).lower() for n in names}
    found = [
        line.split(";")[0].strip()
        for line in text.splitlines()
        if "==" in line and re.sub(r"[-_.]+", "-", line.split("==")[0]).strip().lower() in wanted
    ]
    if len(found) != len(names):
        raise SystemExit(f"constraints.txt pins {found}, not all of {names}")
    return found


def _run(command: list[str], **kwargs) -> None:
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")


def make(environment: Environment, python: str, venv: Path) -> Path:
    """Make ``venv`` afresh with ``python``, the wheel of ``make dist`` and ``environment``'s dependencies; return
    its Python."""
    uv = str(Path(sys.executable).with_name("uv"))
    wheels = sorted(DIST.glob("irmeans-*.whl"))
    if len(wheels) != 1:
        raise SystemExit(f"{DIST} holds {len(wheels)} wheels of irmeans, not one: run make dist first")
    shutil.rmtree(venv, ignore_errors=True)
    env = dict(os.environ, UV_PYTHON_DOWNLOADS="never", UV_SYSTEM_CERTS="true")  # as the Makefile sets them
    _run([uv, "venv", "--quiet", "--python", python, str(venv)], env=env)
    install = [uv, "pip", "install", "--quiet", "--python", str(venv / "bin" / "python")]
    tools, library = pinned(TOOLS), f"{wheels[0]}[plot,pandas]"
    if environment.resolution == "lowest":
        floors = ["--resolution", "lowest-direct", "-r", "pyproject.toml", "--extra", "plot", "--extra", "pandas"]
        _run([*install, *floors, *tools], cwd=ROOT, env=env)
        _run([*install, "--no-deps", str(wheels[0])], cwd=ROOT, env=env)
    elif environment.resolution == "pinned":
        _run([*install, "-c", "constraints.txt", library, *tools], cwd=ROOT, env=env)
    else:
        _run([*install, library, *tools], cwd=ROOT, env=env)
    return venv / "bin" / "python"


def describe(python: Path) -> str:
    """The Python of an environment and its dependencies' versions, on one line."""
    script = (
        "import importlib.metadata as m, platform, sys; "
        f"print(f'Python {{platform.python_version()}} ({{sys._base_executable}}),', "
        f"', '.join(f'{{n}} {{m.version(n)}}' for n in {DEPENDENCIES!r}))"
    )
    return subprocess.run([str(python), "-c", script], capture_output=True, text=True, check=True).stdout.strip()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name", choices=list(ENVIRONMENTS))
    parser.add_argument("--reports", type=Path, default=REPORTS, help="where the JUnit report and NAME.txt go")
    args = parser.parse_args(argv)
    environment = ENVIRONMENTS[args.name]
    args.reports.mkdir(parents=True, exist_ok=True)
    said = args.reports / f"{args.name}.txt"
    found = pythons(environment.python)
    if not found:
        where = f"python{environment.python} on PATH, /usr/bin, /usr/local/bin, pyenv's versions"
        line = f"not run: no Python {environment.python} here (looked for {where})"
        said.write_text(line + "\n", encoding="utf-8")
        if os.environ.get("CI"):
            print(f"{args.name}: {line}; CI needs it", file=sys.stderr)
            return 1
        print(f"{args.name}: {line}")
        return NOT_RUN
    _, python = found[0] if environment.resolution == "lowest" else found[-1]
    made = make(environment, python, HOME / args.name)
    line = describe(made)
    said.write_text(line + "\n", encoding="utf-8")
    print(f"{args.name}, {environment.description}: {line}", flush=True)
    junit = f"--junitxml={args.reports / args.name}.xml"
    tests = [str(made), "-m", "pytest", *TESTS, "-q", "-p", "no:cacheprovider", junit]
    return subprocess.run(tests, cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
