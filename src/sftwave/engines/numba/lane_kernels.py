"""Numba kernel of the throughput engine: many recursions side by side.  No validation.

A *lane* is one windowed complex recursion set (one plan on one stretch of one
extended line).  Lanes are run in groups of W side by side, in
structure-of-arrays form (``state[p, lane]``), so that the innermost loop runs
over lanes with no branch and vectorises; groups run side by side on
sftwave's thread pool (:func:`sftwave.engines.numba.pool.parallel_for`; each kernel here is
serial over a range of groups or rows).  Lane ``l``
of group ``g`` starts empty at ``m = start``, reads ``xe[row, m + shift]`` (and
the sample leaving its window, ``L`` earlier, once ``L`` samples have entered)
until its last output, and zeros after it (a lane never reads beyond what its
own outputs need, so the extended line is only as long as they need) and, for
``m`` in the group's range, writes its output ``n = m - off`` when
``lane_nlo <= n < lane_nhi`` and ``n`` is a multiple of ``decim`` (all lanes of a
group share the phase of ``m`` modulo ``decim``, so between outputs the
combination is skipped).

Output kinds: 0 real (one channel), 1 complex (two channels), 2 power, 3 abs,
4 phase (one channel).
"""

from __future__ import annotations

import math

import numpy as np

from ._jit import kernel, source_index


REAL, COMPLEX, POWER, ABS, PHASE = 0, 1, 2, 3, 4


@kernel(nogil=True, noalias=True)
def run_lanes(lo_group, hi_group, xe, lane_row, lane_shift, lane_L, lane_start, lane_off,
              lane_out, lane_nlo, lane_nhi, m_lo, m_hi, m_steady, m_stop, phase, wr, wi, cr, ci,
              ar, br, ai, bi, base_r, base_i, decim, kind, out):
    """Run the groups ``lo_group <= g < hi_group`` of lanes (see :func:`run_group`).

    Serial and cached on disk; ``noalias`` (see :mod:`sftwave._jit`): ``xe``
    is the engine's own buffer, and no two arguments share memory.  (While
    this was numba's ``parallel=True``
    kernel, a second process that loaded several of its specialisations from
    numba's cache crashed, numba 0.68.1; the serial kernel does not.)
    """
    for g in range(lo_group, hi_group):
        run_group(g, xe, lane_row, lane_shift, lane_L, lane_start, lane_off, lane_out, lane_nlo,
                  lane_nhi, m_lo, m_hi, m_steady, m_stop, phase, wr, wi, cr, ci, ar, br, ai, bi,
                  base_r, base_i, decim, kind, out)


@kernel(inline="always")
def run_group(g, xe, lane_row, lane_shift, lane_L, lane_start, lane_off, lane_out, lane_nlo,
              lane_nhi, m_lo, m_hi, m_steady, m_stop, phase, wr, wi, cr, ci, ar, br, ai, bi,
              base_r, base_i, decim, kind, out):
    """Run group ``g`` of lanes; see the module docstring for the arguments' meaning.

    Inlined into :func:`run_lanes` (a call per group cost 1.3-2.4 times the
    time, measured: the loops no longer vectorised as well).

    Shapes: ``lane_*`` and ``base_*`` (G, W); ``m_lo``, ``m_hi``, ``m_steady``,
    ``m_stop``, ``phase`` (G,); the component arrays ``wr .. bi`` (G, P, W), in the
    state's dtype; ``out`` (rows, outputs // decim rounded up, channels).  From
    ``m_steady`` on, every lane of the group has started and has ``L`` samples
    behind it, and until ``m_stop`` no lane has passed its last output, so the
    reads between need no test.  Outside that range a lane reads its sample
    only between its start and its last output (``lane_off + lane_nhi - 1``),
    zero otherwise.  (The loops are written out in full:
    numba's inlined helpers cost a quarter of the speed here, measured.)
    """
    G, P, W = wr.shape
    if True:
        sr = np.zeros((P, W), dtype=wr.dtype)
        si = np.zeros((P, W), dtype=wr.dtype)
        xn = np.zeros(W, dtype=wr.dtype)
        xo = np.zeros(W, dtype=wr.dtype)
        accr = np.zeros(W, dtype=wr.dtype)
        acci = np.zeros(W, dtype=wr.dtype)
        steady = m_steady[g]
        stop = m_stop[g]
        for m in range(m_lo[g], m_hi[g]):
            if m < steady or m >= stop:
                if m < stop:
                    for j in range(W):
                        # a lane starts empty at its own first sample: nothing enters
                        # before it, nothing leaves until L samples have entered
                        s = m + lane_shift[g, j]
                        t = m - lane_start[g, j]
                        xn[j] = xe[lane_row[g, j], s] if t >= 0 else 0.0
                        xo[j] = xe[lane_row[g, j], s - lane_L[g, j]] if t >= lane_L[g, j] else 0.0
                else:
                    for j in range(W):
                        # ... and after its last output it reads nothing (its state is
                        # no longer used)
                        s = m + lane_shift[g, j]
                        t = m - lane_start[g, j]
                        live = m - lane_off[g, j] < lane_nhi[g, j]
                        xn[j] = xe[lane_row[g, j], s] if t >= 0 and live else 0.0
                        xo[j] = (xe[lane_row[g, j], s - lane_L[g, j]]
                                 if t >= lane_L[g, j] and live else 0.0)
            else:
                for j in range(W):
                    s = m + lane_shift[g, j]
                    xn[j] = xe[lane_row[g, j], s]
                    xo[j] = xe[lane_row[g, j], s - lane_L[g, j]]
            if decim != 1 and (m - phase[g]) % decim != 0:
                # between outputs: advance the recursions only
                for p in range(P):
                    for j in range(W):
                        a = wr[g, p, j] * sr[p, j] - wi[g, p, j] * si[p, j] + xn[j] - cr[g, p, j] * xo[j]
                        b = wr[g, p, j] * si[p, j] + wi[g, p, j] * sr[p, j] - ci[g, p, j] * xo[j]
                        sr[p, j] = a
                        si[p, j] = b
                continue
            for j in range(W):
                accr[j] = base_r[g, j]
                acci[j] = base_i[g, j]
            for p in range(P):
                for j in range(W):
                    a = wr[g, p, j] * sr[p, j] - wi[g, p, j] * si[p, j] + xn[j] - cr[g, p, j] * xo[j]
                    b = wr[g, p, j] * si[p, j] + wi[g, p, j] * sr[p, j] - ci[g, p, j] * xo[j]
                    sr[p, j] = a
                    si[p, j] = b
                    accr[j] += ar[g, p, j] * a + br[g, p, j] * b
                    acci[j] += ai[g, p, j] * a + bi[g, p, j] * b
            if kind == COMPLEX:
                for j in range(W):
                    n = m - lane_off[g, j]
                    if n >= lane_nlo[g, j] and n < lane_nhi[g, j]:
                        out[lane_out[g, j], n // decim, 0] = accr[j]
                        out[lane_out[g, j], n // decim, 1] = acci[j]
            else:
                for j in range(W):
                    n = m - lane_off[g, j]
                    if n < lane_nlo[g, j] or n >= lane_nhi[g, j]:
                        continue
                    if kind == REAL:
                        v = accr[j]
                    elif kind == POWER:
                        v = accr[j] * accr[j] + acci[j] * acci[j]
                    elif kind == ABS:
                        v = math.sqrt(accr[j] * accr[j] + acci[j] * acci[j])
                    else:
                        v = math.atan2(acci[j], accr[j])
                    out[lane_out[g, j], n // decim, 0] = v


@kernel(nogil=True)
def extend_rows(lo_i, hi_i, x2d, rows, lo, length, front, mode, cval, centre, xe):
    """xe[i, front + t] = (x2d[rows[i]] extended at position lo + t) - centre[i]; zeros around.

    For ``lo_i <= i < hi_i``.
    """
    for i in range(lo_i, hi_i):
        x = x2d[rows[i]]
        n = x.shape[0]
        c = centre[i]
        for t in range(front):
            xe[i, t] = 0.0
        for t in range(length):
            k = lo + t
            if 0 <= k < n:
                xe[i, front + t] = x[k] - c
            else:
                j = source_index(k, n, mode)
                xe[i, front + t] = (cval if j < 0 else x[j]) - c
        for t in range(front + length, xe.shape[1]):
            xe[i, t] = 0.0
