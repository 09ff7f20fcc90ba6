r"""Section V-A of the paper: the approximation error of the Morlet wavelet.

The paper approximates the sampled Morlet wavelet (see :mod:`sftwave.plans.morlet`)

.. math::

    \psi_{\sigma,\xi}[n] = \frac{C_\xi}{\pi^{1/4}\sqrt\sigma}\, e^{-n^2/(2\sigma^2)}
    \,(e^{i\xi n/\sigma} - \kappa_\xi)

on :math:`[-K, K]` by sums of SFT (or ASFT) components, in two ways
(section III):

*direct method* (III-A)
    a least-squares fit of :math:`\psi` on the orders
    :math:`P_S .. P_S + P_D - 1` (frequencies :math:`\pi p / K`), the real part
    on :math:`\cos`, the imaginary part on :math:`\sin`;
*multiplication method* (III-B)
    a least-squares fit of the Gaussian envelope on the orders
    :math:`0 .. P_M`, multiplied by :math:`e^{i\xi k/\sigma} - \kappa_\xi`.

and measures (section V-A) the relative RMSE

.. math::

    e = \sqrt{\frac{\sum_{n=-5K}^{5K} |\hat\psi[n] - \psi[n]|^2}
                   {\sum_{n=-5K}^{5K} |\psi[n]|^2}},

the approximation :math:`\hat\psi` being zero outside its window, for
:math:`\sigma = 60` and :math:`\xi` from 1 to 20, with :math:`K` (and for the
direct method :math:`P_S`) chosen to minimise it.  This module recomputes its
three figures: Fig. MSE1 (direct method with :math:`P_D = 5, 7, 9, 11` against
the multiplication method with :math:`P_M = 2, 3, 4, 5`, SFT and ASFT), the
direct method with :math:`P_D = 6` against the wavelet truncated to
:math:`[-3\sigma, 3\sigma]`, and Fig. MSE2 (the optimum :math:`P_S` for
:math:`P_D = 6`, SFT).

What is computed
----------------
*The fits are plain least squares*, as in the paper: the direct method is
:func:`sftwave.plans.morlet.direct_plan` with ``moments=()`` (sftwave's own planner
adds a zero-mean constraint, ``moments=(0,)``), and the multiplication method's
Gaussian is fitted with :func:`sftwave.plans.fit.fit_plan` and ``moments=()``
(sftwave's :func:`sftwave.plans.morlet.multiply_plan` uses the moment-constrained
Gaussian of :mod:`sftwave.plans.fit`, whose moments of order 0 and 2 are exact
for the SFT, 0, 1 and 2 for the ASFT).  The errors of sftwave's constrained
fits, each at its own optimal layout, are reported beside
(``error_sftwave``), to show what the constraints cost.  For the SFT
the complex least-squares fit of :func:`~sftwave.plans.morlet.direct_plan` (both
parts of every component) is the paper's cos/sin fit: over a symmetric window
the even real part and the odd imaginary part of :math:`\psi` are orthogonal
to the odd and even columns.

*ASFT* curves are sftwave's ASFT: the damped basis
:math:`e^{-\alpha k}\cos`, :math:`e^{-\alpha k}\sin` with
:math:`\alpha K =` :data:`sftwave.plans.fit.ASFT_DECAY` (``1``), fitted directly
against the centred wavelet with a complex coefficient on every component
(both its real and imaginary part); no integer shift :math:`n_0` and no output
shift.  The paper's own ASFT instead reuses the SFT coefficients on ASFT
components and shifts the output by an integer :math:`n_0 = \alpha/(2\gamma)`
(section II-E).  For the Gaussian that is exact; for the Morlet wavelet it is
not, because :math:`e^{-\alpha k}` times the envelope is the envelope moved by
:math:`n_0`, while the carrier is not moved: the result is
:math:`\psi[k]\,e^{-i\xi n_0/\sigma}` (and an unrotated :math:`\kappa` term), a
phase error of :math:`\xi n_0/\sigma` radians.  The :math:`P_D = 6` figure
shows this *shift trick* with :math:`n_0 = 10` (Table 1's value; the paper does
not give :math:`n_0` for section V-A) as written, and with the phase
corrected by the constant factor :math:`e^{i\xi n_0/\sigma}`.

*The search.*  For the multiplication method the error depends on :math:`K`
only: a coarse grid of :math:`K/\sigma`, a bounded Brent search around its
best point, then the integer neighbours.  For the direct method a coarse grid
of :math:`K/\sigma` with the run of orders centred on the carrier
(:math:`P_S \approx \xi K/(\pi\sigma) - (P_D-1)/2`, at least 0) gives a
start; then for each :math:`P_S` within 2 of it a Brent search over
:math:`K/\sigma` with :math:`P_S` fixed, and finally a descent over the integer
neighbours of :math:`(K, P_S)`.  The search minimises the plan's own error
(:func:`sftwave.plans.fit.kernel_error`, the same sum over the whole support,
equal to the paper's to rounding since :math:`\psi` is negligible beyond
:math:`5K`); the reported error is the paper's sum.  The shift trick keeps
the SFT's optimal :math:`P_S` and searches :math:`K` within
:math:`\pm 0.5\sigma` of the SFT's.  Exhaustive searches over every :math:`K`
found the same optima (see the tests).

Examples
--------
>>> round(direct_error(60.0, 6.0, 5, 186, 4), 4)      # P_D = 5, K = 186, P_S = 4
0.0129
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from scipy.optimize import minimize_scalar

from sftwave.plans import fit as design
from sftwave.plans.blas import single_threaded_blas
from sftwave.plans.fit import fit_plan, plan_kernel
from sftwave.plans.morlet import direct_plan, morlet_constants, morlet_target, multiply_plan

from .output import save_png_atomic, write_json_reporting

__all__ = [
    "SIGMA",
    "XI_FULL",
    "XI_QUICK",
    "PAIRS",
    "P_D_TRUNC",
    "N0_SHIFT",
    "TRANSFORMS",
    "relative_rmse",
    "direct_kernel",
    "direct_error",
    "multiply_kernel",
    "multiply_error",
    "truncated_error",
    "shift_trick_kernel",
    "optimise_direct",
    "optimise_multiply",
    "compute_xi",
    "compute",
    "claims",
    "write_figures",
    "main",
]

#: Width of the wavelet in section V-A, in samples.
SIGMA = 60.0
#: The full grid of xi (1 to 20 in steps of 0.5).
XI_FULL: tuple[float, ...] = tuple(float(x) for x in np.arange(1.0, 20.0 + 1e-9, 0.5))
#: The grid of ``--quick``.
XI_QUICK: tuple[float, ...] = (1.0, 2.0, 6.0, 12.0)
#: Pairs (P_D, P_M) of Fig. MSE1 (a)-(d): P_D = 2 P_M + 1.
PAIRS: tuple[tuple[int, int], ...] = ((5, 2), (7, 3), (9, 4), (11, 5))
#: P_D of the figure against the truncated wavelet and of Fig. MSE2.
P_D_TRUNC = 6
#: Shift of the paper's ASFT shift trick (Table 1's value).
N0_SHIFT = 10
#: Transforms and their decay ``alpha K`` (sftwave's ASFT decay).
TRANSFORMS: dict[str, float] = {"SFT": 0.0, "ASFT": design.ASFT_DECAY}
#: Half-width of the truncated wavelet, in units of sigma.
TRUNC_SIGMAS = 3.0

#: Coarse grid step of K/sigma in the searches.
_GRID_STEP = 0.2


# --------------------------------------------------------------------------- errors


def _rmse_support(sigma: float, xi: float, K: int) -> tuple[np.ndarray, np.ndarray]:
    n = np.arange(-5 * K, 5 * K + 1, dtype=np.float64)
    return n, morlet_target(sigma, xi)(n)


def relative_rmse(k: np.ndarray, h: np.ndarray, sigma: float, xi: float, K: int) -> float:
    """The paper's relative RMSE of a kernel ``h`` on lags ``k`` against ``psi_{sigma, xi}``.

    Summed over ``n = -5K .. 5K``, the kernel being zero outside ``k`` (which
    must lie inside that range).

    Examples
    --------
    >>> psi = morlet_target(60.0, 6.0)
    >>> k = np.arange(-180, 181)
    >>> round(relative_rmse(k, psi(k), 60.0, 6.0, 180), 5)   # truncation at 3 sigma
    0.00458
    """
    n, psi = _rmse_support(sigma, xi, K)
    k = np.asarray(k)
    idx = np.round(k).astype(np.int64) + 5 * K
    if idx.min() < 0 or idx.max() >= n.size:
        raise ValueError("the kernel's window exceeds [-5K, 5K]")
    diff = psi.copy()
    diff[idx] -= h
    return float(np.sqrt(np.sum(np.abs(diff) ** 2) / np.sum(np.abs(psi) ** 2)))


def direct_kernel(sigma: float, xi: float, P_D: int, K: int, P_S: int, decay: float = 0.0,
                  moments: tuple[int, ...] = ()) -> tuple[np.ndarray, np.ndarray]:
    """The direct method's kernel on ``[-K, K]`` (plain least squares unless ``moments``)."""
    return plan_kernel(direct_plan(sigma, xi, P_D, K, P_S, decay, moments=moments, walk=False))


def direct_error(sigma: float, xi: float, P_D: int, K: int, P_S: int, decay: float = 0.0,
                 moments: tuple[int, ...] = ()) -> float:
    """Relative RMSE (section V-A) of the direct method for one layout ``(K, P_S)``.

    ``decay`` is ``alpha K`` (0: SFT); ``moments=()`` is the paper's plain
    least squares, ``(0,)`` sftwave's zero-mean fit.
    """
    k, h = direct_kernel(sigma, xi, P_D, K, P_S, decay, moments)
    return relative_rmse(k, h, sigma, xi, K)


def _envelope(sigma: float) -> Callable[[np.ndarray], np.ndarray]:
    def target(k: np.ndarray) -> np.ndarray:
        return np.exp(-0.5 * (np.asarray(k, dtype=np.float64) / sigma) ** 2)

    return target


def multiply_kernel(sigma: float, xi: float, P_M: int, K: int, decay: float = 0.0,
                    constrained: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The multiplication method's kernel on ``[-K, K]``: Gaussian fit times the carrier.

    The envelope ``exp(-k^2 / (2 sigma^2))`` is fitted on the orders
    ``0 .. P_M`` (with ``decay = alpha K``: on the damped basis, both parts of
    every order) by plain least squares; ``constrained=True`` takes sftwave's
    :func:`~sftwave.plans.morlet.multiply_plan` instead (moment-constrained Gaussian,
    ``kappa`` always included).  The bank's analytic multiplication is exact,
    so the kernel is the fitted envelope times
    ``C / (pi^(1/4) sqrt(sigma)) (exp(i xi k / sigma) - kappa)``.

    Examples
    --------
    >>> k, h = multiply_kernel(60.0, 6.0, 4, 230)
    >>> k2, h2 = multiply_kernel(60.0, 6.0, 4, 230, constrained=True)
    >>> bool(np.abs(h - h2).max() < 1e-3 * np.abs(h).max())
    True
    """
    if constrained:
        return plan_kernel(multiply_plan(sigma, xi, P_M, K, decay, walk=False))
    p = np.arange(P_M + 1)
    alpha = decay / K
    use_im = np.full(p.size, alpha > 0.0)
    g = fit_plan([_envelope(sigma)], math.pi / K * p, alpha, 2 * K + 1, K,
                 use_im=use_im, moments=(), scale=sigma)
    k, env = plan_kernel(g)
    C, kappa = morlet_constants(xi)
    amp = C / (math.pi**0.25 * math.sqrt(sigma))
    return k, amp * env * (np.exp(1j * xi / sigma * k) - kappa)


def multiply_error(sigma: float, xi: float, P_M: int, K: int, decay: float = 0.0,
                   constrained: bool = False) -> float:
    """Relative RMSE (section V-A) of the multiplication method for one ``K``."""
    k, h = multiply_kernel(sigma, xi, P_M, K, decay, constrained)
    return relative_rmse(k, h, sigma, xi, K)


def truncated_error(sigma: float, xi: float, radius: int, K: int | None = None) -> float:
    """Relative RMSE of ``psi`` truncated to ``[-radius, radius]``, over ``[-5K, 5K]``.

    ``K`` defaults to ``radius``.

    Examples
    --------
    >>> round(truncated_error(60.0, 6.0, 180), 5)
    0.00458
    """
    K = radius if K is None else K
    k = np.arange(-radius, radius + 1)
    return relative_rmse(k, morlet_target(sigma, xi)(k), sigma, xi, K)


def shift_trick_kernel(sigma: float, xi: float, P_D: int, K: int, P_S: int, n0: int = N0_SHIFT,
                       phase_corrected: bool = False) -> tuple[np.ndarray, np.ndarray]:
    r"""The paper's ASFT for the direct method (section III-A): SFT fit, ASFT, shift ``n0``.

    The SFT coefficients :math:`m_p, l_p` (plain least squares) on ASFT
    components with :math:`\alpha = 2\gamma n_0 = n_0/\sigma^2`, scaled by
    :math:`E = e^{-\alpha^2/(4\gamma)}` and read ``n0`` samples later, give the
    kernel :math:`h[k] = E\,e^{-\alpha(k - n_0)}\,\hat\psi[k - n_0]` on
    :math:`[n_0 - K, n_0 + K]` (decay convention of :mod:`sftwave.plans.fit`:
    older samples damped).  It equals :math:`\psi[k]\,e^{-i\xi n_0/\sigma}`
    up to the fit error (and the :math:`\kappa` term), i.e. the carrier's phase
    is off by :math:`\xi n_0/\sigma`; ``phase_corrected`` multiplies by
    :math:`e^{i\xi n_0/\sigma}`, which the paper does not.

    Examples
    --------
    >>> k, h = shift_trick_kernel(60.0, 6.0, 6, 202, 4)
    >>> round(relative_rmse(k, h, 60.0, 6.0, 202), 2)      # phase off by 1 radian
    0.96
    >>> k, h = shift_trick_kernel(60.0, 6.0, 6, 202, 4, phase_corrected=True)
    >>> round(relative_rmse(k, h, 60.0, 6.0, 202), 4)
    0.0057
    """
    k, psi_hat = direct_kernel(sigma, xi, P_D, K, P_S)
    gamma = 1.0 / (2.0 * sigma * sigma)
    alpha = 2.0 * gamma * n0
    h = math.exp(-alpha * alpha / (4.0 * gamma)) * np.exp(-alpha * k) * psi_hat
    if phase_corrected:
        h = h * np.exp(1j * xi * n0 / sigma)
    return k + n0, h


# --------------------------------------------------------------------------- searches


def _grid(lo: float, hi: float) -> np.ndarray:
    return np.arange(lo, hi + 1e-9, _GRID_STEP)


def _brent_integer(f: Callable[[int], float], sigma: float, lo: float, hi: float,
                   lowest: int) -> int:
    """Integer K minimising ``f`` on ``K/sigma`` in ``[lo, hi]``: bounded Brent, then neighbours."""
    k_lo = max(lowest, math.ceil(lo * sigma))
    k_hi = max(k_lo, math.floor(hi * sigma))

    def clamp(K: int) -> int:
        return min(k_hi, max(k_lo, K))

    def obj(r: float) -> float:
        return math.log(f(clamp(int(round(r * sigma)))))

    res = minimize_scalar(obj, bounds=(lo, hi), method="bounded", options={"xatol": 0.5 / sigma})
    K = clamp(int(round(res.x * sigma)))  # int(): numpy < 2 rounds to float
    while True:  # descend over the integer neighbours, inside the bracket
        best = min(sorted({clamp(K + d) for d in (-2, -1, 1, 2)}), key=f)
        if f(best) < f(K):
            K = best
        else:
            return K


def _direct_ratio_bounds(P_D: int) -> tuple[float, float]:
    return 1.5, 2.5 + 0.5 * P_D


def _multiply_ratio_bounds(P_M: int) -> tuple[float, float]:
    return 1.5, 3.0 + P_M


def _centred_start(xi: float, K: int, sigma: float, P_D: int) -> int:
    """P_S of the run of P_D orders centred on the carrier order xi K / (pi sigma), at least 0."""
    return max(0, math.floor(xi * K / (math.pi * sigma) - (P_D - 1) / 2.0 + 0.5))


def optimise_direct(sigma: float, xi: float, P_D: int, decay: float = 0.0,
                    moments: tuple[int, ...] = (), start: tuple[int, int] | None = None) -> dict:
    """The layout ``(K, P_S)`` minimising the direct method's error.

    Plain least squares (the paper's) unless ``moments`` are given (sftwave's
    planner uses ``(0,)``).  ``start``, a layout ``(K, P_S)`` near the
    optimum, replaces the coarse grid of the first stage.

    Returns
    -------
    dict
        ``error``, ``K``, ``P_S``, ``evaluations`` (fits made).

    Examples
    --------
    >>> best = optimise_direct(60.0, 2.0, 5)
    >>> best["K"], best["P_S"], round(best["error"], 5)
    (202, 1, 0.00169)
    """
    cache: dict[tuple[int, int], float] = {}

    def err(K: int, P_S: int) -> float:
        key = (K, P_S)
        if key not in cache:
            if P_S < 0 or P_S + P_D - 1 > K:
                cache[key] = math.inf
            else:
                # the plan's own error: the same sum over the whole support (psi is
                # below 1e-20 of its peak beyond 5K >= 7.5 sigma), one evaluation fewer
                cache[key] = direct_plan(sigma, xi, P_D, K, P_S, decay, moments=moments,
                                         walk=False).error
        return cache[key]

    lo, hi = _direct_ratio_bounds(P_D)
    lowest = P_D
    # 1. coarse grid with the run centred on the carrier
    if start is None:
        starts = []
        for r in _grid(lo, hi):
            K = max(lowest, int(round(r * sigma)))
            P_S = _centred_start(xi, K, sigma, P_D)
            starts.append((err(K, P_S), r, P_S))
        _, r0, ps0 = min(starts)
    else:
        r0, ps0 = start[0] / sigma, start[1]
    # 2. each P_S near it, K/sigma by Brent around r0
    a, b = max(lo, r0 - 4 * _GRID_STEP), min(hi, r0 + 4 * _GRID_STEP)
    for P_S in range(max(0, ps0 - 2), ps0 + 3):
        _brent_integer(lambda K, P_S=P_S: err(K, P_S), sigma, a, b, lowest)
    # 3. descend over the integer neighbours of the best (K, P_S), inside the bounds
    k_lo, k_hi = max(lowest, math.ceil(lo * sigma)), math.floor(hi * sigma)
    K, P_S = min(cache, key=cache.get)
    for _ in range(100):
        nbrs = [(K + dk, P_S + dp) for dk in (-2, -1, 0, 1, 2) for dp in (-1, 0, 1)
                if (dk, dp) != (0, 0) and k_lo <= K + dk <= k_hi]
        cand = min(nbrs, key=lambda kp: err(*kp))
        if err(*cand) < err(K, P_S):
            K, P_S = cand
        else:
            break
    error = direct_error(sigma, xi, P_D, K, P_S, decay, moments)  # the paper's sum, [-5K, 5K]
    return {"error": error, "K": int(K), "P_S": int(P_S), "evaluations": len(cache)}


def optimise_multiply(sigma: float, xi: float, P_M: int, decay: float = 0.0,
                      constrained: bool = False) -> dict:
    """The ``K`` minimising the multiplication method's error.

    Plain least-squares Gaussian (the paper's) unless ``constrained`` (sftwave's
    :func:`~sftwave.plans.morlet.multiply_plan`).

    Returns
    -------
    dict
        ``error``, ``K``, ``evaluations``.

    Examples
    --------
    >>> best = optimise_multiply(60.0, 6.0, 2)
    >>> 150 < best["K"] < 250, best["error"] < 0.05
    (True, True)
    """
    cache: dict[int, float] = {}

    def err(K: int) -> float:
        if K not in cache:
            cache[K] = multiply_error(sigma, xi, P_M, K, decay, constrained)
        return cache[K]

    lo, hi = _multiply_ratio_bounds(P_M)
    lowest = P_M + 1
    grid = _grid(lo, hi)
    r0 = min(grid, key=lambda r: err(max(lowest, int(round(r * sigma)))))
    _brent_integer(err, sigma, max(lo, r0 - _GRID_STEP), min(hi, r0 + _GRID_STEP), lowest)
    K = min(cache, key=cache.get)
    return {"error": cache[K], "K": int(K), "evaluations": len(cache)}


def _optimise_shift_trick(sigma: float, xi: float, P_D: int, K0: int, P_S: int,
                          phase_corrected: bool) -> dict:
    """K minimising the shift trick's error, with P_S fixed (the SFT's optimum), K near K0."""
    cache: dict[int, float] = {}

    def err(K: int) -> float:
        if K not in cache:
            if P_S + P_D - 1 > K:
                cache[K] = math.inf
            else:
                k, h = shift_trick_kernel(sigma, xi, P_D, K, P_S, N0_SHIFT, phase_corrected)
                cache[K] = relative_rmse(k, h, sigma, xi, K)
        return cache[K]

    r0 = K0 / sigma
    _brent_integer(err, sigma, max(1.5, r0 - 0.5), r0 + 0.5, P_D)
    K = min(cache, key=cache.get)
    return {"error": cache[K], "K": int(K), "P_S": int(P_S)}


# --------------------------------------------------------------------------- the experiment


def _direct_name(P_D: int, transform: str) -> str:
    return f"direct_PD{P_D}_{transform}"


def _multiply_name(P_M: int, transform: str) -> str:
    return f"multiply_PM{P_M}_{transform}"


SHIFT_NAME = f"direct_PD{P_D_TRUNC}_ASFT_shift_n0"
SHIFT_CORRECTED_NAME = f"direct_PD{P_D_TRUNC}_ASFT_shift_n0_phase_corrected"
TRUNC_NAME = "truncated_3sigma"


def compute_xi(xi: float, sigma: float = SIGMA) -> dict[str, dict]:
    """Every curve of the three figures at one ``xi``: ``{curve name: {error, K, ...}}``.

    ``error``, ``K`` (and ``P_S``) are the optimum with plain least-squares
    fits (the paper's); ``error_sftwave``, ``K_sftwave`` (and
    ``P_S_sftwave``) the optimum with sftwave's moment-constrained fits
    (direct: zero mean; multiplication: sftwave's Gaussian), each with its own
    optimal layout.
    """
    out: dict[str, dict] = {}
    for transform, decay in TRANSFORMS.items():
        for P_D in sorted({P for P, _ in PAIRS} | {P_D_TRUNC}):
            best = optimise_direct(sigma, xi, P_D, decay)
            own = optimise_direct(sigma, xi, P_D, decay, moments=(0,),
                                  start=(best["K"], best["P_S"]))
            best.update(error_sftwave=own["error"], K_sftwave=own["K"], P_S_sftwave=own["P_S"])
            out[_direct_name(P_D, transform)] = best
        for _, P_M in PAIRS:
            best = optimise_multiply(sigma, xi, P_M, decay)
            own = optimise_multiply(sigma, xi, P_M, decay, constrained=True)
            best.update(error_sftwave=own["error"], K_sftwave=own["K"])
            out[_multiply_name(P_M, transform)] = best
    sft6 = out[_direct_name(P_D_TRUNC, "SFT")]
    for name, corrected in ((SHIFT_NAME, False), (SHIFT_CORRECTED_NAME, True)):
        out[name] = _optimise_shift_trick(sigma, xi, P_D_TRUNC, sft6["K"], sft6["P_S"], corrected)
    radius = round(TRUNC_SIGMAS * sigma)
    out[TRUNC_NAME] = {"error": truncated_error(sigma, xi, radius), "K": radius}
    return out


def _curve_meta(name: str) -> dict:
    if name == TRUNC_NAME:
        return {"method": "truncated", "radius_sigmas": TRUNC_SIGMAS}
    method, order, transform = name.split("_")[:3]
    meta = {"method": method, "P": int(order[2:]), "transform": transform}
    if name in (SHIFT_NAME, SHIFT_CORRECTED_NAME):
        meta.update(variant="paper shift trick", n0=N0_SHIFT,
                    phase_corrected=name == SHIFT_CORRECTED_NAME)
    elif transform == "ASFT":
        meta.update(variant="sftwave ASFT (damped basis, complex coefficients, no shift)",
                    decay_alpha_K=TRANSFORMS["ASFT"])
    return meta


def compute(xis: tuple[float, ...] | list[float] = XI_FULL, sigma: float = SIGMA) -> dict:
    """All curves over ``xis``: ``{"xi": [...], "sigma": ..., "curves": {name: {...}}}``.

    Each curve holds its description (``method``, ``P``, ``transform``, ...)
    and lists over ``xi``: ``error``, ``K``, ``K_over_sigma`` and where they
    apply ``P_S``, ``error_sftwave``, ``K_sftwave``, ``P_S_sftwave`` (see
    :func:`compute_xi`).  About 1.5 s per ``xi``.
    """
    xis = [float(x) for x in xis]
    per_xi = single_threaded_blas(lambda: [compute_xi(xi, sigma) for xi in xis])()
    curves: dict[str, dict] = {}
    for name in per_xi[0]:
        curve = _curve_meta(name)
        for key in ("error", "K", "P_S", "error_sftwave", "K_sftwave", "P_S_sftwave"):
            if key in per_xi[0][name]:
                curve[key] = [row[name][key] for row in per_xi]
        curve["K_over_sigma"] = [K / sigma for K in curve["K"]]
        curves[name] = curve
    return {"xi": xis, "sigma": sigma, "curves": curves}


# --------------------------------------------------------------------------- claims


def claims(results: dict) -> dict:
    """The numbers behind the paper's five claims of section V-A.

    Returns
    -------
    dict
        ``pairs_xi_ge_6``: for each pair and transform, the range (min, max) of
        ``multiply / direct`` over ``xi >= 6`` (claim a);
        ``small_xi``: the same ratio at the smallest ``xi`` (claim b);
        ``asft_over_sft``: for each direct and multiplication curve, the range of
        ``ASFT / SFT`` over all ``xi`` and over ``xi >= 4`` (claim c);
        ``pd6_over_truncated``: the range of ``direct P_D=6 / truncated`` for
        the SFT and the ASFT (claim d);
        ``optimum_P_S``: the optimum ``P_S`` of ``P_D = 6`` (SFT) and whether it
        never decreases with ``xi`` (claim e);
        ``sftwave_over_paper``: for each curve, the range of the error of
        sftwave's moment-constrained fits over the paper's plain fits.
    """
    xi = np.asarray(results["xi"])
    c = results["curves"]

    def err(name):
        return np.asarray(c[name]["error"])

    def rng(a):
        return [float(np.min(a)), float(np.max(a))] if np.size(a) else None

    big = xi >= 6.0
    out: dict = {"pairs_xi_ge_6": {}, "small_xi": {"xi": float(xi.min())}, "asft_over_sft": {},
                 "pd6_over_truncated": {}}
    for P_D, P_M in PAIRS:
        for t in TRANSFORMS:
            ratio = err(_multiply_name(P_M, t)) / err(_direct_name(P_D, t))
            key = f"PD{P_D}_PM{P_M}_{t}"
            out["pairs_xi_ge_6"][key] = rng(ratio[big])
            out["small_xi"][key] = float(ratio[np.argmin(xi)])
    names = [_direct_name(P_D, "") for P_D, _ in PAIRS] + [_direct_name(P_D_TRUNC, "")]
    names += [_multiply_name(P_M, "") for _, P_M in PAIRS]
    for stem in names:
        ratio = err(stem + "ASFT") / err(stem + "SFT")
        out["asft_over_sft"][stem.rstrip("_")] = {"all": rng(ratio), "xi_ge_4": rng(ratio[xi >= 4.0])}
    trunc = err(TRUNC_NAME)
    for name in (_direct_name(P_D_TRUNC, "SFT"), _direct_name(P_D_TRUNC, "ASFT"),
                 SHIFT_CORRECTED_NAME, SHIFT_NAME):
        ratio = err(name) / trunc
        out["pd6_over_truncated"][name] = {"all": rng(ratio), "xi_ge_4": rng(ratio[xi >= 4.0])}
    out["sftwave_over_paper"] = {
        name: rng(np.asarray(curve["error_sftwave"]) / np.asarray(curve["error"]))
        for name, curve in c.items() if "error_sftwave" in curve}
    ps = [int(p) for p in c[_direct_name(P_D_TRUNC, "SFT")]["P_S"]]
    out["optimum_P_S"] = {"P_S": ps, "non_decreasing": bool(np.all(np.diff(ps) >= 0)),
                          "first": ps[0], "last": ps[-1]}
    return out


# --------------------------------------------------------------------------- figures


#: File names of the three figures.
FIGURES = {
    "mse1": "morlet_error_mse1.png",
    "pd6": "morlet_error_pd6_vs_truncated.png",
    "optimum_ps": "morlet_error_optimum_ps.png",
}

_ASFT_NOTE = "ASFT: sftwave's (damped basis fitted directly, alpha K = {:g}, no shift n0)"


def write_figures_reporting(write, results: dict, outdir: str | os.PathLike) -> int:
    """``write(results, outdir)``, printing each file written; 1 (and why) if it could not be.

    Shared by the paper experiments' command lines: a missing matplotlib or an
    unwritable folder is reported on stderr, not raised, so that the JSON and
    the printed tables still come out.
    """
    outdir = Path(outdir)
    try:
        outdir.mkdir(parents=True, exist_ok=True)
        for path in write(results, outdir):
            print(f"wrote {path}")
    except ImportError:
        print("error: matplotlib is needed for the figures (pip install matplotlib)", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"error: cannot write the figures in {outdir}: {exc}", file=sys.stderr)
        return 1
    return 0


def write_figures(results: dict, outdir: str | os.PathLike = ".") -> list[Path]:
    """Draw the three figures as PNG files in ``outdir``; returns their paths.

    Needs matplotlib (drawn with the Agg canvas, without pyplot).
    """
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    outdir = Path(outdir)
    xi = np.asarray(results["xi"])
    c = results["curves"]
    sigma = results["sigma"]
    asft_note = _ASFT_NOTE.format(TRANSFORMS["ASFT"])
    paths = []

    # Fig. MSE1 (a)-(d)
    fig = Figure(figsize=(11, 8.5), layout="constrained")
    axes = fig.subplots(2, 2, sharex=True)
    for ax, (P_D, P_M), letter in zip(axes.flat, PAIRS, "abcd"):
        for t, ls in (("SFT", "-"), ("ASFT", "--")):
            ax.semilogy(xi, c[_direct_name(P_D, t)]["error"], ls, color="C0", marker="o", ms=3,
                        label=f"direct, $P_D$ = {P_D}, {t}")
            ax.semilogy(xi, c[_multiply_name(P_M, t)]["error"], ls, color="C3", marker="s", ms=3,
                        label=f"multiplication, $P_M$ = {P_M}, {t}")
        ax.set_title(f"({letter}) $P_D$ = {P_D} and $P_M$ = {P_M}")
        if letter in "cd":
            ax.set_xlabel(r"$\xi$")
        ax.set_ylabel("relative RMSE")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(f"Relative RMSE of the approximated Morlet wavelet, $\\sigma$ = {sigma:g} "
                 f"(paper Fig. MSE1)\nplain least squares, K (and $P_S$) optimal; {asft_note}",
                 fontsize=10)
    paths.append(outdir / FIGURES["mse1"])
    save_png_atomic(fig, paths[-1])

    # P_D = 6 against the truncated wavelet
    fig = Figure(figsize=(8, 5.5), layout="constrained")
    ax = fig.subplots()
    ax.semilogy(xi, c[_direct_name(P_D_TRUNC, "SFT")]["error"], "-", color="C0", marker="o", ms=3,
                label=f"direct, $P_D$ = {P_D_TRUNC}, SFT")
    ax.semilogy(xi, c[_direct_name(P_D_TRUNC, "ASFT")]["error"], "--", color="C0", marker="o",
                ms=3, label=f"direct, $P_D$ = {P_D_TRUNC}, ASFT (sftwave)")
    ax.semilogy(xi, c[SHIFT_CORRECTED_NAME]["error"], "-.", color="C2",
                label=f"ASFT, paper's shift trick $n_0$ = {N0_SHIFT}, phase corrected")
    ax.semilogy(xi, c[SHIFT_NAME]["error"], ":", color="C7",
                label=f"ASFT, paper's shift trick $n_0$ = {N0_SHIFT}, as written")
    ax.semilogy(xi, c[TRUNC_NAME]["error"], "-", color="k", lw=2,
                label=r"truncated to $[-3\sigma, 3\sigma]$")
    ax.set_xlabel(r"$\xi$")
    ax.set_ylabel("relative RMSE")
    ax.set_title(f"Direct method, $P_D$ = {P_D_TRUNC}, against the truncated wavelet "
                 f"($\\sigma$ = {sigma:g})", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    paths.append(outdir / FIGURES["pd6"])
    save_png_atomic(fig, paths[-1])

    # Fig. MSE2: optimum P_S
    fig = Figure(figsize=(8, 5), layout="constrained")
    ax = fig.subplots()
    sft = c[_direct_name(P_D_TRUNC, "SFT")]
    asft = c[_direct_name(P_D_TRUNC, "ASFT")]
    centred = xi * np.asarray(sft["K"]) / (np.pi * sigma) - (P_D_TRUNC - 1) / 2
    ax.plot(xi, sft["P_S"], "o", color="C0", label=f"optimum $P_S$, SFT, $P_D$ = {P_D_TRUNC}")
    ax.plot(xi, asft["P_S"], "x", color="C1", label="optimum $P_S$, ASFT (sftwave)")
    ax.plot(xi, centred, "-", color="0.6", lw=1,
            label=r"run centred on the carrier: $\xi K/(\pi\sigma) - (P_D-1)/2$ (SFT's K)")
    ax.set_xlabel(r"$\xi$")
    ax.set_ylabel("$P_S$")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(f"Optimum $P_S$ for the direct method, $P_D$ = {P_D_TRUNC}, $\\sigma$ = {sigma:g} "
                 "(paper Fig. MSE2)", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    paths.append(outdir / FIGURES["optimum_ps"])
    save_png_atomic(fig, paths[-1])
    return paths


# --------------------------------------------------------------------------- output


#: xi values of the printed table (those on the grid).
TABLE_XI = (1.0, 2.0, 4.0, 6.0, 10.0, 20.0)


def _format_table(results: dict, xis: tuple[float, ...]) -> str:
    c = results["curves"]
    rows = [i for i, x in enumerate(results["xi"]) if x in xis] or list(range(len(results["xi"])))
    lines = []
    for t in TRANSFORMS:
        cols = [(f"D{P_D}", _direct_name(P_D, t)) for P_D, _ in PAIRS]
        cols += [(f"M{P_M}", _multiply_name(P_M, t)) for _, P_M in PAIRS]
        cols += [(f"D{P_D_TRUNC}", _direct_name(P_D_TRUNC, t))]
        if t == "ASFT":
            cols += [("shift+ph", SHIFT_CORRECTED_NAME), ("shift", SHIFT_NAME)]
        cols += [("trunc3s", TRUNC_NAME)]
        head = f"{t:>5} {'xi':>5} " + " ".join(f"{label:>8}" for label, _ in cols) + f" {'P_S(D6)':>7}"
        lines += [head, "-" * len(head)]
        for i in rows:
            line = f"{'':5} {results['xi'][i]:5.1f} " + " ".join(
                f"{c[name]['error'][i]:8.2e}" for _, name in cols)
            line += f" {c[_direct_name(P_D_TRUNC, t)]['P_S'][i]:7d}"
            lines.append(line)
        lines.append("")
    return "\n".join(lines)


def main(json_path: str | os.PathLike | None = None, outdir: str | os.PathLike = ".",
         quick: bool = False) -> int:
    """Compute the section V-A curves, print a table, write the figures (and JSON).

    Parameters
    ----------
    json_path : path, optional
        Where to write ``{"xi": [...], "sigma": 60, "curves": {name: {...}},
        "claims": {...}, "meta": {...}}`` (see :func:`compute`, :func:`claims`).
        Written atomically.
    outdir : path
        Folder for the three PNG figures (default: the current one).
    quick : bool
        Only ``xi`` in :data:`XI_QUICK` (a few seconds).

    Returns
    -------
    int
        0; 1 if a file cannot be written or matplotlib is missing.
    """
    xis = XI_QUICK if quick else XI_FULL
    start = time.perf_counter()
    results = compute(xis)
    seconds = time.perf_counter() - start
    summary = claims(results)

    print(f"Morlet approximation error (paper section V-A), sigma = {SIGMA:g}: relative RMSE over "
          f"[-5K, 5K], K (and P_S) optimal, plain least-squares fits.")
    print(f"D = direct method (P_D orders), M = multiplication method (orders 0..P_M); "
          f"ASFT = sftwave's (alpha K = {TRANSFORMS['ASFT']:g}, no shift);")
    print(f"shift = the paper's ASFT shift trick, n0 = {N0_SHIFT} (+ph: phase corrected); "
          f"trunc3s = psi truncated to [-3 sigma, 3 sigma].\n")
    print(_format_table(results, TABLE_XI if not quick else tuple(xis)))
    a = summary["pairs_xi_ge_6"]
    print("multiplication / direct for xi >= 6: "
          + ", ".join(f"{k} {v[0]:.2f}..{v[1]:.2f}" for k, v in a.items() if v))
    print(f"multiplication / direct at xi = {summary['small_xi']['xi']:g}: "
          + ", ".join(f"{k} {v:.3g}" for k, v in summary["small_xi"].items() if k != "xi"))
    print("ASFT / SFT (xi >= 4): "
          + ", ".join(f"{k} {v['xi_ge_4'][0]:.2f}..{v['xi_ge_4'][1]:.2f}"
                      for k, v in summary["asft_over_sft"].items() if v["xi_ge_4"]))
    print("P_D = 6 / truncated (xi >= 4): "
          + ", ".join(f"{k} {v['xi_ge_4'][0]:.2f}..{v['xi_ge_4'][1]:.2f}"
                      for k, v in summary["pd6_over_truncated"].items() if v["xi_ge_4"]))
    ps = summary["optimum_P_S"]
    print(f"optimum P_S (P_D = 6, SFT): {ps['P_S']}; never decreasing: {ps['non_decreasing']}")
    print("sftwave's moment-constrained fits / plain least squares (each at its optimum): "
          + ", ".join(f"{k} {v[0]:.2f}..{v[1]:.2f}" for k, v in summary["sftwave_over_paper"].items()))
    print(f"\ncomputed in {seconds:.1f} s")

    status = write_figures_reporting(write_figures, results, outdir)

    if json_path is not None:
        data = dict(results)
        data["claims"] = summary
        data["meta"] = {
            "error": "relative RMSE over n = -5K..5K, approximation zero outside its window",
            "fits": "plain least squares (moments=()); error_sftwave: sftwave's moment-constrained "
                    "fits (direct: zero mean; multiplication: sftwave's Gaussian), own optimal layout",
            "asft": _ASFT_NOTE.format(TRANSFORMS["ASFT"]),
            "shift_trick_n0": N0_SHIFT,
            "truncation_radius_sigmas": TRUNC_SIGMAS,
            "quick": bool(quick),
            "seconds": round(seconds, 2),
        }
        if write_json_reporting(json_path, data):
            return 1
    return status
