"""The image features of dask arrays: each block extended by the samples its filters read."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .._checks import check_mode, per_axis
from .._scale_space import frangi_gamma, hessian_norm2
from ..feature._common import nan_extreme
from ..feature._ridges import meijering_response
from ._core import block_threads, extended, overlapped, pointwise_stack
from ._image import checked_image, dog_of, hessian_of, ridge_of, structure_tensor_of
from ._reach import add_reach, filter_reach, hessian_reach, max_reach
from ._wrap import Call, lazy

if TYPE_CHECKING:
    import dask.array as da

__all__ = ["hessian_matrix", "hessian_matrix_eigvals", "structure_tensor",
           "structure_tensor_eigenvalues", "difference_of_gaussians", "frangi", "sato", "meijering"]


def _wraps(call: Call) -> bool:
    """Whether the call extends the image periodically (then each filtered axis is taken whole)."""
    return check_mode(call["mode"]) == "wrap"


@lazy("sftwave.feature", "hessian_matrix")
def hessian_matrix(call: Call) -> list[da.Array]:
    """:func:`sftwave.feature.hessian_matrix` of a dask array, lazily.

    Each block is extended by exactly the samples its filters read (the
    Gaussian passes' half-windows and, without Gaussian derivatives, one sample
    per ``np.gradient``), so the elements equal the in-memory ones.

    Returns
    -------
    list of dask.array.Array
        The upper-triangle elements, as in memory.

    See Also
    --------
    sftwave.feature.hessian_matrix : The same in memory.
    hessian_matrix_eigvals : The eigenvalues of the elements, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> img = np.random.default_rng(0).standard_normal((300, 200))
    >>> H = hessian_matrix(da.from_array(img, chunks=100), 4.0, use_gaussian_derivatives=True)
    >>> ref = feature.hessian_matrix(img, 4.0, use_gaussian_derivatives=True)
    >>> all(np.allclose(h.compute(), r, rtol=0, atol=1e-12) for h, r in zip(H, ref))
    True
    """
    _, x, dtype = checked_image(call)
    req = hessian_of(call, x)
    reach = hessian_reach(x.shape, call["sigma"], call["use_gaussian_derivatives"], call["tol"],
                          req.spacing)
    return overlapped(call.fn, x, reach, dtype, x.ndim * (x.ndim + 1) // 2, _wraps(call),
                      **call.without("image"))


@lazy("sftwave.feature", "hessian_matrix_eigvals")
def hessian_matrix_eigvals(call: Call) -> da.Array:
    """:func:`sftwave.feature.hessian_matrix_eigvals` of dask arrays, lazily, block by block.

    Returns
    -------
    dask.array.Array
        The eigenvalues, decreasing, stacked on a first axis.

    See Also
    --------
    sftwave.feature.hessian_matrix_eigvals : The same in memory.
    hessian_matrix : The elements, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> img = np.random.default_rng(1).standard_normal((120, 90))
    >>> H = hessian_matrix(da.from_array(img, chunks=50), 2.0, use_gaussian_derivatives=False)
    >>> ev = hessian_matrix_eigvals(H)
    >>> ref = feature.hessian_matrix_eigvals(
    ...     feature.hessian_matrix(img, 2.0, use_gaussian_derivatives=False))
    >>> ev.shape == ref.shape and bool(np.allclose(ev.compute(), ref, rtol=0, atol=1e-12))
    True
    """
    return pointwise_stack(call.fn, call["H_elems"], "H_elems")


@lazy("sftwave.feature", "structure_tensor")
def structure_tensor(call: Call) -> list[da.Array]:
    """:func:`sftwave.feature.structure_tensor` of a dask array, lazily.

    Each block is extended by one sample for the Sobel derivatives plus the
    Gaussian's half-window, so the elements equal the in-memory ones.

    Returns
    -------
    list of dask.array.Array
        The upper-triangle elements, as in memory.

    See Also
    --------
    sftwave.feature.structure_tensor : The same in memory.
    structure_tensor_eigenvalues : Its eigenvalues, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> img = np.random.default_rng(2).standard_normal((200, 150)).astype(np.float32)
    >>> A = structure_tensor(da.from_array(img, chunks=64), 3.0)
    >>> ref = feature.structure_tensor(img, 3.0)
    >>> all(a.dtype == r.dtype and np.allclose(a.compute(), r, atol=1e-5) for a, r in zip(A, ref))
    True
    """
    _, x, dtype = checked_image(call)
    req = structure_tensor_of(call, x)
    ndim = x.ndim
    if len(req.sigmas) != ndim:          # length-1 axes (squeezed in memory): the arguments' sigmas
        sigmas = per_axis(call["sigma"], ndim, "sigma")
    else:                                # in samples: sigma / spacing
        steps = req.spacing or (1.0,) * ndim
        sigmas = [s / d for s, d in zip(req.sigmas, steps)]
    smooth = filter_reach(x.shape, sigmas, [0] * ndim, list(range(ndim)), 4.0, call["tol"])
    return overlapped(call.fn, x, add_reach(smooth, [1] * ndim), dtype, ndim * (ndim + 1) // 2,
                      _wraps(call), **call.without("image"))


@lazy("sftwave.feature", "structure_tensor_eigenvalues")
def structure_tensor_eigenvalues(call: Call) -> da.Array:
    """:func:`sftwave.feature.structure_tensor_eigenvalues` of dask arrays, lazily.

    Returns
    -------
    dask.array.Array
        The eigenvalues, decreasing, stacked on a first axis.

    See Also
    --------
    sftwave.feature.structure_tensor_eigenvalues : The same in memory.
    structure_tensor : The elements, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> img = np.random.default_rng(3).standard_normal((80, 80))
    >>> ev = structure_tensor_eigenvalues(structure_tensor(da.from_array(img, chunks=40), 1.5))
    >>> ref = feature.structure_tensor_eigenvalues(feature.structure_tensor(img, 1.5))
    >>> bool(np.allclose(ev.compute(), ref, rtol=0, atol=1e-12))
    True
    """
    return pointwise_stack(call.fn, call["A_elems"], "A_elems")


@lazy("sftwave.feature", "difference_of_gaussians")
def difference_of_gaussians(call: Call) -> da.Array:
    """:func:`sftwave.feature.difference_of_gaussians` of a dask array, lazily.

    Each block is extended by the wider Gaussian's half-window along each
    spatial axis (none along ``channel_axis``).

    Returns
    -------
    dask.array.Array
        The band-pass filtered image.

    See Also
    --------
    sftwave.feature.difference_of_gaussians : The same in memory.
    gaussian_filter : One Gaussian, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> img = np.random.default_rng(4).standard_normal((150, 150))
    >>> d = difference_of_gaussians(da.from_array(img, chunks=60), 2.0, 8.0)
    >>> bool(np.allclose(d.compute(), feature.difference_of_gaussians(img, 2.0, 8.0), atol=1e-12))
    True
    """
    _, x, dtype = checked_image(call)
    req = dog_of(call, x)
    spatial = list(req.axes)
    reach = max_reach(*(filter_reach(x.shape, list(s), [0] * len(spatial), spatial, req.truncate,
                                     call["tol"]) for s in (req.low, req.high)))
    return overlapped(call.fn, x, reach, dtype, None, _wraps(call), **call.without("image"))


@lazy("sftwave.feature", "frangi")
def frangi(call: Call) -> da.Array:
    """:func:`sftwave.feature.frangi` of a dask array, lazily.

    Each block is extended by the widest scale's reach.  With ``gamma=None``
    the default structuredness weight is a reduction over the whole image (half
    the largest Hessian norm at the first scale), so the first scale's Hessian
    is computed twice: once for that reduction, once in the blocks.

    Returns
    -------
    dask.array.Array
        The vesselness, as in memory.

    See Also
    --------
    sftwave.feature.frangi : The same in memory.
    hessian_matrix : The Hessian at one scale, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> img = np.ones((120, 100))
    >>> img[:, 50] = 0.0                        # a dark vertical line
    >>> v = frangi(da.from_array(img, chunks=40), sigmas=[1, 2])
    >>> bool(np.allclose(v.compute(), feature.frangi(img, sigmas=[1, 2]), rtol=0, atol=1e-12))
    True
    """
    import dask


    da, x, dtype = checked_image(call, (2, 3))
    scales = list(ridge_of("frangi", call, x).sigmas)
    kw = dict(call.without("image", "scale_range", "scale_step"), sigmas=scales)
    reach = max_reach(*(hessian_reach(x.shape, s, True, call["tol"]) for s in scales))
    if kw["gamma"] is None:
        signed = x.astype(dtype) if call["black_ridges"] else -x.astype(dtype)
        H = hessian_matrix(signed, scales[0], mode=call["mode"], cval=call["cval"],
                           use_gaussian_derivatives=True, tol=call["tol"])
        norm2 = da.map_blocks(lambda *b: hessian_norm2(b, x.ndim), *H, dtype=np.float64)
        kw["gamma"] = dask.delayed(frangi_gamma)(da.where(da.isfinite(norm2), norm2, 0.0).max())
    return overlapped(call.fn, x, reach, dtype, None, _wraps(call), **kw)


@lazy("sftwave.feature", "sato")
def sato(call: Call) -> da.Array:
    """:func:`sftwave.feature.sato` of a dask array, lazily.

    Each block is extended by the widest scale's Hessian reach (no reduction
    over the image: one pass).

    Returns
    -------
    dask.array.Array
        The tubeness, as in memory.

    See Also
    --------
    sftwave.feature.sato : The same in memory.
    frangi : Frangi's vesselness, lazily.
    meijering : Meijering's neuriteness, lazily (two passes per scale).

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> img = np.ones((90, 80))
    >>> img[:, 40] = 0.0
    >>> r = sato(da.from_array(img, chunks=30), sigmas=[1, 2])
    >>> bool(np.allclose(r.compute(), feature.sato(img, sigmas=[1, 2]), rtol=0, atol=1e-12))
    True
    """
    _, x, dtype = checked_image(call, (2, 3))
    scales = list(ridge_of("sato", call, x).sigmas)
    reach = max_reach(*(hessian_reach(x.shape, s, True, call["tol"]) for s in scales))
    return overlapped(call.fn, x, reach, dtype, None, _wraps(call),
                      **dict(call.without("image"), sigmas=scales))


@lazy("sftwave.feature", "meijering")
def meijering(call: Call) -> da.Array:
    """:func:`sftwave.feature.meijering` of a dask array, lazily.

    Each scale's response is divided by its largest value over the whole image, so
    each scale runs twice: a first pass of the blocks (each extended by the scale's
    Hessian reach) reduces them to their largest values, a second computes them again
    and divides by the image's; no block is kept between the two, so memory stays that
    of the blocks in flight.  Equal to the in-memory result within rounding.

    Returns
    -------
    dask.array.Array
        The neuriteness, as in memory.

    See Also
    --------
    sftwave.feature.meijering : The same filter in memory.
    sato : Sato's tubeness, lazily (no normalisation: one pass).
    frangi : Frangi's vesselness, lazily.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> from sftwave import feature
    >>> img = np.ones((90, 80))
    >>> img[:, 40] = 0.0
    >>> r = meijering(da.from_array(img, chunks=30), sigmas=[1, 2])
    >>> bool(np.allclose(r.compute(), feature.meijering(img, sigmas=[1, 2]), rtol=0, atol=1e-12))
    True
    """
    import dask


    da, x, dtype = checked_image(call, (2, 3))
    scales = ridge_of("meijering", call, x).sigmas
    kw = call.without("image", "sigmas")
    wraps = _wraps(call)
    out = da.zeros(x.shape, dtype=dtype, chunks=x.chunks)
    for sigma in scales:
        reach = hessian_reach(x.shape, sigma, True, call["tol"])
        g, depth = extended(x, reach, wraps)          # first pass: each block's own largest
        tops = g.map_blocks(_block_top, dtype=dtype, chunks=tuple((1,) * len(c) for c in g.chunks),
                            meta=np.empty((0,) * x.ndim, dtype), sigma=sigma, depth=depth,
                            parts=g.npartitions, dtype_of_top=dtype, **kw)
        top = dask.delayed(nan_extreme)(tops, largest=True)
        # second pass: the responses again, divided by the image's largest
        out = da.maximum(out, overlapped(_scaled, x, reach, dtype, None, wraps, sigma=sigma,
                                         top=top, **kw))
    return out


def _block_top(b: np.ndarray, sigma: float, depth: dict[int, int], parts: int,
               dtype_of_top: np.dtype, block_info: Any = None, **k: Any) -> np.ndarray:
    """Meijering's largest response among a block's own samples (NaN: none), one per axis."""

    with block_threads(parts):
        vals = meijering_response(b, sigma, **k)
    loc, nchunks = block_info[0]["chunk-location"], block_info[0]["num-chunks"]
    core = tuple(slice(depth[ax] if loc[ax] > 0 else 0,
                       vals.shape[ax] - (depth[ax] if loc[ax] < nchunks[ax] - 1 else 0))
                 for ax in range(vals.ndim))
    return np.full((1,) * b.ndim, nan_extreme(vals[core], largest=True), dtype_of_top)


def _scaled(b: np.ndarray, sigma: float, top: Any, **k: Any) -> np.ndarray:
    """Meijering's response at one scale, divided by the image's largest (where positive)."""

    vals = meijering_response(b, sigma, **k)
    if top > 0:
        vals /= top
    return vals
