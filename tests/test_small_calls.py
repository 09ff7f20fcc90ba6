"""The per-call memos (plan decisions, bank tables, work items, FIR symmetry) change no bit,
and a loop run on the calling thread gives the pool's bits."""

from __future__ import annotations

import numpy as np
import pytest

import sftwave.ndimage as sn
from sftwave.engines.numba import bank, filters
from sftwave.plans import select


def _forget() -> None:
    select._select_gaussian_cached.cache_clear()
    bank._TABLES.clear()
    bank._ITEMS.clear()
    filters._SYMMETRY.clear()


@pytest.mark.parametrize("sigma, order, n", [(1.0, 0, 100), (4.0, 0, 1000), (4.0, 2, 1000),
                                              (30.0, 1, 500), (1e6, 0, 300)])
def test_select_gaussian_memo_is_the_design(sigma, order, n):
    """The memo returns the plan the checks and design give, and the same object again."""
    kw = dict(truncate=4.0, n=n, fir_taps_per_order=2.75, wide=True)
    fresh = select._select_gaussian(sigma, order, 4.0, None, "auto", "sft", None, n, 2.75, True)
    first = select.select_gaussian(sigma, order, **kw)
    assert type(first) is type(fresh) and repr(first) == repr(fresh)
    for name in ("kernel", "coef", "omegas"):
        if hasattr(fresh, name):
            assert np.array_equal(getattr(first, name), getattr(fresh, name))
    assert select.select_gaussian(sigma, order, **kw) is first


def test_select_gaussian_memo_keeps_the_checks():
    """Arguments equal to good ones but of a refused type are refused on every call
    (``typed``: True is not 1), and unhashable ones are checked without the memo."""
    select.select_gaussian(4.0, 1, n=100)
    for _ in range(2):
        with pytest.raises((TypeError, ValueError), match="order"):
            select.select_gaussian(4.0, True, n=100)
        with pytest.raises((TypeError, ValueError), match="sigma"):
            select.select_gaussian([4.0], 0, n=100)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_filters_same_bits_with_and_without_memos(dtype):
    """Every path the memos serve (bank, FIR, 2-D, a derivative) gives the same bits from
    empty memos as from full ones."""
    rng = np.random.default_rng(1)
    x1, x2 = rng.standard_normal(1000).astype(dtype), rng.standard_normal((48, 40)).astype(dtype)
    calls = [lambda: sn.gaussian_filter1d(x1, 4.0), lambda: sn.gaussian_filter1d(x1, 1.0),
             lambda: sn.gaussian_filter1d(x1, 6.0, order=1, mode="constant"),
             lambda: sn.gaussian_filter(x2, 2.5), lambda: sn.gaussian_filter(x2, (1.0, 9.0))]
    for call in calls:
        _forget()
        cold = call()
        warm = call()
        assert cold.dtype == warm.dtype and np.array_equal(cold, warm)


def test_calling_thread_gives_the_pools_bits():
    """A signal long enough for the pool (its work above ``SERIAL_WORK``) gives the same bits
    on one thread (the calling thread's loop) as on all of them: the work items are cut by
    the shape alone."""
    x = np.random.default_rng(2).standard_normal(120_000)
    y_pool = sn.gaussian_filter1d(x, 4.0, method="bank")
    y_one = sn.gaussian_filter1d(x, 4.0, method="bank", workers=1)
    assert np.array_equal(y_pool, y_one)
    img = np.random.default_rng(3).standard_normal((300, 300)).astype(np.float32)
    assert np.array_equal(sn.gaussian_filter(img, 3.0), sn.gaussian_filter(img, 3.0, workers=1))
