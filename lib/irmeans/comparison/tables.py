"""Tables of results as plain text, Markdown, LaTeX and CSV: one table, four spellings.

A :class:`Table` holds a title, notes, column names and rows of cells already turned into
text (the caller decides the digits); :func:`render` writes it in one of :data:`FORMATS`.
Columns whose every cell reads as a number are aligned to the right.  Each spelling escapes
what its syntax needs, so that no name (a system's, a file's) can break a table or reach a
terminal raw (:mod:`irmeans._display`, the one home of that): text shows a character that
does not print as its escape (a newline as ``\\n``, ESC as ``\\x1b``) and counts columns as a
terminal does (a Chinese character is two); Markdown escapes its punctuation as well and
writes a line break as ``<br>``; LaTeX escapes its special characters and writes a line
break, or a blank line, as a space (a blank line would end the paragraph).

The LaTeX is laid out for a page of the 10 pt article class on A4 (:data:`TEXT_WIDTH`): in
``\\small`` type, in ``\\footnotesize`` or ``\\scriptsize`` with narrower gaps when that does not
fit, with the columns of names wrapped when even that does not (a name too long for its column
broken anywhere); a table of more than :data:`LONG_ROWS` rows
is a ``longtable``, which breaks across pages and repeats its header. Its notes are its
caption, a sentence each. It needs ``\\usepackage{booktabs,longtable,array}`` (:data:`LATEX_NEEDS`).

>>> t = Table("Means", ("system", "AP"), [("bm25", "0.3120"), ("dfr_x", "0.2871")], notes=("per-topic AP",))
>>> print(render(t, "text"))
# Means
# Per-topic AP.
system      AP
bm25    0.3120
dfr_x   0.2871
>>> print(render(t, "markdown"))
**Means.** Per-topic AP.
<BLANKLINE>
| system | AP |
|:--|--:|
| bm25 | 0.3120 |
| dfr\\_x | 0.2871 |
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from .._display import shown, width

__all__ = [
    "Table",
    "FORMATS",
    "render",
    "latex_escape",
    "csv_text",
    "sentence",
    "text_lines",
    "LATEX_NEEDS",
    "TEXT_WIDTH",
    "LONG_ROWS",
    "NAME_BREAKS",
    "CAPTION_BREAKS",
    "counted",
    "latex_table",
    "latex_width",
    "save_text",
]

#: The spellings :func:`render` writes.
FORMATS = ("text", "markdown", "latex")
#: The first line of every LaTeX output: what the document must load for its tables.
LATEX_NEEDS = r"% needs \usepackage{booktabs,longtable,array} (\toprule, longtable, p columns)"
#: The text width, in points, of the 10 pt article class on A4 paper, which every LaTeX table fits.
TEXT_WIDTH = 345.0
#: The most rows a LaTeX table holds in one float; a longer one is a ``longtable``, across pages.
LONG_ROWS = 30

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


def sentence(note: str) -> str:
    """A note as a sentence: its first letter a capital, a full stop at its end.

    >>> sentence("each difference is A - B"), sentence("p-values are Holm-adjusted.")
    ('Each difference is A - B.', 'P-values are Holm-adjusted.')
    """
    note = note.strip()
    if not note:
        return note
    note = note[0].upper() + note[1:] if note[0].islower() else note
    return note if note.endswith((".", "?", "!")) else note + "."


#: Where a long name in a narrow LaTeX column may break: after a path's separators and the like.
NAME_BREAKS = "/_.-:"
#: Where a caption may break inside a path or a run's name.
CAPTION_BREAKS = "/_"


def counted(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless ``n`` is 1.

    >>> counted(1, "comparison"), counted(4950, "pair")
    ('1 comparison', '4,950 pairs')
    """
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


def _sentences(notes: Sequence[str]) -> str:
    """The notes run together as sentences, for a caption."""
    return " ".join(sentence(note) for note in notes if note.strip())


def text_lines(columns: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[bool]) -> list[str]:
    """A header and rows as aligned lines of text: each cell :func:`~irmeans._display.shown`, padded to its
    column's display width (right-aligned where ``right`` says), two spaces between columns.

    >>> text_lines(("名前", "AP"), [("检索", "0.5"), ("bm25", "0.25")], (False, True))
    ['名前    AP', '检索   0.5', 'bm25  0.25']
    """
    shown_rows = [[shown(c) for c in row] for row in [columns, *rows]]
    # each cell's columns counted once (its length where it is ASCII, as nearly every cell is)
    counted_rows = [[len(c) if c.isascii() else width(c) for c in row] for row in shown_rows]
    widths = [max(row[j] for row in counted_rows) for j in range(len(columns))]

    def line(cells: Sequence[str], counts: Sequence[int]) -> str:
        padded = [" " * (w - n) + c if r else c + " " * (w - n) for c, n, w, r in zip(cells, counts, widths, right)]
        return "  ".join(padded).rstrip()

    return [line(row, counts) for row, counts in zip(shown_rows, counted_rows)]


def _text(table: Table) -> str:
    head = [f"# {shown(table.title)}"] + [f"# {shown(sentence(note))}" for note in table.notes]
    return "\n".join(head + text_lines(table.columns, table.rows, _numeric(table)))


_MARKDOWN = re.compile(r"([\\`*_\[\]<>|~#&])")
_LINE_BREAK = re.compile(r"\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def _markdown_cell(text: str) -> str:
    """Text for a Markdown cell: its punctuation escaped, a line break as ``<br>``, nothing else that does not print."""
    escaped = _MARKDOWN.sub(r"\\\1", text)
    return "<br>".join(shown(part) for part in _LINE_BREAK.split(escaped))


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
    "α": r"$\alpha$",
    "↑": r"$\uparrow$",
    "↓": r"$\downarrow$",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
}

_LATEX_TABLE = str.maketrans(_LATEX)


def latex_escape(text: str, breaks: str = "") -> str:
    """``text`` for LaTeX: its special characters escaped, ε, −, ×, ≤, α and the arrows in math mode, a line break
    (or blank line, which would end the paragraph) as a space and anything else that does not print as its escape.

    Parameters
    ----------
    text : str
    breaks : str, default ""
        Characters after which a line may break (``"/_"`` for a path or a run name in a caption,
        :data:`NAME_BREAKS` in a narrow column of names).

    Returns
    -------
    str

    Examples
    --------
    >>> latex_escape("εGM (ε = 0.01), run_1 & 50%")
    '$\\\\varepsilon$GM ($\\\\varepsilon$ = 0.01), run\\\\_1 \\\\& 50\\\\%'
    >>> latex_escape("two\\n\\nparagraphs\\tno")
    'two paragraphs no'
    >>> latex_escape("runs/a_b", breaks="/_")
    'runs/\\\\allowbreak{}a\\\\_\\\\allowbreak{}b'
    """
    one_line = re.sub(r"\s+", " ", _LINE_BREAK.sub(" ", text.replace("\t", " ")))
    parts = re.split("([" + re.escape(breaks) + "])", shown(one_line)) if breaks else [shown(one_line)]
    escaped = [p.translate(_LATEX_TABLE) for p in parts]
    if not breaks:
        return escaped[0]
    # the separators sit at the odd places: a break allowed after each, unless it ends the text
    return "".join(p + (r"\allowbreak{}" if k % 2 and k < len(escaped) - 1 else "") for k, p in enumerate(escaped))


# Widths of characters in points, in the article class's \small type (cmr at 9 pt), a little generous.
_DIGIT, _LOWER, _UPPER, _OTHER = 4.63, 4.75, 6.9, 4.6
# The characters much wider than their kind (cmr's m and W, a math minus, #, % and & at 9 pt).
_WIDE = {c: 7.6 for c in "mw#%&@−×≤≥"} | {"M": 8.3, "W": 9.3}


def latex_width(text: str) -> float:
    """About how wide ``text`` (not escaped) sets in ``\\small`` type, in points; a little over, never much under.

    >>> round(latex_width("0.4339"), 1), round(latex_width("baseline"), 1)
    (27.8, 38.0)
    """
    total = 0.0
    for c in text:
        if c in _WIDE:
            total += _WIDE[c]
        elif c.isdigit() or c in ".,+-":
            total += _DIGIT
        elif c.islower():
            total += _LOWER
        elif c.isupper() or ord(c) > 0x2E7F:
            total += _UPPER
        else:
            total += _OTHER
    return total


# The type sizes a table may be set in, the first that fits: the name, its scale against \small, the gap.
# (cmr's smaller designs are wider for their size: a digit is 4.63 pt at 9 pt, 4.25 at 8 and 4.0 at 7.)
_SIZES = (("small", 1.0, 4.0), ("footnotesize", 0.92, 3.0), ("scriptsize", 0.87, 2.5))
#: The narrowest a wrapped column is made, in points.
_NARROWEST = 20.0
# Room kept in hand against the estimates of widths, in points.
_SLACK = 3.0


def _breakable(text: str, column: float, scale: float) -> str:
    """``text`` for a wrapped column ``column`` points wide in type ``scale`` times ``\\small``: escaped, breaking
    after a path's separators, and between any two characters of a word too wide for the column (a name without
    a place to break)."""
    words = []
    for word in re.sub(r"\s+", " ", shown(_LINE_BREAK.sub(" ", text))).split(" "):
        pieces = []  # the word's parts, each ending at a place to break, broken anywhere where too wide
        for piece in re.findall("[^" + re.escape(NAME_BREAKS) + "]*[" + re.escape(NAME_BREAKS) + "]?", word):
            if latex_width(piece) * scale <= column:
                pieces.append(piece.translate(_LATEX_TABLE))
            else:
                pieces.append(r"\allowbreak{}".join(c.translate(_LATEX_TABLE) for c in piece))
        words.append(r"\allowbreak{}".join(p for p in pieces if p))
    return " ".join(words)


@dataclass(frozen=True)
class _Layout:
    """How a LaTeX table is set: its type size, the gap at each side of a column, and the width of each column
    of words that is wrapped (None: set on one line)."""

    size: str
    scale: float
    gap: float
    wrapped: tuple[float | None, ...]


def _fill(natural: Sequence[float], least: Sequence[float], room: float) -> list[float]:
    """Widths that share ``room`` as water fills vessels: each column its natural width, or a common level where
    that is less, but never below its ``least`` (then the total may exceed the room)."""
    if sum(natural) <= room:
        return list(natural)
    low, high = 0.0, max(natural)
    for _ in range(60):  # the level, by bisection, to a small fraction of a point
        level = (low + high) / 2
        if sum(min(n, max(m, level)) for n, m in zip(natural, least)) > room:
            high = level
        else:
            low = level
    return [min(n, max(m, low)) for n, m in zip(natural, least)]


def _layout(columns: Sequence[Sequence[str]], right: Sequence[bool]) -> _Layout:
    """The first setting in which the table fits :data:`TEXT_WIDTH`, in each type size from ``\\small`` down:
    every column on one line, then with headers wider than their column's cells wrapped; in the smallest size,
    at last, with its columns of words wrapped too (``columns``: each column's header, then its cells)."""
    natural = [max(latex_width(c) for c in column) for column in columns]
    body = [max((latex_width(c) for c in column[1:]), default=0.0) for column in columns]
    n = len(natural)
    for size, scale, gap in _SIZES:
        room = TEXT_WIDTH - _SLACK - 2 * gap * n
        if sum(natural) * scale <= room:
            return _Layout(size, scale, gap, (None,) * n)
        widths = _fill([x * scale for x in natural], [max(b * scale, _NARROWEST) for b in body], room)
        if sum(widths) <= room:
            return _Layout(size, scale, gap, tuple(w if w < x * scale else None for w, x in zip(widths, natural)))
    size, scale, gap = _SIZES[-1]
    least = [max(b * scale, _NARROWEST) if r else _NARROWEST for b, r in zip(body, right)]
    widths = _fill([x * scale for x in natural], least, TEXT_WIDTH - _SLACK - 2 * gap * n)
    return _Layout(size, scale, gap, tuple(w if w < x * scale else None for w, x in zip(widths, natural)))


def latex_table(
    caption: str,
    head: Sequence[str],
    rows: Sequence[Sequence[str]],
    spec: str,
    size: str = "small",
    gap: float = 4.0,
) -> str:
    """A booktabs table, its cells already LaTeX: a ``table`` float, or a ``longtable`` across pages when it has
    more than :data:`LONG_ROWS` rows (its header repeated on each page).

    Parameters
    ----------
    caption : str
        LaTeX, a sentence or more.
    head : sequence of str
        The header's lines, each ending before its ``\\\\`` (several: a spanning line above the names).
    rows : sequence of sequence of str
        The cells of each row.
    spec : str
        The columns' specification (``llrr``).
    size : str
        The type size (``small``, ``footnotesize``).
    gap : float
        ``\\tabcolsep`` in points.

    Returns
    -------
    str

    Examples
    --------
    >>> print(latex_table("Two runs.", ["run & AP"], [["bm25", "0.3120"]], "lr"))
    \\begin{table}
    \\centering
    \\small
    \\setlength{\\tabcolsep}{4pt}
    \\caption{Two runs.}
    \\begin{tabular}{lr}
    \\toprule
    run & AP \\\\
    \\midrule
    bm25 & 0.3120 \\\\
    \\bottomrule
    \\end{tabular}
    \\end{table}
    """
    header = [line + r" \\" for line in head]
    body = [" & ".join(row) + r" \\" for row in rows]
    setting = [rf"\{size}", rf"\setlength{{\tabcolsep}}{{{gap:g}pt}}"]
    if len(rows) <= LONG_ROWS:
        return "\n".join(
            [r"\begin{table}", r"\centering", *setting, r"\caption{" + caption + "}"]
            + [r"\begin{tabular}{" + spec + "}", r"\toprule", *header, r"\midrule", *body]
            + [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
        )
    n = len(re.findall(r"[lrcp]", re.sub(r"\{[^}]*\}", "", spec)))
    return "\n".join(
        ["{" + "".join(setting), r"\begin{longtable}{" + spec + "}", r"\caption{" + caption + r"}\\"]
        + [r"\toprule", *header, r"\midrule", r"\endfirsthead"]
        + [rf"\multicolumn{{{n}}}{{l}}{{\emph{{(continued)}}}}\\", r"\toprule", *header, r"\midrule", r"\endhead"]
        + [r"\bottomrule", r"\endlastfoot", *body, r"\end{longtable}}"]
    )


def _latex(table: Table) -> str:
    right = _numeric(table)
    layout = _layout([[c, *(row[j] for row in table.rows)] for j, c in enumerate(table.columns)], right)
    spec = "".join(
        ("r" if r else "l")
        if w is None
        else rf">{{\{'raggedleft' if r else 'raggedright'}\arraybackslash}}p{{{w:.1f}pt}}"
        for r, w in zip(right, layout.wrapped)
    )

    def cells(row: Sequence[str]) -> list[str]:
        return [latex_escape(c) if w is None else _breakable(c, w, layout.scale) for c, w in zip(row, layout.wrapped)]

    caption = latex_escape(sentence(table.title) + " " + _sentences(table.notes), CAPTION_BREAKS)
    head = [" & ".join(cells(table.columns))]
    return latex_table(caption, head, [cells(row) for row in table.rows], spec, layout.size, layout.gap)


def render(table: Table, fmt: str) -> str:
    """``table`` as ``"text"`` (aligned columns, ``#`` notes), ``"markdown"`` (a pipe table) or ``"latex"``
    (a booktabs ``table``, or ``longtable`` when long, whose caption holds the notes; needs :data:`LATEX_NEEDS`).

    Examples
    --------
    >>> t = Table("Means", ("system", "AP"), [("bm25", "0.3120")], notes=("per-topic AP",))
    >>> print(render(t, "latex").splitlines()[4])
    \\caption{Means. Per-topic AP.}
    """
    if fmt == "text":
        return _text(table)
    if fmt == "markdown":
        return _markdown(table)
    if fmt == "latex":
        return _latex(table)
    raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {fmt!r}")


def csv_text(columns: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A CSV (comma-separated, quoted where needed, ``\\n`` line ends) of ``columns`` and ``rows``, valid UTF-8.

    A text cell is :func:`~irmeans._display.shown`: a character that does not print (ESC, a
    newline) as its escape, as the text report shows it, since CSV has no escapes of its own and
    a CSV is often read in a terminal; JSON keeps every name exactly.

    >>> csv_text(["a", "b"], [[1, "x,y"], [2, "run\\x1b[2J"]])
    'a,b\\n1,"x,y"\\n2,run\\\\x1b[2J\\n'
    """
    import csv  # here: the command line's other subcommands never need it

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([shown(c) for c in columns])
    writer.writerows([shown(c) if isinstance(c, str) else c for c in row] for row in rows)
    return out.getvalue()


def save_text(text: str, path: str | os.PathLike[str] | None) -> str:
    """Write ``text`` to ``path`` if given, in UTF-8 (a name's bytes that are not UTF-8 written back as read, as
    the command line writes them); return it.

    >>> save_text("a,b\\n", None)
    'a,b\\n'
    """
    if path is not None:
        with open(path, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
            f.write(text)
    return text
