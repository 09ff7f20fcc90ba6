"""sftwave.wavelets (morlet_transform, cwt) against the exact transform, MNE, and its conventions.

The reference is tests/naive.py's ``exact_morlet_transform``: the wavelet
written from its formula, the signal extended with np.pad as scipy.ndimage
extends it, and a direct sum over the whole support.  Two kinds of bound are
used, both derived from the kernel error the design reports (``plan.error``,
checked independently in test_morlet.py; it is at least the kernel's relative
RMSE, and the wavelet has unit energy to 1e-11):

* per sample, always (Cauchy-Schwarz, deterministic):
  ``|y - y_exact|[n] <= ||h - psi||_2 * ||x_ext[n - R .. n + R]||_2`` with
  ``||h - psi||_2 <= plan.error``;
* the relative RMSE of a row, for white noise whose extension is white noise
  too (reflect, mirror, wrap): its expectation is the kernel's relative RMSE,
  and 3x covers the sample fluctuation over signals of at least 24 sigma.
"""

import math
import re
import zlib

import numpy as np
import pytest
from naive import exact_morlet, exact_morlet_transform, exact_support, extend, rel_rmse

from sftwave import wavelets
from sftwave.plans import DEFAULT_MORLET_TOL
from sftwave.plans.fit import TOL_FLOOR, plan_kernel
from sftwave.plans.morlet import fir_min_taps, fir_morlet, morlet_plan
from sftwave.plans.select import SHORT_SIGNAL_TIGHTENING
from sftwave.wavelets import (
    cwt,
    frequency_to_scale,
    morlet_transform,
    scale_to_frequency,
)

XIS = [1.0, 3.0, 6.0, 10.0, 20.0]
METHODS = ["direct", "multiply"]
TRANSFORMS = ["sft", "asft"]
BASE_MODES = ["reflect", "mirror", "nearest", "wrap", "constant"]
ALL_MODES = BASE_MODES + ["grid-mirror", "grid-wrap", "grid-constant"]
#: modes that extend white noise by white noise (reflections and repetitions of it)
WHITE_MODES = {"reflect", "mirror", "wrap", "grid-mirror", "grid-wrap"}
CVAL = 0.75  # a non-zero cval, so that 'constant' really uses it
#: radius covering any plan's window (K <= (3.5 + 0.3 P_D) sigma <= 10.7 sigma) and the wavelet
WINDOW = 11.0


def seed(*parts):
    return zlib.crc32("/".join(map(str, parts)).encode())


def local_norm(x, R, mode, cval):
    """``||x_ext[n - R .. n + R]||_2`` for every n (running sums, in float64)."""
    xe = extend(np.asarray(x), R, R, mode, cval)
    c = np.concatenate([[0.0], np.cumsum(np.abs(xe) ** 2)])
    return np.sqrt(np.maximum(c[2 * R + 1:] - c[: c.size - 2 * R - 1], 0.0))


def cs_bound(x, sigma, mode, cval, kernel_err, half_window=None):
    """Per-sample bound on |y - y_exact| from a kernel error (Cauchy-Schwarz, see the module doc).

    R covers the exact wavelet and the plan's window (by default any window).
    The factor 1 + 1e-9 and the additive term cover rounding: the sums run
    over at most 2R + 1 terms, of total size at most ||psi||_1 max|x_ext| <=
    sqrt(2R + 1) max|x_ext| (||psi||_2 = 1).
    """
    if half_window is None:
        half_window = int(WINDOW * sigma)
    R = int(half_window) + exact_support(sigma)
    local = local_norm(x, R, mode, cval)
    xmax = max(float(np.max(np.abs(x))) if np.size(x) else 0.0, abs(cval))
    return kernel_err * (1 + 1e-9) * local + 1e-12 * math.sqrt(2 * R + 1) * xmax


def assert_within(y, ref, bound, what=""):
    excess = np.abs(y - ref) - bound
    i = int(np.argmax(excess))
    assert excess[i] <= 0, (f"{what}: |y - ref| = {abs(y[i] - ref[i]):.3g} > bound {bound[i]:.3g} "
                            f"at n = {i} (|ref| = {abs(ref[i]):.3g})")


def plan_or_none(sigma, xi, tol, method, transform):
    try:
        return morlet_plan(sigma, xi, tol, method, transform)
    except ValueError:
        return None


# --------------------------------------------------------------------------- methods vs exact


def _method_cases():
    # from sigma 1.5 (xi = 3; xi = 1 from 2, xi = 6 and 10 from 3.5, xi = 20 from 12: a carrier
    # below Nyquist) to 400; sigma 5000 in test_large_scale_short_signal
    smallest = {1.0: 2.0, 3.0: 1.5, 6.0: 3.5, 10.0: 3.5, 20.0: 12.0}
    return [(xi, s) for xi in XIS for s in sorted({smallest[xi], 12.0, 60.0, 400.0})]


@pytest.mark.parametrize("xi,sigma", _method_cases())
def test_methods_vs_exact(xi, sigma):
    """Both methods, both transforms, every mode, the default tol and 1e-6, on white noise.

    Through morlet_transform (the scale) and cwt (the frequency of that
    scale).  Where a forced method has no plan (tiny sigma), both raise
    ValueError, and 'auto' (the truncated FIR there) meets tol instead.
    """
    n = int(max(2000, 24 * sigma))
    rng = np.random.default_rng(seed("methods", xi, sigma))
    x = rng.standard_normal(n)
    f = float(scale_to_frequency(sigma, 1.0, xi))
    same_scale = float(frequency_to_scale(f, 1.0, xi)) == sigma
    for mode in ALL_MODES:
        ref = exact_morlet_transform(x, sigma, xi, mode, CVAL)
        for tol in (DEFAULT_MORLET_TOL, 1e-6):
            kw = {"mode": mode, "cval": CVAL, "tol": tol}
            for method in METHODS:
                for transform in TRANSFORMS:
                    what = f"{method}/{transform}/{mode}/tol={tol:g}"
                    plan = plan_or_none(sigma, xi, tol, method, transform)
                    if plan is None:
                        assert sigma < 2, f"{what}: no plan at sigma={sigma}"
                        with pytest.raises(ValueError, match=re.escape(f"method={method!r}")):
                            morlet_transform(x, sigma, xi=xi, method=method, transform=transform, **kw)
                        with pytest.raises(ValueError, match="larger tol or method='fir'"):
                            cwt(x, [f], xi=xi, method=method, transform=transform, **kw)
                        continue
                    assert n >= plan.length  # no short-signal rule here
                    y = morlet_transform(x, sigma, xi=xi, method=method, transform=transform, **kw)
                    assert y.shape == x.shape and y.dtype == np.complex128
                    bound = cs_bound(x, sigma, mode, CVAL, plan.error, plan.lag)
                    assert_within(y, ref, bound, what)
                    if mode in WHITE_MODES:
                        assert rel_rmse(y, ref) <= 3 * plan.error, what
                    yc = cwt(x, [f], xi=xi, method=method, transform=transform, **kw)
                    assert yc.shape == (1, n) and yc.dtype == np.complex128
                    if same_scale:  # the same plan on the same line
                        np.testing.assert_array_equal(yc[0], y)
                    else:
                        assert_within(yc[0], ref, cs_bound(x, sigma, mode, CVAL, tol), what)
            # the default method, whatever path it takes, meets tol
            y = cwt(x, [f], xi=xi, **kw)[0]
            assert_within(y, ref, cs_bound(x, sigma, mode, CVAL, tol), f"auto/{mode}/tol={tol:g}")
            if mode in WHITE_MODES:
                assert rel_rmse(y, ref) <= 3 * tol


@pytest.mark.parametrize("mode", ALL_MODES)
def test_large_scale_short_signal(mode):
    """sigma = 5000 (a window of ~35000 samples) on 1200 samples, both methods and transforms.

    The exact reference costs n * 130000 multiply-adds, so the signal is
    shorter than the window: every output depends on the extension, which
    is repeated many times.  The per-sample bound uses the target each path
    meets (tol, tightened for short signals but never looser).
    """
    sigma, xi, n = 5000.0, 6.0, 1200
    rng = np.random.default_rng(seed("large", mode))
    x = rng.standard_normal(n) + 0.5
    ref = exact_morlet_transform(x, sigma, xi, mode, CVAL)
    bound = cs_bound(x, sigma, mode, CVAL, DEFAULT_MORLET_TOL)
    for method in METHODS + ["auto"]:
        for transform in TRANSFORMS:
            y = morlet_transform(x, sigma, xi=xi, method=method, transform=transform, mode=mode, cval=CVAL)
            assert_within(y, ref, bound, f"{method}/{transform}")


def _short_plan(sigma, xi, tol, method, transform, n):
    """The plan a signal of n samples gets: tol, or 16x tighter when shorter than the window."""
    plan = morlet_plan(sigma, xi, tol, method, transform)
    if n < plan.length:
        plan = morlet_plan(sigma, xi, max(TOL_FLOOR, tol / SHORT_SIGNAL_TIGHTENING), method, transform)
    return plan


@pytest.mark.parametrize("mode", ALL_MODES)
@pytest.mark.parametrize("sigma", [12.0, 400.0, 5000.0])
def test_short_signals(sigma, mode):
    """n = 1, 5, 50 (shorter than the window): the extension wraps/reflects many times.

    Relative RMSE means nothing here (one output sees a sliver of the
    wavelet; for reflect and wrap the exact output can be ~1e-15 when the
    periodised signal has nothing near the wavelet's band), so the
    per-sample bound is used.  Beyond it, the output must be exactly the
    plan's kernel applied to the extended signal (the signal is shorter
    than the window, so the documented 16x tighter target applies): this
    checks the extension itself to rounding.
    """
    xi = 6.0
    rng = np.random.default_rng(seed("short", sigma, mode))
    for n in (1, 5, 50):
        x = rng.standard_normal(n) + 0.5
        ref = exact_morlet_transform(x, sigma, xi, mode, CVAL)
        bound = cs_bound(x, sigma, mode, CVAL, DEFAULT_MORLET_TOL)
        for method in METHODS:
            for transform in TRANSFORMS:
                y = morlet_transform(x, sigma, xi=xi, method=method, transform=transform, mode=mode,
                                     cval=CVAL)
                assert y.shape == (n,)
                assert_within(y, ref, bound, f"n={n} {method}/{transform}")
                plan = _short_plan(sigma, xi, DEFAULT_MORLET_TOL, method, transform, n)
                k, h = plan_kernel(plan)
                R = plan.lag
                assert np.array_equal(k, np.arange(-R, R + 1))
                xe = extend(x, R, R, mode, CVAL)
                applied = np.convolve(xe, h, mode="valid")  # sum_k h[k] x[n - k]
                # rounding of the bank: ~1e-13 of ||h||_1 max|x_ext| (measured 1e-14 .. 1e-12)
                scale = np.sum(np.abs(h)) * np.max(np.abs(xe))
                np.testing.assert_allclose(y, applied, rtol=0, atol=1e-10 * scale)
        y = cwt(x, [float(scale_to_frequency(sigma, 1.0, xi))], xi=xi, mode=mode, cval=CVAL)[0]
        assert_within(y, ref, bound, f"n={n} cwt default")


# --------------------------------------------------------------------------- layout of the input


@pytest.mark.parametrize("shape,axis", [((4, 300), 0), ((4, 300), 1), ((300, 4), 0), ((4, 300), -1),
                                        ((2, 3, 257), 0), ((2, 257, 3), 1), ((2, 3, 257), 2),
                                        ((257, 2, 3), -3), ((2, 3, 257), -1)])
def test_channel_axes(shape, axis):
    """Any number of channel axes, time on ``axis``: the per-channel transform, rows in front."""
    rng = np.random.default_rng(seed("axes", shape, axis))
    x = rng.standard_normal(shape)
    freqs = [0.02, 0.1, 0.3]
    for method in ("auto", "direct", "multiply"):
        kw = {"mode": "mirror", "method": method}
        Y = cwt(x, freqs, axis=axis, **kw)
        moved = np.moveaxis(x, axis, -1)
        assert Y.shape == moved.shape[:-1] + (3, moved.shape[-1])
        for idx in np.ndindex(moved.shape[:-1]):
            ref = cwt(moved[idx], freqs, **kw)
            # the same plans on the same lines, identical up to rounding; one line alone may
            # run line by line ('iir1-2k', sftwave.engines.numba.scalogram.ENGINE_MIN_LANES)
            # where all of them run on the lane engine, so the rounding is that of the
            # recursions: a few eps times the input's size (the output of a 2-sample line can
            # be far smaller than its input)
            size = max(np.abs(ref).max(), np.abs(moved[idx]).max())
            np.testing.assert_allclose(Y[idx], ref, rtol=0, atol=1e-13 * size)
        sigma = float(frequency_to_scale(0.1))
        y = morlet_transform(x, sigma, axis=axis, mode="mirror", method=method)
        assert y.shape == x.shape
        np.testing.assert_allclose(np.moveaxis(y, axis, -1), Y[..., 1, :], rtol=0,
                                   atol=1e-13 * np.abs(Y).max())


@pytest.mark.parametrize("method", ["auto", "direct", "multiply", "fir"])
def test_float32(method):
    """float32 in: complex64 out.

    At the default tol (>= sftwave.engines.numba.scalogram.FLOAT32_STATE_MIN_TOL)
    the recursions run in float32 with the ASFT, which the docs bound at about
    5e-5 of extra relative error: each row is within 3 tol + 1e-4 of the exact
    transform.  At a tighter tol they run in float64 on the float32 values, so the result
    equals the float64 transform of the same values to the output's rounding
    (6e-8 relative; 1e-6 of the row's peak allows for the accumulation).
    """
    rng = np.random.default_rng(seed("f32", method))
    x32 = rng.standard_normal(3000).astype(np.float32)
    x64 = x32.astype(np.float64)
    freqs = [0.004, 0.03, 0.2, 0.45]
    kw = {"method": method} if method != "auto" else {}
    if method in ("direct", "multiply"):
        freqs = freqs[:3]  # 0.45 (sigma 2.1) is fine for the FIR, marginal for forced plans
    Y32 = cwt(x32, freqs, **kw)
    assert Y32.dtype == np.complex64
    for i, f in enumerate(freqs):
        sigma = float(frequency_to_scale(f))
        ref = exact_morlet_transform(x64, sigma, 6.0, "reflect")
        assert rel_rmse(Y32[i], ref) <= 3 * DEFAULT_MORLET_TOL + 1e-4
    Y32 = cwt(x32, freqs, tol=1e-5, **kw)
    Y64 = cwt(x64, freqs, tol=1e-5, **kw)
    assert Y32.dtype == np.complex64 and Y64.dtype == np.complex128
    for i in range(len(freqs)):
        assert np.max(np.abs(Y32[i] - Y64[i])) <= 1e-6 * np.abs(Y64[i]).max()
    y32 = morlet_transform(x32, 40.0, method=method, tol=1e-5)
    assert y32.dtype == np.complex64
    y64 = morlet_transform(x64, 40.0, method=method, tol=1e-5)
    assert np.max(np.abs(y32 - y64)) <= 1e-6 * np.abs(y64).max()
    # float16 is computed like float32
    assert cwt(x32.astype(np.float16), [0.1]).dtype == np.complex64
    # integers like float64
    assert cwt(np.arange(50), [0.1]).dtype == np.complex128


@pytest.mark.parametrize("mode", ALL_MODES)
def test_complex_input(mode):
    """Complex input: T(re) + 1j T(im), and the exact transform of the complex signal.

    With cval = 0 the two descriptions agree for every mode.
    """
    rng = np.random.default_rng(seed("complex", mode))
    z = rng.standard_normal(1500) + 1j * rng.standard_normal(1500)
    freqs = [0.01, 0.08, 0.3]
    for method in ("auto", "direct", "multiply"):
        Y = cwt(z, freqs, mode=mode, method=method)
        assert Y.dtype == np.complex128
        parts = cwt(z.real, freqs, mode=mode, method=method) + 1j * cwt(z.imag, freqs, mode=mode,
                                                                          method=method)
        np.testing.assert_allclose(Y, parts, rtol=0, atol=1e-13 * np.abs(parts).max())
        for i, f in enumerate(freqs):
            sigma = float(frequency_to_scale(f))
            ref = exact_morlet_transform(z, sigma, 6.0, mode, 0.0)
            assert_within(Y[i], ref, cs_bound(z, sigma, mode, 0.0, DEFAULT_MORLET_TOL), method)
    Y64 = cwt(z.astype(np.complex64), freqs, mode=mode)
    assert Y64.dtype == np.complex64
    y = morlet_transform(z, 30.0, mode=mode)
    assert y.dtype == np.complex128 and y.shape == z.shape


def test_complex_input_constant_cval_pads_the_complex_signal():
    """Complex input with mode='constant': the signal is extended by the number ``cval``.

    As scipy.ndimage does for complex input (real cval: the imaginary part is
    padded with zeros; checked below with scipy's convolve1d), and as the
    docstring's "mode, cval: as in scipy.ndimage" promises.
    """
    import scipy.ndimage as ndi

    rng = np.random.default_rng(11)
    z = rng.standard_normal(400) + 1j * rng.standard_normal(400)
    sigma = 8.0
    R = exact_support(sigma)
    psi = exact_morlet(sigma, 6.0, np.arange(-R, R + 1))
    ref = exact_morlet_transform(z, sigma, 6.0, "constant", CVAL)
    np.testing.assert_allclose(ndi.convolve1d(z, psi, mode="constant", cval=CVAL), ref,
                               rtol=0, atol=1e-12)
    y = morlet_transform(z, sigma, mode="constant", cval=CVAL, method="auto", tol=1e-6)
    assert_within(y, ref, cs_bound(z, sigma, "constant", CVAL, 1e-6), "complex, cval")


# --------------------------------------------------------------------------- default accuracy


def _signals():
    import pywt

    rng = np.random.default_rng(2024)
    n = 2048
    t = np.arange(n)
    time_, sst = pywt.data.nino()
    assert sst.shape == (264,) and time_[1] - time_[0] == pytest.approx(0.25)  # quarterly, 1950-2016
    return {
        "white": (rng.standard_normal(n), 1.0),
        "walk": (np.cumsum(rng.standard_normal(n)), 1.0),
        # a linear chirp from 0.002 to 0.45 cycles per sample
        "chirp": (np.cos(2 * np.pi * (0.002 * t + 0.448 * t * t / (2 * n))), 1.0),
        "ecg": (pywt.data.ecg().astype(np.float64), 360.0),  # 1024 samples at 360 Hz
        "nino": (np.asarray(sst, dtype=np.float64), 4.0),  # samples per year
    }


SIGNALS = _signals()


def _freqs(n, fs, xi=6.0, count=24):
    """From the frequency whose scale is a quarter of the signal up to Nyquist."""
    return np.geomspace(xi * fs / (2 * np.pi * (n / 4)), fs / 2, count)


@pytest.mark.parametrize("tol,limit", [(None, 1e-3), (1e-6, 3e-6)])
@pytest.mark.parametrize("name", list(SIGNALS))
def test_default_cwt_rows_within_documented_error(name, tol, limit):
    """The documented accuracy: every row within 1e-3 (default tol) or 3e-6 (tol=1e-6).

    Relative RMSE of each row against the exact transform, default method
    and mode, frequencies up to Nyquist.
    """
    x, fs = SIGNALS[name]
    freqs = _freqs(x.size, fs)
    Y = cwt(x, freqs, fs, tol=tol)
    assert Y.shape == (freqs.size, x.size)
    worst = []
    for i, f in enumerate(freqs):
        sigma = float(frequency_to_scale(f, fs))
        e = rel_rmse(Y[i], exact_morlet_transform(x, sigma, 6.0, "reflect"))
        if not e <= limit:
            worst.append(f"f={f:.4g} (sigma={sigma:.3g}): {e:.2e}")
    assert not worst, f"{name}, tol={tol}: rows above {limit:g}: " + "; ".join(worst)


@pytest.mark.parametrize("xi", [1.0, 6.0])
@pytest.mark.parametrize("method", METHODS)
def test_offset_does_not_leak(method, xi):
    """An offset (a sensor's DC level) must not leak into the transform.

    The wavelet has zero mean (to ~1e-300 at these scales), so the exact
    transform of noise + 1000 is that of the noise.  A kernel whose sum
    differs from the wavelet's by d adds 1000 d to every output; the plan's
    error (white-noise and random-walk RMSE) does not see d.  Allowed: the
    plan's error on the noise (3x, as above) plus rounding, 2 L eps times
    the size the offset can give an output (1000 ||psi||_1).
    """
    n, offset = 4000, 1000.0
    rng = np.random.default_rng(seed("offset", method, xi))
    noise = rng.standard_normal(n)
    for sigma in (20.0, 100.0):
        plan = morlet_plan(sigma, xi, DEFAULT_MORLET_TOL, method, "sft")
        ref = exact_morlet_transform(noise, sigma, xi, "reflect")
        y = morlet_transform(noise + offset, sigma, xi=xi, method=method, transform="sft")
        R = exact_support(sigma)
        psi_l1 = np.sum(np.abs(exact_morlet(sigma, xi, np.arange(-R, R + 1))))
        rounding = 2 * plan.length * np.finfo(float).eps * offset * psi_l1
        err = np.sqrt(np.mean(np.abs(y - ref) ** 2))
        rms = np.sqrt(np.mean(np.abs(ref) ** 2))
        assert err <= 3 * plan.error * rms + rounding, (
            f"sigma={sigma}: rms error {err:.3g} = {err / rms:.3g} relative; plan.error {plan.error:.3g}")


# --------------------------------------------------------------------------- scale and frequency


def test_scale_frequency_conversions():
    f = np.array([0.5, 1.0, 7.25, 100.0])
    for fs in (1.0, 360.0, 1000.0):
        for xi in (1.0, 6.0, 20.0):
            s = frequency_to_scale(f, fs, xi)
            np.testing.assert_allclose(s, xi * fs / (2 * np.pi * f), rtol=1e-15)
            np.testing.assert_allclose(scale_to_frequency(s, fs, xi), f, rtol=1e-15)
            # the centre frequency of the wavelet, xi / sigma rad/sample, is 2 pi f / fs
            np.testing.assert_allclose(xi / s, 2 * np.pi * f / fs, rtol=1e-15)
    # defaults: fs = 1 (cycles per sample), xi = 6
    assert float(frequency_to_scale(0.25)) == pytest.approx(6 / (2 * np.pi * 0.25), rel=1e-15)
    assert float(scale_to_frequency(10.0)) == pytest.approx(6 / (2 * np.pi * 10.0), rel=1e-15)
    assert np.ndim(frequency_to_scale(3.0)) == 0 and frequency_to_scale([1.0, 2.0]).shape == (2,)


def _dtft(sigma, xi, omega):
    """Psi(omega) = sum_k psi[k] exp(-i omega k) of the sampled wavelet."""
    R = exact_support(sigma)
    k = np.arange(-R, R + 1)
    return complex(np.sum(exact_morlet(sigma, xi, k) * np.exp(-1j * omega * k)))


@pytest.mark.parametrize("xi", [3.0, 6.0, 20.0])
def test_sinusoid_peak_and_magnitude(xi):
    """A cosine of frequency f0: exactly 0.5 (e^{i phi_n} Psi(w0) + e^{-i phi_n} Psi(-w0)) in the interior.

    So |y| = 0.5 |Psi(w0)| up to 0.5 |Psi(-w0)| (the negative frequency, tiny
    for xi >= 6) and the kernel's error (per-sample bound), with Psi the DTFT
    of the sampled wavelet computed from tests/naive.  The row with the
    largest response is the grid frequency with the largest 0.5 |Psi_f(w0)|;
    that is the one nearest f0 when f0 is on the grid (ratio 1.12 between
    frequencies), and also 2% off the grid for xi >= 6 (a unit-energy
    wavelet's response peaks a factor 1 + 1/(2 xi^2) below f0: 5.6% for
    xi = 3, which can move the peak one row down).
    """
    fs, n = 1000.0, 6000
    freqs = 20.0 * 1.12 ** np.arange(22)  # 20 .. 216 Hz (sigma >= 2.2 for xi = 3)
    t = np.arange(n) / fs
    tol = DEFAULT_MORLET_TOL
    offsets = (1.0, 1.02, 0.98) if xi >= 6 else (1.0,)
    for i0 in (3, 10, 18):
        for off in offsets:
            f0 = freqs[i0] * off
            phase = 0.3
            x = np.cos(2 * np.pi * f0 * t + phase)
            Y = cwt(x, freqs, fs, xi=xi)
            w0 = 2 * np.pi * f0 / fs
            expected_peak = 0.5 * np.array([abs(_dtft(float(frequency_to_scale(f, fs, xi)), xi, w0))
                                            for f in freqs])
            # the interior: 14 sigma (the largest scale's window) from either end
            R = int(14 * frequency_to_scale(freqs[0], fs, xi))
            inner = slice(R, n - R)
            mean_abs = np.abs(Y[:, inner]).mean(axis=1)
            assert int(np.argmax(mean_abs)) == int(np.argmax(expected_peak))
            if off == 1.0 or xi >= 6:
                assert int(np.argmax(mean_abs)) == i0
            for i in (i0 - 1, i0, i0 + 1):
                sigma = float(frequency_to_scale(freqs[i], fs, xi))
                Pp, Pm = _dtft(sigma, xi, w0), _dtft(sigma, xi, -w0)
                ph = w0 * np.arange(n) + phase
                exact = 0.5 * (np.exp(1j * ph) * Pp + np.exp(-1j * ph) * Pm)
                # Cauchy-Schwarz: ||h - psi|| <= tol, ||x over the window|| <= sqrt(2 R + 1)
                err = tol * np.sqrt(2 * (WINDOW * sigma + exact_support(sigma)) + 1)
                assert np.max(np.abs(Y[i, inner] - exact[inner])) <= err
                mag = np.abs(Y[i, inner])
                assert np.all(np.abs(mag - 0.5 * abs(Pp)) <= 0.5 * abs(Pm) + err)


# --------------------------------------------------------------------------- outputs and dtypes


def test_output_kinds():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 600))
    freqs = [0.01, 0.1, 0.4]
    C = cwt(x, freqs)
    assert C.dtype == np.complex128 and C.shape == (2, 3, 600)
    P = cwt(x, freqs, output="power")
    A = cwt(x, freqs, output="abs")
    Ph = cwt(x, freqs, output="phase")
    assert P.dtype == A.dtype == Ph.dtype == np.float64
    np.testing.assert_allclose(P, np.abs(C) ** 2, rtol=1e-13, atol=0)
    np.testing.assert_allclose(A, np.abs(C), rtol=1e-14, atol=0)
    np.testing.assert_allclose(Ph, np.angle(C), rtol=0, atol=1e-13)
    assert np.all(np.abs(Ph) <= np.pi)
    # float32 input: float32 real outputs
    x32 = x.astype(np.float32)
    C32 = cwt(x32, freqs)
    for output, fn in (("power", lambda c: np.abs(c) ** 2), ("abs", np.abs), ("phase", np.angle)):
        out = cwt(x32, freqs, output=output)
        assert out.dtype == np.float32
        ref = fn(C32.astype(np.complex128))
        if output == "phase":  # an angle is only as good as the coefficient: compare where |C| is not tiny
            big = np.abs(C32) > 1e-3 * np.abs(C32).max()
            np.testing.assert_allclose(out[big], ref[big], rtol=0, atol=1e-5)
        else:
            np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-6 * np.abs(ref).max())


def test_dtype_argument():
    rng = np.random.default_rng(6)
    x = rng.standard_normal(500)
    freqs = [0.02, 0.2]
    C = cwt(x, freqs)
    C64 = cwt(x, freqs, dtype=np.complex64)
    assert C64.dtype == np.complex64
    # single precision at the default tol runs float32 ASFT recursions (docs: about
    # 5e-5 of extra relative error); at a tighter tol, float64 work and only rounding
    for i in range(len(freqs)):
        assert rel_rmse(C64[i], C[i]) <= 1e-4
    C = cwt(x, freqs, tol=1e-5)
    C64 = cwt(x, freqs, dtype=np.complex64, tol=1e-5)
    assert np.max(np.abs(C64 - C)) <= 1e-6 * np.abs(C).max()
    assert cwt(x, freqs, dtype="complex128").dtype == np.complex128
    assert cwt(x.astype(np.float32), freqs, dtype=np.complex128).dtype == np.complex128
    for output in ("power", "abs", "phase"):
        assert cwt(x, freqs, output=output, dtype=np.float32).dtype == np.float32
        assert cwt(x, freqs, output=output, dtype="float64").dtype == np.float64
    P32 = cwt(x, freqs, output="power", dtype=np.float32, tol=1e-5)
    np.testing.assert_allclose(P32, np.abs(C) ** 2, rtol=1e-6, atol=1e-7 * (np.abs(C) ** 2).max())
    # invalid combinations
    with pytest.raises(ValueError, match="dtype must be complex for output='complex'"):
        cwt(x, freqs, dtype=np.float64)
    for output in ("power", "abs", "phase"):
        for bad in (np.complex128, np.int32, bool):
            with pytest.raises(ValueError, match=f"dtype must be a real floating dtype for output={output!r}"):
                cwt(x, freqs, output=output, dtype=bad)
    with pytest.raises(TypeError, match="dtype"):
        cwt(x, freqs, dtype="not-a-dtype")


@pytest.mark.parametrize("shape,axis", [((0,), 0), ((3, 0), -1), ((0, 5), 1), ((0, 5), 0),
                                        ((2, 0, 4), 1), ((2, 0, 4), 2)])
def test_empty_input(shape, axis):
    freqs = [0.05, 0.2]
    moved = np.moveaxis(np.zeros(shape), axis, -1).shape
    for dt, cdt in ((np.float64, np.complex128), (np.float32, np.complex64),
                    (np.complex128, np.complex128), (np.int16, np.complex128)):
        Y = cwt(np.zeros(shape, dt), freqs, axis=axis)
        assert Y.shape == moved[:-1] + (2, moved[-1]) and Y.dtype == cdt
        P = cwt(np.zeros(shape, dt), freqs, axis=axis, output="power")
        assert P.shape == Y.shape and P.dtype == {np.complex128: np.float64, np.complex64: np.float32}[cdt]
        y = morlet_transform(np.zeros(shape, dt), 20.0, axis=axis)
        assert y.shape == shape and y.dtype == cdt


def test_list_and_scalar_frequency():
    x = [0.0, 1.0, 0.5, -2.0, 3.0, 1.0, 0.0, 0.25]
    Y = cwt(x, 0.3)
    assert Y.shape == (1, 8)
    np.testing.assert_array_equal(Y, cwt(np.asarray(x), [0.3]))


# --------------------------------------------------------------------------- morlet_transform's output, decim, out

OUTPUT_KINDS = ["complex", "power", "abs", "phase"]
#: (shape, axis): time last, first, in the middle, and negative
LAYOUTS = [((700,), -1), ((3, 500), 0), ((2, 301, 3), 1), ((2, 3, 301), -1), ((301, 2, 1), 0)]


def _row(x, f, *, axis=-1, **kw):
    """cwt's row at the frequency ``f`` (the only one), moved back to ``axis``."""
    Y = cwt(x, [f], axis=axis, **kw)
    return np.moveaxis(Y[..., 0, :], -1, axis % np.ndim(x))


@pytest.mark.parametrize("shape,axis", LAYOUTS)
@pytest.mark.parametrize("output", OUTPUT_KINDS)
@pytest.mark.parametrize("decim", [1, 3, 8])
def test_morlet_transform_is_the_cwt_row(shape, axis, output, decim):
    """morlet_transform(x, sigma, output=, decim=) is cwt(x, [f])'s row, bit for bit.

    ``sigma = frequency_to_scale(f, fs, xi)`` (the same float as cwt computes):
    the same plan on the same lines through the same engine call, so the same
    bits, also for float32 (real outputs float32) and complex input, a forced
    method and the boundary value of 'constant'.
    """
    rng = np.random.default_rng(seed("row", shape, axis, output, decim))
    x = rng.standard_normal(shape)
    fs, xi = 250.0, 5.0
    cases = [(x, 9.0, {}),                                             # bank
             (x, 100.0, {"method": "fir"}),                            # the FIR
             (x.astype(np.float32), 30.0, {}),                         # single precision
             (x + 1j * rng.standard_normal(shape), 30.0, {"mode": "constant", "cval": CVAL}),
             (x, 30.0, {"mode": "wrap", "tol": 1e-6, "transform": "asft"})]
    for data, f, kw in cases:
        sigma = float(frequency_to_scale(f, fs, xi))
        y = morlet_transform(data, sigma, xi=xi, axis=axis, output=output, decim=decim, **kw)
        ref = _row(data, f, axis=axis, xi=xi, fs=fs, output=output, decim=decim, **kw)
        assert y.shape == ref.shape and y.dtype == ref.dtype, (f, kw)
        n_out = -(-shape[axis] // decim)
        assert y.shape == shape[:axis % len(shape)] + (n_out,) + shape[axis % len(shape) + 1:]
        np.testing.assert_array_equal(y, ref, err_msg=f"f={f} {kw}")
        # decim is [::decim] of the whole transform: bit for bit on the bank and the FIR; the
        # FFT's decimated rows fold their spectrum (a shorter transform), the same to rounding
        full = morlet_transform(data, sigma, xi=xi, axis=axis, output=output, **kw)
        every = (slice(None),) * (axis % len(shape)) + (slice(None, None, decim),)
        if _runs_fft(sigma, xi, shape[axis], kw):
            z = morlet_transform(data, sigma, xi=xi, axis=axis, decim=decim, **kw)
            zf = morlet_transform(data, sigma, xi=xi, axis=axis, **kw)[every]
            scale = np.abs(zf).max()
            assert np.abs(z - zf).max() <= 1e-13 * scale
            if output == "phase":
                big = np.abs(zf) > 1e-6 * scale
                assert np.abs(np.angle(np.exp(1j * (y - full[every]))))[big].max(initial=0.0) <= 1e-9
            else:
                assert np.abs(y - full[every]).max() <= 1e-12 * max(np.abs(full).max(), 1.0)
        else:
            np.testing.assert_array_equal(y, full[every])


def _runs_fft(sigma, xi, n, kw):
    """Whether cwt's 'auto' (or the method in ``kw``) runs this scale by FFT."""
    from sftwave.engines.numba import ENGINE
    from sftwave.plans import FFTPlan, select_morlet

    plan = select_morlet(sigma, xi, kw.get("tol", 1e-4), method=kw.get("method", "auto"), n=n,
                         mode=kw.get("mode", "reflect"), fir_taps_per_order=ENGINE.fir_taps_per_order(),
                         fft_point_cost=ENGINE.fft_point_cost())
    return isinstance(plan, FFTPlan)


def test_morlet_transform_defaults_unchanged():
    """Without the new parameters the result is what it was: complex, x's shape, the cwt row.

    The explicit defaults give the same bits, and the default result is the one-row
    cwt's moved back to ``axis`` (the computation morlet_transform has always made).
    """
    rng = np.random.default_rng(seed("defaults"))
    for shape, axis in LAYOUTS:
        x = rng.standard_normal(shape)
        sigma = float(frequency_to_scale(0.05))
        y = morlet_transform(x, sigma, axis=axis)
        assert y.shape == x.shape and y.dtype == np.complex128
        np.testing.assert_array_equal(y, _row(x, 0.05, axis=axis))
        np.testing.assert_array_equal(
            y, morlet_transform(x, sigma, axis=axis, output="complex", decim=1, out=None))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_morlet_transform_rows_of_many_frequencies(dtype):
    """Each row of a cwt at many frequencies: the same bits with a given bank_method.

    With ``bank_method='auto'`` the choice depends on lines x scales
    (sftwave.engines.numba.scalogram.ENGINE_MIN_LANES): 12 scales on one line
    run on the lane engine, one scale line by line.  The plans are the same, so in
    float64 the rows differ by the rounding of the recursions only (measured
    4e-14 of the row's peak; 1e-12 allowed), and the phase by that over |C|
    (compared where |C| is at least 1e-3 of its peak).  In float32, at the
    default tol the lane engine runs float32 ASFT recursions (the docs' 5e-5
    of extra error), the line-by-line bank float64: 3 tol apart at most.
    """
    x = np.random.default_rng(seed("many", dtype)).standard_normal(3001).astype(dtype)
    freqs = np.geomspace(0.005, 0.4, 12)
    for bank_method in ("iir1", "iir1-2k", "integral"):
        for output in ("complex", "power"):
            Y = cwt(x, freqs, output=output, decim=2, bank_method=bank_method)
            for i, f in enumerate(freqs):
                y = morlet_transform(x, float(frequency_to_scale(f)), output=output, decim=2,
                                     bank_method=bank_method)
                np.testing.assert_array_equal(y, Y[i], err_msg=f"{bank_method} {output} f={f:.3g}")
    C = cwt(x, freqs)
    Ph = cwt(x, freqs, output="phase")
    for i, f in enumerate(freqs):
        sigma = float(frequency_to_scale(f))
        c = morlet_transform(x, sigma)
        peak = np.abs(C[i]).max()
        if dtype == np.float64:
            np.testing.assert_allclose(c, C[i], rtol=0, atol=1e-12 * peak)
            big = np.abs(C[i]) >= 1e-3 * peak
            np.testing.assert_allclose(morlet_transform(x, sigma, output="phase")[big], Ph[i][big],
                                       rtol=0, atol=1e-9)
        else:
            assert rel_rmse(c, C[i]) <= 3 * DEFAULT_MORLET_TOL


@pytest.mark.parametrize("shape,axis", LAYOUTS)
@pytest.mark.parametrize("output,decim", [("complex", 1), ("power", 4), ("phase", 3), ("abs", 1)])
def test_morlet_transform_out(shape, axis, output, decim):
    """``out`` is written and returned; its values are those without it.

    Time last (or only axes of length 1 after it): the engine writes into ``out``
    itself; otherwise the row is computed apart and copied in.  Either way the
    caller sees ``out`` filled and returned.
    """
    rng = np.random.default_rng(seed("out", shape, axis, output, decim))
    x = rng.standard_normal(shape)
    sigma = 14.0
    ref = morlet_transform(x, sigma, axis=axis, output=output, decim=decim)
    out = np.full(ref.shape, np.nan, dtype=ref.dtype)
    got = morlet_transform(x, sigma, axis=axis, output=output, decim=decim, out=out)
    assert got is out
    np.testing.assert_array_equal(out, ref)
    # the dtype is out's where dtype is not given: single precision output from float64 input
    single = np.complex64 if output == "complex" else np.float32
    out32 = np.empty(ref.shape, single)
    assert morlet_transform(x, sigma, axis=axis, output=output, decim=decim, out=out32) is out32
    np.testing.assert_array_equal(
        out32, morlet_transform(x, sigma, axis=axis, output=output, decim=decim, dtype=single))
    # and the same bits as cwt's out of the same row
    rows = np.empty(np.moveaxis(ref, axis, -1).shape[:-1] + (1, ref.shape[axis]), ref.dtype)
    cwt(x, [float(scale_to_frequency(sigma))], axis=axis, output=output, decim=decim, out=rows)
    np.testing.assert_array_equal(np.moveaxis(rows[..., 0, :], -1, axis % x.ndim), ref)
    # which of the two ways: out itself handed to the engine (as cwt's one-row out), or None
    view = wavelets._one_row_out(out, axis % x.ndim)
    ax = axis % x.ndim
    direct = all(d == 1 for d in out.shape[ax + 1:]) or out.shape[ax] == 1   # moved last: still C order
    assert (view is not None) == direct
    if direct:
        assert view.shape == rows.shape and np.shares_memory(view, out)


@pytest.mark.parametrize("output", ["power", "abs", "phase"])
@pytest.mark.parametrize("nan_policy", ["propagate", "omit"])
@pytest.mark.parametrize("axis", [-1, 0])
def test_morlet_transform_out_overlapping_x(output, nan_policy, axis):
    """``out`` may be ``x`` itself (a real output of float64 input), as for cwt: x is read from a copy
    (time last: written by the engine; time first: computed apart, then copied in)."""
    rng = np.random.default_rng(seed("overlap", output, nan_policy, axis))
    buf = rng.standard_normal((3, 600))
    buf[1, 200:230] = np.nan
    if axis == 0:
        buf = np.ascontiguousarray(buf.T)
    x = buf.copy()
    ref = morlet_transform(x, 20.0, axis=axis, output=output, nan_policy=nan_policy)
    assert morlet_transform(buf, 20.0, axis=axis, output=output, nan_policy=nan_policy, out=buf) is buf
    np.testing.assert_array_equal(buf, ref)
    row = _row(x, float(scale_to_frequency(20.0)), axis=axis, output=output, nan_policy=nan_policy)
    np.testing.assert_array_equal(ref, row)


def test_morlet_transform_empty_with_out_and_decim():
    for shape, axis in (((0,), 0), ((3, 0), -1), ((0, 5), 0)):
        x = np.zeros(shape)
        y = morlet_transform(x, 20.0, axis=axis, output="power", decim=3)
        assert y.shape == shape and y.dtype == np.float64
        out = np.empty(shape, np.complex128)
        assert morlet_transform(x, 20.0, axis=axis, out=out) is out


def _message(fn, exc):
    with pytest.raises(exc) as info:
        fn()
    return str(info.value)


@pytest.mark.parametrize("kw,exc,words", [
    ({"output": "bogus"}, ValueError, ["output", "'complex'", "'power'", "'abs'", "'phase'", "got 'bogus'"]),
    ({"output": None}, ValueError, ["output", "got None"]),
    ({"decim": 0}, ValueError, ["decim", "positive integer", "got 0"]),
    ({"decim": -2}, ValueError, ["decim", "got -2"]),
    ({"decim": 1.5}, TypeError, ["decim", "got 1.5"]),
    ({"decim": 2.0}, TypeError, ["decim", "got 2.0"]),
    ({"decim": True}, TypeError, ["decim", "got True"]),
    ({"decim": "2"}, TypeError, ["decim", "got '2'"]),
    ({"out": [0.0] * 64}, TypeError, ["out", "ndarray", "got list"]),
    ({"output": "power", "dtype": np.complex128}, ValueError,
     ["dtype", "real floating", "output='power'", "got complex128"]),
])
def test_morlet_transform_bad_output_decim_out(kw, exc, words):
    """The words of cwt's checks, the same message for the same bad value."""
    got = _message(lambda: morlet_transform(X, 10.0, **kw), exc)
    assert re.search(_m(*words), got), got
    assert got == _message(lambda: cwt(X, [0.1], **kw), exc)


def test_morlet_transform_bad_out_array():
    """Shape (the result's: x's with ceil(n / decim) along axis), dtype, C order, writeable, engine."""
    a = np.ones((3, 40))
    with pytest.raises(ValueError, match=_m("out must have shape (3, 40)", "got (40, 3)")):
        morlet_transform(a, 10.0, out=np.empty((40, 3), complex))
    with pytest.raises(ValueError, match=_m("out must have shape (14, 3)", "got (40, 3)")):
        morlet_transform(a.T, 10.0, axis=0, decim=3, out=np.empty((40, 3), complex))
    with pytest.raises(ValueError, match=_m("out must have shape (3, 20)", "got (3, 40)")):
        morlet_transform(a, 10.0, decim=2, out=np.empty((3, 40), complex))
    with pytest.raises(ValueError, match=_m("out must have dtype complex64", "got complex128")):
        morlet_transform(a, 10.0, dtype=np.complex64, out=np.empty((3, 40), complex))
    # out's own dtype must fit output (named as out's), as for cwt
    for output, bad, kind in (("complex", np.float64, "complex"), ("power", np.complex128, "real floating"),
                              ("abs", np.int32, "real floating")):
        msg = _m("out must have a", kind, f"output={output!r}", f"got dtype {np.dtype(bad)}")
        with pytest.raises(ValueError, match=msg):
            morlet_transform(a, 10.0, output=output, out=np.empty((3, 40), bad))
        with pytest.raises(ValueError, match=msg):
            cwt(a, [0.1], output=output, out=np.empty((3, 1, 40), bad))
    with pytest.raises(ValueError, match="out must be C-contiguous"):
        morlet_transform(a, 10.0, out=np.empty((40, 3), complex).T)
    ro = np.empty((3, 40), complex)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="out array is read-only"):
        morlet_transform(a, 10.0, out=ro)
    with pytest.raises(ValueError, match=_m("out is not supported with engine='xp'", "shape (3, 40)")):
        morlet_transform(a, 10.0, out=np.empty((3, 40), complex), engine="xp")


def test_morlet_transform_xp_engine_output_and_decim():
    """The array-API engine takes output and decim too (not out): cwt's row, same bits."""
    pytest.importorskip("array_api_compat")
    x = np.random.default_rng(seed("xp")).standard_normal((2, 500))
    sigma = float(frequency_to_scale(0.05))
    for output in OUTPUT_KINDS:
        y = morlet_transform(x, sigma, output=output, decim=3, engine="xp")
        np.testing.assert_array_equal(np.asarray(y), np.asarray(
            _row(x, 0.05, output=output, decim=3, engine="xp")))


# --------------------------------------------------------------------------- MNE


def _mne_kernel_error(W, sigma, n_cycles):
    """Relative RMSE of MNE's wavelet W (centred, odd length) against sqrt(2) psi."""
    M = W.size // 2
    R = M + exact_support(sigma)
    full = np.zeros(2 * R + 1, dtype=np.complex128)
    full[R - M:R + M + 1] = W
    return rel_rmse(full, np.sqrt(2) * exact_morlet(sigma, n_cycles, np.arange(-R, R + 1)))


@pytest.mark.parametrize("n_cycles", [3.0, 6.0])
def test_matches_mne(n_cycles):
    """sqrt(2) cwt(x, freqs, fs, xi=n_cycles, mode='constant') is MNE's tfr_array_morlet(..., 'complex').

    MNE (mne/time_frequency/tfr.py): ``morlet`` samples
    ``exp(2 pi i f t) exp(-t^2 / (2 sigma_t^2))`` with
    ``sigma_t = n_cycles / (2 pi f)`` (sigma = n_cycles fs / (2 pi f)
    samples, carrier n_cycles / sigma rad/sample: xi = n_cycles), for
    ``0 <= t < 5 sigma_t`` on both sides (one sample at t = 0), subtracts
    ``exp(-2 (pi f sigma_t)^2) = kappa`` if zero_mean, and scales the
    truncated wavelet to norm sqrt(2) (``W /= sqrt(0.5) norm(W)``).
    ``_cwt_gen`` convolves (FFT or np.convolve; not a correlation) with zero
    padding and keeps the centred n samples: y[n] = sum_k W[k] x[n - k].

    So MNE's kernel is sqrt(2) psi up to its truncation at 5 sigma and the
    renormalisation: a relative RMSE of sqrt(tail energy), about
    sqrt(erfc(5)) = 1.2e-6 (measured 1.2e-6 .. 2.8e-6 here, for sigma >= 2;
    the largest at sigma = 2, where the first sample left out is at exactly
    5 sigma).  Per sample:
    |MNE - sqrt(2) y| <= sqrt(2) (e_mne + e_sftwave) ||x over the window||.
    Measured (tol=1e-6): rows agree to 1.2e-6 .. 6.6e-5 relative RMSE on the
    ECG, exactly as MNE agrees with the exact transform (MNE's truncation
    dominates; the high rows of a low-pass signal amplify kernel errors), and
    to <= 2.8e-6 on white noise.
    zero_mean=False drops the kappa term: negligible for n_cycles >= 6
    (kappa = 1.5e-8 at 6), not at 3 (kappa = 0.011).
    """
    from mne.time_frequency import morlet, tfr_array_morlet

    fs = 360.0
    ecg = SIGNALS["ecg"][0]
    noise = np.random.default_rng(7).standard_normal(ecg.size)
    data = np.stack([ecg, noise])[None]  # (epochs, channels, times)
    # from the lowest frequency whose 10-sigma wavelet fits in the signal to sigma = 2
    f_hi = min(n_cycles * fs / (2 * np.pi * 2.0), fs / 2)
    freqs = np.geomspace(n_cycles * fs / (2 * np.pi * 100.0), f_hi, 12)
    tol = 1e-6
    Y = cwt(data, freqs, fs, xi=n_cycles, mode="constant", tol=tol)
    assert Y.shape == (1, 2, freqs.size, ecg.size)
    for zero_mean in (True, False):
        Ws = morlet(fs, freqs, n_cycles=n_cycles, zero_mean=zero_mean)
        errs = [_mne_kernel_error(W, float(frequency_to_scale(f, fs, n_cycles)), n_cycles)
                for W, f in zip(Ws, freqs)]
        if not zero_mean and n_cycles < 6:
            assert min(errs) > 1e-3  # without kappa the wavelets differ
            continue
        for W, f, e in zip(Ws, freqs, errs):
            # the truncation: MNE keeps |k| < 5 sigma; renormalising changes the kept part by
            # O(tail), so the error is sqrt(tail energy) to first order
            sigma = float(frequency_to_scale(f, fs, n_cycles))
            M = W.size // 2
            assert 5 * sigma - 1 - 1e-6 <= M <= 5 * sigma + 1e-6
            R = M + exact_support(sigma)
            k = np.arange(-R, R + 1)
            tail = np.sum(np.abs(exact_morlet(sigma, n_cycles, k[np.abs(k) > M])) ** 2)
            assert e == pytest.approx(math.sqrt(tail), rel=1e-2)
        assert max(errs) <= 3e-6
        for use_fft in (True, False):
            M = tfr_array_morlet(data, fs, freqs, n_cycles=n_cycles, zero_mean=zero_mean,
                                 use_fft=use_fft, output="complex", verbose=False)
            assert M.shape == Y.shape
            for c in range(2):
                x = data[0, c]
                for i, f in enumerate(freqs):
                    sigma = float(frequency_to_scale(f, fs, n_cycles))
                    half = max(Ws[i].size // 2, int(WINDOW * sigma))
                    bound = np.sqrt(2) * cs_bound(x, sigma, "constant", 0.0, errs[i] + tol, half)
                    # FFT rounding: 1e-13 of the largest output
                    assert_within(M[0, c, i], np.sqrt(2) * Y[0, c, i],
                                  bound + 1e-13 * np.abs(M[0, c, i]).max(),
                                  f"f={f:.4g} channel {c} fft={use_fft} zero_mean={zero_mean}")


# --------------------------------------------------------------------------- bad input


X = np.linspace(0.0, 1.0, 64)


def _m(*parts):
    return ".*".join(re.escape(p) for p in parts)


@pytest.mark.parametrize("freqs,echo", [(0.0, "0.0"), (-1.0, "-1.0"), ([0.1, float("nan")], "nan"),
                                        ([float("inf")], "inf"), ([0.1, -0.2], "-0.2")])
def test_bad_freqs(freqs, echo):
    with pytest.raises(ValueError, match=_m("freqs", "positive", echo)):
        cwt(X, freqs)


def test_freqs_above_nyquist():
    with pytest.raises(ValueError, match=_m("freqs", "Nyquist", "50", "got 60")):
        cwt(X, [10.0, 60.0], fs=100.0)
    cwt(X, [50.0], fs=100.0)  # Nyquist itself is allowed
    with pytest.raises(ValueError, match=_m("freqs", "1-D")):
        cwt(X, [[0.1, 0.2]])
    with pytest.raises(TypeError, match="freqs"):
        cwt(X, ["a", "b"])


@pytest.mark.parametrize("name", ["fs", "xi"])
@pytest.mark.parametrize("value,exc", [(0.0, ValueError), (-2.0, ValueError), (float("nan"), ValueError),
                                       (float("inf"), ValueError), ("1", TypeError), (True, TypeError),
                                       (None, TypeError)])
def test_bad_fs_and_xi(name, value, exc):
    with pytest.raises(exc, match=_m(name, f"got {value!r}")):
        cwt(X, [0.1], **{name: value})
    if name == "xi":
        with pytest.raises(exc, match=_m(name, f"got {value!r}")):
            morlet_transform(X, 10.0, xi=value)


@pytest.mark.parametrize("param,valid", [
    ("output", ["complex", "power", "abs", "phase"]),
    ("method", ["auto", "fir", "bank", "direct", "multiply"]),
    ("transform", ["auto", "sft", "asft"]),
    ("mode", ALL_MODES),
    ("bank_method", None),
])
def test_unknown_choice_lists_valid_ones(param, valid):
    with pytest.raises(ValueError) as info:
        cwt(X, [0.1], **{param: "bogus"})
    msg = str(info.value)
    assert param in msg and "'bogus'" in msg
    for v in valid or []:
        assert repr(v) in msg
    with pytest.raises(ValueError, match=_m(param, "'bogus'")) as info:
        morlet_transform(X, 10.0, **{param: "bogus"})
    assert str(info.value) == msg


def test_bad_axis():
    a = np.ones((3, 40))
    for axis in (2, -3, 5):
        with pytest.raises(ValueError, match=_m("axis", str(axis), "out of range")):
            cwt(a, [0.1], axis=axis)
        with pytest.raises(ValueError, match=_m("axis", str(axis))):
            morlet_transform(a, 10.0, axis=axis)
    for axis in (1.0, "0", None):
        with pytest.raises(TypeError, match="axis"):
            cwt(a, [0.1], axis=axis)


def test_bool_input_is_zero_one():
    """bool samples are 0 and 1 (as scipy.ndimage takes them): the float64 result of 0/1."""
    x = np.random.default_rng(4).random(300) > 0.5
    np.testing.assert_array_equal(cwt(x, [0.05, 0.2]), cwt(x.astype(np.float64), [0.05, 0.2]))
    np.testing.assert_array_equal(morlet_transform(x, 10.0),
                                  morlet_transform(x.astype(np.float64), 10.0))


@pytest.mark.parametrize("x", [["a", "b"], np.array([None, 1.0], dtype=object), "signal"])
def test_non_numeric_input(x):
    with pytest.raises(TypeError, match=_m("x", "numeric")):
        cwt(x, [0.1])
    with pytest.raises(TypeError, match=_m("x", "numeric")):
        morlet_transform(x, 10.0)


@pytest.mark.parametrize("tol,exc", [(0.0, ValueError), (-1e-3, ValueError), (0.5, ValueError),
                                     (1e-12, ValueError), (float("nan"), ValueError),
                                     ("1e-3", TypeError), (True, TypeError)])
def test_bad_tol(tol, exc):
    with pytest.raises(exc, match=_m("tol", f"got {tol!r}")):
        cwt(X, [0.1], tol=tol)
    with pytest.raises(exc, match=_m("tol", f"got {tol!r}")):
        morlet_transform(X, 10.0, tol=tol)


def test_tol_range_accepted():
    for tol in (1e-9, 1e-3, 0.1):
        assert cwt(X, [0.1], tol=tol, method="fir").shape == (1, X.size)
    assert cwt(X, [0.1], tol=0.1).shape == (1, X.size)


def test_morlet_transform_carrier_above_nyquist():
    # xi / sigma > pi: the wavelet's centre frequency is above Nyquist
    with pytest.raises(ValueError, match=_m("xi/sigma", "Nyquist", "sigma", "xi")):
        morlet_transform(X, 1.5, xi=6.0)
    with pytest.raises(ValueError, match="Nyquist"):
        morlet_transform(X, 0.3, xi=1.0)
    morlet_transform(X, 6.0 / np.pi * (1 + 1e-12), xi=6.0)  # up to Nyquist is allowed
    for sigma, exc in ((0.0, ValueError), (-3.0, ValueError), (float("nan"), ValueError), ("3", TypeError)):
        with pytest.raises(exc, match="sigma"):
            morlet_transform(X, sigma)


@pytest.mark.parametrize("tol", [1e-2, 1e-4, 1e-6])
def test_fir_length_bound(tol):
    """``fir_min_taps`` never exceeds the length of the truncated wavelet actually designed.

    'auto' skips designing the truncated wavelet when even this bound is costlier
    than the best plan; a bound above the designed length could skip a cheaper FIR.
    """
    for sigma in np.geomspace(0.6, 300.0, 25):
        bound = fir_min_taps(float(sigma), 6.0, tol)
        assert bound <= fir_morlet(float(sigma), 6.0, tol).size


@pytest.mark.parametrize("output", ["complex", "power"])
def test_rows_in_batches_equal_one_call(monkeypatch, output):
    """The lane engine takes the rows in batches (its copy of them bounded); every batching gives
    the same bits as one call, since each lane's arithmetic is its own."""
    from sftwave.engines.numba import scalogram

    x = np.random.default_rng(5).standard_normal((7, 3, 500)) + 2.0
    freqs = [3.0, 11.0, 40.0]
    whole = cwt(x, freqs, 100.0, xi=np.array([5.0, 7.0, 9.0]), output=output, decim=3)
    for samples in (1, 1300, 5000):   # one row per call, a few rows, most rows
        monkeypatch.setattr(scalogram, "LANE_BATCH_SAMPLES", samples)
        got = cwt(x, freqs, 100.0, xi=np.array([5.0, 7.0, 9.0]), output=output, decim=3)
        np.testing.assert_array_equal(got, whole)
