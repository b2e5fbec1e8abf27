"""Put the JavaScript the site serves itself into ``book/assets/`` (build time).

Nothing here is committed: the Vega, Vega-Lite and vega-embed bundle comes
from the vl-convert-python wheel, MathJax from the npm package pinned in
``package.json``.  ``_config.yml`` lists ``book/assets`` in
``html_static_path``, so Sphinx copies it to ``_build/html/_static/``.

Usage: ``python book/vendor_assets.py`` from the repository root.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import altair as alt
import vl_convert

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "book" / "assets"
MATHJAX = ROOT / "node_modules" / "mathjax" / "es5"
# The pieces of MathJax's es5 build that tex-chtml.js loads by itself.
MATHJAX_PARTS = ("tex-chtml.js", "input/tex/extensions", "output/chtml/fonts/woff-v2")


def vega_bundle() -> str:
    """Vega, Vega-Lite and vega-embed as one script defining ``window.vegaEmbed``.

    The Vega-Lite version matches the schema Altair writes, so the specs the
    chapters embed are compiled by the version they were validated against.
    """
    major_minor = ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])
    # The bundle declares top-level consts (``_`` among them) that clash with
    # the theme's globals in a classic script: give it a scope of its own.
    return "(function () {\n" + vl_convert.javascript_bundle(vl_version=major_minor) + "\n})();\n"


def copy_mathjax(dest: Path) -> None:
    """Copy the MathJax files the pages need from ``node_modules``."""
    if not MATHJAX.is_dir():
        sys.exit("node_modules/mathjax is missing: run `npm ci` first")
    for part in MATHJAX_PARTS:
        src, out = MATHJAX / part, dest / part
        out.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, out, dirs_exist_ok=True)
        else:
            shutil.copy2(src, out)


def main() -> None:
    shutil.rmtree(ASSETS, ignore_errors=True)
    (ASSETS / "vega").mkdir(parents=True)
    (ASSETS / "vega" / "vega-bundle.js").write_text(vega_bundle(), encoding="utf-8")
    copy_mathjax(ASSETS / "mathjax")
    print(f"wrote {ASSETS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
