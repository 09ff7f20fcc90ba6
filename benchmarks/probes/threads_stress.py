"""Thread safety: 8 user threads calling every public function at once,
in a fresh process, never crash in 20 repeated runs, and match the sequential results bit for bit.

Each run is ``python tests/suites/threads_child.py 8`` in a new process; the first
``--cold`` runs also start with empty numba and plan caches (so compilation and
plan design happen in the threads), the rest load from the caches the first
run filled.  Prints one line per run (its wall time from
:func:`sftwave_paper.timer.measure`) and a summary; exits non-zero on any failure.

    .venv/bin/python benchmarks/probes/threads_stress.py [--runs 20] [--cold 3] [--threads 8]

(one run takes about 50 s on a busy 2-core machine: about 15 to 20 minutes with the defaults).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from functools import partial
from pathlib import Path

from sftwave_paper.timer import measure

CHILD = Path(__file__).resolve().parents[2] / "tests" / "suites" / "threads_child.py"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--cold", type=int, default=3)
    ap.add_argument("--threads", type=int, default=8)
    args = ap.parse_args()
    failures = 0
    with tempfile.TemporaryDirectory(prefix="sftwave-stress-") as tmp:
        for i in range(args.runs):
            cache = Path(tmp) / (f"cold{i}" if i < args.cold else "warm")
            env = dict(os.environ, NUMBA_CACHE_DIR=str(cache / "numba"),
                       SFTWAVE_CACHE_DIR=str(cache / "plans"))
            m = measure(partial(subprocess.run, [sys.executable, str(CHILD), str(args.threads)],
                                env=env, capture_output=True, text=True), repeats=1, warmup=False)
            proc, dt = m["result"], m["median_s"]
            ok = proc.returncode == 0 and proc.stdout.startswith("OK")
            failures += not ok
            kind = "cold" if i < args.cold else "warm"
            print(f"run {i + 1:2d} ({kind}): exit {proc.returncode:4d}  {dt:6.1f} s  "
                  f"{proc.stdout.strip()[:60] or proc.stderr.strip()[-200:]}", flush=True)
    print(f"{args.runs - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
