"""sftwave.skimage: scikit-image 0.26's names, signatures and numbers, against scikit-image run here."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import skimage.feature as skf
import skimage.filters as skfl

import sftwave.skimage as ski
from sftwave.feature import hessian_matrix

RNG = np.random.default_rng(7)
GRAY = (RNG.random((48, 40)) * 255).astype(np.uint8)
RGB = (RNG.random((32, 36, 3)) * 255).astype(np.uint8)


def blobs_image(shape, centres, sigma=3.0):
    """Gaussian spots of ``sigma`` at ``centres`` on a zero background, any number of axes."""
    grid = np.indices(shape).astype(float)
    out = np.zeros(shape)
    for c in centres:
        d2 = sum((g - ci) ** 2 for g, ci in zip(grid, c))
        out += np.exp(-d2 / (2 * sigma**2))
    return out


def rel_err(a, b):
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))


# the default (untruncated Gaussian to tol, a quarter of scipy's kernel error at 4 sigma)
# differs from scikit-image's 4-sigma kernel by that kernel's error: the Gaussian's mass
# beyond 4 sigma is 6.3e-5, measured at most 8.1e-5 of the image's largest value on
# skimage.data images (benchmarks/skimage_agreement.py); 2e-4 leaves room for other images
DEFAULT_BOUND = 2e-4


@pytest.mark.parametrize(
    "image, kw",
    [
        (GRAY, dict(sigma=3)),
        (RGB, dict(sigma=2.5, channel_axis=-1)),
        (RGB, dict(sigma=(1.5, 4.0), channel_axis=2, mode="reflect")),
        (GRAY.astype(np.float32) / 255, dict(sigma=4, mode="constant", cval=0.25)),
        (GRAY, dict(sigma=2, preserve_range=True)),
        (GRAY.astype(np.int16) - 128, dict(sigma=1.5)),
        (GRAY > 128, dict(sigma=2)),
        (GRAY.astype(np.float16), dict(sigma=2, truncate=3.0)),
    ],
)
def test_gaussian_as_skimage(image, kw):
    ref = skfl.gaussian(image, **kw)
    got = ski.filters.gaussian(image, **kw)
    assert got.dtype == ref.dtype and got.shape == ref.shape
    assert rel_err(got, ref) <= DEFAULT_BOUND
    # truncated=True: scipy's kernel at `truncate` sigma, so scikit-image's numbers to rounding
    exact = ski.filters.gaussian(image, truncated=True, **kw)
    assert np.allclose(exact, ref, rtol=0, atol=4 * np.finfo(ref.dtype).eps * np.abs(ref).max())


def test_gaussian_rgb_keeps_its_colours():
    rgb = np.zeros((21, 21, 3), dtype=np.uint8)
    rgb[10, 10] = (255, 0, 0)
    out = ski.filters.gaussian(rgb, 3, channel_axis=-1)
    assert out.dtype == np.float64 and out.shape == rgb.shape
    assert out[..., 0].max() > 0 and not out[..., 1:].any()  # no red into green, blue
    assert abs(out[..., 0].sum() - 1.0) < 1e-3  # 255 -> 1.0, mass kept


def test_gaussian_out_and_errors():
    out = np.empty(GRAY.shape, dtype=np.float32)
    got = ski.filters.gaussian(GRAY, 2, out=out)
    assert got is out
    assert rel_err(out, skfl.gaussian(GRAY, 2).astype(np.float32)) < DEFAULT_BOUND
    with pytest.raises(ValueError, match="Sigma values less than zero"):
        ski.filters.gaussian(GRAY, -1)
    with pytest.raises(ValueError, match="dtype of `out` must be float"):
        ski.filters.gaussian(GRAY, 1, out=np.empty(GRAY.shape, dtype=np.uint8))
    with pytest.raises(TypeError, match="image"):
        ski.filters.gaussian(GRAY + 1j, 1)


def test_hessian_matrix_future_warning():
    with pytest.warns(FutureWarning) as record:
        hessian_matrix(GRAY, 1.0)
    with warnings.catch_warnings(record=True) as theirs:
        warnings.simplefilter("always")
        skf.hessian_matrix(GRAY, 1.0)
    assert [str(w.message) for w in record] == [str(w.message) for w in theirs]
    assert record[0].filename == __file__  # points at the caller
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        hessian_matrix(GRAY, 1.0, use_gaussian_derivatives=False)


@pytest.mark.parametrize("sigma", [0.2, 1.0, 2.5, 4.0, 7.3])
def test_hessian_matrix_det_approximate_is_skimage(sigma):
    got = ski.feature.hessian_matrix_det(GRAY, sigma)
    ref = skf.hessian_matrix_det(GRAY, sigma)
    assert got.dtype == ref.dtype
    # the same box sums of the same integral image: equal to rounding
    np.testing.assert_allclose(got, ref, rtol=1e-12, atol=1e-15)


def test_hessian_matrix_det_exact_and_shape_index():
    vol = RNG.random((12, 14, 10)).astype(np.float32)
    for image in (GRAY, vol):
        got = ski.feature.hessian_matrix_det(image, 2.0, approximate=False)
        ref = skf.hessian_matrix_det(image, 2.0, approximate=False)
        assert got.dtype == ref.dtype
        # finite differences of Gaussian-smoothed images whose Gaussians differ by the
        # kernels' truncation (DEFAULT_BOUND), the determinant a product of ndim of them
        assert rel_err(got, ref) < 3 * image.ndim * DEFAULT_BOUND
    image = blobs_image((40, 40), [(12, 12), (25, 28)], 4.0)
    got, ref = ski.feature.shape_index(image, 2.0), skf.shape_index(image, 2.0)
    finite = np.isfinite(ref)
    assert np.array_equal(np.isfinite(got), finite)
    # the index is 2/pi arctan of a ratio of eigenvalues that differ by the Gaussian's error
    assert np.max(np.abs(got - ref)[finite]) < 1e-3


def test_filters_hessian_and_gabor_kernel():
    image = np.ones((30, 30))
    image[:, 14] = 0.2
    got, ref = ski.filters.hessian(image, sigmas=[1, 2]), skfl.hessian(image, sigmas=[1, 2])
    assert got.dtype == ref.dtype
    assert np.max(np.abs(got - ref)) < 1e-6  # frangi's bound (tests/test_feature_ridges.py)
    for kw in (
        dict(frequency=0.1),
        dict(frequency=0.23, theta=0.7, sigma_x=3, sigma_y=5, n_stds=2.5, offset=0.3, dtype=np.complex64),
    ):
        g, r = ski.filters.gabor_kernel(**kw), skfl.gabor_kernel(**kw)
        assert g.dtype == r.dtype and g.shape == r.shape
        np.testing.assert_array_equal(g, r)
    with pytest.raises(ValueError, match="dtype must be complex"):
        ski.filters.gabor_kernel(0.1, dtype=np.float64)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_gabor_truncated_is_skimage(dtype):
    image = (GRAY / 255).astype(dtype)
    for theta in (0.0, 0.6):
        ref = skfl.gabor(image, 0.12, theta)
        got = ski.filters.gabor(image, 0.12, theta, truncated=True)
        for g, r in zip(got, ref):
            assert g.dtype == r.dtype
            np.testing.assert_array_equal(g, r)  # the same convolutions


def test_dog_truncated_is_skimage():
    ref = skfl.difference_of_gaussians(RGB, 1.5, 4.0, channel_axis=-1)
    got = ski.filters.difference_of_gaussians(RGB, 1.5, 4.0, channel_axis=-1, truncated=True)
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-14)
    default = ski.filters.difference_of_gaussians(RGB, 1.5, 4.0, channel_axis=-1)
    assert rel_err(default, ref) < 20 * DEFAULT_BOUND  # a difference of two: see the docs


@pytest.mark.parametrize(
    "shape, centres",
    [
        ((120,), [(30,), (80,)]),
        ((20, 22, 18, 16), [(6, 7, 6, 5), (14, 15, 11, 10)]),
    ],
)
@pytest.mark.parametrize("kind", ["log", "dog"])
def test_blobs_any_number_of_axes(shape, centres, kind):
    image = blobs_image(shape, centres, 2.5)
    kw = dict(min_sigma=1, max_sigma=4, threshold=0.02)
    if kind == "log":
        ref = skf.blob_log(image, num_sigma=4, **kw)
        got = ski.feature.blob_log(image, num_sigma=4, truncated=True, **kw)
        default = ski.feature.blob_log(image, num_sigma=4, **kw)
    else:
        ref = skf.blob_dog(image, **kw)
        got = ski.feature.blob_dog(image, truncated=True, **kw)
        default = ski.feature.blob_dog(image, **kw)
    assert len(ref) >= len(centres)
    np.testing.assert_array_equal(got, ref)  # scikit-image's kernels: its detections
    # well-separated spots: the same blobs (equal spots' responses tie to rounding: any order)
    np.testing.assert_array_equal(np.unique(default, axis=0), np.unique(ref, axis=0))


def test_blob_log_truncated_on_camera_is_skimage():
    from skimage import data

    image = data.camera()[::4, ::4]
    kw = dict(min_sigma=2, max_sigma=8, num_sigma=5, threshold=0.05)
    np.testing.assert_array_equal(
        ski.feature.blob_log(image, truncated=True, **kw), skf.blob_log(image, **kw)
    )


def test_namespaces_are_sftwave_feature():
    import sftwave.feature as sf

    for name in ski.feature.__all__:
        assert getattr(ski.feature, name) is getattr(sf, name)
    for name in set(ski.filters.__all__) - {"gaussian"}:
        assert getattr(ski.filters, name) is getattr(sf, name)
