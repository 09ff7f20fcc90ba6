"""Timing and accuracy workloads for sftwave's Gaussian filters (called by run.py).

Every workload is one function returning a JSON-ready dict.  Times are medians
over repetitions after a warm-up call (numba compilation and the plan caches
are excluded; :func:`first_call` measures them separately in fresh
subprocesses).  Accuracies are relative RMSEs against an exact float64
reference: the convolution, by FFT, of the reflect-extended signal with
scipy's sampled Gaussian kernel truncated at 12 sigma (what
``scipy.ndimage.gaussian_filter1d(..., truncate=12)`` computes, which
:func:`reference_check` confirms).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile

import numpy as np
import scipy.ndimage as ndi
import scipy.signal

import sftwave
from sftwave_paper import timer
from sftwave.engines.numba import DIRECT_TAPS_PER_ORDER, ENGINE, FIR_TAPS_PER_ORDER
from sftwave.engines.numba import bank as numba_bank
from sftwave.plans import FIRPlan, select_gaussian

REF_TRUNCATE = 12.0


# ----------------------------------------------------------------------------- helpers


def measure(fn, *, repeats: int, warmup: bool = True) -> dict:
    """Median wall time of ``fn()`` over ``repeats`` calls, after one untimed warm-up.

    The shared timing helper (:func:`sftwave_paper.timer.measure`), in
    milliseconds.  Returns the timings and the last result (under ``'result'``,
    to be popped before the dict goes to JSON).
    """
    m = timer.measure(fn, repeats=repeats, warmup=warmup)
    return {
        "median_ms": 1e3 * m["median_s"],
        "min_ms": 1e3 * m["min_s"],
        "repeats": repeats,
        "warmup": warmup,
        "result": m["result"],
    }


def timing(fn, *, repeats: int, warmup: bool = True) -> tuple[dict, np.ndarray]:
    """:func:`measure`, split into the JSON part and the last result."""
    m = measure(fn, repeats=repeats, warmup=warmup)
    return m, m.pop("result")


def timing_1thread(fn, *, repeats: int) -> dict:
    """:func:`timing` with sftwave limited to one thread (scipy's FIR always runs on one)."""
    with sftwave.set_workers(1):
        return timing(fn, repeats=repeats)[0]


def rel_rmse(y, ref) -> float:
    """sqrt(mean((y - ref)^2) / mean(ref^2)), computed in float64."""
    y = np.asarray(y, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    return float(np.sqrt(np.sum((y - ref) ** 2) / np.sum(ref**2)))


def gaussian_kernel(sigma: float, order: int, radius: int) -> np.ndarray:
    """scipy.ndimage's sampled kernel (normalised Gaussian times its derivative polynomial)."""
    k = np.arange(-radius, radius + 1, dtype=np.float64)
    phi = np.exp(-0.5 * (k / sigma) ** 2)
    phi /= phi.sum()
    if order == 1:
        return -k / sigma**2 * phi
    if order == 2:
        return (k**2 / sigma**4 - 1.0 / sigma**2) * phi
    return phi


_NUMPY_PAD = {"reflect": "symmetric", "nearest": "edge"}


def reference(x: np.ndarray, sigma: float, order: int = 0, axis: int = -1,
              mode: str = "reflect") -> np.ndarray:
    """Exact float64 Gaussian filter along ``axis`` (scipy's ``mode``), truncated at 12 sigma."""
    x = np.asarray(x, dtype=np.float64)
    axis = axis % x.ndim
    radius = int(REF_TRUNCATE * sigma + 0.5)
    pad = [(0, 0)] * x.ndim
    pad[axis] = (radius, radius)
    xp = np.pad(x, pad, mode=_NUMPY_PAD[mode])  # numpy 'symmetric' == scipy 'reflect'
    shape = [1] * x.ndim
    shape[axis] = 2 * radius + 1
    h = gaussian_kernel(sigma, order, radius).reshape(shape)
    return scipy.signal.fftconvolve(xp, h, mode="valid", axes=axis)


def reference2d(img: np.ndarray, sigma: float, mode: str = "reflect") -> np.ndarray:
    return reference(reference(img, sigma, 0, axis=0, mode=mode), sigma, 0, axis=1, mode=mode)


def random_walk(n: int, seed: int = 0) -> np.ndarray:
    return np.cumsum(np.random.default_rng(seed).standard_normal(n))


def test_image(size: int) -> np.ndarray:
    """pywt's 512x512 'camera' image, bicubically resized to size x size, float32 in [0, 255]."""
    import cv2
    import pywt

    cam = pywt.data.camera().astype(np.float32)
    return cv2.resize(cam, (size, size), interpolation=cv2.INTER_CUBIC)


def _plan(sigma: float, order: int, **kw):
    """The plan sftwave's CPU engine selects for one axis (the FIR or the bank; no signal
    length given, so never the wide-kernel limit)."""
    return select_gaussian(sigma, order, fir_taps_per_order=ENGINE.fir_taps_per_order(), **kw)


def _path_name(sigma: float, order: int, **kw) -> str:
    """'direct' (the FIR) or 'bank:<bank method>' (labels as in the stored results)."""
    plan = _plan(sigma, order, **kw)
    return "direct" if isinstance(plan, FIRPlan) else f"bank:{numba_bank.resolve_method('auto')}"


def _bank_orders(plan) -> int:
    """Cost of a plan in the 'auto' rule's orders: one per frequency, plus one of fixed work."""
    return int(plan.omegas.size) + 1


# ----------------------------------------------------------------------------- workloads


def reference_check(quick: bool) -> dict:
    """The FFT reference against scipy with truncate=12 (1-D, orders 0-2, and 2-D)."""
    x = random_walk(20_000, seed=1)
    worst = 0.0
    for sigma in (3.0, 40.0):
        for order in (0, 1, 2):
            ref = ndi.gaussian_filter1d(x, sigma, order=order, truncate=REF_TRUNCATE)
            worst = max(worst, rel_rmse(reference(x, sigma, order), ref))
    img = test_image(256).astype(np.float64)
    ref = ndi.gaussian_filter(img, 20.0, truncate=REF_TRUNCATE)
    worst = max(worst, rel_rmse(reference2d(img, 20.0), ref))
    return {"max_rel_rmse_fft_vs_scipy_truncate12": worst}


def floor_1d(x: np.ndarray, repeats: int) -> dict:
    """What any filter must at least spend: copying the data."""
    dst = np.empty_like(x)
    memcpy, _ = timing(lambda: np.copyto(dst, x), repeats=repeats)
    fresh, _ = timing(lambda: np.copyto(np.empty_like(x), x), repeats=repeats)
    return {"memcpy_ms": memcpy["median_ms"], "fresh_output_copy_ms": fresh["median_ms"]}


def _scipy_repeats(sigma: float, quick: bool) -> tuple[int, bool]:
    """scipy's cost grows with sigma: fewer repetitions (and no warm-up) for the largest."""
    if quick:
        return 2, True
    if sigma >= 2048:
        return 2, False
    if sigma >= 512:
        return 5, True
    return 9, True


def gaussian1d(quick: bool) -> dict:
    """sftwave vs scipy on a random walk of N float64, every sigma; orders 1, 2 at sigma 128."""
    n = 50_000 if quick else 1_000_000
    reps = 5 if quick else 31
    x = random_walk(n, seed=0)
    floor = floor_1d(x, reps)
    cases = [(s, 0) for s in (2.0, 8.0, 32.0, 128.0, 512.0, 2048.0)] + [(128.0, 1), (128.0, 2)]
    rows = []
    threads = sftwave.get_workers()
    for sigma, order in cases:
        ref = reference(x, sigma, order)
        sft, y = timing(lambda: sftwave.gaussian_filter1d(x, sigma, order=order), repeats=reps)
        sft1 = timing_1thread(lambda: sftwave.gaussian_filter1d(x, sigma, order=order),
                              repeats=reps)
        srep, swarm = _scipy_repeats(sigma, quick)
        sci, ys = timing(lambda: ndi.gaussian_filter1d(x, sigma, order=order),
                         repeats=srep, warmup=swarm)
        rows.append({
            "sigma": sigma,
            "order": order,
            "sftwave_path": _path_name(sigma, order),
            "sftwave": sft,
            "sftwave_1thread": sft1,
            "scipy": sci,
            "ratio_scipy_over_sftwave": sci["median_ms"] / sft["median_ms"],
            "ratio_sftwave_over_memcpy": sft["median_ms"] / floor["memcpy_ms"],
            "sftwave_rel_rmse": rel_rmse(y, ref),
            "scipy_rel_rmse": rel_rmse(ys, ref),
        })
    band = [r for r in rows if r["order"] == 0 and 8 <= r["sigma"] <= 2048]
    t = [r["sftwave"]["median_ms"] for r in band]
    t1 = [r["sftwave_1thread"]["median_ms"] for r in band]
    return {
        "n": n,
        "dtype": "float64",
        "signal": "random walk: cumsum of standard normal noise, seed 0",
        "numba_threads": threads,
        "floor": floor,
        "rows": rows,
        "sftwave_variation_sigma8_2048_max_over_min": max(t) / min(t),
        "sftwave_1thread_variation_sigma8_2048_max_over_min": max(t1) / min(t1),
    }


def gaussian2d(quick: bool) -> dict:
    """sftwave vs scipy vs OpenCV GaussianBlur on a float32 image, mode 'reflect'."""
    import cv2

    size = 256 if quick else 2048
    reps = 3 if quick else 7
    img = test_image(size)
    dst = np.empty_like(img)
    memcpy, _ = timing(lambda: np.copyto(dst, img), repeats=reps)
    rows = []
    for sigma in (2.0, 8.0, 32.0, 128.0):
        ref = reference2d(img, sigma)
        ksize = 2 * int(4.0 * sigma + 0.5) + 1  # scipy's radius at truncate=4
        slow_reps = 3 if (sigma >= 128 and not quick) else reps
        sft, y = timing(lambda: sftwave.gaussian_filter(img, sigma), repeats=reps)
        sci, ys = timing(lambda: ndi.gaussian_filter(img, sigma), repeats=slow_reps)
        ocv, yc = timing(lambda: cv2.GaussianBlur(img, (ksize, ksize), sigmaX=sigma, sigmaY=sigma,
                                                  borderType=cv2.BORDER_REFLECT),
                         repeats=slow_reps)
        row = _simpleitk(img, sigma, reps if sigma < 128 or quick else 3)
        rows.append({
            **row,
            "sigma": sigma,
            "opencv_ksize": ksize,
            "sftwave_path": _path_name(sigma, 0),
            "sftwave": sft,
            "scipy": sci,
            "opencv": ocv,
            "ratio_scipy_over_sftwave": sci["median_ms"] / sft["median_ms"],
            "ratio_opencv_over_sftwave": ocv["median_ms"] / sft["median_ms"],
            "ratio_sftwave_over_memcpy": sft["median_ms"] / memcpy["median_ms"],
            "sftwave_rel_rmse": rel_rmse(y, ref),
            "scipy_rel_rmse": rel_rmse(ys, ref),
            "opencv_rel_rmse": rel_rmse(yc, ref),
            "opencv_vs_scipy_rel_rmse": rel_rmse(yc, ys),
        })
    # which OpenCV border is scipy's 'reflect' (d c b a | a b c d)?
    small = test_image(64)[:40, :50]
    sp = ndi.gaussian_filter(small.astype(np.float64), 6.0)
    k6 = 2 * int(24.5) + 1
    borders = {
        name: rel_rmse(cv2.GaussianBlur(small.astype(np.float64), (k6, k6), 6.0, 6.0,
                                        borderType=getattr(cv2, name)), sp)
        for name in ("BORDER_REFLECT", "BORDER_REFLECT_101")
    }
    return {
        "shape": [size, size],
        "dtype": "float32",
        "image": f"pywt.data.camera() (512x512), bicubic resize to {size}x{size}",
        "opencv_threads": cv2.getNumThreads(),
        "numba_threads": sftwave.get_workers(),
        "memcpy_ms": memcpy["median_ms"],
        "rows": rows,
        "border_check_rel_rmse_vs_scipy_reflect": borders,
    }


def _simpleitk(img: np.ndarray, sigma: float, reps: int) -> dict:
    """SimpleITK's recursive Gaussian (Deriche, 4th order) against sftwave, both in mode 'nearest'.

    SimpleITK extends the image by its edge values (measured: its output is
    closest to scipy's 'nearest'), so both are judged against the exact filter
    with that extension.  Empty if SimpleITK is not installed.
    """
    try:
        import SimpleITK as sitk
    except ImportError:
        return {}
    im = sitk.GetImageFromArray(img)
    ref = reference2d(img, sigma, mode="nearest")
    itk, yi = timing(lambda: sitk.SmoothingRecursiveGaussian(im, sigma), repeats=reps)
    near, yn = timing(lambda: sftwave.gaussian_filter(img, sigma, mode="nearest"), repeats=reps)
    return {
        "simpleitk": itk,
        "simpleitk_threads": sitk.ProcessObject.GetGlobalDefaultNumberOfThreads(),
        "sftwave_nearest": near,
        "ratio_simpleitk_over_sftwave_nearest": itk["median_ms"] / near["median_ms"],
        "simpleitk_rel_rmse_nearest": rel_rmse(sitk.GetArrayViewFromImage(yi), ref),
        "sftwave_rel_rmse_nearest": rel_rmse(yn, ref),
    }


def crossover(quick: bool) -> dict:
    """Direct FIR vs the 'iir1' bank at small sigma: cost per tap and per bank order.

    The bank is timed with numba's default thread count and with one thread
    (scipy's direct FIR always runs on one).
    """
    n = 100_000 if quick else 1_000_000
    reps = 5 if quick else 15
    threads = sftwave.get_workers()
    x = random_walk(n, seed=2)
    rows = []
    for sigma in (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0):
        for order in (0, 1, 2):
            taps = _plan(sigma, order, method="fir").size
            row = {"sigma": sigma, "order": order, "taps": taps,
                   "auto_path": _path_name(sigma, order)}
            ref = reference(x, sigma, order)
            d, yd = timing(lambda: sftwave.gaussian_filter1d(x, sigma, order=order,
                                                             method="fir"), repeats=reps)
            row["direct_ms"] = d["median_ms"]
            row["direct_rel_rmse"] = rel_rmse(yd, ref)
            row["direct_ns_per_sample_per_tap"] = 1e6 * d["median_ms"] / (n * taps)
            try:
                plan = _plan(sigma, order, method="bank")
            except ValueError as exc:
                row["bank_error"] = str(exc)
                rows.append(row)
                continue
            orders = _bank_orders(plan)
            row.update({"bank_orders": orders, "taps_per_order": taps / orders})
            bank = lambda: sftwave.gaussian_filter1d(x, sigma, order=order,  # noqa: E731
                                                     method="bank", bank_method="iir1")
            b, yb = timing(bank, repeats=reps)
            row["bank_rel_rmse"] = rel_rmse(yb, ref)
            for suffix, b in (("", b), ("_1thread", timing_1thread(bank, repeats=reps))):
                row.update({
                    f"bank{suffix}_ms": b["median_ms"],
                    f"bank{suffix}_ns_per_sample_per_order": 1e6 * b["median_ms"] / (n * orders),
                    f"faster{suffix}": "direct" if d["median_ms"] < b["median_ms"] else "bank",
                })
            rows.append(row)
    both = [r for r in rows if "bank_ms" in r]
    return {"n": n, "dtype": "float64", "numba_threads": threads,
            "current_DIRECT_TAPS_PER_ORDER": DIRECT_TAPS_PER_ORDER,
            "current_effective_D": FIR_TAPS_PER_ORDER,
            "rows": rows,
            "break_even": break_even(both, "", threads),
            "break_even_1thread": break_even(both, "_1thread", 1)}


def break_even(rows: list[dict], suffix: str, threads: int) -> dict:
    """The threshold D of the rule 'direct if taps <= D * orders' that the timings support.

    The total time of the measured cases is a step function of D, constant on
    [r_i, r_i+1) between consecutive measured ratios r = taps / orders;
    ``best_D_interval`` is the interval (the middle one of ties) where it is
    least, ``best_D`` its midpoint (its lower end if it is open above).
    ``cost_ratio_D`` is the plain cost model: median bank time per sample per
    order over median direct time per sample per tap.  ``suffix`` selects the
    bank timings ('' or '_1thread'); the current rule's D is
    ``FIR_TAPS_PER_ORDER``, the same for every thread count (plans never depend on it).
    """
    bank = f"bank{suffix}_ms"
    faster = f"faster{suffix}"
    ratios = sorted({r["taps_per_order"] for r in rows})
    cands = [0.0] + ratios

    def total(D):
        return sum(r["direct_ms"] if r["taps_per_order"] <= D else r[bank] for r in rows)

    costs = [total(D) for D in cands]
    best = min(costs)
    good = [i for i, c in enumerate(costs) if c <= best * (1 + 1e-12)]
    i = good[len(good) // 2]
    lo = cands[i]
    hi = cands[i + 1] if i + 1 < len(cands) else None
    direct_wins = [r["taps_per_order"] for r in rows if r[faster] == "direct"]
    bank_wins = [r["taps_per_order"] for r in rows if r[faster] == "bank"]
    per_tap = statistics.median(r["direct_ns_per_sample_per_tap"] for r in rows)
    per_order = statistics.median(r[f"bank{suffix}_ns_per_sample_per_order"] for r in rows)
    return {
        "best_D": lo if hi is None else 0.5 * (lo + hi),
        "best_D_interval": [lo, hi],
        "cost_ratio_D": per_order / per_tap,
        "direct_wins_up_to_taps_per_order": max(direct_wins, default=None),
        "bank_wins_from_taps_per_order": min(bank_wins, default=None),
        "median_direct_ns_per_sample_per_tap": per_tap,
        "median_bank_ns_per_sample_per_order": per_order,
        "total_ms_current_rule": total(FIR_TAPS_PER_ORDER),
        "total_ms_best_rule": best,
    }


def bank_methods(quick: bool) -> dict:
    """Every bank method with the SFT and the ASFT at sigma 128, time and accuracy."""
    n = 50_000 if quick else 1_000_000
    reps = 5 if quick else 15
    sigma = 128.0
    x = random_walk(n, seed=0)
    ref = reference(x, sigma)
    rows = []
    for transform in ("sft", "asft"):
        plan = _plan(sigma, 0, transform=transform, method="bank")
        for method in numba_bank.METHODS:
            row = {"method": method, "transform": transform, "bank_orders": _bank_orders(plan)}
            call = lambda: sftwave.gaussian_filter1d(x, sigma, method="bank",  # noqa: E731
                                                     bank_method=method, transform=transform)
            try:
                t, y = timing(call, repeats=reps)
            except ValueError as exc:
                row["error"] = str(exc)
            else:
                row.update({"time": t, "time_1thread": timing_1thread(call, repeats=reps),
                            "rel_rmse": rel_rmse(y, ref)})
            rows.append(row)
    return {"n": n, "sigma": sigma, "order": 0, "dtype": "float64",
            "numba_threads": sftwave.get_workers(), "rows": rows}


_FIRST_CALL_SCRIPT = r"""
import json, time
t0 = time.perf_counter()
import numpy as np
import sftwave
from sftwave.engines.numba import ENGINE
from sftwave.plans import select_gaussian
t1 = time.perf_counter()
x = np.cumsum(np.random.default_rng(0).standard_normal({n}))
img = np.ones(({m}, {m}), np.float32)
t2 = time.perf_counter()
select_gaussian(128.0, 0, fir_taps_per_order=ENGINE.fir_taps_per_order())
t3 = time.perf_counter()
sftwave.gaussian_filter1d(x, 128.0)
t4 = time.perf_counter()
sftwave.gaussian_filter1d(x, 128.0)
t5 = time.perf_counter()
sftwave.gaussian_filter(img, 32.0)
t6 = time.perf_counter()
sftwave.gaussian_filter(img, 32.0)
t7 = time.perf_counter()
print(json.dumps(dict(import_ms=1e3 * (t1 - t0), plan_ms=1e3 * (t3 - t2),
                      first_call_1d_ms=1e3 * (t4 - t3), second_call_1d_ms=1e3 * (t5 - t4),
                      first_call_2d_float32_ms=1e3 * (t6 - t5),
                      second_call_2d_float32_ms=1e3 * (t7 - t6))))
"""


def first_call(quick: bool) -> dict:
    """Import, plan design and first calls in fresh interpreters, cold and cached numba cache.

    Both runs use the same new, empty ``NUMBA_CACHE_DIR``: the first compiles
    every kernel and fills it, the second loads the compiled kernels from it.
    """
    n, m = (50_000, 256) if quick else (1_000_000, 2048)
    script = _FIRST_CALL_SCRIPT.format(n=n, m=m)
    runs = {}
    with tempfile.TemporaryDirectory(prefix="sftwave-numba-cache-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for state in ("cold", "cached"):
            proc = subprocess.run([sys.executable, "-c", script], env=env, check=True,
                                  capture_output=True, text=True)
            runs[state] = json.loads(proc.stdout.strip().splitlines()[-1])
    return {"n_1d": n, "shape_2d": [m, m], "sigma_1d": 128.0, "sigma_2d": 32.0,
            "numba_cache": "new empty NUMBA_CACHE_DIR; 'cold' fills it, 'cached' loads from it",
            **runs}
