r"""The time derivative of a Morlet plan: the kernel ``psi'`` on the same bank, for synchrosqueezing.

The synchrosqueezed transform (:mod:`sftwave.synchrosqueeze`) needs, beside
``W = psi * x``, the transform by the wavelet's time derivative
``dW/dn = psi' * x``, with

.. math::

    \psi'_{\sigma,\xi}(t) = i\frac{\xi}{\sigma}\,\frac{C_\xi}{\pi^{1/4}\sqrt\sigma}
    e^{-t^2/(2\sigma^2)} e^{i\xi t/\sigma} - \frac{t}{\sigma^2}\,\psi_{\sigma,\xi}(t).

*An SFT plan* has the kernel ``h[k] = sum_p Re(w_p^j) c0_p + Im(w_p^j) c1_p``
on its window (``j = k + lag``, ``w_p = exp(-alpha - i omega_p)``), a sum of
exponentials in ``k``.  Its derivative in ``k`` is the same sum with
``w_p^j`` times ``log w_p = -(alpha + i omega_p)``: the same components,
other coefficients (``c0' = a c0 + b c1``, ``c1' = a c1 - b c0`` with
``a = -alpha``, ``b = -omega_p``).  So the derivative plan is the same bank
at the same cost, and ``dW / W`` is the exact logarithmic derivative of the
computed transform, whose frequencies are the plan's (at most Nyquist): the
band-limited derivative.  Its error against ``psi'`` is the plan's error
against ``psi`` (measured: within a factor 2 of ``plan.error`` wherever the
wavelet's band, ``xi/sigma + 3/sigma``, is below Nyquist; beyond it, the
sampled ``psi'`` aliases and no derivative of samples is defined).

*A FIR plan* (small scales) gets the exact sampled ``psi'`` on its radius.
"""

from __future__ import annotations

import math

import numpy as np

from .fit import FIRPlan, SFTPlan
from .morlet import morlet_constants

__all__ = ["morlet_derivative", "derivative_plan"]


def morlet_derivative(sigma: float, xi: float, k: np.ndarray) -> np.ndarray:
    """The exact time derivative ``psi'_{sigma, xi}(k)`` of the sampled Morlet wavelet (complex).

    Examples
    --------
    >>> from sftwave.plans.morlet import morlet_target
    >>> k = np.array([-3.0, 0.5, 7.0])
    >>> psi = morlet_target(20.0, 6.0)
    >>> numeric = (psi(k + 1e-5) - psi(k - 1e-5)) / 2e-5
    >>> bool(np.allclose(morlet_derivative(20.0, 6.0, k), numeric, rtol=1e-8, atol=1e-12))
    True
    """
    C, kappa = morlet_constants(xi)
    amp = C / (math.pi**0.25 * math.sqrt(sigma))
    theta = xi / sigma
    k = np.asarray(k, dtype=np.float64)
    g = amp * np.exp(-0.5 * (k / sigma) ** 2)
    carrier = np.exp(1j * theta * k)
    return g * (1j * theta * carrier - (k / (sigma * sigma)) * (carrier - kappa))


def derivative_plan(plan: SFTPlan | FIRPlan, sigma: float, xi: float) -> SFTPlan | FIRPlan:
    """The plan of ``d/dk`` of ``plan``'s Morlet kernel of scale ``sigma`` and ``xi`` (module doc).

    An SFT plan's own components with new coefficients (its exact derivative,
    the same window); a FIR plan's radius with the exact ``psi'`` taps.

    Examples
    --------
    >>> from sftwave.plans import select_morlet
    >>> from sftwave.plans.fit import plan_kernel
    >>> plan = select_morlet(40.0, 6.0, 1e-5)
    >>> k, h = plan_kernel(derivative_plan(plan, 40.0, 6.0))
    >>> ref = morlet_derivative(40.0, 6.0, k)
    >>> bool(np.sqrt(np.sum(abs(h - ref) ** 2) / np.sum(abs(ref) ** 2)) < 3e-5)
    True
    """
    if isinstance(plan, FIRPlan):
        r = plan.radius
        taps = morlet_derivative(sigma, xi, np.arange(-r, r + 1, dtype=np.float64))
        return FIRPlan(taps, plan.error)
    if not isinstance(plan, SFTPlan):
        raise TypeError(f"plan must be an SFTPlan or FIRPlan; got {type(plan).__name__}")
    a = -float(plan.alpha)
    b = -np.asarray(plan.omegas, dtype=np.float64)
    c0 = plan.coef[:, 0, :]
    c1 = plan.coef[:, 1, :]
    coef = np.stack([a * c0 + b * c1, a * c1 - b * c0], axis=1).astype(np.complex128)
    info = dict(plan.info, derivative=1)
    return SFTPlan(plan.omegas, plan.alpha, plan.length, plan.lag, coef, plan.error, info)
