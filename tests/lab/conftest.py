"""Fixtures of the JupyterLab tests: the book's own JupyterLab on a copy of the chapters, and Chromium.

The server is started as ``make lab`` starts it (``book/scripts/lab.py``'s command), on a
free port of 127.0.0.1, with a token, on a copy of the chapters in a temporary
folder (the bibliography beside it, as in the repository), so nothing in the
repository changes; its user settings and workspaces are temporary too, so a
reader's own JupyterLab settings play no part.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "book" / "scripts"))
import lab  # noqa: E402 - the book's script, not an installed module

#: Where screenshots go, for a person to look at.
OUTPUT = ROOT / "_build" / "screenshots" / "lab"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def book_copy(tmp_path_factory) -> Path:
    """A copy of the chapters (and of the bibliography beside them), to open and run."""
    book = tmp_path_factory.mktemp("book")
    shutil.copytree(ROOT / "chapters", book / "chapters")
    shutil.copy(ROOT / "references.bib", book)
    return book / "chapters"


@pytest.fixture(scope="session")
def lab_url(book_copy, tmp_path_factory):
    """The base URL of the book's JupyterLab serving the copy, and its token, as a query string."""
    home = tmp_path_factory.mktemp("lab")
    token = secrets.token_hex(16)
    port = _free_port()
    command = lab.command(
        book_copy,
        "--no-browser",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--LabApp.user_settings_dir={home / 'settings'}",
        f"--LabApp.workspaces_dir={home / 'workspaces'}",
    )
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(home / "runtime"), JUPYTER_CONFIG_DIR=str(home / "config"))
    log = (home / "lab.log").open("w")
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if server.poll() is not None:
                pytest.fail(f"JupyterLab exited ({server.returncode}):\n{(home / 'lab.log').read_text()[-3000:]}")
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"JupyterLab did not answer:\n{(home / 'lab.log').read_text()[-3000:]}")
                time.sleep(0.3)
        yield base, token
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@pytest.fixture(scope="session")
def output_dir():
    shutil.rmtree(OUTPUT, ignore_errors=True)
    OUTPUT.mkdir(parents=True)
    return OUTPUT
