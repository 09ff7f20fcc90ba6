"""Small calls whose axes are all FIR plans run without numba (numpy's sums, or scipy.ndimage's
correlate1d once imported): the same bits as the engine's numba FIR paths, and the same contract.
Each comparison runs as in a process that has loaded numba and as in one that has not."""

from __future__ import annotations

import os
import subprocess
import sys
from functools import partial

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sftwave.ndimage as sn
from sftwave.engines.numba import small_fir as small_engine
from sftwave.plans import FIRPlan, select_gaussian, small

MODES = ["reflect", "mirror", "nearest", "wrap", "constant"]


@pytest.fixture(params=["numba loaded", "numba-free"])
def process(request, monkeypatch):
    """The small path as in a process that has loaded numba (and imported scipy.ndimage), and
    as in one that has not: numpy's sums and float32 rows (``_scipy_sums``, ``rows_sums``)."""
    sn._SMALL_MEMO.clear()
    free = request.param == "numba-free"
    monkeypatch.setattr(small_engine, "kernels_loaded", lambda: not free)
    monkeypatch.setattr(small_engine, "_scipy_loaded", lambda: not free)
    monkeypatch.setattr(small_engine, "_spent", [0.0])
    monkeypatch.setattr(small_engine, "NUMPY_SECONDS", float("inf"))
    yield request.param
    sn._SMALL_MEMO.clear()


def _numba(monkeypatch, call):
    """``call()`` with the small path off: the engine's numba paths."""
    with monkeypatch.context() as m:
        m.setattr(small, "SMALL_FIR_SAMPLES", -1)
        m.setattr(small, "NUMBA_FREE_SAMPLES", -1)
        m.setattr(sn, "_SMALL_MEMO", {})
        return call()


def _tol(x: np.ndarray, dtype: np.dtype) -> float:
    """A few units of rounding of the output's scale (that of the input: the kernels' absolute
    sums are at most about 1); float32 sums for float32 work and the engine's float32 rows path."""
    eps = np.finfo(np.float32 if np.dtype(dtype) != np.float64 else np.float64).eps
    return 16 * eps * max(1.0, float(np.max(np.abs(x.astype(np.float64)))))


def _input(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -1000), min(info.max, 1000), shape, endpoint=True).astype(dtype)
    return (rng.standard_normal(shape) * 10).astype(dtype)


def _compare(fast, slow, x):
    """The small path sums as the engine's FIR kernels do (scipy's order, in double): the same
    bits; the calls the engine's float32 rows could run keep the engine's path (the same bits
    too). The tolerance check first, which says by how much where the bits differ."""
    assert fast.dtype == slow.dtype and fast.shape == slow.shape
    if fast.dtype.kind in "iub":
        d = np.abs(fast.astype(np.int64) - slow.astype(np.int64))
        assert d.max(initial=0) <= 1
    else:
        np.testing.assert_allclose(fast, slow, rtol=0, atol=_tol(x, fast.dtype))
    assert np.array_equal(fast, slow)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [0, 1, 2])
@pytest.mark.parametrize("dtype, output", [(np.float64, None), (np.float32, None),
                                           (np.uint8, None), (np.int16, np.float64),
                                           (np.float64, np.uint8), (np.uint16, np.float32)])
def test_1d_same_as_numba(monkeypatch, process, mode, order, dtype, output):
    x = _input(dtype, 500)
    for sigma in (1.0, 2.0, 4.0):
        plan = select_gaussian(sigma, order, n=500, fir_taps_per_order=2.75, wide=True)
        call = partial(sn.gaussian_filter1d, x, sigma, order=order, mode=mode, cval=1.5,
                       output=output)
        fast, slow = call(), _numba(monkeypatch, call)
        if isinstance(plan, FIRPlan):
            _compare(fast, slow, x)
        else:                                              # not a FIR: the same path
            assert np.array_equal(fast, slow)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype, output", [(np.float64, None), (np.float32, None),
                                           (np.uint8, None), (np.uint8, np.float32),
                                           (np.float64, np.int16), (np.bool_, np.float64)])
def test_2d_same_as_numba(monkeypatch, process, mode, dtype, output):
    x = _input(dtype, (48, 40), seed=1)
    for sigma, order in [(1.0, 0), (3.0, 0), ((1.0, 2.0), (0, 1)), (2.0, (2, 0)), ((0.0, 1.5), 0)]:
        call = partial(sn.gaussian_filter, x, sigma, order=order, mode=mode, cval=-2.0,
                       output=output)
        _compare(call(), _numba(monkeypatch, call), x)


def test_strided_views_and_output_arrays(monkeypatch, process):
    """Views of every layout, an output array, the input as its own output."""
    base = _input(np.float64, (70, 90), seed=2)
    for x in (base[::2, 1::3], base.T, base[::-1, 5:60], np.asfortranarray(base)):
        call = partial(sn.gaussian_filter, x, 1.5, order=(0, 1))
        _compare(call(), _numba(monkeypatch, call), x)
        out = np.empty(x.shape, np.float32)
        sn.gaussian_filter(x, 2.0, output=out)
        slow = _numba(monkeypatch, partial(sn.gaussian_filter, x, 2.0, output=np.float32))
        np.testing.assert_allclose(out, slow, atol=_tol(x, np.float32))
    y = base.copy()
    want = sn.gaussian_filter(base, 1.0, order=2)
    assert sn.gaussian_filter(y, 1.0, order=2, output=y) is y
    assert np.array_equal(y, want)


def test_offset_removed_as_the_engine_does(monkeypatch, process):
    """A derivative of data with a large offset does not carry it, as on the numba path."""
    x = 1e8 + _input(np.float64, (40, 50), seed=3)
    call = partial(sn.gaussian_filter, x, 1.0, order=(2, 0))
    fast, slow = call(), _numba(monkeypatch, call)
    np.testing.assert_allclose(fast, slow, rtol=0, atol=1e-6)
    from sftwave.engines.numba import filters

    for dtype in (np.float64, np.float32):
        for ax in (0, 1):
            y = x.astype(dtype)
            y[:5] = _input(dtype, (5, 50), seed=6)      # some lines without an offset
            assert np.array_equal(small_engine.without_offset(y, ax), filters.without_offset(y, ax))


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_takes_the_screened_path(monkeypatch, process, bad):
    """NaN and infinities keep the engine's confined result: the small path declines them."""
    x = _input(np.float64, (30, 30), seed=4)
    x[10, 12] = bad
    steps = [(0, select_gaussian(1.0, 0, n=30, fir_taps_per_order=2.75), "reflect")]
    assert small_engine.filter_small(x, steps, cval=0.0) is None
    for kw in ({}, {"order": 1}, {"mode": "constant"}):
        call = partial(sn.gaussian_filter, x, 1.0, **kw)
        fast, slow = call(), _numba(monkeypatch, call)
        assert np.array_equal(fast, slow, equal_nan=True)
        assert np.isnan(fast).any() or np.isinf(fast).any()
    with pytest.raises(ValueError, match="NaN"):
        sn.gaussian_filter(np.where(np.isfinite(x), x, np.nan), 1.0, output=np.uint8)
    # a non-finite cval where read, and values far from one (scaled by the engine)
    y = _input(np.float64, (30, 30), seed=5)
    assert small_engine.filter_small(y, [(0, steps[0][1], "constant")], cval=np.nan) is None
    assert small_engine.filter_small(y * 1e200, steps, cval=0.0) is None
    for z, kw in ((y, {"mode": "constant", "cval": np.nan}), (y * 1e-300, {})):
        call = partial(sn.gaussian_filter, z, 1.0, **kw)
        assert np.array_equal(call(), _numba(monkeypatch, call), equal_nan=True)


def test_the_rule():
    """Real numpy input up to the limit, all plans FIR; complex, omit and larger calls not."""
    plan = FIRPlan(np.array([0.25, 0.5, 0.25]))
    assert small.small_input(np.ones(small.SMALL_FIR_SAMPLES), 0.0, "propagate")
    assert not small.small_input(np.ones(small.SMALL_FIR_SAMPLES + 1), 0.0, "propagate")
    assert not small.small_input(np.ones(10, complex), 0.0, "propagate")
    assert not small.small_input(np.ones(10), 1j, "propagate")
    assert not small.small_input(np.ones(10), 0.0, "omit")
    assert small.small_fir([(0, plan, "reflect")])
    assert not small.small_fir([(0, select_gaussian(20.0, 0, fir_taps_per_order=2.75), "reflect")])


def test_no_numba_on_a_small_call():
    """A fresh process's small Gaussian calls do not import numba."""
    code = ("import sys, numpy as np, sftwave\n"
            "sftwave.gaussian_filter(np.ones((64, 64)), 1.0)\n"
            "sftwave.gaussian_filter(np.ones((64, 64), np.uint8), 1.0, output=np.float64)\n"
            "sftwave.gaussian_filter1d(np.arange(1000.0), 2.0, order=2)\n"
            "print(sorted(m for m in sys.modules if m == 'numba' or m.startswith('numba.')))\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    env.pop("SFTWAVE_DISABLE_NUMBA_INTERNALS", None)
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True)
    assert got.stdout.strip() == "[]", got.stdout


def test_numba_free_process_runs_numpys_sums(monkeypatch, process):
    """Where numba is not loaded, numpy's sums run scipy's arithmetic and the float32 rows."""
    from sftwave.engines.numba import _scipy_sums, rows_sums

    calls = {"sums": 0, "rows": 0}
    sums, rows = small_engine.correlate_lines, rows_sums.filter_rows

    def count(name, f):
        def counted(*a, **k):
            calls[name] += 1
            return f(*a, **k)
        return counted

    monkeypatch.setattr(small_engine, "correlate_lines", count("sums", sums))
    monkeypatch.setattr(rows_sums, "filter_rows", count("rows", rows))
    sn.gaussian_filter(_input(np.float64, (48, 40)), 1.5)
    sn.gaussian_filter(_input(np.uint8, (48, 40)), 1.5)
    assert _scipy_sums.correlate_lines is sums
    if process == "numba-free":
        assert calls == {"sums": 2, "rows": 1}
    else:
        assert calls == {"sums": 0, "rows": 0}


def _fresh(code: str) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    env.pop("SFTWAVE_DISABLE_NUMBA_INTERNALS", None)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          check=True).stdout.strip()


def test_a_photo_in_a_fresh_process(tmp_path):
    """A 303 x 384 uint8 image (skimage's coins) smoothed at sigma 2 in a fresh process: numpy's
    float32 rows, neither numba nor scipy.ndimage imported, and the engine's bits; a call that
    numpy would run for longer than loading numba costs loads the engine."""
    x = _input(np.uint8, (303, 384), seed=7)
    np.save(tmp_path / "x.npy", x)
    code = ("import sys, numpy as np, sftwave\n"
            f"x = np.load({str(tmp_path / 'x.npy')!r})\n"
            f"np.save({str(tmp_path / 'y.npy')!r}, sftwave.gaussian_filter(x, 2.0))\n"
            "print(sorted(m for m in ('numba', 'scipy.ndimage') if m in sys.modules))\n"
            "big = np.zeros((1024, 1024), np.uint8)\n"
            "sftwave.gaussian_filter(big, 2.0)\n"
            "print('numba' in sys.modules)\n")
    assert _fresh(code).splitlines() == ["[]", "True"]
    sn._SMALL_MEMO.clear()
    assert np.array_equal(np.load(tmp_path / "y.npy"), sn.gaussian_filter(x, 2.0))


def test_the_engine_once_numpy_has_cost_its_load():
    """Once a process has spent ``NUMPY_SECONDS`` in numpy's sums, small calls run the engine's
    kernels: a loop of small calls pays for numba's load at most once over."""
    code = ("import sys, numpy as np, sftwave\n"
            "from sftwave.engines.numba import small_fir\n"
            "small_fir.NUMPY_SECONDS = 0.0\n"
            "x = np.ones((64, 64), np.uint8)\n"
            "sftwave.gaussian_filter(x, 1.0)\n"
            "print('numba' in sys.modules)\n")
    assert _fresh(code) == "True"


_FUZZ_DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "float16", "float32",
                "float64", ">f8", ">i2"]
_STRIDED_DTYPES = {"uint8", "float32", "float64"}


@st.composite
def _calls(draw):
    """A small real array (any dtype, layout, a long line now and then), one of the Gaussian
    filters with FIR-sized sigmas (and some beyond), any mode, order and output."""
    ndim = draw(st.integers(1, 3))
    shape = tuple(draw(st.lists(st.integers(1, 30), min_size=ndim, max_size=ndim)))
    if ndim == 1 and draw(st.booleans()):
        shape = (draw(st.integers(200, 3000)),)
    dtype = np.dtype(draw(st.sampled_from(_FUZZ_DTYPES)))
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    offset = draw(st.sampled_from([0.0, 1e6 if dtype.itemsize > 2 else 1e3]))
    base = np.cumsum(rng.standard_normal(shape), axis=-1) * 10 + offset
    if dtype.kind == "b":
        x = base > np.median(base)
    elif dtype.kind in "iu":
        info = np.iinfo(dtype)
        x = np.clip(np.round(base - base.mean()), max(info.min, -1000), min(info.max, 1000))
        x = x.astype(dtype)
    else:
        x = base.astype(dtype)
    # other layouts in three dtypes: each layout and dtype is a kernel the engine compiles
    layouts = ["C", "F", "reversed", "transposed"] if dtype.name in _STRIDED_DTYPES else ["C"]
    layout = draw(st.sampled_from(layouts))
    x = {"C": x, "F": np.asfortranarray(x), "reversed": x[..., ::-1], "transposed": x.T}[layout]
    mode = draw(st.sampled_from(MODES + ["grid-wrap", "grid-constant"]))
    cval = draw(st.sampled_from([0.0, -2.5, 7.0]))
    sigma = draw(st.sampled_from([0.4, 1.0, 1.7, 2.5, 3.3, 4.0, 6.0]))
    order = draw(st.integers(0, 2))
    output = draw(st.sampled_from([None, None, np.float64, np.float32, np.uint8, np.int16]))
    if draw(st.booleans()) or ndim == 1:
        call = partial(sn.gaussian_filter1d, x, sigma, axis=draw(st.integers(-ndim, ndim - 1)),
                       order=order, mode=mode, cval=cval, output=output)
    else:
        call = partial(sn.gaussian_filter, x, sigma, order=(order,) + (0,) * (ndim - 1),
                       mode=mode, cval=cval, output=output)
    return x, call


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(_calls())
def test_numba_free_calls_give_the_engines_bits(case):
    """Whatever runs a call, numpy's sums and float32 rows in a process without numba or the
    engine's kernels, the result is the same bits (or the same error)."""
    x, call = case

    def run(free: bool):
        with pytest.MonkeyPatch.context() as m:
            m.setattr(sn, "_SMALL_MEMO", {})
            m.setattr(small_engine, "kernels_loaded", lambda: not free)
            m.setattr(small_engine, "_scipy_loaded", lambda: False)
            m.setattr(small_engine, "_spent", [0.0])
            m.setattr(small_engine, "NUMPY_SECONDS", float("inf"))
            if not free:
                m.setattr(small, "SMALL_FIR_SAMPLES", -1)
                m.setattr(small, "NUMBA_FREE_SAMPLES", -1)
            try:
                return call()
            except (ValueError, TypeError) as exc:
                return type(exc), str(exc)

    free, engine = run(True), run(False)
    if isinstance(engine, tuple):
        assert free == engine
    else:
        assert free.dtype == engine.dtype and np.array_equal(free, engine, equal_nan=True)
