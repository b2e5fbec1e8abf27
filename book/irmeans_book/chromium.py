"""The browser the book is printed and tested with: Debian's Chromium, the flags it runs with, and the
local server it reads the built pages from.

The one definition for the build (``book/scripts/make_pdf.py``) and the tests
that drive a browser (``tests/browser``, ``tests/lab``), all through
Playwright, which downloads no browser of its own.

Examples
--------
>>> "--no-sandbox" in ARGS and "--disable-background-networking" in ARGS
True
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["ARGS", "EXECUTABLE", "missing_message", "serve"]

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


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        pass  # a browser leaving a page mid-download is not the site's problem


@contextmanager
def serve(folder: Path) -> Iterator[str]:
    """Serve ``folder`` on 127.0.0.1 on a free port; yield its base URL (ending in ``/``)."""
    server = _Server(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
