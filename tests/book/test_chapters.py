"""A chapter is registered once: its notebook and its module, found by name; the rest is derived from them.

``chapters/NN-name.ipynb`` and ``book/irmeans_book/chapters/chNN_name.py`` make a chapter (CONTRIBUTING.md). The
table of contents takes the notebook by a glob of its number, the package finds the module by its name, and the
checks that hold each chapter (its typed numbers, a reader's own data, its self-checks, its figures for slides)
read what they need from the module. tests/book/test_new_chapter.py adds an eleventh chapter that way.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from irmeans_book import chapters
from irmeans_book.selfcheck import registered

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = chapters.notebooks(ROOT)
MODULES = dict(zip(chapters.CHAPTERS, chapters.chapter_modules(), strict=True))


def test_every_notebook_has_its_module_by_name_and_every_module_its_notebook():
    assert NOTEBOOKS, "no chapter found"
    assert [chapters.module_name(path) for path in NOTEBOOKS] == list(chapters.CHAPTERS)
    assert [chapters.notebook_stem(name) for name in chapters.CHAPTERS] == [path.stem for path in NOTEBOOKS]


def test_a_name_and_its_module_go_both_ways():
    assert chapters.module_name("chapters/12-a-new-one.ipynb") == "ch12_a_new_one"
    assert chapters.notebook_stem("ch12_a_new_one") == "12-a-new-one"


def test_the_numbered_parts_take_every_chapter_once_in_order_by_glob():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    numbered = [part for part in chapters.parts(ROOT) if part["numbered"]]
    docs = [doc for part in numbered for doc in part["docs"]]
    assert docs == [f"chapters/{path.stem}" for path in NOTEBOOKS]
    numbers = [[int(Path(doc).name[:2]) for doc in part["docs"]] for part in numbered]
    assert max(numbers[0]) <= 5 < min(numbers[1])  # Part I: chapters 1-5; Part II: the rest
    for part in toc["parts"]:
        if part.get("numbered"):
            assert all(set(entry) == {"glob"} for entry in part["chapters"]), "a chapter listed by name in _toc.yml"


def test_a_glob_takes_what_no_earlier_entry_took(tmp_path):
    (tmp_path / "chapters").mkdir()
    for name in ("01-a.ipynb", "06-b.ipynb", "11-c.ipynb", "index.md"):
        (tmp_path / "chapters" / name).write_text("{}", encoding="utf-8")
    (tmp_path / "_toc.yml").write_text((ROOT / "_toc.yml").read_text(encoding="utf-8"), encoding="utf-8")
    parts = chapters.parts(tmp_path)
    assert [part["docs"] for part in parts[:2]] == [["chapters/01-a"], ["chapters/06-b", "chapters/11-c"]]


@pytest.mark.parametrize("name", chapters.CHAPTERS)
def test_every_module_holds_what_the_checks_read(name):
    module = MODULES[name]
    number = int(re.match(r"ch(\d\d)_", name).group(1))
    assert isinstance(module.FIGURES, dict) and all(label.startswith(f"fig-ch{number}-") for label in module.FIGURES)
    assert {"lines", "named", "figures"} <= set(module.READER_CHANGE)
    assert all(isinstance(numbers, str) and why for numbers, why in module.PROSE_NUMBERS)
    answers = [label for label in registered() if label.startswith(f"sc-ch{number}-")]
    assert len(answers) >= 2, f"{name}: {answers}"
    assert {"FIGURES", "READER_CHANGE", "PROSE_NUMBERS"} <= set(module.__all__)
