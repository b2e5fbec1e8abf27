"""The browser the book is printed and tested with: Chromium or Google Chrome, found by name, the flags it runs
with, and the local server it reads the built pages from.

The one definition for the build (``book/scripts/make_pdf.py``), the tests
that drive a browser (``tests/browser``, ``tests/lab``), all through
Playwright, which downloads no browser of its own, and ``make system``,
which says which browser they use (``python3 book/irmeans_book/chromium.py``
prints it, with its version).

Examples
--------
>>> "--no-sandbox" in ARGS and "--disable-background-networking" in ARGS
True
>>> find({"IRMEANS_CHROMIUM": "/opt/my browser/chrome"})
PosixPath('/opt/my browser/chrome')
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = ["ARGS", "EXECUTABLE", "NAMES", "describe", "find", "missing_message", "serve"]

#: The names Chromium and Google Chrome are installed under (Debian's and Ubuntu's packages, Google's), looked for
#: on ``PATH`` in this order; ``IRMEANS_CHROMIUM``, the path of a browser, comes before them all.
NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")


def find(environ: Mapping[str, str] = os.environ) -> Path | None:
    """The browser: ``IRMEANS_CHROMIUM`` if it is set, else the first of :data:`NAMES` on ``PATH``; None if none."""
    if environ.get("IRMEANS_CHROMIUM"):
        return Path(environ["IRMEANS_CHROMIUM"])
    for name in NAMES:
        found = shutil.which(name, path=environ.get("PATH"))
        if found:
            return Path(found)
    return None


#: The browser the build and the tests run (:func:`find`); a path that is no file when none was found.
EXECUTABLE = find() or Path(os.devnull) / NAMES[0]
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
    if os.environ.get("IRMEANS_CHROMIUM"):
        return f"IRMEANS_CHROMIUM names {EXECUTABLE}, which is not there: set it to Chromium's or Chrome's path"
    return (
        f"no Chromium or Chrome found ({', '.join(NAMES)} on PATH): install Debian's or Ubuntu's chromium "
        "(apt-get install chromium), or Google Chrome, or set IRMEANS_CHROMIUM to a browser's path"
    )


def describe() -> str:
    """Which browser is used, with the version it reports: ``/usr/bin/chromium (Chromium 140.0.7339.185 ...)``."""
    try:
        version = subprocess.run([str(EXECUTABLE), "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        version = ""
    return f"{EXECUTABLE} ({version.strip() or 'its version unknown'})"


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
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


if __name__ == "__main__":
    # `make system`: which browser the build and the tests use, or what is missing (exit status 1).
    if not EXECUTABLE.is_file():
        print(missing_message(), file=sys.stderr)
        sys.exit(1)
    print(describe())
