"""Moving 2-D arrays between row and column order, tile by tile, and the Gabor bank's combination.

A plain ``np.ascontiguousarray(a.T)`` of a large image with a power-of-two row
length walks memory with a stride that maps every read to the same few cache
sets: 10 to 20 times slower than a copy.  :func:`transpose` moves
:data:`TILE` x :data:`TILE` tiles instead, each read and written within cache;
:func:`split_transpose` does the same for one plan's complex rows of a
scalogram, writing their real and imaginary parts as two real images.
:func:`combine` forms one Gabor orientation's response from its two passes in
one pass over the image (the arithmetic in double precision).
"""

from __future__ import annotations

import numpy as np

from ._jit import kernel
from .pool import parallel_for

__all__ = ["transpose", "split_transpose", "combine", "TILE"]

#: The side of a tile (elements): 32 x 32 float64 tiles are 8 KiB, two of them within L1.
TILE = 32


@kernel(nogil=True)
def _transpose(lo, hi, src, dst):
    """``dst[c, r] = src[r, c]`` for the rows ``r`` of tile rows ``lo:hi``."""
    rows, cols = src.shape
    for t in range(lo, hi):
        r0 = t * TILE
        r1 = min(rows, r0 + TILE)
        for c0 in range(0, cols, TILE):
            c1 = min(cols, c0 + TILE)
            for c in range(c0, c1):
                for r in range(r0, r1):
                    dst[c, r] = src[r, c]


def transpose(src: np.ndarray) -> np.ndarray:
    """``np.ascontiguousarray(src.T)`` of a 2-D array, tile by tile, on the thread pool.

    Examples
    --------
    >>> a = np.arange(6.0).reshape(2, 3)
    >>> transpose(a).tolist()
    [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]
    """
    rows, cols = src.shape
    dst = np.empty((cols, rows), dtype=src.dtype)
    parallel_for(_transpose, -(-rows // TILE), src, dst, work=2.0 * rows * cols)
    return dst


@kernel(nogil=True)
def _split_transpose(lo, hi, y, j, re, im):
    """``re[r, c], im[r, c]`` = the parts of ``y[c, j, r]`` for the rows of tile rows ``lo:hi``."""
    rows, cols = re.shape
    for t in range(lo, hi):
        r0 = t * TILE
        r1 = min(rows, r0 + TILE)
        for c0 in range(0, cols, TILE):
            c1 = min(cols, c0 + TILE)
            for r in range(r0, r1):
                for c in range(c0, c1):
                    v = y[c, j, r]
                    re[r, c] = v.real
                    im[r, c] = v.imag


def split_transpose(y: np.ndarray, j: int) -> np.ndarray:
    """The real and imaginary parts of ``y[:, j, :].T`` (``y`` complex, shape ``(cols, F,
    rows)``, a scalogram of an image's columns) as one real array ``(2, rows, cols)``.

    Examples
    --------
    >>> y = (np.arange(6.0) + 1j).reshape(3, 1, 2)
    >>> split_transpose(y, 0)[0].tolist(), split_transpose(y, 0)[1].tolist()
    ([[0.0, 2.0, 4.0], [1.0, 3.0, 5.0]], [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]])
    """
    cols, _, rows = y.shape
    out = np.empty((2, rows, cols), dtype=y.real.dtype)
    parallel_for(_split_transpose, -(-rows // TILE), y, j, out[0], out[1], work=4.0 * rows * cols)
    return out


@kernel(nogil=True)
def _combine(lo, hi, pa, pb, w0, w1, conj, add, out):
    """Rows ``lo:hi`` of ``out = w0 pa + w1 pb``, conjugated where ``conj``, plus ``add``."""
    cols = out.shape[1]
    for r in range(lo, hi):
        for c in range(cols):
            v = w0 * complex(pa[r, c]) + w1 * complex(pb[r, c])
            if conj:
                v = v.conjugate()
            out[r, c] = v + add


def combine(pa: np.ndarray, pb: np.ndarray, w0: complex, w1: complex, conj: bool, add: complex,
            out: np.ndarray) -> None:
    """``out[...] = w0 pa + w1 pb`` (conjugated where ``conj``) ``+ add``, for 2-D complex
    arrays of one shape (``out`` C-contiguous), in one pass.

    Examples
    --------
    >>> pa, pb, out = np.ones((1, 2), complex), np.full((1, 2), 1j), np.empty((1, 2), complex)
    >>> combine(pa, pb, 2.0, 1.0, True, 0.5, out)
    >>> out.tolist()
    [[(2.5-1j), (2.5-1j)]]
    """
    rows, cols = out.shape
    parallel_for(_combine, rows, pa, pb, complex(w0), complex(w1), bool(conj), complex(add), out,
                 work=8.0 * rows * cols)
