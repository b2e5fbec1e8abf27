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

import numpy as np

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
# The chapters' calls, with the chapters' arguments
# ---------------------------------------------------------------------------


def _ch1_averages():
    from irmeans_book.figures import introduction

    scores_a = np.array([0.60, 0.55, 0.50, 0.45, 0.01])
    scores_b = np.array([0.35, 0.30, 0.30, 0.25, 0.20])
    weakest_values = np.round(np.arange(1, 31) / 100, 2)
    return introduction.averages_chart(scores_a, scores_b, weakest_values, initial_weakest=scores_a[-1])


CH2_RANKING = np.array([1, 0, 1, 0, 0, 1, 0, 0, 0, 0])
CH2_R = 5


def _ch2_pr_curve():
    from irmeans_book.figures import ranked_lists

    return ranked_lists.pr_curve_chart(CH2_RANKING, CH2_R)


def _ch2_ranking():
    from irmeans_book.figures import ranked_lists

    return ranked_lists.ranking_chart(initial=tuple(CH2_RANKING), initial_r=CH2_R)


def _ch3_doubling():
    from irmeans_book.figures import scales

    return scales.doubling_chart()


def _ch3_transform():
    from irmeans_book.figures import scales

    scores_a = np.array([0.95, 0.90, 0.15, 0.12, 0.10, 0.05])
    scores_b = np.array([0.40, 0.35, 0.30, 0.25, 0.20, 0.18])
    lowest_values = np.round(np.arange(1, 31) / 100, 2)
    return scales.transform_chart(scores_a, scores_b, lowest_values, initial_lowest=scores_a[-1])


def _ch4_eps():
    from irmeans_book.figures import averaging

    return averaging.eps_chart()


def _ch4_means():
    from irmeans_book.figures import averaging

    return averaging.means_chart(initial=("S2", 0.0, -2))


def _ch5_histogram():
    from irmeans_book import robertson
    from irmeans_book.figures import boost

    return boost.histogram_chart(robertson.load_example())


def _ch5_boost():
    from irmeans_book import robertson
    from irmeans_book.figures import boost

    return boost.boost_chart(robertson.load_example(), initial_amount=0.05, initial_which="lowest")


def _ch6_epsilon():
    from irmeans_book.figures import epsilon

    return epsilon.epsilon_chart(initial_log10=-5.0)


def _ch7_verdicts():
    from irmeans_book import robertson
    from irmeans_book.figures import verdicts

    return verdicts.verdicts_chart(robertson.load_example(), verdicts.GAINS, verdicts.LOSSES, initial=(0.2, 0.3))


def _ch7_rank_shares():
    from irmeans_book.figures import verdicts

    return verdicts.rank_shares_chart({"X": np.array([1] * 9 + [500]), "Y": np.array([2] * 10)})


def _ch8_curves():
    from irmeans_book.figures import logit

    return logit.curves_chart(initial=0.01)


def _ch8_averages():
    from irmeans_book.figures import logit

    return logit.logit_chart(initial={"eps": 1e-3})


def _ch9_scores():
    from irmeans_book.figures import split_half

    return split_half.score_density_chart(*split_half.score_density_table())


def _ch9_difficulty():
    from irmeans_book.figures import split_half

    return split_half.difficulty_chart(split_half.difficulty_table())


def _ch9_sweep():
    from irmeans import datasets
    from irmeans_book.figures import split_half

    ap = np.array(datasets.load("adhoc8", "ap").scores)
    curve, density, _ = split_half.tau_sweep(ap, n_splits=10_000, seed=split_half.SEED)
    return split_half.sweep_chart(curve, density, initial_log_eps=-2.0)


def _ch9_replication():
    from irmeans_book.figures import replication

    _, wide = replication.replication_tables()
    return replication.replication_chart(wide)


#: Every numbered figure of the book: its label, and the call that makes it as its chapter does.
FIGURES: dict[str, Callable] = {
    "fig-ch1-averages": _ch1_averages,
    "fig-ch2-pr-curve": _ch2_pr_curve,
    "fig-ch2-ranking": _ch2_ranking,
    "fig-ch3-doubling": _ch3_doubling,
    "fig-ch3-transform": _ch3_transform,
    "fig-ch4-eps": _ch4_eps,
    "fig-ch4-means": _ch4_means,
    "fig-ch5-histogram": _ch5_histogram,
    "fig-ch5-boost": _ch5_boost,
    "fig-ch6-epsilon": _ch6_epsilon,
    "fig-ch7-verdicts": _ch7_verdicts,
    "fig-ch7-rank-shares": _ch7_rank_shares,
    "fig-ch8-curves": _ch8_curves,
    "fig-ch8-averages": _ch8_averages,
    "fig-ch9-scores": _ch9_scores,
    "fig-ch9-difficulty": _ch9_difficulty,
    "fig-ch9-sweep": _ch9_sweep,
    "fig-ch9-replication": _ch9_replication,
}


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
