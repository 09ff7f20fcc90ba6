"""Superlets: sftwave's ``superlet`` against Syncopy's, time and agreement, and the cost per order.

:func:`superlet`: the fractional adaptive superlet (orders 1 to 30, ``c_1 = 3``)
of a random walk of ``n`` samples at 1 kHz (1e5; 2e4 with ``--quick``) over 60
frequencies from 5 to 120 Hz, by Syncopy's ``superlet`` (the file
``syncopy/specest/superlet.py`` of an installed esi-syncopy, loaded alone: it
imports numpy and scipy only; ``pip install --no-deps esi-syncopy``) and by
``sftwave.superlet`` with zero padding (``mode='constant'``, Syncopy's), one
thread each (Syncopy's ``fftconvolve`` runs on one), and sftwave on all threads
(its default).  The calls take turns
(medians).  Agreement: each row's relative RMS difference of the moduli
(Syncopy's divided by its constant ``sqrt(fs) / (8 pi)``), largest and median
over the rows.

The cost per order: the multiplicative superlet of orders 1 to ``o`` (``o``
wavelets per frequency, ``3 o`` cycles for the last) over the same
frequencies, for rising ``o``; the time per wavelet row and sample stays flat
for sftwave (each Morlet costs the same whatever its cycles) and for Syncopy
(an FFT of the whole signal per wavelet); the ratio is the same at every order.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import math
import os
from typing import Any

import numpy as np

from sftwave import superlet as sft_superlet

from .common import alternate, load_average

FS = 1000.0
FREQS = np.linspace(5.0, 120.0, 60)


def _syncopy() -> Any:
    """Syncopy's superlet module, or a string saying why not."""
    try:
        dist = importlib.metadata.distribution("esi-syncopy")
    except importlib.metadata.PackageNotFoundError:
        return "esi-syncopy is not installed (pip install --no-deps esi-syncopy; Python < 3.12)"
    path = dist.locate_file("syncopy/specest/superlet.py")
    spec = importlib.util.spec_from_file_location("_syncopy_superlet", str(path))
    if spec is None or spec.loader is None:
        return f"cannot load {path}"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _calls(sl: Any, x: np.ndarray, order_max: int, adaptive: bool, threads: bool = False) -> dict:
    """The timed calls: sftwave on one thread (and, with ``threads``, on all), Syncopy."""
    scales = 1.0 / (2.0 * np.pi * FREQS)

    def ours(workers: int | None) -> Any:
        return lambda: sft_superlet(x, FREQS, FS, order_max=order_max, c_1=3, adaptive=adaptive,
                                    mode="constant", workers=workers)

    calls = {"sftwave": ours(1)}
    if threads:
        calls["sftwave_all_threads"] = ours(None)
    calls["Syncopy"] = lambda: sl.superlet(x[:, None], FS, scales, order_max=order_max,
                                           order_min=1, c_1=3, adaptive=adaptive)
    return calls


def _agreement(sl: Any, x: np.ndarray) -> dict:
    scales = 1.0 / (2.0 * np.pi * FREQS)
    ref = np.abs(sl.superlet(x[:, None], FS, scales, order_max=30, adaptive=True))[:, :, 0]
    ref = ref.astype(np.float64) / (math.sqrt(FS) / (8.0 * math.pi))
    got = sft_superlet(x, FREQS, FS, order_max=30, adaptive=True, mode="constant",
                       output="magnitude")
    rows = np.linalg.norm(got - ref, axis=1) / np.linalg.norm(ref, axis=1)
    return {"max": float(rows.max()), "median": float(np.median(rows))}


def superlet(quick: bool) -> dict:
    """sftwave's superlet against Syncopy's: adaptive 1-30, and the cost per order."""
    n = 20_000 if quick else 100_000
    rounds = 2 if quick else 3
    res: dict = {"n": n, "freqs": int(FREQS.size), "load_start": load_average()}
    sl = _syncopy()
    if isinstance(sl, str):
        res["skipped"] = sl
        return res
    x = np.random.default_rng(0).standard_normal(n).cumsum()
    times = alternate(_calls(sl, x, 30, True, threads=True), rounds)
    syncopy = times["Syncopy"]["median_s"]
    res["adaptive"] = {"times": times, "wavelet_rows": int(np.sum(
        np.ceil(1.0 + 29.0 * (FREQS - FREQS[0]) / (FREQS[-1] - FREQS[0])))),
        "syncopy_over_sftwave": syncopy / times["sftwave"]["median_s"],
        "syncopy_over_sftwave_all_threads": syncopy / times["sftwave_all_threads"]["median_s"],
        "threads": os.cpu_count()}
    res["agreement"] = _agreement(sl, x)
    per_order = []
    short = x[: n // 4]
    for order in ((2, 4, 8) if quick else (2, 5, 10, 20, 30)):
        t = alternate(_calls(sl, short, order, False), rounds)
        rows = order * FREQS.size
        per_order.append({"order_max": order,
                          "sftwave_s": t["sftwave"]["median_s"], "syncopy_s": t["Syncopy"]["median_s"],
                          "sftwave_ns_per_row_sample": 1e9 * t["sftwave"]["median_s"] / (rows * short.size),
                          "syncopy_ns_per_row_sample": 1e9 * t["Syncopy"]["median_s"] / (rows * short.size)})
    res["per_order"] = {"n": int(short.size), "rows": per_order}
    res["load_end"] = load_average()
    return res
