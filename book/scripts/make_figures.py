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
("Figure 9: ..."), which would clash with the book's own number; a line under
it names the setting of its controls. Vega-Lite is rendered by vl-convert,
offline. A figure at another setting is one call:
``ch05.boost_figure().save("boost.png", which="all 50")``
(:meth:`irmeans_book.plots.VegaLiteFigure.save`).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from irmeans_book.slides import FORMATS, render, slide_spec

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = ROOT / "chapters"
OUT = ROOT / "_build" / "figures"
LABEL = re.compile(r"^fig-ch(\d+)-(.+)$")


# ---------------------------------------------------------------------------
# The chapters' calls: each chapter's module holds its own (its FIGURES)
# ---------------------------------------------------------------------------


def chapter_figures() -> dict[str, Callable[[], Any]]:
    """Every numbered figure of the book, by label: the calls the chapters' modules list in their ``FIGURES``."""
    from irmeans_book import chapters

    table: dict[str, Callable[[], Any]] = {}
    for module in chapters.chapter_modules():
        for label, call in module.FIGURES.items():
            if label in table:
                raise ValueError(f"two calls for {label}")
            table[label] = call
    return table


#: Every numbered figure of the book: its label, and the call that makes it as its chapter does.
FIGURES: dict[str, Callable[[], Any]] = chapter_figures()


# ---------------------------------------------------------------------------
# The book's numbering, read from the chapters (as the prose's figure references read it)
# ---------------------------------------------------------------------------


def numbered_figures(chapters: Path = CHAPTERS) -> list[dict[str, Any]]:
    """Every numbered figure in the chapters, in the book's order: :func:`irmeans_book.prose.numbered_figures`."""
    from irmeans_book.prose import numbered_figures as in_order

    return in_order(chapters)


def file_stem(figure: dict[str, Any]) -> str:
    """``fig-04-1-eps`` for Figure 4.1, labelled ``fig-ch4-eps``.

    >>> file_stem({"label": "fig-ch4-eps", "chapter": 4, "number": 1})
    'fig-04-1-eps'
    """
    match = LABEL.match(figure["label"])
    slug = match.group(2) if match else figure["label"].removeprefix("fig-")
    return f"fig-{figure['chapter']:02d}-{figure['number']}-{slug}"


# ---------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------


def chapter_spec(label: str, caption: str = "") -> dict[str, Any]:
    """The figure's Vega-Lite spec as the chapter makes it (the site's palette; the caption as description)."""
    from irmeans_book import plots

    made = FIGURES[label]()
    if isinstance(made, plots.VegaLiteFigure):  # a figure already shown, with its alt text and its data's source
        return {**made.spec, "description": caption or made.spec["description"]}
    return plots.to_spec(made, caption or label)


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
