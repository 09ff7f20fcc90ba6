"""sftwave.feature: Hessian, structure tensor, their eigenvalues and the DoG, against direct definitions.

References (tests/naive.py and here):

* the Gaussian (derivative) filters: the exact sampled kernel by dense convolution,
  axis by axis (``exact_gaussian_filter1d``); sftwave's filters meet ``tol`` (a
  relative RMS kernel error) per axis, so an n-axis result is within a few ``tol``
  of it in relative RMS: the bound used is ``20 tol``;
* scikit-image's own definitions, written out with scipy (its Gaussian-derivative
  Hessian: two first-derivative filters at ``sigma / sqrt(2)``, truncated at 8
  sigma; its finite-difference Hessian: ``np.gradient`` twice; its structure
  tensor: Sobel products smoothed);
* eigenvalues: ``np.linalg.eigvalsh`` per pixel, within a small multiple of the
  rounding of the matrix's largest element (both are backward stable; the sum of
  their errors, measured up to 14 eps on 20000 random 3 x 3 matrices, is held to 32 eps).
"""

from __future__ import annotations

import contextlib
import math
from itertools import combinations_with_replacement

import numpy as np
import pytest
import scipy.ndimage as ndi
from naive import exact_gaussian_filter1d, rel_rmse

import sftwave
from sftwave.feature import (
    difference_of_gaussians,
    frangi,
    hessian_matrix,
    hessian_matrix_eigvals,
    structure_tensor,
    structure_tensor_eigenvalues,
)

TOL = 1e-8
BOUND = 20 * TOL


def exact_filter(x, sigmas, orders, mode="reflect", cval=0.0, axes=None):
    """The separable exact Gaussian (derivative) filter, axis by axis."""
    y = np.asarray(x, dtype=np.float64)
    axes = range(y.ndim) if axes is None else axes
    for ax, s, o in zip(axes, sigmas, orders, strict=True):
        y = exact_gaussian_filter1d(y, s, o, mode=mode, cval=cval, axis=ax)
    return y


def image(shape, seed=0):
    """A smooth random image with edges: noise plus a bright square."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    sl = tuple(slice(n // 4, 3 * n // 4) for n in shape)
    x[sl] += 3.0
    return x


def upper_pairs(ndim, order="rc"):
    axes = list(range(ndim))
    if order == "xy":
        axes.reverse()
    return list(combinations_with_replacement(axes, 2))


# ---------------------------------------------------------------------------------- Hessian


def skimage_gaussian_hessian(x, sigma, mode, cval=0.0, order="rc"):
    """scikit-image's Gaussian-derivative Hessian, written with scipy: first derivatives at
    sigma/sqrt(2) (truncated at 8 sigma, 100 for sigma <= 1), then a first derivative of those."""
    ndim = x.ndim
    sigmas = [sigma] * ndim if np.isscalar(sigma) else list(sigma)
    truncate = 8 if all(s > 1 for s in sigmas) else 100
    s = [v / math.sqrt(2) for v in sigmas]
    units = [[int(d == k) for k in range(ndim)] for d in range(ndim)]
    grads = [ndi.gaussian_filter(x, s, order=units[d], mode=mode, cval=cval, truncate=truncate)
             for d in range(ndim)]
    return [ndi.gaussian_filter(grads[a], s, order=units[b], mode=mode, cval=cval, truncate=truncate)
            for a, b in upper_pairs(ndim, order)]


@pytest.mark.parametrize("shape, sigma, mode, order", [
    ((40, 37), 0.8, "constant", "rc"), ((40, 37), 1.5, "constant", "xy"),
    ((40, 37), 4.0, "reflect", "rc"), ((40, 37), (2.0, 3.5), "nearest", "xy"),
    ((40, 37), (2.0, 3.5), "nearest", "rc"), ((40, 37), 2.5, "wrap", "rc"),
    ((40, 37), 12.0, "mirror", "xy"), ((14, 12, 11), 1.7, "reflect", "rc"),
    ((30,), 3.0, "nearest", "rc"),
])
def test_hessian_gaussian_derivatives_as_scikit_image(shape, sigma, mode, order):
    # scikit-image's definition pass for pass (scipy's kernels at truncate 8 are within 1e-14
    # of the exact Gaussian's; sftwave's filters meet tol against the exact Gaussian)
    x = image(shape)
    H = hessian_matrix(x, sigma, mode=mode, order=order, use_gaussian_derivatives=True, tol=TOL)
    ref = skimage_gaussian_hessian(x, sigma, mode, order=order)
    assert len(H) == len(ref) == x.ndim * (x.ndim + 1) // 2
    for h, r in zip(H, ref, strict=True):
        assert h.shape == x.shape and h.dtype == np.float64
        assert rel_rmse(h, r) < BOUND


def test_hessian_constant_mode_with_cval():
    x = image((30, 33), 1)
    H = hessian_matrix(x, 2.0, mode="constant", cval=1.5, use_gaussian_derivatives=True, tol=TOL)
    for h, r in zip(H, skimage_gaussian_hessian(x, 2.0, "constant", cval=1.5), strict=True):
        assert rel_rmse(h, r) < BOUND


@pytest.mark.parametrize("sigma", [2.0, 3.0, 6.0])
def test_hessian_is_the_gaussians_second_derivative(sigma):
    # the direct definition: d/dx G_{s/sqrt2} * d/dx G_{s/sqrt2} = d2/dx2 G_s; sampled at
    # s/sqrt(2) >= 1.4 the two differ by aliasing (~ exp(-pi^2 s^2 / 4)) below 1e-8.  With 'wrap'
    # they agree everywhere; with the other modes the second pass extends the first derivatives
    # by the mode (scikit-image's definition), so they agree only beyond the kernels' reach
    for mode in ("wrap", "reflect"):
        n = 40 + 20 * int(sigma)
        x = image((n, n - 3), 2)
        H = hessian_matrix(x, sigma, mode=mode, use_gaussian_derivatives=True, tol=TOL)
        inner = (slice(None),) * 2 if mode == "wrap" else (slice(10 * int(sigma), -10 * int(sigma)),) * 2
        for h, (a, b) in zip(H, upper_pairs(2), strict=True):
            orders = [0, 0]
            orders[a] += 1
            orders[b] += 1
            ref = exact_filter(x, [sigma, sigma], orders, mode=mode)
            assert rel_rmse(h[inner], ref[inner]) < BOUND, (mode, a, b)


@pytest.mark.parametrize("shape, order", [((30, 29), "rc"), ((30, 29), "xy"), ((12, 10, 9), "rc")])
@pytest.mark.parametrize("default", [True, False])
def test_hessian_finite_differences_as_scikit_image(shape, order, default):
    # use_gaussian_derivatives=False (and None, scikit-image's present default): np.gradient
    # twice of the smoothed image; np.gradient is linear, so the error is the smoothing's
    x = image(shape, 3)
    ugd = None if default else False
    with (pytest.warns(FutureWarning, match="use_gaussian_derivatives") if default
          else contextlib.nullcontext()):
        H = hessian_matrix(x, 2.0, mode="constant", order=order, use_gaussian_derivatives=ugd,
                           tol=TOL)
    smoothed = exact_filter(x, [2.0] * x.ndim, [0] * x.ndim, mode="constant")
    grads = np.gradient(smoothed)
    for h, (a, b) in zip(H, upper_pairs(x.ndim, order), strict=True):
        assert rel_rmse(h, np.gradient(grads[a], axis=b)) < BOUND


def test_hessian_one_dimensional_finite_differences():
    x = image((60,), 4)
    (g,) = hessian_matrix(x, 3.0, use_gaussian_derivatives=False, tol=TOL)
    ref = np.gradient(np.gradient(exact_gaussian_filter1d(x, 3.0, 0, mode="constant")))
    assert rel_rmse(g, ref) < BOUND


def test_hessian_of_a_quadratic_is_its_hessian():
    # a direct definition: the Hessian of a quadratic form away from the borders is its matrix
    r, c = np.mgrid[0:100, 0:100].astype(float)
    x = 0.5 * (0.3 * r**2 + 2 * 0.2 * r * c - 0.1 * c**2) / 100
    Hrr, Hrc, Hcc = hessian_matrix(x, 3.0, mode="nearest", use_gaussian_derivatives=True, tol=TOL)
    inner = (slice(40, 60), slice(40, 60))
    np.testing.assert_allclose(Hrr[inner], 0.003, rtol=1e-6)
    np.testing.assert_allclose(Hrc[inner], 0.002, rtol=1e-6)
    np.testing.assert_allclose(Hcc[inner], -0.001, rtol=1e-6)


# ------------------------------------------------------------------------------ eigenvalues


def random_symmetric(n, count, rng, spread=1.0):
    """``count`` random symmetric n x n matrices, eigenvalues drawn at scale ``spread``."""
    q, _ = np.linalg.qr(rng.standard_normal((count, n, n)))
    lam = rng.standard_normal((count, n)) * spread
    return np.einsum("kij,kj,klj->kil", q, lam, q)


def as_elems(M):
    n = M.shape[-1]
    return [M[..., i, j].copy() for i, j in combinations_with_replacement(range(n), 2)]


def check_eigs(got, M, factor=32):
    ref = np.moveaxis(np.linalg.eigvalsh(M.astype(np.float64))[..., ::-1], -1, 0)
    scale = np.abs(M).max(axis=(-2, -1))
    eps = np.finfo(got.dtype).eps
    assert got.shape == ref.shape
    assert np.all(np.abs(got - ref) <= factor * eps * scale + np.finfo(np.float64).tiny)
    assert np.all(np.diff(got, axis=0) <= 0)          # decreasing


@pytest.mark.parametrize("n", [2, 3, 4])
def test_eigenvalues_against_eigvalsh(n):
    rng = np.random.default_rng(n)
    M = random_symmetric(n, 4000, rng).reshape(40, 100, n, n)
    got = hessian_matrix_eigvals(as_elems(M))
    assert got.dtype == np.float64
    check_eigs(got, M)


@pytest.mark.parametrize("gap", [0.0, 1e-14, 1e-10, 1e-7, 1e-4, 1e-2])
@pytest.mark.parametrize("sign", [1, -1])
def test_three_by_three_near_repeated_eigenvalues(gap, sign):
    # where the trigonometric formula loses accuracy (|r| near 1); Jacobi takes over there
    rng = np.random.default_rng(int(gap * 1e15) % 1000 + (sign > 0))
    count = 2000
    q, _ = np.linalg.qr(rng.standard_normal((count, 3, 3)))
    base = rng.standard_normal(count)
    lam = np.stack([base, base + gap * rng.random(count), base - sign * 3.0 * rng.random(count)], -1)
    M = np.einsum("kij,kj,klj->kil", q, lam, q)
    check_eigs(structure_tensor_eigenvalues(as_elems(M)), M)


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("scale", [1e-300, 1e-150, 1.0, 1e150, 1e300])
def test_eigenvalues_without_overflow(n, scale):
    rng = np.random.default_rng(7)
    M = random_symmetric(n, 300, rng) / 4
    got = hessian_matrix_eigvals(as_elems(M * scale))
    assert np.all(np.isfinite(got))
    check_eigs(got / scale, M)


@pytest.mark.parametrize("n", [2, 3])
def test_eigenvalues_of_diagonal_and_zero_matrices(n):
    rng = np.random.default_rng(9)
    d = rng.standard_normal((50, n))
    M = np.zeros((50, n, n))
    M[:, range(n), range(n)] = d
    M[:5] = 0.0
    got = hessian_matrix_eigvals(as_elems(M))
    np.testing.assert_array_equal(got, np.moveaxis(np.sort(np.where(np.arange(50)[:, None] < 5, 0, d),
                                                           axis=1)[:, ::-1], -1, 0))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_eigenvalues_float32_and_nonfinite(n):
    rng = np.random.default_rng(11)
    M = random_symmetric(n, 600, rng).astype(np.float32)
    elems = as_elems(M)
    got = hessian_matrix_eigvals(elems)
    assert got.dtype == np.float32
    check_eigs(got, M.astype(np.float64))
    elems[0][3] = np.nan
    elems[-1][4] = np.inf
    got = hessian_matrix_eigvals(elems)
    assert np.isnan(got[:, 3]).all() and np.isnan(got[:, 4]).all()
    assert np.isfinite(np.delete(got, [3, 4], axis=1)).all()


def test_float32_two_by_two_eigenvalues_are_the_float64_kernels_rounded():
    """float32 2 x 2 fields run a kernel of their own (float64 arithmetic without the scaling,
    vectorised): the same bits as the float64 kernel's results rounded to float32, across
    float32's whole range (subnormals to 3e38), zero off-diagonals and non-finite elements."""
    rng = np.random.default_rng(13)
    shape = (300, 200)
    elems = [(rng.standard_normal(shape) * 10.0 ** rng.integers(-44, 38, shape)).astype(np.float32)
             for _ in range(3)]
    elems[1][:20] = 0.0
    elems[0][25, :3] = elems[1][26, :3] = elems[2][27, :3] = [np.inf, np.nan, -np.inf]
    got = structure_tensor_eigenvalues(elems)
    ref = structure_tensor_eigenvalues([e.astype(np.float64) for e in elems]).astype(np.float32)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, ref)
    assert np.isnan(got[:, 25:28, :3]).all() and np.isfinite(np.delete(got, [25, 26, 27], 1)).all()


def test_eigenvalues_of_strided_and_integer_elements():
    rng = np.random.default_rng(12)
    M = random_symmetric(3, 200, rng)
    big = [np.repeat(e, 2)[::2] for e in as_elems(M)]      # strided views of the same values
    check_eigs(hessian_matrix_eigvals(big), M)
    ints = [np.array([[2]]), np.array([[1]]), np.array([[2]])]
    got = structure_tensor_eigenvalues(ints)
    assert got.dtype == np.float64 and got.ravel().tolist() == [3.0, 1.0]


def test_eigenvalues_bad_input():
    with pytest.raises(ValueError, match="H_elems must hold"):
        hessian_matrix_eigvals([np.ones(3), np.ones(3)])
    with pytest.raises(ValueError, match="H_elems must hold"):
        hessian_matrix_eigvals([])
    with pytest.raises(ValueError, match=r"A_elems\[2\] has \(4,\)"):
        structure_tensor_eigenvalues([np.ones(3), np.ones(3), np.ones(4)])
    with pytest.raises(TypeError, match="H_elems must be a list"):
        hessian_matrix_eigvals(3.0)
    with pytest.raises(TypeError, match=r"H_elems\[1\] must be real"):
        hessian_matrix_eigvals([np.ones(3), np.ones(3) * 1j, np.ones(3)])


def test_eigenvalues_of_a_hessian_field():
    x = image((30, 30, 30), 13)
    H = hessian_matrix(x, 2.0, use_gaussian_derivatives=True)
    M = np.empty(x.shape + (3, 3))
    for (i, j), h in zip(upper_pairs(3), H, strict=True):
        M[..., i, j] = M[..., j, i] = h
    check_eigs(hessian_matrix_eigvals(H), M)


# ------------------------------------------------------------------------- structure tensor


@pytest.mark.parametrize("shape, sigma, mode, order", [
    ((40, 37), 1.0, "constant", "rc"), ((40, 37), 3.0, "reflect", "xy"),
    ((40, 37), (1.5, 2.5), "nearest", "rc"), ((12, 11, 10), 1.5, "wrap", "rc"),
])
def test_structure_tensor_against_definition(shape, sigma, mode, order):
    x = image(shape, 5)
    A = structure_tensor(x, sigma, mode=mode, order=order, tol=TOL)
    d = [ndi.sobel(x, axis=i, mode=mode) for i in range(x.ndim)]
    if order == "xy":
        d.reverse()
    sigmas = [sigma] * x.ndim if np.isscalar(sigma) else list(sigma)
    refs = [exact_filter(a * b, sigmas, [0] * x.ndim, mode=mode)
            for a, b in combinations_with_replacement(d, 2)]
    assert len(A) == len(refs)
    for a, ref in zip(A, refs, strict=True):
        assert rel_rmse(a, ref) < BOUND


@pytest.mark.parametrize("mode,cval", [("constant", 0.0), ("constant", 0.6), ("wrap", 0.0)])
def test_structure_tensor_products_as_scikit_images(mode, cval):
    """The fused 2-D Sobel products (every mode but constant with a non-zero cval) and scipy's
    filters (that case, and 3-D): both scikit-image's definition, to rounding."""
    for x in (image((31, 26), 9), image((12, 11, 10), 10)):
        A = structure_tensor(x, 1.5, mode=mode, cval=cval, tol=1e-9)
        d = [ndi.sobel(x, axis=i, mode=mode, cval=cval) for i in range(x.ndim)]
        refs = [sftwave.gaussian_filter(a * b, 1.5, mode=mode, cval=cval, tol=1e-9)
                for a, b in combinations_with_replacement(d, 2)]
        for a, ref in zip(A, refs, strict=True):
            assert np.max(np.abs(a - ref)) <= 1e-13 * np.max(np.abs(ref))


def test_structure_tensor_squeezes_and_refuses_one_axis():
    x = image((1, 20, 1, 21), 6)
    A = structure_tensor(x, 2.0)
    assert len(A) == 3 and A[0].shape == (20, 21)
    with pytest.raises(ValueError, match="at least 2 axes"):
        structure_tensor(np.ones((1, 5)))


# ---------------------------------------------------------------------- difference of Gaussians


@pytest.mark.parametrize("low, high", [(1.0, None), (1.0, 3.0), ((1.0, 2.0), (2.0, 4.0)), (0.0, 2.0)])
@pytest.mark.parametrize("mode", ["nearest", "constant"])
def test_difference_of_gaussians_against_exact(low, high, mode):
    x = image((35, 33), 8)
    got = difference_of_gaussians(x, low, high, mode=mode, cval=0.5, tol=TOL)
    lows = [low] * 2 if np.isscalar(low) else list(low)
    highs = [1.6 * s for s in lows] if high is None else ([high] * 2 if np.isscalar(high) else list(high))

    def smooth(sigmas):
        y = x.copy()
        for ax, s in enumerate(sigmas):
            if s > 0:
                y = exact_gaussian_filter1d(y, s, 0, mode=mode, cval=0.5, axis=ax)
        return y

    ref = smooth(lows) - smooth(highs)
    assert rel_rmse(got, ref) < 100 * TOL       # a difference: relative to the smaller result


def test_difference_of_gaussians_channel_axis():
    rgb = np.stack([image((30, 31), s) for s in range(3)], axis=-1)
    got = difference_of_gaussians(rgb, 1.5, 3.0, channel_axis=-1, tol=TOL)
    for c in range(3):
        alone = difference_of_gaussians(rgb[..., c], 1.5, 3.0, tol=TOL)
        np.testing.assert_allclose(got[..., c], alone, rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match="low_sigma"):
        difference_of_gaussians(rgb, (1.0, 2.0, 3.0), channel_axis=-1)


def test_difference_of_gaussians_bad_input():
    x = np.ones((8, 8))
    with pytest.raises(ValueError, match="high_sigma must be at least low_sigma"):
        difference_of_gaussians(x, 2.0, 1.0)
    with pytest.raises(ValueError, match="low_sigma"):
        difference_of_gaussians(x, -1.0)
    with pytest.raises(ValueError, match="mode"):
        difference_of_gaussians(x, 1.0, mode="bogus")
    with pytest.raises(ValueError, match="channel_axis"):
        difference_of_gaussians(x, 1.0, channel_axis=2)


# ------------------------------------------------------------------------------ dtypes, NaN


@pytest.mark.parametrize("func", ["hessian", "structure", "dog"])
def test_dtype_rules(func):
    def run(x):
        if func == "hessian":
            return hessian_matrix(x, 2.0, use_gaussian_derivatives=True)[0]
        if func == "structure":
            return structure_tensor(x, 2.0)[0]
        return difference_of_gaussians(x, 1.0)

    x = image((20, 22), 10)
    assert run(x).dtype == np.float64
    assert run(x.astype(np.float32)).dtype == np.float32
    assert run(x.astype(np.float16)).dtype == np.float32
    # integers and bool: scikit-image's img_as_float (rescaled by the dtype's range), in float64
    u8 = np.clip(x * 40 + 100, 0, 255).astype(np.uint8)
    np.testing.assert_allclose(run(u8), run(u8 / 255.0), rtol=1e-12, atol=1e-15)
    i8 = np.clip(x * 40, -128, 127).astype(np.int8)
    as_float = np.maximum(i8 / 127.0, -1.0)
    np.testing.assert_allclose(run(i8), run(as_float), rtol=1e-12, atol=1e-15)
    b = x > 0
    np.testing.assert_allclose(run(b), run(b.astype(float)), rtol=1e-12, atol=1e-15)
    assert run(u8).dtype == run(i8).dtype == run(b).dtype == np.float64
    with pytest.raises(TypeError, match="image must be real"):
        run(x.astype(complex))


def test_nan_is_confined():
    x = image((64, 64), 14)
    x[32, 32] = np.nan
    for h in hessian_matrix(x, 2.0, use_gaussian_derivatives=True):
        assert np.isnan(h[32, 32]) and np.isfinite(h[:4, :4]).all()
    eig = hessian_matrix_eigvals(hessian_matrix(x, 2.0, use_gaussian_derivatives=True))
    assert np.isnan(eig[:, 32, 32]).all() and np.isfinite(eig[:, :4, :4]).all()
    for a in structure_tensor(x, 2.0):
        assert np.isnan(a[32, 32]) and np.isfinite(a[:4, :4]).all()
    dog = difference_of_gaussians(x, 1.0, 2.0)
    assert np.isnan(dog[32, 32]) and np.isfinite(dog[:4, :4]).all()


def test_float32_accuracy():
    x = image((40, 40), 15)
    ref = hessian_matrix(x, 3.0, use_gaussian_derivatives=True, tol=TOL)
    got = hessian_matrix(x.astype(np.float32), 3.0, use_gaussian_derivatives=True)
    for a, b in zip(got, ref, strict=True):
        assert rel_rmse(a, b) < 1e-3        # sftwave's default accuracy (a few 1e-4) and float32


# ------------------------------------------------------------------------------ bad input


def test_hessian_and_structure_tensor_bad_input():
    x = np.ones((6, 6))
    for func in (hessian_matrix, structure_tensor):
        with pytest.raises(ValueError, match="sigma"):
            func(x, 0.0)
        with pytest.raises(ValueError, match="sigma"):
            func(x, (1.0, 2.0, 3.0))
        with pytest.raises(TypeError, match="sigma"):
            func(x, "1")
        with pytest.raises(ValueError, match="mode"):
            func(x, 1.0, mode="bogus")
        with pytest.raises(ValueError, match="order"):
            func(x, 1.0, order="cr")
        with pytest.raises(ValueError, match="order='xy'"):
            func(np.ones((4, 4, 4)), 1.0, order="xy")
        with pytest.raises(TypeError, match="cval"):
            func(x, 1.0, cval=1j)
        with pytest.raises(ValueError, match="tol"):
            func(x, 1.0, tol=-1.0)
        with pytest.raises(TypeError, match="image"):
            func(np.array([["a"]]), 1.0)
    with pytest.raises(TypeError, match="use_gaussian_derivatives"):
        hessian_matrix(x, 1.0, use_gaussian_derivatives="yes")
    with pytest.raises(ValueError, match="at least one axis"):
        hessian_matrix(np.float64(1.0), 1.0)


# ------------------------------------------------------------------------------------ frangi


def frangi_reference(image, sigmas, alpha=0.5, beta=0.5, gamma=None, black_ridges=True,
                     mode="reflect"):
    """scikit-image's frangi, written out with scipy and numpy (eigenvalues by np.linalg.eigvalsh)."""
    image = np.asarray(image, dtype=np.float64)
    if not black_ridges:
        image = -image
    out = np.zeros_like(image)
    n = image.ndim
    for sigma in sigmas:
        H = skimage_gaussian_hessian(image, sigma, mode)
        M = np.empty(image.shape + (n, n))
        for (i, j), h in zip(upper_pairs(n), H, strict=True):
            M[..., i, j] = M[..., j, i] = h
        eigvals = np.moveaxis(np.linalg.eigvalsh(M)[..., ::-1], -1, 0)
        eigvals = np.take_along_axis(eigvals, abs(eigvals).argsort(0, kind="stable"), 0)
        lambda1 = eigvals[0]
        if n == 2:
            (lambda2,) = np.maximum(eigvals[1:], 1e-10)
            r_a = np.inf
            r_b = abs(lambda1) / lambda2
        else:
            lambda2, lambda3 = np.maximum(eigvals[1:], 1e-10)
            r_a = lambda2 / lambda3
            r_b = abs(lambda1) / np.sqrt(lambda2 * lambda3)
        s = np.sqrt((eigvals**2).sum(0))
        if gamma is None:
            gamma = s.max() / 2
            if gamma == 0:
                gamma = 1
        with np.errstate(over="ignore"):
            vals = 1.0 - np.exp(-(r_a**2) / (2 * alpha**2))
            vals *= np.exp(-(r_b**2) / (2 * beta**2))
        vals *= 1.0 - np.exp(-(s**2) / (2 * gamma**2))
        out = np.maximum(out, vals)
    return out


def vessel_tree(shape=(96, 96)):
    """Dark Gaussian-profile lines (a trunk and two branches) on a bright, slightly noisy background."""
    r, c = np.mgrid[0:shape[0], 0:shape[1]].astype(float)
    img = np.ones(shape)
    for (r0, c0, r1, c1, w) in [(5, 48, 90, 48, 2.5), (40, 48, 85, 10, 1.5), (60, 48, 90, 85, 1.2)]:
        d = np.array([r1 - r0, c1 - c0])
        length = np.hypot(*d)
        t = np.clip(((r - r0) * d[0] + (c - c0) * d[1]) / length**2, 0, 1)
        dist = np.hypot(r - (r0 + t * d[0]), c - (c0 + t * d[1]))
        img -= 0.8 * np.exp(-dist**2 / (2 * w**2))
    return img + 0.01 * np.random.default_rng(21).standard_normal(shape), r, c


@pytest.mark.parametrize("kwargs", [{}, {"gamma": 0.05}, {"alpha": 0.3, "beta": 0.8},
                                    {"black_ridges": False}])
def test_frangi_2d_against_scikit_images_formula(kwargs):
    img, _, _ = vessel_tree()
    got = frangi(img, sigmas=[1, 2, 3], tol=TOL, **kwargs)
    ref = frangi_reference(img, [1, 2, 3], **kwargs)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, ref, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("kwargs", [{}, {"alpha": 0.8, "gamma": 0.1}, {"black_ridges": False}])
def test_frangi_3d_against_scikit_images_formula(kwargs):
    z, r, c = np.mgrid[0:20, 0:22, 0:24].astype(float)
    img = 1.0 - 0.8 * np.exp(-((r - 11) ** 2 + (c - 12) ** 2) / (2 * 1.5**2))     # a tube along z
    img -= 0.5 * np.exp(-((z - 10) ** 2) / (2 * 1.2**2))                          # a plate
    img += 0.01 * np.random.default_rng(22).standard_normal(img.shape)
    got = frangi(img, sigmas=[1.0, 2.0], tol=TOL, **kwargs)
    ref = frangi_reference(img, [1.0, 2.0], **kwargs)
    # R_A = l2 / l3 and R_B amplify the Hessians' 1e-8 differences where l3 nears 0 (measured
    # up to 2e-7 at a few pixels of 10560)
    np.testing.assert_allclose(got, ref, rtol=1e-6, atol=1e-6)
    if kwargs.get("black_ridges", True):
        assert got[3, 11, 12] > 0.3 and got[3, 2, 2] < 0.05             # the tube, not the corner


def test_frangi_finds_the_vessel_tree():
    img, r, c = vessel_tree()
    # at the vessels' widths (gamma is set at the first scale: the noise's at sigma 1)
    v = frangi(img, sigmas=[2, 3])
    floor = 10 * np.percentile(v[(np.abs(c - 48) > 12) & (r < 30)], 99)  # away from the tree
    assert v[20:35, 48].min() > floor                                      # the trunk
    assert v[75, 18] > floor and v[75, 66] > floor                         # both branches


def test_frangi_dtypes_nan_and_errors():
    img, _, _ = vessel_tree((40, 40))
    assert frangi(img.astype(np.float32), sigmas=[2]).dtype == np.float32
    u8 = (img * 200).clip(0, 255).astype(np.uint8)
    # scikit-image's frangi does not rescale integers (astype float64)
    np.testing.assert_allclose(frangi(u8, sigmas=[2], gamma=10.0),
                               frangi(u8.astype(float), sigmas=[2], gamma=10.0))
    # the deprecated scale_range/scale_step
    np.testing.assert_array_equal(frangi(img, scale_range=(1, 4), scale_step=1),
                                  frangi(img, sigmas=[1, 2, 3]))
    # NaN reaches as far as the two passes' kernels (8 sigma / sqrt(2) each at sigma > 1)
    bad, _, _ = vessel_tree((80, 80))
    bad[40, 40] = np.nan
    v = frangi(bad, sigmas=[2, 3])
    assert np.isnan(v[40, 40]) and np.isfinite(v[:3, :3]).all()
    with pytest.raises(ValueError, match="2-D or 3-D"):
        frangi(np.ones(10))
    with pytest.raises(ValueError, match="sigmas"):
        frangi(img, sigmas=[1, 0])
    with pytest.raises(TypeError, match="sigmas"):
        frangi(img, sigmas=["a"])
    np.testing.assert_array_equal(frangi(img, sigmas=2), frangi(img, sigmas=[2]))
    np.testing.assert_array_equal(frangi(img, sigmas=(s for s in [1, 2])), frangi(img, sigmas=[1, 2]))
    for name in ("alpha", "beta", "gamma"):
        with pytest.raises(ValueError, match=name):
            frangi(img, **{name: -1.0})
    with pytest.raises(TypeError, match="image must be real"):
        frangi(img.astype(complex))


# ------------------------------------------------------------------------------ determinism


def test_same_bits_on_any_number_of_threads():
    import sftwave

    rng = np.random.default_rng(30)
    elems3 = as_elems(random_symmetric(3, 1 << 16, rng))
    elems2 = as_elems(random_symmetric(2, 1 << 17, rng))
    img = image((24, 26, 28), 31)
    results = []
    for workers in (1, 3):
        with sftwave.set_workers(workers):
            results.append((hessian_matrix_eigvals(elems3), hessian_matrix_eigvals(elems2),
                            frangi(img, sigmas=[1.5, 2.5])))
    for a, b in zip(*results, strict=True):
        np.testing.assert_array_equal(a, b)
