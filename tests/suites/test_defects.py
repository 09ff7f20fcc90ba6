"""Regressions of crashes and wrong results on valid input, one block per defect.

Threads and fork are in tests/suites/test_threads.py, the plan cache in
tests/plans/test_cache.py, error messages and dtypes in tests/suites/test_errors.py and
tests/test_wavelets.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest
import scipy.ndimage as ndi
from naive import exact_gaussian_filter1d, rel_rmse
from plan_helpers import kind, numba_gaussian_plan

import sftwave

# ----------------------------------------------------------------------------- lane reads


_LANES = r"""
import numpy as np, sftwave
f = [0.0002, 0.05, 0.08, 0.12, 0.18, 0.25, 0.33, 0.45]
for n in (100_000, 101_000):
    sftwave.cwt(np.random.default_rng(n).standard_normal(n), f)
sftwave.cwt(np.random.default_rng(0).standard_normal(4000), np.geomspace(2, 400, 10), 1000.0)
sftwave.cwt(np.random.default_rng(0).standard_normal(2000), np.linspace(5, 45, 9), 250.0,
            output="power", decim=3)
print("OK")
"""


@pytest.mark.slow
def test_lane_engine_reads_in_bounds(tmp_path):
    """A snippet that used to crash, with numba's bounds checks on (a fresh kernel cache).

    Lanes of one group differ in window; each used to read the line up to the
    longest one's end, past the buffer (a segmentation fault for n = 1e5).
    """
    env = dict(os.environ, NUMBA_BOUNDSCHECK="1", NUMBA_CACHE_DIR=str(tmp_path / "nb"))
    proc = subprocess.run([sys.executable, "-c", _LANES], env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "OK"


def test_lanes_of_very_different_windows_are_exact():
    """A group mixing a window longer than the signal with short ones: each row as alone."""
    x = np.random.default_rng(5).standard_normal(3000)
    freqs = [0.0004, 0.05, 0.3]
    together = sftwave.cwt(x, freqs)
    for i, f in enumerate(freqs):
        # the same recursions, started at other alignments: equal to rounding
        assert rel_rmse(together[i], sftwave.cwt(x, [f])[0]) < 1e-12


# ----------------------------------------------------------------------------- radius


@pytest.mark.parametrize("order", [0, 1, 2])
@pytest.mark.parametrize("radius", [0, 3, 7, 40, 120])
@pytest.mark.parametrize("mode", ["reflect", "constant", "nearest"])
def test_radius_is_scipys_support(order, radius, mode):
    """An explicit radius gives scipy's truncated kernel: scipy's result, bit for bit (was 77 % off)."""
    x = np.random.default_rng(radius).standard_normal(2000)
    got = sftwave.gaussian_filter1d(x, 20.0, order=order, radius=radius, mode=mode, cval=0.5)
    want = ndi.gaussian_filter1d(x, 20.0, order=order, radius=radius, mode=mode, cval=0.5)
    assert np.array_equal(got, want)


def test_radius_per_axis_in_gaussian_filter():
    img = np.random.default_rng(0).standard_normal((60, 70))
    got = sftwave.gaussian_filter(img, (20.0, 9.0), radius=(7, 30))
    assert np.array_equal(got, ndi.gaussian_filter(img, (20.0, 9.0), radius=(7, 30)))


def test_radius_with_a_bank_method_is_refused():
    with pytest.raises(ValueError, match=r"radius=7 .*method='bank'"):
        sftwave.gaussian_filter1d(np.zeros(100), 20.0, radius=7, method="bank")
    with pytest.raises(ValueError, match=r"radius=7 .*method='bank'"):
        sftwave.gaussian_filter1d(np.zeros(100), 20.0, radius=7, method="bank", bank_method="iir1")


# ----------------------------------------------------------------------------- tiny sigma


@pytest.mark.parametrize("sigma", [0.005, 0.01, 0.02, 0.03, 0.1])
@pytest.mark.parametrize("order", [0, 1])
def test_tiny_sigma_matches_scipy(sigma, order):
    """A derivative kernel narrower than a sample underflows to zero: scipy's result, no error."""
    x = np.random.default_rng(1).standard_normal(500)
    got = sftwave.gaussian_filter1d(x, sigma, order=order)
    assert np.array_equal(got, ndi.gaussian_filter1d(x, sigma, order=order))


@pytest.mark.parametrize("sigma", [0.005, 0.02, 0.1])
def test_tiny_sigma_second_derivative(sigma):
    """Order 2 (sftwave's moment-exact kernel, not scipy's): the exact sampled kernel's result.

    The reference is the sampled kernel normalised by its own sum (as scipy
    and sftwave normalise; tests/naive.py's continuous normalisation differs
    below sigma = 1.5), over |k| <= 3, where the rest underflows.
    """
    from naive import extend

    from sftwave.plans.gaussian import gaussian_target

    x = np.random.default_rng(1).standard_normal(500)
    T = gaussian_target(sigma, 2)(np.arange(-3, 4))
    want = np.convolve(extend(x, 3, 3, "reflect"), T, mode="valid")
    got = sftwave.gaussian_filter1d(x, sigma, order=2)
    assert rel_rmse(got, want) < 1e-14


def test_tiny_sigma_with_tol():
    x = np.random.default_rng(1).standard_normal(500)
    got = sftwave.gaussian_filter1d(x, 0.02, order=1, tol=1e-6)
    assert np.array_equal(got, np.zeros_like(x))   # the exact kernel is zero in float64


# ----------------------------------------------------------------------------- huge sigma


@pytest.mark.parametrize("mode", ["reflect", "mirror", "wrap", "nearest", "constant"])
@pytest.mark.parametrize("order", [0, 1, 2])
def test_kernel_wider_than_signal_is_exact(mode, order):
    """sigma >> n: the exact limit, equal to the direct definition (tests/naive.py)."""
    x = np.random.default_rng(order).standard_normal((2, 40)) + 2.0
    sigma = 400.0
    assert kind(numba_gaussian_plan(sigma, order, n=40)) == "wide"
    got = sftwave.gaussian_filter1d(x, sigma, order=order, mode=mode, cval=-1.0)
    want = exact_gaussian_filter1d(x, sigma, order, mode, -1.0)
    scale = np.max(np.abs(x))
    assert np.max(np.abs(got - want)) <= 1e-13 * scale


def test_wide_path_is_chosen_only_when_the_window_dwarfs_the_signal():
    assert kind(numba_gaussian_plan(1e7, 0, n=1000)) == "wide"
    assert kind(numba_gaussian_plan(100.0, 0, n=100_000)) == "bank"
    # a forced method is run where its design is bounded by the signal ...
    assert kind(numba_gaussian_plan(1e4, 0, n=1000, method="bank")) == "bank"
    # ... and refused, naming sigma, where it would be designed far beyond it
    with pytest.raises(ValueError, match="sigma"):
        numba_gaussian_plan(1e7, 0, n=1000, method="bank")


@pytest.mark.parametrize("order", [0, 2])
def test_huge_sigma_memory_is_bounded_by_the_signal(order):
    """sigma = 1e7 on 1e5 samples: memory of a few signals, not of tens of sigma (was GiBs)."""
    x = np.random.default_rng(0).standard_normal(100_000)
    sftwave.gaussian_filter1d(x[:1000], 1e7, order=order)     # designs and compiles
    tracemalloc.start()
    try:
        y = sftwave.gaussian_filter1d(x, 1e7, order=order)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * x.nbytes, peak
    assert np.all(np.isfinite(y))


# ----------------------------------------------------------------------------- decim


@pytest.mark.parametrize("decim", [10**4, 10**8, 10**9])
def test_memory_does_not_grow_with_decim(decim):
    x = np.random.default_rng(0).standard_normal(4000)
    freqs = np.geomspace(2, 400, 10)
    ref = sftwave.cwt(x, freqs, 1000.0)[:, :1]
    tracemalloc.start()
    try:
        y = sftwave.cwt(x, freqs, 1000.0, decim=decim)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert y.shape == (10, 1)
    assert np.array_equal(y, ref)
    assert peak < 50 * x.nbytes, peak


# ----------------------------------------------------------------------------- import


_NO_LOCATOR = r"""
import numba.core.caching as caching
caching.CacheImpl._locator_classes = []      # as with a read-only install and HOME
import numpy as np, sftwave
y = sftwave.gaussian_filter1d(np.arange(50.0), 3.0)
z = sftwave.cwt(np.sin(np.arange(2000.0)), [0.1, 0.2], output="abs")
print("OK", y.shape, z.shape)
"""


def test_import_without_a_writable_cache():
    """numba finds no cache location: sftwave imports and runs, compiling in the process."""
    proc = subprocess.run([sys.executable, "-c", _NO_LOCATOR], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.startswith("OK")


# ----------------------------------------------------------------------------- memory, in place


@pytest.mark.parametrize("sigma", [2.0, 16.0])
def test_gaussian_filter_needs_about_one_output(sigma):
    """As scipy, the axes after the first are filtered in place in one buffer (was 2x the output).

    The remainder is each thread's copy of the block of lines it filters
    (lines x 256 elements), bounded by the line length, not the image.
    """
    img = np.random.default_rng(0).standard_normal((1024, 1024)).astype(np.float32)
    sftwave.gaussian_filter(img, sigma)       # compiled, planned
    tracemalloc.start()
    try:
        sftwave.gaussian_filter(img, sigma)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1.6 * img.nbytes, peak / img.nbytes


@pytest.mark.parametrize("shape,axis", [((300_000,), -1), ((3, 40_000), -1), ((50, 60), 0),
                                        ((7, 30, 40), 1)])
@pytest.mark.parametrize("sigma", [1.5, 40.0])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_output_is_input(shape, axis, sigma, dtype):
    """output=input (scipy allows it) equals the out-of-place result bit for bit.

    A long line used to be split among threads whose chunks then read what
    another had already overwritten (wrong by 1.8e-2 at sigma 64).
    """
    x = np.random.default_rng(2).standard_normal(shape).astype(dtype)
    want = sftwave.gaussian_filter1d(x, sigma, axis=axis)
    y = x.copy()
    assert sftwave.gaussian_filter1d(y, sigma, axis=axis, output=y) is y
    assert np.array_equal(y, want)
    want = sftwave.gaussian_filter(x, sigma, mode="wrap")
    y = x.copy()
    sftwave.gaussian_filter(y, sigma, output=y, mode="wrap")
    assert np.array_equal(y, want)


def test_integer_input_is_filtered_in_its_working_copy():
    """uint8 in, uint8 out: the float64 working copy is the only buffer (was 25x the output).

    Bound: the working copy (8x), the output, and each thread's block of lines
    (at most 512 lines x 256 elements x 8 bytes here).
    """
    from sftwave.engines.numba import pool as _pool

    img = (np.random.default_rng(0).random((512, 512)) * 255).astype(np.uint8)
    want = sftwave.gaussian_filter(img, 16.0)
    tracemalloc.start()
    try:
        got = sftwave.gaussian_filter(img, 16.0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert np.array_equal(got, want) and got.dtype == np.uint8
    assert peak < 9 * img.nbytes + _pool.threads() * 512 * 256 * 8, peak / img.nbytes
