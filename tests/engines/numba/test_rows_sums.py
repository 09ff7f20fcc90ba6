"""The float32 FIR over rows in numpy (sftwave.engines.numba.rows_sums): the fused multiply-add
emulated exactly, and the engine's float32 rows (fir_rows) repeated bit for bit."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from sftwave.engines.numba import fir_rows, rows_sums
from sftwave.engines.numba.filters import cast_into
from sftwave.engines.numba.vectors import fma, load16, store16
from sftwave.plans import select_gaussian


@numba.njit(cache=False)
def _fused(a, w, c, out):
    """The engine's fused multiply-add (its 16-lane vectors), element-wise."""
    wv = np.empty(16, np.float32)
    wv[:] = w
    for i in range(0, a.size, 16):
        store16(out, i, fma(load16(a, i), load16(wv, 0), load16(c, i)))


def _engine_fma(a, w, c):
    out = np.empty(a.size, np.float32)
    _fused(a, w, c, out)
    return out


def test_fma32_is_the_fused_operation():
    """Random operands over a wide range of exponents, and sums that nearly cancel."""
    rng = np.random.default_rng(0)
    n = 1 << 18
    for _ in range(6):
        a = (rng.standard_normal(n) * 2.0 ** rng.integers(-20, 20, n)).astype(np.float32)
        c = (rng.standard_normal(n) * 2.0 ** rng.integers(-40, 40, n)).astype(np.float32)
        w = np.float32(rng.standard_normal())
        near = rng.random(n) < 0.3
        scale = 1 + rng.standard_normal(near.sum()) * 2.0 ** -rng.integers(20, 30, near.sum())
        c[near] = (-(a[near].astype(np.float64) * w) * scale).astype(np.float32)
        want = _engine_fma(a, w, c)
        got = rows_sums.fma32(a, w, c.copy())
        assert np.array_equal(got.view(np.int32), want.view(np.int32))


def test_fma32_rounds_once_where_float64_would_round_twice():
    """a w + c = 1 + 2^-23 + 2^-24 - 2^-70: float64 rounds it to the float32 midpoint
    1 + 2^-23 + 2^-24, which then rounds to even (1 + 2^-22); the fused result is 1 + 2^-23."""
    a = np.full(16, 2.0 ** -24 * (1 + 2.0 ** -23), np.float32)
    w = np.float32(1 - 2.0 ** -23)
    c = np.full(16, 1 + 2.0 ** -23, np.float32)
    want = _engine_fma(a, w, c)
    assert want[0] == np.float32(1 + 2.0 ** -23)
    twice = (a.astype(np.float64) * np.float64(w) + c.astype(np.float64)).astype(np.float32)
    assert twice[0] != want[0]
    assert np.array_equal(rows_sums.fma32(a, w, c.copy()), want)


@pytest.mark.parametrize("shape, axes", [((40, 50), [0, 1]), ((40, 50), [0]), ((40, 50), [1]),
                                         ((30, 20, 3), [0, 1]), ((6, 20, 25), [0, 1, 2]),
                                         ((5, 7, 9, 2), [1, 2]), ((3, 1), [0, 1]), ((200,), [0])])
def test_the_engines_bits(shape, axes):
    """Every pass layout (vertical, horizontal, fused, channels, volumes, short lines), every
    mode, several sigmas; every integer dtype of the engine's rows on an image (the others:
    uint8 and float32; the kernels the rest of the suite compiles, each dtype and layout being
    one; bool input and other outputs: the property test of tests/test_small_fir.py)."""
    rng = np.random.default_rng(len(shape) * 10 + len(axes))
    dtypes = [(np.uint8, np.uint8), (np.float32, np.float32)]
    if (shape, axes) == ((40, 50), [0, 1]):
        dtypes += [(np.uint16, np.uint16), (np.int16, np.int16), (np.int8, np.int8)]
    for dtype, out_dtype in dtypes:
        if dtype == np.bool_:
            x = rng.random(shape) < 0.5
        elif np.dtype(dtype).kind in "iu":
            info = np.iinfo(dtype)
            x = rng.integers(info.min, info.max, shape, endpoint=True).astype(dtype)
        else:
            x = (rng.standard_normal(shape) * 100).astype(dtype)
        for mode in ("reflect", "mirror", "nearest", "wrap", "constant"):
            for sigma in (0.7, 2.0, 5.0):
                steps = []
                for ax in axes:
                    plan = select_gaussian(sigma, 0, n=shape[ax], fir_taps_per_order=20.0)
                    steps.append((ax, fir_rows.half_kernel(plan.kernel[::-1]), mode))
                want = fir_rows.filter_rows(x, steps, -3.5, np.empty(shape, out_dtype), cast_into)
                assert want is not None
                got = rows_sums.filter_rows(x, [(a, h[::16], m) for a, h, m in steps], -3.5,
                                            out_dtype)
                assert got.dtype == want.dtype and np.array_equal(got, want), (dtype, mode, sigma)
