"""Local maxima of a scale-space cube over the 3 x 3 (x 3) x 3 neighbourhood, one pass.

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
"""

from __future__ import annotations

import numpy as np

from ._jit import kernel
from .pool import parallel_for

__all__ = ["local_peaks"]


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
def _peak_lines(lo, hi, cube, thr, p0, p1, r0, r1, c0, c1, mask):
    """Mark in ``mask`` the peaks of the lines ``lo .. hi`` (flat ``(scale, plane, row)`` index)."""
    ns, np_, nr, nc = cube.shape
    for t in range(lo, hi):
        s = t // (np_ * nr)
        p = (t // nr) % np_
        r = t % nr
        if p < p0 or p >= p1 or r < r0 or r >= r1:
            continue
        for c in range(c0, c1):
            v = cube[s, p, r, c]
            if v > thr and _is_max(cube, s, p, r, c, v):
                mask[s, p, r, c] = 1


def local_peaks(cube: np.ndarray, threshold: float, border: tuple[int, int, int]) -> np.ndarray:
    """The peaks of a contiguous ``(scales, planes, rows, columns)`` cube: a uint8 mask of its shape.

    ``threshold`` is compared with the cube's values exactly (give it in the
    cube's dtype); ``border`` the widths, along planes, rows and columns, in
    which no peak is taken (scikit-image's ``exclude_border``).

    Examples
    --------
    >>> cube = np.zeros((3, 1, 5, 5), dtype=np.float32)
    >>> cube[1, 0, 2, 3] = 1.0
    >>> [tuple(int(i) for i in ix) for ix in zip(*np.nonzero(local_peaks(cube, 0.5, (0, 0, 0))))]
    [(1, 0, 2, 3)]
    """
    ns, np_, nr, nc = cube.shape
    mask = np.zeros(cube.shape, dtype=np.uint8)
    bp, br, bc = border
    parallel_for(_peak_lines, ns * np_ * nr, cube, float(threshold), bp, np_ - bp, br, nr - br,
                 bc, nc - bc, mask, work=2.0 * cube.size)
    return mask
