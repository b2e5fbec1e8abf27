"""Benchmarks of ``irmeans eval``, the in-memory evaluator and split-half consistency.

``python benchmarks/bench.py [--quick] [--rounds N] [--only PART] [--data DIR]`` prints Markdown
tables (medians over N interleaved rounds, ratios, peak memory) with the machine's load average
at the start and the end of each part.  ``--quick`` runs the researchers' part alone, in fewer
rounds (``make bench QUICK=1``, part of ``make test``: under two minutes).

Every command runs as a fresh process, with the library's bytecode compiled first (as an
installed package has it: without it every start compiles the library's source), and its peak
resident memory measured by GNU time.  The comparisons with trec_eval 10 need its binary:
``TREC_EVAL=path/to/trec_eval``, ``trec_eval`` on PATH, or one built from the source archive
``TREC_EVAL_SRC`` names (``make bench`` does so, see ``trec_eval_binary.py``); without one the
benchmark says at its start and at its end which comparisons it leaves out.

1. researchers: the work researchers do, on real-shaped runs (``generate.generate_real``,
   ``generate.generate_stacked``, ``generate.generate_track``: docnos of 20-50 characters, ties,
   graded qrels), with the targets of the evaluator (each printed with whether it is met):

   - real-sized runs of 473,000 lines, ``-m all_trec``: one track's (28 MiB) and two tracks'
     stacked (34 MiB, scores written in full): <= 0.8 x trec_eval's wall time and <= 1.2 x its
     peak memory (and the same lines as trec_eval);
   - a track, 5 and 25 runs of 50,000 lines against one qrels, ``-c -m map -m P.10``, in one
     call: <= 1.0 x and <= 0.5 x a shell loop of trec_eval (start-up counted);
   - 27 runs of six tracks, one call per qrels, ``-c -m official``: <= 1.3 x a shell loop of trec_eval;
   - start-up: ``irmeans eval`` on a 16,000-line run <= 1.5 x ``python -c "import numpy"``.
2. shapes: big shapes against trec_eval: a 200 MB run of one topic, and ``-q -m all_trec``
   over 100,000 topics of one document each (time and peak memory).
4. process, memory, consistency, big, real: the earlier comparisons with pytrec_eval,
   ir_measures and ranx (their packages: ``benchmarks/requirements.txt``), split_half
   against a loop of scipy, the 10M-line run, the 5M-line real-shaped run.
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import real_runs  # noqa: E402
import trec_eval_binary as trec_eval_binary_module  # noqa: E402
from generate import (  # noqa: E402
    generate,
    generate_many_topics,
    generate_one_topic,
    generate_real,
    generate_stacked,
    generate_track,
    generate_tracks,
)

MEASURES = ["map", "gm_map", "recip_rank", "P", "ndcg", "Rprec"]
CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


def bindir():
    return os.path.dirname(sys.executable)


# GNU time reports the peak RSS of the command it runs. The child of this process cannot: it is
# forked from the benchmark's own Python, whose resident pages count towards the child's peak
# until it execs (every small command would show the benchmark's ~50 MiB).
GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
# The children run with the library's bytecode (see compile_library), as an installed package does.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def compile_library():
    """Write the bytecode of irmeans (and the benchmarks' Python), as installing a package does."""
    import compileall

    import irmeans

    compileall.compile_dir(os.path.dirname(irmeans.__file__), quiet=1)


class Timing(float):
    """A command's wall time in seconds, with its CPU time (user + system) and peak RSS (MiB)."""

    cpu: float
    rss: float


def run_child(argv, stdout=subprocess.DEVNULL):
    """Run ``argv`` (output to /dev/null); return (wall seconds, peak RSS in MiB), the wall a :class:`Timing`."""
    timed = [GNU_TIME, "-f", "%M %U %S", *argv] if GNU_TIME else list(argv)
    start = time.perf_counter()
    proc = subprocess.Popen(timed, stdout=stdout, stderr=subprocess.PIPE, env=CHILD_ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = Timing(time.perf_counter() - start)
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}):\n{err}")
    if GNU_TIME:
        rss, user, system = err.strip().splitlines()[-1].split()
        wall.rss, wall.cpu = int(rss) / 1024.0, float(user) + float(system)  # KiB
    else:  # the child's own usage: an overestimate of the RSS of small commands (above)
        wall.rss, wall.cpu = usage.ru_maxrss / 1024.0, usage.ru_utime + usage.ru_stime
    return wall, wall.rss


def interleaved(contenders, rounds):
    """Run each contender once per round, in turn; return name -> list of results."""
    results = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, call in contenders.items():
            results[name].append(call())
    return results


def load():
    try:
        with open("/proc/loadavg") as fh:
            return " ".join(fh.read().split()[:3])
    except OSError:
        return "?"


def machine():
    cpu = platform.processor() or "?"
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    ram = "?"
    try:
        with open("/proc/meminfo") as fh:
            kb = int(fh.readline().split()[1])
            ram = f"{kb / 2**20:.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return f"{os.cpu_count()} CPUs ({cpu}), {ram} RAM, Python {platform.python_version()}, numpy {np.__version__}"


def whole_process(qrels, run, rounds):
    py = sys.executable
    flags = [a for m in MEASURES for a in ("-m", m)]
    contenders = {
        "irmeans eval": lambda: run_child([os.path.join(bindir(), "irmeans"), "eval", *flags, qrels, run]),
        "pytrec_eval": lambda: run_child([py, os.path.join(HERE, "contenders.py"), "pytrec_eval", qrels, run]),
        "ir_measures": lambda: run_child([py, os.path.join(HERE, "contenders.py"), "ir_measures", qrels, run]),
        # start-up alone: the interpreter, numpy and the irmeans package
        "(start-up: import irmeans.cli)": lambda: run_child([py, "-c", "import irmeans.cli"]),
    }
    import importlib.util

    if importlib.util.find_spec("ir_measures") is None:  # not installed: `make bench` installs it
        del contenders["ir_measures"]
    res = interleaved(contenders, rounds)
    base = statistics.median(w for w, _ in res["irmeans eval"])
    base_rss = statistics.median(m for _, m in res["irmeans eval"])
    print(f"\n### Whole process, {os.path.basename(run)} ({rounds} interleaved rounds)\n")
    print("| contender | median wall (s) | min–max (s) | irmeans / it | peak RSS (MiB) | irmeans RSS / it |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, values in res.items():
        walls = [w for w, _ in values]
        rss = statistics.median(m for _, m in values)
        med = statistics.median(walls)
        print(
            f"| {name} | {med:.2f} | {min(walls):.2f}–{max(walls):.2f} | {base / med:.2f} "
            f"| {rss:.0f} | {base_rss / rss:.2f} |"
        )


def in_memory(qrels_path, run_path, rounds):
    import warnings

    import irmeans
    from irmeans.trec.files import read_qrels, read_run

    q0, r0 = read_qrels(qrels_path), read_run(run_path)
    q = irmeans.Qrels.from_arrays(q0.topics, q0.docnos, q0.rels)
    r = irmeans.Run.from_arrays(r0.topics, r0.docnos, r0.scores, runid=r0.runid)

    # numba keeps compiled code on disk; a fresh cache makes the warm-up the
    # real first-use cost
    cache = tempfile.mkdtemp(prefix="numba-cache-")
    os.environ["NUMBA_CACHE_DIR"] = cache
    import pandas as pd
    from ranx import Qrels as RQrels
    from ranx import Run as RRun
    from ranx import evaluate as ranx_evaluate

    rq = RQrels.from_df(
        pd.DataFrame({"q_id": q0.topics.astype(str), "doc_id": q0.docnos.astype(str), "score": q0.rels})
    )
    rr = RRun.from_df(
        pd.DataFrame({"q_id": r0.topics.astype(str), "doc_id": r0.docnos.astype(str), "score": r0.scores})
    )
    metrics = ["map", "mrr", "ndcg", "r-precision"] + [f"precision@{k}" for k in CUTOFFS]

    def ours():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ev = irmeans.evaluate(q, r, measures=MEASURES)
        return ev.aggregates["map"]

    def theirs():
        per_query = ranx_evaluate(rq, rr, metrics, return_mean=False, threads=0, save_results_in_run=False)
        ap = np.asarray(per_query["map"])
        means = {m: float(np.mean(v)) for m, v in per_query.items()}
        means["gm_map"] = float(np.exp(np.mean(np.log(np.maximum(ap, 1e-5)))))
        return means["map"]

    start = time.perf_counter()
    theirs()
    warm_up = time.perf_counter() - start

    def timed(f):
        def call():
            t = time.perf_counter()
            f()
            return time.perf_counter() - t

        return call

    import ir_measures
    import pytrec_eval

    pq = {t: {} for t in set(q0.topics.astype(str).tolist())}
    for t, d, g in zip(q0.topics.astype(str).tolist(), q0.docnos.astype(str).tolist(), q0.rels.tolist()):
        pq[t][d] = g
    pr = {t: {} for t in set(r0.topics.astype(str).tolist())}
    for t, d, v in zip(r0.topics.astype(str).tolist(), r0.docnos.astype(str).tolist(), r0.scores.tolist()):
        pr[t][d] = v
    names = ["AP", "RR", "nDCG", "Rprec"] + [f"P@{k}" for k in CUTOFFS]
    ir_names = [ir_measures.parse_measure(n) for n in names]

    def pytrec():
        per_query = pytrec_eval.RelevanceEvaluator(pq, {"map", "gm_map", "recip_rank", "P", "ndcg", "Rprec"}).evaluate(
            pr
        )
        return float(np.mean([v["map"] for v in per_query.values()]))

    def irm():
        return ir_measures.calc_aggregate(ir_names, pq, pr)

    contenders = {
        "irmeans.evaluate": timed(ours),
        "ranx.evaluate (warm)": timed(theirs),
        "pytrec_eval (dicts)": timed(pytrec),
        "ir_measures.calc_aggregate (dicts)": timed(irm),
    }
    res = interleaved(contenders, rounds)
    base = statistics.median(res["irmeans.evaluate"])
    print(f"\n### In memory, already parsed ({rounds} interleaved rounds)\n")
    print("| contender | median (s) | min–max (s) | irmeans / it |")
    print("|---|---:|---:|---:|")
    for name, values in res.items():
        med = statistics.median(values)
        print(f"| {name} | {med:.3f} | {min(values):.3f}–{max(values):.3f} | {base / med:.2f} |")
    print(
        f"\nranx warm-up (first call, numba compiling into an empty cache): {warm_up:.1f} s; "
        f"numba threads: {_numba_threads()}"
    )
    shutil.rmtree(cache, ignore_errors=True)


def _numba_threads():
    try:
        import numba

        return numba.config.NUMBA_NUM_THREADS
    except Exception:  # pragma: no cover
        return "?"


def consistency(rounds):
    from irmeans.consistency import draw_halves, kendall_tau, split_half
    from irmeans.means import arithmetic_mean
    from scipy.stats import kendalltau

    rng = np.random.default_rng(2024)
    scores = rng.beta(2.0, 5.0, size=(105, 50)).round(4)
    n_splits, seed = 10_000, 7

    def ours():
        return split_half(scores, "am", n_splits=n_splits, seed=seed)

    def loop():
        first, second = draw_halves(scores.shape[1], n_splits, np.random.default_rng(seed))
        taus = np.empty(n_splits)
        for i in range(n_splits):
            a = arithmetic_mean(scores[:, first[i]], axis=-1)
            b = arithmetic_mean(scores[:, second[i]], axis=-1)
            taus[i] = kendalltau(a, b).statistic
        return taus

    def timed(f, out):
        def call():
            t = time.perf_counter()
            out.append(f())
            return time.perf_counter() - t

        return call

    got, want = [], []
    res = interleaved({"split_half": timed(ours, got), "scipy.stats.kendalltau loop": timed(loop, want)}, rounds)
    same = float(np.max(np.abs(got[0] - want[0])))
    base = statistics.median(res["split_half"])
    print(
        f"\n### split_half, {n_splits:,} splits of 105 systems x 50 topics, arithmetic mean "
        f"({rounds} interleaved rounds)\n"
    )
    print("| contender | median (s) | min–max (s) | split_half / it |")
    print("|---|---:|---:|---:|")
    for name, values in res.items():
        med = statistics.median(values)
        print(f"| {name} | {med:.2f} | {min(values):.2f}–{max(values):.2f} | {base / med:.3f} |")
    print(f"\nlargest |tau difference| between the two over the {n_splits:,} splits: {same:.1e}")

    # tau-b with ties in both vectors: scores on a coarse grid
    x = rng.integers(0, 6, size=(2000, 30)).astype(float)
    y = np.where(rng.random((2000, 30)) < 0.5, x, rng.integers(0, 6, size=(2000, 30)))
    ours_tau = kendall_tau(x, y)
    ref = np.array([kendalltau(a, b).statistic for a, b in zip(x, y)])
    diff = float(np.max(np.abs(ours_tau - ref)))
    verdict = "OK" if diff <= 1e-12 else "FAILED"
    print(
        f"kendall_tau vs scipy tau-b on 2,000 pairs of 30 tied scores: "
        f"max |difference| {diff:.1e} ({verdict}, limit 1e-12)"
    )
    if diff > 1e-12:
        raise SystemExit("kendall_tau differs from scipy's tau-b")


def big(qrels, run, rounds):
    flags = [a for m in MEASURES for a in ("-m", m)]
    res = interleaved(
        {"irmeans eval": lambda: run_child([os.path.join(bindir(), "irmeans"), "eval", *flags, qrels, run])}, rounds
    )["irmeans eval"]
    walls = [w for w, _ in res]
    rss = [m for _, m in res]
    size = os.path.getsize(run) / 2**20
    print(f"\n### Whole process, {os.path.basename(run)} (10M lines, {size:.0f} MiB; {rounds} rounds)\n")
    print("| contender | median wall (s) | min–max (s) | peak RSS (MiB), max over rounds |")
    print("|---|---:|---:|---:|")
    print(f"| irmeans eval | {statistics.median(walls):.2f} | {min(walls):.2f}–{max(walls):.2f} | {max(rss):.0f} |")


#: The comparisons with trec_eval, by part: what a run without its binary leaves out.
NEEDS_TREC_EVAL = {
    "researchers": "a track of 5 and of 25 runs, the 27 runs of six tracks and the 473,000-line runs against trec_eval",
    "submissions": "the real submissions against trec_eval",
    "shapes": "the 190 MiB topic and the 100,000 one-document topics against trec_eval",
    "real": "the 5M-line real-shaped run's trec_eval line",
}
_TREC_EVAL: list = []


def trec_eval_binary():
    """The trec_eval binary to compare with (found or built once, see ``trec_eval_binary.py``), or None."""
    if not _TREC_EVAL:
        _TREC_EVAL.extend(trec_eval_binary_module.find())
    return _TREC_EVAL[0]


def left_out(parts):
    """Say which comparisons a run without trec_eval or the real runs leaves out (nothing if there are both)."""
    where, how = real_runs.folder()
    if "submissions" in parts and where is None:
        print(f"\n**No real runs ({how}): left out: the real submissions against trec_eval.**")
    if trec_eval_binary():
        return
    missing = [NEEDS_TREC_EVAL[p] for p in parts if p in NEEDS_TREC_EVAL]
    if missing:
        print(f"\n**No trec_eval binary ({_TREC_EVAL[1]}): left out: {'; '.join(missing)}.**")


def real_shaped(qrels, run, rounds):
    py = sys.executable
    flags = [a for m in MEASURES for a in ("-m", m)]
    contenders = {"irmeans eval": lambda: run_child([os.path.join(bindir(), "irmeans"), "eval", *flags, qrels, run])}
    binary = trec_eval_binary()
    if binary:
        contenders["trec_eval 10"] = lambda: run_child([binary, *flags, qrels, run])
    contenders["pytrec_eval"] = lambda: run_child([py, os.path.join(HERE, "contenders.py"), "pytrec_eval", qrels, run])
    res = interleaved(contenders, rounds)
    base = statistics.median(w for w, _ in res["irmeans eval"])
    base_rss = statistics.median(m for _, m in res["irmeans eval"])
    size = os.path.getsize(run) / 2**20
    print(
        f"\n### Whole process, real-shaped run {os.path.basename(run)} ({size:.0f} MiB; {rounds} interleaved rounds)\n"
    )
    if not binary:
        print("(no trec_eval binary: set TREC_EVAL=path/to/trec_eval to compare with it)\n")
    print("| contender | median wall (s) | min–max (s) | irmeans / it | peak RSS (MiB) | irmeans RSS / it |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, values in res.items():
        walls = [w for w, _ in values]
        rss = statistics.median(m for _, m in values)
        med = statistics.median(walls)
        print(
            f"| {name} | {med:.2f} | {min(walls):.2f}–{max(walls):.2f} | {base / med:.2f} "
            f"| {rss:.0f} | {base_rss / rss:.2f} |"
        )


def _table(res, base_name, title):
    """Print a Markdown table of whole-process results against ``base_name``; return name -> (wall, CPU, RSS)."""
    base = statistics.median(w for w, _ in res[base_name])
    base_cpu = statistics.median(w.cpu for w, _ in res[base_name])
    base_rss = statistics.median(m for _, m in res[base_name])
    print(f"\n### {title}\n")
    print(f"Load average before and after: {_LOADS[0]} / {load()}.\n")
    print(
        f"| contender | median wall (s) | min–max (s) | it / {base_name} | median CPU (s) | CPU / {base_name} "
        f"| peak RSS (MiB) | RSS / {base_name} |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    out = {}
    for name, values in res.items():
        walls = [w for w, _ in values]
        cpu = statistics.median(w.cpu for w in walls)
        rss = statistics.median(m for _, m in values)
        med = statistics.median(walls)
        out[name] = (med, cpu, rss)
        spread = f"{min(walls):.3f}–{max(walls):.3f}"
        print(
            f"| {name} | {med:.3f} | {spread} | {med / base:.2f} | {cpu:.3f} | {cpu / base_cpu:.2f} "
            f"| {rss:.0f} | {rss / base_rss:.2f} |"
        )
    return out


_LOADS = ["?"]
#: (what, value, limit, met) of every target checked.
VERDICTS = []


def _verdict(what, value, limit):
    met = value <= limit
    VERDICTS.append((what, value, limit, met))
    print(f"- {what}: {value:.2f} (target <= {limit}): {'met' if met else 'NOT met'}")


def _same_lines(binary, irmeans, flags, qrels, run):
    """Whether irmeans prints trec_eval's lines (each value as trec_eval prints it)."""
    ours = subprocess.run([irmeans, "eval", *flags, qrels, run], capture_output=True, env=CHILD_ENV, check=True)
    theirs = subprocess.run([binary, *flags, qrels, run], capture_output=True, check=True)
    norm = [sorted(line.split() for line in out.stdout.decode().splitlines()) for out in (ours, theirs)]
    return norm[0] == norm[1]


def researchers(data, rounds):
    """The researchers' shapes and the evaluator's targets (see the module's text)."""
    binary = trec_eval_binary()
    irmeans = os.path.join(bindir(), "irmeans")
    flags = ["-c", "-m", "map", "-m", "P.10"]
    small_q, small_r = generate_real(data, 16, 1000)
    _LOADS[0] = load()
    contenders = {
        'python -c "import numpy"': lambda: run_child([sys.executable, "-c", "import numpy"]),
        "irmeans eval, 16k lines": lambda: run_child([irmeans, "eval", *flags, small_q, small_r]),
    }
    if binary:
        contenders["trec_eval 10, 16k lines"] = lambda: run_child([binary, *flags, small_q, small_r])
    start = _table(
        interleaved(contenders, max(rounds, 10)),
        'python -c "import numpy"',
        f"Start-up: a 16,000-line real-shaped run, `-c -m map -m P.10` ({max(rounds, 10)} interleaved rounds)",
    )
    if not binary:
        print("\n(no trec_eval binary: set TREC_EVAL=path/to/trec_eval for the track and the real-sized run)")
    else:
        qrels, runs = generate_track(data, runs=25, topics=50, docs=1000)
        # $0: the program, $1: the qrels, then the runs
        loop = 'q="$1"; shift; for r in "$@"; do "$0" {sub}{flags} "$q" "$r" || exit 1; done'.replace(
            "{flags}", " ".join(flags)
        )
        tracks = {}
        for n in (5, 25):
            _LOADS[0] = load()
            some = runs[:n]
            res = interleaved(
                {
                    "trec_eval 10 loop": lambda s=some: run_child(
                        ["sh", "-c", loop.replace("{sub}", ""), binary, qrels, *s]
                    ),
                    "irmeans eval, one call": lambda s=some: run_child([irmeans, "eval", *flags, qrels, *s]),
                },
                rounds,
            )
            tracks[n] = _table(
                res,
                "trec_eval 10 loop",
                f"A track: {n} runs of 50,000 real-shaped lines against one qrels, `-c -m map -m P.10` "
                f"({rounds} interleaved rounds)",
            )
        tracks6 = generate_tracks(data)
        _LOADS[0] = load()
        flags6 = "-c -m official"
        loop6 = "; ".join(
            f"{shlex.quote(binary)} {flags6} {shlex.quote(q)} {shlex.quote(r)}" for q, rs in tracks6 for r in rs
        )
        calls6 = "; ".join(
            f"{shlex.quote(irmeans)} eval {flags6} {shlex.quote(q)} {' '.join(map(shlex.quote, rs))}"
            for q, rs in tracks6
        )
        res = interleaved(
            {
                "trec_eval 10 loop": lambda: run_child(["sh", "-ec", loop6]),
                "irmeans eval, a call per qrels": lambda: run_child(["sh", "-ec", calls6]),
            },
            rounds,
        )
        n27 = sum(len(rs) for _, rs in tracks6)
        six = _table(
            res,
            "trec_eval 10 loop",
            f"{n27} runs of six tracks (50,000 lines each), `{flags6}`, a call per qrels ({rounds} interleaved rounds)",
        )
        singles = {}
        for name, (one_q, one_r) in (
            ("one track's", generate_real(data, 473, 1000)),
            ("two tracks' stacked", generate_stacked(data)),
        ):
            _LOADS[0] = load()
            res = interleaved(
                {
                    "trec_eval 10": lambda q=one_q, r=one_r: run_child([binary, "-m", "all_trec", q, r]),
                    "irmeans eval": lambda q=one_q, r=one_r: run_child([irmeans, "eval", "-m", "all_trec", q, r]),
                },
                rounds,
            )
            size = os.path.getsize(one_r) / 2**20
            singles[name] = _table(
                res,
                "trec_eval 10",
                f"A real-sized run, {name}: 473,000 lines ({size:.0f} MiB), `-m all_trec` ({rounds} rounds)",
            )
            same = _same_lines(binary, irmeans, ["-m", "all_trec"], one_q, one_r)
            print(f"\nirmeans prints trec_eval's lines, value for value: {'yes' if same else 'NO'}")
            if not same:
                raise SystemExit(f"irmeans eval and trec_eval print different lines on the {name} run")
    print("\nTargets (wall time; CPU time in brackets, less sensitive to the machine's load):\n")
    ratio = start["irmeans eval, 16k lines"][0] / start['python -c "import numpy"'][0]
    _verdict('start-up: a 16k-line run / python -c "import numpy"', ratio, 1.5)
    if binary:
        for n, limit in ((5, 1.0), (25, 0.5)):
            t = tracks[n]
            _verdict(
                f"a track of {n} runs in one call / trec_eval's loop",
                t["irmeans eval, one call"][0] / t["trec_eval 10 loop"][0],
                limit,
            )
            print(f"  (CPU: {t['irmeans eval, one call'][1] / t['trec_eval 10 loop'][1]:.2f})")
        _verdict(
            "27 runs of six tracks, a call per qrels / trec_eval's loop",
            six["irmeans eval, a call per qrels"][0] / six["trec_eval 10 loop"][0],
            1.3,
        )
        print(f"  (CPU: {six['irmeans eval, a call per qrels'][1] / six['trec_eval 10 loop'][1]:.2f})")
        for name, single in singles.items():
            _verdict(
                f"473k lines ({name}), all_trec / trec_eval (time)",
                single["irmeans eval"][0] / single["trec_eval 10"][0],
                0.8,
            )
            print(f"  (CPU: {single['irmeans eval'][1] / single['trec_eval 10'][1]:.2f})")
            _verdict(
                f"473k lines ({name}), all_trec / trec_eval (peak memory)",
                single["irmeans eval"][2] / single["trec_eval 10"][2],
                1.2,
            )


def submissions(rounds):
    """Real TREC submissions stacked into one run (``real_runs.py``) against trec_eval, ``-m all_trec``."""
    where, how = real_runs.folder()
    if where is None:
        print(f"\n**No real runs ({how}): the real submissions are left out.**")
        return
    binary = trec_eval_binary()
    if not binary:
        print("\n(no trec_eval binary: set TREC_EVAL=path/to/trec_eval for the real submissions)")
        return
    irmeans = os.path.join(bindir(), "irmeans")
    with tempfile.TemporaryDirectory(prefix="irmeans-real-runs-") as stacked:
        _submissions(binary, irmeans, *real_runs.stack(stacked, where), where, how, rounds)


def _submissions(binary, irmeans, q, r, where, how, rounds):
    runs = sum(len(rs) for rs in real_runs.tracks(where).values())
    with open(r, "rb") as fh:
        lines = sum(1 for _ in fh)
    flags = ["-m", "all_trec"]
    same = _same_lines(binary, irmeans, flags, q, r)
    print(f"\nThe real submissions ({how}): {runs} runs stacked, {lines:,} lines.")
    print(f"irmeans prints trec_eval's lines, value for value: {'yes' if same else 'NO'}")
    if not same:
        raise SystemExit("irmeans eval and trec_eval print different lines on the real submissions")
    _LOADS[0] = load()
    loads = []

    def timed(argv):
        def call():
            loads.append(load().split()[0])
            return run_child(argv)

        return call

    res = interleaved(
        {"trec_eval 10": timed([binary, *flags, q, r]), "irmeans eval": timed([irmeans, "eval", *flags, q, r])},
        rounds,
    )
    size = os.path.getsize(r) / 2**20
    single = _table(
        res,
        "trec_eval 10",
        f"Real submissions stacked: {lines:,} lines ({size:.0f} MiB), `-m all_trec` ({rounds} alternating rounds)",
    )
    print(f"\nLoad average (1 minute) before each run: {', '.join(loads)}.\n")
    ours, theirs = single["irmeans eval"], single["trec_eval 10"]
    _verdict("real submissions, all_trec / trec_eval (time)", ours[0] / theirs[0], 0.8)
    print(f"  (CPU: {ours[1] / theirs[1]:.2f})")
    _verdict("real submissions, all_trec / trec_eval (peak memory)", ours[2] / theirs[2], 1.2)


def shapes(data, rounds):
    """Big shapes against trec_eval: a 200 MB run of one topic; -q -m all_trec over 100,000 one-document topics."""
    binary = trec_eval_binary()
    if not binary:
        print("\n(no trec_eval binary: set TREC_EVAL=path/to/trec_eval for the big shapes)")
        return
    irmeans = os.path.join(bindir(), "irmeans")
    q, r = generate_one_topic(data)
    size = os.path.getsize(r) / 2**20
    _LOADS[0] = load()
    res = interleaved(
        {
            "trec_eval 10": lambda: run_child([binary, "-m", "official", q, r]),
            "irmeans eval": lambda: run_child([irmeans, "eval", "-m", "official", q, r]),
        },
        rounds,
    )
    _table(res, "trec_eval 10", f"One topic, {size:.0f} MiB of run, `-m official` ({rounds} interleaved rounds)")
    q, r = generate_many_topics(data)
    _LOADS[0] = load()
    res = interleaved(
        {
            "trec_eval 10": lambda: run_child([binary, "-q", "-m", "all_trec", q, r]),
            "irmeans eval": lambda: run_child([irmeans, "eval", "-q", "-m", "all_trec", q, r]),
        },
        rounds,
    )
    _table(res, "trec_eval 10", f"100,000 topics of one document, `-q -m all_trec` ({rounds} interleaved rounds)")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--data", default=os.path.join(HERE, "data"))
    parser.add_argument("--quick", action="store_true", help="the researchers' part alone, 3 rounds (under 2 minutes)")
    parser.add_argument("--skip-big", action="store_true", help="leave out the 10M-line run")
    parser.add_argument("--strict", action="store_true", help="exit 1 if a target is not met")
    parts_known = ["researchers", "submissions", "shapes", "process", "memory", "consistency", "big", "real"]
    parser.add_argument("--only", choices=parts_known, action="append")
    opts = parser.parse_args(argv)
    parts = set(opts.only or (["researchers"] if opts.quick else parts_known))
    rounds = 3 if opts.quick else opts.rounds
    if opts.skip_big:
        parts.discard("big")
    compile_library()
    print("## irmeans benchmarks\n")
    print(f"Machine: {machine()}.  Load average at start: {load()}.")
    binary = trec_eval_binary()
    print(f"trec_eval 10: {binary or 'none'} ({_TREC_EVAL[1]}).")
    left_out(parts)
    if "researchers" in parts:
        researchers(opts.data, rounds)
    if "submissions" in parts:
        submissions(rounds)
    if "shapes" in parts:
        shapes(opts.data, max(1, min(rounds, 3)))
    flags = " ".join(f"-m {m}" for m in MEASURES)
    if parts & {"process", "memory", "consistency", "big", "real"}:
        print(f"\nirmeans eval command of the parts below: `irmeans eval {flags} QRELS RUN > /dev/null`.")
    qrels, run = generate(opts.data, 1000, 1000)
    if "process" in parts:
        whole_process(qrels, run, rounds)
    if "memory" in parts:
        in_memory(qrels, run, rounds)
    if "consistency" in parts:
        consistency(rounds)
    if "big" in parts:
        big_q, big_r = generate(opts.data, 10_000, 1000)
        big(big_q, big_r, max(1, min(rounds, 3)))
    if "real" in parts:
        real_q, real_r = generate_real(opts.data)
        real_shaped(real_q, real_r, max(1, min(rounds, 3)))
    print(f"\nLoad average at end: {load()}.")
    left_out(parts)
    missed = [v for v in VERDICTS if not v[3]]
    if missed:
        print(f"{len(missed)} target(s) not met on this run (the figures above; a loaded machine misses them).")
    return 1 if (opts.strict and missed) else 0


if __name__ == "__main__":
    sys.exit(main())
