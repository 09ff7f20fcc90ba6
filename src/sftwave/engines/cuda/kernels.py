r"""CUDA kernels of the sliding sum (paper section IV, Algorithms 2-3) and the SFT on it.

No validation here (see ``sftwave.engines.cuda.filters``), and no import of
``numba.cuda`` at module level: the kernels are built on first use by
:func:`kernels`, so importing this module (as ``pytest --doctest-modules`` does)
never touches numba.cuda.  The index arithmetic is written as plain Python
functions (:func:`source_index`, :func:`cycle_fraction`, :func:`digit_reverse`)
that become device functions inside the kernels and can be tested directly.

Three steps, launched by ``sftwave.engines.cuda.filters``:

``modulate``
    Point-wise: extend each line by the boundary mode and write, for every
    order ``p`` (all in one thread), ``f_p[m] = x_e[m] cos(omega_p m)`` and
    ``x_e[m] sin(omega_p m)`` as channels ``2p`` and ``2p + 1`` of ``g``
    (``shape (lines, channels, N_pad)``, zero from ``len(x_e)`` on).
``stage``
    One stage of Algorithm 3 (SSSG) for all channels of a chunk in one thread:
    blocks of (16, 8) threads, a (16, 8) tile of ``s`` (the running ``g``) and
    ``t`` (the running ``h``) per channel in shared memory, three doubling steps
    (distances 1, 2, 4) driven by the three low bits of ``L_k``, and the write
    with ``x_T`` and ``y_T`` exchanged, which is the rearrangement of the
    paper's Fig. "Rearrangement of elements".
``sum_*`` / ``sft_*`` (the output kernels)
    Point-wise: read the final ``h`` through the inverse rearrangement (an
    octal digit reversal), turn the windowed sums of ``x e^{i omega m}`` into
    the components ``S_p`` and combine them with the plan's coefficients.
"""

from __future__ import annotations

import math
from functools import cache
from types import SimpleNamespace

from .._boundary import source_index  # the one extension rule, compiled here for the device

__all__ = [
    "TILE_X",
    "TILE_Y",
    "source_index",
    "cycle_fraction",
    "digit_reverse",
    "kernels",
]

#: Threads per block of the stage kernel, as in the paper: 16 along x (eight
#: elements and the eight that follow them), 8 along y (eight rows per block).
TILE_X, TILE_Y = 16, 8

#: Threads per block of the point-wise kernels.
POINTWISE_THREADS = 128

_TWO_PI = 2.0 * math.pi

#: ``numba.cuda``, bound by :func:`kernels` on first use.  The kernels must see
#: it as a module global: numba-cuda's simulator swaps the globals that refer
#: to ``numba.cuda`` for its fake module while a kernel runs.
cuda = None


def cycle_fraction(nu_hi: float, nu_lo: float, m: int) -> float:
    """The fractional part of ``(nu_hi + nu_lo) * m``, to float64 rounding.

    ``nu = omega / (2 pi)`` is split so that ``nu_hi`` has at most 24
    significant bits (a float32 value) and ``|nu_lo| <= 2**-24 |nu|``.  Then
    ``nu_hi * m`` is exact in float64 for ``|m| < 2**29`` and its fractional
    part is taken exactly; ``nu_lo * m`` is small, so its rounding error is
    ~2**-77 |nu m|.  The phase ``2 pi * fraction`` is then accurate to ~1e-15
    radians however long the line, where ``omega * m`` reduced modulo 2 pi in
    float64 would lose ``|omega m| * 1e-16`` (1e-10 radians at a million
    samples).  Beyond ``2**29`` samples the error grows as ``|nu m| * 2**-53``.

    Examples
    --------
    >>> import numpy as np
    >>> from fractions import Fraction
    >>> nu, m = 0.1, 123_456_789
    >>> hi = float(np.float32(nu))
    >>> exact = float(Fraction(nu) * m % 1)          # with the float64 value of nu
    >>> abs(cycle_fraction(hi, nu - hi, m) - exact) < 1e-15
    True
    >>> abs((nu * m) % 1 - exact) > 1e-11             # plain float64 reduction
    True
    """
    a = nu_hi * m
    f = a - math.floor(a)
    f += nu_lo * m
    return f - math.floor(f)


def digit_reverse(r: int, digits: int) -> int:
    """``r`` with its lowest ``digits`` octal digits in reverse order.

    After ``S`` stages the element of original position ``8**S a + r`` sits
    in row ``a`` and column ``digit_reverse(r, S)`` (see :func:`kernels`).

    Examples
    --------
    >>> oct(digit_reverse(0o123, 3))
    '0o321'
    """
    out = 0
    for _ in range(digits):
        out = out * 8 + (r & 7)
        r >>= 3
    return out


@cache
def finite_flag():
    """The kernel ``finite_flag(x, flag)``: ``flag[0] = 1`` where an element of the
    1-D array ``x`` (either part, if complex) is not finite; a grid-stride loop."""
    global cuda
    from numba import cuda as _cuda

    cuda = _cuda

    @cuda.jit
    def finite_flag(x, flag):
        i = cuda.grid(1)
        step = cuda.gridsize(1)
        while i < x.size:
            v = x[i]
            if not (math.isfinite(v.real) and math.isfinite(v.imag)):
                flag[0] = 1
            i += step

    return finite_flag


@cache
def kernels(chunk: int, dtype_name: str) -> SimpleNamespace:
    r"""Build (once per chunk size and dtype) the three kernels.

    ``chunk`` is the number of channels a block of the stage kernel holds in
    shared memory (all of them handled by every thread); ``dtype_name`` is
    ``'float32'`` or ``'float64'``, the type of the sliding sums.

    Layout.  Between stages every channel of a line is a 2-D array stored
    column by column: at the input of stage ``k`` (``k = 0, 1, ...``) it has
    ``C = 8**k`` columns of ``R = N_pad / 8**k`` rows, element ``(a, b)`` at
    flat index ``b R + a`` holds the value of original position
    ``C a + rev_k(b)`` (``rev_k``: reversal of ``k`` octal digits), so going
    down a column steps by ``C`` samples.  A stage sums along columns, over
    distances 1, 2, 4 rows (``C``, ``2C``, ``4C`` samples), and writes element
    ``(8 a' + i, b)`` to row ``a'`` and column ``i + 8 b`` of the next layout:
    the paper's ``g_2[x_T + 8 x_B][y_T + 8 y_B] <- s[y_T][x_T]``.

    Blocks.  A block of (16, 8) threads holds eight *groups* (``y_T``), each
    eight consecutive rows of one column plus the eight rows after them
    (``x_T = 0 .. 15``, zero past the column's end).  Group ``8 B + y_T`` of
    block ``B`` is rows ``8 j .. 8 j + 7`` of column ``c`` with
    ``(c, j) = divmod(8 B + y_T, R / 8)``: when ``R`` is a multiple of 64 this
    is the paper's ``x_T + 8 y_T + 64 x_B`` in column ``y_B`` with the
    block index ``B = x_B + (R / 64) y_B``; for shorter columns (the last
    stages of a long window) the groups of several columns share a block, so
    no block idles.
    """
    global cuda
    import numba
    from numba import cuda as _cuda

    cuda = _cuda
    wt = numba.float32 if dtype_name == "float32" else numba.float64
    CH = int(chunk)
    TX, TY = TILE_X, TILE_Y
    TWO_PI = _TWO_PI

    @cuda.jit(device=True)
    def centred(c):
        """A fraction of a cycle in [0, 1) moved to [-1/2, 1/2): a phase in [-pi, pi),
        where its rounding to float32 costs at most half an ulp of pi."""
        return c - 1.0 if c >= 0.5 else c

    src_index = cuda.jit(device=True)(source_index)
    frac = cuda.jit(device=True)(cycle_fraction)
    rev = cuda.jit(device=True)(digit_reverse)

    @cuda.jit
    def modulate(x3, line0, inner, n, pad_before, n_ext, mode, cval, part, nu_hi, nu_lo, plain, g):
        """g[b, 2p + (0|1), m] = x_e[m] (cos|sin)(2 pi nu_p m); g[b, 0, m] = x_e[m] if plain.

        ``x_e`` is the real (``part`` 0) or imaginary (``part`` 1) part of the line.
        """
        m = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
        b = cuda.blockIdx.y
        if m >= g.shape[2]:
            return
        line = line0 + b
        o = line // inner
        q = line - o * inner
        v = wt(0.0)
        if m < n_ext:
            j = src_index(m - pad_before, n, mode)
            if j < 0:
                v = wt(cval)
            elif part == 0:
                v = wt(x3[o, j, q].real)
            else:
                v = wt(x3[o, j, q].imag)
        if plain:
            g[b, 0, m] = v
        else:
            for p in range(nu_hi.shape[0]):
                ph = wt(TWO_PI * centred(frac(nu_hi[p], nu_lo[p], m)))
                g[b, 2 * p, m] = v * math.cos(ph)
                g[b, 2 * p + 1, m] = v * math.sin(ph)

    @cuda.jit
    def stage(g1, h1, g2, h2, R, Lk, first, need_g, nch, nchunks):
        """One SSSG stage (Algorithm 3) over all channels ``c0 .. c0 + CH - 1`` of a line."""
        xt = cuda.threadIdx.x
        yt = cuda.threadIdx.y
        line = cuda.blockIdx.y // nchunks
        c0 = (cuda.blockIdx.y - line * nchunks) * CH
        groups = g1.shape[2] // 8  # eight rows each, over all columns
        gpc = R // 8  # groups per column (= rows of the next layout)
        s = cuda.shared.array((CH, TX, TY), wt)
        t = cuda.shared.array((CH, TX, TY), wt)
        ns = cuda.local.array(CH, wt)
        nt = cuda.local.array(CH, wt)

        # load: s[x_T][y_T] <- g_1[row][col], t[x_T][y_T] <- h_1[row][col]
        grp = TY * cuda.blockIdx.x + yt
        col = grp // gpc
        row = 8 * (grp - col * gpc) + xt
        inside = grp < groups and row < R
        idx = col * R + row
        for c in range(CH):
            ch = c0 + c
            if inside and ch < nch:
                s[c, xt, yt] = g1[line, ch, idx]
                if first:
                    t[c, xt, yt] = wt(0.0)
                else:
                    t[c, xt, yt] = h1[line, ch, idx]
            else:
                s[c, xt, yt] = wt(0.0)
                t[c, xt, yt] = wt(0.0)
        cuda.syncthreads()

        # three doubling steps; every thread reads its neighbour before anyone
        # writes (the paper's in-place update is a race without the barrier)
        for r in range(3):
            d = 1 << r
            bit = (Lk >> r) & 1
            active = xt < TX - d
            if active:
                for c in range(CH):
                    if bit:
                        nt[c] = s[c, xt, yt] + t[c, xt + d, yt]
                    ns[c] = s[c, xt, yt] + s[c, xt + d, yt]
            cuda.syncthreads()
            if active:
                for c in range(CH):
                    if bit:
                        t[c, xt, yt] = nt[c]
                    s[c, xt, yt] = ns[c]
            cuda.syncthreads()

        # store with x_T and y_T exchanged: g_2[x_T + 8 x_B][y_T + 8 y_B] <- s[y_T][x_T]
        if xt < 8:
            grp2 = TY * cuda.blockIdx.x + xt
            if grp2 < groups:
                col2 = grp2 // gpc
                row2 = grp2 - col2 * gpc
                idx2 = (yt + 8 * col2) * gpc + row2
                for c in range(CH):
                    ch = c0 + c
                    if ch < nch:
                        h2[line, ch, idx2] = t[c, yt, xt]
                        if need_g:
                            g2[line, ch, idx2] = s[c, yt, xt]

    @cuda.jit(device=True)
    def where(i, line0, inner, stages, R):
        """(o, q, idx): the line's place in out3, and the final h index of position i."""
        line = line0 + cuda.blockIdx.y
        o = line // inner
        q = line - o * inner
        # undo the rearrangement: position 8**S a + r sits at row a, column rev_S(r)
        shift = 3 * stages
        a = i >> shift
        r = i - (a << shift)
        return o, q, rev(r, stages) * R + a

    @cuda.jit(device=True)
    def sft_value(h, b, idx, m_last, nu_hi, nu_lo, ar, br, ai, bi):
        """(Re, Im) of sum_p coef_p . S_p, S_p = exp(-i omega_p m_last) (h_{2p} + i h_{2p+1})."""
        yr = wt(0.0)
        yi = wt(0.0)
        for p in range(nu_hi.shape[0]):
            ph = wt(TWO_PI * centred(frac(nu_hi[p], nu_lo[p], m_last)))
            cs = math.cos(ph)
            sn = math.sin(ph)
            hr = h[b, 2 * p, idx]
            hi = h[b, 2 * p + 1, idx]
            sr = cs * hr + sn * hi
            si = cs * hi - sn * hr
            yr += ar[p] * sr + br[p] * si
            yi += ai[p] * sr + bi[p] * si
        return yr, yi

    # The output kernels: one per kind of store, so that none holds a store
    # numba could not type (a complex value into a real array).  Output i of a
    # line comes from h at position i; for the SFT, S_p[i] is
    # exp(-i omega_p (i + L - 1)) * sum_{m=i}^{i+L-1} x_e[m] exp(i omega_p m).

    @cuda.jit
    def sum_set(h, line0, inner, n, stages, R, out3):
        """out = h (the bare sliding sum, real pass)."""
        i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
        if i < n:
            o, q, idx = where(i, line0, inner, stages, R)
            out3[o, i, q] = h[cuda.blockIdx.y, 0, idx]

    @cuda.jit
    def sum_add_i(h, line0, inner, n, stages, R, out3):
        """out += 1j * h (the bare sliding sum, pass over the imaginary part)."""
        i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
        if i < n:
            o, q, idx = where(i, line0, inner, stages, R)
            out3[o, i, q] += complex(0.0, h[cuda.blockIdx.y, 0, idx])

    @cuda.jit
    def sft_real(h, line0, inner, n, L, stages, R, nu_hi, nu_lo, ar, br, ai, bi, out3):
        """out = Re y (a real plan on real input)."""
        i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
        if i < n:
            o, q, idx = where(i, line0, inner, stages, R)
            yr, _ = sft_value(h, cuda.blockIdx.y, idx, i + L - 1, nu_hi, nu_lo, ar, br, ai, bi)
            out3[o, i, q] = yr

    @cuda.jit
    def sft_complex(h, line0, inner, n, L, stages, R, nu_hi, nu_lo, ar, br, ai, bi, out3):
        """out = y (complex output: a complex plan, or the real part of complex input)."""
        i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
        if i < n:
            o, q, idx = where(i, line0, inner, stages, R)
            yr, yi = sft_value(h, cuda.blockIdx.y, idx, i + L - 1, nu_hi, nu_lo, ar, br, ai, bi)
            out3[o, i, q] = complex(yr, yi)

    @cuda.jit
    def sft_add_i(h, line0, inner, n, L, stages, R, nu_hi, nu_lo, ar, br, ai, bi, out3):
        """out += 1j * y (the pass over the imaginary part of complex input)."""
        i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
        if i < n:
            o, q, idx = where(i, line0, inner, stages, R)
            yr, yi = sft_value(h, cuda.blockIdx.y, idx, i + L - 1, nu_hi, nu_lo, ar, br, ai, bi)
            out3[o, i, q] += complex(-yi, yr)

    return SimpleNamespace(modulate=modulate, stage=stage, sum_set=sum_set, sum_add_i=sum_add_i,
                           sft_real=sft_real, sft_complex=sft_complex, sft_add_i=sft_add_i,
                           chunk=CH, dtype_name=dtype_name)
