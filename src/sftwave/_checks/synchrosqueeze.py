"""The request of :func:`sftwave.synchrosqueeze.ssq_cwt`: its arguments, checked and normalised once.

:func:`ssq_request` turns the arguments into a frozen :class:`SsqRequest`: the
rows (frequencies, the wavelet's ``xi``), the bins, the options with their
defaults resolved (``tol``: the plans' default, passed in), the result's dtype, and the engine's name
(resolved by the public function with :func:`sftwave.engines.resolve_engine`,
which this layer does not import).  It reads the signal's dtype and axes to
check them, never holds it, and never computes.  The wavelet (``xi``, the
Morlet's) is parsed in one place, :func:`check_ssq_xi`; the bins in another,
:func:`squeeze_bins`.

Examples
--------
>>> import numpy as np
>>> r = ssq_request(np.zeros(64), [0.1, 0.2, 0.4], fs=1.0, xi=6.0, ssq_freqs="log",
...                 squeezing="sum", gamma=None, axis=-1, mode="reflect", cval=0.0, tol=None,
...                 dtype=None, block=None, return_cwt=False, fft=True, derivative="auto",
...                 workers=None, engine="numba", default_tol=1e-4)
>>> r.log_bins, r.out_dtype, r.tol
(True, dtype('complex128'), 0.0001)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from . import (
    XI_RANGE,
    check_axis,
    check_choice,
    check_cval,
    check_freqs,
    check_input_array,
    check_mode,
    check_positive,
    check_tol,
    check_workers,
    scalogram_dtype,
)

__all__ = ["SQUEEZINGS", "DERIVATIVES", "SsqRequest", "ssq_request", "squeeze_bins",
           "check_ssq_xi", "check_ssq_input"]

#: ``squeezing`` of :func:`sftwave.synchrosqueeze.ssq_cwt`: what a reassigned coefficient adds.
SQUEEZINGS = ("sum", "lebesgue")
#: ``derivative`` of :func:`sftwave.synchrosqueeze.ssq_cwt`: how ``dW/dt`` is computed.
DERIVATIVES = ("auto", "transform")


@dataclass(frozen=True, eq=False)
class SsqRequest:
    """The checked arguments of :func:`sftwave.synchrosqueeze.ssq_cwt` (not the signal).

    ``axis`` is the signal's time axis as a non-negative index; ``bins`` the
    rows' frequencies, ``log_bins`` whether they are log-uniform (else
    linear-uniform); ``tol`` resolved; ``out_dtype`` the result's dtype.
    """

    fs: float
    freqs: np.ndarray
    xi: float
    bins: np.ndarray
    log_bins: bool
    squeezing: str
    derivative: str
    gamma: float | None
    axis: int
    mode: str
    cval: float
    tol: float
    out_dtype: np.dtype
    block: int | None
    return_cwt: bool
    fft: bool
    workers: int | None
    engine: str


def _uniform(u: np.ndarray) -> bool:
    """Whether ``u`` (at least 2 values) is an arithmetic progression, to 1e-6 of its step."""
    d = np.diff(u)
    return bool(d[0] != 0 and np.all(np.abs(d - d[0]) <= 1e-6 * abs(d[0])))


def squeeze_bins(f: np.ndarray, ssq_freqs: Any) -> tuple[np.ndarray, bool]:
    """The bin centres and whether they are log-uniform (else linear-uniform).

    Examples
    --------
    >>> bins, log = squeeze_bins(np.array([0.4, 0.1, 0.2]), "log")
    >>> bins.round(3).tolist(), log
    ([0.1, 0.2, 0.4], True)
    """
    if ssq_freqs is None:
        bins = f
        what = "freqs (the default ssq_freqs)"
    elif isinstance(ssq_freqs, str):
        if ssq_freqs not in ("log", "linear"):
            raise ValueError(f"ssq_freqs must be None, 'log', 'linear' or an array of frequencies; "
                             f"got {ssq_freqs!r}")
        lo, hi = float(f.min()), float(f.max())
        bins = np.geomspace(lo, hi, f.size) if ssq_freqs == "log" else np.linspace(lo, hi, f.size)
        return bins, ssq_freqs == "log"
    else:
        try:
            bins = np.asarray(ssq_freqs, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"ssq_freqs must be None, 'log', 'linear' or an array of frequencies; "
                            f"got {ssq_freqs!r}") from exc
        what = "ssq_freqs"
        if bins.ndim != 1 or bins.size < 2 or not np.all(np.isfinite(bins)) or np.any(bins <= 0):
            raise ValueError(f"ssq_freqs must hold at least 2 positive finite frequencies in 1-D; "
                             f"got {ssq_freqs!r}")
    if bins.size >= 2 and _uniform(np.log(bins)):
        return bins, True
    if bins.size >= 2 and _uniform(bins):
        return bins, False
    raise ValueError(f"{what} must be uniformly spaced in frequency or in its logarithm (the bins); "
                     f"got {bins!r}; pass ssq_freqs='log' or 'linear' or such an array")


def check_ssq_xi(xi: Any) -> float:
    """The Morlet's ``xi`` of a synchrosqueezed transform: one number in :data:`XI_RANGE`.

    Examples
    --------
    >>> check_ssq_xi(7)
    7.0
    """
    if np.ndim(xi) != 0:
        raise TypeError(f"xi must be one real number for ssq_cwt; got {xi!r}")
    xi = check_positive(xi, "xi")
    if not XI_RANGE[0] <= xi <= XI_RANGE[1]:
        raise ValueError(f"xi must be in [{XI_RANGE[0]:g}, {XI_RANGE[1]:g}] (the Morlet designs' "
                         f"range); got {xi!r}")
    return xi


def _rows(freqs: Any, fs: float) -> np.ndarray:
    f = check_freqs(freqs, fs)
    if f.size < 2:
        raise ValueError(f"freqs must hold at least 2 frequencies (the scale steps); got {freqs!r}")
    d = np.diff(f)
    if not (np.all(d > 0) or np.all(d < 0)):
        raise ValueError(f"freqs must be strictly increasing or decreasing; got {freqs!r}")
    return f


def _flags(return_cwt: Any, fft: Any, block: Any) -> int | None:
    for name, flag in (("return_cwt", return_cwt), ("fft", fft)):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False; got {flag!r}")
    if block is not None:
        if isinstance(block, (bool, np.bool_)) or not isinstance(block, (int, np.integer)):
            raise TypeError(f"block must be None or a positive integer; got {block!r}")
        if block < 1:
            raise ValueError(f"block must be a positive integer; got {block!r}")
        return int(block)
    return None


def check_ssq_input(x: Any) -> np.ndarray:
    """The signal of :func:`sftwave.synchrosqueeze.ssq_cwt` as an ndarray: real, at least 1-D.

    Examples
    --------
    >>> check_ssq_input([1, 2, 3]).dtype
    dtype('int64')
    """
    arr = check_input_array(x, "x")
    if arr.dtype.kind == "c":
        raise TypeError("ssq_cwt takes a real signal; got a complex x (squeeze its real and "
                        "imaginary parts apart)")
    if arr.ndim == 0:
        raise ValueError("x must have at least one axis (time); got a scalar")
    return arr


def ssq_request(x: Any, freqs: Any, *, fs: Any, xi: Any, ssq_freqs: Any, squeezing: Any,
                gamma: Any, axis: Any, mode: Any, cval: Any, tol: Any, dtype: Any, block: Any,
                return_cwt: Any, fft: Any, derivative: Any, workers: Any, engine: str,
                default_tol: float) -> SsqRequest:
    """The request of :func:`sftwave.synchrosqueeze.ssq_cwt` (``x``: its dtype and axes read).

    ``default_tol`` replaces a ``tol`` of None (the plans' default,
    :data:`sftwave.plans.DEFAULT_MORLET_TOL`, which this layer does not import).

    Examples
    --------
    >>> ssq_request(np.zeros((2, 8), np.float32), [0.1, 0.2], fs=1.0, xi=6.0, ssq_freqs=None,
    ...             squeezing="sum", gamma=None, axis=0, mode="reflect", cval=0.0, tol=None,
    ...             dtype=None, block=None, return_cwt=False, fft=True, derivative="auto",
    ...             workers=None, engine="numba", default_tol=1e-4).out_dtype
    dtype('complex64')
    """
    fs = check_positive(fs, "fs")
    f = _rows(freqs, fs)
    xi = check_ssq_xi(xi)
    bins, log_bins = squeeze_bins(f, ssq_freqs)
    squeezing = check_choice(squeezing, SQUEEZINGS, "squeezing")
    derivative = check_choice(derivative, DERIVATIVES, "derivative")
    if gamma is not None:
        gamma = check_positive(gamma, "gamma", allow_zero=True)
    mode = check_mode(mode)
    cval = check_cval(cval)
    tol = check_tol(tol)
    tol = default_tol if tol is None else tol
    workers = check_workers(workers)
    block = _flags(return_cwt, fft, block)
    arr = check_ssq_input(x)
    axis = check_axis(axis, arr.ndim)
    out_dtype = scalogram_dtype(dtype, arr.dtype in (np.float32, np.float16), "complex")
    if out_dtype not in (np.complex64, np.complex128):
        raise ValueError(f"dtype must be complex64 or complex128; got {out_dtype}")
    return SsqRequest(fs, f, xi, bins, bool(log_bins), squeezing, derivative, gamma, axis, mode,
                      cval, float(tol), np.dtype(out_dtype), block, bool(return_cwt), bool(fft),
                      workers, engine)
