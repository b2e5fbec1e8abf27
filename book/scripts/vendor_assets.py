"""Put the JavaScript the site serves itself into ``book/assets/`` (build time).

Nothing here is committed: Vega, Vega-Lite, vega-embed and MathJax come from
the npm packages pinned in ``package.json`` (installed by ``npm ci``).
``_config.yml`` lists ``book/assets`` in ``html_static_path``, so Sphinx
copies it to ``_build/html/_static/``.

Usage: ``python book/scripts/vendor_assets.py`` from the repository root.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import altair as alt

ROOT = Path(__file__).resolve().parents[2]
ASSETS = ROOT / "book" / "assets"
NODE_MODULES = ROOT / "node_modules"
MATHJAX = NODE_MODULES / "mathjax" / "es5"
# Browser builds that define the globals vega, vegaLite and vegaEmbed, in load order.
VEGA_PARTS = ("vega/build/vega.min.js", "vega-lite/build/vega-lite.min.js", "vega-embed/build/vega-embed.min.js")
SOURCE_MAP = re.compile(r"^//# sourceMappingURL=.*$", re.MULTILINE)
# The pieces of MathJax's es5 build that tex-chtml.js loads by itself.
#: MathJax's parts the pages load; and its speech rule engine, with its English rules, with which make_pdf gives
#: each formula of the PDFs its spoken form (make_pdf_tags.js).
MATHJAX_PARTS = (
    "tex-chtml.js",
    "input/tex/extensions",
    "output/chtml/fonts/woff-v2",
    "a11y/sre.js",
    "sre/mathmaps/base.json",
    "sre/mathmaps/en.json",
)


def _npm(package: str) -> Path:
    folder = NODE_MODULES / package
    if not folder.is_dir():
        sys.exit(f"node_modules/{package} is missing: run `npm ci` first")
    return folder


def npm_version(package: str) -> str:
    """The installed version of an npm package."""
    version: str = json.loads((_npm(package) / "package.json").read_text(encoding="utf-8"))["version"]
    return version


def vega_bundle() -> str:
    """Vega, Vega-Lite and vega-embed as one script defining ``window.vegaEmbed``.

    The Vega-Lite version must match the schema Altair writes, so the specs the
    chapters embed are compiled by the version they were validated against
    (and vega-embed does not warn about a version mismatch on every figure).
    """
    wanted = alt.SCHEMA_VERSION.lstrip("v").split(".")[:2]
    installed = npm_version("vega-lite")
    if installed.split(".")[:2] != wanted:
        sys.exit(
            f"npm vega-lite {installed} does not match Altair's schema {alt.SCHEMA_VERSION}: "
            "pin the matching version in package.json"
        )
    parts = []
    for part in VEGA_PARTS:
        package, _, rest = part.partition("/")
        text = (_npm(package) / rest).read_text(encoding="utf-8")
        # The maps are not served: a reference to them would be a 404 in the browser's tools.
        parts.append(f"/* {package} {npm_version(package)} */\n" + SOURCE_MAP.sub("", text))
    return ";\n".join(parts) + "\n"


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
