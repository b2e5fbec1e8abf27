"""The README's Python examples of the library run as written (each block after the ones before it); a cell of a
chapter is fenced ``ipython`` and run by the book's tests."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_every_python_block_of_the_readme_runs():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 2
    namespace = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)  # a NameError here is an undefined name in the README
    assert namespace["scores"].shape == (129, 50)
