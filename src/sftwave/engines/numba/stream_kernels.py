"""The streaming kernel: many plans advanced sample by sample over a ring of the extended input.

:func:`advance` takes the next ``M`` samples of the extended signal of ``C``
channels and, for every plan, updates its state and writes its outputs: an
SFT plan by the first-order recursion of the bank's ``iir1`` method
(``T = w T + x[a] - w^L x[a - L]``, the window filling first), a FIR plan by
its taps.  Positions are absolute (``a``, from 0 at the first extended
sample); plan ``q`` starts at ``a0[q]`` (its window's first sample) and
writes its output for position ``a`` once its window is full, into the
caller's output buffer at that output's sample.  The caller keeps the last ``H`` samples (``H``
at least every window) and hands them in before the new ones, so a chunk of
any length, one sample included, computes the same.  State in float64.
"""

from __future__ import annotations

from ._jit import kernel

__all__ = ["advance"]


@kernel(nogil=True, fastmath=True)
def advance(ext, H, a_begin, a0, L, kind, comp_lo, comp_hi, wr, wi, cr, ci, coef, taps_lo, taps,
            base, tr, ti, shift, out):
    """Advance every plan over the new samples ``ext[:, H:]`` (C, H + M): positions
    ``a_begin`` on; ``ext[:, :H]`` holds the ``H`` samples before them (H >= every window).

    kind[q]: 0 an SFT plan (components ``comp_lo[q]:comp_hi[q]`` of ``wr, wi, cr,
    ci``, state ``tr, ti`` (C, components), ``coef`` (plans, 2 channels, 2, P_max)),
    1 a FIR plan (its ``L[q]`` taps per channel at ``taps[:, taps_lo[q]:]``, 2 channels).
    ``base`` (C, plans, 2) is added to each output (the centre times the kernel's sum).
    Plan ``q``'s output for position ``a`` goes to ``out[c, q, :, a - shift[q]]`` (the
    caller's buffer, indexed by output sample).
    Plan by plan, channel by channel: a plan's coefficients and state stay in cache
    while it runs over the chunk, and the loop over its components vectorises.
    """
    C = ext.shape[0]
    M = ext.shape[1] - H
    Q = a0.shape[0]
    for q in range(Q):
        start = a0[q]
        Lq = L[q]
        lo = comp_lo[q]
        hi = comp_hi[q]
        t0 = taps_lo[q]
        P = hi - lo
        # the plan's constants as local contiguous arrays: the component loop vectorises
        lwr = wr[lo:hi].copy()
        lwi = wi[lo:hi].copy()
        lcr = cr[lo:hi].copy()
        lci = ci[lo:hi].copy()
        c00 = coef[q, 0, 0, :P].copy()
        c01 = coef[q, 0, 1, :P].copy()
        c10 = coef[q, 1, 0, :P].copy()
        c11 = coef[q, 1, 1, :P].copy()
        for c in range(C):
            b0 = base[c, q, 0]
            b1 = base[c, q, 1]
            sr = tr[c, lo:hi].copy()
            si = ti[c, lo:hi].copy()
            for i in range(M):
                a = a_begin + i
                if a < start:
                    continue
                full = a - start >= Lq - 1
                if kind[q] == 0:
                    v = ext[c, H + i]
                    xo = ext[c, H + i - Lq] if a - Lq >= start else 0.0
                    acc0 = b0
                    acc1 = b1
                    for k in range(P):
                        t_r = lwr[k] * sr[k] - lwi[k] * si[k] + v - lcr[k] * xo
                        t_i = lwr[k] * si[k] + lwi[k] * sr[k] - lci[k] * xo
                        sr[k] = t_r
                        si[k] = t_i
                        acc0 += c00[k] * t_r + c01[k] * t_i
                        acc1 += c10[k] * t_r + c11[k] * t_i
                    if full:
                        out[c, q, 0, a - shift[q]] = acc0
                        out[c, q, 1, a - shift[q]] = acc1
                elif full:
                    acc0 = b0
                    acc1 = b1
                    for j in range(Lq):
                        x = ext[c, H + i - j]
                        acc0 += taps[0, t0 + j] * x
                        acc1 += taps[1, t0 + j] * x
                    out[c, q, 0, a - shift[q]] = acc0
                    out[c, q, 1, a - shift[q]] = acc1
            tr[c, lo:hi] = sr
            ti[c, lo:hi] = si
