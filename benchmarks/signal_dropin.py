"""sftwave.signal against scipy: find_peaks_cwt's time, and cwt's difference from scipy 1.14's.

``python benchmarks/signal_dropin.py``: scipy's ``find_peaks_cwt`` and
sftwave's at widths 1-200 on 20,000 samples (40 Gaussian peaks in noise),
timed alternately in one run, medians of ``REPEATS``; then the largest
difference of sftwave's untruncated ``cwt`` rows from scipy 1.14's truncated
ones, relative to each matrix's largest value.
"""

from __future__ import annotations

import time

import numpy as np
from scipy.signal import find_peaks_cwt as scipy_find_peaks_cwt

from sftwave import signal

REPEATS = 5


def main() -> None:
    rng = np.random.default_rng(0)
    n = 20_000
    t = np.arange(n)
    x = sum(np.exp(-(((t - c) / s) ** 2)) for c, s in zip(rng.uniform(0, n, 40),
                                                          rng.uniform(2, 150, 40)))
    x = x + 0.05 * rng.standard_normal(n)
    widths = np.arange(1, 201)
    signal.find_peaks_cwt(x, widths)
    ours, theirs = [], []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        a = signal.find_peaks_cwt(x, widths)
        t1 = time.perf_counter()
        b = scipy_find_peaks_cwt(x, widths)
        t2 = time.perf_counter()
        ours.append(t1 - t0)
        theirs.append(t2 - t1)
    print(f"find_peaks_cwt, widths 1-200, {n} samples: sftwave {np.median(ours):.3f} s, "
          f"scipy {np.median(theirs):.3f} s, ratio {np.median(theirs) / np.median(ours):.1f}x; "
          f"same peaks: {np.array_equal(a, b)} ({len(b)})")
    for wavelet, name in [(signal.ricker, "ricker"), (signal.morlet2, "morlet2")]:
        for m, w in [(20_000, np.arange(1, 201)), (500, np.arange(1, 51)), (200, np.arange(1, 31))]:
            y = x[:m]
            fast = signal.cwt(y, wavelet, w)
            ref = signal.cwt(y, wavelet, w, truncated=True)
            d = np.abs(fast - ref).max() / np.abs(ref).max()
            print(f"cwt {name}, widths {w[0]}-{w[-1]}, {m} samples: max |sftwave - scipy| / "
                  f"max |scipy| = {d:.1e}")


if __name__ == "__main__":
    main()
