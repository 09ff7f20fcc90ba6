"""The one boundary-index rule: where scipy.ndimage reads a line beyond its ends.

:func:`source_index` is plain Python written so that it runs unchanged on
Python integers, on numpy integer arrays (the array-API engine computes its
gather positions with it), under numba on the CPU and under numba-cuda on the
device (the CPU and CUDA kernels compile this very function).  It branches on
``mode`` only (a scalar); the position enters through arithmetic with
comparisons, which works element-wise on arrays.
"""

from __future__ import annotations

__all__ = ["MODE_CODES", "REFLECT", "MIRROR", "NEAREST", "WRAP", "CONSTANT", "source_index"]

#: Integer codes of the canonical modes (``sftwave._checks.MODES``), as the kernels take them.
MODE_CODES = {"reflect": 0, "mirror": 1, "nearest": 2, "wrap": 3, "constant": 4}

REFLECT, MIRROR, NEAREST, WRAP, CONSTANT = 0, 1, 2, 3, 4


def source_index(i, n, mode):
    """Index into a line of ``n`` samples that scipy.ndimage reads at position ``i`` (-1: ``cval``).

    ``mode`` is a code of :data:`MODE_CODES`; ``i`` is any position (an
    integer, or a numpy integer array), also for extensions many times longer
    than the line (repeated reflections, as scipy extends short signals).
    Positions inside the line map to themselves.

    Examples
    --------
    >>> [source_index(i, 3, REFLECT) for i in range(-3, 6)]     # c b a | a b c | c b a
    [2, 1, 0, 0, 1, 2, 2, 1, 0]
    >>> [source_index(i, 4, MIRROR) for i in range(-3, 7)]      # d c b | a b c d | c b a
    [3, 2, 1, 0, 1, 2, 3, 2, 1, 0]
    >>> [source_index(i, 3, CONSTANT) for i in (-1, 0, 2, 3)]   # -1 means cval
    [-1, 0, 2, -1]
    >>> import numpy as np
    >>> source_index(np.arange(-2, 5), 3, NEAREST).tolist()
    [0, 0, 0, 1, 2, 2, 2]
    """
    if mode == REFLECT:
        k = i % (2 * n)
        return k + (k >= n) * (2 * n - 1 - 2 * k)
    if mode == MIRROR:
        k = i % max(2 * n - 2, 1)              # n == 1: every position reads sample 0
        return k + (k >= n) * (2 * n - 2 - 2 * k)
    if mode == NEAREST:
        return i + (i < 0) * (-i) + (i >= n) * (n - 1 - i)
    if mode == WRAP:
        return i % n
    return i + ((i < 0) | (i >= n)) * (-1 - i)
