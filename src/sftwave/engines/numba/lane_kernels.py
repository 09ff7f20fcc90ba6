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
4 phase (one channel); and the sums over lanes, added to ``out`` (which the
caller zeroes): 5 the power (one channel), 6 the unit phasor ``y / |y|`` (two
channels), 7 both (three: power, real and imaginary part of the phasor).
Lanes that add into the same output row are in the same *task* (a run of
groups, ``task_groups``): a task's groups run in order on one thread, so the
sums are the same bits whatever the thread count.

Two kernels run the same groups: ``run_lanes_16``, the engine's (16 lanes,
blocks of steps on explicit vectors, ``.vectors``: the faster one, close to
the arithmetic bound on AVX-512; figures in docs/performance.md, *The CWT
engine*; one kernel per output kind, :data:`RUN_LANES_16`, so that a call
compiles only its own kind's output code), and :func:`run_lanes`, any width,
plain loops that numba vectorises over the lanes; the tests check both
against the bank.
"""

from __future__ import annotations

import math

import numpy as np

from ._jit import kernel, source_index
from .vectors import WIDTH as VECTOR_WIDTH
from .vectors import div, fma, fms, fnma, load16, mul, sqrt, store16

REAL, COMPLEX, POWER, ABS, PHASE = 0, 1, 2, 3, 4
SUM_POWER, SUM_UNIT, SUM_BOTH = 5, 6, 7

#: Rows of a component's coefficients in ``coefs[g, p]``: w, w^L, output weights.
WR, WI, CR, CI, AR, BR, AI, BI = 0, 1, 2, 3, 4, 5, 6, 7


#: The width the engine runs at (``lanes.DEFAULT_WIDTH``): one :class:`.vectors.LaneVector`.
WIDTH = VECTOR_WIDTH


@kernel(nogil=True, noalias=True, error_model="numpy")
def run_lanes(lo_task, hi_task, task_groups, xe, lane_row, lane_shift, lane_L, lane_start,
              lane_off, lane_out, lane_nlo, lane_nhi, m_lo, m_hi, m_steady, m_stop, phase, group_P,
              group_coefs, coefs, base_r, base_i, decim, kind, out):
    """Run the groups of tasks ``lo_task <= k < hi_task`` (groups ``task_groups[k]`` to
    ``task_groups[k + 1]``, in order; see :func:`run_group`), any width.

    Serial and cached on disk; ``noalias`` (see ``sftwave._jit``): ``xe``
    is the engine's own buffer, and no two arguments share memory.  numpy's
    error model: a division by zero is IEEE's (the phasor of a zero
    coefficient is NaN), not an exception.  (While
    this was numba's ``parallel=True``
    kernel, a second process that loaded several of its specialisations from
    numba's cache crashed, numba 0.68.1; the serial kernel does not.)
    """
    for g in range(task_groups[lo_task], task_groups[hi_task]):
        run_group(g, xe, lane_row, lane_shift, lane_L, lane_start, lane_off, lane_out, lane_nlo,
                  lane_nhi, m_lo, m_hi, m_steady, m_stop, phase, group_P, group_coefs, coefs, base_r,
                  base_i, decim, kind, out, coefs.shape[3])


@kernel(inline="always")
def run_group(g, xe, lane_row, lane_shift, lane_L, lane_start, lane_off, lane_out, lane_nlo,
              lane_nhi, m_lo, m_hi, m_steady, m_stop, phase, group_P, group_coefs, coefs, base_r, base_i,
              decim, kind, out, W):
    """Run group ``g`` of lanes; see the module docstring for the arguments' meaning.

    Inlined into :func:`run_lanes` (a call per group was measurably slower:
    the loops no longer vectorised as well; docs/performance.md, *Figures
    behind the code's choices*).

    Shapes: ``lane_*`` and ``base_*`` (G, W); ``m_lo``, ``m_hi``, ``m_steady``,
    ``m_stop``, ``phase`` and ``group_P`` (the group's number of components, the
    most of its lanes' plans) (G,); ``coefs`` (K, P, 8, W) in the state's dtype, group
    ``g``'s at ``group_coefs[g]`` (groups of the same plans share them), for
    each component ``w`` (real, imaginary), ``w^L`` (real, imaginary) and the
    output weights ``ar, br, ai, bi`` (:data:`WR` .. :data:`BI`); ``out`` (rows,
    outputs // decim rounded up, channels).  A component's eight rows lie side
    by side and the state of each is one (2, W) block, so the inner loops read
    through one base pointer each (with the eight coefficient arrays apart,
    their index arithmetic and its register spills outweighed the arithmetic).
    From ``m_steady`` on, every lane of the group has started and has ``L``
    samples behind it, and until ``m_stop`` no lane has passed its last output,
    so the reads between need no test.  Outside that range a lane reads its
    sample only between its start and its last output (``lane_off + lane_nhi -
    1``), zero otherwise.  (The loops are written out in full: numba's inlined
    helpers were measurably slower here, docs/performance.md.)
    """
    P = group_P[g]
    if True:
        cg = coefs[group_coefs[g]]
        st = np.zeros((P, 2, W), dtype=coefs.dtype)
        xn = np.zeros(W, dtype=coefs.dtype)
        xo = np.zeros(W, dtype=coefs.dtype)
        acc = np.zeros((2, W), dtype=coefs.dtype)
        accr = acc[0]
        acci = acc[1]
        steady = m_steady[g]
        stop = m_stop[g]
        # the steady reads as offsets into the flat buffer (one index per lane, no
        # row arithmetic in the loop)
        xf = xe.reshape(xe.size)
        src_new = np.empty(W, dtype=np.int64)
        src_L = np.empty(W, dtype=np.int64)
        for j in range(W):
            src_new[j] = lane_row[g, j] * xe.shape[1] + lane_shift[g, j]
            src_L[j] = lane_L[g, j]
        # steps since the last output (m - phase mod decim), counted rather than divided:
        # a 64-bit division per step cost more than a component's update
        since = (m_lo[g] - phase[g]) % decim
        for m in range(m_lo[g], m_hi[g]):
            this = since
            since += 1
            if since == decim:
                since = 0
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
                    s = m + src_new[j]
                    xn[j] = xf[s]
                    xo[j] = xf[s - src_L[j]]
            if this != 0:
                # between outputs: advance the recursions only (indexed in full: a slice
                # here is a reference-counted view, two calls into numba's runtime)
                for p in range(P):
                    for j in range(W):
                        a = (cg[p, WR, j] * st[p, 0, j] - cg[p, WI, j] * st[p, 1, j] + xn[j]
                             - cg[p, CR, j] * xo[j])
                        b = (cg[p, WR, j] * st[p, 1, j] + cg[p, WI, j] * st[p, 0, j]
                             - cg[p, CI, j] * xo[j])
                        st[p, 0, j] = a
                        st[p, 1, j] = b
                continue
            for j in range(W):
                accr[j] = base_r[g, j]
                acci[j] = base_i[g, j]
            for p in range(P):
                for j in range(W):
                    a = (cg[p, WR, j] * st[p, 0, j] - cg[p, WI, j] * st[p, 1, j] + xn[j]
                         - cg[p, CR, j] * xo[j])
                    b = (cg[p, WR, j] * st[p, 1, j] + cg[p, WI, j] * st[p, 0, j]
                         - cg[p, CI, j] * xo[j])
                    st[p, 0, j] = a
                    st[p, 1, j] = b
                    accr[j] += cg[p, AR, j] * a + cg[p, BR, j] * b
                    acci[j] += cg[p, AI, j] * a + cg[p, BI, j] * b
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
                    if kind >= SUM_POWER:
                        pw = accr[j] * accr[j] + acci[j] * acci[j]
                        r = lane_out[g, j]
                        k = n // decim
                        if kind != SUM_UNIT:
                            out[r, k, 0] += pw
                        if kind != SUM_POWER:
                            inv = 1.0 / math.sqrt(pw)
                            c = 0 if kind == SUM_UNIT else 1
                            out[r, k, c] += accr[j] * inv
                            out[r, k, c + 1] += acci[j] * inv
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


#: Steps of a block in ``run_lanes_16`` (:func:`_lanes_16`): each component runs this many steps
#: with its state in registers before the next component's.
BLOCK = 128


@kernel(nogil=True)
def extended_at(xs, r, col, lo, front, length, mode, cval, c):
    """What :func:`~.extended_rows.extend_rows` writes at ``xe[i, col]`` for row ``r`` of ``xs`` and centre ``c``."""
    if col < front or col >= front + length:
        return 0.0
    n = xs.shape[1]
    j = lo + col - front
    if 0 <= j < n:
        return xs[r, j] - c
    s = source_index(j, n, mode)
    return (cval if s < 0 else xs[r, s]) - c


def _lanes_16(KIND: int):
    """The kernel :func:`run_lanes` runs for groups of exactly 16 lanes, for output kind ``KIND``.

    ``KIND`` is a constant of the kernel (numba prunes the other kinds' branches
    before typing them): a call compiles only its own output code (the phases'
    arctangent, the sums' trees), not the seven others'.  The ``kind``
    argument is ``KIND`` (kept, so that the arguments are :func:`run_lanes`'s).
    Each kind's kernel is a module attribute of its own, ``run_lanes_16_<kind>``
    (:data:`RUN_LANES_16`), so that numba caches it on disk apart.
    """

    @kernel(nogil=True, noalias=True, error_model="numpy")
    def run_lanes_16(lo_task, hi_task, task_groups, xe, lane_row, lane_shift, lane_L, lane_start,
                     lane_off, lane_out, lane_nlo, lane_nhi, m_lo, m_hi, m_steady, m_stop,
                     phase, group_P, group_coefs, coefs, base_r, base_i, decim, kind, out,
                     direct, xs, xs_row, xs_centre, lo, front, length, mode, cval, m_in_lo, m_in_hi):
        """:func:`run_lanes` for groups of exactly 16 lanes, in blocks of :data:`BLOCK` steps, on explicit vectors.

        Same arguments and results up to rounding (the recursions and the sums of
        the outputs are fused multiply-adds, rounded once, where :func:`run_lanes`
        rounds every product and sum).  For each block, the
        samples of every step are gathered first, then each component runs the
        whole block with its coefficients and its state held in registers as
        :class:`~sftwave.engines.numba.vectors.LaneVector` values, adding its
        share to the block's output steps; then the outputs are written.

        With ``direct``, ``xe`` is not made: the samples are read from the
        C-contiguous rows ``xs`` (row ``xs_row[i]`` for ``xe``'s row ``i``, minus
        ``xs_centre[i]``), exactly what :func:`~.extended_rows.extend_rows` (``lo``, ``front``,
        ``length``, ``mode``, ``cval``) would have written there: between
        ``m_in_lo[g]`` and ``m_in_hi[g]`` every read of group ``g`` lies inside its
        row, elsewhere :func:`extended_at` extends it.  One pass over the samples
        fewer (a copy as large as the input).  ``direct`` is ``xs is not None``:
        without it ``xs`` is None, and numba prunes the direct reads before typing
        them (a specialisation of its own, so that a call compiles only the reads
        it makes).
        """
        P = coefs.shape[1]
        W = WIDTH
        T = BLOCK
        dt = coefs.dtype
        cf = coefs.reshape(coefs.size)
        xf = xe.reshape(xe.size)
        # two allocations cut into the buffers (an allocation of another dtype or shape
        # is one more numba overload for the first call to compile, 0.1 to 0.5 s each)
        nst = P * 2 * W
        fbuf = np.empty(nst + 5 * T * W + 2 * W, dtype=dt)
        fbuf[:] = 0.0
        st = fbuf[:nst]
        xb = fbuf[nst:nst + 2 * T * W]
        accb = fbuf[nst + 2 * T * W:nst + 5 * T * W]   # real, imaginary (and power, for the sums)
        ones = fbuf[nst + 5 * T * W:nst + 5 * T * W + W]
        ones[:] = 1.0
        c_new = fbuf[nst + 5 * T * W + W:]
        if KIND == PHASE:
            phb = np.zeros(T * W)                # the phases of a block's output steps (float64)
        ibuf = np.empty(5 * W, dtype=np.int64)
        src_new = ibuf[:W]
        src_L = ibuf[W:2 * W]
        kbase = ibuf[2 * W:3 * W]
        klo = ibuf[3 * W:4 * W]
        khi = ibuf[4 * W:]
        if xs is not None:
            xsf = xs.reshape(xs.size)
        for g in range(task_groups[lo_task], task_groups[hi_task]):
            st[:] = 0.0
            steady = m_steady[g]
            stop = m_stop[g]
            for j in range(W):
                src_L[j] = lane_L[g, j]
                if xs is not None:   # xe's column s is xs's sample lo + s - front of its row
                    src_new[j] = (xs_row[lane_row[g, j]] * xs.shape[1] + lane_shift[g, j] + lo
                                  - front)
                    c_new[j] = xs_centre[lane_row[g, j]]
                else:
                    src_new[j] = lane_row[g, j] * xe.shape[1] + lane_shift[g, j]
            if xs is not None:       # the steps whose reads all lie inside their rows
                steady = max(steady, m_in_lo[g])
                stop_fast = min(stop, m_in_hi[g])
            else:
                stop_fast = stop
            cbase = group_coefs[g] * P * 8 * W
            Pg = group_P[g]       # the group's components (the others' coefficients are zero)
            # steps since the last output at the block's first step
            since = (m_lo[g] - phase[g]) % decim
            # Output k of lane j (its n = k decim) comes at the group's output step
            # number k - kbase[j]: all lanes share the phase of m modulo decim, so one
            # count of output steps indexes every lane's output, with no division per step.
            m_first = m_lo[g] + (decim - since) % decim
            for j in range(W):
                kbase[j] = (m_first - lane_off[g, j]) // decim
                klo[j] = -(-lane_nlo[g, j] // decim)
                khi[j] = -(-lane_nhi[g, j] // decim)
            oc = 0
            for m0 in range(m_lo[g], m_hi[g], T):
                nt = min(T, m_hi[g] - m0)
                for t in range(nt):
                    m = m0 + t
                    i_new = t * W
                    i_old = (T + t) * W
                    if m < steady or m >= stop_fast:
                        for j in range(W):
                            s = m + lane_shift[g, j]
                            u = m - lane_start[g, j]
                            live = m < stop or m - lane_off[g, j] < lane_nhi[g, j]
                            if xs is not None:
                                i = lane_row[g, j]
                                xb[i_new + j] = (extended_at(xs, xs_row[i], s, lo, front, length, mode,
                                                             cval, xs_centre[i])
                                                 if u >= 0 and live else 0.0)
                                xb[i_old + j] = (extended_at(xs, xs_row[i], s - lane_L[g, j], lo, front,
                                                             length, mode, cval, xs_centre[i])
                                                 if u >= lane_L[g, j] and live else 0.0)
                            else:
                                xb[i_new + j] = xe[lane_row[g, j], s] if u >= 0 and live else 0.0
                                xb[i_old + j] = (xe[lane_row[g, j], s - lane_L[g, j]]
                                                 if u >= lane_L[g, j] and live else 0.0)
                    elif xs is not None:
                        for j in range(W):   # unsigned: no negative-index tests
                            s = m + src_new[j]
                            xb[np.uint64(i_new + j)] = xsf[np.uint64(s)] - c_new[j]
                            xb[np.uint64(i_old + j)] = xsf[np.uint64(s - src_L[j])] - c_new[j]
                    else:
                        for j in range(W):   # unsigned: no negative-index tests
                            s = m + src_new[j]
                            xb[np.uint64(i_new + j)] = xf[np.uint64(s)]
                            xb[np.uint64(i_old + j)] = xf[np.uint64(s - src_L[j])]
                first = (decim - since) % decim       # the block's first output step
                for t in range(first, nt, decim):
                    for j in range(W):
                        accb[t * W + j] = base_r[g, j]
                        accb[(T + t) * W + j] = base_i[g, j]
                # one component at a time: its 16 lanes are two AVX-512 or four AVX2 registers
                # per value, chains enough to keep the multiply-add units busy, and its state
                # stays in registers (two at a time spilled it on AVX2: a 1e5 x 200 scalogram
                # took 12 to 48 % longer); the components add their shares in order, as before
                for p in range(Pg):
                    c = cbase + p * 8 * W
                    wr, wi, cr, ci = (load16(cf, c + WR * W), load16(cf, c + WI * W),
                                      load16(cf, c + CR * W), load16(cf, c + CI * W))
                    ar, br, ai, bi = (load16(cf, c + AR * W), load16(cf, c + BR * W),
                                      load16(cf, c + AI * W), load16(cf, c + BI * W))
                    a = load16(st, p * 2 * W)
                    b = load16(st, p * 2 * W + W)
                    nxt = first
                    for t in range(nt):
                        xn = load16(xb, t * W)
                        xo = load16(xb, (T + t) * W)
                        # a + ib <- w (a + ib) + x_new - w^L x_old
                        an = fma(wr, a, fnma(wi, b, fnma(cr, xo, xn)))
                        b = fma(wr, b, fms(wi, a, mul(ci, xo)))
                        a = an
                        if t == nxt:
                            nxt += decim
                            store16(accb, t * W, fma(br, b, fma(ar, a, load16(accb, t * W))))
                            if KIND != REAL:
                                store16(accb, (T + t) * W,
                                        fma(bi, b, fma(ai, a, load16(accb, (T + t) * W))))
                    store16(st, p * 2 * W, a)
                    store16(st, p * 2 * W + W, b)
                # the block's outputs, lane by lane: each lane's run is contiguous in
                # ``out`` (writing the lanes side by side, step by step, scattered the
                # stores over 16 rows and cost as much as the recursions).  Indices are
                # unsigned (never negative here): numba then leaves out its test for
                # negative indices, a fifth of the time of a filter's real output.
                nout = (nt - first + decim - 1) // decim if nt > first else 0
                if KIND == PHASE:
                    _lane_phases(accb, phb, first, nout, decim)
                if KIND >= SUM_POWER:
                    _lane_sums(accb, first, nout, decim, KIND, ones)
                    _add_sums(accb, first, nout, decim, KIND, oc, kbase, klo, khi, lane_out, g, out)
                    oc += nout
                    since = (since + nt) % decim
                    continue
                for j in range(W):
                    q0 = oc + kbase[j]
                    r = np.uint64(lane_out[g, j])
                    i_lo = max(0, klo[j] - q0)
                    i_hi = min(nout, khi[j] - q0)
                    zero = np.uint64(0)
                    one = np.uint64(1)
                    for i in range(i_lo, i_hi):
                        q = np.uint64(q0 + i)
                        ir = np.uint64((first + i * decim) * W + j)
                        ii = ir + np.uint64(T * W)
                        if KIND == REAL:
                            out[r, q, zero] = accb[ir]
                        elif KIND == COMPLEX:
                            out[r, q, zero] = accb[ir]
                            out[r, q, one] = accb[ii]
                        elif KIND == POWER:
                            out[r, q, zero] = accb[ir] * accb[ir] + accb[ii] * accb[ii]
                        elif KIND == ABS:
                            out[r, q, zero] = math.sqrt(accb[ir] * accb[ir] + accb[ii] * accb[ii])
                        else:
                            out[r, q, zero] = phb[np.uint64(i * W + j)]
                oc += nout
                since = (since + nt) % decim

    return run_lanes_16


run_lanes_16_real = _lanes_16(REAL)
run_lanes_16_complex = _lanes_16(COMPLEX)
run_lanes_16_power = _lanes_16(POWER)
run_lanes_16_abs = _lanes_16(ABS)
run_lanes_16_phase = _lanes_16(PHASE)
run_lanes_16_sum_power = _lanes_16(SUM_POWER)
run_lanes_16_sum_unit = _lanes_16(SUM_UNIT)
run_lanes_16_sum_both = _lanes_16(SUM_BOTH)

#: The explicit-vector kernel of each output kind code (:func:`_lanes_16`).
RUN_LANES_16 = {REAL: run_lanes_16_real, COMPLEX: run_lanes_16_complex, POWER: run_lanes_16_power,
                ABS: run_lanes_16_abs, PHASE: run_lanes_16_phase, SUM_POWER: run_lanes_16_sum_power,
                SUM_UNIT: run_lanes_16_sum_unit, SUM_BOTH: run_lanes_16_sum_both}

#: atan's rational approximation on [-0.66, 0.66] (Cephes' ``atan``: relative error about 1e-16).
_ATAN_P = (-8.750608600031904122785e-1, -1.615753718733365076637e1, -7.500855792314704667340e1,
           -1.228866684490136173410e2, -6.485021904942025371773e1)
_ATAN_Q = (2.485846490142306297962e1, 1.650270098316988542046e2, 4.328810604912902668951e2,
           4.853903996359136964868e2, 1.945506571482613964425e2)
_MOREBITS = 6.123233995736765886130e-17


@kernel(inline="always")
def atan2(y, x):
    """``atan2(y, x)`` in float64 without branches (so that a loop over lanes vectorises).

    The angle of ``t = min / max`` of the moduli (above 0.66, of ``(min - max) /
    (min + max)``, plus ``pi / 4``: one division either way), Cephes'
    rational approximation, then the octant: within about two units in the
    last place of libm's ``atan2``.  0 at the origin; NaN where either part
    is NaN or infinite (finite input never gives one).
    """
    ax = abs(x)
    ay = abs(y)
    big = max(ax, ay)
    small = min(ax, ay)
    upper = small > 0.66 * big
    t = (small - big if upper else small) / ((small + big if upper else big) if big > 0.0 else 1.0)
    z = t * t
    num = (((_ATAN_P[0] * z + _ATAN_P[1]) * z + _ATAN_P[2]) * z + _ATAN_P[3]) * z + _ATAN_P[4]
    den = ((((z + _ATAN_Q[0]) * z + _ATAN_Q[1]) * z + _ATAN_Q[2]) * z + _ATAN_Q[3]) * z + _ATAN_Q[4]
    r = t + t * (z * num / den)
    r = (r + 0.5 * _MOREBITS) + math.pi / 4 if upper else r
    r = (math.pi / 2 - r) if ay > ax else r
    r = (math.pi - r) if x < 0.0 else r
    r = r + (x * 0.0 + y * 0.0)      # NaN where either is NaN or infinite
    return -r if y < 0.0 else r


#: Cephes' ``atanf`` polynomial on [-tan(pi / 8), tan(pi / 8)] (float32: about one unit in the last place).
_ATANF = (np.float32(8.05374449538e-2), np.float32(-1.38776856032e-1), np.float32(1.99777106478e-1),
          np.float32(-3.33329491539e-1))
_F32_PI_4 = np.float32(math.pi / 4)
_F32_PI_2 = np.float32(math.pi / 2)
_F32_PI = np.float32(math.pi)
_F32_TAN_PI_8 = np.float32(0.4142135623730950)
_F32_ZERO = np.float32(0.0)
_F32_ONE = np.float32(1.0)


@kernel(inline="always")
def atan2_single(y, x):
    """:func:`atan2` in float32 arithmetic (for float32 state, whose values carry float32's
    precision): one division, then Cephes' ``atanf`` polynomial; within about 2e-7 radians."""
    ax = abs(x)
    ay = abs(y)
    big = max(ax, ay)
    small = min(ax, ay)
    upper = small > _F32_TAN_PI_8 * big
    t = (small - big if upper else small) / ((small + big if upper else big) if big > _F32_ZERO
                                             else _F32_ONE)
    z = t * t
    r = (((_ATANF[0] * z + _ATANF[1]) * z + _ATANF[2]) * z + _ATANF[3]) * z * t + t
    r = r + _F32_PI_4 if upper else r
    r = (_F32_PI_2 - r) if ay > ax else r
    r = (_F32_PI - r) if x < _F32_ZERO else r
    r = r + (x * _F32_ZERO + y * _F32_ZERO)
    return -r if y < _F32_ZERO else r


@kernel(nogil=True, error_model="numpy")
def _lane_phases(accb, phb, first, nout, decim):
    """The phases of the block's output steps, 16 lanes side by side: ``phb[i W + j]`` (float64;
    computed in the state's precision).

    A function of its own, not inlined into the lane kernel: compiled with numpy's error
    model, its division needs no zero test and the loop over the lanes vectorises (inlined,
    it ran at several times the cost, about 7 to 17 ns a value against 2.4).
    """
    W = WIDTH
    T = BLOCK
    for i in range(nout):
        t = first + i * decim
        ir = np.uint64(t * W)
        ii = np.uint64((T + t) * W)
        io = np.uint64(i * W)
        if accb.itemsize == 4:
            for j in range(W):
                phb[io + j] = atan2_single(accb[ii + j], accb[ir + j])
        else:
            for j in range(W):
                phb[io + j] = atan2(accb[ii + j], accb[ir + j])


@kernel(inline="always")
def _lane_sums(accb, first, nout, decim, kind, ones):
    """At each of the block's output steps, the 16 lanes' power and unit phasor, in place.

    ``accb`` holds the real parts (rows 0 .. T-1 of 16 lanes), the imaginary
    parts (rows T .. 2T-1); after: the phasor's real and imaginary parts there
    (for the sums of phasors) and the power in rows 2T .. 3T-1.  On explicit
    vectors (a square root and a division per lane, in the state's dtype).
    """
    W = WIDTH
    T = BLOCK
    one = load16(ones, 0)
    for i in range(nout):
        t = first + i * decim
        re = load16(accb, t * W)
        im = load16(accb, (T + t) * W)
        pw = fma(re, re, mul(im, im))
        store16(accb, (2 * T + t) * W, pw)
        if kind != SUM_POWER:
            # 1 / |y| (inf where y = 0: the phasor is then NaN, as y / |y| is)
            inv = div(one, sqrt(pw))
            store16(accb, t * W, mul(re, inv))
            store16(accb, (T + t) * W, mul(im, inv))


@kernel(inline="always")
def _tree16(a, i):
    """``a[i] + ... + a[i + 15]`` summed pairwise, in float64 (a fixed order)."""
    s0 = (np.float64(a[i]) + np.float64(a[i + 1])) + (np.float64(a[i + 2]) + np.float64(a[i + 3]))
    s1 = (np.float64(a[i + 4]) + np.float64(a[i + 5])) + (np.float64(a[i + 6]) + np.float64(a[i + 7]))
    s2 = (np.float64(a[i + 8]) + np.float64(a[i + 9])) + (np.float64(a[i + 10]) + np.float64(a[i + 11]))
    s3 = ((np.float64(a[i + 12]) + np.float64(a[i + 13]))
          + (np.float64(a[i + 14]) + np.float64(a[i + 15])))
    return (s0 + s1) + (s2 + s3)


@kernel(inline="always")
def _add_sums(accb, first, nout, decim, kind, oc, kbase, klo, khi, lane_out, g, out):
    """Add the block's sums (:func:`_lane_sums`) into ``out``: lane by lane, in lane order, or,
    where all 16 lanes add to the same outputs of one row, their pairwise sum (:func:`_tree16`)."""
    W = WIDTH
    T = BLOCK
    zero = np.uint64(0)
    uniform = True
    for j in range(1, W):
        uniform = uniform and (lane_out[g, j] == lane_out[g, 0] and kbase[j] == kbase[0]
                               and klo[j] == klo[0] and khi[j] == khi[0])
    if uniform:
        # one output row for the whole group (the usual case: many epochs of a channel and
        # frequency): the 16 lanes summed in a fixed tree, then one addition to the row
        q0 = oc + kbase[0]
        r = np.uint64(lane_out[g, 0])
        i_lo = max(0, klo[0] - q0)
        i_hi = min(nout, khi[0] - q0)
        for i in range(i_lo, i_hi):
            q = np.uint64(q0 + i)
            ir = np.uint64((first + i * decim) * W)
            ii = ir + np.uint64(T * W)
            ip = ir + np.uint64(2 * T * W)
            if kind == SUM_POWER:
                out[r, q, zero] += _tree16(accb, ip)
            elif kind == SUM_UNIT:
                out[r, q, zero] += _tree16(accb, ir)
                out[r, q, np.uint64(1)] += _tree16(accb, ii)
            else:
                out[r, q, zero] += _tree16(accb, ip)
                out[r, q, np.uint64(1)] += _tree16(accb, ir)
                out[r, q, np.uint64(2)] += _tree16(accb, ii)
        return
    for j in range(W):
        q0 = oc + kbase[j]
        r = np.uint64(lane_out[g, j])
        i_lo = max(0, klo[j] - q0)
        i_hi = min(nout, khi[j] - q0)
        for i in range(i_lo, i_hi):
            q = np.uint64(q0 + i)
            ir = np.uint64((first + i * decim) * W + j)
            ii = ir + np.uint64(T * W)
            ip = ir + np.uint64(2 * T * W)
            if kind == SUM_POWER:
                out[r, q, zero] += accb[ip]
            elif kind == SUM_UNIT:
                out[r, q, zero] += accb[ir]
                out[r, q, np.uint64(1)] += accb[ii]
            else:
                out[r, q, zero] += accb[ip]
                out[r, q, np.uint64(1)] += accb[ir]
                out[r, q, np.uint64(2)] += accb[ii]
