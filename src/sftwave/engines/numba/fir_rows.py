"""Small-sigma Gaussian FIRs in float32 over blocks of whole rows: images, photos, volumes.

scipy's ``correlate1d`` (and ``.fir_kernels``, its arithmetic bit for bit)
filters one axis at a time in float64, through a float64 copy of the whole
input for integer data.  For float32 and integer input (8 and 16 bits, bool)
this module filters in float32 on explicit 16-lane vectors
(``.vectors``), with a symmetric kernel's taps folded (``(x[i-j] +
x[i+j]) w_j``, each sum added by one fused multiply-add):

* The input is viewed as ``(outer, H, W * C)``: ``H`` the *vertical* axis (a
  non-last axis: every tap is a whole row ``y[i, :] += w_k x[i + k, :]``,
  vectorised along the contiguous row), ``W`` the *horizontal* axis (taps
  ``C`` elements apart along the row: ``C`` is 1 for a grey image, 3 for an
  RGB photo whose channels are not filtered) and ``C`` the elements of the
  axes after it, not filtered (:func:`plan_passes`).
* A task is a block of output rows of one plane (and, without a horizontal
  pass, a block of columns).  Its input rows are converted to float32 one at a
  time into a ring of ``2 R + 1`` rows that stays in cache (no float64 or
  float32 copy of the whole input, and strided views, reversed or
  Fortran-ordered arrays are read where they lie); the vertical sum of the
  ring's rows goes into one padded row, which the horizontal pass filters
  while it is in L1; the result is cast to the output's dtype as
  :func:`~sftwave.engines.numba.filters.cast_into` casts (truncation toward
  zero, saturation at the integer dtype's ends).
* The tasks write disjoint output rows and read the input only, so the
  output must not overlap the input (the caller gives a fresh array there).

Each output sample is computed by the same operations in the same order
whatever the task it falls in, so the result does not depend on the thread
count or on the blocking.  The error against the exact Gaussian is scipy's
own (the truncated kernel's) plus float32 rounding, a few units of 6e-8 of
the data's scale: tests/test_fir_rows.py checks it against dense float64
convolution.
"""

from __future__ import annotations

import numpy as np

from ._jit import kernel, source_index
from ._rows import (
    MAX_CHANNELS,
    ROWS_INPUT_DTYPES,
    ROWS_OUTPUT_DTYPES,
    half_kernel,
    pass_views,
    plan_passes,
    product,
)
from .vectors import fma, load16, mul, store16

__all__ = ["separable_rows", "ROW_BLOCK", "half_kernel", "plan_passes", "MAX_CHANNELS"]

#: Output rows of one plane in one task (a fused vertical and horizontal pass).
ROW_BLOCK = 32

#: Tasks (column blocks) from which a vertical-only pass runs whole columns, not row blocks.
MIN_TASKS = 32

#: Elements of the ring of converted rows that a task aims to keep (float32: 512 KiB), which
#: sets the column block of a vertical-only pass.
RING_ELEMENTS = 1 << 17

#: Rows longer than this many elements get a horizontal pass in column blocks of this many
#: (each reads its neighbours' ``R`` pixels on either side): a long line ran as one task, its
#: converted row, vertical results and output row (12 bytes per element, fresh pages on
#: every call) beyond the second-level cache; a float32 line of 1e6 samples took 9 to 11 ms.
ROW_ELEMENTS = 1 << 14

#: The pool counts work in scalar multiply-adds (``pool.SERIAL_WORK``); these passes run a
#: tap on 8 float32 lanes at once (explicit vectors), so a sample's tap is this fraction of
#: a unit.  Counted as scalar, 128 x 128 images at sigma 2 went to the threads and ran
#: slower than on the calling thread alone (on 2 cores the threads pay from about 256 x 256
#: to 384 x 384: docs/performance.md, *Small-sigma images*).
VECTOR_LANES = 8


@kernel(inline="always")
def add16(a, b, one):
    """``a + b`` on two :class:`~.vectors.LaneVector` values, as ``a * 1 + b`` (exact; one
    fused multiply-add, which costs what an addition does)."""
    return fma(a, one, b)


@kernel(inline="always")
def _vertical(ring, slots, rv, wv, base, ncol, tmp, pad, ones):
    """``tmp[pad + k] = sum_j wv_j (row_{-j} + row_{+j})[base + k]`` for ``k < ncol``.

    ``slots[j]`` is the offset in ``ring`` of the row ``j - rv`` rows from the
    output row; ``wv`` the half kernel (``wv[0]`` the centre).  Four vectors
    of 16 columns side by side (four independent chains of fused
    multiply-adds), then one at a time; up to 15 elements past ``ncol`` are
    read and written (the callers' buffers have that margin).
    """
    c0 = slots[rv]
    k = 0
    one = load16(ones, 0)
    while k + 64 <= ncol:
        a0 = mul(load16(ring, c0 + base + k), load16(wv, 0))
        a1 = mul(load16(ring, c0 + base + k + 16), load16(wv, 0))
        a2 = mul(load16(ring, c0 + base + k + 32), load16(wv, 0))
        a3 = mul(load16(ring, c0 + base + k + 48), load16(wv, 0))
        for j in range(1, rv + 1):
            lo = slots[rv - j] + base + k
            hi = slots[rv + j] + base + k
            w = load16(wv, 16 * j)
            a0 = fma(add16(load16(ring, lo), load16(ring, hi), one), w, a0)
            a1 = fma(add16(load16(ring, lo + 16), load16(ring, hi + 16), one), w, a1)
            a2 = fma(add16(load16(ring, lo + 32), load16(ring, hi + 32), one), w, a2)
            a3 = fma(add16(load16(ring, lo + 48), load16(ring, hi + 48), one), w, a3)
        store16(tmp, pad + k, a0)
        store16(tmp, pad + k + 16, a1)
        store16(tmp, pad + k + 32, a2)
        store16(tmp, pad + k + 48, a3)
        k += 64
    while k < ncol:
        # the last vector may reach past ncol: into the rows' margins, never stored beyond
        # them, so every column gets the same operations (the same bits wherever it falls)
        a0 = mul(load16(ring, c0 + base + k), load16(wv, 0))
        for j in range(1, rv + 1):
            a0 = fma(add16(load16(ring, slots[rv - j] + base + k),
                           load16(ring, slots[rv + j] + base + k), one), load16(wv, 16 * j), a0)
        store16(tmp, pad + k, a0)
        k += 16


@kernel(inline="always")
def _horizontal(tmp, pad, rh, wh, step, ncol, res, ones):
    """``res[k] = sum_j wh_j (tmp[pad + k - j step] + tmp[pad + k + j step])`` for ``k < ncol``."""
    k = 0
    one = load16(ones, 0)
    while k + 64 <= ncol:
        c = pad + k
        a0 = mul(load16(tmp, c), load16(wh, 0))
        a1 = mul(load16(tmp, c + 16), load16(wh, 0))
        a2 = mul(load16(tmp, c + 32), load16(wh, 0))
        a3 = mul(load16(tmp, c + 48), load16(wh, 0))
        for j in range(1, rh + 1):
            lo = c - j * step
            hi = c + j * step
            w = load16(wh, 16 * j)
            a0 = fma(add16(load16(tmp, lo), load16(tmp, hi), one), w, a0)
            a1 = fma(add16(load16(tmp, lo + 16), load16(tmp, hi + 16), one), w, a1)
            a2 = fma(add16(load16(tmp, lo + 32), load16(tmp, hi + 32), one), w, a2)
            a3 = fma(add16(load16(tmp, lo + 48), load16(tmp, hi + 48), one), w, a3)
        store16(res, k, a0)
        store16(res, k + 16, a1)
        store16(res, k + 32, a2)
        store16(res, k + 48, a3)
        k += 64
    while k < ncol:
        # the last vector may reach past ncol (see _vertical)
        c = pad + k
        a0 = mul(load16(tmp, c), load16(wh, 0))
        for j in range(1, rh + 1):
            a0 = fma(add16(load16(tmp, c - j * step), load16(tmp, c + j * step), one),
                     load16(wh, 16 * j), a0)
        store16(res, k, a0)
        k += 16


#: Output rows filtered together: the vertical pass runs over them strip by strip, so that
#: the strip of the ring's rows it reads stays in L1 (each converted row is read from L2
#: once per group instead of once per output row).
GROUP = 16

#: Bytes of the ring's strip that the vertical pass aims to keep in L1.
STRIP_BYTES = 24 * 1024


@kernel(nogil=True)
def separable_rows(lo_task, hi_task, x3, wv, wh, step, vmode, hmode, cval, row_block, col_block,
                   clip, lo_val, hi_val, out3):
    """Filter tasks ``lo_task <= t < hi_task`` of ``x3`` ``(outer, H, W * step)`` into ``out3``.

    ``wv``, ``wh``: half kernels (centre first) of the vertical (axis 1) and
    horizontal (along axis 2, taps ``step`` elements apart: ``W`` pixels of
    ``step`` channels) passes, each tap repeated 16 times (float32, ``16 (R +
    1)`` long; ``R = 0``, a single 1: no such pass).  Tasks run over
    ``(outer, row blocks of row_block rows, column blocks of col_block
    pixels)``; with a horizontal pass, a column block takes the ``rh`` pixels
    beyond it on either side from its neighbours (or the extension, at the
    row's ends) into its vertical pass, so that every output pixel gets the
    same operations whatever the blocks: the same bits.  ``clip``: the
    output is an integer dtype, its values are clamped to ``[lo_val,
    hi_val]`` and truncated toward zero.

    Within a task, output rows go in groups of :data:`GROUP`: their new input
    rows are converted into the ring, the vertical pass runs over the group
    strip by strip of columns, then each row gets its horizontal pass and is
    cast into the output.
    """
    outer, H, L = x3.shape
    W = L // step
    rv = wv.size // 16 - 1
    rh = wh.size // 16 - 1
    nrb = -(-H // row_block)
    ncb = -(-W // col_block)
    span = 2 * rv + 1
    S = span + GROUP                    # ring rows: a group's window
    cols = col_block * step
    # a horizontal pass in column blocks: each block's vertical pass also runs over the
    # ``halo`` elements on either side that its horizontal pass reads
    halo = rh * step if (rh > 0 and ncb > 1) else 0
    # elements between the ring's rows: one row and a cache line or two, so that rows whose
    # size is a multiple of 4 KiB do not all fall in the same sets of the L1 cache
    width = cols + 2 * halo + 16 + 32 * ((cols + 2 * halo) % 1024 == 0)
    # where each of a block's halo elements comes from (-1: the constant)
    halo_src = np.empty(2 * halo, dtype=np.int64)
    ring = np.empty(S * width + 16, dtype=np.float32)
    pad = rh * step + 16                # a padded row's left margin (room for a full vector)
    lead = pad if rh > 0 else 0         # where a row's vertical result starts in its slot of vt
    rowlen = pad + cols + rh * step + 16
    vt = np.empty(GROUP * rowlen, dtype=np.float32)
    res = np.empty(cols + 16, dtype=np.float32)
    slots = np.empty((GROUP, span), dtype=np.int64)
    strip = max(64, (STRIP_BYTES // (4 * S)) // 64 * 64)
    fill = np.float32(cval)
    ones = np.ones(16, dtype=np.float32)
    for task in range(lo_task, hi_task):
        o = task // (nrb * ncb)
        rb = (task // ncb) % nrb
        cb = task % ncb
        r0 = rb * row_block
        r1 = min(H, r0 + row_block)
        k0 = cb * col_block * step
        k1 = min(L, k0 + col_block * step)
        ncol = k1 - k0
        for h in range(2 * halo):
            e = k0 - halo + h if h < halo else k1 + h - halo
            if 0 <= e < L:
                halo_src[h] = e
            else:
                pix = e // step
                sp = source_index(pix, W, hmode)
                halo_src[h] = -1 if sp < 0 else sp * step + (e - pix * step)
        loaded = r0 - rv                # the next row to convert
        for g0 in range(r0, r1, GROUP):
            g1 = min(r1, g0 + GROUP)
            ng = g1 - g0
            # convert rows up to g1 - 1 + rv into the ring (row t in slot t mod S)
            for t in range(loaded, g1 + rv):
                base = (((t % S) + S) % S) * width
                src = t if 0 <= t < H else source_index(t, H, vmode)
                if src < 0:
                    for k in range(ncol + 2 * halo):
                        ring[base + k] = fill
                else:
                    xs = x3[o, src, k0:k1]
                    rr = ring[base + halo:base + halo + ncol]
                    for k in range(ncol):
                        rr[k] = np.float32(xs[k])
                    for h in range(2 * halo):
                        e = halo_src[h]
                        ring[base + (h if h < halo else ncol + h)] = (
                            np.float32(0.0) if e < 0 else np.float32(x3[o, src, e]))
            loaded = g1 + rv
            for r in range(ng):
                for j in range(span):
                    slots[r, j] = (((g0 + r - rv + j) % S + S) % S) * width
            # the vertical pass, strip by strip, each output row of the group in turn
            for c0 in range(0, ncol + 2 * halo, strip):
                nc = min(strip, ncol + 2 * halo - c0)
                for r in range(ng):
                    # one call site: each inlined copy is typed and compiled on its own
                    _vertical(ring, slots[r], rv, wv, c0, nc, vt, r * rowlen + lead - halo + c0, ones)
            for r in range(ng):
                i = g0 + r
                if rh > 0 and halo > 0:
                    # the halo's vertical results are in place; outside the row, the constant
                    p0 = r * rowlen + pad
                    for h in range(2 * halo):
                        if halo_src[h] < 0:
                            vt[p0 - halo + (h if h < halo else ncol + h)] = fill
                    _horizontal(vt, p0, rh, wh, step, ncol, res, ones)
                    row = res
                elif rh > 0:
                    p0 = r * rowlen + pad
                    for e in range(1, rh + 1):
                        sl = source_index(-e, W, hmode)
                        sr = source_index(W - 1 + e, W, hmode)
                        for c in range(step):
                            vt[p0 - e * step + c] = fill if sl < 0 else vt[p0 + sl * step + c]
                            vt[p0 + (W - 1 + e) * step + c] = (fill if sr < 0
                                                               else vt[p0 + sr * step + c])
                    _horizontal(vt, p0, rh, wh, step, ncol, res, ones)
                    row = res
                else:
                    row = vt[r * rowlen:r * rowlen + ncol]
                od = out3[o, i, k0:k1]
                if clip:
                    for k in range(ncol):
                        od[k] = min(max(row[k], lo_val), hi_val)
                else:
                    for k in range(ncol):
                        od[k] = row[k]


# ----------------------------------------------------------------------------- driver

#: Input dtypes this path takes (float64 stays on scipy's float64 arithmetic, bit for bit).
INPUT_DTYPES = ROWS_INPUT_DTYPES

#: Output dtypes it writes (float32, or integers whose ends float32 holds exactly).
OUTPUT_DTYPES = ROWS_OUTPUT_DTYPES

_ONE = np.ones(16, dtype=np.float32)


def _view(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray | None:
    """``a`` reshaped to ``shape`` without a copy (None where numpy would copy)."""
    v = a.reshape(shape)
    return v if (a.size == 0 or np.may_share_memory(v, a)) else None


def filter_rows(x: np.ndarray, steps, cval: float, out: np.ndarray, cast_into) -> np.ndarray | None:
    """Filter ``x`` along the steps' axes with this module's kernels, into ``out``.

    ``steps``: ``(axis, weights, mode)`` with ``weights`` from
    :func:`half_kernel`; ``out`` of a dtype in :data:`OUTPUT_DTYPES`.
    ``cast_into(out, values)``: the engine's cast, for an ``out`` the kernel
    cannot write itself (one that overlaps ``x``, or a layout numpy cannot
    view as the passes need).  Returns ``out``, or None where the layout does
    not suit (an axis twice, an input numpy cannot reshape without a copy):
    the caller takes its own path, nothing was written.
    """
    go = rows_runner(x.shape, steps, cval, out.dtype)
    if go is None or _view(x, go.in_shape) is None:
        return None
    final = out
    out3 = None if np.may_share_memory(out, x) else _view(out, go.out_shape)
    if out3 is None:
        final = np.empty(x.shape, dtype=out.dtype)
    go(x, final)
    if final is out:
        return out
    cast_into(out, final)
    return out


class _RowsRun:
    """:func:`filter_rows`'s passes for one shape, steps and output dtype, found once.

    ``run(x, out)`` filters ``x`` (viewable as :attr:`in_shape` without a copy) into
    ``out`` (of the shape and the output dtype, viewable as :attr:`out_shape`, not
    overlapping ``x``).
    """

    def __init__(self, shape, views, calls):
        self.shape = shape
        self.in_shape = views[0]
        self.out_shape = views[-1]
        self._views = views
        self._calls = calls      # per pass: (its loop, the arguments before and after the arrays)

    def __call__(self, x: np.ndarray, out: np.ndarray) -> np.ndarray:
        src = x.reshape(self._views[0])
        bufs: list[np.ndarray] = []
        last_pass = len(self._calls) - 1
        for p, (loop, head, tail) in enumerate(self._calls):
            if p == last_pass:
                dst = out.reshape(self._views[p])
            else:
                if len(bufs) < 2:
                    bufs.append(np.empty(self.shape, dtype=np.float32))
                dst = bufs[p % 2].reshape(self._views[p])
            loop(src, *head, *tail, dst)
            if p != last_pass:
                src = bufs[p % 2].reshape(self._views[p + 1])
        return out


def rows_runner(shape: tuple[int, ...], steps, cval: float, out_dtype) -> _RowsRun | None:
    """:func:`filter_rows`'s passes for arrays of ``shape`` into ``out_dtype``, prepared once.

    None where :func:`filter_rows` declines whatever the layout (an axis
    twice, no samples, an output dtype outside :data:`OUTPUT_DTYPES`).  The
    same kernels with the same arguments as :func:`filter_rows`, so the same
    bits.
    """
    from .._boundary import MODE_CODES
    from .pool import prepared_for

    by_axis = {ax: (w, mode) for ax, w, mode in steps}
    size = product(shape)
    if len(by_axis) != len(steps) or size == 0 or np.dtype(out_dtype) not in OUTPUT_DTYPES:
        return None
    passes = plan_passes(shape, list(by_axis))
    views, steps_ = pass_views(shape, passes)
    calls = []
    for p, (va, ha) in enumerate(passes):
        dst_dtype = np.dtype(out_dtype) if p == len(passes) - 1 else np.dtype(np.float32)
        wv, vmode = by_axis[va] if va is not None else (_ONE, "reflect")
        wh, hmode = by_axis[ha] if ha is not None else (_ONE, "reflect")
        outer, H, L = views[p]
        W = L // steps_[p]
        rv = wv.size // 16 - 1
        rh = wh.size // 16 - 1
        if ha is not None:
            # long rows in column blocks of about ROW_ELEMENTS elements (shared among the threads)
            col_block = W if L <= ROW_ELEMENTS else max(16, ROW_ELEMENTS // steps_[p])
        else:
            col_block = max(64, (RING_ELEMENTS // (2 * rv + 1)) // 64 * 64)
            col_block = min(W, col_block)
        row_block = max(ROW_BLOCK, 2 * rv)
        if ha is None and outer * -(-W // col_block) >= MIN_TASKS:
            # enough column blocks to share out: each runs all its rows, and reads every
            # input row once (row blocks would read their 2 R halo rows twice)
            row_block = H
        tasks = outer * -(-H // row_block) * -(-W // col_block)
        clip = dst_dtype.kind in "iu"
        lo = hi = np.float32(0)
        if clip:
            info = np.iinfo(dst_dtype)
            lo, hi = np.float32(info.min), np.float32(info.max)
        loop = prepared_for(separable_rows, tasks, work=float(size) * (rv + rh + 2) / VECTOR_LANES)
        calls.append((loop, (wv, wh, steps_[p], MODE_CODES[vmode], MODE_CODES[hmode], float(cval)),
                      (row_block, col_block, clip, lo, hi)))
    return _RowsRun(tuple(shape), views, calls)
