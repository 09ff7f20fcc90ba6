"""sftwave.feature.multiscale_basic_features against scikit-image's and the direct definition.

References:

* scikit-image 0.26's ``skimage.feature.multiscale_basic_features`` (float32 all through):
  per feature, the largest difference relative to that feature's range (max - min) is held
  to 1e-3 by default (measured 4.3e-4 on ``camera``: the Hessian eigenvalues at sigma 16,
  scikit-image's truncation of its Gaussian at 4 sigma, see the function's Notes), and to
  5e-4 with ``truncated=True`` (the same kernels; what is left is scikit-image's float32
  rounding of ``np.gradient`` of values near 0.5 whose differences are about 1e-4 at the
  largest scale: a few 1e-8 absolute on a range of about 1e-3 there, measured 8e-5);
* the direct definition: the exact sampled Gaussian (tests/naive.py, ``'nearest'``
  extension) then, written out with numpy, Sobel's magnitude (``[1, 0, -1]`` along an axis,
  ``[1, 2, 1] / 4`` along the others, ``'reflect'``) and the eigenvalues of ``np.gradient``
  twice (``np.linalg.eigvalsh``).  With ``tol=1e-8`` sftwave's Gaussian is within a few
  ``tol`` of the exact one per axis; the features are differences of it, so the bound is
  1e-6 of each feature's range, plus the float32 rounding of the smoothed image (as
  scikit-image's, the smoothed image is float32; sftwave's float32 smoothing rounds once
  per axis pass, about ``2 eps32`` of the image's largest magnitude in all) carried
  through a second difference (four such errors, each divided by the spacings of the
  axes it differentiates): ``8 eps32 max|image| / min(spacing)**2`` absolute (:func:`_bound`).
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np
import pytest
from naive import exact_gaussian_filter1d

from sftwave.feature import multiscale_basic_features
from sftwave.skimage.filters import gaussian

RNG = np.random.default_rng(11)


def _scene(shape, seed=0):
    """Smooth blobs and edges: the random field smoothed, plus a step."""
    from scipy import ndimage as ndi

    rng = np.random.default_rng(seed)
    x = ndi.gaussian_filter(rng.random(shape), 1.5)
    x[tuple(slice(n // 3, 2 * n // 3) for n in shape)] += 0.5
    return x


def _range_error(got, ref):
    """Per feature: max |got - ref| over the pixels, divided by ref's range (max - min)."""
    axes = tuple(range(ref.ndim - 1))
    span = np.ptp(ref, axis=axes)
    return np.max(np.abs(got.astype(np.float64) - ref), axis=axes) / np.maximum(span, 1e-30)


def _sobel_axis(g, a):
    """The Sobel derivative along axis ``a`` by its definition: ``[1, 0, -1]`` along it,
    ``[1, 2, 1] / 4`` along every other axis, the image extended by scipy's ``'reflect'``."""
    def shifted(x, axis, off):
        return x[tuple(slice(1 + off, 1 + off + g.shape[axis]) if c == axis else slice(None)
                       for c in range(g.ndim))]

    d = np.pad(g, 1, mode="symmetric")
    d = shifted(d, a, 1) - shifted(d, a, -1)
    for b in range(g.ndim):
        if b != a:
            d = (shifted(d, b, -1) + 2 * shifted(d, b, 0) + shifted(d, b, 1)) / 4
    return d


def _bound(image, ref, spacing=(1.0,), relative=1e-6):
    """Per feature: ``relative`` of its range plus float32 rounding of the smoothed image
    through a second difference (``8 eps32 max|image| / min(spacing)**2``), as a fraction
    of the range."""
    span = np.maximum(np.ptp(ref, axis=tuple(range(ref.ndim - 1))), 1e-30)
    rounding = 8 * np.finfo(np.float32).eps * np.max(np.abs(image)) / min(spacing) ** 2
    return relative + rounding / span


def _definition(image, sigmas, spacing=None):
    """The features by their definition, the Gaussian exact (float64)."""
    image = np.asarray(image, dtype=np.float64)
    spacing = spacing or (1.0,) * image.ndim
    out = []
    for s in sigmas:
        g = image
        for ax, d in enumerate(spacing):
            g = exact_gaussian_filter1d(g, s / d, mode="nearest", axis=ax)
        first = [np.gradient(g, axis=a) / spacing[a] for a in range(g.ndim)]
        h = np.empty(g.shape + (g.ndim, g.ndim))
        for a, b in combinations_with_replacement(range(g.ndim), 2):
            h[..., a, b] = h[..., b, a] = np.gradient(first[a], axis=b) / spacing[b]
        acc = np.zeros(g.shape)
        for a in range(g.ndim):
            acc += (_sobel_axis(g, a) / spacing[a]) ** 2
        eig = np.linalg.eigvalsh(h)[..., ::-1]
        out += [g, np.sqrt(acc / g.ndim), *np.moveaxis(eig, -1, 0)]
    return np.stack(out, axis=-1)


def test_sobel_reference_is_the_definition():
    g = RNG.random((9, 11))
    ndi = pytest.importorskip("scipy.ndimage")
    ref = np.sqrt((ndi.sobel(g, 0, mode="reflect") ** 2 + ndi.sobel(g, 1, mode="reflect") ** 2)
                  / 2) / 4        # scipy's smoothing is [1, 2, 1], scikit-image's [1, 2, 1] / 4
    got = np.sqrt((_sobel_axis(g, 0) ** 2 + _sobel_axis(g, 1) ** 2) / 2)
    np.testing.assert_allclose(got, ref, rtol=1e-12)


@pytest.mark.parametrize("shape", [(40, 52), (12, 14, 16), (60,)])
def test_equals_the_direct_definition(shape):
    image = _scene(shape)
    sigmas = (1.0, 2.0, 4.0)
    got = multiscale_basic_features(image, sigma_min=1, sigma_max=4, tol=1e-8)
    ref = _definition(image.astype(np.float32), sigmas)
    assert got.shape == ref.shape and got.dtype == np.float32
    assert np.all(_range_error(got, ref) < _bound(image, ref))


def test_feature_order_and_intensity_are_skimages_gaussian():
    image = _scene((30, 34))
    got = multiscale_basic_features(image, sigma_min=1, sigma_max=8, num_sigma=3)
    # 3 scales of (intensity, edges, 2 eigenvalues): intensity k is the Gaussian at sigma k
    for k, s in enumerate(np.logspace(0, 3, 3, base=2)):
        smooth = gaussian(image.astype(np.float32), s)
        np.testing.assert_array_equal(got[..., 4 * k], smooth)
    only_edges = multiscale_basic_features(image, False, True, False, sigma_min=1, sigma_max=8,
                                           num_sigma=3)
    np.testing.assert_array_equal(only_edges, got[..., 1::4])
    only_texture = multiscale_basic_features(image, False, False, True, sigma_min=1, sigma_max=8,
                                             num_sigma=3)
    np.testing.assert_array_equal(only_texture, np.delete(got, np.s_[0::4], -1)[..., [1, 2, 4, 5, 7, 8]])
    assert np.all(got[..., 2::4] >= got[..., 3::4])        # eigenvalues decreasing


def skimage_feature():
    return pytest.importorskip("skimage.feature")


def test_camera_within_1e3_of_each_features_range():
    sf = skimage_feature()
    data = pytest.importorskip("skimage.data")
    image = data.camera()[::2, ::2]
    ref = sf.multiscale_basic_features(image)
    got = multiscale_basic_features(image)
    assert got.shape == ref.shape and got.dtype == ref.dtype == np.float32
    assert _range_error(got, ref).max() < 1e-3
    exact = multiscale_basic_features(image, truncated=True)
    assert _range_error(exact, ref).max() < 5e-4


def test_3d_and_channels_against_skimage():
    sf = skimage_feature()
    vol = _scene((14, 16, 18)).astype(np.float32)
    ref = sf.multiscale_basic_features(vol, sigma_min=1, sigma_max=4)
    got = multiscale_basic_features(vol, sigma_min=1, sigma_max=4)
    assert got.shape == ref.shape == (14, 16, 18, 15)
    assert _range_error(got, ref).max() < 1e-3
    rgb = (np.stack([_scene((24, 28), seed=k) for k in range(3)], axis=0) * 100).astype(np.uint8)
    ref = sf.multiscale_basic_features(rgb, sigma_max=4, channel_axis=0)
    got = multiscale_basic_features(rgb, sigma_max=4, channel_axis=0)
    assert got.shape == ref.shape == (24, 28, 3 * 4 * 4)
    assert _range_error(got, ref).max() < 1e-3


def _camera_volume(side):
    """benchmarks/comparisons/features.py's volume: camera's corner repeated along a first axis
    on which it only brightens linearly (its curvature there is 0: a small-range eigenvalue)."""
    data = pytest.importorskip("skimage.data")
    tile = data.camera()[:side, :side][None].repeat(side, 0)
    return np.ascontiguousarray(tile * np.linspace(0.5, 1.0, side)[:, None, None]).astype(np.float32)


@pytest.mark.parametrize("case", ["scene, default scales", "camera volume, sigmas to 4"])
def test_volume_within_1e3_of_each_features_range(case):
    # Hessian eigenvalues whose range is thousands of times below the volume's values (at
    # sigma 16 on 48^3, about 1e-4; the middle one of the camera volume, flat along its first
    # axis): float32 sums in the smoothing (a few 6e-8 of the values per pass, three passes)
    # were 4e-3 and 1.4e-3 of them.  A volume's Gaussians are scipy's kernels in float64, as
    # scikit-image's: what is left is float32 rounding (measured below 3e-7 of each range),
    # so the bound is the documented 1e-3, and the features are truncated=True's
    sf = skimage_feature()
    if case.startswith("scene"):
        vol, kw = _scene((48, 48, 48)).astype(np.float32), {}
    else:
        vol, kw = _camera_volume(48), dict(sigma_max=4)
    ref = sf.multiscale_basic_features(vol, **kw)
    got = multiscale_basic_features(vol, **kw)
    assert got.shape == ref.shape
    assert _range_error(got, ref).max() < 1e-3
    np.testing.assert_array_equal(got, multiscale_basic_features(vol, truncated=True, **kw))


def test_channels_follow_each_other():
    rgb = np.stack([_scene((20, 22), seed=k) for k in range(3)], axis=-1)
    got = multiscale_basic_features(rgb, sigma_max=2, channel_axis=-1)
    moved = multiscale_basic_features(np.moveaxis(rgb, -1, 0), sigma_max=2, channel_axis=0)
    np.testing.assert_array_equal(got, moved)
    per = [multiscale_basic_features(rgb[..., c], sigma_max=2) for c in range(3)]
    np.testing.assert_array_equal(got, np.concatenate(per, axis=-1))


def test_dtypes_are_img_as_float32():
    image = (_scene((20, 24)) * 100).astype(np.uint8)
    got = multiscale_basic_features(image, sigma_max=2)
    ref = multiscale_basic_features((image / 255.0).astype(np.float32), sigma_max=2)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-6)
    assert multiscale_basic_features(image.astype(np.float64), sigma_max=1).dtype == np.float32


def test_threads_do_not_change_bits():
    image = _scene((64, 70))
    one = multiscale_basic_features(image, workers=1)
    two = multiscale_basic_features(image, workers=2)
    np.testing.assert_array_equal(one, two)


def test_nan_is_confined():
    image = _scene((64, 64))
    image[2, 3] = np.nan
    got = multiscale_basic_features(image, sigma_min=1, sigma_max=2)
    assert np.isnan(got[2, 3]).all()
    assert np.isfinite(got[40:, 40:]).all()      # beyond every kernel's reach (2 sigma * 4 + 2)


def test_spacing_in_physical_units():
    image = _scene((24, 30))
    spacing = (2.0, 0.5)
    got = multiscale_basic_features(image, sigma_min=2, sigma_max=4, spacing=spacing, tol=1e-8)
    ref = _definition(image.astype(np.float32), (2.0, 4.0), spacing)
    assert np.all(_range_error(got, ref) < _bound(image, ref, spacing))
    same = multiscale_basic_features(image, sigma_max=2, spacing=1.0)
    np.testing.assert_array_equal(same, multiscale_basic_features(image, sigma_max=2))


@pytest.mark.parametrize(("kwargs", "error", "match"), [
    (dict(intensity=False, edges=False, texture=False), ValueError, "intensity, edges or texture"),
    (dict(sigma_min=0), ValueError, "sigma_min"),
    (dict(sigma_max=np.inf), ValueError, "sigma_max"),
    (dict(sigma_min=4, sigma_max=1), ValueError, "sigma_max must be at least sigma_min"),
    (dict(num_sigma=0), ValueError, "num_sigma"),
    (dict(num_sigma=2.5), TypeError, "num_sigma"),
    (dict(channel_axis=3), ValueError, "channel_axis"),
    (dict(workers=0), ValueError, "workers"),
    (dict(spacing=(1.0, 2.0, 3.0)), ValueError, "spacing"),
    (dict(spacing=(1.0, -2.0)), ValueError, r"spacing.*-2\.0"),
    (dict(spacing=(1.0, np.nan)), ValueError, "spacing"),
    (dict(texture="yes"), TypeError, "texture"),
    (dict(tol=1.0), ValueError, "tol"),
    (dict(truncated=1.5), TypeError, "truncated"),
])
def test_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        multiscale_basic_features(np.zeros((8, 9)), **kwargs)


def test_bad_images():
    with pytest.raises(ValueError, match="at least 2 pixels"):
        multiscale_basic_features(np.zeros((1, 9)))
    with pytest.raises(ValueError, match="at least 2 pixels"):
        multiscale_basic_features(np.zeros((8, 9, 1)), channel_axis=1)
    with pytest.raises(ValueError, match="0-d"):
        multiscale_basic_features(np.float64(1.0))
    with pytest.raises(TypeError, match="real"):
        multiscale_basic_features(np.zeros((8, 9), complex))
    with pytest.raises(TypeError, match="numeric"):
        multiscale_basic_features(np.array([["a", "b"], ["c", "d"]]))


def test_skimage_namespace_and_strided_input():
    from sftwave.skimage import feature

    assert feature.multiscale_basic_features is multiscale_basic_features
    image = _scene((40, 60))
    np.testing.assert_array_equal(multiscale_basic_features(image[::2, ::3], sigma_max=2),
                                  multiscale_basic_features(image[::2, ::3].copy(), sigma_max=2))


@pytest.mark.parametrize("kwargs", [dict(), dict(truncated=True), dict(spacing=(2.0, 0.5)),
                                    dict(texture=False, sigma_max=32)])
def test_dask_blocks_equal_the_in_memory_features(kwargs):
    da = pytest.importorskip("dask.array")
    import sftwave.dask as sd

    image = _scene((150, 130))
    got = sd.multiscale_basic_features(da.from_array(image, chunks=(50, 40)), **kwargs)
    ref = multiscale_basic_features(image, **kwargs)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    # each block extended by the widest plan's window and the differences' two samples: the
    # same arithmetic on the same samples, so the same bits
    np.testing.assert_array_equal(got.compute(), ref)


def test_dask_channels_and_volumes():
    da = pytest.importorskip("dask.array")
    import sftwave.dask as sd

    rgb = np.stack([_scene((60, 70), seed=k) for k in range(3)], axis=-1)
    got = sd.multiscale_basic_features(da.from_array(rgb, chunks=(25, 30, 1)), channel_axis=-1,
                                       sigma_max=4)
    np.testing.assert_array_equal(got.compute(),
                                  multiscale_basic_features(rgb, channel_axis=-1, sigma_max=4))
    vol = _scene((24, 30, 28)).astype(np.float32)
    got = sd.multiscale_basic_features(da.from_array(vol, chunks=12), sigma_max=2)
    np.testing.assert_array_equal(got.compute(), multiscale_basic_features(vol, sigma_max=2))
    with pytest.raises(ValueError, match="intensity, edges or texture"):
        sd.multiscale_basic_features(da.from_array(vol, chunks=12), intensity=False, edges=False,
                                     texture=False)
