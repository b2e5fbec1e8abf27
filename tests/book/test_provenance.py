"""The commands that say where a shipped file came from run as written, and make the file again.

A provenance note that names a module that does not exist, a test that is not there or a path the
file does not live at cannot be followed. Each command below is read from the note that gives it,
run from the root of a copy of the source tree (so that the shipped files stay as they are), and
what it writes is compared with the file the project ships.
"""

from __future__ import annotations

import importlib
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from irmeans_book import robertson

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "lib" / "irmeans" / "datasets" / "data"
NOTE = DATA / "robertson2006-example.md"
STORED = DATA / "robertson2006-example.csv"


def shell_block(markdown: str) -> str:
    """The one command of a note's ``sh`` block.

    >>> shell_block("To do it:\\n\\n```sh\\n.venv/bin/python -c 'print(1)'\\n```\\n")
    ".venv/bin/python -c 'print(1)'"
    """
    (block,) = re.findall(r"^```sh\n(.*?)^```", markdown, re.S | re.M)
    (command,) = [line for line in block.splitlines() if line.strip()]
    return command


@pytest.fixture()
def tree(tmp_path) -> Path:
    """A copy of the parts of the source tree the commands read and write, with the project's environment."""
    copy = tmp_path / "irmeans"
    shutil.copytree(ROOT / "lib", copy / "lib")
    shutil.copytree(ROOT / "examples", copy / "examples")
    (copy / ".venv").symlink_to(ROOT / ".venv")
    return copy


def test_the_robertson_note_names_what_exists():
    text = NOTE.read_text(encoding="utf-8")
    for name in re.findall(r"`((?:irmeans|irmeans_book)\.[\w.]+)", text):
        module, _, attribute = name.rpartition(".")
        assert hasattr(importlib.import_module(module), attribute), name
    for path in re.findall(r"`((?:tests|lib|book|data)/[\w/.-]+)`", text):
        assert (ROOT / path).exists(), path
    assert "irmeans.robertson" not in text  # the module is the book's, irmeans_book.robertson


def test_the_robertson_command_writes_the_stored_values_again(tree):
    command = shell_block(NOTE.read_text(encoding="utf-8"))
    written = tree / STORED.relative_to(ROOT)
    written.unlink()
    done = subprocess.run(["bash", "-c", command], cwd=tree, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    again = np.loadtxt(written, skiprows=1)
    stored = np.loadtxt(STORED, skiprows=1)
    lines = written.read_text().splitlines()
    assert lines[0] == "ap" and all(re.fullmatch(r"\d\.\d{4}", line) for line in lines[1:])
    # The search's path follows the last bits of the arithmetic: two units in the fourth decimal, as chapter 5 allows.
    assert again.shape == stored.shape and np.allclose(again, stored, rtol=0, atol=2.0001e-4)
    assert robertson.mismatches(again, min_margin=1e-4) == {}


def test_a_command_that_writes_elsewhere_is_caught(tree):
    # The note once wrote data/robertson2006-example.csv, where the file does not live: the check sees it.
    command = shell_block(NOTE.read_text(encoding="utf-8")).replace("lib/irmeans/datasets/data/", "data/")
    (tree / "data").mkdir()
    subprocess.run(["bash", "-c", command], cwd=tree, capture_output=True, text=True, timeout=300)
    assert (tree / "data" / STORED.name).exists()
    assert (tree / STORED.relative_to(ROOT)).read_bytes() == STORED.read_bytes()  # the shipped file untouched


def test_the_examples_are_made_again_by_their_script(tree):
    # examples/generate.py's docstring gives the command; it writes every example file byte for byte.
    doc = (ROOT / "examples" / "generate.py").read_text(encoding="utf-8")
    (command,) = re.findall(r"run from the repository's root: ([^)]+)\)", doc)
    for made in ("qrels.txt", "scores.csv", "runs/baseline.txt"):
        (tree / "examples" / made).unlink()
    done = subprocess.run(["bash", "-c", command], cwd=tree, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    for made in ("qrels.txt", "scores.csv", "runs/baseline.txt", "runs/feedback.txt", "runs/phrases.txt"):
        assert (tree / "examples" / made).read_bytes() == (ROOT / "examples" / made).read_bytes(), made


def test_the_book_datas_notes_give_commands_that_name_what_exists():
    # Chapter 9's intervals at the command's defaults take minutes for all 46 matrices, so the test of how they were
    # made (tests/book/test_ch09_consistency.py) recomputes two; here, the note's command names a function that
    # exists and writes where the chapter reads.
    from irmeans_book.chapters import ch09_consistency as ch09

    for note in sorted((ROOT / "book" / "irmeans_book" / "data").glob("*.md")):
        command = shell_block(note.read_text(encoding="utf-8"))
        assert command.startswith(".venv/bin/python -c "), note.name
        called = re.findall(r"ch09\.(\w+)\(\)", command)
        assert called and all(callable(getattr(ch09, name, None)) for name in called), note.name
        assert note.with_suffix(".csv").exists(), note.name
    assert ch09.DEFAULT_INTERVALS.exists() and ch09.DEFAULT_INTERVALS.with_suffix(".md").exists()
