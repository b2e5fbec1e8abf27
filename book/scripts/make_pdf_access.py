"""What a printed PDF needs, after Chromium, to be read with assistive technology (``make_pdf.py``: :func:`finish`).

Chromium tags the PDF from the page's accessibility tree (``make_pdf_tags.js`` makes that tree what a reader
of the PDF needs: formulas and charts as images with their spoken form and description). What it leaves is done
here, with pikepdf:

- the running footer (the licence line and the page number, drawn from Chromium's footer template) is marked
  as a pagination artifact, and every path or image drawn outside any tag (a box's background, a table's
  rules) as an artifact: nothing is left neither tagged nor an artifact;
- each link gets a description (``/Contents``): the words it covers, or, with none, where it goes;
- the document gets XMP metadata (title, description, language, authors, licence) agreeing with its
  document information, and keeps its language and its title shown as the window's.

Text drawn outside every tag is not made an artifact, unless it is an icon (a glyph of an icon font, as the
theme draws before an admonition's title) or a space: other text is content that lost its tag, and
``tests/browser/test_book_pdf_tags.py`` fails on it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pikepdf

#: Operators that draw text.
TEXT_OPERATORS = frozenset({"Tj", "TJ", "'", '"'})
#: Operators that paint a path, an image or a shading.
PAINT_OPERATORS = frozenset({"f", "F", "f*", "S", "s", "B", "B*", "b", "b*", "n"})
DRAW_OPERATORS = TEXT_OPERATORS | PAINT_OPERATORS - {"n"} | {"Do", "sh", "BI", "INLINE IMAGE"}
PATH_OPERATORS = frozenset({"m", "l", "c", "v", "y", "h", "re", "W", "W*"})

__all__ = ["finish", "mark_artifacts", "untagged", "describe_links", "set_metadata", "is_template_group"]


def is_template_group(ops: list[Any], at: int, page_width: float) -> bool:
    """Whether the group that opens at ``ops[at]`` (a top-level ``q``) is Chromium's header or footer template:
    it starts by clipping to the whole page (``re W* n`` as wide as the page, in Chromium's device units)."""
    following = [str(op) for _, op in ops[at + 1 : at + 4]]
    if following != ["re", "W*", "n"]:
        return False
    return float(ops[at + 1][0][2]) >= 0.98 * page_width


def _device_width(page: pikepdf.Page, ops: list[Any]) -> float:
    """The page's width in the units its content is drawn in: Chromium scales them to points by its first ``cm``."""
    box = [float(v) for v in page.mediabox]
    scale = next((abs(float(operands[0])) for operands, op in ops if str(op) == "cm"), 1.0) or 1.0
    return (box[2] - box[0]) / scale


#: Fonts whose glyphs are pictures, not words: the theme's icons.
ICON_FONT = re.compile(r"FontAwesome|Icons", re.I)
_BFCHAR = re.compile(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>")


def _spaces(font: Any) -> set[bytes]:
    """The codes ``font`` maps to white space (its ToUnicode map's single characters)."""
    cmap = font.get("/ToUnicode")
    if cmap is None:
        return set()
    found = set()
    for code, text in _BFCHAR.findall(cmap.read_bytes()):
        try:
            char = bytes.fromhex(text.decode()).decode("utf-16-be")
        except (ValueError, UnicodeDecodeError):
            continue
        if char.isspace():
            found.add(bytes.fromhex(code.decode()))
    return found


def _decorative(font: Any, operands: list[Any]) -> bool:
    """Whether a text operator draws only an icon or only white space in ``font``."""
    if font is None:
        return False
    if ICON_FONT.search(str(font.get("/BaseFont", ""))):
        return True
    spaces = _spaces(font)
    strings = [
        x
        for x in (operands[0] if isinstance(operands[0], pikepdf.Array) else operands)
        if isinstance(x, pikepdf.String)
    ]
    if not spaces or not strings:
        return False
    width = len(next(iter(spaces)))
    data = b"".join(bytes(s) for s in strings)
    return all(data[k : k + width] in spaces for k in range(0, len(data), width))


def mark_artifacts(pdf: pikepdf.Pdf, page: pikepdf.Page) -> dict[str, int]:
    """Mark ``page``'s template groups as pagination artifacts and each path, image or shading drawn outside any
    tag as an artifact; text outside any tag is left as it is. Returns how many of each were marked."""
    ops: list[Any] = list(pikepdf.parse_content_stream(page))  # (operands, operator) pairs
    width = _device_width(page, ops)
    out: list[Any] = []
    counts = {"templates": 0, "paths": 0, "images": 0, "icons": 0}
    fonts = page.Resources.get("/Font", pikepdf.Dictionary())
    font = None  # the font text is drawn in
    depth = q = 0  # marked content open, as written out; graphics states saved
    skip = 0  # closings of marked content that was closed before a template group, still to come
    pending: list[Any] = []  # a path being built outside any tag: kept until it is painted
    i = 0
    while i < len(ops):
        operands, op = ops[i]
        name = str(op)
        if q == 0 and name == "q" and is_template_group(ops, i, width):
            # Chromium may leave the body's last tag open across the footer's group, and close it inside it:
            # it is closed before the group instead, and the group is an artifact of its own.
            out.extend(pending)
            pending = []
            out.extend([([], pikepdf.Operator("EMC"))] * depth)
            skip, depth = skip + depth, 0
            out.append(
                (
                    [pikepdf.Name("/Artifact"), pikepdf.Dictionary(Type=pikepdf.Name("/Pagination"))],
                    pikepdf.Operator("BDC"),
                )
            )
            inner = level = 0
            while i < len(ops):
                operands, op = ops[i]
                name = str(op)
                level += {"q": 1, "Q": -1}.get(name, 0)
                if name in ("BDC", "BMC"):
                    inner += 1
                elif name == "EMC" and inner == 0 and skip:
                    skip -= 1
                    i += 1
                    continue
                elif name == "EMC":
                    inner -= 1
                out.append((operands, op))
                i += 1
                if level == 0:
                    break
            out.append(([], pikepdf.Operator("EMC")))
            counts["templates"] += 1
            continue
        if name == "EMC" and depth == 0 and skip:
            skip -= 1
            i += 1
            continue
        if name == "Tf":
            font = fonts.get(str(operands[0]))
        if name in ("BDC", "BMC"):
            depth += 1
        elif name == "EMC":
            depth -= 1
        elif name == "q":
            q += 1
        elif name == "Q":
            q -= 1
        if depth == 0 and name in PATH_OPERATORS:
            pending.append((operands, op))
        elif depth == 0 and pending and name in PAINT_OPERATORS:
            if name == "n":  # a clip, not a drawing
                out.extend(pending)
                out.append((operands, op))
            else:
                out.append(([pikepdf.Name("/Artifact")], pikepdf.Operator("BMC")))
                out.extend(pending)
                out.append((operands, op))
                out.append(([], pikepdf.Operator("EMC")))
                counts["paths"] += 1
            pending = []
        elif depth == 0 and name in TEXT_OPERATORS and _decorative(font, operands):
            out.extend(pending)
            pending = []
            out.append(([pikepdf.Name("/Artifact")], pikepdf.Operator("BMC")))
            out.append((operands, op))
            out.append(([], pikepdf.Operator("EMC")))
            counts["icons"] += 1
        elif depth == 0 and name in ("Do", "sh", "INLINE IMAGE"):
            out.extend(pending)
            pending = []
            out.append(([pikepdf.Name("/Artifact")], pikepdf.Operator("BMC")))
            out.append((operands, op))
            out.append(([], pikepdf.Operator("EMC")))
            counts["images"] += 1
        else:
            out.extend(pending)
            pending = []
            out.append((operands, op))
        i += 1
    out.extend(pending)
    page.Contents = pdf.make_stream(pikepdf.unparse_content_stream(out))
    return counts


def untagged(page: pikepdf.Page) -> dict[str, int]:
    """What ``page`` draws outside any tag and any artifact, by operator (text, paths, images)."""
    found: dict[str, int] = {}
    depth = 0
    for _, op in pikepdf.parse_content_stream(page):  # type: ignore[misc]  # pikepdf's stubs: an instruction unpacks as (operands, operator)
        name = str(op)
        if name in ("BDC", "BMC"):
            depth += 1
        elif name == "EMC":
            depth -= 1
        elif depth == 0 and name in DRAW_OPERATORS:
            found[name] = found.get(name, 0) + 1
    return found


_WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>', re.S)
_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)


def _words(pdf: Path) -> list[tuple[float, list[tuple[float, float, float, float, str]]]]:
    """Each page's height and words with their boxes (top-left origin, points), as poppler's pdftotext reads them."""
    tool = shutil.which("pdftotext")
    if tool is None:
        raise RuntimeError("pdftotext is missing: install Debian's poppler-utils (make system does)")
    done = subprocess.run([tool, "-bbox", str(pdf), "-"], capture_output=True, check=True)
    text = done.stdout.decode("utf-8", errors="replace")
    import html

    return [
        (
            float(h),
            [(float(a), float(b), float(c), float(d), html.unescape(w)) for a, b, c, d, w in _WORD.findall(body)],
        )
        for _, h, body in _PAGE.findall(text)
    ]


def describe_links(pdf: pikepdf.Pdf, path: Path) -> int:
    """Give each link annotation without one a description (``/Contents``): the words it covers, or, with none,
    where it goes. Returns how many were described."""
    words = _words(path)
    described = 0
    for number, page in enumerate(pdf.pages):
        height, on_page = words[number] if number < len(words) else (0.0, [])
        for annotation in page.get("/Annots") or []:
            annotation = annotation.get_object() if hasattr(annotation, "get_object") else annotation  # type: ignore[operator]  # pikepdf's stubs
            if annotation.get("/Subtype") != pikepdf.Name("/Link") or str(annotation.get("/Contents", "")).strip():
                continue
            x0, y0, x1, y1 = (float(v) for v in annotation.Rect)
            top, bottom = height - max(y0, y1), height - min(y0, y1)
            covered = [
                w
                for a, b, c, d, w in on_page
                if a >= min(x0, x1) - 1 and c <= max(x0, x1) + 1 and b >= top - 1 and d <= bottom + 1
            ]
            said = " ".join(covered).strip()
            if not said:
                action = annotation.get("/A")
                uri = str(action.get("/URI", "")) if action is not None else ""
                said = f"Link to {uri}" if uri else "Link to another place in this book"
            annotation.Contents = pikepdf.String(said)
            described += 1
    return described


def set_metadata(pdf: pikepdf.Pdf, title: str, subject: str, language: str, authors: str, rights: str) -> None:
    """XMP metadata agreeing with the document information, the document's language, and its title shown as the
    window's (not its file name)."""
    pdf.Root.Lang = pikepdf.String(language)
    pdf.Root.ViewerPreferences = pdf.make_indirect(pikepdf.Dictionary(DisplayDocTitle=True))
    pdf.Root.MarkInfo = pikepdf.Dictionary(Marked=True)
    pdf.docinfo["/Title"] = pikepdf.String(title)
    pdf.docinfo["/Subject"] = pikepdf.String(subject)
    pdf.docinfo["/Author"] = pikepdf.String(authors)
    with pdf.open_metadata(set_pikepdf_as_editor=False) as meta:
        meta.load_from_docinfo(pdf.docinfo)
        meta["dc:title"] = title
        meta["dc:description"] = subject
        meta["dc:creator"] = [authors]
        meta["dc:language"] = [language]
        meta["dc:rights"] = rights
        meta["dc:format"] = "application/pdf"


def finish(path: Path, title: str, subject: str, language: str, authors: str, rights: str) -> dict[str, int]:
    """Everything above, on the PDF at ``path``, in place. Returns what was marked and described."""
    totals = {"templates": 0, "paths": 0, "images": 0, "icons": 0, "links": 0}
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        for page in pdf.pages:
            for key, value in mark_artifacts(pdf, page).items():
                totals[key] += value
        totals["links"] = describe_links(pdf, path)
        set_metadata(pdf, title, subject, language, authors, rights)
        pdf.save(path)
    return totals
