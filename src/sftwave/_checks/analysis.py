"""The argument checks of :mod:`sftwave.analysis` (Torrence & Compo's wavelet power analysis).

Each parser returns its argument normalised, or raises ``ValueError`` naming
the parameter and echoing the value; none computes a result.

Examples
--------
>>> import numpy as np
>>> check_periods([2.0, 8.0]).tolist(), check_length(5), check_level(0.95)
([2.0, 8.0], 5, 0.95)
>>> band_rows(np.array([0.1, 0.2, 0.4]), (0.15, 0.5)).tolist()
[False, True, True]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["SIGNIFICANCE_TESTS", "check_periods", "check_length", "check_row_freqs", "check_one_xi",
           "check_scale_rows", "band_rows", "check_series", "check_background", "check_level",
           "check_global_dof"]

#: ``test`` of :func:`sftwave.analysis.significance`.
SIGNIFICANCE_TESTS = ("local", "global", "scale")


def check_periods(periods: Any) -> np.ndarray:
    """Fourier periods, positive and finite, as float64."""
    p = np.asarray(periods, dtype=np.float64)
    if np.any(~np.isfinite(p)) or np.any(p <= 0):
        raise ValueError(f"periods must be positive and finite; got {periods!r}")
    return p


def check_length(n: Any, name: str = "n") -> int:
    """A number of samples: a non-negative integer (``int(n)``)."""
    value = int(n)
    if value < 0:
        raise ValueError(f"{name} must be non-negative; got {value}")
    return value


def check_row_freqs(freqs: Any) -> np.ndarray:
    """A scalogram's frequencies (at least 1-D), positive and finite, as float64."""
    f = np.atleast_1d(np.asarray(freqs, dtype=np.float64))
    if np.any(~np.isfinite(f)) or np.any(f <= 0):
        raise ValueError(f"freqs must be positive and finite; got {freqs!r}")
    return f


def check_one_xi(xis: np.ndarray, what: str) -> float:
    """The one ``xi`` of the rows (NaN for a family without one): ``what`` (a function) with
    one ``xi`` per frequency needs ``cdelta=`` given."""
    if np.ptp(xis) > 0:
        raise ValueError(f"{what} with one xi per frequency needs cdelta=")
    return float(xis[0])


def check_scale_rows(count: int) -> None:
    """A scale average needs at least two rows (their spacing on the octave axis)."""
    if count < 2:
        raise ValueError("scale averages need at least two frequencies")


def band_rows(f: np.ndarray, band: Sequence[float] | None) -> np.ndarray:
    """The mask of the frequencies ``f`` in ``band`` (all for None); at least one."""
    if band is None:
        return np.ones(f.size, bool)
    lo, hi = sorted(float(b) for b in band)
    sel = (f >= lo) & (f <= hi)
    if not sel.any():
        raise ValueError(f"no frequency lies in band={band!r}")
    return sel


def check_series(x: Any) -> np.ndarray:
    """:func:`sftwave.analysis.ar1`'s series, flattened: at least 3 finite samples."""
    v = np.asarray(x, dtype=np.float64).ravel()
    if v.size < 3 or not np.all(np.isfinite(v)):
        raise ValueError("ar1 needs at least 3 finite samples")
    return v


def check_background(signal: Any, alpha: Any) -> np.ndarray:
    """:func:`sftwave.analysis.significance`'s ``signal`` as float64: a series, or a
    variance (0-d), which needs ``alpha``."""
    arr = np.asarray(signal, dtype=np.float64)
    if arr.ndim == 0 and alpha is None:
        raise ValueError("alpha is required when signal is a variance")
    return arr


def check_level(level: Any) -> float:
    """A significance level in ``(0, 1)``."""
    if not 0.0 < float(level) < 1.0:
        raise ValueError(f"level must be in (0, 1); got {level!r}")
    return float(level)


def check_global_dof(dof: Any, length: int | None) -> np.ndarray:
    """The times averaged of ``test='global'``: ``dof``, or the series' ``length`` (None
    where ``signal`` is a variance: ``dof`` is then required)."""
    if dof is None and length is None:
        raise ValueError("test='global' needs dof= when signal is a variance")
    return np.asarray(length if dof is None else dof, dtype=np.float64)
