"""Ridge and vessel filters on the Hessian's eigenvalues: Frangi, Sato, Meijering."""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._checks import (
    check_cval,
    check_input_array,
    check_mode,
    check_positive,
    check_tol,
)
from .._scale_space import finite_max, frangi_gamma, hessian_norm2
from ._common import is_xp, nan_extreme
from ._tensors import hessian_matrix


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
    if is_xp(arr):
        from ..engines.array_api.features import frangi_scale as scale_xp
        from ..engines.array_api.filters import device_of, namespace

        xp = namespace(arr)
        out = xp.zeros(tuple(arr.shape), dtype=xp.float64, device=device_of(arr))
    else:
        from ..engines.numba.eigen import frangi_scale  # numba: imported on first use

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


def _ridge_args(image: Any, sigmas: Any, black_ridges: Any, mode: Any, cval: Any,
                tol: Any, *, xp_ok: bool = False) -> tuple[Any, list[float], str, float, float | None]:
    """The image (frangi's dtype rule, negated for bright ridges), the scales, mode, cval, tol.

    ``xp_ok``: an array-API image (torch, CuPy) stays one; otherwise it becomes numpy.
    """
    arr: Any
    if xp_ok and is_xp(image):
        from ..engines.array_api.filters import namespace

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
    the response and the running maximum, with no eigenvalue arrays.  An array-API image
    (torch, CuPy) runs on the 'xp' engine, its eigenvalues by the library's ``eigvalsh``,
    and comes back as the same type on the same device.

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
    arr, sigma_list, mode, cval, tol = _ridge_args(image, sigmas, black_ridges, mode, cval, tol,
                                                   xp_ok=True)
    if is_xp(arr):
        from ..engines.array_api.features import sato_scale as scale_xp
        from ..engines.array_api.filters import device_of, namespace

        xp = namespace(arr)
        res = xp.zeros(tuple(arr.shape), dtype=arr.dtype, device=device_of(arr))
        for sigma in sigma_list:
            H = hessian_matrix(arr, sigma, mode=mode, cval=cval, use_gaussian_derivatives=True,
                               tol=tol)
            res = scale_xp(H, res, sigma)                # array-API arrays: a new array
        return res
    from ..engines.numba.eigen import sato_scale  # numba: imported on first use

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
    non-NaN values here (scikit-image's would be NaN).  An array-API image (torch, CuPy)
    runs on the 'xp' engine, as :func:`sato`'s.

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
    arr, sigma_list, mode, cval, tol = _ridge_args(image, sigmas, black_ridges, mode, cval, tol,
                                                   xp_ok=True)
    alpha = _meijering_alpha(alpha, arr.ndim)
    if is_xp(arr):
        from ..engines.array_api.features import meijering_scale as scale_xp
        from ..engines.array_api.filters import device_of, namespace

        xp = namespace(arr)
        alpha = float(np.asarray(alpha, dtype=np.float32 if arr.dtype == xp.float32 else np.float64))
        res = xp.zeros(tuple(arr.shape), dtype=arr.dtype, device=device_of(arr))
        for sigma in sigma_list:
            H = hessian_matrix(arr, sigma, mode=mode, cval=cval, use_gaussian_derivatives=True,
                               tol=tol)
            v = scale_xp(H, alpha)
            top = float(xp.max(xp.where(xp.isnan(v), xp.full_like(v, -1.0), v)))
            if top > 0:
                v = v / top
            res = xp.maximum(res, xp.astype(v, arr.dtype))
        return res
    out = np.zeros_like(arr)
    for sigma in sigma_list:
        vals = _meijering_response(arr, sigma, alpha, mode, cval, tol)
        top = nan_extreme(vals, largest=True)
        if top > 0:
            vals /= top
        np.maximum(out, vals, out=out)
    return out


def _meijering_alpha(alpha: Any, ndim: int) -> float:
    """:func:`meijering`'s ``alpha``, checked; None: ``1 / (ndim + 1)``."""
    if alpha is None:
        return 1 / (ndim + 1)
    if not isinstance(alpha, (numbers.Real, np.floating, np.integer)) or isinstance(alpha, bool):
        raise TypeError(f"alpha must be a real number or None; got {alpha!r}")
    if not math.isfinite(float(alpha)):
        raise ValueError(f"alpha must be finite; got {alpha!r}")
    return float(alpha)


def _meijering_response(arr: np.ndarray, sigma: float, alpha: float, mode: str, cval: float,
                        tol: float | None) -> np.ndarray:
    """:func:`meijering`'s response at one scale, before its normalisation by the maximum over
    the image: ``arr`` as :func:`_ridge_args` gives it (its float dtype, negated for bright
    ridges), ``alpha`` checked."""
    from ..engines.numba.eigen import meijering_scale  # numba: imported on first use

    alpha = float(np.asarray(alpha, dtype=arr.dtype))      # scikit-image mixes in the image's dtype
    H = hessian_matrix(arr, sigma, mode=mode, cval=cval, use_gaussian_derivatives=True, tol=tol)
    return meijering_scale(H, alpha, arr.dtype)


def meijering_response(image: Any, sigma: float, alpha: float | None = None,
                       black_ridges: bool = True, mode: str = "reflect", cval: float = 0, *,
                       tol: float | None = None) -> np.ndarray:
    """:func:`meijering`'s response at one ``sigma`` of a NumPy image, not normalised (the
    helper of :func:`sftwave.dask.meijering`, which normalises by a lazy maximum)."""
    arr, sigma_list, mode, cval, tol = _ridge_args(image, [sigma], black_ridges, mode, cval, tol)
    return _meijering_response(arr, sigma_list[0], _meijering_alpha(alpha, arr.ndim), mode, cval,
                               tol)


# --------------------------------------------------------------------------- Gabor filters
