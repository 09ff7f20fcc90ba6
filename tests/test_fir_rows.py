"""The float32 FIR over blocks of rows (float32, 8/16-bit and bool images, photos, volumes).

Checked against a dense float64 correlation with the same kernel (naive.py),
with a tolerance from float32 rounding; against the exact Gaussian, where its
error must stay within scipy's own; integer outputs as scipy casts them; every
layout (strided, reversed, Fortran, channels) giving the same bits as the
contiguous array; the same bits on any thread count and any blocking.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.ndimage as ndi
from naive import dense_correlate1d, exact_gaussian_filter1d, rel_rmse

import sftwave
from sftwave.engines.numba import ENGINE, FIR_TAPS_PER_ORDER, ROWS_TAPS_PER_ORDER, fir_rows
from sftwave.engines.numba.small_fir import cast_into
from sftwave.engines.numba.vectors import usable
from sftwave.plans import FIRPlan, SFTPlan, select_gaussian, small

pytestmark = pytest.mark.skipif(not usable(), reason="explicit vectors unavailable")

MODES = ["reflect", "mirror", "nearest", "wrap", "constant"]

#: float32's unit roundoff
U32 = 2.0 ** -24


def _image(shape, dtype, seed=0):
    """A photo-like image: smooth shading, an edge, texture; scaled to the dtype's range."""
    rng = np.random.default_rng(seed)
    f = rng.standard_normal(shape).cumsum(0)
    if len(shape) > 1:
        f = f.cumsum(1)
    f = (f - f.min()) / (np.ptp(f) + 1e-12)
    f[tuple(slice(0, s // 2) for s in shape)] += 0.5          # an edge
    f = 0.6 * f / (f.max() + 1e-12) + 0.4 * rng.random(shape)    # texture
    if np.dtype(dtype).kind == "f":
        return (100.0 * f).astype(dtype)
    if np.dtype(dtype) == np.bool_:
        return f > 0.6
    info = np.iinfo(dtype)
    return (info.min + f * (float(info.max) - info.min)).astype(dtype)


def _scipy_weights(sigma):
    return ndi._filters._gaussian_kernel1d(sigma, 0, int(4.0 * sigma + 0.5))[::-1]


def _dense(x, sigmas, mode="reflect", cval=0.0):
    """Dense float64 correlation with scipy's kernels along every axis with a sigma."""
    y = np.asarray(x, dtype=np.float64)
    for ax, s in enumerate(sigmas):
        if s > 0:
            y = dense_correlate1d(y, _scipy_weights(s), axis=ax, mode=mode, cval=cval)
    return y


def _bound(x, sigmas):
    """float32 rounding of the two-pass sum: about one unit per folded tap and pass, of the
    data's largest magnitude (weights positive, summing to one), doubled for margin."""
    taps = sum(int(4.0 * s + 0.5) + 2 for s in sigmas if s > 0)
    return 2.0 * taps * U32 * float(np.max(np.abs(np.asarray(x, dtype=np.float64))))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("sigma", [0.7, 1.0, 2.0, 4.5])
def test_float32_against_dense_correlation(mode, sigma):
    x = _image((37, 53), np.float32)
    y = sftwave.gaussian_filter(x, sigma, mode=mode, cval=3.5, method="fir")
    assert y.dtype == np.float32
    ref = _dense(x, (sigma, sigma), mode, 3.5)
    assert np.max(np.abs(y - ref)) <= _bound(x, (sigma, sigma))


@pytest.mark.parametrize("shape", [(3, 40), (40, 3), (1, 1), (2, 2), (5, 70)])
def test_lines_shorter_than_the_kernel(shape):
    """Extensions many times the line's length (scipy's repeated reflections)."""
    x = _image(shape, np.float32, seed=1)
    for mode in MODES:
        y = sftwave.gaussian_filter(x, 3.0, mode=mode, method="fir")
        assert np.max(np.abs(y - _dense(x, (3.0, 3.0), mode))) <= _bound(x, (3.0, 3.0)), mode


@pytest.mark.parametrize("sigma", [1.0, 2.0, 4.0, 8.0])
def test_error_within_scipys_against_the_exact_gaussian(sigma):
    """The float32 path's error against the exact (untruncated) Gaussian is scipy's own
    (the truncated kernel's) up to float32 rounding, far below it."""
    x = _image((96, 80), np.float32, seed=2)
    exact = exact_gaussian_filter1d(exact_gaussian_filter1d(x, sigma, axis=0), sigma, axis=1)
    ours = rel_rmse(sftwave.gaussian_filter(x, sigma), exact)
    scipys = rel_rmse(ndi.gaussian_filter(x.astype(np.float64), sigma), exact)
    assert ours <= scipys + 4 * U32 * (int(4 * sigma + 0.5) + 2)


@pytest.mark.parametrize("dtype", [np.uint8, np.int8, np.uint16, np.int16])
@pytest.mark.parametrize("sigma", [1.0, 3.0])
def test_integer_input_cast_as_scipy(dtype, sigma):
    """Truncated toward zero (scipy's C cast) once at the end; one unit apart at most where the
    exact value lies within float32 rounding of an integer."""
    x = _image((41, 57), dtype, seed=3)
    y = sftwave.gaussian_filter(x, sigma)
    assert y.dtype == dtype
    ref = _dense(x, (sigma, sigma))
    want = np.trunc(ref)
    near = np.abs(ref - np.round(ref)) <= _bound(x, (sigma, sigma))
    assert np.array_equal(y[~near], want[~near].astype(dtype))
    assert np.max(np.abs(y.astype(int) - want.astype(int))) <= 1
    assert np.max(np.abs(y.astype(int) - ndi.gaussian_filter(x, sigma).astype(int))) <= 1


def test_integer_output_saturates_and_bool_input():
    x = _image((30, 40), np.float32) * 10.0 - 500.0            # beyond int8 and uint8, both ends
    for dt in (np.uint8, np.int8):
        y = sftwave.gaussian_filter(x, 2.0, output=dt)
        ref = np.clip(np.trunc(_dense(x, (2.0, 2.0))), np.iinfo(dt).min, np.iinfo(dt).max)
        assert np.max(np.abs(y.astype(int) - ref.astype(int))) <= 1
        assert y.min() == np.iinfo(dt).min and y.max() == np.iinfo(dt).max
    b = _image((30, 40), np.bool_)
    got = sftwave.gaussian_filter(b, 1.5, output=np.float32)
    assert np.max(np.abs(got - _dense(b, (1.5, 1.5)))) <= _bound(b, (1.5, 1.5))
    assert sftwave.gaussian_filter(b, 1.5).dtype == np.bool_


def test_layouts_give_the_same_bits():
    """Strided, reversed, Fortran-ordered and channel-last inputs: the contiguous copy's bits."""
    base = _image((64, 90, 3), np.uint8, seed=4)
    views = [base[::2, ::3], base[::-1], base[:, ::-1], np.asfortranarray(base),
             base.transpose(1, 0, 2)]
    for v in views:
        for sig in ((1.5, 2.0, 0.0), (2.0, 0.0, 0.0), (0.0, 1.0, 0.0), (1.0, 1.0, 1.0)):
            got = sftwave.gaussian_filter(v, sig)
            assert np.array_equal(got, sftwave.gaussian_filter(np.ascontiguousarray(v), sig)), sig
    f = _image((50, 70), np.float32, seed=5)
    for v in (f[::-1, ::2], f.T, np.asfortranarray(f), f[3:-2, 5:]):
        assert np.array_equal(sftwave.gaussian_filter(v, 2.0),
                              sftwave.gaussian_filter(np.ascontiguousarray(v), 2.0))


def test_rgb_photo_channels_not_mixed():
    """sigma (s, s, 0): each channel filtered alone, as the dense reference does."""
    x = _image((45, 61, 3), np.uint8, seed=6)
    y = sftwave.gaussian_filter(x, (2.0, 1.5, 0.0))
    for c in range(3):
        ref = _dense(x[..., c], (2.0, 1.5))
        assert np.max(np.abs(y[..., c].astype(int) - np.trunc(ref).astype(int))) <= 1
    # and 4 channels (RGBA), float32
    x4 = _image((33, 29, 4), np.float32, seed=7)
    y4 = sftwave.gaussian_filter(x4, (1.0, 2.5, 0.0))
    assert np.max(np.abs(y4 - _dense(x4, (1.0, 2.5, 0.0)))) <= _bound(x4, (1.0, 2.5))


@pytest.mark.parametrize("sigma", [(1.0, 3.0, 3.0), (2.0, 2.0, 2.0), (0.0, 2.0, 0.0), (3.0, 0.0, 1.0)])
def test_volumes(sigma):
    x = _image((12, 30, 34), np.uint16, seed=8)
    y = sftwave.gaussian_filter(x, sigma, output=np.float32)
    assert np.max(np.abs(y - _dense(x, sigma))) <= _bound(x, sigma)
    y16 = sftwave.gaussian_filter(x, sigma)
    assert np.max(np.abs(y16.astype(int) - np.trunc(_dense(x, sigma)).astype(int))) <= 1


def test_zero_sigma_axis_with_an_order():
    """scipy's rule: a zero sigma leaves the axis as it is, whatever its order."""
    x = _image((40, 50), np.uint8, seed=9)
    got = sftwave.gaussian_filter(x, (0.0, 2.0), order=(1, 0))
    assert np.array_equal(got, sftwave.gaussian_filter1d(x, 2.0, axis=1))
    assert np.max(np.abs(got.astype(int) - ndi.gaussian_filter(x, (0.0, 2.0), order=(1, 0))
                         .astype(int))) <= 1


def test_in_place_and_overlapping_output():
    for dt in (np.uint8, np.float32):
        x = _image((50, 60), dt, seed=10)
        want = sftwave.gaussian_filter(x, 2.0)
        assert sftwave.gaussian_filter(x, 2.0, output=x) is x
        assert np.array_equal(x, want)
    f = _image((50, 60), np.float32, seed=11)
    big = np.zeros((50, 120), np.float32)
    view = big[:, ::2]
    assert sftwave.gaussian_filter(f, 2.0, output=view) is view
    assert np.array_equal(view, sftwave.gaussian_filter(f, 2.0)) and not big[:, 1::2].any()


def test_nan_confined_to_its_support():
    x = _image((40, 50), np.float32, seed=12)
    x[20, 25] = np.nan
    y = sftwave.gaussian_filter(x, 1.0)
    r = int(4.0 + 0.5)
    nan = np.isnan(y)
    assert nan[20 - r:20 + r + 1, 25 - r:25 + r + 1].all() and nan.sum() == (2 * r + 1) ** 2
    clean = x.copy()
    clean[20, 25] = 0.0
    assert np.max(np.abs(y[~nan] - _dense(clean, (1.0, 1.0))[~nan])) <= _bound(clean, (1.0, 1.0))


def test_same_bits_on_any_thread_count_and_blocking(monkeypatch):
    x = _image((150, 130, 3), np.uint8, seed=13)
    v = _image((20, 70, 90), np.float32, seed=14)
    with sftwave.set_workers(1):
        one = [sftwave.gaussian_filter(x, (2.0, 3.0, 0.0)), sftwave.gaussian_filter(v, 2.0)]
    with sftwave.set_workers(2):
        two = [sftwave.gaussian_filter(x, (2.0, 3.0, 0.0)), sftwave.gaussian_filter(v, 2.0)]
    monkeypatch.setattr(fir_rows, "ROW_BLOCK", 7)
    monkeypatch.setattr(fir_rows, "RING_ELEMENTS", 1000)
    with sftwave.set_workers(2):
        other = [sftwave.gaussian_filter(x, (2.0, 3.0, 0.0)), sftwave.gaussian_filter(v, 2.0)]
    for a, b, c in zip(one, two, other):
        assert np.array_equal(a, b) and np.array_equal(a, c)


def _rows_filter(x, sigmas, mode, cval):
    """The kernels of this path (``fir_rows.filter_rows``) with scipy's Gaussian weights along
    every axis with a sigma, into a new array of ``x``'s dtype (never the numba-free sums)."""
    steps = [(ax, fir_rows.half_kernel(_scipy_weights(s)), mode) for ax, s in enumerate(sigmas) if s > 0]
    out = np.empty_like(x)
    assert fir_rows.filter_rows(x, steps, cval, out, cast_into) is out
    return out


@pytest.mark.parametrize("mode", MODES)
def test_rows_in_column_blocks_give_the_whole_rows_bits(monkeypatch, mode):
    """A horizontal pass in column blocks (rows longer than ROW_ELEMENTS) reads each block's
    neighbours (or the extension, at a row's ends: the constant, or pixels at the other end
    for 'wrap') and gives the whole rows' bits: an RGB image and a volume split into blocks of
    48 elements, some not a multiple of the channels, with vertical passes too; a long float32
    line in blocks against the line whole; each within float32 rounding of the dense filter."""
    cases = [(_image((40, 131, 3), np.uint8, seed=21), (2.0, 3.0, 0.0)),
             (_image((6, 30, 250), np.float32, seed=22), (1.5, 1.5, 1.5)),
             (_image((70_000,), np.float32, seed=23), (3.0,))]

    def run():
        return [_rows_filter(x, sigmas, mode, 9.0) for x, sigmas in cases]

    with sftwave.set_workers(2):
        monkeypatch.setattr(fir_rows, "ROW_ELEMENTS", 1 << 30)          # whole rows
        whole = run()
        monkeypatch.setattr(fir_rows, "ROW_ELEMENTS", 48)
        blocks = run()
        monkeypatch.undo()                                             # the default: the line in blocks
        default = run()
    for (x, sigmas), a, b, c in zip(cases, whole, blocks, default):
        assert np.array_equal(a, b) and np.array_equal(a, c)
        if x.dtype == np.float32:
            assert np.max(np.abs(a - _dense(x, sigmas, mode, 9.0))) <= _bound(x, sigmas)


def test_float64_unchanged_bit_for_bit():
    x = _image((60, 70), np.float64)
    assert np.array_equal(sftwave.gaussian_filter(x, 2.0), ndi.gaussian_filter(x, 2.0))


@pytest.mark.parametrize("kw", [dict(method="fir"), dict(radius=6)])
def test_scipys_kernel_asked_for_by_name_keeps_scipys_bits(kw):
    """``method='fir'`` and ``radius=`` promise scipy's numbers (the accuracy guide): those
    calls run scipy's arithmetic (float64), never this float32 path, for float32 images and
    for integer lines (a 2-D integer image differs from scipy's by one unit at most, as before
    this path: scipy rounds to the integer type between its axes, sftwave does not)."""
    ref = {k: v for k, v in kw.items() if k == "radius"}      # scipy's kernel is its FIR
    x = _image((90, 110), np.float32)
    assert np.array_equal(sftwave.gaussian_filter(x, 2.0, **kw), ndi.gaussian_filter(x, 2.0, **ref))
    assert np.array_equal(sftwave.gaussian_filter1d(x, 2.0, axis=0, **kw),
                          ndi.gaussian_filter1d(x, 2.0, axis=0, **ref))
    u = _image((90, 110), np.uint8)
    assert np.array_equal(sftwave.gaussian_filter1d(u, 2.0, **kw), ndi.gaussian_filter1d(u, 2.0, **ref))
    # and 'auto' (no radius) does take this path where the image is above the small calls'
    # limit (below it, scipy's correlate1d runs the taps: sftwave.plans.small): its float32
    # sums differ in the last bits
    big = _image((200, 200), np.float32)
    assert big.size > small.SMALL_FIR_SAMPLES
    assert not np.array_equal(sftwave.gaussian_filter(big, 2.0), ndi.gaussian_filter(big, 2.0))


def test_auto_prefers_this_fir_by_counts():
    """The cost figure by dtype: a uint8 or float32 image's FIR up to about sigma 20 for the
    bank's 7 frequencies; float64, derivatives and single lines keep the engine's figure."""
    assert ENGINE.fir_taps_per_order_for(np.uint8, None, 0) == ROWS_TAPS_PER_ORDER
    assert ENGINE.fir_taps_per_order_for(np.float32, np.float32, 0) == ROWS_TAPS_PER_ORDER
    for args in ((np.float64, None, 0), (np.uint8, np.float64, 0), (np.float32, None, 1),
                 (np.float32, None, 0, 1), (np.int32, None, 0)):
        assert ENGINE.fir_taps_per_order_for(*args) == FIR_TAPS_PER_ORDER
    assert isinstance(select_gaussian(8.0, 0, fir_taps_per_order=ROWS_TAPS_PER_ORDER), FIRPlan)
    assert isinstance(select_gaussian(8.0, 0, fir_taps_per_order=FIR_TAPS_PER_ORDER), SFTPlan)
    assert isinstance(select_gaussian(64.0, 0, fir_taps_per_order=ROWS_TAPS_PER_ORDER), SFTPlan)


def test_pass_layout():
    assert fir_rows.plan_passes((2000, 3000, 3), [0, 1]) == [(0, 1)]
    assert fir_rows.plan_passes((128, 512, 512), [0, 1, 2]) == [(0, None), (1, 2)]
    assert fir_rows.plan_passes((8, 128, 512, 512), [0, 2, 3]) == [(0, None), (2, 3)]
    assert fir_rows.plan_passes((30, 64, 48), [1, 0]) == [(0, None), (1, None)]
    assert fir_rows.plan_passes((512, 512), [0]) == [(0, None)]


def test_only_smoothing_kernels_take_this_path():
    """Single taps, derivatives and kernels with non-positive taps keep the float64 path."""
    assert fir_rows.half_kernel(np.array([3e12])) is None
    assert fir_rows.half_kernel(np.array([1.0, -2.0, 1.0])) is None
    assert fir_rows.half_kernel(np.array([0.2, 0.5, 0.3])) is None
    x = np.array([1, 0, -1, 2], dtype=np.int8)
    assert sftwave.gaussian_filter1d(x, 0.001, order=4).tolist() == [127, 0, -128, 127]
    img = _image((30, 40), np.uint16, seed=15)
    lap = sftwave.gaussian_filter(img, 2.0, order=(2, 0), output=np.float32)
    ref = sftwave.gaussian_filter(img.astype(np.float64), 2.0, order=(2, 0))
    assert np.max(np.abs(lap - ref)) <= 1e-6 * np.max(np.abs(ref))
