"""Figures for slides and handouts: any of the book's figures, with any data, as a slide-sized PNG, an SVG and a PDF.

The one call is a figure's own :meth:`irmeans_book.plots.VegaLiteFigure.save`::

    from irmeans_book.chapters import ch01_introduction as ch01

    ch01.averages_figure([0.60, 0.55, 0.50, 0.45, 0.01], [0.35, 0.30, 0.30, 0.25, 0.20]).save("my-figure")

which writes ``my-figure.png``, ``my-figure.svg`` and ``my-figure.pdf``; a figure with
controls is saved at any of their settings, each control by its name or label and
each value as the control shows it: ``fig.save("gm.png", average="geometric mean")``
writes that PNG alone. For a slide (:func:`slide_spec`) text is set larger than on
the site (:data:`SLIDE_CONFIG`), every PNG is :data:`SLIDE_WIDTH` pixels wide
(:func:`render`), and the chart stands alone: no read-out line of the controls' values
(with no controls, it would be a leftover), and no panel title naming another work's
figure ("Figure 9: ..."). Under the chart a line says the setting the figure shows,
each control by its label (:func:`setting_lines`: "Transformation: log", where the
page has a select), and a figure made from data with an attribution (the TREC runs,
:data:`irmeans_book.plots.TREC_DATA`) shows that too; every file carries it, with the
book's licence, in its metadata (:func:`render`). Vega-Lite is rendered by vl-convert,
offline. ``make figures`` (``book/scripts/make_figures.py``) saves every numbered
figure of the book this way.

Examples
--------
>>> s = slide_spec({"mark": "point", "usermeta": {"irmeans_source": "Data: X."}})
>>> s["title"]["text"], s["title"]["orient"]
('Data: X.', 'bottom')
>>> s = slide_spec({"mark": "point", "params": [{"name": "k", "value": 2, "bind": {"input": "range", "name": "k "}}]})
>>> s["title"]["text"]
['k: 2']
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from irmeans_book.controls import controls

__all__ = [
    "SLIDE_WIDTH",
    "SLIDE_CONFIG",
    "FIXED_WIDTH",
    "FORMATS",
    "BOOK_LICENCE",
    "is_readout",
    "setting_lines",
    "slide_spec",
    "render",
]

FORMATS = ("svg", "png", "pdf")
#: What every exported figure says of its licence (in its metadata).
BOOK_LICENCE = (
    "From irmeans: averaging IR effectiveness across topics, the irmeans authors; "
    "CC BY-SA 4.0, https://creativecommons.org/licenses/by-sa/4.0/"
)
LICENCE_URL = "https://creativecommons.org/licenses/by-sa/4.0/"
#: Every PNG's width in pixels: a full-HD slide. A figure is drawn at most :data:`MAX_SCALE` times its size
#: (a narrower one is centred on a white band as wide), so that no figure's text is larger than a room needs.
SLIDE_WIDTH = 1920
MAX_SCALE = 4.0
#: Larger text than the site's, for a room: merged into each figure's Vega-Lite config.
SLIDE_CONFIG: dict[str, dict[str, Any]] = {
    # At slide size a chart's ticks are as many as on the page but their labels larger: while any labels
    "axis": {"labelFontSize": 15, "titleFontSize": 16, "labelOverlap": "parity", "labelSeparation": 6},
    # labelLimit 0: at this size the default 160 px cuts long legend labels with "…".
    "legend": {"labelFontSize": 15, "titleFontSize": 16, "labelLimit": 0},
    "header": {"labelFontSize": 16, "titleFontSize": 16},
    "title": {"fontSize": 20, "subtitleFontSize": 16},
    "text": {"fontSize": 15},
}
#: The palette's colours too pale for a white slide (less than 3:1), and the shades drawn instead: the
#: same as the site's light page (book/static/irmeans.css; tests/book/test_make_figures.py holds them equal).
ON_WHITE = {
    "#E69F00": "#C27800",
    "#56B4E9": "#3A8FC9",
    "#F0E442": "#8A7F00",
    "#999999": "#8C8C8C",
    "#DDDDDD": "#8C8C8C",
}
#: Vega-Lite's "container" width has no container here: the figure gets this one.
FIXED_WIDTH = 760
#: A title's leading reference to a figure ("Figure 9: ", "Fig. 2 - "): the slide's own number is the book's.
FIGURE_REFERENCE = re.compile(r"^\s*(?:Figure|Fig\.)\s*\d+[a-z]?\s*[:.\u2013\u2014-]\s*")
#: A read-out: a view of one line of text (the figures' read-outs are 16 to 20 px high).
READOUT_HEIGHT = 30
#: The setting line's longest line, in characters (a slide at 15 px: about two thirds of a full-HD width).
SETTING_LINE = 110
#: Checkboxes in a row, from this many on, are named on the slide by those ticked ("Ticked: Rank 1 relevant, ...").
CHECKBOX_RUN = 3


def _fixed_widths(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: (FIXED_WIDTH if k == "width" and v == "container" else _fixed_widths(v)) for k, v in node.items()}
    if isinstance(node, list):
        return [_fixed_widths(v) for v in node]
    return node


def is_readout(view: object) -> bool:
    """Whether ``view`` is a read-out: a unit view whose only mark is text, one line high.

    Examples
    --------
    >>> is_readout({"mark": {"type": "text"}, "height": 18}), is_readout({"mark": "text", "height": 200})
    (True, False)
    """
    if not isinstance(view, dict) or "layer" in view:
        return False
    mark = view.get("mark")
    kind = mark.get("type") if isinstance(mark, dict) else mark
    height = view.get("height")
    return kind == "text" and isinstance(height, int | float) and height <= READOUT_HEIGHT


def _without_readouts(node: Any) -> Any:
    """``node`` without its read-out views, and without the panels left empty by their removal."""
    if isinstance(node, list):
        kept = [_without_readouts(item) for item in node if not is_readout(item)]
        return [item for item in kept if item is not None]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key in ("vconcat", "hconcat", "concat") and isinstance(value, list):
            value = _without_readouts(value)
            if not value:
                return None
        elif key not in ("data", "datasets"):
            value = _without_readouts(value)
        out[key] = value
    return out


def _plain_title(title: Any) -> Any:
    """A title without a leading figure reference; None if nothing else is left."""
    if isinstance(title, str):
        plain = FIGURE_REFERENCE.sub("", title)
        if plain != title and plain[:1].isascii() and plain[:1].islower():  # not "εGM" into "ΕGM"
            plain = plain[0].upper() + plain[1:]
        return plain or None
    if isinstance(title, list):
        lines = [_plain_title(line) if i == 0 else line for i, line in enumerate(title)]
        return [line for line in lines if line] or None
    if isinstance(title, dict) and "text" in title:
        text = _plain_title(title["text"])
        return {**title, "text": text} if text else None
    return title


def _without_figure_references(node: Any) -> Any:
    if isinstance(node, list):
        return [_without_figure_references(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "title" and value is not None:  # an explicit null stays: without it, the field's name shows
            value = _plain_title(value)
            if value is None:
                continue
        elif key not in ("data", "datasets"):
            value = _without_figure_references(value)
        out[key] = value
    return out


def _on_white(spec: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``spec`` with the palette's pale colours darker (:data:`ON_WHITE`), wherever it names them.

    Examples
    --------
    >>> _on_white({"mark": {"type": "line", "color": "#E69F00"}, "data": {"values": [{"c": "#e69f00"}]}})["mark"]
    {'type': 'line', 'color': '#C27800'}
    """
    text = json.dumps(spec)
    for pale, dark in ON_WHITE.items():
        text = re.sub(re.escape(f'"{pale}"'), f'"{dark}"', text, flags=re.IGNORECASE)
    darker: dict[str, Any] = json.loads(text)
    return darker


def _landscape(spec: dict[str, Any]) -> dict[str, Any]:
    """A figure of panels one above the other, put side by side (:func:`render` does, for a figure taller
    than wide: a slide is 16:9).

    Examples
    --------
    >>> _landscape({"vconcat": [{"mark": "point"}, {"mark": "bar"}], "config": {}})
    {'config': {}, 'hconcat': [{'mark': 'point'}, {'mark': 'bar'}]}
    >>> _landscape({"vconcat": [{"mark": "point"}]})["vconcat"]
    [{'mark': 'point'}]
    """
    panels = spec.get("vconcat")
    if isinstance(panels, list) and len(panels) >= 2:
        spec = dict(spec)
        spec["hconcat"] = spec.pop("vconcat")
    return spec


def setting_lines(spec: dict[str, Any]) -> list[str]:
    """The setting a figure shows, as the lines under its slide: each control by its label, with its value
    as the control shows it, joined by " · " into lines of at most :data:`SETTING_LINE` characters.

    Examples
    --------
    >>> setting_lines({"params": [
    ...     {"name": "scale", "value": "log", "bind": {"input": "select", "options": ["identity", "log"],
    ...      "name": "Transformation "}},
    ...     {"name": "k", "value": -2.0, "bind": {"input": "range", "min": -4, "max": 1, "step": 0.25, "name": "k "}}]})
    ['Transformation: log · k: -2']
    >>> setting_lines({"mark": "point"})
    []
    """
    parts: list[str] = []
    boxes: list[Any] = []  # a run of checkboxes: three or more are named by those ticked

    def flush() -> None:
        if len(boxes) >= CHECKBOX_RUN:
            ticked = [c.label for c in boxes if c.value]
            parts.append("Ticked: " + (", ".join(ticked) if ticked else "none"))
        else:
            parts.extend(f"{c.label}: {c.shown(c.value)}" for c in boxes)
        boxes.clear()

    for control in controls(spec):
        if control.input == "checkbox":
            boxes.append(control)
            continue
        flush()
        parts.append(f"{control.label}: {control.shown(control.value)}")
    flush()
    lines: list[str] = []
    for part in parts:
        if lines and len(lines[-1]) + 3 + len(part) <= SETTING_LINE:
            lines[-1] += " · " + part
        else:
            lines.append(part)
    return lines


def slide_spec(spec: dict[str, Any]) -> dict[str, Any]:
    """``spec`` for a slide: larger text (:data:`SLIDE_CONFIG`), fixed widths, a white background,
    no read-out views and no figure references in its titles; under the chart, the setting it shows
    (:func:`setting_lines`) and its data's attribution.

    Examples
    --------
    >>> s = slide_spec({"mark": "point", "width": "container", "config": {"axis": {"grid": False}}})
    >>> s["width"], s["config"]["axis"]["grid"], s["config"]["axis"]["labelFontSize"]
    (760, False, 15)
    >>> s = slide_spec({"vconcat": [{"mark": "text", "height": 18}, {"mark": "point", "title": "Figure 9: gains"}]})
    >>> s["vconcat"]
    [{'mark': 'point', 'title': 'Gains'}]
    >>> slide_spec({"facet": {"column": {"field": "average", "title": None}}, "spec": {"mark": "line"}})["facet"]
    {'column': {'field': 'average', 'title': None}}
    """
    out: dict[str, Any] = _fixed_widths(_without_figure_references(_without_readouts(_on_white(spec))))
    config = out.setdefault("config", {})
    for group, values in SLIDE_CONFIG.items():
        config.setdefault(group, {}).update(values)
    out["background"] = "white"
    source = (out.get("usermeta") or {}).get("irmeans_source")
    setting = setting_lines(spec)
    if (setting or source) and "title" not in out:  # what the chart shows, and the data's attribution
        title = {"orient": "bottom", "anchor": "start", "fontWeight": "normal", "offset": 12}
        if setting:
            title.update(text=setting, fontSize=SLIDE_CONFIG["text"]["fontSize"])
            if source:
                title.update(subtitle=source, subtitleFontSize=13, subtitlePadding=6)
        else:
            title.update(text=source, fontSize=13)
        out["title"] = title
    return out


def _svg_width(svg: str) -> float:
    match = re.search(r'<svg[^>]*\bwidth="([\d.]+)"', svg)
    return float(match.group(1)) if match else FIXED_WIDTH


def _svg_height(svg: str) -> float:
    match = re.search(r'<svg[^>]*\bheight="([\d.]+)"', svg)
    return float(match.group(1)) if match else 0.0


def metadata(spec: dict[str, Any]) -> dict[str, str]:
    """What a saved figure says of itself: its description (the alt text) and the setting it shows, the data's
    source, the licence.

    >>> metadata({"description": "Two bars.", "usermeta": {"irmeans_source": "Data: TREC."}})["Source"]
    'Data: TREC.'
    >>> metadata({"description": "Bars.", "params": [{"name": "k", "value": 3, "bind": {"input": "range"}}]})["Title"]
    'Bars. Shown at k: 3.'
    """
    title = spec.get("description", "")
    setting = setting_lines(spec)
    if setting:  # the alt text describes the figure as it starts; a slide may show it elsewhere
        title = f"{title} Shown at {' · '.join(setting)}."
    out = {"Title": title, "Copyright": BOOK_LICENCE}
    source = (spec.get("usermeta") or {}).get("irmeans_source")
    if source:
        out["Source"] = source
    return out


def _svg_with(svg: str, meta: dict[str, str]) -> str:
    """The SVG with a ``<title>``, and ``<metadata>`` in Dublin Core and Creative Commons terms."""
    from xml.sax.saxutils import escape

    rdf = (
        '<metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:cc="http://creativecommons.org/ns#">'
        f"<cc:Work><dc:title>{escape(meta['Title'])}</dc:title><dc:rights>{escape(meta['Copyright'])}</dc:rights>"
        + (f"<dc:source>{escape(meta['Source'])}</dc:source>" if "Source" in meta else "")
        + f'<cc:license rdf:resource="{LICENCE_URL}"/></cc:Work></rdf:RDF></metadata>'
    )
    opening = re.search(r"<svg\b[^>]*>", svg)
    assert opening, "vl-convert wrote no <svg> element"
    return svg[: opening.end()] + f"<title>{escape(meta['Title'])}</title>" + rdf + svg[opening.end() :]


def _png_with(png: bytes, meta: dict[str, str]) -> bytes:
    """The PNG with an iTXt chunk (UTF-8 text) for each entry, before its end."""
    chunks = b""
    for key, text in meta.items():
        data = key.encode("latin-1") + b"\0\0\0\0\0" + text.encode("utf-8")
        chunks += len(data).to_bytes(4, "big") + b"iTXt" + data + zlib.crc32(b"iTXt" + data).to_bytes(4, "big")
    end = png.rindex(b"IEND") - 4
    return png[:end] + chunks + png[end:]


def _pdf_string(text: str) -> bytes:
    return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode("ascii") + b">"


def _pdf_with(pdf: bytes, meta: dict[str, str]) -> bytes:
    """The PDF with a new information dictionary, appended as an incremental update (the original untouched)."""
    trailer = pdf[pdf.rindex(b"trailer") :]
    size = int(re.search(rb"/Size\s+(\d+)", trailer).group(1))  # type: ignore[union-attr]  # a trailer has it
    root = re.search(rb"/Root\s+(\d+\s+\d+\s+R)", trailer).group(1)  # type: ignore[union-attr]  # a trailer has it
    previous = int(re.search(rb"startxref\s+(\d+)", trailer).group(1))  # type: ignore[union-attr]  # a trailer has it
    names = {"Title": "Title", "Copyright": "Rights", "Source": "Subject"}
    fields = b" ".join(b"/" + names[k].encode() + b" " + _pdf_string(v) for k, v in meta.items())
    body = pdf if pdf.endswith(b"\n") else pdf + b"\n"
    offset = len(body)
    body += b"%d 0 obj\n<< %s >>\nendobj\n" % (size, fields)
    xref = len(body)
    body += b"xref\n%d 1\n%010d 00000 n\r\n" % (size, offset)
    body += b"trailer\n<< /Size %d /Root %s /Info %d 0 R /Prev %d >>\n" % (size + 1, root, size, previous)
    return body + b"startxref\n%d\n%%%%EOF\n" % xref


def _slide_wide(spec: dict[str, Any], width: float) -> tuple[dict[str, Any], float]:
    """``spec`` padded with white either side if it is narrower than :data:`SLIDE_WIDTH` / :data:`MAX_SCALE`,
    and the scale that draws it :data:`SLIDE_WIDTH` pixels wide (a figure ``width`` wide, unpadded).

    Examples
    --------
    >>> _slide_wide({"mark": "point"}, 960)
    ({'mark': 'point'}, 2.0)
    >>> padded, scale = _slide_wide({"mark": "point"}, 420)
    >>> padded["padding"], scale
    ({'left': 35.0, 'right': 35.0, 'top': 5, 'bottom': 5}, 4.0)
    """
    narrowest = SLIDE_WIDTH / MAX_SCALE
    if width >= narrowest:
        return spec, SLIDE_WIDTH / width
    side = (narrowest - width) / 2 + 5  # Vega's padding is 5 px a side to begin with
    return {**spec, "padding": {"left": side, "right": side, "top": 5, "bottom": 5}}, MAX_SCALE


def render(spec: dict[str, Any], stem: str, out: Path, formats: Iterable[str] = FORMATS) -> list[Path]:
    """Write ``spec`` as ``out/stem.{svg,png,pdf}``, each with :func:`metadata`; return the files written.

    The PNG is :data:`SLIDE_WIDTH` pixels wide: drawn at the scale that makes it so, at most :data:`MAX_SCALE`
    times the figure's size (Fig. 2.1, 421 px, would otherwise have text half as large again as any other
    slide's); a narrower figure is centred on white.
    """
    import vl_convert as vlc

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    meta = metadata(spec)
    written = []
    svg = vlc.vegalite_to_svg(spec)
    if _svg_height(svg) > _svg_width(svg) and _landscape(spec) is not spec:
        spec = _landscape(spec)
        svg = vlc.vegalite_to_svg(spec)
    if "svg" in formats:
        written.append(out / f"{stem}.svg")
        written[-1].write_text(_svg_with(svg, meta), encoding="utf-8")
    if "png" in formats:
        wide, scale = _slide_wide(spec, _svg_width(svg))
        # The PNG's width is the SVG's times the scale, rounded down: a quarter pixel over, never under.
        scale *= (SLIDE_WIDTH + 0.25) / SLIDE_WIDTH
        written.append(out / f"{stem}.png")
        written[-1].write_bytes(_png_with(vlc.vegalite_to_png(wide, scale=scale), meta))
    if "pdf" in formats:
        written.append(out / f"{stem}.pdf")
        written[-1].write_bytes(_pdf_with(vlc.vegalite_to_pdf(spec), meta))
    return written
