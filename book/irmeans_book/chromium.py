"""The browser the book is printed and tested with: Debian's Chromium, and the flags it runs with.

The one definition for the build (``book/scripts/make_pdf.py``) and the tests
that drive a browser (``tests/browser``, ``tests/lab``), all through
Playwright, which downloads no browser of its own.

Examples
--------
>>> "--no-sandbox" in ARGS and "--disable-background-networking" in ARGS
True
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["ARGS", "EXECUTABLE", "missing_message"]

#: Debian's browser; ``IRMEANS_CHROMIUM`` names another.
EXECUTABLE = Path(os.environ.get("IRMEANS_CHROMIUM", "/usr/bin/chromium"))
#: No sandbox (CI runs as root); no background traffic (the pages alone may make requests).
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--no-first-run",
    "--no-default-browser-check",
]


def missing_message() -> str:
    """What to say when :data:`EXECUTABLE` is not there."""
    return f"{EXECUTABLE} is missing: install Debian's chromium (apt-get install chromium) or set IRMEANS_CHROMIUM"
