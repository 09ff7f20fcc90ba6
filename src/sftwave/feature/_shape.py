"""The determinant of the Hessian (scikit-image's, with its SURF box-filter approximation) and
the shape index of Koenderink and van Doorn."""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import cast

import numpy as np
from numpy.typing import ArrayLike

from .._checks.features import hessian_det_request, numpy_only
from ._tensors import hessian_matrix, hessian_matrix_eigvals


def _box(integral: np.ndarray, r: np.ndarray, c: np.ndarray, rl: int, cl: int) -> np.ndarray:
    """scikit-image's ``_integ`` at every pixel: the sum of the integral image's box at rows
    ``r`` (column vector) and columns ``c`` (row vector), clipped to the image (the far corner
    from the clipped near one), negative sums 0."""
    h, w = integral.shape
    r1, c1 = np.clip(r, 0, h - 1), np.clip(c, 0, w - 1)
    r2, c2 = np.clip(r1 + rl, 0, h - 1), np.clip(c1 + cl, 0, w - 1)
    ans = integral[r1, c1] + integral[r2, c2] - integral[r1, c2] - integral[r2, c1]
    return np.where(ans > 0.0, ans, 0.0)


def surf_determinant(image: np.ndarray, sigma: float) -> np.ndarray:
    """scikit-image's approximate determinant of the Hessian of a 2-D image (SURF's box filters
    over the integral image, Bay et al. 2008), in float64, as its ``_hessian_matrix_det``."""
    integral = image.astype(np.float64).cumsum(axis=0).cumsum(axis=1)
    size = int(3 * sigma)
    s2 = int((size - 1) / 2)  # C's division, toward zero
    s3 = size // 3
    with np.errstate(divide="ignore", invalid="ignore"):
        w_i = 1.0 / size / size if size else np.inf
        r = np.arange(image.shape[0])[:, None]
        c = np.arange(image.shape[1])[None, :]
        tl = _box(integral, r - s3, c - s3, s3, s3)
        br = _box(integral, r + 1, c + 1, s3, s3)
        bl = _box(integral, r - s3, c + 1, s3, s3)
        tr = _box(integral, r + 1, c - s3, s3, s3)
        dxy = -(bl + tr - tl - br) * w_i
        mid = _box(integral, r - s3 + 1, c - s2, 2 * s3 - 1, size)
        side = _box(integral, r - s3 + 1, c - s3 // 2, 2 * s3 - 1, s3)
        dxx = -(mid - 3 * side) * w_i
        mid = _box(integral, r - s2, c - s3 + 1, size, 2 * s3 - 1)
        side = _box(integral, r - s3 // 2, c - s3 + 1, s3, 2 * s3 - 1)
        dyy = -(mid - 3 * side) * w_i
        return dxx * dyy - 0.81 * (dxy * dxy)


def hessian_matrix_det(image: ArrayLike, sigma: float = 1, approximate: bool = True) -> np.ndarray:
    """The determinant of the Hessian at each pixel (scikit-image's ``hessian_matrix_det``).

    Parameters
    ----------
    image : ndarray
        The image, any number of axes (converted as scikit-image's ``img_as_float``).
    sigma : float, optional
        The Gaussian's standard deviation (positive).
    approximate : bool, optional
        True and a 2-D image: SURF's approximation by box filters over the
        integral image, as scikit-image computes it (its cost does not depend
        on ``sigma``; not close to the Hessian's determinant for ``sigma``
        below 3).  Otherwise the determinant of :func:`hessian_matrix`'s
        matrix (finite differences of the Gaussian-smoothed image,
        ``mode='constant'``), with sftwave's Gaussian.

    Returns
    -------
    out : ndarray
        The determinant, of the image's shape: float64 by the approximation,
        else the image's float dtype.

    Raises
    ------
    ValueError
        A non-positive or non-finite ``sigma``, a 0-d image.
    TypeError
        A complex or non-numeric image, an array that is not NumPy's, a
        non-boolean ``approximate``.

    See Also
    --------
    hessian_matrix : The Hessian's elements.
    hessian_matrix_eigvals : Their eigenvalues, whose product is the determinant.

    Notes
    -----
    The approximation is scikit-image's box filters, clipped at the borders,
    with its weight 0.81 (0.9 squared) of the mixed term, to rounding.

    Examples
    --------
    >>> from sftwave.feature import hessian_matrix_det
    >>> y, x = np.mgrid[:40, :40]
    >>> blob = np.exp(-((y - 20) ** 2 + (x - 20) ** 2) / (2 * 4.0**2))
    >>> det = hessian_matrix_det(blob, sigma=4)
    >>> tuple(int(v) for v in np.unravel_index(np.argmax(det), det.shape))
    (20, 20)
    """
    numpy_only(image)
    from ._common import as_float

    arr = cast(np.ndarray, as_float(image))  # a NumPy image: a NumPy array
    req = hessian_det_request(arr.ndim, sigma, approximate)
    if arr.ndim == 2 and req.approximate:
        return surf_determinant(arr, req.sigma)
    elems = hessian_matrix(arr, req.sigma, use_gaussian_derivatives=False)
    full = np.zeros(arr.shape + (arr.ndim, arr.ndim), dtype=elems[0].dtype)
    for idx, (row, col) in enumerate(combinations_with_replacement(range(arr.ndim), 2)):
        full[..., row, col] = elems[idx]
        full[..., col, row] = elems[idx]
    return np.linalg.det(full)


def shape_index(image: ArrayLike, sigma: float = 1, mode: str = "constant", cval: float = 0) -> np.ndarray:
    """The shape index of Koenderink and van Doorn (scikit-image's ``shape_index``).

    ``s = 2 / pi * arctan((l2 + l1) / (l2 - l1))`` with ``l1 >= l2`` the
    eigenvalues of the Hessian (finite differences of the Gaussian-smoothed
    image): -1 a cup, -0.5 a rut, 0 a saddle, 0.5 a ridge, 1 a cap; NaN where
    the image is flat (``l1 == l2``).

    Parameters
    ----------
    image : (M, N) ndarray
        The image (converted as scikit-image's ``img_as_float``).
    sigma : float, optional
        The Gaussian's standard deviation (positive).
    mode : {'constant', 'reflect', 'wrap', 'nearest', 'mirror'}, optional
        How the image is extended beyond its borders.
    cval : float, optional
        The value beyond the borders with ``mode='constant'``.

    Returns
    -------
    s : ndarray
        The shape index, of the image's shape and float dtype.

    Raises
    ------
    ValueError
        A bad ``sigma`` or ``mode``.
    TypeError
        A complex or non-numeric image, or a non-real ``cval``.

    See Also
    --------
    hessian_matrix : The Hessian's elements.
    hessian_matrix_eigvals : Their eigenvalues.

    Notes
    -----
    The eigenvalues are :func:`hessian_matrix_eigvals`' (float64 arithmetic),
    scikit-image's its closed form in the image's dtype: where ``l1 - l2`` is
    at rounding of 0 the two may differ (a NaN against a finite value, or
    values far apart); elsewhere they agree to the Gaussians' accuracy.

    Examples
    --------
    >>> from sftwave.feature import shape_index
    >>> square = np.zeros((5, 5))
    >>> square[2, 2] = 4
    >>> s = shape_index(square, sigma=0.1)
    >>> float(s[2, 2]), float(s[2, 0]), bool(np.isnan(s[0, 0]))
    (-1.0, -0.5, True)
    """
    H = hessian_matrix(image, sigma=sigma, mode=mode, cval=cval, order="rc", use_gaussian_derivatives=False)
    l1, l2 = hessian_matrix_eigvals(H)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (2.0 / np.pi) * np.arctan((l2 + l1) / (l2 - l1))
