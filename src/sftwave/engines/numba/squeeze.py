"""Synchrosqueezing: the coefficients of a block of columns reassigned to frequency bins.

For each column ``j`` of a block and each scale ``s`` (in order), the
instantaneous frequency ``f = fs Im(dW conj(W)) / (2 pi |W|^2)`` of the
coefficient ``W[s, j]`` (``dW`` the transform by the wavelet's derivative)
picks the bin ``k = round((u(f) - u0) / du)``, ``u`` the frequency itself or
its logarithm; the bin gathers ``weight[s] * W[s, j]`` (or ``weight[s]``
alone: a count).  Coefficients with
``|W|^2 <= gamma2[s]`` and frequencies outside the bins are left out.

The columns are independent: the kernel runs over ranges of (row, column
chunk) tasks on sftwave's pool (:func:`.pool.parallel_for`), each column's
sum taken over the scales in their order, so the result is the same on any
number of threads.
"""

from __future__ import annotations

import math

import numpy as np

from ._jit import kernel
from .pool import parallel_for

__all__ = ["squeeze_block", "CHUNK"]

#: Columns per task: a chunk's rows of ``W`` and ``dW`` are read contiguously, scale by scale.
CHUNK = 64


@kernel(nogil=True)
def _squeeze_tasks(lo, hi, WD, G, off, width, weight, gamma2, scale, u0, du, log_bins, unit, T, t0):
    """Tasks ``lo .. hi`` (flat ``row * chunks + chunk``) of :func:`squeeze_block`."""
    nb = T.shape[1]
    chunks = (width + CHUNK - 1) // CHUNK
    for t in range(lo, hi):
        c = t // chunks
        j0 = (t % chunks) * CHUNK
        j1 = min(j0 + CHUNK, width)
        for s in range(G):
            g2 = gamma2[s]
            ws = weight[s]
            for j in range(j0, j1):
                w = WD[c, s, off + j]
                p = w.real * w.real + w.imag * w.imag
                if not p > g2:
                    continue
                d = WD[c, G + s, off + j]
                f = (d.imag * w.real - d.real * w.imag) / p * scale
                if log_bins:
                    if not f > 0.0:
                        continue
                    u = (math.log(f) - u0) / du
                else:
                    u = (f - u0) / du
                if not (u > -0.5 and u < nb - 0.5):
                    continue
                k = int(u + 0.5)          # (u + 0.5 > 0: truncation is the floor)
                if k >= nb:
                    k = nb - 1
                if unit:
                    T[c, k, t0 + j] += ws
                else:
                    T[c, k, t0 + j] += ws * w


def squeeze_block(WD: np.ndarray, off: int, width: int, weight: np.ndarray, gamma2: np.ndarray,
                  scale: float, u0: float, du: float, log_bins: bool, T: np.ndarray, t0: int,
                  unit: bool = False) -> None:
    """Add the reassigned coefficients of ``G`` scales into columns ``t0 .. t0 + width`` of ``T``.

    ``WD`` (rows, 2 G, samples; complex128, C-contiguous) holds the scales'
    transforms (``WD[:, :G]``) and their transforms by the wavelet's time
    derivative (``WD[:, G:]``); columns ``off .. off + width`` of it are those
    of the block.  ``weight`` and ``gamma2`` one per scale; ``scale`` turns
    ``Im(dW / W)`` (radians per sample) into the bins' unit (``fs / 2 pi``);
    the bin of frequency ``f`` is ``round((u - u0) / du)`` with ``u = log f``
    where ``log_bins``, else ``f`` (``du`` may be negative: bins in decreasing
    order).  ``unit``: add the weight alone (a count), not the weight times
    ``W``.  ``T`` (rows, bins, n; complex, C-contiguous) is added to.

    Examples
    --------
    >>> W = np.array([[[1.0 + 0j, 2.0 + 0j]]])
    >>> WD = np.concatenate([W, 1j * 0.2 * W], axis=1)         # 0.2 rad/sample
    >>> T = np.zeros((1, 3, 2), complex)
    >>> squeeze_block(WD, 0, 2, np.ones(1), np.zeros(1), 1.0, 0.0, 0.1, False, T, 0)
    >>> T[0].real.tolist()
    [[0.0, 0.0], [0.0, 0.0], [1.0, 2.0]]
    """
    C, G2, _ = WD.shape
    G = G2 // 2
    chunks = -(-width // CHUNK)
    parallel_for(_squeeze_tasks, C * chunks, WD, G, int(off), int(width),
                 np.ascontiguousarray(weight, np.float64), np.ascontiguousarray(gamma2, np.float64),
                 float(scale), float(u0), float(du), bool(log_bins), bool(unit), T, int(t0),
                 work=10.0 * C * G * width)
