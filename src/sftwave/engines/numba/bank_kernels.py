"""Numba kernels of the exponential-sum bank.  No validation here; ``cache=True``.

The loops over independent work items are serial ``nogil`` kernels over a
range of items, ``kernel(lo, hi, ...)``, run side by side by
:func:`sftwave.engines.numba.pool.parallel_for` (no numba threading layer: see that module).

All kernels compute, for one stretch of one line, the components

    T_p[m] = sum_{j=0}^{L-1} w_p^j xe[m - j]          (xe[<0] = 0)

of an extended line ``xe`` and write, for output ``i = m - (L - 1)``,

    out[row, start + i, ch] = sum_p coef[ch, 0, p] Re T_p[m] + coef[ch, 1, p] Im T_p[m].

They differ only in how ``T_p`` is obtained (see ``sftwave.engines.numba.bank``).  State is
kept in float64 whatever the input dtype.
"""

from __future__ import annotations

import numpy as np

from ._jit import kernel, source_index

#: inner elements side by side in one task of :func:`bank_inner`
INNER_BLOCK = 64

# method codes, as in sftwave.engines.numba.bank.METHODS
INTEGRAL, WINDOW, IIR1, IIR1_2K, IIR2 = 0, 1, 2, 3, 4


#: Samples a centre is taken from: at most this many, evenly spaced.
CENTRE_SAMPLES = 63


@kernel
def small_median(s):
    """``np.median(s)`` as numba computes it, for float64 ``s`` (1-D; reordered in place).

    numba's own algorithm (its ``_median_inner``, ``_select_two``, ``_select``
    and ``_partition``, BSD-2-Clause) in one loop over float64: the same
    partitions in the same order, so the same value, NaN included (numba
    compares with ``<``, so where NaNs are among the samples its result depends
    on their places).  It compiles in a fraction of the time numba's generic
    ``np.median`` takes (seconds: the largest share of a first Gaussian
    filter's compilation).
    """
    n = s.shape[0]
    if n == 0:
        return np.nan
    half = n >> 1
    two = n & 1 == 0       # an even count: the k'th and k+1'th smallest (numba's _select_two)
    k = half - 1 if two else half
    target = k
    low = 0
    high = n - 1
    while True:
        # numba's _partition of s[low:high + 1]: median-of-three pivot, its final place i
        mid = (low + high) >> 1
        if s[mid] < s[low]:
            s[low], s[mid] = s[mid], s[low]
        if s[high] < s[mid]:
            s[high], s[mid] = s[mid], s[high]
        if s[mid] < s[low]:
            s[low], s[mid] = s[mid], s[low]
        pivot = s[mid]
        s[high], s[mid] = s[mid], s[high]
        i = low
        j = high - 1
        while True:
            while i < high and s[i] < pivot:
                i += 1
            while j >= low and pivot < s[j]:
                j -= 1
            if i >= j:
                break
            s[i], s[j] = s[j], s[i]
            i += 1
            j -= 1
        s[i], s[high] = s[high], s[i]
        if two:
            if i < k:
                low = i + 1
            elif i > k + 1:
                high = i - 1
            elif i == k:       # then _select(k + 1) in s[i + 1:high + 1]
                two = False
                target = k + 1
                low = i + 1
            else:              # i == k + 1: then _select(k) in s[low:i]
                two = False
                high = i - 1
        elif i == target:
            break
        elif i < target:
            low = i + 1
        else:
            high = i - 1
    if n & 1:
        return s[half]
    return (s[k] + s[k + 1]) / 2


@kernel(inline="always")
def segment_centre(x, lo, length, cval):
    """A centre of the part of x inside positions lo .. lo+length-1 (cval if none is).

    The median of at most :data:`CENTRE_SAMPLES` evenly spaced samples: one
    sample, however large (a spike), cannot move it far, where it moves the
    mean by its amplitude over the length.  Any centre gives the same result
    (it is added back times the kernel sum); a centre near the bulk of the
    samples keeps the recursions' rounding relative to the signal's
    fluctuations, not to an offset or a transient.
    """
    n = x.shape[0]
    a = max(lo, 0)
    b = min(lo + length, n)
    if b <= a:
        return cval
    m = min(b - a, CENTRE_SAMPLES)
    s = np.empty(m)
    for k in range(m):
        s[k] = x[a + (k * (b - a)) // m]
    return small_median(s)


@kernel(inline="always")
def fill_line(x, lo, buf, mode, cval, centre):
    """buf[t] = (x extended at position lo + t) - centre, scipy.ndimage's extension."""
    n = x.shape[0]
    for t in range(buf.shape[0]):
        i = lo + t
        if 0 <= i < n:
            buf[t] = x[i] - centre
        else:
            j = source_index(i, n, mode)
            if j < 0:
                buf[t] = cval - centre
            else:
                buf[t] = x[j] - centre


@kernel(inline="always")
def _emit(coef, base, tr, ti, out, row, idx):
    nch = coef.shape[0]
    P = coef.shape[2]
    for ch in range(nch):
        acc = base[ch]
        for p in range(P):
            acc += coef[ch, 0, p] * tr[p] + coef[ch, 1, p] * ti[p]
        out[row, idx, ch] = acc


@kernel(inline="always")
def _core_iir1(xe, L, wr, wi, cr, ci, coef, base, out, row, start):
    """First-order complex recursion truncated by L: T = w T + x[m] - w^L x[m-L]."""
    P = wr.shape[0]
    tr = np.empty(P)
    tr[:] = 0.0
    ti = np.empty(P)
    ti[:] = 0.0
    M = xe.shape[0]
    warm = min(L, M)
    for m in range(warm):  # the window fills: no sample leaves it yet
        xn = xe[m]
        for p in range(P):
            a = wr[p] * tr[p] - wi[p] * ti[p] + xn
            b = wr[p] * ti[p] + wi[p] * tr[p]
            tr[p] = a
            ti[p] = b
    _emit(coef, base, tr, ti, out, row, start)
    if coef.shape[0] == 1:
        # one output: accumulate it while updating the state
        ca = coef[0, 0]
        cb = coef[0, 1]
        b0 = base[0]
        for m in range(L, M):
            xn = xe[m]
            xo = xe[m - L]
            acc = b0
            for p in range(P):
                a = wr[p] * tr[p] - wi[p] * ti[p] + xn - cr[p] * xo
                b = wr[p] * ti[p] + wi[p] * tr[p] - ci[p] * xo
                tr[p] = a
                ti[p] = b
                acc += ca[p] * a + cb[p] * b
            out[row, start + m - (L - 1), 0] = acc
        return
    for m in range(L, M):
        xn = xe[m]
        xo = xe[m - L]
        for p in range(P):
            a = wr[p] * tr[p] - wi[p] * ti[p] + xn - cr[p] * xo
            b = wr[p] * ti[p] + wi[p] * tr[p] - ci[p] * xo
            tr[p] = a
            ti[p] = b
        _emit(coef, base, tr, ti, out, row, start + m - (L - 1))


@kernel(inline="always")
def _core_iir1_2k(xe, L, wr, wi, cr, ci, coef, base, out, row, start):
    """First-order recursion truncated by L-1 (the paper's 2K), plus the end sample.

    ``cr + i ci`` is ``w^(L-1)`` here (1 for the SFT at omega = pi p / K).
    """
    P = wr.shape[0]
    tr = np.empty(P)
    tr[:] = 0.0
    ti = np.empty(P)
    ti[:] = 0.0
    ur = np.empty(P)
    ur[:] = 0.0
    ui = np.empty(P)
    ui[:] = 0.0
    M = xe.shape[0]
    for m in range(M):
        xn = xe[m]
        xo = xe[m - L + 1] if m >= L - 1 else 0.0
        for p in range(P):
            a = wr[p] * tr[p] - wi[p] * ti[p] + xn - cr[p] * xo
            b = wr[p] * ti[p] + wi[p] * tr[p] - ci[p] * xo
            tr[p] = a
            ti[p] = b
            ur[p] = a + cr[p] * xo
            ui[p] = b + ci[p] * xo
        if m >= L - 1:
            _emit(coef, base, ur, ui, out, row, start + m - (L - 1))


@kernel(inline="always")
def _core_iir2(xe, L, wr, wi, cr, ci, coef, base, out, row, start):
    """Second-order real recursion (Sugimoto), truncated by L-1, plus the end sample.

    With e[m] = x[m] - w^(L-1) x[m-L+1]:
        q[m] = 2 Re(w) q[m-1] - |w|^2 q[m-2] + e[m]
        T'[m] = q[m] - conj(w) q[m-1]
    The zero frequency (a double pole without decay) uses the first-order form.
    """
    P = wr.shape[0]
    qr = np.empty(P)
    qr[:] = 0.0
    qi = np.empty(P)
    qi[:] = 0.0
    pr = np.empty(P)  # q[m-1]
    pr[:] = 0.0
    pi_ = np.empty(P)
    pi_[:] = 0.0
    ur = np.empty(P)
    ur[:] = 0.0
    ui = np.empty(P)
    ui[:] = 0.0
    a1 = 2.0 * wr
    a2 = wr * wr + wi * wi
    M = xe.shape[0]
    for m in range(M):
        xn = xe[m]
        xo = xe[m - L + 1] if m >= L - 1 else 0.0
        for p in range(P):
            er = xn - cr[p] * xo
            ei = -ci[p] * xo
            if wi[p] == 0.0:
                # first order, real multiplier: T' = w T' + e (kept in q)
                nr = wr[p] * qr[p] + er
                ni = wr[p] * qi[p] + ei
                qr[p] = nr
                qi[p] = ni
                ur[p] = nr + cr[p] * xo
                ui[p] = ni + ci[p] * xo
            else:
                nr = a1[p] * qr[p] - a2[p] * pr[p] + er
                ni = a1[p] * qi[p] - a2[p] * pi_[p] + ei
                # T' = q[m] - conj(w) q[m-1]
                tr = nr - (wr[p] * qr[p] + wi[p] * qi[p])
                ti = ni - (wr[p] * qi[p] - wi[p] * qr[p])
                pr[p] = qr[p]
                pi_[p] = qi[p]
                qr[p] = nr
                qi[p] = ni
                ur[p] = tr + cr[p] * xo
                ui[p] = ti + ci[p] * xo
        if m >= L - 1:
            _emit(coef, base, ur, ui, out, row, start + m - (L - 1))


@kernel(inline="always")
def _tpow(fine, coarse, S, p, t):
    """base_p ** t from a two-level table (t >= 0)."""
    return coarse[p, t // S] * fine[p, t % S]


@kernel(inline="always")
def _core_integral(xe, L, B, wf, wc, zf, zc, S, coef, base, out, row, start):
    """Kernel integral by prefix sums (paper eqs. kernel, kernelInter), in blocks.

    For a block of outputs starting at b0 the prefix U[t] = sum_{i<=t} z^i xe[b0+i]
    (z = 1/w) is restarted, so its growth is bounded by the block, not by the
    signal: T[m] = w^(m-b0) (U[m-b0] - U[m-b0-L]).
    """
    P = wf.shape[0]
    nch = coef.shape[0]
    count = xe.shape[0] - (L - 1)
    for i in range(count):
        for ch in range(nch):
            out[row, start + i, ch] = base[ch]
    U = np.empty(B + L - 1, dtype=np.complex128)
    for p in range(P):
        for b0 in range(0, count, B):
            nb = min(B, count - b0)
            acc = 0.0 + 0.0j
            for t in range(nb + L - 1):
                acc += _tpow(zf, zc, S, p, t) * xe[b0 + t]
                U[t] = acc
            for q in range(nb):
                t = q + L - 1
                d = U[t] - U[q - 1] if q > 0 else U[t]
                T = _tpow(wf, wc, S, p, t) * d
                for ch in range(nch):
                    out[row, start + b0 + q, ch] += coef[ch, 0, p] * T.real + coef[ch, 1, p] * T.imag


@kernel(inline="always")
def _core_window(xe, L, B, wf, wc, zf, zc, S, coef, base, out, row, start):
    """Windowed kernel integral by its own recurrence (paper eq. kernelIntZenka).

    u[m] = u[m-1] + z^(m-f) xe[m] - z^(m-L-f) xe[m-L] in the frame of origin f,
    T[m] = w^(m-f) u[m]; every B samples the frame moves on (u *= w^B).
    """
    P = wf.shape[0]
    nch = coef.shape[0]
    M = xe.shape[0]
    count = M - (L - 1)
    for i in range(count):
        for ch in range(nch):
            out[row, start + i, ch] = base[ch]
    for p in range(P):
        u = 0.0 + 0.0j
        f = 0
        wB = _tpow(wf, wc, S, p, B)
        for m in range(M):
            if m - f == B:
                u *= wB
                f += B
            t = m - f
            u += _tpow(zf, zc, S, p, t) * xe[m]
            if m >= L:
                e = t - L
                if e >= 0:
                    u -= _tpow(zf, zc, S, p, e) * xe[m - L]
                else:
                    u -= _tpow(wf, wc, S, p, -e) * xe[m - L]
            if m >= L - 1:
                T = _tpow(wf, wc, S, p, t) * u
                idx = start + m - (L - 1)
                for ch in range(nch):
                    out[row, idx, ch] += coef[ch, 0, p] * T.real + coef[ch, 1, p] * T.imag


@kernel(inline="always")
def _item_line(x2d, rows, starts, counts, pad_before, L, mode, cval, dc, it):
    """Work item ``it``'s extended segment minus its centre: ``(buf, base, row, start)``."""
    r = rows[it]
    s = starts[it]
    c = counts[it]
    lo = s - pad_before
    buf = np.empty(c + L - 1)
    centre = segment_centre(x2d[r], lo, c + L - 1, cval)
    fill_line(x2d[r], lo, buf, mode, cval, centre)
    return buf, centre * dc, r, s


# One kernel per method (the same arguments; ``method`` is the kernel's own), so that a
# call compiles the recursion it runs and not the four others.

@kernel(nogil=True)
def run_bank_iir1(lo_item, hi_item, x2d, rows, starts, counts, pad_before, L, mode, cval, method,
                  wr, wi, cr, ci, B, wf, wc, zf, zc, S, coef, dc, out):
    """:func:`run_bank`'s ``iir1`` method."""
    for it in range(lo_item, hi_item):
        buf, base, r, s = _item_line(x2d, rows, starts, counts, pad_before, L, mode, cval, dc, it)
        _core_iir1(buf, L, wr, wi, cr, ci, coef, base, out, r, s)


@kernel(nogil=True)
def run_bank_iir1_2k(lo_item, hi_item, x2d, rows, starts, counts, pad_before, L, mode, cval,
                     method, wr, wi, cr, ci, B, wf, wc, zf, zc, S, coef, dc, out):
    """:func:`run_bank`'s ``iir1_2k`` method."""
    for it in range(lo_item, hi_item):
        buf, base, r, s = _item_line(x2d, rows, starts, counts, pad_before, L, mode, cval, dc, it)
        _core_iir1_2k(buf, L, wr, wi, cr, ci, coef, base, out, r, s)


@kernel(nogil=True)
def run_bank_iir2(lo_item, hi_item, x2d, rows, starts, counts, pad_before, L, mode, cval, method,
                  wr, wi, cr, ci, B, wf, wc, zf, zc, S, coef, dc, out):
    """:func:`run_bank`'s ``iir2`` method."""
    for it in range(lo_item, hi_item):
        buf, base, r, s = _item_line(x2d, rows, starts, counts, pad_before, L, mode, cval, dc, it)
        _core_iir2(buf, L, wr, wi, cr, ci, coef, base, out, r, s)


@kernel(nogil=True)
def run_bank_integral(lo_item, hi_item, x2d, rows, starts, counts, pad_before, L, mode, cval,
                      method, wr, wi, cr, ci, B, wf, wc, zf, zc, S, coef, dc, out):
    """:func:`run_bank`'s ``integral`` method."""
    for it in range(lo_item, hi_item):
        buf, base, r, s = _item_line(x2d, rows, starts, counts, pad_before, L, mode, cval, dc, it)
        _core_integral(buf, L, B, wf, wc, zf, zc, S, coef, base, out, r, s)


@kernel(nogil=True)
def run_bank_window(lo_item, hi_item, x2d, rows, starts, counts, pad_before, L, mode, cval,
                    method, wr, wi, cr, ci, B, wf, wc, zf, zc, S, coef, dc, out):
    """:func:`run_bank`'s ``window`` method."""
    for it in range(lo_item, hi_item):
        buf, base, r, s = _item_line(x2d, rows, starts, counts, pad_before, L, mode, cval, dc, it)
        _core_window(buf, L, B, wf, wc, zf, zc, S, coef, base, out, r, s)


#: The kernel of each method code (see :func:`run_bank`).
RUN_BANK = {IIR1: run_bank_iir1, IIR1_2K: run_bank_iir1_2k, IIR2: run_bank_iir2,
            INTEGRAL: run_bank_integral, WINDOW: run_bank_window}


def run_bank(lo_item, hi_item, x2d, rows, starts, counts, pad_before, L, mode, cval, method,
             wr, wi, cr, ci, B, wf, wc, zf, zc, S, coef, dc, out):
    """Run one bank method over work items ``lo_item <= it < hi_item`` (row, start, count).

    Item ``it`` extends line ``x2d[rows[it]]`` over the positions
    ``starts[it] - pad_before`` .. ``+ counts[it] + L - 2`` and writes outputs
    ``starts[it]`` .. ``+ counts[it] - 1`` of ``out[rows[it]]``.  Each item
    filters its segment minus its centre (:func:`segment_centre`) and adds back the centre times
    the kernel's sum ``dc`` (exact, and it keeps an offset out of the
    recursions' rounding).  Calls the method's own kernel (:data:`RUN_BANK`);
    the pool calls that kernel directly.
    """
    RUN_BANK[method](lo_item, hi_item, x2d, rows, starts, counts, pad_before, L, mode, cval,
                     method, wr, wi, cr, ci, B, wf, wc, zf, zc, S, coef, dc, out)


@kernel(nogil=True)
def bank_inner(lo_task, hi_task, x3, pad_before, L, mode, cval, wr, wi, cr, ci, ca, cb, dc, out3):
    """The iir1 bank along axis 1 of x3 (outer, n, inner), inner elements side by side.

    For an axis that is not the last of a C-ordered array, neighbouring inner
    elements are neighbours in memory: each step loads and stores a contiguous
    block, and the recursions of the block run as one vector.  One real output
    channel (coefficients ``ca`` on Re T_p, ``cb`` on Im T_p; ``dc`` the kernel's
    sum).  Each element of the block is filtered minus its centre along the axis
    (the median of evenly spaced samples, as :func:`segment_centre`).
    Tasks ``lo_task <= task < hi_task`` of ``outer * ceil(inner / INNER_BLOCK)``.
    Each task copies its block of the input (in the pass that takes the
    means) before writing, so ``out3`` may be ``x3`` itself (in place).
    """
    outer, n, inner = x3.shape
    P = wr.shape[0]
    block = INNER_BLOCK
    nblocks = -(-inner // block)
    for task in range(lo_task, hi_task):
        o = task // nblocks
        b0 = (task % nblocks) * block
        nb = min(inner, b0 + block) - b0
        col = np.empty(n * nb).reshape((n, nb))   # this block of the input, read first
        for i in range(n):
            for t in range(nb):
                col[i, t] = x3[o, i, b0 + t]
        centre = np.empty(nb)     # each element's centre, as segment_centre takes it
        m = min(n, CENTRE_SAMPLES)
        picks = np.empty(m)
        for t in range(nb):
            for k in range(m):
                picks[k] = col[(k * n) // m, t]
            centre[t] = small_median(picks)
        # every buffer an np.empty(size) of float64: one numba overload for the first call to
        # compile (each other signature, np.zeros or a shape tuple, is one more: 0.1 to 0.4 s)
        sflat = np.empty(2 * P * nb)
        sflat[:] = 0.0
        sr = sflat[:P * nb].reshape((P, nb))
        si = sflat[P * nb:].reshape((P, nb))
        xn = np.empty(nb)
        xo = np.empty(nb)
        xo[:] = 0.0
        acc = np.empty(nb)
        cv = np.empty(nb)
        for t in range(nb):
            cv[t] = cval - centre[t]
        for m in range(n + L - 1):
            k = m - pad_before
            src = k if 0 <= k < n else source_index(k, n, mode)
            if src < 0:
                for t in range(nb):
                    xn[t] = cv[t]
            else:
                for t in range(nb):
                    xn[t] = col[src, t] - centre[t]
            if m >= L:
                k2 = k - L
                src2 = k2 if 0 <= k2 < n else source_index(k2, n, mode)
                if src2 < 0:
                    for t in range(nb):
                        xo[t] = cv[t]
                else:
                    for t in range(nb):
                        xo[t] = col[src2, t] - centre[t]
            for t in range(nb):
                acc[t] = centre[t] * dc
            for p in range(P):
                wrp = wr[p]
                wip = wi[p]
                crp = cr[p]
                cip = ci[p]
                cap = ca[p]
                cbp = cb[p]
                for t in range(nb):
                    a = wrp * sr[p, t] - wip * si[p, t] + xn[t] - crp * xo[t]
                    b = wrp * si[p, t] + wip * sr[p, t] - cip * xo[t]
                    sr[p, t] = a
                    si[p, t] = b
                    acc[t] += cap * a + cbp * b
            if m >= L - 1:
                i = m - (L - 1)
                for t in range(nb):
                    out3[o, i, b0 + t] = acc[t]
