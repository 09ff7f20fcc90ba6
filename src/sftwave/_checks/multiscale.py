"""The request of :func:`sftwave.feature.multiscale_basic_features`: its arguments checked once.

scikit-image 0.26's rules: at least one of the three feature families; the
sigmas ``sigma_min * 2**k`` up to ``sigma_max`` where ``num_sigma`` is None,
else ``num_sigma`` of them log-spaced from ``sigma_min`` to ``sigma_max``;
``channel_axis`` None for a single channel.  sftwave's keywords: ``tol`` and
``truncated`` (the Gaussians' accuracy, as :func:`sftwave.skimage.filters.gaussian`'s),
``spacing`` (the physical size of a pixel per spatial axis) and the engine.  The request
also says which Gaussians run as scipy's kernel in scipy's float64 arithmetic
(:meth:`MultiscaleRequest.radii`): every one where ``truncated``, and by default those of
a volume up to :data:`VOLUME_MAX_RADIUS`.

Examples
--------
>>> req = multiscale_request((64, 64), engine="numba")
>>> [round(s, 3) for s in req.sigmas]
[0.5, 1.0, 2.0, 4.0, 8.0, 16.0]
>>> req.features_per_scale, req.n_features
(4, 24)
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import check_axis, check_positive, check_spacing, check_tol, check_workers
from .features import check_truncated

__all__ = ["MultiscaleRequest", "VOLUME_MAX_RADIUS", "TRUNCATE", "multiscale_request",
           "scale_sigmas"]

#: scikit-image's truncation of the Gaussians inside (``skimage.filters.gaussian``'s default).
TRUNCATE = 4.0

#: The largest radius (scipy's ``int(4 sigma + 0.5)``, here sigma 16, the default largest
#: scale) up to which a volume's Gaussians are, by default, scipy's kernel in float64: a
#: volume's Hessian eigenvalues can have a range thousands of times below the image's values
#: (at the larger scales, or the middle one of a structure flat along an axis), against
#: which the float32 sums of the faster single-precision FIR (a few units of 6e-8 of the
#: values, over three passes) are not small; scikit-image's own sums are scipy's, in
#: float64.  Beyond, the Gaussian's default plan, whose cost does not grow with sigma.
VOLUME_MAX_RADIUS = 64


@dataclass(frozen=True)
class MultiscaleRequest:
    """A checked :func:`~sftwave.feature.multiscale_basic_features` call.

    ``spatial``: the image's shape without the channel axis; ``channel_axis``
    normalised (None: one channel); ``sigmas``: the scales, in physical units
    where ``spacing`` is given (then divided by it per axis for the filters).
    """

    spatial: tuple[int, ...]
    channel_axis: int | None
    intensity: bool
    edges: bool
    texture: bool
    sigmas: tuple[float, ...]
    spacing: tuple[float, ...] | None
    tol: float | None
    truncated: bool
    engine: str
    workers: int | None = None

    @property
    def features_per_scale(self) -> int:
        """Features per scale and channel: intensity, the Sobel magnitude, one eigenvalue per axis."""
        return int(self.intensity) + int(self.edges) + len(self.spatial) * int(self.texture)

    @property
    def n_features(self) -> int:
        """Features per pixel: per scale, per channel."""
        return self.features_per_scale * len(self.sigmas)

    def axis_sigmas(self, sigma: float) -> list[float]:
        """The Gaussian's sigma per spatial axis, in samples: ``sigma / spacing``."""
        if self.spacing is None:
            return [sigma] * len(self.spatial)
        return [sigma / d for d in self.spacing]

    def radii(self, sigmas: list[float]) -> list[int] | None:
        """The ``radius=`` of the Gaussian of per-axis ``sigmas`` (samples): scipy's kernel,
        truncated at 4 sigma and run in scipy's float64 arithmetic, where ``truncated``, or by
        default (no ``tol``) on a volume (3 or more spatial axes) where every axis's radius is
        at most :data:`VOLUME_MAX_RADIUS`; None: the Gaussian's default plan.

        Depends on the request and ``sigmas`` alone, not on the image's size (a dask block's
        features are the in-memory ones).

        Examples
        --------
        >>> req = multiscale_request((32, 32, 32), engine="numba")
        >>> req.radii([16.0] * 3), req.radii([17.0] * 3)
        ([64, 64, 64], None)
        >>> multiscale_request((32, 32), engine="numba").radii([2.0, 2.0]) is None
        True
        """
        radii = [int(TRUNCATE * float(s) + 0.5) for s in sigmas]
        if self.truncated:
            return radii
        if (self.tol is None and len(self.spatial) >= 3
                and max(radii, default=0) <= VOLUME_MAX_RADIUS):
            return radii
        return None


def _flag(value: Any, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_, numbers.Integral)):
        raise TypeError(f"{name} must be True or False; got {value!r}")
    return bool(value)


def scale_sigmas(sigma_min: Any, sigma_max: Any, num_sigma: Any) -> tuple[float, ...]:
    """scikit-image's scales: ``num_sigma`` (None: ``int(log2(sigma_max / sigma_min)) + 1``,
    powers of two from ``sigma_min``) log-spaced from ``sigma_min`` to ``sigma_max``.

    Examples
    --------
    >>> scale_sigmas(1, 4, 3)
    (1.0, 2.0, 4.0)
    >>> scale_sigmas(1, 10, 0)
    Traceback (most recent call last):
    ...
    ValueError: num_sigma must be a positive integer or None; got 0
    """
    lo = check_positive(sigma_min, "sigma_min")
    hi = check_positive(sigma_max, "sigma_max")
    if num_sigma is None:
        count = int(np.log2(hi) - np.log2(lo) + 1)
        if count < 1:
            raise ValueError(f"sigma_max must be at least sigma_min; got sigma_min={sigma_min!r}, "
                             f"sigma_max={sigma_max!r}")
    else:
        if isinstance(num_sigma, (bool, np.bool_)) or not isinstance(num_sigma, numbers.Integral):
            raise TypeError(f"num_sigma must be a positive integer or None; got {num_sigma!r}")
        if num_sigma < 1:
            raise ValueError(f"num_sigma must be a positive integer or None; got {num_sigma!r}")
        count = int(num_sigma)
    grid = np.logspace(np.log2(lo), np.log2(hi), num=count, base=2, endpoint=True)
    return tuple(float(s) for s in grid)


def multiscale_request(shape: tuple[int, ...], intensity: Any = True, edges: Any = True,
                       texture: Any = True, sigma_min: Any = 0.5, sigma_max: Any = 16,
                       num_sigma: Any = None, workers: Any = None, *, channel_axis: Any = None,
                       tol: Any = None, truncated: Any = False, spacing: Any = None,
                       engine: str) -> MultiscaleRequest:
    """The request of :func:`~sftwave.feature.multiscale_basic_features` for an image of
    ``shape`` (channels included where ``channel_axis`` is given).

    Every spatial axis must hold at least 2 pixels (the Hessian's differences, as
    ``np.gradient``'s, need two).

    Examples
    --------
    >>> req = multiscale_request((32, 32, 3), channel_axis=-1, texture=False, engine="numba")
    >>> req.spatial, req.channel_axis, req.features_per_scale
    ((32, 32), 2, 2)
    """
    flags = [_flag(v, n) for v, n in ((intensity, "intensity"), (edges, "edges"),
                                       (texture, "texture"))]
    if not any(flags):
        raise ValueError("At least one of intensity, edges or texture must be True for features "
                         f"to be computed; got intensity={intensity!r}, edges={edges!r}, "
                         f"texture={texture!r}")
    if len(shape) == 0:
        raise ValueError("image must have at least one axis; got a 0-d array")
    axis = None if channel_axis is None else check_axis(channel_axis, len(shape), "channel_axis")
    spatial = tuple(n for k, n in enumerate(shape) if k != axis)
    if not spatial or min(spatial) < 2:
        raise ValueError(f"image must have at least 2 pixels along every spatial axis; got shape "
                         f"{tuple(shape)} (channel_axis={channel_axis!r})")
    sigmas = scale_sigmas(sigma_min, sigma_max, num_sigma)
    return MultiscaleRequest(spatial, axis, flags[0], flags[1], flags[2], sigmas,
                             check_spacing(spacing, len(spatial)), check_tol(tol),
                             check_truncated(truncated), engine, check_workers(workers))
