"""The difference of Gaussians band-pass filter, as scikit-image's ``difference_of_gaussians``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np
from numpy.typing import ArrayLike

from .. import engines
from .._checks.features import dog_request, scipy_radii
from ..ndimage import gaussian_filter
from ._common import op, threads


def difference_of_gaussians(image: ArrayLike, low_sigma: float | Sequence[float],
                            high_sigma: float | Sequence[float] | None = None, *,
                            mode: str = "nearest", cval: float = 0, channel_axis: int | None = None,
                            truncate: float = 4.0, truncated: bool = False, tol: float | None = None,
                            engine: str | None = None, workers: int | None = None) -> np.ndarray:
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
    truncated : bool, optional
        True: scikit-image's Gaussians, truncated at ``truncate`` sigma, honoured
        exactly (scipy's kernels; a cost that grows with sigma): its numbers to
        rounding.  False (default): the untruncated Gaussians to ``tol``.
    tol : float or None, optional
        The Gaussian filters' accuracy, instead of the one set by ``truncate``.
    engine : {None, 'auto', 'numba', 'xp', 'cuda'}, optional
        As :func:`sftwave.gaussian_filter`'s: None and 'auto' choose by the
        image's array type.
    workers : int, optional
        Threads to use (-1: all cores), for this call only; the CPU engine only.

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
    name = engines.resolve_engine(engine, image)
    arr = op(name, "feature_as_float")(image, "image")       # the engine's array type
    req = dog_request(len(arr.shape), low_sigma, high_sigma, mode=mode, cval=cval,
                      channel_axis=channel_axis, truncate=truncate, tol=tol, engine=name,
                      workers=workers, truncated=truncated)

    def smooth(sigmas: tuple[float, ...]) -> np.ndarray:
        axes = [ax for ax, s in zip(req.axes, sigmas, strict=True) if s > 0]
        if not axes:
            return arr * 1                    # a copy, of any array type
        kept = [s for s in sigmas if s > 0]
        # a NumPy array on the CPU engine (the input's array type on the array-API one)
        radius = scipy_radii(kept, req.truncate, req.truncated)
        return cast(np.ndarray, gaussian_filter(arr, kept, mode=req.mode, cval=req.cval,
                                                truncate=req.truncate, axes=axes, tol=req.tol,
                                                radius=radius, engine=name))

    with threads(name, req.workers):
        return smooth(req.low) - smooth(req.high)
