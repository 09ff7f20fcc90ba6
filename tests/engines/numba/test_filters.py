"""The CPU engine's last-axis bank over many rows, by blocks of rows turned into columns.

Along the last axis of an array with at least ``_TRANSPOSED_MIN_ROWS`` rows, the
``iir1`` bank copies blocks of rows into column buffers and runs the kernel for
non-last axes there.  It computes each row's recursion as the row-by-row bank does
(the same plan, the same state precision), so the two agree within rounding: 1e-12
of the largest output in float64, 1e-5 in float32 (float32 data, float64 state). The
blocks (a partial last one too), in-place calls and every mode are checked, and the
result against the exact Gaussian within the plan's accuracy.  The one block buffer is at
most a quarter of the array (tests/suites/test_aliasing.py holds in-place calls to less
than half the array of temporaries).
"""

from __future__ import annotations

import naive
import numpy as np
import pytest

import sftwave
from sftwave.engines.numba import filters as F


def _row_by_row(monkeypatch, fn):
    """``fn()`` with the transposed blocks switched off."""
    with monkeypatch.context() as m:
        m.setattr(F, "_TRANSPOSED_MIN_ROWS", 10**12)
        return fn()


def _close(a, b, rel):
    assert a.shape == b.shape and a.dtype == b.dtype
    assert np.max(np.abs(a - b)) <= rel * np.max(np.abs(b))


@pytest.mark.parametrize("rows", [F._TRANSPOSED_MIN_ROWS, F._TRANSPOSED_MIN_ROWS + 77])
@pytest.mark.parametrize("mode", ["reflect", "constant", "nearest", "mirror", "wrap"])
def test_transposed_blocks_equal_the_row_by_row_bank(monkeypatch, rows, mode):
    rng = np.random.default_rng(rows)
    x = np.cumsum(rng.standard_normal((rows, 97)), axis=1)
    assert F._rows_transposed_pay(x, None, "iir1")
    for sigma, order in ((6.0, 0), (9.0, 1), (20.0, 2)):
        kw = dict(axis=-1, order=order, mode=mode, cval=0.7, method="bank")
        got = sftwave.gaussian_filter1d(x, sigma, **kw)
        ref = _row_by_row(monkeypatch,
                          lambda s=sigma, k=kw: sftwave.gaussian_filter1d(x, s, **k))
        _close(got, ref, 1e-12)
        got32 = sftwave.gaussian_filter1d(x.astype(np.float32), sigma, **kw)
        ref32 = _row_by_row(monkeypatch,
                            lambda s=sigma, k=kw: sftwave.gaussian_filter1d(x.astype(np.float32),
                                                                            s, **k))
        _close(got32, ref32, 1e-5)


def test_transposed_blocks_in_place_and_3d(monkeypatch):
    """``output=`` the input itself, and the last axis of a 3-D array (rows over two axes)."""
    x = np.random.default_rng(1).standard_normal((5, 220, 90))
    ref = _row_by_row(monkeypatch, lambda: sftwave.gaussian_filter1d(x, 7.0, method="bank"))
    y = x.copy()
    out = sftwave.gaussian_filter1d(y, 7.0, method="bank", output=y)
    assert out is y or np.shares_memory(out, y)
    _close(y, ref, 1e-12)
    _close(sftwave.gaussian_filter(x, 7.0, method="bank"),
           _row_by_row(monkeypatch, lambda: sftwave.gaussian_filter(x, 7.0, method="bank")),
           1e-12)


def test_transposed_blocks_meet_the_exact_gaussian():
    x = np.random.default_rng(2).standard_normal((F._TRANSPOSED_MIN_ROWS, 300))
    for order in (0, 1, 2):
        got = sftwave.gaussian_filter1d(x, 12.0, order=order, method="bank", tol=1e-6)
        exact = naive.exact_gaussian_filter1d(x, 12.0, order=order)
        assert naive.rel_rmse(got, exact) <= 3e-6


def test_few_rows_stay_row_by_row():
    x = np.zeros((F._TRANSPOSED_MIN_ROWS - 1, 50))
    assert not F._rows_transposed_pay(x, None, "iir1")
    assert not F._rows_transposed_pay(np.zeros((500, 50)), None, "iir2")
    assert not F._rows_transposed_pay(np.zeros((500, 50), np.complex128), None, "iir1")


def test_transposed_blocks_take_one_block_of_memory():
    """In place, the path's temporaries are its block buffer (a quarter of the array at most)
    and the column kernel's block of lines per thread: under half the array, the bound
    tests/suites/test_aliasing.py sets for in-place calls (tracemalloc's peak, after a
    first call that designs and compiles)."""
    import tracemalloc

    x = np.random.default_rng(3).standard_normal((F._TRANSPOSED_MIN_ROWS, 600))
    a = x.copy()
    sftwave.gaussian_filter1d(a, 9.0, order=1, method="bank", output=a)
    a = x.copy()
    tracemalloc.start()
    try:
        sftwave.gaussian_filter1d(a, 9.0, order=1, method="bank", output=a)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 0.5 * x.nbytes, peak / x.nbytes


def test_prepared_filter_is_filter_axes_on_the_plain_bank_rows():
    """The prepared filter runs what ``filter_axes`` runs, bit for bit, and only where
    that is the bank's plain rows along the last axis of a C-ordered float array."""
    from sftwave.engines.numba import filters
    from sftwave.plans import select_gaussian

    rng = np.random.default_rng(7)
    x = np.cumsum(rng.standard_normal((4, 500)), axis=-1)
    bank_plan = select_gaussian(6.0, 0)
    for dtype in (np.float64, np.float32):
        for mode, method in (("reflect", "auto"), ("constant", "iir2"), ("mirror", "window")):
            y = x.astype(dtype)
            steps = [(1, bank_plan, mode)]
            run = filters.prepared_filter(y, steps, cval=2.0, bank_method=method)
            want = filters.filter_axes(y, steps, cval=2.0, bank_method=method)
            got = run(y)
            assert got.dtype == want.dtype and np.array_equal(got, want)
            assert run(np.asfortranarray(y)) is None
    deriv = select_gaussian(6.0, 1)
    assert filters.prepared_filter(x, [(1, deriv, "constant")], cval=0.0) is not None
    declined = [
        (x, [(1, deriv, "reflect")]),                         # each line's offset comes off first
        (x, [(0, bank_plan, "reflect")]),                     # not the last axis
        (x, [(0, bank_plan, "reflect"), (1, bank_plan, "reflect")]),
        (x.astype(np.int32), [(1, bank_plan, "reflect")]),
        (x.astype(complex), [(1, bank_plan, "reflect")]),
        (np.asfortranarray(x), [(1, bank_plan, "reflect")]),
        (np.cumsum(rng.standard_normal(40_000)), [(0, bank_plan, "reflect")]),   # the pieces
    ]
    for y, steps in declined:
        assert filters.prepared_filter(y, steps, cval=0.0) is None


def test_prepared_filter_is_filter_axes_on_fir_plans():
    """Real FIR plans on float64 arrays (and on float32 ones the float32 rows decline: a
    derivative's kernel, scipy's arithmetic): the prepared kernels are ``filter_axes``'s
    (scipy's sums) bit for bit, along any axes, on lines longer than one block of outputs,
    in every mode; declined where a derivative's lines lose their offset first."""
    import dataclasses

    from sftwave.engines.numba import filters
    from sftwave.engines.numba.fir_kernels import LINE_BLOCK
    from sftwave.plans import select_gaussian

    rng = np.random.default_rng(9)
    fir1, fir2 = select_gaussian(1.0, 0, method="fir"), select_gaussian(4.0, 0, method="fir")
    deriv = select_gaussian(3.0, 1, method="fir")
    scipys = dataclasses.replace(fir2, scipy_arithmetic=True)
    cases = [((3 * LINE_BLOCK + 17,), [(0, fir2, "reflect")], np.float64),
             ((40, 50), [(0, fir2, "mirror"), (1, fir1, "nearest")], np.float64),
             ((6, 20, 30), [(0, fir1, "wrap"), (2, fir2, "constant"), (1, fir2, "reflect")],
              np.float64),
             ((5, 2 * LINE_BLOCK + 3), [(1, deriv, "constant"), (0, fir1, "wrap")], np.float32),
             ((40, 50), [(1, scipys, "reflect")], np.float32)]
    for shape, steps, dtype in cases:
        y = rng.standard_normal(shape).astype(dtype)
        run = filters.prepared_filter(y, steps, cval=0.5)
        want = filters.filter_axes(y, steps, cval=0.5)
        got = run(y)
        assert got.dtype == want.dtype == y.dtype and np.array_equal(got, want)
        other = rng.standard_normal(shape).astype(dtype)
        assert np.array_equal(run(other), filters.filter_axes(other, steps, cval=0.5))
        assert run(np.asfortranarray(y)) is None or y.ndim == 1
    x = rng.standard_normal((8, 60))
    designed = select_gaussian(3.0, 1, method="fir", tol=1e-6)     # a zero-sum kernel
    assert filters.prepared_filter(x, [(1, designed, "reflect")], cval=0.0) is None
    assert filters.prepared_filter(x, [(1, designed, "constant")], cval=0.0) is not None
    gabor = dataclasses.replace(fir1, kernel=fir1.kernel * (1 + 1j))
    assert filters.prepared_filter(x, [(1, gabor, "reflect")], cval=0.0) is None


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float32])
def test_prepared_filter_is_filter_axes_on_the_float32_rows(dtype):
    """FIR plans on float32 and 8/16-bit images: the prepared passes of the float32 rows are
    ``filter_axes``'s, bit for bit, along any axes (a volume's too)."""
    from sftwave.engines.numba import filters
    from sftwave.plans import select_gaussian

    rng = np.random.default_rng(8)
    fir1, fir2 = select_gaussian(1.0, 0, method="fir"), select_gaussian(2.0, 0, method="fir")
    for shape, steps in (((40, 50), [(0, fir2, "reflect"), (1, fir1, "nearest")]),
                         ((40, 50), [(1, fir2, "constant")]),
                         ((6, 20, 30), [(0, fir1, "wrap"), (1, fir2, "mirror"), (2, fir2, "reflect")]),
                         ((30, 20, 3), [(0, fir2, "reflect"), (1, fir2, "reflect")])):
        y = (rng.random(shape) * 200).astype(dtype)
        run = filters.prepared_filter(y, steps, cval=3.0)
        want = filters.filter_axes(y, steps, cval=3.0)
        got = run(y)
        assert got.dtype == want.dtype == y.dtype and np.array_equal(got, want)
        other = (rng.random(shape) * 200).astype(dtype)
        assert np.array_equal(run(other), filters.filter_axes(other, steps, cval=3.0))
        assert run(np.asfortranarray(y)) is None or y.ndim == 1
    img = (rng.random((40, 50)) * 200).astype(dtype)
    assert filters.prepared_filter(img, [(0, fir2, "reflect"), (0, fir2, "reflect")], cval=0.0) is None
