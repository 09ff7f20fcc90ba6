"""The image features' steps on NumPy arrays: the CPU engine's side of :mod:`sftwave.feature`.

The counterpart of ``sftwave.engines.array_api.features``, function for
function and with the same signatures, so that :mod:`sftwave.feature` looks
each step up by name (:func:`sftwave.engines.operation`) and never branches on
the array type:

* :func:`as_float`, :func:`ridge_float`: scikit-image's dtype rules;
* :func:`gradient`: ``np.gradient``;
* :func:`structure_products`: the structure tensor's products of Sobel
  derivatives (one fused pass in 2-D, ``.gradients``);
* :func:`symmetric_eigenvalues`: the eigenvalues of a symmetric field
  (closed form in 2-D and 3-D, ``.eigen``);
* :func:`ridge_accumulator`, :func:`frangi_scale`, :func:`sato_scale`,
  :func:`meijering_scale`, :func:`ridge_result`: the ridge filters' running
  maximum over the scales;
* :func:`gabor_fir_groups`: the Gabor groups run as separable FIRs (``.gabor_fir``).

numba is imported with the kernels' modules, on first use.
"""

from __future__ import annotations

import warnings
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from ..._checks import check_input_array

__all__ = ["as_float", "ridge_float", "gradient", "structure_products", "symmetric_eigenvalues",
           "ridge_accumulator", "frangi_scale", "sato_scale", "meijering_scale",
           "meijering_response", "ridge_result", "gabor_fir_groups", "PAD_MODES"]

#: scipy.ndimage's boundary modes as ``np.pad`` modes.
PAD_MODES = {"reflect": "symmetric", "mirror": "reflect", "nearest": "edge", "wrap": "wrap",
             "constant": "constant"}


def as_float(image: Any, name: str = "image") -> np.ndarray:
    """scikit-image's ``img_as_float``: float16 to float32, integers rescaled by their range.

    Examples
    --------
    >>> as_float(np.array([0, 255], dtype=np.uint8)).tolist()
    [0.0, 1.0]
    """
    arr = check_input_array(image, name)
    kind = arr.dtype.kind
    if kind == "c":
        raise TypeError(f"{name} must be real (bool, integer or float); got dtype {arr.dtype}")
    if kind == "b":
        return arr.astype(np.float64)
    if kind == "u":
        return arr.astype(np.float64) * (1.0 / np.iinfo(arr.dtype).max)
    if kind == "i":
        out = arr.astype(np.float64) * (1.0 / np.iinfo(arr.dtype).max)
        return np.maximum(out, -1.0, out=out)
    if arr.dtype == np.float16:
        return arr.astype(np.float32)
    if arr.dtype not in (np.float32, np.float64):
        return arr.astype(np.float64)
    return arr


def ridge_float(image: Any, name: str = "image") -> np.ndarray:
    """The ridge filters' dtype rule: float32 (and float16) to float32, all else float64, not rescaled.

    Examples
    --------
    >>> ridge_float(np.array([3], dtype=np.uint8)).tolist()
    [3.0]
    """
    arr = check_input_array(image, name)
    if arr.dtype.kind == "c":
        raise TypeError(f"{name} must be real (bool, integer or float); got dtype {arr.dtype}")
    return arr.astype(np.float32 if arr.dtype in (np.float16, np.float32) else np.float64, copy=False)


def gradient(a: np.ndarray, axis: int) -> np.ndarray:
    """``np.gradient(a, axis=axis)``.

    Examples
    --------
    >>> gradient(np.array([1.0, 2.0, 4.0, 7.0]), 0).tolist()
    [1.0, 1.5, 2.5, 3.0]
    """
    return np.gradient(a, axis=axis)


def structure_products(image: np.ndarray, mode: str, cval: float) -> list[np.ndarray]:
    """The products ``D_i D_j`` (upper triangle, row by row) of the Sobel derivatives ``D_i``.

    A 2-D image (except ``mode='constant'`` with a non-zero ``cval``) in one
    fused pass (:func:`.gradients.sobel_products_2d`), else by ``scipy.ndimage.sobel``.

    Examples
    --------
    >>> xx, xy, yy = structure_products(np.eye(3), "reflect", 0.0)
    >>> xx.shape
    (3, 3)
    """
    if image.ndim == 2 and not (mode == "constant" and cval != 0):
        from .gradients import sobel_products_2d

        return list(sobel_products_2d(image, mode, cval, image.dtype))
    from scipy import ndimage as ndi

    derivatives = [ndi.sobel(image, axis=i, mode=mode, cval=cval) for i in range(image.ndim)]
    return [d0 * d1 for d0, d1 in combinations_with_replacement(derivatives, 2)]


def _n_axes(count: int, name: str) -> int:
    """The matrix size n of a list of ``n (n + 1) / 2`` upper-triangle elements."""
    n = int(round((np.sqrt(8 * count + 1) - 1) / 2))
    if count == 0 or n * (n + 1) // 2 != count:
        raise ValueError(f"{name} must hold the n (n + 1) / 2 upper-triangle elements of an n x n "
                         f"symmetric matrix (1, 3, 6, 10, ...); got {count} arrays")
    return n


def symmetric_eigenvalues(elems: Any, name: str) -> np.ndarray:
    """The eigenvalues, decreasing, of the symmetric field given by its upper-triangle ``elems``.

    Shape ``(n,) + elems[0].shape``; float32 for float32 (or float16) elements,
    else float64; NaN at a pixel with a non-finite element.

    Examples
    --------
    >>> one = np.ones(1)
    >>> symmetric_eigenvalues([2 * one, one, 2 * one], "H_elems").ravel().tolist()
    [3.0, 1.0]
    """
    if isinstance(elems, np.ndarray):
        elems = list(elems)
    if not isinstance(elems, (list, tuple)):
        raise TypeError(f"{name} must be a list of arrays (the upper-triangle elements); "
                        f"got {type(elems).__name__}")
    arrays = [check_input_array(e, f"{name}[{i}]") for i, e in enumerate(elems)]
    n = _n_axes(len(arrays), name)
    shape = arrays[0].shape
    for i, a in enumerate(arrays):
        if a.dtype.kind == "c":
            raise TypeError(f"{name}[{i}] must be real; got dtype {a.dtype}")
        if a.shape != shape:
            raise ValueError(f"{name}'s arrays must have one shape; {name}[0] has {shape}, "
                             f"{name}[{i}] has {a.shape}")
    dtype = np.result_type(*arrays)
    if dtype.kind != "f" or dtype.itemsize > 8:
        dtype = np.dtype(np.float64)
    elif dtype == np.float16:
        dtype = np.dtype(np.float32)
    if n == 1:
        return arrays[0].astype(dtype)[np.newaxis]
    # bool and integer elements as floats (one compiled kernel per float dtype)
    arrays = [a if a.dtype in (np.float32, np.float64) else a.astype(dtype) for a in arrays]
    if n in (2, 3):
        from .eigen import eigvals_sym2, eigvals_sym3

        return (eigvals_sym2 if n == 2 else eigvals_sym3)(arrays, dtype)
    matrices = np.empty(shape + (n, n), dtype=np.float64)
    for (i, j), a in zip(combinations_with_replacement(range(n), 2), arrays, strict=True):
        matrices[..., i, j] = a
        matrices[..., j, i] = a
    bad = ~np.isfinite(matrices).all(axis=(-2, -1))
    matrices[bad] = 0.0
    eigs = np.linalg.eigvalsh(matrices)[..., ::-1]
    eigs[bad] = np.nan
    return np.moveaxis(eigs, -1, 0).astype(dtype)


def ridge_accumulator(image: np.ndarray, wide: bool) -> np.ndarray:
    """The ridge filters' running maximum, zeros of ``image``'s shape: float64 if ``wide``,
    else ``image``'s dtype (C-contiguous: the kernels write it flat).

    Examples
    --------
    >>> ridge_accumulator(np.ones(2, np.float32), wide=True).dtype
    dtype('float64')
    """
    return np.zeros(image.shape, dtype=np.float64 if wide else image.dtype)


def ridge_result(out: np.ndarray, image: np.ndarray) -> np.ndarray:
    """The running maximum in ``image``'s dtype.

    Examples
    --------
    >>> ridge_result(np.zeros(1), np.ones(1, np.float32)).dtype
    dtype('float32')
    """
    return out.astype(image.dtype, copy=False)


def frangi_scale(elems: list[np.ndarray], out: np.ndarray, alpha: float, beta: float,
                 gamma: float) -> np.ndarray:
    """``out`` maxed, in place, with Frangi's vesselness of one scale (:func:`.eigen.frangi_scale`).

    Examples
    --------
    >>> out = frangi_scale([np.zeros(1), np.zeros(1), np.ones(1)], np.zeros(1), 0.5, 0.5, 1.0)
    >>> round(float(out[0]), 6)      # a line: 1 - exp(-1/2)
    0.393469
    """
    from . import eigen

    eigen.frangi_scale(elems, out, alpha, beta, gamma)
    return out


def sato_scale(elems: list[np.ndarray], out: np.ndarray, sigma: float) -> np.ndarray:
    """``out`` maxed, in place, with Sato's tubeness of one scale (:func:`.eigen.sato_scale`).

    Examples
    --------
    >>> float(sato_scale([np.ones(1), np.zeros(1), np.zeros(1)], np.zeros(1), 2.0)[0])
    4.0
    """
    from . import eigen

    eigen.sato_scale(elems, out, sigma)
    return out


def _nan_max(values: np.ndarray) -> float:
    top = values.max()
    if np.isnan(top):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)      # all NaN: NaN
            top = np.nanmax(values)
    return top


def meijering_response(elems: list[np.ndarray], alpha: float) -> np.ndarray:
    """Meijering's response of one scale, not normalised, in the elements' dtype (``alpha``
    rounded to it, as scikit-image mixes in the image's dtype).

    Examples
    --------
    >>> float(meijering_response([np.ones(1), np.zeros(1), np.full(1, -3.0)], 0.5)[0])
    0.0
    """
    from . import eigen

    dtype = elems[0].dtype
    return eigen.meijering_scale(elems, float(np.asarray(alpha, dtype=dtype)), dtype)


def meijering_scale(elems: list[np.ndarray], out: np.ndarray, alpha: float) -> np.ndarray:
    """``out`` maxed, in place, with Meijering's response of one scale divided by its largest
    (non-NaN) value where that is positive.

    Examples
    --------
    >>> one = np.ones(2)
    >>> meijering_scale([one, 0 * one, 0 * one], np.zeros(2), 0.0).tolist()
    [1.0, 1.0]
    """
    vals = meijering_response(elems, alpha)
    top = _nan_max(vals)
    if top > 0:
        vals /= top
    return np.maximum(out, vals, out=out)


def gabor_fir_groups(image: np.ndarray, groups: list[tuple], pad: tuple[int, int], mode: str,
                     cval: float, weight: complex, out: np.ndarray) -> None:
    """Gabor groups of one frequency by separable complex FIRs, into ``out`` (``(n_theta,) +
    image.shape``): the image extended by ``pad`` once, then one pass per group.

    ``groups``: ``(vc, vs, hc, hs, signs, t_index)`` each, as
    :func:`.gabor_fir.gabor_group_fir` takes them.

    Examples
    --------
    >>> img = np.zeros((5, 5)); img[2, 2] = 1.0
    >>> out = np.zeros((1, 5, 5), complex)
    >>> half = np.array([1.0, 0.5])
    >>> gabor_fir_groups(img, [(half, 0 * half, half, 0 * half, np.ones((1, 2)),
    ...                         np.zeros(1, np.int64))], (1, 1), "constant", 0.0, 1.0, out)
    >>> float(out[0, 2, 2].real)
    1.0
    """
    from .gabor_fir import gabor_group_fir

    pv, ph = pad
    if mode == "constant":
        padded = np.pad(image, ((pv, pv), (ph, ph)), mode="constant", constant_values=cval)
    else:
        padded = np.pad(image, ((pv, pv), (ph, ph)), mode=PAD_MODES[mode])  # type: ignore[call-overload]
    for vc, vs, hc, hs, signs, t_index in groups:
        gabor_group_fir(padded, vc, vs, hc, hs, (pv, ph), signs, weight, out, t_index)
