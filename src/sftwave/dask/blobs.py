"""The blob detectors on dask images: each block's scale space and peaks, the blobs gathered."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from .._checks.features import blob_spacing
from ..feature._blobs import (
    blob_options,
    blobs_of_peaks,
    cube_peaks,
    dog_cube,
    dog_scales,
    log_cube,
    log_scales,
    peak_threshold,
    sigmas_in_samples,
    sort_peaks,
)
from ..feature._common import as_float, nan_extreme
from ._core import block_cores, block_threads, extended
from ._image import checked_image
from ._reach import filter_reach, max_reach
from ._wrap import Call, lazy

if TYPE_CHECKING:
    import dask.array as da

__all__ = ["blob_log", "blob_dog"]


class _Blobs:
    """What a blob search needs besides the image: the scales and the checked options."""

    def __init__(self, call: Call, x: da.Array, dtype: np.dtype, scalar_sigma: bool,
                 sigma_list: np.ndarray) -> None:

        self.dtype, self.scalar_sigma, self.sigma_list = dtype, scalar_sigma, sigma_list
        (self.threshold, self.threshold_rel, self.overlap, self.border,
         self.tol) = blob_options(call["threshold"], call["threshold_rel"], call["overlap"],
                                  call["exclude_border"], x.ndim, call["tol"])
        self.spacing = blob_spacing(call["spacing"], x.ndim)

    def nothing(self, ndim: int) -> np.ndarray:

        return blobs_of_peaks(np.empty((0, ndim + 1), np.intp), self.dtype, self.sigma_list,
                              self.scalar_sigma, self.overlap, spacing=self.spacing)


def _layouts(x: da.Array, g: da.Array, depth: dict[int, int],
             border: tuple[int, ...]) -> list[tuple[tuple[slice, ...], list[tuple[int, int]], np.ndarray]]:
    """Per block of the extended ``g``: its own samples, the box its peaks may lie in (the
    image less ``border``), and the shift from its indices to the image's."""
    cores = block_cores(g.chunks, depth)
    out = []
    for index in np.ndindex(*g.numblocks):
        own, box, shift = [], [], np.zeros(x.ndim + 1, dtype=np.intp)
        for ax, j in enumerate(index):
            start, stop, at = cores[ax][j]
            own.append(slice(start, stop))
            n, b = int(x.shape[ax]), border[ax]
            box.append((max(start, b - at + start), min(stop, n - b - at + start)))
            shift[ax] = at - start
        out.append((tuple(own), box, shift))
    return out


def _lazy_blobs(x: da.Array, cube: Callable[[np.ndarray], np.ndarray], nscales: int,
                reach: list[int | None], opts: _Blobs) -> np.ndarray:
    """The blobs of a dask image: each block's scale space (``cube``, an in-memory function of a
    NumPy block) over the block extended by the Gaussians' ``reach`` and one sample more (the
    peaks' neighbourhood), its peaks among its own samples, gathered, sorted and pruned here."""
    import dask


    dtype, threshold, threshold_rel = opts.dtype, opts.threshold, opts.threshold_rel
    if x.size == 0:
        return opts.nothing(x.ndim)
    g, depth = extended(x, [None if r is None else r + 1 for r in reach], False)
    blocks = g.to_delayed().ravel()
    nblocks, size = blocks.size, nscales * x.size
    places = _layouts(x, g, depth, opts.border)

    def extremes(b: np.ndarray, own: tuple[slice, ...]) -> tuple[Any, Any]:
        with block_threads(nblocks):
            c = cube(cast(np.ndarray, as_float(b)))[(slice(None),) + own]
        return nan_extreme(c, largest=False), nan_extreme(c, largest=True)

    def peaks(b: np.ndarray, own: tuple[slice, ...], box: list[tuple[int, int]], shift: np.ndarray,
              thr: float) -> tuple[np.ndarray, np.ndarray, Any, Any]:
        with block_threads(nblocks):
            c = cube(cast(np.ndarray, as_float(b)))
        coords, values = cube_peaks(c, thr, box)
        mine = c[(slice(None),) + own]
        return (coords + shift, values, nan_extreme(mine, largest=False),
                nan_extreme(mine, largest=True))

    lo = hi = None
    if threshold is None or threshold_rel is not None:      # the cube's extremes decide it: a first pass
        ends = dask.compute(*(dask.delayed(extremes)(blk, own)
                              for blk, (own, _, _) in zip(blocks, places)))
        lo = nan_extreme(np.array([e[0] for e in ends], dtype=dtype), largest=False)
        hi = nan_extreme(np.array([e[1] for e in ends], dtype=dtype), largest=True)
        thr = peak_threshold(lo, hi, threshold, threshold_rel, size, dtype)
    else:
        thr = peak_threshold(-np.inf, np.inf, threshold, None, size, dtype)
    if thr is None:
        return opts.nothing(x.ndim)
    found = dask.compute(*(dask.delayed(peaks)(blk, own, box, shift, thr)
                           for blk, (own, box, shift) in zip(blocks, places)))
    if lo is None:                                  # a constant cube has no peak
        lo = nan_extreme(np.array([f[2] for f in found], dtype=dtype), largest=False)
        hi = nan_extreme(np.array([f[3] for f in found], dtype=dtype), largest=True)
        if peak_threshold(lo, hi, threshold, None, size, dtype) is None:
            return opts.nothing(x.ndim)
    coords = np.concatenate([f[0] for f in found])
    values = np.concatenate([f[1] for f in found])
    return blobs_of_peaks(sort_peaks(coords, values), dtype, opts.sigma_list, opts.scalar_sigma,
                          opts.overlap, spacing=opts.spacing)


@lazy("sftwave.feature", "blob_log")
def blob_log(call: Call) -> np.ndarray:
    """:func:`sftwave.feature.blob_log` of a dask image: the blobs, in memory.

    The blobs are a short list, the scale space is not: each block's scale
    space is computed over the block extended by the Laplacians' reach and one
    sample more (the peaks' 3 x 3 x 3 neighbourhood), its peaks taken among its
    own samples, and only they are gathered, then sorted and pruned as in
    memory.  No scale space larger than a block's is ever held.  With
    ``threshold=None`` or a ``threshold_rel``, the scale space's extremes are
    needed first: the blocks then run twice (a first pass reduces each to its
    smallest and largest response).  The same blobs as in memory, but where a
    response ties with a neighbour's or the threshold to within rounding (the
    filters' recursions round differently on a block than on the whole image,
    about 1e-15 of the responses in float64).

    Returns
    -------
    numpy.ndarray
        As :func:`sftwave.feature.blob_log`: ``(n, ndim + 1)`` (or ``(n, 2 ndim)``),
        coordinates and sigmas.  The result is computed (with the current dask
        scheduler or ``distributed`` client).

    See Also
    --------
    sftwave.feature.blob_log : The same in memory.
    blob_dog : By differences of Gaussians, lazily.
    gaussian_filter : One Gaussian, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> y, x = np.mgrid[:120, :100]
    >>> img = np.exp(-((y - 40) ** 2 + (x - 50) ** 2) / 32.0) + np.exp(-((y - 90) ** 2 + (x - 20) ** 2) / 18.0)
    >>> blob_log(da.from_array(img, chunks=45), max_sigma=10, threshold=0.1)
    array([[40., 50.,  4.],
           [90., 20.,  3.]])
    >>> bool(np.array_equal(_, feature.blob_log(img, max_sigma=10, threshold=0.1)))
    True
    """
    _, x, dtype = checked_image(call, (2, 3))
    scalar_sigma, sigma_list = log_scales(call["min_sigma"], call["max_sigma"], call["num_sigma"],
                                          call["log_scale"], x.ndim, dtype)
    opts = _Blobs(call, x, dtype, scalar_sigma, sigma_list)
    axes = list(range(x.ndim))
    reach = max_reach(*(filter_reach(x.shape, s, [o] * x.ndim, axes, 4.0, opts.tol)
                        for s in sigmas_in_samples(sigma_list, opts.spacing) for o in (0, 2)))

    def cube(b: np.ndarray) -> np.ndarray:
        return log_cube(b, sigma_list, opts.tol, spacing=opts.spacing)

    return _lazy_blobs(x, cube, len(sigma_list), reach, opts)


@lazy("sftwave.feature", "blob_dog")
def blob_dog(call: Call) -> np.ndarray:
    """:func:`sftwave.feature.blob_dog` of a dask image: the blobs, in memory.

    As :func:`blob_log`: each block's scale space over the block extended by the
    widest Gaussian's reach and one sample, its own peaks gathered, sorted and
    pruned here (two passes with ``threshold=None`` or a ``threshold_rel``).

    Returns
    -------
    numpy.ndarray
        As :func:`sftwave.feature.blob_dog`, computed.

    See Also
    --------
    sftwave.feature.blob_dog : The same in memory.
    blob_log : By the Laplacian of Gaussian, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> y, x = np.mgrid[:100, :90]
    >>> img = np.exp(-((y - 30) ** 2 + (x - 25) ** 2) / 32.0)
    >>> found = blob_dog(da.from_array(img, chunks=40), max_sigma=10, threshold=0.05)
    >>> found
    array([[30.  , 25.  ,  2.56]])
    >>> bool(np.array_equal(found, feature.blob_dog(img, max_sigma=10, threshold=0.05)))
    True
    """
    _, x, dtype = checked_image(call, (2, 3))
    scalar_sigma, sigma_list = dog_scales(call["min_sigma"], call["max_sigma"],
                                          call["sigma_ratio"], x.ndim, dtype)
    opts = _Blobs(call, x, dtype, scalar_sigma, sigma_list)
    axes = list(range(x.ndim))
    reach = max_reach(*(filter_reach(x.shape, s, [0] * x.ndim, axes, 4.0, opts.tol)
                        for s in sigmas_in_samples(sigma_list, opts.spacing)))
    ratio = float(call["sigma_ratio"])

    def cube(b: np.ndarray) -> np.ndarray:
        return dog_cube(b, sigma_list, ratio, opts.tol, spacing=opts.spacing)

    return _lazy_blobs(x, cube, len(sigma_list) - 1, reach, opts)
