"""The streaming kernel: many plans advanced sample by sample over a ring of the extended input.

:func:`advance` takes the next ``M`` samples of the extended signal of ``C``
channels and, for every plan, updates its state and writes its outputs: an
SFT plan by the first-order recursion of the bank's ``iir1`` method
(``T = w T + x[a] - w^L x[a - L]``, the window filling first), a FIR plan by
its taps over the ring.  Positions are absolute (``a``, from 0 at the first
extended sample); plan ``q`` starts at ``a0[q]`` (its window's first sample)
and writes its output for position ``a`` once its window is full, into
``out[c, q, :, a - a_begin]``.  The ring holds the last ``R`` samples
(``R`` > every window), so a chunk of any length, one sample included, costs
the same per sample.  State in float64.
"""

from __future__ import annotations

import numpy as np

from ._jit import kernel

__all__ = ["advance"]


@kernel(nogil=True)
def advance(values, a_begin, ring, a0, L, kind, comp_lo, comp_hi, wr, wi, cr, ci, coef, taps_lo,
            taps, base, tr, ti, out):
    """Advance every plan over ``values`` (C, M), the extended samples from position ``a_begin``.

    kind[q]: 0 an SFT plan (components ``comp_lo[q]:comp_hi[q]`` of ``wr, wi, cr,
    ci``, state ``tr, ti`` (C, components), ``coef`` (plans, 2 channels, 2, P_max)),
    1 a FIR plan (its ``L[q]`` taps per channel at ``taps[:, taps_lo[q]:]``, 2 channels).
    ``base`` (C, plans, 2) is added to each output (the centre times the kernel's sum).
    """
    C, M = values.shape
    R = ring.shape[1]
    Q = a0.shape[0]
    for c in range(C):
        for i in range(M):
            a = a_begin + i
            v = values[c, i]
            ring[c, a % R] = v
            for q in range(Q):
                start = a0[q]
                if a < start:
                    continue
                Lq = L[q]
                full = a - start >= Lq - 1
                if kind[q] == 0:
                    xo = ring[c, (a - Lq) % R] if a - Lq >= start else 0.0
                    lo = comp_lo[q]
                    acc0 = base[c, q, 0]
                    acc1 = base[c, q, 1]
                    for p in range(lo, comp_hi[q]):
                        t_r = wr[p] * tr[c, p] - wi[p] * ti[c, p] + v - cr[p] * xo
                        t_i = wr[p] * ti[c, p] + wi[p] * tr[c, p] - ci[p] * xo
                        tr[c, p] = t_r
                        ti[c, p] = t_i
                        k = p - lo
                        acc0 += coef[q, 0, 0, k] * t_r + coef[q, 0, 1, k] * t_i
                        acc1 += coef[q, 1, 0, k] * t_r + coef[q, 1, 1, k] * t_i
                    if full:
                        out[c, q, 0, i] = acc0
                        out[c, q, 1, i] = acc1
                elif full:
                    acc0 = base[c, q, 0]
                    acc1 = base[c, q, 1]
                    t0 = taps_lo[q]
                    for j in range(Lq):
                        x = ring[c, (a - j) % R]
                        acc0 += taps[0, t0 + j] * x
                        acc1 += taps[1, t0 + j] * x
                    out[c, q, 0, i] = acc0
                    out[c, q, 1, i] = acc1
