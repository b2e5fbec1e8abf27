"""Re-execute the chapters in place, so their stored outputs are what the code computes now.

``make test`` runs nbval in strict mode, which compares these stored outputs
with a fresh run: refresh them with ``make notebooks`` after changing code.

Usage: ``python book/execute_notebooks.py [NOTEBOOK ...]`` (default: every chapter).

The kernels use local sockets (``irmeans_kernel.LocalKernelManager``), as in the book's build,
so ipykernel has no unencrypted TCP connection to warn about.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from irmeans_kernel import LocalKernelManager
from nbclient import NotebookClient

CHAPTERS = Path(__file__).resolve().parent.parent / "chapters"


def execute(path: Path, timeout: int = 300) -> None:
    """Run ``path`` top to bottom in its own folder and write it back with its outputs."""
    nb = nbformat.read(path, as_version=4)
    # record_timing=False: no timestamps in the file, so a re-run with equal outputs changes nothing.
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        kernel_manager_class=LocalKernelManager,
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
    nbformat.write(nb, path)


def main(argv: list[str]) -> None:
    paths = [Path(p) for p in argv] or sorted(CHAPTERS.glob("*.ipynb"))
    for path in paths:
        print(f"executing {path.name}", flush=True)
        execute(path)


if __name__ == "__main__":
    main(sys.argv[1:])
