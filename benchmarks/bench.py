"""Benchmarks of ``irmeans eval``, the in-memory evaluator and split-half consistency.

``python benchmarks/bench.py [--rounds N] [--data DIR] [--skip-big]`` prints
Markdown tables (medians over N interleaved rounds, ratios, peak memory).

1. Whole process on a 1,000 topics x 1,000 documents run: ``irmeans eval``
   against pytrec_eval and ir_measures (see ``contenders.py``), each a fresh
   process; peak memory is the child's maximum resident set size.
2. In memory: ``irmeans.evaluate`` on ``Qrels``/``Run`` built with
   ``from_arrays`` against ranx's ``evaluate`` after one warm-up call (numba
   compiles then; the warm-up is reported).
3. ``split_half`` over 10,000 splits of 105 systems x 50 topics against a
   Python loop of ``scipy.stats.kendalltau`` over the same halves, and a check
   that ``kendall_tau`` equals scipy's tau-b on data with ties.
4. Whole process on a 10,000 topics x 1,000 documents run (10M lines).
5. Whole process on a real-shaped run (``generate.generate_real``: 5,000 topics x 1,000
   documents with docnos like ``MARCO_12-345678-9``, heavy ties, graded qrels of 200
   judgments per topic): ``irmeans eval`` against pytrec_eval and, when a binary is given
   (``TREC_EVAL=path`` or ``trec_eval`` on PATH), trec_eval 10 with the same measures.
6. The work researchers do, against trec_eval 10 (which needs a binary, as in 5):

   - a track (``generate.generate_track``: 100 runs x 50 topics x 1,000 documents, real-shaped
     docnos, one qrels), ``-c -m map -m P.10``: trec_eval in a shell loop, ``irmeans eval`` in a
     shell loop, and ``irmeans eval QRELS RUN...`` in one call;
   - start-up: a 16,000-line run beside ``python -c "import numpy"``;
   - a real-sized single run: 473,000 real-shaped lines with ``-m all_trec``, time and memory.

Each part prints its targets and whether they are met.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from generate import generate, generate_real, generate_track  # noqa: E402

MEASURES = ["map", "gm_map", "recip_rank", "P", "ndcg", "Rprec"]
CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


def bindir():
    return os.path.dirname(sys.executable)


# GNU time reports the peak RSS of the command it runs. The child of this process cannot: it is
# forked from the benchmark's own Python, whose resident pages count towards the child's peak
# until it execs (every small command would show the benchmark's ~50 MiB).
GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def run_child(argv):
    """Run ``argv`` with stdout to /dev/null; return (wall seconds, peak RSS in MiB)."""
    timed = [GNU_TIME, "-f", "%M", *argv] if GNU_TIME else list(argv)
    start = time.perf_counter()
    proc = subprocess.Popen(timed, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}):\n{err}")
    if GNU_TIME:
        return wall, int(err.strip().splitlines()[-1]) / 1024.0  # KiB
    return wall, usage.ru_maxrss / 1024.0  # Linux reports KiB; an overestimate for small commands (above)


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

    res = interleaved({"irmeans.evaluate": timed(ours), "ranx.evaluate (warm)": timed(theirs)}, rounds)
    base = statistics.median(res["irmeans.evaluate"])
    print(f"\n### In memory, already parsed arrays ({rounds} interleaved rounds)\n")
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
        return split_half(scores, arithmetic_mean, n_splits=n_splits, seed=seed)

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


def trec_eval_binary():
    """The trec_eval binary to compare with: ``TREC_EVAL`` or ``trec_eval`` on PATH (None if neither)."""
    return os.environ.get("TREC_EVAL") or shutil.which("trec_eval")


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
    """Print a Markdown table of whole-process results against ``base_name``; return name -> (median wall, RSS)."""
    base = statistics.median(w for w, _ in res[base_name])
    base_rss = statistics.median(m for _, m in res[base_name])
    print(f"\n### {title}\n")
    print(f"| contender | median wall (s) | min–max (s) | it / {base_name} | peak RSS (MiB) | RSS / {base_name} |")
    print("|---|---:|---:|---:|---:|---:|")
    out = {}
    for name, values in res.items():
        walls = [w for w, _ in values]
        rss = statistics.median(m for _, m in values)
        med = statistics.median(walls)
        out[name] = (med, rss)
        spread = f"{min(walls):.3f}–{max(walls):.3f}"
        print(f"| {name} | {med:.3f} | {spread} | {med / base:.2f} | {rss:.0f} | {rss / base_rss:.2f} |")
    return out


def _verdict(what, value, limit):
    print(f"- {what}: {value:.2f} (target <= {limit}): {'met' if value <= limit else 'NOT met'}")


def researchers(data, rounds):
    """The track in one call and in loops, the start-up of a small run, a real-sized run with all_trec."""
    binary = trec_eval_binary()
    if not binary:
        print("\n(no trec_eval binary: set TREC_EVAL=path/to/trec_eval for the track, start-up and single-run parts)")
        return
    irmeans = os.path.join(bindir(), "irmeans")
    flags = ["-c", "-m", "map", "-m", "P.10"]
    qrels, runs = generate_track(data)
    # $0: the program, $1: the qrels, then the runs
    loop = 'q="$1"; shift; for r in "$@"; do "$0" {sub}{flags} "$q" "$r" || exit 1; done'.replace(
        "{flags}", " ".join(flags)
    )
    lines = sum(1 for _ in open(runs[0], "rb")) * len(runs)
    res = interleaved(
        {
            "trec_eval 10 loop": lambda: run_child(["sh", "-c", loop.replace("{sub}", ""), binary, qrels, *runs]),
            "irmeans eval loop": lambda: run_child(["sh", "-c", loop.replace("{sub}", "eval "), irmeans, qrels, *runs]),
            "irmeans eval, one call": lambda: run_child([irmeans, "eval", *flags, qrels, *runs]),
        },
        rounds,
    )
    track = _table(
        res,
        "trec_eval 10 loop",
        f"A track: {len(runs)} runs x 50 topics x 1,000 documents ({lines:,} lines), `-c -m map -m P.10` "
        f"({rounds} interleaved rounds)",
    )
    small_q, small_r = generate_real(data, 16, 1000)
    res = interleaved(
        {
            'python -c "import numpy"': lambda: run_child([sys.executable, "-c", "import numpy"]),
            "irmeans eval, 16k lines": lambda: run_child([irmeans, "eval", *flags, small_q, small_r]),
            "trec_eval 10, 16k lines": lambda: run_child([binary, *flags, small_q, small_r]),
        },
        max(rounds, 10),
    )
    start = _table(
        res, 'python -c "import numpy"', f"Start-up: a 16,000-line run ({max(rounds, 10)} interleaved rounds)"
    )
    one_q, one_r = generate_real(data, 473, 1000)
    res = interleaved(
        {
            "trec_eval 10": lambda: run_child([binary, "-m", "all_trec", one_q, one_r]),
            "irmeans eval": lambda: run_child([irmeans, "eval", "-m", "all_trec", one_q, one_r]),
        },
        rounds,
    )
    single = _table(
        res, "trec_eval 10", f"A real-sized run: 473,000 real-shaped lines, `-m all_trec` ({rounds} rounds)"
    )
    print("\nTargets:\n")
    _verdict(
        "track in one call / trec_eval's loop (time)",
        track["irmeans eval, one call"][0] / track["trec_eval 10 loop"][0],
        0.5,
    )
    _verdict(
        'a 16k-line run / python -c "import numpy" (time)',
        start["irmeans eval, 16k lines"][0] / start['python -c "import numpy"'][0],
        2.0,
    )
    _verdict("473k lines, all_trec / trec_eval (time)", single["irmeans eval"][0] / single["trec_eval 10"][0], 1.0)
    _verdict(
        "473k lines, all_trec / trec_eval (peak memory)", single["irmeans eval"][1] / single["trec_eval 10"][1], 1.5
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--data", default=os.path.join(HERE, "data"))
    parser.add_argument("--skip-big", action="store_true", help="leave out the 10M-line run")
    parts_known = ["researchers", "process", "memory", "consistency", "big", "real"]
    parser.add_argument("--only", choices=parts_known, action="append")
    opts = parser.parse_args(argv)
    parts = set(opts.only or parts_known)
    if opts.skip_big:
        parts.discard("big")
    flags = " ".join(f"-m {m}" for m in MEASURES)
    print("## irmeans benchmarks\n")
    print(f"Machine: {machine()}.  Load average at start: {load()}.")
    print(f"irmeans eval command: `irmeans eval {flags} QRELS RUN > /dev/null`.")
    if "researchers" in parts:
        researchers(opts.data, opts.rounds)
    qrels, run = generate(opts.data, 1000, 1000)
    if "process" in parts:
        whole_process(qrels, run, opts.rounds)
    if "memory" in parts:
        in_memory(qrels, run, opts.rounds)
    if "consistency" in parts:
        consistency(opts.rounds)
    if "big" in parts:
        big_q, big_r = generate(opts.data, 10_000, 1000)
        big(big_q, big_r, max(1, min(opts.rounds, 3)))
    if "real" in parts:
        real_q, real_r = generate_real(opts.data)
        real_shaped(real_q, real_r, max(1, min(opts.rounds, 3)))
    print(f"\nLoad average at end: {load()}.")


if __name__ == "__main__":
    main()
