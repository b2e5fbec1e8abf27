"""The chapters' maths as MathJax shows it (on the site, in the PDF and in JupyterLab)."""

import json
import re
from pathlib import Path

import pytest

CHAPTERS = sorted((Path(__file__).resolve().parents[2] / "chapters").glob("*.ipynb"))
# In MathJax's text mode (\text{...}) a backslash is printed as it is: \text{gm\_map} shows "gm\_map".
ESCAPE_IN_TEXT = re.compile(r"\\(?:text|textrm|texttt|mbox)\{[^}]*\\[_&%#$]")


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_no_escaped_character_inside_text_in_maths(chapter):
    cells = json.loads(chapter.read_text(encoding="utf-8"))["cells"]
    found = [
        m.group(0) for c in cells if c["cell_type"] == "markdown" for m in ESCAPE_IN_TEXT.finditer("".join(c["source"]))
    ]
    assert found == []
