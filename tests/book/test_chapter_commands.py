"""Every ``irmeans`` command line the chapters (and the book's other pages) show runs as shown, from the root.

A command line is what a reader would copy into a shell: in the markdown, an inline code span or a line
of a fenced block that starts with ``irmeans SUBCOMMAND`` and gives it at least one argument (a bare
```irmeans eval``` names the command, it is not a command line); in a code cell, a ``!irmeans`` line.
Each runs from the repository's root with the project's ``irmeans`` first on the PATH, on the files the
project ships (``examples/``, the shipped TREC matrices), and must exit 0 and print something.

A code cell's output may show a shell session too, as chapter 2's does: a ``$ irmeans ...`` line, then what
the command printed (standard output, then standard error, then ``exit status N`` if it is not 0). Each such
line must run from the root as shown, on files the project ships, and print exactly what follows it.
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


def sessions(text: str) -> list[tuple[str, str]]:
    """The ``$ irmeans`` lines of a cell's printed output, each with what follows it up to the next ``$ `` line.

    >>> sessions("$ irmeans eval -m map q r\\nmap\\tall\\t1.0\\n$ irmeans eval x y\\nexit status 1\\n")
    [('irmeans eval -m map q r', 'map\\tall\\t1.0\\n'), ('irmeans eval x y', 'exit status 1\\n')]
    """
    found = []
    for chunk in re.split(r"^\$ ", text, flags=re.M)[1:]:
        command, _, output = chunk.partition("\n")
        if command.startswith("irmeans "):
            found.append((command, output))
    return found


def printed_sessions(path: Path) -> list[tuple[str, str]]:
    """Every shell session a chapter's code cells print in their stored outputs."""
    found = []
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type == "code":
            text = "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")
            found += sessions(text)
    return found


SESSIONS = [
    (path.stem, command, output)
    for path in PAGES
    if path.suffix == ".ipynb"
    for command, output in printed_sessions(path)
]


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


def test_chapter_2_prints_shell_sessions_on_shipped_files():
    # Chapter 2 shows trec_eval's conventions as command lines; each names files under examples/ (not a
    # temporary folder a reader cannot see), and the files are part of the source tree.
    from irmeans_book import downloads

    ranked = [(command, output) for stem, command, output in SESSIONS if stem.startswith("02")]
    assert len(ranked) >= 10
    tracked = {p.as_posix() for p in downloads.source_files(ROOT)}
    for command, _ in ranked:
        files = [a for a in shlex.split(command) if "/" in a]
        assert files and all(f.startswith("examples/") and f in tracked for f in files), command


def test_a_session_that_does_not_print_what_it_shows_fails():
    # The check itself can fail: the right command with another output shown.
    command, output = next((c, o) for stem, c, o in SESSIONS if stem.startswith("02"))
    assert ran_as_shown(command, output)
    assert not ran_as_shown(command, output.replace("0", "1", 1) + "x\n")


def ran_as_shown(command: str, output: str) -> bool:
    done = run(command)
    printed = done.stdout + done.stderr + (f"exit status {done.returncode}\n" if done.returncode else "")
    return printed == output


@pytest.mark.parametrize(("page", "command", "output"), SESSIONS, ids=[f"{s}: {c[:60]}" for s, c, _ in SESSIONS])
def test_every_printed_session_runs_as_shown_from_the_root(page, command, output):
    assert ran_as_shown(command, output), f"{page}: `{command}` does not print what the chapter shows"
