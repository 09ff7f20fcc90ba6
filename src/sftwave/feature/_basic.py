"""scikit-image's ``multiscale_basic_features``: intensity, edges and Hessian texture at many
scales, every Gaussian at a cost per pixel that does not depend on sigma."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from .. import engines
from .._checks.features import numpy_only
from .._checks.multiscale import TRUNCATE, MultiscaleRequest, multiscale_request
from .._docs import docfiller
from ..ndimage import gaussian_filter
from ._common import op, threads

__all__ = ["multiscale_basic_features"]

#: scikit-image's Gaussians inside: ``skimage.filters.gaussian``'s defaults.
_MODE = "nearest"


@docfiller
def multiscale_basic_features(image: ArrayLike, intensity: bool = True, edges: bool = True,
                              texture: bool = True, sigma_min: float = 0.5, sigma_max: float = 16,
                              num_sigma: int | None = None, workers: int | None = None, *,
                              channel_axis: int | None = None, tol: float | None = None,
                              truncated: bool = False,
                              spacing: float | Sequence[float] | None = None,
                              engine: str | None = None) -> np.ndarray:
    """Local features of a grey or multichannel image at many scales (scikit-image's).

    At each scale ``sigma`` (``sigma_min`` times powers of two up to
    ``sigma_max``, or ``num_sigma`` log-spaced ones) the image is smoothed by
    a Gaussian (scikit-image's ``filters.gaussian``: ``mode='nearest'``,
    truncated at 4 sigma) and gives, in this order: the smoothed intensity,
    its Sobel edge magnitude (``skimage.filters.sobel``) and the eigenvalues,
    decreasing, of its Hessian by finite differences (``np.gradient`` twice):
    ``2 + ndim`` features per scale and channel.  The Gaussians' cost per
    pixel is bounded whatever sigma (scikit-image's kernels where they cost
    less, the SFT beyond); the edges and the eigenvalues of a scale are
    computed in one pass over the smoothed image (2-D and 3-D images).

    Parameters
    ----------
    image : array_like
        The image, any number of spatial axes (2-D and 3-D the fast ones), with
        a channel axis where ``channel_axis`` is given; converted to float32 as
        scikit-image's ``img_as_float32`` (integers rescaled by their range).
    intensity, edges, texture : bool, optional
        Which features: the smoothed intensity, the Sobel magnitude, the
        Hessian's eigenvalues (at least one True).
    sigma_min, sigma_max : float, optional
        The smallest and largest scale (positive).  Defaults 0.5 and 16.
    num_sigma : int or None, optional
        The number of scales, log-spaced from ``sigma_min`` to ``sigma_max``;
        None: ``sigma_min`` times powers of two (6 scales by default).
    %(workers_cpu)s
    channel_axis : int or None, optional
        The channels' axis; each channel's features follow the previous
        channel's.  None: a single-channel image.
    tol : float or None, optional
        The Gaussians' accuracy (:func:`sftwave.skimage.filters.gaussian`'s).
        None: scikit-image's kernels where they cost less than the SFT (every
        default scale), beyond them an accuracy set from scikit-image's
        truncation at 4 sigma (every feature within 1e-3 of its range of
        scikit-image's on ``camera`` and on the volumes measured; see Notes).
    truncated : bool, optional
        True: scikit-image's Gaussians truncated at 4 sigma, honoured exactly
        (scipy's kernels, a cost that grows with sigma): its features to rounding.
    %(spacing)s
    engine : {None, 'auto', 'numba'}, optional
        As :func:`sftwave.gaussian_filter`'s (NumPy images).

    Returns
    -------
    features : ndarray
        float32, shape ``spatial shape + (n_features,)`` with ``n_features =
        n_channels * n_scales * (intensity + edges + ndim * texture)``, scale by
        scale for each channel, as scikit-image orders them.

    Raises
    ------
    ValueError
        All three families False, a non-positive ``sigma_min``, ``sigma_max`` or
        ``num_sigma``, a bad ``channel_axis`` or ``spacing``, a spatial axis
        shorter than 2.
    TypeError
        A complex or non-numeric image, or an array that is not NumPy's.

    See Also
    --------
    sftwave.skimage.filters.gaussian : The Gaussian inside.
    hessian_matrix_eigvals : The eigenvalues of a Hessian field.

    Notes
    -----
    By default the Gaussians of the default scales are scikit-image's own
    kernels (scipy's, truncated at 4 sigma); the arithmetic differs.  On an
    image (two spatial axes) their sums are float32, faster than scipy's
    float64; on a volume (three or more), up to sigma 16, float64 as
    scipy's: a volume's Hessian eigenvalues can have a range 3e3 to 2e4 times
    below its values (on 48^3 volumes at sigma 4 to 16; the middle eigenvalue
    of a structure flat along an axis), against which float32 sums over three
    passes are not small.  Wider scales are the SFT's, which approximates the
    untruncated Gaussian (as ``tol=1e-7`` below).

    The difference from scikit-image 0.26's, per feature relative to its range
    (max - min), measured (``benchmarks/compare.py --only multiscale_features``
    and the test suite): on ``skimage.data.camera()`` at the default scales
    4.3e-4 by default (the Hessian eigenvalues at sigma 16; the intensities
    below 1e-6), 1.5e-3 with ``tol=1e-7`` (the untruncated Gaussian:
    scikit-image's truncation at 4 sigma is itself that far from it), 8e-5
    with ``truncated=True`` (scikit-image's float32 rounding); on 48^3 volumes
    below 3e-7 by default (float32 sums gave 4e-3 to 2.2e-2 at the default
    scales, 1.4e-3 at sigmas 0.5 to 4).  The default on an image is not a bound for every image: float32
    sums gave 9.9e-4 to 1.1e-3 on smooth images of 32 to 48 pixels a side at
    sigma 16, where the eigenvalues vary little; ``truncated=True`` stays within
    rounding of scikit-image's on any image.

    Examples
    --------
    >>> import numpy as np
    >>> from sftwave.feature import multiscale_basic_features
    >>> image = np.zeros((32, 32))
    >>> image[8:24, 8:24] = 1.0
    >>> f = multiscale_basic_features(image, sigma_min=1, sigma_max=4)
    >>> f.shape, f.dtype            # 3 scales x (intensity, edges, 2 eigenvalues)
    ((32, 32, 12), dtype('float32'))
    """
    numpy_only(image, " (sftwave.feature.multiscale_basic_features)")
    name = engines.resolve_engine(engine, image)
    arr = op(name, "feature_as_float")(image, "image")
    req = multiscale_request(arr.shape, intensity, edges, texture, sigma_min, sigma_max,
                             num_sigma, workers, channel_axis=channel_axis, tol=tol,
                             truncated=truncated, spacing=spacing, engine=name)
    arr = arr.astype(np.float32, copy=False)       # img_as_float32
    channels = ([arr] if req.channel_axis is None
                else [np.take(arr, c, axis=req.channel_axis) for c in range(arr.shape[req.channel_axis])])
    out = np.empty(req.spatial + (req.n_features * len(channels),), dtype=np.float32)
    with threads(name, req.workers):
        for c, x in enumerate(channels):
            _channel_features(x, out, c * req.n_features, req)
    return out


def _channel_features(x: np.ndarray, out: np.ndarray, k0: int, req: MultiscaleRequest) -> None:
    """One channel's features: every scale smoothed, then all their features in one pass."""
    stack = np.empty((len(req.sigmas),) + x.shape, dtype=np.float32)
    for smoothed, sigma in zip(stack, req.sigmas):
        sigmas = req.axis_sigmas(sigma)
        gaussian_filter(x, sigmas, output=smoothed, mode=_MODE, truncate=TRUNCATE, tol=req.tol,
                        radius=req.radii(sigmas), engine=req.engine)
    inv = tuple(1.0 / d for d in req.spacing) if req.spacing else (1.0,) * x.ndim
    op(req.engine, "basic_features_scale")(stack, out, k0, req.intensity, req.edges, req.texture,
                                           inv)
