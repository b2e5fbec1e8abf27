"""The site for a course that grades its exercises (`irmeans_course`, `make course`): no solutions, no self-check
answers, no instructor's edition, and the chapters it serves without their solutions.

A small book with the site's own extensions is built both ways (a few seconds each) and checked with the check
`make course` runs on the whole site (book/scripts/check_site.py's course_problems), which finds on the ordinary
site all that the course's must not have.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
import yaml
from irmeans_book import course, downloads

ROOT = Path(__file__).resolve().parents[2]
EXTENSIONS = ROOT / "book" / "extensions"
sys.path[:0] = [str(ROOT / "book" / "scripts")]
import check_site  # noqa: E402 - a script of the book's, not an installed module
import course_site  # noqa: E402
import make_pdf  # noqa: E402

CONF = f"""
import sys
sys.path.insert(0, {str(EXTENSIONS)!r})
extensions = ["myst_parser", "sphinx_exercise", "irmeans_selfcheck", "irmeans_course"]
myst_enable_extensions = ["colon_fence"]
irmeans_course = {{course}}
exclude_patterns = ["_build"]
"""

CHAPTER = """# A chapter

````{container} irmeans-web-only
Read in order.

```{container} irmeans-with-solutions
The exercises keep their solutions folded until you open them.
```

```{container} irmeans-course-only
The exercises are your course's.
```
````

```{container} irmeans-with-solutions
<a href="../irmeans-book-instructor.pdf">The instructor's edition</a> has every answer.
```

```{exercise}
:label: ex-why

Why does GMAP fall?
```

```{solution} ex-why
:class: dropdown

Because the hard topics lose most in proportion.
```

````{exercise} Self-check
:label: sc-ch7-mrr
:class: selfcheck

What is the MRR?

```{hint}
Each topic scores 1/r.
```
````
"""


def _build(folder: Path, is_course: bool) -> Path:
    folder.mkdir()
    (folder / "conf.py").write_text(CONF.format(course=is_course), encoding="utf-8")
    (folder / "index.md").write_text("# Book\n\n```{toctree}\nchapter\n```\n", encoding="utf-8")
    (folder / "chapter.md").write_text(CHAPTER, encoding="utf-8")
    out = folder / "_build"
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(folder), str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("course")
    return {"book": _build(tmp / "book", False), "course": _build(tmp / "course", True)}


def _text(site: Path) -> str:
    page = (site / "chapter.html").read_text(encoding="utf-8")
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def test_the_books_site_has_what_a_courses_must_not_and_the_check_finds_it(sites):
    found = check_site.course_problems(sites["book"])
    assert {p.split(": ", 1)[1] for p in found} == {
        "shows a solution",
        "holds a self-check's answer",
        "links the instructor's edition",
        "a chapter served with its solutions",
    }, found
    text = _text(sites["book"])
    assert "Because the hard topics" in text and "folded until you open them" in text
    assert "your course" not in text  # a course's own text, left out of any other site


def test_a_courses_site_has_no_solution_no_answer_and_no_instructors_edition(sites):
    site = sites["course"]
    assert check_site.course_problems(site) == []
    text = _text(site)
    assert "Because the hard topics" not in text and "folded until you open them" not in text
    assert "instructor" not in text.lower()
    # The exercises, the self-check's question and its hint stay; the course's own text is there.
    assert "Why does GMAP fall?" in text and "What is the MRR?" in text and "Each topic scores 1/r." in text
    assert "The exercises are your course" in text
    # Nor is the solution anywhere a reader's browser reads: not in the search index, not in what is downloaded.
    assert "proportion" not in (site / "searchindex.js").read_text(encoding="utf-8")
    assert "{solution}" not in (site / "_sources" / "chapter.md.txt").read_text(encoding="utf-8")


def test_a_chapter_without_its_solutions_keeps_everything_else():
    """Every chapter, as a course's site serves it (its download and its source archive's copy)."""
    for path in sorted((ROOT / "chapters").glob("[0-9][0-9]-*.ipynb")):
        original = json.loads(path.read_text(encoding="utf-8"))
        copy = json.loads(course.course_copy(Path("chapters") / path.name, path.read_bytes()))
        assert len(copy["cells"]) == len(original["cells"])
        text = json.dumps(copy)
        assert "{solution}" not in text and "{exercise}" in json.dumps(original)
        exercises = [c for c in original["cells"] if "{exercise}" in "".join(c["source"])]
        for cell in exercises:
            kept = next(c for c in copy["cells"] if c.get("id") == cell.get("id"))
            assert re.findall(r":label: (\S+)", "".join(kept["source"])) == re.findall(
                r":label: (\S+)", "".join(cell["source"])
            ), path.name
            expressions = set(re.findall(r"\{eval\}`([^`]+)`", "".join(kept["source"])))
            stored = {e["expression"] for e in kept["metadata"].get("user_expressions", [])}
            assert stored == expressions, path.name  # no stored result of a solution's number is left


def test_a_courses_source_archive_has_its_chapters_without_solutions(tmp_path):
    archive = downloads.write_source_archive(ROOT, tmp_path / "src.tar.gz", course.course_copy)
    with tarfile.open(archive) as tar:
        chapter = tar.extractfile(f"{downloads.SOURCE_FOLDER}/chapters/07-map-gmap-mrr.ipynb").read()
        library = tar.extractfile(f"{downloads.SOURCE_FOLDER}/lib/irmeans/__init__.py").read()
        config = tar.extractfile(f"{downloads.SOURCE_FOLDER}/_config.yml").read()
    assert b"{solution}" not in chapter and b"{exercise}" in chapter
    assert library == (ROOT / "lib" / "irmeans" / "__init__.py").read_bytes()
    # Its configuration makes a book built from it a course's: make pdf there prints no self-check's answer.
    assert yaml.safe_load(config)["sphinx"]["config"]["irmeans_course"] is True
    assert config.replace(b"irmeans_course: true", b"irmeans_course: false") == (ROOT / "_config.yml").read_bytes()
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in {
            "irmeans/chapters/x.md": b"```{solution} q\nA\n```\n",
            "irmeans/_config.yml": (ROOT / "_config.yml").read_bytes(),
        }.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    (tmp_path / "site" / "downloads").mkdir(parents=True)
    (tmp_path / "site" / "downloads" / "x.tar.gz").write_bytes(buffer.getvalue())
    assert check_site.course_problems(tmp_path / "site") == [
        "downloads/x.tar.gz: irmeans/chapters/x.md has its solutions",
        "downloads/x.tar.gz: irmeans/_config.yml builds the book with its answers",
    ]


def test_a_courses_pdf_says_what_it_holds_without_naming_the_instructors_edition():
    told = make_pdf.edition("student", course=True)
    assert told["name"] == make_pdf.EDITION_NAMES["student"] and "instructor" not in told["description"].lower()
    assert "instructor" in make_pdf.edition("student")["description"]  # the book's own student's edition names it


def test_make_course_builds_with_the_option_set_and_the_project_config_unchanged(tmp_path):
    """The option is documented in _config.yml (false there); `make course` writes its own configuration with it
    set, its paths absolute, and runs the course's checks."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert config["sphinx"]["config"]["irmeans_course"] is False
    assert config["sphinx"]["local_extensions"]["irmeans_course"] == "book/extensions/"
    written = yaml.safe_load(course_site.course_config(tmp_path).read_text(encoding="utf-8"))
    assert written["sphinx"]["config"]["irmeans_course"] is True
    assert Path(written["bibtex_bibfiles"][0]).is_absolute()
    assert all(Path(p).is_absolute() for p in written["sphinx"]["local_extensions"].values())
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.search(r"^course:.*\n((?:\t.*\n)+)", makefile, re.M).group(1)
    assert "book/scripts/course_site.py" in recipe
