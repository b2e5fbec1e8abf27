"""Re-execute the chapters in place, so their stored outputs are what the code computes now.

``make test`` runs nbval in strict mode, which compares these stored outputs
with a fresh run: refresh them with ``make notebooks`` after changing code.

Any notebook, anywhere, is run the same way: a lecturer's copy of a chapter,
in a course's own folder, with its data changed (``make chapter
NOTEBOOK=course/lecture-3.ipynb``). Its prose's numbers are then its own, its
checks of the text's claims note the sentences its data no longer bear out
(listed when it has run), and its references and citations are read from its
folder or else from the book it was copied from (:mod:`irmeans_book.prose`).

The prose's ``{eval}`` roles (:mod:`irmeans_book.prose`) are evaluated too, each
markdown cell's after every cell above it has run, and their results stored in
the cell's ``user_expressions`` metadata, as jupyterlab-myst stores them when the
cell is run: a chapter opened in JupyterLab shows its numbers, references and
citations before anything is run. An expression that fails stops the run.

Before a chapter runs, what it has for JupyterLab alone is brought up to date
(:func:`lab_cells`): jupyterlab-myst numbers a chapter's exercises 1, 2, ... and shows no
caption under a figure (it does not read myst-nb's figure metadata), where the site says
"Exercise 4.1" and "Fig. 4.1" with its caption. MyST front matter at the top of the chapter's
first cell, its title's, numbers them "4.1", ... (jupyterlab-myst reads front matter from the
first cell alone, and a cell of front matter only showed as an empty first cell; the site's
build takes it off); under each figure, a cell gives its number and caption, both computed
(``numref``, ``caption``: stored and checked like the prose's other ``{eval}`` roles). The
site removes these cells (tag ``remove-cell``).

After it has run, nothing is left for JupyterLab to write into the notebook when a reader opens
it (:func:`lab_ready`), so that closing a chapter one has only read asks nothing: the kernel's
spec as JupyterLab's session records it, and under each Vega-Lite figure a PNG of it, which
JupyterLab's renderer otherwise adds on opening (and which viewers without Vega show). The
tables for paper (tag ``paper-only``) are folded, input and output: JupyterLab shows them as a
thin bar, not as a table at the end of the chapter.

Usage: ``python book/scripts/execute_notebooks.py [NOTEBOOK ...]`` (default: every chapter of the book).

The kernels use local sockets (:func:`kernel_manager`: jupyter_client's own ``transport`` setting), so
ipykernel has no unencrypted TCP connection to warn about.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import nbformat
from irmeans_book.claims import note
from irmeans_book.prose import EVAL_PATTERN, eval_expressions, lab_caption_source, without_front_matter
from jupyter_client.manager import KernelManager
from jupyter_core.paths import jupyter_runtime_dir
from nbclient import NotebookClient
from nbclient.util import ensure_async

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = ROOT / "chapters"

#: Where jupyterlab-myst keeps a markdown cell's evaluated expressions.
USER_EXPRESSIONS = "user_expressions"
#: What a cell for JupyterLab alone is, in its metadata: ``{"irmeans": {"lab": "caption"}}`` (``"numbering"``: a
#: chapter's front matter as a cell of its own, as the book once stored it; :func:`lab_cells` folds it into the first).
LAB = "lab"
#: The Vega-Lite outputs of the figures, and the version of Vega-Lite the book's Altair writes.
VEGALITE = "application/vnd.vegalite.v5+json"
VEGALITE_VERSION = "5.20"
#: The tag of a cell printed on paper alone (:mod:`irmeans_book.paper`).
PAPER_ONLY = "paper-only"


def lab_numbering_source(chapter: int) -> str:
    """The front matter that numbers a chapter's exercises (and anything else MyST numbers) as the site does,
    "4.1", "4.2", ...; display maths unnumbered, as on the site.

    >>> print(lab_numbering_source(4))
    ---
    numbering:
      enumerator: "4.%s"
      equation: false
    ---
    """
    return f'---\nnumbering:\n  enumerator: "{chapter}.%s"\n  equation: false\n---'


def _lab_cell(kind: str, source: str) -> nbformat.NotebookNode:
    cell: nbformat.NotebookNode = nbformat.v4.new_markdown_cell(
        source, metadata={"tags": ["remove-cell"], "irmeans": {LAB: kind}}
    )
    return cell


def lab_cells(nb: nbformat.NotebookNode, chapter: int) -> bool:
    """Bring ``nb``'s cells for JupyterLab alone up to date (see the top of this file); whether any changed."""
    kind: Callable[[Any], Any] = lambda cell: cell.metadata.get("irmeans", {}).get(LAB)  # noqa: E731
    before = [(c.cell_type, c.source, kind(c)) for c in nb.cells]
    cells = [c for c in nb.cells if kind(c) is None]
    out = []
    for cell in cells:
        out.append(cell)
        figure = cell.metadata.get("mystnb", {}).get("figure", {})
        if cell.cell_type == "code" and figure.get("name"):
            out.append(_lab_cell("caption", lab_caption_source(figure["name"])))
    old = {(c.source, kind(c)): c for c in nb.cells if kind(c)}
    # A cell already there keeps its metadata (its stored {eval} results).
    nb.cells = [old.get((c.source, kind(c)), c) if kind(c) else c for c in out]
    first = next(c for c in nb.cells if c.cell_type == "markdown")
    first.source = lab_numbering_source(chapter) + "\n" + without_front_matter(first.source)
    return before != [(c.cell_type, c.source, kind(c)) for c in nb.cells]


def lab_ready(nb: nbformat.NotebookNode) -> None:
    """Leave nothing in ``nb`` for JupyterLab to rewrite on opening it, and fold its tables for paper (see the top
    of this file).

    >>> from nbformat.v4 import new_code_cell, new_notebook
    >>> nb = new_notebook(cells=[new_code_cell(metadata={"tags": ["paper-only"]})])
    >>> lab_ready(nb)
    >>> nb.metadata.kernelspec.display_name, dict(nb.cells[0].metadata.jupyter)
    ('Python 3 (ipykernel)', {'source_hidden': True, 'outputs_hidden': True})
    """
    import base64

    import vl_convert
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec("python3")
    nb.metadata["kernelspec"] = {"display_name": spec.display_name, "language": spec.language, "name": "python3"}
    for cell in nb.cells:
        if PAPER_ONLY in cell.metadata.get("tags", []):
            cell.metadata["jupyter"] = {"source_hidden": True, "outputs_hidden": True}
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if VEGALITE in data and "image/png" not in data:
                try:
                    png = vl_convert.vegalite_to_png(data[VEGALITE], vl_version=VEGALITE_VERSION, scale=1)
                except ValueError:  # not a chart Vega-Lite can draw: JupyterLab draws none either, nor adds a PNG
                    continue
                data["image/png"] = base64.b64encode(png).decode("ascii")


class ExpressionError(RuntimeError):
    """An ``{eval}`` of the prose that cannot be evaluated or is not allowed."""


class ProseClient(NotebookClient):
    """An nbclient client that also evaluates each markdown cell's ``{eval}`` expressions, in order."""

    async def async_execute_cell(
        self,
        cell: nbformat.NotebookNode,
        cell_index: int,
        execution_count: int | None = None,
        store_history: bool = True,
    ) -> nbformat.NotebookNode:
        if cell.cell_type != "markdown":
            return await super().async_execute_cell(cell, cell_index, execution_count, store_history)
        expressions = eval_expressions(cell.source)
        if not expressions:
            cell.metadata.pop(USER_EXPRESSIONS, None)
            return cell
        cell.metadata[USER_EXPRESSIONS] = await self.async_evaluate(expressions, cell_index)
        return cell

    async def async_evaluate(self, expressions: list[str], cell_index: int) -> list[dict[str, Any]]:
        """What jupyterlab-myst stores: each expression with the kernel's result, in the cell's order."""
        bad = [e for e in expressions if not re.match(EVAL_PATTERN, e)]
        if bad:
            raise ExpressionError(f"cell {cell_index}: not an expression the prose may use: {', '.join(bad)}")
        assert self.kc is not None
        # As jupyterlab-myst asks: no code, the expressions as user_expressions.
        msg_id = await ensure_async(
            self.kc.execute("", store_history=False, user_expressions={str(i): e for i, e in enumerate(expressions)})
        )
        reply = await self.async_wait_for_reply(msg_id)
        results = reply["content"].get(USER_EXPRESSIONS, {}) if reply else {}
        stored = []
        for i, expression in enumerate(expressions):
            result = results.get(str(i), {"status": "error", "ename": "NoReply", "evalue": "", "traceback": []})
            if result.get("status") != "ok":
                raise ExpressionError(
                    f"cell {cell_index}: {{eval}}`{expression}` failed: {result.get('ename')}: {result.get('evalue')}"
                )
            stored.append({"expression": expression, "result": result})
        return stored


def kernel_manager() -> KernelManager:
    """A manager whose kernel talks to this process over local sockets (ZeroMQ's IPC), where the system has them.

    Over TCP without CurveZMQ keys, ipykernel warns that "Kernel is running over TCP without encryption", once
    per notebook. The kernels here only talk to a client on the same machine: jupyter_client's own ``transport``
    and ``ip`` settings put them on Unix domain sockets in Jupyter's runtime folder (readable by the user alone),
    at an absolute path, since a kernel runs in its notebook's folder and a relative path would name another
    file for it and for its client. Without Unix sockets, TCP.
    """
    if os.name != "posix":
        return KernelManager(kernel_name="python3")
    runtime = Path(jupyter_runtime_dir())
    runtime.mkdir(mode=0o700, parents=True, exist_ok=True)
    return KernelManager(kernel_name="python3", transport="ipc", ip=str(runtime / f"kernel-{uuid.uuid4().hex[:12]}"))


def execute(path: Path, timeout: int = 300) -> nbformat.NotebookNode:
    """Run ``path`` top to bottom in its own folder and write it back with its outputs; return it."""
    nb: nbformat.NotebookNode = nbformat.read(path, as_version=4)
    chapter = re.match(r"(\d\d)-", path.name)  # a chapter of the book, named 04-averaging.ipynb
    if chapter:
        lab_cells(nb, int(chapter.group(1)))
    # record_timing=False: no timestamps in the file, so a re-run with equal outputs changes nothing.
    client = ProseClient(
        nb,
        km=kernel_manager(),
        timeout=timeout,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    # Keep the file a function of the code: no widget state or widget views (random
    # model ids; the cells are tagged remove-output and nbval-ignore-output), no timings.
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        if "remove-output" in cell.metadata.get("tags", []):
            cell.outputs = []
        elif cell.cell_type == "code":
            cell.outputs = joined_streams(cell.outputs)
    lab_ready(nb)
    nbformat.write(nb, path)
    return nb


#: What a check of the text shows when a reader's data no longer bear a sentence out (irmeans_book.claims.note).
_BEFORE, _AFTER = note("SENTENCE")["text/plain"].split("SENTENCE")
NOTE = re.compile(re.escape(_BEFORE) + "(.*)" + re.escape(_AFTER), re.S)


def no_longer_holding(nb: nbformat.NotebookNode) -> list[str]:
    """The sentences of the text that the notebook's data no longer bear out, as its checks noted them, in order.

    >>> from nbformat.v4 import new_code_cell, new_notebook, new_output
    >>> cell = new_code_cell(outputs=[new_output("display_data", data=note("A is higher."))])
    >>> no_longer_holding(new_notebook(cells=[cell]))
    ['A is higher.']
    """
    found = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            match = NOTE.fullmatch(output.get("data", {}).get("text/plain", ""))
            if match:
                found.append(match.group(1))
    return found


def joined_streams(outputs: list[Any]) -> list[Any]:
    """``outputs`` with each run of printed text on one stream as one output.

    How the kernel splits what a cell prints into messages depends on timing; joined, the file does not.

    >>> from nbformat.v4 import new_output
    >>> out = joined_streams([new_output("stream", text="a "), new_output("stream", text="b")])
    >>> [o.text for o in out]
    ['a b']
    """
    joined: list[Any] = []
    for output in outputs:
        previous = joined[-1] if joined else None
        if (
            output.output_type == "stream"
            and previous is not None
            and previous.output_type == "stream"
            and previous.name == output.name
        ):
            previous.text += output.text
        else:
            joined.append(output)
    return joined


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "notebooks", nargs="*", type=Path, help="the notebooks to run, anywhere (default: every chapter of the book)"
    )
    paths = parser.parse_args(argv).notebooks or sorted(CHAPTERS.glob("*.ipynb"))
    for path in paths:
        if not path.is_file():
            parser.error(f"{path}: no such notebook")
    for path in paths:
        print(f"executing {path.name}", flush=True)
        sentences = no_longer_holding(execute(path))
        if sentences:
            print(f"  {len(sentences)} sentence(s) of the text no longer hold with its data (see the notes):")
            for sentence in sentences:
                print(f"  - {sentence}")


if __name__ == "__main__":
    main(sys.argv[1:])
