"""Split-half consistency at scale: ``irmeans.consistency.split_half`` against its earlier self.

``python benchmarks/bench_split_half.py [--rounds R] [--only trec8|large|memory|commands]``
prints Markdown tables; ``--help`` lists the sizes it can be given.

1. **TREC-8** (``irmeans.datasets.load("adhoc8", "ap")``: 129 runs x 50 topics), 10,000
   splits, for the arithmetic mean and the other averages of the book. The peer is the
   implementation before the O(n log n) tau and the blocks (``reference_split_half.py``:
   the O(n^2) tau, all halves drawn at once), called on the same seed. Rounds alternate
   between the two; the tables give medians. Both must give the same tau, bit for bit,
   and the first 500 splits must equal a loop of ``scipy.stats.kendalltau`` to 1e-12.
2. **10,000 systems x 30 topics** (seeded synthetic scores in [0, 1], a sixth of them 0,
   4 decimals as trec_eval prints them, so thousands of exact ties on every half),
   10,000 splits. The earlier implementation would take minutes a round, so it runs
   ``--peer-splits`` splits (default 20) in each round and its time is *extrapolated*
   linearly to 10,000 (its cost per split does not depend on the number of splits);
   so is a loop of numpy means and ``scipy.stats.kendalltau`` (O(n log n) per split)
   over the same splits. Its tau must equal the library's on those splits.
3. **Memory**: peak resident memory (``ru_maxrss`` of a child process, from ``wait4``)
   of ``split_half`` over ``--memory-splits`` splits (default 1,000,000) of 12 systems x
   10 topics, new and earlier. With ``--command-splits N`` (say 10000000), also the whole
   ``irmeans consistency --scores CSV -n N`` (default averages) on 12 systems x 50 topics
   (``synthetic_scores(12, 50, seed=12)`` written to a temporary CSV).
4. **The command's targets** (``commands``): the whole ``irmeans consistency --scores CSV``
   (default averages, the intervals over topics by default) on 10,000 systems x 50 topics
   with ``-n 100`` (target: at most 30 s) and on 30 systems x 5,000 topics with ``-n 1000``
   (target: at most 20 s), wall time and peak memory of each, median of ``--command-rounds``.

Exit status 1 if any tau differs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import machine_info  # noqa: E402
import reference_split_half as reference  # noqa: E402
from irmeans import consistency, datasets  # noqa: E402
from irmeans._numeric import dense_ranks  # noqa: E402
from machine_info import load  # noqa: E402
from scipy import stats  # noqa: E402

SEED = 1
OTHER_AVERAGES = ["gm:0.01", "gm-floor:1e-5", "hm:0.01", "median"]


def synthetic_scores(systems=10_000, topics=30, seed=42):
    """AP-like per-topic scores in [0, 1]: systems of different strength, topics of different difficulty.

    About a sixth of the scores are 0 and all have 4 decimals, as trec_eval prints them:
    on a half of 15 topics, thousands of pairs of systems have equal sums.
    """
    rng = np.random.default_rng(seed)
    latent = rng.normal(0, 0.5, (systems, 1)) - rng.normal(0, 1, (1, topics)) + rng.normal(0, 0.8, (systems, topics))
    scores = 1 / (1 + np.exp(-(latent - 1)))
    scores[latent < -1.2] = 0.0
    return np.round(scores, 4)


def scipy_loop(scores, first, second):
    """The plain loop: numpy means of the two halves, scipy's tau-b, split by split.

    τ-b depends on the ranks alone; the means are ranked with the library's rule for
    ties (equal within its tolerance) so that scipy counts the same ties.
    """
    taus = np.empty(len(first))
    for k, (a, b) in enumerate(zip(first, second)):
        x, y = scores[:, a].mean(axis=1), scores[:, b].mean(axis=1)
        taus[k] = stats.kendalltau(dense_ranks(x), dense_ranks(y)).statistic
    return taus


def machine() -> str:
    return f"{machine_info.machine(f'numpy {np.__version__}')}; load average (1 / 5 / 15 min) {load()} at the start"


def interleaved(contenders, rounds):
    """Each contender once per round, in turn: name -> (list of seconds, last result)."""
    times = {name: [] for name in contenders}
    last = {}
    for _ in range(rounds):
        for name, call in contenders.items():
            start = time.perf_counter()
            last[name] = call()
            times[name].append(time.perf_counter() - start)
    return times, last


def row(name, seconds, ours, scale=1.0):
    """A table row: median and range of ``seconds`` (times ``scale``), and ``ours`` (seconds) over that median."""
    med = statistics.median(seconds) * scale
    return f"| {name} | {med:.3f} | {min(seconds) * scale:.3f}–{max(seconds) * scale:.3f} | {ours / med:.3f} |"


def trec8(rounds, n_splits):
    scores = np.array(datasets.load("adhoc8", "ap").scores)
    n_sys, n_top = scores.shape
    print(f"\n### TREC-8 AP: {n_sys} systems x {n_top} topics, {n_splits:,} splits ({rounds} interleaved rounds)\n")
    print("| average | contender | median (s) | min–max (s) | split_half / it |")
    print("|---|---|---:|---:|---:|")
    same = True
    for spec in ["am", *OTHER_AVERAGES]:
        times, last = interleaved(
            {
                "split_half": lambda spec=spec: consistency.split_half(scores, spec, n_splits, seed=SEED),
                "earlier": lambda spec=spec: reference.split_half(scores, spec, n_splits, seed=SEED),
            },
            rounds,
        )
        same &= np.array_equal(last["split_half"], last["earlier"], equal_nan=True)
        ours = statistics.median(times["split_half"])
        for name, label in (("split_half", "split_half"), ("earlier", "earlier (O(n²) τ, all halves at once)")):
            print(f"| {spec} " + row(label, times[name], ours))
        if spec == "am":
            checked = min(500, n_splits)
            first, second = consistency.draw_halves(n_top, checked, SEED)
            gap = float(np.max(np.abs(last["split_half"][:checked] - scipy_loop(scores, first, second))))
    print(f"\nSame τ as the earlier implementation on every split: {'yes' if same else 'NO'}; largest")
    print(f"|τ(split_half) − τ(scipy loop)| over the first {checked} splits (AM): {gap:.1e}.")
    return same and gap <= 1e-12


def large(rounds, n_splits, peer_splits, specs):
    scores = synthetic_scores()
    n_sys, n_top = scores.shape
    print(f"\n### {n_sys:,} systems x {n_top} topics (synthetic, seed 42), {n_splits:,} splits ({rounds} rounds)\n")
    print(f"The earlier implementation and the scipy loop run {peer_splits} splits a round; their times")
    print(f"for {n_splits:,} splits are **extrapolated** (x {n_splits / peer_splits:g}), not measured.\n")
    print("| average | contender | median (s) | min–max (s) | split_half / it |")
    print("|---|---|---:|---:|---:|")
    same = True
    first, second = consistency.draw_halves(n_top, peer_splits, SEED)
    scale = n_splits / peer_splits
    for spec in specs:
        times, last = interleaved(
            {
                "split_half": lambda spec=spec: consistency.split_half(scores, spec, n_splits, seed=SEED),
                "earlier": lambda spec=spec: reference.split_half(scores, spec, peer_splits, seed=SEED),
                "scipy": (lambda: scipy_loop(scores, first, second)) if spec == "am" else (lambda: None),
            },
            rounds,
        )
        same &= np.array_equal(last["split_half"][:peer_splits], last["earlier"], equal_nan=True)
        ours = statistics.median(times["split_half"])
        print(f"| {spec} " + row("split_half (measured)", times["split_half"], ours))
        label = f"{peer_splits} splits x {scale:g} (extrapolated)"
        print(f"| {spec} " + row(f"earlier, {label}", times["earlier"], ours, scale))
        if spec == "am":
            print(f"| {spec} " + row(f"scipy loop, {label}", times["scipy"], ours, scale))
            gap = float(np.max(np.abs(last["split_half"][:peer_splits] - last["scipy"])))
    print(f"\nSame τ as the earlier implementation on the {peer_splits} splits it ran: {'yes' if same else 'NO'};")
    print(f"largest |τ(split_half) − τ(scipy loop)| there (AM): {gap:.1e}.")
    return same and gap <= 1e-12


MEMORY_CHILD = """
import sys
import numpy as np
sys.path.insert(0, {here!r})
import {module} as m
rng = np.random.default_rng(3)  # as synthetic_scores(12, 10, seed=3), without importing scipy
latent = rng.normal(0, 0.5, (12, 1)) - rng.normal(0, 1, (1, 10)) + rng.normal(0, 0.8, (12, 10))
scores = 1 / (1 + np.exp(-(latent - 1)))
scores[latent < -1.2] = 0.0
taus = m.split_half(np.round(scores, 4), "am", {n}, seed=0)
total = count = 0
for start in range(0, len(taus), 1 << 20):  # the mean of the defined taus, without a copy of them all
    part = taus[start : start + (1 << 20)]
    total += float(part[~np.isnan(part)].sum())
    count += int((~np.isnan(part)).sum())
print(total / count)
"""


def child_peak(code):
    """Run python code in a child process: (wall seconds, peak RSS in MiB, its stdout)."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = proc.stdout.read().decode()
    err = proc.stderr.read().decode()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.stdout.close()
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"memory child failed:\n{err}")
    return time.perf_counter() - start, usage.ru_maxrss / 1024.0, out.strip()


COMMAND_CHILD = """
import os, sys
os.environ["IRMEANS_PROGRESS"] = "off"
from irmeans.cli import main
sys.exit(main(["consistency", "--scores", {path!r}, "-n", "{n}"]))
"""


def command_memory(n_splits):
    import tempfile

    scores = synthetic_scores(systems=12, topics=50, seed=12)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "scores.csv")
        with open(path, "w") as fh:
            fh.write("system," + ",".join(f"t{j}" for j in range(scores.shape[1])) + "\n")
            for i, values in enumerate(scores):
                fh.write(f"s{i}," + ",".join(repr(float(v)) for v in values) + "\n")
        wall, peak, _ = child_peak(COMMAND_CHILD.format(path=path, n=n_splits))
    print(f"\n### Peak memory: irmeans consistency -n {n_splits:,} on 12 systems x 50 topics (4 averages)\n")
    print("| command | wall (s) | peak RSS (MiB) |")
    print("|---|---:|---:|")
    print(f"| irmeans consistency --scores CSV -n {n_splits} | {wall:.1f} | {peak:.0f} |")


def write_scores(path, scores):
    with open(path, "w") as fh:
        fh.write("system," + ",".join(f"t{j}" for j in range(scores.shape[1])) + "\n")
        for i, values in enumerate(scores):
            fh.write(f"s{i}," + ",".join(f"{v:.4f}" for v in values) + "\n")


#: (systems, topics, splits, the most seconds the command may take) of the command's targets.
COMMAND_TARGETS = [(10_000, 50, 100, 30.0), (30, 5_000, 1_000, 20.0)]


def commands(rounds):
    """The whole command on the targets' shapes: wall time and peak memory, and whether each target is met."""
    import tempfile

    print(f"\n### irmeans consistency on big shapes (default averages and intervals; {rounds} rounds)\n")
    print(f"Load average at the start: {load()}.\n")
    print("| scores | -n | median wall (s) | min–max (s) | peak RSS (MiB) | target | |")
    print("|---|---:|---:|---:|---:|---:|---|")
    missed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for systems, topics, n, limit in COMMAND_TARGETS:
            path = os.path.join(tmp, f"scores_{systems}x{topics}.csv")
            write_scores(path, synthetic_scores(systems, topics, seed=42))
            code = COMMAND_CHILD.format(path=path, n=n)
            runs = [child_peak(code) for _ in range(rounds)]
            walls = [w for w, _, _ in runs]
            med = statistics.median(walls)
            met = med <= limit
            missed += not met
            print(
                f"| {systems:,} systems x {topics:,} topics | {n:,} | {med:.1f} | {min(walls):.1f}–{max(walls):.1f} "
                f"| {max(p for _, p, _ in runs):.0f} | <= {limit:.0f} s | {'met' if met else 'NOT met'} |"
            )
    return missed


def memory(n_splits):
    print(f"\n### Peak memory: split_half (AM) over {n_splits:,} splits of 12 systems x 10 topics\n")
    print("| contender | wall (s) | peak RSS (MiB) | of which τ (MiB) |")
    print("|---|---:|---:|---:|")
    results = {}
    for name, module in (("split_half", "irmeans.consistency"), ("earlier", "reference_split_half")):
        wall, peak, out = child_peak(MEMORY_CHILD.format(here=HERE, module=module, n=n_splits))
        results[name] = out
        print(f"| {name} | {wall:.1f} | {peak:.0f} | {8 * n_splits / 2**20:.0f} |")
    same = results["split_half"] == results["earlier"]
    print(f"\nSame mean τ: {'yes' if same else 'NO'} ({results['split_half']}).")
    return same


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds at 129 systems (default 5)")
    parser.add_argument("--large-rounds", type=int, default=3, help="rounds at 10,000 systems (default 3)")
    parser.add_argument("--splits", type=int, default=10_000, help="random splits (default 10,000)")
    parser.add_argument("--peer-splits", type=int, default=20, help="splits the peers run at 10,000 systems")
    parser.add_argument("--large-averages", default="am", help="averages at 10,000 systems, comma-separated")
    parser.add_argument("--memory-splits", type=int, default=1_000_000, help="splits of the memory test")
    parser.add_argument("--command-splits", type=int, default=0, help="splits of the command's memory test (0: none)")
    parser.add_argument("--command-rounds", type=int, default=3, help="rounds of the command's targets (default 3)")
    parser.add_argument("--only", choices=["trec8", "large", "memory", "commands"], action="append")
    opts = parser.parse_args(argv)
    parts = set(opts.only or ["trec8", "large", "memory", "commands"])

    print("## Split-half consistency: split_half against its earlier implementation\n")
    print(machine())
    ok = True
    if "trec8" in parts:
        ok &= trec8(opts.rounds, opts.splits)
    if "large" in parts:
        ok &= large(opts.large_rounds, opts.splits, opts.peer_splits, opts.large_averages.split(","))
    if "memory" in parts:
        ok &= memory(opts.memory_splits)
        if opts.command_splits:
            command_memory(opts.command_splits)
    if "commands" in parts:
        commands(opts.command_rounds)
    print(f"\nLoad average at the end: {load()}.")
    if not ok:
        print("split_half's τ differs from the earlier implementation or from scipy", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
