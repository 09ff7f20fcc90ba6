"""What a call costs when its arguments are extreme: time and peak memory, one row per call.

Run: ``.venv/bin/python benchmarks/probes/bounded_cost.py [--timeout S] [--cap-gib G]``
(about 20 s).
Every row runs in a child process of its own (after one untimed warm-up call
that compiles the kernels), on a signal of 300 samples; the child's data
segment is capped at ``--cap-gib`` GiB (default 3), so a call that would
allocate more ends in ``MemoryError`` instead of swapping the machine, and a
call still running after ``--timeout`` seconds (default 60) is killed.
Printed: the wall time of the call (one call timed by
:func:`sftwave_paper.timer.measure`), the peak of Python's traced allocations
(``tracemalloc``, numpy's arrays included) and how the call ended (a result,
or the exception's type and the start of its message).

The rows are the calls that once took seconds to minutes and gigabytes, and
their neighbours: ``tests/suites/test_bounded_cost.py`` holds the same table to
structural bounds (memory, the largest plan designed).

To compare with another version of sftwave, put its ``src`` first on
``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys

#: (label, statement); ``x`` is 300 samples of white noise, ``np`` numpy, ``sw`` sftwave.
ROWS = [
    ("gaussian_filter1d(x, 1e8)", "sw.gaussian_filter1d(x, 1e8)"),
    ("gaussian_filter1d(x, 1e20)", "sw.gaussian_filter1d(x, 1e20)"),
    ("gaussian_filter1d(x, 1e300)", "sw.gaussian_filter1d(x, 1e300)"),
    ("gaussian_filter1d(x, 1e-300)", "sw.gaussian_filter1d(x, 1e-300)"),
    ("gaussian_filter1d(x, 300.0)", "sw.gaussian_filter1d(x, 300.0)"),
    ("gaussian_filter1d(x, 1e8, order=2, tol=1e-6)",
     "sw.gaussian_filter1d(x, 1e8, order=2, tol=1e-6)"),
    ("gaussian_filter1d(x, 1e8, truncate=8)", "sw.gaussian_filter1d(x, 1e8, truncate=8.0)"),
    ("morlet_transform(x, 1e7)", "sw.morlet_transform(x, 1e7)"),
    ("morlet_transform(x, 1e20)", "sw.morlet_transform(x, 1e20)"),
    ("morlet_transform(x, 5000.0)", "sw.morlet_transform(x, 5000.0)"),
    ("morlet_transform(x, 300.0)", "sw.morlet_transform(x, 300.0)"),
    ("cwt(x, [1e-9])", "sw.cwt(x, [1e-9])"),
    ("cwt(x, [1e-3])", "sw.cwt(x, [1e-3])"),
    ("cwt(x, [0.1], xi=1e6)", "sw.cwt(x, [0.1], xi=1e6)"),
    ("cwt(x, [0.1], xi=1e-10)", "sw.cwt(x, [0.1], xi=1e-10)"),
    ("cwt(x, [0.1], tol=1e-9)", "sw.cwt(x, [0.1], tol=1e-9)"),
    ("tfr_array_morlet(x, 1.0, [1e-9])", "tfr(x[None, None], 1.0, [1e-9])"),
    ("tfr_array_morlet(x, 1.0, [0.1], n_cycles=nan)",
     "tfr(x[None, None], 1.0, [0.1], n_cycles=float('nan'))"),
    ("icwt(W, [0.1, 0.1])", "sw.icwt(np.ones((2, 300), complex), [0.1, 0.1])"),
]

_CHILD = """
import json, sys, tracemalloc
import numpy as np
import sftwave as sw
from sftwave.mne import tfr_array_morlet as tfr
from sftwave_paper.timer import measure
x = np.random.default_rng(0).standard_normal(300)
sw.gaussian_filter1d(x, 3.0); sw.cwt(x, [0.1])          # compile the kernels, untimed

def call():
    try:
        exec(sys.argv[1])
        return "result"
    except Exception as exc:
        return f"{type(exc).__name__}: {str(exc)[:70]}"

tracemalloc.start()
m = measure(call, repeats=1, warmup=False)
peak = tracemalloc.get_traced_memory()[1]
print(json.dumps(dict(wall=m["median_s"], peak=peak, outcome=m["result"])))
"""


def _limit(cap_bytes: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_DATA, (cap_bytes, cap_bytes))
    return apply


def run_row(statement: str, timeout: float, cap_gib: float) -> dict:
    """One row in a child process: its wall time, traced peak and outcome."""
    try:
        proc = subprocess.run([sys.executable, "-c", _CHILD, statement], capture_output=True,
                              text=True, timeout=timeout, preexec_fn=_limit(int(cap_gib * 2**30)),
                              env=dict(os.environ))
    except subprocess.TimeoutExpired:
        return dict(wall=None, peak=None, outcome=f"killed after {timeout:g} s")
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr.strip().splitlines() or ["?"])[-1]
        return dict(wall=None, peak=None, outcome=f"child failed: {tail[:70]}")
    return json.loads(lines[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--cap-gib", type=float, default=3.0)
    args = parser.parse_args()
    print(f"{'call (300 samples)':48s} {'time':>9s} {'peak':>10s}  outcome")
    for label, statement in ROWS:
        r = run_row(statement, args.timeout, args.cap_gib)
        wall = "-" if r["wall"] is None else f"{r['wall']:.3f} s"
        peak = "-" if r["peak"] is None else f"{r['peak'] / 2**20:.1f} MiB"
        print(f"{label:48s} {wall:>9s} {peak:>10s}  {r['outcome']}", flush=True)


if __name__ == "__main__":
    main()
