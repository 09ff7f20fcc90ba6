"""The difference of Gaussians band-pass filter, as scikit-image's ``difference_of_gaussians``."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from .._checks import (
    check_axis,
    check_cval,
    check_mode,
    check_tol,
    check_truncate,
)
from ..ndimage import gaussian_filter
from ._common import as_float, axis_sigmas, is_xp


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
    image = as_float(image)
    spatial = list(range(image.ndim))
    if channel_axis is not None:
        channel_axis = check_axis(channel_axis, image.ndim, "channel_axis")
        spatial.remove(channel_axis)
    low = axis_sigmas(low_sigma, len(spatial), "low_sigma", allow_zero=True)
    high = ([1.6 * s for s in low] if high_sigma is None
            else axis_sigmas(high_sigma, len(spatial), "high_sigma", allow_zero=True))
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
            return image * 1 if is_xp(image) else image.copy()
        return gaussian_filter(image, [s for s in sigmas if s > 0], mode=mode, cval=cval,
                               truncate=truncate, axes=axes, tol=tol)

    return smooth(low) - smooth(high)
