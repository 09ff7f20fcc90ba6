"""The requests of :mod:`sftwave.stream`: each stream constructor's arguments, checked and normalised once.

:func:`gaussian_stream_request` and :func:`cwt_stream_request` turn the
constructors' arguments into frozen requests, with the engine's name
(resolved by the constructor with :func:`sftwave.engines.resolve_engine`,
which this layer does not import) and the choices this layer cannot import
(the Morlet methods, the output kinds, the default ``tol``) passed in by the
caller.  A builder raises ``ValueError`` or ``TypeError`` naming the
parameter and echoing the value, and never computes.  The wavelet (``xi``,
the Morlet's, one or one per frequency) is parsed in one place,
:func:`check_xi`.

Examples
--------
>>> r = gaussian_stream_request(3.0, 1, mode="nearest", cval=0.0, truncate=4.0, tol=None,
...                             method="auto", transform="sft", engine="numba")
>>> r.sigma, r.order, r.mode
(3.0, 1, 'nearest')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import (
    check_choice,
    check_cval,
    check_decim,
    check_freqs,
    check_mode,
    check_order,
    check_positive,
    check_sigma,
    check_tol,
    check_truncate,
    check_xi,
)

__all__ = ["STREAM_MODES", "GaussianStreamRequest", "CWTStreamRequest", "gaussian_stream_request",
           "cwt_stream_request", "check_stream_mode", "check_window_plan", "check_wavelet_widths",
           "check_open", "chunk_request", "check_path"]

#: The boundary modes a stream honours.
STREAM_MODES = ("reflect", "mirror", "nearest", "constant")


@dataclass(frozen=True)
class GaussianStreamRequest:
    """The checked arguments of :class:`sftwave.stream.GaussianFilter1D`."""

    sigma: float
    order: int
    mode: str
    cval: float
    truncate: float
    tol: float | None
    method: str
    transform: str
    engine: str


@dataclass(frozen=True, eq=False)
class CWTStreamRequest:
    """The checked arguments of :class:`sftwave.stream.CWT` (``tol`` resolved)."""

    fs: float
    freqs: np.ndarray
    xi: np.ndarray
    mode: str
    cval: float
    output: str
    decim: int
    tol: float
    method: str
    engine: str


def check_stream_mode(mode: Any) -> str:
    """A boundary mode a stream can honour (canonical name): not ``'wrap'``.

    Examples
    --------
    >>> check_stream_mode("grid-constant")
    'constant'
    """
    mode = check_mode(mode)
    if mode == "wrap":
        raise ValueError("mode='wrap' cannot stream: its start is the signal's end; use "
                         "'reflect', 'mirror', 'nearest' or 'constant'")
    return mode


def gaussian_stream_request(sigma: Any, order: Any, *, mode: Any, cval: Any, truncate: Any,
                            tol: Any, method: Any, transform: Any,
                            engine: str) -> GaussianStreamRequest:
    """The request of :class:`sftwave.stream.GaussianFilter1D`.

    Examples
    --------
    >>> gaussian_stream_request(2.0, 3, mode="reflect", cval=0.0, truncate=4.0, tol=None,
    ...                         method="auto", transform="sft", engine="numba")
    Traceback (most recent call last):
    ...
    ValueError: order must be 0, 1 or 2 for a stream; got 3
    """
    sigma = check_sigma(sigma)
    checked = check_order(order)
    if checked > 2:
        raise ValueError(f"order must be 0, 1 or 2 for a stream; got {order!r}")
    truncate = check_truncate(truncate)
    tol = check_tol(tol)
    method = check_choice(method, ("auto", "fir", "bank"), "method")
    transform = check_choice(transform, ("sft", "asft"), "transform")
    return GaussianStreamRequest(sigma, checked, check_stream_mode(mode), check_cval(cval),
                                 truncate, tol, method, transform, engine)


def cwt_stream_request(freqs: Any, fs: Any, *, xi: Any, mode: Any, cval: Any, output: Any,
                       decim: Any, tol: Any, method: Any, engine: str, outputs: tuple[str, ...],
                       methods: tuple[str, ...], default_tol: float) -> CWTStreamRequest:
    """The request of :class:`sftwave.stream.CWT` (``outputs``, ``methods``, ``default_tol``: the
    wavelets' and the plans' choices, which this layer does not import).

    Examples
    --------
    >>> r = cwt_stream_request([0.1, 0.2], 1.0, xi=6.0, mode="reflect", cval=0.0, output="power",
    ...                        decim=2, tol=None, method="auto", engine="numba",
    ...                        outputs=("complex", "power"), methods=("auto", "fft"),
    ...                        default_tol=1e-4)
    >>> r.xi.tolist(), r.tol, r.decim
    ([6.0, 6.0], 0.0001, 2)
    """
    fs = check_positive(fs, "fs")
    f = check_freqs(freqs, fs)
    xi = check_xi(xi, f.size)
    output = check_choice(output, outputs, "output")
    tol = check_tol(tol)
    tol = default_tol if tol is None else tol
    method = check_choice(method, methods, "method")
    if method == "fft":
        raise ValueError("method='fft' transforms a whole signal at once, which a stream "
                         "never has: use 'auto', 'fir', 'bank', 'direct' or 'multiply'; "
                         "got 'fft'")
    return CWTStreamRequest(fs, f, xi, check_stream_mode(mode), check_cval(cval), output,
                            check_decim(decim), tol, method, engine)


def check_window_plan(has_window: bool, plan_name: str) -> None:
    """A stream runs a plan with a finite window (SFT or FIR); ``plan_name`` names another."""
    if not has_window:
        raise ValueError(f"a stream runs SFT and FIR plans; this filter needs a "
                         f"{plan_name} (a kernel far wider than a stream can hold)")


def check_wavelet_widths(freqs: np.ndarray, fs: float, sigmas: np.ndarray, xi: np.ndarray,
                         limit: float, too_long: Callable[[str, float, float], str]) -> None:
    """Each wavelet's scale ``sigmas`` (samples) is at most ``limit``; ``too_long(what, sigma,
    xi)`` words the error (the plans' message, which this layer does not import)."""
    for f, s, w in zip(freqs, sigmas, xi):
        if s > limit:
            raise ValueError(too_long(f"freqs (frequency {float(f):g} at fs={fs:g})",
                                      float(s), float(w)))


def check_open(finished: bool, again: bool = False) -> None:
    """A flushed stream takes no more samples and flushes once (``again``: the call is a flush)."""
    if finished:
        raise ValueError("the stream was flushed already" if again
                         else "the stream was flushed; start a new one")


def chunk_request(chunk: Any, lead: tuple | None) -> tuple[np.ndarray, tuple]:
    """A chunk of real, finite samples, time last, as ``(array, channel shape)``; ``lead``: the
    stream's channel shape (None before its first chunk).  Not copied: the caller converts it.

    Examples
    --------
    >>> x, lead = chunk_request([[1.0, 2.0], [3.0, 4.0]], None)
    >>> lead
    (2,)
    >>> chunk_request([1.0, 2.0], (2,))
    Traceback (most recent call last):
    ...
    ValueError: chunk has channels (); the stream's are (2,)
    """
    x = np.asarray(chunk)
    if x.dtype.kind == "c":
        raise TypeError("a stream takes real samples; got a complex chunk")
    if x.dtype.kind not in "biuf":
        raise TypeError(f"chunk must hold numbers; got dtype {x.dtype}")
    if x.ndim == 0:
        x = x[None]
    new = x.shape[:-1]
    if lead is not None and new != lead:
        raise ValueError(f"chunk has channels {new}; the stream's are {lead}")
    # a NaN would stay in the recursions' state for ever: refused, the stream unchanged
    if x.dtype.kind == "f" and not np.isfinite(x).all():
        raise ValueError("a stream takes finite samples; this chunk holds NaN or inf (fill "
                         "the gap first, e.g. with the last value; the stream is unchanged)")
    return x, new


def check_path(path: Any) -> str | bytes:
    """A checkpoint's ``path``: a ``str``, ``bytes`` or ``os.PathLike``, as :func:`os.fspath` reads it.

    Examples
    --------
    >>> check_path(3)
    Traceback (most recent call last):
    ...
    TypeError: path must be a str or os.PathLike; got 3
    """
    import os

    try:
        return os.fspath(path)
    except TypeError:
        raise TypeError(f"path must be a str or os.PathLike; got {path!r}") from None
