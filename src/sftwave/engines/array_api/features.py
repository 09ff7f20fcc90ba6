"""The image features' own steps in array-API code (torch, CuPy): for :mod:`sftwave.feature`.

The Gaussian filters of the features run on the array-API engine through
:func:`sftwave.gaussian_filter`; what is left is here, each step the
definition the numpy path follows:

* :func:`as_float`, :func:`ridge_float`: scikit-image's dtype rules;
* :func:`gradient`: ``np.gradient`` (unit spacing, first-order edges);
* :func:`sobel`: ``scipy.ndimage.sobel`` (the line extended by ``mode``), and
  :func:`structure_products`, the structure tensor's products of them;
* :func:`symmetric_eigenvalues`: eigenvalues of a symmetric field, decreasing,
  by the library's ``linalg.eigvalsh`` (NaN where an element is not finite);
* :func:`ridge_accumulator`, :func:`frangi_scale`, :func:`sato_scale`,
  :func:`meijering_scale`, :func:`ridge_result`: Frangi's vesselness, Sato's
  tubeness and Meijering's neuriteness of one scale maxed into a running
  maximum, as ``sftwave.engines.numba.eigen`` computes them.

Each has the signature of its namesake in ``sftwave.engines.numba.features``:
:mod:`sftwave.feature` looks them up by name (:func:`sftwave.engines.operation`).

Results are new arrays of the input's library and device; torch tensors keep
their autograd graph where the operations allow it.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from .filters import device_of, fir1d, namespace

__all__ = ["as_float", "ridge_float", "gradient", "sobel", "structure_products",
           "symmetric_eigenvalues", "ridge_accumulator", "ridge_result", "frangi_scale",
           "sato_scale", "meijering_response", "meijering_scale"]


def as_float(x: Any, name: str = "image") -> Any:
    """scikit-image's ``img_as_float`` for an array-API array: float32 stays float32, float16
    becomes float32, integers are rescaled by their dtype's range and bool is 0.0/1.0 (float64).
    """
    xp = namespace(x)
    dt = x.dtype
    if xp.isdtype(dt, "complex floating"):
        raise TypeError(f"{name} must be real (bool, integer or float); got dtype {dt}")
    if dt == xp.bool:
        return xp.astype(x, xp.float64)
    if xp.isdtype(dt, "integral"):
        top = float(xp.iinfo(dt).max)
        out = xp.astype(x, xp.float64) * (1.0 / top)
        return out if xp.isdtype(dt, "unsigned integer") else xp.maximum(out, -1.0)
    if dt in (xp.float32, xp.float64):
        return x
    return xp.astype(x, xp.float32)


def ridge_float(x: Any, name: str = "image") -> Any:
    """The ridge filters' dtype rule: float32 (and float16) to float32, all else float64, not
    rescaled.

    Examples
    --------
    >>> import numpy as np
    >>> ridge_float(np.array([3], dtype=np.uint8)).dtype
    dtype('float64')
    """
    xp = namespace(x)
    if xp.isdtype(x.dtype, "complex floating"):
        raise TypeError(f"{name} must be real (bool, integer or float); got dtype {x.dtype}")
    return xp.astype(x, xp.float32 if x.dtype in (xp.float16, xp.float32) else xp.float64)


def _take(xp, x: Any, axis: int, start: int, stop: int) -> Any:
    idx = [slice(None)] * len(x.shape)
    idx[axis] = slice(start, stop)
    return x[tuple(idx)]


def gradient(x: Any, axis: int) -> Any:
    """``np.gradient(x, axis=axis)``: central differences inside, one-sided at the two ends.

    Examples
    --------
    >>> import numpy as np
    >>> gradient(np.array([1.0, 2.0, 4.0, 7.0]), 0).tolist()
    [1.0, 1.5, 2.5, 3.0]
    """
    xp = namespace(x)
    n = int(x.shape[axis])
    if n < 2:
        raise ValueError("Shape of array too small to calculate a numerical gradient, at least "
                         "(edge_order + 1) elements are required.")
    first = _take(xp, x, axis, 1, 2) - _take(xp, x, axis, 0, 1)
    last = _take(xp, x, axis, n - 1, n) - _take(xp, x, axis, n - 2, n - 1)
    inner = (_take(xp, x, axis, 2, n) - _take(xp, x, axis, 0, n - 2)) / 2.0
    return xp.concat([first, inner, last], axis=axis)


def sobel(x: Any, axis: int, mode: str, cval: float) -> Any:
    """``scipy.ndimage.sobel(x, axis, mode=mode, cval=cval)``: the difference ``[-1, 0, 1]``
    along ``axis`` and the smoothing ``[1, 2, 1]`` along every other axis.

    Examples
    --------
    >>> import numpy as np
    >>> from scipy import ndimage as ndi
    >>> a = np.arange(12.0).reshape(3, 4) ** 2
    >>> bool(np.allclose(sobel(a, 1, "reflect", 0.0), ndi.sobel(a, 1, mode="reflect")))
    True
    """
    y = fir1d(x, np.array([1.0, 0.0, -1.0]), axis=axis, mode=mode, cval=cval)  # a convolution
    for ax in range(len(x.shape)):
        if ax != axis:
            y = fir1d(y, np.array([1.0, 2.0, 1.0]), axis=ax, mode=mode, cval=cval)
    return y


def structure_products(x: Any, mode: str, cval: float) -> list[Any]:
    """The products ``D_i D_j`` (upper triangle, row by row) of the Sobel derivatives ``D_i``.

    Examples
    --------
    >>> import numpy as np
    >>> len(structure_products(np.eye(3), "reflect", 0.0))
    3
    """
    derivatives = [sobel(x, i, mode, cval) for i in range(len(x.shape))]
    return [d0 * d1 for d0, d1 in combinations_with_replacement(derivatives, 2)]


def _n_axes(count: int, name: str) -> int:
    """The matrix size n of a list of ``n (n + 1) / 2`` upper-triangle elements."""
    n = int(round((np.sqrt(8 * count + 1) - 1) / 2))
    if count == 0 or n * (n + 1) // 2 != count:
        raise ValueError(f"{name} must hold the n (n + 1) / 2 upper-triangle elements of an n x n "
                         f"symmetric matrix (1, 3, 6, 10, ...); got {count} arrays")
    return n


def symmetric_eigenvalues(elems: Any, name: str) -> Any:
    """The eigenvalues, decreasing, of the symmetric field given by its upper triangle (row by
    row): shape ``(n,) + shape``, NaN where an element is not finite; float32 for float32
    elements, else float64.

    Examples
    --------
    >>> import numpy as np
    >>> one = np.ones(1)
    >>> symmetric_eigenvalues([2 * one, one, 2 * one], "H_elems").ravel().tolist()
    [3.0, 1.0]
    """
    if not isinstance(elems, (list, tuple)) or not elems:
        raise TypeError(f"{name} must be a list of arrays (the upper-triangle elements); "
                        f"got {type(elems).__name__}")
    n = _n_axes(len(elems), name)
    xp = namespace(elems[0])
    shape = tuple(elems[0].shape)
    for i, a in enumerate(elems):
        if xp.isdtype(a.dtype, "complex floating"):
            raise TypeError(f"{name}[{i}] must be real; got dtype {a.dtype}")
        if tuple(a.shape) != shape:
            raise ValueError(f"{name}'s arrays must have one shape; {name}[0] has {shape}, "
                             f"{name}[{i}] has {tuple(a.shape)}")
    dtype = xp.result_type(*elems)
    if not xp.isdtype(dtype, "real floating") or dtype == xp.float64:
        dtype = xp.float64
    elif dtype != xp.float32:
        dtype = xp.float32
    return _eigenvalues([xp.astype(a, dtype) for a in elems], n)


def _eigenvalues(elems: list[Any], n: int) -> Any:
    """:func:`symmetric_eigenvalues` of checked elements of one float dtype."""
    xp = namespace(elems[0])
    if n == 1:
        return elems[0][None, ...]
    rows: list[list[Any]] = [[None] * n for _ in range(n)]
    for (i, j), a in zip(combinations_with_replacement(range(n), 2), elems, strict=True):
        rows[i][j] = rows[j][i] = a
    m = xp.stack([xp.stack(r, axis=-1) for r in rows], axis=-2)          # shape + (n, n)
    bad = xp.logical_not(xp.all(xp.isfinite(m), axis=(-2, -1)))
    m = xp.where(bad[..., None, None], xp.zeros_like(m), m)
    eigs = xp.linalg.eigvalsh(m)                                            # increasing
    eigs = xp.where(bad[..., None], xp.full_like(eigs, float("nan")), eigs)
    return xp.stack([eigs[..., n - 1 - k] for k in range(n)], axis=0)


def _by_magnitude(xp, e: list[Any]) -> list[Any]:
    """The eigenvalues reordered by magnitude, increasing (a stable compare-and-swap network,
    ties keeping the decreasing order), as the numba kernel orders them."""
    def swap(i: int, j: int) -> None:
        s = xp.abs(e[j]) < xp.abs(e[i])
        e[i], e[j] = xp.where(s, e[j], e[i]), xp.where(s, e[i], e[j])

    swap(0, 1)
    if len(e) == 3:
        swap(1, 2)
        swap(0, 1)
    return e


def frangi_scale(elems: list[Any], out: Any, alpha: float, beta: float, gamma: float) -> Any:
    """``out`` maxed with Frangi's vesselness of one scale (the Hessian's ``elems``), NaN
    propagated; a new array (float64), in scikit-image's formula.

    Examples
    --------
    >>> import numpy as np
    >>> out = frangi_scale([np.zeros(1), np.zeros(1), np.ones(1)], np.zeros(1), 0.5, 0.5, 1.0)
    >>> round(float(out[0]), 6)      # a line: 1 - exp(-1/2)
    0.393469
    """
    xp = namespace(out)
    n = 2 if len(elems) == 3 else 3
    h = [xp.astype(a, xp.float64) for a in elems]
    eig = _eigenvalues(h, n)
    e = _by_magnitude(xp, [eig[k, ...] for k in range(n)])
    s2 = sum(v * v for v in e)
    structure = 1.0 - xp.exp(-s2 / (2.0 * gamma * gamma))
    if n == 2:
        rb = xp.abs(e[0]) / xp.maximum(e[1], 1e-10)
        v = xp.exp(-rb * rb / (2.0 * beta * beta)) * structure
    else:
        l2, l3 = xp.maximum(e[1], 1e-10), xp.maximum(e[2], 1e-10)
        ra = l2 / l3
        rb = xp.abs(e[0]) / xp.sqrt(l2 * l3)
        v = ((1.0 - xp.exp(-ra * ra / (2.0 * alpha * alpha)))
             * xp.exp(-rb * rb / (2.0 * beta * beta)) * structure)
    v = xp.where(xp.isnan(e[0]), xp.full_like(v, float("nan")), v)
    keep = xp.isnan(out) | (~xp.isnan(v) & (v <= out))
    return xp.where(keep, out, v)


def _max_into(xp, out: Any, v: Any) -> Any:
    """``out`` maxed with ``v``, a NaN in either kept (the numba kernels' rule)."""
    keep = xp.isnan(out) | (~xp.isnan(v) & (v <= out))
    return xp.where(keep, out, v)


def sato_scale(elems: list[Any], out: Any, sigma: float) -> Any:
    """``out`` maxed with Sato's tubeness of one scale: ``sigma**2`` times the largest
    eigenvalue clipped at 0 (2-D), or the geometric mean of the two largest clipped at 0
    (3-D); NaN propagated; a new array of ``out``'s dtype.

    Examples
    --------
    >>> import numpy as np
    >>> out = sato_scale([np.ones(1), np.zeros(1), np.zeros(1)], np.zeros(1), 2.0)
    >>> float(out[0])                # sigma**2 times the largest eigenvalue, 1
    4.0
    """
    xp = namespace(out)
    n = 2 if len(elems) == 3 else 3
    eig = _eigenvalues([xp.astype(a, xp.float64) for a in elems], n)
    zero = xp.zeros_like(eig[0, ...])
    if n == 2:
        v = sigma * sigma * xp.maximum(eig[0, ...], zero)
    else:
        v = sigma * sigma * xp.sqrt(xp.maximum(eig[0, ...], zero) * xp.maximum(eig[1, ...], zero))
    v = xp.where(xp.isnan(eig[0, ...]), xp.full_like(v, float("nan")), v)
    return _max_into(xp, out, xp.astype(v, out.dtype))


def meijering_response(elems: list[Any], alpha: float) -> Any:
    """Meijering's response of one scale (not yet normalised), float64: the mixed eigenvalue
    ``l_i + alpha sum_(j != i) l_j`` of largest magnitude (the first of equals), clipped below
    at 0, NaN where an element is not finite; ``alpha`` rounded to the elements' dtype, as
    scikit-image mixes in the image's.

    Examples
    --------
    >>> import numpy as np
    >>> v = meijering_response([np.ones(1), np.zeros(1), np.full(1, -3.0)], 0.5)
    >>> float(v[0])                  # mixed: 1 - 1.5 and -3 + 0.5; the larger magnitude is < 0
    0.0
    """
    xp = namespace(elems[0])
    alpha = float(np.asarray(alpha, dtype=np.float32 if elems[0].dtype == xp.float32 else np.float64))
    n = 2 if len(elems) == 3 else 3
    eig = _eigenvalues([xp.astype(a, xp.float64) for a in elems], n)
    e = [eig[k, ...] for k in range(n)]
    total = sum(e)
    v = e[0] + alpha * (total - e[0])
    for k in range(1, n):
        vk = e[k] + alpha * (total - e[k])
        v = xp.where(xp.abs(vk) > xp.abs(v), vk, v)
    v = xp.maximum(v, xp.zeros_like(v))
    return xp.where(xp.isnan(e[0]), xp.full_like(v, float("nan")), v)


def meijering_scale(elems: list[Any], out: Any, alpha: float) -> Any:
    """``out`` maxed with Meijering's response of one scale divided by its largest (non-NaN)
    value where that is positive; a new array of ``out``'s dtype.

    Examples
    --------
    >>> import numpy as np
    >>> one = np.ones(2)
    >>> meijering_scale([one, 0 * one, 0 * one], np.zeros(2), 0.0).tolist()
    [1.0, 1.0]
    """
    xp = namespace(out)
    v = meijering_response(elems, alpha)
    top = float(xp.max(xp.where(xp.isnan(v), xp.full_like(v, -1.0), v)))
    if top > 0:
        v = v / top
    return xp.maximum(out, xp.astype(v, out.dtype))


def ridge_accumulator(x: Any, wide: bool) -> Any:
    """Zeros of ``x``'s shape on its device: float64 if ``wide``, else ``x``'s dtype.

    Examples
    --------
    >>> import numpy as np
    >>> ridge_accumulator(np.ones(2, np.float32), wide=True).dtype
    dtype('float64')
    """
    xp = namespace(x)
    return xp.zeros(tuple(x.shape), dtype=xp.float64 if wide else x.dtype, device=device_of(x))


def ridge_result(out: Any, x: Any) -> Any:
    """The running maximum in ``x``'s dtype.

    Examples
    --------
    >>> import numpy as np
    >>> ridge_result(np.zeros(1), np.ones(1, np.float32)).dtype
    dtype('float32')
    """
    return namespace(out).astype(out, x.dtype)
