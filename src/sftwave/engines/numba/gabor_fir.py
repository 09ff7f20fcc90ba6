"""Separable complex Gabor FIRs over blocks of rows: one pass per group of orientations.

A Gabor kernel whose Gaussian is separable along the axes is the product
``C(y) R(x)`` of two 1-D complex factors, ``C(y) = g_y(y) exp(i ky y)`` down
the columns and ``R(x) = g_x(x) exp(i kx x)`` along the rows.  Each factor's
real part is even and its imaginary part odd, so with the taps folded
(``x[i - k] +/- x[i + k]``) a real image needs, per output row:

* the vertical pass: ``A = image * Re C`` and ``B = image * Im C`` (the
  rows ``r - Rv .. r + Rv`` of the padded image, summed along the row, one
  contiguous loop per tap, which the compiler vectorises);
* the horizontal pass of ``A`` and ``B`` (kept in cache): ``A Re R``,
  ``A Im R``, ``B Re R``, ``B Im R``;
* the combination, for each orientation of the group (``kx`` and ``ky`` of
  the same magnitudes, signs ``sx``, ``sy``): ``w (A Re R - sx sy B Im R +
  i (sx A Im R + sy B Re R))``, written as one complex row.

Where ``ky = 0`` (``B = 0``) or ``kx = 0`` (``Im R = 0``) the terms that
vanish are not computed: such a factor is a real Gaussian.  The arithmetic
is the weights' dtype (float32 for float32 images).  Every output row is
computed by the same operations in the same order whatever block it falls
in, so the result does not depend on the thread count.
"""

from __future__ import annotations

import numpy as np

from ._jit import kernel
from .pool import parallel_for

__all__ = ["gabor_group_fir", "ROW_BLOCK"]

#: Output rows per task.
ROW_BLOCK = 16


@kernel(nogil=True)
def _group_rows(lo, hi, p, vc, vs, hc, hs, rv0, rh0, signs, w, out, t_index):
    """Output rows of blocks ``lo:hi`` (:data:`ROW_BLOCK` rows each) for one group.

    ``p`` is the image padded by ``rv0`` rows and ``rh0`` columns each side
    (at least the half-lengths of ``vc``/``hc`` less one); ``signs[m]`` the
    ``(sx, sy)`` of the group's m-th orientation, written to
    ``out[t_index[m]]`` (the complex output viewed as real: real and imaginary
    parts side by side) times the complex ``w[0] + i w[1]``.  Every loop over
    columns runs over contiguous slices (no index arithmetic inside), so that
    the compiler vectorises it.
    """
    rows = out.shape[1]
    cols = out.shape[2] // 2
    rv = vc.shape[0] - 1
    rh = hc.shape[0] - 1
    width = cols + 2 * rh
    dt = vc.dtype
    has_b = False
    for j in range(1, rv + 1):
        if vs[j] != 0:
            has_b = True
    has_i = False
    for j in range(1, rh + 1):
        if hs[j] != 0:
            has_i = True
    a = np.empty(width, dt)
    b = np.empty(width, dt)
    ar = np.empty(cols, dt)
    ai = np.zeros(cols, dt)
    br = np.zeros(cols, dt)
    bi = np.zeros(cols, dt)
    c0 = rh0 - rh                    # p's column of a[0]
    nt = signs.shape[0]
    wr = w[0]
    wi = w[1]
    for blk in range(lo, hi):
        r0 = blk * ROW_BLOCK
        r1 = min(rows, r0 + ROW_BLOCK)
        for r in range(r0, r1):
            pc = r + rv0             # p's row of output row r
            _vertical(p, pc, c0, width, vc, vs, rv, has_b, a, b)
            _horizontal(a, hc, hs, rh, cols, has_i, ar, ai)
            if has_b:
                _horizontal(b, hc, hs, rh, cols, has_i, br, bi)
            for m in range(nt):
                sx = signs[m, 0]
                sy = signs[m, 1]
                sxy = sx * sy
                o = out[t_index[m], r]
                for c in range(cols):
                    re = ar[c] - sxy * bi[c]
                    im = sx * ai[c] + sy * br[c]
                    o[2 * c] = wr * re - wi * im
                    o[2 * c + 1] = wr * im + wi * re


@kernel(nogil=True, inline="always")
def _vertical(p, pc, c0, width, vc, vs, rv, has_b, a, b):
    """``a = sum_j vc_j (row_{-j} + row_{+j})``, ``b = sum_j vs_j (row_{-j} - row_{+j})``."""
    w0 = vc[0]
    mid = p[pc, c0:c0 + width]
    for c in range(width):
        a[c] = w0 * mid[c]
    for j in range(1, rv + 1):
        wc = vc[j]
        up = p[pc - j, c0:c0 + width]
        dn = p[pc + j, c0:c0 + width]
        for c in range(width):
            a[c] += wc * (up[c] + dn[c])
    if has_b:
        for c in range(width):
            b[c] = 0
        for j in range(1, rv + 1):
            ws = vs[j]
            up = p[pc - j, c0:c0 + width]
            dn = p[pc + j, c0:c0 + width]
            for c in range(width):
                b[c] += ws * (up[c] - dn[c])


@kernel(nogil=True, inline="always")
def _horizontal(x, hc, hs, rh, cols, has_i, re, im):
    """``re = sum_j hc_j (x_{-j} + x_{+j})``, ``im = sum_j hs_j (x_{-j} - x_{+j})`` (centre ``rh``)."""
    h0 = hc[0]
    mid = x[rh:rh + cols]
    for c in range(cols):
        re[c] = h0 * mid[c]
    for j in range(1, rh + 1):
        wc = hc[j]
        left = x[rh - j:rh - j + cols]
        right = x[rh + j:rh + j + cols]
        for c in range(cols):
            re[c] += wc * (left[c] + right[c])
    if has_i:
        for c in range(cols):
            im[c] = 0
        for j in range(1, rh + 1):
            ws = hs[j]
            left = x[rh - j:rh - j + cols]
            right = x[rh + j:rh + j + cols]
            for c in range(cols):
                im[c] += ws * (left[c] - right[c])


def gabor_group_fir(padded: np.ndarray, vc: np.ndarray, vs: np.ndarray, hc: np.ndarray,
                    hs: np.ndarray, pad: tuple[int, int], signs: np.ndarray, weight: complex,
                    out: np.ndarray, t_index: np.ndarray) -> None:
    """One group of Gabor orientations by separable complex FIRs, into ``out[t_index[m]]``.

    Parameters
    ----------
    padded : ndarray
        The image (float32 or float64, the arithmetic's dtype) extended by
        ``pad = (rows, cols)`` samples on each side by the boundary mode.
    vc, vs : ndarray
        The vertical factor's real (even) and imaginary (odd) half kernels,
        ``vc[k] = Re C(k)``, ``vs[k] = Im C(k)`` for ``k = 0 .. Rv``
        (``Rv <= pad[0]``), in ``padded``'s dtype.
    hc, hs : ndarray
        The horizontal factor's, likewise (``Rh <= pad[1]``).
    signs : ndarray
        ``(M, 2)`` of the signs ``(sx, sy)`` of each orientation's ``kx``, ``ky``
        (``hs``, ``vs`` are for positive signs).
    weight : complex
        The factor applied to each output (the kernel's scale and phase).
    out : ndarray
        Complex, ``(T, rows, cols)``, C-contiguous rows; ``out[t_index[m]]`` is written.
    t_index : ndarray
        ``(M,)`` int64.

    Examples
    --------
    >>> img = np.zeros((5, 5)); img[2, 2] = 1.0
    >>> out = np.empty((1, 5, 5), complex)
    >>> half = np.array([1.0, 0.5])
    >>> gabor_group_fir(np.pad(img, 1), half, 0 * half, half, 0 * half, (1, 1),
    ...                 np.ones((1, 2)), 1.0, out, np.zeros(1, np.int64))
    >>> out[0, 1:4, 1:4].real.tolist()
    [[0.25, 0.5, 0.25], [0.5, 1.0, 0.5], [0.25, 0.5, 0.25]]
    """
    dt = padded.dtype
    rows, cols = out.shape[1:]
    if out.dtype != np.result_type(dt, np.complex64) or not out[0].flags.c_contiguous:
        raise ValueError("out must be C-contiguous complex of the padded image's precision")
    ntasks = -(-rows // ROW_BLOCK)
    work = float(rows) * cols * (2 * vc.size + 4 * hc.size + 4 * len(t_index))
    w = np.array([complex(weight).real, complex(weight).imag], dtype=dt)
    real_out = out.view(dt).reshape(out.shape[0], rows, 2 * cols)
    parallel_for(_group_rows, ntasks, padded, vc.astype(dt), vs.astype(dt), hc.astype(dt),
                 hs.astype(dt), int(pad[0]), int(pad[1]), signs.astype(dt), w, real_out,
                 t_index.astype(np.int64), work=work)
