r"""The Morlet wavelet by FFT: the exact, untruncated wavelet, its transfer function and its cost.

The bank's cost per sample does not depend on the scale, but every row runs
over the signal and the wavelet's window (some 9 sigma), and each costs some
ten component updates per sample.  A short signal with many scales (Torrence &
Compo's analysis: a few thousand samples, a hundred scales reaching the
signal's length) spends most of that on the windows.  There the FFT costs
less: one transform of the signal, then per scale a product with the
wavelet's transfer function and one inverse transform, ``O(M log M)`` for a
transform of ``M`` points whatever the scale.  :class:`FFTPlan` asks for it.

The transfer function.  The sampled wavelet
``psi[k] = A (exp(i xi k / sigma) - kappa) exp(-k^2 / (2 sigma^2))``
(``sftwave.plans.morlet``, ``A = C_xi / (pi^(1/4) sqrt(sigma))``) has, by
Poisson summation, the exact transform

.. math::

    \Psi(\omega) = \sum_k \psi[k] e^{-i\omega k}
      = A \sqrt{2\pi}\,\sigma \sum_m \left(g(\sigma u_m - \xi)
        - \kappa\, g(\sigma u_m)\right),
    \qquad u_m = \omega - 2\pi m,\quad g(z) = e^{-z^2/2},

real (the wavelet is Hermitian: ``psi[-k] = conj(psi[k])``).  :func:`transfer`
evaluates it on a grid of frequencies, each Gaussian only where ``|z| <``
:data:`BAND` (beyond, below ``exp(-BAND^2 / 2) = 2.6e-20`` of its peak).

The extensions (the engine's ``sftwave.engines.numba.spectral``):

* ``reflect``, ``mirror``, ``wrap`` extend the signal periodically (period
  ``2n``, ``2n - 2``, ``n``), so the transform is a circular convolution with
  the periodised wavelet, whose transfer function is ``Psi`` on the period's
  frequencies: exact, without padding.  The symmetric extensions run as
  cosine and sine transforms of ``n`` points (the real part of the output is
  the even part of ``Psi``'s product with the signal's cosine transform, the
  imaginary part the odd part's with the sine transform).
* ``constant`` and ``nearest`` pad: a circular convolution of ``M`` points
  equals the linear one on the signal's ``n`` outputs where the wavelet's taps
  beyond ``M - n`` are negligible: ``M >= n + reach(sigma)`` (``reach``,
  ``BAND`` sigmas) with ``Psi`` itself; where the reach exceeds the signal, the
  taps ``|k| < n`` are all the outputs read, so the wavelet truncated there is
  exact, ``M >= 2n - 1``, its transfer function by an FFT of its samples.  The
  padding's constant (``cval``; for ``nearest`` the end values) contributes
  the constant times ``Psi(0)`` (the wavelet's sum) and, for ``nearest``, the
  step between the two ends times the wavelet's running sum.

So the result is the exact transform of the definition (``tests/naive.py``)
to rounding: relative errors of some 1e-15 in float64, 1e-7 in float32,
where the bank's are its ``tol`` (1e-4 by default).

The cost model (``fft_work``) counts point-levels of the transforms, ``M
log2 M`` for a complex transform of ``M`` points and half that for a real
one, plus a few passes over the points; the selector
(:func:`sftwave.plans.select.select_morlet`) weighs them with the engine's
figure against the bank's component updates, ``(P + 1) (n + L)`` for ``P``
components and a window of ``L`` samples.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .morlet import morlet_constants

__all__ = ["FFTPlan", "BAND", "CACHE_POINTS", "PERIODIC_MODES", "reach", "fast_length",
           "transform_length", "transfer", "fft_work"]

#: Each Gaussian of the transfer function is evaluated where its argument is within
#: this many units (``exp(-BAND^2 / 2) = 2.6e-20`` of its peak beyond), and the wavelet
#: is taken as zero beyond ``BAND`` sigmas: its envelope there is below 2.6e-20.
BAND = 9.5

#: The modes whose extension is periodic (an exact circular convolution, no padding).
PERIODIC_MODES = ("reflect", "mirror", "wrap")


@dataclass(frozen=True)
class FFTPlan:
    """The exact (untruncated) Morlet wavelet of scale ``sigma`` samples, applied by FFT.

    Its accuracy is that of the arithmetic (about 1e-15 in float64), not a
    ``tol``; its cost ``O(M log M)`` per row whatever the scale
    (``fft_work``).  Only the CPU engine runs it; a stream cannot (it
    transforms a whole signal at once).

    Parameters
    ----------
    sigma : float
        Scale in samples.
    xi : float
        Radians per standard deviation.

    See Also
    --------
    select_morlet : The selector that returns it (``method='fft'``, or ``'auto'`` where it
        costs less than the bank and the FIR).
    sftwave.cwt : The transform that runs it.

    Examples
    --------
    >>> plan = FFTPlan(sigma=10.0, xi=6.0)
    >>> plan.radius
    95
    """

    sigma: float
    xi: float

    @property
    def radius(self) -> int:
        """Samples each side beyond which the wavelet is below 2.6e-20 of its peak (``reach``)."""
        return reach(self.sigma)


def reach(sigma: float) -> int:
    """``ceil(BAND * sigma)``: the taps ``|k| > reach`` are below 2.6e-20 of the wavelet's peak.

    Examples
    --------
    >>> reach(10.0)
    95
    """
    return int(math.ceil(BAND * float(sigma)))


def fast_length(m: int) -> int:
    """The smallest ``2^a``, ``3 2^a`` or ``5 2^a`` at least ``m``: a length the FFT
    transforms fast, of which a call uses few (three per octave).

    Few lengths matter as much as fast ones: each length is one more forward
    transform of the signal and one more plan of scipy's FFT, which keeps the
    plans of its last 16 lengths only (a hundred scales each padded to its
    own 5-smooth length ran three times slower).

    Examples
    --------
    >>> fast_length(4001), fast_length(7999), fast_length(1)
    (4096, 8192, 1)
    """
    m = max(int(m), 1)
    return min(f << max(0, (-(-m // f) - 1).bit_length()) for f in (1, 3, 5))


def transform_length(sigma: float, n: int, mode: str) -> tuple[int, bool]:
    """``(M, exact)``: the FFT's length for one row of ``n`` samples, and whether ``Psi`` is
    the transfer function there (else the wavelet's samples ``|k| < n`` are transformed).

    The periodic modes' period (``reflect`` ``2n``, ``mirror`` ``max(2n - 2, 1)``,
    ``wrap`` ``n``); ``constant`` and ``nearest`` a fast length at least
    ``n + reach(sigma)``, or ``2n - 1`` where the reach exceeds the signal.

    Examples
    --------
    >>> transform_length(10.0, 4000, "reflect"), transform_length(10.0, 4000, "constant")
    ((8000, True), (4096, True))
    >>> transform_length(1000.0, 4000, "constant")
    (8192, False)
    """
    n = int(n)
    if mode == "reflect":
        return 2 * n, True
    if mode == "mirror":
        return max(2 * n - 2, 1), True
    if mode == "wrap":
        return n, True
    r = reach(sigma)
    if r < n:
        return fast_length(n + r), True
    return fast_length(2 * n - 1), False


def transfer(sigma: float, xi: float, omega0: float, step: float, count: int) -> np.ndarray:
    """``Psi(omega0 + k step)`` for ``k = 0 .. count - 1``: the wavelet's exact transfer function.

    Each Gaussian term (every alias ``m`` of the carrier's and of the
    ``kappa`` term) is evaluated on the grid points within :data:`BAND` of its
    centre only; the rest of the grid is exactly zero from it.  ``step > 0``.

    Examples
    --------
    >>> import numpy as np
    >>> from sftwave.plans.morlet import morlet_target
    >>> k = np.arange(-200, 201)
    >>> psi = morlet_target(10.0, 6.0)(k)
    >>> w = np.array([0.3, 0.6])
    >>> direct = (psi[None, :] * np.exp(-1j * w[:, None] * k[None, :])).sum(axis=1)
    >>> np.allclose(transfer(10.0, 6.0, 0.3, 0.3, 2), direct, rtol=0, atol=1e-12)
    True
    """
    sigma, xi, omega0, step = float(sigma), float(xi), float(omega0), float(step)
    C, kappa = morlet_constants(xi)
    amp = C / (math.pi ** 0.25 * math.sqrt(sigma)) * math.sqrt(2.0 * math.pi) * sigma
    h = np.zeros(int(count))
    if count <= 0:
        return h
    lo_w, hi_w = omega0, omega0 + step * (count - 1)
    half = BAND / sigma                     # the band's half-width in radians per sample
    centres = [(xi / sigma, 1.0)] + ([(0.0, -kappa)] if kappa > 0.0 else [])
    for centre, weight in centres:
        # the aliases omega = centre + 2 pi m whose band meets [lo_w, hi_w]
        m_lo = math.floor((lo_w - half - centre) / (2.0 * math.pi))
        m_hi = math.ceil((hi_w + half - centre) / (2.0 * math.pi))
        for m in range(m_lo, m_hi + 1):
            c = centre + 2.0 * math.pi * m
            k0 = max(0, math.ceil((c - half - omega0) / step))
            k1 = min(count, math.floor((c + half - omega0) / step) + 1)
            if k1 <= k0:
                continue
            z = sigma * (omega0 + step * np.arange(k0, k1) - c)
            h[k0:k1] += weight * np.exp(-0.5 * z * z)
    return amp * h


#: Transforms of more points than this run out of the faster caches: their cost per
#: point-level grows about in proportion (``fft_work``'s factor ``1 + M / CACHE_POINTS``;
#: the figures: docs/performance.md, *Short series, many scales*).
CACHE_POINTS = 1 << 17


def fft_work(sigma: float, n: int, mode: str) -> float:
    """The FFT's cost for one row of ``n`` samples at scale ``sigma``, in complex point-levels.

    A complex transform of ``M`` points counts ``M log2 M``, a real one (cosine,
    sine) half that, each times ``1 + M / CACHE_POINTS`` (the slower caches of
    long transforms); each pass over the points (the product with the transfer
    function, the output's kind, its write) counts one per point, four in all.
    ``reflect`` and ``mirror`` run a cosine and a sine transform of ``n``
    points, ``wrap`` a complex one of ``n``, the padded modes a complex one of
    :func:`transform_length` (and ``nearest`` a running sum over ``n``).  The
    transfer function itself is not counted: it is evaluated over its band
    only, and kept for the next call.

    Examples
    --------
    >>> fft_work(10.0, 4096, "reflect") == 4096 * 12 * (1 + 4096 / CACHE_POINTS) + 4 * 4096
    True
    """
    n = max(int(n), 1)
    M, _ = transform_length(sigma, n, mode)
    if mode in ("reflect", "mirror") and n > 2:
        M = n
    work = M * math.log2(max(M, 2)) * (1.0 + M / CACHE_POINTS) + 4.0 * M
    if mode == "nearest":
        work += float(n)
    return work
