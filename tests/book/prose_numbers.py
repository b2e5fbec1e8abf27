"""The numbers typed in the book's prose, for tests/book/test_prose_numbers.py.

A number the data or the library decide is computed where the prose uses it
(an ``{eval}`` role); a number typed in the text must be one that no
computation decides: a definition the text makes, a value quoted from a cited
source, or a count that is the text's own structure. :func:`typed_numbers`
finds every number typed in prose, leaving out what is not prose or not a
quantity:

- front matter (``---`` ... ``---``, first in a cell); maths (``$...$``, ``$$...$$``), roles (``{eval}`...```, ``{cite:p}`...```),
  code spans, fenced and indented code, headings, labels and directive options;
- years (1900 to 2099), and the numbers of chapters, sections, figures, tables,
  equations and exercises, the book's or a cited source's ("chapter 3",
  "§5.2", "Figures 9 and 10", "Table 3(c)");
- names with a number in them: TREC-8, TREC8, P@10, ERR@20, S1, sys110, log10;
  addresses (127.0.0.1) and a numbered list's markers.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

#: A number: digits with thousands commas and decimals, a power of ten written 10⁻⁵, a percentage.
NUMBER = re.compile(r"(?<![\w.@/−-])(?:[−-]\s?)?\d+(?:,\d{3})*(?:\.\d+)?(?:[eE][−-]?\d+)?(?:⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)?(?![\w@])")
#: Words after which a number is the number of a part of a text, the book's or a source's.
PART = re.compile(
    r"(?:\b(?:[Cc]hapters?|[Ss]ections?|[Ff]igures?|Fig\.|[Tt]ables?|[Ee]quations?|Exercises?|[Pp]arts?|ch\.|"
    r"[Ff]ig\.)|§)\s*$"
)
#: After a part's number: "1 and 3", "9, 10 and 11", "3(c)", "5.2".
MORE_PARTS = re.compile(r"^(?:\(\w\))?(?:(?:,\s*|\s+and\s+|\s+or\s+|\s*[–-]\s*)\d+(?:\.\d+)?)*")
YEAR = re.compile(r"^(?:19|20)\d\d$")


@dataclass(frozen=True)
class Typed:
    """A number typed in prose: where, the number as typed, and the text around it."""

    source: str
    cell: int
    number: str
    context: str


def _blank(match: re.Match) -> str:
    """The matched text as spaces, keeping its newlines (so that positions and lines stay)."""
    return re.sub(r"[^\n]", " ", match.group(0))


def _blank_lines(markdown: str) -> str:
    """``markdown`` with code blocks, directive lines and options, headings, labels and list markers blanked."""
    out = []
    fences: list[tuple[str, bool]] = []  # the open fences: marker, and whether the block is code
    previous_blank = True
    for line in markdown.split("\n"):
        fence = re.match(r"^\s*([`~]{3,}|:{3,})\s*(.*?)\s*$", line)
        blank = " " * len(line)
        if fences and fences[-1][1]:  # in a code block: all of it, to its closing fence
            if fence and fence.group(1) == fences[-1][0] and not fence.group(2):
                fences.pop()
            out.append(blank)
        elif fence and not fence.group(2) and fences and fence.group(1) == fences[-1][0]:
            fences.pop()  # a directive's closing fence
            out.append(blank)
        elif fence and fence.group(2).startswith("{"):
            fences.append((fence.group(1), False))  # a directive (exercise, admonition): its body is prose
            out.append(blank)
        elif fence and fence.group(1)[0] in "`~":
            fences.append((fence.group(1), True))  # a code block, with or without its language
            out.append(blank)
        elif re.match(r"^\s*:[\w-]+:", line) or re.match(r"^\s*#{1,6} ", line) or re.match(r"^\(\S+\)=\s*$", line):
            out.append(blank)  # a directive's option, a heading, a label
        elif previous_blank and re.match(r"^ {4,}\S", line) and not re.match(r"^\s*(?:[-*]|\d+\.)\s", line):
            out.append(blank)  # indented code
            continue
        else:
            out.append(re.sub(r"^(\s*)(\d+\.)(?=\s)", lambda m: m.group(1) + " " * len(m.group(2)), line))
        previous_blank = not line.strip()
    return "\n".join(out)


def prose_only(markdown: str) -> str:
    """``markdown`` with everything that is not prose blanked out (lengths and lines kept)."""
    # Front matter (YAML between two lines of ---, first in the cell): settings, not prose.
    markdown = re.sub(r"\A---\n.*?\n---(?=\n|\Z)", _blank, markdown, flags=re.S)
    text = _blank_lines(markdown)
    text = re.sub(r"\$\$.*?\$\$", _blank, text, flags=re.S)
    text = re.sub(r"(?<!\\)\$[^$\n]+\$", _blank, text)
    text = re.sub(r"\{[\w:-]+\}`[^`]*`", _blank, text)  # roles, {eval} among them
    text = re.sub(r"(`+).+?\1", _blank, text, flags=re.S)  # code spans
    text = re.sub(r"<[^>\n]+>", _blank, text)  # inline HTML
    text = re.sub(r"https?://\S+", _blank, text)
    text = re.sub(r"\b\d+\.\d+\.\d+\.\d+\b", _blank, text)  # an IP address: 127.0.0.1
    return text


def numbers_in(text: str) -> list[tuple[int, str]]:
    """(position, number) of each number of ``text`` that is a quantity, not a year or a part's number."""
    found = []
    skip_to = 0
    for match in NUMBER.finditer(text):
        start, number = match.start(), match.group(0)
        if start < skip_to:
            continue
        if YEAR.match(number):
            continue
        if PART.search(text[max(0, start - 12) : start]):
            skip_to = match.end() + MORE_PARTS.match(text[match.end() :]).end()
            continue
        found.append((start, number))
    return found


def _normal(number: str) -> str:
    return number.replace("−", "-").replace(" ", "")


def typed_numbers(sources: list[Path]) -> list[Typed]:
    """Every number typed in the prose of ``sources`` (notebooks' markdown cells and markdown pages)."""
    found = []
    for path in sources:
        if path.suffix == ".ipynb":
            cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
            texts = [(i, "".join(c["source"])) for i, c in enumerate(cells) if c["cell_type"] == "markdown"]
        else:
            texts = [(0, path.read_text(encoding="utf-8"))]
        for index, markdown in texts:
            prose = prose_only(markdown)
            for start, number in numbers_in(prose):
                context = " ".join(markdown[max(0, start - 50) : start + len(number) + 30].split())
                found.append(Typed(path.stem, index, _normal(number), context))
    return found
