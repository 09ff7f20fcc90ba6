r"""Kernel design: target kernels, least-squares fits on damped exponentials, K/P choice.

Everything sftwave computes is a linear combination of the components of one
bank (see :mod:`sftwave.bank`),

.. math::

    S_p[n] = \sum_{j=0}^{L-1} w_p^j\, x[n + \ell - j], \qquad
    w_p = e^{-\alpha - i\omega_p},

so the result is the convolution :math:`y[n] = \sum_k h[k]\,x[n-k]` with the
kernel, for :math:`k = j - \ell \in [-\ell, L-1-\ell]`,

.. math::

    h[k] = \sum_p A_p \operatorname{Re} w_p^{k+\ell} + B_p \operatorname{Im} w_p^{k+\ell},

and zero outside that window.  A :class:`Plan` holds the frequencies
:math:`\omega_p`, the decay :math:`\alpha` (0 for the SFT, positive for the
ASFT), the window length :math:`L`, the lag :math:`\ell` and the coefficients
:math:`A, B`.  This module chooses them.

The coefficients are the least-squares fit of :math:`h` to a target kernel
:math:`T` over the window (the paper's MMSE, eq. (mmse)), under equality
constraints that make the low moments :math:`\sum_k k^q h[k]` equal to those of
the exact kernel, so constants (and for derivatives, ramps and parabolas) are
filtered exactly.  With :math:`\alpha > 0` the fit is made directly against the
damped basis: this is the paper's shift trick (section II-E) in a form that
needs no integer shift :math:`n_0` and no output shift, because both the real
and the imaginary part of every component enter the fit.

The accuracy of a plan is the relative RMSE of its kernel against the exact,
untruncated sampled kernel (the paper's eq. (mmseGEx), summed over the whole
support).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable

import numpy as np
from scipy.optimize import minimize_scalar

from ._plancache import on_disk
from ._threads import single_threaded_blas

__all__ = [
    "Plan",
    "gaussian_target",
    "scipy_gaussian_kernel",
    "scipy_kernel_error",
    "fir_kernel",
    "truncated_kernel",
    "walk_error",
    "fit_plan",
    "plan_kernel",
    "kernel_error",
    "gaussian_plan",
    "ASFT_DECAY",
    "TOL_FLOOR",
]

#: Decay of the ASFT expressed as ``alpha * K`` (the attenuation across half a
#: window).  With it the damped basis spans a factor ``e**2`` over the window.
ASFT_DECAY = 1.0

#: Smallest kernel error the SFT plans are asked for (below it, use the direct FIR).
TOL_FLOOR = 1e-9

#: Largest number of orders P tried for the Gaussian family.
P_MAX = 16

#: Fits use at most this many rows; longer windows are fitted on a uniform
#: sub-grid (the fit is a Riemann sum of a smooth problem, so this changes the
#: coefficients by far less than the fit's own error for sigma in the
#: thousands).  Moments are always computed on the full grid.
_MAX_FIT_ROWS = 16385

#: sigma at which the ratio K/sigma is optimised for large sigma (the optimum is
#: scale-invariant once the kernel is well sampled).
_SIGMA_REF = 48.0


# --------------------------------------------------------------------------- targets


def _gaussian_norm(sigma: float) -> float:
    """Sum of exp(-k^2 / (2 sigma^2)) over all integers k."""
    if sigma >= 50.0:
        # Poisson summation: the correction to sqrt(2 pi) sigma is exp(-2 pi^2 sigma^2)
        return math.sqrt(2.0 * math.pi) * sigma
    R = int(math.ceil(13.0 * sigma)) + 2
    k = np.arange(-R, R + 1, dtype=np.float64)
    return float(np.sum(np.exp(-0.5 * (k / sigma) ** 2)))


def gaussian_target(sigma: float, order: int) -> Callable[[np.ndarray], np.ndarray]:
    r"""The sampled Gaussian (``order=0``) or its first or second derivative.

    ``G[k] = exp(-gamma k^2) / Z`` with ``gamma = 1/(2 sigma^2)``,
    ``G_D = -2 gamma k G`` and ``G_DD = (4 gamma^2 k^2 - 2 gamma) G``, as in
    section II of the paper.  ``Z`` makes the sampled Gaussian sum to one, as
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
    norm = 1.0 / _gaussian_norm(sigma)

    def target(k: np.ndarray) -> np.ndarray:
        k = np.asarray(k, dtype=np.float64)
        g = norm * np.exp(-gamma * k * k)
        if order == 0:
            return g
        if order == 1:
            return -2.0 * gamma * k * g
        return (4.0 * gamma * gamma * k * k - 2.0 * gamma) * g

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
    q = (x[:, None] ** exponent_range).dot(q)
    return q * phi_x


def _reference_support(sigma: float, half_window: int) -> int:
    """Half-width of the grid on which kernel errors are summed."""
    return int(max(half_window, 0) + math.ceil(13.0 * sigma) + 8)


def relative_rms(num: float, den: float) -> float:
    """``sqrt(num / den)``, the relative RMS error from its two sums of squares.

    A target whose samples all underflow to zero (a derivative of a Gaussian
    much narrower than a sample, sigma below about 0.03) has ``den == 0``: a
    kernel that is zero too has no error, any other an infinite one.
    """
    if den <= 0.0:
        return 0.0 if num <= 0.0 else math.inf
    return float(math.sqrt(max(num, 0.0) / den))


@lru_cache(maxsize=512)
def scipy_kernel_error(sigma: float, order: int, radius: int) -> float:
    """Relative RMSE of scipy's truncated kernel against the exact sampled kernel.

    scipy's kernel is the exact one on ``|k| <= radius`` times ``Z / Z_r`` (its
    Gaussian is normalised over the truncated support, ``Z_r``, instead of all
    integers, ``Z``), and zero outside; so the error is made of the tail mass
    ``Z - Z_r`` and the exact kernel's energy inside and outside, each a sum
    of a smooth function (:func:`_smooth_sum`): the cost and memory do not
    grow with ``sigma`` or ``radius``.

    Examples
    --------
    >>> round(scipy_kernel_error(2.0, 0, 8), 8)    # truncate = 4
    3.497e-05
    """
    R = _reference_support(sigma, radius)
    stride = _sum_stride(2 * R + 1, sigma)
    exact = gaussian_target(sigma, order)
    gamma = 0.5 / (sigma * sigma)

    def gauss(k):
        return np.exp(-gamma * k * k)

    def energy(k):
        return exact(k) ** 2

    tail_mass = 2.0 * _smooth_sum(gauss, radius + 1, R, stride)
    z = _gaussian_norm(sigma)
    excess = tail_mass / (z - tail_mass)  # Z / Z_r - 1
    inside = float(energy(np.zeros(1))[0]) + 2.0 * _smooth_sum(energy, 1, radius, stride)
    outside = 2.0 * _smooth_sum(energy, radius + 1, R, stride)
    return relative_rms(excess * excess * inside + outside, inside + outside)


def _truncated_with_moments(target, scale: float, radius: int, orders: tuple[int, ...],
                            resolution: float | None = None) -> np.ndarray:
    """``target`` on |k| <= radius, corrected (least change in L2) to its exact moments."""
    k = np.arange(-radius, radius + 1, dtype=np.float64)
    h = target(k)
    orders = orders[: h.size]  # a kernel of n taps takes at most n constraints
    if not orders:
        return h
    M = np.stack([(k / scale) ** q for q in orders])
    parts = (np.real, np.imag) if np.iscomplexobj(h) else (np.real,)
    out = np.zeros_like(h)
    for part in parts:
        hp = part(h)
        m = _target_moments(lambda kk: part(target(kk)), scale, radius, orders, scale, resolution)
        corrected = hp + M.T @ np.linalg.solve(M @ M.T, m - M @ hp)
        out = out + (corrected if part is np.real else 1j * corrected)
    return out


def _truncated_error(target, scale: float, h: np.ndarray, resolution: float | None = None,
                     walk: bool = False) -> float:
    """Relative RMSE of a centred FIR ``h`` against ``target``: |h - T|^2 inside, |T|^2 outside.

    With ``walk``, the larger of that and the random-walk error (:func:`walk_error`).
    """
    radius = h.size // 2
    R = _reference_support(scale, radius)
    stride = _sum_stride(2 * R + 1, scale if resolution is None else resolution)
    k = np.arange(-radius, radius + 1, dtype=np.float64)
    inside = float(np.sum(np.abs(h - target(k)) ** 2))

    def outside(kk):
        return np.abs(target(kk)) ** 2

    tails = _smooth_sum(outside, -R, -radius - 1, stride) + _smooth_sum(outside, radius + 1, R, stride)
    total = tails + float(np.sum(outside(k)))
    white = relative_rms(inside + tails, total)
    if not walk:
        return white
    return max(white, walk_error(lambda kk: h[(kk + radius).astype(np.int64)], target, scale,
                                 -radius, radius, resolution))


def truncated_kernel(target, scale: float, tol: float, orders: tuple[int, ...],
                     resolution: float | None = None, walk: bool = False) -> np.ndarray:
    """The shortest truncated kernel with exact low moments whose error is at most ``tol``.

    ``target`` on ``|k| <= r``, corrected by the least change (in L2) that makes
    its moments of the given ``orders`` those of the untruncated target; ``r``
    is the smallest radius whose relative RMSE against the exact kernel is at
    most ``tol`` (or, if none up to ``14 scale`` is, that largest one); with
    ``walk`` (zero-mean targets), whose random-walk error is too.
    """
    def err(r):
        h = _truncated_with_moments(target, scale, r, orders, resolution)
        return _truncated_error(target, scale, h, resolution, walk)

    lo, hi = 1, int(math.ceil(14.0 * scale)) + 2
    if err(hi) > tol:
        lo = hi
    while lo < hi:
        mid = (lo + hi) // 2
        if err(mid) <= tol:
            hi = mid
        else:
            lo = mid + 1
    return _truncated_with_moments(target, scale, lo, orders, resolution)


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
    return (0, 2) if order != 1 else (1,)


def fir_error(sigma: float, order: int, radius: int) -> float:
    """The error of :func:`fir_kernel`'s kernel of the given radius (cost independent of sigma beyond it).

    Examples
    --------
    >>> fir_error(2.0, 2, 10) <= 1e-4 < fir_error(2.0, 2, 9)     # fir_kernel(2.0, 2, 1e-4): 21 taps
    True
    """
    target = gaussian_target(sigma, order)
    h = _truncated_with_moments(target, sigma, radius, _fir_orders(order))
    return _truncated_error(target, sigma, h)


# --------------------------------------------------------------------------- plans


@dataclass(frozen=True, eq=False)
class Plan:
    """A frozen description of one bank run and how its components combine.

    Attributes
    ----------
    omegas : ndarray, shape (P',)
        Frequencies of the components, radians per sample.
    alpha : float
        Decay per sample (0 for the SFT).
    length : int
        Window length ``L``.
    lag : int
        Output ``n`` uses ``x[n + lag - j]`` for ``j = 0 .. L-1``; a centred
        window of half-width ``K`` has ``L = 2K + 1`` and ``lag = K``.
    coef : ndarray, shape (n_outputs, 2, P')
        ``coef[c, 0, p]`` multiplies ``Re S_p`` and ``coef[c, 1, p]`` multiplies
        ``Im S_p`` in output ``c``.  Real for real targets, complex for complex
        targets.
    error : float
        Relative RMSE of the plan's kernel against the exact kernel (per output:
        the largest).
    info : dict
        What the design chose (``P``, ``K``, ``sigma``, ``order``, ...).
    """

    omegas: np.ndarray
    alpha: float
    length: int
    lag: int
    coef: np.ndarray
    error: float
    info: dict = field(default_factory=dict)

    @property
    def w(self) -> np.ndarray:
        """The recursion multipliers ``w_p = exp(-alpha - i omega_p)``."""
        return np.exp(-self.alpha - 1j * self.omegas)

    @property
    def pad_before(self) -> int:
        """Samples of extension needed before the first output."""
        return self.length - 1 - self.lag

    @property
    def pad_after(self) -> int:
        """Samples of extension needed after the last output."""
        return self.lag


def _powers(w: np.ndarray, j: np.ndarray) -> np.ndarray:
    """``w[p] ** j[i]`` as an array (len(j), len(w)), accurate for large j."""
    logw = np.log(w.astype(np.complex128))
    return np.exp(np.multiply.outer(j.astype(np.float64), logw))


def _basis(w: np.ndarray, j: np.ndarray, parts: np.ndarray, comp: np.ndarray) -> np.ndarray:
    """Columns ``Re w_p^j`` (part 0) or ``Im w_p^j`` (part 1) for the listed (part, p)."""
    pw = _powers(w, j)
    cols = np.where(parts[None, :] == 0, pw.real[:, comp], pw.imag[:, comp])
    return cols


def _moment_rows(w, length, lag, parts, comp, orders, scale):
    """Exact moments ``sum_j ((j - lag)/scale)^q * basis[j]`` over the full window.

    Summed by blocks of B samples: with ``j = j0 + t``,
    ``sum_t (u0 + t/scale)^q w^(j0+t) = w^j0 sum_r binom(q, r) u0^(q-r) T_r`` where
    ``T_r = sum_t (t/scale)^r w^t`` is one table for all blocks, so the cost is
    O(B + length/B) rather than O(length).
    """
    B = int(min(length, 1024))
    nb, rem = divmod(length, B)
    qmax = max(orders)
    t = np.arange(B, dtype=np.float64)
    pw = _powers(w, t)
    T = np.stack([((t / scale) ** r) @ pw for r in range(qmax + 1)])  # (qmax+1, P)
    j0 = B * np.arange(nb, dtype=np.float64)
    anchors = _powers(w, j0)  # (nb, P)
    u0 = (j0 - lag) / scale
    full = np.zeros((len(orders), w.size), dtype=np.complex128)
    for i, q in enumerate(orders):
        for r in range(q + 1):
            full[i] += math.comb(q, r) * ((u0 ** (q - r)) @ anchors) * T[r]
    if rem:
        j = nb * B + np.arange(rem, dtype=np.float64)
        pr = _powers(w, j)
        ks = (j - lag) / scale
        for i, q in enumerate(orders):
            full[i] += (ks**q) @ pr
    return np.where(parts[None, :] == 0, full.real[:, comp], full.imag[:, comp])


#: Error estimates and target moments are summed over at most about this many
#: points; beyond it they use a uniform sub-grid.  Targets are smooth, so a
#: sub-grid with at least eight points per ``resolution`` (the target's shortest
#: length scale: sigma for a Gaussian, the carrier's period over pi for a
#: wavelet) sums them to full precision; the kernel's error is then a Riemann
#: sum, accurate to a small fraction of itself.
_MAX_SUM_POINTS = 1 << 15


def _sum_stride(npoints: int, resolution: float) -> int:
    return int(max(1, min(-(-npoints // _MAX_SUM_POINTS), resolution // 8)))


def _geometric_sums(z: np.ndarray, L: int) -> np.ndarray:
    """``sum_{j<L} z^j`` for each complex ``z`` (``L`` where ``z == 1``)."""
    z = np.asarray(z, dtype=np.complex128)
    out = np.full(z.shape, float(L), dtype=np.complex128)
    ne = np.abs(z - 1.0) > 0
    out[ne] = -np.expm1(L * np.log(z[ne])) / -np.expm1(np.log(z[ne]))
    return out


def _exponential_rows(w, length, lag, parts, comp, coeffs, exponents):
    """Rows ``sum_j f(j - lag) basis[j]`` for ``f(k) = Re sum_r c_r exp(e_r k)``, in closed form."""
    # f = Re sum_r c_r e^{e_r k} = sum_r (c_r e^{e_r k} + conj(c_r) e^{conj(e_r) k}) / 2 is real,
    # so sum_j f (Re w^j, Im w^j) = (Re, Im) of sum_j f w^j: geometric sums of e^{e} w
    s = np.zeros(w.size, dtype=np.complex128)
    for c, e in zip(coeffs, exponents):
        for cc, ee in ((c, e), (np.conj(c), np.conj(e))):
            s += 0.5 * cc * np.exp(-ee * lag) * _geometric_sums(np.exp(ee) * w, length)
    return np.where(parts[None, :] == 0, s.real[None, comp], s.imag[None, comp])


def _target_weighted_sum(target, sigma_like, half, coeffs, exponents, resolution=None):
    """``sum_k f(k) T[k]`` over the target's whole support (strided where huge)."""
    R = _reference_support(sigma_like, half)
    stride = _sum_stride(2 * R + 1, sigma_like if resolution is None else resolution)
    k = np.arange(-R, R + 1, stride, dtype=np.float64)
    f = np.zeros(k.shape)
    for c, e in zip(coeffs, exponents):
        f += np.real(c * np.exp(e * k))
    return float(stride * np.sum(f * target(k)))


def _target_moments(target, sigma_like, half, orders, scale, resolution=None):
    """Moments of the exact target over its whole support (strided where huge)."""
    R = _reference_support(sigma_like, half)
    stride = _sum_stride(2 * R + 1, sigma_like if resolution is None else resolution)
    k = np.arange(-R, R + 1, stride, dtype=np.float64)
    t = target(k)
    ks = k / scale
    return np.array([stride * np.sum((ks**q) * t) for q in orders])


def _constrained_lstsq(A, b, M, m):
    """min ||A c - b|| subject to M c = m (null-space method); columns pre-scaled.

    The constraints are taken in order, at most one fewer than the columns.
    """
    norms = np.sqrt(np.sum(A * A, axis=0))
    # a column negligible against the others is numerical noise: no coefficient
    negligible = norms <= 1e-10 * norms.max()
    norms[negligible] = 1.0
    A = A / norms
    A[:, negligible] = 0.0
    if M is None or M.shape[0] == 0:
        c = np.linalg.lstsq(A, b, rcond=None)[0]
        return c / norms
    keep = max(0, int(np.count_nonzero(~negligible)) - 1)
    if M.shape[0] > keep:
        M, m = M[:keep], m[:keep]
    if M.shape[0] == 0:
        c = np.linalg.lstsq(A, b, rcond=None)[0]
        return c / norms
    M = M / norms
    M[:, negligible] = 0.0
    Q, R = np.linalg.qr(M.T, mode="complete")
    r = M.shape[0]
    R1 = R[:r, :r]
    c_part = Q[:, :r] @ np.linalg.solve(R1.T, m)
    Z = Q[:, r:]
    z = np.linalg.lstsq(A @ Z, b - A @ c_part, rcond=None)[0]
    c = c_part + Z @ z
    return c / norms


def fit_plan(
    targets: list[Callable[[np.ndarray], np.ndarray]],
    omegas: np.ndarray,
    alpha: float,
    length: int,
    lag: int,
    *,
    use_re: np.ndarray | None = None,
    use_im: np.ndarray | None = None,
    moments: tuple[int, ...] = (0,),
    scale: float = 1.0,
    resolution: float | None = None,
    walk: bool = False,
    weights: tuple = (),
    info: dict | None = None,
) -> Plan:
    """Least-squares fit of one or more target kernels on the damped basis.

    Parameters
    ----------
    targets : list of callables
        Each maps an array of integer lags ``k`` to the target kernel ``T[k]``
        (real or complex); one output per target.
    omegas, alpha, length, lag
        The bank (see :class:`Plan`).
    use_re, use_im : bool arrays, shape (P',), optional
        Which ``Re S_p`` / ``Im S_p`` enter the fit (default: all, except the
        imaginary part at frequencies 0 and pi, which vanishes).
    moments : tuple of int
        Orders ``q`` whose moments ``sum_k k^q h[k]`` are constrained to those of
        the exact target (in units of ``scale``).
    scale : float
        Length unit for the moments and the error support (sigma for Gaussians).
    resolution : float, optional
        The target's shortest length scale (default ``scale``), which bounds
        the sub-grid of the error sums for long windows.
    walk : bool, optional
        For zero-mean targets: the plan's error is the larger of the white-noise
        and the random-walk error (:func:`kernel_error`).
    weights : tuple of (coeffs, exponents[, value]), optional
        Further constraints ``sum_k f(k) h[k] = sum_k f(k) T[k]`` (over the whole
        support), or ``= value`` where one is given, for real weights
        ``f(k) = Re sum_r coeffs[r] exp(exponents[r] k)``, e.g.
        ``cos(theta k) - kappa``; their rows are geometric sums, exact.

    Returns
    -------
    Plan
    """
    omegas = np.asarray(omegas, dtype=np.float64)
    P = omegas.size
    w = np.exp(-alpha - 1j * omegas)
    if use_re is None:
        use_re = np.ones(P, dtype=bool)
    if use_im is None:
        use_im = np.ones(P, dtype=bool)
    # Im w^j vanishes identically at omega = 0 and pi (mod 2 pi); its computed
    # values are rounding noise, which a fit would chase with huge coefficients
    r = np.mod(omegas, np.pi)
    use_im = use_im & ~np.isclose(np.minimum(r, np.pi - r), 0.0, atol=1e-12)
    comp = np.concatenate([np.nonzero(use_re)[0], np.nonzero(use_im)[0]])
    parts = np.concatenate([np.zeros(int(use_re.sum()), int), np.ones(int(use_im.sum()), int)])

    stride = max(1, -(-length // _MAX_FIT_ROWS))
    j_fit = np.arange(0, length, stride, dtype=np.float64)
    if j_fit[-1] != length - 1:
        j_fit = np.append(j_fit, float(length - 1))
    A = _basis(w, j_fit, parts, comp)
    k_fit = j_fit - lag
    # constraint rows, most important first: the weights, then the moments (a
    # small basis keeps only as many as leave the fit one degree of freedom)
    rows = []
    for entry in weights:
        rows.append(_exponential_rows(w, length, lag, parts, comp, entry[0], entry[1]))
    if moments:
        rows.append(_moment_rows(w, length, lag, parts, comp, moments, scale))
    M = np.vstack(rows) if rows else None

    half = max(lag, length - 1 - lag)
    coefs = []
    errors = []
    for target in targets:
        t = target(k_fit)
        is_complex = np.iscomplexobj(t)
        sols = []
        for part_fn in ((np.real, np.imag) if is_complex else (np.real,)):
            values = []
            for entry in weights:
                if len(entry) > 2:  # a prescribed value (real targets only)
                    values.append([float(entry[2])])
                else:
                    values.append([_target_weighted_sum(lambda k: part_fn(target(k)), scale, half,
                                                        entry[0], entry[1], resolution)])
            if moments:
                values.append(_target_moments(lambda k: part_fn(target(k)), scale, half, moments,
                                              scale, resolution))
            mvec = np.concatenate(values) if values else None
            sols.append(_constrained_lstsq(A, part_fn(t), M, mvec))
        sol = sols[0] + 1j * sols[1] if is_complex else sols[0]
        c = np.zeros((2, P), dtype=sol.dtype)
        c[parts, comp] = sol
        coefs.append(c)
    coef = np.stack(coefs)
    plan = Plan(omegas, float(alpha), int(length), int(lag), coef, 0.0, dict(info or {}))
    for i, target in enumerate(targets):
        errors.append(kernel_error(plan, target, scale, output=i, resolution=resolution, walk=walk))
    return Plan(omegas, float(alpha), int(length), int(lag), coef, max(errors), dict(info or {}))


def plan_kernel(plan: Plan, output: int = 0, stride: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The plan's convolution kernel: lags ``k`` and values ``h[k]`` on its window.

    With ``stride > 1``, only every ``stride``-th lag from the window's start.
    """
    j = np.arange(0, plan.length, stride, dtype=np.float64)
    pw = _powers(plan.w, j)
    c = plan.coef[output]
    h = pw.real @ c[0] + pw.imag @ c[1]
    return j - plan.lag, h


def _smooth_sum(f, a: int, b: int, stride: int) -> float:
    """``sum_{k=a}^{b} f(k)`` for a smooth ``f``, from every ``stride``-th point.

    The trapezoid rule with its end correction: for a grid ``a, a+s, ..., e``,
    ``sum_{k=a}^{e} f(k) = s sum_j f(a + j s) - (s - 1)/2 (f(a) + f(e)) + O(s^2 f')``;
    the last ``b - e < s`` points are added exactly.  ``stride = 1`` is the plain sum.
    """
    if b < a:
        return 0.0
    m = (b - a) // stride
    grid = a + stride * np.arange(m + 1, dtype=np.float64)
    v = f(grid)
    total = stride * np.sum(v) - 0.5 * (stride - 1) * (v[0] + v[-1])
    e = a + m * stride
    if e < b:
        total += np.sum(f(np.arange(e + 1, b + 1, dtype=np.float64)))
    return float(total)


#: The random-walk error is summed over at most about this many points.
_MAX_WALK_POINTS = 1 << 17


def walk_error(kernel, target, scale: float, lo: int, hi: int,
               resolution: float | None = None) -> float:
    """Relative RMSE, for a random-walk (1/f^2) input, of a kernel against a zero-mean target.

    A random walk ``x = cumsum(e)`` filtered by ``h`` is ``cumsum(h) * e``, so
    the output's relative error is that of the kernels' running sums:
    ``||cumsum(h - T)|| / ||cumsum(T)||`` over the whole support.  This weights
    the kernel's error at low frequencies by ``1/omega^2``: it measures the
    leakage of strong low frequencies into a band-pass kernel's output, which
    the plain (white-noise) RMSE misses.  ``kernel(k)`` gives the kernel on the
    window ``lo .. hi`` (zero outside).  Beyond about 2**17 points the sums use
    a sub-grid of at least eight points per ``resolution``.
    """
    R = _reference_support(scale, max(-lo, hi))
    n = 2 * R + 1
    stride = int(max(1, min(-(-n // _MAX_WALK_POINTS), (scale if resolution is None else resolution) // 8)))
    k = np.arange(-R, R + 1, stride, dtype=np.float64)
    t = target(k)
    d = -t.astype(np.complex128)
    inside = (k >= lo) & (k <= hi)
    d[inside] += kernel(k[inside])
    # running sums by the trapezoid rule on the sub-grid (exact for stride 1)
    if stride == 1:
        cd, ct = np.cumsum(d), np.cumsum(t)
    else:
        cd = stride * (np.cumsum(d) - 0.5 * d)
        ct = stride * (np.cumsum(t) - 0.5 * t)
    return float(np.sqrt(np.sum(np.abs(cd) ** 2) / np.sum(np.abs(ct) ** 2)))


def kernel_error(plan: Plan, target, scale: float, output: int = 0,
                 resolution: float | None = None, walk: bool = False) -> float:
    """Relative RMSE of the plan's kernel against ``target`` over the whole support.

    ``scale`` (sigma) sets the support; ``resolution`` (default ``scale``) is
    the target's shortest length scale.  Exact sums up to about 2**15 points;
    beyond that, each smooth piece (the window, and the tails outside it) is
    summed from a sub-grid of at least eight points per ``resolution`` with
    the trapezoid end correction (see ``_smooth_sum``).  With ``walk`` (for
    zero-mean targets), the larger of that and :func:`walk_error`.
    """
    lo, hi = -plan.lag, plan.length - 1 - plan.lag
    R = _reference_support(scale, max(-lo, hi))
    stride = _sum_stride(2 * R + 1, scale if resolution is None else resolution)
    c = plan.coef[output]
    logw = np.log(plan.w.astype(np.complex128))

    def inside(k):
        pw = np.exp(np.multiply.outer(k + plan.lag, logw))
        h = pw.real @ c[0] + pw.imag @ c[1]
        return np.abs(h - target(k)) ** 2

    def outside(k):
        return np.abs(target(k)) ** 2

    num = (_smooth_sum(outside, -R, lo - 1, stride) + _smooth_sum(inside, lo, hi, stride)
           + _smooth_sum(outside, hi + 1, R, stride))
    den = (_smooth_sum(outside, -R, lo - 1, stride) + _smooth_sum(outside, lo, hi, stride)
           + _smooth_sum(outside, hi + 1, R, stride))
    white = relative_rms(num, den)
    if not walk:
        return white

    def kernel(k):
        pw = np.exp(np.multiply.outer(k + plan.lag, logw))
        return pw.real @ c[0] + pw.imag @ c[1]

    return max(white, walk_error(kernel, target, scale, lo, hi, resolution))


# --------------------------------------------------------------------------- Gaussian family


def _gaussian_moments(order: int) -> tuple[int, ...]:
    """Moment constraints for each order: polynomials up to degree 2 pass exactly."""
    return (0, 1, 2)


def _gaussian_fit(sigma: float, order: int, P: int, K: int, decay: float,
                  weights: tuple = (), resolution: float | None = None,
                  moments: tuple[int, ...] | None = None) -> Plan:
    """The Gaussian (or derivative) fit with P orders on [-K, K]; see :func:`fit_plan`.

    ``moments`` overrides the default moment constraints (those that make
    polynomials up to degree 2 pass exactly).
    """
    beta = math.pi / K
    alpha = decay / K
    if alpha == 0.0 and order == 1:
        p = np.arange(1, P + 1)
    else:
        p = np.arange(0, P + 1)
    omegas = beta * p
    if alpha == 0.0:
        use_re = np.full(p.size, order != 1)
        use_im = np.full(p.size, order == 1)
        # symmetric (or antisymmetric) kernels: odd moments vanish by symmetry
        default = (0, 2) if order != 1 else (1,)
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
    )


@lru_cache(maxsize=256)
@on_disk("gaussian_ratio")
@single_threaded_blas
def _best_ratio(P: int, order: int, decay: float) -> tuple[float, float]:
    """Ratio K/sigma minimising the kernel error at sigma = _SIGMA_REF, and that error."""
    s = _SIGMA_REF

    def objective(ratio: float) -> float:
        K = max(P + 1, int(round(ratio * s)))
        return math.log(_gaussian_fit(s, order, P, K, decay).error)

    res = minimize_scalar(objective, bounds=(1.5, 4.0 + 0.5 * P), method="bounded",
                          options={"xatol": 2e-3})
    return float(res.x), float(math.exp(res.fun))


def _min_half_width(P: int) -> int:
    return P + 1


#: Rough large-sigma kernel error of the SFT at P = 2 and the factor gained per
#: extra order, for each derivative order (docs/design.md).  Only a hint for
#: where the search for P starts; every plan's error is computed exactly.
_ERROR_HINT = {0: (1.0e-2, 5.0), 1: (5.0e-2, 4.7), 2: (8.2e-2, 4.3)}


def _first_order_to_try(order: int, tol: float) -> int:
    e2, factor = _ERROR_HINT[order]
    P = 2 + math.ceil(math.log(e2 / tol) / math.log(factor)) if tol < e2 else 2
    return max(1, P - 1)


@lru_cache(maxsize=1024)
@on_disk("gaussian_plan")
@single_threaded_blas
def gaussian_plan(sigma: float, order: int, tol: float, transform: str) -> Plan:
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
            plan = _gaussian_fit(sigma, order, P, K, decay)
            if best is None or plan.error < best.error:
                best = plan
            if plan.error <= tol:
                return plan
    raise ValueError(
        f"no SFT plan reaches tol={tol:g} for sigma={sigma:g}, order={order} "
        f"(best {best.error:.3g} at P={best.info['P']})" if best is not None else
        f"no SFT plan reaches tol={tol:g}"
    )
