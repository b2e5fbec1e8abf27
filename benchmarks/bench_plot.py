"""``irmeans compare --plot`` at the largest figure it draws: its time, its memory, Ctrl-C, address-space limits.

``python benchmarks/bench_plot.py [--rounds R] [--quick] [--vl-convert]`` prints Markdown.

**Data** (seed 3, written to a temporary folder): a CSV of 26 systems x 250 topics (Robust's size), compared
against one of them (``--baseline``): 25 pairs, the most ``--plot`` draws, under the three default averages, so
75 panels of 250 bars.

1. **Time and memory**: ``irmeans compare --scores CSV --baseline run00`` at its default settings (10,000 sign
   vectors and resamples), without ``--plot`` and with ``--plot P.svg`` and ``--plot P.png``, a fresh process
   each round: median wall time, CPU time (user + system) and peak RSS (GNU time). Target: at most 3 s with the
   plot.
2. **Ctrl-C**: the command with ``--plot`` is sent SIGINT as soon as it starts writing the plot (the file it
   writes beside the target appears, then the figure is drawn into it); the delay until it exits, and its
   status (target: 130, in under a second).
3. **Address-space limits** (``ulimit -v`` of 1 GB and 4 GB): the status of the command without ``--plot`` and
   with it, SVG and PNG (target: the same, 0).
4. ``--vl-convert`` (where vl-convert-python is installed): the same figure rendered from the Vega-Lite spec
   (``Comparison.plot_spec``) by vl-convert's in-process V8, the renderer ``--plot`` used before: its time, and
   whether it draws under a 16 GiB address-space limit, for the record of why the renderer changed.

``--quick`` (run by ``make bench QUICK=1``, so by ``make test``): one round, no vl-convert.
"""

from __future__ import annotations

import argparse
import glob
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import machine_info
import numpy as np
from machine_info import load

SEED = 3
SYSTEMS, TOPICS = 26, 250
TARGET_SECONDS = 3.0
TARGET_INTERRUPT = 1.0


def machine() -> str:
    import matplotlib

    return machine_info.machine(f"numpy {np.__version__}", f"matplotlib {matplotlib.__version__}")


def write_scores(folder: str) -> str:
    rng = np.random.default_rng(SEED)
    scores = rng.beta(0.6, 1.4, (SYSTEMS, TOPICS))
    path = os.path.join(folder, "largest.csv")
    with open(path, "w") as fh:
        fh.write("system," + ",".join(str(301 + t) for t in range(TOPICS)) + "\n")
        fh.writelines(f"run{i:02d}," + ",".join(f"{v:.4f}" for v in row) + "\n" for i, row in enumerate(scores))
    return path


def command(scores: str, plot: str | None = None) -> list[str]:
    irmeans = os.path.join(os.path.dirname(sys.executable), "irmeans")
    return [irmeans, "compare", "--scores", scores, "--baseline", "run00"] + (["--plot", plot] if plot else [])


QUIET = {**os.environ, "IRMEANS_PROGRESS": "off"}


def timed(argv: list[str]) -> tuple[float, float, float]:
    """(wall s, CPU s, peak RSS MiB) of one run of ``argv``, which must succeed."""
    gnu = ["/usr/bin/time", "-f", "%e %U %S %M"] if os.access("/usr/bin/time", os.X_OK) else []
    start = time.perf_counter()
    done = subprocess.run([*gnu, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=QUIET)
    wall = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"{' '.join(argv[1:3])} ... exited {done.returncode}: {done.stderr.strip()}")
    if not gnu:
        return wall, float("nan"), float("nan")
    _, user, system, rss = done.stderr.strip().splitlines()[-1].split()
    return wall, float(user) + float(system), int(rss) / 1024


def interrupted(argv: list[str], target: str) -> tuple[float, int, str]:
    """SIGINT as the plot starts to be written: (seconds from the signal to the exit, exit status, the last line
    on standard error)."""
    folder, name = os.path.split(target)
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=QUIET)
    while proc.poll() is None and not glob.glob(os.path.join(glob.escape(folder), f".{name}.*.part")):
        time.sleep(0.002)
    sent = time.perf_counter()
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    err = proc.communicate()[1].decode("utf-8", "replace").strip().splitlines()
    return time.perf_counter() - sent, proc.returncode, err[-1] if err else ""


def limited(argv: list[str], address_space: int) -> int:
    def before() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=before, env=QUIET)
    return done.returncode


VL_CONVERT = """
import sys, time
import numpy as np
import irmeans, vl_convert
from irmeans import datasets
matrix = datasets.read_csv(sys.argv[1])
result = irmeans.compare(matrix, baseline="run00", permutations=100, bootstrap=100)
spec = result.plot_spec()
start = time.perf_counter()
(vl_convert.vegalite_to_svg if sys.argv[2] == "svg" else vl_convert.vegalite_to_png)(spec)
print(f"{time.perf_counter() - start:.2f}")
"""


def vl_convert_record(scores: str) -> None:
    """The earlier renderer on the same figure: its drawing time, and whether it draws under 16 GiB of address
    space."""
    print("\n### The earlier renderer, vl-convert (in-process V8), on the same figure\n")
    print("| format | drawing (s) | under `ulimit -v` 16 GiB |")
    print("|---|---:|---|")
    for fmt in ("svg", "png"):
        argv = [sys.executable, "-c", VL_CONVERT, scores, fmt]
        done = subprocess.run(argv, capture_output=True, text=True, env=QUIET)
        seconds = done.stdout.strip() if done.returncode == 0 else f"exit {done.returncode}"
        status = limited(argv, 16 * 1024**3)
        print(f"| {fmt.upper()} | {seconds} | {'drawn' if status == 0 else f'exit {status}'} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each timing (default 3)")
    parser.add_argument("--quick", action="store_true", help="one round, without vl-convert")
    parser.add_argument("--vl-convert", action="store_true", help="also time the earlier renderer")
    opts = parser.parse_args()
    rounds = 1 if opts.quick else opts.rounds
    missed = 0
    print(f"## `irmeans compare --plot`, the largest figure ({SYSTEMS - 1} pairs x 3 averages x {TOPICS} topics)\n")
    print(f"Machine: {machine()}; load average (1 / 5 / 15 min) {load()} at the start.\n")
    with tempfile.TemporaryDirectory() as folder:
        scores = write_scores(folder)
        warm = command(scores, os.path.join(folder, "warm.svg"))  # matplotlib's font cache, the bytecode
        subprocess.run(warm, stdout=subprocess.DEVNULL, env=QUIET, check=True)
        print(
            f"| `irmeans compare --scores CSV --baseline run00` | wall (s), median of {rounds} | CPU (s) | "
            "peak RSS (MiB) | target | |"
        )
        print("|---|---:|---:|---:|---|---|")
        for plot in (None, "p.svg", "p.png"):
            runs = [timed(command(scores, plot and os.path.join(folder, plot))) for _ in range(rounds)]
            wall, cpu, rss = (statistics.median(r[k] for r in runs) for k in range(3))
            met = plot is None or wall <= TARGET_SECONDS
            missed += not met
            target = f"<= {TARGET_SECONDS:g} s" if plot else ""
            shown = f"--plot {plot}" if plot else "without --plot"
            verdict = "" if plot is None else "met" if met else "NOT met"
            print(f"| {shown} | {wall:.2f} | {cpu:.2f} | {rss:.0f} | {target} | {verdict} |")

        print("\n| Ctrl-C while the plot is written | delay to exit (s) | exit status | target | |")
        print("|---|---:|---:|---|---|")
        for ext in ("svg", "png"):
            targets = [os.path.join(folder, f"i{k}.{ext}") for k in range(rounds)]  # one each: nothing left over
            delays = [interrupted(command(scores, target), target) for target in targets]
            delay = statistics.median(d for d, _, _ in delays)
            statuses = sorted({s for _, s, _ in delays})
            met = statuses == [130] and delay < TARGET_INTERRUPT
            missed += not met
            said = "; ".join(sorted({e for _, s, e in delays if s != 130 and e}))
            print(
                f"| --plot i.{ext} | {delay:.3f} | {', '.join(map(str, statuses))} | 130, < {TARGET_INTERRUPT:g} s "
                f"| {'met' if met else 'NOT met'}{': ' + said if said else ''} |"
            )

        print("\n| `ulimit -v` | without --plot | --plot SVG | --plot PNG | |")
        print("|---|---:|---:|---:|---|")
        for gigabytes in (1, 4):
            limit = gigabytes * 1000**3
            statuses = [
                limited(command(scores, p and os.path.join(folder, p)), limit) for p in (None, "l.svg", "l.png")
            ]
            met = statuses == [0, 0, 0]
            missed += not met
            print(f"| {gigabytes} GB | {' | '.join(map(str, statuses))} | {'met' if met else 'NOT met'} |")
        if opts.vl_convert and not opts.quick:
            vl_convert_record(scores)
    print(f"\nLoad average at the end: {load()}. Targets missed: {missed}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
