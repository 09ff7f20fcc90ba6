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
from .pool import parallel_for

__all__ = ["cross_sums", "phase_sums", "KIND_NONE", "KIND_HANN", "KIND_BOXCAR"]

#: The smoothing kinds of :func:`phase_sums`: none (M = 1), Hann, boxcar.
KIND_NONE, KIND_HANN, KIND_BOXCAR = 0, 1, 2


@kernel(nogil=True)
def _cross_tasks(lo, hi, y, rows, col_lo, col_hi, w, out):
    """Frequencies ``lo .. hi`` of :func:`cross_sums`."""
    nc, nf, nt = y.shape
    nr = rows.size
    yr = np.empty((nt, nc))
    yi = np.empty((nt, nc))
    acc_r = np.empty((nr, nc))
    acc_i = np.empty((nr, nc))
    for f in range(lo, hi):
        for c in range(nc):
            for m in range(nt):
                v = y[c, f, m]
                yr[m, c] = v.real
                yi[m, c] = v.imag
        acc_r[:] = 0.0
        acc_i[:] = 0.0
        for m in range(nt):
            wm = w[m]
            for r in range(nr):
                i = rows[r]
                ar = wm * yr[m, i]
                ai = wm * yi[m, i]
                for j in range(col_lo[r], col_hi[r]):
                    acc_r[r, j] += ar * yr[m, j] + ai * yi[m, j]
                    acc_i[r, j] += ai * yr[m, j] - ar * yi[m, j]
        for r in range(nr):
            for j in range(col_lo[r], col_hi[r]):
                out[f, r, j] = complex(acc_r[r, j], acc_i[r, j])


def cross_sums(y: np.ndarray, rows: np.ndarray, col_lo: np.ndarray, col_hi: np.ndarray,
               w: np.ndarray) -> np.ndarray:
    """``G[f, r, j] = sum_m w[m] y[rows[r], f, m] conj(y[j, f, m])`` for ``col_lo[r] <= j < col_hi[r]``.

    ``y`` complex128 ``(channels, freqs, times)``; ``w`` float64 ``(times,)``.
    Returns complex128 ``(freqs, len(rows), channels)``, zero outside the
    columns asked for.

    Examples
    --------
    >>> y = np.random.default_rng(0).standard_normal((3, 2, 50)) * (1 + 1j)
    >>> g = cross_sums(y, np.array([2]), np.array([0]), np.array([3]), np.ones(50))
    >>> bool(np.allclose(g[1, 0, 1], np.sum(y[2, 1] * np.conj(y[1, 1]))))
    True
    """
    nc, nf, nt = y.shape
    out = np.zeros((nf, rows.size, nc), np.complex128)
    work = float(nt) * float(np.sum(col_hi - col_lo)) * 4.0
    parallel_for(_cross_tasks, nf, y, rows.astype(np.int64), col_lo.astype(np.int64),
                 col_hi.astype(np.int64), np.ascontiguousarray(w, np.float64), out,
                 work=work * nf, chunks=nf)
    return out


@kernel(nogil=True)
def _cross(y, a, b, f, m):
    """``y[a, f, m] conj(y[b, f, m])``."""
    u = y[a, f, m]
    v = y[b, f, m]
    return complex(u.real * v.real + u.imag * v.imag, u.imag * v.real - u.real * v.imag)


@kernel(nogil=True)
def _phase_tasks(lo, hi, y, px, py, kind, width, centre, inv_norm, rot_r, rot_i, out):
    """Tasks ``lo .. hi`` (``f * pairs + p``) of :func:`phase_sums`."""
    nc, nf, nt = y.shape
    npairs = px.size
    for t in range(lo, hi):
        f = t // npairs
        p = t - f * npairs
        a = px[p]
        b = py[p]
        box = 0j
        ep = 0j
        em = 0j
        rot_p = complex(rot_r, rot_i)
        rot_m = complex(rot_r, -rot_i)
        su_r = 0.0
        su_i = 0.0
        s_sign = 0.0
        s_abs = 0.0
        s_im = 0.0
        for m in range(nt + centre):
            s = _cross(y, a, b, f, m) if m < nt else 0j
            if kind == 0:
                c = s
            else:
                old = _cross(y, a, b, f, m - width) if 0 <= m - width < nt else 0j
                box = box + s - old
                if kind == 1:
                    ep = s + rot_p * (ep - old)
                    em = s + rot_m * (em - old)
                    c = (0.5 * box - 0.25 * (ep + em)) * inv_norm
                else:
                    c = box * inv_norm
            if m < centre:
                continue
            mag = math.hypot(c.real, c.imag)
            su_r += c.real / mag
            su_i += c.imag / mag
            im = c.imag
            if im > 0.0:
                s_sign += 1.0
            elif im < 0.0:
                s_sign -= 1.0
            elif im != im:
                s_sign += im
            s_abs += abs(im)
            s_im += im
        out[p, f, 0] = su_r
        out[p, f, 1] = su_i
        out[p, f, 2] = s_sign
        out[p, f, 3] = s_abs
        out[p, f, 4] = s_im


def phase_sums(y: np.ndarray, px: np.ndarray, py: np.ndarray, kind: int, width: int,
               inv_norm: float) -> np.ndarray:
    """Sums over time of the smoothed cross spectrum's unit phasor, sign, ``|Im|`` and ``Im``.

    For each pair ``(px[p], py[p])`` and frequency: ``c[n]`` is
    ``s = y[px] conj(y[py])`` smoothed by the kernel of ``width`` samples
    (``kind``: :data:`KIND_NONE`, :data:`KIND_HANN` (numpy's ``hanning(width)``
    times ``inv_norm``) or :data:`KIND_BOXCAR` (``inv_norm`` each)), centred
    as scipy's ``mode='same'`` and zero outside the record.  Returns float64
    ``(pairs, freqs, 5)``: ``sum Re(c/|c|)``, ``sum Im(c/|c|)``,
    ``sum sign(Im c)``, ``sum |Im c|``, ``sum Im c`` over the record.

    Examples
    --------
    >>> y = np.exp(1j * np.arange(40.0))[None, None, :] * np.array([1.0, 1j])[:, None, None]
    >>> s = phase_sums(y, np.array([1]), np.array([0]), KIND_NONE, 1, 1.0)
    >>> s[0, 0, :3].tolist()                 # y1 conj(y0) = i at every sample
    [0.0, 40.0, 40.0]
    """
    nc, nf, nt = y.shape
    out = np.empty((px.size, nf, 5))
    theta = 2.0 * math.pi / (width - 1) if kind == KIND_HANN else 0.0
    centre = (width - 1) // 2 if kind != KIND_NONE else 0
    parallel_for(_phase_tasks, nf * px.size, y, px.astype(np.int64), py.astype(np.int64),
                 int(kind), int(width), int(centre), float(inv_norm), math.cos(theta),
                 math.sin(theta), out, work=30.0 * nf * px.size * (nt + centre))
    return out
