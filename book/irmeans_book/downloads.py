"""What the site serves for readers to take away: the exact source tree it was built from, and the library's wheel.

:func:`write_downloads` writes both into the built site's ``downloads/`` folder
(the site's build calls it, ``book/extensions/irmeans_site.py``):

- :data:`SOURCE_ARCHIVE`, a gzipped tar of every file of the source tree the site
  was built from (:func:`source_files`: the files git tracks, as they are in the
  working tree, with any new file git does not ignore; outside a git checkout,
  every file but the build's and the environment's), under one folder,
  :data:`SOURCE_FOLDER`. Unpacked, it is a complete project: ``pip install .``
  installs the library, ``make lab`` opens the chapters;
- the library's wheel, built from that archive (so it is the archive's library),
  for ``pip install`` of the library alone.

The archive is reproducible: its members are sorted, owned by nobody, dated
:data:`ARCHIVE_DATE`, and the gzip header holds no date, so the same tree gives
the same bytes.

Examples
--------
>>> from pathlib import Path
>>> root = Path(__file__).resolve().parents[2]
>>> files = source_files(root)
>>> Path("lib/irmeans/averages.py") in files, Path(".venv") in files, any(p.parts[0] == "_build" for p in files)
(True, False, False)
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "SOURCE_ARCHIVE",
    "SOURCE_FOLDER",
    "FOLDER",
    "ARCHIVE_DATE",
    "Download",
    "source_files",
    "write_source_archive",
    "build_wheel",
    "write_downloads",
]

#: The source archive's file name, and the folder it unpacks to.
SOURCE_ARCHIVE = "irmeans-source.tar.gz"
SOURCE_FOLDER = "irmeans"
#: The site's folder of downloads.
FOLDER = "downloads"
#: Every member's date (2026-01-01): the archive's bytes depend on the files' contents alone.
ARCHIVE_DATE = 1767225600

#: Outside a git checkout, the folders that are the build's or the environment's, never the source's.
NOT_SOURCE = {
    ".git",
    ".venv",
    ".venv-lib",
    "_build",
    "node_modules",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".hypothesis",
    ".ipynb_checkpoints",
    "build",
}
#: ... and these paths under the root (made by the build: the site's vendored JavaScript, benchmark data).
NOT_SOURCE_PATHS = {Path("book/assets"), Path("benchmarks/data")}


@dataclass(frozen=True)
class Download:
    """A file the site serves: its name, size in bytes and SHA-256."""

    path: Path
    size: int
    sha256: str

    @property
    def name(self) -> str:
        return self.path.name

    @classmethod
    def of(cls, path: Path) -> Download:
        return cls(path, path.stat().st_size, hashlib.sha256(path.read_bytes()).hexdigest())


def _git_files(root: Path) -> list[Path] | None:
    try:
        done = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=root,
            capture_output=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    names = {name for name in done.stdout.decode("utf-8").split("\0") if name}
    return sorted(Path(name) for name in names if (root / name).is_file())  # a file deleted but still tracked: gone


def _walked_files(root: Path) -> list[Path]:
    found = []
    for folder, dirs, files in os.walk(root):
        here = Path(folder).relative_to(root)
        dirs[:] = [
            d for d in dirs if d not in NOT_SOURCE and not d.endswith(".egg-info") and here / d not in NOT_SOURCE_PATHS
        ]
        found += [here / f for f in files]
    return sorted(found)


def source_files(root: Path) -> list[Path]:
    """The source tree's files, relative to ``root``, sorted: what git tracks or would add, or, outside
    a git checkout (an unpacked archive), every file but the build's and the environment's."""
    root = Path(root)
    files = _git_files(root) if (root / ".git").exists() else None
    return files if files is not None else _walked_files(root)


def write_source_archive(root: Path, archive: Path, rewrite=None) -> Path:
    """Write :func:`source_files` of ``root`` into ``archive`` (tar.gz), under :data:`SOURCE_FOLDER`/.

    ``rewrite(relative_path, data) -> data``, if given, changes a file's bytes on their way in
    (:func:`irmeans_book.course.course_copy`: a course's site serves its chapters without solutions).
    """
    root = Path(root)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for relative in source_files(root):
            path = root / relative
            info = tarfile.TarInfo(f"{SOURCE_FOLDER}/{relative.as_posix()}")
            data = path.read_bytes() if rewrite is None else rewrite(relative, path.read_bytes())
            info.size = len(data)
            info.mtime = ARCHIVE_DATE
            info.mode = 0o755 if os.access(path, os.X_OK) else 0o644
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(data))
    archive.parent.mkdir(parents=True, exist_ok=True)
    with archive.open("wb") as out, gzip.GzipFile(fileobj=out, mode="wb", mtime=0, filename="") as gz:
        gz.write(buffer.getvalue())
    return archive


def build_wheel(archive: Path, out: Path) -> Path:
    """Build the library's wheel from the source ``archive`` into the folder ``out``; return its path.

    pip builds it with the environment's own setuptools (no build isolation: nothing is downloaded).
    """
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(archive) as tar:
            tar.extractall(tmp, filter="data")
        before = set(out.glob("*.whl"))
        command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
        # SOURCE_DATE_EPOCH: the wheel's members dated as the archive's, so the same tree gives the same wheel.
        env = dict(os.environ, SOURCE_DATE_EPOCH=str(ARCHIVE_DATE))
        done = subprocess.run(
            [*command, "--wheel-dir", str(out), str(Path(tmp) / SOURCE_FOLDER)], capture_output=True, text=True, env=env
        )
        if done.returncode != 0:
            raise RuntimeError(f"building the wheel from {archive.name} failed:\n{done.stdout}{done.stderr}")
    made = sorted(set(out.glob("irmeans-*.whl")) - before) or sorted(out.glob("irmeans-*.whl"))
    if not made:
        raise RuntimeError(f"pip wrote no irmeans wheel into {out}")
    return made[-1]


def write_downloads(root: Path, site: Path, rewrite=None) -> dict[str, Download]:
    """The source archive (its files through ``rewrite``: :func:`write_source_archive`) and the wheel, written into
    ``site``/:data:`FOLDER`; by kind (``source``, ``wheel``)."""
    folder = Path(site) / FOLDER
    for old in folder.glob("*"):
        old.unlink()
    archive = write_source_archive(root, folder / SOURCE_ARCHIVE, rewrite)
    wheel = build_wheel(archive, folder)
    return {"source": Download.of(archive), "wheel": Download.of(wheel)}
