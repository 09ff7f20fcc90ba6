r"""The derivative-of-Gaussian (DOG) wavelets of Torrence & Compo: plans for their scalograms.

The DOG wavelet of order ``m`` (Torrence & Compo 1998, Table 1; pycwt's
``DOG(m)``; ``m = 2`` is the Mexican hat, PyWavelets' ``'mexh'``) is

.. math::

    \psi_0(\eta) = \frac{(-1)^{m+1}}{\sqrt{\Gamma(m + 1/2)}}
                   \frac{d^m}{d\eta^m} e^{-\eta^2/2},

of unit energy, and its transform at the scale of ``sigma`` samples is
Torrence & Compo's eq. 2 with their normalisation ``sqrt(dt / s)``:
``W[n] = sigma^{-1/2} sum_k x[n + k] psi_0(k / sigma)`` (a correlation, as
theirs and pycwt's; for odd ``m`` it is the convolution with the mirrored
wavelet).  Since ``d^m/dk^m`` of the sampled Gaussian ``G`` of standard
deviation ``sigma`` is ``sigma^{-m}`` times the derivative in ``eta = k / sigma``
divided by ``G``'s normalisation ``Z``, this is the Gaussian derivative filter
of order ``m`` at ``sigma`` (:func:`sftwave.plans.gaussian.gaussian_target`)
times :func:`dog_factor`

.. math::

    c_m(\sigma) = -\frac{Z(\sigma)\, \sigma^{m - 1/2}}{\sqrt{\Gamma(m + 1/2)}},

``Z`` the sum of the sampled Gaussian (``sqrt(2 pi) sigma`` to within
``exp(-2 pi^2 sigma^2)``).  The plans are those of the Gaussian derivatives
(SFT or ASFT banks of cost independent of ``sigma``, or moment-corrected
truncated kernels where cheaper), their outputs multiplied by ``c_m``; their
error is the relative RMSE of the kernel against the exact sampled wavelet,
as the Gaussian filters' (the factor leaves a relative error unchanged).

A row of frequency ``f`` has T&C's Fourier period ``1 / f``: the scale is
``s = sqrt(m + 1/2) / (2 pi f)`` (time units), ``sigma = s fs`` samples
(:func:`dog_scale`).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from typing import Any

import numpy as np

from .._checks import check_choice, check_sigma, check_tol
from .cache import on_disk, one_file
from .fit import TOL_FLOOR, FIRPlan, SFTPlan
from .gaussian import fir_error, fir_kernel, gaussian_norm, gaussian_plan, gaussian_target
from .select import DEFAULT_MORLET_TOL, SHORT_SIGNAL_TIGHTENING, max_kernel_sigma

__all__ = ["DOG_ORDERS", "DOG_METHODS", "dog_factor", "dog_scale", "dog_target", "select_dog",
           "select_dog_scales"]

#: The orders ``m`` of the DOG wavelets served (PyWavelets' ``'gaus1'`` to ``'gaus8'`` span).
DOG_ORDERS = tuple(range(1, 9))

#: ``method`` of the DOG scalograms: the truncated kernel, the SFT bank, or the cheaper.
DOG_METHODS = ("auto", "fir", "bank")


def check_dog_order(m: Any) -> int:
    """``m`` as an int of :data:`DOG_ORDERS` (``ValueError``/``TypeError`` naming it)."""
    if isinstance(m, (bool, np.bool_)) or not isinstance(m, (int, np.integer)):
        raise TypeError(f"the DOG wavelet's order m must be an integer; got {m!r}")
    if int(m) not in DOG_ORDERS:
        raise ValueError(f"the DOG wavelet's order m must be in {DOG_ORDERS[0]}..{DOG_ORDERS[-1]}; "
                         f"got {m!r}")
    return int(m)


def dog_factor(sigma: float, m: int) -> float:
    """``c_m(sigma)``: the DOG wavelet's kernel over the Gaussian derivative's (module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> k = np.arange(-80, 81)
    >>> h = dog_factor(10.0, 2) * gaussian_target(10.0, 2)(k)        # the Mexican hat
    >>> bool(abs(h[80] - 1 / np.sqrt(10.0 * 1.329340388179137)) < 1e-12)
    True
    """
    return -gaussian_norm(sigma) * sigma ** (m - 0.5) / math.sqrt(math.gamma(m + 0.5))


def dog_target(sigma: float, m: int):
    """The exact sampled DOG kernel at ``sigma``: ``h[k] = sigma^{-1/2} psi_0(-k / sigma)``.

    A convolution kernel (``y[n] = sum_k h[k] x[n - k]``), callable on an array of ``k``.

    Examples
    --------
    >>> import numpy as np
    >>> h = dog_target(8.0, 2)(np.arange(-100, 101))
    >>> round(float(h @ h), 6)                                        # unit energy
    1.0
    """
    c = dog_factor(sigma, m)
    g = gaussian_target(sigma, m)
    return lambda k: c * g(k)


def dog_scale(freqs: Any, fs: float, m: int) -> np.ndarray:
    """``sigma = sqrt(m + 1/2) fs / (2 pi f)`` samples: the scale whose Fourier period is ``1 / f``.

    Examples
    --------
    >>> round(float(dog_scale(0.1, 1.0, 2) * 2 * np.pi / np.sqrt(2.5)), 12)
    10.0
    """
    return math.sqrt(m + 0.5) * fs / (2.0 * math.pi * np.asarray(freqs, dtype=np.float64))


def _scaled(plan: SFTPlan | FIRPlan, factor: float) -> SFTPlan | FIRPlan:
    if isinstance(plan, SFTPlan):
        return dataclasses.replace(plan, coef=plan.coef * factor)
    return dataclasses.replace(plan, kernel=plan.kernel * factor)


def _fir(sigma: float, m: int, tol: float) -> FIRPlan:
    return FIRPlan(fir_kernel(sigma, m, max(tol, 1e-15)), tol)


def _dog_plan(sigma: float, m: int, tol: float, method: str, transform: str, n: int | None,
              fir_taps_per_order: float | None) -> SFTPlan | FIRPlan:
    """The Gaussian derivative's plan for one scale (unscaled): the policy of
    :func:`sftwave.plans.select.select_gaussian` with an explicit ``tol``."""
    if method == "fir" or tol < TOL_FLOOR:
        return _fir(sigma, m, tol)
    try:
        plan = gaussian_plan(sigma, m, tol, transform)
        if n is not None and n < plan.length:   # no interior: the pointwise error decides
            plan = gaussian_plan(sigma, m, max(TOL_FLOOR, tol / SHORT_SIGNAL_TIGHTENING), transform)
    except ValueError as exc:
        if method == "auto":
            return _fir(sigma, m, tol)
        raise ValueError(f"method='bank': {exc}; pass a larger tol or method='fir'") from None
    if method == "auto" and fir_taps_per_order is not None:
        max_taps = fir_taps_per_order * (plan.omegas.size + 1)
        radius = int(max_taps) // 2
        if radius >= 1 and fir_error(sigma, m, radius) <= tol:
            short = _fir(sigma, m, tol)
            if short.size <= max_taps:
                return short
    return plan


@functools.lru_cache(maxsize=32)
@on_disk("dog_scalogram")
def _select_dog_scales(sigmas: tuple[float, ...], m: int, tol: float, method: str, transform: str,
                       n: int | None, fir_taps_per_order: float | None) -> tuple[SFTPlan | FIRPlan, ...]:
    """:func:`select_dog_scales` on checked arguments: one file of the plan cache for all."""
    with one_file():
        return tuple(_scaled(_dog_plan(s, m, tol, method, transform, n, fir_taps_per_order),
                             dog_factor(s, m)) for s in sigmas)


def select_dog(sigma: float, m: int, tol: float | None = None, *, method: str = "auto",
               transform: str = "sft", n: int | None = None,
               fir_taps_per_order: float | None = None) -> SFTPlan | FIRPlan:
    """The plan of the DOG wavelet of order ``m`` at the scale of ``sigma`` samples.

    ``method``: ``'fir'`` the shortest moment-corrected truncated kernel
    meeting ``tol``, ``'bank'`` the SFT/ASFT bank (``transform``), ``'auto'``
    the bank or, where it costs less by the engine's ``fir_taps_per_order``,
    the FIR.  ``tol``: the kernel's relative RMSE (default 1e-4), tightened
    for a signal of ``n`` samples shorter than the bank's window, as for the
    Gaussian filters.  A ``sigma`` beyond :func:`~sftwave.plans.select.max_kernel_sigma`
    ``(n)`` is refused (``ValueError``).

    See Also
    --------
    select_dog_scales : A scalogram's plans.
    sftwave.plans.select.select_gaussian : The Gaussian derivative filters' plans.

    Examples
    --------
    >>> plan = select_dog(40.0, 2, 1e-4)
    >>> type(plan).__name__, plan.error <= 1e-4
    ('SFTPlan', True)
    """
    return select_dog_scales([sigma], m, tol, method=method, transform=transform, n=n,
                             fir_taps_per_order=fir_taps_per_order)[0]


def select_dog_scales(sigmas: Any, m: int, tol: float | None = None, *, method: str = "auto",
                      transform: str = "sft", n: int | None = None,
                      fir_taps_per_order: float | None = None) -> list[SFTPlan | FIRPlan]:
    """The plans of a DOG scalogram: :func:`select_dog` for each scale of ``sigmas`` (samples).

    Kept together in memory and on disk, as the Morlet scalograms' plans
    (:func:`sftwave.plans.select.select_morlet_scales`).

    See Also
    --------
    select_dog : One scale.
    sftwave.cwt : The scalogram these plans serve (``wavelet='dog2'``).

    Examples
    --------
    >>> plans = select_dog_scales([40.0, 20.0], 6, 1e-4)
    >>> [p.error <= 1e-4 for p in plans]
    [True, True]
    """
    m = check_dog_order(m)
    checked = check_tol(tol)
    tol = DEFAULT_MORLET_TOL if checked is None else checked
    method = check_choice(method, DOG_METHODS, "method")
    transform = check_choice(transform, ("sft", "asft"), "transform")
    if n is not None and (isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0):
        raise ValueError(f"n (the signal's length) must be None or a non-negative integer; got {n!r}")
    if fir_taps_per_order is not None:
        fir_taps_per_order = float(fir_taps_per_order)
        if not 0 < fir_taps_per_order < math.inf:
            raise ValueError(f"fir_taps_per_order must be None or a positive finite number; "
                             f"got {fir_taps_per_order!r}")
    limit = max_kernel_sigma(None if n is None else int(n))
    scales = []
    for s in sigmas:
        s = check_sigma(s)
        if s > limit:
            raise ValueError(f"sigma={s!r}: the wavelet is longer than the signal: at most "
                             f"{limit:g} samples" + ("" if n is None else f" on {int(n)} samples"))
        scales.append(float(s))
    return list(_select_dog_scales(tuple(scales), m, float(tol), method, transform,
                                   None if n is None else int(n), fir_taps_per_order))
