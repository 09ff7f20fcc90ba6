"""Scale-space features of images, as scikit-image computes them: Hessian, structure tensor, DoG, Frangi.

The names, signatures, argument order, defaults and outputs are
scikit-image's (``skimage.feature.hessian_matrix``,
``hessian_matrix_eigvals``, ``structure_tensor``,
``structure_tensor_eigenvalues``, ``skimage.filters.difference_of_gaussians``
and ``skimage.filters.frangi``),
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
from collections.abc import Iterable, Sequence
from itertools import combinations_with_replacement
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
from .ndimage import gaussian_filter

__all__ = ["hessian_matrix", "hessian_matrix_eigvals", "structure_tensor",
           "structure_tensor_eigenvalues", "difference_of_gaussians", "frangi"]


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
    xp_input = _is_xp(image)
    arr: Any = image if xp_input else check_input_array(image, "image")
    if xp_input:
        from .engines.array_api.filters import device_of, namespace

        xp = namespace(arr)
        if xp.isdtype(arr.dtype, "complex floating"):
            raise TypeError(f"image must be real (bool, integer or float); got dtype {arr.dtype}")
        dtype = xp.float32 if arr.dtype in (xp.float16, xp.float32) else xp.float64
        arr = xp.astype(arr, dtype)
    else:
        if arr.dtype.kind == "c":
            raise TypeError(f"image must be real (bool, integer or float); got dtype {arr.dtype}")
        dtype = np.float32 if arr.dtype in (np.float16, np.float32) else np.float64
        arr = arr.astype(dtype, copy=False)
    if arr.ndim not in (2, 3):
        raise ValueError(f"image must be 2-D or 3-D; got {arr.ndim}-D, shape {tuple(arr.shape)}")
    if scale_range is not None and scale_step is not None:
        sigmas = np.arange(scale_range[0], scale_range[1], scale_step)
    scales = list(sigmas) if isinstance(sigmas, Iterable) else [sigmas]
    sigma_list = [check_positive(s, "sigmas") for s in scales]
    alpha = check_positive(alpha, "alpha")
    beta = check_positive(beta, "beta")
    if gamma is not None:
        gamma = check_positive(gamma, "gamma")
    mode = check_mode(mode)
    cval = check_cval(cval)
    tol = check_tol(tol)
    if not black_ridges:
        arr = -arr
    if xp_input:
        from .engines.array_api.features import frangi_scale as frangi_scale_xp

        out_xp = xp.zeros(tuple(arr.shape), dtype=xp.float64, device=device_of(arr))
        for sigma in sigma_list:
            H = hessian_matrix(arr, sigma, mode=mode, cval=cval, use_gaussian_derivatives=True,
                               tol=tol)
            if gamma is None:
                norm2 = sum((1.0 if i == j else 2.0) * xp.astype(h, xp.float64) ** 2
                            for (i, j), h in zip(combinations_with_replacement(range(arr.ndim), 2),
                                                 H, strict=True))
                gamma = frangi_gamma(float(xp.max(xp.where(xp.isfinite(norm2), norm2, 0.0))))
            out_xp = frangi_scale_xp(H, out_xp, alpha, beta, gamma)
        return xp.astype(out_xp, dtype)
    from .engines.numba.eigen import frangi_scale  # numba: imported on first use

    out = np.zeros(arr.shape, dtype=np.float64)
    for sigma in sigma_list:
        H = hessian_matrix(arr, sigma, mode=mode, cval=cval, use_gaussian_derivatives=True, tol=tol)
        if gamma is None:
            gamma = frangi_gamma(finite_max(hessian_norm2(H, arr.ndim)))
        frangi_scale(H, out, alpha, beta, gamma)
    return out.astype(dtype, copy=False)
