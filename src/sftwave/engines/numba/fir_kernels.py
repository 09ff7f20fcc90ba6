"""The direct path's FIR, in numba: scipy's arithmetic, vectorised.  No validation.

scipy.ndimage.correlate1d (NI_Correlate1D) extends each line into a double
buffer and computes, for a symmetric filter (``|w[c+i] - w[c-i]| <= eps``),
``out = in[0] w[0] + sum_{j=-c}^{-1} (in[j] + in[-j]) w[j]`` (accumulated in that
order), with a difference for an antisymmetric filter and a plain sum
otherwise.  These kernels do the same operations, in the same order, for
every output sample, so their results are identical to scipy's bit for bit;
they only arrange the loops so that independent outputs are computed side by
side (along a line, or across the contiguous inner dimension when the axis is
not the last).  The kernels are serial over a range of tasks (blocks of a row's outputs,
or blocks of inner elements); :func:`sftwave.engines.numba.pool.parallel_for` runs them on all threads.
"""

from __future__ import annotations

import numpy as np

from ._jit import kernel, source_index

# scipy's symmetry test lives beside the same sums in numpy (numba-free); kept importable here
from ._scipy_sums import ANTISYMMETRIC, GENERAL, SYMMETRIC, symmetry  # noqa: F401

#: inner elements side by side in one task of :func:`fir_inner`
INNER_BLOCK = 256


#: outputs of a line computed together in one task of :func:`fir_lines` (where the output
#: is not the input): the extended block and its sums (2 x 8 KiB in float64, with a window of
#: up to 2,048 taps) stay in the first-level cache, and a long line is shared by the threads
LINE_BLOCK = 1024


#: Taps of :func:`fir_lines` per unit of the pool's work (``pool.SERIAL_WORK``): its loops
#: run four float64 outputs at a time and a symmetric kernel's taps in pairs (measured: a line
#: of sigma 4, 33 taps, gains from a second thread from about 60,000 samples on)
LINE_TAPS_PER_UNIT = 8.0


def line_block(n: int, in_place: bool) -> int:
    """The outputs per task of :func:`fir_lines` on lines of ``n`` samples: the whole line
    where it is filtered in place (a task reads its line whole before it writes it)."""
    return max(1, n) if in_place else LINE_BLOCK


@kernel(nogil=True)
def fir_lines(lo_task, hi_task, x2d, w, sym, mode, cval, out2d, block):
    """Correlate blocks ``lo_task <= t < hi_task`` of x2d's rows with the weights w (scipy's order).

    Task ``t`` is block ``t % blocks`` of row ``t // blocks``, ``block`` outputs
    (:func:`line_block`; ``rows * blocks`` tasks in all).  Each output is summed as scipy
    sums it, whatever the block.  ``out2d`` may be ``x2d`` where ``block`` is the whole row.
    """
    rows, n = x2d.shape
    blocks = -(-n // block)
    c = w.shape[0] // 2
    size2 = w.shape[0] - c - 1
    buf = np.empty(block + c + size2)
    acc = np.empty(block)
    # The tap loops read through slices, indexed from 0: with an index like
    # ``i + c + j`` (j < 0) numba cannot prove it non-negative, keeps its
    # negative-index test in the loop, and the loop does not vectorise
    # (docs/performance.md, *Figures behind the code's choices*).
    for task in range(lo_task, hi_task):
        r = task // blocks
        s = (task - r * blocks) * block
        m = min(block, n - s)
        x = x2d[r]
        # buf[t] holds the extended line at s - c + t, t < m + c + size2
        ext = m + c + size2
        left = min(ext, max(0, c - s))              # positions before the line
        right = max(left, min(ext, n - s + c))      # ... and the first one after it
        for t in range(left):
            jj = source_index(s - c + t, n, mode)
            buf[t] = cval if jj < 0 else x[jj]
        inside = x[s - c + left:s - c + right]
        for t in range(right - left):
            buf[left + t] = inside[t]
        for t in range(right, ext):
            jj = source_index(s - c + t, n, mode)
            buf[t] = cval if jj < 0 else x[jj]
        o = out2d[r, s:s + m]
        if sym == 1:
            centre = buf[c:c + m]
            for i in range(m):
                acc[i] = centre[i] * w[c]
            for j in range(-c, 0):
                wj = w[c + j]
                b1 = buf[c + j:c + j + m]
                b2 = buf[c - j:c - j + m]
                for i in range(m):
                    acc[i] += (b1[i] + b2[i]) * wj
        elif sym == -1:
            centre = buf[c:c + m]
            for i in range(m):
                acc[i] = centre[i] * w[c]
            for j in range(-c, 0):
                wj = w[c + j]
                b1 = buf[c + j:c + j + m]
                b2 = buf[c - j:c - j + m]
                for i in range(m):
                    acc[i] += (b1[i] - b2[i]) * wj
        else:
            last = buf[c + size2:c + size2 + m]
            for i in range(m):
                acc[i] = last[i] * w[c + size2]
            for j in range(-c, size2):
                wj = w[c + j]
                b1 = buf[c + j:c + j + m]
                for i in range(m):
                    acc[i] += b1[i] * wj
        for i in range(m):
            o[i] = acc[i]


@kernel(nogil=True)
def fir_inner(lo_task, hi_task, x3, w, sym, mode, cval, out3):
    """Correlate along axis 1 of x3 (outer, n, inner), the inner elements side by side.

    Tasks ``lo_task <= task < hi_task`` of ``outer * ceil(inner / INNER_BLOCK)``.
    Each task first copies its block of the input (n x INNER_BLOCK), so
    ``out3`` may be ``x3`` itself (filtering in place, as scipy's line buffers
    allow): :func:`sftwave.gaussian_filter` then needs one output array only.
    """
    outer, n, inner = x3.shape
    c = w.shape[0] // 2
    size2 = w.shape[0] - c - 1
    block = INNER_BLOCK
    nblocks = -(-inner // block)
    for task in range(lo_task, hi_task):
        o_idx = task // nblocks
        b0 = (task % nblocks) * block
        b1 = min(inner, b0 + block)
        nb = b1 - b0
        acc = np.empty(nb)
        col = np.empty((1, n, nb), dtype=x3.dtype)   # this block of the input, read first
        for i in range(n):
            src = x3[o_idx, i, b0:b1]
            dst = col[0, i]
            for t in range(nb):
                dst[t] = src[t]
        for i in range(n):
            if sym == 1:
                _row_into(col, 0, i, 0, nb, n, mode, cval, w[c], acc, True)
                for j in range(-c, 0):
                    _pair_into(col, 0, i + j, i - j, 0, nb, n, mode, cval, w[c + j], 1.0, acc)
            elif sym == -1:
                _row_into(col, 0, i, 0, nb, n, mode, cval, w[c], acc, True)
                for j in range(-c, 0):
                    _pair_into(col, 0, i + j, i - j, 0, nb, n, mode, cval, w[c + j], -1.0, acc)
            else:
                _row_into(col, 0, i + size2, 0, nb, n, mode, cval, w[c + size2], acc, True)
                for j in range(-c, size2):
                    _row_into(col, 0, i + j, 0, nb, n, mode, cval, w[c + j], acc, False)
            dst = out3[o_idx, i, b0:b1]
            for t in range(nb):
                dst[t] = acc[t]


@kernel(inline="always")
def _row_into(x3, o, k, b0, nb, n, mode, cval, wk, acc, first):
    """acc (=|+=) x_extended[k] * wk over the block."""
    src = k if 0 <= k < n else source_index(k, n, mode)
    if src < 0:
        v = cval * wk
        if first:
            for t in range(nb):
                acc[t] = v
        else:
            for t in range(nb):
                acc[t] += v
        return
    row = x3[o, src, b0:b0 + nb]   # indexed from 0: the loop vectorises (see fir_lines)
    if first:
        for t in range(nb):
            acc[t] = np.float64(row[t]) * wk
    else:
        for t in range(nb):
            acc[t] += np.float64(row[t]) * wk


@kernel(inline="always")
def _pair_into(x3, o, k1, k2, b0, nb, n, mode, cval, wk, sign, acc):
    """acc += (x_extended[k1] + sign x_extended[k2]) * wk over the block."""
    s1 = k1 if 0 <= k1 < n else source_index(k1, n, mode)
    s2 = k2 if 0 <= k2 < n else source_index(k2, n, mode)
    if s1 >= 0 and s2 >= 0:
        r1 = x3[o, s1, b0:b0 + nb]
        r2 = x3[o, s2, b0:b0 + nb]
        if sign > 0:
            for t in range(nb):
                acc[t] += (np.float64(r1[t]) + np.float64(r2[t])) * wk
        else:
            for t in range(nb):
                acc[t] += (np.float64(r1[t]) - np.float64(r2[t])) * wk
        return
    for t in range(nb):
        v1 = cval if s1 < 0 else np.float64(x3[o, s1, b0 + t])
        v2 = cval if s2 < 0 else np.float64(x3[o, s2, b0 + t])
        if sign > 0:
            acc[t] += (v1 + v2) * wk
        else:
            acc[t] += (v1 - v2) * wk
