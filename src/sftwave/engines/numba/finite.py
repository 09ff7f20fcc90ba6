"""Whether an array holds a non-finite value: one read at memory speed.

Every public function asks this first (``sftwave.engines.nonfinite``); the
answer is almost always yes, so it has to cost little next to the filter:
less than ``np.isfinite(x).all()``, which writes a mask, and a few per cent
of a Gaussian filter of the same samples (docs/performance.md, *Figures behind
the code's choices*).
"""

from __future__ import annotations

import numpy as np

from ._jit import kernel

__all__ = ["all_finite"]


@kernel(nogil=True)
def _any_nonfinite(a):
    """True if the 1-D ``a`` holds a NaN or an infinity (``v - v`` is NaN exactly there)."""
    bad = False
    for i in range(a.size):
        v = a[i]
        bad |= not (v - v == 0)
    return bad


def all_finite(x: np.ndarray) -> bool:
    """Whether every value of ``x`` is finite (always true for integer and bool dtypes).

    Examples
    --------
    >>> import numpy as np
    >>> all_finite(np.arange(3.0)), all_finite(np.array([1.0, np.nan]))
    (True, False)
    """
    if x.dtype.kind not in "fc":
        return True
    if x.dtype.kind == "c":
        return all_finite(x.real) and all_finite(x.imag)
    if x.dtype in (np.float32, np.float64) and x.ndim == 1:
        return not _any_nonfinite(x)
    if x.dtype in (np.float32, np.float64) and (x.flags.c_contiguous or x.flags.f_contiguous):
        return not _any_nonfinite(x.ravel(order="K"))
    return bool(np.isfinite(x).all())
