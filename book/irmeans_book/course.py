"""The book for a course that grades its exercises: no solutions, no self-check answers, no instructor's edition.

The site built with ``irmeans_course: true`` (``make course``, ``book/scripts/course_site.py``;
``book/extensions/irmeans_course.py`` does the work in the build) shows every exercise and hint
but no solution, gives the self-checks no answer box (their answers are not in its pages), and
neither links nor serves the instructor's PDF. What the site serves to take away is the same: the
chapters a reader downloads and those of its source archive are copied without their
solutions (:func:`without_solutions`, :func:`course_copy`), and the archive's ``_config.yml`` has
``irmeans_course`` set, so that a book built from it is a course's too (``make pdf`` there prints the
student's edition alone: no self-check's answer is printed from it).

Text marked for the editions with solutions (a ``{container}`` of class :data:`WITH_SOLUTIONS`:
the sentences that link the instructor's edition, or say that solutions are folded under
the exercises) is left out of a course's site; text of class :data:`COURSE_ONLY`, out of any
other.

Examples
--------
>>> text = "```{exercise}\\n:label: ex-a\\n\\nWhy?\\n```\\n\\n```{solution} ex-a\\n:class: dropdown\\n\\nSo.\\n```\\n"
>>> without_solutions(text)
'```{exercise}\\n:label: ex-a\\n\\nWhy?\\n```\\n\\n'
"""

from __future__ import annotations

import json
import re
from pathlib import Path

__all__ = [
    "WITH_SOLUTIONS",
    "COURSE_ONLY",
    "SOLUTION",
    "course_copy",
    "notebook_without_solutions",
    "without_solutions",
]

#: The class of a ``{container}`` the course's site leaves out: text about the solutions or the instructor's edition.
WITH_SOLUTIONS = "irmeans-with-solutions"
#: The class of a ``{container}`` only the course's site shows.
COURSE_ONLY = "irmeans-course-only"
#: A solution directive in MyST: its fence (three or more backticks or colons) and its content, to the same fence.
SOLUTION = re.compile(r"^(?P<fence>`{3,}|:{3,})\{solution\}[^\n]*\n(?:.*?\n)??(?P=fence)[ \t]*(?:\n|$)", re.M | re.S)
#: The ``{eval}`` roles of a cell's markdown (:mod:`irmeans_book.prose`).
EVAL = re.compile(r"\{eval\}`([^`]+)`")
#: The setting of ``_config.yml`` that makes a build a course's, off (the book's own).
COURSE_SETTING = re.compile(r"^(?P<key>[ \t]*irmeans_course:[ \t]*)false[ \t]*$", re.M)


def without_solutions(markdown: str) -> str:
    """``markdown`` without its ``{solution}`` blocks (and the blank lines they leave, beyond one).

    Examples
    --------
    >>> without_solutions("A\\n\\n::::{solution} ex-b\\n```python\\nx = 1\\n```\\n::::\\n\\nB\\n")
    'A\\n\\nB\\n'
    """
    text = SOLUTION.sub("", markdown)
    return re.sub(r"\n{3,}", "\n\n", text)


def notebook_without_solutions(text: str) -> str:
    """A notebook's JSON without the ``{solution}`` blocks of its markdown cells, each cell's stored ``{eval}``
    results (``user_expressions``) kept only for the expressions still in it.

    Examples
    --------
    >>> cell = {"cell_type": "markdown", "metadata": {"user_expressions": [{"expression": "a"}, {"expression": "b"}]},
    ...         "source": ["Q {eval}`a`\\n", "\\n", "```{solution} q\\n", "A {eval}`b`\\n", "```\\n"]}
    >>> out = json.loads(notebook_without_solutions(json.dumps({"cells": [cell]})))["cells"][0]
    >>> out["source"], out["metadata"]["user_expressions"]
    (['Q {eval}`a`\\n'], [{'expression': 'a'}])
    """
    nb = json.loads(text)
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        kept = without_solutions(source)
        if kept == source:
            continue
        kept = kept.rstrip("\n") + "\n" if source.endswith("\n") else kept.rstrip("\n")
        cell["source"] = kept.splitlines(keepends=True) if isinstance(cell["source"], list) else kept
        stored = cell.get("metadata", {}).get("user_expressions")
        if stored is not None:
            left = set(EVAL.findall(kept))
            cell["metadata"]["user_expressions"] = [e for e in stored if e.get("expression") in left]
    return json.dumps(nb, ensure_ascii=False, indent=1) + "\n"


def course_copy(relative: Path, data: bytes) -> bytes:
    """A file of the source tree as a course's site serves it: a chapter (``.ipynb``, ``.md``) without its
    solutions, ``_config.yml`` with ``irmeans_course`` set, anything else as it is.

    Examples
    --------
    >>> course_copy(Path("chapters/x.md"), b"A\\n\\n```{solution} q\\nB\\n```\\n")
    b'A\\n\\n'
    >>> course_copy(Path("lib/x.md"), b"```{solution} q\\nB\\n```\\n")
    b'```{solution} q\\nB\\n```\\n'
    >>> course_copy(Path("_config.yml"), b"sphinx:\\n  config:\\n    irmeans_course: false\\n")
    b'sphinx:\\n  config:\\n    irmeans_course: true\\n'
    """
    if Path(relative) == Path("_config.yml"):
        text, found = COURSE_SETTING.subn(r"\g<key>true", data.decode("utf-8"))
        if found != 1:
            raise ValueError(f"_config.yml sets irmeans_course: false {found} times, not once")
        return text.encode("utf-8")
    if Path(relative).parts[:1] != ("chapters",):
        return data
    if Path(relative).suffix == ".ipynb":
        return notebook_without_solutions(data.decode("utf-8")).encode("utf-8")
    if Path(relative).suffix == ".md":
        return without_solutions(data.decode("utf-8")).encode("utf-8")
    return data
