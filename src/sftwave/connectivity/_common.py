"""What the three functions of :mod:`sftwave.connectivity` share: MNE's coefficients by blocks,
the data's scaling, the kernels' threads and the engine's operations."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from .. import engines
from ..mne._array import tfr_array_morlet
from ..workers import set_workers

__all__ = ["BLOCK_BYTES", "coefficient_blocks", "unit_scale", "kernel_threads", "zero_mean_for",
           "operations"]

#: The complex coefficients held at once (bytes): about one epoch of the users' workload
#: (16 channels, 30 frequencies, 2,000 samples), still in cache when the pair kernels read it.
BLOCK_BYTES = 16 << 20


def operations(engine: str | None, x: np.ndarray, *names: str) -> list[Callable[..., Any]]:
    """The engine's connectivity operations ``names`` (``'connectivity_<name>'``), ``engine``
    resolved for ``x`` as :func:`sftwave.gaussian_filter` does (an engine without them raises
    :class:`sftwave.engines.UnsupportedOperation`).

    Examples
    --------
    >>> [cross_sums] = operations(None, np.zeros((1, 2, 3)), "cross_sums")
    >>> callable(cross_sums)
    True
    """
    name = engines.resolve_engine(engine, x)
    return [engines.operation(name, f"connectivity_{n}") for n in names]


def zero_mean_for(n_cycles: np.ndarray, tol: float) -> bool:
    """Whether MNE's ``zero_mean=False`` wavelets may be replaced by the zero-mean ones.

    They differ by the offset ``exp(-n_cycles^2 / 2)`` (relative to the
    wavelet) and their norms by as little: below ``1e-3 tol`` it is far below
    the transform's own error.

    Examples
    --------
    >>> zero_mean_for(np.array([7.0]), 1e-4), zero_mean_for(np.array([3.0]), 1e-4)
    (True, False)
    """
    return bool(np.all(np.exp(-0.5 * n_cycles * n_cycles) < 1e-3 * tol))


def coefficient_blocks(data: np.ndarray, sfreq: float, freqs: np.ndarray, n_cycles: np.ndarray,
                       decim: int | slice, workers: int | None,
                       tol: float) -> Iterator[tuple[int, np.ndarray]]:
    """MNE's complex coefficients (``zero_mean=False``) of blocks of epochs: ``(e0, y)``."""
    n_epochs, n_chans, n_times = data.shape
    per_epoch = max(1, n_chans * freqs.size * n_times * 16)
    block = max(1, min(n_epochs, BLOCK_BYTES // per_epoch))
    zero_mean = zero_mean_for(n_cycles, tol)
    for e0 in range(0, n_epochs, block):
        y = tfr_array_morlet(data[e0:e0 + block], sfreq, freqs, n_cycles=n_cycles,
                             zero_mean=zero_mean, output="complex", decim=decim, n_jobs=workers,
                             tol=tol)
        yield e0, y


def unit_scale(x: np.ndarray) -> tuple[np.ndarray, int]:
    """``x`` times ``2**k`` (exact) with its largest finite magnitude (of a real or imaginary
    part) near 1, and ``k``.

    Cross spectra are products of two coefficients: at the data's own scale
    they could overflow (beyond about 1e154) or underflow; at a power of two
    from 1 they do not, and the measures' ratios are the same bits.

    Examples
    --------
    >>> unit_scale(np.array([3.0, -6.0]))
    (array([ 0.375, -0.75 ]), -3)
    >>> unit_scale(np.array([1 + 6j]))
    (array([0.125+0.75j]), -3)
    """
    parts = (x.real, x.imag) if np.iscomplexobj(x) else (x,)
    top = 0.0
    for part in parts:
        finite = np.abs(part[np.isfinite(part)]) if part.size else part
        top = max(top, float(finite.max()) if finite.size else 0.0)
    k = -math.frexp(top)[1] if top > 0 else 0
    if not k:
        return x, 0
    if len(parts) == 2:
        return np.ldexp(x.real, k) + 1j * np.ldexp(x.imag, k), k
    return np.ldexp(x, k), k


def kernel_threads(workers: int | None) -> contextlib.AbstractContextManager:
    """A context in which the pair kernels run on ``workers`` threads (None: the default)."""
    return contextlib.nullcontext() if workers is None else set_workers(workers)
