"""``make lab``: JupyterLab on the chapters, with jupyterlab-myst for their MyST markup.

Usage: ``python book/scripts/lab.py [JUPYTER LAB OPTION ...]`` (``make lab LAB_ARGS="--no-browser --port 8890"``).

The server listens on 127.0.0.1 only and asks nothing of the internet: no news
feed (``LabApp.news_url``), no update check, and the settings in ``book/lab/``
(``LabApp.app_settings_dir``) turn off the pop-up asking whether to fetch
Jupyter's news. (The same defaults are in the environment's ``etc/jupyter``, from
``book/lab/pyproject.toml``, for a JupyterLab started without these options,
``jupyter lab chapters/``.) Run as root (in a container, say), it needs ``--allow-root``,
which is then added. :func:`command` is the one definition of how the book's
JupyterLab starts: the JupyterLab test (``tests/lab``) starts it the same way.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = ROOT / "chapters"
#: JupyterLab's settings for the book (overrides.json5).
SETTINGS = ROOT / "book" / "lab"


def command(notebook_dir: Path = CHAPTERS, *extra: str) -> list[str]:
    """The command line of the book's JupyterLab on ``notebook_dir``, with ``extra`` options after."""
    jupyter = Path(sys.executable).with_name("jupyter")
    root = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    return [
        str(jupyter),
        "lab",
        f"--notebook-dir={notebook_dir}",
        "--ServerApp.ip=127.0.0.1",
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        f"--LabApp.app_settings_dir={SETTINGS}",
        *root,
        *extra,
    ]


def main(argv: list[str]) -> None:
    args = command(CHAPTERS, *argv)
    os.execv(args[0], args)


if __name__ == "__main__":
    main(sys.argv[1:])
