r"""Few long lines, one real plan: the recursion cut into pieces that need no warm-up.

The bank's ``iir1`` recursion over an extended line ``xe`` of ``M = n + L - 1``
samples,

.. math::

    T_p[m] = w_p T_p[m-1] + x_e[m] - w_p^L x_e[m-L], \qquad T_p[-1] = 0,

is linear in its state.  Cut ``0 <= m < M`` into ``Q`` pieces and run each
piece from a zero state: its *local* state ``t_p`` differs from the true one by
the true state ``S_p`` before the piece, carried on by the recursion's
multiplier,

.. math::

    T_p[s + u] = t_p[s + u] + w_p^{u + 1} S_p, \qquad
    S^{(q+1)}_p = w_p^{\ell} S^{(q)}_p + t^{(q)}_p[\text{end}],

``\ell`` the pieces' length.  So the pieces run side by side with no warm-up
(where a piece of the lane engine or of the bank re-reads a whole window before
its first output, ``L`` samples of work, the cost that made the filter grow with
``sigma`` once ``L`` is a fair part of a piece), the true states before the
pieces follow from their end states in a pass over ``Q`` numbers
(:func:`carry_states`), and each piece's outputs get the missing part,
``sum_p Re((a_p - i b_p) w_p^{u+1} S_p)``, a sum of ``P`` sampled
exponentials that :func:`add_carry` adds, vectorised over ``u``: ``2P``
multiply-adds per output, at every window length.  Where the warm-ups cost
less (``Q L`` at most a quarter of the steps: small windows), the pieces warm up
instead and get no carry.

:func:`run` runs 16 pieces side by side on the explicit vectors of
``.vectors`` (as the lane engine, ``.lane_kernels``), reading the line in
place: ``xe[m] = x[m - pad]`` minus the line's centre inside it, its extension
by ``mode`` (:func:`~._jit.source_index`) outside, zero before ``m = 0``.  The
pieces and the choice between warm-up and carry depend on the shape alone, so
the result is the same bits on any number of threads.
"""

from __future__ import annotations

import numpy as np

from .._boundary import MODE_CODES
from ._jit import kernel, source_index
from .pool import parallel_for
from .vectors import fma, fms, fnma, load16, mul, splat16, store16, transpose4, transpose4_diff

__all__ = ["WIDTH", "BLOCK", "ASFT", "SFT", "SFT_RE", "RUN_PIECES", "carry_states", "add_carry", "groups",
           "warm_up", "piece_steps", "run"]

#: Pieces side by side (one :class:`~.vectors.LaneVector`).
WIDTH = 16

#: Steps of a block: the samples of a block are gathered first, then each component runs it.
BLOCK = 128

#: Steps each component runs before the next takes them: the chunk's inputs and outputs (``2 x 64
#: x 16`` and ``64 x 16`` doubles, 24 KB) stay in the first-level cache while the ``P``
#: components pass over them (a whole block's 48 KB did not: 3 to 5 % slower on 1e6 samples).
CHUNK = 64

#: Outputs per block of :func:`add_carry` (its tables of powers, ``P x CARRY`` complex, stay in L1).
CARRY = 128

#: Rows of a component's coefficients in ``coefs[p]``: w, w^L, the output's weights.
WR, WI, CR, CI, AR, BR = 0, 1, 2, 3, 4, 5


@kernel(inline="always")
def _sample(x, m, pad, M, mode, cval, c):
    """``xe[m]``: the line minus its centre, extended by ``mode``; zero outside ``0 <= m < M``."""
    if m < 0 or m >= M:
        return 0.0
    n = x.shape[0]
    i = m - pad
    if 0 <= i < n:
        return x[i] - c
    s = source_index(i, n, mode)
    return (cval if s < 0 else x[s]) - c


@kernel(inline="always")
def _steps(cf, st, xb, accb, nt, P):
    """``nt`` steps of every component of 16 pieces, adding their shares to ``accb``.

    ``xb`` holds the entering samples (rows 0 .. nt-1 of 16) and the leaving ones (rows
    T .. T+nt-1); ``st`` the state (real, imaginary part of each component), carried on.
    ``cf`` is ``(P, 6)``: each component's coefficients (:data:`WR` .. :data:`BR`), the
    same in every piece, so each is one value splat over the lanes (a register, not 16
    loads).  One component at a time over :data:`CHUNK` steps: its 16 lanes are two AVX-512
    or four AVX2 registers per value, chains enough to keep the multiply-add units busy, and
    its coefficients and state fit the registers (two components at a time spilled them on
    AVX2: 6 to 27 % slower).  The components add their shares to each step in order: the
    same bits whatever the chunks.
    """
    W = WIDTH
    T = BLOCK
    for c0 in range(0, nt, CHUNK):
        c1 = min(c0 + CHUNK, nt)
        for p in range(P):
            wr, wi, cr, ci = splat16(cf[p, WR]), splat16(cf[p, WI]), splat16(cf[p, CR]), splat16(cf[p, CI])
            ar, br = splat16(cf[p, AR]), splat16(cf[p, BR])
            a = load16(st, p * 2 * W)
            b = load16(st, p * 2 * W + W)
            for t in range(c0, c1):
                xn = load16(xb, t * W)
                xo = load16(xb, (T + t) * W)
                # a + ib <- w (a + ib) + x_new - w^L x_old
                an = fma(wr, a, fnma(wi, b, fnma(cr, xo, xn)))
                b = fma(wr, b, fms(wi, a, mul(ci, xo)))
                a = an
                store16(accb, t * W, fma(br, b, fma(ar, a, load16(accb, t * W))))
            store16(st, p * 2 * W, a)
            store16(st, p * 2 * W + W, b)


@kernel(inline="always")
def _steps_diff(cf, st, xb, accb, nt, P, real_only):
    """:func:`_steps` for the SFT (``w^L = 1``): ``xb`` holds the differences
    ``x_e[m] - x_e[m - L]``, the one input of every component.  With ``real_only``
    (every ``br`` zero: a symmetric kernel's plan) the outputs weigh the real parts
    alone, one multiply-add fewer per component and step."""
    W = WIDTH
    for c0 in range(0, nt, CHUNK):
        c1 = min(c0 + CHUNK, nt)
        for p in range(P):
            wr, wi = splat16(cf[p, WR]), splat16(cf[p, WI])
            ar, br = splat16(cf[p, AR]), splat16(cf[p, BR])
            a = load16(st, p * 2 * W)
            b = load16(st, p * 2 * W + W)
            for t in range(c0, c1):
                d = load16(xb, t * W)
                # a + ib <- w (a + ib) + d
                an = fma(wr, a, fnma(wi, b, d))
                b = fma(wr, b, mul(wi, a))
                a = an
                acc = fma(ar, a, load16(accb, t * W))
                store16(accb, t * W, acc if real_only else fma(br, b, acc))
            store16(st, p * 2 * W, a)
            store16(st, p * 2 * W + W, b)


#: The recursion a kernel of :func:`_pieces` runs: the ASFT's; the SFT's (every ``w^L`` one:
#: one difference in, :func:`_steps_diff`); the SFT's with outputs of the real parts alone.
ASFT, SFT, SFT_RE = 0, 1, 2


def _pieces(STEPS: int):
    """The kernel :func:`run` runs for the recursion ``STEPS`` (:data:`ASFT`, :data:`SFT`,
    :data:`SFT_RE`).

    ``STEPS`` is a constant of the kernel: numba prunes the other recursions'
    branches before it inlines and types them, so that a call compiles only its
    own recursion (a third of the code).  Each is a module attribute of its own
    (:data:`RUN_PIECES`), so that numba caches it on disk apart.
    """

    @kernel(nogil=True, noalias=True, error_model="numpy")
    def run_pieces(lo, hi, x2d, centre, pad, L, M, mode, cval, length, groups, warm, coefs, base,
                   out, ends):
        """Tasks ``lo <= k < hi``: group ``k % groups`` of 16 pieces of row ``k // groups``.

        Piece ``q = 16 g + j`` writes the outputs of ``m = s .. s + length - 1``
        (``s = q length``; those with ``L - 1 <= m < M``): ``base + sum_p ar_p Re
        t_p + br_p Im t_p`` into ``out[row, m - (L - 1)]``, and its end state into
        ``ends[row, q]`` (``(2, P)``: real, imaginary part).  Its recursion starts
        empty at ``m = s - warm``: nothing leaves it before ``L`` samples have
        entered, so with ``warm >= L`` the state is the true one from ``s`` on (the
        lane engine's warm-up), with ``warm = 0`` the piece's own part (the carry,
        :func:`add_carry`, adds the rest).  ``coefs`` is ``(P, 6)`` (:data:`WR`
        .. :data:`BR`, the same in every lane).

        For the SFT (every ``w_p^L`` is 1), the recursion's input is the one
        difference ``x_e[m] - x_e[m - L]`` of all components (the line's centre
        cancels in it), gathered once per step: two fewer operations per component
        and step, and half the gathered samples; with outputs of the real parts
        alone (every ``br`` zero), one more fewer.
        """
        P = coefs.shape[0]
        W = WIDTH
        T = BLOCK
        n = x2d.shape[1]
        cf = coefs
        st = np.zeros(P * 2 * W)
        xb = np.zeros(2 * T * W)
        accb = np.zeros(T * W)
        bases = np.empty(W)
        for k in range(lo, hi):
            r = k // groups
            g = k % groups
            x = x2d[r]
            o = out[r]
            c = centre[r]
            st[:] = 0.0
            for j in range(W):
                bases[j] = base[r]
            q0 = g * W
            for u0 in range(-warm, length, T):
                nt = min(T, length - u0)
                # the block's first steps s = (q0 + j) length + u0 grow with the lane j, and
                # the steps with nothing leaving yet (t < tx) shrink with it: lane 0 and lane
                # 15 tell whether every lane reads inside its line and has samples leaving
                s0 = q0 * length + u0
                i0 = s0 - pad
                tx0 = min(max((L - u0 - warm if warm else L - s0), 0), nt)
                if tx0 == 0 and i0 - L >= 0 and i0 + (W - 1) * length + nt <= n:
                    # 4 steps of 4 lanes at a time, transposed in registers into ``xb`` (step by
                    # step, 16 lanes side by side); the last steps one by one
                    nq = nt - nt % 4
                    for t4 in range(0, nq, 4):
                        for jb in range(0, W, 4):
                            i = i0 + jb * length + t4
                            if STEPS != ASFT:
                                transpose4_diff(x, i, length, L, xb, t4 * W + jb, W)
                            else:
                                transpose4(x, i, length, c, xb, t4 * W + jb, W)
                                transpose4(x, i - L, length, c, xb, (T + t4) * W + jb, W)
                    for t in range(nq, nt):
                        for j in range(W):
                            i = i0 + j * length + t
                            if STEPS != ASFT:
                                xb[np.uint64(t * W + j)] = x[np.uint64(i)] - x[np.uint64(i - L)]
                            else:
                                xb[np.uint64(t * W + j)] = x[np.uint64(i)] - c
                                xb[np.uint64((T + t) * W + j)] = x[np.uint64(i - L)] - c
                else:
                    for j in range(W):
                        s = s0 + j * length            # the block's first step
                        i = s - pad
                        # steps t < tx: nothing leaves the window yet (the recursion starts at
                        # s - u0 - warm; without a warm-up, every sample leaves: before m = L, zeros)
                        start = s - u0 - warm if warm else 0
                        tx = min(max(start + L - s, 0), nt)
                        if i >= 0 and i + nt <= n and (tx == nt or i + tx - L >= 0):
                            # inside the line, both the entering and the leaving samples
                            if STEPS != ASFT:
                                for t in range(tx):
                                    xb[np.uint64(t * W + j)] = x[np.uint64(i + t)] - c
                                for t in range(tx, nt):
                                    xb[np.uint64(t * W + j)] = x[np.uint64(i + t)] - x[np.uint64(i - L + t)]
                            else:
                                for t in range(nt):
                                    xb[np.uint64(t * W + j)] = x[np.uint64(i + t)] - c
                                for t in range(tx):
                                    xb[np.uint64((T + t) * W + j)] = 0.0
                                for t in range(tx, nt):
                                    xb[np.uint64((T + t) * W + j)] = x[np.uint64(i - L + t)] - c
                        else:
                            for t in range(nt):
                                m = s + t
                                xn = _sample(x, m, pad, M, mode, cval, c)
                                xo = _sample(x, m - L, pad, M, mode, cval, c) if t >= tx and m < M else 0.0
                                if STEPS != ASFT:
                                    xb[t * W + j] = xn - xo
                                else:
                                    xb[t * W + j] = xn
                                    xb[(T + t) * W + j] = xo
                for t in range(nt):
                    for j in range(W):
                        accb[t * W + j] = bases[j]
                if STEPS != ASFT:
                    _steps_diff(cf, st, xb, accb, nt, P, STEPS == SFT_RE)
                else:
                    _steps(cf, st, xb, accb, nt, P)
                d0 = s0 - (L - 1)
                if u0 >= 0 and d0 >= 0 and M - (s0 + (W - 1) * length) >= nt:
                    # every lane's whole block is output: 4 steps of 4 lanes at a time,
                    # transposed in registers; the last steps one by one
                    nq = nt - nt % 4
                    for t4 in range(0, nq, 4):
                        for jb in range(0, W, 4):
                            transpose4(accb, t4 * W + jb, W, 0.0, o, d0 + jb * length + t4, length)
                    for t in range(nq, nt):
                        for j in range(W):
                            o[np.uint64(d0 + j * length + t)] = accb[np.uint64(t * W + j)]
                else:
                    for j in range(W):
                        s = s0 + j * length
                        t_lo = min(max(L - 1 - s, -u0, 0), nt)
                        t_hi = max(min(M - s, nt), t_lo)
                        d = s - (L - 1)
                        for t in range(t_lo, t_hi):
                            o[np.uint64(d + t)] = accb[np.uint64(t * W + j)]
            for j in range(W):
                for p in range(P):
                    ends[r, q0 + j, 0, p] = st[p * 2 * W + j]
                    ends[r, q0 + j, 1, p] = st[p * 2 * W + W + j]

    return run_pieces


run_pieces_asft = _pieces(ASFT)
run_pieces_sft = _pieces(SFT)
run_pieces_sft_re = _pieces(SFT_RE)

#: The kernel of each recursion (:func:`_pieces`).
RUN_PIECES = {ASFT: run_pieces_asft, SFT: run_pieces_sft, SFT_RE: run_pieces_sft_re}


@kernel(nogil=True)
def carry_states(ends, wl_r, wl_i, ar, br, w_r, w_i, carry):
    """The true state before each piece, as the weights of its missing part.

    ``S`` before piece ``q + 1`` is ``w^length S + ends[q]`` (``S = 0`` before
    piece 0); ``carry[row, q]`` (``(2, P)``) is ``(ar_p - i br_p) w_p S_p``,
    so that piece ``q`` misses ``Re sum_p carry_p w_p^u`` at its step ``u``.
    """
    rows, Q, _, P = ends.shape
    for r in range(rows):
        for p in range(P):
            sr = 0.0
            si = 0.0
            for q in range(Q):
                # (ar - i br)(w_r + i w_i) = (ar w_r + br w_i) + i (ar w_i - br w_r)
                kr = ar[p] * w_r[p] + br[p] * w_i[p]
                ki = ar[p] * w_i[p] - br[p] * w_r[p]
                carry[r, q, 0, p] = kr * sr - ki * si
                carry[r, q, 1, p] = kr * si + ki * sr
                nr = wl_r[p] * sr - wl_i[p] * si + ends[r, q, 0, p]
                ni = wl_r[p] * si + wl_i[p] * sr + ends[r, q, 1, p]
                sr = nr
                si = ni


@kernel(nogil=True, noalias=True)
def add_carry(lo, hi, carry, L, M, length, Q, powers, wb_r, wb_i, out):
    """Tasks ``lo <= k < hi``: piece ``1 + k % (Q - 1)`` of row ``k // (Q - 1)`` gets its missing part.

    ``out[row, m - (L - 1)] += Re sum_p Z_p w_p^u`` for the piece's steps
    ``m = s + b B + u`` (``B`` = :data:`CARRY`), ``Z = carry w^(b B)`` moved on by
    ``wb = w^B`` each block; ``powers`` is ``(P, 2, B)``: ``Re, Im w_p^u``.
    Sixteen steps at a time on the explicit vectors, the ``P`` terms summed in
    registers (``sum_p Re Z_p Re w_p^u`` and ``sum_p Im Z_p Im w_p^u`` apart, fused
    multiply-adds in the components' order, each ``Z`` splat over the lanes),
    then added to ``out`` (float32 or float64), a loop that vectorises.  ``B``
    is a multiple of 16.
    """
    P = carry.shape[3]
    B = powers.shape[2]
    W = WIDTH
    pw = powers.reshape(powers.size)
    tmp = np.empty(B)
    one = splat16(1.0)
    zr = np.empty(P)
    zi = np.empty(P)
    for k in range(lo, hi):
        r = k // (Q - 1)
        q = 1 + k % (Q - 1)
        o = out[r]
        s = q * length
        for p in range(P):
            zr[p] = carry[r, q, 0, p]
            zi[p] = carry[r, q, 1, p]
        for b0 in range(0, length, B):
            m_lo = max(s + b0, L - 1)
            m_hi = min(s + b0 + B, s + length, M)
            if m_hi > m_lo:
                for u in range(0, B, W):
                    # the real and the imaginary parts' terms in two chains: twice the
                    # multiply-adds in flight (one chain of 2P waited on its latency)
                    are = mul(splat16(zr[0]), load16(pw, u))
                    aim = mul(splat16(zi[0]), load16(pw, B + u))
                    for p in range(1, P):
                        e = 2 * p * B + u
                        are = fma(splat16(zr[p]), load16(pw, e), are)
                        aim = fma(splat16(zi[p]), load16(pw, e + B), aim)
                    store16(tmp, u, fms(one, are, aim))
                u_lo = m_lo - (s + b0)
                d = s + b0 - (L - 1) + u_lo
                cnt = m_hi - m_lo
                ov = o[d:d + cnt]
                av = tmp[u_lo:u_lo + cnt]
                for i in range(cnt):
                    ov[i] += av[i]
            for p in range(P):
                a = zr[p] * wb_r[p] - zi[p] * wb_i[p]
                zi[p] = zr[p] * wb_i[p] + zi[p] * wb_r[p]
                zr[p] = a


#: Pieces are at least this long (in steps) ... (a row of 16 such pieces, 16,384 samples, runs
#: about twice as fast as the serial bank or the lane engine, and as fast as scipy.ndimage's
#: 33 taps at sigma 4: docs/performance.md, *Gaussian filters*)
MIN_PIECE = 1024

#: ... and a row is cut into at most this many groups of :data:`WIDTH` (a power of two, so that
#: the groups divide evenly among 1, 2, 4 or 8 threads).
MAX_GROUPS = 8


#: The pieces warm up (rather than get the carry) while their warm-ups add at most this share of
#: the steps.  The two cost the same near a third (1e6 float64 on the 2-core AMD EPYC, two threads:
#: the warm-up 11 % faster at sigma 128, a share of 0.15; 5 % at sigma 256, 0.30; 3 % slower at 320,
#: 0.38; on one thread 7 % faster at 128, even at 256).
_WARM_SHARE = 0.25

#: ``w^L`` within this of one is one (the SFT's frequencies, multiples of ``2 pi / L``).
_UNIT = 1e-12


def groups(n: int, L: int) -> int:
    """Groups of :data:`WIDTH` pieces a row of ``n`` outputs is cut into (0: too short for one).

    By the shape alone, never by the thread count.
    """
    g = min(MAX_GROUPS, (n + L - 1) // (WIDTH * MIN_PIECE))
    return 1 << (g.bit_length() - 1) if g >= 1 else 0


def warm_up(n: int, L: int) -> int:
    """Steps each piece of a row of ``n`` outputs re-reads before its first output, for a window of
    ``L`` (a multiple of :data:`BLOCK`), or 0 where the pieces get the carry instead.

    The pieces warm up where that adds at most :data:`_WARM_SHARE` of the steps.  Then each
    piece's recursion runs over its own ``length + warm`` steps alone, so its rounding is bounded
    by that, whatever the row's length; with the carry, the states are carried along the whole
    row.  By the shape alone.
    """
    G = groups(n, L)
    M = n + L - 1
    return -(-L // BLOCK) * BLOCK if G and G * WIDTH * L <= _WARM_SHARE * M else 0


def piece_steps(n: int, L: int) -> int:
    """The most steps one piece's recursion runs over (its length and its warm-up) for a row of
    ``n`` outputs and a window of ``L``."""
    Q = groups(n, L) * WIDTH
    return (-(-(n + L - 1) // Q) + warm_up(n, L)) if Q else 0


def run(x2d: np.ndarray, plan, mode: str, cval: float, out2d: np.ndarray) -> np.ndarray:
    """Filter the rows of ``x2d`` (C-contiguous float32/float64) with a real one-output
    ``iir1`` plan into ``out2d`` (rows, n; float32 or float64, not overlapping ``x2d``).

    Needs :func:`groups` ``>= 1`` and the explicit vectors (``.vectors.usable``).
    """
    rows, n = x2d.shape
    L = int(plan.length)
    M = n + L - 1
    G = groups(n, L)
    Q = G * WIDTH
    length = -(-M // Q)
    w = np.asarray(plan.w, dtype=np.complex128)
    P = w.size
    logw = np.log(w)
    wL = np.exp(L * logw)
    ar = np.ascontiguousarray(plan.coef[0, 0], dtype=np.float64)
    br = np.ascontiguousarray(plan.coef[0, 1], dtype=np.float64)
    sums = plan.window_sums
    dc = float(ar @ sums.real + br @ sums.imag)
    from .lanes import row_centres  # the lane engine's module, loaded when a row runs

    centre = row_centres(x2d, np.arange(rows, dtype=np.int64))
    base = np.ascontiguousarray(centre * dc)
    coefs = np.ascontiguousarray(np.stack([w.real, w.imag, wL.real, wL.imag, ar, br], axis=1))
    ends = np.zeros((rows, Q, 2, P))
    work = float(rows * Q * length * P)
    # the SFT (no damping, every w^L one up to rounding): the recursion's input is one difference
    diff = bool(plan.alpha == 0.0 and np.max(np.abs(wL - 1.0)) <= _UNIT)
    if diff:
        coefs[:, CR] = 1.0
        coefs[:, CI] = 0.0
    # each piece re-reads its window (a warm-up of L steps) where that costs less than the
    # carry, a pass of P multiply-adds per output; else it starts empty and gets the carry
    warm = warm_up(n, L)
    steps = (SFT if np.any(br) else SFT_RE) if diff else ASFT
    parallel_for(RUN_PIECES[steps], rows * G, x2d, centre, int(plan.pad_before), L, M,
                 MODE_CODES[mode], float(cval), length, G, warm, coefs, base, out2d, ends,
                 work=8.0 * work, chunks=rows * G)
    if warm:
        return out2d
    carry = np.empty_like(ends)
    wl = np.exp(length * logw)
    carry_states(ends, wl.real.copy(), wl.imag.copy(), ar, br, w.real.copy(), w.imag.copy(), carry)
    powers = np.exp(np.multiply.outer(logw, np.arange(CARRY, dtype=np.float64)))
    wb = np.exp(CARRY * logw)
    table = np.ascontiguousarray(np.stack([powers.real, powers.imag], axis=1))
    parallel_for(add_carry, rows * (Q - 1), carry, L, M, length, Q, table,
                 wb.real.copy(), wb.imag.copy(), out2d, work=2.0 * work)
    return out2d
