"""Scale-space features of images, as scikit-image computes them: Hessian, structure tensor, DoG,
blobs and ridges.

The names, signatures, argument order, defaults and outputs are
scikit-image's (``skimage.feature.hessian_matrix``,
``hessian_matrix_eigvals``, ``structure_tensor``,
``structure_tensor_eigenvalues``, ``blob_log``, ``blob_dog``,
``skimage.filters.difference_of_gaussians``, ``frangi``, ``sato`` and
``meijering``),
so that switching is one import.  Every Gaussian inside is sftwave's
(:func:`sftwave.gaussian_filter`), at a cost per pixel that does not depend on
``sigma`` and with its accuracy contract (``tol=``, a keyword scikit-image
does not have).

Conventions, as scikit-image's:

* **Input dtype** (scikit-image's ``img_as_float``): float32 stays float32,
  float16 becomes float32, float64 stays float64; integer images are rescaled
  to floats by their dtype's range (``uint8`` 255 -> 1.0; signed: divided by
  the dtype's maximum, the most negative value clipped to -1.0) and bool is
  0.0/1.0, both in float64.  Complex images are refused (TypeError).
* **Order of the elements**: the upper triangle of the symmetric matrix, row
  by row (``itertools.combinations_with_replacement`` of the axes): in 2-D
  ``[Hrr, Hrc, Hcc]``, in 3-D ``[H00, H01, H02, H11, H12, H22]``;
  ``order='xy'`` (2-D only) reverses the axes (``[Hcc, Hcr, Hrr]``).
* **Scale**: :func:`hessian_matrix` is *not* scale-normalised, as scikit-image's
  (no ``sigma**2`` factor); multiply the elements by ``sigma**2`` for the
  scale-normalised Hessian of Lindeberg's scale space.
* **Eigenvalues** come in decreasing order, shape ``(ndim,) + image.shape``.
* **Array types**: NumPy arrays, and array-API arrays (torch tensors, CuPy arrays) on the
  'xp' engine, returned as the same type on the same device (torch keeps its autograd
  graph). There, ``np.gradient`` and scipy's Sobel are array code, and the eigenvalues
  come from the library's ``linalg.eigvalsh``.
* **NaN** is confined as the filters confine it (:func:`sftwave.gaussian_filter`,
  ``nan_policy='propagate'``): a non-finite pixel spoils only the outputs whose
  kernels reach it; a matrix with a non-finite element has NaN eigenvalues.

With ``use_gaussian_derivatives=True`` the Hessian is scikit-image's
definition, pass for pass: the first derivatives of the Gaussian of
``sigma / sqrt(2)`` along each axis, then a first derivative of those (each
pass extended by ``mode``, scipy's kernels truncated at 8 sigma, or 100 for
sigma <= 1), which is the second derivative of the Gaussian of ``sigma`` in the
continuous limit.  scikit-image's kernels at 8 sigma have a kernel error near
1e-14, which only a truncated kernel (a cost that grows with ``sigma``) reaches.
sftwave's default there is ``tol=1e-7``, about float32's resolution, met at a
cost that does not depend on ``sigma``; a smaller ``tol`` buys more accuracy
(down to 1e-9 still by the recursions, below that by scipy's kernel).
"""

from __future__ import annotations

import math
import numbers
import warnings
from collections.abc import Iterable, Sequence
from itertools import chain, combinations_with_replacement
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from . import engines
from ._checks import (
    check_axis,
    check_choice,
    check_cval,
    check_input_array,
    check_mode,
    check_positive,
    check_tol,
    check_truncate,
    per_axis,
)
from ._scale_space import DERIVATIVE_TOL, derivative_truncate, finite_max, frangi_gamma, hessian_norm2
from .ndimage import gaussian_filter, gaussian_laplace

__all__ = ["hessian_matrix", "hessian_matrix_eigvals", "structure_tensor",
           "structure_tensor_eigenvalues", "difference_of_gaussians", "frangi",
           "blob_log", "blob_dog", "sato", "meijering", "gabor", "gabor_bank"]


def _as_float(image: Any, name: str = "image") -> np.ndarray:
    """scikit-image's ``img_as_float`` (float16 to float32, integers rescaled by their range);
    an array-API array (torch, CuPy) stays one, on its device."""
    if _is_xp(image):
        from .engines.array_api.features import as_float

        return as_float(image, name)
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


def _is_xp(x: Any) -> bool:
    """Whether ``x`` is an array-API array that is not numpy's (torch, CuPy): the 'xp' engine's."""
    return not isinstance(x, np.ndarray) and engines.resolve_engine(None, x) == "xp"


def _gradient(a: Any, axis: int) -> Any:
    """``np.gradient(a, axis=axis)``, also for array-API arrays."""
    if _is_xp(a):
        from .engines.array_api.features import gradient

        return gradient(a, axis)
    return np.gradient(a, axis=axis)


def _sigmas(sigma: Any, ndim: int, name: str = "sigma", *, allow_zero: bool = False) -> list[float]:
    """One positive (or zero) finite sigma per axis, from a scalar or a sequence."""
    return [check_positive(s, name, allow_zero=allow_zero) for s in per_axis(sigma, ndim, name)]


def _check_order(order: Any, ndim: int) -> str:
    """'rc' or 'xy'; 'xy' only for 2-D images (scikit-image's rule)."""
    order = check_choice(order, ("rc", "xy"), "order")
    if order == "xy" and ndim != 2:
        raise ValueError(f"order='xy' is only supported for 2-D images; got a {ndim}-D image")
    return order


def hessian_matrix(image: ArrayLike, sigma: float | Sequence[float] = 1, mode: str = "constant",
                   cval: float = 0, order: str = "rc", use_gaussian_derivatives: bool | None = None,
                   *, tol: float | None = None) -> list[np.ndarray]:
    """The Hessian of an image smoothed by a Gaussian: its upper-triangle elements (scikit-image's).

    In 2-D, ``H = [[Hrr, Hrc], [Hrc, Hcc]]``; in n-D the ``n (n + 1) / 2``
    elements of the upper triangle, row by row.

    Parameters
    ----------
    image : array_like
        The image, any number of axes (converted as scikit-image's
        ``img_as_float``: float32 stays float32, integers rescaled to [-1, 1]).
    sigma : float or sequence of float, optional
        The Gaussian's standard deviation in pixels, one for all axes or one per
        axis (positive).  The cost does not depend on it.
    mode : {'constant', 'reflect', 'wrap', 'nearest', 'mirror'}, optional
        How the image is extended beyond its borders (scipy.ndimage's modes).
    cval : float, optional
        The value beyond the borders with ``mode='constant'``.
    order : {'rc', 'xy'}, optional
        'rc': the axes in their order (``Hrr, Hrc, Hcc``); 'xy' (2-D only): reversed
        (``Hxx, Hxy, Hyy`` with x the columns).
    use_gaussian_derivatives : bool or None, optional
        True: the elements are the image filtered by derivatives of the Gaussian,
        as scikit-image computes them (two first-derivative passes at
        ``sigma / sqrt(2)``; see Notes).  False: scikit-image's
        finite differences, ``np.gradient`` twice of the Gaussian-smoothed image.
        None: False, scikit-image's present default (which it warns will become
        True; pass it explicitly).
    tol : float or None, optional
        The Gaussian filters' accuracy (:func:`sftwave.gaussian_filter`'s ``tol``).
        None: with Gaussian derivatives 1e-7 (a cost independent of ``sigma``; see
        the module's notes), otherwise the filters' own default.

    Returns
    -------
    H_elems : list of ndarray
        The ``ndim (ndim + 1) / 2`` elements, each of the image's shape, in the
        image's float dtype (float32 or float64).  Not scale-normalised (no
        ``sigma**2`` factor), as scikit-image.

    Raises
    ------
    ValueError
        A non-positive or non-finite ``sigma``, a sequence of ``sigma`` of the wrong
        length, an unknown ``mode`` or ``order``, or ``order='xy'`` for an image
        that is not 2-D.
    TypeError
        A complex or non-numeric image, or a non-real ``cval``.

    See Also
    --------
    hessian_matrix_eigvals : The eigenvalues of the elements, pixel by pixel.
    structure_tensor : The first-derivative counterpart.
    sftwave.gaussian_filter : The Gaussian (derivative) filters inside.

    Notes
    -----
    With ``use_gaussian_derivatives=True``, scikit-image's two passes: ``ndim``
    first-derivative filters at ``sigma / sqrt(2)``, then one more per element
    (5 filters in 2-D, 9 in 3-D), each at a cost independent of ``sigma``.  Near
    the borders this is not the derivative of the extended image (the second
    pass extends the first derivatives by ``mode``), as in scikit-image.

    Examples
    --------
    >>> from sftwave.feature import hessian_matrix
    >>> image = np.zeros((7, 7))
    >>> image[3, 3] = 1.0
    >>> Hrr, Hrc, Hcc = hessian_matrix(image, sigma=1.0, use_gaussian_derivatives=True)
    >>> float(Hrr[3, 3]) < 0 and bool(np.allclose(Hrr, Hcc.T)) and bool(np.allclose(Hrc[3], 0))
    True
    """
    image = _as_float(image)
    ndim = image.ndim
    if ndim == 0:
        raise ValueError("image must have at least one axis; got a 0-d array")
    sigmas = _sigmas(sigma, ndim)
    mode = check_mode(mode)
    cval = check_cval(cval)
    order = _check_order(order, ndim)
    tol = check_tol(tol)
    if use_gaussian_derivatives is not None and not isinstance(use_gaussian_derivatives,
                                                               (bool, np.bool_)):
        raise TypeError(f"use_gaussian_derivatives must be True, False or None; "
                        f"got {use_gaussian_derivatives!r}")
    axes = list(range(ndim))
    if order == "xy":
        axes.reverse()
    pairs = list(combinations_with_replacement(axes, 2))
    if use_gaussian_derivatives:
        # scikit-image's definition: first derivatives at sigma / sqrt(2), then a first
        # derivative of those, each pass extended by `mode` and truncated at 8 sigma
        # (100 for sigma <= 1), where sftwave's filters take scipy's kernel (small sigma)
        # or meet `tol` at a cost independent of sigma
        truncate = derivative_truncate(sigmas)
        if tol is None:
            tol = DERIVATIVE_TOL
        scaled = [s / math.sqrt(2.0) for s in sigmas]
        units = [[int(k == d) for k in range(ndim)] for d in range(ndim)]
        gradients = [gaussian_filter(image, scaled, order=units[d], mode=mode, cval=cval,
                                     truncate=truncate, tol=tol) for d in range(ndim)]
        return [gaussian_filter(gradients[ax0], scaled, order=units[ax1], mode=mode, cval=cval,
                                truncate=truncate, tol=tol) for ax0, ax1 in pairs]
    smoothed = gaussian_filter(image, sigmas, mode=mode, cval=cval, tol=tol)
    gradients = [_gradient(smoothed, ax) for ax in range(ndim)]
    return [_gradient(gradients[ax0], ax1) for ax0, ax1 in pairs]


def _n_axes(count: int, name: str) -> int:
    """The matrix size n of a list of ``n (n + 1) / 2`` upper-triangle elements."""
    n = int(round((np.sqrt(8 * count + 1) - 1) / 2))
    if count == 0 or n * (n + 1) // 2 != count:
        raise ValueError(f"{name} must hold the n (n + 1) / 2 upper-triangle elements of an n x n "
                         f"symmetric matrix (1, 3, 6, 10, ...); got {count} arrays")
    return n


def _symmetric_eigenvalues(elems: Any, name: str) -> np.ndarray:
    """The eigenvalues, decreasing, of the field given by its upper-triangle elements."""
    if isinstance(elems, (list, tuple)) and elems and all(_is_xp(e) for e in elems):
        return _symmetric_eigenvalues_xp(list(elems), name)
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
        from .engines.numba.eigen import eigvals_sym2, eigvals_sym3  # numba: imported on first use

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


def _symmetric_eigenvalues_xp(elems: list[Any], name: str) -> Any:
    """:func:`_symmetric_eigenvalues` for array-API arrays (the library's ``eigvalsh``)."""
    from .engines.array_api.features import symmetric_eigenvalues
    from .engines.array_api.filters import namespace

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
    return symmetric_eigenvalues([xp.astype(a, dtype) for a in elems], n)


def hessian_matrix_eigvals(H_elems: Sequence[ArrayLike]) -> np.ndarray:
    """The eigenvalues of a Hessian field, in decreasing order (scikit-image's).

    Parameters
    ----------
    H_elems : list of array_like
        The upper-triangle elements of each pixel's symmetric matrix, as
        :func:`hessian_matrix` returns them (3 arrays in 2-D, 6 in 3-D,
        ``n (n + 1) / 2`` in n-D), all of one shape.

    Returns
    -------
    eigs : ndarray
        Shape ``(n,) + H_elems[0].shape``: ``eigs[0]`` the largest eigenvalue at
        each pixel, ``eigs[-1]`` the smallest.  float32 for float32 (or float16)
        elements, float64 otherwise.  NaN at a pixel with a non-finite element.

    Raises
    ------
    ValueError
        A number of arrays that is not ``n (n + 1) / 2``, or arrays of different shapes.
    TypeError
        Not a list of arrays, or complex arrays.

    See Also
    --------
    hessian_matrix : The elements.
    structure_tensor_eigenvalues : The same for the structure tensor.

    Notes
    -----
    2 x 2 and 3 x 3 fields in closed form in one pass of a numba kernel (the
    arithmetic in float64; 3 x 3 by the trigonometric formula, by Jacobi
    rotations near a repeated eigenvalue, where the formula would lose
    accuracy); larger ones by :func:`numpy.linalg.eigvalsh`.  The results agree with
    :func:`numpy.linalg.eigvalsh`'s to within about 16 units of rounding of the
    matrix's largest element (measured: at most 14).

    Examples
    --------
    >>> from sftwave.feature import hessian_matrix_eigvals
    >>> H = [np.array([[2.0]]), np.array([[1.0]]), np.array([[2.0]])]
    >>> hessian_matrix_eigvals(H).ravel().tolist()
    [3.0, 1.0]
    """
    return _symmetric_eigenvalues(H_elems, "H_elems")


def structure_tensor(image: ArrayLike, sigma: float | Sequence[float] = 1, mode: str = "constant",
                     cval: float = 0, order: str = "rc", *,
                     tol: float | None = None) -> list[np.ndarray]:
    """The structure tensor: Gaussian-weighted products of the Sobel derivatives (scikit-image's).

    ``A_ij = G_sigma * (D_i D_j)``, ``D_i`` :func:`scipy.ndimage.sobel` along axis
    i (with ``mode`` and ``cval``), ``G_sigma`` the Gaussian (sftwave's, with the
    same ``mode`` and ``cval``).

    Parameters
    ----------
    image : array_like
        The image, squeezed of its length-1 axes, at least 2-D afterwards
        (converted as scikit-image's ``img_as_float``).
    sigma : float or sequence of float, optional
        The weighting Gaussian's standard deviation, one for all axes or one per
        axis (positive).  The cost does not depend on it.
    mode : {'constant', 'reflect', 'wrap', 'nearest', 'mirror'}, optional
        How the image is extended beyond its borders (for both the Sobel
        derivatives and the Gaussian).
    cval : float, optional
        The value beyond the borders with ``mode='constant'``.
    order : {'rc', 'xy'}, optional
        'rc': the axes in their order (``Arr, Arc, Acc``); 'xy' (2-D only): reversed.
    tol : float or None, optional
        The Gaussian filters' accuracy (:func:`sftwave.gaussian_filter`'s ``tol``).

    Returns
    -------
    A_elems : list of ndarray
        The upper-triangle elements, ``ndim (ndim + 1) / 2`` arrays of the
        (squeezed) image's shape, float32 for float32 images, else float64.

    Raises
    ------
    ValueError
        A squeezed image with fewer than 2 axes, a bad ``sigma``, ``mode`` or ``order``.
    TypeError
        A complex or non-numeric image, or a non-real ``cval``.

    See Also
    --------
    structure_tensor_eigenvalues : Its eigenvalues, pixel by pixel.
    hessian_matrix : The second-derivative counterpart.

    Examples
    --------
    >>> from sftwave.feature import structure_tensor
    >>> square = np.zeros((5, 5))
    >>> square[2, 2] = 1.0
    >>> Arr, Arc, Acc = structure_tensor(square, sigma=0.1)
    >>> np.round(Acc, 6)
    array([[0., 0., 0., 0., 0.],
           [0., 1., 0., 1., 0.],
           [0., 4., 0., 4., 0.],
           [0., 1., 0., 1., 0.],
           [0., 0., 0., 0., 0.]])
    """
    from scipy import ndimage as ndi

    image = _as_float(image)
    xp_input = _is_xp(image)
    if xp_input:
        from .engines.array_api.features import sobel

        image = image[tuple(0 if k == 1 else slice(None) for k in image.shape)]  # np.squeeze
    else:
        image = np.squeeze(image)
    if image.ndim < 2:
        raise ValueError(f"image must have at least 2 axes longer than 1; got shape {image.shape} "
                         f"after squeezing")
    sigmas = _sigmas(sigma, image.ndim)
    mode = check_mode(mode)
    cval = check_cval(cval)
    order = _check_order(order, image.ndim)
    tol = check_tol(tol)
    derivatives = [sobel(image, i, mode, cval) if xp_input else
                   ndi.sobel(image, axis=i, mode=mode, cval=cval) for i in range(image.ndim)]
    if order == "xy":
        derivatives.reverse()
    return [gaussian_filter(d0 * d1, sigmas, mode=mode, cval=cval, tol=tol)
            for d0, d1 in combinations_with_replacement(derivatives, 2)]


def structure_tensor_eigenvalues(A_elems: Sequence[ArrayLike]) -> np.ndarray:
    """The eigenvalues of a structure tensor field, in decreasing order (scikit-image's).

    Parameters
    ----------
    A_elems : list of array_like
        The upper-triangle elements, as :func:`structure_tensor` returns them.

    Returns
    -------
    eigs : ndarray
        Shape ``(n,) + A_elems[0].shape``, the largest first (dtype as
        :func:`hessian_matrix_eigvals`).

    Raises
    ------
    ValueError
        A number of arrays that is not ``n (n + 1) / 2``, or arrays of different shapes.
    TypeError
        Not a list of arrays, or complex arrays.

    See Also
    --------
    structure_tensor : The elements.
    hessian_matrix_eigvals : The same computation for the Hessian.

    Examples
    --------
    >>> from sftwave.feature import structure_tensor, structure_tensor_eigenvalues
    >>> square = np.zeros((5, 5))
    >>> square[2, 2] = 1.0
    >>> A_elems = structure_tensor(square, sigma=0.1, order='rc')
    >>> np.round(structure_tensor_eigenvalues(A_elems)[0], 6)
    array([[0., 0., 0., 0., 0.],
           [0., 2., 4., 2., 0.],
           [0., 4., 0., 4., 0.],
           [0., 2., 4., 2., 0.],
           [0., 0., 0., 0., 0.]])
    """
    return _symmetric_eigenvalues(A_elems, "A_elems")


def difference_of_gaussians(image: ArrayLike, low_sigma: float | Sequence[float],
                            high_sigma: float | Sequence[float] | None = None, *,
                            mode: str = "nearest", cval: float = 0, channel_axis: int | None = None,
                            truncate: float = 4.0, tol: float | None = None) -> np.ndarray:
    """The image smoothed at ``low_sigma`` minus the image smoothed at ``high_sigma`` (scikit-image's).

    A band-pass filter: it keeps the features between the two scales.

    Parameters
    ----------
    image : array_like
        The image (converted as scikit-image's ``img_as_float``).
    low_sigma : float or sequence of float
        The smaller Gaussian's standard deviation, one for all spatial axes or one
        per spatial axis (non-negative; 0 leaves that axis unsmoothed).
    high_sigma : float or sequence of float or None, optional
        The larger one, at least ``low_sigma`` on every axis; None: ``1.6 * low_sigma``.
    mode : {'nearest', 'reflect', 'constant', 'wrap', 'mirror'}, optional
        How the image is extended beyond its borders.
    cval : float, optional
        The value beyond the borders with ``mode='constant'``.
    channel_axis : int or None, optional
        The axis of the channels (not smoothed), or None.
    truncate : float, optional
        As in :func:`sftwave.gaussian_filter`: sftwave's default accuracy is set
        from it (a quarter of scipy's kernel error at that truncation).
    tol : float or None, optional
        The Gaussian filters' accuracy, instead of the one set by ``truncate``.

    Returns
    -------
    filtered : ndarray
        Of the image's shape, float32 for float32 images, else float64.

    Raises
    ------
    ValueError
        A negative or non-finite sigma, a sequence of sigmas whose length is not the
        number of spatial axes, ``high_sigma`` below ``low_sigma`` on an axis, a bad
        ``mode``, ``channel_axis`` or ``truncate``.
    TypeError
        A complex or non-numeric image, or a non-real ``cval``.

    See Also
    --------
    sftwave.gaussian_filter : The two Gaussians.
    sftwave.gaussian_laplace : The Laplacian of Gaussian, which the DoG approximates.

    Examples
    --------
    >>> from sftwave.feature import difference_of_gaussians
    >>> image = np.zeros((9, 9), dtype=np.float32)
    >>> image[4, 4] = 1.0
    >>> dog = difference_of_gaussians(image, 1.0)
    >>> dog.dtype, bool(dog[4, 4] > 0), bool(dog[4, 0] < 0)
    (dtype('float32'), True, True)
    """
    image = _as_float(image)
    spatial = list(range(image.ndim))
    if channel_axis is not None:
        channel_axis = check_axis(channel_axis, image.ndim, "channel_axis")
        spatial.remove(channel_axis)
    low = _sigmas(low_sigma, len(spatial), "low_sigma", allow_zero=True)
    high = ([1.6 * s for s in low] if high_sigma is None
            else _sigmas(high_sigma, len(spatial), "high_sigma", allow_zero=True))
    if any(h < lo for h, lo in zip(high, low, strict=True)):
        raise ValueError(f"high_sigma must be at least low_sigma on every axis; got "
                         f"low_sigma={low_sigma!r}, high_sigma={high_sigma!r}")
    mode = check_mode(mode)
    cval = check_cval(cval)
    truncate = check_truncate(truncate)
    tol = check_tol(tol)

    def smooth(sigmas: list[float]) -> np.ndarray:
        axes = [ax for ax, s in zip(spatial, sigmas, strict=True) if s > 0]
        if not axes:
            return image * 1 if _is_xp(image) else image.copy()
        return gaussian_filter(image, [s for s in sigmas if s > 0], mode=mode, cval=cval,
                               truncate=truncate, axes=axes, tol=tol)

    return smooth(low) - smooth(high)


def frangi(image: ArrayLike, sigmas: Iterable[float] = range(1, 10, 2),
           scale_range: tuple[float, float] | None = None, scale_step: float | None = None,
           alpha: float = 0.5, beta: float = 0.5, gamma: float | None = None,
           black_ridges: bool = True, mode: str = "reflect", cval: float = 0, *,
           tol: float | None = None) -> np.ndarray:
    """Frangi's vesselness: ridges (vessels, fibres) of a 2-D or 3-D image at several scales (scikit-image's).

    At each ``sigma`` the Hessian's eigenvalues, sorted by magnitude
    (``|l1| <= |l2| <= |l3|``), give ``R_B = |l1| / l2`` in 2-D and
    ``R_A = l2 / l3``, ``R_B = |l1| / sqrt(l2 l3)`` in 3-D (``l2``, ``l3`` clipped
    below at 1e-10, so that a bright ridge scores 0), ``S`` the eigenvalues'
    norm, and ``V = (1 - exp(-R_A^2 / 2 alpha^2)) exp(-R_B^2 / 2 beta^2)
    (1 - exp(-S^2 / 2 gamma^2))`` (without the first factor in 2-D); the result
    is the maximum of ``V`` over the scales.  Exactly scikit-image's formula,
    including its Hessian without ``sigma**2`` normalisation and ``gamma`` set
    once, at the first scale, to half the largest ``S``.

    Parameters
    ----------
    image : array_like
        A 2-D or 3-D image (float32 stays float32, float16 becomes float32, every
        other dtype float64, not rescaled: scikit-image's rule here).
    sigmas : iterable of float, optional
        The scales (positive).  Each costs the same, whatever its size.
    scale_range, scale_step : optional
        scikit-image's deprecated way of giving the scales: both given,
        ``sigmas = np.arange(scale_range[0], scale_range[1], scale_step)``.
    alpha : float, optional
        The plate-like structures' weight (3-D only), positive.
    beta : float, optional
        The blob-like structures' weight, positive.
    gamma : float or None, optional
        The structuredness weight, positive; None: half the largest ``S`` at the
        first scale (over the finite pixels), or 1 where that is 0.
    black_ridges : bool, optional
        True: dark ridges on a bright background; False: bright ridges.
    mode : {'reflect', 'constant', 'nearest', 'mirror', 'wrap'}, optional
        How the image is extended beyond its borders.
    cval : float, optional
        The value beyond the borders with ``mode='constant'``.
    tol : float or None, optional
        The Gaussian filters' accuracy (:func:`sftwave.gaussian_filter`'s ``tol``).

    Returns
    -------
    out : ndarray
        The vesselness, of the image's shape and float dtype, in [0, 1].

    Raises
    ------
    ValueError
        An image that is not 2-D or 3-D, a non-positive sigma, ``alpha``, ``beta``
        or ``gamma``, a bad ``mode``.
    TypeError
        A complex or non-numeric image, or a non-real ``cval``.

    See Also
    --------
    hessian_matrix : The Hessian at each scale.
    hessian_matrix_eigvals : Its eigenvalues.

    Notes
    -----
    Per scale: the Hessian's elements (3 filters in 2-D, 6 in 3-D, each at a
    cost independent of ``sigma``), then one pass of a numba kernel that forms
    the eigenvalues, the vesselness and the running maximum, with no eigenvalue
    arrays.  A NaN pixel spoils the outputs its kernels reach (as the filters
    confine it); scikit-image's ``gamma`` would be NaN everywhere then, sftwave
    takes it over the finite pixels.

    References
    ----------
    .. [1] Frangi, A. F., Niessen, W. J., Vincken, K. L., & Viergever, M. A. (1998).
       Multiscale vessel enhancement filtering. MICCAI 1998, LNCS 1496, 130-137.

    Examples
    --------
    >>> from sftwave.feature import frangi
    >>> image = np.ones((21, 21))
    >>> image[:, 10] = 0.0                       # a dark vertical line
    >>> v = frangi(image, sigmas=[1, 2])
    >>> bool(v[10, 10] > 0.5) and bool(v[10, 3] < 0.05)
    True
    """
    if scale_range is not None and scale_step is not None:
        sigmas = np.arange(scale_range[0], scale_range[1], scale_step)
    arr, sigma_list, mode, cval, tol = _ridge_args(image, sigmas, black_ridges, mode, cval, tol,
                                                   xp_ok=True)
    alpha = check_positive(alpha, "alpha")
    beta = check_positive(beta, "beta")
    if gamma is not None:
        gamma = check_positive(gamma, "gamma")
    xp: Any = None
    if _is_xp(arr):
        from .engines.array_api.features import frangi_scale as scale_xp
        from .engines.array_api.filters import device_of, namespace

        xp = namespace(arr)
        out = xp.zeros(tuple(arr.shape), dtype=xp.float64, device=device_of(arr))
    else:
        from .engines.numba.eigen import frangi_scale  # numba: imported on first use

        out = np.zeros(arr.shape, dtype=np.float64)
    for sigma in sigma_list:
        H = hessian_matrix(arr, sigma, mode=mode, cval=cval, use_gaussian_derivatives=True, tol=tol)
        if gamma is None:
            gamma = frangi_gamma(finite_max(hessian_norm2(H, arr.ndim)))
        if xp is not None:
            out = scale_xp(H, out, alpha, beta, gamma)    # array-API arrays: a new array
        else:
            frangi_scale(H, out, alpha, beta, gamma)      # in place
    return xp.astype(out, arr.dtype) if xp is not None else out.astype(arr.dtype, copy=False)


# --- blob detection ---------------------------------------------------------------------------


def _blob_sigmas(min_sigma: Any, max_sigma: Any, ndim: int,
                 dtype: np.dtype) -> tuple[bool, np.ndarray, np.ndarray]:
    """scikit-image's sigma bounds: (one sigma column?, min and max per axis in the image's dtype)."""
    scalar_sigma = bool(np.isscalar(max_sigma) and np.isscalar(min_sigma))
    bounds = []
    for value, name in ((min_sigma, "min_sigma"), (max_sigma, "max_sigma")):
        sigmas = [check_positive(s, name) for s in per_axis(value, ndim, name)]
        bounds.append(np.asarray(sigmas, dtype=dtype))
    return scalar_sigma, bounds[0], bounds[1]


def _exclude_width(exclude_border: Any, ndim: int) -> tuple[int, ...]:
    """The border width per axis: scikit-image's ``exclude_border`` (an int, a tuple of ints, False).

    As in scikit-image, ``True`` counts as the integer 1 (``False`` as 0).
    """
    def width(value: Any) -> int:
        if not isinstance(value, numbers.Integral):
            raise TypeError(f"exclude_border must be an int, a tuple of ints or False; "
                            f"got {exclude_border!r}")
        if value < 0:
            raise ValueError(f"exclude_border must not be negative; got {exclude_border!r}")
        return int(value)

    if isinstance(exclude_border, tuple):
        if len(exclude_border) != ndim:
            raise ValueError(f"exclude_border must have one entry per axis of the image ({ndim}); "
                             f"got {exclude_border!r}")
        return tuple(width(v) for v in exclude_border)
    return (width(exclude_border),) * ndim


def _real_or_none(value: Any, name: str) -> float | None:
    """None, or a real number that is not NaN."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.floating,
                                                                     np.integer)):
        raise TypeError(f"{name} must be a real number or None; got {value!r}")
    v = float(value)
    if math.isnan(v):
        raise ValueError(f"{name} must not be NaN; got {value!r}")
    return v


def _check_overlap(overlap: Any) -> float:
    """A fraction in [0, 1]."""
    v = check_positive(overlap, "overlap", allow_zero=True)
    if v > 1:
        raise ValueError(f"overlap must be between 0 and 1; got {overlap!r}")
    return v


def _nan_extreme(cube: np.ndarray, largest: bool) -> Any:
    """The cube's largest (or smallest) value over its non-NaN entries; NaN if there is none."""
    value = cube.max() if largest else cube.min()
    if np.isnan(value):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)      # all NaN: NaN, no peak
            value = np.nanmax(cube) if largest else np.nanmin(cube)
    return value


def _scale_space_peaks(cube: np.ndarray, threshold: float | None, threshold_rel: float | None,
                       border: tuple[int, ...]) -> np.ndarray:
    """scikit-image's ``peak_local_max`` of the cube ``(scales,) + image.shape``, footprint all ones.

    Returns the peaks' indices, ``(n, ndim + 1)`` with the scale index last (the
    order of scikit-image's cube ``image.shape + (scales,)``), sorted as
    scikit-image sorts them: by decreasing value, ties in C order.
    """
    from .engines.numba.peaks import local_peaks  # numba: imported on first use

    ndim = cube.ndim - 1
    none = np.empty((0, ndim + 1), dtype=np.intp)
    lo = _nan_extreme(cube, largest=False)
    hi = _nan_extreme(cube, largest=True)
    thr = lo if threshold is None else threshold
    if threshold_rel is not None:
        thr = max(thr, threshold_rel * hi)
    if cube.size > 1 and lo == hi:
        return none         # every point is its neighbourhood's maximum: no peak (scikit-image's rule)
    with np.errstate(over="ignore"):
        thr_exact = float(np.asarray(thr).astype(cube.dtype))     # compared in the cube's dtype
    if math.isnan(thr_exact):
        return none
    four = cube.reshape(cube.shape[:1] + (1,) * (3 - ndim) + cube.shape[1:])
    width = (0,) * (3 - ndim) + tuple(border)
    flat = local_peaks(four, thr_exact, (width[0], width[1], width[2]))
    index = np.unravel_index(flat, cube.shape)
    values = cube[index]
    coords = np.stack(index[1:] + index[:1], axis=1)
    order = np.lexsort([*coords.T[::-1], -values])
    return coords[order]


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


def _prune_blobs(blobs: np.ndarray, overlap: float, sigma_dim: int) -> np.ndarray:
    """scikit-image's ``_prune_blobs``: of two blobs overlapping by more than ``overlap``, drop the smaller.

    The candidate pairs are scikit-image's (a KD-tree's pairs within twice the
    largest sigma times sqrt(ndim)); their overlaps are computed at once.  A
    dropped blob drops no other (in scikit-image too: its sigma is 0), so the
    overlapping pairs are walked once, keeping the survivors; of two blobs of
    equal sigma, the one listed first is dropped, as in scikit-image.  Where a
    blob is in two overlapping pairs the walk's order matters: it is then
    scikit-image's (the KD-tree's set of pairs, iterated).
    """
    from scipy import spatial

    from .engines.numba.peaks import survivors  # numba: imported on first use

    ndim = blobs.shape[1] - sigma_dim
    reach = 2 * blobs[:, -sigma_dim:].max() * math.sqrt(ndim)
    tree = spatial.cKDTree(blobs[:, :-sigma_dim])
    pairs = tree.query_pairs(reach, output_type="ndarray").astype(np.intp, copy=False)
    over = pairs[_blob_overlaps(blobs, pairs[:, 0], pairs[:, 1], sigma_dim) > overlap]
    if np.bincount(over.ravel(), minlength=1).max(initial=0) > 1:
        # a blob in two overlapping pairs: the order of the walk matters, and scikit-image's is
        # the iteration order of the KD-tree's set of pairs (slower to build: Python tuples)
        found = tree.query_pairs(reach)
        pairs = np.fromiter(chain.from_iterable(found), dtype=np.intp, count=2 * len(found))
        pairs = pairs.reshape(-1, 2)
        over = pairs[_blob_overlaps(blobs, pairs[:, 0], pairs[:, 1], sigma_dim) > overlap]
    if len(over) == 0:
        return blobs
    return blobs[survivors(over, blobs[:, -1])]


def _blobs(cube: np.ndarray, sigma_list: np.ndarray, scalar_sigma: bool, threshold: float | None,
           threshold_rel: float | None, border: tuple[int, ...], overlap: float) -> np.ndarray:
    """The blobs of a scale-space cube ``(scales,) + image.shape``: peaks, their sigmas, pruned."""
    ndim = cube.ndim - 1
    peaks = _scale_space_peaks(cube, threshold, threshold_rel, border)
    if peaks.size == 0:
        return np.empty((0, ndim + (1 if scalar_sigma else ndim)))
    sigmas = sigma_list[peaks[:, -1]]
    if scalar_sigma:
        sigmas = sigmas[:, 0:1]
    found = np.hstack([peaks[:, :-1].astype(cube.dtype), sigmas])
    return _prune_blobs(found, overlap, sigmas.shape[1])


def _blob_input(image: Any) -> np.ndarray:
    """A 2-D or 3-D image as scikit-image's ``img_as_float``."""
    image = _as_float(image)
    if image.ndim not in (2, 3):
        raise ValueError(f"image must be 2-D or 3-D; got {image.ndim}-D, shape {image.shape}")
    return image


_BLOB_GAUSSIANS = """
    Every Gaussian is sftwave's, at a cost per pixel that does not depend on
    sigma, extended by ``mode='reflect'`` as scikit-image's.  scikit-image's
    (scipy's) kernels are truncated at 4 sigma; sftwave's are not truncated
    but accurate to ``tol`` (by default at least as close to the exact
    Gaussian as scipy's kernel truncated at 4 sigma), so the responses differ
    from scikit-image's by about scipy's truncation error, which is the larger:
    on images with values in [0, 1], scikit-image's normalised responses were
    measured up to about 1e-3 from the exact Gaussian's, sftwave's within 5e-5.
    A detection can differ from scikit-image's only where a response lies that
    close to the threshold or to a neighbour's response (on noise-like images,
    about 1 % of the detections).
"""


def blob_log(image: ArrayLike, min_sigma: float | Sequence[float] = 1,
             max_sigma: float | Sequence[float] = 50, num_sigma: int = 10,
             threshold: float | None = 0.2, overlap: float = 0.5, log_scale: bool = False, *,
             threshold_rel: float | None = None, exclude_border: int | tuple[int, ...] | bool = False,
             tol: float | None = None) -> np.ndarray:
    r"""Blobs of a 2-D or 3-D image by the scale-normalised Laplacian of Gaussian (scikit-image's).

    At each of ``num_sigma`` scales from ``min_sigma`` to ``max_sigma`` the
    response ``-mean(sigma)**2 * LoG_sigma(image)``; a blob is a local maximum
    of the scale-space cube over its 3 x 3 x 3 (3-D: 3 x 3 x 3 x 3)
    neighbourhood above the threshold; of two blobs overlapping by more than
    ``overlap`` the smaller is dropped.  Bright blobs on a dark background.

    Parameters
    ----------
    image : array_like
        A 2-D or 3-D image (converted as scikit-image's ``img_as_float``: float32
        stays float32, integers rescaled to [-1, 1]).
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
        scikit-image.
    tol : float or None, optional
        The Gaussian filters' accuracy (:func:`sftwave.gaussian_filter`'s ``tol``).

    Returns
    -------
    A : ndarray
        ``(n, ndim + 1)``: each row a blob's coordinates and its sigma; where
        ``min_sigma`` or ``max_sigma`` is a sequence, ``(n, 2 ndim)`` with a sigma
        per axis.  The image's float dtype; empty, ``(0, k)`` float64, if no blob
        is found (scikit-image's).  The radius of a blob is about ``sqrt(2)``
        sigma in 2-D, ``sqrt(3)`` sigma in 3-D.

    Raises
    ------
    ValueError
        An image that is not 2-D or 3-D, a non-positive or non-finite sigma, a
        sequence of sigmas of the wrong length, ``num_sigma`` below 1,
        ``overlap`` outside [0, 1], a negative ``exclude_border`` or a tuple of
        the wrong length, a NaN threshold.
    TypeError
        A complex or non-numeric image, or an argument of the wrong type.

    See Also
    --------
    blob_dog : The same by differences of Gaussians.
    sftwave.gaussian_laplace : The Laplacian of Gaussian at each scale.

    Notes
    -----
    The scales, the normalisation, the peak finding (scikit-image's
    ``peak_local_max`` with an all-ones footprint: ``mode='nearest'`` at the
    borders, a constant cube has no peak, peaks sorted by decreasing response)
    and the pruning (its ``_prune_blobs``, the same pairs in the same order)
    are scikit-image's; the peaks are found by one pass of a numba kernel
    (:mod:`sftwave.engines.numba.peaks`), the pairs' overlaps at once.  A NaN
    response is never a blob.

    %(gaussians)s

    Examples
    --------
    >>> from sftwave.feature import blob_log
    >>> y, x = np.mgrid[:64, :64]
    >>> image = np.exp(-((y - 20) ** 2 + (x - 40) ** 2) / (2 * 4.0**2))
    >>> blob_log(image, min_sigma=1, max_sigma=10, num_sigma=10)
    array([[20., 40.,  4.]])
    """
    image = _blob_input(image)
    scalar_sigma, lo, hi = _blob_sigmas(min_sigma, max_sigma, image.ndim, image.dtype)
    if isinstance(num_sigma, (bool, np.bool_)) or not isinstance(num_sigma, numbers.Integral):
        raise TypeError(f"num_sigma must be an integer; got {num_sigma!r}")
    if num_sigma < 1:
        raise ValueError(f"num_sigma must be at least 1; got {num_sigma!r}")
    threshold = _real_or_none(threshold, "threshold")
    threshold_rel = _real_or_none(threshold_rel, "threshold_rel")
    overlap = _check_overlap(overlap)
    border = _exclude_width(exclude_border, image.ndim)
    tol = check_tol(tol)
    if log_scale:
        sigma_list = np.logspace(np.log10(lo), np.log10(hi), int(num_sigma))
    else:
        sigma_list = np.linspace(lo, hi, int(num_sigma))
    cube = np.empty((len(sigma_list),) + image.shape, dtype=image.dtype)
    for plane, s in zip(cube, sigma_list):
        gaussian_laplace(image, [float(v) for v in s], output=plane, mode="reflect", tol=tol)
        plane *= -np.mean(s) ** 2
    return _blobs(cube, sigma_list, scalar_sigma, threshold, threshold_rel, border, overlap)


def blob_dog(image: ArrayLike, min_sigma: float | Sequence[float] = 1,
             max_sigma: float | Sequence[float] = 50, sigma_ratio: float = 1.6,
             threshold: float | None = 0.5, overlap: float = 0.5, *,
             threshold_rel: float | None = None, exclude_border: int | tuple[int, ...] | bool = False,
             tol: float | None = None) -> np.ndarray:
    r"""Blobs of a 2-D or 3-D image by differences of Gaussians (scikit-image's).

    Gaussians at ``min_sigma * sigma_ratio**i`` until past ``max_sigma``; the
    response at scale i is ``(G_i - G_(i+1)) / (sigma_ratio - 1)``, which
    approximates the scale-normalised Laplacian of Gaussian.  A blob is a local
    maximum of the scale-space cube over its 3 x 3 x 3 (3-D: 3 x 3 x 3 x 3)
    neighbourhood above the threshold; of two blobs overlapping by more than
    ``overlap`` the smaller is dropped.  Bright blobs on a dark background.

    Parameters
    ----------
    image : array_like
        A 2-D or 3-D image (converted as scikit-image's ``img_as_float``).
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
    tol : float or None, optional
        The Gaussian filters' accuracy (:func:`sftwave.gaussian_filter`'s ``tol``).

    Returns
    -------
    A : ndarray
        ``(n, ndim + 1)`` rows of coordinates and sigma, or ``(n, 2 ndim)`` with
        a sigma per axis where ``min_sigma`` or ``max_sigma`` is a sequence; the
        image's float dtype; ``(0, k)`` float64 if no blob is found.

    Raises
    ------
    ValueError
        An image that is not 2-D or 3-D, a bad sigma, ``sigma_ratio`` not above 1,
        ``max_sigma`` below ``min_sigma`` (no scale), ``overlap`` outside [0, 1],
        a bad ``exclude_border``, a NaN threshold.
    TypeError
        A complex or non-numeric image, or an argument of the wrong type.

    See Also
    --------
    blob_log : The same by the Laplacian of Gaussian.
    difference_of_gaussians : One band-pass difference of Gaussians.

    Notes
    -----
    scikit-image 0.26's scales, normalisation (``1 / (sigma_ratio - 1)``, no
    further sigma factor), peak finding and pruning, as :func:`blob_log`.

    %(gaussians)s

    Examples
    --------
    >>> from sftwave.feature import blob_dog
    >>> y, x = np.mgrid[:64, :64]
    >>> image = np.exp(-((y - 30) ** 2 + (x - 25) ** 2) / (2 * 4.0**2))
    >>> blob_dog(image, min_sigma=1, max_sigma=10, threshold=0.05)
    array([[30.  , 25.  ,  2.56]])
    """
    image = _blob_input(image)
    scalar_sigma, lo, hi = _blob_sigmas(min_sigma, max_sigma, image.ndim, image.dtype)
    if check_positive(sigma_ratio, "sigma_ratio") <= 1.0:
        raise ValueError(f"sigma_ratio must be a finite number above 1; got {sigma_ratio!r}")
    threshold = _real_or_none(threshold, "threshold")
    threshold_rel = _real_or_none(threshold_rel, "threshold_rel")
    overlap = _check_overlap(overlap)
    border = _exclude_width(exclude_border, image.ndim)
    tol = check_tol(tol)
    k = int(np.mean(np.log(hi / lo) / np.log(sigma_ratio) + 1))
    if k < 1:
        raise ValueError(f"max_sigma must be at least min_sigma (one scale at least); got "
                         f"min_sigma={min_sigma!r}, max_sigma={max_sigma!r}")
    sigma_list = np.array([lo * (sigma_ratio**i) for i in range(k + 1)])
    cube = np.empty((k,) + image.shape, dtype=image.dtype)

    def smooth(s: np.ndarray) -> np.ndarray:
        return gaussian_filter(image, [float(v) for v in s], mode="reflect", tol=tol)

    previous = smooth(sigma_list[0])
    for plane, s in zip(cube, sigma_list[1:]):
        current = smooth(s)
        np.subtract(previous, current, out=plane)
        previous = current
    cube *= 1 / (sigma_ratio - 1)
    return _blobs(cube, sigma_list, scalar_sigma, threshold, threshold_rel, border, overlap)


blob_log.__doc__ = (blob_log.__doc__ or "") % {"gaussians": _BLOB_GAUSSIANS.strip()}
blob_dog.__doc__ = (blob_dog.__doc__ or "") % {"gaussians": _BLOB_GAUSSIANS.strip()}


# --- ridge filters -----------------------------------------------------------------------------


def _ridge_args(image: Any, sigmas: Any, black_ridges: Any, mode: Any, cval: Any,
                tol: Any, *, xp_ok: bool = False) -> tuple[Any, list[float], str, float, float | None]:
    """The image (frangi's dtype rule, negated for bright ridges), the scales, mode, cval, tol.

    ``xp_ok``: an array-API image (torch, CuPy) stays one; otherwise it becomes numpy.
    """
    arr: Any
    if xp_ok and _is_xp(image):
        from .engines.array_api.filters import namespace

        xp = namespace(image)
        if xp.isdtype(image.dtype, "complex floating"):
            raise TypeError(f"image must be real (bool, integer or float); got dtype {image.dtype}")
        arr = xp.astype(image, xp.float32 if image.dtype in (xp.float16, xp.float32) else xp.float64)
    else:
        arr = check_input_array(image, "image")
        if arr.dtype.kind == "c":
            raise TypeError(f"image must be real (bool, integer or float); got dtype {arr.dtype}")
        arr = arr.astype(np.float32 if arr.dtype in (np.float16, np.float32) else np.float64,
                         copy=False)
    if arr.ndim not in (2, 3):
        raise ValueError(f"image must be 2-D or 3-D; got {arr.ndim}-D, shape {tuple(arr.shape)}")
    if not black_ridges:
        arr = -arr
    scales = list(sigmas) if isinstance(sigmas, Iterable) else [sigmas]
    sigma_list = [check_positive(s, "sigmas") for s in scales]
    return arr, sigma_list, check_mode(mode), check_cval(cval), check_tol(tol)


def sato(image: ArrayLike, sigmas: Iterable[float] = range(1, 10, 2), black_ridges: bool = True,
         mode: str = "reflect", cval: float = 0, *, tol: float | None = None) -> np.ndarray:
    """Sato's tubeness: ridges of a 2-D or 3-D image at several scales (scikit-image's).

    At each ``sigma`` the Hessian's eigenvalues (not scale-normalised, as
    :func:`hessian_matrix`), decreasing, all but the smallest clipped below at 0;
    the response is ``sigma**2`` times their geometric mean (2-D: the largest
    eigenvalue; 3-D: ``sqrt(l1 l2)``), and the result its maximum over the scales.

    Parameters
    ----------
    image : array_like
        A 2-D or 3-D image (float32 stays float32, float16 becomes float32, every
        other dtype float64, not rescaled: scikit-image's rule here).
    sigmas : iterable of float, optional
        The scales (positive).  Each costs the same, whatever its size.
    black_ridges : bool, optional
        True: dark ridges on a bright background; False: bright ridges.
    mode : {'reflect', 'constant', 'nearest', 'mirror', 'wrap'}, optional
        How the image is extended beyond its borders.
    cval : float, optional
        The value beyond the borders with ``mode='constant'``.
    tol : float or None, optional
        The Gaussian filters' accuracy (:func:`sftwave.gaussian_filter`'s ``tol``).

    Returns
    -------
    out : ndarray
        The tubeness, of the image's shape and float dtype, non-negative.

    Raises
    ------
    ValueError
        An image that is not 2-D or 3-D, a non-positive sigma, a bad ``mode``.
    TypeError
        A complex or non-numeric image, or a non-real ``cval``.

    See Also
    --------
    frangi : Frangi's vesselness.
    meijering : Meijering's neuriteness.
    hessian_matrix : The Hessian at each scale (scikit-image's Gaussian derivatives).

    Notes
    -----
    The Hessian as in :func:`frangi` (scikit-image's two first-derivative passes at
    ``sigma / sqrt(2)``, each at a cost independent of ``sigma``); then one pass of a
    numba kernel forms the eigenvalues (in closed form, as :func:`hessian_matrix_eigvals`),
    the response and the running maximum, with no eigenvalue arrays.

    References
    ----------
    .. [1] Sato, Y., Nakajima, S., Shiraga, N., Atsumi, H., Yoshida, S., Koller, T.,
       Gerig, G., Kikinis, R. (1998). Three-dimensional multi-scale line filter for
       segmentation and visualization of curvilinear structures in medical images.
       Medical Image Analysis 2(2), 143-168.

    Examples
    --------
    >>> from sftwave.feature import sato
    >>> image = np.ones((21, 21))
    >>> image[:, 10] = 0.0                       # a dark vertical line
    >>> t = sato(image, sigmas=[1, 2])
    >>> int(np.argmax(t[10])), bool(t[10, 3] < 0.01 * t[10, 10])
    (10, True)
    """
    arr, sigma_list, mode, cval, tol = _ridge_args(image, sigmas, black_ridges, mode, cval, tol)
    from .engines.numba.eigen import sato_scale  # numba: imported on first use

    out = np.zeros(arr.shape, dtype=arr.dtype)           # C-contiguous: the kernel writes it flat
    for sigma in sigma_list:
        H = hessian_matrix(arr, sigma, mode=mode, cval=cval, use_gaussian_derivatives=True, tol=tol)
        sato_scale(H, out, sigma)
    return out


def meijering(image: ArrayLike, sigmas: Iterable[float] = range(1, 10, 2), alpha: float | None = None,
              black_ridges: bool = True, mode: str = "reflect", cval: float = 0, *,
              tol: float | None = None) -> np.ndarray:
    """Meijering's neuriteness: ridges of a 2-D or 3-D image at several scales (scikit-image's).

    At each ``sigma`` the Hessian's eigenvalues ``l_i`` (decreasing) are mixed,
    ``v_i = l_i + alpha sum_(j != i) l_j``; the response is the ``v_i`` of largest
    magnitude (the first of equals), clipped below at 0 and divided by its
    largest value over the image (if positive); the result is the maximum over
    the scales.

    Parameters
    ----------
    image : array_like
        A 2-D or 3-D image (float32 stays float32, float16 becomes float32, every
        other dtype float64, not rescaled).
    sigmas : iterable of float, optional
        The scales (positive).  Each costs the same, whatever its size.
    alpha : float or None, optional
        The mixing weight; None: ``1 / (ndim + 1)``.
    black_ridges : bool, optional
        True: dark ridges on a bright background; False: bright ridges.
    mode : {'reflect', 'constant', 'nearest', 'mirror', 'wrap'}, optional
        How the image is extended beyond its borders.
    cval : float, optional
        The value beyond the borders with ``mode='constant'``.
    tol : float or None, optional
        The Gaussian filters' accuracy (:func:`sftwave.gaussian_filter`'s ``tol``).

    Returns
    -------
    out : ndarray
        The neuriteness, of the image's shape and float dtype, in [0, 1].

    Raises
    ------
    ValueError
        An image that is not 2-D or 3-D (scikit-image also takes other
        dimensions), a non-positive sigma, a non-finite ``alpha``, a bad ``mode``.
    TypeError
        A complex or non-numeric image, a non-real ``alpha`` or ``cval``.

    See Also
    --------
    frangi : Frangi's vesselness.
    sato : Sato's tubeness.
    hessian_matrix_eigvals : The eigenvalues at each scale.

    Notes
    -----
    The Hessian, its eigenvalues and the response in one pass as in :func:`sato`
    (one array per scale, for the normalisation).  The normalisation by the
    largest value over the image makes a NaN pixel's reach the whole image at
    that scale where the largest value is NaN; the maximum is taken over the
    non-NaN values here (scikit-image's would be NaN).

    References
    ----------
    .. [1] Meijering, E., Jacob, M., Sarria, J.-C. F., Steiner, P., Hirling, H.,
       Unser, M. (2004). Design and validation of a tool for neurite tracing and
       analysis in fluorescence microscopy images. Cytometry Part A 58(2), 167-176.

    Examples
    --------
    >>> from sftwave.feature import meijering
    >>> image = np.ones((21, 21))
    >>> image[:, 10] = 0.0                       # a dark vertical line
    >>> m = meijering(image, sigmas=[1, 2])
    >>> float(m[10, 10]), bool(m[10, 3] < 0.05)
    (1.0, True)
    """
    arr, sigma_list, mode, cval, tol = _ridge_args(image, sigmas, black_ridges, mode, cval, tol)
    n = arr.ndim
    if alpha is None:
        alpha = 1 / (n + 1)
    else:
        if not isinstance(alpha, (numbers.Real, np.floating, np.integer)) or isinstance(alpha, bool):
            raise TypeError(f"alpha must be a real number or None; got {alpha!r}")
        if not math.isfinite(float(alpha)):
            raise ValueError(f"alpha must be finite; got {alpha!r}")
    from .engines.numba.eigen import meijering_scale  # numba: imported on first use

    alpha = float(np.asarray(alpha, dtype=arr.dtype))      # scikit-image mixes in the image's dtype
    out = np.zeros_like(arr)
    for sigma in sigma_list:
        H = hessian_matrix(arr, sigma, mode=mode, cval=cval, use_gaussian_derivatives=True, tol=tol)
        vals = meijering_scale(H, alpha, arr.dtype)
        top = _nan_extreme(vals, largest=True)
        if top > 0:
            vals /= top
        np.maximum(out, vals, out=out)
    return out


# --------------------------------------------------------------------------- Gabor filters


def _sigma_prefactor(bandwidth: float) -> float:
    """scikit-image's ``sigma * frequency`` for a bandwidth in octaves."""
    b = bandwidth
    return 1.0 / math.pi * math.sqrt(math.log(2) / 2.0) * (2.0**b + 1) / (2.0**b - 1)


def _gabor_kernel(frequency: float, theta: float, sigma_x: float, sigma_y: float, n_stds: float,
                  offset: float) -> np.ndarray:
    """scikit-image's ``gabor_kernel``: truncated at ``n_stds`` standard deviations (complex128)."""
    ct, st = math.cos(theta), math.sin(theta)
    x0 = math.ceil(max(abs(n_stds * sigma_x * ct), abs(n_stds * sigma_y * st), 1))
    y0 = math.ceil(max(abs(n_stds * sigma_y * ct), abs(n_stds * sigma_x * st), 1))
    y, x = np.meshgrid(np.arange(-y0, y0 + 1), np.arange(-x0, x0 + 1), indexing="ij", sparse=True)
    rotx = x * ct + y * st
    roty = -x * st + y * ct
    g = np.exp(-0.5 * (rotx**2 / sigma_x**2 + roty**2 / sigma_y**2)
               + 1j * (2 * np.pi * frequency * rotx + offset))
    return g * (1 / (2 * np.pi * sigma_x * sigma_y))


def _gabor_image(image: Any) -> np.ndarray:
    """The image as scikit-image's ``gabor`` takes it: float32/float64 kept, integers *not* rescaled."""
    arr = check_input_array(image, "image")
    if arr.ndim != 2:
        raise ValueError(f"image must be 2-D; got a {arr.ndim}-D array of shape {arr.shape}")
    if arr.dtype.kind == "c":
        raise TypeError(f"image must be real (bool, integer or float); got dtype {arr.dtype}")
    if arr.dtype == np.float16:
        return arr.astype(np.float32)
    if arr.dtype not in (np.float32, np.float64):
        return arr.astype(np.float64)
    return arr


def _real_scalars(values: Any, name: str, *, positive: bool) -> list[float]:
    """A scalar or a 1-D sequence of finite real numbers (positive ones if ``positive``)."""
    arr = np.asarray(values, dtype=object) if not isinstance(values, np.ndarray) else values
    if arr.ndim > 1:
        raise ValueError(f"{name} must be a number or a 1-D sequence of numbers; got {values!r}")
    items = [arr.item()] if arr.ndim == 0 else list(arr)
    if not items:
        raise ValueError(f"{name} must not be empty; got {values!r}")
    if positive:
        return [check_positive(v, name) for v in items]
    return [_finite(v, name) for v in items]


def _finite(value: Any, name: str) -> float:
    """A finite real number."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a real number; got {value!r}")
    if not math.isfinite(float(value)):
        raise ValueError(f"{name} must be finite; got {value!r}")
    return float(value)


def _optional_sigma(value: Any, name: str) -> float | None:
    return None if value is None else check_positive(value, name)


#: |sin(2 theta)| below this is an axis-aligned orientation (cos or sin at rounding of 0).
_AXIS_ALIGNED = 1e-12


def _axis_sigmas(theta: float, sigma_x: float, sigma_y: float) -> tuple[float, float] | None:
    """The Gaussian envelope's (column, row) sigmas where it is separable along the axes, else None."""
    ct, st = math.cos(theta), math.sin(theta)
    if sigma_x != sigma_y and abs(math.sin(2.0 * theta)) > _AXIS_ALIGNED:
        return None
    # exp(-rotx^2/2sx^2 - roty^2/2sy^2) without its (vanishing) cross term x y
    col = 1.0 / math.sqrt(ct * ct / sigma_x**2 + st * st / sigma_y**2)
    row = 1.0 / math.sqrt(st * st / sigma_x**2 + ct * ct / sigma_y**2)
    return col, row


def _axis_plan(sigma: float, carrier: float, n: int, tol: float | None):
    """The 1-D complex plan of ``exp(-k^2 / 2 sigma^2) exp(i carrier k)`` and its kernel sum, or None."""
    from .plans import FIRPlan, SFTPlan, select_gaussian
    from .plans.gaussian import gaussian_norm
    from .plans.morlet import modulated_plan
    from .plans.select import gaussian_tol

    # each axis as accurate as sftwave.gaussian_filter's default Gaussian (or tol / 2 each)
    axis_tol = gaussian_tol(sigma, 0, 4.0) if tol is None else max(tol / 2.0, 1e-9)
    try:
        plan = select_gaussian(sigma, 0, tol=axis_tol, n=n)
    except ValueError:  # a Gaussian too wide for the image: the direct kernel instead
        return None
    if not isinstance(plan, (SFTPlan, FIRPlan)):  # not selected without wide=True
        return None
    mod = modulated_plan(plan, carrier, gaussian_norm(sigma))
    total = complex(mod.kernel.sum() if isinstance(mod, FIRPlan) else mod.kernel_sum[0])
    return mod, total


def _passes(eng: Any, arr: np.ndarray, plans: list, axis: int, mode: str, cval: float) -> np.ndarray:
    """Each complex 1-D plan along ``axis`` of real ``arr``: shape ``(len(plans),) + arr.shape``."""
    from ._checks import scalogram_dtype
    from .engines import nonfinite

    lines = math.prod(int(d) for i, d in enumerate(arr.shape) if i != axis)
    y = nonfinite.scalogram_confined(
        eng, arr, plans, axis=axis, mode=mode, cval=cval, kind="complex", decim=1,
        dtype=scalogram_dtype(None, arr.dtype == np.float32, "complex"), out=None, workers=None,
        bank_method=eng.bank_method("auto", lines), tol=1.0)
    return np.moveaxis(np.moveaxis(y, -2, 0), -1, axis + 1)  # (plans, ..., n) -> (plans,) + shape


def _gabor_bank(image: np.ndarray, frequencies: list[float], thetas: list[float], bandwidth: float,
                sigma_x: float | None, sigma_y: float | None, n_stds: float, offset: float, mode: str,
                cval: float, tol: float | None) -> np.ndarray:
    """The checked bank: complex, shape ``(n_freq, n_theta) + image.shape``."""
    from scipy import ndimage as ndi

    from . import engines

    eng = engines.get("numba")
    cdtype = np.complex64 if image.dtype == np.float32 else np.complex128
    out = np.empty((len(frequencies), len(thetas)) + image.shape, dtype=cdtype)
    rows, cols = image.shape
    shift = mode == "constant" and cval != 0 and math.isfinite(cval)
    work = image - image.dtype.type(cval) if shift else image
    ecval = 0.0 if shift else cval
    for i, f in enumerate(frequencies):
        sx = _sigma_prefactor(bandwidth) / f if sigma_x is None else sigma_x
        sy = _sigma_prefactor(bandwidth) / f if sigma_y is None else sigma_y
        scale = complex(math.cos(offset), math.sin(offset)) / (2 * math.pi * sx * sy)
        groups: dict[tuple, list[tuple[int, float, float]]] = {}
        direct = []
        for t, theta in enumerate(thetas):
            ct, st = math.cos(theta), math.sin(theta)
            kx, ky = 2 * math.pi * f * ct, 2 * math.pi * f * st
            sig = _axis_sigmas(theta, sx, sy)
            if sig is None:
                direct.append(t)
                continue
            # orientations sharing |kx|, |ky| share both passes (conjugate carriers)
            key = (sig[0], sig[1], round(abs(kx), 13), round(abs(ky), 13))
            groups.setdefault(key, []).append((t, math.copysign(1.0, kx), math.copysign(1.0, ky)))
        built = []
        for key in groups:
            col = _axis_plan(key[0], key[2], cols, tol)
            row = _axis_plan(key[1], key[3], rows, tol)
            if col is None or row is None:
                direct.extend(t for t, _, _ in groups[key])
            else:
                built.append((key, col, row))
        if built:
            # one pass down the columns (axis 0) for every |ky| plan of this frequency, then
            # along the rows (axis 1, contiguous) of its real and imaginary parts with |kx|
            u = _passes(eng, work, [r[0] for _, _, r in built], 0, mode, ecval)
            for j, (key, (cplan, csum), (_, rsum)) in enumerate(built):
                ab = np.stack([u[j].real, u[j].imag])
                pa, pb = _passes(eng, ab, [cplan], 2, mode, ecval)[0]
                for t, sgx, sgy in groups[key]:
                    # (c + i sgx s) * (a + i sgy b), with c + i s the row kernel at |kx| and
                    # a + i b the column pass at |ky|: Pa + i sgy Pb, or where sgx < 0 the
                    # conjugate of (c + i s) * (a - i sgy b) = Pa - i sgy Pb; written in place
                    # as scale * w, or conj(conj(scale) * w) where sgx < 0
                    res = out[i, t]
                    sc = scale if sgx > 0 else scale.conjugate()
                    np.multiply(pb, sc * (1j * sgx * sgy), out=res)
                    res += sc * pa
                    if sgx < 0:
                        np.conjugate(res, out=res)
                    if shift:
                        ksum = ((csum if sgx > 0 else csum.conjugate())
                                * (rsum if sgy > 0 else rsum.conjugate()))
                        res += cval * scale * ksum
        for t in direct:
            g = _gabor_kernel(f, thetas[t], sx, sy, n_stds, offset)
            img64 = image.astype(np.float64)
            out[i, t].real = ndi.convolve(img64, g.real, mode=mode, cval=cval)
            out[i, t].imag = ndi.convolve(img64, g.imag, mode=mode, cval=cval)
    return out


def _gabor_args(image: Any, bandwidth: Any, sigma_x: Any, sigma_y: Any, n_stds: Any, offset: Any,
                mode: Any, cval: Any, tol: Any) -> tuple:
    """The checked common arguments of :func:`gabor` and :func:`gabor_bank`."""
    arr = _gabor_image(image)
    bandwidth = check_positive(bandwidth, "bandwidth")
    return (arr, bandwidth, _optional_sigma(sigma_x, "sigma_x"), _optional_sigma(sigma_y, "sigma_y"),
            check_positive(n_stds, "n_stds"), _finite(offset, "offset"), check_mode(mode),
            check_cval(cval), check_tol(tol))


def gabor_bank(image: ArrayLike, frequencies: float | Sequence[float], thetas: float | Sequence[float],
               bandwidth: float = 1, sigma_x: float | None = None, sigma_y: float | None = None,
               n_stds: float = 3, offset: float = 0, mode: str = "reflect", cval: float = 0,
               *, tol: float | None = None) -> np.ndarray:
    """Gabor responses for every frequency and orientation at once, as one complex array.

    ``out[i, j]`` is ``real + 1j * imag`` of :func:`gabor` ``(image,
    frequencies[i], thetas[j], ...)``, computed together: orientations whose
    carriers have the same ``|kx|`` and ``|ky|`` (``theta`` and ``pi - theta``,
    ``theta`` and ``-theta``) share both 1-D passes, and one pass over the image
    runs every column filter of a frequency.

    Parameters
    ----------
    image : array_like
        The image, 2-D only (float32 stays float32; integers and bool become
        float64, not rescaled, as scikit-image's ``gabor`` does not rescale them).
    frequencies : float or sequence of float
        Spatial frequencies of the harmonic, cycles per pixel (positive).
    thetas : float or sequence of float
        Orientations in radians (0: the harmonic along x, the columns).
    bandwidth, sigma_x, sigma_y, n_stds, offset, mode, cval
        As :func:`gabor` (``sigma_x``/``sigma_y`` are shared by all frequencies
        when given).
    tol : float or None, optional
        As :func:`gabor`.

    Returns
    -------
    ndarray
        Complex, shape ``(n_freq, n_theta) + image.shape`` (complex64 for a
        float32 image, else complex128).

    Raises
    ------
    ValueError
        A non-positive frequency, bandwidth, sigma or ``n_stds``, an image that
        is not 2-D, an unknown ``mode``, or a non-finite ``theta``/``offset``.
    TypeError
        A complex or non-numeric image or parameter.

    See Also
    --------
    gabor : One frequency and orientation, scikit-image's signature.

    Examples
    --------
    >>> from sftwave.feature import gabor, gabor_bank
    >>> image = np.random.default_rng(0).random((32, 32))
    >>> bank = gabor_bank(image, [0.1, 0.2], np.arange(4) * np.pi / 4)
    >>> bank.shape
    (2, 4, 32, 32)
    >>> real, imag = gabor(image, 0.2, np.pi / 4)
    >>> bool(np.allclose(bank[1, 1], real + 1j * imag))
    True
    """
    arr, bandwidth, sx, sy, n_stds, offset, mode, cval, tol = _gabor_args(
        image, bandwidth, sigma_x, sigma_y, n_stds, offset, mode, cval, tol)
    freqs = _real_scalars(frequencies, "frequencies", positive=True)
    angles = _real_scalars(thetas, "thetas", positive=False)
    return _gabor_bank(arr, freqs, angles, bandwidth, sx, sy, n_stds, offset, mode, cval, tol)


def gabor(image: ArrayLike, frequency: float, theta: float = 0, bandwidth: float = 1,
          sigma_x: float | None = None, sigma_y: float | None = None, n_stds: float = 3,
          offset: float = 0, mode: str = "reflect", cval: float = 0,
          *, tol: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The real and imaginary responses to a Gabor filter (scikit-image's ``skimage.filters.gabor``).

    The kernel is scikit-image's ``gabor_kernel``: with ``x`` the column and
    ``y`` the row offset, ``x' = x cos(theta) + y sin(theta)``,
    ``y' = -x sin(theta) + y cos(theta)``,

    ``g(x, y) = exp(-x'^2 / 2 sigma_x^2 - y'^2 / 2 sigma_y^2) exp(i (2 pi frequency x' + offset))
    / (2 pi sigma_x sigma_y)``,

    convolved with the image (``real`` with its real part, ``imag`` with its
    imaginary part), the image extended beyond its borders by ``mode``.  Where
    the Gaussian is separable along the axes, the result is the *untruncated*
    kernel's to ``tol``, at a cost per pixel that does not depend on sigma.

    Parameters
    ----------
    image : array_like
        The image, 2-D (float32 stays float32, float16 becomes float32; integers
        and bool become float64 *without* rescaling, as scikit-image's ``gabor``
        does not rescale them).
    frequency : float
        Spatial frequency of the harmonic, cycles per pixel (positive).
    theta : float, optional
        Orientation in radians; 0: the harmonic along x (the columns).
    bandwidth : float, optional
        Bandwidth in octaves; sets ``sigma_x`` and ``sigma_y`` (those not given)
        to ``sqrt(ln 2 / 2) / pi * (2^b + 1) / (2^b - 1) / frequency``.
    sigma_x, sigma_y : float, optional
        Standard deviations along x' and y' (before the rotation).
    n_stds : float, optional
        The half-size of scikit-image's truncated kernel, in standard deviations.
        Accepted for compatibility; used only by the fallback (see Notes).
    offset : float, optional
        Phase offset of the harmonic, radians.
    mode : {'reflect', 'constant', 'nearest', 'mirror', 'wrap'}, optional
        How the image is extended beyond its borders (``scipy.ndimage`` modes).
    cval : float, optional
        The value beyond the borders with ``mode='constant'``.
    tol : float or None, optional
        The accuracy of each axis's 1-D filter: the relative RMSE of its kernel
        against the exact sampled Gaussian times the carrier (each axis gets
        ``tol / 2``).  None: as :func:`sftwave.gaussian_filter`'s default (a
        quarter of scipy's kernel error at 4 sigma).  A keyword scikit-image
        does not have.

    Returns
    -------
    real, imag : ndarray
        The responses, the image's shape (float32 for float32 input, else float64).

    Raises
    ------
    ValueError
        A non-positive ``frequency``, ``bandwidth``, ``sigma_x``, ``sigma_y`` or
        ``n_stds``, an image that is not 2-D, an unknown ``mode``.
    TypeError
        A complex or non-numeric image or parameter.

    See Also
    --------
    gabor_bank : Many frequencies and orientations at once.
    sftwave.gaussian_filter : The Gaussian plans the 1-D filters are made from.

    Notes
    -----
    *What is exact and what falls back.*  Where ``sigma_x == sigma_y`` (the
    default) or ``theta`` is a multiple of ``pi/2``, the kernel is a product
    ``g_c(x) g_r(y)`` of two 1-D complex filters (a Gaussian times
    ``exp(i kx x)`` along the rows, times ``exp(i ky y)`` along the columns):
    each is sftwave's Gaussian plan with every component's frequency shifted by
    the carrier, run as two passes at a cost independent of sigma.  The result
    is then the **untruncated** Gabor filter to ``tol``; scikit-image's is
    truncated at ``n_stds`` (3 by default) standard deviations, which differs
    from it by about 1e-3 of the response's scale (the Gaussian's mass beyond
    3 sigma).  Otherwise (an anisotropic Gaussian at an angle, not separable),
    and for a Gaussian too wide for the image to plan, sftwave convolves with
    scikit-image's truncated kernel directly (``scipy.ndimage.convolve``, at
    ``n_stds``; a cost that grows with ``sigma_x * sigma_y``).

    Integer images: scikit-image returns the responses in the image's integer
    dtype (truncated, negative responses wrapped for unsigned types); sftwave
    returns float64.  NaN and inf are confined: an output is NaN where its
    kernel's window reaches a non-finite pixel.

    Examples
    --------
    >>> from sftwave.feature import gabor
    >>> image = np.zeros((33, 33))
    >>> image[16, 16] = 1.0
    >>> real, imag = gabor(image, frequency=0.2)
    >>> sigma = 0.5622 / 0.2                       # bandwidth 1: sigma * frequency = 0.5622
    >>> bool(abs(real[16, 16] - 1 / (2 * np.pi * sigma**2)) < 1e-4 * real[16, 16])
    True
    >>> bool(np.allclose(imag[16], -imag[16, ::-1]))   # an odd imaginary part along x
    True
    """
    arr, bandwidth, sx, sy, n_stds, offset, mode, cval, tol = _gabor_args(
        image, bandwidth, sigma_x, sigma_y, n_stds, offset, mode, cval, tol)
    freq = check_positive(frequency, "frequency")
    angle = _finite(theta, "theta")
    out = _gabor_bank(arr, [freq], [angle], bandwidth, sx, sy, n_stds, offset, mode, cval, tol)[0, 0]
    return np.ascontiguousarray(out.real), np.ascontiguousarray(out.imag)
