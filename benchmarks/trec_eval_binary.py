"""The trec_eval 10 binary the benchmarks compare with: given, on PATH, or built from its source.

``TREC_EVAL=path/to/trec_eval`` names one; else ``trec_eval`` on PATH; else it is built from the
source archive ``TREC_EVAL_SRC`` names (``make bench`` passes the developers' copy of trec_eval
10.0's source), with trec_eval's own Makefile, into ``benchmarks/data/trec_eval/`` (kept for the
next run).  :func:`find` returns the binary, or None and the reason, which the benchmarks print
with the comparisons they leave out.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(HERE, "data", "trec_eval")


def find(source=None):
    """(path of a trec_eval binary, how it was found) or (None, why there is none)."""
    given = os.environ.get("TREC_EVAL")
    if given:
        if os.access(given, os.X_OK):
            return given, f"TREC_EVAL={given}"
        return None, f"TREC_EVAL={given} is not an executable file"
    on_path = shutil.which("trec_eval")
    if on_path:
        return on_path, f"trec_eval on PATH ({on_path})"
    binary = os.path.join(BUILD, "trec_eval")
    if os.access(binary, os.X_OK):
        return binary, f"built before, in {os.path.relpath(binary)}"
    source = source or os.environ.get("TREC_EVAL_SRC")
    if not source:
        return None, "no TREC_EVAL, no trec_eval on PATH and no TREC_EVAL_SRC to build one from"
    if not os.path.isfile(source):
        return None, f"no TREC_EVAL, no trec_eval on PATH, and its source {source} is not there"
    if not (shutil.which("cc") or shutil.which("gcc")) or not shutil.which("make"):
        return None, f"no C compiler or make to build trec_eval from {source}"
    shutil.rmtree(BUILD, ignore_errors=True)
    os.makedirs(BUILD)
    with tarfile.open(source) as archive:
        # filter="data" (no links or paths out of BUILD) exists from Python 3.11.4 on; Debian 12's is 3.11.2.
        archive.extractall(BUILD, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    top = [d for d in os.listdir(BUILD) if os.path.isfile(os.path.join(BUILD, d, "Makefile"))]
    where = os.path.join(BUILD, top[0]) if top else BUILD
    done = subprocess.run(["make"], cwd=where, capture_output=True, text=True)
    built = os.path.join(where, "trec_eval")
    if done.returncode != 0 or not os.access(built, os.X_OK):
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no binary"]
        return None, f"building trec_eval from {source} failed: {last[0]}"
    if built != binary:
        shutil.copy2(built, binary)
    return binary, f"built from {source} with its own Makefile"


if __name__ == "__main__":
    import sys

    path, how = find(sys.argv[1] if len(sys.argv) > 1 else None)
    print(path or "none", "-", how)
    sys.exit(0 if path else 1)
