r"""Gaussian kernels much wider than the signal: the exact result at a cost bounded by the signal.

When the window of a Gaussian plan is many times the signal's length, the
recursions would spend almost all their time (and the extended line almost
all its memory) on the boundary extension.  There the exact, untruncated
result has a closed form in every mode, computed here by FFT in
``O(n log n)`` time and ``O(n)`` memory whatever ``sigma``:

* ``reflect``, ``mirror``, ``wrap`` extend the line periodically (period
  ``2n``, ``2n - 2``, ``n``), so the filter is a circular convolution of one
  period with the kernel's transfer function.  For the sampled Gaussian
  ``T[k] = g(k)/Z`` (``g = exp(-k^2/(2 sigma^2))``, ``Z = sum_k g(k)``) and its
  derivatives (the exact kernels of :func:`sftwave.plans.gaussian.gaussian_target`),
  Poisson summation gives the transfer function exactly:

  .. math::

     \hat T(\omega) = \sum_k T[k] e^{-i\omega k}
       = \frac{\sqrt{2\pi}\,\sigma}{Z} \sum_m (i u_m)^{d}\, e^{-\sigma^2 u_m^2/2},
     \qquad u_m = \omega - 2\pi m,

  ``d`` the derivative's order.
* ``constant`` and ``nearest`` extend with constants, whose contribution is
  the constant times a tail sum of the kernel; the rest is a linear
  convolution over ``|k| < n``.

The results equal the direct definition (``tests/naive.py``) to rounding.
"""

from __future__ import annotations

import math

import numpy as np

from ...plans.gaussian import gaussian_norm, gaussian_target

__all__ = ["gaussian_wide"]


def _transfer(sigma: float, order: int, omega: np.ndarray) -> np.ndarray:
    """The exact transfer function of the sampled kernel at ``omega`` in [0, pi]."""
    scale = math.sqrt(2.0 * math.pi) * sigma / gaussian_norm(sigma)
    # images beyond |u| = 2 pi m with sigma * 2 pi (m - 1/2) > 40 are below exp(-800)
    mmax = 1 + int(math.ceil(40.0 / (2.0 * math.pi * sigma)))
    h = np.zeros(omega.shape, dtype=np.complex128)
    for m in range(-mmax, mmax + 1):
        u = omega - 2.0 * math.pi * m
        h += (1j * u) ** order * np.exp(-0.5 * (sigma * u) ** 2)
    return scale * h


def _half_tail(sigma: float, order: int) -> float:
    """``sum_{k >= 1} T[k]`` of the exact sampled kernel."""
    exact = gaussian_target(sigma, order)
    if order % 2 == 0:
        # symmetric: half of the total minus the centre tap
        total = float(_transfer(sigma, order, np.zeros(1)).real[0])
        return 0.5 * (total - float(exact(np.zeros(1))[0]))
    # antisymmetric (first derivative): T[k] = -k g(k) / (sigma^2 Z)
    if sigma <= 1e4:
        k = np.arange(1, int(math.ceil(40.0 * sigma)) + 2, dtype=np.float64)
        return float(np.sum(exact(k)))
    # Euler-Maclaurin for sum_{k>=1} k g(k) = sigma^2 - 1/12 - 1/(240 sigma^2) - ...
    s2 = sigma * sigma
    first_moment = s2 - 1.0 / 12.0 - 1.0 / (240.0 * s2)
    return -first_moment / (s2 * gaussian_norm(sigma))


def _periodic(x2d: np.ndarray, sigma: float, order: int, mode: str) -> np.ndarray:
    n = x2d.shape[1]
    if mode == "reflect":
        period = np.concatenate([x2d, x2d[:, ::-1]], axis=1)
    elif mode == "mirror" and n > 1:
        period = np.concatenate([x2d, x2d[:, -2:0:-1]], axis=1)
    else:  # wrap, or mirror of a single sample (constant)
        period = x2d
    P = period.shape[1]
    import scipy.fft  # only the rare wide plans need it: imported here (slow to import)

    spectrum = scipy.fft.rfft(period, axis=1)
    omega = 2.0 * math.pi * np.arange(spectrum.shape[1]) / P
    spectrum *= _transfer(sigma, order, omega)
    return scipy.fft.irfft(spectrum, n=P, axis=1)[:, :n]


def _constant_ends(x2d: np.ndarray, sigma: float, order: int, mode: str,
                   cval: float) -> np.ndarray:
    rows, n = x2d.shape
    exact = gaussian_target(sigma, order)
    k = np.arange(-(n - 1), n, dtype=np.float64)
    T = exact(k)                                     # T[k] for |k| < n
    if mode == "constant":
        left = right = np.full(rows, cval)
    else:  # nearest
        left, right = x2d[:, 0], x2d[:, -1]
    # y[n] = sum_{0 <= j < N} T[n - j] x[j] + left sum_{k > n} T[k] + right sum_{k <= n - N} T[k]
    import scipy.fft

    size = scipy.fft.next_fast_len(3 * n - 2, real=True)
    y = scipy.fft.irfft(scipy.fft.rfft(x2d, size, axis=1) * scipy.fft.rfft(T, size),
                        size, axis=1)[:, n - 1:2 * n - 1]
    # U[a] = sum_{k >= a} T[k] for a = 1 .. n
    partial = np.concatenate([[0.0], np.cumsum(T[n:])])  # sum_{k=1}^{a-1} T[k]
    U = _half_tail(sigma, order) - partial
    idx = np.arange(n)
    beyond_left = U[idx]                             # a = n + 1 (index a - 1)
    beyond_right = (-1.0) ** order * U[n - 1 - idx]  # a = N - n, T[-k] = (-1)^d T[k]
    return y + left[:, None] * beyond_left + right[:, None] * beyond_right


def gaussian_wide(x2d: np.ndarray, sigma: float, order: int, mode: str,
                  cval: float = 0.0) -> np.ndarray:
    """The exact Gaussian filter (order 0, 1 or 2) of every row of ``x2d``, in float64.

    ``mode`` is a canonical mode name (``reflect``, ``mirror``, ``nearest``,
    ``wrap``, ``constant``).  Cost ``O(n log n)`` per row whatever ``sigma``.

    Examples
    --------
    >>> import numpy as np
    >>> y = gaussian_wide(np.arange(5.0)[None, :], 1e9, 0, "reflect")
    >>> np.allclose(y, 2.0)      # a Gaussian far wider than the line: its mean
    True
    """
    x2d = np.asarray(x2d, dtype=np.float64)
    if mode in ("reflect", "mirror", "wrap"):
        return _periodic(x2d, sigma, order, mode)
    return _constant_ends(x2d, sigma, order, mode, float(cval))
