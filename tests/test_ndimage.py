"""sftwave.ndimage against the exact reference (tests/naive.py) and against scipy.ndimage."""

import zlib

import numpy as np
import pytest
import scipy.ndimage as ndi
from naive import (
    exact_gaussian_filter1d,
    exact_kernel,
    exact_support,
    extend,
    kernel_rel_error,
    rel_rmse,
)
from plan_helpers import kind, numba_gaussian_plan

from sftwave.engines.numba import bank
from sftwave.ndimage import gaussian_filter, gaussian_filter1d
from sftwave.plans import gaussian

METHODS = list(bank.METHODS)
TRANSFORMS = ["sft", "asft"]
ORDERS = [0, 1, 2]
BASE_MODES = ["reflect", "mirror", "nearest", "wrap", "constant"]
ALL_MODES = BASE_MODES + ["grid-mirror", "grid-wrap", "grid-constant"]
CVAL = 0.75  # a non-zero cval, so that 'constant' really uses it


def fir_taps(plan):
    """The kernel of a FIRPlan."""
    assert kind(plan) == "fir"
    return np.asarray(plan.kernel, dtype=np.float64)


def path_error(sigma, order, **kw):
    """Kernel error (relative RMSE vs the exact kernel) of the plan ndimage runs (CPU engine)."""
    plan = numba_gaussian_plan(sigma, order, **kw)
    if kind(plan) == "wide":
        return 1e-12       # the exact limit of a kernel far wider than the line: rounding only
    if kind(plan) == "fir":
        # computed here, independently of sftwave.plans
        return kernel_rel_error(fir_taps(plan), sigma, order)
    return plan.error


def cs_bound(x, sigma, order, mode, cval, kernel_err):
    """Per-sample bound on |y - y_exact| from the kernel error (Cauchy-Schwarz).

    y - y_exact = sum_k (h - g)[k] x_ext[n - k], so
    |y - y_exact|[n] <= ||h - g||_2 * ||x_ext[n-R .. n+R]||_2 with
    ||h - g||_2 = kernel_err * ||g||_2 and R covering both supports.  Exact
    (the boundary extension adds no error); ignores rounding.
    """
    R = exact_support(sigma)
    g_norm = np.sqrt(np.sum(exact_kernel(sigma, order, np.arange(-R, R + 1)) ** 2))
    xe = extend(np.asarray(x, float), R, R, mode, cval)
    local = np.sqrt(np.convolve(xe**2, np.ones(2 * R + 1), mode="valid"))
    return kernel_err * g_norm * local


# --------------------------------------------------------------------------- bank paths vs exact


@pytest.mark.parametrize("mode", ALL_MODES)
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("transform", TRANSFORMS)
@pytest.mark.parametrize("method", METHODS)
def test_bank_methods_vs_exact(method, transform, order, mode):
    """tol=1e-6, every method/transform/order/mode, white noise.

    For white noise the expected squared output error is exactly
    kernel_error^2 * ||g||^2 * var(x) (the extension is exact and mirrored
    borders at most double local correlations), so the output's relative RMSE
    is ~plan.error; 3x covers the sample fluctuation.  The per-sample
    Cauchy-Schwarz bound holds deterministically (plus rounding).
    """
    rng = np.random.default_rng(zlib.crc32(f"{method}/{transform}/{order}/{mode}".encode()))
    tol = 1e-6
    for sigma, n in [(5.0, 701), (37.5, 1503)]:
        x = rng.standard_normal(n)
        plan = gaussian.gaussian_plan(sigma, order, tol, transform)
        y = gaussian_filter1d(x, sigma, order=order, mode=mode, cval=CVAL, method="bank",
                              bank_method=method, transform=transform, tol=tol)
        assert y.dtype == np.float64 and y.shape == x.shape
        ref = exact_gaussian_filter1d(x, sigma, order, mode, CVAL)
        assert rel_rmse(y, ref) <= 3 * plan.error
        bound = cs_bound(x, sigma, order, mode, CVAL, plan.error)
        assert np.all(np.abs(y - ref) <= bound * (1 + 1e-6) + 1e-13)
        # scipy with a 12-sigma kernel is the exact filter to ~1e-31: same accuracy
        sp = ndi.gaussian_filter1d(x, sigma, order=order, mode=mode, cval=CVAL, truncate=12.0)
        assert rel_rmse(y, sp) <= 3 * plan.error


_OFFSET_REF = {}


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("transform", TRANSFORMS)
@pytest.mark.parametrize("method", METHODS)
def test_bank_methods_large_offset_large_sigma(method, transform, order):
    """sigma = 1000 on white noise riding on an offset of 1000 (a sensor reading, say).

    The offset passes the fitted kernel exactly (its moments are
    constrained), so the only admissible extra error is rounding: the
    summation bound 2 L eps (L = the window, or the integral methods' block)
    times the size the offset can give an output, 1000 * ||g||_1.  The
    kernel's own error applies to the noise part only (3x, as above).
    """
    sigma, offset, tol = 1000.0, 1000.0, 1e-6
    plan = gaussian.gaussian_plan(sigma, order, tol, transform)
    n = 2 * plan.length + 501
    key = (order, n)
    if key not in _OFFSET_REF:
        noise = np.random.default_rng(order).standard_normal(n)
        _OFFSET_REF[key] = noise, exact_gaussian_filter1d(noise, sigma, order)
    noise, ref_noise = _OFFSET_REF[key]
    x = noise + offset
    y = gaussian_filter1d(x, sigma, order=order, method="bank", bank_method=method,
                          transform=transform, tol=tol)
    # exact: sum g = 1 (order 0) or 0 (orders 1, 2) to ~exp(-2 pi^2 sigma^2)
    ref = ref_noise + (offset if order == 0 else 0.0)
    L = max(plan.length, 4096) if method in ("integral", "window") else plan.length
    R = exact_support(sigma)
    g1 = np.abs(exact_kernel(sigma, order, np.arange(-R, R + 1))).sum()
    rounding = max(1e-12, 2 * L * np.finfo(float).eps) * offset * g1
    err = np.sqrt(np.mean((y - ref) ** 2))
    allowed = 3 * plan.error * np.sqrt(np.mean(ref_noise**2)) + rounding
    assert err <= allowed, f"rms error {err:.3g} > {allowed:.3g} (relative {err / np.sqrt(np.mean(ref_noise**2)):.3g})"


@pytest.mark.parametrize("mode", ALL_MODES)
@pytest.mark.parametrize("method", METHODS)
def test_short_signals_all_modes(method, mode):
    """n = 1, 2, 3, 7 with sigma 5 and 40: the extension wraps/reflects many times.

    Relative RMSE is meaningless for n = 1 (one output sees only part of the
    kernel), so the deterministic per-sample bound is used.
    """
    rng = np.random.default_rng(len(method) * 31 + len(mode))
    for sigma in (5.0, 40.0):
        for n in (1, 2, 3, 7):
            x = rng.standard_normal(n) + 0.5
            for order in ORDERS:
                for transform in TRANSFORMS:
                    plan = gaussian.gaussian_plan(sigma, order, 1e-6, transform)
                    y = gaussian_filter1d(x, sigma, order=order, mode=mode, cval=CVAL,
                                          method="bank", bank_method=method,
                                          transform=transform, tol=1e-6)
                    ref = exact_gaussian_filter1d(x, sigma, order, mode, CVAL)
                    bound = cs_bound(x, sigma, order, mode, CVAL, plan.error)
                    assert y.shape == (n,)
                    assert np.all(np.abs(y - ref) <= bound * (1 + 1e-6) + 1e-13), (sigma, n, order)


@pytest.mark.parametrize("mode", ALL_MODES)
def test_short_signals_default_path(mode):
    """Default arguments on short signals: within the chosen path's kernel error."""
    rng = np.random.default_rng(99)
    for sigma in (5.0, 40.0):
        for n in (1, 2, 3, 7):
            x = rng.standard_normal(n)
            for order in ORDERS:
                y = gaussian_filter1d(x, sigma, order=order, mode=mode, cval=CVAL)
                ref = exact_gaussian_filter1d(x, sigma, order, mode, CVAL)
                bound = cs_bound(x, sigma, order, mode, CVAL, path_error(sigma, order))
                assert np.all(np.abs(y - ref) <= bound * (1 + 1e-6) + 1e-13), (sigma, n, order)


# --------------------------------------------------------------------------- default accuracy vs scipy


def _inputs(n, sigma, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(n)
    ecg = pywt_ecg()
    return {
        "white": rng.standard_normal(n),
        "walk": np.cumsum(rng.standard_normal(n)),
        # smooth: a period of 8 sigma passes the Gaussian at e^(-pi^2/32) = 73%
        "sine": np.sin(2 * np.pi * t / (8 * sigma) + 0.3) + 0.1 * rng.standard_normal(n),
        "step": (t >= n // 3).astype(float),
        "offset": rng.standard_normal(n) + 5.0,
        "ecg": np.resize(ecg, n),
    }


def pywt_ecg():
    import pywt

    return pywt.data.ecg().astype(np.float64)


DEFAULT_SIGMAS = [1.5, 2.5, 4.0, 8.0, 32.0, 128.0, 1000.0, 3000.0]


def _default_cases():
    cases = []
    for sigma in DEFAULT_SIGMAS:
        if sigma >= 3000:
            modes = ["reflect", "constant"]  # each reference costs 2.3e9 multiply-adds
        elif sigma >= 1000:
            modes = BASE_MODES
        else:
            modes = ALL_MODES
        for order in ORDERS:
            for mode in modes:
                cases.append((sigma, order, mode))
    return cases


def _worse_than_scipy(inputs, sigma, order, mode):
    """The inputs on which sftwave's default is less accurate than scipy's default.

    Both against the exact reference; equality is allowed with a relative slack
    of 1e-9 (where both take scipy's own FIR they agree to the last bit).
    """
    worse = []
    for name, x in inputs.items():
        ref = exact_gaussian_filter1d(x, sigma, order, mode, CVAL)
        e_sft = rel_rmse(gaussian_filter1d(x, sigma, order=order, mode=mode, cval=CVAL), ref)
        e_scipy = rel_rmse(ndi.gaussian_filter1d(x, sigma, order=order, mode=mode, cval=CVAL), ref)
        if not e_sft <= e_scipy * (1 + 1e-9):
            worse.append(f"{name}: sftwave {e_sft:.3e} > scipy {e_scipy:.3e}")
    return worse


@pytest.mark.parametrize("sigma,order,mode", _default_cases())
def test_default_accuracy_no_worse_than_scipy(sigma, order, mode):
    """Without tol, sftwave is at least as accurate as scipy's default (truncate=4).

    Both measured against the exact reference on the same input; equality is
    allowed with a relative slack of 1e-9 (the FIR path at small sigma is
    scipy's own FIR, identical to the last bit).  The signal holds +-5 sigma
    (n = 10 sigma, at least 400 samples) so that the interior is exercised.
    """
    n = max(400, int(10 * sigma))
    inputs = _inputs(n, sigma, seed=int(sigma * 10) + order)
    if sigma >= 3000:
        inputs = {k: inputs[k] for k in ("white", "walk", "sine")}
    worse = _worse_than_scipy(inputs, sigma, order, mode)
    path = kind(numba_gaussian_plan(sigma, order))
    assert not worse, f"sigma={sigma}, order={order}, mode={mode}, path={path}: " + "; ".join(worse)


@pytest.mark.parametrize("mode", BASE_MODES)
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("sigma,n", [(500.0, 50), (500.0, 2000), (3000.0, 50), (3000.0, 2000)])
def test_short_signals_default_no_worse_than_scipy(sigma, n, order, mode):
    """Signals shorter than the kernel: without tol, at least as accurate as scipy.

    Such a signal sees mostly the middle of the kernel, where the fit's
    pointwise error decides; sftwave tightens its target there
    (SHORT_SIGNAL_TIGHTENING).  Same comparison and slack as above.
    """
    rng = np.random.default_rng(int(sigma) + n + order)
    inputs = {
        "white": rng.standard_normal(n),
        "walk": np.cumsum(rng.standard_normal(n)),
        "offset": rng.standard_normal(n) + 5.0,
        "ecg": np.resize(pywt_ecg(), n),
    }
    worse = _worse_than_scipy(inputs, sigma, order, mode)
    assert not worse, "; ".join(worse)


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("sigma", [3.0, 10.0, 100.0, 1000.0])
def test_tol_1e7_float64(sigma, order):
    """tol=1e-7 (default method, so the FIR wherever it is cheaper) gives <= 3e-7 on white noise."""
    n = max(2000, int(10 * sigma))
    x = np.random.default_rng(int(sigma) + order).standard_normal(n)
    for mode in ("reflect", "wrap", "constant"):
        y = gaussian_filter1d(x, sigma, order=order, mode=mode, tol=1e-7)
        ref = exact_gaussian_filter1d(x, sigma, order, mode)
        assert rel_rmse(y, ref) <= 3e-7


# --------------------------------------------------------------------------- FIR path


@pytest.mark.parametrize("order", [0, 1])
@pytest.mark.parametrize("sigma", [0.3, 0.5, 1.0, 1.5, 2.0])
def test_small_sigma_is_scipy_bit_for_bit(sigma, order):
    """Orders 0 and 1 without tol: scipy's own FIR, identical to the last bit."""
    assert kind(numba_gaussian_plan(sigma, order)) == "fir"
    rng = np.random.default_rng(4)
    x = rng.standard_normal((3, 257))
    for mode in ALL_MODES:
        for kw in ({}, {"truncate": 2.5}, {"truncate": 7.0}, {"truncate": 12.0}, {"radius": 3}, {"radius": 0}):
            got = gaussian_filter1d(x, sigma, order=order, mode=mode, cval=CVAL, **kw)
            ref = ndi.gaussian_filter1d(x, sigma, order=order, mode=mode, cval=CVAL, **kw)
            assert np.array_equal(got, ref), (mode, kw)
        got = gaussian_filter1d(x, sigma, axis=0, order=order, mode=mode)
        assert np.array_equal(got, ndi.gaussian_filter1d(x, sigma, axis=0, order=order, mode=mode))


def _no_worse_than_scipy_order2(x, sigma, method="auto", **kw):
    """Order 2 on the FIR path: the exact kernel's DC response, and no less accurate than scipy's.

    scipy's truncated second-derivative kernel does not sum to the exact
    kernel's sum (zero up to the aliasing term ~exp(-2 pi^2 sigma^2)), so it
    leaks the signal's mean; sftwave's corrected kernel does not.
    """
    R = exact_support(sigma)
    dc_exact = float(np.sum(exact_kernel(sigma, 2, np.arange(-R, R + 1))))
    ones = gaussian_filter1d(np.ones(64), sigma, order=2, mode="nearest", method=method, **kw)
    assert np.max(np.abs(ones - dc_exact)) <= 1e-14 / sigma**2 + 1e-6 * abs(dc_exact)
    for signal in (x, np.cumsum(x)):
        ref = exact_gaussian_filter1d(signal, sigma, 2)
        e_sft = rel_rmse(gaussian_filter1d(signal, sigma, order=2, method=method, **kw), ref)
        e_scipy = rel_rmse(ndi.gaussian_filter1d(signal, sigma, order=2, **kw), ref)
        assert e_sft <= e_scipy * (1 + 1e-9), (e_sft, e_scipy, kw)


# (not below 1.5: there the exact sampled kernel depends on its normalisation,
# sqrt(gamma/pi) or sum one, by ~exp(-2 pi^2 sigma^2), 5e-9 at sigma = 1)
@pytest.mark.parametrize("sigma", [1.5, 2.0])
def test_small_sigma_second_derivative(sigma):
    assert kind(numba_gaussian_plan(sigma, 2)) == "fir"
    x = np.random.default_rng(5).standard_normal(2000)
    for kw in ({}, {"truncate": 2.5}, {"truncate": 7.0}):
        _no_worse_than_scipy_order2(x, sigma, **kw)
    # an explicit radius is the user's support: scipy's kernel, scipy's result
    assert np.array_equal(gaussian_filter1d(x, sigma, order=2, radius=3),
                          ndi.gaussian_filter1d(x, sigma, order=2, radius=3))


@pytest.mark.parametrize("order", ORDERS)
def test_method_fir_forced_at_large_sigma(order):
    rng = np.random.default_rng(8)
    x = rng.standard_normal(3001)
    for sigma in (20.0, 150.0):
        for kw in ({}, {"truncate": 6.0}, {"radius": 100}):
            if order < 2 or "radius" in kw:   # an explicit radius is scipy's kernel, any order
                got = gaussian_filter1d(x, sigma, order=order, method="fir", **kw)
                assert np.array_equal(got, ndi.gaussian_filter1d(x, sigma, order=order, **kw))
            else:
                _no_worse_than_scipy_order2(x, sigma, method="fir", **kw)
        # with tol, 'fir' takes a truncated kernel meeting tol
        got = gaussian_filter1d(x, sigma, order=order, method="fir", tol=1e-8)
        assert rel_rmse(got, exact_gaussian_filter1d(x, sigma, order)) <= 3e-8


@pytest.mark.parametrize("order", ORDERS)
def test_truncate_beyond_the_sft_floor(order):
    """truncate=12 asks for ~1e-30, beyond any SFT plan.

    'auto' keeps the cost independent of sigma: the bank at the SFT's floor (a
    kernel error of at most 1e-9, measured here against the exact filter on white
    noise, with the factor 3 of test_tol_1e7_float64) where scipy's FIR would cost
    more than twice as much; the FIR, scipy's own bits, where it costs less, and
    whenever method='fir' asks for it.
    """
    x = np.random.default_rng(1).standard_normal(3000)
    assert kind(numba_gaussian_plan(50.0, order, truncate=12.0)) == "bank"
    got = gaussian_filter1d(x, 50.0, order=order, truncate=12.0)
    assert rel_rmse(got, exact_gaussian_filter1d(x, 50.0, order)) <= 3e-9
    fir = gaussian_filter1d(x, 50.0, order=order, truncate=12.0, method="fir")
    if order < 2:
        assert np.array_equal(fir, ndi.gaussian_filter1d(x, 50.0, order=order, truncate=12.0))
    assert kind(numba_gaussian_plan(1.0, order, truncate=12.0)) == "fir"
    with pytest.raises(ValueError, match="tol"):
        gaussian_filter1d(x, 50.0, truncate=12.0, method="bank")
    with pytest.raises(ValueError, match="tol"):
        gaussian_filter1d(x, 50.0, truncate=12.0, method="bank", bank_method="iir1")


def test_large_sigma_default_uses_bank():
    for order in ORDERS:
        plan = numba_gaussian_plan(64.0, order)
        assert kind(plan) == "bank" and bank.resolve_method("auto") in bank.METHODS
        assert plan.error <= 0.5 * gaussian.scipy_kernel_error(64.0, order, 256) * (1 + 1e-12)


# --------------------------------------------------------------------------- multi-dimensional


@pytest.mark.parametrize("method,bank_method", [("auto", "auto"), ("bank", "iir1"),
                                                ("bank", "integral")])
@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2, -3])
def test_axis_equals_along_axis(axis, method, bank_method):
    rng = np.random.default_rng(2)
    a = rng.standard_normal((23, 31, 37))
    for sigma, order in [(6.0, 0), (6.0, 1), (9.0, 2)]:
        kw = dict(order=order, mode="mirror", method=method, bank_method=bank_method)
        got = gaussian_filter1d(a, sigma, axis=axis, **kw)
        ref = np.apply_along_axis(lambda v: gaussian_filter1d(v, sigma, **kw), axis, a)  # noqa: B023
        # the same plan on the same lines: identical up to the order of rounding
        np.testing.assert_allclose(got, ref, rtol=0, atol=1e-13 * np.abs(ref).max())
        ex = exact_gaussian_filter1d(a, sigma, order, "mirror", axis=axis)
        assert rel_rmse(got, ex) <= 3 * path_error(sigma, order, n=a.shape[axis], method=method)


def test_gaussian_filter_per_axis_sequences():
    rng = np.random.default_rng(6)
    a = rng.standard_normal((40, 30, 50))
    sig, orders, modes = (6.0, 8.0, 5.0), (0, 1, 2), ("wrap", "constant", "nearest")
    got = gaussian_filter(a, sig, order=orders, mode=modes, cval=CVAL)
    seq = a
    for ax in range(3):
        seq = gaussian_filter1d(seq, sig[ax], axis=ax, order=orders[ax], mode=modes[ax], cval=CVAL)
    np.testing.assert_allclose(got, seq, rtol=0, atol=1e-13 * np.abs(seq).max())
    ex = a
    for ax in range(3):
        ex = exact_gaussian_filter1d(ex, sig[ax], orders[ax], modes[ax], CVAL, axis=ax)
    # separable kernel error: ||h1h2h3 - g1g2g3|| <= prod(1 + e_i) - 1 relative
    errs = [path_error(s, o) for s, o in zip(sig, orders)]
    kernel_err = np.prod([1 + e for e in errs]) - 1
    assert rel_rmse(got, ex) <= 3 * kernel_err
    sp = ndi.gaussian_filter(a, sig, order=orders, mode=modes, cval=CVAL, truncate=12.0)
    assert rel_rmse(got, sp) <= 3 * kernel_err


def test_gaussian_filter_scalar_args_match_scipy_truncate12():
    rng = np.random.default_rng(7)
    a = rng.standard_normal((64, 80))
    for sigma in (3.0, 12.0):
        for order in ORDERS:
            got = gaussian_filter(a, sigma, order=order, mode="reflect")
            sp = ndi.gaussian_filter(a, sigma, order=order, mode="reflect", truncate=12.0)
            e = path_error(sigma, order)
            assert rel_rmse(got, sp) <= 3 * ((1 + e) ** 2 - 1)


def test_gaussian_filter_axes():
    rng = np.random.default_rng(9)
    a = rng.standard_normal((20, 25, 30))
    got = gaussian_filter(a, (5.0, 7.0), order=(1, 0), axes=(2, 0))
    ref = gaussian_filter1d(gaussian_filter1d(a, 5.0, axis=2, order=1), 7.0, axis=0)
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-13 * np.abs(ref).max())
    assert np.array_equal(gaussian_filter(a, 5.0, axes=(-1,)), gaussian_filter1d(a, 5.0, axis=-1))
    assert np.array_equal(gaussian_filter(a, 5.0, axes=1), gaussian_filter1d(a, 5.0, axis=1))
    # an empty tuple of axes filters nothing: a copy
    b = gaussian_filter(a, 5.0, axes=())
    assert np.array_equal(b, a) and b is not a
    # scipy's axes argument means the same thing (scipy < 1.11 has none: a zero sigma skips an axis)
    try:
        sp = ndi.gaussian_filter(a, (5.0, 7.0), order=(1, 0), axes=(2, 0), truncate=12.0)
    except TypeError:
        sp = ndi.gaussian_filter(a, (7.0, 0.0, 5.0), order=(0, 0, 1), truncate=12.0)
    e = (1 + path_error(5.0, 1)) * (1 + path_error(7.0, 0)) - 1
    assert rel_rmse(got, sp) <= 3 * e


def test_gaussian_filter_sigma_zero_skips_axis():
    rng = np.random.default_rng(10)
    a = rng.standard_normal((30, 40))
    got = gaussian_filter(a, (0, 6.0))
    assert np.array_equal(got, gaussian_filter1d(a, 6.0, axis=1))
    assert np.array_equal(gaussian_filter(a, 0), a)  # scipy also returns the input for sigma 0
    assert np.array_equal(ndi.gaussian_filter(a, 0), a)
    # a derivative along a zero-sigma axis: that axis is not filtered, as scipy does
    assert np.array_equal(gaussian_filter(a, (0, 6.0), order=(1, 0)), got)
    assert np.array_equal(gaussian_filter(a, (6.0, 0.0), order=(0, 2)),
                          gaussian_filter1d(a, 6.0, axis=0))


# --------------------------------------------------------------------------- output rules


@pytest.mark.parametrize("sigma", [1.0, 20.0])  # FIR and bank paths
def test_integer_input_keeps_dtype(sigma):
    rng = np.random.default_rng(3)
    x = (rng.standard_normal(500) * 3000).astype(np.int16)
    for order in ORDERS:
        y = gaussian_filter1d(x, sigma, order=order)
        assert y.dtype == np.int16
        ref = ndi.gaussian_filter1d(x, sigma, order=order)
        # both truncate the float result to int16; a float difference across
        # an integer changes it by one unit
        assert np.max(np.abs(y.astype(int) - ref.astype(int))) <= 1
    x8 = rng.integers(0, 256, (20, 30)).astype(np.uint8)
    y8 = gaussian_filter(x8, sigma)
    assert y8.dtype == np.uint8
    assert np.max(np.abs(y8.astype(int) - ndi.gaussian_filter(x8, sigma).astype(int))) <= 1


@pytest.mark.parametrize("sigma", [1.0, 20.0])
def test_output_dtype_argument(sigma):
    x = np.random.default_rng(4).standard_normal(400)
    y64 = gaussian_filter1d(x, sigma)
    y32 = gaussian_filter1d(x, sigma, output=np.float32)
    assert y32.dtype == np.float32
    np.testing.assert_allclose(y32, y64, rtol=0, atol=1e-6 * np.abs(y64).max())
    assert gaussian_filter1d(x, sigma, output="float64").dtype == np.float64
    assert np.array_equal(gaussian_filter1d(x, sigma, output="float64"), y64)
    assert gaussian_filter1d(x.astype(np.float32), sigma, output=np.dtype("float64")).dtype == np.float64
    assert gaussian_filter(x, sigma, output=np.float32).dtype == np.float32


@pytest.mark.parametrize("sigma", [1.0, 20.0])
@pytest.mark.parametrize("axis", [0, 1])
def test_output_array_in_place(sigma, axis):
    a = np.random.default_rng(5).standard_normal((60, 70))
    expect = gaussian_filter1d(a, sigma, axis=axis)
    for dtype in (np.float64, np.float32):
        out = np.full(a.shape, np.nan, dtype=dtype)
        res = gaussian_filter1d(a, sigma, axis=axis, output=out)
        assert res is out
        np.testing.assert_allclose(out, expect, rtol=0, atol=1e-6 * np.abs(expect).max())
    out = np.zeros(a.shape)
    assert gaussian_filter(a, sigma, output=out) is out
    np.testing.assert_allclose(out, gaussian_filter(a, sigma), rtol=0, atol=1e-14)
    # a non-contiguous output view is written through
    big = np.zeros((60, 140))
    view = big[:, ::2]
    assert gaussian_filter1d(a, sigma, axis=axis, output=view) is view
    np.testing.assert_allclose(big[:, ::2], expect, rtol=0, atol=1e-14)
    assert not big[:, 1::2].any()


@pytest.mark.parametrize("sigma", [1.0, 20.0])
@pytest.mark.parametrize("axis", [0, 1, 2])
@pytest.mark.parametrize("mode", ["reflect", "nearest", "wrap"])
def test_output_is_input(sigma, axis, mode):
    """output=input (scipy allows it): the kernels read samples on both sides of the one
    they write and the boundary modes read back from the ends, so writing in place must
    give exactly what a fresh output gets."""
    a = np.random.default_rng(7).standard_normal((40, 50, 30))
    for dtype in (np.float64, np.float32):
        x = a.astype(dtype)
        expect = gaussian_filter1d(x, sigma, axis=axis, mode=mode)
        assert gaussian_filter1d(x, sigma, axis=axis, mode=mode, output=x) is x
        np.testing.assert_array_equal(x, expect)


@pytest.mark.parametrize("sigma", [1.0, 20.0])
def test_complex_input(sigma):
    rng = np.random.default_rng(6)
    z = rng.standard_normal(300) + 1j * rng.standard_normal(300)
    for order in ORDERS:
        y = gaussian_filter1d(z, sigma, order=order, mode="wrap")
        assert y.dtype == np.complex128
        re = gaussian_filter1d(z.real, sigma, order=order, mode="wrap")
        im = gaussian_filter1d(z.imag, sigma, order=order, mode="wrap")
        assert np.array_equal(y.real, re) and np.array_equal(y.imag, im)
    y64 = gaussian_filter1d(z.astype(np.complex64), sigma)
    assert y64.dtype == np.complex64
    np.testing.assert_allclose(y64, gaussian_filter1d(z, sigma), rtol=0, atol=1e-5)
    out = np.zeros(300, np.complex128)
    assert gaussian_filter1d(z, sigma, output=out) is out
    assert np.array_equal(out, gaussian_filter1d(z, sigma))
    g = gaussian_filter(np.outer(z, z[:20]), sigma)
    assert g.dtype == np.complex128


@pytest.mark.parametrize("sigma", [1.0, 20.0])
def test_float16_and_float32_keep_dtype(sigma):
    x = np.random.default_rng(7).standard_normal(500)
    y = gaussian_filter1d(x, sigma)
    for dt, atol in ((np.float16, 4e-3), (np.float32, 1e-6)):
        # float16 output rounding is 2^-11 relative; float32 ~6e-8 relative
        yd = gaussian_filter1d(x.astype(dt), sigma)
        assert yd.dtype == dt
        np.testing.assert_allclose(yd.astype(float), y, rtol=0, atol=atol * np.abs(y).max())
        assert gaussian_filter(x.astype(dt), sigma).dtype == dt


@pytest.mark.parametrize("shape,axis", [((0,), 0), ((3, 0), -1), ((0, 5), 1), ((0, 5), 0), ((2, 0, 4), 2)])
def test_empty_input(shape, axis):
    for dt in (np.float64, np.float32, np.int32, np.complex128):
        x = np.zeros(shape, dt)
        y = gaussian_filter1d(x, 20.0, axis=axis)
        assert y.shape == shape and y.dtype == dt
        y = gaussian_filter(x, 3.0)
        assert y.shape == shape and y.dtype == dt
    y = gaussian_filter1d(np.zeros(shape), 20.0, axis=axis, output=np.float32)
    assert y.shape == shape and y.dtype == np.float32


def test_list_and_scalar_like_input():
    y = gaussian_filter1d([1.0, 2.0, 3.0, 4.0], 1.0)
    assert np.array_equal(y, ndi.gaussian_filter1d(np.array([1.0, 2.0, 3.0, 4.0]), 1.0))
    y = gaussian_filter1d([1, 2, 3, 4], 10.0)
    assert y.dtype == np.asarray([1, 2, 3, 4]).dtype


@pytest.mark.parametrize("mode", BASE_MODES)
@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("rows", [1, 3])
def test_long_lines_on_the_lane_engine(rows, order, mode):
    """Few long lines are cut into pieces run side by side on the lane engine (each piece warms
    up over its own window): every output within the Cauchy-Schwarz bound of the plan's kernel
    error against the exact filter, float32 and float64, fresh and in place; the pieces' seams
    are not visible (the bound holds at every sample).  The path is checked to be taken."""
    import sftwave
    from sftwave.engines.numba import filters

    sigma = 12.0
    plan = numba_gaussian_plan(sigma, order)
    n = 40 * filters._LANE_WINDOWS * plan.length + 123   # 40 pieces of at least 16 windows
    rng = np.random.default_rng(rows * 10 + order)
    x = np.cumsum(rng.standard_normal((rows, n)), axis=1) + 50.0   # a walk far from zero
    with sftwave.set_workers(2):
        assert filters._lanes_pay(x.reshape(rows, n), plan)
        for dtype, slack in ((np.float64, 1e-9), (np.float32, 1e-5)):
            xd = x.astype(dtype)
            got = gaussian_filter1d(xd, sigma, order=order, mode=mode, cval=CVAL)
            assert got.dtype == dtype
            inplace = xd.copy()
            assert gaussian_filter1d(inplace, sigma, order=order, mode=mode, cval=CVAL,
                                     output=inplace) is inplace
            np.testing.assert_array_equal(inplace, got)
            for r in range(rows):
                xr = xd[r].astype(np.float64)
                ref = exact_gaussian_filter1d(xr, sigma, order=order, mode=mode, cval=CVAL)
                bound = cs_bound(xr, sigma, order, mode, CVAL, plan.error)
                scale = np.max(np.abs(xr)) * slack
                err = np.abs(got[r] - ref)
                assert np.all(err <= bound * 1.01 + scale), (dtype, r, float(np.max(err / bound)))


@pytest.mark.parametrize("sigma", [0.7, 2.0, 9.0])
def test_bool_input_and_output_as_scipy(sigma):
    """bool input is 0/1 (scipy accepts it); a bool output is C's conversion, as scipy's: True
    where the value truncated toward zero is non-zero (0.94 is False, 1.0 and -2.4 True).
    Against scipy: equal wherever the value is not an integer up to rounding (there the two
    libraries' last bits decide which side of it they fall)."""
    rng = np.random.default_rng(int(sigma * 10))
    mask = rng.random((40, 50)) > 0.4
    as_float = gaussian_filter(mask, sigma, output=np.float64)
    np.testing.assert_array_equal(as_float, gaussian_filter(mask.astype(np.uint8), sigma,
                                                            output=np.float64))
    got = gaussian_filter1d(mask, sigma, axis=1)
    assert got.dtype == np.bool_
    f1 = gaussian_filter1d(mask, sigma, axis=1, output=np.float64)
    np.testing.assert_array_equal(got, np.trunc(f1) != 0)
    ref = ndi.gaussian_filter1d(mask, sigma, axis=1)
    ref_f = ndi.gaussian_filter1d(mask, sigma, axis=1, output=np.float64)
    clear = np.abs(ref_f - np.round(ref_f)) > 1e-9
    np.testing.assert_array_equal(got[clear], ref[clear])
    # a bool output of float input: scaled so that values cross 1 and -1
    x = 10.0 * sigma * rng.standard_normal((40, 50))
    out = np.zeros(x.shape, bool)
    assert gaussian_filter(x, sigma, output=out) is out
    f = gaussian_filter(x, sigma, output=np.float64)
    np.testing.assert_array_equal(out, np.trunc(f) != 0)
    assert out.any() and not out.all()


@pytest.mark.parametrize("order", [3, 4, 6])
@pytest.mark.parametrize("sigma", [0.8, 2.5, 11.0])
def test_high_orders_are_scipys_kernel(order, sigma):
    """Orders above 2 run scipy's own truncated kernel: scipy's result bit for bit, in 1-D, along
    any axis, every mode, with truncate and radius, and on every axis of gaussian_filter."""
    rng = np.random.default_rng(order * 100 + int(sigma * 10))
    x = np.cumsum(rng.standard_normal((6, 257)), axis=1)
    for mode in BASE_MODES:
        np.testing.assert_array_equal(
            gaussian_filter1d(x, sigma, order=order, mode=mode, cval=CVAL),
            ndi.gaussian_filter1d(x, sigma, order=order, mode=mode, cval=CVAL))
    np.testing.assert_array_equal(gaussian_filter1d(x, sigma, axis=0, order=order, truncate=3.0),
                                  ndi.gaussian_filter1d(x, sigma, axis=0, order=order, truncate=3.0))
    np.testing.assert_array_equal(gaussian_filter1d(x, sigma, order=order, radius=5),
                                  ndi.gaussian_filter1d(x, sigma, order=order, radius=5))
    np.testing.assert_array_equal(gaussian_filter(x, sigma, order=order),
                                  ndi.gaussian_filter(x, sigma, order=order))


def test_orders_gauss_as_scipys_test():
    """scipy's test_orders_gauss, with sftwave's functions."""
    arr = np.zeros((1,))
    np.testing.assert_array_equal(gaussian_filter(arr, 1, order=0), [0.0])
    np.testing.assert_array_equal(gaussian_filter(arr, 1, order=3), [0.0])
    with pytest.raises(ValueError):
        gaussian_filter(arr, 1, -1)
    np.testing.assert_array_equal(gaussian_filter1d(arr, 1, axis=-1, order=0), [0.0])
    np.testing.assert_array_equal(gaussian_filter1d(arr, 1, axis=-1, order=3), [0.0])
    with pytest.raises(ValueError):
        gaussian_filter1d(arr, 1, -1, -1)


def test_high_orders_refuse_tol_and_bank():
    """tol= and method='bank' are the SFT's: for order 3 they are a clear error, not ignored."""
    x = np.arange(50.0)
    with pytest.raises(ValueError, match="order=3.*tol"):
        gaussian_filter1d(x, 4.0, order=3, tol=1e-6)
    with pytest.raises(ValueError, match="order=3.*method='bank'"):
        gaussian_filter1d(x, 4.0, order=3, method="bank")


def test_integer_outputs_saturate_beyond_their_range():
    """Values beyond an integer output's range saturate at its ends (C's conversion, scipy's, is
    undefined there: it wraps on x86): a 4th derivative at a tiny sigma reaches 3e12."""
    x = np.array([1, 0, -1, 2], dtype=np.int8)
    got = gaussian_filter1d(x, 0.001, order=4)
    np.testing.assert_array_equal(got, [127, 0, -128, 127])
    assert gaussian_filter1d(np.array([3, 0], np.uint8), 0.001, order=4).tolist() == [255, 0]
    big = gaussian_filter1d(np.array([1, -1], np.int64), 0.001, order=4, output=np.int64)
    assert big.tolist() == [3000000000000, -3000000000000]   # within int64: exact
    neg = gaussian_filter1d(np.array([-5.0, 5.0]), 0.001, order=4, output=np.uint16)
    assert neg.tolist() == [0, 65535]
