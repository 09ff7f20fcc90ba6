"""scikit-image's ``skimage.filters`` names that sftwave computes, with scikit-image's signatures.

``gaussian`` (scikit-image 0.26's, its conversion to float and its
``channel_axis``), ``difference_of_gaussians``, ``frangi``, ``sato``,
``meijering``, ``hessian``, ``gabor`` and ``gabor_kernel``; all but
``gaussian`` are the functions of :mod:`sftwave.feature` (same objects).

Examples
--------
>>> import numpy as np
>>> from sftwave.skimage import filters
>>> a = np.zeros((3, 3))
>>> a[1, 1] = 1
>>> filters.gaussian(a, sigma=1).round(6)
array([[0.05855 , 0.096533, 0.05855 ],
       [0.096533, 0.159156, 0.096533],
       [0.05855 , 0.096533, 0.05855 ]])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np
from numpy.typing import ArrayLike

from .. import engines
from .._checks import check_input_array
from .._checks.features import numpy_only, scipy_radii, skimage_gaussian_request
from ..feature import (
    difference_of_gaussians,
    frangi,
    gabor,
    gabor_kernel,
    hessian,
    meijering,
    sato,
)
from ..feature._common import op
from ..ndimage import gaussian_filter

__all__ = [
    "gaussian",
    "difference_of_gaussians",
    "frangi",
    "sato",
    "meijering",
    "hessian",
    "gabor",
    "gabor_kernel",
]


def gaussian(
    image: ArrayLike,
    sigma: float | Sequence[float] = 1,
    *,
    mode: str | Sequence[str] = "nearest",
    cval: float = 0,
    preserve_range: bool = False,
    truncate: float = 4.0,
    channel_axis: int | None = None,
    out: np.ndarray | None = None,
    truncated: bool = False,
    tol: float | None = None,
    engine: str | None = None,
    workers: int | None = None,
) -> np.ndarray:
    """Multi-dimensional Gaussian filter, as scikit-image's ``skimage.filters.gaussian``.

    scikit-image 0.26's signature, conversion and output: the image becomes
    float (``img_as_float``: integers rescaled by their dtype's range, bool
    0.0/1.0, float16 to float32; float32 and float64 kept), then every axis
    but the channel axis is smoothed by sftwave's Gaussian, at a cost per pixel
    that does not depend on ``sigma``.

    Parameters
    ----------
    image : ndarray
        The image, grey or colour, any number of axes.
    sigma : scalar or sequence of scalars, optional
        The Gaussian's standard deviation, one for all axes or one per axis
        (with ``channel_axis``: one per spatial axis, or one per axis).
        Non-negative; 0 leaves an axis unsmoothed.
    mode : {'nearest', 'reflect', 'constant', 'mirror', 'wrap'}, optional
        How the image is extended beyond its borders (one, or one per axis).
        Default 'nearest', as scikit-image's.
    cval : float, optional
        The value beyond the borders with ``mode='constant'``.
    preserve_range : bool, optional
        True: integer images become float64 without rescaling.
    truncate : float, optional
        scikit-image's (scipy's) kernel half-width in standard deviations.  sftwave's
        default accuracy is set from it (a quarter of scipy's kernel error at that
        truncation); with ``truncated=True`` it is the kernel's half-width.
    channel_axis : int or None, optional
        The axis of the colour channels, not smoothed (a scalar ``sigma`` applies
        to the other axes).  None: every axis is smoothed, as in scikit-image (an
        RGB image without it is blurred across its channels too).
    out : ndarray, optional
        A float array of the image's shape that receives the result.
    truncated : bool, optional
        True: scikit-image's kernel, truncated at ``truncate`` sigma, honoured
        exactly (scipy's kernel, ``radius=int(truncate * sigma + 0.5)``; a cost
        that grows with sigma): its numbers to
        rounding.  False (default): the untruncated Gaussian to ``tol``.
    tol : float or None, optional
        The Gaussian's accuracy (:func:`sftwave.gaussian_filter`'s ``tol``).
    engine : {None, 'auto', 'numba'}, optional
        As :func:`sftwave.gaussian_filter`'s (NumPy images).
    workers : int, optional
        Threads to use (-1: all cores), for this call only.

    Returns
    -------
    filtered_image : ndarray
        float32 for float16/float32 images, else float64 (``out`` itself if given).

    Raises
    ------
    ValueError
        A negative sigma, a sequence of sigmas or modes of the wrong length, an
        unknown ``mode``, a bad ``channel_axis`` or ``truncate``, an ``out`` that
        is not a float array of the image's shape.
    TypeError
        A complex or non-numeric image, an array that is not NumPy's, or a non-real ``cval``.

    See Also
    --------
    sftwave.gaussian_filter : scipy.ndimage's Gaussian filter (no conversion).
    sftwave.feature.difference_of_gaussians : The band-pass of two Gaussians.

    Notes
    -----
    The result differs from scikit-image's by its kernel's truncation (the
    Gaussian's mass beyond ``truncate`` sigma), measured on ``skimage.data``
    images in the guide's page for scikit-image users.

    Examples
    --------
    >>> import numpy as np
    >>> from sftwave.skimage.filters import gaussian
    >>> rgb = np.zeros((32, 32, 3), dtype=np.uint8)
    >>> rgb[16, 16] = (255, 128, 0)
    >>> blurred = gaussian(rgb, sigma=3, channel_axis=-1)
    >>> blurred.dtype, [round(float(v), 4) for v in blurred[16, 16]]
    (dtype('float64'), [0.0177, 0.0089, 0.0])
    """
    numpy_only(image, " (sftwave.skimage.filters.gaussian)")
    arr = check_input_array(image, "image")
    name = engines.resolve_engine(engine, arr)
    req = skimage_gaussian_request(
        arr.shape,
        arr.dtype,
        sigma,
        mode=mode,
        cval=cval,
        preserve_range=preserve_range,
        truncate=truncate,
        channel_axis=channel_axis,
        out=out,
        tol=tol,
        truncated=truncated,
        engine=name,
        workers=workers,
    )
    if req.preserve_range:
        x = arr if arr.dtype in (np.float32, np.float64) else arr.astype(req.dtype)
    else:
        x = op(name, "feature_as_float")(arr, "image")
    return cast(
        np.ndarray,
        gaussian_filter(
            x,
            list(req.sigmas),
            output=req.out,
            mode=req.mode,
            cval=req.cval,
            truncate=req.truncate,
            tol=req.tol,
            radius=scipy_radii(req.sigmas, req.truncate, req.truncated),
            engine=name,
            workers=req.workers,
        ),
    )
