"""`make system`: what the book and its tests need from the system, found, installed or named.

Usage: ``python3 book/scripts/system_packages.py [--for book|test]``, by the Python that makes ``.venv/`` (it needs
nothing of it). ``make book`` asks for the book's needs, ``make test`` for the tests' too.

Each need is a Debian package (its name on Debian and Ubuntu) and what stands for it on the machine:

- ``nodejs``, ``npm``: the site's JavaScript comes from npm (``package-lock.json``);
- ``chromium``: the browser the PDFs are printed with and the browser tests run in, found by name
  (:mod:`irmeans_book.chromium`: chromium, chromium-browser, google-chrome... or ``IRMEANS_CHROMIUM``);
- ``poppler-utils``: ``pdftohtml`` reads the PDFs' outline, ``pdftotext`` and ``pdftoppm`` their text and pages;
- ``python3-venv``: the Python's ``venv`` and ``ensurepip``, which make ``.venv/``;
- ``texlive-latex-recommended`` (the tests only): ``pdflatex`` with ``booktabs``, which compile the LaTeX tables
  of ``irmeans compare``.

The Python itself comes first: older than :data:`FLOOR`, it is refused in one line, before any work.
Everything found: one line, naming the browser used. Something missing: as root, with ``apt-get``, it is
installed (CI on a fresh machine); otherwise the missing packages are named with the one ``apt-get`` line a root
or sudo user runs, and what to install elsewhere, and the exit status is 1, except for what the book does not need
(``pdflatex``) outside CI (``CI`` set), which is a warning: the tests that compile LaTeX fail then.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Any

#: The lowest Python the project supports (pyproject.toml's requires-python): Debian 12's is 3.11.2.
FLOOR = (3, 11)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def _commands(*names: str) -> Callable[[], str | None]:
    def found() -> str | None:
        paths = [shutil.which(name) for name in names]
        return ", ".join(paths) if all(paths) else None  # type: ignore[arg-type]  # all found: no None

    return found


def _browser() -> str | None:
    from irmeans_book import chromium

    return chromium.describe() if chromium.EXECUTABLE.is_file() else None


def _venv() -> str | None:
    done = subprocess.run([sys.executable, "-m", "ensurepip", "--version"], capture_output=True, text=True)
    return f"{sys.executable} -m venv" if done.returncode == 0 else None


def _latex() -> str | None:
    if not shutil.which("pdflatex") or not shutil.which("kpsewhich"):
        return None
    done = subprocess.run(["kpsewhich", "booktabs.sty"], capture_output=True, text=True)
    return f"{shutil.which('pdflatex')} with booktabs" if done.returncode == 0 and done.stdout.strip() else None


#: (Debian package, what it is for, how it is found, whether the book needs it; else only the tests).
NEEDS = [
    ("nodejs", "the site's JavaScript", _commands("node"), True),
    ("npm", "the site's JavaScript", _commands("npm"), True),
    ("chromium", "the PDFs and the browser tests", _browser, True),
    ("poppler-utils", "reading the PDFs", _commands("pdftohtml", "pdftotext", "pdftoppm"), True),
    ("python3-venv", "making .venv/", _venv, True),
    ("texlive-latex-recommended", "compiling the LaTeX tables (tests)", _latex, False),
]
#: What to install where apt-get is not the way.
ELSEWHERE = (
    "elsewhere, install with your system's packages: Node.js with npm, Chromium or Google Chrome (or set "
    "IRMEANS_CHROMIUM to a browser's path), poppler's utilities (pdftohtml, pdftotext, pdftoppm), Python's venv, "
    "and a TeX distribution with pdflatex and the booktabs package"
)


def missing(purpose: str) -> list[tuple[str, str, bool]]:
    """The needs of ``purpose`` (``book`` or ``test``) not found: (package, what for, needed by the book)."""
    return [
        (package, why, for_book)
        for package, why, found, for_book in NEEDS
        if found() is None and (purpose == "test" or for_book)
    ]


def install(packages: Sequence[str]) -> None:
    """apt-get install ``packages`` (as root)."""
    print(f"installing {' '.join(packages)} with apt-get", flush=True)
    subprocess.run(["apt-get", "update", "-qq"], check=True)
    environment = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", *packages], check=True, env=environment, stdout=subprocess.DEVNULL
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--for", dest="purpose", choices=["book", "test"], default="book")
    parser.add_argument("--python-only", action="store_true", help="check the Python's version alone")
    args = parser.parse_args(argv)
    if args.python_only:
        return 0
    lacking = missing(args.purpose)
    if lacking and os.geteuid() == 0 and shutil.which("apt-get"):
        install([package for package, _, _ in lacking])
        lacking = missing(args.purpose)
    strict = args.purpose == "book" or bool(os.environ.get("CI"))
    fatal = [need for need in lacking if need[2] or strict]
    for package, why, for_book in lacking:
        level = "missing" if (for_book or strict) else "missing (a warning: the tests that need it will fail)"
        print(f"system: {level}: {package}, for {why}", file=sys.stderr)
    if lacking:
        packages = " ".join(need[0] for need in NEEDS)
        print(f"  as root or with sudo, on Debian or Ubuntu: sudo apt-get install {packages}", file=sys.stderr)
        print(f"  {ELSEWHERE}", file=sys.stderr)
    if not fatal:
        print(f"system: browser {_browser()}")
    return 1 if fatal else 0


def too_old(version: tuple[Any, ...], executable: str) -> str | None:
    """The one line that refuses a Python older than :data:`FLOOR`, or None.

    >>> too_old((3, 10, 12), "/usr/bin/python3")
    'irmeans needs Python 3.11 or later; /usr/bin/python3 is 3.10.12: run make with PYTHON=python3.11 (or newer)'
    """
    if tuple(version[:2]) >= FLOOR:
        return None
    return "irmeans needs Python %d.%d or later; %s is %s: run make with PYTHON=python3.%d (or newer)" % (
        FLOOR + (executable, ".".join(map(str, version[:3])), FLOOR[1])
    )


if __name__ == "__main__":
    refused = too_old(sys.version_info, sys.executable)
    if refused:
        print(refused, file=sys.stderr)
        sys.exit(1)
    sys.exit(main(sys.argv[1:]))
