"""sftwave.signal: scipy 1.14's cwt, ricker and morlet2, and find_peaks_cwt, against scipy.

The references: scipy 1.14's ``cwt`` written out here (a 'same' convolution
with the wavelet cut at ``min(10 width, n)`` points, sftwave's ``truncated=True``
must equal it bit for bit), the untruncated sampled wavelet convolved
directly, and scipy 1.17's ``find_peaks_cwt`` (still shipped) on scipy's own
test signals.  Part of scipy 1.14's ``scipy/signal/tests/test_wavelets.py``
(tag v1.14.1; BSD-3-Clause, Copyright (c) 2001-2002 Enthought, Inc. 2003,
SciPy Developers) is vendored below, its ``ricker``, ``morlet2`` and ``cwt``
tests run on sftwave's functions.
"""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_array_almost_equal, assert_array_equal
from scipy.signal import convolve
from scipy.signal import find_peaks_cwt as scipy_find_peaks_cwt

from sftwave import signal as S


def scipy114_cwt(data, wavelet, widths, **kwargs):
    """scipy 1.14's ``_cwt``, written out."""
    dtype = np.complex128 if np.asarray(wavelet(1, widths[0], **kwargs)).dtype.char in "FDG" \
        else np.float64
    out = np.empty((len(widths), len(data)), dtype=dtype)
    for ind, width in enumerate(widths):
        N = np.min([10 * width, len(data)])
        out[ind] = convolve(data, np.conj(wavelet(N, width, **kwargs)[::-1]), mode="same")
    return out


def direct_untruncated(data, wavelet, width, offset, **kwargs):
    """``sum_m data[m] conj(psi(m - i - offset))`` with the wavelet sampled to 20 widths."""
    n = len(data)
    R = int(20 * width) + 2
    u = np.arange(-R, R + 1) - offset
    if wavelet is S.ricker:
        A = 2 / (np.sqrt(3 * width) * np.pi**0.25)
        psi = A * (1 - (u / width) ** 2) * np.exp(-0.5 * (u / width) ** 2)
    else:
        w = kwargs.get("w", 5)
        psi = np.exp(1j * w * u / width) * np.exp(-0.5 * (u / width) ** 2) * np.pi**-0.25 \
            / np.sqrt(width)
    out = np.zeros(n, dtype=complex)
    xp = np.concatenate([np.zeros(R), data, np.zeros(R)])
    for i in range(n):
        out[i] = np.sum(xp[i:i + 2 * R + 1] * np.conj(psi))
    return out


def _gen_gaussians(center_locs, sigmas, total_length):
    xdata = np.arange(0, total_length).astype(float)
    out_data = np.zeros(total_length, dtype=float)
    for ind, sigma in enumerate(sigmas):
        tmp = (xdata - center_locs[ind]) / sigma
        out_data += np.exp(-(tmp**2))
    return out_data


def _gen_gaussians_even(sigmas, total_length):
    num_peaks = len(sigmas)
    delta = total_length / (num_peaks + 1)
    center_locs = np.linspace(delta, total_length - delta, num=num_peaks).astype(int)
    return _gen_gaussians(center_locs, sigmas, total_length), center_locs


@pytest.fixture(scope="module")
def data():
    return np.random.default_rng(0).standard_normal(300)


@pytest.mark.parametrize("wavelet,kwargs", [(S.ricker, {}), (S.morlet2, {}), (S.morlet2, {"w": 3.0})])
def test_truncated_is_scipy114(data, wavelet, kwargs):
    widths = [0.3, 1, 2.5, 7, 33.3, 100]
    assert_array_equal(S.cwt(data, wavelet, widths, truncated=True, **kwargs),
                       scipy114_cwt(data, wavelet, widths, **kwargs))


@pytest.mark.parametrize("wavelet,kwargs", [(S.ricker, {}), (S.morlet2, {}), (S.morlet2, {"w": 7.0})])
def test_untruncated_is_the_sampled_wavelet(data, wavelet, kwargs):
    # Rows of widths up to 6.4 are scipy's; wider: integer widths (10 w even: scipy's
    # centre half a sample left), tenths (10 w odd: centred), and a width whose kernel
    # the data's length cuts (N = 300, even).
    widths = np.array([7.0, 8.0, 7.1, 8.5, 12.0, 40.3])
    got = S.cwt(data, wavelet, widths, **kwargs)
    for row, w in zip(got, widths):
        ref = direct_untruncated(data, wavelet, w, S._grid_offset(w, len(data)), **kwargs)
        # The fast rows' kernel error is a relative RMSE of 1e-8 (DEFAULT_TOL); on a
        # white-noise row the output's error is of that order: 1e-6 leaves room.
        assert np.abs(row - ref).max() <= 1e-6 * np.abs(ref).max()


def test_untruncated_close_to_scipy(data):
    # scipy's Ricker is cut at 5 widths, where it is 24 exp(-12.5) = 9e-5 of its peak.
    widths = np.arange(7, 21)
    got, ref = S.cwt(data, S.ricker, widths), scipy114_cwt(data, S.ricker, widths)
    assert np.abs(got - ref).max() < 1e-3 * np.abs(ref).max()


def test_other_callable_is_scipys(data):
    def flat(n, w):
        return np.full(int(n), 1.0 / int(n))
    assert_array_equal(S.cwt(data, flat, [3, 8]), scipy114_cwt(data, flat, [3, 8]))


@pytest.mark.parametrize("widths", [np.arange(1, 41), np.arange(7, 30), [3.0, 1.0, 20.0],
                                    np.arange(1, 12, 0.5)])
def test_peak_rows_are_cwt(widths):
    # find_peaks_cwt's matrix with the products left to the kernel: the public cwt's numbers
    rng = np.random.default_rng(3)
    x = rng.standard_normal(700).cumsum()
    from sftwave._checks.signal import signal_cwt_request

    req = signal_cwt_request(x, S.ricker, widths, None, False, None, {})
    got = S._peak_rows(x, req)
    if got is None:                     # rows of several offsets: the matrix itself
        assert len(S._row_kinds(req)[1]) > 1
        return
    rows, first, scale = got
    assert_array_equal(scale[:, None] * rows[:, first:first + 700], S.cwt(x, S.ricker, widths))


def _scipy_signals():
    sig = [5.0, 3.0, 10.0, 20.0, 10.0, 50.0]
    exact, _ = _gen_gaussians_even(sig, 500)
    rng = np.random.RandomState(18181911)
    noisy = exact + (rng.rand(500) - 0.5) * 0.14
    rng2 = np.random.RandomState(181819141)
    noise = (rng2.rand(100) - 0.5) * 2
    two, _ = _gen_gaussians_even([2.0, 2.0], 1000)
    two = two + (np.random.RandomState(18181911).rand(1000) - 0.5) * 0.1
    two[250:320] -= 1
    from scipy.signal.windows import gaussian
    return [
        (exact, np.arange(0.1, 50.0), dict(gap_thresh=2, min_snr=0, min_length=None)),
        (noisy, np.arange(0.1, 50.0), dict(min_length=15, gap_thresh=1, min_snr=0.07 / 5)),
        (noise, np.arange(10, 50), dict(min_snr=5, noise_perc=30)),
        (gaussian(200, 2), np.array([1, 2, 3, 4]), dict(wavelet=gaussian)),
        (two, np.arange(0.1, 2.0, 0.2), dict(gap_thresh=2, min_snr=3, min_length=None)),
        (two, np.arange(0.1, 2.0, 0.2), dict(gap_thresh=2, min_snr=3, window_size=20)),
        (np.sin(np.arange(0, np.pi, 0.05)), 1, {}),
        (np.sin(np.arange(0, np.pi, 0.05)), np.arange(1, 10), {}),
    ]


@pytest.mark.parametrize("case", range(8))
@pytest.mark.parametrize("truncated", [False, True])
def test_find_peaks_cwt_is_scipys(case, truncated):
    vector, widths, kwargs = _scipy_signals()[case]
    assert_array_equal(S.find_peaks_cwt(vector, widths, truncated=truncated, **kwargs),
                       scipy_find_peaks_cwt(vector, widths, **kwargs))


def test_find_peaks_cwt_many_widths():
    rng = np.random.default_rng(1)
    t = np.arange(3000)
    x = sum(np.exp(-(((t - c) / s) ** 2)) for c, s in zip(rng.uniform(0, 3000, 12),
                                                          rng.uniform(2, 40, 12)))
    x = x + 0.05 * rng.standard_normal(3000)
    widths = np.arange(1, 61)
    assert_array_equal(S.find_peaks_cwt(x, widths), scipy_find_peaks_cwt(x, widths))


@pytest.mark.parametrize("call,match", [
    (lambda: S.cwt(np.zeros(5), "ricker", [1]), "wavelet"),
    (lambda: S.cwt(np.zeros(5), S.ricker, [0.0]), "widths"),
    (lambda: S.cwt(np.zeros((2, 5)), S.ricker, [1]), "data"),
    (lambda: S.ricker(10, -1.0), "a"),
    (lambda: S.morlet2(10, 0.0), "s"),
    (lambda: S.find_peaks_cwt(np.zeros(50), [1, 2], max_distances=[1.0]), "max_distances"),
    (lambda: S.find_peaks_cwt(np.zeros(50), [1, 2], noise_perc=120), "noise_perc"),
])
def test_bad_arguments(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


# --- scipy 1.14.1's scipy/signal/tests/test_wavelets.py (morlet2, ricker, cwt), on sftwave's ---

def test_morlet2_scipy():
    w = S.morlet2(1.0, 0.5)
    assert_array_equal(w, (np.pi**(-0.25) * np.sqrt(1 / 0.5)).astype(complex))
    for length in [5, 11, 15, 51, 101]:
        w = S.morlet2(length, 1.0)
        assert len(w) == length and np.argmax(w) == length // 2
    w = abs(S.morlet2(100, 2.0))
    half_vec = np.arange(0, 50)
    assert_array_almost_equal(w[half_vec], w[-(half_vec + 1)])
    x = np.array([5.03701224e-09 + 2.46742437e-24j, 1.88279253e+00 + 0.00000000e+00j,
                  5.03701224e-09 - 2.46742437e-24j])
    assert_array_almost_equal(x, S.morlet2(3, s=1 / (2 * np.pi), w=2))


def test_ricker_scipy():
    assert_array_equal(S.ricker(1.0, 1), 2 / (np.sqrt(3 * 1.0) * (np.pi ** 0.25)))
    for length in [5, 11, 15, 51, 101]:
        w = S.ricker(length, 1.0)
        assert len(w) == length and np.argmax(w) == length // 2
    w = S.ricker(100, 2.0)
    half_vec = np.arange(0, 50)
    assert_array_almost_equal(w[half_vec], w[-(half_vec + 1)])
    for a in [5, 10, 15, 20, 30]:
        w = S.ricker(99, a)
        vec = np.arange(0, 99) - 49.0
        assert_array_almost_equal(w[np.argmin(np.abs(vec - a))], 0)
        assert_array_almost_equal(w[np.argmin(np.abs(vec + a))], 0)


def test_cwt_scipy():
    test_data = np.sin(np.pi * np.arange(0, 100) / 10.0)
    cwt_dat = S.cwt(test_data, lambda s, t: np.array([1]), [1.0])
    assert cwt_dat.shape == (1, 100)
    assert_array_almost_equal(test_data, cwt_dat.flatten())
    widths = [1, 3, 4, 5, 10]
    assert S.cwt(test_data, S.ricker, widths).shape == (len(widths), 100)
    cwt_dat = S.cwt(test_data, lambda n, w: np.full(w, 1 / w), [1000])
    assert_array_almost_equal(cwt_dat, np.mean(test_data))
