"""The requests of :mod:`sftwave.signal`: scipy's ``cwt`` and ``find_peaks_cwt``, checked once.

:func:`signal_cwt_request` and :func:`peaks_cwt_request` turn the arguments
into frozen requests: the widths as a 1-D float array, the rows' routes
resolved, the options with scipy's defaults.  They read the data's length
and dtype to check them, never compute a transform.  The wavelet's checks
(:func:`check_wavelet_length`, :func:`check_wavelet_width`) are shared by
``ricker`` and ``morlet2``.

Examples
--------
>>> import numpy as np
>>> r = signal_cwt_request(np.zeros(100), print, [1.0, 2.0], None, False, None, {})
>>> r.widths.tolist(), r.truncated, r.tol
([1.0, 2.0], False, None)
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import check_tol

__all__ = ["SignalCwtRequest", "PeaksCwtRequest", "signal_cwt_request", "peaks_cwt_request",
           "check_wavelet_length", "check_wavelet_width", "check_signal_data"]


def _is_real_number(value: Any) -> bool:
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def check_wavelet_length(points: Any, name: str = "points") -> float:
    """A wavelet's number of points: a finite real number at least 0 (scipy takes ``1.0``)."""
    if isinstance(points, bool) or not _is_real_number(points) or not math.isfinite(float(points)):
        raise TypeError(f"{name} must be a finite real number, got {points!r}")
    if float(points) < 0:
        raise ValueError(f"{name} must be at least 0, got {points!r}")
    return points


def check_wavelet_width(width: Any, name: str = "a") -> float:
    """A wavelet's width: a positive finite real number."""
    if isinstance(width, bool) or not _is_real_number(width):
        raise TypeError(f"{name} must be a positive real number, got {width!r}")
    if not (math.isfinite(float(width)) and float(width) > 0):
        raise ValueError(f"{name} must be a positive finite number, got {width!r}")
    return width


def check_signal_data(data: Any, name: str = "data") -> np.ndarray:
    """The signal: a non-empty 1-D numeric array (a copy is never made here)."""
    arr = np.asarray(data)
    if arr.dtype.kind not in "biufc":
        raise TypeError(f"{name} must be a numeric array, got dtype {arr.dtype}")
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array, got shape {arr.shape}")
    return arr


def _check_widths(widths: Any, name: str = "widths") -> np.ndarray:
    w = np.atleast_1d(np.asarray(widths))
    if w.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be real numbers, got {widths!r}")
    if w.ndim != 1 or w.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D sequence, got shape {w.shape}")
    if not (np.all(np.isfinite(w)) and np.all(w > 0)):
        raise ValueError(f"{name} must be positive and finite, got {widths!r}")
    return w


def _check_dtype(dtype: Any) -> np.dtype | None:
    if dtype is None:
        return None
    try:
        return np.dtype(dtype)
    except TypeError:
        raise TypeError(f"dtype must be a numpy data type, got {dtype!r}") from None


def _check_flag(value: Any, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


@dataclass(frozen=True, eq=False)
class SignalCwtRequest:
    """The checked arguments of :func:`sftwave.signal.cwt` (not the data).

    ``widths`` as given (1-D, scipy's values: they set scipy's kernel lengths);
    ``n`` the data's length; ``wavelet`` the callable; ``dtype`` None for
    scipy's rule (float64 for a real wavelet, complex128 for a complex one);
    ``truncated`` True for scipy's own convolution on every row; ``tol`` the
    fast rows' kernel error (None: the module's default); ``kwargs`` the
    wavelet's keyword arguments.
    """

    n: int
    widths: np.ndarray
    wavelet: Any
    dtype: np.dtype | None
    truncated: bool
    tol: float | None
    kwargs: dict


def signal_cwt_request(data: np.ndarray, wavelet: Any, widths: Any, dtype: Any, truncated: Any,
                       tol: Any, kwargs: dict) -> SignalCwtRequest:
    """Check :func:`sftwave.signal.cwt`'s arguments into a :class:`SignalCwtRequest`."""
    arr = check_signal_data(data)
    if not callable(wavelet):
        raise TypeError(f"wavelet must be a callable wavelet(points, width), got {wavelet!r}")
    return SignalCwtRequest(n=arr.shape[0], widths=_check_widths(widths), wavelet=wavelet,
                            dtype=_check_dtype(dtype), truncated=_check_flag(truncated, "truncated"),
                            tol=check_tol(tol), kwargs=dict(kwargs))


@dataclass(frozen=True, eq=False)
class PeaksCwtRequest:
    """The checked arguments of :func:`sftwave.signal.find_peaks_cwt` (not the vector).

    scipy's defaults resolved: ``max_distances`` ``widths / 4``, ``gap_thresh``
    ``ceil(widths[0])``, ``min_length`` ``ceil(len(widths) / 4)``,
    ``window_size`` ``ceil(n / 20)`` (an int, as scipy casts it); ``wavelet``
    None for the Ricker.
    """

    n: int
    widths: np.ndarray
    wavelet: Any
    max_distances: np.ndarray
    gap_thresh: float
    min_length: float
    min_snr: float
    noise_perc: float
    window_size: int
    truncated: bool
    tol: float | None


def _real(value: Any, name: str) -> float:
    if isinstance(value, bool) or not _is_real_number(value) or math.isnan(float(value)):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    return float(value)


def _max_distances(max_distances: Any, widths: np.ndarray) -> np.ndarray:
    if max_distances is None:
        return widths / 4.0
    md = np.asarray(max_distances)
    if md.dtype.kind not in "biuf" or md.ndim != 1:
        raise TypeError(f"max_distances must be a 1-D sequence of numbers, got {max_distances!r}")
    if md.shape[0] < widths.shape[0]:
        raise ValueError(f"max_distances must have at least as many values as widths "
                         f"({widths.shape[0]}), got {md.shape[0]}")
    return md


def peaks_cwt_request(vector: np.ndarray, widths: Any, wavelet: Any, max_distances: Any,
                      gap_thresh: Any, min_length: Any, min_snr: Any, noise_perc: Any,
                      window_size: Any, truncated: Any, tol: Any) -> PeaksCwtRequest:
    """Check :func:`sftwave.signal.find_peaks_cwt`'s arguments into a :class:`PeaksCwtRequest`."""
    arr = check_signal_data(vector, "vector")
    w = _check_widths(widths)
    if wavelet is not None and not callable(wavelet):
        raise TypeError(f"wavelet must be None or a callable wavelet(points, width), got {wavelet!r}")
    perc = _real(noise_perc, "noise_perc")
    if not 0 <= perc <= 100:
        raise ValueError(f"noise_perc must be in [0, 100], got {noise_perc!r}")
    n = arr.shape[0]
    window = math.ceil(n / 20) if window_size is None else _real(window_size, "window_size")
    if not (math.isfinite(window) and int(window) >= 1):
        raise ValueError(f"window_size must be at least 1, got {window_size!r}")
    return PeaksCwtRequest(
        n=n, widths=w, wavelet=wavelet, max_distances=_max_distances(max_distances, w),
        gap_thresh=float(np.ceil(w[0])) if gap_thresh is None else _real(gap_thresh, "gap_thresh"),
        min_length=(math.ceil(w.shape[0] / 4) if min_length is None
                    else _real(min_length, "min_length")),
        min_snr=_real(min_snr, "min_snr"), noise_perc=perc, window_size=int(window),
        truncated=_check_flag(truncated, "truncated"), tol=check_tol(tol))
