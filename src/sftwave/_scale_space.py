"""Rules of scikit-image's scale-space features that :mod:`sftwave.feature` and
:mod:`sftwave.dask` both follow: one place for each, so that the lazy functions
compute what the in-memory ones do."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

#: The default accuracy of the Gaussian-derivative Hessian's filters: about float32's
#: resolution, which the recursions meet at a cost independent of sigma (scikit-image's
#: truncation at 8 sigma, a kernel error near 1e-14, only a truncated kernel reaches,
#: at a cost that grows with sigma).
DERIVATIVE_TOL = 1e-7


def derivative_truncate(sigmas: Sequence[float]) -> float:
    """scikit-image's truncation of its Gaussian-derivative Hessian: 8 sigma, 100 for sigma <= 1."""
    return 8.0 if all(s > 1 for s in sigmas) else 100.0


def hessian_norm2(H: Sequence[Any], ndim: int) -> Any:
    """The squared Frobenius norm of a symmetric ``ndim`` x ``ndim`` field from its
    upper-triangle elements (row by row), in float64; numpy or array-API arrays."""
    pairs = combinations_with_replacement(range(ndim), 2)
    return sum((1.0 if i == j else 2.0) * _as_float64(h) ** 2
               for (i, j), h in zip(pairs, H, strict=True))


def finite_max(a: Any) -> float:
    """The largest finite value of a non-negative array (0 where there is none); numpy or
    array-API arrays."""
    if isinstance(a, np.ndarray):
        finite = a[np.isfinite(a)]
        return float(finite.max()) if finite.size else 0.0
    from array_api_compat import array_namespace

    xp = array_namespace(a)
    return float(xp.max(xp.where(xp.isfinite(a), a, 0.0))) if a.size else 0.0


def _as_float64(h: Any) -> Any:
    """``h`` in float64, numpy or array-API."""
    if isinstance(h, np.ndarray):
        return h.astype(np.float64, copy=False)
    from array_api_compat import array_namespace

    xp = array_namespace(h)
    return xp.astype(h, xp.float64)


def frangi_gamma(top: float) -> float:
    """scikit-image's default Frangi gamma from the largest squared Hessian norm: half the
    norm, or 1 where it is 0."""
    return float(np.sqrt(top) / 2) if top > 0 else 1.0
