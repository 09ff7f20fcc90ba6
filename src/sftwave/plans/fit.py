r"""Kernel design: target kernels, least-squares fits on damped exponentials, K/P choice.

Everything sftwave computes is a linear combination of the components of one
bank (see ``sftwave.engines.numba.bank``),

.. math::

    S_p[n] = \sum_{j=0}^{L-1} w_p^j\, x[n + \ell - j], \qquad
    w_p = e^{-\alpha - i\omega_p},

so the result is the convolution :math:`y[n] = \sum_k h[k]\,x[n-k]` with the
kernel, for :math:`k = j - \ell \in [-\ell, L-1-\ell]`,

.. math::

    h[k] = \sum_p A_p \operatorname{Re} w_p^{k+\ell} + B_p \operatorname{Im} w_p^{k+\ell},

and zero outside that window.  A :class:`SFTPlan` holds the frequencies
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

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "SFTPlan",
    "FIRPlan",
    "WidePlan",
    "window_sums",
    "fit_plan",
    "plan_kernel",
    "kernel_error",
    "walk_error",
    "truncated_kernel",
    "truncated_with_moments",
    "truncated_error",
    "relative_rms",
    "reference_support",
    "smooth_sum",
    "sum_stride",
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

#: Fits of longer windows than this use a uniform sub-grid of rows, sixteen per
#: ``resolution`` (the fit is a Riemann sum of a smooth problem, and a least-squares
#: optimum is flat: the kernel's error changes by far less than itself; every
#: plan's error is computed afterwards anyway).  Moments are always computed on
#: the full grid.  Below it (which includes every layout search at sigma_ref, so
#: the shipped layout table does not depend on this), every sample is a row.
_MAX_FIT_ROWS = 8192


# --------------------------------------------------------------------------- kernel errors

def reference_support(sigma: float, half_window: int) -> int:
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



def truncated_with_moments(target, scale: float, radius: int, orders: tuple[int, ...],
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
        # (the lambda is called within this iteration: its late binding of `part` is harmless)
        m = _target_moments(lambda kk: part(target(kk)), scale, radius, orders, scale, resolution)  # noqa: B023
        corrected = hp + M.T @ np.linalg.solve(M @ M.T, m - M @ hp)
        out = out + (corrected if part is np.real else 1j * corrected)
    return out


def truncated_error(target, scale: float, h: np.ndarray, resolution: float | None = None,
                     walk: bool = False) -> float:
    """Relative RMSE of a centred FIR ``h`` against ``target``: |h - T|^2 inside, |T|^2 outside.

    With ``walk``, the larger of that and the random-walk error (:func:`walk_error`).
    """
    radius = h.size // 2
    R = reference_support(scale, radius)
    stride = sum_stride(2 * R + 1, scale if resolution is None else resolution)
    k = np.arange(-radius, radius + 1, dtype=np.float64)
    inside = float(np.sum(np.abs(h - target(k)) ** 2))

    def outside(kk):
        return np.abs(target(kk)) ** 2

    tails = smooth_sum(outside, -R, -radius - 1, stride) + smooth_sum(outside, radius + 1, R, stride)
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
        h = truncated_with_moments(target, scale, r, orders, resolution)
        return truncated_error(target, scale, h, resolution, walk)

    lo, hi = 1, int(math.ceil(14.0 * scale)) + 2
    if err(hi) > tol:
        lo = hi
    while lo < hi:
        mid = (lo + hi) // 2
        if err(mid) <= tol:
            hi = mid
        else:
            lo = mid + 1
    return truncated_with_moments(target, scale, lo, orders, resolution)


# --------------------------------------------------------------------------- plans


@dataclass(frozen=True, eq=False)
class SFTPlan:
    """A frozen description of one bank run and how its components combine.

    Parameters
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

    See Also
    --------
    FIRPlan : A truncated kernel instead.
    WidePlan : A Gaussian wider than the signal.
    select_gaussian : The selector that designs one.
    sftwave.apply_plan : Run a plan.

    Examples
    --------
    The mean of three samples, one undamped component of frequency 0:

    >>> plan = SFTPlan(omegas=np.array([0.0]), alpha=0.0, length=3, lag=1,
    ...                coef=np.array([[[1 / 3], [0.0]]]), error=0.0)
    >>> plan.pad_before, plan.pad_after, plan.kernel_sum.tolist()
    (1, 1, [1.0])
    """

    omegas: np.ndarray
    alpha: float
    length: int
    lag: int
    coef: np.ndarray
    error: float
    info: dict = field(default_factory=dict)

    @functools.cached_property
    def w(self) -> np.ndarray:
        """The recursion multipliers ``w_p = exp(-alpha - i omega_p)`` (computed once per plan, read-only)."""
        return _read_only(np.exp(-self.alpha - 1j * self.omegas))

    @property
    def pad_before(self) -> int:
        """Samples of extension needed before the first output."""
        return self.length - 1 - self.lag

    @property
    def pad_after(self) -> int:
        """Samples of extension needed after the last output."""
        return self.lag

    @functools.cached_property
    def window_sums(self) -> np.ndarray:
        """``sum_{j<L} w_p^j`` for each component (complex; ``L`` where ``w_p == 1``)."""
        return _read_only(window_sums(self.w, self.length))

    @functools.cached_property
    def kernel_sum(self) -> np.ndarray:
        """Each output's kernel sum ``sum_k h[k]`` (its response to a constant), shape (n_outputs,)."""
        sums = self.window_sums
        return _read_only(self.coef[:, 0, :] @ sums.real + self.coef[:, 1, :] @ sums.imag)


def _read_only(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def window_sums(w: np.ndarray, L: int) -> np.ndarray:
    """``sum_{j<L} w^j`` for each multiplier ``w`` (``L`` where ``w == 1``).

    Examples
    --------
    >>> window_sums(np.array([1.0, -1.0]), 3).real.tolist()
    [3.0, 1.0]
    """
    w = np.asarray(w, dtype=np.complex128)
    sums = np.full(w.shape, float(L), dtype=np.complex128)
    ne = w != 1.0
    sums[ne] = (1.0 - np.exp(L * np.log(w[ne]))) / (1.0 - w[ne])
    return sums


@dataclass(frozen=True, eq=False)
class FIRPlan:
    """A truncated convolution kernel: ``y[n] = sum_k h[k] x[n - k]`` for ``-r <= k <= r``.

    Parameters
    ----------
    kernel : ndarray, shape (2 r + 1,)
        ``h``, centred (real for the Gaussian family, complex for wavelets).
    error : float or None
        Its relative RMSE against the exact kernel, where the selector
        designed it to a target (None for scipy's kernel at a given radius).
    scipy_arithmetic : bool
        Run in scipy's arithmetic (float64, scipy's bits), never a faster
        single-precision path: where the user asked for scipy's kernel itself
        (``method='fir'`` or ``radius=``).

    See Also
    --------
    SFTPlan : The SFT bank instead.
    sftwave.apply_plan : Run a plan.

    Examples
    --------
    >>> plan = FIRPlan(np.array([0.25, 0.5, 0.25]))
    >>> plan.radius, plan.size, plan.error
    (1, 3, None)
    """

    kernel: np.ndarray
    error: float | None = None
    scipy_arithmetic: bool = False

    @property
    def radius(self) -> int:
        """Half-width ``r``."""
        return self.kernel.size // 2

    @property
    def size(self) -> int:
        """Number of taps, ``2 r + 1``."""
        return self.kernel.size


@dataclass(frozen=True)
class WidePlan:
    """A Gaussian far wider than the signal: its exact, untruncated filter, computed by FFT.

    Parameters
    ----------
    sigma : float
        Standard deviation in samples.
    order : int
        Derivative order (0, 1 or 2).

    See Also
    --------
    select_gaussian : The selector that returns it.
    sftwave.apply_plan : Run a plan.

    Examples
    --------
    >>> plan = WidePlan(sigma=1e7, order=0)    # what select_gaussian(1e7, 0, n=1000, wide=True) gives
    >>> plan == WidePlan(1e7, 0), plan.sigma
    (True, 10000000.0)
    """

    sigma: float
    order: int


def _powers(w: np.ndarray, j: np.ndarray) -> np.ndarray:
    """``w[p] ** j[i]`` as an array (len(j), len(w)), accurate for large j."""
    logw = np.log(w.astype(np.complex128))
    return np.exp(np.multiply.outer(j.astype(np.float64), logw))


def _grid_powers(omegas: np.ndarray, alpha: float, j: np.ndarray, lag: int) -> np.ndarray | None:
    """``w[p] ** j[i]`` as :func:`_powers` gives it, where every frequency is a multiple of
    ``pi / lag`` (the direct method's and the Gaussian fits' orders): one table of the
    ``2 lag`` phases, indexed by ``p j mod 2 lag`` (exact integers, so no phase error grows
    with ``j``, and cheaper than the exponentials).  None for other frequencies.
    """
    if lag < 1:
        return None
    q = omegas * (lag / np.pi)
    p = np.rint(q)
    if q.size == 0 or not np.all(np.abs(q - p) <= 1e-9 * max(1.0, float(np.abs(q).max()))):
        return None
    period = 2 * int(lag)
    n = np.multiply.outer(j.astype(np.int64), p.astype(np.int64)) % period
    pw = np.exp(-1j * np.pi / lag * np.arange(period))[n]
    if alpha:
        pw *= np.exp(-alpha * j)[:, None]
    return pw


def _basis(w: np.ndarray, j: np.ndarray, parts: np.ndarray, comp: np.ndarray) -> np.ndarray:
    """Columns ``Re w_p^j`` (part 0) or ``Im w_p^j`` (part 1) for the listed (part, p)."""
    pw = _powers(w, j)
    cols = np.where(parts[None, :] == 0, pw.real[:, comp], pw.imag[:, comp])
    return cols


def _moment_rows(w, length, lag, parts, comp, orders, scale, head=None):
    """Exact moments ``sum_j ((j - lag)/scale)^q * basis[j]`` over the full window.

    Summed by blocks of B samples: with ``j = j0 + t``,
    ``sum_t (u0 + t/scale)^q w^(j0+t) = w^j0 sum_r binom(q, r) u0^(q-r) T_r`` where
    ``T_r = sum_t (t/scale)^r w^t`` is one table for all blocks, so the cost is
    O(B + length/B) rather than O(length).  ``head``, if given, is ``_powers(w, t)``
    for ``t = 0 .. length - 1`` (the fit's own basis), which holds the table's powers.
    """
    B = int(min(length, 1024))
    nb, rem = divmod(length, B)
    qmax = max(orders)
    t = np.arange(B, dtype=np.float64)
    pw = _powers(w, t) if head is None else head[:B]
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


#: Error estimates and target moments over more points than this are summed on
#: a uniform sub-grid of 32 points per ``resolution`` (the target's shortest
#: length scale: sigma for a Gaussian, the carrier's period over pi for a
#: wavelet).  Targets are smooth, so the sub-grid sums them to full precision; a
#: kernel's error, with the end corrections of :func:`smooth_sum`, to within
#: 1e-5 of itself (measured, Gaussians and wavelets at sigma 300 to 5000).
_MAX_SUM_POINTS = 8192


def sum_stride(npoints: int, resolution: float) -> int:
    """The sub-grid's stride for sums over ``npoints`` points (1: every point)."""
    if npoints <= _MAX_SUM_POINTS:
        return 1
    return int(max(1, resolution // 32))


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
    R = reference_support(sigma_like, half)
    stride = sum_stride(2 * R + 1, sigma_like if resolution is None else resolution)
    k = np.arange(-R, R + 1, stride, dtype=np.float64)
    f = np.zeros(k.shape)
    for c, e in zip(coeffs, exponents):
        f += np.real(c * np.exp(e * k))
    return float(stride * np.sum(f * target(k)))


def _target_moments(target, sigma_like, half, orders, scale, resolution=None):
    """Moments of the exact target over its whole support (strided where huge)."""
    R = reference_support(sigma_like, half)
    stride = sum_stride(2 * R + 1, sigma_like if resolution is None else resolution)
    k = np.arange(-R, R + 1, stride, dtype=np.float64)
    t = target(k)
    ks = k / scale
    return np.array([stride * np.sum((ks**q) * t) for q in orders])


def _lstsq(B, y, reference=False):
    """min ||B x - y||: numpy's (LAPACK's SVD-based) solver, or, outside the reference
    numerics (``reference``, :func:`fit_plan`'s) and where ``B`` is well conditioned (below
    1e4, as the fits' column-scaled, nearly orthogonal exponentials are), the normal
    equations with one step of refinement: the same solution to rounding, and much
    cheaper for the fits' tall matrices (figures: docs/performance.md, *Figures
    behind the code's choices*)."""
    if not reference and B.shape[0] > 2 * B.shape[1] > 0:
        G = B.T @ B
        ev = np.linalg.eigvalsh(G)
        if ev[0] > 1e-8 * ev[-1]:
            x = np.linalg.solve(G, B.T @ y)
            return x + np.linalg.solve(G, B.T @ (y - B @ x))
    return np.linalg.lstsq(B, y, rcond=None)[0]


def _constrained_lstsq(A, b, M, m, reference=False):
    """min ||A c - b|| subject to M c = m (null-space method); columns pre-scaled.

    The constraints are taken in order, at most one fewer than the columns.
    ``b`` (and ``m``) may hold several right-hand sides as columns, solved at once;
    ``reference``: :func:`_lstsq`'s.
    """
    norms = np.sqrt(np.sum(A * A, axis=0))
    # a column negligible against the others is numerical noise: no coefficient
    negligible = norms <= 1e-10 * norms.max()
    norms[negligible] = 1.0
    A = A / norms
    A[:, negligible] = 0.0
    scale = norms if np.ndim(b) == 1 else norms[:, None]
    if M is None or M.shape[0] == 0:
        c = _lstsq(A, b, reference)
        return c / scale
    keep = max(0, int(np.count_nonzero(~negligible)) - 1)
    if M.shape[0] > keep:
        M, m = M[:keep], m[:keep]
    if M.shape[0] == 0:
        c = _lstsq(A, b, reference)
        return c / scale
    M = M / norms
    M[:, negligible] = 0.0
    Q, R = np.linalg.qr(M.T, mode="complete")
    r = M.shape[0]
    R1 = R[:r, :r]
    c_part = Q[:, :r] @ np.linalg.solve(R1.T, m)
    Z = Q[:, r:]
    z = _lstsq(A @ Z, b - A @ c_part, reference)
    c = c_part + Z @ z
    return c / scale


def _fit_columns(omegas: np.ndarray, use_re: np.ndarray | None,
                 use_im: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """:func:`fit_plan`'s columns: the component of each (``comp``) and its part (0 real, 1 imaginary)."""
    P = omegas.size
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
    return comp, parts


def _fit_basis(omegas: np.ndarray, alpha: float, w: np.ndarray, length: int, lag: int, stride: int,
               comp: np.ndarray, parts: np.ndarray,
               reference: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`fit_plan`'s rows ``j_fit`` (every ``stride``-th lag of the window, and its last),
    the powers ``w ** j_fit`` and the basis ``A`` (its columns ``comp``/``parts``)."""
    j_fit = np.arange(0, length, stride, dtype=np.float64)
    if j_fit[-1] != length - 1:
        j_fit = np.append(j_fit, float(length - 1))
    pw = None if reference else _grid_powers(omegas, alpha, j_fit, int(lag))
    if pw is None:
        pw = _powers(w, j_fit)
    if reference:
        A = np.where(parts[None, :] == 0, pw.real[:, comp], pw.imag[:, comp])   # (_basis)
    else:   # the same columns (the real parts first), without the fancy-indexed where
        nre = int(np.count_nonzero(parts == 0))
        A = np.concatenate([pw.real[:, comp[:nre]], pw.imag[:, comp[nre:]]], axis=1)
    return j_fit, pw, A


def _constraint_values(tk, weights, moments, scale, half, resolution):
    """The right-hand sides of :func:`fit_plan`'s constraints for one (real) part ``tk`` of a
    target: its weighted sums (or the prescribed values), then its moments; None without any."""
    values = []
    for entry in weights:
        if len(entry) > 2:  # a prescribed value (real targets only)
            values.append([float(entry[2])])
        else:
            values.append([_target_weighted_sum(tk, scale, half, entry[0], entry[1], resolution)])
    if moments:
        values.append(_target_moments(tk, scale, half, moments, scale, resolution))
    return np.concatenate(values) if values else None


def _solve_parts(A, M, t, parts_of, mvecs, reference):
    """The solutions of a target's parts (columns): one constrained least-squares solve each
    under the reference numerics, else all parts at once against the same basis."""
    if reference:
        return np.stack([_constrained_lstsq(A, part_fn(t), M, m, reference=True)
                         for part_fn, m in zip(parts_of, mvecs)], axis=1)
    rhs = np.stack([part_fn(t) for part_fn in parts_of], axis=1)
    ms = [m for m in mvecs if m is not None]
    return _constrained_lstsq(A, rhs, M, np.stack(ms, axis=1) if ms else None)


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
    reference: bool = False,
) -> SFTPlan:
    """Least-squares fit of one or more target kernels on the damped basis.

    Parameters
    ----------
    targets : list of callables
        Each maps an array of integer lags ``k`` to the target kernel ``T[k]``
        (real or complex); one output per target.
    omegas, alpha, length, lag
        The bank (see :class:`SFTPlan`).
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
    info : dict, optional
        Kept in the plan's ``info``.
    reference : bool, optional
        The reference numerics: without the shortcuts that change a fit in its
        last digits only (the powers of frequencies on the ``pi / lag`` grid
        from one table of phases, :func:`_grid_powers`; the real and imaginary
        parts of a complex target solved at once by the normal equations,
        :func:`_lstsq`; the basis's columns laid out otherwise).  The layout
        searches (``sftwave.plans.morlet``) run with it, so that ``make
        plan-tables`` reproduces the shipped table to the last digit: a search
        minimises a step function of ``K / sigma``, and last-digit changes of
        tiny errors can move the end of its refinement.  Default False.

    Returns
    -------
    SFTPlan
    """
    omegas = np.asarray(omegas, dtype=np.float64)
    P = omegas.size
    w = np.exp(-alpha - 1j * omegas)
    comp, parts = _fit_columns(omegas, use_re, use_im)
    stride = 1
    if length > _MAX_FIT_ROWS:
        stride = int(max((scale if resolution is None else resolution) // 16, 1))
    j_fit, pw, A = _fit_basis(omegas, float(alpha), w, length, lag, stride, comp, parts, reference)
    k_fit = j_fit - lag
    M = _constraint_matrix(w, length, lag, parts, comp, weights, moments, scale,
                           head=pw if stride == 1 else None)

    half = max(lag, length - 1 - lag)
    # Where every sum is exact (the fit's rows, the target's sums and the errors on
    # every sample of the support), the target is evaluated once on the support and
    # the kernel's error comes from the fit's own basis (a design is hundreds of small
    # fits; under the reference numerics these are the numbers of the general path,
    # summed in the same order)
    R = reference_support(scale, half)
    exact = stride == 1 and sum_stride(2 * R + 1, scale if resolution is None else resolution) == 1
    k_all = np.arange(-R, R + 1 if exact else -R, dtype=np.float64)   # (empty where not used)
    coefs = []
    errors = []
    supports = []
    fitted = []   # each target's solution in A's columns (real, or a real and an imaginary column)
    for target in targets:
        if exact:
            T = target(k_all)
            supports.append(T)
            t = T[R - lag:R - lag + length]
        else:
            t = target(k_fit)
        is_complex = np.iscomplexobj(t)
        parts_of = (np.real, np.imag) if is_complex else (np.real,)
        mvecs = []
        for part_fn in parts_of:
            # (the lambdas here are called within the iteration: late binding is harmless)
            tk = (lambda k: part_fn(T)) if exact else (lambda k: part_fn(target(k)))  # noqa: B023
            mvecs.append(_constraint_values(tk, weights, moments, scale, half, resolution))
        sols = _solve_parts(A, M, t, parts_of, mvecs, reference)
        sol = sols[:, 0] + 1j * sols[:, 1] if is_complex else sols[:, 0]
        fitted.append(sols if is_complex else sols[:, 0])
        c = np.zeros((2, P), dtype=sol.dtype)
        c[parts, comp] = sol
        coefs.append(c)
    coef = np.stack(coefs)
    plan = SFTPlan(omegas, float(alpha), int(length), int(lag), coef, 0.0, dict(info or {}))
    for i, target in enumerate(targets):
        if exact:
            h = _fitted_kernel(pw, A, coef[i], fitted[i], reference)
            errors.append(_exact_error(supports[i], h, R, -lag, walk))
        else:
            errors.append(kernel_error(plan, target, scale, output=i, resolution=resolution, walk=walk))
    return SFTPlan(omegas, float(alpha), int(length), int(lag), coef, max(errors), dict(info or {}))


def _constraint_matrix(w: np.ndarray, length: int, lag: int, parts: np.ndarray, comp: np.ndarray,
                       weights: tuple, moments: tuple[int, ...], scale: float,
                       head: np.ndarray | None) -> np.ndarray | None:
    """The fit's constraint rows, most important first: the weights, then the moments (a
    small basis keeps only as many as leave the fit one degree of freedom); None: none."""
    rows = [_exponential_rows(w, length, lag, parts, comp, entry[0], entry[1]) for entry in weights]
    if moments:
        rows.append(_moment_rows(w, length, lag, parts, comp, moments, scale, head=head))
    return np.vstack(rows) if rows else None


def _fitted_kernel(pw: np.ndarray, A: np.ndarray, coef: np.ndarray, fitted: np.ndarray,
                   reference: bool) -> np.ndarray:
    """A fitted kernel on :func:`fit_plan`'s rows: from its coefficients (reference numerics),
    or from the solution in the basis's own columns."""
    if reference:
        return pw.real @ coef[0] + pw.imag @ coef[1]
    return A @ fitted if fitted.ndim == 1 else A @ fitted[:, 0] + 1j * (A @ fitted[:, 1])


def plan_kernel(plan: SFTPlan, output: int = 0, stride: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The plan's convolution kernel: lags ``k`` and values ``h[k]`` on its window.

    With ``stride > 1``, only every ``stride``-th lag from the window's start.
    """
    j = np.arange(0, plan.length, stride, dtype=np.float64)
    pw = _powers(plan.w, j)
    c = plan.coef[output]
    h = pw.real @ c[0] + pw.imag @ c[1]
    return j - plan.lag, h


def smooth_sum(f, a: int, b: int, stride: int) -> float:
    """``sum_{k=a}^{b} f(k)`` for a smooth ``f``, from every ``stride``-th point.

    The trapezoid rule with the Euler-Maclaurin end corrections: for a grid
    ``a, a+s, ..., e``, ``sum_{k=a}^{e} f(k) = s sum_j f(a + j s)
    - (s - 1)/2 (f(a) + f(e)) - (s^2 - 1)/12 (f'(e) - f'(a)) + O(s^4)``, the
    derivatives by second-order differences of unit step; the last
    ``b - e < s`` points are added exactly.  ``stride = 1`` is the plain sum.
    """
    if b < a:
        return 0.0
    m = (b - a) // stride
    grid = a + stride * np.arange(m + 1, dtype=np.float64)
    v = f(grid)
    total = stride * np.sum(v) - 0.5 * (stride - 1) * (v[0] + v[-1])
    e = a + m * stride
    if stride > 1 and e - a >= 2:
        ends = f(np.array([a, a + 1, a + 2, e - 2, e - 1, e], dtype=np.float64))
        d_a = 0.5 * (-3.0 * ends[0] + 4.0 * ends[1] - ends[2])
        d_e = 0.5 * (ends[3] - 4.0 * ends[4] + 3.0 * ends[5])
        total -= (stride * stride - 1) / 12.0 * (d_e - d_a)
    if e < b:
        total += np.sum(f(np.arange(e + 1, b + 1, dtype=np.float64)))
    return float(total)


#: The random-walk error is summed over at most about this many points (its
#: running sums by the trapezoid rule are only second-order accurate on a
#: sub-grid: within 4e-4 of itself at 32 points per resolution, measured, so it
#: keeps every point much longer than the white-noise error does).
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
    R = reference_support(scale, max(-lo, hi))
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


def _exact_error(T: np.ndarray, h: np.ndarray, R: int, lo: int, walk: bool) -> float:
    """:func:`kernel_error` where every sum is exact (``2 R + 1 <= _MAX_SUM_POINTS``).

    ``T``: the target on ``-R .. R``; ``h``: the kernel on its window ``lo .. lo + h.size - 1``.
    The same sums as the general path (:func:`smooth_sum` with stride 1, and
    :func:`walk_error`), from one evaluation of each.
    """
    i0, i1 = lo + R, lo + R + h.size
    outside = np.abs(T) ** 2
    left = float(np.sum(outside[:i0])) if i0 > 0 else 0.0
    right = float(np.sum(outside[i1:])) if i1 < T.size else 0.0
    num = left + float(np.sum(np.abs(h - T[i0:i1]) ** 2)) + right
    den = left + float(np.sum(outside[i0:i1])) + right
    white = relative_rms(num, den)
    if not walk:
        return white
    d = -T.astype(np.complex128)
    d[i0:i1] += h
    cd, ct = np.cumsum(d), np.cumsum(T)
    return max(white, float(np.sqrt(np.sum(np.abs(cd) ** 2) / np.sum(np.abs(ct) ** 2))))


def kernel_error(plan: SFTPlan, target, scale: float, output: int = 0,
                 resolution: float | None = None, walk: bool = False) -> float:
    """Relative RMSE of the plan's kernel against ``target`` over the whole support.

    ``scale`` (sigma) sets the support; ``resolution`` (default ``scale``) is
    the target's shortest length scale.  Exact sums up to ``_MAX_SUM_POINTS``
    points; beyond that, each smooth piece (the window, and the tails outside
    it) is summed from a sub-grid of 32 points per ``resolution`` with the
    Euler-Maclaurin end corrections (see ``smooth_sum``).  With ``walk`` (for
    zero-mean targets), the larger of that and :func:`walk_error`.
    """
    lo, hi = -plan.lag, plan.length - 1 - plan.lag
    R = reference_support(scale, max(-lo, hi))
    stride = sum_stride(2 * R + 1, scale if resolution is None else resolution)
    c = plan.coef[output]
    logw = np.log(plan.w.astype(np.complex128))
    if stride == 1:
        # every sum exact: the target once on the whole support, the kernel once on
        # the window (the same numbers, summed in the same order, as below)
        k = np.arange(-R, R + 1, dtype=np.float64)
        pw = np.exp(np.multiply.outer(k[lo + R:hi + R + 1] + plan.lag, logw))
        return _exact_error(target(k), pw.real @ c[0] + pw.imag @ c[1], R, lo, walk)

    def inside(k):
        pw = np.exp(np.multiply.outer(k + plan.lag, logw))
        h = pw.real @ c[0] + pw.imag @ c[1]
        return np.abs(h - target(k)) ** 2

    def outside(k):
        return np.abs(target(k)) ** 2

    num = (smooth_sum(outside, -R, lo - 1, stride) + smooth_sum(inside, lo, hi, stride)
           + smooth_sum(outside, hi + 1, R, stride))
    den = (smooth_sum(outside, -R, lo - 1, stride) + smooth_sum(outside, lo, hi, stride)
           + smooth_sum(outside, hi + 1, R, stride))
    white = relative_rms(num, den)
    if not walk:
        return white

    def kernel(k):
        pw = np.exp(np.multiply.outer(k + plan.lag, logw))
        return pw.real @ c[0] + pw.imag @ c[1]

    return max(white, walk_error(kernel, target, scale, lo, hi, resolution))
