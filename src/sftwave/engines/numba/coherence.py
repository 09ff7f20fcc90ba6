"""Kernels of wavelet coherence and its Monte-Carlo significance (:mod:`sftwave.coherence`).

:func:`spectra` turns a batch of coefficient pairs into the three spectra
that coherence smooths (``|Wx|^2 / s``, ``|Wy|^2 / s`` and ``Wx conj(Wy) / s``
as its real and imaginary parts), written rows first so that each row is one
contiguous block for the Gaussian.  :func:`histogram` applies the scale
boxcar to the smoothed spectra, forms ``R^2`` and counts it into the
histogram of its row, only at the samples outside the cone of influence,
with no temporary of the cube's size; :func:`combine` does the same over
every sample for :func:`sftwave.coherence.wct`; :func:`pair_spectra`,
:func:`powers` and :func:`pair_combine` are their counterparts for many pairs
of channels transformed once (:func:`sftwave.coherence.wct_pairs`); :func:`cross` forms the
cross-wavelet spectrum and :func:`apply_scale_weights` the scale boxcar of
:func:`sftwave.coherence.smooth`.  :func:`folded_transforms` computes the
Morlet transform of rows kept every ``c``-th sample by FFT, multiplying only
the wavelet's band and folding it to ``M / c`` points.  They run over rows on
sftwave's pool (:func:`.pool.parallel_for`) and scipy's FFT (one transform
per thread); each row is written by one task, so the result does not depend on
the number of threads.
"""

from __future__ import annotations

import math

import numpy as np

from ...plans.spectral import BAND, fast_length, reach, transfer
from ._jit import kernel
from .pool import parallel_for, threads

__all__ = ["spectra", "histogram", "combine", "cross", "apply_scale_weights", "FoldPlan", "fold_plan",
           "folded_transforms", "pair_spectra", "powers", "pair_combine", "band_rows",
           "interpolated_rows"]


class FoldPlan:
    """The rows of one stride ``c``: their FFT lengths and the wavelets' bands there.

    Row ``i`` is transformed on ``M[i]`` points (a multiple of ``c``, at least
    the last kept sample plus the wavelet's reach, so that the circular
    convolution is the zero-padded signal's on every kept sample); its
    transfer function (:func:`sftwave.plans.spectral.transfer`, exact) is
    nonzero on the bins ``start[i] .. start[i] + width[i] - 1`` (modulo
    ``M[i]``) only, and those values are ``H[hoff[i]:hoff[i] + width[i]]``.
    """

    def __init__(self, stride: int, nodes: int, M: np.ndarray, start: np.ndarray,
                 width: np.ndarray, hoff: np.ndarray, H: np.ndarray):
        self.stride, self.nodes = stride, nodes
        self.M, self.start, self.width, self.hoff, self.H = M, start, width, hoff, H


def fold_plan(sigmas: np.ndarray, xi: float, stride: int, nodes: int) -> FoldPlan:
    """The :class:`FoldPlan` of rows of scales ``sigmas`` (samples, each above ``4``) kept at
    ``0, stride, .., (nodes - 1) stride``.

    The band is ``-BAND / sigma < omega < (xi + BAND) / sigma`` (the carrier's
    Gaussian and the ``kappa`` term's around 0; beyond, the transfer function
    is below 2.6e-20 of its peak and :func:`~sftwave.plans.spectral.transfer`
    sets it to zero), which fits in ``(-pi, pi)`` for scales above
    ``(xi + 2 BAND) / (2 pi)``.
    """
    c = int(stride)
    last = (nodes - 1) * c
    M = np.empty(sigmas.size, dtype=np.int64)
    start = np.empty(sigmas.size, dtype=np.int64)
    width = np.empty(sigmas.size, dtype=np.int64)
    hoff = np.zeros(sigmas.size, dtype=np.int64)
    parts = []
    for i, s in enumerate(np.asarray(sigmas, dtype=np.float64)):
        need = last + 1 + reach(float(s))
        m = fast_length(need)
        if m % c:
            m = c * fast_length(-(-need // c))
        step = 2.0 * math.pi / m
        lo = math.floor(-BAND / s / step)
        hi = math.ceil((xi + BAND) / s / step)
        M[i], start[i], width[i] = m, lo % m, min(hi - lo + 1, m)
        parts.append(transfer(float(s), float(xi), lo * step, step, int(width[i])))
        if i + 1 < sigmas.size:
            hoff[i + 1] = hoff[i] + width[i]
    return FoldPlan(c, int(nodes), M, start, width, hoff, np.concatenate(parts))


@kernel(nogil=True)
def _fold_rows(lo, hi, X, start, width, hoff, H, M, Z):
    lines = Z.shape[1]
    Md = Z.shape[2]
    for i in range(lo, hi):
        m = M[i]
        for ln in range(lines):
            j = start[i]
            jm = j % Md
            for k in range(width[i]):        # the band's bins in order: the same sums anywhere
                Z[i, ln, jm] += X[ln, j] * H[hoff[i] + k]
                j += 1
                if j == m:
                    j = 0
                jm += 1
                if jm == Md:
                    jm = 0


def folded_transforms(x2d: np.ndarray, plan: FoldPlan, spectra_of: dict) -> np.ndarray:
    """The Morlet transform of the real rows ``x2d`` (``(lines, n)``, zero beyond ``n``) at the
    samples ``0, c, .., (nodes - 1) c`` for each row of ``plan``: ``(rows, lines, nodes)`` complex.

    Each kept sample is the zero-padded signal's transform exactly (to
    rounding): ``y[c j] = ifft_{M / c}(sum_r Y[k + r M / c])[j] / c`` with
    ``Y = fft(x, M) Psi``, summed over the band's bins only.  ``spectra_of``
    keeps the signal's FFT per length (pass the same dict for every stride of
    one signal).
    """
    import scipy.fft as sf

    workers = threads()
    lengths = sorted(set(int(m) for m in plan.M))
    for m in lengths:
        if m not in spectra_of:
            spectra_of[m] = sf.fft(x2d, m, axis=-1, workers=workers)
    lines = x2d.shape[0]
    c = plan.stride
    rows = plan.M.size
    out = np.empty((rows, lines, plan.nodes), dtype=np.complex128)
    for m in lengths:
        sel = np.flatnonzero(plan.M == m)
        Z = np.zeros((sel.size, lines, m // c), dtype=np.complex128)
        parallel_for(_fold_rows, sel.size, spectra_of[m], plan.start[sel], plan.width[sel],
                     plan.hoff[sel], plan.H, plan.M[sel], Z,
                     work=float(lines * plan.width[sel].sum()))
        y = sf.ifft(Z, axis=-1, workers=workers, overwrite_x=True)
        out[sel] = y[..., :plan.nodes] * (1.0 / c)
    return out


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


#: The histogram kernel runs over time in spans of this many samples, each span over all its
#: rows in turn, so that the band's rows (which neighbouring rows share) are read from cache.
_HIST_SPAN = 1024
#: Rows per task of the histogram kernel (neighbours, whose bands overlap).
_HIST_ROWS = 8


@kernel(nogil=True)
def _histogram_rows(lo, hi, S, off, length, shift, count, jlo, jhi, weights, tlo, thi, hstride,
                    nbins, hist):
    acc = np.empty((4, _HIST_SPAN))
    tmin = tlo[lo]
    tmax = thi[lo]
    for i in range(lo, hi):
        tmin = min(tmin, tlo[i])
        tmax = max(tmax, thi[i])
    for T0 in range(tmin, tmax, _HIST_SPAN):
        for i in range(lo, hi):
            h = hstride[i]
            a = max(T0, tlo[i])
            b = min(T0 + _HIST_SPAN, thi[i])
            ua = (a + h - 1) // h                   # the samples t = u h, a <= t < b
            nt = (b + h - 1) // h - ua
            if nt <= 0:
                continue
            for d in range(count):
                acc[:, :nt] = 0.0
                for j in range(jlo[i], jhi[i]):     # one row of the band at a time, in order
                    w = weights[i, j - jlo[i]]
                    L = length[j]
                    sh = shift[j]
                    step = h >> sh                  # h is a multiple of row j's stride
                    first = (ua * h) >> sh
                    for q in range(4):
                        base = off[j] + (q * count + d) * L + first
                        if step == 1:               # contiguous: a loop the compiler vectorises
                            for u in range(nt):
                                acc[q, u] += w * S[base + u]
                        else:
                            for u in range(nt):
                                acc[q, u] += w * S[base + u * step]
                for u in range(nt):
                    den = acc[0, u] * acc[1, u]
                    re = acc[2, u]
                    im = acc[3, u]
                    r2 = (re * re + im * im) / den if den != 0.0 else np.nan
                    if r2 == r2:                    # a NaN is not counted
                        bn = int(np.floor(r2 * nbins))
                        if bn < 0:
                            bn = 0
                        elif bn >= nbins:
                            bn = nbins - 1
                        hist[i, bn] += 1


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
                 thi.astype(np.int64), hstride, int(hist.shape[1]), hist, work=work,
                 chunks=-(-m // _HIST_ROWS))


@kernel(nogil=True, noalias=True, error_model="numpy")
def _pair_spectra_rows(lo, hi, V, a, b, inv, out):
    q = a.size
    n = V.shape[2] // 2
    for i in range(lo, hi):
        w = inv[i]
        for d in range(q):
            x = V[a[d], i]
            y = V[b[d], i]
            re = out[i, 0, d]
            im = out[i, 1, d]
            for t in range(n):
                xr = x[2 * t]
                xi = x[2 * t + 1]
                yr = y[2 * t]
                yi = y[2 * t + 1]
                re[t] = (xr * yr + xi * yi) * w
                im[t] = (xi * yr - xr * yi) * w


def pair_spectra(W: np.ndarray, a: np.ndarray, b: np.ndarray, inv: np.ndarray,
                 out: np.ndarray | None = None) -> np.ndarray:
    """``(m, 2, q, n)``: the real and imaginary parts of ``W[a] conj(W[b])``, rows scaled by ``inv``.

    ``W``: the transforms of the channels, ``(lines, m, n)`` complex; ``a`` and
    ``b`` the ``q`` pairs' lines.  The arithmetic of :func:`spectra`'s cross terms.
    ``out``: where to write them (float64, C-contiguous, that shape), else a new array.

    Examples
    --------
    >>> W = np.array([[[1j]], [[2.0 + 0j]]])
    >>> pair_spectra(W, np.array([0]), np.array([1]), np.array([0.5])).ravel().tolist()
    [0.0, 1.0]
    """
    lines, m, n = W.shape
    if out is None:
        out = np.empty((m, 2, a.size, n))
    V = np.ascontiguousarray(W).view(np.float64).reshape(lines, m, 2 * n)   # re, im interleaved
    parallel_for(_pair_spectra_rows, m, V, np.ascontiguousarray(a, dtype=np.int64),
                 np.ascontiguousarray(b, dtype=np.int64),
                 np.ascontiguousarray(inv, dtype=np.float64), out, work=6.0 * a.size * m * n)
    return out


@kernel(nogil=True)
def _powers_rows(lo, hi, W, inv, out):
    lines = W.shape[0]
    n = W.shape[2]
    for i in range(lo, hi):
        w = inv[i]
        for d in range(lines):
            for t in range(n):
                x = W[d, i, t]
                out[i, d, t] = (x.real * x.real + x.imag * x.imag) * w


def powers(W: np.ndarray, inv: np.ndarray) -> np.ndarray:
    """``(m, lines, n)``: ``|W|^2`` of the channels' transforms ``W`` (``(lines, m, n)``), rows scaled by ``inv``.

    Examples
    --------
    >>> powers(np.array([[[3.0 + 4.0j]]]), np.array([0.5])).ravel().tolist()
    [12.5]
    """
    lines, m, n = W.shape
    out = np.empty((m, lines, n))
    parallel_for(_powers_rows, m, W, np.ascontiguousarray(inv, dtype=np.float64), out,
                 work=4.0 * W.size)
    return out


# Cephes' ``atan`` (Moshier): a rational function on ``[0, 0.66]`` and on ``tan(pi/4 +- ...)``.
_AP = (-8.750608600031904122785e-1, -1.615753718733365076637e1, -7.500855792314704667340e1,
       -1.228866684490136173410e2, -6.485021904942025371773e1)
_AQ = (2.485846490142306297962e1, 1.650270098316988542046e2, 4.328810604912902668951e2,
       4.853903996359136964868e2, 1.945506571482613964425e2)
_MOREBITS = 6.123233995736765886130e-17          # pi/2 - float(pi/2)


@kernel(inline="always", error_model="numpy")
def _atan2(y, x):
    """``atan2(y, x)`` with no call and no branch, so that a loop of it vectorises.

    Cephes' ``atan`` of ``min / max`` of ``|x|, |y|`` (within an ulp or two
    of the correctly rounded value), then reflected into the quadrant; NaN in
    gives NaN, ``(0, 0)`` gives 0 or ``pi`` (signed by ``y``) as ``math.atan2``
    does for ``+0``.  Every candidate is computed and one selected.
    """
    ax = abs(x)
    ay = abs(y)
    big = ay > ax
    mx = ay if big else ax
    mn = ax if big else ay
    t0 = mn / mx
    t = t0 if mx != 0.0 else mn
    t = 1.0 if (ax == ay and ax != 0.0) else t
    hi = t > 0.66
    u1 = (t - 1.0) / (t + 1.0)
    u = u1 if hi else t
    z = u * u
    p = (((_AP[0] * z + _AP[1]) * z + _AP[2]) * z + _AP[3]) * z + _AP[4]
    q = ((((z + _AQ[0]) * z + _AQ[1]) * z + _AQ[2]) * z + _AQ[3]) * z + _AQ[4]
    pq = z * p / q
    r = u * pq + u
    r = (0.25 * math.pi + (r + 0.5 * _MOREBITS)) if hi else r
    r = (0.5 * math.pi - r + _MOREBITS) if big else r
    r = (math.pi - r + 2.0 * _MOREBITS) if x < 0.0 else r
    return -r if y < 0.0 else r


@kernel(nogil=True, noalias=True, error_model="numpy")
def _pair_combine_rows(lo, hi, S, P, a, b, jlo, jhi, weights, q0, r2, phase, cross, keep):
    m, two, q, n = S.shape
    acc = np.empty((2, n))
    for i in range(lo, hi):
        for d in range(q):
            ia = a[d]
            ib = b[d]
            acc[:, :] = 0.0
            for j in range(jlo[i], jhi[i]):     # the band's rows in order, as combine's sums
                w = weights[i, j - jlo[i]]
                for t in range(n):
                    acc[0, t] += w * S[j, 0, d, t]
                for t in range(n):
                    acc[1, t] += w * S[j, 1, d, t]
            o = q0 + d
            for t in range(n):
                re = acc[0, t]
                im = acc[1, t]
                den = P[i, ia, t] * P[i, ib, t]
                v = (re * re + im * im) / den
                r2[o, i, t] = v if den != 0.0 else np.nan
                phase[o, i, t] = _atan2(im, re)
            if keep:
                for t in range(n):
                    cross[o, i, t] = complex(acc[0, t], acc[1, t])


def pair_combine(S: np.ndarray, P: np.ndarray, a: np.ndarray, b: np.ndarray, B: np.ndarray,
                 q0: int, r2: np.ndarray, phase: np.ndarray, cross: np.ndarray | None) -> None:
    """The scale boxcar ``B`` on the pairs' smoothed cross-spectra ``S`` (``(m, 2, q, n)``),
    divided by the channels' smoothed powers ``P`` (``(m, lines, n)``, boxcar applied).

    Writes ``R^2``, the phase and the cross-spectrum of pair ``d`` (lines
    ``a[d]`` and ``b[d]``) into row ``q0 + d`` of ``r2``, ``phase`` and
    ``cross`` (each ``(total, m, n)``; ``cross`` None: not written); ``R^2`` is NaN where a power is zero
    or not finite, as :func:`combine`'s.  The phase is :func:`numpy.angle`'s
    to an ulp or two (a branch-free arctangent, :func:`_atan2`, which
    vectorises: ten times faster than the library's on one core).
    """
    m, _, q, n = S.shape
    jlo, jhi, weights = _band(B)
    keep = cross is not None
    parallel_for(_pair_combine_rows, m, S, P, np.ascontiguousarray(a, dtype=np.int64),
                 np.ascontiguousarray(b, dtype=np.int64), jlo, jhi, weights, int(q0), r2, phase,
                 cross if keep else np.empty((0, 0, 0), np.complex128), keep,
                 work=8.0 * weights.shape[1] * q * n * m)


@kernel(nogil=True, noalias=True, error_model="numpy")
def _band_rows_kernel(lo, hi, v, jlo, jhi, weights, out):
    lines = v.shape[1]
    n = v.shape[2]
    for i in range(lo, hi):
        for d in range(lines):
            for t in range(n):
                out[i, d, t] = 0.0
            for j in range(jlo[i], jhi[i]):     # the band's rows in order, as combine's sums
                w = weights[i, j - jlo[i]]
                for t in range(n):
                    out[i, d, t] += w * v[j, d, t]


def band_rows(B: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``B`` applied along the first axis of the real ``v`` (``(m, lines, n)``), its band only:
    the sums of :func:`combine` (and :func:`apply_scale_weights`), row by row in parallel.

    Examples
    --------
    >>> B = np.array([[0.5, 0.5], [0.0, 1.0]])
    >>> band_rows(B, np.array([[[2.0]], [[4.0]]])).ravel().tolist()
    [3.0, 4.0]
    """
    jlo, jhi, weights = _band(B)
    out = np.empty(v.shape)
    parallel_for(_band_rows_kernel, v.shape[0], np.ascontiguousarray(v, dtype=np.float64), jlo,
                 jhi, weights, out, work=2.0 * weights.shape[1] * v.size)
    return out


def interpolated_rows(v: np.ndarray, R: np.ndarray, Q: np.ndarray) -> None:
    """Replace each line of ``v`` (``(lines, n)``, float64, C-contiguous) by ``(v @ R.T) @ Q``
    (``R`` and ``Q`` ``(r, n)``: a smoothing through its values at ``r`` nodes); a line with a
    non-finite value becomes NaN throughout (as the FFT's convolution it stands for).

    Two products by :func:`numpy.einsum` (``4 r`` multiply-adds per sample), not BLAS,
    whose sums depend on its thread count: the same bits on any number of threads.

    Examples
    --------
    >>> v = np.array([[1.0, 2.0, 3.0], [0.0, np.nan, 0.0]])
    >>> interpolated_rows(v, np.ones((1, 3)) / 3, np.ones((1, 3)))
    >>> v.tolist()
    [[2.0, 2.0, 2.0], [nan, nan, nan]]
    """
    c = np.einsum("ls,ks->lk", v, R)
    np.einsum("lk,kt->lt", c, Q, out=v)
    bad = ~np.isfinite(c).all(axis=1)
    if bad.any():
        v[bad] = np.nan


def cross(W: np.ndarray) -> np.ndarray:
    """The cross-wavelet spectrum ``W[0] conj(W[1])`` of a stacked pair of transforms.

    Examples
    --------
    >>> W = np.array([[1j, 2.0], [1.0, 1j]])
    >>> cross(W).tolist()
    [1j, -2j]
    """
    out: np.ndarray = W[0] * np.conj(W[1])
    return out


def apply_scale_weights(B: np.ndarray, v: np.ndarray, axis: int) -> np.ndarray:
    """``B`` applied along ``axis`` of ``v``, diagonal by diagonal (only nonzero weights).

    Each output is a sum over the same rows in the same order whatever the
    thread count (no BLAS), and a NaN reaches only the rows whose weights
    touch it.

    Examples
    --------
    >>> B = np.array([[0.5, 0.5], [0.0, 1.0]])
    >>> apply_scale_weights(B, np.array([[2.0], [4.0]]), 0).tolist()
    [[3.0], [4.0]]
    """
    v = np.moveaxis(v, axis, 0)
    m = B.shape[0]
    out = np.zeros_like(v)
    for d in range(-(m - 1), m):
        i = np.arange(max(0, -d), min(m, m - d))
        w = B[i, i + d]
        if not np.any(w):
            continue
        lo, hi = int(i[0]), int(i[-1]) + 1
        nz = w != 0
        if nz.all():
            out[lo:hi] += w.reshape((-1,) + (1,) * (v.ndim - 1)) * v[lo + d:hi + d]
        else:
            for r in i[nz]:
                out[r] += B[r, r + d] * v[r + d]
    return np.moveaxis(out, 0, axis)
