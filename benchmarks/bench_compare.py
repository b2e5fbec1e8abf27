"""``irmeans compare`` at the size of a track, against ranx's ``compare``.

``python benchmarks/bench_compare.py [--rounds R] [--runs N] [--ranx-runs K]`` prints Markdown.

**Data** (seed 3, written to a temporary folder): graded qrels for 50 topics (100 judged
documents a topic, about a fifth relevant, grades 1 and 2) and 100 runs of 100 documents a
topic (500,000 lines), each run of its own strength, with distinct scores (no ties, so
that every evaluator ranks the same way).

1. **The command**, a fresh process each round: ``irmeans compare -m map QRELS RUN x100
   -a am -a gm:0.01 -a logit:0.01 -n 10000 --format csv > /dev/null``: the 100 runs evaluated,
   all 4,950 pairs, three averages, 10,000 sign vectors and 10,000 bootstrap resamples.
   Target: under 30 s. Also ``irmeans.compare`` alone, in this process, on the matrix
   ``irmeans.evaluate_runs`` gives (the statistics without the evaluation).
2. **ranx** 0.3 ``compare(qrels, runs, ["map", "mrr", "ndcg@10"], stat_test="fisher",
   n_permutations=10000)``: three measures, as irmeans' three averages. ranx tests each
   pair twice (once each way) with a numba loop of 10,000 permutations a test, about a
   tenth of a second each: 29,700 tests would take most of an hour, so it runs on the first
   ``--ranx-runs`` runs (default 10: 90 tests a measure), measured, and its time is
   *extrapolated* by the number of tests to 100 runs. irmeans on the same 10 runs is
   measured beside it. ranx's numba compilation (its first call) is timed apart.
3. **Checked**: ranx's per-topic AP equals irmeans' on every run and topic (1e-12), and on
   those 10 runs irmeans' randomization p-values of the AM of AP are within Monte Carlo
   error of ranx's Fisher p-values for MAP: |p1 - p2| <= 5 sd + 2/B, sd from the mean p
   and the two tests' B (ranx counts the permutations as extreme as the data, k/B; irmeans
   counts the data once more, (k + 1)/(B + 1)). Exit status 1 if a check fails.

4. **Big shapes** (``--shapes``, also at the end of a full run): the whole command on a CSV of
   seeded scores, ``irmeans compare --scores CSV --format csv`` at its default settings
   (three averages, 10,000 sign vectors and resamples): 2 systems x 100,000 topics (target:
   at most 500 MB of peak memory) and 300 systems x 50 topics, all 44,850 pairs (targets: at
   most 60 s and 1 GB); wall time and peak memory (GNU time) of each.

``--quick`` (run by ``make bench QUICK=1``, so by ``make test``): no ranx, one round, a
track of 20 runs; the whole command is timed and its CSV checked (one row for each pair
and average, the AM's means those of ``irmeans.evaluate_runs``).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

import machine_info
import numpy as np
from machine_info import load

SEED = 3
AVERAGES = ["am", "gm:0.01", "logit:0.01"]
RANX_METRICS = ["map", "mrr", "ndcg@10"]


def write_track(folder: str, n_runs: int, n_topics: int = 50, depth: int = 100) -> tuple[str, list[str]]:
    """Seeded qrels and runs in trec_eval's formats: (qrels path, run paths)."""
    rng = np.random.default_rng(SEED)
    pool = 400  # candidate documents a topic
    topics = [str(401 + t) for t in range(n_topics)]
    grades = np.zeros((n_topics, pool), dtype=int)
    for t in range(n_topics):
        judged = rng.choice(pool, 100, replace=False)
        relevant = judged[rng.random(100) < rng.uniform(0.05, 0.35)]
        grades[t, judged] = 0
        grades[t, relevant] = rng.choice([1, 2], relevant.size, p=[0.7, 0.3])
        grades[t, np.setdiff1d(np.arange(pool), judged)] = -1  # not judged
    qrels = os.path.join(folder, "qrels.txt")
    with open(qrels, "w") as f:
        for t, topic in enumerate(topics):
            for d in np.flatnonzero(grades[t] >= 0):
                f.write(f"{topic} 0 D{topic}-{d:04d} {grades[t, d]}\n")
    difficulty = rng.normal(0, 1, n_topics)
    paths = []
    for r in range(n_runs):
        strength = rng.normal(0, 0.6)
        path = os.path.join(folder, f"run{r:03d}.txt")
        lines = []
        for t, topic in enumerate(topics):
            signal = (grades[t] > 0) * (1.2 + strength - 0.5 * difficulty[t]) + rng.normal(0, 1, pool)
            top = np.argsort(-signal, kind="stable")[:depth]
            scores = signal[top] + 100 + np.arange(depth)[::-1] * 1e-6  # distinct: no ties to break
            lines += [
                f"{topic} Q0 D{topic}-{d:04d} {i + 1} {s:.6f} sys{r:03d}\n" for i, (d, s) in enumerate(zip(top, scores))
            ]
        with open(path, "w") as f:
            f.writelines(lines)
        paths.append(path)
    return qrels, paths


def machine() -> str:
    return machine_info.machine(f"numpy {np.__version__}")


def command(qrels: str, runs: list[str]) -> list[str]:
    irmeans = os.path.join(os.path.dirname(sys.executable), "irmeans")
    averages = [x for spec in AVERAGES for x in ("-a", spec)]
    return [irmeans, "compare", "-m", "map", *averages, "-n", "10000", "--format", "csv", qrels, *runs]


def timed_command(argv: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"{' '.join(argv[:3])} ... exited {done.returncode}: {done.stderr.strip()}")
    return seconds


#: (systems, topics, most seconds or None, most MiB) of the big shapes' targets.
SHAPES = [(2, 100_000, None, 500), (300, 50, 60, 1000)]


def shapes() -> int:
    """The whole command on the big shapes: wall time and peak memory against their targets; the targets missed."""
    rng = np.random.default_rng(5)
    print("\n### `irmeans compare` on big shapes (default settings, one round each)\n")
    print(f"Load average (1 / 5 / 15 min) {load()} at the start.\n")
    print("| scores | pairs | wall (s) | peak RSS (MiB) | targets | |")
    print("|---|---:|---:|---:|---|---|")
    irmeans = os.path.join(os.path.dirname(sys.executable), "irmeans")
    timed = ["/usr/bin/time", "-f", "%M"] if os.access("/usr/bin/time", os.X_OK) else []
    missed = 0
    with tempfile.TemporaryDirectory() as folder:
        for systems, topics, most_s, most_mib in SHAPES:
            scores = np.round(rng.beta(0.8, 2.0, (systems, topics)), 4)
            path = os.path.join(folder, f"scores_{systems}x{topics}.csv")
            with open(path, "w") as fh:
                fh.write("system," + ",".join(f"t{j}" for j in range(topics)) + "\n")
                fh.writelines(f"s{i}," + ",".join(f"{v:.4f}" for v in row) + "\n" for i, row in enumerate(scores))
            start = time.perf_counter()
            done = subprocess.run(
                [*timed, irmeans, "compare", "--scores", path, "--format", "csv"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                env={**os.environ, "IRMEANS_PROGRESS": "off"},
            )
            wall = time.perf_counter() - start
            if done.returncode:
                raise SystemExit(f"irmeans compare on {systems} x {topics} exited {done.returncode}: {done.stderr}")
            mib = int(done.stderr.strip().splitlines()[-1]) / 1024 if timed else float("nan")
            met = (most_s is None or wall <= most_s) and mib <= most_mib
            missed += not met
            limits = f"<= {most_mib} MiB" + (f", <= {most_s} s" if most_s else "")
            pairs = systems * (systems - 1) // 2
            print(
                f"| {systems:,} systems x {topics:,} topics | {pairs:,} | {wall:.1f} | {mib:.0f} | {limits} "
                f"| {'met' if met else 'NOT met'} |"
            )
    print(f"\nLoad average at the end: {load()}.")
    return missed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each timing (default 3)")
    parser.add_argument("--runs", type=int, default=100, help="runs in the track (default 100)")
    parser.add_argument("--ranx-runs", type=int, default=10, help="runs ranx compares (default 10)")
    parser.add_argument("--quick", action="store_true", help="20 runs, one round, no ranx (a check that it works)")
    parser.add_argument("--shapes", action="store_true", help="the big shapes alone (no ranx)")
    opts = parser.parse_args()
    if opts.quick:
        return quick(opts.runs if opts.runs != 100 else 20)
    if opts.shapes:
        shapes()
        return 0

    import warnings

    import irmeans
    import ranx
    from ranx.statistical_tests import fisher_randomization_test

    warnings.filterwarnings("ignore", module="ranx")  # numba's notes on ranx's own casts

    print("## irmeans compare against ranx compare (`bench_compare.py`)\n")
    print(f"Machine: {machine()}; load average (1 / 5 / 15 min) {load()} at the start.\n")
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        qrels, runs = write_track(folder, opts.runs)
        n_pairs = opts.runs * (opts.runs - 1) // 2
        times = [timed_command(command(qrels, runs)) for _ in range(opts.rounds)]
        matrix = irmeans.evaluate_runs(qrels, runs, "map")
        library = []
        for _ in range(opts.rounds):
            start = time.perf_counter()
            irmeans.compare(matrix, AVERAGES, permutations=10_000, bootstrap=10_000)
            library.append(time.perf_counter() - start)

        k = opts.ranx_runs
        small = [timed_command(command(qrels, runs[:k])) for _ in range(opts.rounds)]
        start = time.perf_counter()
        ranx_qrels = ranx.Qrels.from_file(qrels, kind="trec")
        ranx_runs = [ranx.Run.from_file(p, kind="trec", name=f"sys{i:03d}") for i, p in enumerate(runs[:k])]
        ranx_load = time.perf_counter() - start
        start = time.perf_counter()
        fisher_randomization_test(np.zeros(3), np.ones(3), 10, 0.05, 42)  # numba compiles here
        ranx.compare(ranx_qrels, ranx_runs[:2], RANX_METRICS, stat_test="fisher", n_permutations=10)
        compile_seconds = time.perf_counter() - start
        ranx_times, report = [], None
        for _ in range(opts.rounds):
            start = time.perf_counter()
            report = ranx.compare(
                ranx_qrels, ranx_runs, RANX_METRICS, stat_test="fisher", n_permutations=10_000, max_p=0.05
            )
            ranx_times.append(time.perf_counter() - start)
        tests_small, tests_full = k * (k - 1) * len(RANX_METRICS), opts.runs * (opts.runs - 1) * len(RANX_METRICS)

        # The checks: the same per-topic AP, and p-values within Monte Carlo error of each other.
        for i, run in enumerate(ranx_runs):
            ap = ranx.evaluate(ranx_qrels, run, "map", return_mean=False)
            ap = np.array([ap[q] if q in ap else 0.0 for q in matrix.topics]) if isinstance(ap, dict) else ap
            ok &= bool(np.allclose(ap, matrix.scores[i], rtol=0, atol=1e-12))
        ours = irmeans.compare(matrix.scores[:k], ["am"], permutations=10_000, bootstrap=10)
        worst = 0.0
        for j, (a, b) in enumerate(zip(ours.first, ours.second)):
            p_ranx = report.comparisons[f"sys{a:03d}", f"sys{b:03d}"]["map"]["p_value"]
            p_ours = float(ours.tests.p_randomization[0, j])
            mean = (p_ranx + p_ours) / 2
            bound = 5 * math.sqrt(max(mean * (1 - mean), 1e-12) * 2 / 10_000) + 2 / 10_000
            worst = max(worst, abs(p_ranx - p_ours) / bound)
        ok &= worst <= 1

    def line(what: str, seconds: list[float]) -> None:
        med = statistics.median(seconds)
        print(f"| {what} | {med:.2f} | {min(seconds):.2f}-{max(seconds):.2f} |")

    print(
        f"{opts.runs} runs x 50 topics ({opts.runs * 5000:,} lines), {n_pairs:,} pairs, averages {', '.join(AVERAGES)},"
    )
    print(f"10,000 sign vectors, 10,000 bootstrap resamples; {opts.rounds} rounds, medians (min-max).\n")
    print("| what | seconds | min-max |")
    print("|---|---:|---:|")
    line(f"`irmeans compare` on {opts.runs} runs (whole command)", times)
    line(f"`irmeans.compare` alone, on the {opts.runs} runs' matrix", library)
    line(f"`irmeans compare` on {k} runs (whole command)", small)
    line(f"ranx `compare` on {k} runs, {tests_small:,} Fisher tests", ranx_times)
    scale = tests_full / tests_small
    extrapolated = statistics.median(ranx_times) * scale
    what = f"ranx `compare` on {opts.runs} runs, {tests_full:,} tests (*extrapolated* x{scale:.0f})"
    print(f"| {what} | {extrapolated:.0f} | |")
    what = f"ranx: reading {k} runs (numba compiles its readers) / compiling its tests"
    print(f"| {what} | {ranx_load:.1f} / {compile_seconds:.1f} | |")
    target = "met" if statistics.median(times) < 30 else "MISSED"
    print(f"\nTarget (the whole command on {opts.runs} runs under 30 s): **{target}**.")
    print(f"Checks: ranx's per-topic AP equals irmeans' on the {k} runs, and the randomization p-values of the AM")
    print(f"are within Monte Carlo error of ranx's Fisher p-values for MAP (worst: {worst:.2f} of the bound):")
    print(f"**{'passed' if ok else 'FAILED'}**. Load average at the end: {load()}.")
    shapes()
    return 0 if ok else 1


def quick(n_runs: int) -> int:
    """The whole command once on a small track, its output checked; no ranx."""
    import csv
    import io

    import irmeans

    print(f"## irmeans compare, quick (`bench_compare.py --quick`, {n_runs} runs, no ranx)\n")
    print(f"Machine: {machine()}; load average (1 / 5 / 15 min) {load()} at the start.\n")
    with tempfile.TemporaryDirectory() as folder:
        qrels, runs = write_track(folder, n_runs)
        argv = command(qrels, runs)
        start = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if done.returncode:
            raise SystemExit(f"irmeans compare exited {done.returncode}: {done.stderr.strip()}")
        rows = list(csv.DictReader(io.StringIO(done.stdout)))
        matrix = irmeans.evaluate_runs(qrels, runs, "map")
    n_pairs = n_runs * (n_runs - 1) // 2
    means = dict(zip(matrix.systems, matrix.scores.mean(axis=1)))
    am = [r for r in rows if r["average"] == "am"]
    ok = len(rows) == n_pairs * len(AVERAGES) and len(am) == n_pairs
    ok &= all(abs(float(r["mean_a"]) - means[r["system_a"]]) <= 1e-12 for r in am)
    print(f"`irmeans compare` on {n_runs} runs ({n_pairs} pairs, {len(AVERAGES)} averages, 10,000 sign vectors and")
    verdict = "passed" if ok else "FAILED"
    verdict = "passed" if ok else "FAILED"
    print(f"resamples): {seconds:.2f} s. Rows and the AM's means as `evaluate_runs`: **{verdict}**.")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
