"""JupyterLab started the plain way, ``jupyter lab chapters/``, from the project's environment: no news pop-up.

"Get the code" tells a reader without ``make`` to run ``.venv/bin/jupyter lab chapters/``:
none of ``make lab``'s options then, only the defaults the environment holds (the
book's settings package, ``book/lab``, installed by ``requirements.txt`` into its
``etc/jupyter``). The server runs on a copy of the chapters, with an empty user
configuration and user settings of its own, so only the environment's settings
count: no pop-up asking about Jupyter's news, no news or update check fetched.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

NEWS = "official Jupyter news"
NOTIFICATIONS = "@jupyterlab/apputils-extension:notification"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def plain_lab(book_copy, tmp_path):
    token, port = secrets.token_hex(16), _free_port()
    jupyter = Path(sys.executable).with_name("jupyter")
    root = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    # As "Get the code" writes it, from the folder above chapters/; only what a test needs added after.
    command = [str(jupyter), "lab", "chapters/", "--no-browser", f"--ServerApp.port={port}", *root]
    command += [f"--IdentityProvider.token={token}", f"--LabApp.user_settings_dir={tmp_path / 'settings'}"]
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp_path / "config"), JUPYTER_RUNTIME_DIR=str(tmp_path / "run"))
    log = (tmp_path / "lab.log").open("w")
    server = subprocess.Popen(command, cwd=book_copy.parent, stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if server.poll() is not None:
                pytest.fail(f"jupyter lab exited ({server.returncode}):\n{(tmp_path / 'lab.log').read_text()[-3000:]}")
            try:
                urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"jupyter lab did not answer:\n{(tmp_path / 'lab.log').read_text()[-3000:]}")
                time.sleep(0.3)
        yield base, token, tmp_path / "lab.log"
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def test_jupyter_lab_on_the_chapters_shows_no_news_pop_up(plain_lab, browser, output_dir):
    base, token, log = plain_lab
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    outside = []
    page.on("request", lambda r: r.url.startswith((base, "data:", "blob:")) or outside.append(r.url))
    try:
        page.goto(f"{base}/lab/tree/01-introduction.ipynb?reset&token={token}")
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
        page.wait_for_timeout(4000)  # time for a pop-up to appear, if one were to
        page.screenshot(path=str(output_dir / "plain-start-01-introduction.png"))
        assert NEWS not in page.locator("body").inner_text(), "jupyter lab chapters/ asks about Jupyter's news"
        assert not outside, f"the page fetched from outside the server: {sorted(set(outside))[:5]}"
        # The environment's defaults are what the lab runs with: no news fetched, no update checked.
        with urllib.request.urlopen(f"{base}/lab/api/settings/{NOTIFICATIONS}?token={token}", timeout=10) as answer:
            defaults = json.load(answer)["schema"]["properties"]
        assert defaults["fetchNews"]["default"] == "false", defaults["fetchNews"]
        assert defaults["checkForUpdates"]["default"] is False, defaults["checkForUpdates"]
    finally:
        context.close()
