"""sftwave.feature.blob_log and blob_dog: against planted blobs, direct definitions and scikit-image.

References:

* planted Gaussian blobs ``A exp(-|x - c|^2 / 2 t^2)``: the scale-normalised
  response ``-sigma^2 LoG`` at the centre is ``A n sigma^2 t^n / (sigma^2 + t^2)^(n/2 + 1)``
  in n-D, largest at ``sigma = t sqrt(2 / n)`` (``t`` in 2-D, the radius over sqrt(2)),
  where it is ``A / 2`` in 2-D; a detection must lie within 1 pixel of the centre
  and one grid step of that sigma;
* peak finding: the direct definition, point by point (larger than the
  threshold, no larger value in the clipped 3 x ... x 3 box, outside the
  border), sorted by decreasing value, ties in C order of scikit-image's cube;
* pruning: scikit-image's loop transcribed literally (overlap of each pair by
  the disk / sphere formulas in scalar arithmetic, the smaller blob's sigma set
  to 0 and later pairs evaluated with the values so far), over all n^2 pairs;
* scikit-image's own ``blob_log`` / ``blob_dog`` (when installed): identical
  detections on the test images.  Its Gaussians are truncated at 4 sigma, sftwave's
  are not (they are closer to the exact Gaussian), so the responses differ by
  about scipy's truncation error (measured below 1e-3 on these images, whose
  values are in [0, 1]); the test images put every planted response (0.35 to
  0.5) far from the threshold (0.1) and from its neighbours in space and scale,
  and their amplitudes differ so that no two blobs tie, so the detections agree
  exactly (the margins asserted in ``test_margins_of_the_test_image``).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import spatial

from sftwave import gaussian_laplace
from sftwave.feature import blob_dog, blob_log
from sftwave.feature._blobs import _blob_overlaps, _prune_blobs, _scale_space_peaks

# (row, column, t, amplitude): well apart (no pair closer than 3 (t1 + t2)), centres on pixels
BLOBS_2D = [(24, 26, 2.0, 1.0), (30, 90, 4.0, 0.9), (88, 40, 7.0, 0.8), (92, 100, 5.0, 0.7),
            (60, 64, 3.0, 0.75)]
GRID_2D = dict(min_sigma=1, max_sigma=10, num_sigma=10)        # sigmas 1, 2, ..., 10
BLOBS_3D = [(12, 14, 16, 2.0, 1.0), (30, 32, 28, 3.0, 0.8)]
GRID_3D = dict(min_sigma=1, max_sigma=4, num_sigma=7)          # sigmas 1, 1.5, ..., 4


def planted(shape, blobs, dtype=np.float64):
    """A sum of Gaussian blobs ``(centre..., t, amplitude)`` on a zero background."""
    grid = np.indices(shape, dtype=np.float64)
    image = np.zeros(shape)
    for *centre, t, amp in blobs:
        r2 = sum((g - c) ** 2 for g, c in zip(grid, centre))
        image += amp * np.exp(-r2 / (2 * t * t))
    return image.astype(dtype)


def image_2d(dtype=np.float64):
    return planted((128, 136), BLOBS_2D, dtype)


def image_3d(dtype=np.float64):
    return planted((44, 46, 48), BLOBS_3D, dtype)


def sorted_rows(a):
    return a[np.lexsort(a.T[::-1])]


def assert_planted(found, blobs, grid, ndim):
    """One detection per planted blob: centre within 1 pixel, sigma within one grid step."""
    step = (grid["max_sigma"] - grid["min_sigma"]) / (grid["num_sigma"] - 1)
    assert len(found) == len(blobs)
    for *centre, t, _ in blobs:
        d = np.sqrt(((found[:, :ndim] - np.array(centre)) ** 2).sum(axis=1))
        k = int(np.argmin(d))
        assert d[k] <= 1.0
        assert abs(found[k, -1] - t * math.sqrt(2 / ndim)) <= step + 1e-6


# ----------------------------------------------------------------------------- planted blobs


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_blob_log_finds_the_planted_blobs_2d(dtype):
    found = blob_log(image_2d(dtype), threshold=0.1, **GRID_2D)
    assert found.dtype == dtype and found.shape[1] == 3
    assert_planted(found, BLOBS_2D, GRID_2D, 2)


def test_blob_log_finds_the_planted_blobs_3d():
    found = blob_log(image_3d(np.float32), threshold=0.1, **GRID_3D)
    assert found.shape[1] == 4
    assert_planted(found, BLOBS_3D, GRID_3D, 3)


def test_blob_dog_finds_the_planted_blobs():
    found = blob_dog(image_2d(), min_sigma=1, max_sigma=10, threshold=0.1)
    assert len(found) == len(BLOBS_2D)
    for *centre, t, _ in BLOBS_2D:
        d = np.sqrt(((found[:, :2] - np.array(centre)) ** 2).sum(axis=1))
        k = int(np.argmin(d))
        # the DoG between sigma and 1.6 sigma peaks near t / sqrt(1.6): one ratio step
        assert d[k] <= 1.0 and t / 1.6 / 1.6 <= found[k, -1] <= t * 1.6


def test_margins_of_the_test_image():
    """The planted responses are far from the threshold and from their neighbours (see the module).

    scikit-image's cube (scipy's Laplacian of Gaussian, truncated at 4 sigma) and
    sftwave's differ by at most ``err``; every decision about a detection (above
    the threshold, above every neighbour) holds with a margin above ``2 err``, so
    both cubes make it the same way.
    """
    import scipy.ndimage as ndi

    image = image_2d()
    sigmas = np.linspace(1, 10, 10)
    theirs = np.stack([-ndi.gaussian_laplace(image, s) * s * s for s in sigmas])
    ours = np.stack([-gaussian_laplace(image, s) * s * s for s in sigmas])
    err = np.abs(theirs - ours).max()
    assert err < 1e-3                                 # scipy's truncation (sftwave's: ~1e-6)
    peaks = _scale_space_peaks(theirs, 0.1, None, (0, 0))
    assert len(peaks) == len(BLOBS_2D)
    values = np.sort(theirs[peaks[:, -1], peaks[:, 0], peaks[:, 1]])
    assert values.min() - 0.1 > 2 * err and np.diff(values).min() > 2 * err   # no ties either
    for r, c, s in peaks:
        box = theirs[max(s - 1, 0):s + 2, r - 1:r + 2, c - 1:c + 2].ravel()
        assert theirs[s, r, c] - np.sort(box)[-2] > 2 * err
    # elsewhere, no point is within 2 err of being a peak above the threshold
    near = _scale_space_peaks(theirs - 2 * err, 0.1 - 2 * err, None, (0, 0))
    assert len(near) == len(peaks)

# --------------------------------------------------------------------------- peak finding


def naive_peaks(cube, threshold, border):
    """The direct definition of the scale-space peaks (see the module), as (spatial..., scale) rows."""
    found = []
    for index in np.ndindex(*cube.shape):
        v = cube[index]
        if not v > threshold:
            continue
        if any(i < w or i >= n - w for i, n, w in zip(index[1:], cube.shape[1:], border)):
            continue
        box = tuple(slice(max(i - 1, 0), i + 2) for i in index)
        if (cube[box] > v).any():
            continue
        found.append((-v,) + index[1:] + index[:1])
    found.sort()
    return np.array([f[1:] for f in found], dtype=np.intp).reshape(-1, cube.ndim)


@pytest.mark.parametrize("shape", [(4, 9, 11), (3, 5, 6, 7)])
@pytest.mark.parametrize("border", [0, 2])
def test_peaks_against_the_direct_definition(shape, border):
    rng = np.random.default_rng(3)
    # values on a coarse grid: plateaus and ties, which the rule and the order must handle
    cube = (rng.integers(0, 6, size=shape) / 4.0).astype(np.float32)
    widths = (border,) * (len(shape) - 1)
    for threshold in [0.3, 1.0]:
        got = _scale_space_peaks(cube, threshold, None, widths)
        np.testing.assert_array_equal(got, naive_peaks(cube, np.float32(threshold), widths))


def test_peaks_threshold_none_and_rel():
    rng = np.random.default_rng(4)
    cube = rng.random((3, 8, 9))
    got = _scale_space_peaks(cube, None, 0.5, (0, 0))
    np.testing.assert_array_equal(got, naive_peaks(cube, 0.5 * cube.max(), (0, 0)))
    got = _scale_space_peaks(cube, None, None, (0, 0))
    np.testing.assert_array_equal(got, naive_peaks(cube, cube.min(), (0, 0)))


def test_constant_cube_has_no_peaks():
    cube = np.full((3, 6, 7), 2.0)
    assert _scale_space_peaks(cube, 1.0, None, (0, 0)).shape == (0, 3)


# ---------------------------------------------------------------------------------- pruning


def naive_overlap(b1, b2, sigma_dim):
    """scikit-image's ``_blob_overlap`` of two blobs, scalar by scalar."""
    ndim = len(b1) - sigma_dim
    if b1[-1] == b2[-1] == 0:
        return 0.0
    if b1[-1] > b2[-1]:
        big, r1, r2 = b1[-sigma_dim:], 1.0, b2[-1] / b1[-1]
    else:
        big, r1, r2 = b2[-sigma_dim:], b1[-1] / b2[-1], 1.0
    d = math.sqrt(sum(((b2[k] - b1[k]) / (big[k % sigma_dim] * math.sqrt(ndim))) ** 2
                      for k in range(ndim)))
    if d > r1 + r2:
        return 0.0
    if d <= abs(r1 - r2):
        return 1.0
    if ndim == 2:
        a1 = math.acos(min(max((d * d + r1 * r1 - r2 * r2) / (2 * d * r1), -1), 1))
        a2 = math.acos(min(max((d * d + r2 * r2 - r1 * r1) / (2 * d * r2), -1), 1))
        prod = (-d + r2 + r1) * (d - r2 + r1) * (d + r2 - r1) * (d + r2 + r1)
        area = r1 * r1 * a1 + r2 * r2 * a2 - 0.5 * math.sqrt(abs(prod))
        return area / (math.pi * min(r1, r2) ** 2)
    vol = (math.pi / (12 * d) * (r1 + r2 - d) ** 2
           * (d * d + 2 * d * (r1 + r2) - 3 * (r1 * r1 + r2 * r2) + 6 * r1 * r2))
    return vol / (4.0 / 3 * math.pi * min(r1, r2) ** 3)


def naive_prune(blobs, overlap, sigma_dim, order):
    """scikit-image's loop over the pairs in ``order``, every pair's overlap from the current values."""
    b = blobs.astype(np.float64).copy()
    for i, j in order:
        if naive_overlap(b[i], b[j], sigma_dim) > overlap:
            if b[i, -1] > b[j, -1]:
                b[j, -1] = 0
            else:
                b[i, -1] = 0
    return blobs[b[:, -1] > 0]


def random_blobs(rng, n, ndim, sigma_dim):
    pos = rng.integers(0, 40, size=(n, ndim)).astype(np.float64)
    sig = rng.choice([1.0, 2.0, 3.0, 5.0], size=(n, 1)) * (1 + np.arange(sigma_dim) / 4)
    return np.hstack([pos, sig])


@pytest.mark.parametrize("ndim, sigma_dim", [(2, 1), (3, 1), (2, 2), (3, 3)])
@pytest.mark.parametrize("overlap", [0.0, 0.3, 0.8])
def test_prune_against_the_direct_definition(ndim, sigma_dim, overlap):
    rng = np.random.default_rng(ndim * 10 + sigma_dim)
    blobs = random_blobs(rng, 60, ndim, sigma_dim)
    n = len(blobs)
    # every pair's overlap, vectorised against scalar; beyond the KD-tree's reach it is 0
    i, j = np.triu_indices(n, 1)
    fast = _blob_overlaps(blobs, i, j, sigma_dim)
    slow = np.array([naive_overlap(blobs[a], blobs[b], sigma_dim) for a, b in zip(i, j)])
    np.testing.assert_allclose(fast, slow, rtol=1e-12, atol=1e-12)
    reach = 2 * blobs[:, -sigma_dim:].max() * math.sqrt(ndim)
    pairs = list(spatial.cKDTree(blobs[:, :ndim]).query_pairs(reach))
    near = np.zeros((n, n), dtype=bool)
    for a, b in pairs:
        near[a, b] = True
    assert not slow[~near[i, j]].any()
    # the pruning: the literal loop (dropped blobs re-evaluated) over the same pairs
    np.testing.assert_array_equal(_prune_blobs(blobs, overlap, sigma_dim),
                                  naive_prune(blobs, overlap, sigma_dim, pairs))


def test_prune_order_of_a_chain():
    """A drops B, B would drop C: scikit-image's order of the pairs decides whether C stays."""
    blobs = np.array([[10.0, 10.0, 3.0], [10.0, 13.0, 2.0], [10.0, 15.5, 1.0],
                      [40.0, 40.0, 2.0], [40.0, 41.0, 1.5]])                 # and a lone pair
    reach = 2 * 3.0 * math.sqrt(2)
    pairs = list(spatial.cKDTree(blobs[:, :2]).query_pairs(reach))
    want = naive_prune(blobs, 0.1, 1, pairs)
    np.testing.assert_array_equal(_prune_blobs(blobs, 0.1, 1), want)
    # in either order, the larger of the lone pair stays and its smaller goes
    assert [40.0, 40.0, 2.0] in want.tolist() and [40.0, 41.0, 1.5] not in want.tolist()


def test_prune_keeps_the_larger_blob():
    blobs = np.array([[10.0, 10.0, 2.0], [10.0, 11.0, 4.0], [30.0, 30.0, 1.0]])
    np.testing.assert_array_equal(_prune_blobs(blobs, 0.5, 1), blobs[1:])
    np.testing.assert_array_equal(_prune_blobs(blobs, 1.0, 1), blobs)


# -------------------------------------------------------------------------- the arguments


def test_exclude_border():
    image = planted((64, 64), [(5, 30, 2.0, 1.0), (40, 40, 3.0, 1.0)])
    kw = dict(min_sigma=1, max_sigma=5, num_sigma=5, threshold=0.1)
    assert len(blob_log(image, **kw)) == 2
    assert len(blob_log(image, exclude_border=5, **kw)) == 2         # row 5 is the 6th row
    assert len(blob_log(image, exclude_border=6, **kw)) == 1
    assert len(blob_log(image, exclude_border=(6, 0), **kw)) == 1
    assert len(blob_log(image, exclude_border=(0, 6), **kw)) == 2
    assert len(blob_log(image, exclude_border=True, **kw)) == 2       # True counts as 1
    assert len(blob_dog(image, min_sigma=1, max_sigma=5, threshold=0.1, exclude_border=6)) == 1
    edge = planted((64, 64), [(0, 30, 2.0, 1.0), (40, 40, 3.0, 1.0)])   # a blob on the first row
    assert len(blob_log(edge, **kw)) == 2
    assert len(blob_log(edge, exclude_border=True, **kw)) == 1       # as scikit-image: 1 pixel


def test_threshold_rel_and_none():
    image = image_2d()
    # responses A / 2: 0.5 for the strongest, at most 0.45 for the others
    strongest = blob_log(image, threshold=None, threshold_rel=0.95, **GRID_2D)
    assert len(strongest) == 1 and tuple(strongest[0, :2]) == (24, 26)
    both = blob_log(image, threshold=0.46, threshold_rel=0.1, **GRID_2D)   # the larger applies
    assert len(both) == 1


def test_log_scale():
    image = image_2d()
    found = blob_log(image, min_sigma=1, max_sigma=10, num_sigma=12, log_scale=True, threshold=0.1)
    grid = np.logspace(0, 1, 12)
    assert np.isin(found[:, -1], grid.astype(found.dtype)).all()
    assert len(found) == len(BLOBS_2D)


def test_anisotropic_sigmas():
    image = image_2d()
    found = blob_log(image, min_sigma=(1, 2), max_sigma=(10, 20), num_sigma=10, threshold=0.1)
    assert found.shape == (len(BLOBS_2D), 4)
    np.testing.assert_array_equal(found[:, 3], 2 * found[:, 2])


def test_integer_image_is_rescaled():
    image = image_2d()
    u8 = np.round(image / image.max() * 255).astype(np.uint8)
    np.testing.assert_array_equal(blob_log(u8, threshold=0.1, **GRID_2D),
                                  blob_log(u8 / 255.0, threshold=0.1, **GRID_2D))


@pytest.mark.parametrize("func, ncol", [(blob_log, 3), (blob_dog, 3)])
def test_no_blobs_is_empty(func, ncol):
    for image in [np.zeros((20, 21)), np.ones((20, 21), np.float32)]:
        found = func(image)
        assert found.shape == (0, ncol) and found.dtype == np.float64
    found = func(np.zeros((8, 9, 10)), min_sigma=(1, 1, 1))
    assert found.shape == (0, 6)
    for empty in [np.zeros((0, 7)), np.zeros((5, 0, 4), np.float32)]:     # an empty image: none
        found = func(empty)
        assert found.shape == (0, empty.ndim + 1) and found.dtype == np.float64


@pytest.mark.parametrize("kwargs, exc, word", [
    (dict(min_sigma=0), ValueError, "min_sigma"),
    (dict(max_sigma=-1), ValueError, "max_sigma"),
    (dict(max_sigma=(1, 2, 3)), ValueError, "max_sigma"),
    (dict(min_sigma="a"), TypeError, "min_sigma"),
    (dict(num_sigma=0), ValueError, "num_sigma"),
    (dict(num_sigma=2.5), TypeError, "num_sigma"),
    (dict(threshold="x"), TypeError, "threshold"),
    (dict(threshold=math.nan), ValueError, "threshold"),
    (dict(threshold_rel="x"), TypeError, "threshold_rel"),
    (dict(overlap=1.5), ValueError, "overlap"),
    (dict(exclude_border=-1), ValueError, "exclude_border"),
    (dict(exclude_border=(1, 2, 3)), ValueError, "exclude_border"),
    (dict(exclude_border=1.5), TypeError, "exclude_border"),
    (dict(tol=-1), ValueError, "tol"),
])
def test_bad_arguments(kwargs, exc, word):
    image = np.zeros((16, 16))
    with pytest.raises(exc, match=word):
        blob_log(image, **kwargs)
    if "num_sigma" not in kwargs:
        with pytest.raises(exc, match=word):
            blob_dog(image, **kwargs)


def test_bad_images_and_ratio():
    # 1-D and 4-D images are blob images, as in scikit-image (tests/test_skimage.py); 0-d is not
    with pytest.raises(ValueError, match="image"):
        blob_log(np.zeros(()))
    with pytest.raises(ValueError, match="image"):
        blob_dog(np.float64(1.0))
    with pytest.raises(TypeError, match="image"):
        blob_log(np.zeros((8, 8), complex))
    with pytest.raises(ValueError, match="sigma_ratio"):
        blob_dog(np.zeros((8, 8)), sigma_ratio=1.0)
    with pytest.raises(ValueError, match="max_sigma"):
        blob_dog(np.zeros((8, 8)), min_sigma=5, max_sigma=1)


# --------------------------------------------------------------------------- scikit-image


def skimage_feature():
    return pytest.importorskip("skimage.feature")


@pytest.mark.parametrize("kwargs", [
    dict(threshold=0.1),
    dict(threshold=0.1, dtype=np.float32),
    dict(threshold=None, threshold_rel=0.5),
    dict(threshold=0.1, exclude_border=(30, 10)),
    dict(threshold=0.1, exclude_border=True, image=planted((64, 64), [(0, 30, 2.0, 1.0)])),
    dict(threshold=0.1, log_scale=True, num_sigma=12),
    dict(threshold=0.1, overlap=0.0),
    dict(threshold=0.1, min_sigma=(1, 2), max_sigma=(10, 20)),
])
def test_blob_log_as_scikit_image(kwargs):
    sf = skimage_feature()
    kwargs = dict(GRID_2D, **kwargs)
    image = kwargs.pop("image", None)
    image = image_2d(kwargs.pop("dtype", np.float64)) if image is None else image
    mine, theirs = blob_log(image, **kwargs), sf.blob_log(image, **kwargs)
    assert mine.dtype == theirs.dtype
    np.testing.assert_array_equal(sorted_rows(mine), sorted_rows(theirs))


def test_blob_log_as_scikit_image_3d():
    sf = skimage_feature()
    image = image_3d(np.float32)
    for kwargs in [dict(GRID_3D, threshold=0.1), dict(GRID_3D, threshold=0.1, exclude_border=13),
                   dict(GRID_3D, threshold=0.1, min_sigma=(1, 1, 1.5), max_sigma=(4, 4, 6))]:
        np.testing.assert_array_equal(sorted_rows(blob_log(image, **kwargs)),
                                      sorted_rows(sf.blob_log(image, **kwargs)))


@pytest.mark.parametrize("kwargs", [
    dict(threshold=0.1),
    dict(threshold=None, threshold_rel=0.3),
    dict(threshold=0.1, sigma_ratio=1.3, exclude_border=20),
    dict(threshold=0.1, min_sigma=(1, 1.5), max_sigma=(10, 15)),
])
def test_blob_dog_as_scikit_image(kwargs):
    sf = skimage_feature()
    kwargs = dict(dict(min_sigma=1, max_sigma=10), **kwargs)
    image = image_2d(np.float32)
    mine, theirs = blob_dog(image, **kwargs), sf.blob_dog(image, **kwargs)
    assert mine.dtype == theirs.dtype
    np.testing.assert_array_equal(sorted_rows(mine), sorted_rows(theirs))
    image = image_3d()
    kwargs = dict(min_sigma=1, max_sigma=4, threshold=0.1)
    np.testing.assert_array_equal(sorted_rows(blob_dog(image, **kwargs)),
                                  sorted_rows(sf.blob_dog(image, **kwargs)))


def test_empty_as_scikit_image():
    sf = skimage_feature()
    for image in [np.zeros((20, 21)), np.zeros((20, 21), np.float32)]:
        for func, ref in [(blob_log, sf.blob_log), (blob_dog, sf.blob_dog)]:
            mine, theirs = func(image), ref(image)
            assert mine.shape == theirs.shape and mine.dtype == theirs.dtype


def test_same_blobs_on_any_number_of_threads():
    import sftwave

    image = image_2d(np.float32) + 0.05 * np.random.default_rng(5).random((128, 136), np.float32)
    results = []
    for workers in (1, 3):
        with sftwave.set_workers(workers):
            results.append((blob_log(image, threshold=0.02, **GRID_2D),
                            blob_dog(image, min_sigma=1, max_sigma=10, threshold=0.02)))
    for a, b in zip(*results, strict=True):
        np.testing.assert_array_equal(a, b)


def test_nan_is_confined():
    image = image_2d()
    image[127, 0] = np.nan                 # a corner, 50 pixels from the nearest blob
    found = blob_log(image, threshold=0.1, **GRID_2D)
    assert_planted(found, BLOBS_2D, GRID_2D, 2)
    assert np.isfinite(found).all()


def test_as_scikit_image_on_its_data_images():
    """Identical detections on scikit-image's own images (the Hubble deep field, its blob example;
    the coins, its blob_dog docstring's example)."""
    sf = skimage_feature()
    data = pytest.importorskip("skimage.data")
    color = pytest.importorskip("skimage.color")
    hubble = color.rgb2gray(data.hubble_deep_field()[:500, :500])
    coins = data.coins()
    # the rows as sets: two blobs whose responses differ by less than the truncation error can
    # come in either order
    for mine, theirs in [
        (blob_log(hubble, max_sigma=30, num_sigma=10, threshold=0.1),
         sf.blob_log(hubble, max_sigma=30, num_sigma=10, threshold=0.1)),
        (blob_dog(hubble, max_sigma=30, threshold=0.1), sf.blob_dog(hubble, max_sigma=30, threshold=0.1)),
        (blob_dog(coins, threshold=0.05, min_sigma=10, max_sigma=40),
         sf.blob_dog(coins, threshold=0.05, min_sigma=10, max_sigma=40)),
    ]:
        np.testing.assert_array_equal(sorted_rows(mine), sorted_rows(theirs))
