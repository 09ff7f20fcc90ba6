r"""Morlet wavelet design: the target, the direct and multiplication plans, and their layout.

The Morlet wavelet (paper section III) is

.. math::

    \psi_\xi(t) = \frac{C_\xi}{\pi^{1/4}} e^{-t^2/2}\,(e^{i\xi t} - \kappa_\xi),\qquad
    C_\xi = (1 + e^{-\xi^2} - 2e^{-3\xi^2/4})^{-1/2},\quad \kappa_\xi = e^{-\xi^2/2},

and its sampled dilation by ``sigma`` samples is

.. math::

    \psi_{\sigma,\xi}[n] = \frac{C_\xi}{\pi^{1/4}\sqrt\sigma}\, e^{-n^2/(2\sigma^2)}
    \,(e^{i\xi n/\sigma} - \kappa_\xi),

of unit energy (exactly in the continuous limit; to within ``exp(-pi^2 sigma^2)``
sampled).  The paper's text has ``pi^{-1/4}`` and ``t`` for ``n``; this is the
corrected form.  The transform is the convolution
``y[n] = sum_k psi[k] x[n - k]``; its centre frequency is ``xi / sigma``
radians per sample, so frequency ``f`` at sampling rate ``fs`` has
``sigma = xi * fs / (2 pi f)`` samples.

Two ways to put it on the bank (see ``sftwave.plans.fit`` for plans):

*direct* (III-A)
    fit ``psi`` itself by least squares on the components of orders
    ``P_S .. P_S + P_D - 1`` (frequencies ``pi p / K``), real and imaginary
    parts of every component (the paper's ``m_p cos`` and ``l_p sin``, and with
    a decay all four combinations);
*multiply* (III-B)
    fit the Gaussian envelope with ``P_M + 1`` components and multiply by
    ``exp(i xi k / sigma) - kappa`` analytically: each Gaussian component of
    frequency ``omega_p`` becomes two components of frequencies
    ``-(theta - omega_p)`` and ``-(theta + omega_p)`` (``theta = xi / sigma``; the
    bank's frequencies carry the sign of ``exp(-i omega j)``), plus the
    ``kappa`` term on the Gaussian's own components.  The frequencies are not
    multiples of ``pi / K``, which the bank takes in its stride.

A plan's error is the larger of the kernel's relative RMSE (the error of the
transform of white noise) and its relative RMSE for a random walk
(:func:`sftwave.plans.fit.walk_error`): the latter weights the kernel's error at
low frequencies by ``1/omega^2``, where real signals (EEG, ECG, climate series)
hold most of their energy and from where it would leak into the weak rows of
a scalogram.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

import numpy as np

from . import tables
from .blas import single_threaded_blas
from .cache import on_disk
from .fit import ASFT_DECAY, FIRPlan, SFTPlan, fit_plan, kernel_error, truncated_kernel
from .gaussian import gaussian_fit, gaussian_norm
from .tables import asymptotic_ratio

__all__ = [
    "morlet_constants",
    "morlet_target",
    "direct_plan",
    "multiply_plan",
    "morlet_plan",
    "predicted_components",
    "fir_morlet",
    "modulated_plan",
    "fir_min_taps",
    "resolution",
    "P_D_MAX",
    "P_M_MAX",
]

#: Largest numbers of components tried for each method: those of the shipped
#: layout table (``sftwave.plans.tables``).  More direct orders would only
#: serve targets below about 1e-7, where each would cost a layout search of
#: seconds (the table stops at 20), and the multiplication method or the FIR
#: serve them: a target below what these reach goes to the FIR at once.
P_D_MAX = tables.DIRECT_MAX
P_M_MAX = 12

#: sigma at which the layout (K/sigma and P_S) is optimised for large sigma.
_SIGMA_REF = 96.0


def morlet_constants(xi: float) -> tuple[float, float]:
    """``(C_xi, kappa_xi)``: the normalisation and the admissibility correction.

    Examples
    --------
    >>> C, kappa = morlet_constants(6.0)
    >>> round(C, 9), f"{kappa:.3e}"
    (1.0, '1.523e-08')
    """
    xi = float(xi)
    kappa = math.exp(-0.5 * xi * xi)
    C = (1.0 + math.exp(-xi * xi) - 2.0 * math.exp(-0.75 * xi * xi)) ** -0.5
    return C, kappa


def morlet_target(sigma: float, xi: float) -> Callable[[np.ndarray], np.ndarray]:
    r"""The sampled dilated Morlet wavelet ``psi_{sigma, xi}[k]`` (a convolution kernel).

    Examples
    --------
    >>> import numpy as np
    >>> psi = morlet_target(40.0, 6.0)
    >>> k = np.arange(-400, 401)
    >>> round(float(np.sum(np.abs(psi(k)) ** 2)), 10)   # unit energy
    1.0
    >>> abs(complex(np.sum(psi(k)))) < 1e-12            # zero mean
    True
    """
    C, kappa = morlet_constants(xi)
    amp = C / (math.pi**0.25 * math.sqrt(sigma))
    theta = xi / sigma

    def target(k: np.ndarray) -> np.ndarray:
        k = np.asarray(k, dtype=np.float64)
        return amp * np.exp(-0.5 * (k / sigma) ** 2) * (np.exp(1j * theta * k) - kappa)

    return target


def resolution(sigma: float, xi: float) -> float:
    """Shortest length scale of the wavelet: its envelope, or its carrier's period over pi."""
    return min(sigma, math.pi * sigma / max(xi, 1e-12))


def _check_layout(sigma: float, xi: float, K: int, top_order: int) -> None:
    if K < 1:
        raise ValueError(f"K must be at least 1; got {K}")
    if top_order > K:
        raise ValueError(f"orders up to {top_order} exceed K={K} (frequencies above Nyquist)")


def direct_plan(sigma: float, xi: float, P_D: int, K: int, P_S: int, decay: float = 0.0,
                moments: tuple[int, ...] = (0,), walk: bool = True, *,
                reference: bool = False) -> SFTPlan:
    """The direct method: ``psi`` fitted on orders ``P_S .. P_S + P_D - 1`` over ``[-K, K]``.

    ``decay`` is ``alpha * K`` (0 for the SFT).  The moment constraint makes
    the kernel's sum that of ``psi`` (zero mean to rounding), so an offset in
    the signal does not leak into the transform.  ``plan.error`` is the larger
    of the white-noise and random-walk errors, or with ``walk=False`` the plain
    relative RMSE (the paper's measure).  ``reference``: the fit's reference
    numerics (:func:`~sftwave.plans.fit.fit_plan`), as the layout searches run it.

    Examples
    --------
    >>> plan = direct_plan(60.0, 6.0, 9, 228, 3)
    >>> round(direct_plan(60.0, 6.0, 9, 228, 3, walk=False).error, 5)   # white noise
    0.00071
    >>> round(plan.error, 5)                                            # random walk
    0.00231
    """
    if P_S < 0:
        raise ValueError(f"P_S must be non-negative; got {P_S}")
    _check_layout(sigma, xi, K, P_S + P_D - 1)
    p = np.arange(P_S, P_S + P_D)
    omegas = math.pi / K * p
    alpha = decay / K
    info = dict(kind="morlet", method="direct", sigma=sigma, xi=xi, P=P_D, P_S=P_S, K=K, decay=decay)
    return fit_plan([morlet_target(sigma, xi)], omegas, alpha, 2 * K + 1, K, moments=moments,
                    scale=sigma, resolution=resolution(sigma, xi), walk=walk, info=info,
                    reference=reference)


def multiply_plan(sigma: float, xi: float, P_M: int, K: int, decay: float = 0.0,
                  kappa_floor: float = 0.0, walk: bool = True, *,
                  reference: bool = False) -> SFTPlan:
    """The multiplication method: a Gaussian fit times ``exp(i xi k/sigma) - kappa``.

    The Gaussian is fitted with orders ``0 .. P_M`` over ``[-K, K]`` (with
    ``decay = alpha K``), written as ``Re sum_p C_p w_p^(k+K)``, and multiplied
    analytically.  The ``kappa`` components are left out when ``kappa`` is below
    ``kappa_floor`` (their contribution to the kernel is then below it).  The
    Gaussian fit is constrained so that the wavelet's sum is ``psi``'s; it is
    kept in ``plan.info["envelope"]``.  ``plan.error`` as in
    :func:`direct_plan` (``walk``, ``reference``).

    Examples
    --------
    >>> plan = multiply_plan(60.0, 6.0, 4, 230, kappa_floor=1e-6)
    >>> plan.omegas.size, plan.error < 1e-3      # 2 P_M + 1 carrier components
    (9, True)
    >>> from sftwave.plans.fit import plan_kernel
    >>> bool(abs(plan_kernel(plan)[1].sum()) < 1e-12)   # zero mean: offsets do not leak
    True
    """
    _check_layout(sigma, xi, K, P_M)
    Cxi, kappa = morlet_constants(xi)
    theta = xi / sigma
    # The wavelet built from the Gaussian fit h_G sums to sum_k h_G[k] (e^{i theta k} - kappa)
    # (times amp), or without the kappa components to sum_k h_G[k] e^{i theta k}.  Constrain
    # it to psi's sum (zero to rounding), so an offset in the signal does not leak into
    # the transform: with the kappa components, against e^{i theta k} - kappa to the exact
    # Gaussian's value; without them, against e^{i theta k} to zero.
    with_kappa = _keeps_kappa(xi, kappa_floor)
    # each weight: (coeffs, exponents[, value]), see fit_plan
    weights: list[tuple[tuple[complex, ...], ...] | tuple[tuple[complex, ...], tuple[complex, ...], float]]
    if with_kappa:
        weights = [((1.0, -kappa), (1j * theta, 0.0))]
        if decay > 0:  # the damped fit is not even: its sine sum must be held too
            weights.append(((-1j,), (1j * theta,)))
    else:
        weights = [((1.0,), (1j * theta,), 0.0)]
        if decay > 0:
            weights.append(((-1j,), (1j * theta,), 0.0))
    # (the Gaussian filters' own moment constraints do nothing for the wavelet)
    g = gaussian_fit(sigma, 0, P_M, K, decay, weights=tuple(weights),
                      resolution=resolution(sigma, xi), moments=(), reference=reference)
    # exp(-k^2 / 2 sigma^2) = Z * G[k], with G the unit-sum sampled Gaussian that g fits
    amp = Cxi / (math.pi**0.25 * math.sqrt(sigma)) * gaussian_norm(sigma)
    A, B = g.coef[0, 0], g.coef[0, 1]
    freqs = _carrier_terms(g, theta, amp)
    omegas = list(freqs)
    coef_re = [freqs[f] for f in omegas]
    coef_im = [1j * freqs[f] for f in omegas]
    if with_kappa:
        for om, a, b in zip(g.omegas, A, B):
            omegas.append(float(om))
            coef_re.append(-amp * kappa * a + 0j)
            coef_im.append(-amp * kappa * b + 0j)
    coef = np.array([[coef_re, coef_im]], dtype=np.complex128)
    info = dict(kind="morlet", method="multiply", sigma=sigma, xi=xi, P=P_M, K=K, decay=decay,
                envelope=g, with_kappa=with_kappa)
    plan = SFTPlan(np.array(omegas, dtype=np.float64), g.alpha, g.length, g.lag, coef, 0.0, info)
    err = kernel_error(plan, morlet_target(sigma, xi), sigma, resolution=resolution(sigma, xi),
                       walk=walk)
    return SFTPlan(plan.omegas, plan.alpha, plan.length, plan.lag, coef, err, info)


def _carrier_terms(g: SFTPlan, theta: float, amp: float) -> dict[float, complex]:
    """The components of ``amp * h_G[k] * exp(i theta k)``, ``h_G`` a real plan's kernel: frequency -> weight."""
    A, B = g.coef[0, 0], g.coef[0, 1]
    Cp = A - 1j * B  # h_G[k] = Re sum_p C_p w_p^(k+K)
    phase = np.exp(-1j * theta * g.lag)
    # C_p w_p^(k+K) e^{i theta k} = C_p e^{-i theta K} (w_p e^{i theta})^(k+K), and likewise conj
    freqs: dict[float, complex] = {}
    for om, c in zip(g.omegas, Cp):
        for f, d in ((om - theta, 0.5 * amp * c * phase), (-(om + theta), 0.5 * amp * np.conj(c) * phase)):
            key = round(f, 15)
            freqs[key] = freqs.get(key, 0.0) + d
    return freqs


def modulated_plan(plan: SFTPlan | FIRPlan, theta: float, amp: float = 1.0) -> SFTPlan | FIRPlan:
    """A real one-output plan's kernel times ``amp * exp(i theta k)``: a complex plan of the same window.

    Each component of frequency ``omega_p`` becomes two, of frequencies
    ``omega_p - theta`` and ``-(omega_p + theta)`` (as :func:`multiply_plan`
    does for the Morlet wavelet); a FIR's taps are multiplied.  The carrier has
    unit modulus, so the kernel's relative RMSE is the real plan's:
    ``plan.error`` carries over.

    Examples
    --------
    >>> from sftwave.plans.gaussian import gaussian_plan
    >>> from sftwave.plans.fit import plan_kernel
    >>> g = gaussian_plan(8.0, 0, 1e-5, "sft")
    >>> k, h = plan_kernel(modulated_plan(g, 0.5))
    >>> bool(np.allclose(h, plan_kernel(g)[1] * np.exp(0.5j * k), atol=1e-14))
    True
    """
    if isinstance(plan, FIRPlan):
        r = plan.radius
        carrier = np.exp(1j * theta * np.arange(-r, r + 1, dtype=np.float64))
        return FIRPlan(plan.kernel * (amp * carrier), plan.error)
    if np.iscomplexobj(plan.coef) or plan.coef.shape[0] != 1:
        raise ValueError("modulated_plan takes a real plan of one output")
    freqs = _carrier_terms(plan, theta, amp)
    omegas = list(freqs)
    coef = np.array([[[freqs[f] for f in omegas], [1j * freqs[f] for f in omegas]]], dtype=np.complex128)
    info = dict(plan.info, carrier=theta)
    return SFTPlan(np.array(omegas, dtype=np.float64), plan.alpha, plan.length, plan.lag, coef,
                   plan.error, info)


# --------------------------------------------------------------------------- layout and plans


def _centre_order(xi: float, K: int, sigma: float, P: int) -> float:
    """Lowest order of a run of P orders centred on the carrier xi / sigma."""
    return xi * K / (math.pi * sigma) - (P - 1) / 2.0


def _direct_at(sigma, xi, P_D, ratio, offset, decay, min_K, xi_layout=None):
    """The direct plan at K = ratio * sigma, P_S = the centred run's start + offset (None if P_S < 0).

    ``xi_layout``: the ``xi`` the layout was made for (default ``xi``), whose
    carrier the run is centred on.  A tabulated layout used at a neighbouring
    ``xi`` so keeps its run of orders: centred on the query's own carrier, the
    rounding can move the run by one order where the carrier crosses a half
    order between the two, which at small ``xi`` drops the lowest order that the
    ``kappa`` term needs (at ``xi`` 3.34 with the layout of 3.25 and 9 orders, an
    error a thousand times the layout's).
    """
    K = max(min_K, int(round(ratio * sigma)))
    P_S = int(math.floor(_centre_order(xi if xi_layout is None else xi_layout, K, sigma, P_D) + 0.5)) + offset
    P_S = min(max(P_S, 0), K - P_D + 1)
    if P_S < 0:
        return None
    return direct_plan(sigma, xi, P_D, K, P_S, decay)


def _scan_then_refine(objective, lo: float, hi: float, step: float) -> tuple[float, float]:
    """Minimise a piecewise-constant objective of the ratio: a grid scan, then Brent nearby."""
    grid = np.arange(lo, hi + 0.5 * step, step)
    values = [objective(r) for r in grid]
    i = int(np.argmin(values))
    from scipy.optimize import minimize_scalar  # imported when a design is made, not with sftwave

    res = minimize_scalar(objective, bounds=(max(lo, grid[i] - step), min(hi, grid[i] + step)),
                          method="bounded", options={"xatol": 1e-3})
    if res.fun < values[i]:
        return float(res.x), float(res.fun)
    return float(grid[i]), float(values[i])


@single_threaded_blas
def search_direct_layout(xi: float, P_D: int, decay: float) -> tuple[float, int, float]:
    """(K/sigma, P_S offset from the centred run, error) minimising the error at sigma_ref.

    The error is a step function of the ratio (K is an integer) with several
    local minima, so each offset gets a grid scan before a local refinement.
    """
    s = _SIGMA_REF
    seen: dict = {}

    def objective(ratio, offset):
        K = max(P_D, int(round(ratio * s)))
        P_S = min(max(int(math.floor(_centre_order(xi, K, s, P_D) + 0.5)) + offset, 0), K - P_D + 1)
        key = (K, P_S)
        if key not in seen:
            plan = direct_plan(s, xi, P_D, K, P_S, decay, reference=True) if P_S >= 0 else None
            seen[key] = math.log(plan.error) if plan is not None else 50.0
        return seen[key]

    best = (math.inf, 0.0, 0)
    for offset in (-2, -1, 0, 1, 2):
        ratio, value = _scan_then_refine(lambda r, o=offset: objective(r, o), 2.0, 3.5 + 0.3 * P_D, 0.1)
        if value < best[0] - 1e-12:
            best = (value, ratio, offset)
    return best[1], best[2], math.exp(best[0])


@single_threaded_blas
def search_multiply_ratio(xi: float, P_M: int, decay: float, with_kappa: bool) -> tuple[float, float]:
    """K/sigma minimising the multiplication method's error at sigma_ref, and that error.

    ``with_kappa``: whether the plan keeps the ``kappa`` components (the layout
    depends on ``multiply_plan``'s ``kappa_floor`` only through that).
    """
    s = _SIGMA_REF
    seen: dict = {}
    kappa_floor = 0.0 if with_kappa else math.inf

    def objective(ratio):
        K = max(P_M + 1, int(round(ratio * s)))
        if K not in seen:
            seen[K] = math.log(multiply_plan(s, xi, P_M, K, decay, kappa_floor, reference=True).error)
        return seen[K]

    ratio, value = _scan_then_refine(objective, 2.0, 3.5 + 0.6 * P_M, 0.1)
    return ratio, math.exp(value)


#: The ``xi`` at which the asymptotic direct layouts are searched: a layout's error is
#: the worst of its errors there.  Large enough that ``kappa`` is nothing (below
#: ``exp(-288)``), and small enough at sigma_ref (``xi / sigma_ref`` at most 2/3 rad)
#: that the integer ``K`` places the carrier to within a tenth of an order.
XI_ASYMPTOTIC = (24.0, 40.0, 64.0)


@single_threaded_blas
def search_direct_asymptotic(P_D: int, decay: float) -> tuple[float, float, float]:
    """(K/sigma, carrier's place in the run, error): the direct layout for any large ``xi``.

    For ``xi`` beyond some 8 the wavelet is ``g(k) exp(i xi k / sigma)`` (``kappa``
    is nothing), and fitting it on orders ``P_S .. P_S + P_D - 1`` is fitting the
    Gaussian envelope ``g`` on frequencies ``pi (p - p_c) / K``, with ``p_c`` the
    carrier's order: the error depends on ``K / sigma`` and on where the carrier
    sits between two orders, not on ``xi``.  The layout holds the ratio and that
    place, ``centre = p_c - (P_S + (P_D - 1) / 2)`` in ``[-1/2, 1/2)``; for a
    given ``xi``, :func:`~sftwave.plans.tables.asymptotic_ratio` moves the ratio by at most
    ``pi / (2 xi)`` to put the carrier there.  Searched as
    :func:`search_direct_layout` at sigma_ref, a ratio's place read at
    ``XI_ASYMPTOTIC[1]`` and its error the worst over :data:`XI_ASYMPTOTIC`.
    """
    s = _SIGMA_REF
    seen: dict = {}
    xi_ref = XI_ASYMPTOTIC[1]

    def centre_at(ratio: float) -> float:
        u = xi_ref * ratio / math.pi - 0.5 * (P_D - 1)
        return u - math.floor(u + 0.5)

    def error(xi: float, ratio: float) -> float:
        K = max(P_D, int(round(ratio * s)))
        P_S = min(max(int(math.floor(_centre_order(xi, K, s, P_D) + 0.5)), 0), K - P_D + 1)
        key = (xi, K, P_S)
        if key not in seen:
            seen[key] = math.log(direct_plan(s, xi, P_D, K, P_S, decay, reference=True).error)
        return seen[key]

    def objective(ratio: float) -> float:
        c = centre_at(ratio)
        return max(error(xi, asymptotic_ratio(xi, P_D, ratio, c)) for xi in XI_ASYMPTOTIC)

    ratio, value = _scan_then_refine(objective, 2.0, 3.5 + 0.3 * P_D, 0.01)
    return ratio, centre_at(ratio), math.exp(value)


#: The searches, cached in memory and on disk, for what the shipped table does not hold.
_best_direct_layout = lru_cache(maxsize=512)(on_disk("morlet_direct_layout")(search_direct_layout))
_best_multiply_ratio = lru_cache(maxsize=512)(on_disk("morlet_multiply_ratio")(search_multiply_ratio))


def _keeps_kappa(xi: float, kappa_floor: float) -> bool:
    """Whether the multiplication method keeps the ``kappa`` components (``kappa >= kappa_floor > 0``)."""
    kappa = morlet_constants(xi)[1]
    return kappa >= kappa_floor and kappa > 0.0


def direct_layout(xi: float, P_D: int, decay: float) -> tuple[float, int, float]:
    """The direct method's layout (K/sigma, P_S offset, error at sigma_ref): tabulated or searched.

    From the shipped table (``sftwave.plans.tables``), which has a layout for
    every accepted ``xi`` (its grid's nearest point, its lowest row below it, the
    asymptotic layout above it); searched (:func:`_best_direct_layout`) only for
    what it does not hold: more orders than :data:`P_D_MAX`, another decay, or a
    missing table file.  Either is only a starting point: every plan's error is
    computed for its own ``sigma`` and ``xi``.
    """
    hit = tables.direct_layout(xi, P_D, decay)
    return hit if hit is not None else _best_direct_layout(xi, P_D, decay)


def multiply_ratio(xi: float, P_M: int, decay: float, with_kappa: bool) -> tuple[float, float]:
    """The multiplication method's K/sigma and error at sigma_ref: tabulated or searched (see :func:`direct_layout`)."""
    hit = tables.multiply_ratio(xi, P_M, decay, with_kappa)
    return hit if hit is not None else _best_multiply_ratio(xi, P_M, decay, with_kappa)


#: From sigma_ref / 2 on, a number of components is tried only if its layout's error
#: at sigma_ref is within this factor of the tolerance.
_LARGE_SCALE_SLACK = 1.2


#: Below sigma_ref / 2, a number of components is tried only if its layout's error at
#: sigma_ref is at most this factor of the tolerance: there the sampling makes a
#: plan's error mostly larger than its layout's, and a layout beyond the tolerance
#: rarely met it (figures: docs/performance.md, *Figures behind the code's choices*).
_SMALL_SCALE_SLACK = 1.0

#: At small scales a layout's neighbours (K one more or one fewer) are fitted too, but
#: only where the layout's own plan misses the tolerance by at most this factor (or
#: where no more components will be tried, :func:`_last_tried`): each try is a fit,
#: the neighbours seldom met the tolerance after a larger miss, and the next number
#: of components nearly always meets it at once (docs/performance.md, as above).
_NEIGHBOUR_MISS = 1.25

#: Where the layouts already beat the tolerance this many times at sigma_ref and still
#: no plan at this (small) sigma meets it, more components do not help: the sampling
#: of the scale is what fails (the carrier near Nyquist).  The design stops there
#: (``ValueError``: the selector takes the other method or the FIR) instead of fitting
#: and, beyond the shipped table, searching layouts up to the largest number.
_GIVE_UP = 16.0


def predicted_components(xi: float, tol: float, method: str, transform: str = "sft") -> int:
    """The number of bank components ``morlet_plan(sigma, xi, tol, method, transform)`` is
    expected to have at large ``sigma``, from the layouts' errors at sigma_ref (a large
    number where none reaches ``tol``).  It lets a selector design only the cheaper method.

    Examples
    --------
    >>> predicted_components(6.0, 1e-4, "direct") == morlet_plan(200.0, 6.0, 1e-4).omegas.size
    True
    """
    decay = 0.0 if transform == "sft" else ASFT_DECAY
    if method == "direct":
        for P_D in range(_first_to_try(tol, 1.1e-2, 5, 2.3, 3), P_D_MAX + 1):
            if direct_layout(float(xi), P_D, decay)[2] <= tol:
                return P_D
        return 10**6
    with_kappa = _keeps_kappa(xi, tol / 10.0)
    for P_M in range(_first_to_try(tol, 1.1e-2, 2, 5.0, 1), P_M_MAX + 1):
        if multiply_ratio(float(xi), P_M, decay, with_kappa)[1] <= tol:
            return 2 * P_M + 1 + (P_M + 1 if with_kappa else 0)
    return 10**6


def _last_tried(ref_error: Callable[[int], float], P: int, P_max: int, tol: float,
                slack: float) -> bool:
    """Whether ``P`` components are the last that :func:`morlet_plan` tries (its neighbours
    are then tried whatever the miss): no larger number is within ``slack``, or the next
    one is past the give-up point (:data:`_GIVE_UP`).  ``ref_error(P)``: the layout's error."""
    for Q in range(P + 1, P_max + 1):
        e = ref_error(Q)
        if e <= slack * tol:
            return e < tol / _GIVE_UP
    return True


def _first_to_try(tol: float, e0: float, P0: int, factor: float, lowest: int) -> int:
    """Where the search for the number of components starts: one below a rough model.

    The model (error ``e0`` at ``P0`` components, ``factor`` less per extra one,
    for xi >= 4) only saves time; every plan's error is computed exactly.
    """
    if tol >= e0:
        return lowest
    return max(lowest, P0 + math.ceil(math.log(e0 / tol) / math.log(factor)) - 2)


@lru_cache(maxsize=4096)
@on_disk("morlet_plan")
@single_threaded_blas
def morlet_plan(sigma: float, xi: float, tol: float, method: str = "direct",
                transform: str = "sft") -> SFTPlan:
    """The cheapest plan of ``method`` ('direct' or 'multiply') whose kernel error is <= tol.

    The layout (K/sigma, and P_S for the direct method) of each number of
    components comes from the shipped table (:func:`direct_layout`,
    :func:`multiply_ratio`; optimised at sigma_ref), with its error there;
    numbers of components whose layout's error is within a slack of ``tol``
    are fitted for ``sigma`` in turn, the first plan meeting ``tol`` returned.
    At large scales that is one fit per number of components; at small ones
    (below sigma_ref / 2, where the sampling matters) the window one sample
    wider and narrower is fitted too where the layout's own plan nearly met
    ``tol``.  Raises ``ValueError`` if no plan reaches ``tol``.

    Examples
    --------
    >>> plan = morlet_plan(100.0, 6.0, 1e-4)
    >>> plan.error <= 1e-4, plan.info["method"]
    (True, 'direct')
    """
    decay = 0.0 if transform == "sft" else ASFT_DECAY
    best = None
    # A layout's error at sigma_ref is that of large scales to within some per cent
    # (measured), and there the neighbouring layouts were always worse: one fit per
    # number of components.  At small scales, where the sampling matters, a plan's
    # error is mostly larger than its layout's: no margin, and the neighbouring
    # windows where the layout's own plan nearly meets tol.
    large = sigma >= 0.5 * _SIGMA_REF
    slack = _LARGE_SCALE_SLACK if large else _SMALL_SCALE_SLACK
    if method == "direct":
        for P_D in range(_first_to_try(tol, 1.1e-2, 5, 2.3, 3), P_D_MAX + 1):
            ratio, offset, ref_err = direct_layout(float(xi), P_D, decay)
            if ref_err > slack * tol:
                continue
            if best is not None and ref_err < tol / _GIVE_UP:
                break
            tries = [(ratio, offset)]
            if not large:  # discretisation matters: try the neighbouring windows too
                tries += [(ratio + 1.0 / sigma, offset), (ratio - 1.0 / sigma, offset)]
            first = None
            for r, off in tries:
                plan = _direct_at(sigma, xi, P_D, r, off, decay, P_D, tables.layout_xi(xi))
                if plan is None:
                    continue
                if best is None or plan.error < best.error:
                    best = plan
                if plan.error <= tol:
                    return plan
                first = plan.error if first is None else first
                if first > _NEIGHBOUR_MISS * tol and not _last_tried(
                        lambda P: direct_layout(float(xi), P, decay)[2], P_D, P_D_MAX, tol, slack):
                    break
    else:
        kappa_floor = tol / 10.0
        with_kappa = _keeps_kappa(xi, kappa_floor)
        for P_M in range(_first_to_try(tol, 1.1e-2, 2, 5.0, 1), P_M_MAX + 1):
            ratio, ref_err = multiply_ratio(float(xi), P_M, decay, with_kappa)
            if ref_err > slack * tol:
                continue
            if best is not None and ref_err < tol / _GIVE_UP:
                break
            Ks = [int(round(ratio * sigma))]
            if not large:
                Ks += [Ks[0] - 1, Ks[0] + 1]
            first = None
            for K in Ks:
                if K < P_M + 1:
                    continue
                plan = multiply_plan(sigma, xi, P_M, K, decay, kappa_floor)
                if best is None or plan.error < best.error:
                    best = plan
                if plan.error <= tol:
                    return plan
                first = plan.error if first is None else first
                if first > _NEIGHBOUR_MISS * tol and not _last_tried(
                        lambda P: multiply_ratio(float(xi), P, decay, with_kappa)[1], P_M, P_M_MAX,
                        tol, slack):
                    break
    found = f" (best {best.error:.3g} with {best.info['P']} orders)" if best is not None else ""
    raise ValueError(f"no {method} Morlet plan reaches tol={tol:g} for sigma={sigma:g}, xi={xi:g}{found}")


#: Sigmas of wavelet beyond which its envelope is below exp(-84).
SUPPORT_SIGMAS = 13.0


@lru_cache(maxsize=4096)
@on_disk("fir_morlet")
@single_threaded_blas
def fir_morlet(sigma: float, xi: float, tol: float) -> np.ndarray:
    """The shortest zero-mean truncated wavelet meeting ``tol`` (complex, centred).

    Examples
    --------
    >>> h = fir_morlet(4.0, 6.0, 1e-4)
    >>> h.size % 2, abs(complex(h.sum())) < 1e-12
    (1, True)
    """
    return truncated_kernel(morlet_target(sigma, xi), sigma, tol, (0,), resolution(sigma, xi),
                            walk=True)


@lru_cache(maxsize=4096)
def fir_min_taps(sigma: float, xi: float, tol: float) -> int:
    """A lower bound on the length of any FIR whose error against the wavelet is <= tol.

    A kernel supported on ``|k| <= r`` misses the wavelet's energy outside, so
    its relative RMSE is at least ``sqrt(tail(r) / total)``: ``r`` must reach
    the smallest radius whose tail is below ``tol**2``.  Nine tenths of that
    radius, for safety against the design's own way of summing tails.

    Examples
    --------
    >>> fir_min_taps(4.0, 6.0, 1e-4) <= fir_morlet(4.0, 6.0, 1e-4).size
    True
    """
    R = int(math.ceil(SUPPORT_SIGMAS * sigma)) + 10
    # every sample up to 8192; beyond, a sub-grid of 64 points per sigma (the energy's
    # envelope is smooth on that scale: the Riemann sums are within far less than the
    # nine tenths' margin), so the cost does not grow with sigma
    stride = 1 if R <= 8192 else int(sigma // 64)
    k = np.arange(0, R + 1, stride)
    e = np.abs(morlet_target(sigma, xi)(k)) ** 2
    e[1:] *= stride
    total = e[0] + 2.0 * e[1:].sum()
    outside = 2.0 * np.cumsum(e[::-1])[::-1]  # outside[i] = energy at |k| >= k[i] (i >= 1)
    ok = np.nonzero(outside[1:] <= tol * tol * total)[0]
    r = int(k[ok[0]]) if ok.size else R  # outside[i + 1] <= tol^2 total: radius k[i] suffices
    return 2 * int(0.9 * r) + 1
