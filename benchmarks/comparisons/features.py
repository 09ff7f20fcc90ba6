"""Scale-space image features against scikit-image: :mod:`sftwave.feature`.

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


def _pair(label: str, ours, theirs, rounds: int, *, target: float | None, once: bool = False) -> dict:
    """One row: both calls timed (alternating; scikit-image once and cold where ``once``)."""
    if once:
        ours()                                       # sftwave's compilation, untimed
        t_ours = alternate({"sftwave": ours}, rounds)["sftwave"]
        t_theirs_s, ref = seconds_once(theirs)
        times = {"sftwave": t_ours, "scikit-image": {"median_s": t_theirs_s, "min_s": t_theirs_s,
                                                     "all_s": [t_theirs_s]}}
    else:
        times = alternate({"sftwave": ours, "scikit-image": theirs}, rounds)
        ref = theirs()
    got, ref = np.asarray(ours(), np.float64), np.asarray(ref, np.float64)
    same = got.shape == ref.shape
    diff = rel_rmse(got, ref) if same and got.size else (0.0 if same else None)
    extra = {"detections": [len(got), len(ref)]} if label.startswith("blob") else {}
    return {"case": label, "times": times, "target": target, "difference": diff, **extra,
            "skimage_over_sftwave": times["scikit-image"]["median_s"] / times["sftwave"]["median_s"]}


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
