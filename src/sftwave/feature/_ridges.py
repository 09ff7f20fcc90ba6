"""Ridge and vessel filters on the Hessian's eigenvalues: Frangi, Sato, Meijering."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .. import engines
from .._checks.features import RidgeRequest, hessian_request, ridge_request
from .._docs import docfiller
from .._scale_space import finite_max, frangi_gamma, hessian_norm2
from ._common import op, threads
from ._tensors import hessian_elements


def frangi(image: ArrayLike, sigmas: Iterable[float] = range(1, 10, 2),
           scale_range: tuple[float, float] | None = None, scale_step: float | None = None,
           alpha: float = 0.5, beta: float = 0.5, gamma: float | None = None,
           black_ridges: bool = True, mode: str = "reflect", cval: float = 0, *,
           tol: float | None = None, engine: str | None = None,
           workers: int | None = None) -> np.ndarray:
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
    %(ridge_mode)s
    %(image_cval)s
    %(image_tol)s
    %(image_engine)s
    %(workers_cpu)s

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
    name, arr = _ridge_image(image, engine)
    req = ridge_request("frangi", tuple(arr.shape), sigmas, black_ridges, mode, cval, tol,
                        alpha=alpha, beta=beta, gamma=gamma, scale_range=scale_range,
                        scale_step=scale_step, engine=name, workers=workers)
    return _ridges(arr, req)


def _ridge_image(image: Any, engine: str | None) -> tuple[str, Any]:
    """The engine, and the image in the ridge filters' float dtype (float32 stays float32, all
    else float64, not rescaled)."""
    name = engines.resolve_engine(engine, image)
    return name, op(name, "ridge_float")(image, "image")


def _hessian(arr: Any, sigma: float, req: RidgeRequest) -> list[Any]:
    """The Hessian of one scale, scikit-image's Gaussian derivatives."""
    h = hessian_request(len(arr.shape), sigma, req.mode, req.cval, "rc", True, req.tol,
                        engine=req.engine)
    return hessian_elements(arr, h)


def _ridges(arr: Any, req: RidgeRequest) -> Any:
    """The ridge filter of ``req`` over its scales: the running maximum of each scale's
    response, in the image's float dtype (Frangi's accumulated in float64)."""
    if not req.black_ridges:
        arr = -arr
    frangi = req.kind == "frangi"
    out = op(req.engine, "ridge_accumulator")(arr, frangi)
    scale = op(req.engine, f"{req.kind}_scale")
    gamma = req.gamma
    with threads(req.engine, req.workers):
        for sigma in req.sigmas:
            H = _hessian(arr, sigma, req)
            if frangi:
                if gamma is None:
                    gamma = frangi_gamma(finite_max(hessian_norm2(H, len(arr.shape))))
                out = scale(H, out, req.alpha, req.beta, gamma)
            else:
                out = scale(H, out, sigma if req.kind == "sato" else req.alpha)
    return op(req.engine, "ridge_result")(out, arr)


def sato(image: ArrayLike, sigmas: Iterable[float] = range(1, 10, 2), black_ridges: bool = True,
         mode: str = "reflect", cval: float = 0, *, tol: float | None = None,
         engine: str | None = None, workers: int | None = None) -> np.ndarray:
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
    %(ridge_mode)s
    %(image_cval)s
    %(image_tol)s
    %(image_engine)s
    %(workers_cpu)s

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
    name, arr = _ridge_image(image, engine)
    req = ridge_request("sato", tuple(arr.shape), sigmas, black_ridges, mode, cval, tol,
                        engine=name, workers=workers)
    return _ridges(arr, req)


def meijering(image: ArrayLike, sigmas: Iterable[float] = range(1, 10, 2), alpha: float | None = None,
              black_ridges: bool = True, mode: str = "reflect", cval: float = 0, *,
              tol: float | None = None, engine: str | None = None,
              workers: int | None = None) -> np.ndarray:
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
    %(ridge_mode)s
    %(image_cval)s
    %(image_tol)s
    %(image_engine)s
    %(workers_cpu)s

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
    name, arr = _ridge_image(image, engine)
    req = ridge_request("meijering", tuple(arr.shape), sigmas, black_ridges, mode, cval, tol,
                        alpha=alpha, engine=name, workers=workers)
    return _ridges(arr, req)


def meijering_response(image: Any, sigma: float, alpha: float | None = None,
                       black_ridges: bool = True, mode: str = "reflect", cval: float = 0, *,
                       tol: float | None = None, engine: str | None = None,
                       workers: int | None = None) -> np.ndarray:
    """:func:`meijering`'s response at one ``sigma`` of an image, not normalised (the helper
    of :func:`sftwave.dask.meijering`, which normalises by a lazy maximum)."""
    name, arr = _ridge_image(image, engine)
    req = ridge_request("meijering", tuple(arr.shape), [sigma], black_ridges, mode, cval, tol,
                        alpha=alpha, engine=name, workers=workers)
    if not req.black_ridges:
        arr = -arr
    with threads(req.engine, req.workers):
        return op(name, "meijering_response")(_hessian(arr, req.sigmas[0], req), req.alpha)


def hessian(image: ArrayLike, sigmas: Iterable[float] = range(1, 10, 2),
            scale_range: tuple[float, float] | None = None, scale_step: float | None = None,
            alpha: float = 0.5, beta: float = 0.5, gamma: float | None = 15,
            black_ridges: bool = True, mode: str = "reflect", cval: float = 0, *,
            tol: float | None = None, engine: str | None = None,
            workers: int | None = None) -> np.ndarray:
    """The hybrid Hessian filter of Ng et al. (scikit-image's ``skimage.filters.hessian``).

    :func:`frangi` with scikit-image's ``gamma=15`` by default, then every
    pixel whose vesselness is 0 (or below) set to 1: continuous edges
    (wrinkles, vessels, rivers) come out 0 < v < 1, the background 1.

    Parameters
    ----------
    image : (M, N[, P]) ndarray
        A 2-D or 3-D image (float32 stays float32, every other dtype float64,
        not rescaled).
    sigmas : iterable of float, optional
        The scales (positive).
    scale_range, scale_step : optional
        scikit-image's deprecated way of giving the scales (as :func:`frangi`).
    alpha, beta : float, optional
        Frangi's weights (positive).
    gamma : float or None, optional
        Frangi's structuredness weight; default 15 (scikit-image's), None: as
        :func:`frangi`'s default.
    black_ridges : bool, optional
        True: dark ridges on a bright background; False: bright ridges.
    %(ridge_mode)s
    %(image_cval)s
    %(image_tol)s
    %(image_engine)s
    %(workers_cpu)s

    Returns
    -------
    out : ndarray
        The filtered image, of the image's shape and float dtype.

    Raises
    ------
    ValueError
        As :func:`frangi`.
    TypeError
        As :func:`frangi`.

    See Also
    --------
    frangi : The vesselness it is made from.

    References
    ----------
    .. [1] Ng, C. C., Yap, M. H., Costen, N., & Li, B. (2014). Automatic wrinkle
       detection using hybrid Hessian filter. ACCV 2014, LNCS 9005, 609-622.

    Examples
    --------
    >>> from sftwave.feature import hessian
    >>> image = np.ones((21, 21))
    >>> image[:, 10] = 0.0
    >>> h = hessian(image, sigmas=[1, 2])
    >>> bool(h[10, 10] > h[10, 9]) and bool(np.all(h > 0)) and bool(np.all(h <= 1))
    True
    """
    filtered = frangi(image, sigmas=sigmas, scale_range=scale_range, scale_step=scale_step,
                      alpha=alpha, beta=beta, gamma=gamma, black_ridges=black_ridges, mode=mode,
                      cval=cval, tol=tol, engine=engine, workers=workers)
    filtered[filtered <= 0] = 1
    return filtered


for _f in (frangi, sato, meijering, hessian):
    docfiller(_f)
