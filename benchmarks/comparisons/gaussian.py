"""Gaussian smoothing and derivatives: sftwave against scipy.ndimage, OpenCV and SimpleITK.

Every section is one function returning a JSON-ready dict.  Times are medians
over repetitions after a warm-up call (numba compilation and the plan caches
are excluded; :func:`first_call` measures them in fresh processes).
Accuracies are relative RMSEs against an exact float64 reference: the
convolution, by FFT, of the reflect-extended signal with scipy's sampled
Gaussian kernel truncated at 12 sigma (what
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
from functools import partial

import numpy as np
import scipy.ndimage as ndi
import scipy.signal

import sftwave
from sftwave.engines.numba import DIRECT_TAPS_PER_ORDER, ENGINE, FIR_TAPS_PER_ORDER, fir_rows
from sftwave.engines.numba import bank as numba_bank
from sftwave.plans import FIRPlan, WidePlan, select_gaussian

from .common import alternate, anchor, load_average, measure, rel_rmse, timed_ms

REF_TRUNCATE = 12.0


# ----------------------------------------------------------------------------- helpers


def timed_1thread(fn, *, repeats: int) -> dict:
    """:func:`~.common.timed_ms` with sftwave limited to one thread (scipy's FIR always runs on one)."""
    with sftwave.set_workers(1):
        return timed_ms(fn, repeats=repeats)[0]


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


def test_image(size: int) -> tuple[np.ndarray, str]:
    """pywt's 512x512 'camera' image resized to size x size, float32 in [0, 255], and its description.

    The resize is OpenCV's bicubic one; without OpenCV, scipy's cubic spline
    zoom; without PyWavelets, a smooth random field stands in for the camera.
    """
    pywt = anchor("PyWavelets")
    if pywt is not None:
        cam, what = pywt.data.camera().astype(np.float32), "pywt.data.camera() (512x512)"
    else:
        rng = np.random.default_rng(5)
        cam = rng.standard_normal((512, 512)).cumsum(0).cumsum(1)
        cam = (255 * (cam - cam.min()) / (cam.max() - cam.min())).astype(np.float32)
        what = "a smooth random field (PyWavelets' camera image not installed)"
    cv2 = anchor("OpenCV")
    if cv2 is not None:
        return (cv2.resize(cam, (size, size), interpolation=cv2.INTER_CUBIC),
                f"{what}, bicubic resize to {size}x{size}")
    img = ndi.zoom(cam, size / cam.shape[0], order=3).astype(np.float32)
    return img, f"{what}, cubic spline zoom (scipy) to {size}x{size}"


def _plan(sigma: float, order: int, **kw):
    """The plan sftwave's CPU engine selects for one axis of float64 data (the FIR or the
    bank; no signal length given, so never the wide-kernel limit)."""
    return select_gaussian(sigma, order, fir_taps_per_order=ENGINE.fir_taps_per_order(),
                           design_taps_per_order=ENGINE.design_taps_per_order_for(
                               np.float64, None, order), **kw)


def _path_name(sigma: float, order: int, **kw) -> str:
    """'direct' (the FIR) or 'bank:<bank method>'."""
    plan = _plan(sigma, order, **kw)
    return "direct" if isinstance(plan, FIRPlan) else f"bank:{numba_bank.resolve_method('auto')}"


def _bank_orders(plan) -> int:
    """Cost of a plan in the 'auto' rule's orders: one per frequency, plus one of fixed work."""
    return int(plan.omegas.size) + 1


# ----------------------------------------------------------------------------- sections


def reference_check(quick: bool) -> dict:
    """The FFT reference against scipy with truncate=12 (1-D, orders 0-2, and 2-D)."""
    x = random_walk(20_000, seed=1)
    worst = 0.0
    for sigma in (3.0, 40.0):
        for order in (0, 1, 2):
            ref = ndi.gaussian_filter1d(x, sigma, order=order, truncate=REF_TRUNCATE)
            worst = max(worst, rel_rmse(reference(x, sigma, order), ref))
    img = test_image(256)[0].astype(np.float64)
    ref = ndi.gaussian_filter(img, 20.0, truncate=REF_TRUNCATE)
    worst = max(worst, rel_rmse(reference2d(img, 20.0), ref))
    return {"max_rel_rmse_fft_vs_scipy_truncate12": worst}


def floor_1d(x: np.ndarray, repeats: int) -> dict:
    """What any filter must at least spend: copying the data."""
    dst = np.empty_like(x)
    memcpy, _ = timed_ms(lambda: np.copyto(dst, x), repeats=repeats)
    fresh, _ = timed_ms(lambda: np.copyto(np.empty_like(x), x), repeats=repeats)
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
    sigmas = (2.0, 128.0, 2048.0) if quick else (2.0, 8.0, 32.0, 128.0, 512.0, 2048.0)
    cases = [(s, 0) for s in sigmas] + [(128.0, 1), (128.0, 2)]
    rows = []
    threads = sftwave.get_workers()
    for sigma, order in cases:
        ref = reference(x, sigma, order)
        ours = partial(sftwave.gaussian_filter1d, x, sigma, order=order)
        sft, y = timed_ms(ours, repeats=reps)
        sft1 = timed_1thread(ours, repeats=reps)
        srep, swarm = _scipy_repeats(sigma, quick)
        sci, ys = timed_ms(partial(ndi.gaussian_filter1d, x, sigma, order=order),
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


def _long_line_path(x: np.ndarray, plan, sigma: float) -> str:
    """Which kernel filters the line ``x``: the pieces, the lane engine or the bank."""
    from sftwave.engines.numba import filters

    if isinstance(plan, (FIRPlan, WidePlan)):
        return _path_name(sigma, 0)
    if filters._pieces_pay(x[None], plan):
        return "pieces"
    return "lanes" if filters._lanes_pay(x[None], plan) else _path_name(sigma, 0)


#: The sigmas of :func:`flat_sigma`: windows from 73 to 75,667 samples on 1e6.
FLAT_SIGMAS = (8.0, 32.0, 128.0, 512.0, 1024.0, 2048.0, 4096.0, 8192.0)


def flat_sigma(quick: bool) -> dict:
    """gaussian_filter1d of 1e6 float64 at sigma 8 .. 8192, all threads and one, against a memcpy
    of the input and scipy at sigma 128, the calls taking turns in one run."""
    n = 1_000_000
    rounds = 3 if quick else 21
    x = random_walk(n, seed=0)
    dst = np.empty_like(x)
    threads = sftwave.get_workers()

    def one_thread(sigma):
        def call():
            with sftwave.set_workers(1):
                return sftwave.gaussian_filter1d(x, sigma)
        return call

    calls = {"memcpy": lambda: np.copyto(dst, x)}
    for sigma in FLAT_SIGMAS:
        calls[f"sftwave {sigma:g}"] = partial(sftwave.gaussian_filter1d, x, sigma)
        calls[f"sftwave_1thread {sigma:g}"] = one_thread(sigma)
    t = alternate(calls, rounds)
    sci = alternate({"scipy": partial(ndi.gaussian_filter1d, x, 128.0)}, 1 if quick else 3)["scipy"]
    memcpy = 1e3 * t["memcpy"]["median_s"]
    rows = []
    for sigma in FLAT_SIGMAS:
        ours = 1e3 * t[f"sftwave {sigma:g}"]["median_s"]
        ours1 = 1e3 * t[f"sftwave_1thread {sigma:g}"]["median_s"]
        plan = _plan(sigma, 0)
        rows.append({"sigma": sigma,
                     "window": None if isinstance(plan, (FIRPlan, WidePlan)) else int(plan.length),
                     "sftwave_path": _long_line_path(x, plan, sigma),
                     "sftwave_ms": ours, "sftwave_1thread_ms": ours1,
                     "ratio_sftwave_over_memcpy": ours / memcpy})
    at128 = next(r for r in rows if r["sigma"] == 128.0)
    t_all = [r["sftwave_ms"] for r in rows]
    t_one = [r["sftwave_1thread_ms"] for r in rows]
    return {
        "n": n, "dtype": "float64", "rounds": rounds, "numba_threads": threads,
        "memcpy_ms": memcpy, "scipy_sigma128_ms": 1e3 * sci["median_s"],
        "ratio_scipy_over_sftwave_sigma128": 1e3 * sci["median_s"] / at128["sftwave_ms"],
        "rows": rows,
        "sftwave_max_over_min": max(t_all) / min(t_all),
        "sftwave_1thread_max_over_min": max(t_one) / min(t_one),
    }


def gaussian2d(quick: bool) -> dict:
    """sftwave vs scipy vs OpenCV GaussianBlur on a float32 image, mode 'reflect'; SimpleITK."""
    cv2 = anchor("OpenCV")
    size = 256 if quick else 2048
    reps = 3 if quick else 7
    img, what = test_image(size)
    dst = np.empty_like(img)
    memcpy, _ = timed_ms(lambda: np.copyto(dst, img), repeats=reps)
    rows = []
    for sigma in (2.0, 4.0, 8.0, 32.0, 128.0):
        ref = reference2d(img, sigma)
        ksize = 2 * int(4.0 * sigma + 0.5) + 1  # scipy's radius at truncate=4
        slow_reps = 3 if (sigma >= 128 and not quick) else reps
        sft, y = timed_ms(partial(sftwave.gaussian_filter, img, sigma), repeats=reps)
        sci, ys = timed_ms(partial(ndi.gaussian_filter, img, sigma), repeats=slow_reps)
        row = _simpleitk(img, sigma, reps if sigma < 128 or quick else 3)
        row.update({
            "sigma": sigma,
            "opencv_ksize": ksize,
            "sftwave_path": _auto_path(img, sigma),
            "sftwave": sft,
            "scipy": sci,
            "ratio_scipy_over_sftwave": sci["median_ms"] / sft["median_ms"],
            "ratio_sftwave_over_memcpy": sft["median_ms"] / memcpy["median_ms"],
            "sftwave_rel_rmse": rel_rmse(y, ref),
            "scipy_rel_rmse": rel_rmse(ys, ref),
        })
        if cv2 is not None:
            ocv, yc = timed_ms(partial(cv2.GaussianBlur, img, (ksize, ksize), sigmaX=sigma,
                                       sigmaY=sigma, borderType=cv2.BORDER_REFLECT),
                               repeats=slow_reps)
            row.update({"opencv": ocv,
                        "ratio_opencv_over_sftwave": ocv["median_ms"] / sft["median_ms"],
                        "opencv_rel_rmse": rel_rmse(yc, ref),
                        "opencv_vs_scipy_rel_rmse": rel_rmse(yc, ys)})
        rows.append(row)
    out = {
        "shape": [size, size],
        "dtype": "float32",
        "image": what,
        "numba_threads": sftwave.get_workers(),
        "memcpy_ms": memcpy["median_ms"],
        "rows": rows,
    }
    if cv2 is not None:
        # which OpenCV border is scipy's 'reflect' (d c b a | a b c d)?
        small = test_image(64)[0][:40, :50]
        sp = ndi.gaussian_filter(small.astype(np.float64), 6.0)
        k6 = 2 * int(24.5) + 1
        out["opencv_threads"] = cv2.getNumThreads()
        out["border_check_rel_rmse_vs_scipy_reflect"] = {
            name: rel_rmse(cv2.GaussianBlur(small.astype(np.float64), (k6, k6), 6.0, 6.0,
                                            borderType=getattr(cv2, name)), sp)
            for name in ("BORDER_REFLECT", "BORDER_REFLECT_101")
        }
        # BORDER_REFLECT_101 (d c b | a b c d) is scipy's 'mirror'
        mp = ndi.gaussian_filter(small.astype(np.float64), 6.0, mode="mirror")
        out["border_check_rel_rmse_vs_scipy_mirror"] = {
            name: rel_rmse(cv2.GaussianBlur(small.astype(np.float64), (k6, k6), 6.0, 6.0,
                                            borderType=getattr(cv2, name)), mp)
            for name in ("BORDER_REFLECT", "BORDER_REFLECT_101")
        }
    return out


def _simpleitk(img: np.ndarray, sigma: float, reps: int) -> dict:
    """SimpleITK's recursive Gaussian (Deriche, 4th order) against sftwave, both in mode 'nearest'.

    SimpleITK extends the image by its edge values (measured: its output is
    closest to scipy's 'nearest'), so both are judged against the exact filter
    with that extension.  Empty if SimpleITK is not installed.
    """
    sitk = anchor("SimpleITK")
    if sitk is None:
        return {}
    im = sitk.GetImageFromArray(img)
    ref = reference2d(img, sigma, mode="nearest")
    itk, yi = timed_ms(lambda: sitk.SmoothingRecursiveGaussian(im, sigma), repeats=reps)
    near, yn = timed_ms(lambda: sftwave.gaussian_filter(img, sigma, mode="nearest"), repeats=reps)
    return {
        "simpleitk": itk,
        "simpleitk_threads": sitk.ProcessObject.GetGlobalDefaultNumberOfThreads(),
        "sftwave_nearest": near,
        "ratio_simpleitk_over_sftwave_nearest": itk["median_ms"] / near["median_ms"],
        "simpleitk_rel_rmse_nearest": rel_rmse(sitk.GetArrayViewFromImage(yi), ref),
        "sftwave_rel_rmse_nearest": rel_rmse(yn, ref),
    }


def photo(shape: tuple[int, int], seed: int = 11) -> np.ndarray:
    """A photo-like RGB uint8 image: smooth shading, hard-edged shapes, fine texture and noise.

    The camera image (:func:`test_image`) resized for the luminance where it is
    available, tinted per channel; discs and bars with hard edges; a woven
    texture; sensor noise.
    """
    h, w = shape
    rng = np.random.default_rng(seed)
    lum = test_image(max(h, w))[0][:h, :w] / 255.0
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    img = np.empty((h, w, 3), np.float32)
    for c, (tint, phase) in enumerate(((1.0, 0.0), (0.8, 1.0), (0.6, 2.0))):
        img[..., c] = tint * lum + 0.15 * np.sin(xx / 37.0 + phase) * np.cos(yy / 53.0)
    for _ in range(12):                                     # hard-edged discs and bars
        cy, cx, r = rng.uniform(0, h), rng.uniform(0, w), rng.uniform(0.03, 0.12) * min(h, w)
        disc = (yy - cy) ** 2 + (xx - cx) ** 2 < r * r
        img[disc] = rng.uniform(0, 1, 3)
        y0 = int(rng.uniform(0, h))
        img[y0:y0 + int(r / 4), :] = rng.uniform(0, 1, 3)
    img += 0.08 * (np.sin(xx * 1.3) * np.sin(yy * 1.7))[..., None]      # fine texture
    img += 0.03 * rng.standard_normal(img.shape).astype(np.float32)      # sensor noise
    return (255.0 * np.clip(img, 0.0, 1.0)).astype(np.uint8)


def _auto_path(a: np.ndarray, sigma) -> str:
    """What ``method='auto'`` runs for ``gaussian_filter(a, sigma)`` (per filtered axis).

    'fir32-rows': the float32 FIR over blocks of rows (every axis a FIR, a dtype it takes);
    'fir': scipy's float64 arithmetic; 'bank:<method>'.
    """
    sig = np.broadcast_to(np.asarray(sigma, dtype=float), (a.ndim,))
    names = set()
    for ax, s in enumerate(sig):
        if s <= 1e-15:
            continue
        cost = ENGINE.fir_taps_per_order_for(a.dtype, None, 0, a.ndim)
        plan = select_gaussian(float(s), 0, n=a.shape[ax], wide=True, fir_taps_per_order=cost)
        names.add("fir" if isinstance(plan, FIRPlan)
                  else "wide" if isinstance(plan, WidePlan)
                  else f"bank:{numba_bank.resolve_method('auto')}")
    if names == {"fir"} and a.dtype in fir_rows.INPUT_DTYPES and a.ndim >= 2:
        return "fir32-rows"
    return "+".join(sorted(names))


def _opencv_call(cv2, a: np.ndarray, sigma):
    """OpenCV's GaussianBlur at scipy's radius (truncate 4) and BORDER_REFLECT (scipy's 'reflect'),
    for a 2-D image or an image with channels last (sigma 0 on them); None otherwise."""
    sig = np.broadcast_to(np.asarray(sigma, dtype=float), (a.ndim,))
    if a.ndim == 3 and (sig[2] != 0 or a.shape[2] > 4):
        return None
    if a.ndim not in (2, 3) or a.dtype not in (np.uint8, np.uint16, np.float32):
        return None
    sy, sx = float(sig[0]), float(sig[1])
    ky, kx = 2 * int(4.0 * sy + 0.5) + 1, 2 * int(4.0 * sx + 0.5) + 1
    return partial(cv2.GaussianBlur, a, (kx, ky), sigmaX=sx, sigmaY=sy,
                   borderType=cv2.BORDER_REFLECT)


def everyday(quick: bool) -> dict:
    """Everyday Gaussian calls: small-sigma images of every dtype, a volume, a strided view."""
    rng = np.random.default_rng(3)
    side = 256 if quick else 1024
    img = rng.standard_normal((side, side)).cumsum(0).cumsum(1)
    img = (img - img.min()) / (img.max() - img.min())
    vol = rng.random((16, 64, 64) if quick else (64, 256, 256)).astype(np.float32)
    line = np.cumsum(rng.standard_normal(100_000 if quick else 1_000_000))
    cases = [
        ("2-D float32, sigma 1", img.astype(np.float32), 1.0, {}),
        ("2-D float32, sigma 2", img.astype(np.float32), 2.0, {}),
        ("2-D float32, sigma 8", img.astype(np.float32), 8.0, {}),
        ("2-D float64, sigma 2", img, 2.0, {}),
        ("2-D uint8, sigma 2", (img * 255).astype(np.uint8), 2.0, {}),
        ("2-D uint16, sigma 2", (img * 65535).astype(np.uint16), 2.0, {}),
        ("2-D float64 strided view, sigma 2", np.vstack([img, img])[::2, :], 2.0, {}),
        ("3-D float32, sigma (1, 3, 3)", vol, (1.0, 3.0, 3.0), {}),
        ("1-D float64, sigma 128, truncate 8", line, 128.0, {"truncate": 8.0}),
        ("1-D float64, sigma 128", line, 128.0, {}),
    ]
    # the rows of the small-sigma targets: 2048 x 2048 images, an RGB photo, volumes
    big = test_image(256 if quick else 2048)[0]
    for s in (2.0, 4.0, 8.0):
        cases.append((f"2-D float32 {big.shape[0]}, sigma {s:g}", big, s, {}))
    big8 = np.round(big).clip(0, 255).astype(np.uint8)
    for s in (1.0, 2.0, 4.0):
        cases.append((f"2-D uint8 {big.shape[0]}, sigma {s:g}", big8, s, {}))
    rgb = photo((300, 200) if quick else (3000, 2000))
    for s in (1.0, 2.0, 4.0):
        cases.append((f"RGB photo uint8, sigma ({s:g}, {s:g}, 0)", rgb, (s, s, 0.0), {}))
    vshape = (16, 64, 64) if quick else (128, 512, 512)
    v32 = rng.random(vshape, dtype=np.float32).cumsum(2, dtype=np.float32)
    v32 = (v32 / v32.max()).astype(np.float32)
    v16 = (v32 * 4095).astype(np.uint16)                 # a 12-bit scanner's range
    for vol, name in ((v32, "float32"), (v16, "uint16")):
        for s in (1.0, 2.0, 3.0, 4.0, (1.0, 3.0, 3.0)):
            label = f"volume {name}, sigma {s if isinstance(s, tuple) else f'{s:g}'}"
            cases.append((label, vol, s, {"heavy": True}))
    strided = np.concatenate([v16, v16], axis=2)[:, ::2, ::2] if not quick else v16[:, ::2, ::2]
    cases.append(("volume uint16 strided view [:, ::2, ::2], sigma 2", strided, 2.0, {"heavy": True}))
    cv2 = anchor("OpenCV")
    res: dict = {"load_start": load_average(), "cases": []}
    for label, a, sigma, kw in cases:
        kw = dict(kw)
        heavy = kw.pop("heavy", False)
        fn = sftwave.gaussian_filter1d if a.ndim == 1 else sftwave.gaussian_filter
        ref = ndi.gaussian_filter1d if a.ndim == 1 else ndi.gaussian_filter
        calls = {"sftwave": partial(fn, a, sigma, **kw), "scipy": partial(ref, a, sigma, **kw)}
        ocv = _opencv_call(cv2, a, sigma) if cv2 is not None and not kw else None
        if ocv is not None:
            calls["OpenCV"] = ocv
        if heavy:
            # the forced methods too: 'auto' must be within 10 % of the best of them
            for m in ("fir", "bank"):
                try:
                    fn(a[:2], sigma, method=m)      # the bank has no plan at the smallest sigmas
                except ValueError:
                    continue
                calls[f"sftwave {m}"] = partial(fn, a, sigma, method=m)
        t = alternate(calls, 3 if (quick or heavy) else 9)
        if heavy:
            # volumes: no float64 reference at truncate 12 (minutes each); tests/test_fir_rows.py
            # checks this path's accuracy against dense float64 sums
            exact = got = mine = None
        else:
            exact = ref(a.astype(np.float64), sigma, truncate=12.0)
            got = fn(a, sigma, **kw).astype(np.float64)
            mine = ref(a, sigma, **kw).astype(np.float64)
        row = {"case": label, "shape": list(a.shape), "dtype": str(a.dtype),
               "path": _auto_path(a, sigma) if a.ndim > 1 and not kw else None,
               "times": t,
               "scipy_over_sftwave": t["scipy"]["median_s"] / t["sftwave"]["median_s"],
               "opencv_over_sftwave": (t["OpenCV"]["median_s"] / t["sftwave"]["median_s"]
                                       if "OpenCV" in t else None),
               "error_sftwave": None if heavy else rel_rmse(got, exact),
               "error_scipy": None if heavy else rel_rmse(mine, exact)}
        if ocv is not None and not heavy:
            row["error_opencv"] = rel_rmse(ocv().astype(np.float64), exact)
        if heavy:
            forced = {k.split()[1]: t[k]["median_s"] for k in ("sftwave fir", "sftwave bank")
                      if k in t}
            best = min(forced, key=forced.get)
            row["best_forced"] = best
            # what 'auto' runs, as a forced method: the same computation when they agree (then
            # their times differ by the machine's noise alone)
            row["auto_method"] = "fir" if row["path"] in ("fir", "fir32-rows") else (
                "bank" if row["path"] and row["path"].startswith("bank") else row["path"])
            row["auto_over_best_forced"] = t["sftwave"]["median_s"] / forced[best]
        res["cases"].append(row)
    res["load_end"] = load_average()
    return res


def derivatives(quick: bool) -> dict:
    """gaussian_laplace and gaussian_gradient_magnitude against scipy.ndimage's.

    A 1411 x 1411 float64 image (about two megapixels) and a 64 x 256 x 256
    float32 volume; sftwave and scipy alternate, medians after one untimed
    call; errors against scipy's own function at ``truncate=12``.
    """
    rng = np.random.default_rng(0)
    side = 353 if quick else 1411
    img = np.cumsum(np.cumsum(rng.standard_normal((side, side)), 0), 1) / 50.0
    vshape = (16, 64, 64) if quick else (64, 256, 256)
    vol = rng.standard_normal(vshape).astype(np.float32)
    res = {"load_start": load_average(), "cases": []}
    for func in ("gaussian_laplace", "gaussian_gradient_magnitude"):
        for label, x, sigmas in ((f"{side} x {side} float64", img, (2.0, 20.0, 80.0)),
                                 (" x ".join(map(str, vshape)) + " float32", vol, (3.0, 12.0))):
            for sigma in sigmas:
                ours, theirs = getattr(sftwave, func), getattr(ndi, func)
                t = alternate({"sftwave": partial(ours, x, sigma), "scipy": partial(theirs, x, sigma)},
                              2 if quick else (5 if x.size < 3e6 else 3))
                exact = theirs(x.astype(np.float64), sigma, truncate=12.0)
                res["cases"].append({
                    "function": func, "input": label, "sigma": sigma, "times": t,
                    "scipy_over_sftwave": t["scipy"]["median_s"] / t["sftwave"]["median_s"],
                    "error_sftwave": rel_rmse(ours(x, sigma), exact),
                    "error_scipy": rel_rmse(theirs(x, sigma), exact)})
    res["load_end"] = load_average()
    return res


def nonfinite(quick: bool) -> dict:
    """What non-finite input costs: the finite check on every call, the confined and omit paths.

    In one run, alternating over 7 rounds, medians after one untimed call
    each, all threads: *finite* (the public function on finite input: the
    check, then the engine); *unchecked* (the engine's ``all_finite`` patched
    to answer True without reading: ``finite / unchecked - 1`` is the check's
    overhead, within the noise of two timings); *check* (the check alone,
    median of 21 calls); *one NaN* (one NaN in the middle: the confined path);
    *omit 1 %* (1 % NaN with ``nan_policy='omit'``); scipy.ndimage on the
    input with one NaN where scipy has the function.
    """
    from sftwave import engines

    numba_engine = engines.get("numba")
    real_check = numba_engine.all_finite
    rng = np.random.default_rng(0)
    line = rng.standard_normal(10**5 if quick else 10**6)
    img = rng.standard_normal((512, 512) if quick else (2048, 2048)).astype(np.float32)
    eeg = rng.standard_normal((2, 8, 2000) if quick else (10, 32, 2000))
    freqs = np.geomspace(4.0, 40.0, 30)

    def with_nan(a, frac=None):
        b = a.copy()
        flat = b.reshape(-1)
        if frac is None:
            flat[flat.size // 2] = np.nan
        else:
            flat[rng.random(flat.size) < frac] = np.nan
        return b

    cases = [
        (f"1-D float64 N={line.size:.0e}".replace("e+0", "e"), line,
         lambda a, **k: sftwave.gaussian_filter1d(a, 128.0, **k),
         lambda a: ndi.gaussian_filter1d(a, 128.0), "sigma 128"),
        ("2-D float32 {}x{}".format(*img.shape), img,
         lambda a, **k: sftwave.gaussian_filter(a, 8.0, **k),
         lambda a: ndi.gaussian_filter(a, 8.0), "sigma 8"),
        ("EEG cwt {}x{}x{} float64".format(*eeg.shape), eeg,
         lambda a, **k: sftwave.cwt(a, freqs, 500.0, output="power", decim=4, **k), None,
         "30 freqs, power, decim 4"),
    ]
    rounds = 2 if quick else 7
    results: dict = {"load_start": load_average(), "rounds": rounds, "cases": {}}
    for label, x, ours, scipy_call, what in cases:
        one_nan, gappy = with_nan(x), with_nan(x, 0.01)
        calls = {
            "finite": partial(ours, x),
            "one NaN": partial(ours, one_nan),
            "omit 1 %": partial(ours, gappy, nan_policy="omit"),
        }
        if scipy_call is not None:
            calls["scipy, one NaN"] = partial(scipy_call, one_nan)
        t = {k: [] for k in [*calls, "unchecked"]}
        for _ in range(rounds):
            for key, call in calls.items():
                t[key].append(measure(call, repeats=1)["median_s"])
            numba_engine.all_finite = lambda a: True
            try:
                t["unchecked"].append(measure(calls["finite"], repeats=1)["median_s"])
            finally:
                numba_engine.all_finite = real_check
        med = {k: float(np.median(v)) for k, v in t.items()}
        med["check"] = measure(partial(real_check, x), repeats=21)["median_s"]
        res = {f"{k}_ms": 1e3 * v for k, v in med.items()}
        res["check_overhead"] = med["finite"] / med["unchecked"] - 1.0
        res["check_share"] = med["check"] / med["finite"]
        res["one_nan_over_finite"] = med["one NaN"] / med["finite"]
        res["omit_over_finite"] = med["omit 1 %"] / med["finite"]
        if "scipy, one NaN" in med:
            res["scipy_over_ours_one_nan"] = med["scipy, one NaN"] / med["one NaN"]
        results["cases"][f"{label}, {what}"] = res
    results["load_end"] = load_average()
    return results


def crossover(quick: bool) -> dict:
    """Direct FIR vs the 'iir1' bank at small sigma: cost per tap and per bank order.

    Both are timed with numba's default thread count and with one thread (the
    FIR shares a line's blocks of outputs among the threads, the bank its pieces).
    """
    n = 100_000 if quick else 1_000_000
    reps = 5 if quick else 15
    threads = sftwave.get_workers()
    x = random_walk(n, seed=2)
    rows = []
    sigmas = (0.5, 2.0, 4.0) if quick else (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0)
    for sigma in sigmas:
        for order in (0, 1, 2):
            taps = _plan(sigma, order, method="fir").size
            row = {"sigma": sigma, "order": order, "taps": taps,
                   "auto_path": _path_name(sigma, order)}
            ref = reference(x, sigma, order)
            direct = partial(sftwave.gaussian_filter1d, x, sigma, order=order, method="fir")
            d, yd = timed_ms(direct, repeats=reps)
            d1 = timed_1thread(direct, repeats=reps)
            row["direct_rel_rmse"] = rel_rmse(yd, ref)
            for suffix, td in (("", d), ("_1thread", d1)):
                row[f"direct{suffix}_ms"] = td["median_ms"]
                row[f"direct{suffix}_ns_per_sample_per_tap"] = 1e6 * td["median_ms"] / (n * taps)
            try:
                plan = _plan(sigma, order, method="bank")
            except ValueError as exc:
                row["bank_error"] = str(exc)
                rows.append(row)
                continue
            orders = _bank_orders(plan)
            row.update({"bank_orders": orders, "taps_per_order": taps / orders})
            bank = partial(sftwave.gaussian_filter1d, x, sigma, order=order, method="bank",
                           bank_method="iir1")
            b, yb = timed_ms(bank, repeats=reps)
            row["bank_rel_rmse"] = rel_rmse(yb, ref)
            for suffix, tb in (("", b), ("_1thread", timed_1thread(bank, repeats=reps))):
                row.update({
                    f"bank{suffix}_ms": tb["median_ms"],
                    f"bank{suffix}_ns_per_sample_per_order": 1e6 * tb["median_ms"] / (n * orders),
                    f"faster{suffix}": ("direct" if row[f"direct{suffix}_ms"] < tb["median_ms"]
                                        else "bank"),
                })
            rows.append(row)
    both = [r for r in rows if "bank_ms" in r]
    return {"n": n, "dtype": "float64", "numba_threads": threads,
            "current_DIRECT_TAPS_PER_ORDER": DIRECT_TAPS_PER_ORDER,
            "current_effective_D": FIR_TAPS_PER_ORDER,
            "rows": rows,
            "break_even": break_even(both, ""),
            "break_even_1thread": break_even(both, "_1thread")}


def break_even(rows: list[dict], suffix: str) -> dict:
    """The threshold D of the rule 'direct if taps <= D * orders' that the timings support.

    The total time of the measured cases is a step function of D, constant on
    [r_i, r_i+1) between consecutive measured ratios r = taps / orders;
    ``best_D_interval`` is the interval (the middle one of ties) where it is
    least, ``best_D`` its midpoint (its lower end if it is open above).
    ``cost_ratio_D`` is the plain cost model: median bank time per sample per
    order over median direct time per sample per tap.  ``suffix`` selects the
    timings of both paths ('' or '_1thread'); the current rule's D is
    ``FIR_TAPS_PER_ORDER``, the same for every thread count (plans never depend on it).
    """
    bank = f"bank{suffix}_ms"
    direct = f"direct{suffix}_ms"
    faster = f"faster{suffix}"
    ratios = sorted({r["taps_per_order"] for r in rows})
    cands = [0.0] + ratios

    def total(D):
        return sum(r[direct] if r["taps_per_order"] <= D else r[bank] for r in rows)

    costs = [total(D) for D in cands]
    best = min(costs)
    good = [i for i, c in enumerate(costs) if c <= best * (1 + 1e-12)]
    i = good[len(good) // 2]
    lo = cands[i]
    hi = cands[i + 1] if i + 1 < len(cands) else None
    direct_wins = [r["taps_per_order"] for r in rows if r[faster] == "direct"]
    bank_wins = [r["taps_per_order"] for r in rows if r[faster] == "bank"]
    per_tap = statistics.median(r[f"direct{suffix}_ns_per_sample_per_tap"] for r in rows)
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
            call = partial(sftwave.gaussian_filter1d, x, sigma, method="bank",
                           bank_method=method, transform=transform)
            try:
                t, y = timed_ms(call, repeats=reps)
            except ValueError as exc:
                row["error"] = str(exc)
            else:
                row.update({"time": t, "time_1thread": timed_1thread(call, repeats=reps),
                            "rel_rmse": rel_rmse(y, ref)})
            rows.append(row)
    return {"n": n, "sigma": sigma, "order": 0, "dtype": "float64",
            "numba_threads": sftwave.get_workers(), "rows": rows}


# ----------------------------------------------------------------------------- float32 drift

DRIFT_BLOCK = 1000
DRIFT_CRITERION = 1e-5


def _block_rel_rmse(y: np.ndarray, ref: np.ndarray, block: int = DRIFT_BLOCK) -> np.ndarray:
    """Relative RMSE of ``y`` against ``ref`` in each block of ``block`` samples."""
    nb = ref.size // block
    d = (y[: nb * block].astype(np.float64) - ref[: nb * block]).reshape(nb, block)
    r = ref[: nb * block].reshape(nb, block)
    return np.sqrt(np.sum(d**2, axis=1) / np.sum(r**2, axis=1))


def float32_drift(quick: bool) -> dict:
    """Does a long float32 signal drift?  Not a timing.

    The signal is ``x + 5`` with ``x`` a seeded random walk normalised to zero
    mean and unit standard deviation, stored as float32.  Each float32 result
    is compared with the float64 result of the same method on the same
    (float32-rounded) samples, so only the engine's float32 handling is
    measured, not the rounding of the input.  The relative RMSE is taken in
    every block of 1000 samples; the acceptance criterion is <= 1e-5 in every
    block.
    """
    n = 200_000 if quick else 10_000_000
    x = np.cumsum(np.random.default_rng(3).standard_normal(n))
    x32 = ((x - x.mean()) / x.std() + 5.0).astype(np.float32)
    x64 = x32.astype(np.float64)
    rows = []
    for sigma in (8.0, 128.0, 2048.0):
        for order in (0, 2):
            for transform in ("auto", "sft", "asft"):
                # the plan gaussian_filter1d runs on the CPU engine ('auto' is the SFT)
                plan = select_gaussian(sigma, order, n=n, wide=True,
                                       transform="sft" if transform == "auto" else transform,
                                       fir_taps_per_order=ENGINE.fir_taps_per_order())
                y32 = sftwave.gaussian_filter1d(x32, sigma, order=order, transform=transform)
                y64 = sftwave.gaussian_filter1d(x64, sigma, order=order, transform=transform)
                e = _block_rel_rmse(y32, y64)
                rows.append({
                    "sigma": sigma,
                    "order": order,
                    "transform": transform,
                    "path": ("direct" if isinstance(plan, FIRPlan)
                             else "wide" if isinstance(plan, WidePlan)
                             else f"bank:{numba_bank.resolve_method('auto')}"),
                    "output_dtype": str(y32.dtype),
                    "max_block_rel_rmse": float(e.max()),
                    "argmax_block": int(e.argmax()),
                    "last_block_rel_rmse": float(e[-1]),
                    "first_block_rel_rmse": float(e[0]),
                    "passes": bool(e.max() <= DRIFT_CRITERION),
                })
                del y32, y64
    return {
        "n": n,
        "block": DRIFT_BLOCK,
        "criterion_max_rel_rmse": DRIFT_CRITERION,
        "signal": "float32(x + 5), x = seeded random walk (seed 3) normalised to zero mean, unit std",
        "reference": "float64 result of the same call on the same float32-rounded samples",
        "rows": rows,
        "all_pass": all(r["passes"] for r in rows),
    }


# ----------------------------------------------------------------------------- first call

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
