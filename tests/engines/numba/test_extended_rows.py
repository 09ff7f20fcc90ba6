"""The lane engine's extended copy of its rows (sftwave.engines.numba.extended_rows), against
the definition: each row extended as scipy.ndimage extends it (``naive.extend``, np.pad),
minus its centre in float64, rounded once to the copy's dtype, zeros around."""

from __future__ import annotations

import naive
import numpy as np
import pytest

from sftwave.engines._boundary import MODE_CODES
from sftwave.engines.numba.extended_rows import _runs, extend_rows
from sftwave.engines.numba.pool import parallel_for

#: (n, lo, length, front, pieces): extensions shorter and many times longer than the row,
#: a row of one sample, a window inside the row, pieces that cut the extensions.
SHAPES = [(7, -5, 20, 3, 1), (50, -20, 90, 4, 3), (1, -3, 9, 2, 2), (30, 5, 10, 0, 1),
          (40, -130, 300, 7, 4), (6, 2, 1, 1, 1)]

DTYPES = [np.bool_, np.uint8, np.int16, np.int32, np.int64, np.uint64, np.float32, np.float64]


def _rows(rng, dtype, shape) -> np.ndarray:
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if np.issubdtype(dtype, np.integer):   # int64 and uint64 beyond 2^53: rounded to float64
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -2**62), min(info.max, 2**62), shape,
                            dtype=np.int64 if info.min < 0 else np.uint64).astype(dtype)
    x = rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 8, shape)
    x.flat[rng.choice(x.size, 3, replace=False)] = [np.nan, np.inf, -0.0]
    return x.astype(dtype)


def _definition(x2d, rows, lo, length, front, mode, cval, centre, ncol, dtype):
    n = x2d.shape[1]
    before, after = max(0, -lo), max(0, lo + length - n)
    want = np.zeros((rows.size, ncol), dtype=dtype)
    for i, r in enumerate(rows):
        ext = naive.extend(x2d[r].astype(np.float64), before, after, mode, cval)
        values = ext[before + lo:before + lo + length]
        want[i, front:front + length] = (values - np.float64(centre[i])).astype(dtype)
    return want


@pytest.mark.parametrize("mode", list(MODE_CODES))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("xdtype", DTYPES)
def test_the_definitions_bits(xdtype, dtype, mode):
    rng = np.random.default_rng([DTYPES.index(xdtype), list(MODE_CODES).index(mode)])
    for n, lo, length, front, pieces in SHAPES:
        x2d = _rows(rng, xdtype, (4, n))
        cval = float(rng.standard_normal() * 3)
        for rows in (np.array([1, 2, 3]), np.array([3, 0])):    # in order, and picked
            centre = (rng.standard_normal(rows.size) * 100).astype(dtype)
            ncol = front + length + 3
            xe = np.full((rows.size, ncol), 7.0, dtype=dtype)
            extend_rows(0, rows.size * pieces, x2d, rows, lo, length, front, MODE_CODES[mode], cval,
                        centre, xe, pieces)
            want = _definition(x2d, rows, lo, length, front, mode, cval, centre, ncol, dtype)
            np.testing.assert_array_equal(xe.view(f"u{xe.itemsize}"), want.view(f"u{xe.itemsize}"))


def test_tasks_fill_only_their_pieces_and_any_split_gives_the_whole():
    rng = np.random.default_rng(3)
    x2d = rng.standard_normal((5, 40))
    rows = np.arange(5)
    centre = rng.standard_normal(5)
    args = (x2d, rows, -30, 100, 6, MODE_CODES["mirror"], 0.0, centre)
    whole = np.full((5, 110), np.nan)
    extend_rows(0, 15, *args, whole, 3)
    parts = np.full((5, 110), np.nan)
    for lo_t, hi_t in ((0, 4), (4, 5), (5, 13), (13, 15)):
        extend_rows(lo_t, hi_t, *args, parts, 3)
    np.testing.assert_array_equal(parts, whole)
    one = np.full((5, 110), np.nan)
    extend_rows(4, 5, *args, one, 3)            # task 4: row 1, piece 1 (columns 36 to 73)
    assert np.all(np.isnan(np.delete(one, 1, axis=0)))
    assert np.all(np.isnan(one[1, :36])) and np.all(np.isnan(one[1, 73:]))
    np.testing.assert_array_equal(one[1, 36:73], whole[1, 36:73])


def test_on_the_pool_the_same_bits():
    rng = np.random.default_rng(4)
    x2d = rng.standard_normal((3, 200_000)).astype(np.float32)
    rows = np.arange(3)
    centre = rng.standard_normal(3).astype(np.float32)
    ncol = 200_500
    alone = np.empty((3, ncol), np.float32)
    extend_rows(0, 3 * 8, x2d, rows, -250, 200_400, 40, MODE_CODES["reflect"], 0.0, centre, alone, 8)
    pooled = np.empty((3, ncol), np.float32)
    parallel_for(extend_rows, 3 * 8, x2d, rows, -250, 200_400, 40, MODE_CODES["reflect"], 0.0, centre,
                 pooled, 8, work=pooled.size)
    np.testing.assert_array_equal(pooled, alone)


@pytest.mark.parametrize("src", [[2, 1, 0, 0, 1, 2], [3, 4, 0, 1, 2], [0, 0, 0], [-1, -1, 5, 4],
                                 [9], [4, 2, 0, 1, 3]])
def test_runs_cover_the_indices(src):
    src = np.array(src)
    x = np.arange(10.0) * 10
    got = np.empty(src.size)
    covered = 0
    for s, e, cols in _runs(src):
        assert s == covered and e > s
        covered = e
        if cols == "cval":
            got[s:e] = -1
        elif cols.step == 0:
            got[s:e] = x[cols.start]
        else:
            got[s:e] = x[cols]
    assert covered == src.size
    np.testing.assert_array_equal(got, np.where(src < 0, -1, x[np.maximum(src, 0)]))
