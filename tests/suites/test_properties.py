"""Algebraic properties of the filters, checked with hypothesis.

Rounding budget.  Every output of the bank is, in exact arithmetic, a sum of
about L terms (L = the plan's window length); the classical worst-case bound
for rounding in such a sum is ~L eps times the sum of the magnitudes of its
terms (Higham's gamma_L).  The integral methods restart their prefix sums
every block of max(L, 4096) outputs (sftwave.engines.numba.bank), so their sums run over
that many terms.  The tests allow

    budget = max(1e-12, 2 L_eff eps) * scale,

with ``scale`` the size an output can reach from the input (|c| ||g||_1 for
a constant c, the input's size times ||g||_1 otherwise): the ~1e-12 relative
that the exact moment constraints of the fitted kernels promise, widened only
where the summation bound itself is larger (L_eff beyond ~2000).
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from naive import exact_kernel, exact_support
from plan_helpers import kind, numba_gaussian_plan

from sftwave.engines.numba import bank
from sftwave.ndimage import gaussian_filter1d

METHODS = list(bank.METHODS)
EPS = np.finfo(np.float64).eps
MODES = ["reflect", "mirror", "nearest", "wrap", "constant"]

SETTINGS = settings(max_examples=20, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])

# a fixed menu of widths (3 .. 400, irregular values) so that plans are cached
# across examples; the design itself is tested in test_fit.py
sigmas = st.sampled_from([3.0, 4.7, 9.3, 21.5, 45.0, 110.0, 260.0, 400.0])
small_sigmas = st.sampled_from([3.0, 4.7, 9.3, 21.5, 45.0, 60.0])


def reals(lo, hi):
    return st.floats(lo, hi, allow_subnormal=False)


orders = st.sampled_from([0, 1, 2])
transforms = st.sampled_from(["sft", "asft"])
tols = st.sampled_from([None, 1e-3, 1e-6])


def _kw(method):
    """The filters' keywords for a method label: 'auto', 'fir' or one of the bank's methods."""
    if method in ("auto", "fir"):
        return {"method": method}
    return {"method": "bank", "bank_method": method}


def _path(sigma, order, method, transform, tol, n=None):
    """``(kind, plan, bank method)`` of a long signal, as the CPU engine runs it
    (signals shorter than their kernel's window get a tighter plan,
    sftwave.plans.select.SHORT_SIGNAL_TIGHTENING)."""
    kw = _kw(method)
    plan = numba_gaussian_plan(sigma, order, method=kw["method"], transform=transform, tol=tol, n=n)
    return kind(plan), plan, bank.resolve_method(kw.get("bank_method", "auto"))


def _path_half_width(path):
    """Largest |k| with h[k] != 0 for a path."""
    plan = path[1]
    if path[0] == "fir":
        return plan.radius
    if path[0] == "wide":  # the exact kernel: below exp(-84) of its peak beyond this
        return exact_support(plan.sigma)
    return max(plan.lag, plan.length - 1 - plan.lag)


def _half_width(path, sigma=None, order=None, method=None, transform=None, tol=None):
    """Half-width of a path; given the settings, the largest over signal lengths.

    The path of the shortest signal (n=1) can differ from a long signal's
    (tighter plan, or 'auto' switching between bank and FIR), so the
    interior of a test signal is bounded by the wider of the two.
    """
    hw = _path_half_width(path)
    if sigma is not None:
        short = _path(sigma, order, method, transform, tol, n=1)
        hw = max(hw, _path_half_width(short))
    return hw


def _window(path):
    return 2 * _half_width(path) + 1


def _g1(sigma, order):
    """||g||_1 of the exact kernel."""
    R = exact_support(sigma)
    return float(np.abs(exact_kernel(sigma, order, np.arange(-R, R + 1))).sum())


def _budget(path, scale):
    L = _window(path)
    if path[0] == "bank" and path[2] in ("integral", "window"):
        L = max(L, 4096)  # prefix sums over a block (sftwave.engines.numba.bank._block)
    budget = max(1e-12, 2 * L * EPS)
    if path[0] == "bank" and path[2] == "iir2":
        # The second-order real section amplifies rounding by its condition
        # number 1/|1 - w_1|^2 ~ (K/pi)^2 at the lowest frequency pi/K (the
        # paper's caveat, docs/design.md); the chunk mean is removed, so this
        # only shows on inputs with a trend, like the ramp below.
        K = L // 2
        budget = max(budget, 2 * (K / np.pi) ** 2 * EPS)
    return budget * scale


# --------------------------------------------------------------------------- linearity


@pytest.mark.parametrize("method", ["auto", "fir", *METHODS])
@SETTINGS
@given(sigma=sigmas, order=orders, transform=transforms, tol=tols,
       mode=st.sampled_from(MODES), n=st.integers(1, 700), seed=st.integers(0, 2**32 - 1),
       a=reals(-10, 10), b=reals(-10, 10))
def test_linearity(method, sigma, order, transform, tol, mode, n, seed, a, b):
    """f(a x + b y) = a f(x) + b f(y) (cval = 0, so 'constant' is linear too)."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(n)
    y = np.cumsum(rng.standard_normal(n))
    kw = dict(order=order, mode=mode, transform=transform, tol=tol, **_kw(method))
    lhs = gaussian_filter1d(a * x + b * y, sigma, **kw)
    rhs = a * gaussian_filter1d(x, sigma, **kw) + b * gaussian_filter1d(y, sigma, **kw)
    path = _path(sigma, order, method, transform, tol)
    # |f(v)| <= ||g||_1 max|v|: the size the outputs (and their rounding) can reach
    scale = (abs(a) * np.max(np.abs(x)) + abs(b) * np.max(np.abs(y))) * _g1(sigma, order)
    assert np.max(np.abs(lhs - rhs)) <= _budget(path, scale)


# --------------------------------------------------------------------------- shifts


@pytest.mark.parametrize("method", ["auto", *METHODS])
@SETTINGS
@given(sigma=sigmas, order=orders, transform=transforms, n=st.integers(1, 600),
       shift=st.integers(-1000, 1000), seed=st.integers(0, 2**32 - 1))
def test_shift_equivariance_wrap(method, sigma, order, transform, n, shift, seed):
    """mode='wrap': rolling the input rolls the output (periodic convolution)."""
    x = np.random.default_rng(seed).standard_normal(n)
    kw = dict(order=order, mode="wrap", transform=transform, **_kw(method))
    y = gaussian_filter1d(x, sigma, **kw)
    ys = gaussian_filter1d(np.roll(x, shift), sigma, **kw)
    path = _path(sigma, order, method, transform, None)
    scale = float(np.max(np.abs(x))) * _g1(sigma, order)
    assert np.max(np.abs(ys - np.roll(y, shift))) <= _budget(path, scale)


@pytest.mark.parametrize("mode", ["reflect", "mirror", "nearest", "constant"])
@pytest.mark.parametrize("method", ["auto", "iir1", "iir2", "integral"])
@SETTINGS
@given(sigma=small_sigmas, order=orders, transform=transforms,
       shift=st.integers(1, 300), seed=st.integers(0, 2**32 - 1))
def test_shift_equivariance_interior(mode, method, sigma, order, transform, shift, seed):
    """Other modes: dropping the first `shift` samples shifts the output, away from both borders."""
    path = _path(sigma, order, method, transform, None)
    hw = _half_width(path, sigma, order, method, transform, None)
    n = 2 * hw + shift + 50
    x = np.random.default_rng(seed).standard_normal(n)
    kw = dict(order=order, mode=mode, transform=transform, cval=0.3, **_kw(method))
    y = gaussian_filter1d(x, sigma, **kw)
    ys = gaussian_filter1d(x[shift:], sigma, **kw)
    # outputs i of ys (i + shift of y) whose window stays inside both signals
    lo, hi = hw, n - shift - hw
    assert hi > lo
    d = ys[lo:hi] - y[lo + shift : hi + shift]
    scale = float(np.max(np.abs(x))) * _g1(sigma, order)
    assert np.max(np.abs(d)) <= _budget(path, scale)


# --------------------------------------------------------------------------- polynomials


@pytest.mark.parametrize("method", METHODS)
@SETTINGS
@given(sigma=sigmas, order=orders, transform=transforms, tol=tols,
       mode=st.sampled_from(MODES), c=reals(-1e3, 1e3).filter(lambda v: abs(v) > 1e-3),
       extra=st.integers(0, 400))
def test_constant_input(method, sigma, order, transform, tol, mode, c, extra):
    """A constant gives itself back (order 0) or zero (orders 1, 2), everywhere.

    The extension of a constant is that constant in every mode (cval = c), so
    borders are no exception; the fitted kernels' moments sum h = 1 / 0 / 0
    are exact, so only rounding remains.
    """
    path = _path(sigma, order, method, transform, tol)
    n = 1 + extra
    y = gaussian_filter1d(np.full(n, c), sigma, order=order, mode=mode, cval=c,
                          transform=transform, tol=tol, **_kw(method))
    expect = c if order == 0 else 0.0
    assert np.max(np.abs(y - expect)) <= _budget(path, abs(c) * _g1(sigma, order))


@pytest.mark.parametrize("method", ["fir", "auto"])
@SETTINGS
@given(sigma=st.sampled_from([0.3, 0.8, 1.3, 2.2, 3.0, 9.3, 45.0, 400.0]), order=orders,
       mode=st.sampled_from(MODES), c=reals(-1e3, 1e3), n=st.integers(1, 300))
def test_constant_input_fir_and_auto(method, sigma, order, mode, c, n):
    """The FIR too: scipy's kernel is normalised (order 0) and antisymmetric
    (order 1); for order 2 sftwave corrects scipy's truncated kernel to the exact
    kernel's sum, which is zero only where aliasing (~exp(-2 pi^2 sigma^2)) is
    negligible: sigma >= 1.5 for that order."""
    assume(order < 2 or sigma >= 1.5)  # the sampled G_DD sums to -10 at sigma 0.3
    path = _path(sigma, order, method, "auto", None)
    y = gaussian_filter1d(np.full(n, c), sigma, order=order, mode=mode, cval=c, **_kw(method))
    expect = c if order == 0 else 0.0
    assert np.max(np.abs(y - expect)) <= _budget(path, abs(c) * max(_g1(sigma, order), 1.0))


@pytest.mark.parametrize("method", METHODS)
@SETTINGS
@given(sigma=sigmas, transform=transforms, tol=tols,
       a=reals(-100, 100), b=reals(-5, 5), extra=st.integers(1, 200))
def test_linear_ramp(method, sigma, transform, tol, a, b, extra):
    """x = a + b t: order 1 gives the slope b, order 0 the ramp itself, order 2 zero (interior).

    Moments sum k h = -1 (order 1), sum h = 1 and sum k h = 0 (order 0) and
    sum h = sum k h = 0 (order 2) are constraints of the fit.
    """
    for order in (0, 1, 2):
        path = _path(sigma, order, method, transform, tol)
        hw = _half_width(path, sigma, order, method, transform, tol)
        n = 2 * hw + extra
        t = np.arange(n, dtype=np.float64)
        x = a + b * t
        y = gaussian_filter1d(x, sigma, order=order, transform=transform, tol=tol, **_kw(method))
        inner = slice(hw, n - hw)
        expect = {0: x[inner], 1: b, 2: 0.0}[order]
        scale = (abs(a) + abs(b) * n) * _g1(sigma, order)
        assert np.max(np.abs(y[inner] - expect)) <= _budget(path, scale), order


@pytest.mark.parametrize("method", METHODS)
@SETTINGS
@given(sigma=small_sigmas, transform=transforms, c=reals(-2, 2), extra=st.integers(1, 100))
def test_parabola_second_derivative(method, sigma, transform, c, extra):
    """x = c t^2: order 2 gives 2c, order 0 gives c (t^2 + sigma^2) in the interior (second moments)."""
    for order in (0, 2):
        path = _path(sigma, order, method, transform, 1e-6)
        hw = _half_width(path, sigma, order, method, transform, 1e-6)
        n = 2 * hw + extra
        t = np.arange(n, dtype=np.float64) - n / 2
        x = c * t * t
        y = gaussian_filter1d(x, sigma, order=order, transform=transform, tol=1e-6,
                              **_kw(method))
        inner = slice(hw, n - hw)
        expect = 2 * c if order == 2 else c * (t[inner] ** 2 + sigma**2)
        scale = abs(c) * (n / 2) ** 2 * _g1(sigma, order)
        assert np.max(np.abs(y[inner] - expect)) <= _budget(path, scale), order
