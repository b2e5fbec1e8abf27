"""The table a paper prints: a row per system, a column per measure × average, marks where a system differs.

:func:`results_table` makes a :class:`ResultsTable` from the comparisons of one or more
measures (:meth:`irmeans.comparison.result.Comparison.results_table`,
:meth:`irmeans.comparison.by_measure.MeasureComparisons.results_table`). Each cell is a
system's average; the best of each column, as printed, is bold (ties all bold). The marks
are the comparison's own verdicts, so they carry its Holm correction (over the ``holm``
family: each measure's pairs × averages, or every measure's together) and its marking test:

- with a baseline, ↑ (↓) marks a system significantly higher (lower) than the baseline under
  that measure and average, and the baseline comes first;
- without one, every pair was compared: the systems are lettered (a, b, c…) and a value
  carries, as a superscript, the letters of the systems it is significantly better than
  (the way ranx and many IR papers mark every pair); more than :data:`MAX_LETTERED` systems
  get no marks, and the caption says why.

The caption states the family, the test, α and what each mark means; a notebook shows the table as
Markdown, ``print`` as text. Text marks the best with
``**`` on each side (as Markdown writes bold); LaTeX uses booktabs, two header rows when there
are several measures (a measure over its averages), and fits the page of the 10 pt article class
on A4 by splitting the columns into several tables where they would not fit in one
(:data:`~irmeans.comparison.tables.TEXT_WIDTH`); a long table is a ``longtable``. CSV and JSON
hold a row per system, measure and average, the value unrounded.

>>> import irmeans
>>> scores = {"base": {"1": 0.1, "2": 0.2, "3": 0.3}, "new": {"1": 0.3, "2": 0.4, "3": 0.6}}
>>> table = irmeans.compare(scores, ["am"], baseline="base", test="t").results_table()
>>> table.systems, table.marks[1][0], table.best[1][0]
(('base', 'new'), '↑', True)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._display import json_text, shown, width, wrap
from ..errors import IrmeansError
from .tables import (
    CAPTION_BREAKS,
    LATEX_NEEDS,
    NAME_BREAKS,
    TEXT_WIDTH,
    counted,
    csv_text,
    latex_escape,
    latex_table,
    latex_width,
    save_text,
    sentence,
    text_lines,
)

# A Comparison is typed as Any here: its module imports this one, and the library's modules form no cycle.
Comparison = Any

__all__ = ["ResultsTable", "results_table", "RESULTS_FORMATS", "UP", "DOWN", "MAX_LETTERED"]

#: What :meth:`ResultsTable.format` writes.
RESULTS_FORMATS = ("text", "markdown", "latex", "csv", "json")
#: The marks of a system significantly higher, and lower, than the baseline.
UP, DOWN = "↑", "↓"
#: The most systems lettered (a to z) to mark every pair, without a baseline; more get no marks.
MAX_LETTERED = 26
#: The widest line of the text.
WIDTH = 100

_BOLD = "The best value of each column is in bold (ties all in bold)"
_BOLD_IN_TEXT = "The best value of each column is between ** (ties all)"
_TESTS = {"randomization": "the randomization test", "t": "the t-test on each average's scale", "sign": "the sign test"}


def _letters(n: int) -> tuple[str, ...]:
    """a, b, … z, then aa, ab, …: a short name for each of n systems."""
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    out = []
    for i in range(n):
        name = ""
        i += 1
        while i:
            i, r = divmod(i - 1, 26)
            name = alphabet[r] + name
        out.append(name)
    return tuple(out)


@dataclass(frozen=True)
class ResultsTable:
    """A row per system, a column per measure × average: the values, their marks and the best of each column.

    Attributes
    ----------
    label : str
        What the scores are (the first measure's label).
    systems : tuple of str
        The rows, in order (the baseline first, when there is one).
    baseline : str or None
    letters : tuple of str
        Each system's letter (a, b, c…): the marks without a baseline.
    columns : tuple of (str, str, str)
        Each column's measure, average spec and average label.
    values : ndarray, shape (systems, columns)
    marks : tuple of tuple of str
        Each cell's mark: ↑ or ↓ against the baseline, or the letters of the systems it is significantly
        better than, or "".
    best : tuple of tuple of bool
        The cells that print the best value of their column (ties all).
    notes : tuple of str
        The caption, a sentence each: what the table shows, the family, the test, α, the marks.
    digits : int
        The decimals printed.
    """

    label: str
    systems: tuple[str, ...]
    baseline: str | None
    letters: tuple[str, ...]
    columns: tuple[tuple[str, str, str], ...]
    values: np.ndarray
    marks: tuple[tuple[str, ...], ...]
    best: tuple[tuple[bool, ...], ...]
    notes: tuple[str, ...]
    digits: int = 4

    @property
    def measures(self) -> tuple[str, ...]:
        """The measures, in the columns' order, each once.

        Examples
        --------
        >>> import irmeans
        >>> scores = {"base": {"1": 0.1, "2": 0.2, "3": 0.3}, "new": {"1": 0.3, "2": 0.4, "3": 0.6}}
        >>> table = irmeans.compare(scores, ["am"], baseline="base", test="t").results_table()
        >>> table.measures
        ('',)
        """
        return tuple(dict.fromkeys(m for m, _, _ in self.columns))

    def _row_names(self) -> list[str]:
        if self.baseline is not None:
            return [f"{s} (baseline)" if s == self.baseline else s for s in self.systems]
        return [f"({x}) {s}" for x, s in zip(self.letters, self.systems)]

    def _value(self, i: int, j: int) -> str:
        return f"{self.values[i, j]:.{self.digits}f}"

    def rows(self) -> list[dict[str, Any]]:
        """A dict per system, measure and average (systems outer): the value unrounded, its mark and whether it is
        the best of its column.

        Examples
        --------
        >>> import irmeans
        >>> scores = {"base": {"1": 0.1, "2": 0.2, "3": 0.3}, "new": {"1": 0.3, "2": 0.4, "3": 0.6}}
        >>> table = irmeans.compare(scores, ["am"], baseline="base", test="t").results_table()
        >>> [(r["system"], r["mark"], r["best"]) for r in table.rows()]
        [('base', '', False), ('new', '↑', True)]
        """
        out = []
        for i, system in enumerate(self.systems):
            for j, (measure, spec, label) in enumerate(self.columns):
                out.append(
                    {
                        "system": system,
                        "letter": self.letters[i],
                        "baseline": system == self.baseline,
                        "measure": measure,
                        "average": spec,
                        "label": label,
                        "value": float(self.values[i, j]),
                        "mark": self.marks[i][j],
                        "best": self.best[i][j],
                    }
                )
        return out

    # -- each format ------------------------------------------------------------------------------------------

    def _groups(self, fits: Any) -> list[list[int]]:
        """The columns in groups that each fit (``fits(columns)``): whole measures where they can."""
        by_measure = [[j for j, c in enumerate(self.columns) if c[0] == m] for m in self.measures]
        groups: list[list[int]] = []
        for columns in by_measure:
            for j in columns:
                if groups and fits(groups[-1] + [j]) and (groups[-1][-1] + 1 == j):
                    same = self.columns[groups[-1][0]][0] == self.columns[j][0]
                    if same or fits(groups[-1] + columns):
                        groups[-1].append(j)
                        continue
                groups.append([j])
        return groups

    def _text(self) -> str:
        names = self._row_names()
        several = len(self.measures) > 1

        def cells(columns: list[int]) -> tuple[list[str], list[list[str]]]:
            head = [(f"{self.columns[j][0]}: " if several else "") + self.columns[j][2] for j in columns]
            body = [
                [
                    ("**" if self.best[i][j] else "")
                    + self._value(i, j)
                    + ("**" if self.best[i][j] else "")
                    + shown(self.marks[i][j])
                    for j in columns
                ]
                for i in range(len(self.systems))
            ]
            return head, body

        def fits(columns: list[int]) -> bool:
            head, body = cells(columns)
            lines = text_lines(["system", *head], [[n, *row] for n, row in zip(names, body)], [False] * (1 + len(head)))
            return max(map(width, lines)) <= WIDTH

        blocks = []
        for columns in self._groups(fits):
            head, body = cells(columns)
            lines = text_lines(["system", *head], [[n, *row] for n, row in zip(names, body)], [False] * (1 + len(head)))
            blocks.append("\n".join(lines))
        from .report import glued_label  # a path in the label is never broken

        said_first = shown(sentence(f"Results: {self.notes[0]}")).replace(shown(self.label), glued_label(self.label))
        title = wrap(said_first, WIDTH, "# ", "#   ")
        said = [_BOLD_IN_TEXT if note == _BOLD else note for note in self.notes[1:]]
        caption = [line for note in said for line in wrap(shown(sentence(note)), WIDTH, "# ", "#   ")]
        return "\n".join(title) + "\n" + "\n\n".join(blocks) + "\n\n" + "\n".join(caption)

    def _markdown(self) -> str:
        from .tables import _markdown_cell

        several = len(self.measures) > 1
        head = ["system"] + [(f"{m}: " if several else "") + label for m, _, label in self.columns]
        lines = [
            "**Results.** " + _markdown_cell(" ".join(sentence(n) for n in self.notes)),
            "",
            "| " + " | ".join(_markdown_cell(h) for h in head) + " |",
            "|:--|" + "--:|" * len(self.columns),
        ]
        for i, name in enumerate(self._row_names()):
            cells = [_markdown_cell(name)]
            for j in range(len(self.columns)):
                value = self._value(i, j)
                mark = self.marks[i][j]
                mark = mark if mark in (UP, DOWN) or not mark else f"<sup>{mark}</sup>"
                cells.append((f"**{value}**" if self.best[i][j] else value) + mark)
            lines.append("| " + " | ".join(cells) + " |")
        return "\n".join(lines)

    def _latex_cell(self, i: int, j: int) -> str:
        value = self._value(i, j)
        cell = rf"\textbf{{{value}}}" if self.best[i][j] else value
        mark = self.marks[i][j]
        if mark in (UP, DOWN):  # set in the gap, so that the numbers of a column align
            return cell + r"\rlap{$^{" + (r"\uparrow" if mark == UP else r"\downarrow") + "}$}"
        return cell + (r"$^{\mathrm{" + mark + "}}$" if mark else "")

    @staticmethod
    def _label_lines(label: str) -> tuple[str, str]:
        """An average's label on two header lines where it has a parenthesis (``εGM`` over ``(ε = 0.01)``)."""
        name, paren, rest = label.partition(" (")
        return (name, "(" + rest) if paren else (label, "")

    def _latex(self) -> str:
        names = [latex_escape(n, NAME_BREAKS) for n in self._row_names()]
        several = len(self.measures) > 1
        gap = 4.0
        name_width = max(latex_width(n) for n in [*self._row_names(), "system"])
        name_width = min(name_width, 0.4 * TEXT_WIDTH)  # a longer name is wrapped

        def column_width(j: int) -> float:
            label = self.columns[j][2]
            name, _, rest = label.partition(" (")
            cells = [self._value(i, j) + "↑↑" for i in range(len(self.systems))]
            marks = max((latex_width(m) * 0.7 for row in self.marks for m in [row[j]]), default=0.0)
            return max(latex_width(name), latex_width("(" + rest), *(latex_width(c) * 1.1 for c in cells)) + marks

        def fits(columns: list[int]) -> bool:
            return name_width + sum(column_width(j) for j in columns) + 2 * gap * (1 + len(columns)) <= TEXT_WIDTH

        long_name = max(latex_width(n) for n in self._row_names()) > name_width
        first = rf">{{\raggedright\arraybackslash}}p{{{name_width:.0f}pt}}" if long_name else "l"
        align = "r" if self.baseline is not None else "l"
        groups = self._groups(fits)
        caption = latex_escape(
            " ".join(sentence(n) for n in ("Results: " + self.notes[0], *self.notes[1:])), CAPTION_BREAKS
        )
        tables = []
        for part, columns in enumerate(groups):
            head = []
            if several:
                spans, rules, at = [""], [], 2
                for m in dict.fromkeys(self.columns[j][0] for j in columns):
                    n = sum(1 for j in columns if self.columns[j][0] == m)
                    spans.append(rf"\multicolumn{{{n}}}{{c}}{{{latex_escape(m)}}}")
                    rules.append(rf"\cmidrule(lr){{{at}-{at + n - 1}}}")
                    at += n
                head.append(" & ".join(spans) + r" \\ " + " ".join(rules))
            lines = [self._label_lines(self.columns[j][2]) for j in columns]
            head.append(" & ".join(["System", *(latex_escape(name) for name, _ in lines)]))
            if any(paren for _, paren in lines):
                head.append(" & ".join(["", *(latex_escape(paren) for _, paren in lines)]))
            rows = [[names[i], *(self._latex_cell(i, j) for j in columns)] for i in range(len(self.systems))]
            text = caption if part == 0 else latex_escape(f"Results, continued ({part + 1} of {len(groups)}).")
            spec = first + align * len(columns)
            tables.append(latex_table(text, head, rows, spec, "small", gap))
        return "\n\n".join(tables)

    def format(self, fmt: str = "text") -> str:
        """The table in one of :data:`RESULTS_FORMATS`.

        Parameters
        ----------
        fmt : {"text", "markdown", "latex", "csv", "json"}
            Text (aligned, the best between ``**``), a Markdown pipe table, booktabs LaTeX (after a comment line
            saying what it needs, :data:`~irmeans.comparison.tables.LATEX_NEEDS`), or CSV or JSON of
            :meth:`rows`.

        Returns
        -------
        str

        Examples
        --------
        >>> import irmeans
        >>> scores = {"base": {"1": 0.1, "2": 0.2, "3": 0.3}, "new": {"1": 0.3, "2": 0.4, "3": 0.6}}
        >>> table = irmeans.compare(scores, ["am"], baseline="base", test="t").results_table()
        >>> print(table.format("markdown").splitlines()[-1])
        | new | **0.4333**↑ |
        """
        if fmt == "text":
            return self._text() + "\n"
        if fmt == "markdown":
            return self._markdown() + "\n"
        if fmt == "latex":
            return LATEX_NEEDS + "\n" + self._latex() + "\n"
        if fmt == "csv":
            rows = self.rows()
            columns = list(rows[0]) if rows else ["system"]
            return csv_text(columns, [[repr(v) if isinstance(v, float) else v for v in r.values()] for r in rows])
        if fmt == "json":
            data = {"caption": [sentence(n) for n in self.notes], "rows": self.rows()}
            return json_text(data) + "\n"
        raise ValueError(f"format must be one of {', '.join(RESULTS_FORMATS)}, got {fmt!r}")

    def to_latex(self) -> str:
        """:meth:`format` ``"latex"``: booktabs, the caption first.

        Examples
        --------
        >>> import irmeans
        >>> scores = {"base": {"1": 0.1, "2": 0.2, "3": 0.3}, "new": {"1": 0.3, "2": 0.4, "3": 0.6}}
        >>> table = irmeans.compare(scores, ["am"], baseline="base", test="t").results_table()
        >>> print(table.to_latex().splitlines()[-4])
        new & \\textbf{0.4333}\\rlap{$^{\\uparrow}$} \\\\
        """
        return self.format("latex")

    def to_markdown(self) -> str:
        """:meth:`format` ``"markdown"``: a pipe table after its caption.

        Examples
        --------
        >>> import irmeans
        >>> scores = {"base": {"1": 0.1, "2": 0.2, "3": 0.3}, "new": {"1": 0.3, "2": 0.4, "3": 0.6}}
        >>> table = irmeans.compare(scores, ["am"], baseline="base", test="t").results_table()
        >>> table.to_markdown().splitlines()[2]
        '| system | AM |'
        """
        return self.format("markdown")

    def save(self, path: str | os.PathLike[str], fmt: str = "latex") -> None:
        """Write :meth:`format` ``fmt`` to ``path`` (UTF-8).

        Examples
        --------
        >>> import irmeans, os, tempfile
        >>> scores = {"base": {"1": 0.1, "2": 0.2, "3": 0.3}, "new": {"1": 0.3, "2": 0.4, "3": 0.6}}
        >>> path = os.path.join(tempfile.mkdtemp(), "results.tex")
        >>> irmeans.compare(scores, ["am"], baseline="base").results_table().save(path)
        >>> open(path, encoding="utf-8").read().startswith("% needs")
        True
        """
        save_text(self.format(fmt), path)

    def __str__(self) -> str:
        return self.format("text")

    def __repr__(self) -> str:
        return f"ResultsTable({self.label!r}, systems={len(self.systems)}, columns={len(self.columns)})"

    def _repr_markdown_(self) -> str:
        """A notebook shows the table as Markdown: a table under its caption."""
        return self._markdown()


def _best(values: np.ndarray, digits: int) -> np.ndarray:
    """Where each column's value prints as its largest (ties, as printed, all)."""
    printed = np.round(values, digits)
    text = np.vectorize(lambda v: f"{v:.{digits}f}")(values) if values.size else values.astype(str)
    shown_max = np.array([text[np.argmax(printed[:, j]), j] if values.shape[0] else "" for j in range(values.shape[1])])
    return np.asarray(text == shown_max[None, :])


def _family(by_measure: Sequence[tuple[str, Comparison]]) -> str:
    c = by_measure[0][1]
    n_pairs, n_avg = c.first.size, len(c.averages)
    what = counted(n_pairs, "system" if c.baseline is not None else "pair") + " x " + counted(n_avg, "average")
    if c.holm_family is None:
        which = "each measure" if len(by_measure) > 1 else "the measure"
        return f"over the {counted(c.comparisons, 'comparison')} of {which} ({what})"
    return (
        f"over the {counted(c.comparisons, 'comparison')} of every measure together ({what} x "
        f"{len(by_measure)} measures)"
    )


def _tests(by_measure: Sequence[tuple[str, Comparison]]) -> str:
    used = {c.test for _, c in by_measure}
    if len(used) == 1:
        return _TESTS[used.pop()]
    return "; ".join(f"for {m}, {_TESTS[c.test]}" for m, c in by_measure)


def results_table(by_measure: Sequence[tuple[str, Comparison]], digits: int = 4) -> ResultsTable:
    """The :class:`ResultsTable` of one or more measures' comparisons (the same systems, averages and baseline).

    Parameters
    ----------
    by_measure : sequence of (str, Comparison)
        Each measure's name and comparison, in the columns' order.
    digits : int, default 4
        Decimals printed (and compared for the best of each column).

    Returns
    -------
    ResultsTable

    Examples
    --------
    >>> import irmeans
    >>> scores = {"a": {"1": 0.1, "2": 0.2, "3": 0.3}, "b": {"1": 0.3, "2": 0.4, "3": 0.6}}
    >>> t = results_table([("map", irmeans.compare(scores, ["am"], test="t"))])
    >>> t.letters, t.marks
    (('a', 'b'), (('',), ('a',)))
    """
    if not by_measure:
        raise IrmeansError("no comparisons to tabulate")
    c0 = by_measure[0][1]
    names = c0.matrix.systems
    for measure, c in by_measure:
        if c.matrix.systems != names or c.baseline != c0.baseline:
            raise IrmeansError(f"{measure}: its systems or baseline are not the first measure's")
    order = list(range(len(names)))
    if c0.baseline is not None:
        b = names.index(c0.baseline)
        order = [b] + [i for i in order if i != b]
    systems = tuple(names[i] for i in order)
    letters = _letters(len(systems))
    position = {i: row for row, i in enumerate(order)}
    lettered = c0.baseline is not None or len(systems) <= MAX_LETTERED
    columns, values, marks = [], [], []
    for measure, c in by_measure:
        sig, better = c.significant, c.better
        for k, avg in enumerate(c.averages):
            columns.append((measure or c.matrix.label, avg.spec, avg.label))
            values.append(c.means[k, order])
            cell: list[list[str]] = [[] for _ in systems]
            for j in np.flatnonzero(sig[k]).tolist() if lettered else []:
                a, b = position[int(c.first[j])], position[int(c.second[j])]
                if better[k, j] == 0:
                    continue
                if c.baseline is not None:
                    cell[a].append(UP if better[k, j] > 0 else DOWN)
                else:
                    winner, loser = (a, b) if better[k, j] > 0 else (b, a)
                    cell[winner].append(letters[loser])
            marks.append(["".join(sorted(x, key=lambda s: (len(s), s))) for x in cell])
    matrix = np.stack(values, axis=1) if values else np.empty((len(systems), 0))
    best = _best(matrix, digits)
    what = c0.matrix.label or "scores"
    held = f"Holm-adjusted p < {c0.alpha:g} {_family(by_measure)}"
    if c0.baseline is not None:
        first = f"{what}, each system against {c0.baseline}"
        mark_note = f"{UP} ({DOWN}): significantly higher (lower) than {c0.baseline} by {_tests(by_measure)}, {held}"
    elif not lettered:
        first = f"{what}, every pair of systems compared (no baseline)"
        mark_note = (
            f"No marks: with no baseline, the {len(systems)} systems are more than the {MAX_LETTERED} that letters "
            "can mark (give a baseline, or choose fewer systems)"
        )
    else:
        first = f"{what}, every pair of systems compared (no baseline)"
        mark_note = (
            f"A superscript letter names a system this one is significantly better than by {_tests(by_measure)}, {held}"
        )
    notes = (
        first,
        _BOLD,
        mark_note,
        "No mark: no difference the test finds, which is not evidence of none",
    )
    return ResultsTable(
        label=what,
        systems=systems,
        baseline=c0.baseline,
        letters=letters,
        columns=tuple(columns),
        values=matrix,
        marks=tuple(tuple(row) for row in zip(*marks)) if marks else tuple(() for _ in systems),
        best=tuple(tuple(bool(x) for x in row) for row in best),
        notes=notes,
        digits=digits,
    )
