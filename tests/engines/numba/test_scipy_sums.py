"""scipy.ndimage's correlate1d sums in numpy (sftwave.engines.numba._scipy_sums): scipy's bits for
every mode, line length, kernel shape and layout, with scipy's approximate symmetry test."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.ndimage as ndi

from sftwave.engines.numba._scipy_sums import ANTISYMMETRIC, GENERAL, SYMMETRIC, correlate_lines, symmetry

MODES = ["reflect", "mirror", "nearest", "wrap", "constant"]


def _weights(rng, taps: int, kind: str) -> np.ndarray:
    w = rng.standard_normal(taps)
    if kind == "symmetric":
        return (w + w[::-1]) / 2
    if kind == "antisymmetric":
        return (w - w[::-1]) / 2
    if kind == "nearly symmetric":      # within scipy's DBL_EPSILON: summed as symmetric
        w = (w + w[::-1]) / 2
        w[0] += 1e-17
        return w
    return w


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", ["symmetric", "antisymmetric", "nearly symmetric", "general"])
def test_scipys_bits(mode, kind):
    """Lines shorter than the kernel (repeated reflections), even and odd kernels, a single tap,
    float64, float32 (summed in double, written as float32) and integer input, each axis."""
    rng = np.random.default_rng(0)
    for n in (1, 2, 3, 5, 8, 17):
        for taps in (1, 2, 3, 4, 7, 9, 21, 40):
            w = _weights(rng, taps, kind)
            for shape, axis in (((n,), 0), ((3, n), 1), ((n, 4), 0), ((2, n, 3), 1)):
                for dtype in (np.float64, np.float32, np.uint8):
                    x = (rng.integers(0, 255, shape) if dtype == np.uint8
                         else rng.standard_normal(shape) * 50).astype(dtype)
                    work = np.float32 if dtype == np.float32 else np.float64
                    want = np.empty(shape, work)
                    ndi.correlate1d(x, w, axis=axis, output=want, mode=mode, cval=1.25)
                    got = correlate_lines(x, w, axis, mode, 1.25, np.empty(shape, work))
                    assert np.array_equal(got, want), (n, taps, shape, dtype)


def test_in_place_and_strided_output():
    """The output may be the input (its lines are copied first) or a non-contiguous view."""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((20, 30))
    w = ndi._filters._gaussian_kernel1d(1.5, 1, 6)[::-1].copy()
    want = ndi.correlate1d(x, w, axis=0)
    y = x.copy()
    assert correlate_lines(y, w, 0, "reflect", 0.0, y) is y
    assert np.array_equal(y, want)
    out = np.empty((30, 20)).T
    correlate_lines(x, w, 0, "reflect", 0.0, out)
    assert np.array_equal(out, want)
    assert correlate_lines(np.empty((0, 3)), w, 0, "reflect", 0.0, np.empty((0, 3))).shape == (0, 3)


def test_symmetry_is_scipys_test():
    assert symmetry(np.array([0.25, 0.5, 0.25])) == SYMMETRIC
    assert symmetry(np.array([-1.0, 0.0, 1.0])) == ANTISYMMETRIC
    assert symmetry(np.array([1.0, 2.0])) == GENERAL              # even: never folded
    assert symmetry(np.array([0.25 + 1e-17, 0.5, 0.25])) == SYMMETRIC
    assert symmetry(np.array([0.25 + 1e-15, 0.5, 0.25])) == GENERAL
