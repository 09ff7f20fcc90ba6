"""Eigenvalues of fields of 2 x 2 and 3 x 3 symmetric matrices, in closed form, one pass.

Each kernel reads the upper-triangle elements of every pixel's matrix (one
array each, in scikit-image's order: ``00, 01, 11`` and
``00, 01, 02, 11, 12, 22``) and writes the eigenvalues in decreasing order,
``out[k, i]`` the k-th largest of pixel ``i``; no temporary of the image's
size.  The arithmetic is in float64 whatever the arrays' dtype.

* 2 x 2: ``(a + c)/2 +- hypot(b, (a - c)/2)``, with the matrix scaled by its
  largest element first (a power of two: exact; no overflow or underflow in
  the squares).
* 3 x 3: the trigonometric formula (Smith 1961): ``A = q I + p B``,
  ``r = det(B)/2 = cos(3 phi)``.  Near a repeated eigenvalue (``|r|`` near 1)
  the ``acos`` amplifies the rounding of ``r``: there (``1 - |r| < RJACOBI``)
  the matrix is diagonalised by cyclic Jacobi rotations instead, which are
  accurate to rounding of the matrix's norm however close the eigenvalues.
  Diagonal matrices take their diagonal.

A pixel with a non-finite element gets NaN for every eigenvalue.  The pixels
are independent: the kernels run over ranges of them on sftwave's thread pool
(:func:`.pool.parallel_for`), with the same bits on any number of threads.

:func:`frangi_scale` fuses the eigenvalues with Frangi's vesselness of one
scale and its maximum over the scales: one pass, no eigenvalue arrays.
:func:`sato_scale` and :func:`meijering_scale` do the same for Sato's tubeness
and Meijering's neuriteness (whose normalisation by the largest value of the
scale needs the scale's response as one array).
"""

from __future__ import annotations

import math

import numpy as np

from ._jit import kernel
from .pool import parallel_for

__all__ = ["eig3", "eigvals_sym2", "eigvals_sym3", "frangi_scale", "sato_scale", "meijering_scale", "RJACOBI"]

#: Below this ``1 - |r|`` the 3 x 3 kernel switches from the trigonometric formula to Jacobi.
RJACOBI = 1e-2

#: The work of one matrix, in multiply-adds (the pool's unit): 2 x 2 (a square root) and 3 x 3
#: (an acos and two cos), about the ratio of their measured times (docs/performance.md,
#: *Figures behind the code's choices*).
WORK2 = 20.0
WORK3 = 200.0


@kernel(nogil=True)
def _eig2(x, y, z):
    """The eigenvalues ``e0 >= e1`` of ``[[x, y], [y, z]]`` (NaN for a non-finite element)."""
    if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(z)):
        return math.nan, math.nan
    if y == 0.0:                                   # diagonal (also all zero): exact
        return max(x, z), min(x, z)
    m = max(abs(x), abs(y), abs(z))
    m = math.ldexp(1.0, math.frexp(m)[1] - 1)      # a power of two <= m: the scaling is exact
    x /= m
    y /= m
    z /= m
    mean = 0.5 * (x + z)
    half = 0.5 * (x - z)
    h = math.sqrt(y * y + half * half)
    return (mean + h) * m, (mean - h) * m


@kernel(nogil=True)
def _sym2(lo, hi, a, b, c, out):
    """``out[0, i] >= out[1, i]``: the eigenvalues of ``[[a, b], [b, c]]`` at i in ``[lo, hi)``."""
    for i in range(lo, hi):
        e0, e1 = _eig2(float(a[i]), float(b[i]), float(c[i]))
        out[0, i] = e0
        out[1, i] = e1


@kernel(nogil=True)
def _sym2_single(lo, hi, a, b, c, out):
    """``_sym2`` for float32 elements, in float64 and without the scaling: their squares
    and products neither overflow nor underflow in float64, so scaling by a power of two
    would change no bit; no branch but selects, so that the loop vectorises.  (``_sym2``
    computes float32 elements in float32: numba's ``float()`` keeps float32.)"""
    for i in range(lo, hi):
        x = np.float64(a[i])
        y = np.float64(b[i])
        z = np.float64(c[i])
        mean = 0.5 * (x + z)
        half = 0.5 * (x - z)
        h = math.sqrt(y * y + half * half)
        e0 = mean + h
        e1 = mean - h
        if y == 0.0:                               # diagonal (also all zero): exact
            e0 = max(x, z)
            e1 = min(x, z)
        s = x + y + z                              # inf or NaN where an element is not finite
        if not (s - s == 0.0):
            e0 = math.nan
            e1 = math.nan
        out[0, i] = e0
        out[1, i] = e1


@kernel(nogil=True)
def _rotate(app, aqq, apq, arp, arq):
    """One Jacobi rotation zeroing ``apq`` of a symmetric 3 x 3 matrix (r the third index)."""
    if apq == 0.0:
        return app, aqq, 0.0, arp, arq
    theta = (aqq - app) / (2.0 * apq)
    t = 1.0 / (abs(theta) + math.sqrt(theta * theta + 1.0))
    if theta < 0.0:
        t = -t
    c = 1.0 / math.sqrt(t * t + 1.0)
    s = t * c
    return app - t * apq, aqq + t * apq, 0.0, c * arp - s * arq, s * arp + c * arq


@kernel(nogil=True)
def _jacobi3(a00, a01, a02, a11, a12, a22):
    """The eigenvalues of a 3 x 3 symmetric matrix by cyclic Jacobi rotations, decreasing."""
    for _sweep in range(50):
        if a01 == 0.0 and a02 == 0.0 and a12 == 0.0:
            break
        a00, a11, a01, a02, a12 = _rotate(a00, a11, a01, a02, a12)      # p, q, r = 0, 1, 2
        a00, a22, a02, a01, a12 = _rotate(a00, a22, a02, a01, a12)      # 0, 2, 1
        a11, a22, a12, a01, a02 = _rotate(a11, a22, a12, a01, a02)      # 1, 2, 0
        off = a01 * a01 + a02 * a02 + a12 * a12
        if off <= 1e-36 * (a00 * a00 + a11 * a11 + a22 * a22):
            break
    e0 = a00
    e1 = a11
    e2 = a22
    if e0 < e1:
        e0, e1 = e1, e0
    if e1 < e2:
        e1, e2 = e2, e1
    if e0 < e1:
        e0, e1 = e1, e0
    return e0, e1, e2


@kernel(nogil=True)
def _eig3(x00, x01, x02, x11, x12, x22, rjacobi):
    """The eigenvalues ``e0 >= e1 >= e2`` of a symmetric 3 x 3 matrix (NaN if one is not finite)."""
    m = max(abs(x00), abs(x01), abs(x02), abs(x11), abs(x12), abs(x22))
    if not math.isfinite(m) or m != m:
        return math.nan, math.nan, math.nan
    if m == 0.0:
        return 0.0, 0.0, 0.0
    m = math.ldexp(1.0, math.frexp(m)[1] - 1)      # a power of two <= m: the scaling is exact
    x00 /= m
    x01 /= m
    x02 /= m
    x11 /= m
    x12 /= m
    x22 /= m
    p1 = x01 * x01 + x02 * x02 + x12 * x12
    if p1 == 0.0:                                  # diagonal
        e0, e1, e2 = _jacobi3(x00, 0.0, 0.0, x11, 0.0, x22)
    else:
        third = 1.0 / 3.0
        q = (x00 + x11 + x22) * third
        d0 = x00 - q
        d1 = x11 - q
        d2 = x22 - q
        p = math.sqrt((d0 * d0 + d1 * d1 + d2 * d2 + 2.0 * p1) / 6.0)
        b00 = d0 / p
        b11 = d1 / p
        b22 = d2 / p
        b01 = x01 / p
        b02 = x02 / p
        b12 = x12 / p
        r = 0.5 * (b00 * (b11 * b22 - b12 * b12) - b01 * (b01 * b22 - b12 * b02)
                   + b02 * (b01 * b12 - b11 * b02))
        if 1.0 - abs(r) < rjacobi:
            e0, e1, e2 = _jacobi3(x00, x01, x02, x11, x12, x22)
        else:
            phi = math.acos(r) * third
            e0 = q + 2.0 * p * math.cos(phi)
            e2 = q + 2.0 * p * math.cos(phi + 2.0 * math.pi * third)
            e1 = 3.0 * q - e0 - e2
            if e1 > e0:                            # rounding: keep the order
                e0, e1 = e1, e0
            if e2 > e1:
                e1, e2 = e2, e1
    return e0 * m, e1 * m, e2 * m


#: One 3 x 3 matrix's eigenvalues, for the other kernels of the engine (``.basic_features``).
eig3 = _eig3


@kernel(nogil=True)
def _sym3(lo, hi, a00, a01, a02, a11, a12, a22, out, rjacobi):
    """``out[0, i] >= out[1, i] >= out[2, i]``: the eigenvalues of pixel i's matrix, i in ``[lo, hi)``."""
    for i in range(lo, hi):
        e0, e1, e2 = _eig3(float(a00[i]), float(a01[i]), float(a02[i]), float(a11[i]),
                           float(a12[i]), float(a22[i]), rjacobi)
        out[0, i] = e0
        out[1, i] = e1
        out[2, i] = e2


@kernel(nogil=True)
def _keep_max(out, i, v):
    """``out[i] = max(out[i], v)`` with NaN propagated (as ``np.maximum``)."""
    o = out[i]
    if o == o and (v != v or v > o):
        out[i] = v


@kernel(nogil=True)
def _frangi2(lo, hi, h00, h01, h11, out, inv_2b2, inv_2g2):
    """Frangi's vesselness of one scale, maxed into ``out[lo:hi]`` (scikit-image's 2-D formula)."""
    for i in range(lo, hi):
        e0, e1 = _eig2(float(h00[i]), float(h01[i]), float(h11[i]))
        if abs(e1) < abs(e0):                      # by magnitude, ties in decreasing order
            e0, e1 = e1, e0
        l2 = max(e1, 1e-10)
        rb = abs(e0) / l2
        s2 = e0 * e0 + e1 * e1
        v = math.exp(-rb * rb * inv_2b2) * (1.0 - math.exp(-s2 * inv_2g2))
        if e0 != e0:
            v = math.nan
        _keep_max(out, i, v)


@kernel(nogil=True)
def _frangi3(lo, hi, h00, h01, h02, h11, h12, h22, out, inv_2a2, inv_2b2, inv_2g2, rjacobi):
    """Frangi's vesselness of one scale, maxed into ``out[lo:hi]`` (scikit-image's 3-D formula)."""
    for i in range(lo, hi):
        e0, e1, e2 = _eig3(float(h00[i]), float(h01[i]), float(h02[i]), float(h11[i]),
                           float(h12[i]), float(h22[i]), rjacobi)
        if abs(e1) < abs(e0):                      # insertion sort by magnitude (stable)
            e0, e1 = e1, e0
        if abs(e2) < abs(e1):
            e1, e2 = e2, e1
            if abs(e1) < abs(e0):
                e0, e1 = e1, e0
        l2 = max(e1, 1e-10)
        l3 = max(e2, 1e-10)
        ra = l2 / l3
        rb = abs(e0) / math.sqrt(l2 * l3)
        s2 = e0 * e0 + e1 * e1 + e2 * e2
        v = ((1.0 - math.exp(-ra * ra * inv_2a2)) * math.exp(-rb * rb * inv_2b2)
             * (1.0 - math.exp(-s2 * inv_2g2)))
        if e0 != e0:
            v = math.nan
        _keep_max(out, i, v)


def _flat(elems: list[np.ndarray]) -> list[np.ndarray]:
    """Each element as a contiguous 1-D array (a view where it already is contiguous)."""
    return [np.ascontiguousarray(e).reshape(-1) for e in elems]


def eigvals_sym2(elems: list[np.ndarray], dtype: np.dtype) -> np.ndarray:
    """The eigenvalues, decreasing, of the field ``[[e0, e1], [e1, e2]]``: shape ``(2,) + e0.shape``.

    Examples
    --------
    >>> eigvals_sym2([np.array([2.0]), np.array([1.0]), np.array([2.0])], np.float64).tolist()
    [[3.0], [1.0]]
    """
    shape = elems[0].shape
    n = int(np.prod(shape))
    out = np.empty((2, n), dtype=dtype)
    flat = _flat(elems)
    single = all(e.dtype == np.float32 for e in flat)
    parallel_for(_sym2_single if single else _sym2, n, *flat, out, work=WORK2 * n)
    return out.reshape((2,) + shape)


def eigvals_sym3(elems: list[np.ndarray], dtype: np.dtype) -> np.ndarray:
    """The eigenvalues, decreasing, of a field of 3 x 3 symmetric matrices: shape ``(3,) + shape``.

    ``elems`` are the upper triangle, row by row (``00, 01, 02, 11, 12, 22``).

    Examples
    --------
    >>> one = np.ones(1)
    >>> e = eigvals_sym3([2 * one, one, 0 * one, 2 * one, 0 * one, 5 * one], np.float64)
    >>> np.round(e.ravel(), 12).tolist()
    [5.0, 3.0, 1.0]
    """
    shape = elems[0].shape
    n = int(np.prod(shape))
    out = np.empty((3, n), dtype=dtype)
    parallel_for(_sym3, n, *_flat(elems), out, RJACOBI, work=WORK3 * n)
    return out.reshape((3,) + shape)


def frangi_scale(elems: list[np.ndarray], out: np.ndarray, alpha: float, beta: float,
                 gamma: float) -> None:
    """Max Frangi's vesselness of one scale (the Hessian's ``elems``) into ``out`` (contiguous), in place.

    Examples
    --------
    >>> out = np.zeros(1)
    >>> frangi_scale([np.zeros(1), np.zeros(1), np.ones(1)], out, 0.5, 0.5, 1.0)
    >>> round(float(out[0]), 6)      # a line: 1 - exp(-1/2)
    0.393469
    """
    flat = out.reshape(-1)
    inv_2b2 = 1.0 / (2.0 * beta * beta)
    inv_2g2 = 1.0 / (2.0 * gamma * gamma)
    n = flat.size
    if len(elems) == 3:
        parallel_for(_frangi2, n, *_flat(elems), flat, inv_2b2, inv_2g2, work=2 * WORK2 * n)
    else:
        parallel_for(_frangi3, n, *_flat(elems), flat, 1.0 / (2.0 * alpha * alpha), inv_2b2,
                     inv_2g2, RJACOBI, work=2 * WORK3 * n)


@kernel(nogil=True)
def _sato2(lo, hi, h00, h01, h11, out, s2):
    """Sato's tubeness of one scale, maxed into ``out[lo:hi]``: ``s2 max(e0, 0)`` (2-D)."""
    for i in range(lo, hi):
        e0, e1 = _eig2(float(h00[i]), float(h01[i]), float(h11[i]))
        v = s2 * e0 if e0 > 0.0 else 0.0
        if e0 != e0:
            v = math.nan
        _keep_max(out, i, v)


@kernel(nogil=True)
def _sato3(lo, hi, h00, h01, h02, h11, h12, h22, out, s2, rjacobi):
    """Sato's tubeness of one scale, maxed into ``out[lo:hi]``: ``s2 sqrt(max(e0, 0) max(e1, 0))``."""
    for i in range(lo, hi):
        e0, e1, e2 = _eig3(float(h00[i]), float(h01[i]), float(h02[i]), float(h11[i]),
                           float(h12[i]), float(h22[i]), rjacobi)
        v = s2 * math.sqrt(e0 * e1) if e1 > 0.0 else 0.0         # e0 >= e1
        if e0 != e0:
            v = math.nan
        _keep_max(out, i, v)


@kernel(nogil=True)
def _meijering2(lo, hi, h00, h01, h11, vals, alpha):
    """Meijering's response of one scale into ``vals[lo:hi]``: the mixed eigenvalue of largest
    magnitude (the first of equals), clipped below at 0 (2-D)."""
    for i in range(lo, hi):
        e0, e1 = _eig2(float(h00[i]), float(h01[i]), float(h11[i]))
        v0 = e0 + alpha * e1
        v1 = e1 + alpha * e0
        v = v0 if abs(v0) >= abs(v1) else v1
        v = v if v > 0.0 else 0.0
        if e0 != e0:
            v = math.nan
        vals[i] = v


@kernel(nogil=True)
def _meijering3(lo, hi, h00, h01, h02, h11, h12, h22, vals, alpha, rjacobi):
    """Meijering's response of one scale into ``vals[lo:hi]`` (3-D; see :func:`_meijering2`)."""
    for i in range(lo, hi):
        e0, e1, e2 = _eig3(float(h00[i]), float(h01[i]), float(h02[i]), float(h11[i]),
                           float(h12[i]), float(h22[i]), rjacobi)
        v = e0 + alpha * (e1 + e2)
        v1 = e1 + alpha * (e0 + e2)
        if abs(v1) > abs(v):
            v = v1
        v2 = e2 + alpha * (e0 + e1)
        if abs(v2) > abs(v):
            v = v2
        v = v if v > 0.0 else 0.0
        if e0 != e0:
            v = math.nan
        vals[i] = v


def sato_scale(elems: list[np.ndarray], out: np.ndarray, sigma: float) -> None:
    """Max Sato's tubeness of one scale (the Hessian's ``elems``) into ``out`` (contiguous), in place.

    Examples
    --------
    >>> out = np.zeros(1)
    >>> sato_scale([np.ones(1), np.zeros(1), np.zeros(1)], out, 2.0)
    >>> float(out[0])                # sigma**2 times the largest eigenvalue, 1
    4.0
    """
    flat = out.reshape(-1)
    n = flat.size
    if len(elems) == 3:
        parallel_for(_sato2, n, *_flat(elems), flat, sigma * sigma, work=WORK2 * n)
    else:
        parallel_for(_sato3, n, *_flat(elems), flat, sigma * sigma, RJACOBI, work=WORK3 * n)


def meijering_scale(elems: list[np.ndarray], alpha: float, dtype: np.dtype) -> np.ndarray:
    """Meijering's response of one scale (not yet normalised): an array of ``elems[0]``'s shape.

    Examples
    --------
    >>> v = meijering_scale([np.ones(1), np.zeros(1), np.full(1, -3.0)], 0.5, np.float64)
    >>> float(v[0])                  # mixed: 1 - 1.5 and -3 + 0.5; the larger magnitude is < 0
    0.0
    """
    shape = elems[0].shape
    n = int(np.prod(shape))
    vals = np.empty(n, dtype=dtype)
    if len(elems) == 3:
        parallel_for(_meijering2, n, *_flat(elems), vals, alpha, work=WORK2 * n)
    else:
        parallel_for(_meijering3, n, *_flat(elems), vals, alpha, RJACOBI, work=WORK3 * n)
    return vals.reshape(shape)
