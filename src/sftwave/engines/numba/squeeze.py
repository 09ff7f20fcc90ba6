"""Synchrosqueezing: the coefficients of a block of columns reassigned to frequency bins.

For each column ``j`` of a block and each scale ``s`` (in order), the
instantaneous frequency ``f = fs Im(dW conj(W)) / (2 pi |W|^2)`` of the
coefficient ``W[s, j]`` (``dW`` the transform by the wavelet's derivative)
picks the bin ``k = round((u(f) - u0) / du)``, ``u`` the frequency itself or
its logarithm; the bin gathers ``weight[s] * W[s, j]`` (or ``weight[s]``
alone: a count).  Coefficients with
``|W|^2 <= gamma2[s]`` and frequencies outside the bins are left out.

Each (row, chunk of :data:`CHUNK` columns, scale) runs in two passes: the
bins of the chunk's coefficients, in loops without branches that numba
vectorises (the logarithm of log bins by its own polynomial, :func:`_ln`),
then the adds into the bins.  Where the polynomial's logarithm leaves a
coefficient's bin in doubt (within :data:`_MARGIN` relative of a bin's edge,
or a frequency outside the normal floats), the bin is recomputed with
``math.log`` (:func:`_bin`, the definition), so the bins and sums are those of
the definition, bit for bit.

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

__all__ = ["squeeze_block", "difference_rows", "lane_multiple", "CHUNK"]

#: Columns per task: a chunk's rows of ``W`` and ``dW`` are read contiguously, scale by scale.
CHUNK = 64

_LN2 = math.log(2.0)
_SQRT2 = math.sqrt(2.0)
_MANTISSA = (1 << 52) - 1
_ONE_BITS = 1023 << 52
_SMALLEST = 2.2250738585072014e-308   # the smallest normal float64
_LARGEST = 1.7976931348623157e308
#: The polynomial logarithm is within 1e-14 (|ln f| + 1) of ``math.log`` (the figure:
#: docs/performance.md, *Figures behind the code's choices*); a bin closer than this
#: to its edge, in units of ``|ln f| + 1``, is recomputed by ``math.log``.
_MARGIN = 1e-12
#: The bin's marks besides a bin: left out, and recomputed by the definition.
_OUT, _EXACT = -1, -2


@kernel(nogil=True, error_model="numpy")
def _bin(f, u0, du, log_bins, nb):
    """The bin of frequency ``f`` (the definition): ``round((u(f) - u0) / du)``, or -1 outside the bins."""
    if log_bins:
        if not f > 0.0:
            return _OUT
        u = (math.log(f) - u0) / du
    else:
        u = (f - u0) / du
    if not (u > -0.5 and u < nb - 0.5):
        return _OUT
    k = int(u + 0.5)          # (u + 0.5 > 0: truncation is the floor)
    if k >= nb:
        k = nb - 1
    return k


@kernel(nogil=True, error_model="numpy", inline="always")
def _ln(m, e):
    """``ln(m 2^e)`` for ``m`` in [1, 2): ``2 atanh((m - 1) / (m + 1))`` by its series to ``z^15``
    (after halving ``m`` above sqrt 2, ``|z| <= 0.172``: the next term is below 1e-14)."""
    big = m > _SQRT2
    m = m * 0.5 if big else m
    e = e + (1.0 if big else 0.0)
    z = (m - 1.0) / (m + 1.0)
    z2 = z * z
    poly = 1.0 + z2 * (1.0 / 3.0 + z2 * (1.0 / 5.0 + z2 * (1.0 / 7.0 + z2 * (1.0 / 9.0 + z2 * (
        1.0 / 11.0 + z2 * (1.0 / 13.0 + z2 * (1.0 / 15.0)))))))
    return e * _LN2 + 2.0 * z * poly


@kernel(nogil=True, error_model="numpy")
def _squeeze_tasks(lo, hi, W, D, d0, off, width, weight, gamma2, scale, u0, du, log_bins, unit, T, t0):
    """Tasks ``lo .. hi`` (flat ``row * chunks + chunk``) of :func:`squeeze_block`.

    numpy's error model: ``Im(dW conj W) / |W|^2`` is computed for every
    coefficient, also where ``|W|^2`` is zero (IEEE's inf or NaN, then left out
    with the coefficients under ``gamma2``), so that the loop has no branch.
    """
    nb = T.shape[1]
    nbf = float(nb)
    G = weight.size
    chunks = (width + CHUNK - 1) // CHUNK
    freq = np.empty(CHUNK, np.float64)        # the frequencies (NaN: left out)
    freq_bits = freq.view(np.uint64)
    mant = np.empty(CHUNK, np.float64)        # their mantissas in [1, 2)
    mant_bits = mant.view(np.uint64)
    expo = np.empty(CHUNK, np.int32)          # and exponents
    kb = np.empty(CHUNK, np.int32)            # the bins, _OUT or _EXACT
    inv_du = 1.0 / du
    inv_adu = abs(inv_du)
    for t in range(lo, hi):
        c = t // chunks
        j0 = (t % chunks) * CHUNK
        m = min(j0 + CHUNK, width) - j0
        a = off + j0
        for s in range(G):
            g2 = gamma2[s]
            ws = weight[s]
            for j in range(m):
                w = W[c, s, a + j]
                d = D[c, d0 + s, a + j]
                p = w.real * w.real + w.imag * w.imag
                f = (d.imag * w.real - d.real * w.imag) / p * scale
                freq[j] = f if p > g2 else math.nan
            if log_bins:
                for j in range(m):
                    b = freq_bits[j]         # (unsigned: AVX2 shifts 64-bit lanes logically only)
                    expo[j] = np.int32(b >> np.uint64(52)) - np.int32(1023)
                    mant_bits[j] = (b & np.uint64(_MANTISSA)) | np.uint64(_ONE_BITS)
                for j in range(m):
                    lnf = _ln(mant[j], float(expo[j]))
                    u = (lnf - u0) * inv_du
                    r = u + 0.5
                    fl = math.floor(r)
                    fr = r - fl
                    doubt = _MARGIN * (abs(lnf) + 1.0) * inv_adu + 1e-14 * (abs(u) + 1.0)
                    f = freq[j]
                    k = np.int32(min(max(fl, -1.0), nbf)) if (r > 0.0) & (r < nbf) else np.int32(_OUT)
                    exact = (fr < doubt) | (fr > 1.0 - doubt) | (f < _SMALLEST) | (f > _LARGEST)
                    k = np.int32(_EXACT) if exact else k
                    kb[j] = k if f > 0.0 else np.int32(_OUT)
            else:
                for j in range(m):
                    u = (freq[j] - u0) / du
                    r = min(max(u + 0.5, 0.0), nbf - 1.0)
                    kb[j] = np.int32(r) if (u > -0.5) & (u < nbf - 0.5) else np.int32(_OUT)
            for j in range(m):
                k = kb[j]
                if k == _OUT:
                    continue
                if k == _EXACT:
                    k = _bin(freq[j], u0, du, log_bins, nb)
                    if k == _OUT:
                        continue
                # unsigned indices (never negative here): no wraparound tests
                col = np.uint64(t0 + j0 + j)
                if unit:
                    T[np.uint64(c), np.uint64(k), col] += ws
                else:
                    T[np.uint64(c), np.uint64(k), col] += ws * W[c, s, a + j]


def squeeze_block(W: np.ndarray, D: np.ndarray, d0: int, off: int, width: int, weight: np.ndarray,
                  gamma2: np.ndarray, scale: float, u0: float, du: float, log_bins: bool, T: np.ndarray,
                  t0: int, unit: bool = False) -> None:
    """Add the reassigned coefficients of ``G`` scales into columns ``t0 .. t0 + width`` of ``T``.

    ``W`` (rows, at least G, samples; complex, C-contiguous) holds the scales'
    transforms (``W[:, :G]``), ``D`` (rows, at least ``d0 + G``, samples; the
    same dtype, C-contiguous: ``W`` itself with ``d0 = G``, or another array)
    their derivatives in time (``D[:, d0:d0 + G]``); columns ``off .. off +
    width`` of them are those of the block.  ``weight`` and ``gamma2`` one
    per scale; ``scale`` turns ``Im(dW / W)`` (radians per sample) into the
    bins' unit (``fs / 2 pi``); the bin of frequency ``f`` is ``round((u -
    u0) / du)`` with ``u = log f`` where ``log_bins``, else ``f`` (``du`` may be
    negative: bins in decreasing order).  ``unit``: add the weight alone (a
    count), not the weight times ``W``.  ``T`` (rows, bins, n; complex,
    C-contiguous) is added to.

    Examples
    --------
    >>> W = np.array([[[1.0 + 0j, 2.0 + 0j]]])
    >>> D = 1j * 0.2 * W                                       # 0.2 rad/sample
    >>> T = np.zeros((1, 3, 2), complex)
    >>> squeeze_block(W, D, 0, 0, 2, np.ones(1), np.zeros(1), 1.0, 0.0, 0.1, False, T, 0)
    >>> T[0].real.tolist()
    [[0.0, 0.0], [0.0, 0.0], [1.0, 2.0]]
    """
    C = W.shape[0]
    weight = np.ascontiguousarray(weight, np.float64)
    chunks = -(-width // CHUNK)
    parallel_for(_squeeze_tasks, C * chunks, W, D, int(d0), int(off), int(width), weight,
                 np.ascontiguousarray(gamma2, np.float64), float(scale), float(u0), float(du),
                 bool(log_bins), bool(unit), T, int(t0), work=10.0 * C * weight.size * width)

@kernel(nogil=True)
def _difference_tasks(lo, hi, src, src_rows, dst, dst_rows, j_lo, j_hi):
    """Tasks ``lo .. hi`` (flat ``row * len(src_rows) + i``) of :func:`difference_rows`."""
    S = src_rows.size
    m = src.shape[2]
    for t in range(lo, hi):
        c = t // S
        x = src[c, src_rows[t % S]]
        d = dst[c, dst_rows[t % S]]
        if m < 3:
            for j in range(j_lo, j_hi):
                d[j] = np.complex128(x[1]) - np.complex128(x[0]) if m == 2 else 0.0
            continue
        for jj in range(max(3, j_lo), min(m - 3, j_hi)):
            # unsigned indices (never negative here): no wraparound test, so the loop vectorises
            j = np.uint64(jj)
            one, two, three = np.uint64(1), np.uint64(2), np.uint64(3)
            re = (45.0 * (np.float64(x[j + one].real) - np.float64(x[j - one].real))
                  - 9.0 * (np.float64(x[j + two].real) - np.float64(x[j - two].real))
                  + (np.float64(x[j + three].real) - np.float64(x[j - three].real))) * (1.0 / 60.0)
            im = (45.0 * (np.float64(x[j + one].imag) - np.float64(x[j - one].imag))
                  - 9.0 * (np.float64(x[j + two].imag) - np.float64(x[j - two].imag))
                  + (np.float64(x[j + three].imag) - np.float64(x[j - three].imag))) * (1.0 / 60.0)
            d[j] = complex(re, im)
        # one and two samples from the ends: the fourth-order centred difference where it fits
        n_front = min(3, m - 1) - 1                 # j = 1, 2 (those that exist)
        back = max(3, m - 3)                         # then j = back .. m - 2
        for e in range(n_front + max(0, m - 1 - back)):
            j = 1 + e if e < n_front else back + e - n_front
            if not j_lo <= j < j_hi:
                continue
            if 2 <= j < m - 2:
                d[j] = (8.0 * (np.complex128(x[j + 1]) - np.complex128(x[j - 1]))
                        - (np.complex128(x[j + 2]) - np.complex128(x[j - 2]))) / 12.0
            else:
                d[j] = 0.5 * (np.complex128(x[j + 1]) - np.complex128(x[j - 1]))
        if j_lo <= 0 < j_hi:
            d[0] = 0.5 * (-3.0 * np.complex128(x[0]) + 4.0 * np.complex128(x[1])
                          - np.complex128(x[2]))
        if j_lo <= m - 1 < j_hi:
            d[m - 1] = 0.5 * (3.0 * np.complex128(x[m - 1]) - 4.0 * np.complex128(x[m - 2])
                              + np.complex128(x[m - 3]))


def difference_rows(src: np.ndarray, src_rows, dst: np.ndarray, dst_rows,
                    cols: tuple[int, int] | None = None) -> None:
    """``dst[:, dst_rows[i]] = d src[:, src_rows[i]] / dn``: the sixth-order centred difference.

    As :func:`sftwave.synchrosqueeze.finite_difference` (fourth- and
    second-order centred differences one and two samples from an end, the
    second-order one-sided difference at the ends), computed in complex128
    and rounded once to ``dst``'s dtype.  ``src`` and ``dst`` (rows, scales,
    samples) are complex with the same rows and samples.  ``cols``: only
    samples ``cols[0] <= j < cols[1]`` are written (each by its formula in
    the whole row).

    Examples
    --------
    >>> W = np.exp(0.3j * np.arange(12))[None, None, :]
    >>> D = np.zeros_like(W)
    >>> difference_rows(W, [0], D, [0])
    >>> bool(np.allclose(D[0, 0, 3:-3], 0.3j * W[0, 0, 3:-3], rtol=6e-6, atol=0))
    True
    """
    src_rows = np.ascontiguousarray(src_rows, dtype=np.int64)
    dst_rows = np.ascontiguousarray(dst_rows, dtype=np.int64)
    C, _, m = src.shape
    j_lo, j_hi = (0, m) if cols is None else (max(0, int(cols[0])), min(m, int(cols[1])))
    parallel_for(_difference_tasks, C * src_rows.size, src, src_rows, dst, dst_rows, j_lo, j_hi,
                 work=20.0 * C * src_rows.size * max(0, j_hi - j_lo))


def lane_multiple() -> int:
    """The lanes the lane engine runs side by side in one group (twice its default width).

    A group of scales in :func:`sftwave.synchrosqueeze.ssq_cwt` ends, where it
    can, after a multiple of this many lanes: the empty places of a group cost
    as much as full ones.

    Examples
    --------
    >>> lane_multiple() > 0
    True
    """
    from .lanes import DEFAULT_WIDTH

    return 2 * DEFAULT_WIDTH
