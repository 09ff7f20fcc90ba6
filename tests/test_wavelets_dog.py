"""sftwave.cwt with the derivative-of-Gaussian (DOG, Mexican hat) wavelets, against their definition.

The reference is tests/naive.py's ``exact_dog_transform``: Torrence & Compo's
wavelet written from its formula (Hermite polynomial times the Gaussian), the
signal extended with np.pad as scipy.ndimage extends it, and a direct sum over
the whole support.  The bound on a row's relative RMSE for white noise (whose
extension is white noise, or zeros for ``mode='constant'`` with ``cval=0``)
is three times the kernel's relative RMSE (the plans' ``tol``), as in
test_wavelets.py: its expectation is the kernel's error, and the factor covers
the sample fluctuation over signals of at least 24 sigma.
"""

import math
import zlib

import numpy as np
import pytest
from naive import exact_dog, exact_dog_transform, rel_rmse

from sftwave import cwt
from sftwave.plans.dog import DOG_ORDERS, dog_factor, dog_scale, dog_target, select_dog_scales
from sftwave.plans.fit import FIRPlan, SFTPlan, plan_kernel
from sftwave.wavelets import parse_wavelet

ORDERS = [1, 2, 3, 6]


def seed(*parts):
    return zlib.crc32("/".join(map(str, parts)).encode())


def white(n, *key, shape=()):
    return np.random.default_rng(seed(*key)).standard_normal(shape + (n,))


# ----------------------------------------------------------------------------- the wavelet itself


@pytest.mark.parametrize("m", DOG_ORDERS)
@pytest.mark.parametrize("sigma", [0.7, 2.0, 9.5, 40.0])
def test_kernel_is_the_sampled_wavelet(m, sigma):
    """dog_target is sigma^-1/2 psi_0(-k / sigma) of T&C's formula (naive.exact_dog), to rounding."""
    R = int(13 * sigma + 10)
    k = np.arange(-R, R + 1)
    ref = exact_dog(m, -k / sigma) / math.sqrt(sigma)
    got = dog_target(sigma, m)(k)
    # Z(sigma) = sqrt(2 pi) sigma (1 + 2 exp(-2 pi^2 sigma^2) + ...): the sampled normalisation
    z = 2.0 * math.exp(-2.0 * math.pi**2 * sigma**2)
    assert np.max(np.abs(got - ref)) <= (1e-13 + 3 * z) * np.max(np.abs(ref))


@pytest.mark.parametrize("m", DOG_ORDERS)
def test_wavelet_has_unit_energy_and_zero_mean(m):
    """T&C's normalisation: unit energy (sum psi^2 / sigma -> integral psi_0^2 = 1), zero mean."""
    sigma = 12.0
    k = np.arange(-400, 401)
    h = dog_target(sigma, m)(k)
    assert abs(h @ h - 1.0) < 1e-12
    assert abs(h.sum()) < 1e-12 * np.abs(h).sum()


def test_pycwt_psi_is_the_reference():
    """naive.exact_dog is pycwt's DOG(m).psi for even m, its negative for odd m.

    pycwt writes ``(-1)^(m+1) He_m(eta) exp(-eta^2/2)``, leaving out the
    ``(-1)^m`` of ``d^m/deta^m exp(-eta^2/2) = (-1)^m He_m exp(-eta^2/2)``
    (its psi_ft, T&C's Table 1 ``-i^m``, is the transform of its psi: pycwt
    is consistent, and T&C tabulate even orders only)."""
    pycwt = pytest.importorskip("pycwt")
    eta = np.linspace(-8, 8, 161)
    for m in ORDERS:
        assert np.allclose(exact_dog(m, eta), (-1) ** m * pycwt.DOG(m).psi(eta), rtol=1e-12,
                           atol=1e-14)


@pytest.mark.parametrize("m", [2, 6])
@pytest.mark.parametrize("tol", [1e-4, 1e-6])
def test_plans_meet_tol(m, tol):
    """Each plan's own kernel is within tol (relative RMSE) of the exact sampled wavelet."""
    sigmas = [0.9, 3.0, 25.0, 160.0]
    plans = select_dog_scales(sigmas, m, tol, fir_taps_per_order=2.75)
    kinds = set()
    for s, plan in zip(sigmas, plans):
        kinds.add(type(plan).__name__)
        if isinstance(plan, SFTPlan):
            lags, h = plan_kernel(plan)
            k = np.rint(lags).astype(int)
        else:
            assert isinstance(plan, FIRPlan)
            h = plan.kernel
            k = np.arange(h.size) - h.size // 2
        R = int(13 * s + 10) + int(np.max(np.abs(k)))
        kk = np.arange(-R, R + 1)
        full = np.zeros(kk.size)
        full[k + R] = h
        assert rel_rmse(full, dog_target(s, m)(kk)) <= tol * 1.0001
    assert kinds == {"SFTPlan", "FIRPlan"}      # both kinds served at these scales


# ----------------------------------------------------------------------------- against the definition


@pytest.mark.parametrize("m", ORDERS)
@pytest.mark.parametrize("mode", ["reflect", "wrap", "constant"])
@pytest.mark.parametrize("tol", [None, 1e-6])
def test_cwt_against_the_definition(m, mode, tol):
    fs = 10.0
    freqs = np.array([0.02, 0.1, 0.5, 2.0, 4.5])     # sigma from 0.4 to 100 samples (m=2)
    n = 2600                                        # >= 24 of the largest sigma (108 at m=6)
    x = white(n, "def", m, mode)
    y = cwt(x, freqs, fs, wavelet=f"dog{m}", mode=mode, tol=tol)
    assert y.dtype == np.float64 and y.shape == (freqs.size, n)
    bound = 3 * (1e-4 if tol is None else tol)
    for i, s in enumerate(dog_scale(freqs, fs, m)):
        ref = exact_dog_transform(x, s, m, mode=mode)
        assert rel_rmse(y[i], ref) <= bound, (i, s)


@pytest.mark.parametrize("m", [2, 6])
def test_outputs_are_the_coefficients(m):
    """'complex' and 'real' are the real coefficients; 'power' their square, 'abs' their modulus."""
    x = white(700, "outputs", m, shape=(2,))
    freqs = [0.03, 0.2]
    y = cwt(x, freqs, wavelet=f"dog{m}")
    assert np.array_equal(cwt(x, freqs, wavelet=f"dog{m}", output="real"), y)
    assert np.allclose(cwt(x, freqs, wavelet=f"dog{m}", output="power"), y * y, rtol=1e-12, atol=0)
    assert np.allclose(cwt(x, freqs, wavelet=f"dog{m}", output="abs"), np.abs(y), rtol=1e-12, atol=0)


def test_mexh_is_dog2_and_the_mexican_hat():
    x = white(500, "mexh")
    y = cwt(x, [0.05], wavelet="mexh")
    assert np.array_equal(y, cwt(x, [0.05], wavelet="dog2"))
    assert np.array_equal(y, cwt(x, [0.05], wavelet=" MEXH "))
    # the Mexican hat's peak: psi(0) = 1 / sqrt(Gamma(5/2)); a unit impulse gives it at the centre
    s = float(dog_scale(0.05, 1.0, 2))
    d = np.zeros(501)
    d[250] = 1.0
    peak = cwt(d, [0.05], wavelet="mexh", mode="constant", tol=1e-8)[0, 250]
    assert abs(peak * math.sqrt(s) * math.sqrt(math.gamma(2.5)) - 1.0) < 1e-7


def test_fourier_period_is_one_over_f():
    """A row of frequency f peaks (over rows) on a sine of frequency f: T&C's Fourier period."""
    fs = 1.0
    freqs = np.geomspace(0.01, 0.1, 61)
    t = np.arange(8000)
    for m in (2, 6):
        for f0 in (0.02, 0.05):
            x = np.sin(2 * np.pi * f0 * t)
            p = cwt(x, freqs, fs, wavelet=f"dog{m}", output="power", mode="wrap")
            mean = p[:, 2000:6000].mean(axis=1) / dog_scale(freqs, fs, m)  # T&C's power / scale
            # for a sine, W^2 / s (time average) peaks where |psi_hat(s 2 pi f0)|^2 does:
            # s 2 pi f0 = sqrt(m) (not sqrt(m + 1/2)), so the peak row is at f0 sqrt((m + .5) / m)
            fpk = freqs[np.argmax(mean)]
            assert abs(math.log(fpk / (f0 * math.sqrt((m + 0.5) / m)))) < 0.02


# ----------------------------------------------------------------------------- against pycwt


@pytest.mark.parametrize("m", ORDERS)
def test_against_pycwt(m):
    """pycwt.cwt(wavelet=DOG(m)) on the same data, away from its FFT padding's edges.

    pycwt's wavelet is sampled in frequency (its psi_ft), sftwave's in time: the
    two agree where the wavelet's spectrum is negligible beyond Nyquist (sigma
    of two samples and more).  pycwt's wavelet of odd order is the negative of
    T&C's formula (test_pycwt_psi_is_the_reference): its odd orders'
    coefficients are the negatives of sftwave's.
    """
    pycwt = pytest.importorskip("pycwt")
    fs = 4.0
    x = white(4000, "pycwt", m)
    freqs = np.array([0.03, 0.1, 0.3])
    W = pycwt.cwt(x, 1 / fs, wavelet=pycwt.DOG(m), freqs=freqs)[0]
    y = cwt(x, freqs, fs, wavelet=f"dog{m}", mode="constant", tol=1e-7)
    sign = -1.0 if m % 2 else 1.0
    for i, s in enumerate(dog_scale(freqs, fs, m)):
        assert s >= 2.0
        edge = int(14 * s)
        inner = slice(edge, x.size - edge)
        assert rel_rmse(y[i, inner], sign * W[i, inner].real) < 1e-5, (i, s)


# ----------------------------------------------------------------------------- arguments


@pytest.mark.parametrize("bad", ["dog0", "dog9", "dog", "gaus2", "morl", "dog2.5", "", "dog-1"])
def test_bad_wavelet_names(bad):
    with pytest.raises(ValueError, match="wavelet"):
        cwt(np.ones(100), [0.1], wavelet=bad)


@pytest.mark.parametrize("bad", [2, None, ("dog", 2), b"mexh"])
def test_wavelet_must_be_a_string(bad):
    with pytest.raises(TypeError, match="wavelet"):
        cwt(np.ones(100), [0.1], wavelet=bad)


def test_parse_wavelet():
    assert parse_wavelet("morlet") is None
    assert [parse_wavelet(f"dog{m}") for m in DOG_ORDERS] == list(DOG_ORDERS)


@pytest.mark.parametrize("xi", [5.0, 7, [6.0, 6.0], True])
def test_xi_refused(xi):
    with pytest.raises(ValueError, match="xi"):
        cwt(np.ones(100), [0.1, 0.2], wavelet="mexh", xi=xi)


def test_phase_refused():
    with pytest.raises(ValueError, match="phase"):
        cwt(np.ones(100), [0.1], wavelet="dog6", output="phase")
    with pytest.raises(ValueError, match="output"):
        cwt(np.ones(100), [0.1], wavelet="dog6", output="imag")


@pytest.mark.parametrize("method", ["direct", "multiply", "fft"])
def test_morlet_methods_refused(method):
    with pytest.raises(ValueError, match="method"):
        cwt(np.ones(100), [0.1], wavelet="mexh", method=method)


@pytest.mark.parametrize("method", ["fir", "bank", "auto"])
def test_methods_agree(method):
    x = white(3000, "methods")
    freqs = [0.01, 0.05]
    y = cwt(x, freqs, wavelet="dog6", method=method, tol=1e-6)
    for i, s in enumerate(dog_scale(np.array(freqs), 1.0, 6)):
        assert rel_rmse(y[i], exact_dog_transform(x, s, 6)) <= 3e-6


def test_other_engines_refused():
    with pytest.raises(ValueError, match="engine"):
        cwt(np.ones(100), [0.1], wavelet="mexh", engine="xp")


def test_complex_dtype_refused():
    with pytest.raises(ValueError, match="dtype"):
        cwt(np.ones(100), [0.1], wavelet="mexh", dtype=np.complex128)
    with pytest.raises(ValueError, match="out"):
        cwt(np.ones(100), [0.1], wavelet="mexh", out=np.empty((1, 100), np.complex128))


def test_too_wide_refused():
    with pytest.raises(ValueError, match="freqs"):
        cwt(np.ones(300), [1e-6], wavelet="mexh")


def test_bad_freqs_and_tol():
    with pytest.raises(ValueError, match="freqs"):
        cwt(np.ones(100), [0.6], wavelet="mexh")           # beyond Nyquist
    with pytest.raises(ValueError, match="tol"):
        cwt(np.ones(100), [0.1], wavelet="mexh", tol=0.5)


# ----------------------------------------------------------------------------- layout, dtypes, out, decim


def test_axis_and_channels():
    x = white(900, "axis", shape=(3, 2))
    freqs = [0.02, 0.1]
    y = cwt(x, freqs, wavelet="dog6", bank_method="iir1")     # (auto: by the count of lines)
    assert y.shape == (3, 2, 2, 900)
    assert np.array_equal(y[1, 0], cwt(x[1, 0], freqs, wavelet="dog6", bank_method="iir1"))
    z = cwt(np.moveaxis(x, -1, 0), freqs, wavelet="dog6", axis=0, bank_method="iir1")
    assert np.array_equal(z, y)


def test_strided_and_integer_input():
    x = white(1800, "strided")
    freqs = [0.02, 0.2]
    assert np.array_equal(cwt(x[::2], freqs, wavelet="mexh"),
                          cwt(np.ascontiguousarray(x[::2]), freqs, wavelet="mexh"))
    xi = np.round(100 * x).astype(np.int32)
    assert np.array_equal(cwt(xi, freqs, wavelet="mexh"), cwt(xi.astype(np.float64), freqs, wavelet="mexh"))
    xb = x > 0
    assert np.array_equal(cwt(xb, freqs, wavelet="mexh"), cwt(xb.astype(np.float64), freqs, wavelet="mexh"))


def test_float32():
    x = white(2000, "f32")
    freqs = [0.01, 0.05, 0.2]
    y = cwt(x.astype(np.float32), freqs, wavelet="dog6")
    assert y.dtype == np.float32
    ref = cwt(x, freqs, wavelet="dog6")
    for i in range(3):
        assert rel_rmse(y[i], ref[i]) < 2e-4


@pytest.mark.parametrize("output", ["real", "power", "abs"])
@pytest.mark.parametrize("decim", [1, 3, 8])
def test_decim_and_out(output, decim):
    """decim keeps every decim-th sample of the whole transform; out is written and returned."""
    x = white(1000, "decim", output, decim, shape=(2,))
    freqs = [0.01, 0.07, 0.3]
    full = cwt(x, freqs, wavelet="dog6", output=output)
    y = cwt(x, freqs, wavelet="dog6", output=output, decim=decim)
    assert y.shape == (2, 3, -(-1000 // decim))
    assert np.allclose(y, full[..., ::decim], rtol=1e-12, atol=1e-12 * np.abs(full).max())
    out = np.empty_like(y)
    assert cwt(x, freqs, wavelet="dog6", output=output, decim=decim, out=out) is out
    assert np.array_equal(out, y)


@pytest.mark.parametrize("bank_method", ["iir1", "iir1-2k"])
def test_workers_and_bank_methods(bank_method):
    """The same bits on any thread count; the bank methods agree to rounding."""
    x = white(3000, "workers", shape=(4,))
    freqs = np.geomspace(0.005, 0.4, 12)
    y1 = cwt(x, freqs, wavelet="mexh", workers=1, bank_method=bank_method)
    y2 = cwt(x, freqs, wavelet="mexh", workers=2, bank_method=bank_method)
    assert np.array_equal(y1, y2)
    ref = cwt(x, freqs, wavelet="mexh", workers=1)
    assert np.allclose(y1, ref, rtol=0, atol=1e-10 * np.abs(ref).max())


# ----------------------------------------------------------------------------- non-finite input


def test_nan_propagates_within_the_window():
    """NaN makes exactly the coefficients whose plan window holds it NaN; the rest are as the clean
    signal's with that sample set to anything (0 here) outside their window."""
    x = white(3000, "nan")
    freqs = [0.02, 0.2]
    x[1500] = np.nan
    y = cwt(x, freqs, wavelet="mexh", mode="constant")
    clean = x.copy()
    clean[1500] = 0.0
    ref = cwt(clean, freqs, wavelet="mexh", mode="constant")
    plans = select_dog_scales(list(dog_scale(np.array(freqs), 1.0, 2)), 2, 1e-4, n=3000,
                              fir_taps_per_order=1.0)   # only for the windows' reach
    for i in range(2):
        bad = np.isnan(y[i])
        assert bad[1500] and bad.sum() < 3000
        assert np.allclose(y[i, ~bad], ref[i, ~bad], rtol=0, atol=1e-9 * np.abs(ref[i]).max())
        hit = np.flatnonzero(bad)
        assert hit.min() <= 1500 <= hit.max()
        reach = plans[i].length if isinstance(plans[i], SFTPlan) else plans[i].size
        assert hit.max() - hit.min() <= 2 * reach


def test_inf_and_omit():
    x = white(2000, "omit")
    freqs = [0.05]
    y0 = cwt(x, freqs, wavelet="dog6", nan_policy="omit")
    assert np.array_equal(y0, cwt(x, freqs, wavelet="dog6"))    # finite input: the ordinary row
    x[1000:1010] = np.inf
    y = cwt(x, freqs, wavelet="dog6", nan_policy="omit")
    assert np.isfinite(y).all()
    yp = cwt(x, freqs, wavelet="dog6")
    assert np.isnan(yp[0, 1000])


# ----------------------------------------------------------------------------- scaling and factor


def test_dog_factor_matches_the_gaussian_derivative():
    """cwt(wavelet='dogm') is dog_factor times gaussian_filter1d(order=m) (orders 1 and 2)."""
    import sftwave

    x = white(2000, "factor")
    for m in (1, 2):
        s = float(dog_scale(0.03, 1.0, m))
        y = cwt(x, [0.03], wavelet=f"dog{m}", mode="nearest", tol=1e-8)[0]
        g = sftwave.gaussian_filter1d(x, s, order=m, mode="nearest", tol=1e-8)
        assert rel_rmse(y, dog_factor(s, m) * g) < 1e-7
