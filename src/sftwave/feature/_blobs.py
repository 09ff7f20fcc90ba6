"""Blob detection in scale space: scikit-image's ``blob_log`` and ``blob_dog``."""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import chain
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike

from .. import engines
from .._checks import check_tol
from .._checks.features import (
    BlobRequest,
    blob_dog_request,
    blob_log_request,
    check_overlap,
    dog_scales,
    exclude_width,
    log_scales,
    numpy_only,
    real_or_none,
    scipy_radii,
)
from .._docs import docfiller
from ..ndimage import gaussian_filter, gaussian_laplace
from ._common import nan_extreme, op, threads

__all__ = ["blob_log", "blob_dog", "blob_options", "log_scales", "dog_scales", "log_cube",
           "dog_cube", "peak_threshold", "cube_peaks", "sort_peaks", "blobs_of_peaks",
           "sigmas_in_samples"]


def peak_threshold(lo: Any, hi: Any, threshold: float | None, threshold_rel: float | None,
                   size: int, dtype: np.dtype) -> float | None:
    """The threshold a peak of a cube must exceed, in the cube's dtype; None: no peak at all.

    ``lo`` and ``hi``: the cube's smallest and largest values over its non-NaN
    entries (NaN if none); ``size``: its number of points.  scikit-image's
    rules: the absolute ``threshold`` (None: the cube's minimum) and
    ``threshold_rel`` times the maximum, the larger applying; a constant cube
    has no peak (every point is its neighbourhood's maximum).
    """
    thr = lo if threshold is None else threshold
    if threshold_rel is not None:
        thr = max(thr, threshold_rel * hi)
    if size > 1 and lo == hi:
        return None
    with np.errstate(over="ignore"):
        thr_exact = float(np.asarray(thr).astype(dtype))     # compared in the cube's dtype
    return None if math.isnan(thr_exact) else thr_exact


def cube_peaks(cube: np.ndarray, threshold: float, box: Sequence[tuple[int, int]],
               engine: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The peaks of the cube ``(scales,) + image.shape`` inside ``box`` (a ``(start, stop)`` per
    image axis): their indices ``(n, ndim + 1)``, scale index last, and their values.

    A point is a peak where it exceeds ``threshold`` (in the cube's dtype) and no
    point of its 3 x 3 x 3 (x 3) neighbourhood, clipped to the cube, is larger.
    Unsorted (:func:`sort_peaks` orders them).  ``engine``: the engine's ``local_peaks``
    (None: the cube's).
    """
    local_peaks = op(engines.resolve_engine(engine, cube), "local_peaks")
    ndim = cube.ndim - 1
    if ndim > 3:
        return _peaks_nd(cube, threshold, box)
    four = cube.reshape(cube.shape[:1] + (1,) * (3 - ndim) + cube.shape[1:])
    full = ((0, 1),) * (3 - ndim) + tuple(box)
    flat = local_peaks(four, threshold, full)
    index = np.unravel_index(flat, cube.shape)
    return np.stack(index[1:] + index[:1], axis=1), cube[index]


def _peaks_nd(cube: np.ndarray, threshold: float,
              box: Sequence[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`cube_peaks` of a cube of more than 4 axes, as scikit-image's ``peak_local_max``:
    the points equal to their 3 x ... x 3 neighbourhood's maximum (``mode='nearest'``)."""
    from scipy import ndimage as ndi

    mask = cube == ndi.maximum_filter(cube, size=3, mode="nearest")
    mask &= cube > cube.dtype.type(threshold)
    inside = np.zeros_like(mask)
    inside[(slice(None),) + tuple(slice(lo, hi) for lo, hi in box)] = True
    mask &= inside
    index = np.nonzero(mask)
    return np.stack(index[1:] + index[:1], axis=1), cube[index]


def sort_peaks(coords: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The peaks' indices as scikit-image sorts them: by decreasing value, ties in C order."""
    return coords[np.lexsort([*coords.T[::-1], -values])]


def _scale_space_peaks(cube: np.ndarray, threshold: float | None, threshold_rel: float | None,
                       border: tuple[int, ...], engine: str | None = None) -> np.ndarray:
    """scikit-image's ``peak_local_max`` of the cube ``(scales,) + image.shape``, footprint all ones.

    Returns the peaks' indices, ``(n, ndim + 1)`` with the scale index last (the
    order of scikit-image's cube ``image.shape + (scales,)``), sorted as
    scikit-image sorts them: by decreasing value, ties in C order.
    """
    ndim = cube.ndim - 1
    if cube.size == 0:                  # an empty image: no blob
        return np.empty((0, ndim + 1), dtype=np.intp)
    thr = peak_threshold(nan_extreme(cube, largest=False), nan_extreme(cube, largest=True),
                         threshold, threshold_rel, cube.size, cube.dtype)
    if thr is None:
        return np.empty((0, ndim + 1), dtype=np.intp)
    box = [(b, n - b) for b, n in zip(border, cube.shape[1:], strict=True)]
    return sort_peaks(*cube_peaks(cube, thr, box, engine))


def _blob_overlaps(blobs: np.ndarray, i: np.ndarray, j: np.ndarray, sigma_dim: int) -> np.ndarray:
    """scikit-image's ``_blob_overlap`` of the pairs ``(i[k], j[k])``, all at once (float64)."""
    ndim = blobs.shape[1] - sigma_dim
    out = np.zeros(len(i))
    if ndim > 3:
        return out
    b1 = blobs[i].astype(np.float64)
    b2 = blobs[j].astype(np.float64)
    s1, s2 = b1[:, -1], b2[:, -1]
    first = s1 > s2
    max_sigma = np.where(first[:, None], b1[:, -sigma_dim:], b2[:, -sigma_dim:])
    with np.errstate(divide="ignore", invalid="ignore"):
        r1 = np.where(first, 1.0, s1 / s2)
        r2 = np.where(first, s2 / s1, 1.0)
        scale = max_sigma * math.sqrt(ndim)
        diff = (b2[:, :ndim] - b1[:, :ndim]) / scale
    d = np.sqrt(np.sum(diff * diff, axis=1))
    both_zero = (s1 == 0) & (s2 == 0)
    inside = ~both_zero & (d <= np.abs(r1 - r2))
    out[inside] = 1.0
    partial = ~both_zero & ~inside & (d <= r1 + r2)
    d, r1, r2 = d[partial], r1[partial], r2[partial]
    if ndim == 2:
        acos1 = np.arccos(np.clip((d**2 + r1**2 - r2**2) / (2 * d * r1), -1, 1))
        acos2 = np.arccos(np.clip((d**2 + r2**2 - r1**2) / (2 * d * r2), -1, 1))
        a = -d + r2 + r1
        b = d - r2 + r1
        c = d + r2 - r1
        e = d + r2 + r1
        area = r1**2 * acos1 + r2**2 * acos2 - 0.5 * np.sqrt(np.abs(a * b * c * e))
        out[partial] = area / (math.pi * np.minimum(r1, r2) ** 2)
    else:
        vol = (math.pi / (12 * d) * (r1 + r2 - d) ** 2
               * (d**2 + 2 * d * (r1 + r2) - 3 * (r1**2 + r2**2) + 6 * r1 * r2))
        out[partial] = vol / (4.0 / 3 * math.pi * np.minimum(r1, r2) ** 3)
    return out


def _prune_blobs(blobs: np.ndarray, overlap: float, sigma_dim: int,
                 engine: str | None = None, geometry: np.ndarray | None = None) -> np.ndarray:
    """scikit-image's ``_prune_blobs``: of two blobs overlapping by more than ``overlap``, drop the smaller.

    The candidate pairs are scikit-image's (a KD-tree's pairs within twice the
    largest sigma times sqrt(ndim)); their overlaps are computed at once.  A
    dropped blob drops no other (in scikit-image too: its sigma is 0), so the
    overlapping pairs are walked once, keeping the survivors; of two blobs of
    equal sigma, the one listed first is dropped, as in scikit-image.  Where a
    blob is in two overlapping pairs the walk's order matters: it is then
    scikit-image's (the KD-tree's set of pairs, iterated).  ``geometry``: the
    rows whose distances and overlaps decide (the blobs in physical units, where
    they are given in samples); None: ``blobs`` themselves.
    """
    from scipy import spatial

    geo = blobs if geometry is None else geometry
    survivors = op(engines.resolve_engine(engine, geo), "blob_survivors")
    ndim = geo.shape[1] - sigma_dim
    reach = 2 * geo[:, -sigma_dim:].max() * math.sqrt(ndim)
    tree = spatial.cKDTree(geo[:, :-sigma_dim])
    pairs = tree.query_pairs(reach, output_type="ndarray").astype(np.intp, copy=False)
    over = pairs[_blob_overlaps(geo, pairs[:, 0], pairs[:, 1], sigma_dim) > overlap]
    if np.bincount(over.ravel(), minlength=1).max(initial=0) > 1:
        # a blob in two overlapping pairs: the order of the walk matters, and scikit-image's is
        # the iteration order of the KD-tree's set of pairs (slower to build: Python tuples)
        found = tree.query_pairs(reach)
        pairs = np.fromiter(chain.from_iterable(found), dtype=np.intp, count=2 * len(found))
        pairs = pairs.reshape(-1, 2)
        over = pairs[_blob_overlaps(geo, pairs[:, 0], pairs[:, 1], sigma_dim) > overlap]
    if len(over) == 0:
        return blobs
    return blobs[survivors(over, geo[:, -1])]


def blobs_of_peaks(peaks: np.ndarray, dtype: np.dtype, sigma_list: np.ndarray, scalar_sigma: bool,
                   overlap: float, engine: str | None = None,
                   spacing: Sequence[float] | None = None) -> np.ndarray:
    """The blobs of sorted peaks (``(n, ndim + 1)``, scale index last): coordinates and sigmas, pruned.

    With ``spacing``, the sigmas are physical and the coordinates sample indices; the
    pruning's distances and overlaps are physical (the coordinates times ``spacing``).
    """
    ndim = peaks.shape[1] - 1
    if peaks.size == 0:
        return np.empty((0, ndim + (1 if scalar_sigma else ndim)))
    sigmas = sigma_list[peaks[:, -1]]
    if scalar_sigma:
        sigmas = sigmas[:, 0:1]
    found = np.hstack([peaks[:, :-1].astype(dtype), sigmas])
    geometry = None
    if spacing is not None:
        geometry = np.hstack([peaks[:, :-1] * np.asarray(spacing), sigmas]).astype(dtype)
    return _prune_blobs(found, overlap, sigmas.shape[1], engine, geometry)


def _blobs(cube: np.ndarray, req: BlobRequest) -> np.ndarray:
    """The blobs of a scale-space cube ``(scales,) + image.shape``: peaks, their sigmas, pruned."""
    peaks = _scale_space_peaks(cube, req.threshold, req.threshold_rel, req.border, req.engine)
    return blobs_of_peaks(peaks, cube.dtype, req.sigma_list, req.scalar_sigma, req.overlap,
                          req.engine, req.spacing)


def _blob_image(image: ArrayLike, engine: str | None) -> tuple[str, np.ndarray]:
    """The engine, and the NumPy image as scikit-image's ``img_as_float``."""
    numpy_only(image, " (the blobs are NumPy coordinates)")
    name = engines.resolve_engine(engine, image)
    return name, op(name, "feature_as_float")(image, "image")


def blob_options(threshold: Any, threshold_rel: Any, overlap: Any, exclude_border: Any, ndim: int,
                 tol: Any) -> tuple[float | None, float | None, float, tuple[int, ...], float | None]:
    """The blob detectors' checked thresholds, overlap, border widths and ``tol``."""
    return (real_or_none(threshold, "threshold"), real_or_none(threshold_rel, "threshold_rel"),
            check_overlap(overlap), exclude_width(exclude_border, ndim), check_tol(tol))


def sigmas_in_samples(s: np.ndarray, spacing: Sequence[float] | None) -> np.ndarray:
    """Sigmas per axis (the last axis of ``s``) in samples: ``s / spacing`` (``s`` itself without spacing).

    Examples
    --------
    >>> sigmas_in_samples(np.array([[2.0, 2.0], [4.0, 4.0]]), (1.0, 2.0))
    array([[2., 1.],
           [4., 2.]])
    """
    return s if spacing is None else np.asarray(s, dtype=np.float64) / np.asarray(spacing)


def _spacing_kw(spacing: Sequence[float] | None) -> dict[str, Any]:
    """The Gaussian filters' ``spacing=`` keyword, none without spacing (the same call as before)."""
    return {} if spacing is None else {"spacing": [float(d) for d in spacing]}


def log_cube(image: np.ndarray, sigma_list: np.ndarray, tol: float | None,
             engine: str | None = None, truncated: bool = False,
             spacing: Sequence[float] | None = None) -> np.ndarray:
    """:func:`blob_log`'s scale space ``(scales,) + image.shape``: ``-mean(sigma)**2 LoG_sigma``.

    With ``spacing``: ``sigma_list`` physical, the Laplacian per unit of length squared
    (the second derivative along axis i divided by ``spacing[i]**2``) of the Gaussian of
    ``sigma / spacing`` samples per axis, normalised by the physical ``mean(sigma)**2``.
    """
    cube = np.empty((len(sigma_list),) + image.shape, dtype=image.dtype)
    for plane, s in zip(cube, sigma_list):
        gaussian_laplace(image, [float(v) for v in s], output=plane, mode="reflect", tol=tol,
                         radius=scipy_radii(sigmas_in_samples(s, spacing), 4.0, truncated),
                         engine=engine, **_spacing_kw(spacing))
        plane *= -np.mean(s) ** 2
    return cube


def dog_cube(image: np.ndarray, sigma_list: np.ndarray, sigma_ratio: float,
             tol: float | None, engine: str | None = None, truncated: bool = False,
             spacing: Sequence[float] | None = None) -> np.ndarray:
    """:func:`blob_dog`'s scale space: ``(G_i - G_(i+1)) / (sigma_ratio - 1)`` for each scale.

    With ``spacing``: ``sigma_list`` physical, each Gaussian of ``sigma / spacing`` samples.
    """
    cube = np.empty((len(sigma_list) - 1,) + image.shape, dtype=image.dtype)

    def smooth(s: np.ndarray) -> np.ndarray:
        # a NumPy image, on the CPU engine (the one with the peaks): a NumPy array
        radius = scipy_radii(sigmas_in_samples(s, spacing), 4.0, truncated)
        return cast(np.ndarray, gaussian_filter(image, [float(v) for v in s], mode="reflect",
                                                tol=tol, radius=radius, engine=engine,
                                                **_spacing_kw(spacing)))

    previous = smooth(sigma_list[0])
    for plane, s in zip(cube, sigma_list[1:]):
        current = smooth(s)
        np.subtract(previous, current, out=plane)
        previous = current
    cube *= 1 / (sigma_ratio - 1)
    return cube


def blob_log(image: ArrayLike, min_sigma: float | Sequence[float] = 1,
             max_sigma: float | Sequence[float] = 50, num_sigma: int = 10,
             threshold: float | None = 0.2, overlap: float = 0.5, log_scale: bool = False, *,
             threshold_rel: float | None = None, exclude_border: int | tuple[int, ...] | bool = False,
             truncated: bool = False, tol: float | None = None, engine: str | None = None,
             workers: int | None = None,
             spacing: float | Sequence[float] | None = None) -> np.ndarray:
    r"""Blobs of an image by the scale-normalised Laplacian of Gaussian (scikit-image's).

    At each of ``num_sigma`` scales from ``min_sigma`` to ``max_sigma`` the
    response ``-mean(sigma)**2 * LoG_sigma(image)``; a blob is a local maximum
    of the scale-space cube over its 3 x ... x 3 (ndim + 1 axes)
    neighbourhood above the threshold; of two blobs overlapping by more than
    ``overlap`` the smaller is dropped.  Bright blobs on a dark background.

    Parameters
    ----------
    image : array_like
        An image of any number of axes, as scikit-image's (converted as its
        ``img_as_float``: float32 stays float32, integers rescaled to [-1, 1]).
    min_sigma, max_sigma : float or sequence of float, optional
        The smallest and largest scale, one for all axes or one per axis
        (positive).  Each scale costs the same, whatever its size.
    num_sigma : int, optional
        The number of scales (at least 1).
    threshold : float or None, optional
        The least response of a blob (absolute); None: the cube's minimum (then
        ``threshold_rel`` decides).  With both, the larger applies.
    overlap : float, optional
        In [0, 1]: of two blobs whose area (volume) overlaps by more than this
        fraction of the smaller's, the smaller is dropped.
    log_scale : bool, optional
        True: the scales spaced evenly in log10; False: linearly.
    threshold_rel : float or None, optional
        The least response as a fraction of the cube's largest.
    exclude_border : int, tuple of int or False, optional
        No blob within this many pixels of the border (one for all axes, or one
        per axis); False or 0: none excluded.  ``True`` counts as 1, as in
        scikit-image.  In samples, with or without ``spacing``.
    %(blob_truncated)s
    %(image_tol)s
    %(peaks_engine)s
    %(workers)s
    %(blob_spacing)s

    Returns
    -------
    A : ndarray
        ``(n, ndim + 1)``: each row a blob's coordinates and its sigma; where
        ``min_sigma`` or ``max_sigma`` is a sequence, ``(n, 2 ndim)`` with a sigma
        per axis.  The image's float dtype; empty, ``(0, k)`` float64, if no blob
        is found (scikit-image's).  The radius of a blob is about ``sqrt(2)``
        sigma in 2-D, ``sqrt(3)`` sigma in 3-D.  With ``spacing``: the
        coordinates are sample indices (rows, columns, ...), the sigmas
        physical (in ``spacing``'s units): one column where ``min_sigma``
        and ``max_sigma`` are scalars (the same physical sigma along every
        axis, ``sigma / spacing`` samples), one per axis where either is a
        sequence.

    Raises
    ------
    ValueError
        A 0-d image, a non-positive or non-finite sigma, a
        sequence of sigmas of the wrong length, ``num_sigma`` below 1,
        ``overlap`` outside [0, 1], a negative ``exclude_border`` or a tuple of
        the wrong length, a NaN threshold, a ``spacing`` not positive and
        finite or of the wrong length.
    TypeError
        A complex or non-numeric image, or an argument of the wrong type.

    See Also
    --------
    blob_dog : The same by differences of Gaussians.
    sftwave.gaussian_laplace : The Laplacian of Gaussian at each scale.
    sftwave.dask.blob_log : The same on a dask image larger than memory.

    Notes
    -----
    The scales, the normalisation, the peak finding (scikit-image's
    ``peak_local_max`` with an all-ones footprint: ``mode='nearest'`` at the
    borders, a constant cube has no peak, peaks sorted by decreasing response)
    and the pruning (its ``_prune_blobs``, the same pairs in the same order)
    are scikit-image's; the peaks are found by one pass of a numba kernel
    (the CPU engine's ``local_peaks``), the pairs' overlaps at once.  A NaN
    response is never a blob.

    %(blob_gaussians)s

    Examples
    --------
    >>> from sftwave.feature import blob_log
    >>> y, x = np.mgrid[:64, :64]
    >>> image = np.exp(-((y - 20) ** 2 + (x - 40) ** 2) / (2 * 4.0**2))
    >>> blob_log(image, min_sigma=1, max_sigma=10, num_sigma=10)
    array([[20., 40.,  4.]])

    The same blob sampled every 2 units along the columns (``spacing``): found
    at its sample indices, with its physical sigma:

    >>> y, x = np.mgrid[:64, :32]
    >>> coarse = np.exp(-((y - 20) ** 2 + (2 * (x - 16)) ** 2) / (2 * 4.0**2))
    >>> blob_log(coarse, min_sigma=1, max_sigma=10, num_sigma=10, spacing=(1, 2))
    array([[20., 16.,  4.]])
    """
    name, arr = _blob_image(image, engine)
    req = blob_log_request(arr.shape, arr.dtype, min_sigma, max_sigma, num_sigma, threshold,
                           overlap, log_scale, threshold_rel=threshold_rel,
                           exclude_border=exclude_border, tol=tol, engine=name, workers=workers,
                           truncated=truncated, spacing=spacing)
    op(name, "local_peaks")                  # the engine has the peaks, before any work
    with threads(name, req.workers):
        cube = log_cube(arr, req.sigma_list, req.tol, name, req.truncated, req.spacing)
        return _blobs(cube, req)


def blob_dog(image: ArrayLike, min_sigma: float | Sequence[float] = 1,
             max_sigma: float | Sequence[float] = 50, sigma_ratio: float = 1.6,
             threshold: float | None = 0.5, overlap: float = 0.5, *,
             threshold_rel: float | None = None, exclude_border: int | tuple[int, ...] | bool = False,
             truncated: bool = False, tol: float | None = None, engine: str | None = None,
             workers: int | None = None,
             spacing: float | Sequence[float] | None = None) -> np.ndarray:
    r"""Blobs of an image by differences of Gaussians (scikit-image's).

    Gaussians at ``min_sigma * sigma_ratio**i`` until past ``max_sigma``; the
    response at scale i is ``(G_i - G_(i+1)) / (sigma_ratio - 1)``, which
    approximates the scale-normalised Laplacian of Gaussian.  A blob is a local
    maximum of the scale-space cube over its 3 x ... x 3 (ndim + 1 axes)
    neighbourhood above the threshold; of two blobs overlapping by more than
    ``overlap`` the smaller is dropped.  Bright blobs on a dark background.

    Parameters
    ----------
    image : array_like
        An image of any number of axes (converted as scikit-image's ``img_as_float``).
    min_sigma, max_sigma : float or sequence of float, optional
        The smallest and largest scale, one for all axes or one per axis
        (positive).  Each scale costs the same, whatever its size.
    sigma_ratio : float, optional
        The ratio of successive scales, above 1.
    threshold : float or None, optional
        The least response of a blob (absolute); None: ``threshold_rel`` decides.
    overlap : float, optional
        In [0, 1]: of two blobs overlapping by more than this fraction, the
        smaller is dropped.
    threshold_rel : float or None, optional
        The least response as a fraction of the cube's largest.
    exclude_border : int, tuple of int or False, optional
        No blob within this many pixels of the border; ``True`` counts as 1.
        In samples, with or without ``spacing``.
    %(blob_truncated)s
    %(image_tol)s
    %(peaks_engine)s
    %(workers)s
    %(blob_spacing)s

    Returns
    -------
    A : ndarray
        ``(n, ndim + 1)`` rows of coordinates and sigma, or ``(n, 2 ndim)`` with
        a sigma per axis where ``min_sigma`` or ``max_sigma`` is a sequence; the
        image's float dtype; ``(0, k)`` float64 if no blob is found.  With
        ``spacing``, the coordinates are sample indices and the sigmas
        physical, as :func:`blob_log`'s.

    Raises
    ------
    ValueError
        A 0-d image, a bad sigma, ``sigma_ratio`` not above 1,
        ``max_sigma`` below ``min_sigma`` (no scale), ``overlap`` outside [0, 1],
        a bad ``exclude_border``, a NaN threshold, a bad ``spacing``.
    TypeError
        A complex or non-numeric image, or an argument of the wrong type.

    See Also
    --------
    blob_log : The same by the Laplacian of Gaussian.
    difference_of_gaussians : One band-pass difference of Gaussians.
    sftwave.dask.blob_dog : The same on a dask image larger than memory.

    Notes
    -----
    scikit-image 0.26's scales, normalisation (``1 / (sigma_ratio - 1)``, no
    further sigma factor), peak finding and pruning, as :func:`blob_log`.

    %(blob_gaussians)s

    Examples
    --------
    >>> from sftwave.feature import blob_dog
    >>> y, x = np.mgrid[:64, :64]
    >>> image = np.exp(-((y - 30) ** 2 + (x - 25) ** 2) / (2 * 4.0**2))
    >>> blob_dog(image, min_sigma=1, max_sigma=10, threshold=0.05)
    array([[30.  , 25.  ,  2.56]])
    >>> y, x = np.mgrid[:64, :32]
    >>> coarse = np.exp(-((y - 30) ** 2 + (2 * (x - 16)) ** 2) / (2 * 4.0**2))
    >>> blob_dog(coarse, min_sigma=1, max_sigma=10, threshold=0.05, spacing=(1, 2))
    array([[30.  , 16.  ,  2.56]])
    """
    name, arr = _blob_image(image, engine)
    req = blob_dog_request(arr.shape, arr.dtype, min_sigma, max_sigma, sigma_ratio, threshold,
                           overlap, threshold_rel=threshold_rel, exclude_border=exclude_border,
                           tol=tol, engine=name, workers=workers, truncated=truncated,
                           spacing=spacing)
    op(name, "local_peaks")                  # the engine has the peaks, before any work
    with threads(name, req.workers):
        cube = dog_cube(arr, req.sigma_list, float(req.sigma_ratio or 0.0), req.tol, name,
                        req.truncated, req.spacing)
        return _blobs(cube, req)


docfiller(blob_log)
docfiller(blob_dog)
