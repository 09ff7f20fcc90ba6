"""The requests of :mod:`sftwave.plot`: the scalogram figure's arguments, checked once.

A builder raises ``ValueError`` or ``TypeError`` naming the parameter and
echoing the value, and never draws.

Examples
--------
>>> import numpy as np
>>> r = scalogram_request(np.ones((3, 10)), [1.0, 2.0, 3.0], kind="power", y="period",
...                       reduce="max", max_columns=None, global_of_blocks=False)
>>> r.freqs.tolist(), r.y, r.max_columns
([1.0, 2.0, 3.0], 'period', None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["Y_AXES", "REDUCTIONS", "KINDS", "ScalogramRequest", "scalogram_request",
           "time_blocks_request", "reduce_time_request"]

#: ``y`` values of :func:`sftwave.plot.scalogram`.
Y_AXES = ("frequency", "period", "fourier_period")
#: ``how`` values of :func:`sftwave.plot.reduce_time` (``reduce`` of the scalogram).
REDUCTIONS = ("max", "mean")
#: ``kind`` values of :func:`sftwave.plot.scalogram`.
KINDS = ("power", "amplitude")


@dataclass(frozen=True)
class ScalogramRequest:
    """:func:`sftwave.plot.scalogram`'s checked arguments (the values, the frequencies as a 1-D
    float64 array, and the drawing's choices)."""

    values: np.ndarray
    freqs: np.ndarray
    kind: str
    y: str
    reduce: str
    max_columns: int | None


def time_blocks_request(n_times: Any, max_columns: Any) -> tuple[int, int]:
    """:func:`sftwave.plot.time_block_edges`'s ``(n_times, max_columns)``, each at least 1.

    Examples
    --------
    >>> time_blocks_request(10, 0)
    Traceback (most recent call last):
    ...
    ValueError: max_columns must be at least 1; got 0
    """
    n_times, max_columns = int(n_times), int(max_columns)
    if n_times < 1:
        raise ValueError(f"n_times must be at least 1; got {n_times!r}")
    if max_columns < 1:
        raise ValueError(f"max_columns must be at least 1; got {max_columns!r}")
    return n_times, max_columns


def reduce_time_request(values: Any, how: Any) -> np.ndarray:
    """:func:`sftwave.plot.reduce_time`'s ``values``: a real array of shape (n_freqs, n_times).

    Examples
    --------
    >>> reduce_time_request([[1.0, 2.0]], "median")
    Traceback (most recent call last):
    ...
    ValueError: how must be one of ('max', 'mean'); got 'median'
    """
    if how not in REDUCTIONS:
        raise ValueError(f"how must be one of {REDUCTIONS}; got {how!r}")
    v = np.asarray(values)
    if v.ndim != 2 or v.shape[1] < 1:
        raise ValueError(f"values must have shape (n_freqs, n_times), n_times >= 1; got {v.shape}")
    if v.dtype.kind == "c":
        raise TypeError(f"values must be real (power or amplitude); got {v.dtype}")
    return v


def scalogram_request(values: Any, freqs: Any, *, kind: Any, y: Any, reduce: Any,
                      max_columns: Any, global_of_blocks: bool) -> ScalogramRequest:
    """:func:`sftwave.plot.scalogram`'s request (``global_of_blocks``: a global spectrum asked
    of values already reduced along time, which it cannot draw)."""
    f = np.atleast_1d(np.asarray(freqs, dtype=np.float64))
    v = np.asarray(values)
    if v.ndim != 2 or v.shape[0] != f.size:
        raise ValueError(f"values must have shape (len(freqs), n_times) = ({f.size}, n); got "
                         f"{v.shape}")
    if kind not in KINDS:
        raise ValueError(f"kind must be 'power' or 'amplitude'; got {kind!r}")
    if y not in Y_AXES:
        raise ValueError(f"y must be one of {Y_AXES}; got {y!r}")
    if reduce not in REDUCTIONS:
        raise ValueError(f"reduce must be one of {REDUCTIONS}; got {reduce!r}")
    if max_columns is not None and (isinstance(max_columns, bool)
                                    or not isinstance(max_columns, (int, np.integer))
                                    or max_columns < 1):
        raise ValueError(f"max_columns must be a positive integer; got {max_columns!r}")
    if global_of_blocks:
        raise ValueError("global_spectrum needs the full-resolution values, not TimeBlocks")
    return ScalogramRequest(v, f, kind, y, reduce, None if max_columns is None else int(max_columns))
