"""Rules of scikit-image's scale-space features that :mod:`sftwave.feature` and
:mod:`sftwave.dask` both follow: one place for each, so that the lazy functions
compute what the in-memory ones do."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement

import numpy as np

#: The default accuracy of the Gaussian-derivative Hessian's filters: about float32's
#: resolution, which the recursions meet at a cost independent of sigma (scikit-image's
#: truncation at 8 sigma, a kernel error near 1e-14, only a truncated kernel reaches,
#: at a cost that grows with sigma).
DERIVATIVE_TOL = 1e-7


def derivative_truncate(sigmas: Sequence[float]) -> float:
    """scikit-image's truncation of its Gaussian-derivative Hessian: 8 sigma, 100 for sigma <= 1."""
    return 8.0 if all(s > 1 for s in sigmas) else 100.0


def hessian_norm2(H: Sequence[np.ndarray], ndim: int) -> np.ndarray:
    """The squared Frobenius norm of a symmetric ``ndim`` x ``ndim`` field from its
    upper-triangle elements (row by row), in float64."""
    pairs = combinations_with_replacement(range(ndim), 2)
    return sum((1.0 if i == j else 2.0) * np.square(h, dtype=np.float64)
               for (i, j), h in zip(pairs, H, strict=True))


def finite_max(a: np.ndarray) -> float:
    """The largest finite value of a non-negative array (0 where there is none)."""
    finite = a[np.isfinite(a)]
    return float(finite.max()) if finite.size else 0.0


def frangi_gamma(top: float) -> float:
    """scikit-image's default Frangi gamma from the largest squared Hessian norm: half the
    norm, or 1 where it is 0."""
    return float(np.sqrt(top) / 2) if top > 0 else 1.0
