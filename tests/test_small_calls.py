"""The per-call memos (plan decisions, bank tables, work items, FIR symmetry) change no bit,
and a loop run on the calling thread gives the pool's bits."""

from __future__ import annotations

import numpy as np
import pytest

import sftwave.ndimage as sn
from sftwave.engines.numba import bank, filters
from sftwave.plans import select


def _forget() -> None:
    sn._SMALL_MEMO.clear()
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


def test_a_repeated_small_call_is_the_whole_paths():
    """The memo of small calls gives the whole path's bits, and only to the call it was made
    for: another dtype, byte order, shape, argument type or an ``output`` is planned anew,
    and a non-finite input is screened as on the first call."""
    rng = np.random.default_rng(4)
    x = rng.standard_normal((20, 24))
    _forget()
    first = sn.gaussian_filter(x, 2.0, mode="nearest")
    assert len(sn._SMALL_MEMO) == 1
    again = sn.gaussian_filter(x, 2.0, mode="nearest")
    np.testing.assert_array_equal(again, first)
    assert again is not first and len(sn._SMALL_MEMO) == 1
    for call in (lambda y: sn.gaussian_filter(y, 2, mode="nearest"),  # an int sigma: its own key
                 lambda y: sn.gaussian_filter(y.astype(np.float32), 2.0, mode="nearest"),
                 lambda y: sn.gaussian_filter(y.astype(">f8"), 2.0, mode="nearest"),
                 lambda y: sn.gaussian_filter(y[:, :20], 2.0, mode="nearest"),
                 lambda y: sn.gaussian_filter(y, [2.0, 2.0], mode="nearest")):  # unhashable
        got = call(x)
        _forget()
        np.testing.assert_array_equal(got, call(x))  # as from empty memos
        sn.gaussian_filter(x, 2.0, mode="nearest")
    bad = x.copy()
    bad[3, 4] = np.nan
    screened = sn.gaussian_filter(bad, 2.0, mode="nearest")
    _forget()
    np.testing.assert_array_equal(screened, sn.gaussian_filter(bad, 2.0, mode="nearest"))
    assert np.isnan(screened[3, 4]) and np.isfinite(screened[15, 20])  # NaN kept local
    out = np.empty_like(x)
    assert sn.gaussian_filter1d(x, 2.0, output=out) is out


def test_the_small_memo_is_bounded():
    """More distinct calls than the memo holds (each ``cval`` its own key; one plan, designed
    once) leave at most ``_SMALL_MEMO_SIZE`` entries, and the memo keeps serving."""
    _forget()
    x = np.ones(64)
    for k in range(sn._SMALL_MEMO_SIZE + 10):
        y = sn.gaussian_filter1d(x, 1.0, mode="constant", cval=float(k))
    assert 0 < len(sn._SMALL_MEMO) <= sn._SMALL_MEMO_SIZE
    np.testing.assert_array_equal(sn.gaussian_filter1d(x, 1.0, mode="constant", cval=float(k)), y)


def _prepared_and_whole(call, whole, x, other, strided):
    """From empty memos, ``call(x)`` keeps the engine's prepared filter in the small memo, and
    it, the repeated call and calls on ``other`` (same shape) and ``strided`` (a strided view)
    give the whole path's bits (``whole``); the first result."""
    _forget()
    first = call(x)
    assert len(sn._SMALL_MEMO) == 1
    (run, _, _), = sn._SMALL_MEMO.values()
    assert run.__qualname__.startswith("_prepared_run")
    np.testing.assert_array_equal(first, whole(x))
    np.testing.assert_array_equal(call(x), first)
    np.testing.assert_array_equal(call(other), whole(other))
    np.testing.assert_array_equal(call(strided), whole(strided))
    return first


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("mode", ["reflect", "constant", "wrap"])
def test_a_repeated_small_bank_call_is_the_whole_paths(dtype, mode):
    """A small call whose one plan is a bank along the last axis keeps its kernel and
    arguments (the engine's prepared filter): the first and the repeated call give the
    whole path's bits (an ``output`` array takes the whole path), on any array of that shape
    and dtype; a strided, non-finite or scaled input takes the whole path again."""
    rng = np.random.default_rng(5)
    x = np.cumsum(rng.standard_normal((3, 700)), axis=-1).astype(dtype)

    def call(y, **kw):
        return sn.gaussian_filter1d(y, 24.0, mode=mode, cval=0.5, **kw)   # float32: a FIR below

    def whole(y):
        return call(y, output=np.empty(y.shape, y.dtype))

    strided = np.cumsum(rng.standard_normal((3, 1400)), axis=-1).astype(dtype)[:, ::2]
    first = _prepared_and_whole(call, whole, x, x[::-1].copy(), strided)
    bad = x.copy()
    bad[1, 300] = np.nan
    screened = call(bad)
    np.testing.assert_array_equal(screened, whole(bad))
    assert np.isnan(screened[1, 300]) and np.isfinite(screened[1, 600]) and np.isfinite(screened[0]).all()
    tiny = x * dtype(1e-30 if dtype == np.float32 else 1e-200)  # scaled by a power of two
    np.testing.assert_array_equal(call(tiny), whole(tiny))
    np.testing.assert_array_equal(call(x, workers=1), first)
    np.testing.assert_array_equal(call(x, workers=1), first)
    assert len(sn._SMALL_MEMO) == 2


@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_a_repeated_small_image_call_is_the_whole_paths(dtype):
    """A small float32 or 8-bit image whose plans are FIRs (the engine's float32 rows) keeps
    its passes: the first and the repeated call give the whole path's bits, on any image of
    that shape and dtype; a strided or non-finite input takes the whole path again."""
    rng = np.random.default_rng(6)
    x = (rng.random((40, 48)) * 250).astype(dtype)

    def call(y, **kw):
        return sn.gaussian_filter(y, 2.0, **kw)

    def whole(y):
        return call(y, output=np.empty(y.shape, y.dtype))

    other = (rng.random((40, 48)) * 250).astype(dtype)
    _prepared_and_whole(call, whole, x, other, (rng.random((40, 96)) * 250).astype(dtype)[:, ::2])
    if dtype == np.float32:
        bad = x.copy()
        bad[10, 20] = np.nan
        screened = call(bad)
        np.testing.assert_array_equal(screened, whole(bad))
        assert np.isnan(screened[10, 20]) and np.isfinite(screened[35, 5])


def test_scaled_plans_and_lane_tables_are_kept_and_change_no_bit():
    """MNE's rows (plans scaled by their wavelets' norms) are made once per plan and factor,
    and the lane engine's per-plan tables and lane layouts once per set of plans and table: a
    repeated transform gives the bits of one made from empty memos, on other data too."""
    from sftwave import wavelets
    from sftwave.engines.numba import lanes
    from sftwave.mne import tfr_array_morlet

    rng = np.random.default_rng(10)
    a, b = rng.standard_normal((2, 2, 3, 600))
    freqs = np.linspace(6.0, 30.0, 7)

    def call(x):
        return tfr_array_morlet(x, 250.0, freqs, n_cycles=5.0, output="complex")

    def forget():
        wavelets._SCALED.clear()
        lanes._PLAN_ROWS.clear()
        lanes._LAYOUTS.clear()

    forget()
    first = call(a)
    assert wavelets._SCALED and lanes._PLAN_ROWS and lanes._LAYOUTS
    kept = dict(wavelets._SCALED)
    np.testing.assert_array_equal(call(a), first)
    assert all(wavelets._SCALED[k][1] is v[1] for k, v in kept.items())  # the same objects
    warm = call(b)
    forget()
    np.testing.assert_array_equal(warm, call(b))
    plan = next(iter(kept.values()))[0]
    assert wavelets._scaled_plan(plan, 2.0) is wavelets._scaled_plan(plan, 2.0)
    assert wavelets._scaled_plan(plan, 2.0) is not wavelets._scaled_plan(plan, 3.0)


def test_mne_wavelets_are_kept_read_only():
    """MNE's wavelet norms, kept per sampling rate, frequencies, cycles and zero mean, are the
    same values as made afresh, and read-only (no call may change a kept one)."""
    from sftwave.mne import _array

    req = _array.tfr_request(np.zeros((1, 1, 500)), 250.0, np.linspace(6.0, 30.0, 5), 5.0, True,
                             True, 1, "power", None, None)
    _array._WAVELETS.clear()
    kept = _array._wavelets(req)
    assert _array._wavelets(req) is kept
    _array._WAVELETS.clear()
    fresh = _array._wavelets(req)
    for a, b in zip(kept, fresh):
        np.testing.assert_array_equal(a, b)
        assert not a.flags.writeable


@pytest.mark.parametrize("kind", ["complex", "power", "sum_power"])
def test_a_kept_lane_layout_gives_a_fresh_ones_bits(kind):
    """The lane engine's layout of a small table, kept between calls, gives the bits of one
    laid out afresh, on other rows and into another output; another length is its own."""
    from sftwave.engines.numba import lanes
    from sftwave.plans.gaussian import gaussian_plan

    plans = [gaussian_plan(s, 0, 1e-5, "sft") for s in (3.0, 7.0, 12.0)]
    rng = np.random.default_rng(11)
    channels = lanes.SUM_CHANNELS.get(kind, 2 if kind == "complex" else 1)

    def go(x):
        rows = 1 if kind in lanes.SUM_CHANNELS else 2 * len(plans)
        out = np.zeros((rows, x.shape[1], channels))
        table = lanes.LaneTable.grid(plans, rows=2, n=x.shape[1])
        if kind in lanes.SUM_CHANNELS:
            table = lanes.LaneTable(table.plans, table.plan, table.in_row,
                                    np.zeros_like(table.out_row), table.n_lo, table.n_hi)
        return lanes.run(x, table, out, kind=kind, mode="reflect", cval=0.0)

    x, y = rng.standard_normal((2, 2, 400))
    lanes._LAYOUTS.clear()
    go(x)
    assert len(lanes._LAYOUTS) == 1
    kept = go(y)
    lanes._LAYOUTS.clear()
    np.testing.assert_array_equal(kept, go(y))
    go(rng.standard_normal((2, 300)))
    assert len(lanes._LAYOUTS) == 2


@pytest.mark.parametrize("kw", [dict(), dict(output="power", decim=3), dict(mode="wrap"),
                                dict(xi=np.array([5.0, 6.0, 7.0]), output="abs"),
                                dict(wavelet="mexh", output="real"), dict(dtype=np.complex64)])
def test_a_repeated_cwt_is_a_fresh_ones(kw):
    """A kept request and plans (``wavelets._CWT_MEMO``) give a fresh call's bits, for this
    input and another of its shape; a call with ``out``, a list of frequencies or a large
    input is not kept; a bad argument is refused every time."""
    import sftwave
    from sftwave import wavelets

    rng = np.random.default_rng(11)
    freqs = np.array([0.05, 0.1, 0.2])
    x, other = rng.standard_normal(300), rng.standard_normal(300)
    wavelets._CWT_MEMO.clear()
    fresh = [sftwave.cwt(v, freqs, 1.0, **kw) for v in (x, other)]
    assert len(wavelets._CWT_MEMO) == 1
    for v, want in zip((x, other, x), (*fresh, fresh[0])):
        got = sftwave.cwt(v, freqs, 1.0, **kw)
        assert got.dtype == want.dtype and np.array_equal(got, want)
    assert len(wavelets._CWT_MEMO) == 1
    wavelets._CWT_MEMO.clear()
    out = np.empty_like(fresh[0])
    if "decim" not in kw and "dtype" not in kw:
        sftwave.cwt(x, freqs, 1.0, out=out, **kw)
        assert np.array_equal(out, fresh[0])
    sftwave.cwt(x, list(freqs), 1.0, **kw)
    sftwave.cwt(rng.standard_normal(1 << 16), freqs, 1.0, **kw)
    assert not wavelets._CWT_MEMO
    for _ in range(2):
        with pytest.raises(ValueError, match="fs"):
            sftwave.cwt(x, freqs, -1.0, **kw)


def test_the_cwt_memo_is_bounded():
    import sftwave
    from sftwave import wavelets

    x = np.random.default_rng(12).standard_normal(64)
    wavelets._CWT_MEMO.clear()
    for i in range(wavelets._CWT_MEMO_SIZE + 3):
        sftwave.cwt(x, np.array([0.1]), 1.0, cval=float(i), mode="constant")
    assert 0 < len(wavelets._CWT_MEMO) <= wavelets._CWT_MEMO_SIZE


@pytest.mark.parametrize("kw", [dict(), dict(output="power", decim=3), dict(mode="wrap"),
                                dict(mode="constant", cval=0.5), dict(dtype=np.complex64),
                                dict(axis=0, output="phase")])
def test_a_prepared_fft_cwt_is_the_whole_paths(kw):
    """A kept transform whose plans are all FFT plans runs the engine's prepared transform
    (``scalogram_prepared``): the whole path's bits for finite input of both dtypes and
    layouts; input with a NaN, or small enough to be scaled, takes the whole path again."""
    import sftwave
    from sftwave import wavelets

    rng = np.random.default_rng(13)
    freqs = np.array([0.05, 0.1, 0.2, 0.3])
    shape = (300, 3) if kw.get("axis") == 0 else (3, 300)
    for dtype in (np.float64, np.float32):
        x = rng.standard_normal(shape).astype(dtype)
        wavelets._CWT_MEMO.clear()
        first = sftwave.cwt(x, freqs, method="fft", **kw)
        (kept,) = wavelets._CWT_MEMO.values()
        assert kept[-1] is not None                       # prepared
        others = [rng.standard_normal(shape).astype(dtype), np.asfortranarray(x), x.copy()]
        others[2][(7, 1) if kw.get("axis") == 0 else (1, 7)] = np.nan
        tiny = x * np.asarray(1e-300 if dtype == np.float64 else 1e-40, dtype=dtype)
        for v in (x, *others, tiny):
            got = sftwave.cwt(v, freqs, method="fft", **kw)
            wavelets._CWT_MEMO.clear()
            want = sftwave.cwt(v, freqs, method="fft", **kw)
            assert got.dtype == want.dtype and np.array_equal(got, want, equal_nan=True)
            sftwave.cwt(x, freqs, method="fft", **kw)     # kept again for the next input
        assert np.array_equal(sftwave.cwt(x, freqs, method="fft", **kw), first)
        assert np.isnan(sftwave.cwt(others[2], freqs, method="fft", **kw)).any()


def test_no_prepared_cwt_where_a_plan_is_not_an_fft():
    """A kept transform with a windowed plan keeps the whole path (no prepared transform)."""
    import sftwave
    from sftwave import wavelets

    x = np.random.default_rng(14).standard_normal(400)
    wavelets._CWT_MEMO.clear()
    sftwave.cwt(x, np.array([0.05, 0.2]), method="direct")
    (kept,) = wavelets._CWT_MEMO.values()
    assert kept[-1] is None
    wavelets._CWT_MEMO.clear()
