"""Every ``irmeans`` command line the chapters (and the book's other pages) show runs as shown, from the root.

A command line is what a reader would copy into a shell: in the markdown, an inline code span or a line
of a fenced block that starts with ``irmeans SUBCOMMAND`` and gives it at least one argument (a bare
```irmeans eval``` names the command, it is not a command line); in a code cell, a ``!irmeans`` line.
Each runs from the repository's root with the project's ``irmeans`` first on the PATH, on the files the
project ships (``examples/``, the shipped TREC matrices), and must exit 0 and print something.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "chapters").glob("[0-9][0-9]-*.ipynb")) + sorted((ROOT / "chapters").glob("*.md"))
SPAN = re.compile(r"`(irmeans [^`\n]+)`")
FENCE = re.compile(r"^(```+|~~~+)[^\n]*\n(.*?)^\1", re.S | re.M)
COMMAND = re.compile(r"^\s*(?:\$\s+)?(irmeans\s+\S.*)$")


def command_lines(markdown: str = "", code: str = "") -> list[str]:
    """The ``irmeans`` command lines shown in a cell's markdown or code.

    >>> command_lines("Run `irmeans eval -q a b` (see `irmeans eval`).\\n```sh\\n$ irmeans datasets x\\n```")
    ['irmeans datasets x', 'irmeans eval -q a b']
    >>> command_lines("````{solution} x\\nRun `irmeans consistency --dataset adhoc8:ap`.\\n````")
    ['irmeans consistency --dataset adhoc8:ap']
    >>> command_lines(code="x = 1\\n!irmeans eval --help\\n")
    ['irmeans eval --help']
    """
    found = []
    for _, body in FENCE.findall(markdown):
        found += [m.group(1).strip() for m in map(COMMAND.match, body.splitlines()) if m]
    # Inline spans anywhere, MyST directives' bodies (admonitions, exercises, solutions) included.
    found += [s.strip() for s in SPAN.findall(markdown)]
    found += [line.strip()[1:].strip() for line in code.splitlines() if re.match(r"\s*!\s*irmeans\s", line)]
    return list(dict.fromkeys(c for c in found if len(shlex.split(c)) >= 3))


def shown(path: Path) -> list[str]:
    if path.suffix == ".md":
        return command_lines(markdown=path.read_text(encoding="utf-8"))
    nb = nbformat.read(path, as_version=4)
    found = []
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            found += command_lines(markdown=cell.source)
        elif cell.cell_type == "code":
            found += command_lines(code=cell.source)
    return list(dict.fromkeys(found))


ALL = [(path.stem, command) for path in PAGES for command in shown(path)]


def test_the_chapters_show_command_lines():
    # The extraction finds the book's command lines (chapters 9 and 10 show several); an empty list would pass
    # the test below without running anything.
    assert len(ALL) >= 4
    assert {stem[:2] for stem, _ in ALL} >= {"09", "10"}


def test_a_placeholder_is_not_a_command_line_that_runs(tmp_path):
    # The check itself can fail: a line with placeholders for files, as the chapters once showed, exits non-zero.
    done = run("irmeans eval -q --eps 0.01 QRELS RUN")
    assert done.returncode != 0


def run(command: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PATH=f"{ROOT / '.venv' / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    return subprocess.run(["bash", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize(("page", "command"), ALL, ids=[f"{s}: {c[:60]}" for s, c in ALL])
def test_every_command_line_shown_runs_from_the_root(page, command):
    done = run(command)
    assert done.returncode == 0, f"{page}: `{command}` exits {done.returncode}\n{done.stderr[-1500:]}"
    assert done.stdout.strip(), f"{page}: `{command}` prints nothing"
