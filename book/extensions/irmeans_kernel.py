"""The kernels that run the chapters talk to their client over local sockets, not TCP.

When a client starts a kernel over TCP without CurveZMQ keys, ipykernel warns
that "Kernel is running over TCP without encryption", once per notebook: ten
lines of noise in every build. The kernels here only ever talk to a client on
the same machine, so they use ZeroMQ's IPC transport (Unix domain sockets in
Jupyter's runtime folder, readable by the user only), and ipykernel has
nothing to warn about. On a system without Unix sockets the transport stays TCP.

Two places start kernels: ``book/scripts/execute_notebooks.py`` (``make notebooks``),
which passes :class:`LocalKernelManager` to nbclient, and the book's build,
where myst-nb runs each chapter inline (its ``ModifiedNotebookClient``, so
that the prose's ``{eval}`` roles are evaluated as the chapter runs) or, in
its other modes, through jupyter-cache's ``executenb``; as a Sphinx extension
(listed in ``_config.yml``) this module makes both use
:class:`LocalKernelManager` too.
"""

from __future__ import annotations

import os
import uuid
from typing import TYPE_CHECKING, Any

from jupyter_client.localinterfaces import localhost
from jupyter_client.manager import KernelManager
from jupyter_core.paths import jupyter_runtime_dir
from traitlets import default

if TYPE_CHECKING:  # the notebooks' executor imports this module without Sphinx (the reader's set has none)
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

#: ZeroMQ's IPC transport needs Unix domain sockets.
TRANSPORT = "ipc" if os.name == "posix" else "tcp"


class LocalKernelManager(KernelManager):
    """A kernel manager whose kernels use :data:`TRANSPORT` (IPC where it exists).

    The sockets' path is absolute, in Jupyter's runtime folder: a kernel runs in
    its notebook's folder, and a relative path would name a different file for
    the kernel and for its client.
    """

    @default("transport")
    def _default_transport(self) -> str:
        return TRANSPORT

    @default("ip")
    def _default_ip(self) -> str:
        if self.transport != "ipc":
            host: str = localhost()  # jupyter_client's functions are untyped
            return host
        runtime = jupyter_runtime_dir()
        os.makedirs(runtime, mode=0o700, exist_ok=True)
        return os.path.join(runtime, f"kernel-{uuid.uuid4().hex[:12]}-ipc")


def execute(nb: Any, cwd: str | None = None, km: Any = None, **kwargs: Any) -> Any:
    """:func:`nbclient.execute`, with :class:`LocalKernelManager` unless told otherwise."""
    import nbclient

    kwargs.setdefault("kernel_manager_class", LocalKernelManager)
    return nbclient.execute(nb, cwd=cwd, km=km, **kwargs)


def _local_inline_client() -> Any:
    """myst-nb's inline client, starting its kernels with :class:`LocalKernelManager`."""
    from myst_nb.core.execute import inline

    if getattr(inline.ModifiedNotebookClient, "local_kernels", False):
        return inline.ModifiedNotebookClient

    class LocalInlineClient(inline.ModifiedNotebookClient):  # type: ignore[misc]  # myst-nb has no types
        local_kernels = True

        @default("kernel_manager_class")
        def _default_kernel_manager_class(self) -> type[LocalKernelManager]:
            return LocalKernelManager

    return LocalInlineClient


def setup(app: Sphinx) -> ExtensionMetadata:
    # myst-nb's direct execution calls jupyter_cache.executors.utils.single_nb_execution,
    # which calls the module's `executenb` (nbclient.execute) with no way to choose the manager.
    from jupyter_cache.executors import utils
    from myst_nb.core.execute import inline

    utils.executenb = execute
    # Its inline execution makes a ModifiedNotebookClient, also with the default manager.
    inline.ModifiedNotebookClient = _local_inline_client()
    return {"parallel_read_safe": True, "parallel_write_safe": True}
