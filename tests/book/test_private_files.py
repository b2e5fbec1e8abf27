"""What a lecturer makes stays theirs: files git does not track never leave the clone.

A copy of the source tree is made a git repository at a path with spaces, an apostrophe and accents, and a
lecturer's files are put in it as the README's lecturer's path puts them (chapter 7 copied into ``course/``, its
data changed, solutions written beside it), with more untracked files where a lecturer might leave them: in a
folder git does not ignore, among the chapters, in the library's own package. Each holds a marker. Then:

- the source archive the site serves holds exactly the files git tracks, and its own list of them;
- the wheel built from it, and the release's source archive and wheel (``make dist``), hold no marker;
- ``make course`` (its site, its source archive and wheel, its PDF), on a book of one page, holds no marker, no
  solution, no self-check answer and no word of the instructor's edition;
- the course's source archive, unpacked, is a course's book (``make pdf`` there prints the student's edition
  alone), and a site built from it serves its own list of files, not the lecturer's files put beside them.

About 40 s on an idle machine (the course's site and its PDF are built once).
"""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from irmeans_book import downloads

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "book" / "scripts")]
import check_site  # noqa: E402 - a script of the book's, not an installed module
import make_pdf  # noqa: E402

README = (ROOT / "README.md").read_text(encoding="utf-8")
LECTURER = README.split("## A chapter of your own, for a course", 1)[1].split("\n## ", 1)[0]
#: In every file the lecturer adds: found anywhere the site, an archive, a wheel or a PDF holds, it leaked. (Made
#: here, so that this file, which the archive holds, does not hold it as written.)
MARKER = "Answer key for my class " + "7f3a9c".upper()
#: The lecturer's files besides the README's copy of chapter 7: untracked, ignored by git or not.
PRIVATE = {
    "course/answers.md": f"# Week 7\n\n{MARKER}: MAP rises to 0.4190.\n",
    "lecturer's notes/solutions week 3.md": f"{MARKER}\n",
    "chapters/answers-week-3.md": f"# Answers\n\n{MARKER}\n",
    "lib/irmeans/answer_key.py": f'"""{MARKER}"""\n',
}
#: A book of one page with the site's configuration: the index, and the back matter's command-line reference.
TOC = """format: jb-book
root: chapters/index
parts:
  - caption: Back matter
    chapters:
      - file: chapters/cli-reference
"""
GIT = ["git", "-c", "user.name=Lecturer", "-c", "user.email=lecturer@example.org", "-c", "init.defaultBranch=main"]


def _git(clone: Path, *args: str) -> str:
    return subprocess.run([*GIT, *args], cwd=clone, check=True, capture_output=True, text=True).stdout


def _lecturers_files(clone: Path) -> None:
    """The README's steps (mkdir, cp, sed), a solution added to the copy, and the other files of :data:`PRIVATE`."""
    [prepare] = [block for block in LECTURER.split("```sh\n")[1:] if "mkdir" in block]
    for line in prepare.split("```")[0].splitlines():
        subprocess.run(["bash", "-c", line], cwd=clone, check=True)
    copy = clone / "course" / "lecture-7.ipynb"
    copy.write_text(
        copy.read_text(encoding="utf-8").replace("loss = 0.5, 0.1", f"loss = 0.5, 0.1  # {MARKER}"), "utf-8"
    )
    assert MARKER in copy.read_text(encoding="utf-8")
    for name, text in PRIVATE.items():
        (clone / name).parent.mkdir(parents=True, exist_ok=True)
        (clone / name).write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """The source tree as a git repository of its own at an awkward path, with a lecturer's files in it."""
    clone = tmp_path_factory.mktemp("clone") / "Mes cours 2027" / "recherche d'information — évaluation" / "irmeans"
    for relative in downloads.source_files(ROOT):
        (clone / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / relative, clone / relative)
    _git(clone, "init", "-q")
    _git(clone, "add", "-A")
    _git(clone, "commit", "-q", "-m", "The book as it is")
    _lecturers_files(clone)
    return clone


def _leaks(name: str, data: bytes) -> list[str]:
    """Where ``data`` (a file called ``name``; archives and wheels opened, PDFs read as text) holds the marker
    (the untracked module of :data:`PRIVATE` holds it too: a wheel that took it in holds it)."""
    if name.endswith((".tar.gz", ".tgz")):
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            return [
                leak
                for member in tar.getmembers()
                if member.isfile()
                for leak in _leaks(f"{name}!{member.name}", tar.extractfile(member).read())
            ]
    if name.endswith(".whl"):
        with zipfile.ZipFile(io.BytesIO(data)) as whl:
            return [leak for item in whl.namelist() for leak in _leaks(f"{name}!{item}", whl.read(item))]
    if name.endswith(".pdf"):
        text = subprocess.run(["pdftotext", "-", "-"], input=data, capture_output=True, check=True).stdout
        return [name] if MARKER.encode() in text else []
    return [name] if MARKER.encode() in data else []


def _leaks_in(folder: Path) -> list[str]:
    return [
        leak for path in sorted(folder.rglob("*")) if path.is_file() for leak in _leaks(str(path), path.read_bytes())
    ]


def test_the_lecturers_files_are_in_the_tree_untracked_and_the_readmes_folder_ignored(clone):
    untracked = set(_git(clone, "ls-files", "--others", "-z").split("\0"))
    ignored = set(_git(clone, "ls-files", "--others", "--ignored", "--exclude-standard", "-z").split("\0"))
    assert {"course/lecture-7.ipynb", *PRIVATE} <= untracked
    assert {"course/lecture-7.ipynb", "course/answers.md"} <= ignored  # where the README puts them
    assert not {"lecturer's notes/solutions week 3.md", "lib/irmeans/answer_key.py"} & ignored  # and not ignored
    assert "git ignores" in LECTURER and "course/" in (ROOT / ".gitignore").read_text(encoding="utf-8")


def test_the_source_archive_holds_the_tracked_files_and_their_list_and_nothing_else(clone, tmp_path):
    archive = downloads.write_source_archive(clone, tmp_path / downloads.SOURCE_ARCHIVE)
    tracked = {name for name in _git(clone, "ls-files", "-z").split("\0") if name}
    with tarfile.open(archive) as tar:
        names = {m.name.removeprefix(f"{downloads.SOURCE_FOLDER}/") for m in tar.getmembers()}
        listed = tar.extractfile(f"{downloads.SOURCE_FOLDER}/{downloads.SOURCE_LIST}").read().decode("utf-8")
    assert names == tracked | {downloads.SOURCE_LIST}
    assert {line for line in listed.splitlines() if not line.startswith("#")} == tracked
    assert _leaks(archive.name, archive.read_bytes()) == []
    wheel = downloads.build_wheel(archive, tmp_path / "wheel")
    assert _leaks(wheel.name, wheel.read_bytes()) == []


def test_the_releases_files_hold_nothing_of_the_lecturers(clone, tmp_path):
    subprocess.run(
        [sys.executable, str(clone / "book" / "scripts" / "release.py"), "--out", str(tmp_path)],
        check=True,
        capture_output=True,
    )
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".gz", ".whl"]
    assert _leaks_in(tmp_path) == []


@pytest.fixture(scope="module")
def course(clone, tmp_path_factory) -> Path:
    """``make course`` on the clone, its book cut to one page (the site's configuration, extensions and
    downloads): the course's build folder, with its site in ``html/`` and its PDF in ``pdf/``."""
    (clone / "_toc.yml").write_text(TOC, encoding="utf-8")
    (clone / "chapters" / "index.md").write_text("# A course's book\n\nThe course's own page.\n", encoding="utf-8")
    shutil.copytree(ROOT / "book" / "assets", clone / "book" / "assets")  # the site's JavaScript, made by make
    out = tmp_path_factory.mktemp("course")
    done = subprocess.run(
        [sys.executable, str(clone / "book" / "scripts" / "course_site.py"), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_make_course_serves_and_prints_nothing_of_the_lecturers_nor_any_answer(course):
    site = course / "html"
    assert (site / downloads.FOLDER / downloads.SOURCE_ARCHIVE).is_file() and (site / "irmeans-book.pdf").is_file()
    assert (
        not (site / "irmeans-book-instructor.pdf").exists()
        and not (course / "pdf" / "irmeans-book-instructor.pdf").exists()
    )
    assert _leaks_in(site) == [] and _leaks_in(course / "pdf") == []
    assert check_site.course_problems(site) == []
    first_page = subprocess.run(
        ["pdftotext", "-l", "1", str(site / "irmeans-book.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "edition" in first_page.lower() and "instructor" not in first_page.lower()


def test_the_courses_archive_is_a_courses_book_and_serves_its_list_alone(course, tmp_path, monkeypatch):
    tree = downloads.unpack(course / "html" / downloads.FOLDER / downloads.SOURCE_ARCHIVE, tmp_path)
    assert not (tree / ".git").exists()
    listed = downloads.source_files(tree)
    _lecturers_files(tree)  # a lecturer unpacks the archive and works in it
    assert downloads.source_files(tree) == listed
    again = downloads.write_source_archive(tree, tmp_path / "again.tar.gz")
    assert _leaks(again.name, again.read_bytes()) == []
    # make pdf there prints the student's edition alone (make_pdf reads the tree's own _config.yml).
    monkeypatch.setattr(make_pdf, "ROOT", tree)
    assert make_pdf.course_book() and not make_pdf.course_book(ROOT)


def test_a_tree_that_is_neither_a_checkout_nor_an_archive_is_refused(tmp_path):
    (tmp_path / "course").mkdir()
    (tmp_path / "course" / "answers.md").write_text(MARKER, encoding="utf-8")
    with pytest.raises(downloads.SourceTreeError, match="neither a git checkout nor an unpacked source archive"):
        downloads.source_files(tmp_path)
