"""The lane kernel alone: seconds and cycles per component update for the users' CWT workloads.

Run: ``.venv/bin/python benchmarks/lane_kernel.py`` (one thread; writes
``benchmarks/results/lane_kernel.json``).  Times only the kernel call inside
``lanes.run`` (the engine's ``parallel_for`` on ``run_lanes_16``, or on the
scalar ``run_lanes`` with ``--scalar``, which runs the same groups with plain
loops), medians of 7 after one untimed call, and divides by the engine's own
count of component updates (groups x steps x components x 16).  Cycles use the
clock the kernel reports in ``/proc/cpuinfo`` (nominal: a boosting CPU runs
faster, so the figure is an upper bound on cycles).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

import sftwave
from sftwave.engines.numba import lane_kernels, lanes

HERE = Path(__file__).resolve().parent


def clock_hz() -> float | None:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("cpu MHz"):
                return float(line.split(":")[1]) * 1e6
    except OSError:
        pass
    return None


def main(argv: list[str]) -> None:
    scalar = "--scalar" in argv
    kernel_name = "run_lanes" if scalar else "run_lanes_16"
    if scalar:  # the same groups through the any-width kernel
        lane_kernels_16 = lane_kernels.run_lanes_16
        lanes._k.run_lanes_16 = lane_kernels.run_lanes
    seen: dict = {}
    original = lanes.parallel_for

    def timed(fn, *args, **kwargs):
        t0 = time.perf_counter()
        original(fn, *args, **kwargs)
        if fn.__name__ == kernel_name:   # summed over the calls of one transform (row batches)
            seen["s"] = seen.get("s", 0.0) + time.perf_counter() - t0
            seen["updates"] = seen.get("updates", 0.0) + kwargs["work"]
    lanes.parallel_for = timed

    rng = np.random.default_rng(0)
    eeg = rng.standard_normal((60, 32, 1000))
    long = rng.standard_normal(100_000).astype(np.float32)
    audio = rng.standard_normal(441_000).astype(np.float32)
    cases = {
        "EEG epochs, power, decim=4, float64": lambda: sftwave.cwt(
            eeg, np.arange(4, 41.0), 250.0, xi=7.0, output="power", decim=4, workers=1),
        "N=1e5 x 200, complex64": lambda: sftwave.cwt(
            long, np.geomspace(1, 100, 200), 1000.0, workers=1),
        "audio, power, decim=441, float32": lambda: sftwave.cwt(
            audio, np.geomspace(30, 16000, 200), 44100.0, output="power", decim=441, workers=1),
    }
    hz = clock_hz()
    res = {"kernel": kernel_name, "clock_hz": hz, "cases": {}}
    for name, call in cases.items():
        call()
        seen.clear()
        times = []
        for _ in range(7):
            seen.clear()
            call()
            times.append(seen["s"])
        s = float(np.median(times))
        row = {"kernel_s": s, "updates": seen["updates"]}
        if hz:
            row["cycles_per_update"] = s * hz / seen["updates"]
        res["cases"][name] = row
        print(f"{name:40s} {s:7.3f} s  {seen['updates']:.2e} updates"
              + (f"  {row['cycles_per_update']:.2f} cycles/update" if hz else ""))
    if scalar:
        lanes._k.run_lanes_16 = lane_kernels_16
    out = HERE / "results" / ("lane_kernel_scalar.json" if scalar else "lane_kernel.json")
    out.write_text(json.dumps(res, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
