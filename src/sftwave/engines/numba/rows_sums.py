"""The float32 FIR over rows (``.fir_rows``) in numpy: the same bits, without numba.

``.fir_rows`` smooths float32 and 8/16-bit images in float32: each pass
converts its input to float32, and each output sample is ``x[i] w_0`` (a
float32 product) followed, tap by tap, by the fused multiply-add ``acc =
fma(x[i-j] + x[i+j], w_j, acc)`` (the pair's sum rounded to float32 first),
vertical pass before horizontal, each extended as scipy extends a line.  numpy
has no fused multiply-add; :func:`fma32` computes one exactly from float64
operations: the product of two float32 values is exact in float64, the sum
with ``acc`` is rounded to float64 *to odd* (its error found exactly by
Knuth's two-sum, a last bit of 1 where the sum was inexact), and rounding that
to float32 is then the correctly rounded fused result (Boldo and Melquiond,
"Emulation of FMA and correctly rounded sums: proved algorithms using rounding
to odd", IEEE Trans. Computers 57(4), 2008: 53 bits are at least 24 + 2).

:func:`filter_rows` serves the small calls that are over before numba's import
would have paid (``.small_fir``); it follows ``.fir_rows.filter_rows`` where
its explicit vectors run (``.vectors.usable``, every CPU numba targets).  This
module imports numpy only.
"""

from __future__ import annotations

import numpy as np

from ._rows import pass_views, plan_passes
from ._scipy_sums import extended_lines

__all__ = ["fma32", "filter_rows"]

class _Work:
    """float64 buffers of :func:`fma32` for arrays of ``m`` elements, allocated once a pass."""

    def __init__(self, m: int):
        self.p, self.c, self.s, self.t, self.u = (np.empty(m, dtype=np.float64) for _ in range(5))
        self.inexact, self.opposite = np.empty(m, dtype=bool), np.empty(m, dtype=bool)


def fma32(a: np.ndarray, w: np.float32, acc: np.ndarray, work: _Work | None = None) -> np.ndarray:
    """``a * w + acc`` rounded once to float32, element-wise: the fused multiply-add.

    ``a`` and ``acc`` float32 arrays of one shape, ``w`` a float32 scalar;
    finite values (a product or sum that overflows float32 becomes an
    infinity, as the fused operation's would).  The result is written into
    ``acc`` and returned.  ``work``: buffers of ``a.size`` (new ones if None).

    Examples
    --------
    ``(1 + 2^-12)^2 - 1`` keeps the product's last bit, ``2^-24``, which a float32
    product rounded before the addition loses:

    >>> a = np.float32(1 + 2.0 ** -12)
    >>> bool(fma32(np.array([a]), a, np.array([-1.0], np.float32))[0] == 2.0 ** -11 + 2.0 ** -24)
    True
    >>> bool(a * a - np.float32(1) == 2.0 ** -11)
    True
    """
    k = work if work is not None else _Work(a.size)
    p, c, s, t, u = k.p, k.c, k.s, k.t, k.u
    np.copyto(p, a)                          # float64 first: numpy 1's value-based casting
    p *= np.float64(w)                       # would run a float32 loop; exact: 24 + 24 bits
    np.copyto(c, acc)
    np.add(p, c, out=s)
    # two-sum: the error t = (p + c) - s, exactly
    np.subtract(s, p, out=u)
    np.subtract(s, u, out=t)
    np.subtract(p, t, out=t)
    np.subtract(c, u, out=u)
    np.add(t, u, out=t)
    # round to odd: where inexact, truncate toward zero (one unit down in magnitude where the
    # error points inward: the signs differ) and set the last bit
    bits = s.view(np.int64)
    np.not_equal(t, 0.0, out=k.inexact)
    np.bitwise_xor(bits, t.view(np.int64), out=t.view(np.int64))
    np.less(t.view(np.int64), 0, out=k.opposite)
    np.logical_and(k.opposite, k.inexact, out=k.opposite)
    np.subtract(bits, k.opposite, out=bits)
    np.bitwise_or(bits, k.inexact, out=bits)
    np.copyto(acc, s, casting="same_kind")
    return acc


def _fold(x3: np.ndarray, half: np.ndarray, mode: str, fill: np.float32) -> np.ndarray:
    """One pass of ``.fir_rows`` along axis 1 of float32 ``x3`` (outer, n, inner): the
    half kernel ``half`` (float32, centre first) folded over pairs, each added by
    :func:`fma32`."""
    outer, n, inner = x3.shape
    r = half.size - 1
    ext = extended_lines(x3, r, r, mode, float(fill), np.float32)
    flat = ext.reshape(-1)
    m = flat.size - 2 * r * inner            # flat positions of every output (and the drops)

    def tap(t: int) -> np.ndarray:
        return flat[t * inner:t * inner + m]

    acc = tap(r) * half[0]
    pair = np.empty(m, dtype=np.float32)
    work = _Work(m)
    for j in range(1, r + 1):
        np.add(tap(r - j), tap(r + j), out=pair)
        fma32(pair, half[j], acc, work)
    full = np.empty(outer * (n + 2 * r) * inner, dtype=np.float32)
    full[:m] = acc
    return full.reshape(outer, n + 2 * r, inner)[:, :n]


def filter_rows(x: np.ndarray, steps, cval: float, out_dtype) -> np.ndarray:
    """What ``.fir_rows.filter_rows`` writes for ``x``: a new array of ``out_dtype``.

    ``steps``: ``(axis, half, mode)`` with ``half`` the centre-first half kernel
    (``._rows.half_kernel``, one value per tap: the engine repeats each 16
    times), distinct axes; ``x`` of a dtype in ``._rows.ROWS_INPUT_DTYPES``,
    finite.  The passes are the engine's (``._rows.plan_passes``); between them
    float32; the last one clamped to an integer dtype's ends and truncated toward
    zero.

    Examples
    --------
    >>> half = np.array([0.5, 0.25], np.float32)
    >>> filter_rows(np.array([[0, 4, 0, 8]], np.uint8), [(1, half, "reflect")], 0.0, np.uint8)
    array([[1, 2, 3, 6]], dtype=uint8)
    """
    by_axis = {ax: (h, mode) for ax, h, mode in steps}
    shape = x.shape
    passes = plan_passes(shape, list(by_axis))
    views, steps_ = pass_views(shape, passes)
    fill = np.float32(cval)
    cur = x
    for (va, ha), view, step in zip(passes, views, steps_):
        work = cur.reshape(view).astype(np.float32)          # a new array: the ring's rows
        if va is not None:
            half, mode = by_axis[va]
            work = _fold(work, np.asarray(half, np.float32), mode, fill)
        if ha is not None:
            half, mode = by_axis[ha]
            outer, h, row = view
            work = _fold(np.ascontiguousarray(work).reshape(outer * h, row // step, step),
                         np.asarray(half, np.float32), mode, fill)
        cur = np.ascontiguousarray(work).reshape(shape)
    out_dtype = np.dtype(out_dtype)
    if out_dtype.kind in "iu":
        info = np.iinfo(out_dtype)
        cur = np.clip(cur, np.float32(info.min), np.float32(info.max))
    return cur.astype(out_dtype)
