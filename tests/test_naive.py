"""Sanity of the references in tests/naive.py, checked against scipy (not against sftwave)."""

import numpy as np
import pytest
import scipy.ndimage as ndi
from naive import (
    exact_gaussian_filter1d,
    exact_kernel,
    extend,
    naive_components,
    rel_rmse,
)

MODES = ["reflect", "mirror", "nearest", "wrap", "constant",
         "grid-mirror", "grid-wrap", "grid-constant"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", [1, 2, 3, 7, 20])
def test_extend_matches_scipy_extension(mode, n):
    """scipy.ndimage.correlate1d with a one-hot kernel reads x_ext at a fixed offset.

    With weights e_0 of length 2r+1, output i is the extended input at i - r;
    concatenating offsets -r and +r reads every extended sample.
    """
    x = np.arange(1.0, n + 1.0) ** 1.5
    r = 45  # many periods of the extension for short signals
    w = np.zeros(2 * r + 1)
    w[0] = 1.0
    left = ndi.correlate1d(x, w, mode=mode, cval=-3.25)  # x_ext[i - r]
    w = w[::-1].copy()
    right = ndi.correlate1d(x, w, mode=mode, cval=-3.25)  # x_ext[i + r]
    ext = extend(x, r, r, mode, cval=-3.25)
    assert ext.size == n + 2 * r
    np.testing.assert_array_equal(ext[:n], left)
    np.testing.assert_array_equal(ext[2 * r :], right)


@pytest.mark.parametrize("order", [0, 1, 2])
@pytest.mark.parametrize("mode", ["reflect", "wrap", "constant", "mirror", "nearest"])
def test_exact_filter_matches_scipy_wide_truncation(order, mode):
    """scipy with truncate=12 differs from the exact kernel by ~1e-31: only rounding remains."""
    x = np.random.default_rng(0).standard_normal(300)
    for sigma in (1.5, 9.0, 60.0):
        ref = exact_gaussian_filter1d(x, sigma, order, mode, cval=0.5)
        sp = ndi.gaussian_filter1d(x, sigma, order=order, mode=mode, cval=0.5, truncate=12.0)
        assert rel_rmse(sp, ref) <= 1e-12


def test_exact_filter_axis_and_complex():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((4, 30, 5))
    y = exact_gaussian_filter1d(a, 3.0, 1, "wrap", axis=1)
    for i in range(4):
        for j in range(5):
            np.testing.assert_allclose(y[i, :, j], exact_gaussian_filter1d(a[i, :, j], 3.0, 1, "wrap"),
                                       rtol=0, atol=1e-15)
    z = a[0, :, 0] + 1j * a[1, :, 0]
    yz = exact_gaussian_filter1d(z, 3.0, 0)
    np.testing.assert_array_equal(yz.real, exact_gaussian_filter1d(z.real, 3.0, 0))
    np.testing.assert_array_equal(yz.imag, exact_gaussian_filter1d(z.imag, 3.0, 0))


def test_exact_kernel_formulas():
    k = np.arange(-30, 31)
    s = 4.0
    G = np.exp(-(k**2) / (2 * s * s)) / np.sqrt(2 * np.pi * s * s)
    np.testing.assert_allclose(exact_kernel(s, 0, k), G, rtol=1e-14)
    # derivatives of the continuous Gaussian, sampled
    np.testing.assert_allclose(exact_kernel(s, 1, k), -k / s**2 * G, rtol=1e-13, atol=1e-300)
    np.testing.assert_allclose(exact_kernel(s, 2, k), (k**2 / s**4 - 1 / s**2) * G, rtol=1e-12, atol=1e-18)


def test_naive_components_small_case_by_hand():
    x = np.array([1.0, 2.0, 4.0, 8.0])
    w = np.exp(-0.1 - 0.7j)
    S = naive_components(x, [0.7], 0.1, 3)
    # S[n] = x[n+2] + w x[n+1] + w^2 x[n]
    expect = [4 + 2 * w + w * w * 1, 8 + 4 * w + 2 * w * w]
    np.testing.assert_allclose(S[0], expect, rtol=1e-15)
    assert naive_components(x, [0.0, 1.0], 0.0, 5).shape == (2, 0)


def test_rel_rmse():
    b = np.array([3.0, 4.0])
    assert rel_rmse(b, b) == 0.0
    assert rel_rmse(np.zeros(2), b) == pytest.approx(1.0)
    assert rel_rmse(b * 1.01, b) == pytest.approx(0.01)
    assert rel_rmse(b + 1j, b) == pytest.approx(np.sqrt(2 / 25))


def test_boxcar_weight_by_hand():
    from naive import boxcar_weight
    u = [0.0, 1.0, 2.0]
    # cells [-0.5, 0.5], [0.5, 1.5], [1.5, 2.5]; the box of row 1 is [0.25, 1.75]
    assert [boxcar_weight(u, 1, j, 1.5) for j in range(3)] == [0.25, 1.0, 0.25]
    # row 0's box [-0.75, 0.75]: its own cell whole, a quarter of the next
    assert [boxcar_weight(u, 0, j, 1.5) for j in range(3)] == [1.0, 0.25, 0.0]
    # the order of the rows does not matter
    assert boxcar_weight([2.0, 0.0, 1.0], 2, 0, 1.5) == 0.25
