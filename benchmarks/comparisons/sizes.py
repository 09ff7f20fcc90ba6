"""Warm calls at every size against the anchors: the fixed cost of a call and where it stops mattering.

One sweep, every tool in the same run (:func:`~.common.alternate`: the calls
take turns, medians): ``gaussian_filter1d`` (float64 and float32, sigma 4)
from 100 samples to 1e7, and float64 at sigma 128 (a long window: the bank, then the
pieces; 1e7 samples, beyond the bank's longest recursion, on the pieces as well) from
1e4 to 1e7, against scipy.ndimage; ``gaussian_filter`` (uint8 and
float32 images, sigma 2) from 32 x 32 to 4096 x 4096 against scipy.ndimage;
``sftwave.cwt`` (Morlet 6, 20 frequencies, and pycwt's Nino3 case, 504
samples x 85 scales) against ``pycwt.cwt``; ``sftwave.mne.tfr_array_morlet``
on small epochs against MNE's.  A call shorter than about 2 ms is timed in
batches (the median of a batch's time divided by its calls), so that the
timer's own cost does not count.  The ratio is the anchor's time over
sftwave's: above 1, sftwave is faster.
"""

from __future__ import annotations

import time
from functools import partial

import numpy as np

from .common import alternate, anchor, load_average

#: A timed unit lasts at least about this many seconds (short calls are batched).
BATCH_S = 2e-3

GAUSS_1D_N = (100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000)
#: Lengths of the sweep at sigma 128 (scipy's window is 1,025 taps: a 1e7 call takes seconds).
GAUSS_1D_WIDE_N = (10_000, 100_000, 1_000_000, 10_000_000)
GAUSS_2D_N = (32, 64, 128, 256, 512, 1024, 2048, 4096)
CWT_N = (100, 1_000, 10_000, 100_000)
TFR_SHAPES = ((1, 1, 500), (1, 4, 500), (4, 8, 1000), (16, 32, 1000))


def _batched(fn):
    """``fn`` repeated often enough to last about :data:`BATCH_S`, and the repeat count."""
    fn()
    t0 = time.perf_counter()
    fn()
    once = max(time.perf_counter() - t0, 1e-7)
    k = max(1, int(BATCH_S / once))
    if k == 1:
        return fn, 1

    def batch():
        for _ in range(k - 1):
            fn()
        return fn()

    return batch, k


def _pair(calls: dict, rounds: int) -> dict:
    """Median and min milliseconds per call of each of ``calls`` (alternating, batched)."""
    batched = {name: _batched(fn) for name, fn in calls.items()}
    t = alternate({name: b for name, (b, _) in batched.items()}, rounds)
    return {name: {"median_ms": 1e3 * t[name]["median_s"] / batched[name][1],
                   "min_ms": 1e3 * t[name]["min_s"] / batched[name][1],
                   "batch": batched[name][1]} for name in calls}


def _case(label: str, size, calls: dict, rounds: int) -> dict:
    times = _pair(calls, rounds)
    sft, ref = (times[k]["median_ms"] for k in calls)
    return {"what": label, "size": size, "times": times, "anchor": list(calls)[1],
            "ratio": ref / sft}


def sizes(quick: bool) -> dict:
    """The size sweep: sftwave's warm call against the anchor's, 100 samples / 32 x 32 up."""
    import scipy.ndimage as ndi

    import sftwave
    import sftwave.ndimage as sn

    rounds = 3 if quick else 7
    rng = np.random.default_rng(0)
    res: dict = {"load_start": load_average(), "rounds": rounds, "batch_s": BATCH_S, "cases": []}
    cases = res["cases"]
    for dtype in ("float64", "float32"):
        for n in GAUSS_1D_N[:4] if quick else GAUSS_1D_N:
            x = rng.standard_normal(n).astype(dtype)
            cases.append(_case(f"gaussian_filter1d {dtype}, sigma 4", n, {
                "sftwave": partial(sn.gaussian_filter1d, x, 4.0),
                "scipy.ndimage": partial(ndi.gaussian_filter1d, x, 4.0)},
                rounds if n < 10**6 else 3))
    for n in GAUSS_1D_WIDE_N[:2] if quick else GAUSS_1D_WIDE_N:
        x = np.cumsum(rng.standard_normal(n))
        cases.append(_case("gaussian_filter1d float64, sigma 128", n, {
            "sftwave": partial(sn.gaussian_filter1d, x, 128.0),
            "scipy.ndimage": partial(ndi.gaussian_filter1d, x, 128.0)},
            rounds if n < 10**6 else 3))
    for dtype in ("uint8", "float32"):
        for n in GAUSS_2D_N[:4] if quick else GAUSS_2D_N:
            img = (rng.random((n, n)) * 255).astype(dtype)
            cases.append(_case(f"gaussian_filter {dtype}, sigma 2", f"{n} x {n}", {
                "sftwave": partial(sn.gaussian_filter, img, 2.0),
                "scipy.ndimage": partial(ndi.gaussian_filter, img, 2.0)},
                rounds if n < 2048 else 3))
    pycwt = anchor("pycwt")
    if pycwt is None:
        res["pycwt_skipped"] = "pycwt not installed"
    else:
        mother = pycwt.Morlet(6.0)
        for n in CWT_N[:3] if quick else CWT_N:
            x = rng.standard_normal(n)
            freqs = np.geomspace(0.01, 0.4, 20)
            cases.append(_case("cwt, Morlet 6, 20 frequencies", n, {
                "sftwave": partial(sftwave.cwt, x, freqs, 1.0),
                "pycwt": partial(pycwt.cwt, x, 1.0, wavelet=mother, freqs=freqs)},
                rounds if n < 10**5 else 3))
        dt, dj = 0.25, 1.0 / 12.0
        x = rng.standard_normal(504)
        _, _, pf, *_ = pycwt.cwt(x, dt, dj, 2 * dt, 7 / dj, mother)
        cases.append(_case("cwt, Nino3 (pycwt's scales)", f"504 x {pf.size}", {
            "sftwave": partial(sftwave.cwt, x, pf, 1.0 / dt),
            "pycwt": partial(pycwt.cwt, x, dt, dj, 2 * dt, 7 / dj, mother)}, rounds))
    if anchor("MNE") is None:
        res["mne_skipped"] = "mne not installed"
    else:
        from mne.time_frequency import tfr_array_morlet as mne_tfr

        from sftwave.mne import tfr_array_morlet

        freqs = np.arange(4.0, 41.0, 4.0)
        for shape in TFR_SHAPES[:2] if quick else TFR_SHAPES:
            data = rng.standard_normal(shape)
            kw = dict(sfreq=250.0, freqs=freqs, n_cycles=freqs / 2.0, output="power")
            cases.append(_case("tfr_array_morlet, 10 frequencies, power",
                               " x ".join(map(str, shape)), {
                "sftwave.mne": partial(tfr_array_morlet, data, **kw),
                "MNE": partial(mne_tfr, data, verbose=False, **kw)}, rounds))
    res["load_end"] = load_average()
    return res
