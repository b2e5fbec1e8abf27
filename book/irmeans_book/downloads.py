"""What the site serves for readers to take away: the exact source tree it was built from, and the library's wheel.

:func:`write_downloads` writes both into the built site's ``downloads/`` folder
(the site's build calls it, ``book/extensions/irmeans_site.py``):

- :data:`SOURCE_ARCHIVE`, a gzipped tar of the source tree the site was built
  from, under one folder, :data:`SOURCE_FOLDER`: exactly the files git tracks
  (:func:`source_files`), as they are in the working tree, and their list,
  :data:`SOURCE_LIST`. Unpacked, it is a complete project: ``pip install .``
  installs the library, ``make lab`` opens the chapters, and a site built there
  serves the files of that list again;
- the library's wheel, built from that archive (so it is the archive's library),
  for ``pip install`` of the library alone.

Nothing git does not track is served, ignored or not: a lecturer's copies of the
chapters with their solutions, kept in the clone, stay the lecturer's. A tree that
is neither a git checkout nor an unpacked archive (it has no list) is refused,
since which of its files are the project's cannot be told.

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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "SOURCE_ARCHIVE",
    "SOURCE_FOLDER",
    "SOURCE_LIST",
    "FOLDER",
    "ARCHIVE_DATE",
    "Download",
    "SourceTreeError",
    "source_files",
    "write_source_archive",
    "unpack",
    "build_wheel",
    "write_downloads",
]

#: The source archive's file name, and the folder it unpacks to.
SOURCE_ARCHIVE = "irmeans-source.tar.gz"
SOURCE_FOLDER = "irmeans"
#: What changes a file's bytes on their way into the archive: ``rewrite(relative_path, data) -> data``.
Rewrite = Callable[[Path, bytes], bytes]
#: The site's folder of downloads.
FOLDER = "downloads"
#: Every member's date (2026-01-01): the archive's bytes depend on the files' contents alone.
ARCHIVE_DATE = 1767225600

#: The archive's list of its files, at its root: what :func:`source_files` reads in an unpacked archive.
SOURCE_LIST = "SOURCE-FILES.txt"
SOURCE_LIST_HEADER = (
    "# The files of this source archive, one a line: the files git tracked in the tree it was made from.\n"
    "# A site built here serves these and nothing else (book/irmeans_book/downloads.py).\n"
)


class SourceTreeError(RuntimeError):
    """The source tree's files cannot be told: not a git checkout git can read, nor an unpacked archive."""


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


def _git_files(root: Path) -> list[Path]:
    try:
        done = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError) as error:
        said = getattr(error, "stderr", b"") or str(error).encode()
        raise SourceTreeError(
            f"{root} is a git checkout, but git could not list its files: {said.decode(errors='replace').strip()}"
        ) from None
    names = {name for name in done.stdout.decode("utf-8").split("\0") if name}
    return sorted(Path(name) for name in names if (root / name).is_file())  # a file deleted but still tracked: gone


def _listed_files(root: Path) -> list[Path]:
    lines = (root / SOURCE_LIST).read_text(encoding="utf-8").splitlines()
    names = {line for line in lines if line and not line.startswith("#")} - {SOURCE_LIST}
    return sorted(Path(name) for name in names if (root / name).is_file())


def source_files(root: Path) -> list[Path]:
    """The source tree's files, relative to ``root``, sorted: those git tracks (``git ls-files``), or, in an
    unpacked archive, those of its :data:`SOURCE_LIST`; raises :class:`SourceTreeError` for any other tree."""
    root = Path(root)
    if (root / ".git").exists():
        return _git_files(root)
    if (root / SOURCE_LIST).is_file():
        return _listed_files(root)
    raise SourceTreeError(
        f"{root} is neither a git checkout nor an unpacked source archive (it has no {SOURCE_LIST}): which of its "
        "files are the project's cannot be told, and no other file may be served. Build from a git clone, or from "
        "the source archive the book's site serves."
    )


def write_source_archive(root: Path, archive: Path, rewrite: Rewrite | None = None) -> Path:
    """Write :func:`source_files` of ``root`` into ``archive`` (tar.gz), under :data:`SOURCE_FOLDER`/.

    ``rewrite(relative_path, data) -> data``, if given, changes a file's bytes on their way in
    (:func:`irmeans_book.course.course_copy`: a course's site serves its chapters without solutions).
    """
    root = Path(root)
    files = source_files(root)
    listed = SOURCE_LIST_HEADER + "".join(f"{relative.as_posix()}\n" for relative in files)
    members = [(Path(SOURCE_LIST), listed.encode("utf-8"), 0o644)]
    for relative in files:
        path = root / relative
        data = path.read_bytes() if rewrite is None else rewrite(relative, path.read_bytes())
        members.append((relative, data, 0o755 if os.access(path, os.X_OK) else 0o644))
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for relative, data, mode in sorted(members, key=lambda member: member[0]):
            info = tarfile.TarInfo(f"{SOURCE_FOLDER}/{relative.as_posix()}")
            info.size = len(data)
            info.mtime = ARCHIVE_DATE
            info.mode = mode
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(data))
    archive.parent.mkdir(parents=True, exist_ok=True)
    with archive.open("wb") as out, gzip.GzipFile(fileobj=out, mode="wb", mtime=0, filename="") as gz:
        gz.write(buffer.getvalue())
    return archive


def unpack(archive: Path, folder: Path) -> Path:
    """Unpack the source ``archive`` into ``folder``; return the tree, ``folder``/:data:`SOURCE_FOLDER`.

    Python's ``data`` filter (no links, devices or paths out of ``folder``) is used where the Python has it
    (3.11.4 and later; Debian 12's 3.11.2 has not, and the archive is this module's own).
    """
    with tarfile.open(archive) as tar:
        tar.extractall(folder, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))  # type: ignore[arg-type]  # a filter the Python has
    return Path(folder) / SOURCE_FOLDER


def build_wheel(archive: Path, out: Path) -> Path:
    """Build the library's wheel from the source ``archive`` into the folder ``out``; return its path.

    pip builds it with the environment's own setuptools (no build isolation: nothing is downloaded).
    """
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tree = unpack(archive, Path(tmp))
        before = set(out.glob("*.whl"))
        command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
        # SOURCE_DATE_EPOCH: the wheel's members dated as the archive's, so the same tree gives the same wheel.
        env = dict(os.environ, SOURCE_DATE_EPOCH=str(ARCHIVE_DATE))
        done = subprocess.run([*command, "--wheel-dir", str(out), str(tree)], capture_output=True, text=True, env=env)
        if done.returncode != 0:
            raise RuntimeError(f"building the wheel from {archive.name} failed:\n{done.stdout}{done.stderr}")
    made = sorted(set(out.glob("irmeans-*.whl")) - before) or sorted(out.glob("irmeans-*.whl"))
    if not made:
        raise RuntimeError(f"pip wrote no irmeans wheel into {out}")
    return made[-1]


def write_downloads(root: Path, site: Path, rewrite: Rewrite | None = None) -> dict[str, Download]:
    """The source archive (its files through ``rewrite``: :func:`write_source_archive`) and the wheel, written into
    ``site``/:data:`FOLDER`; by kind (``source``, ``wheel``)."""
    folder = Path(site) / FOLDER
    for old in folder.glob("*"):
        old.unlink()
    archive = write_source_archive(root, folder / SOURCE_ARCHIVE, rewrite)
    wheel = build_wheel(archive, folder)
    return {"source": Download.of(archive), "wheel": Download.of(wheel)}
