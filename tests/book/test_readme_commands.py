"""Every command line the README shows runs as written, from the repository's root, and prints what it shows.

The README's shell blocks are read as they stand, whoever wrote them: in a
``console`` block each ``$ `` line is a command and the lines after it, up to
the next, are its output, which must be printed as shown (numbers to 1 part in 10⁸: tests/stored_outputs.py); in a ``sh`` block each
line is a command (after it, a ``#`` comment), which must succeed. They run in
order, each in a shell, in a copy of the source tree (so that the quick start's
environment, ``.venv-lib``, is made afresh and the repository stays as it is),
where ``.venv`` is the project's environment.

``make`` lines are not run here: they build the site, run the tests (this test
among them), or start a server that runs until stopped. Each must name a target
of the Makefile, and CI runs ``make test``, which runs the others' work.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from irmeans_book import downloads
from stored_outputs import same

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
BLOCK = re.compile(r"^```(console|sh|shell|bash)\n(.*?)^```", re.S | re.M)
#: The longest a command may take (the quick start's pip install takes about a minute).
TIMEOUT = 900


def commands(markdown: str) -> list[tuple[str, str | None]]:
    """Every command of the README's shell blocks, in order, with the output shown for it (None: not shown).

    >>> commands("```console\\n$ echo hi\\nhi\\n```\\n```sh\\nls -a   # every file\\n\\n```\\n")
    [('echo hi', 'hi\\n'), ('ls -a', None)]
    """
    found: list[tuple[str, str | None]] = []
    for kind, body in BLOCK.findall(markdown):
        if kind == "console":
            for chunk in re.split(r"^\$ ", body, flags=re.M)[1:]:
                command, _, output = chunk.partition("\n")
                found.append((command.strip(), output))
        else:
            for line in body.splitlines():
                command = re.sub(r"\s+#.*$", "", line).strip()
                if command and not command.startswith("#"):
                    found.append((command, None))
    return found


def test_the_readme_shows_commands_and_their_output():
    found = commands(README.read_text(encoding="utf-8"))
    shown = [c for c, output in found if output]
    assert any(c.startswith(".venv-lib/bin/pip install") for c, _ in found), "no library-only install"
    assert any("irmeans eval" in c for c in shown), "no command of the quick start shows its output"


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    """A copy of the source tree, with the project's environment as its .venv."""
    copy = tmp_path_factory.mktemp("readme") / "irmeans"
    for relative in downloads.source_files(ROOT):
        (copy / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / relative, copy / relative)
    (copy / ".venv").symlink_to(ROOT / ".venv")
    return copy


def test_every_command_line_of_the_readme_runs_as_written(tree):
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    problems = []
    for command, output in commands(README.read_text(encoding="utf-8")):
        if command.startswith("make "):
            for target in command.split()[1:]:
                if not re.search(rf"^{re.escape(target)}:", makefile, re.M) and "=" not in target:
                    problems.append(f"{command}: no target {target} in the Makefile")
            continue
        done = subprocess.run(["bash", "-c", command], cwd=tree, capture_output=True, text=True, timeout=TIMEOUT)
        if done.returncode != 0:
            problems.append(f"{command}: exit {done.returncode}\n{done.stderr[-1500:]}")
        elif output is not None and not same(done.stdout, output):  # numbers as another CPU prints them too
            problems.append(f"{command}: printed\n{done.stdout}\nwhere the README shows\n{output}")
    assert not problems, "\n\n".join(problems)
