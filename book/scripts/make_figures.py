"""Write every numbered figure of the book as SVG, PNG and PDF, for slides and handouts.

Usage: ``python book/scripts/make_figures.py [--out _build/figures] [--only fig-ch4-eps ...]``
(``make figures``).

Each figure is made by the function its chapter calls, with the chapter's
arguments (:data:`FIGURES`, a table from the figure's label to that call), in
the state the chapter shows it in: a figure with sliders or selects is drawn
at their starting values. The chapter and the figure's number come from the
chapters themselves (:func:`numbered_figures`), so the files are named as the
book numbers them: ``fig-04-1-eps.svg`` is Figure 4.1, labelled
``fig-ch4-eps``. Text is set larger than on the site (:data:`SLIDE_CONFIG`),
and the PNG is slide-sized, :data:`SLIDE_WIDTH` pixels wide. A slide shows
the chart alone: no read-out line of the controls' values (with no controls,
it would be a leftover), and no panel title naming another work's figure
("Figure 9: ..."), which would clash with the book's own number. Vega-Lite is
rendered by vl-convert, offline.
"""

from __future__ import annotations

import argparse
import copy
import re
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = ROOT / "chapters"
OUT = ROOT / "_build" / "figures"
FORMATS = ("svg", "png", "pdf")
#: The PNG's width in pixels: a full-HD slide.
SLIDE_WIDTH = 1920
#: Larger text than the site's, for a room: merged into each figure's Vega-Lite config.
SLIDE_CONFIG = {
    "axis": {"labelFontSize": 15, "titleFontSize": 16},
    # labelLimit 0: at this size the default 160 px cuts long legend labels with "…".
    "legend": {"labelFontSize": 15, "titleFontSize": 16, "labelLimit": 0},
    "header": {"labelFontSize": 16, "titleFontSize": 16},
    "title": {"fontSize": 20, "subtitleFontSize": 16},
    "text": {"fontSize": 15},
}
#: Vega-Lite's "container" width has no container here: the figure gets this one.
FIXED_WIDTH = 760
LABEL = re.compile(r"^fig-ch(\d+)-(.+)$")
#: A title's leading reference to a figure ("Figure 9: ", "Fig. 2 - "): the slide's own number is the book's.
FIGURE_REFERENCE = re.compile(r"^\s*(?:Figure|Fig\.)\s*\d+[a-z]?\s*[:.\u2013\u2014-]\s*")
#: A read-out: a view of one line of text (the figures' read-outs are 16 to 20 px high).
READOUT_HEIGHT = 30


# ---------------------------------------------------------------------------
# The chapters' calls: each chapter's module holds its own (its FIGURES)
# ---------------------------------------------------------------------------


def chapter_figures() -> dict[str, Callable]:
    """Every numbered figure of the book, by label: the calls the chapters' modules list in their ``FIGURES``."""
    from irmeans_book import chapters

    table: dict[str, Callable] = {}
    for module in chapters.chapter_modules():
        for label, call in module.FIGURES.items():
            if label in table:
                raise ValueError(f"two calls for {label}")
            table[label] = call
    return table


#: Every numbered figure of the book: its label, and the call that makes it as its chapter does.
FIGURES: dict[str, Callable] = chapter_figures()


# ---------------------------------------------------------------------------
# The book's numbering, read from the chapters (as the prose's figure references read it)
# ---------------------------------------------------------------------------


def numbered_figures(chapters: Path = CHAPTERS) -> list[dict]:
    """Every numbered figure in the chapters, in the book's order: :func:`irmeans_book.prose.numbered_figures`."""
    from irmeans_book.prose import numbered_figures as in_order

    return in_order(chapters)


def file_stem(figure: dict) -> str:
    """``fig-04-1-eps`` for Figure 4.1, labelled ``fig-ch4-eps``."""
    match = LABEL.match(figure["label"])
    slug = match.group(2) if match else figure["label"].removeprefix("fig-")
    return f"fig-{figure['chapter']:02d}-{figure['number']}-{slug}"


# ---------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------


def chapter_spec(label: str, caption: str = "") -> dict:
    """The figure's Vega-Lite spec as the chapter makes it (the site's palette; the caption as description)."""
    from irmeans_book import plots

    return plots.to_spec(FIGURES[label](), caption or label)


def _fixed_widths(node):
    if isinstance(node, dict):
        return {k: (FIXED_WIDTH if k == "width" and v == "container" else _fixed_widths(v)) for k, v in node.items()}
    if isinstance(node, list):
        return [_fixed_widths(v) for v in node]
    return node


def is_readout(view) -> bool:
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


def _without_readouts(node):
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


def _plain_title(title):
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


def _without_figure_references(node):
    if isinstance(node, list):
        return [_without_figure_references(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "title":
            value = _plain_title(value)
            if value is None:
                continue
        elif key not in ("data", "datasets"):
            value = _without_figure_references(value)
        out[key] = value
    return out


def slide_spec(spec: dict) -> dict:
    """``spec`` for a slide: larger text (:data:`SLIDE_CONFIG`), fixed widths, a white background,
    no read-out views and no figure references in its titles.

    Examples
    --------
    >>> s = slide_spec({"mark": "point", "width": "container", "config": {"axis": {"grid": False}}})
    >>> s["width"], s["config"]["axis"]["grid"], s["config"]["axis"]["labelFontSize"]
    (760, False, 15)
    >>> s = slide_spec({"vconcat": [{"mark": "text", "height": 18}, {"mark": "point", "title": "Figure 9: gains"}]})
    >>> s["vconcat"]
    [{'mark': 'point', 'title': 'Gains'}]
    """
    out = _fixed_widths(_without_figure_references(_without_readouts(copy.deepcopy(spec))))
    config = out.setdefault("config", {})
    for group, values in SLIDE_CONFIG.items():
        config.setdefault(group, {}).update(values)
    out["background"] = "white"
    return out


def _svg_width(svg: str) -> float:
    match = re.search(r'<svg[^>]*\bwidth="([\d.]+)"', svg)
    return float(match.group(1)) if match else FIXED_WIDTH


def render(spec: dict, stem: str, out: Path, formats=FORMATS) -> list[Path]:
    """Write ``spec`` as ``out/stem.{svg,png,pdf}``; return the files written."""
    import vl_convert as vlc

    out.mkdir(parents=True, exist_ok=True)
    written = []
    svg = vlc.vegalite_to_svg(spec)
    if "svg" in formats:
        written.append(out / f"{stem}.svg")
        written[-1].write_text(svg, encoding="utf-8")
    if "png" in formats:
        scale = min(4.0, max(1.0, SLIDE_WIDTH / _svg_width(svg)))
        written.append(out / f"{stem}.png")
        written[-1].write_bytes(vlc.vegalite_to_png(spec, scale=scale))
    if "pdf" in formats:
        written.append(out / f"{stem}.pdf")
        written[-1].write_bytes(vlc.vegalite_to_pdf(spec))
    return written


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"folder to write to (default {OUT.relative_to(ROOT)})")
    parser.add_argument("--only", nargs="*", metavar="LABEL", help="just these figures, by label (fig-ch4-eps)")
    parser.add_argument("--formats", nargs="*", choices=FORMATS, default=list(FORMATS))
    args = parser.parse_args(argv)

    figures = numbered_figures()
    missing = [f["label"] for f in figures if f["label"] not in FIGURES]
    if args.only:
        unknown = set(args.only) - {f["label"] for f in figures}
        if unknown:
            print(f"not a numbered figure of the book: {', '.join(sorted(unknown))}", file=sys.stderr)
            return 1
        figures = [f for f in figures if f["label"] in args.only]
    failed = []
    for figure in figures:
        if figure["label"] not in FIGURES:
            continue
        stem = file_stem(figure)
        try:
            spec = slide_spec(chapter_spec(figure["label"], figure["caption"]))
        except Exception as error:  # the chapter's function changed under the table: say which, go on
            print(f"Figure {figure['chapter']}.{figure['number']} ({figure['label']}): {error!r}", file=sys.stderr)
            failed.append(figure["label"])
            continue
        files = render(spec, stem, args.out, args.formats)
        sizes = ", ".join(f"{p.suffix[1:]} {p.stat().st_size / 1024:.0f} KB" for p in files)
        print(f"Figure {figure['chapter']}.{figure['number']} ({figure['label']}): {stem} [{sizes}]", flush=True)
    missing = [label for label in missing if label in {f["label"] for f in figures}]
    print(f"{len(figures) - len(missing) - len(failed)} figures in {args.out}")
    if missing:
        print(f"no call in FIGURES for: {', '.join(missing)}; not written", file=sys.stderr)
    if failed:
        print(f"the table's call failed for: {', '.join(failed)}; not written", file=sys.stderr)
    return 1 if missing or failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
