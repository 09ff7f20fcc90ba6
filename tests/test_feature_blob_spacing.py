"""sftwave.feature.blob_log and blob_dog with ``spacing=``: the physical size of a sample per axis.

References:

* ``spacing`` None or all ones: the blobs without spacing, bit for bit;
* a Gaussian blob ``exp(-|p - c|^2 / 2 t^2)`` of physical width ``t`` (``p`` the
  physical position, ``index * spacing``): its scale-normalised LoG response is
  largest at the physical ``sigma = t sqrt(2 / n)`` in n-D (the continuous
  response, as in tests/test_feature_blob.py), whatever the sampling; found at
  its voxel, with that sigma to 10 %, on a coarse z axis and on an isotropic grid;
* the response against its definition (tests/naive.py's
  ``naive_blob_log_response``: scipy's per-axis Gaussian second derivatives of
  ``sigma / spacing`` samples, divided by ``spacing**2``, summed, times ``-sigma^2``);
* the pruning against the physical geometry: two blobs apart along the coarse
  axis overlap in samples but not physically.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from naive import naive_blob_log_response

from sftwave.feature import blob_dog, blob_log
from sftwave.feature._blobs import blobs_of_peaks, log_cube

BLOBS_2D = [(24, 26, 2.0, 1.0), (30, 90, 4.0, 0.9), (88, 40, 7.0, 0.8), (60, 64, 3.0, 0.75)]


def planted(shape, blobs, spacing, dtype=np.float64):
    """A sum of Gaussian blobs ``(centre index..., t physical, amplitude)`` sampled at ``spacing``."""
    grid = np.indices(shape, dtype=np.float64)
    image = np.zeros(shape)
    for *centre, t, amp in blobs:
        r2 = sum(((g - c) * d) ** 2 for g, c, d in zip(grid, centre, spacing))
        image += amp * np.exp(-r2 / (2 * t * t))
    return image.astype(dtype)


# ----------------------------------------------------------------------------- no spacing


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("ones", [1, 1.0, (1, 1), [1.0, 1.0]])
@pytest.mark.parametrize("sigmas", [dict(min_sigma=1, max_sigma=10),
                                    dict(min_sigma=(1, 2), max_sigma=(8, 10))])
def test_unit_spacing_is_no_spacing_exactly(dtype, ones, sigmas):
    image = planted((128, 120), BLOBS_2D, (1, 1), dtype)
    for func, kw in ((blob_log, dict(num_sigma=10, threshold=0.1)), (blob_dog, dict(threshold=0.05))):
        plain = func(image, **sigmas, **kw)
        spaced = func(image, **sigmas, **kw, spacing=ones)
        assert len(plain) > 0 and spaced.dtype == plain.dtype
        np.testing.assert_array_equal(spaced, plain)


@pytest.mark.parametrize("func", [blob_log, blob_dog])
def test_unit_spacing_3d_and_truncated(func):
    image = planted((30, 32, 34), [(12, 14, 16, 2.0, 1.0), (20, 22, 24, 3.0, 0.8)], (1, 1, 1))
    kw = dict(min_sigma=1, max_sigma=4, threshold=0.05, truncated=True)
    np.testing.assert_array_equal(func(image, **kw, spacing=(1, 1, 1)), func(image, **kw))


@pytest.mark.parametrize("func", [blob_log, blob_dog])
def test_uniform_spacing_scales_the_sigmas(func):
    """A spacing of 2 on every axis: the same image read in units of half a sample, so the
    same blobs with twice the sigmas (every factor a power of two: exact, but for the
    pruning's arithmetic)."""
    image = planted((128, 120), BLOBS_2D, (1, 1))
    plain = func(image, min_sigma=1, max_sigma=10, threshold=0.05)
    spaced = func(image, min_sigma=2, max_sigma=20, threshold=0.05, spacing=2.0)
    assert len(plain) == len(BLOBS_2D)
    np.testing.assert_array_equal(spaced[:, :2], plain[:, :2])
    np.testing.assert_allclose(spaced[:, 2], 2 * plain[:, 2], rtol=1e-12)


# ----------------------------------------------------------------------------- a coarse axis


T = 6.0                                   # the blob's physical width
TRUE_SIGMA_3D = T * math.sqrt(2 / 3)      # where the 3-D response is largest: 4.90
GRID = dict(min_sigma=2.0, max_sigma=8.0, num_sigma=25)     # steps of 0.25 (5 % of it)


@pytest.mark.parametrize("spacing, centre", [((1, 1, 3), (24, 20, 8)),      # z coarse
                                             ((1, 1, 1), (24, 20, 24))])    # the same blob
def test_blob_of_known_physical_size_3d(spacing, centre):
    shape = (48, 44, 48 // spacing[2])
    image = planted(shape, [(*centre, T, 1.0)], spacing)
    found = blob_log(image, **GRID, threshold=0.1, spacing=spacing)
    assert found.shape == (1, 4)                      # one physical sigma column
    np.testing.assert_array_equal(found[0, :3], centre)
    assert abs(found[0, 3] - TRUE_SIGMA_3D) <= 0.1 * TRUE_SIGMA_3D


def test_coarse_and_isotropic_give_the_same_physical_sigma():
    sigmas = []
    for spacing, centre in (((1, 1, 3), (24, 20, 8)), ((1, 1, 1), (24, 20, 24))):
        image = planted((48, 44, 48 // spacing[2]), [(*centre, T, 1.0)], spacing)
        sigmas.append(blob_log(image, **GRID, threshold=0.1, spacing=spacing)[0, 3])
        dog = blob_dog(image, min_sigma=2.0, max_sigma=8.0, threshold=0.05, spacing=spacing)
        assert dog.shape == (1, 4)
        np.testing.assert_array_equal(dog[0, :3], centre)
        sigmas.append(dog[0, 3])
    log_coarse, dog_coarse, log_iso, dog_iso = sigmas
    assert abs(log_coarse - log_iso) <= 0.25 + 1e-9          # one grid step at most
    assert dog_coarse == dog_iso                              # the same Gaussian of the series


def test_without_spacing_the_coarse_axis_misleads():
    """The same coarse volume read in samples: the blob's extent differs per axis, so no
    isotropic sigma in samples fits it as the physical one does (why ``spacing`` exists)."""
    image = planted((48, 44, 16), [(24, 20, 8, T, 1.0)], (1, 1, 3))
    spaced = blob_log(image, **GRID, threshold=0.1, spacing=(1, 1, 3))
    plain = blob_log(image, **GRID, threshold=0.1)
    assert abs(spaced[0, 3] - TRUE_SIGMA_3D) < abs(plain[0, 3] - TRUE_SIGMA_3D)


def test_per_axis_sigmas_with_spacing():
    """Per-axis sigma bounds give a physical sigma per axis; the blob's is the same on both."""
    image = planted((96, 48), [(48, 24, T, 1.0)], (1, 2))
    found = blob_log(image, min_sigma=(2.0, 2.0), max_sigma=(8.0, 8.0), num_sigma=25,
                     threshold=0.1, spacing=(1, 2))
    assert found.shape == (1, 4)
    np.testing.assert_array_equal(found[0, :2], (48, 24))
    assert found[0, 2] == found[0, 3] and abs(found[0, 2] - T) <= 0.1 * T   # 2-D: sigma = t


# ----------------------------------------------------------------------------- the definition


def test_response_against_the_definition():
    """log_cube with spacing (1, 2) against scipy's Gaussian second derivatives of
    ``(s / 1, s / 2)`` samples, divided by ``spacing**2``, times ``-s**2``, its kernels
    truncated at 8 sigma (error ~1e-14).  sftwave's Gaussians are accurate to ``tol``,
    whose default is documented as at least as close to the exact Gaussian as scipy's
    kernel truncated at 4 sigma: so the response is at least as close to the reference as
    that truncated response is (measured: about 5 times closer, ~1e-4 of the largest)."""
    rng = np.random.default_rng(3)
    image = planted((80, 60), [(30, 20, 5.0, 1.0), (55, 40, 3.0, 0.7)], (1, 2))
    image += 0.05 * rng.standard_normal(image.shape)
    spacing = (1.0, 2.0)
    sigma_list = np.linspace(2.0, 8.0, 4)[:, None].repeat(2, axis=1)
    cube = log_cube(image, sigma_list, None, spacing=spacing)
    for plane, s in zip(cube, sigma_list[:, 0]):
        ref = naive_blob_log_response(image, float(s), spacing)
        scipy4 = naive_blob_log_response(image, float(s), spacing, truncate=4.0)
        assert np.abs(plane - ref).max() <= np.abs(scipy4 - ref).max()
        assert np.abs(plane - ref).max() <= 2e-4 * np.abs(ref).max()


def test_truncated_response_is_scipys():
    """``truncated=True``: scipy's kernels of ``sigma / spacing`` samples, cut at 4 of them."""
    image = planted((60, 50), [(30, 20, 4.0, 1.0)], (1, 2))
    spacing = (1.0, 2.0)
    sigma_list = np.array([[3.0, 3.0], [5.0, 5.0]])
    cube = log_cube(image, sigma_list, None, truncated=True, spacing=spacing)
    for plane, s in zip(cube, sigma_list[:, 0]):
        ref = naive_blob_log_response(image, float(s), spacing, truncate=4.0)
        np.testing.assert_allclose(plane, ref, rtol=0, atol=1e-12)


def test_detection_is_the_peak_of_the_defined_response():
    image = planted((80, 60), [(40, 30, 5.0, 1.0)], (1, 2))
    spacing = (1.0, 2.0)
    sigmas = np.linspace(2.0, 8.0, 13)
    ref = np.stack([naive_blob_log_response(image, float(s), spacing) for s in sigmas])
    k, r, c = np.unravel_index(np.argmax(ref), ref.shape)
    found = blob_log(image, min_sigma=2.0, max_sigma=8.0, num_sigma=13, threshold=0.1,
                     spacing=spacing)
    np.testing.assert_array_equal(found, [[r, c, sigmas[k]]])


# ----------------------------------------------------------------------------- pruning


def test_pruning_is_physical():
    """Two blobs of sigma 3 (radius 3 sqrt 2), 3 samples apart along an axis of spacing 4:
    12 apart physically, no overlap; read in samples they overlap and one is dropped."""
    peaks = np.array([[10, 10, 0], [10, 13, 0]])
    sigma_list = np.array([[3.0, 3.0]])
    dt = np.dtype(np.float64)
    both = blobs_of_peaks(peaks, dt, sigma_list, True, 0.5, spacing=(1.0, 4.0))
    np.testing.assert_array_equal(both, [[10, 10, 3], [10, 13, 3]])
    assert len(blobs_of_peaks(peaks, dt, sigma_list, True, 0.5)) == 1
    # 3 samples apart along the fine axis: 3 apart physically, overlapping: one is dropped
    across = np.array([[10, 10, 0], [13, 10, 0]])
    assert len(blobs_of_peaks(across, dt, sigma_list, True, 0.5, spacing=(1.0, 4.0))) == 1


# ----------------------------------------------------------------------------- bad spacing


@pytest.mark.parametrize("spacing", [0, -1.0, (1.0, 0.0), (1.0, -2.0), (1.0,), (1.0, 1.0, 1.0),
                                     float("nan"), (1.0, float("nan")), (1.0, float("inf"))])
@pytest.mark.parametrize("func", [blob_log, blob_dog])
def test_bad_spacing(func, spacing):
    image = np.zeros((16, 16))
    with pytest.raises(ValueError, match="spacing"):
        func(image, spacing=spacing)


@pytest.mark.parametrize("func", [blob_log, blob_dog])
def test_spacing_of_the_wrong_type(func):
    with pytest.raises(TypeError, match="spacing"):
        func(np.zeros((16, 16)), spacing="1")


# ----------------------------------------------------------------------------- dask


@pytest.mark.parametrize("name", ["blob_log", "blob_dog"])
def test_dask_with_spacing_is_in_memorys(name):
    da = pytest.importorskip("dask.array")
    import sftwave.dask as sd
    from sftwave import feature

    image = planted((96, 48), [(30, 12, 5.0, 1.0), (70, 30, 3.0, 0.8)], (1, 2))
    kw = dict(min_sigma=2.0, max_sigma=8.0, threshold=0.05, spacing=(1, 2))
    mem = getattr(feature, name)(image, **kw)
    lazy = getattr(sd, name)(da.from_array(image, chunks=(40, 20)), **kw)
    assert len(mem) == 2
    np.testing.assert_array_equal(lazy, mem)


@pytest.mark.parametrize("func", [blob_log, blob_dog])
def test_float32_with_spacing(func):
    """A float32 image: float32 blobs, the float64 image's detections (the responses differ by
    float32 rounding, ~1e-7, far below the margins of this single blob)."""
    image = planted((96, 48), [(48, 24, T, 1.0)], (1, 2))
    kw = dict(min_sigma=2.0, max_sigma=8.0, threshold=0.05, spacing=(1, 2))
    single, double = func(image.astype(np.float32), **kw), func(image, **kw)
    assert single.dtype == np.float32 and len(double) == 1
    np.testing.assert_array_equal(single, double.astype(np.float32))
