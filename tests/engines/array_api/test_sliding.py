"""The sliding sum of Algorithm 1 (sftwave.engines.array_api.sliding) against the one-window-at-a-time sum.

Exactness: integer-valued floats whose sums stay below 2**24 add exactly in
float32 (and float64), whatever the order of the additions, so the doubling
steps must reproduce the naive sum bit for bit.  Rounding: each output is a sum
of its L samples through a tree of depth at most 2R (R = bit length of L: the
g-tree of depth r < R, then at most R additions into h), so its error is at
most 2R * (eps/2) * sum|f| over the window (Higham's bound for summation,
first order); the tests allow 2R * eps * sum|f|, twice that.
"""

import math

import numpy as np
import pytest
from naive import sliding_sum_naive

pytest.importorskip("array_api_compat")

from sftwave.engines.array_api.sliding import sliding_sum

# N not a power of 2 or 8; L from 1 to beyond N.
SIZES = [1, 2, 7, 63, 100, 1001]


def _lengths(n):
    if n <= 100:
        return list(range(1, n + 4))
    return sorted({*range(1, 34), 63, 64, 65, 127, 128, 129, 255, 256, 257, 500, 511, 512, 513,
                   n - 2, n - 1, n, n + 1, 2 * n})


def _backends():
    out = [("numpy", None)]
    try:
        import torch  # noqa: F401

        out.append(("torch", "cpu"))
    except ImportError:  # pragma: no cover - torch is in the test set-up
        pass
    return out


def _to(backend, a):
    if backend == "numpy":
        return a
    import torch

    return torch.from_numpy(a)


def _np(a):
    return a.numpy() if hasattr(a, "numpy") else np.asarray(a)


@pytest.mark.parametrize("backend", [b for b, _ in _backends()])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", SIZES)
def test_exact_on_integer_valued_floats(backend, dtype, n):
    rng = np.random.default_rng(n)
    # |f| <= 1000 and L <= 2002: every partial sum is below 2.1e6 < 2**24, exact in float32
    f = rng.integers(-1000, 1001, size=(3, n)).astype(dtype)
    for L in _lengths(n):
        h = sliding_sum(_to(backend, f), L)
        ref = sliding_sum_naive(f, L)
        assert tuple(h.shape) == (3, max(n - L + 1, 0)), (L, h.shape)
        assert np.array_equal(_np(h).astype(np.float64), ref), L


@pytest.mark.parametrize("backend", [b for b, _ in _backends()])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rounding_bound(backend, dtype):
    rng = np.random.default_rng(7)
    n = 1001
    f = (rng.standard_normal((2, n)) * np.exp(rng.uniform(-3, 3, (2, n)))).astype(dtype)
    eps = np.finfo(dtype).eps
    for L in _lengths(n):
        h = _np(sliding_sum(_to(backend, f), L)).astype(np.float64)
        ref = sliding_sum_naive(f, L)  # float64 sums of the same (rounded) data
        scale = sliding_sum_naive(np.abs(f), L)
        R = L.bit_length()
        assert np.all(np.abs(h - ref) <= 2 * R * eps * scale + 1e-300), L


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -2])
def test_axis(axis):
    rng = np.random.default_rng(3)
    f = rng.integers(-9, 10, size=(11, 6, 9)).astype(np.float64)
    for L in (1, 3, 6, 8):
        h = sliding_sum(f, L, axis=axis)
        ref = sliding_sum_naive(f, L, axis=axis)
        assert h.shape == ref.shape
        assert np.array_equal(h, ref)


def test_window_longer_than_signal_is_empty():
    f = np.arange(5.0, dtype=np.float32).reshape(1, 5)
    h = sliding_sum(f, 6)
    assert h.shape == (1, 0) and h.dtype == np.float32
    assert sliding_sum(f, 5).tolist() == [[10.0]]


def test_length_one_is_a_copy():
    f = np.arange(4.0)
    h = sliding_sum(f, 1)
    assert np.array_equal(h, f)
    h[0] = 99.0
    assert f[0] == 0.0


def test_integer_arrays():
    f = np.arange(10, dtype=np.int64)
    h = sliding_sum(f, 4)
    assert h.dtype == np.int64 and h.tolist() == sliding_sum_naive(f, 4).astype(np.int64).tolist()


@pytest.mark.parametrize("L, exc, match", [
    (0, ValueError, "L must be a positive integer; got 0"),
    (-3, ValueError, "L must be a positive integer; got -3"),
    (2.0, TypeError, "L must be a positive integer; got 2.0"),
    (True, TypeError, "L must be a positive integer; got True"),
])
def test_bad_length(L, exc, match):
    with pytest.raises(exc, match=match):
        sliding_sum(np.ones(4), L)


def test_bad_axis_and_input():
    with pytest.raises(ValueError, match="axis 2 is out of range"):
        sliding_sum(np.ones((3, 3)), 2, axis=2)
    with pytest.raises(TypeError, match="axis must be an integer"):
        sliding_sum(np.ones(3), 2, axis=0.5)
    with pytest.raises(TypeError):
        sliding_sum([1.0, 2.0, 3.0], 2)  # not an array


def test_steps_are_logarithmic():
    """Algorithm 1 does one g-addition per bit below the top and one h-addition per set bit."""
    adds = []

    class Counting(np.ndarray):
        def __add__(self, other):
            adds.append(1)
            return super().__add__(other)

    f = np.arange(1000.0).view(Counting)
    for L in (1, 2, 3, 255, 256, 600):
        adds.clear()
        h = sliding_sum(f, L)
        assert np.array_equal(np.asarray(h), sliding_sum_naive(np.asarray(f), L))
        R = L.bit_length()
        assert len(adds) == (R - 1) + (L.bit_count() - 1), L
        assert len(adds) <= 2 * math.log2(L) + 1


# ----------------------------------------------------------------------------- torch


def test_torch_dtype_device_and_autograd():
    torch = pytest.importorskip("torch")
    f = torch.arange(12.0, dtype=torch.float32).reshape(3, 4)
    h = sliding_sum(f, 3, axis=0)
    assert isinstance(h, torch.Tensor) and h.dtype == torch.float32 and h.device == f.device
    assert h.tolist() == [[12.0, 15.0, 18.0, 21.0]]
    g = torch.randn(2, 23, dtype=torch.float64, requires_grad=True)
    for L in (1, 5, 8, 23):
        assert torch.autograd.gradcheck(lambda t, n=L: sliding_sum(t, n), (g,))


def test_torch_half_precision_dtype_is_kept():
    torch = pytest.importorskip("torch")
    f = torch.ones(10, dtype=torch.bfloat16)
    h = sliding_sum(f, 4)
    assert h.dtype == torch.bfloat16 and h.tolist() == [4.0] * 7
