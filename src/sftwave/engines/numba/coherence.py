"""Kernels of the Monte-Carlo significance of wavelet coherence (:mod:`sftwave.coherence`).

:func:`spectra` turns a batch of coefficient pairs into the three spectra
that coherence smooths (``|Wx|^2 / s``, ``|Wy|^2 / s`` and ``Wx conj(Wy) / s``
as its real and imaginary parts), written rows first so that each row is one
contiguous block for the Gaussian.  :func:`histogram` applies the scale
boxcar to the smoothed spectra, forms ``R^2`` and counts it into the
histogram of its row, only at the samples outside the cone of influence,
with no temporary of the cube's size.  Both run over rows on sftwave's pool
(:func:`.pool.parallel_for`); each row is written by one task, so the
result does not depend on the number of threads.
"""

from __future__ import annotations

import numpy as np

from ._jit import kernel
from .pool import parallel_for

__all__ = ["spectra", "histogram", "combine"]


@kernel(nogil=True)
def _spectra_rows(lo, hi, W, inv, out):
    npair, c, m, n = W.shape
    for i in range(lo, hi):
        w = inv[i]
        for d in range(c):
            for t in range(n):
                a = W[0, d, i, t]
                b = W[1, d, i, t]
                out[i, 0, d, t] = (a.real * a.real + a.imag * a.imag) * w
                out[i, 1, d, t] = (b.real * b.real + b.imag * b.imag) * w
                out[i, 2, d, t] = (a.real * b.real + a.imag * b.imag) * w
                out[i, 3, d, t] = (a.imag * b.real - a.real * b.imag) * w


def spectra(W: np.ndarray, inv: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``(m, 4, c, n)`` spectra of the pairs ``W`` (``(2, c, m, n)``, complex), rows scaled by ``inv``."""
    _, c, m, n = W.shape
    out = np.empty((m, 4, c, n), dtype=dtype)
    parallel_for(_spectra_rows, m, W, np.ascontiguousarray(inv, dtype=np.float64), out,
                 work=8.0 * W.size)
    return out


@kernel(nogil=True)
def _histogram_rows(lo, hi, S, off, length, shift, count, jlo, jhi, weights, tlo, thi, hstride,
                    nbins, hist):
    for i in range(lo, hi):
        h = hstride[i]
        t0 = ((tlo[i] + h - 1) // h) * h
        nk = max(0, (thi[i] - t0 + h - 1) // h)
        if nk == 0:
            continue
        acc = np.empty((4, nk))
        for d in range(count):
            acc[:] = 0.0
            for j in range(jlo[i], jhi[i]):         # one row of the band at a time, in order
                w = weights[i, j - jlo[i]]
                L = length[j]
                sh = shift[j]
                blk = count * L
                for q in range(4):
                    base = off[j] + q * blk + d * L
                    for u in range(nk):
                        acc[q, u] += w * S[base + ((t0 + u * h) >> sh)]
            for u in range(nk):
                den = acc[0, u] * acc[1, u]
                re = acc[2, u]
                im = acc[3, u]
                r2 = (re * re + im * im) / den if den != 0.0 else np.nan
                if r2 == r2:                    # a NaN is not counted
                    b = int(np.floor(r2 * nbins))
                    if b < 0:
                        b = 0
                    elif b >= nbins:
                        b = nbins - 1
                    hist[i, b] += 1


def _band(B: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row of ``B``: the first and one-past-last nonzero column and the weights between."""
    m = B.shape[0]
    nz = B != 0
    jlo = np.argmax(nz, axis=1).astype(np.int64)
    jhi = (m - np.argmax(nz[:, ::-1], axis=1)).astype(np.int64)
    weights = np.zeros((m, int((jhi - jlo).max())))
    for i in range(m):
        weights[i, :jhi[i] - jlo[i]] = B[i, jlo[i]:jhi[i]]
    return jlo, jhi, weights


@kernel(nogil=True)
def _combine_rows(lo, hi, S, jlo, jhi, weights, r2, cross):
    m, four, c, n = S.shape
    for i in range(lo, hi):
        for d in range(c):
            for t in range(n):
                p = 0.0
                q = 0.0
                re = 0.0
                im = 0.0
                for j in range(jlo[i], jhi[i]):
                    w = weights[i, j - jlo[i]]
                    p += w * S[j, 0, d, t]
                    q += w * S[j, 1, d, t]
                    re += w * S[j, 2, d, t]
                    im += w * S[j, 3, d, t]
                den = p * q
                r2[i, d, t] = (re * re + im * im) / den if den != 0.0 else np.nan
                cross[i, d, t] = complex(re, im)


def combine(S: np.ndarray, B: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The scale boxcar ``B`` on the smoothed spectra ``S`` (``(m, 4, c, n)``): ``R^2`` and the cross-spectrum.

    Both ``(m, c, n)``; ``R^2`` is NaN where a power is zero or not finite.
    """
    m, _, c, n = S.shape
    jlo, jhi, weights = _band(B)
    r2 = np.empty((m, c, n))
    cross = np.empty((m, c, n), dtype=np.complex128)
    parallel_for(_combine_rows, m, S, jlo, jhi, weights, r2, cross,
                 work=8.0 * weights.shape[1] * c * n * m)
    return r2, cross


def histogram(S: np.ndarray, off: np.ndarray, length: np.ndarray, stride: np.ndarray, count: int,
              B: np.ndarray, tlo: np.ndarray, thi: np.ndarray, hist: np.ndarray) -> None:
    """Add the ``R^2`` of smoothed spectra on rows of different strides to ``hist`` (``(m, nbins)``).

    ``S`` is flat: row ``j`` (its samples ``0, stride[j], 2 stride[j], ...``,
    ``stride[j]`` a power of two,
    ``length[j]`` of them) starts at ``off[j]`` and holds ``(4, count,
    length[j])`` values.  ``B`` is the ``(m, m)`` scale boxcar (its nonzero
    band per row is used).  Row ``i`` counts its ``R^2`` at the samples
    ``tlo[i] <= t < thi[i]`` that are multiples of the largest stride in its
    band (where every row it averages has a value).
    """
    jlo, jhi, weights = _band(B)
    m = B.shape[0]
    hstride = np.array([int(stride[jlo[i]:jhi[i]].max()) for i in range(m)], dtype=np.int64)
    kept = np.maximum(thi - tlo, 0) // hstride + 1
    work = 8.0 * weights.shape[1] * count * float(np.sum(kept))
    shift = np.round(np.log2(stride)).astype(np.int64)
    if not np.array_equal(np.left_shift(1, shift), stride):
        raise ValueError("the strides must be powers of two")
    parallel_for(_histogram_rows, m, S, off.astype(np.int64), length.astype(np.int64),
                 shift, int(count), jlo, jhi, weights, tlo.astype(np.int64),
                 thi.astype(np.int64), hstride, int(hist.shape[1]), hist, work=work)
