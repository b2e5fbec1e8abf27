"""Real TREC submissions, stacked into one run, for ``make bench``.

The submissions are not part of the project: ``bench.py`` finds them in the folder
``IRMEANS_REAL_RUNS`` names, or else in ``../shared/bench/real-runs`` beside the project's root.
That folder holds one folder per track, each with its qrels (``qrels.gz``) and its runs (every
other file, gzip-compressed or not): Robust 2003 and CAsT 2021, whose README gives their sources.

:func:`stack` writes one run and one qrels from them into a folder: each
run's lines as they are, with each topic renamed ``RUN_TOPIC`` (RUN the run file's name
without its folder and compression suffix), and its track's qrels copied once per run under
the same names, so that every run is evaluated against its own qrels as if alone.  ``bench.py``
stacks them into a temporary folder at each run and removes it after.

``python benchmarks/real_runs.py OUTDIR`` writes them there and prints their paths and sizes.
"""

from __future__ import annotations

import gzip
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
#: Where the submissions are looked for when ``IRMEANS_REAL_RUNS`` is not set.
DEFAULT = os.path.join(ROOT, "..", "shared", "bench", "real-runs")
ENV = "IRMEANS_REAL_RUNS"


def folder():
    """(the folder of the submissions, how it was found), or (None, why there is none)."""
    given = os.environ.get(ENV)
    if given:
        if tracks(given):
            return given, f"{ENV}={given}"
        return None, f"{ENV}={given} holds no track folder with a qrels.gz and runs"
    if tracks(DEFAULT):
        return os.path.normpath(DEFAULT), "../shared/bench/real-runs beside the project"
    return None, f"no {ENV} and no ../shared/bench/real-runs beside the project"


def tracks(where):
    """{track folder: [run files]} of the tracks in ``where`` (sorted), empty if none."""
    if not os.path.isdir(where):
        return {}
    out = {}
    for name in sorted(os.listdir(where)):
        track = os.path.join(where, name)
        if not os.path.isfile(os.path.join(track, "qrels.gz")):
            continue
        runs = sorted(
            os.path.join(track, f)
            for f in os.listdir(track)
            if f != "qrels.gz"
            and not f.startswith(".")
            and os.path.isfile(os.path.join(track, f))
            and not f.lower().startswith("readme")
        )
        if runs:
            out[track] = runs
    return out


def _read(path):
    with open(path, "rb") as fh:
        head = fh.read(2)
    opener = gzip.open if head == b"\x1f\x8b" else open
    with opener(path, "rb") as fh:
        return fh.read()


def _run_name(path):
    name = os.path.basename(path)
    for suffix in (".gz", ".run", ".trec", ".txt"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return name.removeprefix("input.")


def _renamed(text, prefix):
    """``text``'s lines with ``prefix`` in front of each first field (the topic)."""
    lines = text.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return b"".join(prefix + line.lstrip() + b"\n" for line in lines if line.strip())


def stack(outdir, where):
    """Write the stacked run and qrels of the submissions in ``where`` into ``outdir``; return their paths."""
    qpath = os.path.join(outdir, "real_runs_qrels.txt")
    rpath = os.path.join(outdir, "real_runs_stacked.txt")
    os.makedirs(outdir, exist_ok=True)
    with open(qpath + ".part", "wb") as fq, open(rpath + ".part", "wb") as fr:
        for track, runs in tracks(where).items():
            qrels = _read(os.path.join(track, "qrels.gz"))
            for run in runs:
                prefix = _run_name(run).encode() + b"_"
                fq.write(_renamed(qrels, prefix))
                fr.write(_renamed(_read(run), prefix))
    os.replace(qpath + ".part", qpath)
    os.replace(rpath + ".part", rpath)
    return qpath, rpath


if __name__ == "__main__":
    where, how = folder()
    if where is None:
        raise SystemExit(f"no real runs: {how}")
    if len(sys.argv) != 2:
        raise SystemExit("usage: python benchmarks/real_runs.py OUTDIR")
    paths = stack(sys.argv[1], where)
    for p in paths:
        with open(p, "rb") as fh:
            n = sum(1 for _ in fh)
        print(f"{p}: {n:,} lines, {os.path.getsize(p) / 2**20:.1f} MiB ({how})")
