"""A whole user script, unchanged, with and without ``python -m sftwave.patch``.

The script (written to a temporary directory) is a scipy.ndimage pipeline on
real-shaped images: a smoothed background subtracted from 1024 x 1024 float32 frames and
a blob response by ``gaussian_laplace`` at several scales.  Each variant runs in a fresh
process (imports and sftwave's compile cache included: what a user waits for), the median
of ``--repeats`` runs, alternating the two; the ratio is patched time over plain time.

    python benchmarks/patch_script.py [--repeats 5] [--frames 4]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCRIPT = """
import sys
import numpy as np
import scipy.ndimage as ndi

rng = np.random.default_rng(0)
total = 0.0
for _ in range(int(sys.argv[1])):
    frame = rng.standard_normal((1024, 1024)).astype(np.float32)
    flat = frame - ndi.gaussian_filter(frame, 40.0)
    for s in (4.0, 8.0, 16.0):
        total += float(np.abs(ndi.gaussian_laplace(flat, s)).max())
print(f"{total:.6f}")
"""


def run(cmd: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip()
    return time.perf_counter() - t0, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--frames", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "pipeline.py"
        script.write_text(SCRIPT)
        plain_cmd = [sys.executable, str(script), str(args.frames)]
        patched_cmd = [
            sys.executable,
            "-W",
            "ignore::UserWarning",
            "-m",
            "sftwave.patch",
            "--only",
            "scipy",
            str(script),
            str(args.frames),
        ]
        run(patched_cmd)  # compile sftwave's kernels once
        plain, patched = [], []
        for _ in range(args.repeats):
            t, out_plain = run(plain_cmd)
            plain.append(t)
            t, out_patched = run(patched_cmd)
            patched.append(t)
    p, q = statistics.median(plain), statistics.median(patched)
    print(f"plain   {p:7.2f} s  (result {out_plain})")
    print(f"patched {q:7.2f} s  (result {out_patched})")
    print(f"ratio patched/plain {q / p:.2f} (median of {args.repeats} fresh processes each)")


if __name__ == "__main__":
    main()
