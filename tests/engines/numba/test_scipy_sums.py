"""scipy.ndimage's correlate1d sums in numpy (sftwave.engines.numba._scipy_sums): scipy's bits for
every mode, line length, kernel shape and layout, with scipy's approximate symmetry test."""

from __future__ import annotations

import os
import subprocess
import sys

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


def test_blocks_and_threads_change_nothing(monkeypatch):
    """Small blocks (many of them, narrow and grouped lines, the widest kernels), two threads,
    in place: scipy's bits."""
    from sftwave.engines.numba import _scipy_sums

    rng = np.random.default_rng(2)
    w = ndi._filters._gaussian_kernel1d(3.0, 0, 12)[::-1].copy()
    for block in (1 << 16, 256):
        monkeypatch.setattr(_scipy_sums, "BLOCK_ELEMENTS", block)
        for shape in ((97, 130), (5, 7, 300), (3000,), (40, 3, 33)):
            x = rng.standard_normal(shape)
            for axis in range(len(shape)):
                want = ndi.correlate1d(x, w, axis=axis, mode="mirror")
                for threads in (1, 2):
                    y = x.copy()
                    correlate_lines(y, w, axis, "mirror", 0.0, y, threads)
                    assert np.array_equal(y, want), (block, shape, axis, threads)


def test_every_block_is_whole_along_the_axis():
    """The blocks cover every (outer, inner) pair once, each over the whole filtered axis."""
    from sftwave.engines.numba._scipy_sums import _blocks

    for outer, span, inner in ((1, 2084, 2048), (2048, 2084, 1), (7, 50, 3), (1, 10, 1)):
        seen = np.zeros((outer, inner), int)
        for o0, o1, k0, k1 in _blocks(outer, span, inner):
            seen[o0:o1, k0:k1] += 1
        assert np.all(seen == 1)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork: POSIX only")
def test_a_forked_child_gets_a_pool_of_its_own():
    """After the parent's blocks ran on its threads, a forked child's threaded call completes
    with the same bits (the parent's pool threads do not run in the child)."""
    code = ("import os, numpy as np\n"
            "from sftwave.engines.numba._scipy_sums import correlate_lines\n"
            "x = np.random.default_rng(0).standard_normal((300, 400)); w = np.ones(5) / 5\n"
            "a = correlate_lines(x, w, 0, 'reflect', 0.0, np.empty_like(x), 2)\n"
            "pid = os.fork()\n"
            "if pid == 0:\n"
            "    b = correlate_lines(x, w, 0, 'reflect', 0.0, np.empty_like(x), 2)\n"
            "    os._exit(0 if np.array_equal(a, b) else 1)\n"
            "print(os.waitpid(pid, 0)[1])\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         timeout=120, check=True)
    assert got.stdout.strip() == "0"
