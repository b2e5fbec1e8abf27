"""Tables of results as plain text, Markdown, LaTeX and CSV: one table, four spellings.

A :class:`Table` holds a title, notes, column names and rows of cells already turned into
text (the caller decides the digits); :func:`render` writes it in one of :data:`FORMATS`.
Columns whose every cell reads as a number are aligned to the right.  Each spelling escapes
what its syntax needs, so that no name (a system's, a file's) can break a table: text shows a
character that does not print as its escape (a newline as ``\n``), Markdown escapes its
punctuation and writes a line break as ``<br>``, LaTeX escapes its special characters and
writes a line break, or a blank line, as a space (a blank line would end the paragraph).

>>> t = Table("Means", ("system", "AP"), [("bm25", "0.3120"), ("dfr_x", "0.2871")], notes=("per-topic AP",))
>>> print(render(t, "text"))
# Means
# per-topic AP
system      AP
bm25    0.3120
dfr_x   0.2871
>>> print(render(t, "markdown"))
**Means.** per-topic AP.
<BLANKLINE>
| system | AP |
|:--|--:|
| bm25 | 0.3120 |
| dfr\\_x | 0.2871 |
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["Table", "FORMATS", "render", "latex_escape", "csv_text"]

#: The spellings :func:`render` writes.
FORMATS = ("text", "markdown", "latex")

_NUMBER = re.compile(r"[-+−]?(\d[\d,]*\.?\d*|\.\d+)([eE][-+]?\d+)?[*^]?|[<>]\d.*|-|")


@dataclass(frozen=True)
class Table:
    """A titled table: ``columns`` names, ``rows`` of text cells, ``notes`` said before it (or in its caption)."""

    title: str
    columns: Sequence[str]
    rows: Sequence[Sequence[str]]
    notes: Sequence[str] = field(default_factory=tuple)


def _numeric(table: Table) -> list[bool]:
    return [
        bool(table.rows) and all(_NUMBER.fullmatch(row[j].strip()) for row in table.rows)
        for j in range(len(table.columns))
    ]


def _shown(text: str) -> str:
    """Text on one line: a character that does not print (a newline, a tab) as its escape."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _text(table: Table) -> str:
    table = Table(
        _shown(table.title),
        [_shown(c) for c in table.columns],
        [[_shown(c) for c in row] for row in table.rows],
        [_shown(n) for n in table.notes],
    )
    widths = [max([len(c)] + [len(row[j]) for row in table.rows]) for j, c in enumerate(table.columns)]
    right = _numeric(table)

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if r else c.ljust(w) for c, w, r in zip(cells, widths, right)).rstrip()

    head = [f"# {table.title}"] + [f"# {note}" for note in table.notes]
    return "\n".join(head + [line(table.columns)] + [line(row) for row in table.rows])


def _sentences(notes: Sequence[str]) -> str:
    """The notes run together as sentences, for a caption."""
    return " ".join(note if note.endswith(".") else note + "." for note in notes)


_MARKDOWN = re.compile(r"([\\`*_\[\]<>|~#&])")
_LINE_BREAK = re.compile(r"\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def _markdown_cell(text: str) -> str:
    """Text for a Markdown cell: its punctuation escaped, a line break as ``<br>``, nothing else that does not print."""
    escaped = _MARKDOWN.sub(r"\\\1", text)
    return "<br>".join(_shown(part) for part in _LINE_BREAK.split(escaped))


def _markdown(table: Table) -> str:
    align = ["--:" if r else ":--" for r in _numeric(table)]
    lines = [f"**{_markdown_cell(table.title)}.** " + _markdown_cell(_sentences(table.notes)), ""]
    lines.append("| " + " | ".join(_markdown_cell(c) for c in table.columns) + " |")
    lines.append("|" + "|".join(align) + "|")
    lines += ["| " + " | ".join(_markdown_cell(c) for c in row) + " |" for row in table.rows]
    return "\n".join(lines)


_LATEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "ε": r"$\varepsilon$",
    "−": r"$-$",
    "×": r"$\times$",
    "≤": r"$\leq$",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
}

_LATEX_TABLE = str.maketrans(_LATEX)


def latex_escape(text: str) -> str:
    """``text`` for LaTeX: its special characters escaped, ε, −, × and ≤ in math mode, a line break (or blank line,
    which would end the paragraph) as a space and anything else that does not print as its escape.

    >>> latex_escape("εGM (ε = 0.01), run_1 & 50%")
    '$\\\\varepsilon$GM ($\\\\varepsilon$ = 0.01), run\\\\_1 \\\\& 50\\\\%'
    >>> latex_escape("two\\n\\nparagraphs\\tno")
    'two paragraphs no'
    """
    one_line = re.sub(r"\s+", " ", _LINE_BREAK.sub(" ", text.replace("\t", " ")))
    return _shown(one_line).translate(_LATEX_TABLE)


def _latex(table: Table) -> str:
    align = "".join("r" if r else "l" for r in _numeric(table))
    caption = latex_escape(table.title + ". " + _sentences(table.notes))
    lines = [
        r"\begin{table}",
        r"\centering",
        r"\caption{" + caption + "}",
        r"\begin{tabular}{" + align + "}",
        r"\toprule",
        " & ".join(latex_escape(c) for c in table.columns) + r" \\",
        r"\midrule",
    ]
    lines += [" & ".join(latex_escape(c) for c in row) + r" \\" for row in table.rows]
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
    return "\n".join(lines)


def render(table: Table, fmt: str) -> str:
    """``table`` as ``"text"`` (aligned columns, ``#`` notes), ``"markdown"`` (a pipe table) or ``"latex"``
    (a booktabs ``table`` whose caption holds the notes; needs ``\\usepackage{booktabs}``)."""
    if fmt == "text":
        return _text(table)
    if fmt == "markdown":
        return _markdown(table)
    if fmt == "latex":
        return _latex(table)
    raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")


def csv_text(columns: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A CSV (comma-separated, quoted where needed, ``\\n`` line ends) of ``columns`` and ``rows``.

    >>> csv_text(["a", "b"], [[1, "x,y"]])
    'a,b\\n1,"x,y"\\n'
    """
    import csv  # here: the command line's other subcommands never need it

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(rows)
    return out.getvalue()
