"""gaussian_laplace and gaussian_gradient_magnitude: scipy's definitions, at least scipy's accuracy.

scipy's own tests of these functions (scipy/ndimage/tests/test_filters.py,
``test_gaussian_laplace01/02``, ``test_gaussian_gradient_magnitude01/02``) are
repeated here with sftwave's functions in place of scipy's.  Accuracy is
measured against scipy's own functions at ``truncate=12`` (the exact sampled
Gaussian to double precision): sftwave's error is at most scipy's at its
default truncation.
"""

import numpy as np
import pytest
import scipy.ndimage as ndi
from naive import rel_rmse

import sftwave
from sftwave import gaussian_filter, gaussian_gradient_magnitude, gaussian_laplace

SMALL = np.array([[3, 2, 5, 1, 4], [5, 8, 3, 7, 1], [5, 6, 9, 3, 5]])


# ----------------------------------------------------------------------------- scipy's tests


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex64", "complex128"])
def test_gaussian_laplace01(dtype):
    array = SMALL.astype(dtype) * 100
    tmp1 = gaussian_filter(array, 1.0, [2, 0])
    tmp2 = gaussian_filter(array, 1.0, [0, 2])
    output = gaussian_laplace(array, 1.0)
    assert output.dtype == array.dtype
    np.testing.assert_array_almost_equal(tmp1 + tmp2, output)


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex64", "complex128"])
def test_gaussian_laplace02(dtype):
    array = SMALL.astype(dtype) * 100
    tmp1 = gaussian_filter(array, 1.0, [2, 0])
    tmp2 = gaussian_filter(array, 1.0, [0, 2])
    output = np.zeros(array.shape, dtype=dtype)
    assert gaussian_laplace(array, 1.0, output) is output
    np.testing.assert_array_almost_equal(tmp1 + tmp2, output)


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("given_output", [False, True])
def test_gaussian_gradient_magnitude01_02(dtype, given_output):
    array = SMALL.astype(dtype) * 100
    tmp1 = gaussian_filter(array, 1.0, [1, 0])
    tmp2 = gaussian_filter(array, 1.0, [0, 1])
    if given_output:
        output = np.zeros(array.shape, dtype=dtype)
        assert gaussian_gradient_magnitude(array, 1.0, output) is output
    else:
        output = gaussian_gradient_magnitude(array, 1.0)
    expected = tmp1 * tmp1 + tmp2 * tmp2
    if dtype == "int32":
        expected = expected.astype(np.float64)
    expected = np.sqrt(expected).astype(dtype)
    np.testing.assert_allclose(output, expected, rtol=1e-6, atol=1e-6)


# ----------------------------------------------------------------------------- accuracy


def _image(shape, seed):
    """A smooth field plus noise and an offset: derivatives that are neither all noise nor zero."""
    rng = np.random.default_rng(seed)
    grids = np.meshgrid(*[np.linspace(0, 3, n) for n in shape], indexing="ij")
    smooth = sum(np.sin((k + 1) * g + k) for k, g in enumerate(grids))
    return 40.0 + 10.0 * smooth + rng.standard_normal(shape)


@pytest.mark.parametrize("sigma", [1.5, 5.0, 20.0])
@pytest.mark.parametrize("mode", ["reflect", "nearest", "wrap", ("mirror", "constant")])
@pytest.mark.parametrize("func", ["gaussian_laplace", "gaussian_gradient_magnitude"])
def test_at_least_scipys_accuracy(func, mode, sigma):
    """Against the exact filter (scipy's at truncate=12), sftwave's error is at most scipy's own
    at its default truncation, for small sigma (scipy's FIR) and large (the SFT bank)."""
    x = _image((70, 90), int(sigma * 10))
    ours, theirs = getattr(sftwave, func), getattr(ndi, func)
    exact = theirs(x, sigma, mode=mode, cval=2.0, truncate=12.0)
    e_ours = rel_rmse(ours(x, sigma, mode=mode, cval=2.0), exact)
    e_scipy = rel_rmse(theirs(x, sigma, mode=mode, cval=2.0), exact)
    assert e_ours <= e_scipy * (1 + 1e-9) + 1e-13, (e_ours, e_scipy)


@pytest.mark.parametrize("func", ["gaussian_laplace", "gaussian_gradient_magnitude"])
def test_axes_and_per_axis_arguments_as_scipy(func):
    """``axes`` subsets with per-axis sigma (laplace) and modes: scipy's result to its accuracy."""
    x = _image((20, 30, 40), 3)
    ours, theirs = getattr(sftwave, func), getattr(ndi, func)
    sigma = (2.0, 4.0) if func == "gaussian_laplace" else 3.0
    kw = dict(axes=(0, 2), mode=("reflect", "wrap"))
    exact = theirs(x, sigma, truncate=12.0, **kw)
    e_ours = rel_rmse(ours(x, sigma, **kw), exact)
    e_scipy = rel_rmse(theirs(x, sigma, **kw), exact)
    assert e_ours <= e_scipy * (1 + 1e-9) + 1e-13, (e_ours, e_scipy)


def test_no_axes_copies_the_input():
    x = _image((5, 6), 1)
    for func in (gaussian_laplace, gaussian_gradient_magnitude):
        np.testing.assert_array_equal(func(x, 2.0, axes=()), x)


def test_output_dtype_and_bad_arguments():
    """An output dtype is honoured; bad arguments name the parameter (as the filters do)."""
    x = (_image((30, 30), 2) * 3).astype(np.uint8)
    got = gaussian_laplace(x, 3.0, output=np.float64)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, gaussian_laplace(x.astype(np.float64), 3.0), rtol=1e-12)
    with pytest.raises(ValueError, match="sigma"):
        gaussian_laplace(x, (1.0, 2.0, 3.0))
    with pytest.raises(ValueError, match="mode"):
        gaussian_gradient_magnitude(x, 1.0, mode="bogus")
    with pytest.raises(ValueError, match="axes|axis"):
        gaussian_laplace(x, 1.0, axes=(0, 5))


ARR = np.array([[1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 0.0]])


def test_multiple_modes_gaussian_gradient_magnitude():
    """scipy's test as it stands (its values to 7 decimals)."""
    expected = np.array([[0.04928965, 0.09745625, 0.06405368],
                         [0.23056905, 0.14025305, 0.04550846],
                         [0.19894369, 0.14950060, 0.06796850]])
    np.testing.assert_almost_equal(expected, gaussian_gradient_magnitude(ARR, 1, mode=["reflect", "wrap"]))


def test_multiple_modes_gaussian_laplace_is_closer_to_exact_than_scipys_values():
    """scipy's test asserts scipy's values to 7 decimals; sftwave's zero-sum second-derivative
    kernel differs from them by about 7e-5, and is closer to the exact filter than they are."""
    expected = np.array([[-0.28438687, 0.01559809, 0.19773499],
                         [-0.36630503, -0.20069774, 0.07483620],
                         [0.15849176, 0.18495566, 0.21934094]])
    modes = ["reflect", "wrap"]
    exact = ndi.gaussian_laplace(ARR, 1, mode=modes, truncate=12.0)
    got = gaussian_laplace(ARR, 1, mode=modes)
    np.testing.assert_allclose(got, expected, atol=2e-4)
    assert rel_rmse(got, exact) < rel_rmse(expected, exact)
