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
           "cwt_stream_request", "check_stream_mode"]

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
