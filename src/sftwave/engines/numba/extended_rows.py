"""The lane engine's extended copy of its rows, in numpy (no kernel to compile or load).

A scalogram's many plans read one copy of each signal row, extended by the
boundary mode and minus the row's centre (:func:`extend_rows`).  The copy is
a read and a write per sample, which numpy does as fast as a compiled loop,
and which it does without the second or so that numba took to compile it on a
process's first scalogram.

Each value is ``x - c`` rounded once to the copy's dtype: computed in the
copy's own dtype where the row's is the same, else in float64.  Both give the
bits of the lane kernels' direct reads (``lane_kernels.extended_at``), which
compute it in float32 for a float32 row and centre and in float64 otherwise:
the exact float64 difference of two float32 numbers, rounded to float32, is
their correctly rounded float32 difference (float64 carries more than twice
float32's 24 bits and two more, so the double rounding is innocuous).

Examples
--------
>>> import numpy as np
>>> x = np.array([[1.0, 2.0, 4.0]])
>>> xe = np.empty((1, 8))
>>> extend_rows(0, 1, x, np.array([0]), -2, 6, 1, 0, 0.0, np.array([1.0]), xe, 1)
>>> xe.tolist()        # zero, then reflect's b a | a b c | c, minus the centre 1, then zero
[[0.0, 1.0, 0.0, 0.0, 1.0, 3.0, 3.0, 0.0]]
"""

from __future__ import annotations

import functools

import numpy as np

from .._boundary import source_index

__all__ = ["extend_rows"]


def extend_rows(lo_t: int, hi_t: int, x2d: np.ndarray, rows: np.ndarray, lo: int, length: int,
                front: int, mode: int, cval: float, centre: np.ndarray, xe: np.ndarray,
                pieces: int) -> None:
    """``xe[i, front + t] = (x2d[rows[i]] extended at position lo + t) - centre[i]``, zeros around.

    Task ``k`` (``lo_t <= k < hi_t``) fills piece ``k % pieces`` of the
    ``pieces`` equal pieces of ``xe``'s row ``i = k // pieces``, so that
    :func:`~sftwave.engines.numba.pool.parallel_for` deals the pieces out to
    threads (numpy's copies release the GIL).  ``t`` runs over ``0 <= t <
    length``; position ``j = lo + t`` of a row of ``n`` samples reads sample
    ``j`` inside the row, :func:`~sftwave.engines._boundary.source_index`'s
    sample (``cval`` where it gives -1, ``mode`` a code of
    :data:`~sftwave.engines._boundary.MODE_CODES`) outside it.  ``x2d`` holds
    real numbers (bool, integers or floats); ``xe``, float32 or float64, and
    ``centre`` in ``xe``'s dtype.  Every row has the same parts (:func:`_parts`):
    the rows of a piece go in one numpy operation for each part.
    """
    ncol = xe.shape[1]
    n = x2d.shape[1]
    # the difference in the copy's own dtype where the row's is the same (one rounding in
    # either dtype: the same bits), else in float64 rounded to the copy's
    work = xe.dtype if x2d.dtype == xe.dtype else np.dtype(np.float64)
    for piece in range(pieces):
        i0 = max(0, -(-(lo_t - piece) // pieces))          # the rows whose task for this piece
        i1 = max(i0, -(-(hi_t - piece) // pieces))         # lies in [lo_t, hi_t)
        if i0 >= i1:
            continue
        block = xe[i0:i1]
        sel = rows[i0:i1]
        first = int(sel[0])
        if np.array_equal(sel, np.arange(first, first + sel.size)):
            groups = [(x2d[first:first + sel.size], block, centre[i0:i1, None])]
        else:                                               # rows picked out of order
            groups = [(x2d[r:r + 1], block[k:k + 1], centre[i0 + k:i0 + k + 1, None])
                      for k, r in enumerate(sel.tolist())]
        for s, e, cols in _parts(ncol * piece // pieces, ncol * (piece + 1) // pieces,
                                 n, lo, length, front, mode):
            for xs, dst_rows, c in groups:
                dst = dst_rows[:, s:e]
                if isinstance(cols, str):
                    dst[...] = 0.0 if cols == "zero" else np.float64(cval) - c.astype(np.float64)
                else:
                    src = xs[:, cols] if cols.step else xs[:, cols.start:cols.start + 1]
                    np.subtract(src, c, out=dst, dtype=work, casting="unsafe")


@functools.lru_cache(maxsize=256)
def _parts(a: int, b: int, n: int, lo: int, length: int, front: int,
           mode: int) -> tuple[tuple[int, int, slice | str], ...]:
    """Columns ``a <= u < b`` of an extended row as parts ``(s, e, what)``: ``what`` is
    ``'zero'``, ``'cval'`` (the mode's constant) or the slice of the row's samples that
    columns ``s:e`` copy (a step of 1 inside the row; any step, 0 included, outside)."""
    parts: list[tuple[int, int, slice | str]] = []
    d = lo - front
    if a < min(b, front):
        parts.append((a, min(b, front), "zero"))
    u_lo = max(a, front)
    u_hi = min(b, front + length)
    if u_lo < u_hi:
        u_in = min(max(u_lo, front - lo), u_hi)          # first u with j >= 0
        u_out = max(min(u_hi, front - lo + n), u_in)     # first u with j >= n
        if u_lo < u_in:
            src = source_index(np.arange(u_lo + d, u_in + d, dtype=np.int64), n, mode)
            parts += [(u_lo + s, u_lo + e, cols) for s, e, cols in _runs(src)]
        if u_in < u_out:
            parts.append((u_in, u_out, slice(u_in + d, u_out + d, 1)))
        if u_out < u_hi:
            src = source_index(np.arange(u_out + d, u_hi + d, dtype=np.int64), n, mode)
            parts += [(u_out + s, u_out + e, cols) for s, e, cols in _runs(src)]
    if max(a, front + length) < b:
        parts.append((max(a, front + length), b, "zero"))
    return tuple(parts)


def _runs(src: np.ndarray) -> list[tuple[int, int, slice | str]]:
    """``src`` (source indices, -1 for ``cval``) cut into runs of a constant step: ``(s, e,
    cols)``, ``src[s:e]`` being the columns ``cols`` of a row (a slice, of step 0 where one
    sample repeats) or all -1 (``cols`` ``'cval'``).

    The extension of a row by any mode is a few such runs (a reflection at each end
    of the row), so that it is copied by slices, not gathered element by element.

    Examples
    --------
    >>> [(s, e, c) for s, e, c in _runs(np.array([2, 1, 0, 0, 1, 2]))]
    [(0, 3, slice(2, None, -1)), (3, 4, slice(0, 1, 1)), (4, 6, slice(1, 3, 1))]
    >>> _runs(np.array([-1, -1]))
    [(0, 2, 'cval')]
    """
    m = src.size
    neg = src < 0
    d = np.diff(src)
    cut = np.zeros(m, dtype=bool)
    cut[0] = True
    cut[1:] |= neg[1:] != neg[:-1]
    cut[2:] |= d[1:] != d[:-1]
    starts = np.flatnonzero(cut).tolist() + [m]
    runs: list[tuple[int, int, slice | str]] = []
    for s, e in zip(starts[:-1], starts[1:]):
        a = int(src[s])
        if a < 0:
            runs.append((s, e, "cval"))
            continue
        step = int(src[s + 1]) - a if e - s > 1 else 1
        if step == 0:
            runs.append((s, e, slice(a, a + 1, 0)))   # one sample, repeated
            continue
        last = a + step * (e - s - 1)
        stop = last + (1 if step > 0 else -1)
        runs.append((s, e, slice(a, stop if stop >= 0 else None, step)))
    return runs
