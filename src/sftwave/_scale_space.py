"""Rules of scikit-image's scale-space features that :mod:`sftwave.feature` and
:mod:`sftwave.dask` both follow: one place for each, so that the lazy functions
compute what the in-memory ones do."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import Any, overload

import numpy as np

from ._checks.features import DERIVATIVE_TOL, derivative_truncate
from ._checks.ndimage import Array

__all__ = ["DERIVATIVE_TOL", "derivative_truncate", "hessian_norm2", "finite_max", "frangi_gamma"]


def hessian_norm2(H: Sequence[Any], ndim: int) -> Array:
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


@overload
def _as_float64(h: np.ndarray) -> np.ndarray: ...
@overload
def _as_float64(h: Array) -> Array: ...


def _as_float64(h: Any) -> Array:
    """``h`` in float64, numpy or array-API (NumPy in, NumPy out)."""
    if isinstance(h, np.ndarray):
        return h.astype(np.float64, copy=False)
    from array_api_compat import array_namespace

    xp = array_namespace(h)
    return xp.astype(h, xp.float64)


def frangi_gamma(top: float) -> float:
    """scikit-image's default Frangi gamma from the largest squared Hessian norm: half the
    norm, or 1 where it is 0."""
    return float(np.sqrt(top) / 2) if top > 0 else 1.0
