"""``spacing=``: sigma in physical units and derivatives per unit of length, on the Gaussian
filters and the image features.

The definition: a sample spans ``spacing[a]`` along axis ``a``, so a physical ``sigma`` is
``sigma / spacing[a]`` samples there, and a derivative of order ``o`` along ``a`` is the
derivative in samples divided by ``spacing[a] ** o``.  Checked against

* the filters in samples with ``sigma / spacing`` (the same plans: equal bits for order 0,
  the derivatives equal to rounding of one multiplication);
* the exact Gaussian (tests/naive.py) and its derivatives in physical units, and the
  analytic response of a sinusoid: smoothing ``sin(k z)`` by a Gaussian of physical
  ``sigma`` multiplies it by ``exp(-(k sigma)**2 / 2)``; its derivative is ``k cos(k z)``
  times that.  The sampled Gaussian's response differs from the continuous one by aliasing,
  ``exp(-2 pi**2 sigma_samples**2)``, far below the bounds for sigma of 2 samples and more;
* central differences in physical units (``np.gradient`` with the spacing), whose error on
  a sinusoid of ``k h`` radians per sample is ``1 - sin(k h) / (k h)``, about ``(k h)**2 / 6``.
"""

from __future__ import annotations

import numpy as np
import pytest
from naive import exact_gaussian_filter1d

import sftwave
from sftwave.feature import hessian_matrix, structure_tensor

RNG = np.random.default_rng(5)
STACK = RNG.random((10, 36, 40))


def test_coarse_z_equals_sigma_over_spacing():
    got = sftwave.gaussian_filter(STACK, 10.0, spacing=(5, 1, 1))
    np.testing.assert_array_equal(got, sftwave.gaussian_filter(STACK, (2.0, 10.0, 10.0)))
    got = sftwave.gaussian_filter(STACK, (10.0, 3.0), axes=(0, 2), spacing=(5.0, 0.5))
    np.testing.assert_array_equal(got, sftwave.gaussian_filter(STACK, (2.0, 6.0), axes=(0, 2)))


def test_spacing_none_and_one_change_nothing():
    ref = sftwave.gaussian_filter(STACK, 2.0, order=(1, 0, 2))
    np.testing.assert_array_equal(sftwave.gaussian_filter(STACK, 2.0, order=(1, 0, 2), spacing=1.0), ref)
    np.testing.assert_array_equal(sftwave.gaussian_filter(STACK, 2.0, order=(1, 0, 2), spacing=None),
                                  ref)


def test_against_the_exact_gaussian_in_physical_units():
    x = RNG.random((12, 30))
    spacing = (4.0, 0.5)
    sigma = 8.0                       # 2 samples along axis 0, 16 along axis 1
    got = sftwave.gaussian_filter(x, sigma, order=(1, 2), spacing=spacing, tol=1e-8)
    ref = exact_gaussian_filter1d(x, sigma / spacing[0], order=1, axis=0)
    ref = exact_gaussian_filter1d(ref, sigma / spacing[1], order=2, axis=1)
    ref /= spacing[0] * spacing[1] ** 2
    # tol is a relative RMS kernel error per axis: 20 tol in all (tests/test_feature.py)
    assert np.sqrt(np.mean((got - ref) ** 2) / np.mean(ref**2)) < 20e-8


def _wave(shape, spacing, k):
    """``sin(k z)`` along axis 0 of ``shape``, z the physical position (``spacing[0]`` apart)."""
    z = np.arange(shape[0]) * spacing[0]
    return np.broadcast_to(np.sin(k * z)[:, None, None], shape).copy(), z


def test_derivative_is_per_unit_length():
    spacing = (5.0, 1.0, 1.0)
    k = 0.01                               # 0.05 radians per z sample
    x, z = _wave((400, 4, 5), spacing, k)
    sigma = 20.0                           # 4 samples along z
    d = sftwave.gaussian_filter(x, sigma, order=(1, 0, 0), spacing=spacing, mode="wrap",
                                axes=None, tol=1e-8)
    # the analytic response (the period, 628.3 units, is not a whole number of samples:
    # compare away from the ends, beyond the kernel's reach of the wrapped seam)
    inner = slice(100, 300)
    want = k * np.cos(k * z) * np.exp(-((k * sigma) ** 2) / 2)
    np.testing.assert_allclose(d[inner, 2, 2], want[inner], rtol=0, atol=1e-6 * k)
    # central differences in physical units of the smoothed field: error (k h)**2 / 6 = 4e-4
    smooth = sftwave.gaussian_filter(x, sigma, spacing=spacing, mode="wrap", tol=1e-8)
    fd = np.gradient(smooth, spacing[0], axis=0)
    np.testing.assert_allclose(d[inner, 2, 2], fd[inner, 2, 2], rtol=0, atol=1e-3 * k)


def test_laplace_and_gradient_magnitude():
    spacing = (3.0, 1.0, 0.5)
    got = sftwave.gaussian_laplace(STACK, 6.0, spacing=spacing)
    sig = [6.0 / d for d in spacing]
    want = sum(sftwave.gaussian_filter(STACK, sig, order=[int(a == b) * 2 for b in range(3)])
               / spacing[a] ** 2 for a in range(3))
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)
    got = sftwave.gaussian_laplace(STACK, (6.0, 3.0), axes=(0, 2), spacing=(3.0, 0.5))
    want = (sftwave.gaussian_filter(STACK, (2.0, 6.0), order=(2, 0), axes=(0, 2)) / 9.0
            + sftwave.gaussian_filter(STACK, (2.0, 6.0), order=(0, 2), axes=(0, 2)) / 0.25)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)
    got = sftwave.gaussian_gradient_magnitude(STACK, 6.0, spacing=spacing)
    want = np.sqrt(sum((sftwave.gaussian_filter(STACK, sig, order=[int(a == b) for b in range(3)])
                        / spacing[a]) ** 2 for a in range(3)))
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)


def test_integer_output_keeps_its_dtype():
    u = (STACK * 200).astype(np.int16)
    got = sftwave.gaussian_filter(u, 4.0, order=(0, 1, 0), spacing=(1.0, 0.25, 1.0), mode="nearest")
    assert got.dtype == np.int16
    # the float result (the input scaled: the filter is linear) cast once, as without spacing
    ref = sftwave.gaussian_filter(u * 4.0, (4.0, 16.0, 4.0), order=(0, 1, 0), mode="nearest",
                                  output=np.int16)
    np.testing.assert_array_equal(got, ref)
    assert np.abs(got).max() > 0


@pytest.mark.parametrize("gaussian_derivatives", [False, True])
def test_hessian_matrix_in_physical_units(gaussian_derivatives):
    image = RNG.random((30, 34))
    spacing = (2.0, 0.5)
    got = hessian_matrix(image, 4.0, use_gaussian_derivatives=gaussian_derivatives,
                         spacing=spacing)
    ref = hessian_matrix(image, (2.0, 8.0), use_gaussian_derivatives=gaussian_derivatives)
    for g, r, f in zip(got, ref, (4.0, 1.0, 0.25)):
        np.testing.assert_allclose(g, r / f, rtol=1e-12, atol=1e-14 * np.abs(r).max() / f)


def test_structure_tensor_in_physical_units():
    image = RNG.random((30, 34))
    got = structure_tensor(image, 4.0, spacing=(2.0, 0.5))
    ref = structure_tensor(image, (2.0, 8.0))
    for g, r, f in zip(got, ref, (4.0, 1.0, 0.25)):
        np.testing.assert_allclose(g, r / f, rtol=1e-12, atol=1e-14 * np.abs(r).max() / f)


@pytest.mark.parametrize(("spacing", "error"), [
    ((1.0, 2.0), ValueError),
    ((1.0, 0.0, 1.0), ValueError),
    ((1.0, -5.0, 1.0), ValueError),
    ((1.0, np.nan, 1.0), ValueError),
    ((np.inf, 1.0, 1.0), ValueError),
    ("5", TypeError),
    ((1.0, "a", 1.0), TypeError),
])
def test_bad_spacing_names_it(spacing, error):
    for call in (lambda: sftwave.gaussian_filter(STACK, 2.0, spacing=spacing),
                 lambda: sftwave.gaussian_laplace(STACK, 2.0, spacing=spacing),
                 lambda: sftwave.gaussian_gradient_magnitude(STACK, 2.0, spacing=spacing),
                 lambda: hessian_matrix(STACK, 2.0, use_gaussian_derivatives=True, spacing=spacing)):
        with pytest.raises(error, match="spacing") as info:
            call()
        if error is ValueError:
            assert repr(spacing)[:6] in str(info.value) or "nan" in str(info.value)


def test_dask_spacing_equals_in_memory():
    da = pytest.importorskip("dask.array")
    import sftwave.dask as sd

    image = RNG.random((60, 70))
    blocks = da.from_array(image, chunks=20)
    spacing = (2.0, 0.5)              # a sigma of 4 is 8 samples along axis 1: wider reach there
    got = sd.gaussian_filter(blocks, 4.0, order=(1, 0), spacing=spacing).compute()
    np.testing.assert_allclose(got, sftwave.gaussian_filter(image, 4.0, order=(1, 0),
                                                            spacing=spacing), rtol=0, atol=1e-12)
    for derivatives in (False, True):
        lazy = sd.hessian_matrix(blocks, 3.0, use_gaussian_derivatives=derivatives, spacing=spacing)
        ref = hessian_matrix(image, 3.0, use_gaussian_derivatives=derivatives, spacing=spacing)
        for g, r in zip(lazy, ref):
            np.testing.assert_allclose(g.compute(), r, rtol=0, atol=1e-12)
    for g, r in zip(sd.structure_tensor(blocks, 3.0, spacing=spacing),
                    structure_tensor(image, 3.0, spacing=spacing)):
        np.testing.assert_allclose(g.compute(), r, rtol=0, atol=1e-12)
