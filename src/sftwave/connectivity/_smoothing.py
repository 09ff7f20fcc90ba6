"""MNE-Connectivity's smoothing and band means, as weights and small array operations."""

from __future__ import annotations

import numpy as np

__all__ = ["same_weights", "smooth_freqs", "band_means"]


def same_weights(kernel: np.ndarray, n: int) -> np.ndarray:
    """``w[m]``: the time mean of the ``mode='same'`` smoothing of ``s`` is ``sum_m w[m] s[m] / n``.

    ``same[k] = sum_b kernel[b] s[k + c - b]`` (``c = (M - 1) // 2``, ``s`` zero
    outside ``[0, n)``), so ``w[m]`` is the sum of ``kernel[b]`` over the ``b``
    with ``0 <= m - c + b < n``.

    Examples
    --------
    >>> same_weights(np.full(3, 1.0 / 3.0), 4) * 3
    array([2., 3., 3., 2.])
    """
    M = kernel.size
    c = (M - 1) // 2
    cs = np.concatenate(([0.0], np.cumsum(kernel)))
    m = np.arange(n)
    lo = np.clip(c - m, 0, M)
    hi = np.clip(n - m + c, 0, M)
    return cs[hi] - cs[np.minimum(lo, hi)]


def smooth_freqs(values: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """``mode='same'`` smoothing along the last axis (frequencies), zeros outside.

    Examples
    --------
    >>> smooth_freqs(np.array([0.0, 3.0, 0.0]), np.full(3, 1.0 / 3.0))
    array([1., 1., 1.])
    """
    M = kernel.size
    if M == 1:
        return values * kernel[0]
    c = (M - 1) // 2
    nf = values.shape[-1]
    out = np.zeros_like(values)
    for f in range(nf):
        for b in range(M):
            g = f + c - b
            if 0 <= g < nf:
                out[..., f] += kernel[b] * values[..., g]
    return out


def band_means(values: np.ndarray, foi_idx: np.ndarray) -> np.ndarray:
    """MNE-Connectivity 0.9's ``_foi_average`` on the last axis: band ``(s, e)`` is the mean over
    ``[s, e + 1)`` where ``s == e``, else over ``[s, 2 e)`` (its slice, kept for equal numbers).

    Examples
    --------
    >>> band_means(np.arange(6.0), np.array([[1, 1], [1, 3]]))
    array([1., 3.])
    """
    out = np.empty(values.shape[:-1] + (len(foi_idx),), values.dtype)
    for k, (s, e) in enumerate(foi_idx):
        stop = e + 1 if s == e else 2 * e
        out[..., k] = values[..., s:stop].mean(axis=-1)
    return out
