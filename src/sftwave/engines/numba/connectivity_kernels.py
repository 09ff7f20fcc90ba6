"""Pair sums of complex wavelet coefficients for :mod:`sftwave.connectivity`, without pair arrays.

The coefficients of one epoch are ``y`` of shape ``(channels, freqs, times)``
(complex128).  Two kernels, each over tasks run on sftwave's pool
(:func:`.pool.parallel_for`), each task writing only its own outputs, so the
result is the same bits on any number of threads:

* :func:`cross_sums`: for each frequency (a task), the weighted sums
  ``G[f, r, j] = sum_m w[m] y[rows[r], f, m] conj(y[j, f, m])`` for the
  columns ``j`` in ``[col_lo[r], col_hi[r])``: the time average of the cross
  spectrum (coherence, CSD) of every wanted pair, the loop over ``j``
  innermost over a (times, channels) copy of the frequency's coefficients, so
  that it vectorises across channels; each sum runs in time order, as a
  scalar loop would (no reordering: the same bits on any machine).
* :func:`phase_sums`: for each (frequency, pair) task, the cross spectrum
  ``s[m] = y[x, f, m] conj(y[y, f, m])`` is made one sample at a time,
  smoothed in time by MNE-Connectivity's Hann or boxcar kernel (zero outside
  the record, ``mode='same'`` centring) by running sums whose cost does not
  depend on the kernel's length, and reduced at once to the sums that the
  non-linear measures need (the unit phasor ``c / |c|``, ``sign(Im c)``,
  ``|Im c|`` and ``Im c`` of the smoothed ``c``).  No ``(pairs, freqs, times)``
  array is ever stored.
* :func:`epoch_sums` (connectivity across epochs): for each (frequency, tile
  of :data:`EPOCH_TILE` samples) task, every pair's cross spectrum of every
  epoch in the block is made a tile at a time and added, epoch after epoch,
  into that pair's sums over epochs (kept per pair, frequency and sample: the
  result's size); the tile of all the channels' and epochs' coefficients stays
  in cache while all the pairs read it.  :func:`epoch_scores` then turns the
  sums into MNE-Connectivity's measures in one pass.

The Hann window ``h[b] = 0.5 - 0.5 cos(theta b)`` (``theta = 2 pi / (M - 1)``,
numpy's ``hanning(M)``) is a boxcar plus two complex exponentials under a
boxcar, so ``sum_b h[b] s[m - b]`` is ``0.5 B - 0.25 (E+ + E-)`` with the
running sums ``B[m] = B[m-1] + s[m] - s[m-M]`` and
``E+-[m] = s[m] + exp(+-i theta) (E+-[m-1] - s[m-M])`` (``exp(i theta (M-1)) = 1``).
Their rounding grows like the square root of the record's length (about
1e-13 of the largest cross spectrum for 1e5 samples and M = 1e3).
"""

from __future__ import annotations

import math

import numpy as np

from ._jit import kernel
from .pool import parallel_for, threads

__all__ = ["split_layout", "cross_sums", "power_sums", "phase_sums", "phase_smoothing", "KIND_NONE",
           "KIND_HANN", "KIND_BOXCAR", "epoch_layout",
           "epoch_sums", "epoch_power_sums", "SUM_CSD", "SUM_UNIT", "SUM_UNIT0", "SUM_SIGN",
           "SUM_IMAG", "SUM_IMAG2", "SUM_WIDTHS", "EPOCH_TILE", "epoch_scores",
           "SCORE_METHODS"]

#: The smoothing kinds of :func:`phase_sums`: none (M = 1), Hann, boxcar.
KIND_NONE, KIND_HANN, KIND_BOXCAR = 0, 1, 2


#: Samples per time block (all channels' coefficients of a block stay in cache).
_T_BLOCK = 32


@kernel(nogil=True, error_model="numpy")
def _split_tasks(lo, hi, yf, yr, yi):
    """Samples ``lo .. hi``: ``yf[c, f, 2m]`` and ``yf[c, f, 2m + 1]`` into ``yr[m, c, f]`` and
    ``yi[m, c, f]`` (sample by sample: the writes run in order)."""
    nc, nf, nt2 = yf.shape
    for m in range(lo, hi):
        for c in range(nc):
            for f in range(nf):
                yr[m, c, f] = yf[c, f, 2 * m]
                yi[m, c, f] = yf[c, f, 2 * m + 1]


def split_layout(y: np.ndarray, out: tuple[np.ndarray, np.ndarray] | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The real and imaginary parts of ``y`` (channels, freqs, times) as (times, channels, freqs).

    The kernels' layout: the frequencies of one sample side by side, so that
    the loops over them (independent sums and recursions) vectorise.  ``out``:
    two float64 arrays of that shape to write into (no new pages per epoch).

    Examples
    --------
    >>> y = np.arange(6.0).reshape(1, 2, 3) * (1 + 2j)
    >>> yr, yi = split_layout(y)
    >>> yr[:, 0].tolist(), bool(np.array_equal(yi, 2 * yr))
    ([[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]], True)
    """
    nc, nf, nt = y.shape
    if out is not None and all(a.shape == (nt, nc, nf) and a.dtype == np.float64 for a in out):
        yr, yi = out
    else:
        yr = np.empty((nt, nc, nf))
        yi = np.empty((nt, nc, nf))
    if y.dtype != np.complex128 or y.strides[-1] != 16:
        y = np.ascontiguousarray(y, np.complex128)
    parallel_for(_split_tasks, nt, y.view(np.float64), yr, yi, work=float(y.size))
    return yr, yi


@kernel(nogil=True, noalias=True, error_model="numpy")
def _scaled(w, xr, xi, ar, ai):
    """``ar, ai = w * (xr, xi)``."""
    for k in range(ar.size):
        ar[k] = w * xr[k]
        ai[k] = w * xi[k]


@kernel(nogil=True, noalias=True, error_model="numpy")
def _mac(ar, ai, zr, zi, sr, si):
    """``(sr, si) += (ar + i ai) conj(zr + i zi)``, element by element."""
    for k in range(ar.size):
        br = zr[k]
        bi = zi[k]
        sr[k] += ar[k] * br + ai[k] * bi
        si[k] += ai[k] * br - ar[k] * bi


@kernel(nogil=True, error_model="numpy")
def _cross_tasks(lo, hi, yf, rows, col_lo, col_hi, w, out):
    """Rows ``lo .. hi`` of :func:`cross_sums`: time blocks (copied into a (samples, channels,
    freqs) buffer held in cache for all the rows), then rows, samples, columns and frequencies
    (innermost: independent sums, each in time order, whichever rows a task holds)."""
    nc, nf, nt2 = yf.shape
    nt = nt2 // 2
    nr = hi - lo
    acc_r = np.zeros((nr, nc, nf))
    acc_i = np.zeros((nr, nc, nf))
    ar = np.zeros(nf)
    ai = np.zeros(nf)
    br = np.empty((_T_BLOCK, nc, nf))
    bi = np.empty((_T_BLOCK, nc, nf))
    for t0 in range(0, nt, _T_BLOCK):
        t1 = min(t0 + _T_BLOCK, nt)
        for m in range(t0, t1):
            for c in range(nc):
                for f in range(nf):
                    br[m - t0, c, f] = yf[c, f, 2 * m]
                    bi[m - t0, c, f] = yf[c, f, 2 * m + 1]
        for r in range(nr):
            i = rows[lo + r]
            for m in range(t1 - t0):
                _scaled(w[t0 + m], br[m, i], bi[m, i], ar, ai)
                for j in range(col_lo[lo + r], col_hi[lo + r]):
                    _mac(ar, ai, br[m, j], bi[m, j], acc_r[r, j], acc_i[r, j])
    for r in range(nr):
        for j in range(col_lo[lo + r], col_hi[lo + r]):
            for k in range(nf):
                out[k, lo + r, j] = complex(acc_r[r, j, k], acc_i[r, j, k])


def cross_sums(y: np.ndarray, rows: np.ndarray, col_lo: np.ndarray, col_hi: np.ndarray,
               w: np.ndarray) -> np.ndarray:
    """``G[f, r, j] = sum_m w[m] y[rows[r], f, m] conj(y[j, f, m])`` for ``col_lo[r] <= j < col_hi[r]``.

    ``y`` complex128 ``(channels, freqs, times)`` (any strides); ``w`` float64
    ``(times,)``.  Returns complex128 ``(freqs, len(rows), channels)``, zero
    outside the columns asked for.  Each sum runs in time order (the same bits
    on any machine and thread count).

    Examples
    --------
    >>> y = np.random.default_rng(0).standard_normal((3, 2, 50)) * (1 + 1j)
    >>> g = cross_sums(y, np.array([2]), np.array([0]), np.array([3]), np.ones(50))
    >>> bool(np.allclose(g[1, 0, 1], np.sum(y[2, 1] * np.conj(y[1, 1]))))
    True
    """
    nc, nf, nt = y.shape
    out = np.zeros((nf, rows.size, nc), np.complex128)
    work = float(nt) * float(np.sum(col_hi - col_lo)) * nf * 4.0
    if y.dtype != np.complex128 or y.strides[-1] != 16:
        y = np.ascontiguousarray(y, np.complex128)
    yf = y.view(np.float64)         # (channels, freqs, 2 times): real and imaginary parts
    # few chunks: each reads the coefficients once (block by block, through the cache)
    parallel_for(_cross_tasks, rows.size, yf, rows.astype(np.int64), col_lo.astype(np.int64),
                 col_hi.astype(np.int64), np.ascontiguousarray(w, np.float64), out, work=work,
                 chunks=min(rows.size, 2 * threads()))
    return out


@kernel(nogil=True, error_model="numpy")
def _power_tasks(lo, hi, y, w, out):
    """Channels ``lo .. hi`` of :func:`power_sums`."""
    nc, nf, nt = y.shape
    for c in range(lo, hi):
        for f in range(nf):
            acc = 0.0
            for m in range(nt):
                v = y[c, f, m]
                acc += w[m] * (v.real * v.real + v.imag * v.imag)
            out[c, f] = acc


def power_sums(y: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``P[c, f] = sum_m w[m] |y[c, f, m]|^2`` (in time order), float64 ``(channels, freqs)``.

    Examples
    --------
    >>> y = np.full((1, 1, 4), 1 + 1j)
    >>> power_sums(y, np.arange(4.0)).tolist()
    [[12.0]]
    """
    nc, nf, nt = y.shape
    out = np.empty((nc, nf))
    parallel_for(_power_tasks, nc, y, np.ascontiguousarray(w, np.float64), out,
                 work=3.0 * y.size)
    return out


@kernel(nogil=True, noalias=True, error_model="numpy")
def _products(xr, xi, zr, zi, sr, si):
    """``sr + i si = x conj(z)``, element by element."""
    for k in range(sr.size):
        sr[k] = xr[k] * zr[k] + xi[k] * zi[k]
        si[k] = xi[k] * zr[k] - xr[k] * zi[k]


@kernel(nogil=True, noalias=True, error_model="numpy")
def _boxcar(sr, si, orr, oi, bxr, bxi, inv_norm, cr, ci):
    """The running boxcar: ``B += s - old``; ``c = B inv_norm``."""
    for k in range(sr.size):
        bxr[k] = bxr[k] + sr[k] - orr[k]
        bxi[k] = bxi[k] + si[k] - oi[k]
        cr[k] = bxr[k] * inv_norm
        ci[k] = bxi[k] * inv_norm


@kernel(nogil=True, noalias=True, error_model="numpy")
def _hann(sr, si, orr, oi, bxr, bxi, epr, epi, emr, emi, rot_r, rot_i, inv_norm, cr, ci):
    """The running Hann window: the boxcar and the two modulated boxcars ``E+-``."""
    for k in range(sr.size):
        bxr[k] = bxr[k] + sr[k] - orr[k]
        bxi[k] = bxi[k] + si[k] - oi[k]
        dr = epr[k] - orr[k]
        di = epi[k] - oi[k]
        epr[k] = sr[k] + (rot_r * dr - rot_i * di)
        epi[k] = si[k] + (rot_r * di + rot_i * dr)
        dr = emr[k] - orr[k]
        di = emi[k] - oi[k]
        emr[k] = sr[k] + (rot_r * dr + rot_i * di)
        emi[k] = si[k] + (rot_r * di - rot_i * dr)
        cr[k] = (0.5 * bxr[k] - 0.25 * (epr[k] + emr[k])) * inv_norm
        ci[k] = (0.5 * bxi[k] - 0.25 * (epi[k] + emi[k])) * inv_norm


@kernel(nogil=True, noalias=True, error_model="numpy")
def _accumulate_unit(cr, ci, a0, a1):
    """The sums of ``c / |c|`` (real and imaginary parts)."""
    for k in range(cr.size):
        inv = 1.0 / math.sqrt(cr[k] * cr[k] + ci[k] * ci[k])
        a0[k] += cr[k] * inv
        a1[k] += ci[k] * inv


@kernel(nogil=True, noalias=True, error_model="numpy")
def _accumulate_imag(ci, a2, a3, a4):
    """The sums of ``sign(Im c)``, ``|Im c|`` and ``Im c``."""
    for k in range(ci.size):
        c = ci[k]
        a2[k] += 1.0 if c > 0.0 else (-1.0 if c < 0.0 else c * 0.0)
        a3[k] += abs(c)
        a4[k] += c


@kernel(nogil=True, error_model="numpy")
def _phase_tasks(lo, hi, yr, yi, px, py, kind, width, centre, inv_norm, rot_r, rot_i, unit,
                 imag, out):
    """Pairs ``lo .. hi`` of :func:`phase_sums`, all frequencies side by side (each step a
    loop over them, which vectorises)."""
    nt, nc, nf = yr.shape
    st = np.zeros((6, nf))           # boxcar, E+ and E- (real, imaginary)
    acc = np.zeros((5, nf))
    sr = np.zeros(nf)
    si = np.zeros(nf)
    orr = np.zeros(nf)
    oi = np.zeros(nf)
    cr = np.zeros(nf)
    ci = np.zeros(nf)
    for p in range(lo, hi):
        a = px[p]
        b = py[p]
        st[:] = 0.0
        acc[:] = 0.0
        sr[:] = 0.0
        si[:] = 0.0
        for m in range(nt + centre):
            if m < nt:
                _products(yr[m, a], yi[m, a], yr[m, b], yi[m, b], sr, si)
            elif m == nt:
                sr[:] = 0.0
                si[:] = 0.0
            if kind == 0:
                cr[:] = sr
                ci[:] = si
            else:
                old = m - width
                if 0 <= old < nt:
                    _products(yr[old, a], yi[old, a], yr[old, b], yi[old, b], orr, oi)
                else:
                    orr[:] = 0.0
                    oi[:] = 0.0
                if kind == 1:
                    _hann(sr, si, orr, oi, st[0], st[1], st[2], st[3], st[4], st[5], rot_r, rot_i,
                          inv_norm, cr, ci)
                else:
                    _boxcar(sr, si, orr, oi, st[0], st[1], inv_norm, cr, ci)
            if m >= centre:
                if unit:
                    _accumulate_unit(cr, ci, acc[0], acc[1])
                if imag:
                    _accumulate_imag(ci, acc[2], acc[3], acc[4])
        for k in range(nf):
            for q in range(5):
                out[p, k, q] = acc[q, k]


def phase_sums(y: np.ndarray | tuple[np.ndarray, np.ndarray], px: np.ndarray, py: np.ndarray,
               kind: int, width: int, inv_norm: float, *, unit: bool = True,
               imag: bool = True) -> np.ndarray:
    """Sums over time of the smoothed cross spectrum's unit phasor, sign, ``|Im|`` and ``Im``.

    For each pair ``(px[p], py[p])`` and frequency: ``c[n]`` is
    ``s = y[px] conj(y[py])`` smoothed by the kernel of ``width`` samples
    (``kind``: :data:`KIND_NONE`, :data:`KIND_HANN` (numpy's ``hanning(width)``
    times ``inv_norm``) or :data:`KIND_BOXCAR` (``inv_norm`` each)), centred
    as scipy's ``mode='same'`` and zero outside the record.  ``y`` complex128
    ``(channels, freqs, times)`` or its :func:`split_layout`.  Returns float64
    ``(pairs, freqs, 5)``: ``sum Re(c/|c|)``, ``sum Im(c/|c|)``,
    ``sum sign(Im c)``, ``sum |Im c|``, ``sum Im c`` over the record (the first
    two zero unless ``unit``, the other three zero unless ``imag``).  ``|c|``
    is ``sqrt(re^2 + im^2)``: cross spectra beyond about 1e150 overflow (the
    callers scale the data first).

    Examples
    --------
    >>> y = np.exp(1j * np.arange(40.0))[None, None, :] * np.array([1.0, 1j])[:, None, None]
    >>> s = phase_sums(y, np.array([1]), np.array([0]), KIND_NONE, 1, 1.0)
    >>> s[0, 0, :3].tolist()                 # y1 conj(y0) = i at every sample
    [0.0, 40.0, 40.0]
    """
    yr, yi = split_layout(y) if isinstance(y, np.ndarray) else y
    nt, nc, nf = yr.shape
    out = np.empty((px.size, nf, 5))
    theta = 2.0 * math.pi / (width - 1) if kind == KIND_HANN else 0.0
    centre = (width - 1) // 2 if kind != KIND_NONE else 0
    parallel_for(_phase_tasks, px.size, yr, yi, px.astype(np.int64), py.astype(np.int64),
                 int(kind), int(width), int(centre), float(inv_norm), math.cos(theta),
                 math.sin(theta), bool(unit), bool(imag), out,
                 work=30.0 * nf * px.size * (nt + centre))
    return out


def phase_smoothing(sm_kernel: str, width: int) -> tuple[int, float]:
    """The ``kind`` and ``inv_norm`` of :func:`phase_sums` for MNE-Connectivity's ``sm_kernel``.

    A width of one sample is no smoothing (:data:`KIND_NONE`); 'hanning' is
    numpy's ``hanning(width)`` normalised to a sum of 1, 'square' a boxcar.

    Examples
    --------
    >>> phase_smoothing("square", 4)
    (2, 0.25)
    >>> phase_smoothing("hanning", 1)[0] == KIND_NONE
    True
    """
    kind = KIND_NONE if width == 1 else KIND_HANN if sm_kernel == "hanning" else KIND_BOXCAR
    inv_norm = 1.0 / np.hanning(width).sum() if kind == KIND_HANN else 1.0 / width
    return kind, inv_norm


# ----------------------------------------------------------------------------- across epochs

#: The sums :func:`epoch_sums` can keep, each a group of accumulator rows (its slot): the cross
#: spectrum (real, imaginary), its unit phasor with ``0 / 0 = NaN`` (real, imaginary), its unit
#: phasor with ``0 / 0 = 0``, ``sign(Im)``, ``Im`` and ``|Im|``, ``Im^2``.
SUM_CSD, SUM_UNIT, SUM_UNIT0, SUM_SIGN, SUM_IMAG, SUM_IMAG2 = range(6)

#: Accumulator rows of each sum of :func:`epoch_sums`.
SUM_WIDTHS = (2, 2, 2, 1, 2, 1)


#: The sums of :func:`epoch_sums` each measure of :func:`epoch_scores` needs.
_NEEDS = {"coh": (SUM_CSD,), "cohy": (SUM_CSD,), "imcoh": (SUM_CSD,), "plv": (SUM_UNIT,),
          "ciplv": (SUM_UNIT,), "ppc": (SUM_UNIT0,), "pli": (SUM_SIGN,),
          "pli2_unbiased": (SUM_SIGN,), "dpli": (SUM_SIGN,), "wpli": (SUM_IMAG,),
          "wpli2_debiased": (SUM_IMAG, SUM_IMAG2)}


def epoch_layout(methods: tuple[str, ...] | list[str]) -> tuple[np.ndarray, int]:
    """The accumulator of :func:`epoch_sums` for ``methods``: each sum's first row, and the rows.

    Returns ``slots`` (int64, one per ``SUM_*``: its first row, -1 where not
    kept) and the number of rows per pair, frequency and sample.

    Examples
    --------
    >>> slots, rows = epoch_layout(["coh", "wpli2_debiased"])
    >>> slots.tolist(), rows
    ([0, -1, -1, -1, 2, 4], 5)
    """
    sums = sorted({s for m in methods for s in _NEEDS[m]})
    slots = np.full(len(SUM_WIDTHS), -1, np.int64)
    n_rows = 0
    for s in sums:
        slots[s] = n_rows
        n_rows += SUM_WIDTHS[s]
    return slots, n_rows


@kernel(nogil=True, noalias=True, error_model="numpy")
def _add_to(sr, si, ar, ai):
    """``(ar, ai) += (sr, si)``."""
    for k in range(sr.size):
        ar[k] += sr[k]
        ai[k] += si[k]


@kernel(nogil=True, noalias=True, error_model="numpy")
def _add_unit0(sr, si, ar, ai):
    """``(ar, ai) += s / |s|``, adding 0 where ``|s| = 0`` (MNE-Connectivity's 'ppc')."""
    for k in range(sr.size):
        d = math.sqrt(sr[k] * sr[k] + si[k] * si[k])
        if d != 0.0:
            ar[k] += sr[k] / d
            ai[k] += si[k] / d


@kernel(nogil=True, noalias=True, error_model="numpy")
def _add_sign(si, a):
    """``a += sign(si)`` (NaN stays NaN)."""
    for k in range(si.size):
        c = si[k]
        a[k] += 1.0 if c > 0.0 else (-1.0 if c < 0.0 else c * 0.0)


@kernel(nogil=True, noalias=True, error_model="numpy")
def _add_imag(si, a, b):
    """``a += si``, ``b += |si|``."""
    for k in range(si.size):
        a[k] += si[k]
        b[k] += abs(si[k])


@kernel(nogil=True, noalias=True, error_model="numpy")
def _add_square(si, a):
    """``a += si^2``."""
    for k in range(si.size):
        a[k] += si[k] * si[k]


#: Samples per tile of :func:`epoch_sums` (every epoch's and channel's coefficients of one
#: frequency and tile stay in cache while all the pairs read them).
EPOCH_TILE = 128


@kernel(nogil=True, noalias=True, error_model="numpy")
def _products_interleaved(x, z, sr, si):
    """``sr + i si = x conj(z)`` for ``x``, ``z`` complex rows stored as (re, im) pairs."""
    for k in range(sr.size):
        xr = x[2 * k]
        xi = x[2 * k + 1]
        zr = z[2 * k]
        zi = z[2 * k + 1]
        sr[k] = xr * zr + xi * zi
        si[k] = xi * zr - xr * zi


@kernel(nogil=True, error_model="numpy")
def _epoch_pair_tasks(lo, hi, yf, px, py, slots, acc):
    """(frequency, tile of samples) tasks ``lo .. hi`` of :func:`epoch_sums`: for each pair, the
    epochs one after the other into the pair's accumulators."""
    ne, nc, nf, nt2 = yf.shape
    nt = nt2 // 2
    n_tiles = (nt + EPOCH_TILE - 1) // EPOCH_TILE
    sr = np.empty(EPOCH_TILE)
    si = np.empty(EPOCH_TILE)
    for task in range(lo, hi):
        f = task // n_tiles
        m0 = (task - f * n_tiles) * EPOCH_TILE
        m1 = min(nt, m0 + EPOCH_TILE)
        w = m1 - m0
        tr = sr[:w]
        ti = si[:w]
        for p in range(px.size):
            a = px[p]
            b = py[p]
            for e in range(ne):
                _products_interleaved(yf[e, a, f, 2 * m0:2 * m1], yf[e, b, f, 2 * m0:2 * m1], tr, ti)
                q = slots[0]
                if q >= 0:
                    _add_to(tr, ti, acc[f, q, p, m0:m1], acc[f, q + 1, p, m0:m1])
                q = slots[1]
                if q >= 0:
                    _accumulate_unit(tr, ti, acc[f, q, p, m0:m1], acc[f, q + 1, p, m0:m1])
                q = slots[2]
                if q >= 0:
                    _add_unit0(tr, ti, acc[f, q, p, m0:m1], acc[f, q + 1, p, m0:m1])
                q = slots[3]
                if q >= 0:
                    _add_sign(ti, acc[f, q, p, m0:m1])
                q = slots[4]
                if q >= 0:
                    _add_imag(ti, acc[f, q, p, m0:m1], acc[f, q + 1, p, m0:m1])
                q = slots[5]
                if q >= 0:
                    _add_square(ti, acc[f, q, p, m0:m1])


def epoch_sums(y: np.ndarray, px: np.ndarray, py: np.ndarray, slots: np.ndarray,
               acc: np.ndarray) -> None:
    """Add a block of epochs' pair sums into ``acc``, epoch after epoch, sample by sample.

    ``y``: the coefficients, complex128 C-contiguous ``(epochs, channels,
    freqs, times)`` (others are copied).  For each pair ``p`` (``px[p]``,
    ``py[p]``), frequency ``f`` and sample ``m``, with
    ``s = y[e, px[p], f, m] conj(y[e, py[p], f, m])``, the sums named by
    ``slots`` (int64, one entry per ``SUM_*``: the first of that sum's
    :data:`SUM_WIDTHS` rows of ``acc``, or -1 for a sum not kept) gain each
    epoch's term in epoch order: ``acc[f, q, p, m] += ...``.  ``acc``: float64
    C-contiguous ``(freqs, rows, pairs, times)``.  Each accumulator is one
    task's, added to in the epochs' order: the same bits on any thread count
    and whatever blocks the epochs come in.

    Examples
    --------
    >>> y = np.array([1.0, 1j, -1.0])[:, None, None, None] * np.array([1.0, 1j])[None, :, None, None]
    >>> slots = np.array([0, -1, -1, 2, -1, -1])        # the cross spectrum, the sign of Im
    >>> acc = np.zeros((1, 3, 1, 1))
    >>> epoch_sums(y, np.array([1]), np.array([0]), slots, acc)
    >>> acc.ravel().tolist()                 # three epochs of y1 conj(y0) = i
    [0.0, 3.0, 3.0]
    """
    y = np.ascontiguousarray(y, np.complex128)
    ne, nc, nf, nt = y.shape
    n_tiles = -(-nt // EPOCH_TILE)
    parallel_for(_epoch_pair_tasks, nf * n_tiles, y.view(np.float64), px.astype(np.int64),
                 py.astype(np.int64), slots.astype(np.int64), acc,
                 work=12.0 * ne * nt * nf * px.size)


@kernel(nogil=True, noalias=True, error_model="numpy")
def _add_power_interleaved(x, a):
    """``a += |x|^2`` for ``x`` a complex row stored as (re, im) pairs."""
    for k in range(a.size):
        a[k] += x[2 * k] * x[2 * k] + x[2 * k + 1] * x[2 * k + 1]


@kernel(nogil=True, error_model="numpy")
def _epoch_power_tasks(lo, hi, yf, acc):
    """(frequency, channel) rows ``lo .. hi`` of :func:`epoch_power_sums`."""
    ne, nc, nf, nt2 = yf.shape
    for task in range(lo, hi):
        f = task // nc
        c = task - f * nc
        for e in range(ne):
            _add_power_interleaved(yf[e, c, f], acc[f, c])


def epoch_power_sums(y: np.ndarray, acc: np.ndarray) -> None:
    """``acc[f, c, m] += |y[e, c, f, m]|^2`` over the block's epochs, in their order.

    ``y`` as for :func:`epoch_sums`; ``acc`` float64 C-contiguous
    ``(freqs, channels, times)``.

    Examples
    --------
    >>> acc = np.zeros((1, 1, 2))
    >>> epoch_power_sums(np.full((2, 1, 1, 2), 1 + 2j), acc)
    >>> acc.tolist()
    [[[10.0, 10.0]]]
    """
    y = np.ascontiguousarray(y, np.complex128)
    ne, nc, nf, nt = y.shape
    parallel_for(_epoch_power_tasks, nc * nf, y.view(np.float64), acc, work=3.0 * y.size)


#: The measures of :func:`epoch_scores`, by code (MNE-Connectivity's names, in this order).
SCORE_METHODS = ("coh", "cohy", "imcoh", "plv", "ciplv", "ppc", "pli", "pli2_unbiased", "dpli",
                 "wpli", "wpli2_debiased")


@kernel(nogil=True, error_model="numpy")
def _score_tasks(lo, hi, code, acc, slots, psd, ux, uy, n, rows, out):
    """(frequency, pair) rows ``lo .. hi`` of :func:`epoch_scores`."""
    nf, nq, ncons, nt = acc.shape
    for task in range(lo, hi):
        f = task // ncons
        p = task - f * ncons
        r = rows[p]
        if code <= 2:
            q = slots[0]
            x = ux[p]
            z = uy[p]
            for m in range(nt):
                re = acc[f, q, p, m]
                im = acc[f, q + 1, p, m]
                den = math.sqrt(psd[f, x, m] * psd[f, z, m])
                if code == 0:
                    out[r, f, m] = math.sqrt(re * re + im * im) / den
                elif code == 1:
                    out[r, f, 2 * m] = re / den
                    out[r, f, 2 * m + 1] = im / den
                else:
                    out[r, f, m] = im / den
        elif code <= 5:
            q = slots[1] if code <= 4 else slots[2]
            for m in range(nt):
                re = acc[f, q, p, m]
                im = acc[f, q + 1, p, m]
                if code == 3:
                    out[r, f, m] = math.sqrt(re * re + im * im) / n
                elif code == 4:
                    real = re / n
                    if real > 1.0:
                        real = 1.0
                    elif real < -1.0:
                        real = -1.0
                    if abs(real) == 1.0:
                        real = 0.0
                    out[r, f, m] = (abs(im) / n) / math.sqrt(1.0 - real * real)
                else:
                    out[r, f, m] = (re * re + im * im - n) / (n * (n - 1.0))
        elif code <= 8:
            q = slots[3]
            for m in range(nt):
                mean = acc[f, q, p, m] / n
                if code == 6:
                    out[r, f, m] = abs(mean)
                elif code == 7:
                    out[r, f, m] = (n * mean * mean - 1.0) / (n - 1.0)
                else:
                    out[r, f, m] = (mean + 1.0) * 0.5
        else:
            q = slots[4]
            q2 = slots[5]
            for m in range(nt):
                s = acc[f, q, p, m]
                a = acc[f, q + 1, p, m]
                if code == 9:
                    num = abs(s)
                    den = a
                else:
                    sq = acc[f, q2, p, m]
                    num = s * s - sq
                    den = a * a - sq
                out[r, f, m] = 0.0 if den == 0.0 else num / den


def epoch_scores(method: str, acc: np.ndarray, slots: np.ndarray, psd: np.ndarray | None,
                 ux: np.ndarray, uy: np.ndarray, n: int, rows: np.ndarray,
                 out: np.ndarray) -> None:
    """MNE-Connectivity 0.9's ``compute_con`` of ``method`` from :func:`epoch_sums`' sums.

    ``acc`` and ``slots`` as :func:`epoch_sums` left them after ``n`` epochs;
    ``psd`` the :func:`epoch_power_sums` of the channels (the coherence
    measures), ``ux``, ``uy`` each pair's two channels in it.  Pair ``p``'s
    scores go to ``out[rows[p]]``: ``out`` float64 (complex128 for
    ``'cohy'``) C-contiguous ``(rows, freqs, times)``.  Zero denominators of
    'wpli' and 'wpli2_debiased' give 0, ``|E Re u| = 1`` in 'ciplv' counts as
    0, as MNE-Connectivity's do; other divisions by zero give inf or NaN.

    Examples
    --------
    >>> acc = np.array([3.0, 1.0]).reshape(1, 2, 1, 1)      # sum u = 3 + 1i over 4 epochs
    >>> out = np.empty((1, 1, 1))
    >>> slots = np.array([-1, 0, -1, -1, -1, -1])
    >>> epoch_scores("plv", acc, slots, None, np.zeros(1, np.int64), np.zeros(1, np.int64), 4,
    ...              np.zeros(1, np.int64), out)
    >>> round(float(out[0, 0, 0]), 12) == round(10 ** 0.5 / 4, 12)
    True
    """
    nf, nq, ncons, nt = acc.shape
    code = SCORE_METHODS.index(method)
    flat = out.view(np.float64) if out.dtype == np.complex128 else out
    parallel_for(_score_tasks, nf * ncons, code, acc, slots.astype(np.int64),
                 psd if psd is not None else np.zeros((1, 1, 1)), ux.astype(np.int64),
                 uy.astype(np.int64), float(n), rows.astype(np.int64), flat,
                 work=4.0 * acc[:, 0].size)
