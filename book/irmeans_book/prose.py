"""The computed parts of the chapters' prose: numbers, cross-references and citations.

Every value in a chapter's text that the code computes is written with the
``{eval}`` role, a Python expression evaluated in the chapter's kernel at that
point of the chapter, for example ``{eval}`f"{ch4_S1_GM:.3f}"```. Two front ends
read the same markdown:

- the site's build (myst-nb's inline execution) evaluates it while it runs
  the chapter, and prints the result in place;
- JupyterLab (jupyterlab-myst) evaluates it when the markdown cell is run and
  keeps the result in the cell's ``user_expressions`` metadata, which is what
  it shows when the notebook is opened: ``make notebooks`` stores it
  (``book/scripts/execute_notebooks.py``), and the book's single-page build for the
  PDF reads it from there too.

Cross-references and citations go the same way, because jupyterlab-myst can
resolve neither: a figure is a code cell's output it does not number, and it
has no bibliography, so ``{numref}`` and ``{cite:p}`` would show their labels
and keys. :func:`numref`, :func:`doc`, :func:`cite_p` and :func:`cite_t`
return a :class:`Reference`, whose MIME bundle holds both forms:

- ``text/plain``, the text the site shows ("Fig. 4.1", "Averaging across
  topics", "[Robertson, 2006]", "Ravana and Moffat [2009]"), which JupyterLab
  shows;
- :data:`MYST_MIMETYPE`, the MyST role itself, which the site's build parses
  in place (``book/extensions/irmeans_eval.py``), so the site keeps its numbered figure
  references and its citations linked to the bibliography. JupyterLab has no
  renderer for this type and ignores it.

The numbers, titles and authors come from the book being read: the chapters
are the notebooks in the folder the kernel runs in (the notebook's own, in
every front end), and the bibliography is :data:`BIBLIOGRAPHY` in the folder
above, as in the repository. A copy of a chapter elsewhere (a lecturer's, in a
course's folder) finds there what it can, and the rest in the book it was
copied from (:data:`BOOK_ROOT`): its figures are numbered as its own folder
numbers them, a reference to another chapter or a citation is the book's. An
expression must match :data:`EVAL_PATTERN`, which the site's build enforces too.

Examples
--------
>>> ref = Reference("Fig. 4.1", "{numref}`fig-ch4-eps`")
>>> ref
Fig. 4.1
>>> sorted(ref._repr_mimebundle_())
['text/plain', 'text/x.irmeans-myst']
>>> bool(re.match(EVAL_PATTERN, 'f"{ch4_S1_GM:.3f}"')), bool(re.match(EVAL_PATTERN, 'cite_p("trec_eval")'))
(True, True)
>>> bool(re.match(EVAL_PATTERN, "__import__('os')"))
False
>>> from pybtex.database import Entry, Person
>>> who_and_year(Entry("misc", {"year": "2009"}, {"author": [Person("Ravana, Sri Devi"), Person("Moffat, Alistair")]}))
('Ravana and Moffat', '2009')
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from docutils.utils.smartquotes import educateQuotes

__all__ = [
    "BIBLIOGRAPHY",
    "BOOK_ROOT",
    "EVAL_PATTERN",
    "FIGURE_FORMAT",
    "MYST_MIMETYPE",
    "Reference",
    "bibliography_order",
    "caption",
    "chapter_title",
    "cite_p",
    "cite_t",
    "doc",
    "eval_expressions",
    "exercise",
    "FRONT_MATTER",
    "without_front_matter",
    "labelled_years",
    "numbered_figures",
    "numref",
    "who_and_year",
]

#: The MIME type of a reference's MyST form: read by the site's build, unknown to JupyterLab.
MYST_MIMETYPE = "text/x.irmeans-myst"
#: How the site writes a figure's number (Sphinx's ``numfig_format`` for figures).
FIGURE_FORMAT = "Fig. {}"
#: The bibliography, in the folder above the chapters (``bibtex_bibfiles`` of ``_config.yml``).
BIBLIOGRAPHY = "references.bib"
#: The book this package belongs to (its ``chapters/`` and :data:`BIBLIOGRAPHY`): what a copy of a chapter
#: outside it falls back on.
BOOK_ROOT = Path(__file__).resolve().parents[2]

#: What an ``{eval}`` of the prose may be: a name, an f-string formatting one name
#: (``f"{x:.3f}"``), a reference (``numref("fig-ch4-eps")``, ``cite_p("a", "b")``), or a figure's
#: caption (``caption("fig-ch4-eps")``, for JupyterLab, which does not show myst-nb's captions).
EVAL_PATTERN = (
    r'^(?:[A-Za-z_]\w*|f"\{[A-Za-z_]\w*(?::[^{}"]*)?\}"'
    r'|(?:numref|doc|cite_p|cite_t|caption)\("[\w.:-]+"(?:, "[\w.:-]+")*\))$'
)
#: An ``{eval}`` role in markdown, and the expression in it.
EVAL_ROLE = re.compile(r"\{eval\}`([^`]+)`")
#: MyST front matter at the top of a markdown cell: a chapter's first cell carries its numbering for JupyterLab
#: (``book/scripts/execute_notebooks.py``), which the site's build takes off (``book/extensions/irmeans_eval.py``).
FRONT_MATTER = re.compile(r"\A---\n.*?\n---[ \t]*(?:\n|\Z)", re.S)


def without_front_matter(markdown: str) -> str:
    """``markdown`` without the front matter at its top, if it has any.

    >>> without_front_matter('---\\nnumbering:\\n  enumerator: "4.%s"\\n---\\n# Averaging')
    '# Averaging'
    >>> without_front_matter("# Averaging\\n\\n---\\n")
    '# Averaging\\n\\n---\\n'
    """
    return FRONT_MATTER.sub("", markdown, count=1)


# A figure directive in a markdown cell, with its :name: option.
FIGURE_DIRECTIVE = re.compile(
    r"^[`:]{3,}\{(?:figure|glue:figure)\}[^\n]*\n(?:[ \t]*:[^\n]*\n)*?[ \t]*:name:\s*(\S+)", re.M
)
# An exercise directive in a markdown cell (a self-check too), with its :label: option.
EXERCISE_DIRECTIVE = re.compile(r"^[`:]{3,}\{exercise\}[^\n]*\n(?:[ \t]*:[^\n]*\n)*?[ \t]*:label:\s*(\S+)", re.M)
#: How the site writes an exercise's number (sphinx-exercise's).
EXERCISE_FORMAT = "Exercise {}"
CHAPTER_FILES = "[0-9][0-9]-*.ipynb"


@dataclass(frozen=True)
class Reference:
    """A cross-reference or a citation: the site's text, and the MyST that makes it on the site."""

    text: str
    myst: str

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> dict[str, str]:
        return {"text/plain": self.text, MYST_MIMETYPE: self.myst}

    def __repr__(self) -> str:
        return self.text


def eval_expressions(markdown: str) -> list[str]:
    """The expressions of the ``{eval}`` roles in ``markdown``, in order, each once."""
    return list(dict.fromkeys(EVAL_ROLE.findall(markdown)))


# ---------------------------------------------------------------------------
# Chapters: their numbers, titles and figures
# ---------------------------------------------------------------------------


def _folder(chapters: Path | None) -> Path:
    return Path.cwd() if chapters is None else Path(chapters)


def _folders(chapters: Path | None) -> list[Path]:
    """Where to look for chapters, in order: ``chapters`` (by default the kernel's folder), then, unless a folder
    was named, the book's own ``chapters/`` (for a copy of a chapter outside it)."""
    folder = _folder(chapters)
    book = BOOK_ROOT / "chapters"
    if chapters is None and book.is_dir() and book.resolve() != folder.resolve():
        return [folder, book]
    return [folder]


def _source(path: Path) -> list[dict[str, Any]]:
    """A notebook's cells, read again only when the file changes."""
    stat = path.stat()
    return _read_cells(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=32)
def _read_cells(path: str, mtime_ns: int, size: int) -> list[dict[str, Any]]:
    cells = json.loads(Path(path).read_text(encoding="utf-8"))["cells"]
    return [{"cell_type": c["cell_type"], "metadata": c.get("metadata", {}), "source": c["source"]} for c in cells]


def numbered_figures(chapters: Path | None = None) -> list[dict[str, Any]]:
    """Every numbered figure in the chapters, in the book's order.

    Each is a dict with ``label``, ``chapter``, ``number`` (within its chapter)
    and ``caption``. A chapter's number is the number its file name starts with.
    """
    found = []
    for path in sorted(_folder(chapters).glob(CHAPTER_FILES)):
        chapter = int(path.name[:2])
        labels = []
        for cell in _source(path):
            figure = cell["metadata"].get("mystnb", {}).get("figure", {})
            if cell["cell_type"] == "code" and figure.get("name"):
                labels.append((figure["name"], figure.get("caption", "")))
            elif cell["cell_type"] == "markdown":
                labels.extend((name, "") for name in FIGURE_DIRECTIVE.findall("".join(cell["source"])))
        for number, (label, caption) in enumerate(labels, start=1):
            found.append({"label": label, "chapter": chapter, "number": number, "caption": caption})
    return found


def _figure(label: str, chapters: Path | None) -> dict[str, Any]:
    """The numbered figure ``label`` (:func:`numbered_figures`), from the first of :func:`_folders` that has it."""
    for folder in _folders(chapters):
        for figure in numbered_figures(folder):
            if figure["label"] == label:
                return figure
    raise ValueError(f"no figure labelled {label!r} in the chapters of {_folder(chapters)}")


def caption(label: str, chapters: Path | None = None) -> Reference:
    """The caption of figure ``label``, as its cell's metadata gives it to the site (myst-nb's
    ``mystnb.figure.caption``): for the line under the figure in JupyterLab, where jupyterlab-myst
    shows no caption (a markdown cell the site removes: :func:`lab_caption_source`)."""
    figure = _figure(label, chapters)
    # With the site's typographic quotes ("A’s", not "A's"), as Sphinx's smart quotes set it there.
    return Reference(educateQuotes(figure["caption"], language="en"), figure["caption"])


def lab_caption_source(label: str) -> str:
    """The markdown of a figure's caption cell for JupyterLab: its number and caption, both computed.

    >>> print(lab_caption_source("fig-ch4-eps"))
    **{eval}`numref("fig-ch4-eps")`** {eval}`caption("fig-ch4-eps")`
    """
    return f'**{{eval}}`numref("{label}")`** {{eval}}`caption("{label}")`'


def exercise(label: str, chapters: Path | None = None) -> Reference:
    """``{ref}`label```: "Exercise 4.1" for the first exercise of chapter 4, as the site numbers them (the
    exercises and the self-checks of a chapter, in order)."""
    for path in (p for folder in _folders(chapters) for p in sorted(folder.glob(CHAPTER_FILES))):
        labels = [
            found
            for cell in _source(path)
            if cell["cell_type"] == "markdown"
            for found in EXERCISE_DIRECTIVE.findall("".join(cell["source"]))
        ]
        if label in labels:
            number = f"{int(path.name[:2])}.{labels.index(label) + 1}"
            return Reference(EXERCISE_FORMAT.format(number), f"{{ref}}`{label}`")
    raise ValueError(f"no exercise labelled {label!r} in the chapters of {_folder(chapters)}")


def chapter_title(name: str, chapters: Path | None = None) -> str:
    """The title of document ``name`` as a reference in the text gives it: its first heading."""
    found = [path for folder in _folders(chapters) for path in (folder / f"{name}.ipynb", folder / f"{name}.md")]
    found = [path for path in found if path.is_file()]
    if not found:
        raise ValueError(f"no document {name!r} in {_folder(chapters)}")
    path = found[0]
    if path.suffix == ".ipynb":
        text = "\n".join("".join(c["source"]) for c in _source(path) if c["cell_type"] == "markdown")
    else:
        text = path.read_text(encoding="utf-8")
    heading = re.search(r"^# (.+)$", text, re.M)
    if heading is None:
        raise ValueError(f"{path.name} has no title")
    return heading.group(1).strip()


def numref(label: str, chapters: Path | None = None) -> Reference:
    """``{numref}`label```: "Fig. 4.1" for the first figure of chapter 4."""
    figure = _figure(label, chapters)
    number = f"{figure['chapter']}.{figure['number']}"
    return Reference(FIGURE_FORMAT.format(number), f"{{numref}}`{label}`")


def doc(name: str, chapters: Path | None = None) -> Reference:
    """``{doc}`name```: the document's title, "Averaging across topics"."""
    return Reference(chapter_title(name, chapters), f"{{doc}}`{name}`")


# ---------------------------------------------------------------------------
# Citations, author-year as the site writes them
# ---------------------------------------------------------------------------


def _surnames(entry: Any) -> list[str]:
    people = entry.persons.get("author") or entry.persons.get("editor") or []
    return [" ".join(name.render_as("text") for name in person.rich_last_names) for person in people]


def who_and_year(entry: Any) -> tuple[str, str]:
    """("Robertson", "2006"); ("Ravana and Moffat", "2009"); ("Webber et al.", "2008")."""
    names = _surnames(entry)
    if not names:
        who = entry.fields.get("organization") or entry.fields.get("title") or entry.key
    elif len(names) == 1:
        who = names[0]
    elif len(names) == 2:
        who = f"{names[0]} and {names[1]}"
    else:
        who = f"{names[0]} et al."
    return who, entry.fields.get("year", "n.d.")


def _bibliography_file(chapters: Path | None, keys: tuple[str, ...]) -> Path:
    """The bibliography that has ``keys``: the one above the chapters' folder, or else (for a copy of a chapter
    outside the book) the book's own."""
    candidates = [folder.parent / BIBLIOGRAPHY for folder in _folders(chapters)]
    existing = [path for path in candidates if path.is_file()]
    for path in existing:
        if set(keys) <= set(_bibliography(path)):
            return path
    if not existing:
        raise FileNotFoundError(f"no {BIBLIOGRAPHY} in {candidates[0].parent}")
    return existing[0]


def _bibliography(path: Path) -> Any:
    stat = path.stat()
    return _read_bibliography(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=4)
def _read_bibliography(path: str, mtime_ns: int, size: int) -> Any:
    from pybtex.database import parse_file

    return parse_file(path).entries


def bibliography_order(entry: Any) -> tuple[str, str]:
    """Where ``entry`` comes in the bibliography: by its author-year label, then by its title.

    The site lists a citation's works in this order too, whatever the order of the keys.
    """
    who, year = who_and_year(entry)
    return f"{who}, {year}".casefold(), entry.fields.get("title", "").casefold()


def labelled_years(entries: Any) -> dict[str, str]:
    """Each entry's year as its label writes it, by key: a letter after it tells two works apart.

    Works whose authors and year are the same ("Urbano et al., 2019") get "2019a", "2019b"... in
    the bibliography's order (:func:`bibliography_order`), as the bibliography labels them
    (``AuthorYearLabels`` of ``book/extensions/irmeans_site.py``), so that the text and the list agree.

    >>> from pybtex.database import Entry, Person
    >>> works = {key: Entry("misc", {"year": "2019", "title": title}, {"author": [Person("Urbano, J.")]})
    ...          for key, title in (("b", "Statistical testing"), ("a", "A new perspective"), ("c", "Other"))}
    >>> works["c"].fields["year"] = "2018"
    >>> sorted(labelled_years(works).items())
    [('a', '2019a'), ('b', '2019b'), ('c', '2018')]
    """
    entries = dict(entries)
    groups: dict[tuple[str, str], list[str]] = {}
    for key in sorted(entries, key=lambda key: bibliography_order(entries[key])):
        groups.setdefault(who_and_year(entries[key]), []).append(key)
    years = {}
    for (_, year), keys in groups.items():
        for i, key in enumerate(keys):
            years[key] = year if len(keys) == 1 else year + "abcdefghijklmnopqrstuvwxyz"[i]
    return {key: years[key] for key in entries}


def _cited(keys: tuple[str, ...], chapters: Path | None) -> list[tuple[str, str]]:
    if not keys:
        raise ValueError("cite at least one key")
    path = _bibliography_file(chapters, keys)
    entries = _bibliography(path)
    missing = [key for key in keys if key not in entries]
    if missing:
        raise ValueError(f"not in {BIBLIOGRAPHY}: {', '.join(missing)}")
    years = _labelled_years(path)
    return [
        (who_and_year(entries[key])[0], years[key])
        for key in sorted(keys, key=lambda key: bibliography_order(entries[key]))
    ]


def _labelled_years(path: Path) -> dict[str, str]:
    stat = path.stat()
    return _read_labelled_years(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=4)
def _read_labelled_years(path: str, mtime_ns: int, size: int) -> dict[str, str]:
    return labelled_years(_read_bibliography(path, mtime_ns, size))


def cite_p(*keys: str, chapters: Path | None = None) -> Reference:
    """``{cite:p}`a,b```: "[Manning et al., 2008, Zhai and Massung, 2016]"."""
    text = ", ".join(f"{who}, {year}" for who, year in _cited(keys, chapters))
    return Reference(f"[{text}]", f"{{cite:p}}`{','.join(keys)}`")


def cite_t(*keys: str, chapters: Path | None = None) -> Reference:
    """``{cite:t}`a```: "Ravana and Moffat [2009]"."""
    text = ", ".join(f"{who} [{year}]" for who, year in _cited(keys, chapters))
    return Reference(text, f"{{cite:t}}`{','.join(keys)}`")
