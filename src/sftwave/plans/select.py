"""The plan selectors: the whole policy of how each transform is computed, in one place.

:func:`select_gaussian` and :func:`select_morlet` turn what a user asked for
(a width, an accuracy, a ``method``) into one typed plan:

* :class:`~sftwave.plans.fit.SFTPlan`, a fitted bank of damped exponentials
  (the SFT or ASFT; cost per sample independent of the width);
* :class:`~sftwave.plans.fit.FIRPlan`, a truncated kernel (exact where asked
  for, or where it is cheaper: small widths, accuracy beyond the SFT);
* :class:`~sftwave.plans.fit.WidePlan`, a Gaussian far wider than the signal,
  by its exact limit.

Here, and nowhere else, live the tolerance defaults, the tightening for
signals shorter than the kernel, and the FIR-versus-bank choice.  The choice
uses a cost figure that the engine supplies (``fir_taps_per_order``: how many
FIR taps cost as much as one order of the bank on that engine); an engine
that gives none gets the bank wherever one meets the target.

``method`` means the same for both transforms: ``'fir'`` the truncated
kernel, ``'bank'`` the SFT bank, ``'auto'`` the cheaper one meeting the
target; the Morlet wavelet also names the paper's two bank designs,
``'direct'`` (section III-A) and ``'multiply'`` (III-B); its ``'bank'`` is the
cheaper of the two.
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Callable
from typing import Any

from .._checks import (
    check_below_nyquist,
    check_choice,
    check_mode,
    check_order,
    check_radius,
    check_sigma,
    check_tol,
    check_truncate,
    check_xi,
)
from .._checks.ndimage import GAUSSIAN_METHODS
from .cache import on_disk, one_file
from .fit import TOL_FLOOR, FIRPlan, SFTPlan, WidePlan
from .gaussian import (
    P_MAX,
    fir_error,
    fir_kernel,
    gaussian_plan,
    scipy_gaussian_kernel,
    scipy_kernel_error,
    shortest_window,
)
from .morlet import fir_min_taps, fir_morlet, morlet_plan, predicted_components
from .spectral import FFTPlan, fft_work

__all__ = [
    "select_gaussian",
    "select_morlet",
    "morlet_costs",
    "GAUSSIAN_METHODS",
    "MORLET_METHODS",
    "DEFAULT_TOL_FACTOR",
    "DEFAULT_MORLET_TOL",
    "SHORT_SIGNAL_TIGHTENING",
    "WIDE_FACTOR",
    "MIN_SIGMA",
    "MAX_SIGMA",
    "MAX_DESIGN_SIGMA",
    "SIGMA_PER_SAMPLE",
    "SIGMA_FLOOR",
    "max_kernel_sigma",
]

#: ``method`` of the Gaussian filters.

#: ``method`` of the Morlet transforms (``'fft'``: the exact wavelet by FFT, ``sftwave.plans.spectral``).
MORLET_METHODS = ("auto", "fir", "bank", "direct", "multiply", "fft")

#: Without ``tol``, the Gaussian SFT aims at this fraction of scipy's own kernel
#: error at the given ``truncate``.  Half would make white noise come out at
#: least as accurate as scipy's; a quarter leaves a margin for inputs
#: concentrated at one frequency, where the two kernels' errors are distributed
#: differently (tests/test_ndimage.py).
DEFAULT_TOL_FACTOR = 0.25

#: Without ``tol``, the target for each wavelet's kernel error: the larger of
#: its relative RMSE (the error of a white-noise input's transform) and its
#: random-walk error (a 1/f^2 input's; see ``sftwave.plans.fit.walk_error``).
#: On a real ECG, whose spectrum falls faster still, the weakest (highest) rows
#: come out at about six times this target (docs/design.md), so 1e-4 keeps every
#: row of the documented inputs within 1e-3.
DEFAULT_MORLET_TOL = 1e-4

#: A signal shorter than the kernel's window has no interior: every output
#: depends on the extension, and the signal sees mostly the middle of the
#: kernel, where the fit's pointwise error, not its RMS, decides.  The target
#: is this much tighter there (measured on 270 short-signal cases, all modes
#: and orders, sigma 500 and 3000: a factor 16 leaves every case at most 0.3 of
#: scipy's error, a factor 4 does not).  The cost of such a call is set by the
#: window, so the extra orders cost little; and since such a signal has no
#: interior, no output of a longer signal is computed differently.
SHORT_SIGNAL_TIGHTENING = 16.0

#: A Gaussian plan whose window is more than this many times the signal's
#: length is replaced by the exact limit (:class:`WidePlan`; the bank's cost is
#: about n + window per line, the limit's n log n).
WIDE_FACTOR = 4


#: Smallest ``sigma`` accepted: below it ``sigma**2`` underflows to zero, so the
#: Gaussian's exponent ``-k**2 / (2 sigma**2)`` divides by zero (scipy's own
#: kernel raises ``ZeroDivisionError`` there).  Above it a sigma far below one
#: sample is the identity (order 0), as in scipy.
MIN_SIGMA = 1e-30

#: Largest ``sigma`` accepted, wide limit included (whose transfer function
#: squares ``sigma`` times a frequency: beyond about 1e150 that overflows).  A
#: Gaussian of 1e100 samples is already a constant (order 0) to every digit on
#: any signal that fits in memory.
MAX_SIGMA = 1e100

#: Largest ``sigma`` (samples) any plan is designed for, whatever the signal: a
#: design's memory grows as the window beyond it (60 MB at 1e7, 600 MB at 1e8),
#: and a window of some 1e8 samples is beyond what the bank's float64
#: recursions hold to the targets anyway.  A Gaussian wider than the signal
#: does not need a design (its exact limit, :class:`WidePlan`).
MAX_DESIGN_SIGMA = 1e7

#: A kernel whose ``sigma`` exceeds both ``SIGMA_PER_SAMPLE * n`` and
#: :data:`SIGMA_FLOOR` is refused on a signal of ``n`` samples (a Morlet
#: wavelet always; a Gaussian where the engine has no exact wide limit or the
#: method asks for a truncated kernel or the bank): its window (about 8 sigma)
#: would cost up to some 65 times the signal, the extension of the signal
#: almost all of it.  The floor keeps short signals' calls with scales up to
#: some ten thousand samples (a window of about 1.3e5 samples: milliseconds
#: of work; scipy's own kernel of order 3 at sigma 1e4 on a short signal).
SIGMA_PER_SAMPLE = 8.0
SIGMA_FLOOR = 16384.0


def max_kernel_sigma(n: int | None) -> float:
    """The largest ``sigma`` a kernel may have on a signal of ``n`` samples (``None``: any length).

    ``max(SIGMA_PER_SAMPLE * n, SIGMA_FLOOR)``, and at most :data:`MAX_DESIGN_SIGMA`.

    Examples
    --------
    >>> max_kernel_sigma(300), max_kernel_sigma(10**5), max_kernel_sigma(None)
    (16384.0, 800000.0, 10000000.0)
    """
    if n is None:
        return MAX_DESIGN_SIGMA
    return min(MAX_DESIGN_SIGMA, max(SIGMA_PER_SAMPLE * n, SIGMA_FLOOR))


def _check_n(n: Any) -> int | None:
    if n is None:
        return None
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 0:
        raise ValueError(f"n (the signal's length) must be None or a non-negative integer; "
                         f"got {n!r}")
    return int(n)


def _check_cost(cost: Any, name: str = "fir_taps_per_order") -> float | None:
    if cost is None:
        return None
    if isinstance(cost, bool) or not isinstance(cost, numbers.Real) or not 0 < float(cost) < float("inf"):
        raise ValueError(f"{name} must be None or a positive finite number; "
                         f"got {cost!r}")
    return float(cost)


def _check_sigma_range(sigma: float) -> None:
    if not MIN_SIGMA <= sigma <= MAX_SIGMA:
        raise ValueError(f"sigma must be in [{MIN_SIGMA:g}, {MAX_SIGMA:g}] (below, its square "
                         f"underflows; above, the wide limit's transfer function overflows); "
                         f"got {sigma!r}")


def _tightened(tol: float) -> float:
    return max(TOL_FLOOR, tol / SHORT_SIGNAL_TIGHTENING)


# ----------------------------------------------------------------------------- Gaussian


def gaussian_tol(sigma: float, order: int, truncate: float) -> float:
    """The default accuracy target: a quarter of scipy's kernel error at ``truncate``.

    Examples
    --------
    >>> gaussian_tol(2.0, 0, 4.0) == 0.25 * scipy_kernel_error(2.0, 0, 8)
    True
    """
    return DEFAULT_TOL_FACTOR * scipy_kernel_error(sigma, order, int(truncate * sigma + 0.5))


#: Highest derivative order the SFT plans are fitted for; higher orders use scipy's kernel.
MAX_SFT_ORDER = 2


def select_gaussian(sigma: float, order: int, *, truncate: float = 4.0, radius: int | None = None,
                    method: str = "auto", transform: str = "sft", tol: float | None = None,
                    n: int | None = None, fir_taps_per_order: float | None = None,
                    wide: bool = False,
                    design_taps_per_order: float | None = None) -> SFTPlan | FIRPlan | WidePlan:
    """The plan for one axis of a Gaussian filter (or its derivative of any order).

    The FIR is scipy's own kernel for orders 0 and 1 without ``tol``
    (bit-identical results), otherwise the shortest moment-corrected kernel
    meeting the target (``sftwave.plans.gaussian.fir_kernel``): scipy's
    second-derivative kernel leaks the signal's mean, and a user's ``tol``
    must hold on either path.  Every argument is checked (``ValueError`` or
    ``TypeError`` naming it).

    Parameters
    ----------
    sigma : float
        Standard deviation in samples, in ``[MIN_SIGMA, MAX_SIGMA]``
        (``[1e-30, 1e100]``); for a kernel sized by ``sigma`` (any plan but
        the wide limit and an explicit ``radius``) at most
        ``max_kernel_sigma(n)``.
    order : int
        Derivative order.  Orders above ``MAX_SFT_ORDER`` are scipy's own
        truncated kernel (a FIR whose cost grows with sigma; results
        bit-identical to scipy's).
    truncate : float, optional
        scipy's truncation, in standard deviations: the accuracy target
        without ``tol`` is ``gaussian_tol(sigma, order, truncate)``.  Default 4.0.
    radius : int, optional
        An explicit support (without ``tol``): the kernel is scipy's, truncated
        there, for every order, so the result is scipy's bit for bit (for order
        2 this includes scipy's leak of the signal's mean); ``method='bank'``
        cannot honour a support (``ValueError``).
    method : {'auto', 'bank', 'fir'}, optional
        The SFT bank, the FIR, or (``'auto'``, the default) the cheaper.
    transform : {'sft', 'asft'}, optional
        The bank's design: undamped (default) or damped components.
    tol : float, optional
        The kernel's relative RMSE target, in ``[1e-9, 0.1]``.
    n : int, optional
        The signal's length along the axis: tightens the target for signals
        shorter than the kernel's window (``SHORT_SIGNAL_TIGHTENING``).
    fir_taps_per_order : float, optional
        The engine's cost figure: ``'auto'`` takes the FIR where it has at most
        that many taps per order of the bank (plus one for the bank's fixed
        work); without it, the bank wherever one meets the target.
    wide : bool, optional
        The engine runs the exact limit: with ``method='auto'`` and ``n``, a
        plan whose window exceeds ``WIDE_FACTOR * n`` becomes a
        :class:`WidePlan`, chosen from ``sigma`` and ``n`` alone, before any
        design, wherever every plan's window would exceed it and no FIR could
        be cheaper (so the cost of the choice is bounded by the signal).
    design_taps_per_order : float, optional
        The engine's figure for a FIR as accurate as the bank: where
        ``'auto'`` does not take the FIR above, it takes the moment-corrected
        kernel that meets the bank plan's own error
        (``sftwave.plans.gaussian.fir_kernel``) where that has at most this
        many taps per bank order (plus one); without it, never.

    Returns
    -------
    SFTPlan or FIRPlan or WidePlan
        The plan; its ``error`` (where it has one) meets the target.

    See Also
    --------
    select_morlet : The same for a Morlet wavelet.
    sftwave.apply_plan : Run the plan.

    Examples
    --------
    >>> type(select_gaussian(1.0, 0, fir_taps_per_order=5.5)).__name__
    'FIRPlan'
    >>> plan = select_gaussian(64.0, 0, fir_taps_per_order=5.5)
    >>> type(plan).__name__, plan.info["P"]
    ('SFTPlan', 6)
    >>> select_gaussian(64.0, 0, radius=100).size     # scipy's kernel, truncated at 100
    201
    >>> select_gaussian(1e7, 2, n=1000, wide=True)
    WidePlan(sigma=10000000.0, order=2)
    >>> select_gaussian(1e20, 0, n=300, wide=True)       # no design: the exact limit
    WidePlan(sigma=1e+20, order=0)
    """
    args = (sigma, order, truncate, radius, method, transform, tol, n, fir_taps_per_order, wide,
            design_taps_per_order)
    try:
        hash(args)
    except TypeError:       # an unhashable argument: checked (and refused) without the cache
        return _select_gaussian(*args)
    return _select_gaussian_cached(*args)


def _select_gaussian(sigma: Any, order: Any, truncate: Any, radius: Any, method: Any,
                     transform: Any, tol: Any, n: Any, fir_taps_per_order: Any,
                     wide: Any, design_taps_per_order: Any = None) -> SFTPlan | FIRPlan | WidePlan:
    """:func:`select_gaussian`'s checks and choice (a pure function of its arguments)."""
    sigma = check_sigma(sigma)
    _check_sigma_range(sigma)
    order = check_order(order)
    truncate = check_truncate(truncate)
    radius = check_radius(radius)
    method = check_choice(method, GAUSSIAN_METHODS, "method")
    transform = check_choice(transform, ("sft", "asft"), "transform")
    tol = check_tol(tol)
    n = _check_n(n)
    fir_taps_per_order = _check_cost(fir_taps_per_order)
    design_taps_per_order = _check_cost(design_taps_per_order, "design_taps_per_order")
    if (radius is None or tol is not None) and order <= MAX_SFT_ORDER:
        # the kernel's size (FIR) or window (bank) grows with sigma from here on
        if (wide and n is not None and method == "auto" and order <= MAX_SFT_ORDER
                and _surely_wide(sigma, n, fir_taps_per_order)):
            return WidePlan(sigma, order)
        _check_kernel_sigma(sigma, order, n, wide and method == "auto")
    scipys = _scipy_kernel_plan(sigma, order, truncate, radius, method, tol, n, wide)
    if scipys is not None:
        return scipys
    r_scipy = int(truncate * sigma + 0.5)   # scipy's radius at this truncate
    target = gaussian_tol(sigma, order, truncate) if tol is None else tol

    def fir() -> FIRPlan:
        if tol is None and order < 2:
            return FIRPlan(scipy_gaussian_kernel(sigma, order, r_scipy))
        return FIRPlan(fir_kernel(float(sigma), int(order), float(max(target, 1e-15))), target)

    if method == "fir":
        return fir()
    if target < TOL_FLOOR:
        if method == "auto":
            return _finest(sigma, order, transform, tol, r_scipy, fir, fir_taps_per_order,
                           n if wide else None)
        raise ValueError(
            f"the SFT cannot reach the accuracy of truncate={truncate!r} "
            f"(kernel error {target / DEFAULT_TOL_FACTOR:.2g}); pass tol>={TOL_FLOOR:g} "
            f"or method='fir'")
    try:
        plan = gaussian_plan(float(sigma), int(order), float(target), transform)
        if n is not None and n < plan.length:
            target = _tightened(target)
            plan = gaussian_plan(float(sigma), int(order), float(target), transform)
    except ValueError as exc:
        if method == "auto":
            return fir()
        raise ValueError(f"method={method!r}: {exc}; pass a larger tol or method='fir'") from None
    if method == "auto":
        if fir_taps_per_order is not None:
            # one complex recursion per frequency, with or without decay, plus fixed work
            max_taps = fir_taps_per_order * (plan.omegas.size + 1)
            if _gaussian_fir_may_fit(sigma, order, target, tol, r_scipy, max_taps):
                short = fir()
                if short.size <= max_taps:
                    return short
        if design_taps_per_order is not None:
            designed = _designed_fir(sigma, order, plan, design_taps_per_order)
            if designed is not None:
                return designed
        if wide and n is not None and plan.length > WIDE_FACTOR * n:
            return WidePlan(float(sigma), int(order))
    return plan


#: :func:`select_gaussian`'s decisions, by its arguments and their types (``typed``: 1 and True,
#: 4 and 4.0 are checked apart); the plans are immutable, so one object serves every call.
_select_gaussian_cached = functools.lru_cache(maxsize=4096, typed=True)(_select_gaussian)


def _scipy_kernel_plan(sigma: float, order: int, truncate: float, radius: int | None, method: str,
                       tol: float | None, n: int | None, wide: bool) -> FIRPlan | None:
    """scipy's own truncated kernel where :func:`select_gaussian` gives it (orders beyond the
    fitted ones; a ``radius`` without ``tol``), else None."""
    if order > MAX_SFT_ORDER:
        if radius is None or tol is not None:
            _check_kernel_sigma(sigma, order, n, wide and method == "auto")
        # orders beyond the fitted ones: scipy's own kernel, exact to its truncation
        if tol is not None or method == "bank":
            raise ValueError(
                f"order={order} is filtered by scipy's truncated kernel (the SFT plans reach "
                f"order {MAX_SFT_ORDER}): tol= and method='bank' do not apply; got "
                f"tol={tol!r}, method={method!r}")
        r = int(truncate * sigma + 0.5) if radius is None else radius
        return FIRPlan(scipy_gaussian_kernel(sigma, order, r))
    if radius is not None and tol is None:
        if method == "bank":
            raise ValueError(
                f"radius={radius!r} fixes the kernel's support (a truncated kernel), which "
                f"method='bank' cannot honour: pass method='auto' or 'fir', or truncate= "
                f"instead of radius")
        return FIRPlan(scipy_gaussian_kernel(sigma, order, radius))
    return None


def _surely_wide(sigma: float, n: int, fir_taps_per_order: float | None) -> bool:
    """Whether ``'auto'`` ends in the wide limit, decided from ``sigma`` and ``n`` without a design.

    Every Gaussian plan's window is at least :func:`shortest_window` ``(sigma)``;
    where that exceeds ``WIDE_FACTOR * n``, the design's plan would be replaced
    by :class:`WidePlan` unless a FIR were cheaper.  A FIR is taken only with
    at most ``2 fir_taps_per_order (P_MAX + 2)`` taps (the budget of
    :func:`_finest`, with the most orders a plan has).  Once ``sigma`` exceeds
    that budget, a kernel of so few taps misses nearly half the Gaussian's
    energy, so cannot meet any accepted target.  (scipy's own kernel at a
    ``truncate`` so small that it has that few taps is not the target:
    ``truncate`` sets the accuracy, at least that of scipy's kernel truncated
    there, which the exact limit has.)  Where a FIR may still win (a short
    signal and a small sigma), the design decides, as before.
    """
    if fir_taps_per_order is not None and sigma <= 2.0 * fir_taps_per_order * (P_MAX + 2):
        return False
    return shortest_window(sigma) > WIDE_FACTOR * n


def _check_kernel_sigma(sigma: float, order: int, n: int | None, wide: bool) -> None:
    """Refuse a kernel sized by ``sigma`` beyond :func:`max_kernel_sigma` (``ValueError`` naming sigma).

    ``wide``: the exact limit was on offer (``method='auto'`` on an engine that runs it).
    """
    limit = max_kernel_sigma(n)
    if sigma <= limit:
        return
    if n is None:
        where = (f"at most {MAX_DESIGN_SIGMA:g} samples, for any signal (its window "
                 f"would be some {8 * sigma:.3g} samples)")
    else:
        where = (f"at most {limit:g} samples on a signal of {n} samples "
                 f"(max({SIGMA_PER_SAMPLE:g} n, {SIGMA_FLOOR:g}))")
    if order > MAX_SFT_ORDER:
        hint = (f"; order={order} uses scipy's truncated kernel, whose length grows with sigma "
                f"(the exact wide limit serves orders 0 to {MAX_SFT_ORDER})")
    elif wide:
        hint = ""
    else:
        hint = ("; method='auto' on the numba engine gives the exact limit of a Gaussian "
                "wider than the signal")
    raise ValueError(f"sigma={sigma!r} is too wide for a truncated kernel or the bank: "
                     f"{where}{hint}; radius= sets a truncated kernel's support")


def _finest(sigma: float, order: int, transform: str, tol: float | None, r_scipy: int,
            fir: Callable[[], FIRPlan],
            fir_taps_per_order: float | None, n_wide: int | None) -> SFTPlan | FIRPlan | WidePlan:
    """``'auto'`` where the default target is below the SFT's floor (``truncate`` >= about 7).

    scipy's kernel truncated that far has an error below ``TOL_FLOOR`` (1e-9),
    and its cost grows with sigma (scikit-image's ``hessian_matrix`` passes
    ``truncate=8``).  Without an explicit ``tol``, the bank at ``TOL_FLOOR`` is
    taken where it costs less than that FIR (by the engine's figure), so the
    cost stays independent of sigma: a relative RMSE of at most 1e-9 against
    the exact Gaussian, instead of scipy's ``exp(-truncate**2 / 2)``-sized
    truncation.  The FIR, more accurate, is kept while it costs at most twice
    the bank (so small sigmas stay scipy's bit for bit), and wherever an explicit
    ``tol`` below the floor or ``method='fir'`` asks for it.
    """
    if tol is not None or fir_taps_per_order is None:
        return fir()
    try:
        plan = gaussian_plan(float(sigma), int(order), TOL_FLOOR, transform)
    except ValueError:
        return fir()
    max_taps = 2.0 * fir_taps_per_order * (plan.omegas.size + 1)
    if _gaussian_fir_may_fit(sigma, order, TOL_FLOOR / 2, tol, r_scipy, max_taps):
        short = fir()
        if short.size <= max_taps:
            return short
    if n_wide is not None and plan.length > WIDE_FACTOR * n_wide:
        return WidePlan(float(sigma), int(order))
    return plan


def _designed_fir(sigma: float, order: int, plan: SFTPlan, taps_per_order: float) -> FIRPlan | None:
    """The moment-corrected kernel meeting ``plan``'s error, where it has at most
    ``taps_per_order`` taps per order of ``plan`` (plus one), else None (decided at that
    radius before any kernel is built)."""
    max_taps = taps_per_order * (plan.omegas.size + 1)
    radius = int(max_taps) // 2
    error = max(float(plan.error), 1e-15)
    if radius < 1 or fir_error(float(sigma), int(order), radius) > error:
        return None
    kernel = fir_kernel(float(sigma), int(order), error)
    return FIRPlan(kernel, error) if kernel.size <= max_taps else None


def _gaussian_fir_may_fit(sigma: float, order: int, target: float, tol: float | None,
                          r_scipy: int, max_taps: float) -> bool:
    """Whether the FIR can have at most ``max_taps`` taps (decided without building it).

    scipy's kernel has ``2 r + 1`` taps; the shortest moment-corrected kernel
    has more than ``max_taps`` if the one at that radius misses the target.
    Keeps the cost of the choice bounded when sigma is large.
    """
    if tol is None and order < 2:
        return 2 * r_scipy + 1 <= max_taps
    radius = int(max_taps) // 2
    return radius >= 1 and fir_error(float(sigma), int(order), radius) <= target


# ----------------------------------------------------------------------------- Morlet


def select_morlet(sigma: float, xi: float, tol: float = DEFAULT_MORLET_TOL, *, method: str = "auto",
                  transform: str = "sft", n: int | None = None,
                  fir_taps_per_order: float | None = None, mode: str | None = None,
                  fft_point_cost: float | None = None) -> SFTPlan | FIRPlan | FFTPlan:
    """The plan for the Morlet wavelet of scale ``sigma`` (samples) meeting ``tol``.

    A wavelet far wider than the signal has no plan: with ``n``, a ``sigma``
    beyond ``max_kernel_sigma(n)`` (``max(8 n, 16384)`` samples) is a
    ``ValueError`` saying that the wavelet is longer than the signal, as MNE
    refuses wavelets longer than the signal (MNE's limit, ten sigmas within
    the signal, is stricter: ``sigma <= n / 10``).  So the cost of the design
    and of running the plan are bounded by the signal; a wavelet somewhat
    longer than the signal (Torrence & Compo's scales reach about its length)
    is served.  To get a result anyway, pass a longer signal (pad it), or a
    smaller scale: a higher frequency or fewer cycles (``xi``).  Without ``n``,
    ``sigma`` is at most ``MAX_DESIGN_SIGMA``.  Every argument is checked
    (``ValueError`` or ``TypeError`` naming it).

    Parameters
    ----------
    sigma : float
        Scale in samples, in ``[MIN_SIGMA, MAX_SIGMA]`` and at most
        ``max_kernel_sigma(n)``.
    xi : float
        Radians per standard deviation, in ``sftwave._checks.XI_RANGE``
        (``[0.01, 300]``), with ``xi / sigma`` at most pi (the Nyquist frequency).
    tol : float, optional
        The kernel's relative RMSE target, in ``[1e-9, 0.1]``.  Default
        ``DEFAULT_MORLET_TOL`` (``None`` gives it too).
    method : {'auto', 'bank', 'direct', 'multiply', 'fir', 'fft'}, optional
        ``'fir'``, the shortest zero-mean truncated wavelet meeting ``tol``
        (also below the SFT's floor, ``tol < 1e-9``); ``'direct'`` or
        ``'multiply'``, the paper's bank designs; ``'bank'``, the one of them
        with fewer components; ``'fft'``, the exact wavelet by FFT
        (:class:`FFTPlan`, within rounding of the exact transform, whatever
        ``tol``); ``'auto'`` (default), the bank or the FIR, whichever costs
        less by ``fir_taps_per_order`` (a complex FIR tap costs two real
        ones), or the FFT where it costs less than that (``morlet_costs``;
        only with ``n``, ``mode`` and ``fft_point_cost``).
    transform : {'sft', 'asft'}, optional
        The bank's design: undamped (default) or damped components.
    n : int, optional
        The signal's length.  A signal shorter than the wavelet's window sees
        mostly its middle, where the fit's pointwise error decides: the target
        is then tightened as for the Gaussian filters (``SHORT_SIGNAL_TIGHTENING``).
    fir_taps_per_order : float, optional
        The engine's cost of a FIR tap per bank component; without it,
        ``'auto'`` takes the bank wherever one meets ``tol``.
    mode : str, optional
        The signal's extension mode (the FFT's length depends on it).
    fft_point_cost : float, optional
        The engine's cost of a point-level of its FFT, in bank component updates.

    Returns
    -------
    SFTPlan or FIRPlan or FFTPlan
        The plan; an ``SFTPlan``'s or ``FIRPlan``'s ``error`` is at most ``tol``.

    See Also
    --------
    select_gaussian : The same for a Gaussian.
    sftwave.apply_plan : Run the plan.

    Examples
    --------
    >>> plan = select_morlet(50.0, 6.0, 1e-4)
    >>> type(plan).__name__, plan.error <= 1e-4
    ('SFTPlan', True)
    >>> type(select_morlet(2.0, 6.0, 1e-4, fir_taps_per_order=5.5)).__name__
    'FIRPlan'
    >>> select_morlet(1e9, 6.0, n=300)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: sigma=1000000000.0: the wavelet is longer than the signal ...

    A short signal's large scale, where the FFT's cost is below the bank's:

    >>> select_morlet(1000.0, 6.0, n=4000, mode="reflect", fir_taps_per_order=2.75,
    ...               fft_point_cost=1.0)
    FFTPlan(sigma=1000.0, xi=6.0)
    """
    args = (sigma, xi, tol, method, transform, n, fir_taps_per_order, mode, fft_point_cost)
    if all(type(a) in _PLAIN for a in args):
        # a scalogram asks again for every frequency at every call: the checks' answer for
        # plain Python arguments is kept with the plan (a wrong argument raises every time)
        return _checked_morlet(*args)
    return _checked_morlet.__wrapped__(*args)


#: Argument types whose values :func:`_checked_morlet`'s cache may key on (a bool, a numpy
#: scalar, an array would compare equal to a valid float and skip its check).
_PLAIN = (float, int, str, type(None))


@functools.lru_cache(maxsize=8192)
def _checked_morlet(sigma: Any, xi: Any, tol: Any, method: Any, transform: Any, n: Any,
                    fir_taps_per_order: Any, mode: Any,
                    fft_point_cost: Any) -> SFTPlan | FIRPlan | FFTPlan:
    """:func:`select_morlet`: the checks, then the choice."""
    sigma = check_sigma(sigma)
    _check_sigma_range(sigma)
    xi = float(check_xi(xi, 1)[0])
    options = _morlet_options(tol, method, transform, n, fir_taps_per_order)
    fft_point_cost = _check_cost(fft_point_cost, "fft_point_cost")
    mode = None if mode is None else check_mode(mode)
    sigma, xi = _morlet_scale(sigma, xi, options[3])
    tol, method, transform, n, fir_taps_per_order = options
    if method == "fft":
        return FFTPlan(sigma, xi)
    if _fft_on_offer(method, n, mode, fft_point_cost, fir_taps_per_order):
        return _auto_with_fft(sigma, xi, tol, transform, n, fir_taps_per_order, mode,
                              fft_point_cost)
    return _select_morlet(sigma, xi, *options)


def _fft_on_offer(method: str, n: int | None, mode: str | None, fft_point_cost: float | None,
                  fir_taps_per_order: float | None) -> bool:
    """Whether ``'auto'`` weighs the FFT: with the signal's length, its mode and both cost figures."""
    return bool(method == "auto" and n and mode is not None and fft_point_cost is not None
                and fir_taps_per_order is not None)


def _morlet_options(tol: Any, method: Any, transform: Any, n: Any,
                    fir_taps_per_order: Any) -> tuple[float, str, str, int | None, float | None]:
    """The checked options of :func:`select_morlet` (``tol`` None: the default)."""
    checked_tol = check_tol(tol)
    return (DEFAULT_MORLET_TOL if checked_tol is None else checked_tol,
            check_choice(method, MORLET_METHODS, "method"),
            check_choice(transform, ("sft", "asft"), "transform"),
            _check_n(n), _check_cost(fir_taps_per_order))


def _morlet_scale(sigma: Any, xi: Any, n: int | None) -> tuple[float, float]:
    """``(sigma, xi)`` checked as :func:`select_morlet` checks them."""
    sigma = check_sigma(sigma)
    _check_sigma_range(sigma)
    xi = float(check_xi(xi, 1)[0])
    check_below_nyquist(sigma, xi)
    if sigma > max_kernel_sigma(n):
        raise ValueError(wavelet_too_long(f"sigma={sigma!r}", sigma, xi, n))
    return sigma, xi


def _checked_scales(scales: Any, n: int | None) -> tuple[tuple[float, float], ...]:
    """Each ``(sigma, xi)`` of ``scales`` checked by :func:`_morlet_scale` (kept per process where
    every value is a Python float, as :func:`sftwave.cwt` passes them: a scalogram's many
    scales are checked once; anything else, a bool for one, is checked every time)."""
    pairs = [tuple(pair) for pair in scales]
    if all(len(p) == 2 and type(p[0]) is float and type(p[1]) is float for p in pairs):
        return _checked_scales_kept(tuple(pairs), n)
    return tuple(_morlet_scale(s, w, n) for s, w in pairs)


#: Scalograms' plan lists kept per process: a superlet asks for one per wavelet of its set
#: (some tens), which a repeated call finds again.
_SCALOGRAMS_KEPT = 256


@functools.lru_cache(maxsize=_SCALOGRAMS_KEPT)
def _checked_scales_kept(scales: tuple, n: int | None) -> tuple[tuple[float, float], ...]:
    return tuple(_morlet_scale(s, w, n) for s, w in scales)


def select_morlet_scales(scales: Any, tol: float = DEFAULT_MORLET_TOL, *, method: str = "auto",
                         transform: str = "sft", n: int | None = None,
                         fir_taps_per_order: float | None = None, mode: str | None = None,
                         fft_point_cost: float | None = None) -> list[SFTPlan | FIRPlan | FFTPlan]:
    """The plans of a scalogram: :func:`select_morlet` for each ``(sigma, xi)`` of ``scales``.

    The same plans, bit for bit, as one :func:`select_morlet` call per scale
    with the same options, and the same checks; but the scalogram's designed
    plans are kept together, in memory and on disk (one file of the plan cache
    for the whole list, :func:`sftwave.plans.cache.one_file`): a process that
    asks for a scalogram already designed reads one file instead of one per
    frequency (some 0.3 ms each).  With the FFT on offer (``'auto'`` with
    ``n``, ``mode`` and both cost figures), the scales that the FFT serves at
    less than the kernel's least possible cost take no design at all.

    See Also
    --------
    select_morlet : One scale.
    sftwave.cwt : The scalogram these plans serve.

    Examples
    --------
    >>> plans = select_morlet_scales([(50.0, 6.0), (25.0, 6.0)], 1e-4)
    >>> [p.error <= 1e-4 for p in plans]
    [True, True]
    >>> plans[1] is select_morlet_scales([(50.0, 6.0), (25.0, 6.0)], 1e-4)[1]
    True
    """
    options = _morlet_options(tol, method, transform, n, fir_taps_per_order)
    fft_point_cost = _check_cost(fft_point_cost, "fft_point_cost")
    mode = None if mode is None else check_mode(mode)
    checked = _checked_scales(scales, options[3])
    tol, method, transform, n, fir_taps_per_order = options
    if method == "fft":
        return [FFTPlan(s, w) for s, w in checked]
    if not _fft_on_offer(method, n, mode, fft_point_cost, fir_taps_per_order):
        return list(_select_morlet_scales(checked, *options))
    assert n is not None and mode is not None and fft_point_cost is not None
    assert fir_taps_per_order is not None
    return list(_auto_with_fft_scales(checked, tol, transform, n, mode, fft_point_cost,
                                      fir_taps_per_order))


@functools.lru_cache(maxsize=_SCALOGRAMS_KEPT)
def _auto_with_fft_scales(checked: tuple[tuple[float, float], ...], tol: float, transform: str,
                          n: int, mode: str, fft_point_cost: float,
                          fir_taps_per_order: float) -> tuple[SFTPlan | FIRPlan | FFTPlan, ...]:
    """:func:`select_morlet_scales`' ``'auto'`` with the FFT on offer, on checked arguments (as
    ``_auto_with_fft``, scale by scale, with the designs of the whole scalogram in one file);
    kept per process, so that a repeated call weighs no cost again."""
    costs: dict[str, Any] = dict(n=n, mode=mode, fir_taps_per_order=fir_taps_per_order,
                                 fft_point_cost=fft_point_cost, transform="sft")
    plans: list[SFTPlan | FIRPlan | FFTPlan | None] = [None] * len(checked)
    designed = []
    for i, (s, w) in enumerate(checked):
        if _fft_cheaper(*morlet_costs(s, w, tol, **costs)):
            plans[i] = FFTPlan(s, w)
        else:
            designed.append(i)
    sft = _select_morlet_scales(tuple(checked[i] for i in designed), tol, "auto", "sft", n,
                                fir_taps_per_order)
    kept = []
    for i, plan in zip(designed, sft):
        if _fft_cheaper(*morlet_costs(*checked[i], tol, plan=plan, **costs)):
            plans[i] = FFTPlan(*checked[i])
        else:
            plans[i] = plan
            kept.append(i)
    if transform != "sft" and kept:
        for i, plan in zip(kept, _select_morlet_scales(tuple(checked[i] for i in kept), tol, "auto",
                                                       transform, n, fir_taps_per_order)):
            plans[i] = plan
    return tuple(p for p in plans if p is not None)


def _fft_cheaper(kernel: float, fft: float) -> bool:
    """``'auto'``'s rule: the FFT where it costs less than the kernel."""
    return fft < kernel


@functools.lru_cache(maxsize=_SCALOGRAMS_KEPT)
@on_disk("morlet_scalogram")
def _select_morlet_scales(scales: tuple[tuple[float, float], ...], tol: float, method: str,
                          transform: str, n: int | None,
                          fir_taps_per_order: float | None) -> tuple[SFTPlan | FIRPlan, ...]:
    """:func:`select_morlet_scales` on checked arguments: one file of the plan cache for all."""
    with one_file():
        return tuple(_select_morlet(sigma, xi, tol, method, transform, n, fir_taps_per_order)
                     for sigma, xi in scales)


def morlet_costs(sigma: float, xi: float, tol: float, *, n: int, mode: str, fir_taps_per_order: float,
                 fft_point_cost: float, transform: str = "sft",
                 plan: SFTPlan | FIRPlan | None = None) -> tuple[float, float]:
    """``(kernel, fft)``: the costs ``'auto'`` weighs, in bank component updates per row.

    ``fft`` is ``fft_point_cost * fft_work(sigma, n, mode)``
    (:func:`sftwave.plans.spectral.fft_work`).  ``kernel`` is that of
    ``plan`` (the bank's or FIR's choice of ``'auto'``): ``(P + 1) (n + L)``
    for a bank of ``P`` components and a window of ``L`` samples (every row
    runs over its window), ``(2 taps / fir_taps_per_order) (n + taps)`` for a
    FIR.  Without ``plan``, a lower bound found without a design: the FIR's
    with the fewest taps any kernel meeting ``tol`` has
    (:func:`~sftwave.plans.morlet.fir_min_taps`), the bank's with that window
    and the components its layouts predict
    (:func:`~sftwave.plans.morlet.predicted_components`), the lesser.

    Examples
    --------
    >>> kernel, fft = morlet_costs(1000.0, 6.0, 1e-4, n=4000, mode="reflect",
    ...                            fir_taps_per_order=2.75, fft_point_cost=1.0)
    >>> bool(fft < kernel)          # a wavelet longer than the signal: the FFT
    True
    """
    fft = float(fft_point_cost) * fft_work(sigma, n, mode)
    if plan is None:
        taps = fir_min_taps(sigma, xi, tol)
        P = min(predicted_components(xi, tol, d, transform) for d in ("direct", "multiply"))
        kernel = min((P + 1) * (n + taps), 2.0 * taps / fir_taps_per_order * (n + taps))
    elif isinstance(plan, SFTPlan):
        kernel = (plan.omegas.size + 1) * (n + plan.length)
    else:
        kernel = 2.0 * plan.size / fir_taps_per_order * (n + plan.size)
    return float(kernel), fft


@functools.lru_cache(maxsize=8192)
def _auto_with_fft(sigma: float, xi: float, tol: float, transform: str, n: int,
                   fir_taps_per_order: float, mode: str,
                   fft_point_cost: float) -> SFTPlan | FIRPlan | FFTPlan:
    """``'auto'`` with the FFT on offer: the FFT where it costs less than the kernel's least
    possible cost (no design at all), else where it costs less than the kernel designed.

    The kernel's cost is that of the SFT's design whatever ``transform``: the
    choice is then the same for both transforms, which the engine picks later by
    the output's precision and the number of lines (so :func:`sftwave.dask.cwt`'s
    blocks choose as the whole array does).
    """
    costs: dict[str, Any] = dict(n=n, mode=mode, fir_taps_per_order=fir_taps_per_order,
                 fft_point_cost=fft_point_cost, transform="sft")
    if _fft_cheaper(*morlet_costs(sigma, xi, tol, **costs)):
        return FFTPlan(sigma, xi)
    plan = _select_morlet(sigma, xi, tol, "auto", "sft", n, fir_taps_per_order)
    if _fft_cheaper(*morlet_costs(sigma, xi, tol, plan=plan, **costs)):
        return FFTPlan(sigma, xi)
    return plan if transform == "sft" else _select_morlet(sigma, xi, tol, "auto", transform, n,
                                                           fir_taps_per_order)


def wavelet_too_long(what: str, sigma: float, xi: float, n: int | None) -> str:
    """The message of a wavelet wider than :func:`max_kernel_sigma` allows; ``what`` names the argument.

    Examples
    --------
    >>> wavelet_too_long("freqs", 1e9, 6.0, 300)[:60]
    'freqs: the wavelet is longer than the signal (at least one o'
    """
    if n is None:
        bound = f"at most {MAX_DESIGN_SIGMA:g} samples whatever the signal"
    else:
        bound = (f"at most {max_kernel_sigma(n):g} samples on a signal of {n} samples, "
                 f"max({SIGMA_PER_SAMPLE:g} n, {SIGMA_FLOOR:g})")
    return (f"{what}: the wavelet is longer than the signal (at least one of the wavelets "
            f"is): its scale is sigma = {sigma:.4g} samples (xi = {xi:g}), {bound}.  Use a "
            f"longer signal, or a smaller scale: a higher frequency (is fs right?) or fewer "
            f"cycles (a smaller xi, MNE's n_cycles)")


@functools.lru_cache(maxsize=8192)
def _select_morlet(sigma: float, xi: float, tol: float, method: str, transform: str,
                   n: int | None, fir_taps_per_order: float | None) -> SFTPlan | FIRPlan:
    """:func:`select_morlet`, kept per process: a scalogram asks again at every call.

    (The designs beneath are cached already; the choice among them, the
    table's component counts for both designs, was a noticeable part of every
    warm scalogram without this cache: docs/performance.md, *Figures behind
    the code's choices*.)
    """
    plan = _morlet_for_tol(sigma, xi, tol, method, transform, fir_taps_per_order)
    if n is not None and isinstance(plan, SFTPlan) and n < plan.length:
        plan = _morlet_for_tol(sigma, xi, _tightened(tol), method, transform, fir_taps_per_order)
    return plan


def _morlet_for_tol(sigma: float, xi: float, tol: float, method: str, transform: str,
                    fir_taps_per_order: float | None) -> SFTPlan | FIRPlan:
    if method == "fir" or tol < TOL_FLOOR:
        return FIRPlan(fir_morlet(sigma, xi, tol), tol)
    designs = [method]
    if method in ("auto", "bank"):
        # the method expected to need fewer components first; the other only if it may
        # need fewer than the first one's plan has (the expectation is that of large
        # scales: designing both cost twice the time and rarely changed the choice)
        expected = {d: predicted_components(xi, tol, d, transform) for d in ("direct", "multiply")}
        designs = sorted(expected, key=expected.__getitem__)
    candidates: list[SFTPlan] = []
    for design in designs:
        if candidates and expected[design] >= candidates[0].omegas.size:
            break
        try:
            candidates.append(morlet_plan(sigma, xi, tol, design, transform))
        except ValueError as exc:
            if method not in ("auto", "bank"):
                raise ValueError(f"method={method!r}: {exc}; pass a larger tol or method='fir'") from None
    best = min(candidates, key=lambda p: p.omegas.size, default=None)
    if method == "bank" and best is None:
        raise ValueError(f"method='bank': no SFT plan reaches tol={tol:g} for sigma={sigma:g}; "
                         "pass a larger tol or method='fir'")
    if method != "auto":
        assert best is not None     # (a method other than auto and bank raised above: for mypy)
        return best
    if best is not None:
        if fir_taps_per_order is None:
            return best
        budget = fir_taps_per_order * (best.omegas.size + 1)
        if 2 * fir_min_taps(sigma, xi, tol) > budget:
            return best                     # no FIR meeting tol can be cheaper: skip its design
    h = fir_morlet(sigma, xi, tol)
    if best is None or 2 * h.size <= budget:
        return FIRPlan(h, tol)
    return best
