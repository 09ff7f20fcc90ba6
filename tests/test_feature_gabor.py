"""Gabor filters of sftwave.feature: against the direct definition, scikit-image and the bank."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import ndimage as ndi
from scipy.signal import fftconvolve

from sftwave.feature import gabor, gabor_bank

MODES = ["reflect", "constant", "nearest", "mirror", "wrap"]
PREFACTOR = 1.0 / math.pi * math.sqrt(math.log(2) / 2.0) * 3.0  # sigma * frequency at bandwidth 1


def kernel(frequency, theta, sx, sy, n_stds, offset=0.0):
    """The Gabor kernel by its definition (x the column, y the row offset), truncated at n_stds."""
    ct, st = math.cos(theta), math.sin(theta)
    r = math.ceil(n_stds * max(sx, sy)) + 1
    y, x = np.mgrid[-r:r + 1, -r:r + 1].astype(np.float64)
    xr, yr = x * ct + y * st, -x * st + y * ct
    g = np.exp(-0.5 * (xr**2 / sx**2 + yr**2 / sy**2) + 1j * (2 * np.pi * frequency * xr + offset))
    return g / (2 * np.pi * sx * sy)


#: scipy.ndimage's boundary modes as numpy.pad names them (a pad longer than the image
#: repeats the extension as scipy's does).
PAD = {"reflect": "symmetric", "mirror": "reflect", "nearest": "edge", "wrap": "wrap",
       "constant": "constant"}


def direct(image, g, mode="reflect", cval=0.0):
    """Dense 2-D convolution, y[n] = sum_k g[k] x[n - k], of the image extended by ``mode``.

    The extended image convolved with every tap (scipy.signal.fftconvolve, 'valid'):
    scipy.ndimage.convolve's sum to rounding (test_direct_is_ndimage_convolve), in a
    hundredth of its time at the 8-sigma kernels used here.
    """
    img = np.asarray(image, dtype=np.float64)
    r0, r1 = g.shape[0] // 2, g.shape[1] // 2
    extra = {"constant_values": cval} if mode == "constant" else {}
    padded = np.pad(img, ((r0, r0), (r1, r1)), mode=PAD[mode], **extra)
    return fftconvolve(padded, g, mode="valid")


@pytest.mark.parametrize("mode", MODES)
def test_direct_is_ndimage_convolve(noise, mode):
    # a kernel longer than the image on one axis: the extension repeats as scipy's does
    g = kernel(0.11, 0.9, 9.0, 9.0, 5.0, 0.3)[:, 20:-20]
    ref = (ndi.convolve(noise, g.real, mode=mode, cval=0.4)
           + 1j * ndi.convolve(noise, g.imag, mode=mode, cval=0.4))
    np.testing.assert_allclose(direct(noise, g, mode, cval=0.4), ref, rtol=0,
                               atol=1e-12 * np.max(np.abs(ref)))


def rel_rms(a, b):
    return float(np.sqrt(np.mean(np.abs(a - b) ** 2) / np.mean(np.abs(b) ** 2)))


@pytest.fixture
def noise():
    return np.random.default_rng(7).standard_normal((64, 72))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("frequency,theta", [(0.15, 0.0), (0.08, 0.6), (0.05, 2.2), (0.3, -1.1)])
def test_untruncated_against_definition(noise, mode, frequency, theta):
    # white noise: the output's relative RMSE is the kernel's, at most about tol (two axes at
    # tol / 2); the reference is cut at 8 sigma, where the Gaussian's mass is below 1e-13
    tol = 1e-6
    s = PREFACTOR / frequency
    ref = direct(noise, kernel(frequency, theta, s, s, 8.0, 0.3), mode, cval=0.4)
    real, imag = gabor(noise, frequency, theta, offset=0.3, mode=mode, cval=0.4, tol=tol)
    assert rel_rms(real + 1j * imag, ref) < 3 * tol


@pytest.mark.parametrize("theta", [0.0, np.pi / 2, np.pi, -np.pi / 2])
def test_axis_aligned_anisotropic_exact(noise, theta):
    tol = 1e-6
    ref = direct(noise, kernel(0.1, theta, 2.5, 6.0, 8.0))
    real, imag = gabor(noise, 0.1, theta, sigma_x=2.5, sigma_y=6.0, tol=tol)
    assert rel_rms(real + 1j * imag, ref) < 3 * tol


def test_default_tol_against_definition(noise):
    # the default: each axis as sftwave.gaussian_filter's default (a quarter of scipy's kernel
    # error at 4 sigma, 1e-4 at most)
    ref = direct(noise, kernel(0.1, 0.4, PREFACTOR / 0.1, PREFACTOR / 0.1, 8.0))
    real, imag = gabor(noise, 0.1, 0.4)
    assert rel_rms(real + 1j * imag, ref) < 2e-4


def test_fallback_is_the_truncated_kernel(noise):
    # anisotropic at an angle: not separable, scikit-image's kernel at n_stds, convolved directly
    g = kernel(0.1, 0.5, 2.0, 4.0, 4.0)
    ct, st = math.cos(0.5), math.sin(0.5)
    x0 = math.ceil(max(abs(4 * 2.0 * ct), abs(4 * 4.0 * st), 1))
    y0 = math.ceil(max(abs(4 * 4.0 * ct), abs(4 * 2.0 * st), 1))
    r = g.shape[0] // 2
    g = g[r - y0:r + y0 + 1, r - x0:r + x0 + 1]
    real, imag = gabor(noise, 0.1, 0.5, sigma_x=2.0, sigma_y=4.0, n_stds=4, mode="wrap")
    np.testing.assert_allclose(real + 1j * imag, direct(noise, g, "wrap"), rtol=0, atol=1e-13)


@pytest.mark.parametrize("mode", MODES)
def test_against_skimage(noise, mode):
    skf = pytest.importorskip("skimage.filters")
    for frequency, theta in [(0.2, 0.0), (0.1, 0.7), (0.06, 2.0)]:
        s = PREFACTOR / frequency
        r0, i0 = skf.gabor(noise, frequency, theta, mode=mode, cval=0.25, offset=0.5)
        real, imag = gabor(noise, frequency, theta, mode=mode, cval=0.25, offset=0.5)
        ours = real + 1j * imag
        # skimage's truncation at n_stds=3: on white noise, the output's relative RMSE is the
        # kernel's, sqrt(the energy of |g| outside skimage's box / all of it), computed here
        wide = np.abs(kernel(frequency, theta, s, s, 8.0)) ** 2
        c = wide.shape[0] // 2
        box = math.ceil(max(abs(3 * s * math.cos(theta)), abs(3 * s * math.sin(theta)), 1))  # skimage's
        inner = wide[c - box:c + box + 1, c - box:c + box + 1].sum()
        bound = math.sqrt(1 - inner / wide.sum())
        assert 1e-4 < bound < 0.05                    # the difference is truncation, not noise
        err = rel_rms(ours, r0 + 1j * i0)
        assert err < 2 * bound + 2e-4, (frequency, theta, err, bound)
        # and against skimage's own kernel cut far out: the untruncated filter
        r8, i8 = skf.gabor(noise, frequency, theta, mode=mode, cval=0.25, offset=0.5, n_stds=8)
        assert rel_rms(ours, r8 + 1j * i8) < 2e-4


def test_bank_equals_single_calls(noise):
    freqs = [0.2, 0.07]
    thetas = np.arange(8) * np.pi / 8
    bank = gabor_bank(noise, freqs, thetas, offset=0.2, mode="nearest")
    assert bank.shape == (2, 8) + noise.shape and bank.dtype == np.complex128
    for i, f in enumerate(freqs):
        for j, t in enumerate(list(thetas) + [-0.5]):
            if j == 8:
                b = gabor_bank(noise, f, t, offset=0.2, mode="nearest")[0, 0]
            else:
                b = bank[i, j]
            real, imag = gabor(noise, f, t, offset=0.2, mode="nearest")
            np.testing.assert_allclose(b, real + 1j * imag, rtol=0, atol=1e-12)


def test_bank_mixed_fallback(noise):
    bank = gabor_bank(noise, [0.1], [0.0, 0.5], sigma_x=2.0, sigma_y=3.0)
    for j, t in enumerate([0.0, 0.5]):
        real, imag = gabor(noise, 0.1, t, sigma_x=2.0, sigma_y=3.0)
        np.testing.assert_allclose(bank[0, j], real + 1j * imag, rtol=0, atol=1e-13)


def test_dtypes(noise):
    real, imag = gabor(noise.astype(np.float32), 0.1, 0.3)
    assert real.dtype == np.float32 and imag.dtype == np.float32
    r64, i64 = gabor(noise, 0.1, 0.3)
    assert np.abs(real - r64).max() < 1e-5 * np.abs(r64).max()
    assert gabor_bank(noise.astype(np.float32), 0.1, 0.3).dtype == np.complex64
    assert gabor(noise.astype(np.float16), 0.1)[0].dtype == np.float32
    # integers: float64, not rescaled (scikit-image's gabor does not rescale them)
    img = (np.arange(64 * 72) % 251).reshape(64, 72).astype(np.uint8)
    real, imag = gabor(img, 0.1, 0.3)
    ref = gabor(img.astype(np.float64), 0.1, 0.3)
    assert real.dtype == np.float64
    np.testing.assert_array_equal(real, ref[0])
    np.testing.assert_array_equal(imag, ref[1])
    assert gabor(img.astype(bool), 0.1)[0].dtype == np.float64


def test_nan_confined():
    img = np.random.default_rng(3).standard_normal((80, 90))
    img[40, 45] = np.nan
    real, imag = gabor(img, 0.25, 0.3)
    assert np.isnan(real[40, 45]) and np.isnan(imag[40, 45])
    assert np.isfinite(real[:5]).all() and np.isfinite(imag[:, :5]).all()
    assert 0 < np.isnan(real).sum() < real.size


@pytest.mark.parametrize("kwargs,exc,word", [
    (dict(frequency=0.0), ValueError, "frequency"),
    (dict(frequency=-0.1), ValueError, "frequency"),
    (dict(frequency="a"), TypeError, "frequency"),
    (dict(frequency=0.1, theta=np.nan), ValueError, "theta"),
    (dict(frequency=0.1, bandwidth=0), ValueError, "bandwidth"),
    (dict(frequency=0.1, sigma_x=-1.0), ValueError, "sigma_x"),
    (dict(frequency=0.1, sigma_y=0.0), ValueError, "sigma_y"),
    (dict(frequency=0.1, n_stds=0), ValueError, "n_stds"),
    (dict(frequency=0.1, offset=np.inf), ValueError, "offset"),
    (dict(frequency=0.1, mode="bogus"), ValueError, "mode"),
    (dict(frequency=0.1, tol=2.0), ValueError, "tol"),
])
def test_bad_input(kwargs, exc, word):
    with pytest.raises(exc, match=word):
        gabor(np.ones((8, 8)), **kwargs)


def test_bad_image_and_bank_input():
    with pytest.raises(ValueError, match="image"):
        gabor(np.ones(8), 0.1)
    with pytest.raises(TypeError, match="image"):
        gabor(np.ones((8, 8), complex), 0.1)
    with pytest.raises(ValueError, match="frequencies"):
        gabor_bank(np.ones((8, 8)), [0.1, 0.0], [0.0])
    with pytest.raises(ValueError, match="thetas"):
        gabor_bank(np.ones((8, 8)), [0.1], [])


def test_a_direct_kernel_far_larger_than_the_image_is_refused():
    """An anisotropic Gaussian at an angle is convolved directly; a kernel far larger than the
    image would cost memory and time not bounded by the image: refused before any work."""
    with pytest.raises(ValueError, match="sigma_x=1000"):
        gabor(np.ones((8, 8)), 0.1, theta=0.3, sigma_x=1000.0, sigma_y=100.0)
    with pytest.raises(ValueError, match="too wide"):
        gabor(np.ones((3, 3)), 1e-7)           # too wide to plan, then too wide to convolve
    real, imag = gabor(np.ones((20, 20)), 0.1, theta=0.3, sigma_x=40.0, sigma_y=10.0)
    assert np.isfinite(real).all() and np.isfinite(imag).all()


def test_opencv_correspondence_stated_in_the_docs():
    """docs/guide/conventions.rst: the bank's parts are OpenCV's psi = 0 and psi = -pi/2 responses
    (BORDER_REFLECT, an isotropic kernel cut at 6 sigma) times 1 / (2 pi sigma^2); OpenCV's cut
    leaves about exp(-18) of the mass, and sftwave's default Gaussian tol bounds the rest."""
    cv2 = pytest.importorskip("cv2")
    img = np.random.default_rng(0).standard_normal((96, 80))
    s, f = 4.0, 0.1
    k = 2 * int(np.ceil(6 * s)) + 1
    for theta in (0.0, np.pi / 8, 0.7):
        parts = [cv2.filter2D(img, cv2.CV_64F, cv2.getGaborKernel((k, k), s, theta, 1 / f, 1.0, psi,
                                                                  ktype=cv2.CV_64F),
                              borderType=cv2.BORDER_REFLECT) for psi in (0.0, -np.pi / 2)]
        b = gabor_bank(img, [f], [theta], sigma_x=s, sigma_y=s)[0, 0] * (2 * np.pi * s * s)
        for got, ref in ((b.real, parts[0]), (b.imag, parts[1])):
            assert np.max(np.abs(got - ref)) <= 1e-4 * np.max(np.abs(ref))


# ----------------------------------------------------------------- the FIR and recursive paths

@pytest.fixture(params=["fir", "recursion"])
def path(request, monkeypatch):
    """Each separable group by the FIR (any length) or by the recursive passes."""
    from sftwave.feature import _gabor

    monkeypatch.setattr(_gabor, "FIR_MAX_RADII", 10**9 if request.param == "fir" else -1)
    return request.param


@pytest.mark.parametrize("mode", MODES)
def test_both_paths_against_the_untruncated_definition(noise, path, mode):
    # the ky = 0 group (theta 0: a real Gaussian down the columns), the kx = 0 group (pi / 2:
    # a real Gaussian along the rows), a general pair and an anisotropic axis-aligned kernel;
    # the reference cut at 8 sigma (mass beyond below 1e-13); white noise: the output's
    # relative RMSE is the kernel's, at most about tol (two axes at tol / 2 each)
    tol = 1e-6
    thetas = [0.0, np.pi / 2, 0.5, np.pi - 0.5]
    bank = gabor_bank(noise, 0.1, thetas, sigma_x=3.0, sigma_y=3.0, offset=0.3, mode=mode,
                      cval=0.4, tol=tol)
    for j, theta in enumerate(thetas):
        ref = direct(noise, kernel(0.1, theta, 3.0, 3.0, 8.0, 0.3), mode, cval=0.4)
        assert rel_rms(bank[0, j], ref) < 3 * tol, (theta, rel_rms(bank[0, j], ref))
    real, imag = gabor(noise, 0.1, np.pi / 2, sigma_x=2.5, sigma_y=6.0, mode=mode, tol=tol)
    ref = direct(noise, kernel(0.1, np.pi / 2, 2.5, 6.0, 8.0), mode)
    assert rel_rms(real + 1j * imag, ref) < 3 * tol


def test_float32_paths_against_the_definition(noise, path):
    # float32 arithmetic (the FIR) or float32 output (both): the kernel's tol plus float32's
    # rounding, a few units of 6e-8 per tap sum
    img = noise.astype(np.float32)
    bank = gabor_bank(img, 0.12, np.arange(4) * np.pi / 4, tol=1e-6)
    assert bank.dtype == np.complex64
    for j in range(4):
        ref = direct(img, kernel(0.12, j * np.pi / 4, PREFACTOR / 0.12, PREFACTOR / 0.12, 8.0))
        assert rel_rms(bank[0, j], ref) < 1e-5


def test_fir_radius_is_the_shortest_within_tol():
    # the truncated factor's relative RMSE against the untruncated one (|h_k| the Gaussian,
    # whatever the carrier): within tol at the chosen radius, above it one sample shorter
    from sftwave.feature._gabor import fir_radius

    for sigma, tol in [(1.0, 1e-4), (4.0, 5e-6), (4.0, 1e-9), (13.0, 1e-6)]:
        k = np.arange(-int(20 * sigma), int(20 * sigma) + 1)
        e = np.exp(-(k / sigma) ** 2)

        def err(r, e=e, k=k):
            return math.sqrt(e[np.abs(k) > r].sum() / e.sum())

        r = fir_radius(sigma, tol)
        assert err(r) <= tol < err(r - 1), (sigma, tol, r)


def test_the_fir_bound_check_never_refuses_a_radius_within_it():
    # _fir_radius_exceeds is a lower bound: wherever it says "beyond the limit", the scan's radius
    # is beyond it (so skipping the scan chooses as the scan would), and it says so for the
    # envelopes far wider than the limit that the scan would take O(sigma) to measure
    from sftwave.feature._gabor import _fir_radius_exceeds, fir_radius

    for sigma in (0.5, 50.0, 150.0, 180.0, 200.0, 260.0, 400.0, 1000.0):
        for tol in (1e-9, 1e-4, 0.1, 0.5, 0.9):
            if _fir_radius_exceeds(sigma, tol, 320):
                assert fir_radius(sigma, tol) > 320, (sigma, tol)
    assert _fir_radius_exceeds(5.6e6, 1e-4, 320) and _fir_radius_exceeds(2000.0, 0.5, 320)


def test_fir_is_chosen_by_its_length(monkeypatch):
    # the cost rule: the FIR where Rv + Rh <= FIR_MAX_RADII, the recursions beyond, and the
    # recursions for an image holding NaN (they confine it)
    from sftwave.engines.numba import gabor_fir
    from sftwave.feature import _gabor

    calls = []
    real_fir = gabor_fir.gabor_group_fir
    monkeypatch.setattr(gabor_fir, "gabor_group_fir", lambda *a: calls.append(a) or real_fir(*a))
    img = np.random.default_rng(1).standard_normal((40, 50))
    gabor_bank(img, 0.1, [0.0, 0.4, np.pi - 0.4], sigma_x=2.0, sigma_y=2.0)
    assert len(calls) == 2                                   # two groups
    r = _gabor.fir_radius(2.0, _gabor._axis_tol(2.0, None))
    monkeypatch.setattr(_gabor, "FIR_MAX_RADII", 2 * r - 1)
    gabor_bank(img, 0.1, [0.0, 0.4], sigma_x=2.0, sigma_y=2.0)
    assert len(calls) == 2
    monkeypatch.setattr(_gabor, "FIR_MAX_RADII", 2 * r)
    gabor_bank(img, 0.1, [0.0], sigma_x=2.0, sigma_y=2.0)
    assert len(calls) == 3
    img[3, 4] = np.nan
    gabor_bank(img, 0.1, [0.0], sigma_x=2.0, sigma_y=2.0)
    assert len(calls) == 3


def test_fir_path_bits_do_not_depend_on_the_threads():
    import sftwave

    img = np.random.default_rng(2).standard_normal((150, 70)).astype(np.float32)
    with sftwave.set_workers(1):
        ref = gabor_bank(img, 0.1, np.arange(8) * np.pi / 8)
    for w in (2, 3):
        with sftwave.set_workers(w):
            np.testing.assert_array_equal(gabor_bank(img, 0.1, np.arange(8) * np.pi / 8), ref)
