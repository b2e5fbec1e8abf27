"""The pages of a PDF as the book's tests read them: its words and lines where they are printed
(poppler's ``pdftotext -bbox-layout``), its pieces of text with their font sizes (``pdftohtml
-xml``), and each page as a grey-scale picture (``pdftoppm -gray``).

poppler-utils is Debian's package (``make system`` installs it); a missing tool is a failure.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

#: Points per millimetre.
PT_PER_MM = 72 / 25.4

_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
_LINE = re.compile(r"<line ([^>]*)>(.*?)</line>", re.S)
_WORD = re.compile(r"<word ([^>]*)>(.*?)</word>", re.S)
_BOX = re.compile(r'(xMin|yMin|xMax|yMax)="(-?[\d.]+)"')


@dataclass
class Word:
    text: str
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    @property
    def width(self) -> float:
        return self.x1 - self.x0


@dataclass
class Line:
    words: list[Word]
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)


@dataclass
class Page:
    number: int
    width: float
    height: float
    lines: list[Line] = field(default_factory=list)

    @property
    def words(self) -> list[Word]:
        return [w for line in self.lines for w in line.words]


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise RuntimeError(f"{name} is missing: install Debian's poppler-utils (make system does)")
    return path


def _box(attributes: str) -> dict[str, float]:
    return {k: float(v) for k, v in _BOX.findall(attributes)}


def read_pages(pdf: Path) -> list[Page]:
    """Every page of ``pdf`` with its lines and words, top to bottom, in points from the top left corner."""
    done = subprocess.run([_tool("pdftotext"), "-bbox-layout", str(pdf), "-"], capture_output=True, check=True)
    pages = []
    for number, (width, height, body) in enumerate(_PAGE.findall(done.stdout.decode("utf-8")), start=1):
        page = Page(number, float(width), float(height))
        for attributes, inner in _LINE.findall(body):
            words = []
            for word_attributes, text in _WORD.findall(inner):
                b = _box(word_attributes)
                words.append(Word(html.unescape(text), b["xMin"], b["yMin"], b["xMax"], b["yMax"]))
            if words:
                b = _box(attributes)
                page.lines.append(Line(words, b["xMin"], b["yMin"], b["xMax"], b["yMax"]))
        page.lines.sort(key=lambda line: (round(line.y0), line.x0))
        pages.append(page)
    return pages


@dataclass
class Picture:
    """A page as grey levels, 0 (black) to 255 (white), row by row."""

    number: int
    width: int
    height: int
    pixels: bytes

    def row(self, y: int) -> bytes:
        return self.pixels[y * self.width : (y + 1) * self.width]

    def column(self, x: int) -> bytes:
        return self.pixels[x :: self.width]


def pictures(pdf: Path, dpi: int = 36) -> list[Picture]:
    """Every page of ``pdf`` drawn in grey at ``dpi`` dots per inch."""
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([_tool("pdftoppm"), "-gray", "-r", str(dpi), str(pdf), f"{folder}/p"], check=True)
        out = []
        for path in sorted(Path(folder).glob("p-*.pgm"), key=lambda p: int(p.stem.split("-")[-1])):
            data = path.read_bytes()
            match = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
            width, height = int(match.group(1)), int(match.group(2))
            out.append(Picture(int(path.stem.split("-")[-1]), width, height, data[match.end() :]))
        return out


@dataclass
class Text:
    """A piece of text as pdftohtml finds it: its page, its size in points, its font, its text (tags kept)."""

    page: int
    size: float
    family: str
    text: str


_TEXT = re.compile(
    r'<page number="(\d+)"|<fontspec id="(\d+)" size="(-?[\d.]+)" family="([^"]*)"|<text [^>]*font="(\d+)"[^>]*>(.*?)</text>',
    re.S,
)
#: pdftohtml's sizes are in its own pixels: at this zoom, two to the point.
_ZOOM = 2


def texts(pdf: Path) -> list[Text]:
    """Every piece of text of ``pdf`` with its font's size in points and its family (without a subset prefix)."""
    done = subprocess.run(
        [_tool("pdftohtml"), "-xml", "-i", "-stdout", "-zoom", str(_ZOOM), str(pdf)], capture_output=True, check=True
    )
    fonts, out, page = {}, [], 0
    for match in _TEXT.finditer(done.stdout.decode("utf-8", errors="replace")):
        if match.group(1):
            page = int(match.group(1))
        elif match.group(2):
            fonts[match.group(2)] = (float(match.group(3)) / _ZOOM, re.sub(r"^[A-Z]{6}\+", "", match.group(4)))
        else:
            size, family = fonts[match.group(5)]
            out.append(Text(page, size, family, html.unescape(match.group(6))))
    return out


@dataclass
class Mark:
    """An entry of a PDF's outline (its bookmarks): its depth (1 at the top), text and page."""

    level: int
    text: str
    page: int


_OUTLINE = re.compile(r"<outline>|</outline>|<item page=\"(\d+)\">(.*?)</item>", re.S)


def outline(pdf: Path) -> list[Mark]:
    """The outline of ``pdf`` in order, as ``pdftohtml -xml`` reads it (an empty list if it has none)."""
    done = subprocess.run([_tool("pdftohtml"), "-xml", "-i", "-stdout", str(pdf)], capture_output=True, check=True)
    text = done.stdout.decode("utf-8", errors="replace")
    start = text.find("<outline>")
    marks, depth = [], 0
    for match in _OUTLINE.finditer(text, start if start >= 0 else len(text)):
        if match.group(0) == "<outline>":
            depth += 1
        elif match.group(0) == "</outline>":
            depth -= 1
        else:
            plain = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", match.group(2)))).strip()
            marks.append(Mark(depth, plain, int(match.group(1))))
    return marks


def visual_lines(page: Page, tolerance: float = 2.0) -> list[str]:
    """The page's text as printed, line by line across the whole page: every word whose foot is within
    ``tolerance`` points of a line's, left to right (pdftotext's own lines stop where a gap looks like
    a column's, as between a table's cells)."""
    rows: list[list[Word]] = []
    for word in sorted(page.words, key=lambda w: (w.y1, w.x0)):
        if rows and abs(rows[-1][0].y1 - word.y1) <= tolerance:
            rows[-1].append(word)
        else:
            rows.append([word])
    return [" ".join(w.text for w in sorted(row, key=lambda w: w.x0)) for row in rows]


def link_targets(pdf: Path) -> dict[str, list]:
    """The links of ``pdf``: ``uri`` (each address with its page), ``internal`` (each link within the PDF,
    with its page, and whether its destination exists) and ``other`` (any other kind, with its page)."""
    from pypdf import PdfReader
    from pypdf.generic import ArrayObject

    reader = PdfReader(pdf)
    named = set(reader.named_destinations)
    found: dict[str, list] = {"uri": [], "internal": [], "other": []}
    for number, page in enumerate(reader.pages, start=1):
        for annotation in page.get("/Annots") or []:
            a = annotation.get_object()
            if a.get("/Subtype") != "/Link":
                continue
            action = a.get("/A")
            action = action.get_object() if action is not None else None
            if action is not None and action.get("/URI") is not None:
                found["uri"].append((number, str(action["/URI"])))
                continue
            dest = a.get("/Dest")
            if dest is None and action is not None and action.get("/S") == "/GoTo":
                dest = action.get("/D")
            if dest is None:
                found["other"].append((number, str(action)))
                continue
            dest = dest.get_object() if hasattr(dest, "get_object") else dest
            exists = isinstance(dest, ArrayObject) or str(dest) in named
            found["internal"].append((number, str(dest) if not isinstance(dest, ArrayObject) else "page", exists))
    return found
