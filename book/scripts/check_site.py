"""Check the built site: nothing is loaded from elsewhere, figures have their script, pages stay small.

Usage: ``python book/scripts/check_site.py _build/html``; exits non-zero on a problem.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

MAX_PAGE_BYTES = 2_000_000
# Anything a browser would fetch by itself: scripts, styles, images, frames, fonts via CSS.
FETCHED = re.compile(
    r"""<(?:script|img|iframe|source|embed)\b[^>]*\bsrc\s*=\s*["']?((?:https?:)?//[^"'\s>]+)"""
    r"""|<link\b[^>]*\bhref\s*=\s*["']?((?:https?:)?//[^"'\s>]+)"""
    r"""|url\(\s*["']?((?:https?:)?//[^"')]+)""",
    re.IGNORECASE,
)
#: The scripts a page with a figure needs: Vega, and the book's script that fits and draws each figure.
FIGURE_SCRIPTS = {
    name: re.compile(rf"""<script[^>]*src=["']([^"']*{re.escape(name)})""")
    for name in ("vega-bundle.js", "irmeans-figures.js")
}


def problems(site: Path) -> list[str]:
    """Every problem found in the HTML and CSS files under ``site``."""
    found = []
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        name = page.relative_to(site)
        for match in FETCHED.finditer(text):
            found.append(f"{name}: loads {next(g for g in match.groups() if g)} from outside the site")
        if page.stat().st_size > MAX_PAGE_BYTES:
            found.append(f"{name}: {page.stat().st_size} bytes, more than {MAX_PAGE_BYTES}")
        if "irmeansDraw(" in text:
            for script_name, pattern in FIGURE_SCRIPTS.items():
                script = pattern.search(text)
                if not script:
                    found.append(f"{name}: has a figure but no {script_name} script")
                elif not (page.parent / script.group(1).split("?")[0]).is_file():
                    found.append(f"{name}: {script.group(1)} is missing from the site")
    for css in sorted(site.rglob("*.css")):
        for match in FETCHED.finditer(css.read_text(encoding="utf-8", errors="replace")):
            found.append(f"{css.relative_to(site)}: loads {next(g for g in match.groups() if g)} from outside the site")
    return found


def main(argv: list[str]) -> int:
    site = Path(argv[0] if argv else "_build/html")
    found = problems(site)
    for line in found:
        print(line, file=sys.stderr)
    print(f"checked {site}: {len(found)} problem(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
