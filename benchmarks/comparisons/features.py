"""Scale-space image features against scikit-image (Gabor also against OpenCV): :mod:`sftwave.feature`.

Every row times sftwave's function and scikit-image's of the same name on the
same image, with the same arguments, the calls taking turns (medians), except
the slowest scikit-image calls (tens of seconds), which are timed once. The
difference column is the relative RMS difference between the two results:
scikit-image truncates its Gaussians (4 sigma, 8 for the Hessian's
derivatives), sftwave meets its ``tol`` with untruncated ones.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from sftwave import feature

from .common import alternate, anchor, load_average, rel_rmse, seconds_once
from .gaussian import test_image


def _pair(label: str, ours, theirs, rounds: int, *, target: float | None, once: bool = False,
          anchor: str = "scikit-image", compare: bool = True) -> dict:
    """One row: both calls timed (alternating; the anchor once and cold where ``once``);
    ``compare``: the results are the same quantity (not OpenCV's differently scaled kernel)."""
    if once:
        ours()                                       # sftwave's compilation, untimed
        t_ours = alternate({"sftwave": ours}, rounds)["sftwave"]
        t_theirs_s, ref = seconds_once(theirs)
        times = {"sftwave": t_ours, "anchor": {"median_s": t_theirs_s, "min_s": t_theirs_s,
                                               "all_s": [t_theirs_s]}}
    else:
        times = alternate({"sftwave": ours, "anchor": theirs}, rounds)
        ref = theirs() if compare else None
    extra: dict = {}
    diff = None
    if compare:
        got, ref = np.asarray(ours(), np.float64), np.asarray(ref, np.float64)
        same = got.shape == ref.shape
        diff = rel_rmse(got, ref) if same and got.size else (0.0 if same else None)
        if label.startswith("blob"):
            extra["detections"] = [len(got), len(ref)]
    return {"case": label, "anchor": anchor, "times": times, "target": target, "difference": diff,
            **extra, "anchor_over_sftwave": times["anchor"]["median_s"] / times["sftwave"]["median_s"]}


def _gabor_rows(cases: list, img: np.ndarray, quick: bool) -> None:
    """A bank of 8 orientations at one frequency, real and imaginary parts, against OpenCV's
    ``getGaborKernel`` + ``filter2D`` (its kernel cut at 3 sigma, float32, BORDER_REFLECT)
    and scikit-image's ``gabor`` (the full 2-D kernel, at sigma 4 only: at 16 and 32 it takes
    minutes to hours)."""
    cv2 = anchor("OpenCV")
    import skimage.filters as skfl

    thetas = np.arange(8) * np.pi / 8
    freq = 0.1
    for sigma in ((4.0,) if quick else (4.0, 16.0, 32.0)):
        ours = partial(feature.gabor_bank, img, freq, thetas, sigma_x=sigma, sigma_y=sigma)
        if cv2 is not None:
            k = 2 * int(np.ceil(3 * sigma)) + 1
            kernels = [(cv2.getGaborKernel((k, k), sigma, th, 1 / freq, 1.0, psi, ktype=cv2.CV_32F))
                       for th in thetas for psi in (0.0, -np.pi / 2)]

            def opencv(kernels=kernels):
                return [cv2.filter2D(img, cv2.CV_32F, kk, borderType=cv2.BORDER_REFLECT)
                        for kk in kernels]

            cases.append(_pair(f"gabor_bank, 8 orientations, sigma {sigma:g}", ours, opencv,
                               2 if quick else 3, target=1.0, anchor="OpenCV", compare=False))
        if sigma == 4.0:
            def skimage_bank(sigma=sigma):
                out = np.empty((1, 8) + img.shape, np.complex64)
                for j, th in enumerate(thetas):
                    re, im = skfl.gabor(img, freq, th, sigma_x=sigma, sigma_y=sigma)
                    out[0, j] = re + 1j * im
                return out

            cases.append(_pair(f"gabor_bank, 8 orientations, sigma {sigma:g}", ours, skimage_bank,
                               1, target=100.0, once=True))


def _blob_rows(fn, img, kw) -> np.ndarray:
    """The detections as a sorted array (rows of coordinates and sigma): comparable across
    the two tools, whose row order is their own."""
    rows = np.asarray(fn(img, **kw), dtype=np.float64)
    return rows[np.lexsort(rows.T[::-1])] if rows.size else rows


def features(quick: bool) -> dict:
    """Hessian and structure tensor with their eigenvalues, DoG, blob_log and Frangi (2-D, 3-D)."""
    sk = anchor("scikit-image")
    res: dict = {"load_start": load_average(), "cases": []}
    if sk is None:
        res["skipped"] = "scikit-image not installed"
        return res
    import skimage.feature as skf
    import skimage.filters as skfl

    side = 256 if quick else 2048
    img, what = test_image(side)
    img = np.ascontiguousarray(img / 255.0, dtype=np.float32)
    res["image"] = f"{what}, float32 in [0, 1]"
    rounds = 2 if quick else 3
    cases = res["cases"]
    for s in (1.0, 2.0, 8.0, 32.0):
        want = 5.0 if s >= 8 else 1.0
        cases.append(_pair(
            f"hessian_matrix + hessian_matrix_eigvals, sigma {s:g}",
            lambda s=s: feature.hessian_matrix_eigvals(
                feature.hessian_matrix(img, s, use_gaussian_derivatives=True)),
            lambda s=s: skf.hessian_matrix_eigvals(
                skf.hessian_matrix(img, s, use_gaussian_derivatives=True)),
            rounds, target=want))
        cases.append(_pair(
            f"structure_tensor + structure_tensor_eigenvalues, sigma {s:g}",
            lambda s=s: feature.structure_tensor_eigenvalues(feature.structure_tensor(img, s)),
            lambda s=s: skf.structure_tensor_eigenvalues(skf.structure_tensor(img, s)),
            rounds, target=want))
    for s in (2.0, 8.0, 32.0):
        cases.append(_pair(f"difference_of_gaussians, sigma {s:g} and {1.6 * s:g}",
                           partial(feature.difference_of_gaussians, img, s),
                           partial(skfl.difference_of_gaussians, img, s), rounds, target=None))
    blobs = dict(min_sigma=2, max_sigma=32, num_sigma=10, threshold=0.02)
    cases.append(_pair("blob_log, 10 sigmas 2..32",
                       partial(_blob_rows, feature.blob_log, img, blobs),
                       partial(_blob_rows, skf.blob_log, img, blobs), 1, target=2.0, once=True))
    _gabor_rows(cases, img, quick)
    sigmas = range(1, 6) if quick else range(1, 21)
    cases.append(_pair(f"frangi, sigmas {sigmas.start}..{sigmas.stop - 1}",
                       partial(feature.frangi, img, sigmas=sigmas),
                       partial(skfl.frangi, img, sigmas=sigmas), 1, target=3.0, once=True))
    vside = 64 if quick else 256
    vol = np.ascontiguousarray(img[:vside, :vside][None].repeat(vside, 0)
                               * np.linspace(0.5, 1.0, vside, dtype=np.float32)[:, None, None])
    cases.append(_pair(f"3-D frangi, {vside}^3, one sigma (2)",
                       partial(feature.frangi, vol, sigmas=[2.0]),
                       partial(skfl.frangi, vol, sigmas=[2.0]), 1, target=3.0, once=True))
    res["load_end"] = load_average()
    return res


def _range_errors(got: np.ndarray, ref: np.ndarray) -> list[float]:
    """Per feature (last axis): the largest difference relative to the reference's range."""
    axes = tuple(range(ref.ndim - 1))
    span = np.maximum(np.ptp(ref, axis=axes), 1e-30)
    return (np.max(np.abs(got.astype(np.float64) - ref), axis=axes) / span).tolist()


def multiscale(quick: bool) -> dict:
    """``multiscale_basic_features`` against scikit-image's: ``skimage.data.camera()`` (2-D, the
    target: 5 times as fast by default) and a 3-D volume (no target), default scales;
    sftwave's default, ``truncated=True`` and ``tol=1e-7``."""
    sk = anchor("scikit-image")
    res: dict = {"load_start": load_average(), "cases": []}
    if sk is None:
        res["skipped"] = "scikit-image not installed"
        return res
    import skimage.data
    import skimage.feature as skf

    rounds = 3 if quick else 7
    vside = 48 if quick else 128
    vol = np.ascontiguousarray(skimage.data.camera()[:vside, :vside][None].repeat(vside, 0)
                               * np.linspace(0.5, 1.0, vside)[:, None, None]).astype(np.float32)
    images = [("camera, 512 x 512 uint8", skimage.data.camera(), dict()),
              (f"3-D, {vside}^3 float32, sigmas 0.5..4", vol, dict(sigma_max=4))]
    for label, img, kw in images:
        ref = skf.multiscale_basic_features(img, **kw)
        for variant, extra in (("default", {}), ("truncated=True", dict(truncated=True)),
                               ("tol=1e-7", dict(tol=1e-7))):
            def ours(extra=extra, img=img, kw=kw):
                return feature.multiscale_basic_features(img, **kw, **extra)

            def theirs(img=img, kw=kw):
                return skf.multiscale_basic_features(img, **kw)

            times = alternate({"sftwave": ours, "anchor": theirs}, rounds)
            errors = _range_errors(ours(), ref)
            res["cases"].append({
                "case": label, "variant": variant, "features": int(ref.shape[-1]),
                "times": times,
                "target": 5.0 if variant == "default" and img.ndim == 2 else None,
                "anchor_over_sftwave": times["anchor"]["median_s"] / times["sftwave"]["median_s"],
                "max_range_error": max(errors), "range_errors": errors})
    res["load_end"] = load_average()
    return res
