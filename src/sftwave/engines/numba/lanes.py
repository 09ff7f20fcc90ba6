"""The throughput engine: many plans run side by side on all cores.

The bank (:mod:`sftwave.engines.numba.bank`) runs one plan over rows; this engine runs a list
of *lanes* - each a plan applied to one stretch of one input row, written to
one output row - in groups of ``width`` side by side (structure of arrays, so
the innermost loop vectorises), the groups in parallel.  It computes the same
components as the bank's ``iir1`` method (a first-order complex recursion
truncated by ``L``) and runs the scalogram's bank plans for
``bank_method='iir1'`` (what ``'auto'`` resolves to from 8 lanes on): one lane
per (input row, frequency) (:mod:`~sftwave.engines.numba.scalogram`).

The output is written once, in its final form (real, complex, power, modulus
or phase), optionally every ``decim``-th sample: between outputs only the
recursions advance.  Each input row is filtered minus its mean, and the mean
times each kernel's sum is added back, as in the bank.

The state runs in float64, or in float32 where the caller knows the ASFT keeps
it accurate (the Morlet transform at single-precision output and ordinary
tolerances; see docs/design.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...plans.fit import SFTPlan
from .._boundary import MODE_CODES
from . import lane_kernels as _k
from .pool import parallel_for

__all__ = ["Lane", "run", "KINDS", "DEFAULT_WIDTH"]

#: Output kinds and their kernel codes.
KINDS = {"real": _k.REAL, "complex": _k.COMPLEX, "power": _k.POWER, "abs": _k.ABS, "phase": _k.PHASE}

#: Lanes side by side: 16 float32 or float64 values fill two to four AVX registers,
#: enough independent work to hide the recursions' latency (measured best of 4..32).
DEFAULT_WIDTH = 16


@dataclass(frozen=True)
class Lane:
    """One plan on outputs ``n_lo <= n < n_hi`` of input row ``in_row``, into ``out_row``."""

    plan: SFTPlan
    in_row: int
    out_row: int
    n_lo: int
    n_hi: int


def _coefficients(plan: SFTPlan, kind: str) -> tuple[np.ndarray, ...]:
    """(ar, br, ai, bi): the real and imaginary output's weights on Re S_p and Im S_p."""
    c = plan.coef[0]
    if kind == "real":
        if np.iscomplexobj(c):
            raise ValueError("a real output needs a real plan")
        zero = np.zeros(c.shape[1])
        return c[0], c[1], zero, zero
    c = c.astype(np.complex128)
    return c[0].real, c[1].real, c[0].imag, c[1].imag


def run(x2d: np.ndarray, lanes: list[Lane], out: np.ndarray, *, mode: str = "reflect",
        cval: float = 0.0, decim: int = 1, kind: str = "real", dtype=np.float64,
        width: int = DEFAULT_WIDTH) -> np.ndarray:
    """Run ``lanes`` over the rows of ``x2d`` into ``out``.

    ``out`` has shape (rows, ceil(n / decim), channels), channels 2 for
    ``kind='complex'`` and 1 otherwise (a float view of a complex array for
    complex output); it may be any floating dtype and strided (float32 and
    float64 are written directly, others through a float64 array).  Output ``n``
    of a lane (a multiple of ``decim``) lands at ``out[out_row, n // decim]``.
    """
    lanes = [ln for ln in lanes if ln.n_hi > ln.n_lo]
    if not lanes:
        return out
    if out.dtype not in (np.float32, np.float64):
        # the kernels write float32 or float64; any other floating dtype (float16,
        # longdouble) is written through a float64 array and rounded once
        tmp = np.empty(out.shape, dtype=np.float64)
        written = np.zeros(out.shape[:2], dtype=bool)
        for ln in lanes:
            written[ln.out_row, -(-ln.n_lo // decim):-(-ln.n_hi // decim)] = True
        run(x2d, lanes, tmp, mode=mode, cval=cval, decim=decim, kind=kind, dtype=dtype, width=width)
        out[written] = tmp[written]
        return out
    dtype = np.dtype(dtype)
    R, N = x2d.shape
    code = KINDS[kind]
    # Only the outputs n < N that are multiples of decim are written, so any decim >= N
    # writes the same (n = 0) as decim = N: bounding it bounds the front room and the
    # idle steps below by the signal's length, whatever decim the caller asked for.
    decim = max(1, min(int(decim), N))

    pad_l = max(ln.plan.pad_before for ln in lanes)
    pad_r = max(ln.plan.pad_after for ln in lanes)
    front = decim  # room for the lanes' alignment shifts
    length = N + pad_l + pad_r
    rows_used = np.unique([ln.in_row for ln in lanes]).astype(np.int64)
    row_index = {int(r): i for i, r in enumerate(rows_used)}
    centre = x2d[rows_used].mean(axis=1, dtype=np.float64)
    xe = np.empty((rows_used.size, front + length + decim + 1), dtype=dtype)
    parallel_for(_k.extend_rows, rows_used.size, x2d, rows_used, -pad_l, length, front,
                 MODE_CODES[mode], float(cval), centre.astype(dtype), xe, work=xe.size)

    # group lanes of similar window so that a group's common range wastes little
    order = sorted(range(len(lanes)), key=lambda i: (lanes[i].plan.length, lanes[i].in_row,
                                                     lanes[i].n_lo))
    G = -(-len(order) // width)
    P = max(ln.plan.omegas.size for ln in lanes)
    shape = (G, P, width)
    wr, wi, cr, ci, ar, br, ai, bi = (np.zeros(shape, dtype) for _ in range(8))
    lane_row = np.zeros((G, width), np.int64)
    lane_shift = np.zeros((G, width), np.int64)
    lane_L = np.ones((G, width), np.int64)
    lane_start = np.zeros((G, width), np.int64)
    lane_off = np.zeros((G, width), np.int64)
    lane_out = np.zeros((G, width), np.int64)
    lane_nlo = np.zeros((G, width), np.int64)
    lane_nhi = np.zeros((G, width), np.int64)  # dummy lanes: empty range, never written
    base_r = np.zeros((G, width), dtype)
    base_i = np.zeros((G, width), dtype)
    m_lo = np.zeros(G, np.int64)
    m_hi = np.zeros(G, np.int64)
    m_steady = np.zeros(G, np.int64)
    m_stop = np.zeros(G, np.int64)
    phase = np.zeros(G, np.int64)
    for g in range(G):
        members = order[g * width:(g + 1) * width]
        c0 = None
        lasts, steadies, stops = [], [], []
        for j, i in enumerate(members):
            ln = lanes[i]
            plan = ln.plan
            Pp = plan.omegas.size
            w = plan.w
            c = np.exp(plan.length * np.log(w))
            wr[g, :Pp, j], wi[g, :Pp, j] = w.real, w.imag
            cr[g, :Pp, j], ci[g, :Pp, j] = c.real, c.imag
            a_r, b_r, a_i, b_i = _coefficients(plan, kind)
            ar[g, :Pp, j], br[g, :Pp, j], ai[g, :Pp, j], bi[g, :Pp, j] = a_r, b_r, a_i, b_i
            sums = plan.window_sums
            dc = (a_r + 1j * a_i) @ sums.real + (b_r + 1j * b_i) @ sums.imag
            base = centre[row_index[ln.in_row]] * dc
            base_r[g, j], base_i[g, j] = base.real, base.imag
            # In xe, output n's window ends at C + n; the lane's first sample is p.  Each
            # lane reads xe at m + shift, with the shift chosen so that every lane starts
            # within the group's first decim steps (they run in lockstep) and so that
            # C - shift is the same modulo decim for all (outputs fall on the same steps).
            C = front + pad_l + plan.lag
            p0 = C + ln.n_lo - (plan.length - 1)
            if c0 is None:
                c0 = (C - p0) % decim
            q = (c0 - C + p0) % decim
            shift = p0 - q
            lane_row[g, j] = row_index[ln.in_row]
            lane_shift[g, j] = shift
            lane_L[g, j] = plan.length
            lane_start[g, j] = q
            lane_off[g, j] = C - shift
            lane_out[g, j] = ln.out_row
            lane_nlo[g, j] = ln.n_lo
            lane_nhi[g, j] = ln.n_hi
            lasts.append(C - shift + ln.n_hi - 1)
            steadies.append(q + plan.length)
            stops.append(C - shift + ln.n_hi)
        m_lo[g] = 0
        m_hi[g] = max(lasts) + 1
        # dummy lanes (an empty range, never written) read what the group's first lane reads
        k = len(members)
        lane_row[g, k:] = lane_row[g, 0]
        lane_shift[g, k:] = lane_shift[g, 0]
        lane_L[g, k:] = lane_L[g, 0]
        lane_start[g, k:] = lane_start[g, 0]
        m_steady[g] = max(max(steadies), 1)
        # from the first lane's last output on, the reads are checked (lanes of a group
        # differ in window and range, and none reads beyond what its own outputs need)
        m_stop[g] = min(stops)
        phase[g] = c0
    work = float(np.sum(m_hi - m_lo)) * P * width
    parallel_for(_k.run_lanes, G, xe, lane_row, lane_shift, lane_L, lane_start, lane_off, lane_out,
                 lane_nlo, lane_nhi, m_lo, m_hi, m_steady, m_stop, phase, wr, wi, cr, ci, ar, br,
                 ai, bi, base_r, base_i, decim, code, out, work=work, chunks=G)
    return out
