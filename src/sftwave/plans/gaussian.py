"""The Gaussian family: exact sampled kernels, scipy's truncated kernel, FIR and SFT/ASFT plans.

The SFT plans are least-squares fits (:func:`sftwave.plans.fit.fit_plan`) of
the sampled Gaussian or its first or second derivative (section II of the
paper); the FIR kernels are the exact kernel truncated and moment-corrected
(:func:`sftwave.plans.fit.truncated_kernel`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

import numpy as np

from .blas import single_threaded_blas
from .cache import on_disk
from .fit import (
    ASFT_DECAY,
    SFTPlan,
    fit_plan,
    reference_support,
    relative_rms,
    smooth_sum,
    sum_stride,
    truncated_error,
    truncated_kernel,
    truncated_with_moments,
)

__all__ = [
    "gaussian_norm",
    "gaussian_target",
    "scipy_gaussian_kernel",
    "scipy_kernel_error",
    "fir_kernel",
    "fir_error",
    "gaussian_plan",
    "gaussian_fit",
    "shortest_window",
    "P_MAX",
    "RATIO_MIN",
]

#: Largest number of orders P tried for the Gaussian family.
P_MAX = 16


#: Smallest ratio K/sigma the design considers (the lower end of :func:`_best_ratio`'s search).
RATIO_MIN = 1.5

#: sigma at which the ratio K/sigma is optimised for large sigma (the optimum is
#: scale-invariant once the kernel is well sampled).
_SIGMA_REF = 48.0



# --------------------------------------------------------------------------- targets


def gaussian_norm(sigma: float) -> float:
    """Sum of exp(-k^2 / (2 sigma^2)) over all integers k."""
    if sigma >= 50.0:
        # Poisson summation: the correction to sqrt(2 pi) sigma is exp(-2 pi^2 sigma^2)
        return math.sqrt(2.0 * math.pi) * sigma
    R = int(math.ceil(13.0 * sigma)) + 2
    k = np.arange(-R, R + 1, dtype=np.float64)
    return float(np.sum(np.exp(-0.5 * (k / sigma) ** 2)))


def gaussian_target(sigma: float, order: int) -> Callable[[np.ndarray], np.ndarray]:
    r"""The sampled Gaussian (``order=0``) or its derivative of order ``order``.

    ``G[k] = exp(-gamma k^2) / Z`` with ``gamma = 1/(2 sigma^2)``,
    ``G_D = -2 gamma k G`` and ``G_DD = (4 gamma^2 k^2 - 2 gamma) G``, as in
    section II of the paper; order ``m >= 3`` is
    ``(-1)^m He_m(k / sigma) G / sigma^m`` (``He_m`` the probabilists' Hermite
    polynomial, by its recursion), the kernels of the derivative-of-Gaussian
    wavelets (``sftwave.plans.dog``).  ``Z`` makes the sampled Gaussian sum to one, as
    scipy normalises its kernel; it equals the paper's ``sqrt(pi/gamma)`` to
    within ``exp(-2 pi^2 sigma^2)`` (below 1e-19 for sigma >= 1.5).  These are
    convolution kernels: ``y = sum_k T[k] x[n-k]``.

    Examples
    --------
    >>> import numpy as np
    >>> T = gaussian_target(0.5, 0)
    >>> round(float(T(np.arange(-40, 41)).sum()), 12)
    1.0
    """
    gamma = 1.0 / (2.0 * sigma * sigma)
    norm = 1.0 / gaussian_norm(sigma)

    def target(k: np.ndarray) -> np.ndarray:
        k = np.asarray(k, dtype=np.float64)
        g = norm * np.exp(-gamma * k * k)
        if order == 0:
            return g
        if order == 1:
            return -2.0 * gamma * k * g
        if order == 2:
            return (4.0 * gamma * gamma * k * k - 2.0 * gamma) * g
        u = k / sigma
        h_prev, h = np.ones_like(u), u          # He_0, He_1
        for j in range(1, order):
            h_prev, h = h, u * h - j * h_prev
        return (-1.0 if order % 2 else 1.0) * h * g / sigma**order

    return target


def scipy_gaussian_kernel(sigma: float, order: int, radius: int) -> np.ndarray:
    """The convolution kernel scipy.ndimage.gaussian_filter1d uses (length ``2*radius+1``).

    Written out here (it is a private scipy function) so that the direct path
    reproduces scipy's result exactly: the truncated Gaussian normalised to sum
    one, times the polynomial of the derivative.
    """
    sigma2 = sigma * sigma
    x = np.arange(-radius, radius + 1, dtype=np.float64)
    phi_x = np.exp(-0.5 / sigma2 * x**2)
    phi_x = phi_x / phi_x.sum()
    if order == 0:
        return phi_x
    exponent_range = np.arange(order + 1)
    q = np.zeros(order + 1)
    q[0] = 1
    D = np.diag(exponent_range[1:], 1)
    P = np.diag(np.ones(order) / -sigma2, -1)
    Q_deriv = D + P
    for _ in range(order):
        q = Q_deriv.dot(q)
    # scipy's powers of x are integers; numpy < 2 rounds their product with q otherwise
    # than a float matrix's, so integers too, while exact (floats where scipy's overflow)
    xp = np.arange(-radius, radius + 1) if float(radius) ** order < 2.0**53 else x
    q = (xp[:, None] ** exponent_range).dot(q)
    return q * phi_x





@lru_cache(maxsize=512)
def scipy_kernel_error(sigma: float, order: int, radius: int) -> float:
    """Relative RMSE of scipy's truncated kernel against the exact sampled kernel.

    scipy's kernel is the exact one on ``|k| <= radius`` times ``Z / Z_r`` (its
    Gaussian is normalised over the truncated support, ``Z_r``, instead of all
    integers, ``Z``), and zero outside; so the error is made of the tail mass
    ``Z - Z_r`` and the exact kernel's energy inside and outside, each a sum
    of a smooth function (:func:`smooth_sum`): the cost and memory do not
    grow with ``sigma`` or ``radius``.

    Examples
    --------
    >>> round(scipy_kernel_error(2.0, 0, 8), 8)    # truncate = 4
    3.497e-05
    """
    R = reference_support(sigma, radius)
    stride = sum_stride(2 * R + 1, sigma)
    exact = gaussian_target(sigma, order)
    gamma = 0.5 / (sigma * sigma)

    def gauss(k):
        return np.exp(-gamma * k * k)

    def energy(k):
        return exact(k) ** 2

    tail_mass = 2.0 * smooth_sum(gauss, radius + 1, R, stride)
    z = gaussian_norm(sigma)
    excess = tail_mass / (z - tail_mass)  # Z / Z_r - 1
    inside = float(energy(np.zeros(1))[0]) + 2.0 * smooth_sum(energy, 1, radius, stride)
    outside = 2.0 * smooth_sum(energy, radius + 1, R, stride)
    return relative_rms(excess * excess * inside + outside, inside + outside)


@lru_cache(maxsize=1024)
@on_disk("fir_kernel")
@single_threaded_blas
def fir_kernel(sigma: float, order: int, tol: float) -> np.ndarray:
    """The shortest truncated Gaussian kernel with exact low moments whose error is at most ``tol``.

    The exact sampled kernel on ``|k| <= r``, corrected by the least change (in
    L2) that makes its moments of order 0 and 2 (order 1 for the first
    derivative) those of the untruncated kernel, so polynomials up to degree 2
    are filtered exactly (see :func:`truncated_kernel`).

    Examples
    --------
    >>> h = fir_kernel(2.0, 2, 1e-4)
    >>> abs(float(h.sum())) < 1e-15, h.size
    (True, 21)
    """
    return truncated_kernel(gaussian_target(sigma, order), sigma, tol, _fir_orders(order))


def _fir_orders(order: int) -> tuple[int, ...]:
    return (0, 2) if order % 2 == 0 else (1,)


def fir_error(sigma: float, order: int, radius: int) -> float:
    """The error of :func:`fir_kernel`'s kernel of the given radius (cost independent of sigma beyond it).

    Examples
    --------
    >>> fir_error(2.0, 2, 10) <= 1e-4 < fir_error(2.0, 2, 9)     # fir_kernel(2.0, 2, 1e-4): 21 taps
    True
    """
    target = gaussian_target(sigma, order)
    h = truncated_with_moments(target, sigma, radius, _fir_orders(order))
    return truncated_error(target, sigma, h)



# --------------------------------------------------------------------------- Gaussian family


def _gaussian_moments(order: int) -> tuple[int, ...]:
    """Moment constraints for each order: polynomials up to degree 2 pass exactly."""
    return (0, 1, 2)


def gaussian_fit(sigma: float, order: int, P: int, K: int, decay: float,
                  weights: tuple = (), resolution: float | None = None,
                  moments: tuple[int, ...] | None = None, *, reference: bool = False) -> SFTPlan:
    """The Gaussian (or derivative) fit with P orders on [-K, K]; see :func:`fit_plan`.

    ``moments`` overrides the default moment constraints (those that make
    polynomials up to degree 2 pass exactly); ``reference``: :func:`fit_plan`'s.
    """
    beta = math.pi / K
    alpha = decay / K
    odd = order % 2 == 1
    if alpha == 0.0 and odd:
        p = np.arange(1, P + 1)
    else:
        p = np.arange(0, P + 1)
    omegas = beta * p
    if alpha == 0.0:
        use_re = np.full(p.size, not odd)
        use_im = np.full(p.size, odd)
        # symmetric (or antisymmetric) kernels: odd moments vanish by symmetry
        default: tuple[int, ...] = _fir_orders(order)
    else:
        use_re = np.ones(p.size, bool)
        use_im = p != 0
        default = _gaussian_moments(order)
    moments = default if moments is None else moments
    info = dict(kind="gaussian", sigma=sigma, order=order, P=P, K=K, decay=decay)
    return fit_plan(
        [gaussian_target(sigma, order)],
        omegas,
        alpha,
        2 * K + 1,
        K,
        use_re=use_re,
        use_im=use_im,
        moments=moments,
        scale=sigma,
        resolution=resolution,
        weights=weights,
        info=info,
        reference=reference,
    )


@lru_cache(maxsize=256)
@on_disk("gaussian_ratio")
@single_threaded_blas
def _best_ratio(P: int, order: int, decay: float) -> tuple[float, float]:
    """Ratio K/sigma minimising the kernel error at sigma = _SIGMA_REF, and that error."""
    s = _SIGMA_REF

    def objective(ratio: float) -> float:
        K = max(P + 1, int(round(ratio * s)))
        return math.log(gaussian_fit(s, order, P, K, decay).error)

    from scipy.optimize import minimize_scalar  # imported when a design is made, not with sftwave

    res = minimize_scalar(objective, bounds=(RATIO_MIN, 4.0 + 0.5 * P), method="bounded",
                          options={"xatol": 2e-3})
    return float(res.x), float(math.exp(res.fun))


def _min_half_width(P: int) -> int:
    return P + 1


def shortest_window(sigma: float) -> int:
    """A lower bound on the window of every plan :func:`gaussian_plan` can return for ``sigma``.

    Its half-width is ``round(ratio * sigma)`` with ``ratio >= RATIO_MIN``, or
    for ``sigma`` below the reference scale up to two samples less (the
    neighbouring windows tried), and never below ``P + 1 >= 2``.  Computed from
    ``sigma`` alone: it lets a selector know, before any design, that every
    plan would be far wider than the signal.

    Examples
    --------
    >>> shortest_window(64.0) <= gaussian_plan(64.0, 0, 1e-4, "sft").length
    True
    >>> shortest_window(1e300) > 10**300
    True
    """
    return 2 * max(_min_half_width(1), int(round(RATIO_MIN * sigma)) - 2) + 1


#: Rough large-sigma kernel error of the SFT at P = 2 and the factor gained per
#: extra order, for each derivative order (docs/design.md).  Only a hint for
#: where the search for P starts; every plan's error is computed exactly.
_ERROR_HINT = {0: (1.0e-2, 5.0), 1: (5.0e-2, 4.7), 2: (8.2e-2, 4.3)}


def _first_order_to_try(order: int, tol: float) -> int:
    if order not in _ERROR_HINT:      # the wavelets' higher orders: from the fewest
        return 1
    e2, factor = _ERROR_HINT[order]
    P = 2 + math.ceil(math.log(e2 / tol) / math.log(factor)) if tol < e2 else 2
    return max(1, P - 1)


@lru_cache(maxsize=1024)
@on_disk("gaussian_plan")
@single_threaded_blas
def gaussian_plan(sigma: float, order: int, tol: float, transform: str) -> SFTPlan:
    """The cheapest SFT/ASFT plan for a Gaussian of ``sigma`` meeting ``tol``.

    ``tol`` is the target relative RMSE of the kernel against the exact sampled
    kernel; ``transform`` is ``'sft'`` (no decay) or ``'asft'``.  Raises
    ``ValueError`` if no plan up to ``P_MAX`` orders meets ``tol`` (the caller
    then falls back to the direct path).

    Examples
    --------
    >>> plan = gaussian_plan(64.0, 0, 1e-4, "sft")
    >>> plan.error <= 1e-4, plan.info["P"]
    (True, 5)
    """
    decay = 0.0 if transform == "sft" else ASFT_DECAY
    best = None
    for P in range(_first_order_to_try(order, tol), P_MAX + 1):
        ratio, ref_err = _best_ratio(P, order, decay)
        if ref_err > tol * 4:
            continue
        K0 = max(_min_half_width(P), int(round(ratio * sigma)))
        if sigma >= _SIGMA_REF:
            candidates = [K0]
        else:  # discretisation matters: try the neighbouring windows too
            candidates = sorted({max(_min_half_width(P), K0 + d) for d in (-2, -1, 0, 1, 2)})
        for K in candidates:
            plan = gaussian_fit(sigma, order, P, K, decay)
            if best is None or plan.error < best.error:
                best = plan
            if plan.error <= tol:
                return plan
    raise ValueError(
        f"no SFT plan reaches tol={tol:g} for sigma={sigma:g}, order={order} "
        f"(best {best.error:.3g} at P={best.info['P']})" if best is not None else
        f"no SFT plan reaches tol={tol:g}"
    )
