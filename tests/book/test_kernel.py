"""The chapters' kernels run over local sockets, so ipykernel does not warn about unencrypted TCP.

``make notebooks`` (book/scripts/execute_notebooks.py) starts each chapter's kernel with jupyter_client's own
``transport`` and ``ip`` settings (:func:`execute_notebooks.kernel_manager`); the site executes nothing.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "book" / "scripts"
SCRIPT = """
import sys
sys.path.insert(0, {scripts!r})
import nbclient
from execute_notebooks import kernel_manager
from nbformat.v4 import new_code_cell, new_notebook
nb = new_notebook(cells=[new_code_cell("print(6 * 7)")], metadata={{"kernelspec": {{"name": "python3", "display_name": "Python 3"}}}})
km = {manager}
# Run where the notebooks are, not where the client is: the sockets must still meet.
nbclient.NotebookClient(nb, km=km, timeout=60, resources={{"metadata": {{"path": {cwd!r}}}}}).execute()
print(km.transport, nb.cells[0].outputs[0]["text"].strip())
"""


def run(manager: str, cwd: Path) -> subprocess.CompletedProcess:
    code = SCRIPT.format(scripts=str(SCRIPTS), manager=manager, cwd=str(cwd))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=SCRIPTS)


@pytest.mark.skipif(sys.platform == "win32", reason="IPC transport needs Unix sockets")
def test_the_book_kernels_do_not_warn_about_tcp(tmp_path):
    done = run("kernel_manager()", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ipc", "42"]
    assert "without encryption" not in done.stderr, done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="IPC transport needs Unix sockets")
def test_over_tcp_the_kernel_would_warn(tmp_path):
    """What the setting is for: the default manager's kernel says it is running unencrypted."""
    done = run("nbclient.client.KernelManager(kernel_name='python3')", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["tcp", "42"]
    assert "without encryption" in done.stderr


def test_the_sockets_path_is_absolute():
    sys.path.insert(0, str(SCRIPTS))
    from execute_notebooks import kernel_manager

    km = kernel_manager()
    assert km.transport == ("ipc" if sys.platform != "win32" else "tcp")
    assert km.transport == "tcp" or Path(km.ip).is_absolute()
