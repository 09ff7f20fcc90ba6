"""The Hessian and the structure tensor of an image, and the eigenvalues of their fields."""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._checks import (
    check_cval,
    check_input_array,
    check_mode,
    check_tol,
)
from .._scale_space import DERIVATIVE_TOL, derivative_truncate
from ..ndimage import gaussian_filter
from ._common import as_float, axis_sigmas, check_order, gradient, is_xp


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
    image = as_float(image)
    ndim = image.ndim
    if ndim == 0:
        raise ValueError("image must have at least one axis; got a 0-d array")
    sigmas = axis_sigmas(sigma, ndim)
    mode = check_mode(mode)
    cval = check_cval(cval)
    order = check_order(order, ndim)
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
    gradients = [gradient(smoothed, ax) for ax in range(ndim)]
    return [gradient(gradients[ax0], ax1) for ax0, ax1 in pairs]


def _n_axes(count: int, name: str) -> int:
    """The matrix size n of a list of ``n (n + 1) / 2`` upper-triangle elements."""
    n = int(round((np.sqrt(8 * count + 1) - 1) / 2))
    if count == 0 or n * (n + 1) // 2 != count:
        raise ValueError(f"{name} must hold the n (n + 1) / 2 upper-triangle elements of an n x n "
                         f"symmetric matrix (1, 3, 6, 10, ...); got {count} arrays")
    return n


def _symmetric_eigenvalues(elems: Any, name: str) -> np.ndarray:
    """The eigenvalues, decreasing, of the field given by its upper-triangle elements."""
    if isinstance(elems, (list, tuple)) and elems and all(is_xp(e) for e in elems):
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
        from ..engines.numba.eigen import eigvals_sym2, eigvals_sym3  # numba: imported on first use

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
    from ..engines.array_api.features import symmetric_eigenvalues
    from ..engines.array_api.filters import namespace

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

    Notes
    -----
    For a 2-D NumPy image (except ``mode='constant'`` with a non-zero ``cval``)
    the two Sobel derivatives and their three products are formed in one pass of
    a numba kernel, in float64, with no derivative arrays (scipy's way writes
    and reads the image's size eight times); otherwise by ``scipy.ndimage.sobel``
    (array code for array-API images).  Either way the products equal scipy's
    to rounding (float32 images: scipy rounds each pass to float32).

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

    image = as_float(image)
    xp_input = is_xp(image)
    if xp_input:
        from ..engines.array_api.features import sobel

        image = image[tuple(0 if k == 1 else slice(None) for k in image.shape)]  # np.squeeze
    else:
        image = np.squeeze(image)
    if image.ndim < 2:
        raise ValueError(f"image must have at least 2 axes longer than 1; got shape {image.shape} "
                         f"after squeezing")
    sigmas = axis_sigmas(sigma, image.ndim)
    mode = check_mode(mode)
    cval = check_cval(cval)
    order = check_order(order, image.ndim)
    tol = check_tol(tol)
    if not xp_input and image.ndim == 2 and not (mode == "constant" and cval != 0):
        from ..engines.numba.gradients import sobel_products_2d  # numba: imported on first use

        products = list(sobel_products_2d(image, mode, cval, image.dtype))  # one pass, fused
        if order == "xy":
            products.reverse()
    else:
        derivatives = [sobel(image, i, mode, cval) if xp_input else
                       ndi.sobel(image, axis=i, mode=mode, cval=cval) for i in range(image.ndim)]
        if order == "xy":
            derivatives.reverse()
        products = [d0 * d1 for d0, d1 in combinations_with_replacement(derivatives, 2)]
    return [gaussian_filter(p, sigmas, mode=mode, cval=cval, tol=tol) for p in products]


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
