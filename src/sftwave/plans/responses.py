r"""The wavelets' numerics that their families ask for: the Morlet's normalisation, its
reconstruction constant ``C_delta`` and the response of its rows, and the Gaussian that
the DOG's response and the inverse's weights evaluate.

Kept apart from ``sftwave.plans.families`` (the family objects, which call these) so
that each module stays short; nothing here is public API.

Examples
--------
>>> round(morlet_normalisation(6.0), 6), round(morlet_cdelta(6.0), 4)
(1.0, 0.7784)
"""

from __future__ import annotations

import functools
import math

import numpy as np

__all__ = ["morlet_normalisation", "morlet_cdelta", "morlet_response", "gauss"]


def morlet_normalisation(xi: float) -> float:
    """``C_xi = (1 + exp(-xi^2) - 2 exp(-3 xi^2 / 4))^(-1/2)``: sftwave's Morlet over the paper's."""
    return 1.0 / math.sqrt(1.0 + math.exp(-xi * xi) - 2.0 * math.exp(-0.75 * xi * xi))


@functools.lru_cache(maxsize=64)
def morlet_cdelta(xi: float) -> float:
    """``C_delta`` of a checked ``xi``, kept per process (a quadrature of about a millisecond,
    asked for by every :func:`sftwave.icwt` and scale average)."""
    from scipy.integrate import quad

    kappa = math.exp(-0.5 * xi * xi)
    norm = morlet_normalisation(xi) * math.pi ** -0.25

    def h_over_u(u: float) -> float:
        # psi_0's transform summed over +-u: norm exp(-(u - xi)^2 / 2) (1 - exp(-xi u))^2,
        # without the cancellation of its two Gaussians and the kappa term at small u
        return norm * math.exp(-0.5 * (u - xi) ** 2) * math.expm1(-xi * u) ** 2 / u if u > 0 else 0.0

    # integral_0^inf F(a) / a^2 da = integral_0^inf h(u) / u du  (F(a) = integral_0^a h)
    total = sum(quad(h_over_u, lo, hi, limit=200, epsabs=1e-13, epsrel=1e-11)[0]
                for lo, hi in ((0.0, xi), (xi, xi + 10.0), (xi + 10.0, np.inf)))
    psi0 = norm * (1.0 - kappa)
    return float(math.pi / math.log(2.0) / math.sqrt(2 * math.pi) / psi0 * total)


#: An exponent below this gives exactly 0.0 in float64 (``exp(-745.14)`` is the smallest
#: subnormal): an alias of :func:`morlet_response` whose exponents all lie below it adds nothing.
_UNDERFLOW = -746.0

#: :func:`gauss` sets ``exp(z)`` to zero below this exponent (1e-304: nothing that a sum
#: of terms of order one keeps); numpy's vector ``exp`` falls to a slow path where its
#: results are subnormal, as most of a response matrix's are (the figure: docs/performance.md,
#: *Figures behind the code's choices*).
_NEGLIGIBLE = -700.0


def gauss(z: np.ndarray) -> np.ndarray:
    """``exp(z)`` for ``z <= 0``, zero where ``z`` is below :data:`_NEGLIGIBLE`."""
    out = np.zeros_like(z)
    return np.exp(z, out=out, where=z > _NEGLIGIBLE)


def morlet_response(sigma: np.ndarray, xi: float, omega: np.ndarray) -> np.ndarray:
    """``(Psi(omega) + Psi(-omega)) / 2``, ``Psi`` the sampled wavelet's transform, the
    continuous one ``B sigma sqrt(2 pi) (exp(-(sigma w - xi)^2 / 2) - kappa exp(-(sigma w)^2 / 2))``
    summed over its aliases ``w = omega + 2 pi m``, ``|m| <= 3`` (the highest rows reach
    Nyquist).  ``m = 0`` on every row; the other aliases only on the rows where one of their
    exponents is above float64's underflow (elsewhere they add exactly nothing)."""
    kappa = math.exp(-0.5 * xi * xi)
    B = morlet_normalisation(xi) / (math.pi ** 0.25 * np.sqrt(sigma))
    u = sigma[:, None] * omega[None, :]
    total = gauss(-0.5 * (u - xi) ** 2)
    total += gauss(-0.5 * (u + xi) ** 2)            # the image at -omega
    if kappa > 0.0:
        total -= (2.0 * kappa) * gauss(-0.5 * u * u)
    w_lo, w_hi = float(np.min(omega)), float(np.max(omega))
    for sign in (1.0, -1.0):
        for m in (-3, -2, -1, 1, 2, 3):
            # sigma * w over the grid lies in sigma * [a, b]: its distance to xi (and to 0)
            a, b = sorted((sign * w_lo + 2 * math.pi * m, sign * w_hi + 2 * math.pi * m))
            near_xi = np.maximum(np.maximum(sigma * a - xi, xi - sigma * b), 0.0)
            near_0 = np.maximum(np.maximum(sigma * a, -sigma * b), 0.0)
            live = (-0.5 * near_xi ** 2 > _UNDERFLOW) | ((-0.5 * near_0 ** 2 > _UNDERFLOW)
                                                         & (kappa > 0.0))
            if not live.any():
                continue
            rows = np.flatnonzero(live)
            so = sigma[rows, None] * (sign * omega[None, :] + 2 * math.pi * m)
            total[rows] += gauss(-0.5 * (so - xi) ** 2) - kappa * gauss(-0.5 * so * so)
    return (0.5 * B * sigma * math.sqrt(2 * math.pi))[:, None] * total
