"""scikit-image's basic features of one smoothed image, in one pass: its side of
:func:`sftwave.feature.multiscale_basic_features`.

From the Gaussian-smoothed images ``g`` of the scales, each pixel gets, scale after
scale, in this order (scikit-image's ``_singlescale_basic_features_singlechannel``):

* the intensity ``g`` itself;
* the edges, ``skimage.filters.sobel(g)``: ``sqrt(sum_a S_a**2 / ndim)`` with
  ``S_a`` the Sobel derivative along axis a (``[1, 0, -1]`` along it,
  ``[1, 2, 1] / 4`` along each other axis, the image extended by scipy's
  ``'reflect'``);
* the texture, the eigenvalues (decreasing) of the Hessian
  ``H_ab = np.gradient(np.gradient(g, axis=a), axis=b)`` (central differences
  inside, one-sided ones on the first and last sample).

A 2-D or 3-D image is done by a numba kernel over rows, which reads the
smoothed images and writes a row's features of every scale together into the
stack (``out[..., k0:k0 + n]``: a pixel's features side by side, so each line of
the stack is written once, not once per scale), with no derivative arrays; the arithmetic is in
float64, the stack is float32 as scikit-image's.  Other dimensions take
``scipy.ndimage`` and ``np.gradient`` (the same definitions).

``inv_spacing`` scales the derivatives to physical units: ``S_a`` by
``1 / spacing_a``, ``H_ab`` by ``1 / (spacing_a spacing_b)`` (all ones: scikit-image's).
"""

from __future__ import annotations

import math
from itertools import combinations_with_replacement

import numpy as np

from ._jit import kernel
from .eigen import RJACOBI, eig3
from .pool import parallel_for

__all__ = ["scale_features"]


@kernel(nogil=True)
def _ref(i, n):
    """scipy's ``'reflect'`` one sample beyond either end (``x[-1] = x[0]``, ``x[n] = x[n-1]``)."""
    if i < 0:
        return 0
    if i >= n:
        return n - 1
    return i


@kernel(nogil=True)
def _diff(i, n):
    """``np.gradient``'s stencil at ``i`` of ``n`` samples: (low index, high index, factor)."""
    if i == 0:
        return 0, 1, 1.0
    if i == n - 1:
        return n - 2, n - 1, 1.0
    return i - 1, i + 1, 0.5


@kernel(nogil=True)
def _grad_row(src, dst):
    """``dst = np.gradient(src)`` of a line of at least 2 samples."""
    n = src.shape[0]
    dst[0] = src[1] - src[0]
    dst[n - 1] = src[n - 1] - src[n - 2]
    for j in range(1, n - 1):
        dst[j] = (src[j + 1] - src[j - 1]) * 0.5


@kernel(nogil=True)
def _g0_row(g, r, dst):
    """``np.gradient(g, axis=0)[r]`` into ``dst`` (float64)."""
    lo, hi, f = _diff(r, g.shape[0])
    for j in range(g.shape[1]):
        dst[j] = (np.float64(g[hi, j]) - np.float64(g[lo, j])) * f


@kernel(nogil=True)
def _eig2_fast(x, y, z):
    """The eigenvalues ``e0 >= e1`` of ``[[x, y], [y, z]]`` built from float32 data: their
    squares neither overflow nor underflow in float64, so no scaling; NaN where one is not
    finite (``.eigen._sym2_single``'s arithmetic)."""
    mean = 0.5 * (x + z)
    half = 0.5 * (x - z)
    h = math.sqrt(y * y + half * half)
    e0 = mean + h
    e1 = mean - h
    if y == 0.0:                                   # diagonal (also all zero): exact
        e0 = max(x, z)
        e1 = min(x, z)
    s = x + y + z
    if not (s - s == 0.0):
        e0 = math.nan
        e1 = math.nan
    return e0, e1


@kernel(nogil=True)
def _smooth_row(src, dst, scale):
    """``dst = (src[j-1] + 2 src[j] + src[j+1]) * scale``, the line extended by ``'reflect'``."""
    n = src.shape[0]
    dst[0] = (src[0] + 2.0 * src[0] + src[min(1, n - 1)]) * scale
    dst[n - 1] = (src[max(n - 2, 0)] + 2.0 * src[n - 1] + src[n - 1]) * scale
    for j in range(1, n - 1):
        dst[j] = (src[j - 1] + 2.0 * src[j] + src[j + 1]) * scale


@kernel(nogil=True)
def _diff_row(src, dst, scale):
    """``dst = (src[j+1] - src[j-1]) * scale``, the line extended by ``'reflect'``."""
    n = src.shape[0]
    dst[0] = (src[min(1, n - 1)] - src[0]) * scale
    dst[n - 1] = (src[n - 1] - src[max(n - 2, 0)]) * scale
    for j in range(1, n - 1):
        dst[j] = (src[j + 1] - src[j - 1]) * scale


@kernel(nogil=True)
def _features2(lo, hi, stack, out, k0, intensity, edges, texture, s0, s1):
    """Rows ``lo:hi`` of every scale's features of the 2-D smoothed images ``stack[s]``, a row
    at a time through line buffers (float64): a row's features of all scales are written
    together, so that each line of the stack is written once."""
    n0, n1 = stack.shape[1], stack.shape[2]
    per = int(intensity) + int(edges) + 2 * int(texture)
    buf = np.empty((8, n1))
    a0, a1, a2, a3, a4, a5, e0, e1 = buf[0], buf[1], buf[2], buf[3], buf[4], buf[5], buf[6], buf[7]
    for i in range(lo, hi):
        for sc in range(stack.shape[0]):
            g = stack[sc]
            k = k0 + sc * per
            if intensity:
                for j in range(n1):
                    out[i, j, k] = g[i, j]
                k += 1
            if edges:
                ip = _ref(i + 1, n0)
                im = _ref(i - 1, n0)
                for j in range(n1):
                    a0[j] = np.float64(g[ip, j]) - np.float64(g[im, j])          # along axis 0
                    a1[j] = (np.float64(g[im, j]) + 2.0 * np.float64(g[i, j])
                             + np.float64(g[ip, j]))                             # smoothed along it
                _smooth_row(a0, a2, 0.25 * s0)
                _diff_row(a1, a3, 0.25 * s1)
                for j in range(n1):
                    out[i, j, k] = math.sqrt(0.5 * (a2[j] * a2[j] + a3[j] * a3[j]))
                k += 1
            if texture:
                for j in range(n1):
                    a0[j] = g[i, j]
                _grad_row(a0, a1)
                _grad_row(a1, a2)                              # H11
                _g0_row(g, i, a0)
                _grad_row(a0, a3)                              # H01
                a, b, f = _diff(i, n0)
                _g0_row(g, a, a4)
                _g0_row(g, b, a5)
                for j in range(n1):
                    x = (a5[j] - a4[j]) * f * (s0 * s0)      # H00
                    e0[j], e1[j] = _eig2_fast(x, a3[j] * (s0 * s1), a2[j] * (s1 * s1))
                for j in range(n1):
                    out[i, j, k] = e0[j]
                    out[i, j, k + 1] = e1[j]


@kernel(nogil=True)
def _grad3(g, i, j, k, a):
    """``np.gradient(g, axis=a)[i, j, k]``."""
    if a == 0:
        lo, hi, f = _diff(i, g.shape[0])
        return (float(g[hi, j, k]) - float(g[lo, j, k])) * f
    if a == 1:
        lo, hi, f = _diff(j, g.shape[1])
        return (float(g[i, hi, k]) - float(g[i, lo, k])) * f
    lo, hi, f = _diff(k, g.shape[2])
    return (float(g[i, j, hi]) - float(g[i, j, lo])) * f


@kernel(nogil=True)
def _hess3(g, i, j, k, a, b):
    """``np.gradient(np.gradient(g, axis=a), axis=b)[i, j, k]``."""
    if b == 0:
        lo, hi, f = _diff(i, g.shape[0])
        return (_grad3(g, hi, j, k, a) - _grad3(g, lo, j, k, a)) * f
    if b == 1:
        lo, hi, f = _diff(j, g.shape[1])
        return (_grad3(g, i, hi, k, a) - _grad3(g, i, lo, k, a)) * f
    lo, hi, f = _diff(k, g.shape[2])
    return (_grad3(g, i, j, hi, a) - _grad3(g, i, j, lo, a)) * f


@kernel(nogil=True)
def _sobel3(g, i, j, k):
    """The three Sobel derivatives of ``g`` at ``(i, j, k)`` (not yet scaled by spacing)."""
    n0, n1, n2 = g.shape
    d0 = 0.0
    d1 = 0.0
    d2 = 0.0
    for u in range(-1, 2):
        for v in range(-1, 2):
            w = (2.0 - abs(u)) * (2.0 - abs(v)) * 0.0625
            # along axis 0 (u, v on axes 1, 2), axis 1 (u, v on 0, 2), axis 2 (u, v on 0, 1)
            a1, a2 = _ref(j + u, n1), _ref(k + v, n2)
            d0 += w * (float(g[_ref(i + 1, n0), a1, a2]) - float(g[_ref(i - 1, n0), a1, a2]))
            b0, b2 = _ref(i + u, n0), _ref(k + v, n2)
            d1 += w * (float(g[b0, _ref(j + 1, n1), b2]) - float(g[b0, _ref(j - 1, n1), b2]))
            c0, c1 = _ref(i + u, n0), _ref(j + v, n1)
            d2 += w * (float(g[c0, c1, _ref(k + 1, n2)]) - float(g[c0, c1, _ref(k - 1, n2)]))
    return d0, d1, d2


@kernel(nogil=True)
def _features3(lo, hi, stack, out, k0, intensity, edges, texture, s0, s1, s2, rjacobi):
    """Lines ``lo:hi`` (``i * n1 + j``) of every scale's features of the 3-D smoothed images
    ``stack[s]``."""
    n1 = stack.shape[2]
    n2 = stack.shape[3]
    per = int(intensity) + int(edges) + 3 * int(texture)
    for line in range(lo, hi):
        i = line // n1
        j = line - i * n1
        for sc in range(stack.shape[0]):
            g = stack[sc]
            for k in range(n2):
                c = k0 + sc * per
                if intensity:
                    out[i, j, k, c] = g[i, j, k]
                    c += 1
                if edges:
                    d0, d1, d2 = _sobel3(g, i, j, k)
                    d0 *= s0
                    d1 *= s1
                    d2 *= s2
                    out[i, j, k, c] = np.sqrt((d0 * d0 + d1 * d1 + d2 * d2) / 3.0)
                    c += 1
                if texture:
                    e0, e1, e2 = eig3(_hess3(g, i, j, k, 0, 0) * (s0 * s0),
                                      _hess3(g, i, j, k, 0, 1) * (s0 * s1),
                                      _hess3(g, i, j, k, 0, 2) * (s0 * s2),
                                      _hess3(g, i, j, k, 1, 1) * (s1 * s1),
                                      _hess3(g, i, j, k, 1, 2) * (s1 * s2),
                                      _hess3(g, i, j, k, 2, 2) * (s2 * s2), rjacobi)
                    out[i, j, k, c] = e0
                    out[i, j, k, c + 1] = e1
                    out[i, j, k, c + 2] = e2


def _features_nd(g: np.ndarray, out: np.ndarray, k0: int, intensity: bool, edges: bool,
                 texture: bool, inv_spacing: tuple[float, ...]) -> int:
    """One scale's features for any number of axes, by scipy.ndimage and ``np.gradient``."""
    from scipy import ndimage as ndi

    from .features import symmetric_eigenvalues

    ndim = g.ndim
    g64 = g.astype(np.float64)
    k = k0
    if intensity:
        out[..., k] = g
        k += 1
    if edges:
        acc = np.zeros(g.shape)
        for a in range(ndim):
            d = ndi.correlate1d(g64, [-1.0, 0.0, 1.0], axis=a, mode="reflect")
            for b in range(ndim):
                if b != a:
                    d = ndi.correlate1d(d, [0.25, 0.5, 0.25], axis=b, mode="reflect")
            acc += (d * inv_spacing[a]) ** 2
        out[..., k] = np.sqrt(acc / ndim)
        k += 1
    if texture:
        first = [np.gradient(g64, axis=a) for a in range(ndim)]
        elems = [np.gradient(first[a], axis=b) * (inv_spacing[a] * inv_spacing[b])
                 for a, b in combinations_with_replacement(range(ndim), 2)]
        eigs = symmetric_eigenvalues(elems, "H_elems")
        for m in range(ndim):
            out[..., k + m] = eigs[m]
        k += ndim
    return k


def scale_features(stack: np.ndarray, out: np.ndarray, k0: int, intensity: bool, edges: bool,
                   texture: bool, inv_spacing: tuple[float, ...]) -> int:
    """The features of every scale's smoothed image ``stack[s]`` into ``out[..., k0:]``
    (``out``: ``stack.shape[1:] + (features,)``), scale after scale; returns how many were
    written.

    Examples
    --------
    >>> g = np.zeros((1, 4, 5), np.float32)
    >>> g[0, :, 3:] = 1.0
    >>> out = np.zeros((4, 5, 4), np.float32)
    >>> scale_features(g, out, 0, True, True, True, (1.0, 1.0))
    4
    >>> out[1, :, 1].tolist()                   # the edge: sqrt(1 / 2) next to the step
    [0.0, 0.0, 0.7071067690849304, 0.7071067690849304, 0.0]
    """
    ndim = stack.ndim - 1
    n = (int(intensity) + int(edges) + ndim * int(texture)) * stack.shape[0]
    rows = stack.shape[1]
    size = stack[0].size * stack.shape[0]
    if ndim == 2:
        parallel_for(_features2, rows, stack, out, k0, intensity, edges, texture, *inv_spacing,
                     work=60.0 * size)
    elif ndim == 3:
        parallel_for(_features3, rows * stack.shape[2], stack, out, k0, intensity, edges, texture,
                     *inv_spacing, RJACOBI, work=400.0 * size)
    else:
        k = k0
        for g in stack:
            k = _features_nd(g, out, k, intensity, edges, texture, inv_spacing)
    return n
