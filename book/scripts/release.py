"""`make dist`: the library's release files, a source archive (sdist) and a wheel, built and checked as PyPI would.

Usage: ``python book/scripts/release.py [--out _build/dist] [--try-in VENV]``.

1. The source tree (the files git tracks or would add: :func:`irmeans_book.downloads.source_files`)
   is copied into a temporary folder, so that the build leaves nothing in the working tree.
2. ``python -m build`` makes the sdist from the copy and the wheel from the sdist (so the wheel
   proves the sdist complete), with the environment's own setuptools (no build isolation: nothing is
   downloaded) and ``SOURCE_DATE_EPOCH`` set, so that the same tree gives the same wheel.
3. ``twine check --strict`` checks both as PyPI will: their metadata, and the README as the
   project's description.
4. With ``--try-in VENV``, a fresh virtual environment is made there, the wheel installed into it with
   its dependencies (at the versions of ``constraints.txt``) and nothing else, and the library run from
   it (:func:`try_in_fresh_environment`): its version, its shipped data, and ``irmeans eval`` on the
   example files, which must print what the README's quick start shows.

The release itself (the version, the tag, the upload) is described in the README, "Releasing".
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from irmeans_book import downloads

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "_build" / "dist"
#: What ``irmeans eval -m map examples/qrels.txt examples/runs/baseline.txt`` prints (the README's quick start).
EXAMPLE_EVAL = (["eval", "-m", "map", "examples/qrels.txt", "examples/runs/baseline.txt"], "map\tall\t0.3379")
#: Run in the fresh environment, from an empty folder: the installed library's version, where it is, and its data.
SMOKE = (
    "import irmeans, irmeans.datasets as d, pathlib, sys; "
    "m = d.load('adhoc8', 'ap'); "
    "print(irmeans.__version__, pathlib.Path(irmeans.__file__).is_relative_to(sys.prefix), m.scores.shape)"
)


def _run(command: list[str], **kwargs: Any) -> str:
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, command))} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    output: str = done.stdout  # text=True: str, which run's overloads cannot tell with **kwargs
    return output


def build(out: Path) -> list[Path]:
    """Build the sdist and the wheel of the source tree into ``out``; return them, the sdist first."""
    out.mkdir(parents=True, exist_ok=True)
    for old in [*out.glob("irmeans-*.tar.gz"), *out.glob("irmeans-*.whl")]:
        old.unlink()
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "irmeans"
        for relative in downloads.source_files(ROOT):
            (tree / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / relative, tree / relative)
        env = dict(os.environ, SOURCE_DATE_EPOCH=str(downloads.ARCHIVE_DATE))
        _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(tree)], env=env)
    sdists, wheels = sorted(out.glob("irmeans-*.tar.gz")), sorted(out.glob("irmeans-*.whl"))
    if len(sdists) != 1 or len(wheels) != 1:
        raise RuntimeError(f"the build wrote {sdists + wheels} into {out}")
    return [sdists[0], wheels[0]]


def check(files: list[Path]) -> str:
    """``twine check --strict`` on ``files``: raises if PyPI would refuse one or warn of its description."""
    return _run([sys.executable, "-m", "twine", "check", "--strict", *map(str, files)])


def try_in_fresh_environment(wheel: Path, venv: Path) -> list[str]:
    """Install ``wheel`` into a new virtual environment at ``venv`` and run the library from it; return what it
    printed (the smoke test's line, then ``irmeans eval``'s)."""
    shutil.rmtree(venv, ignore_errors=True)
    _run([sys.executable, "-m", "venv", str(venv)])
    python = venv / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "--quiet", "-c", str(ROOT / "constraints.txt"), str(wheel)])
    empty = venv / "run"
    empty.mkdir()
    printed = [_run([str(python), "-c", SMOKE], cwd=empty).strip()]
    args, _ = EXAMPLE_EVAL
    printed.append(_run([str(venv / "bin" / "irmeans"), *args], cwd=ROOT).strip())
    return printed


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder for the sdist and the wheel")
    parser.add_argument("--try-in", type=Path, metavar="VENV", help="install the wheel into a fresh VENV and run it")
    args = parser.parse_args(argv)
    files = build(args.out)
    for path in files:
        print(f"{path} ({path.stat().st_size / 1e3:.0f} kB)")
    print(check(files).strip())
    if args.try_in:
        for line in try_in_fresh_environment(files[1], args.try_in):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
