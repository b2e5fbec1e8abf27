"""The whole book as one PDF: a single-page build of the site, printed by Chromium.

Usage: ``python book/scripts/make_pdf.py [--site _build/html]`` (``make pdf``; ``make site`` runs it too).

1. Jupyter Book builds the book as a single HTML page into ``_build/pdf/``,
   with the site's configuration except that the chapters are not executed
   again: their stored outputs are used, which ``make test`` checks are what
   the code computes.
2. Chromium (Debian's, driven by Playwright; no browser is downloaded) opens
   that page from a local server in a window as wide as the paper's column,
   waits until every figure is drawn and the maths typeset, lays the page out
   for paper, fits every figure to the paper's column (text at 13 px, 9.75 pt,
   as on screen: a figure is never scaled down to fit), and prints it with the
   print style sheet (``book/static/irmeans-print.css``): no navigation, no
   controls (each figure stays at its starting setting), a new page for every
   chapter, headings kept with what follows them.
3. The PDF is written to ``_build/pdf/irmeans-book.pdf`` and copied into the
   site (``--site``), where the front page and "Get the code" link to it.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from irmeans_book import chromium

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "_build" / "pdf"
SITE = ROOT / "_build" / "html"
PDF_NAME = "irmeans-book.pdf"
VEGALITE_MIMETYPE = "application/vnd.vegalite.v5+json"
#: Every figure drawn: an SVG or a canvas in each figure's div.
FIGURES_DRAWN = (
    """() => Array.from(document.querySelectorAll(".irmeans-figure")).every((d) => d.querySelector("svg, canvas"))"""
)
#: MathJax has typeset the page (its startup promise settles then).
MATHS_TYPESET = "async () => { if (window.MathJax && MathJax.startup) await MathJax.startup.promise; }"
#: A4, and the margins the book is printed with (mm).
PAPER = {"format": "A4", "width_mm": 210.0}
MARGINS_MM = {"top": 16, "bottom": 18, "left": 14, "right": 14}
#: The width of the paper's column in CSS px (96 to the inch): the window the page is laid out in.
COLUMN_PX = int((PAPER["width_mm"] - MARGINS_MM["left"] - MARGINS_MM["right"]) * 96 / 25.4)
#: Every figure fitted again to the page as laid out for paper (irmeans-figures.js).
FIGURES_REFITTED = "async () => { if (window.irmeansRefit) await window.irmeansRefit(); }"
#: Every page's footer: the licences (as the site's footer states them) and the page number, at 9 pt
#: (Chromium's header and footer templates are drawn at 3/4 of their CSS size: 12px is 9 pt).
LICENCE_LINE = "Text and figures CC BY-SA 4.0 \u00b7 code MIT \u00b7 TREC data: Urbano et al., CC BY-SA 4.0"
FOOTER = (
    '<div style="width:100%; font-size:12px; color:#555; display:flex; justify-content:space-between; margin:0 14mm;">'
    f"<span>{LICENCE_LINE}</span>"
    '<span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>'
)


def pdf_config(out: Path) -> Path:
    """The site's ``_config.yml`` for the single-page build, written into ``out``.

    The same configuration, with its relative paths made absolute (the file
    lives in ``out``) and with the chapters' stored outputs used as they are.
    """
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    absolute = lambda p: str((ROOT / p).resolve())  # noqa: E731
    config.setdefault("execute", {})["execute_notebooks"] = "off"
    config["bibtex_bibfiles"] = [absolute(p) for p in config.get("bibtex_bibfiles", [])]
    if config.get("html", {}).get("favicon"):
        config["html"]["favicon"] = absolute(config["html"]["favicon"])
    sphinx = config.setdefault("sphinx", {})
    sphinx["local_extensions"] = {name: absolute(p) for name, p in (sphinx.get("local_extensions") or {}).items()}
    sphinx["local_extensions"]["make_pdf"] = str(Path(__file__).resolve().parent)  # setup() below
    settings = sphinx.setdefault("config", {})
    settings["html_static_path"] = [absolute(p) for p in settings.get("html_static_path", [])]
    # The figures' Vega-Lite output before its text on the single page too (the site's renderer says so for "html").
    overrides = list(settings.get("nb_mime_priority_overrides", []))
    settings["nb_mime_priority_overrides"] = overrides + [["singlehtml", VEGALITE_MIMETYPE, 5]]
    out.mkdir(parents=True, exist_ok=True)
    path = out / "_config.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def build_single_page(out: Path) -> tuple[Path, str]:
    """Build the book as one HTML page under ``out``; return the build's folder and the page in it."""
    jupyter_book = Path(sys.executable).with_name("jupyter-book")
    command = [str(jupyter_book), "build", "-W", "-n", "--keep-going", "--builder", "singlehtml"]
    command += ["--path-output", str(out), "--config", str(pdf_config(out)), str(ROOT)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-30:])
        raise RuntimeError(f"the single-page build failed:\n{tail}")
    root = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))["root"]
    folder = out / "_build" / "singlehtml"
    written = folder / f"{root}.html"
    if not written.is_file():
        raise RuntimeError(f"the single-page build wrote no {written}")
    # Sphinx writes the root page where the root document is (chapters/), but links its
    # scripts and styles from the build's top folder: the page is printed from there.
    page = "book.html"
    shutil.copyfile(written, folder / page)
    return folder, page


def print_pdf(folder: Path, page: str, pdf: Path, timeout_ms: int = 180_000) -> None:
    """Print ``page`` of ``folder`` (served from it) to ``pdf`` with Chromium, once its figures are drawn."""
    from playwright.sync_api import sync_playwright

    if not chromium.EXECUTABLE.is_file():
        raise RuntimeError(chromium.missing_message())
    outside = []
    with chromium.serve(folder) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(chromium.EXECUTABLE), args=chromium.ARGS)
        try:
            context = browser.new_context(viewport={"width": COLUMN_PX, "height": 1400})
            tab = context.new_page()
            tab.on(
                "request",
                lambda r: (
                    r.url.startswith(("http:", "https:")) and not r.url.startswith(base) and outside.append(r.url)
                ),
            )
            tab.goto(base + page, wait_until="load", timeout=timeout_ms)
            tab.wait_for_function(FIGURES_DRAWN, timeout=timeout_ms, polling=500)
            tab.evaluate(MATHS_TYPESET)
            tab.emulate_media(media="print")
            tab.evaluate(FIGURES_REFITTED)
            tab.evaluate("async () => { await Promise.all(document.getAnimations().map((a) => a.finished)); }")
            pdf.parent.mkdir(parents=True, exist_ok=True)
            tab.pdf(
                path=str(pdf),
                format=PAPER["format"],
                print_background=True,
                margin={side: f"{mm}mm" for side, mm in MARGINS_MM.items()},
                display_header_footer=True,
                header_template="<span></span>",
                footer_template=FOOTER,
            )
        finally:
            browser.close()
    if outside:
        raise RuntimeError(f"the page asked for files from outside the book: {sorted(set(outside))}")


def _html_visitors_for_singlehtml(app):
    registry = app.registry.translation_handlers
    single = registry.setdefault("singlehtml", {})
    for node, visitors in registry.get("html", {}).items():
        single.setdefault(node, visitors)


def setup(app):
    """This module as a Sphinx extension, for the single-page build only.

    Some extensions of Jupyter Book (sphinx-jupyterbook-latex, myst-nb's hidden
    cells) give their nodes visitors for the ``html`` builder alone, and Sphinx
    looks up ``singlehtml``'s by its own name once any extension has registered
    one for it: the single page gets the ``html`` visitors it lacks.
    """
    app.connect("builder-inited", _html_visitors_for_singlehtml)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder of the single-page build and the PDF")
    parser.add_argument("--site", type=Path, default=SITE, help="the built site to copy the PDF into")
    args = parser.parse_args(argv)

    shutil.rmtree(args.out / "_build", ignore_errors=True)
    folder, page = build_single_page(args.out)
    pdf = args.out / PDF_NAME
    print_pdf(folder, page, pdf)
    size = pdf.stat().st_size
    if args.site.is_dir():
        shutil.copyfile(pdf, args.site / PDF_NAME)
        print(f"{pdf} ({size / 1e6:.1f} MB), copied to {args.site / PDF_NAME}")
    else:
        print(f"{pdf} ({size / 1e6:.1f} MB); no site at {args.site} to copy it into")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
