"""Tile-by-tile transposes and the Gabor combination against their numpy definitions."""

from __future__ import annotations

import numpy as np
import pytest

from sftwave.engines.numba.tiles import TILE, combine, split_transpose, transpose


@pytest.mark.parametrize("shape", [(1, 1), (3, 70), (TILE, TILE + 1), (2 * TILE + 5, 7)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
def test_transpose_is_numpys(shape, dtype):
    a = np.random.default_rng(shape[0]).standard_normal(shape).astype(dtype)
    for src in (a, a[::-1], np.asfortranarray(a)):
        got = transpose(src)
        assert got.flags.c_contiguous and np.array_equal(got, src.T)


@pytest.mark.parametrize("shape", [(5, 3, 9), (TILE + 3, 2, 2 * TILE + 1)])
def test_split_transpose_is_numpys(shape):
    rng = np.random.default_rng(1)
    y = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64)
    y[1, 0, 2] = np.nan
    for j in range(shape[1]):
        got = split_transpose(y, j)
        assert got.dtype == np.float32 and got.shape == (2, shape[2], shape[0])
        assert np.array_equal(got[0], y[:, j, :].real.T, equal_nan=True)
        assert np.array_equal(got[1], y[:, j, :].imag.T, equal_nan=True)


@pytest.mark.parametrize("conj", [False, True])
def test_combine_is_the_formula(conj):
    rng = np.random.default_rng(2)
    pa, pb = (rng.standard_normal((9, 40)) + 1j * rng.standard_normal((9, 40)) for _ in range(2))
    pa[3, 4] = np.nan
    w0, w1, add = 0.3 - 0.2j, -1.1j, 0.25 + 0.5j
    ref = w0 * pa + w1 * pb
    ref = (np.conj(ref) if conj else ref) + add
    out = np.empty_like(pa)
    combine(pa, pb, w0, w1, conj, add, out)
    assert np.array_equal(np.isnan(out), np.isnan(ref))
    ok = ~np.isnan(ref)
    assert np.max(np.abs(out[ok] - ref[ok])) <= 1e-15 * np.max(np.abs(ref[ok]))
