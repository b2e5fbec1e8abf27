"""Split-half consistency on real TREC-8 runs: ``irmeans.consistency.split_half`` against a plain loop.

``python benchmarks/bench_split_half.py [--splits N] [--rounds R] [--matrix NAME]`` prints one
Markdown table.

The data are the per-topic AP of the 129 runs of the TREC-8 ad hoc track on its 50 topics
(``irmeans.datasets.load("adhoc8", "ap")``). Both contenders use the same 10,000 random
halves (``draw_halves`` with one seed). The loop takes, per split, the numpy mean of each
system's AP on each half and calls ``scipy.stats.kendalltau``; ``split_half`` does the
whole experiment for the arithmetic mean, and then for the other averages of the book.
Times are the best over R interleaved rounds (three calls of ``split_half`` per round);
the ratio is that of ``split_half`` to the loop. The τ values of ``split_half`` must equal
scipy's τ-b on the loop's means to 1e-12, or the script exits 1.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

import numpy as np
from irmeans import datasets
from irmeans.consistency import draw_halves, split_half
from scipy import stats

SEED = 1
OTHER_AVERAGES = ["gm:0.01", "gm-floor:1e-5", "hm:0.01", "median"]


def scipy_loop(scores, first, second):
    """The plain loop: numpy means of the two halves, scipy's τ-b, split by split."""
    taus = np.empty(len(first))
    for k, (a, b) in enumerate(zip(first, second)):
        taus[k] = stats.kendalltau(scores[:, a].mean(axis=1), scores[:, b].mean(axis=1)).statistic
    return taus


def best_time(fn, rounds):
    """Best wall time of ``rounds`` calls, and the last result."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, default=10_000, help="random splits (default 10,000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the best time counts (default 3)")
    parser.add_argument("--matrix", default="adhoc8_ap", help="a shipped matrix, collection_measure")
    opts = parser.parse_args(argv)

    collection, _, measure = opts.matrix.partition("_")
    m = datasets.load(collection, measure)
    scores = np.array(m.scores)
    first, second = draw_halves(scores.shape[1], opts.splits, SEED)

    # Rounds alternate between the two, so that a busy machine slows both alike.
    t_loop = t_fast = float("inf")
    for _ in range(opts.rounds):
        t, reference = best_time(lambda: scipy_loop(scores, first, second), 1)
        t_loop = min(t_loop, t)
        t, taus = best_time(lambda: split_half(scores, "am", opts.splits, seed=SEED), 3)
        t_fast = min(t_fast, t)
    gap = float(np.nanmax(np.abs(taus - reference)))

    print(f"## split_half on {m.label}: {scores.shape[0]} systems x {scores.shape[1]} topics, {opts.splits:,} splits")
    print()
    print(f"Python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}, {os.cpu_count()} cores")
    print()
    print("| what | seconds | ratio to the loop |")
    print("|---|---:|---:|")
    print(f"| loop: numpy means + scipy.stats.kendalltau | {t_loop:.3f} | 1 |")
    print(f"| split_half, AM | {t_fast:.3f} | {t_fast / t_loop:.4f} |")
    for spec in OTHER_AVERAGES:
        t, _ = best_time(lambda spec=spec: split_half(scores, spec, opts.splits, seed=SEED), opts.rounds)
        print(f"| split_half, {spec} | {t:.3f} | {t / t_loop:.4f} |")
    print()
    print(f"largest |τ(split_half) − τ(scipy)| over the splits: {gap:.1e}")
    if not gap <= 1e-12:
        print("split_half's τ differs from scipy's τ-b by more than 1e-12", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
