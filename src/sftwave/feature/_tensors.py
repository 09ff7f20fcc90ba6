"""The Hessian and the structure tensor of an image, and the eigenvalues of their fields."""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike

from .. import engines
from .._checks.features import (
    HessianRequest,
    eigenvalues_request,
    hessian_request,
    structure_tensor_request,
)
from .._checks.ndimage import Array
from .._docs import docfiller
from ..ndimage import gaussian_filter
from ._common import op, threads

#: scikit-image 0.26's warning where ``hessian_matrix``'s ``use_gaussian_derivatives`` is not given.
GAUSSIAN_DERIVATIVES_WARNING = (
    "use_gaussian_derivatives currently defaults to False, but will change to True in a future "
    "version. Please specify this argument explicitly to maintain the current behavior")


def hessian_matrix(image: ArrayLike, sigma: float | Sequence[float] = 1, mode: str = "constant",
                   cval: float = 0, order: str = "rc", use_gaussian_derivatives: bool | None = None,
                   *, tol: float | None = None, engine: str | None = None,
                   workers: int | None = None,
                   spacing: float | Sequence[float] | None = None) -> list[np.ndarray]:
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
    %(image_cval)s
    order : {'rc', 'xy'}, optional
        'rc': the axes in their order (``Hrr, Hrc, Hcc``); 'xy' (2-D only): reversed
        (``Hxx, Hxy, Hyy`` with x the columns).
    use_gaussian_derivatives : bool or None, optional
        True: the elements are the image filtered by derivatives of the Gaussian,
        as scikit-image computes them (two first-derivative passes at
        ``sigma / sqrt(2)``; see Notes).  False: scikit-image's
        finite differences, ``np.gradient`` twice of the Gaussian-smoothed image.
        None: False, scikit-image's present default, with scikit-image's
        ``FutureWarning`` (its default will become True; pass it explicitly).
    tol : float or None, optional
        The Gaussian filters' accuracy (:func:`sftwave.gaussian_filter`'s ``tol``).
        None: with Gaussian derivatives 1e-7 (a cost independent of ``sigma``; see
        the module's notes), otherwise the filters' own default.
    %(image_engine)s
    %(workers_cpu)s
    %(spacing)s
        The elements are then per unit of length squared (``H_ab`` divided by
        ``spacing[a] * spacing[b]``).  Not in scikit-image.

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

    Warns
    -----
    FutureWarning
        ``use_gaussian_derivatives`` not given (scikit-image 0.26's warning and text).

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
    name = engines.resolve_engine(engine, image)
    arr: Array = op(name, "feature_as_float")(image, "image")
    req = hessian_request(len(arr.shape), sigma, mode, cval, order, use_gaussian_derivatives, tol,
                          engine=name, workers=workers, spacing=spacing)
    if use_gaussian_derivatives is None:
        warnings.warn(GAUSSIAN_DERIVATIVES_WARNING, FutureWarning, stacklevel=2)
    with threads(name, req.workers):
        return hessian_elements(arr, req)


def hessian_elements(image: Any, req: HessianRequest) -> list[Any]:
    """:func:`hessian_matrix` of a converted image (the engine's ``feature_as_float`` or
    ``ridge_float``) by its request."""
    ndim = len(image.shape)
    axes = list(range(ndim))
    if req.order == "xy":
        axes.reverse()
    pairs = list(combinations_with_replacement(axes, 2))
    if req.gaussian_derivatives:
        # scikit-image's definition: first derivatives at sigma / sqrt(2), then a first
        # derivative of those, each pass extended by `mode` and truncated at 8 sigma
        # (100 for sigma <= 1), where sftwave's filters take scipy's kernel (small sigma)
        # or meet `tol` at a cost independent of sigma
        scaled = [s / math.sqrt(2.0) for s in req.sigmas]
        units = [[int(k == d) for k in range(ndim)] for d in range(ndim)]
        kw: dict[str, Any] = dict(mode=req.mode, cval=req.cval, truncate=req.truncate, tol=req.tol,
                                  engine=req.engine, spacing=req.spacing)
        gradients = [gaussian_filter(image, scaled, order=units[d], **kw) for d in range(ndim)]
        # the first pass's arrays (the engine's array type) go back into the filter
        return [gaussian_filter(cast(ArrayLike, gradients[ax0]), scaled, order=units[ax1], **kw)
                for ax0, ax1 in pairs]
    smoothed = gaussian_filter(image, list(req.sigmas), mode=req.mode, cval=req.cval, tol=req.tol,
                               engine=req.engine, spacing=req.spacing)
    gradient = op(req.engine, "feature_gradient")
    gradients = [gradient(smoothed, ax) for ax in range(ndim)]
    elems = [gradient(gradients[ax0], ax1) for ax0, ax1 in pairs]
    if req.spacing is None:
        return elems
    # per unit of length: np.gradient's differences divided by the two axes' spacings
    return [e * (1.0 / (req.spacing[ax0] * req.spacing[ax1])) for e, (ax0, ax1) in zip(elems, pairs)]


def _eigenvalues(elems: Any, name: str, engine: str | None, workers: int | None) -> np.ndarray:
    """The eigenvalues, decreasing, of the field given by its upper-triangle elements, on the
    engine of ``engine`` or of the elements' array type."""
    probe = elems[0] if isinstance(elems, (list, tuple)) and elems else elems
    eng = engines.resolve_engine(engine, probe)
    req = eigenvalues_request(name, engine=eng, workers=workers)
    with threads(eng, req.workers):
        return op(eng, "symmetric_eigenvalues")(elems, req.name)


def hessian_matrix_eigvals(H_elems: Sequence[ArrayLike], *, engine: str | None = None,
                           workers: int | None = None) -> np.ndarray:
    """The eigenvalues of a Hessian field, in decreasing order (scikit-image's).

    Parameters
    ----------
    H_elems : list of array_like
        The upper-triangle elements of each pixel's symmetric matrix, as
        :func:`hessian_matrix` returns them (3 arrays in 2-D, 6 in 3-D,
        ``n (n + 1) / 2`` in n-D), all of one shape.
    %(image_engine)s
    %(workers_cpu)s

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
    return _eigenvalues(H_elems, "H_elems", engine, workers)


def structure_tensor(image: ArrayLike, sigma: float | Sequence[float] = 1, mode: str = "constant",
                     cval: float = 0, order: str = "rc", *, tol: float | None = None,
                     engine: str | None = None, workers: int | None = None,
                     spacing: float | Sequence[float] | None = None) -> list[np.ndarray]:
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
    %(image_cval)s
    order : {'rc', 'xy'}, optional
        'rc': the axes in their order (``Arr, Arc, Acc``); 'xy' (2-D only): reversed.
    %(image_tol)s
    %(image_engine)s
    %(workers_cpu)s
    %(spacing)s
        The Sobel derivatives are then divided by the spacing of their axis
        (``A_ij`` by ``spacing[i] * spacing[j]``).  Not in scikit-image.

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
    name = engines.resolve_engine(engine, image)
    arr = op(name, "feature_as_float")(image, "image")       # the engine's array type
    arr = arr[tuple(0 if k == 1 else slice(None) for k in arr.shape)]   # np.squeeze
    req = structure_tensor_request(tuple(arr.shape), sigma, mode, cval, order, tol, engine=name,
                                   workers=workers, spacing=spacing)
    with threads(name, req.workers):
        products = op(name, "structure_products")(arr, req.mode, req.cval)
        if req.spacing is not None:     # per unit of length: D_i / spacing_i
            pairs = combinations_with_replacement(range(len(req.spacing)), 2)
            products = [p * (1.0 / (req.spacing[i] * req.spacing[j]))
                        for p, (i, j) in zip(products, pairs)]
        if req.order == "xy":
            products.reverse()          # 2-D only: the products of the reversed derivatives
        # NumPy arrays on the CPU engine (the input's array type on the array-API one)
        return [cast(np.ndarray, gaussian_filter(p, list(req.sigmas), mode=req.mode, cval=req.cval,
                                                 tol=req.tol, engine=name, spacing=req.spacing))
                for p in products]


def structure_tensor_eigenvalues(A_elems: Sequence[ArrayLike], *, engine: str | None = None,
                                 workers: int | None = None) -> np.ndarray:
    """The eigenvalues of a structure tensor field, in decreasing order (scikit-image's).

    Parameters
    ----------
    A_elems : list of array_like
        The upper-triangle elements, as :func:`structure_tensor` returns them.
    %(image_engine)s
    %(workers_cpu)s

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
    return _eigenvalues(A_elems, "A_elems", engine, workers)


for _f in (hessian_matrix, hessian_matrix_eigvals, structure_tensor, structure_tensor_eigenvalues):
    docfiller(_f)
