"""Local maxima of a scale-space cube over the 3 x 3 (x 3) x 3 neighbourhood, no cube-sized temporary.

The cube is ``(scales, planes, rows, columns)`` (a 2-D image's cube has one
plane).  A point is a peak where its value exceeds the threshold and no
neighbour in the 3**4 (or, with one plane, 3**3) box, clipped to the cube
(scipy's ``mode='nearest'``), is larger: scikit-image's
``image == maximum_filter(image, footprint=ones) & (image > threshold)``,
with no cube-sized temporaries.  A NaN is never a peak, nor does it stop
its neighbours from being one (no comparison with NaN is true).

The lines ``(scale, plane, row)`` are independent: the kernel runs over
ranges of them on sftwave's thread pool (:func:`.pool.parallel_for`), with
the same result on any number of threads.

:func:`survivors` walks the overlapping pairs of blobs in scikit-image's order
(``_prune_blobs``), serially: which blobs the pruning keeps.
"""

from __future__ import annotations

import numpy as np

from ._jit import kernel
from .pool import parallel_for

__all__ = ["local_peaks", "survivors"]


@kernel(nogil=True)
def _is_max(cube, s, p, r, c, v):
    """No value in the clipped 3 x 3 x 3 x 3 box around ``(s, p, r, c)`` exceeds ``v``."""
    ns, np_, nr, nc = cube.shape
    for ss in range(max(s - 1, 0), min(s + 2, ns)):
        for pp in range(max(p - 1, 0), min(p + 2, np_)):
            for rr in range(max(r - 1, 0), min(r + 2, nr)):
                for cc in range(max(c - 1, 0), min(c + 2, nc)):
                    if cube[ss, pp, rr, cc] > v:
                        return False
    return True


@kernel(nogil=True)
def _peak_lines(lo, hi, cube, thr, p0, p1, r0, r1, c0, c1, counts, offsets, found):
    """The peaks of the lines ``lo .. hi`` (flat ``(scale, plane, row)`` index).

    With ``found`` empty: their number per line into ``counts``; else their
    column indices into ``found[offsets[t]:]`` (the lines with ``counts[t] > 0`` only).
    """
    ns, np_, nr, nc = cube.shape
    write = found.size > 0
    for t in range(lo, hi):
        if write and counts[t] == 0:
            continue
        s = t // (np_ * nr)
        p = (t // nr) % np_
        r = t % nr
        if p < p0 or p >= p1 or r < r0 or r >= r1:
            continue
        k = 0
        for c in range(c0, c1):
            v = cube[s, p, r, c]
            if v > thr and _is_max(cube, s, p, r, c, v):
                if write:
                    found[offsets[t] + k] = c
                k += 1
        if not write:
            counts[t] = k


def local_peaks(cube: np.ndarray, threshold: float,
                box: tuple[tuple[int, int], tuple[int, int], tuple[int, int]]) -> np.ndarray:
    """The flat indices, increasing, of the peaks of a contiguous ``(scales, planes, rows, columns)`` cube.

    ``threshold`` is compared with the cube's values exactly (give it in the
    cube's dtype); ``box`` the ranges ``(start, stop)`` of planes, rows and
    columns in which peaks are taken (scikit-image's ``exclude_border`` leaves
    out a border; a block of a larger image keeps its own samples).  The
    neighbourhoods still read the whole cube.  Two passes: the peaks counted
    per line, then their places written for the lines that have some.

    Examples
    --------
    >>> cube = np.zeros((3, 1, 5, 5), dtype=np.float32)
    >>> cube[1, 0, 2, 3] = 1.0
    >>> [int(i) for i in local_peaks(cube, 0.5, ((0, 1), (0, 5), (0, 5)))] == [25 + 2 * 5 + 3]
    True
    >>> local_peaks(cube, 0.5, ((0, 1), (0, 5), (0, 3))).size        # column 3 left out
    0
    """
    ns, np_, nr, nc = cube.shape
    (p0, p1), (r0, r1), (c0, c1) = ((max(int(a), 0), min(int(b), n))
                                    for (a, b), n in zip(box, (np_, nr, nc), strict=True))
    nlines = ns * np_ * nr
    counts = np.zeros(nlines, dtype=np.intp)
    bounds = (float(threshold), p0, p1, r0, r1, c0, c1)
    none = np.empty(0, dtype=np.intp)
    if p0 >= p1 or r0 >= r1 or c0 >= c1:
        return none
    parallel_for(_peak_lines, nlines, cube, *bounds, counts, none, none, work=2.0 * cube.size)
    total = int(counts.sum())
    if total == 0:
        return none
    offsets = np.zeros(nlines, dtype=np.intp)
    np.cumsum(counts[:-1], out=offsets[1:])
    columns = np.empty(total, dtype=np.intp)
    parallel_for(_peak_lines, nlines, cube, *bounds, counts, offsets, columns, work=2.0 * total)
    lines = np.repeat(np.arange(nlines, dtype=np.intp), counts)
    return lines * nc + columns


@kernel(nogil=True)
def _walk_pairs(pairs, sigma, alive):
    """scikit-image's pruning walk: for each pair in order, if both blobs are alive, drop the smaller."""
    for k in range(pairs.shape[0]):
        i = pairs[k, 0]
        j = pairs[k, 1]
        if alive[i] and alive[j]:
            if sigma[i] > sigma[j]:
                alive[j] = False
            else:
                alive[i] = False


def survivors(pairs: np.ndarray, sigma: np.ndarray) -> np.ndarray:
    """Which blobs survive the overlapping ``pairs`` (in order), ``sigma`` deciding which is dropped.

    Of a pair whose blobs are both alive, the one of smaller ``sigma`` is
    dropped (the first of equals), as scikit-image's ``_prune_blobs`` does; a
    dropped blob drops no other.  A serial walk (the order matters).

    Examples
    --------
    >>> pairs = np.array([[0, 1], [1, 2]])
    >>> survivors(pairs, np.array([3.0, 2.0, 1.0])).tolist()      # 1 is dropped, so 2 stays
    [True, False, True]
    """
    alive = np.ones(len(sigma), dtype=np.bool_)
    _walk_pairs(np.ascontiguousarray(pairs, dtype=np.intp), np.ascontiguousarray(sigma, np.float64),
                alive)
    return alive
