"""The chapters' kernels run over local sockets, so ipykernel does not warn about unencrypted TCP."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BOOK = Path(__file__).resolve().parents[2] / "book" / "extensions"
SCRIPT = """
import sys
sys.path.insert(0, {book!r})
import nbclient, irmeans_kernel
from nbformat.v4 import new_code_cell, new_notebook
nb = new_notebook(cells=[new_code_cell("print(6 * 7)")], metadata={{"kernelspec": {{"name": "python3", "display_name": "Python 3"}}}})
# Run where the notebooks are, not where the client is: the sockets must still meet.
{call}(nb, cwd={cwd!r}, timeout=60)
print(nb.cells[0].outputs[0]["text"].strip())
"""


def run(call: str, cwd: Path) -> subprocess.CompletedProcess:
    code = SCRIPT.format(book=str(BOOK), call=call, cwd=str(cwd))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=BOOK)


@pytest.mark.skipif(sys.platform == "win32", reason="IPC transport needs Unix sockets")
def test_the_book_kernels_do_not_warn_about_tcp(tmp_path):
    done = run("irmeans_kernel.execute", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "42"
    assert "without encryption" not in done.stderr, done.stderr


def test_the_build_uses_the_local_kernel_manager():
    # As a Sphinx extension, irmeans_kernel replaces the call myst-nb's execution makes.
    sys.path.insert(0, str(BOOK))
    import irmeans_kernel
    from jupyter_cache.executors import utils

    before = utils.executenb
    try:
        irmeans_kernel.setup(app=None)
        assert utils.executenb is irmeans_kernel.execute
    finally:
        utils.executenb = before
    assert irmeans_kernel.LocalKernelManager().transport == irmeans_kernel.TRANSPORT
