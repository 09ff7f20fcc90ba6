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

import numpy as np

from .._boundary import CONSTANT, MODE_CODES, source_index

__all__ = ["SYMMETRIC", "ANTISYMMETRIC", "GENERAL", "symmetry", "correlate_lines"]

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


def _extended(x3: np.ndarray, left: int, right: int, mode: str, cval: float) -> np.ndarray:
    """``x3`` (outer, n, inner) in float64, extended along axis 1 by ``left`` and ``right``
    samples as scipy extends a line (:func:`~sftwave.engines._boundary.source_index`)."""
    outer, n, inner = x3.shape
    ext = np.empty((outer, left + n + right, inner), dtype=np.float64)
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


def correlate_lines(x: np.ndarray, weights: np.ndarray, axis: int, mode: str, cval: float,
                    out: np.ndarray) -> np.ndarray:
    """``scipy.ndimage.correlate1d(x, weights, axis, out, mode, cval)``: the same bits.

    ``x`` real (any real dtype: its lines are read as float64, as scipy's
    buffers hold them), ``weights`` float64, ``mode`` one of
    :data:`~sftwave.engines._boundary.MODE_CODES`; ``out`` a real array of
    ``x``'s shape, which may be ``x`` itself (the lines are copied first).
    The extended input and the sums are whole arrays, one numpy operation per
    tap: memory about three float64 copies of ``x`` with the extension.

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
    ext = _extended(x.reshape(outer, n, inner), c, size2, mode, float(cval))
    # every output at a flat position f of the extended array reads f + t * inner for its
    # taps t = 0 .. c + size2; the positions past each line's end are computed and dropped
    # (one operation per tap over contiguous memory)
    flat = ext.reshape(-1)
    m = flat.size - (c + size2) * inner

    def tap(t: int) -> np.ndarray:
        return flat[t * inner:t * inner + m]

    sym = symmetry(w)
    acc = np.empty(outer * (n + c + size2) * inner, dtype=np.float64)
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
    res = acc.reshape(outer, n + c + size2, inner)[:, :n]
    np.copyto(out.reshape(outer, n, inner) if out.flags.c_contiguous else out,
              res if out.flags.c_contiguous else res.reshape(shape), casting="unsafe")
    return out
