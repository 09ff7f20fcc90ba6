"""scipy.ndimage's ``correlate1d`` sums in numpy: the same bits, without numba or scipy.ndimage.

``NI_Correlate1D`` extends each line into a double buffer and computes, for a
symmetric filter, ``out = in[0] w[0] + sum_{j=-c}^{-1} (in[j] + in[-j]) w[j]``
(accumulated in that order), with a difference for an antisymmetric filter and
a plain sum otherwise (``.fir_kernels`` repeats the same operations in numba).
:func:`correlate_lines` runs the same operations in the same order, one numpy
operation per tap over every output at once: each is an IEEE double
operation, rounded as C's, so the results are scipy's bit for bit.  numpy
never fuses a multiply with the add that follows it (scipy's x86-64 wheels
do not either), which is what makes the bits portable.

It serves the calls that are over before numba's import would have paid
(``.small_fir``); a process whose work goes on loads the engine's kernels
instead.  This module imports numpy only.
"""

from __future__ import annotations

import os
import threading

import numpy as np

from .._boundary import CONSTANT, MODE_CODES, source_index

__all__ = ["SYMMETRIC", "ANTISYMMETRIC", "GENERAL", "symmetry", "extended_lines", "correlate_lines"]

SYMMETRIC, ANTISYMMETRIC, GENERAL = 1, -1, 0


def symmetry(weights: np.ndarray) -> int:
    """scipy's test: 1 symmetric, -1 antisymmetric, 0 neither (even lengths are neither).

    Symmetric where every pair of taps differs by at most float64's epsilon
    (scipy's ``DBL_EPSILON``), not only where they are equal.

    Examples
    --------
    >>> symmetry(np.array([0.25, 0.5, 0.25])), symmetry(np.array([-1.0, 0.0, 1.0]))
    (1, -1)
    >>> symmetry(np.array([1.0, 2.0]))
    0
    """
    size = weights.size
    if size % 2 == 0:
        return GENERAL
    c = size // 2
    eps = np.finfo(np.float64).eps
    idx = np.arange(1, c + 1)
    if np.all(np.abs(weights[c + idx] - weights[c - idx]) <= eps):
        return SYMMETRIC
    if np.all(np.abs(weights[c + idx] + weights[c - idx]) <= eps):
        return ANTISYMMETRIC
    return GENERAL


def extended_lines(x3: np.ndarray, left: int, right: int, mode: str, cval: float,
                   dtype: type = np.float64) -> np.ndarray:
    """``x3`` (outer, n, inner) in ``dtype``, extended along axis 1 by ``left`` and ``right``
    samples as scipy extends a line (:func:`~sftwave.engines._boundary.source_index`;
    ``cval`` in ``dtype`` where the mode reads it).

    Examples
    --------
    >>> extended_lines(np.array([[[1.0], [2.0]]]), 2, 1, "reflect", 0.0).ravel().tolist()
    [2.0, 1.0, 1.0, 2.0, 2.0]
    """
    outer, n, inner = x3.shape
    ext = np.empty((outer, left + n + right, inner), dtype=dtype)
    ext[:, left:left + n] = x3
    code = MODE_CODES[mode]
    for lo, hi in ((0, left), (left + n, left + n + right)):
        if hi == lo:
            continue
        if code == CONSTANT:
            ext[:, lo:hi] = cval
        else:
            src = source_index(np.arange(lo - left, hi - left, dtype=np.int64), n, code)
            ext[:, lo:hi] = np.take(x3, src, axis=1)
    return ext


#: Elements of one block's extended input (float64: 512 KiB): each tap's operation then runs
#: over memory in the second-level cache, whatever the array's size.
BLOCK_ELEMENTS = 1 << 16

#: The fewest inner elements side by side in a block (float64: four cache lines a row).
MIN_WIDTH = 32

_EXECUTOR: list = []
_EXECUTOR_LOCK = threading.Lock()


def _executor():
    """The process's pool for the blocks: one thread per CPU at most, started as needed
    (numpy's operations release the GIL).  A forked child starts a pool of its own."""
    with _EXECUTOR_LOCK:
        if not _EXECUTOR:
            from concurrent.futures import ThreadPoolExecutor

            _EXECUTOR.append(ThreadPoolExecutor(os.cpu_count() or 1,
                                                thread_name_prefix="sftwave-sums"))
        return _EXECUTOR[0]


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_EXECUTOR.clear)


def _blocks(outer: int, span: int, inner: int) -> list[tuple[int, int, int, int]]:
    """``(o0, o1, k0, k1)``: lines ``o0 .. o1`` of the outer axis and elements ``k0 .. k1`` of
    the inner one, each block whole along the filtered axis (so that a block reads all of
    its input before it writes: the output may be the input) and about
    :data:`BLOCK_ELEMENTS` extended samples."""
    width = min(inner, max(MIN_WIDTH, BLOCK_ELEMENTS // span // 8 * 8))
    lines = max(1, BLOCK_ELEMENTS // (span * inner)) if width == inner else 1
    return [(o, min(outer, o + lines), k, min(inner, k + width))
            for o in range(0, outer, lines) for k in range(0, inner, width)]


def _sums(ext: np.ndarray, w: np.ndarray, sym: int, c: int, size2: int) -> np.ndarray:
    """scipy's sums over ``ext`` (lines, n + c + size2, inner), extended: (lines, n, inner)."""
    lines, span, inner = ext.shape
    # every output at a flat position f of the extended block reads f + t * inner for its
    # taps t = 0 .. c + size2; the positions past each line's end are computed and dropped
    # (one operation per tap over contiguous memory)
    flat = ext.reshape(-1)
    m = flat.size - (c + size2) * inner

    def tap(t: int) -> np.ndarray:
        return flat[t * inner:t * inner + m]

    acc = np.empty(flat.size, dtype=np.float64)
    head = acc[:m]
    tmp = np.empty(m, dtype=np.float64)
    if sym == GENERAL:
        np.multiply(tap(c + size2), w[c + size2], out=head)
        for j in range(-c, size2):
            np.multiply(tap(c + j), w[c + j], out=tmp)
            head += tmp
    else:
        np.multiply(tap(c), w[c], out=head)
        pair = np.add if sym == SYMMETRIC else np.subtract
        for j in range(-c, 0):
            pair(tap(c + j), tap(c - j), out=tmp)
            tmp *= w[c + j]
            head += tmp
    return acc.reshape(lines, span, inner)[:, :span - c - size2]


def correlate_lines(x: np.ndarray, weights: np.ndarray, axis: int, mode: str, cval: float,
                    out: np.ndarray, threads: int = 1) -> np.ndarray:
    """``scipy.ndimage.correlate1d(x, weights, axis, out, mode, cval)``: the same bits.

    ``x`` real (any real dtype: its lines are read as float64, as scipy's
    buffers hold them), ``weights`` float64, ``mode`` one of
    :data:`~sftwave.engines._boundary.MODE_CODES`; ``out`` a real array of
    ``x``'s shape, which may be ``x`` itself.  The array goes in blocks whole
    along the axis (:data:`BLOCK_ELEMENTS` extended samples), each extended,
    summed by one numpy operation per tap and written before the next; on
    ``threads`` threads where there are blocks enough (each output is the same
    operations whatever the block or the thread: the same bits).

    Examples
    --------
    >>> x = np.array([0.0, 4.0, 0.0, 8.0])
    >>> correlate_lines(x, np.array([0.25, 0.5, 0.25]), 0, "reflect", 0.0, np.empty(4)).tolist()
    [1.0, 2.0, 3.0, 6.0]
    """
    w = np.asarray(weights, dtype=np.float64)
    axis = axis % x.ndim
    shape = x.shape
    n = shape[axis]
    outer = int(np.prod(shape[:axis], dtype=np.int64))
    inner = int(np.prod(shape[axis + 1:], dtype=np.int64))
    if x.size == 0:
        return out
    c = w.size // 2
    size2 = w.size - c - 1
    sym = symmetry(w)
    x3 = x.reshape(outer, n, inner)
    out3 = out.reshape(outer, n, inner)
    target = out3 if np.may_share_memory(out3, out) else np.empty((outer, n, inner), out.dtype)
    if target is not out3 and np.may_share_memory(x3, out):
        x3 = x3.copy()           # an out that numpy cannot view: written at the end
    cval = float(cval)

    def run(blocks: list[tuple[int, int, int, int]]) -> None:
        for o0, o1, k0, k1 in blocks:
            ext = extended_lines(x3[o0:o1, :, k0:k1], c, size2, mode, cval)
            target[o0:o1, :, k0:k1] = _sums(ext, w, sym, c, size2)

    blocks = _blocks(outer, n + c + size2, inner)
    parts = min(max(1, threads), len(blocks))
    if parts == 1:
        run(blocks)
    else:
        share = -(-len(blocks) // parts)
        for _ in _executor().map(run, [blocks[i:i + share] for i in range(0, len(blocks), share)]):
            pass
    if target is not out3:
        np.copyto(out, target.reshape(shape), casting="unsafe")
    return out
