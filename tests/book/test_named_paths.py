"""Every file of the project that its text names by path is where it says: no stale reference.

Docstrings, comments, the README and the Makefile name the project's files by path (``book/scripts/lab.py``);
a file moved or renamed left such names behind (``book/irmeans_site.py`` for ``book/extensions/irmeans_site.py``,
``book/lab.py``, ``tests/browser/test_selfcheck.py``, ``tests/book/test_figure_words.py``). Here each such name in
the files git tracks must be a file of the tree; the names made up on purpose, as examples or as files a test
writes, are listed with their file.
"""

from __future__ import annotations

import re
from pathlib import Path

from irmeans_book import downloads

ROOT = Path(__file__).resolve().parents[2]
#: A path into the project's folders, with a file's suffix.
NAMED = re.compile(
    r"(?<![\w./-])((?:book|tests|lib|benchmarks|chapters|examples|data)/[\w./-]*\w"
    r"\.(?:py|js|json5|json|md|ipynb|yml|yaml|toml|txt|cfg|css|csv))\b"
)
TEXT = (".py", ".md", ".json5", ".js", ".toml", ".yml", ".cfg", ".txt", ".css", "Makefile")
#: Names that are examples or files a test makes, by the file that names them.
MADE_UP = {
    "book/irmeans_book/course.py": {"chapters/x.md", "lib/x.md"},
    "tests/book/test_private_files.py": {"chapters/answers-week-3.md", "lib/irmeans/answer_key.py"},
    "tests/book/test_provenance.py": {"data/robertson2006-example.csv"},  # the stale name its test catches
    "tests/book/test_new_chapter.py": {"chapters/11-the-median.ipynb", "book/irmeans_book/chapters/ch11_the_median.py"},
    "tests/book/test_chapters.py": {"chapters/12-a-new-one.ipynb"},
    "tests/slowest.py": {"tests/browser/test_x.py"},
}
#: A pattern a contributor fills in (CONTRIBUTING.md): ``chapters/NN-name.ipynb``.
PLACEHOLDER = re.compile(r"NN")


def named_paths(text: str) -> list[str]:
    """The project's paths ``text`` names.

    Examples
    --------
    >>> named_paths("as book/scripts/lab.py does (and `tests/book/x.py`), not lab.py")
    ['book/scripts/lab.py', 'tests/book/x.py']
    """
    return [match.group(1) for match in NAMED.finditer(text)]


def test_the_stale_names_are_found():
    assert named_paths("(``AuthorYearLabels`` of ``book/irmeans_site.py``)") == ["book/irmeans_site.py"]
    assert named_paths("// JupyterLab's settings for `make lab` (book/lab.py passes") == ["book/lab.py"]
    assert not (ROOT / "book" / "irmeans_site.py").exists() and not (ROOT / "book" / "lab.py").exists()


def test_every_path_the_project_names_is_a_file_of_it():
    stale = []
    for relative in downloads.source_files(ROOT):
        name = relative.as_posix()
        if not name.endswith(TEXT) or name == "tests/book/test_named_paths.py":  # this file: the list above
            continue
        text = (ROOT / relative).read_text(encoding="utf-8", errors="replace")
        for path in named_paths(text):
            if PLACEHOLDER.search(path) or path in MADE_UP.get(name, ()):
                continue
            if not (ROOT / path).exists():
                stale.append(f"{name} names {path}")
    assert not stale, "\n".join(stale)
