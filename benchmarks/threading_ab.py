"""sftwave's parallel loops on numba's OpenMP layer (the old design) against its own thread pool.

Runs the same workloads in fresh processes against two source trees (``--old``
and ``--new``, each a checkout's ``src`` folder), with scipy and MNE timed in
the same processes as anchors, and prints medians and ratios:

* per-call cost of small inputs (a 1000-sample line, a 64 x 64 image), idle and
  with the other cores busy (a spinning process per other core: OpenMP's
  workers spin-wait after each parallel region, which cost milliseconds then);
* ordinary workloads: N = 1e6 at sigma 128, a 2048 x 2048 float32 image at
  sigma 8, a 1e5-sample scalogram of 200 frequencies (complex64), MNE's EEG
  job (60 epochs x 32 channels x 1000 samples at 250 Hz, 37 frequencies,
  7 cycles, power, decim 4);
* a fresh process's first ``cwt`` call with the caches filled.

    python benchmarks/threading_ab.py --old /tmp/oldtree/src --new src [--reps 7] [--rounds 3]

Results go to stdout and to ``benchmarks/results/threading_ab.json`` (``--json``),
from which ``benchmarks/report.py`` writes its section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

CHILD = r"""
import json, statistics, sys, time
import numpy as np
import scipy.ndimage as ndi
import sftwave

reps = int(sys.argv[1])
rng = np.random.default_rng(0)
line = rng.standard_normal(1000)
small = rng.standard_normal((64, 64)).astype(np.float32)
big = np.cumsum(rng.standard_normal(1_000_000))
img = rng.standard_normal((2048, 2048)).astype(np.float32)
sig = rng.standard_normal(100_000).astype(np.float32)
freqs = np.geomspace(0.002, 0.45, 200)
eeg = rng.standard_normal((60, 32, 1000))
eeg_f = np.linspace(4.0, 40.0, 37)

def med(fn, n):
    fn()
    ts = []
    for _ in range(n):
        t = time.perf_counter(); fn(); ts.append(time.perf_counter() - t)
    return statistics.median(ts)

def mne_eeg():
    from mne.time_frequency import tfr_array_morlet
    return tfr_array_morlet(eeg, 250.0, eeg_f, n_cycles=7.0, output="power", decim=4, n_jobs=1)

res = {
  "line_sigma8": med(lambda: sftwave.gaussian_filter1d(line, 8.0), 50 * reps),
  "line_sigma64": med(lambda: sftwave.gaussian_filter1d(line, 64.0), 50 * reps),
  "scipy_line_sigma8": med(lambda: ndi.gaussian_filter1d(line, 8.0), 50 * reps),
  "img64_sigma4": med(lambda: sftwave.gaussian_filter(small, 4.0), 50 * reps),
  "scipy_img64_sigma4": med(lambda: ndi.gaussian_filter(small, 4.0), 50 * reps),
}
if sys.argv[2] == "full":
    res.update({
      "n1e6_sigma128": med(lambda: sftwave.gaussian_filter1d(big, 128.0), reps),
      "scipy_n1e6_sigma128": med(lambda: ndi.gaussian_filter1d(big, 128.0), 3),
      "img2048_sigma8": med(lambda: sftwave.gaussian_filter(img, 8.0), reps),
      "scipy_img2048_sigma8": med(lambda: ndi.gaussian_filter(img, 8.0), 3),
      "cwt_1e5_200": med(lambda: sftwave.cwt(sig, freqs), reps),
      "eeg_power": med(lambda: sftwave.cwt(eeg, eeg_f, 250.0, xi=7.0, output="power", decim=4), reps),
      "mne_eeg_power": med(mne_eeg, 3),
    })
print(json.dumps(res))
"""

FIRST = r"""
import time
t0 = time.perf_counter()
import numpy as np, sftwave
t1 = time.perf_counter()
sftwave.cwt(np.random.default_rng(0).standard_normal(100_000).astype(np.float32),
            np.geomspace(0.002, 0.45, 200))
t2 = time.perf_counter()
print(t1 - t0, t2 - t1)
"""


def run_child(src: str, reps: int, kind: str, env_extra: dict | None = None) -> dict:
    env = dict(os.environ, PYTHONPATH=src, **(env_extra or {}))
    out = subprocess.run([sys.executable, "-c", CHILD, str(reps), kind], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def first_call(src: str, runs: int = 5) -> tuple[float, float]:
    """Medians over ``runs`` fresh processes (after one that fills the caches)."""
    env = dict(os.environ, PYTHONPATH=src)
    times = []
    for _ in range(runs + 1):
        out = subprocess.run([sys.executable, "-c", FIRST], env=env, capture_output=True,
                             text=True, check=True)
        times.append(tuple(map(float, out.stdout.split())))
    times = times[1:]
    return (statistics.median(t[0] for t in times), statistics.median(t[1] for t in times))


def busy_others():
    """One spinning process per other core."""
    n = max(1, (os.cpu_count() or 2) - 1)
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--rounds", type=int, default=3,
                    help="old and new alternate this many times; each figure is the median")
    ap.add_argument("--json", default=str(HERE / "results" / "threading_ab.json"))
    ap.add_argument("--no-doc", action="store_true", help="do not rewrite docs/benchmarks.md")
    args = ap.parse_args()
    trees = {"old": os.path.abspath(args.old), "new": os.path.abspath(args.new)}
    load0 = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    runs: dict = {name: {"idle": [], "busy": []} for name in trees}
    for _ in range(args.rounds):   # alternate, so a disturbance hits both or neither
        for name, src in trees.items():
            runs[name]["idle"].append(run_child(src, args.reps, "full"))
        for name, src in trees.items():
            procs = busy_others()
            try:
                runs[name]["busy"].append(run_child(src, args.reps, "small"))
            finally:
                for p in procs:
                    p.kill()
    results: dict = {}
    for name, src in trees.items():
        results[name] = {cond: {k: statistics.median(r[k] for r in runs[name][cond])
                                for k in runs[name][cond][0]} for cond in ("idle", "busy")}
        results[name]["first_call"] = first_call(src)
    print(f"{'workload':24s} {'old (OpenMP)':>14s} {'new (pool)':>12s} {'new/old':>8s}")
    for cond in ("idle", "busy"):
        for k in results["old"][cond]:
            o, n = results["old"][cond][k], results["new"][cond][k]
            print(f"{cond + ' ' + k:24s} {o * 1e3:12.3f}ms {n * 1e3:10.3f}ms {n / o:8.2f}")
    for i, what in enumerate(("import", "first cwt (cached)")):
        o, n = results["old"]["first_call"][i], results["new"]["first_call"][i]
        print(f"{what:24s} {o:13.3f}s {n:11.3f}s {n / o:8.2f}")
    results["meta"] = {
        "command": f".venv/bin/python benchmarks/threading_ab.py --old {args.old} --new {args.new} "
                   f"--reps {args.reps} --rounds {args.rounds}",
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "load_average_at_start": load0, "reps": args.reps, "rounds": args.rounds,
    }
    with open(args.json, "w") as f:
        json.dump(results, f, indent=1)
    if not args.no_doc and Path(args.json).resolve() == (HERE / "results" / "threading_ab.json"):
        sys.path.insert(0, str(HERE))
        import report

        report.main([])
    return 0


if __name__ == "__main__":
    sys.exit(main())
