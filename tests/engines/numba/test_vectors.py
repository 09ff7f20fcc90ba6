"""The explicit vectors of the lane kernel (sftwave.engines.numba.vectors): loads, stores, fused arithmetic."""

from fractions import Fraction

import numpy as np
import pytest
from numba import njit

from sftwave.engines.numba.vectors import (
    WIDTH,
    fma,
    fms,
    fnma,
    load16,
    mul,
    splat16,
    store16,
    transpose4,
    transpose4_diff,
)


@njit
def _apply(op, a, b, c, out, start):
    va, vb, vc = load16(a, start), load16(b, start), load16(c, start)
    if op == 0:
        store16(out, start, fma(va, vb, vc))
    elif op == 1:
        store16(out, start, fnma(va, vb, vc))
    elif op == 2:
        store16(out, start, fms(va, vb, vc))
    else:
        store16(out, start, mul(va, vb))


def _exact(op, a, b, c):
    a, b, c = Fraction(float(a)), Fraction(float(b)), Fraction(float(c))
    return [a * b + c, c - a * b, a * b - c, a * b][op]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("op", [0, 1, 2, 3])
def test_fused_ops_round_once(dtype, op):
    """Each op is the exact result rounded once to the dtype: with a = 1 + e, b = 1 - e, c = -+1
    the product 1 - e^2 is not representable, so a product rounded before the sum would give 0
    where the fused result is -e^2 (or +e^2); the lanes around hold random values."""
    rng = np.random.default_rng(op)
    eps = np.finfo(dtype).eps
    e = dtype(2.0 ** (int(np.log2(eps)) // 2 - 1))   # a power of 2, e^2 below half an ulp of 1
    n, start = 3 * WIDTH, 5
    a = rng.standard_normal(n).astype(dtype)
    b = rng.standard_normal(n).astype(dtype)
    c = rng.standard_normal(n).astype(dtype)
    a[start + 3], b[start + 3] = 1 + e, 1 - e
    c[start + 3] = {0: -1, 1: 1, 2: 1, 3: 0}[op]
    out = np.full(n, np.nan, dtype=dtype)
    _apply(op, a, b, c, out, start)
    window = slice(start, start + WIDTH)
    expected = np.array([_exact(op, *v) for v in zip(a[window], b[window], c[window])],
                        dtype=object)
    got = out[window]
    for g, x in zip(got, expected):
        assert g == dtype(float(x))          # correctly rounded, once
    if op != 3:
        assert got[3] != 0 and abs(float(got[3])) == float(e) ** 2
    # nothing outside the 16 lanes is written
    assert np.all(np.isnan(out[:start])) and np.all(np.isnan(out[start + WIDTH:]))


@njit
def _splat_times(a, v, out):
    store16(out, 0, mul(load16(a, 0), splat16(v[1])))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_splat_puts_the_value_in_every_lane(dtype):
    """splat16(v) is v in each of the 16 lanes, in v's dtype: times 16 distinct values it gives
    their exact products (powers of two), and nothing past the 16 lanes is written."""
    a = (2.0 ** np.arange(-8, WIDTH - 8)).astype(dtype)
    v = np.array([7.0, -0.375, 5.0], dtype=dtype)
    out = np.full(WIDTH + 3, np.nan, dtype=dtype)
    _splat_times(a, v, out)
    assert out.dtype == dtype
    assert np.array_equal(out[:WIDTH], a * dtype(-0.375))
    assert np.all(np.isnan(out[WIDTH:]))


def test_wrong_types_do_not_compile():
    """A vector op on arrays of another kind (integers, 2-D) is a typing error, not a bad load."""
    from numba.core.errors import TypingError

    @njit
    def load_ints(x):
        return load16(x, 0)

    with pytest.raises(TypingError):
        load_ints(np.arange(32))
    with pytest.raises(TypingError):
        load_ints(np.zeros((2, 16)))

    @njit
    def splat_int(v):
        return splat16(v)

    with pytest.raises(TypingError):
        splat_int(3)


@njit
def _transposed(src, si, ss, c, dst, di, ds):
    transpose4(src, si, ss, c, dst, di, ds)


@njit
def _transposed_diff(src, si, ss, lag, dst, di, ds):
    transpose4_diff(src, si, ss, lag, dst, di, ds)


@njit
def _scalar_block(src, si, ss, c, lag, dst, di, ds):
    """The scalar loops the transposing copies replace (numba's own conversions)."""
    for r in range(4):
        for k in range(4):
            i = si + r * ss + k
            if lag:
                dst[di + k * ds + r] = src[i] - src[i - lag]
            else:
                dst[di + k * ds + r] = src[i] - c


@pytest.mark.parametrize("src_dtype", [np.float32, np.float64])
@pytest.mark.parametrize("dst_dtype", [np.float32, np.float64])
def test_transposing_copies_equal_the_scalar_loops(src_dtype, dst_dtype):
    """transpose4 and transpose4_diff write element (r, k) of a 4 x 4 block of strided rows
    to column position k, row r, as the scalar loop does, with its rounding (values with 24
    to 53 significant bits, so that float32 and float64 arithmetic and conversions differ),
    and nothing else."""
    rng = np.random.default_rng(int(np.dtype(src_dtype).itemsize + 3 * np.dtype(dst_dtype).itemsize))
    src = (rng.standard_normal(200) * 1e3).astype(src_dtype)
    si, ss, di, ds, lag = 57, 23, 5, 9, 40
    c = 0.1 + 1e-9                           # not a float32: the difference is taken in float64
    for lagged in (0, lag):
        got = np.full(50, np.nan, dtype=dst_dtype)
        want = np.full(50, np.nan, dtype=dst_dtype)
        if lagged:
            _transposed_diff(src, si, ss, lagged, got, di, ds)
        else:
            _transposed(src, si, ss, c, got, di, ds)
        _scalar_block(src, si, ss, c, lagged, want, di, ds)
        assert np.array_equal(got, want, equal_nan=True)
        assert np.count_nonzero(~np.isnan(got)) == 16
        r, k = np.divmod(np.arange(16), 4)
        picked = src[si + r * ss + k].astype(np.float64)
        exact = picked - (src[si + r * ss + k - lagged].astype(np.float64) if lagged else c)
        # each value is the difference rounded (once in the working dtype, once to dst's)
        assert np.allclose(got[di + k * ds + r], exact, rtol=2 * np.finfo(np.float32).eps, atol=0)
