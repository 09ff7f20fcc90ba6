r"""The sliding sum by the paper's Algorithm 1, as array-API code.

The sliding sum of length :math:`L` of a sequence :math:`f[0..N-1]` is

.. math::

    h[n] = \sum_{k=0}^{L-1} f[n + k], \qquad n = 0, 1, \ldots, N - L,

the one operation of the SFT by the kernel integral that is not pointwise
(paper section IV).  Algorithm 1 computes it in :math:`R` doubling steps,
:math:`2^{R-1} \le L < 2^R` (the paper's "Obtain l" means this :math:`R`):
with :math:`g_0 = f` and :math:`h_0 = 0`, for :math:`r = 0 .. R-1`

.. math::

    g_{r+1}[n] = g_r[n] + g_r[n + 2^r], \qquad
    h_{r+1}[n] = \begin{cases} g_r[n] + h_r[n + 2^r] & \text{bit } r \text{ of } L \text{ is } 1\\
                               h_r[n] & \text{otherwise,}\end{cases}

so :math:`g_r[n]` is the sum of the :math:`2^r` samples from :math:`n` on and
:math:`h_r[n]` the sum of the :math:`L \bmod 2^r` samples from :math:`n` on;
:math:`h = h_R`.  Every step is one vectorised addition of two shifted slices,
so on a device with at least :math:`N` cores the sum takes :math:`O(\log L)`
steps whatever :math:`N`.  Here each step works on the slices that are still
valid (:math:`g_r` has :math:`N - 2^r + 1` entries, :math:`h_r` has
:math:`N - (L \bmod 2^r) + 1`), and the last :math:`g` update is skipped
because nothing reads it.

The code uses only the array API (through ``array_api_compat``), so it runs on
numpy arrays and on torch tensors on any device (CuPy too), and it is
differentiable with torch's autograd.  Each output is a sum of its :math:`L`
samples in a tree of depth at most :math:`2R`, so its rounding error is at most
about :math:`2R\,\epsilon \sum_k |f[n+k]|`: bounded by the window, whatever
:math:`N`.  For integer-valued floats whose partial sums stay below
:math:`2^{24}` (float32) or :math:`2^{53}` (float64) the result is exact.
"""

from __future__ import annotations

import numbers
from typing import Any

__all__ = ["check_length", "sliding_sum"]


def check_length(L: Any, name: str = "L") -> int:
    """Return the window length ``L`` as a positive ``int`` (TypeError/ValueError otherwise)."""
    if isinstance(L, bool) or not isinstance(L, numbers.Integral):
        raise TypeError(f"{name} must be a positive integer; got {L!r}")
    if int(L) < 1:
        raise ValueError(f"{name} must be a positive integer; got {L!r}")
    return int(L)


def _along(ndim: int, axis: int, start: int, stop: int) -> tuple:
    """An index selecting ``start:stop`` along ``axis`` and everything elsewhere."""
    return (slice(None),) * axis + (slice(start, stop),) + (slice(None),) * (ndim - axis - 1)


def sliding_sum(f: Any, L: int, axis: int = -1) -> Any:
    r"""Sliding sum ``h[n] = sum_{k<L} f[n+k]`` along ``axis``, by Algorithm 1.

    Parameters
    ----------
    f : array
        Any array the array API supports (numpy, torch on any device, CuPy)
        of a numeric dtype.
    L : int
        Length of the window (positive).
    axis : int, optional
        The axis to sum along.  Default -1.

    Returns
    -------
    array
        Same array type, device and dtype as ``f``, with ``max(N - L + 1, 0)``
        entries along ``axis`` (``N = f.shape[axis]``): for ``L > N`` no window
        fits and the result is empty along ``axis``, as a "valid" correlation
        would be.

    Raises
    ------
    TypeError
        If ``L`` or ``axis`` is not an integer, or ``f`` is not an array.
    ValueError
        If ``L < 1`` or ``axis`` is out of range.

    Examples
    --------
    >>> import numpy as np
    >>> sliding_sum(np.arange(8.0), 3)
    array([ 3.,  6.,  9., 12., 15., 18.])
    >>> sliding_sum(np.ones((2, 5)), 5, axis=1)
    array([[5.],
           [5.]])
    >>> sliding_sum(np.ones(4), 6).shape          # no window fits
    (0,)
    """
    from array_api_compat import array_namespace

    array_namespace(f)  # TypeError for anything that is not an array
    L = check_length(L)
    ndim = len(f.shape)
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"axis must be an integer; got {axis!r}")
    if not -ndim <= int(axis) < ndim:
        raise ValueError(f"axis {axis!r} is out of range for an input with {ndim} dimension(s)")
    axis = int(axis) % ndim
    N = int(f.shape[axis])
    if L > N:
        return f[_along(ndim, axis, 0, 0)]
    R = L.bit_length()  # 2**(R-1) <= L < 2**R
    g = f  # g_r: sums of 2**r samples, N - 2**r + 1 of them
    h = None  # h_r: sums of L mod 2**r samples; None while that is the empty sum
    for r in range(R):
        s = 1 << r
        if (L >> r) & 1:
            m = N - (L & ((s << 1) - 1)) + 1  # entries of h_{r+1}
            head = g[_along(ndim, axis, 0, m)]
            h = head if h is None else head + h[_along(ndim, axis, s, s + m)]
        if r < R - 1:
            m = N - (s << 1) + 1  # entries of g_{r+1}
            g = g[_along(ndim, axis, 0, m)] + g[_along(ndim, axis, s, s + m)]
    if L == 1:
        h = h * 1  # a new array, not a view of the input (exact: x * 1 == x, also for -0.0)
    return h
