"""scipy.signal's ``find_peaks_cwt`` and scipy 1.14's ``cwt`` against ``sftwave.signal``.

:func:`peaks`: 40 Gaussian peaks of widths 2 to 150 samples in noise (20,000
samples; 5,000 with ``--quick``), searched at widths 1 to 200 (1 to 100) by
scipy's ``find_peaks_cwt`` and by sftwave's (the same peaks: compared); then
the Ricker matrix alone at those widths by ``sftwave.signal.cwt`` against scipy
1.14's method (one ``np.convolve`` per width with the wavelet cut at 10 widths,
which ``truncated=True`` reproduces: scipy 1.15 removed ``cwt``), and the
largest difference of the two matrices relative to their largest value.  The
calls take turns (medians).
"""

from __future__ import annotations

import numpy as np
from scipy.signal import find_peaks_cwt as scipy_find_peaks_cwt

from sftwave import signal

from .common import alternate, load_average


def _series(n: int) -> np.ndarray:
    rng = np.random.default_rng(0)
    t = np.arange(n)
    x = sum(np.exp(-(((t - c) / s) ** 2)) for c, s in zip(rng.uniform(0, n, 40),
                                                          rng.uniform(2, 150, 40), strict=True))
    return np.asarray(x + 0.05 * rng.standard_normal(n))


def peaks(quick: bool) -> dict:
    """find_peaks_cwt and the Ricker cwt, sftwave against scipy (1.14's method for cwt)."""
    n, top = (5_000, 100) if quick else (20_000, 200)
    rounds = 3 if quick else 5
    res: dict = {"n": n, "widths": [1, top], "load_start": load_average()}
    x = _series(n)
    widths = np.arange(1, top + 1)
    ours = signal.find_peaks_cwt(x, widths)
    theirs = scipy_find_peaks_cwt(x, widths)
    res["peaks"] = {"sftwave": int(len(ours)), "scipy": int(len(theirs)),
                    "same": bool(np.array_equal(ours, theirs))}
    t = alternate({"sftwave": lambda: signal.find_peaks_cwt(x, widths),
                   "scipy": lambda: scipy_find_peaks_cwt(x, widths)}, rounds)
    res["find_peaks_cwt"] = {"times": t,
                             "scipy_over_sftwave": t["scipy"]["median_s"] / t["sftwave"]["median_s"]}
    fast = signal.cwt(x, signal.ricker, widths)
    ref = signal.cwt(x, signal.ricker, widths, truncated=True)
    t = alternate({"sftwave": lambda: signal.cwt(x, signal.ricker, widths),
                   "scipy_1_14": lambda: signal.cwt(x, signal.ricker, widths, truncated=True)},
                  rounds)
    res["cwt"] = {"times": t,
                  "scipy_over_sftwave": t["scipy_1_14"]["median_s"] / t["sftwave"]["median_s"],
                  "max_difference": float(np.abs(fast - ref).max() / np.abs(ref).max())}
    res["load_end"] = load_average()
    return res
