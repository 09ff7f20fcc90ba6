"""sftwave.coherence.wct_pairs: the coherence of many pairs of channels, each transformed once.

Reference: :func:`sftwave.coherence.wct` of each pair (itself checked against
tests/naive.py's dense definition in tests/test_coherence.py).  The pairs'
spectra are the same sums of the same products as wct's; only the batching of
the transforms and of the Gaussian over lines differs, which moves the last
bits (a few 1e-12 here), so the tolerance is 1e-9 on ``R^2`` (in ``[0, 1]``),
relative 1e-9 on the cross-spectrum and 1e-9 rad on the phase (compared
modulo ``2 pi``: a cross-spectrum on the negative real axis may take either
sign of ``pi``).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.signal import lfilter

from sftwave import coherence
from sftwave.coherence import wct, wct_pairs, wct_significance
from sftwave.engines.numba import coherence as kernels
from sftwave.plans import coherence as plans_coherence

ATOL = 1e-9


def _channels(c, n, seed=0):
    rng = np.random.default_rng(seed)
    x = lfilter([1.0], [1.0, -0.6], rng.standard_normal((c, n)), axis=-1)
    x[1:] += 0.5 * x[:1]                   # a common part: coherence well above chance
    return x


def _sinusoids(c, n, seed=1):
    rng = np.random.default_rng(seed)
    t = np.arange(n)
    return np.stack([np.sin(2 * np.pi * t / 40 + 0.7 * k) + 0.3 * rng.standard_normal(n)
                     for k in range(c)])


def _assert_pair(r, p, ref):
    np.testing.assert_allclose(r.coherence[p], ref.coherence, rtol=0, atol=ATOL)
    if r.cross is not None:
        scale = np.nanmax(np.abs(ref.cross))
        np.testing.assert_allclose(r.cross[p], ref.cross, rtol=0, atol=ATOL * scale)
    d = np.angle(np.exp(1j * (r.phase[p] - ref.phase)))
    assert np.nanmax(np.abs(d)) < ATOL
    assert np.array_equal(np.isnan(r.coherence[p]), np.isnan(ref.coherence))


@pytest.mark.parametrize("c", [2, 3, 6])
@pytest.mark.parametrize("make", [_channels, _sinusoids])
def test_every_pair_equals_wct(c, make):
    x = make(c, 1500)
    freqs = np.array([0.3, 0.1, 0.05, 0.025, 0.0125])
    r = wct_pairs(x, freqs, return_cross=True)
    s, t = np.tril_indices(c, -1)
    assert r.seeds.tolist() == s.tolist() and r.targets.tolist() == t.tolist()
    assert r.coherence.shape == r.phase.shape == r.cross.shape == (s.size, freqs.size, 1500)
    assert r.significance is None
    without = wct_pairs(x, freqs)
    assert without.cross is None
    np.testing.assert_array_equal(without.coherence, r.coherence)
    np.testing.assert_array_equal(without.phase, r.phase)
    for p, (i, j) in enumerate(zip(s, t)):
        _assert_pair(r, p, wct(x[i], x[j], freqs))
    np.testing.assert_array_equal(r.coi, wct(x[0], x[1], freqs).coi)


def test_sinusoid_coupled_channels_are_coherent_at_their_frequency():
    r = wct_pairs(_sinusoids(4, 3000), [1 / 40, 1 / 7])
    inside = slice(500, 2500)
    assert np.median(r.coherence[:, 0, inside]) > 0.9          # the shared 1/40
    # the first pair is (seed 1, target 0): channel 1's sinusoid is 0.7 rad ahead of
    # channel 0's, and the seed leading gives a positive phase
    assert (r.seeds[0], r.targets[0]) == (1, 0)
    assert abs(np.median(r.phase[0, 0, inside]) - 0.7) < 0.05


@pytest.mark.parametrize("options", [
    dict(mode="constant", smoothing="pycwt"),
    dict(mode="wrap", scale_width=1.0, fs=100.0),
    dict(xi=8.0, tol=1e-7),
])
def test_options_as_wct(options):
    x = _channels(3, 800, seed=4)
    fs = options.get("fs", 1.0)
    freqs = fs * np.geomspace(0.2, 0.02, 7)
    r = wct_pairs(x, freqs, return_cross=True, **options)
    for p, (i, j) in enumerate(zip(r.seeds, r.targets)):
        _assert_pair(r, p, wct(x[i], x[j], freqs, **options))


def test_indices_select_pairs_in_their_order():
    x = _channels(5, 700)
    freqs = [0.1, 0.03]
    seeds, targets = [4, 0, 2, 3], [1, 3, 2, 0]              # any order, a self pair, i > j
    r = wct_pairs(x, freqs, indices=(seeds, targets))
    assert r.seeds.tolist() == seeds and r.targets.tolist() == targets
    for p, (i, j) in enumerate(zip(seeds, targets)):
        _assert_pair(r, p, wct(x[i], x[j], freqs))
    np.testing.assert_allclose(r.coherence[2], 1.0, atol=1e-12)        # a channel with itself
    full = wct_pairs(x, freqs)
    np.testing.assert_array_equal(
        wct_pairs(x, freqs, indices=(np.array([0, 1]), np.array([3, 4]))).coherence,
        full.coherence[[3, 7]])                        # the default's (3, 0) and (4, 1)


def test_leading_axes_and_time_axis():
    x = np.stack([_channels(3, 600, seed=s) for s in range(2)])       # (epochs, channels, n)
    freqs = [0.12, 0.04]
    r = wct_pairs(x, freqs)
    assert r.coherence.shape == (2, 3, 2, 600)
    for e in range(2):
        for p, (i, j) in enumerate(zip(r.seeds, r.targets)):
            _assert_pair(r._replace(coherence=r.coherence[e], phase=r.phase[e]), p,
                         wct(x[e, i], x[e, j], freqs))
    r_t = wct_pairs(np.moveaxis(x, -1, 0), freqs, axis=0)          # (n, epochs, channels)
    np.testing.assert_allclose(r_t.coherence, r.coherence, rtol=0, atol=1e-12)


def test_chunks_do_not_change_the_result(monkeypatch):
    x = _channels(4, 500)
    freqs = [0.2, 0.1, 0.05]
    whole = wct_pairs(x, freqs)
    chunks = plans_coherence.pair_chunks
    monkeypatch.setattr(coherence, "pair_chunks",
                        lambda q, m, n: chunks(q, m, n, budget=2 * m * n * 2))   # 2 pairs each
    assert len(chunks(6, 3, 500, budget=2 * 3 * 500 * 2)) == 3
    parts = wct_pairs(x, freqs)
    np.testing.assert_allclose(parts.coherence, whole.coherence, rtol=0, atol=1e-13)


def test_integer_and_strided_input():
    rng = np.random.default_rng(3)
    xi = rng.integers(-50, 50, size=(3, 1200))
    freqs = [0.2, 0.05]
    r = wct_pairs(xi, freqs)
    _assert_pair(r, 1, wct(xi[2], xi[0], freqs))              # pairs (1,0) (2,0) (2,1)
    xs = _channels(3, 2400)[:, ::2]                           # a strided view
    _assert_pair(wct_pairs(xs, freqs), 2, wct(xs[2], xs[1], freqs))


def test_nan_reaches_only_the_pairs_of_its_channel():
    x = _channels(4, 1200)
    x[1, 600] = np.nan
    freqs = [0.2, 0.05]
    r = wct_pairs(x, freqs)
    for p, (i, j) in enumerate(zip(r.seeds, r.targets)):
        ref = wct(x[i], x[j], freqs)
        _assert_pair(r, p, ref)
        assert np.isnan(r.coherence[p]).any() == (1 in (i, j))
    assert np.isnan(r.coherence[0, :, 600]).all()


def test_zero_channel_gives_nan_as_wct():
    x = _channels(3, 400)
    x[2] = 0.0
    r = wct_pairs(x, [0.1])
    _assert_pair(r, 1, wct(x[0], x[2], [0.1]))
    assert np.isnan(r.coherence[1]).all() and np.all(r.phase[1] == 0.0)


@pytest.mark.parametrize("kwargs, match", [
    (dict(indices=([0, 1], [2])), "indices' seeds and targets must be of one length"),
    (dict(indices=([0], [3])), r"indices must name channels in \[0, 3\)"),
    (dict(indices=([-1], [0])), r"indices must name channels in \[0, 3\)"),
    (dict(indices=([0.5], [1])), "indices must be a pair of non-empty 1-D integer"),
    (dict(indices=[0, 1]), "indices must be a pair of non-empty 1-D integer"),
    (dict(indices=([], [])), "indices must be a pair of non-empty 1-D integer"),
    (dict(indices=(0, 1, 2)), r"indices must be a pair \(seeds, targets\)"),
    (dict(ar1_decimals=0), r"ar1_decimals must be in \[1, 6\]; got 0"),
    (dict(level=1.5), r"level must be in \(0, 1\); got 1.5"),
    (dict(mc_count=0), r"mc_count must be in \[1, "),
    (dict(seed=-1), "seed must be a non-negative integer; got -1"),
    (dict(smoothing="box"), "smoothing must be one of"),
    (dict(axis=3), "axis 3 is out of bounds for x of 2 dimensions"),
])
def test_bad_arguments_name_the_parameter(kwargs, match):
    x = _channels(3, 200)
    with pytest.raises(ValueError, match=match):
        wct_pairs(x, [0.1], **kwargs)


@pytest.mark.parametrize("x, kwargs, exc, match", [
    (np.zeros(100), {}, ValueError, "x must have a channel axis and a time axis"),
    (np.zeros((1, 100)), {}, ValueError, "x must have at least 2 channels for indices=None; got 1"),
    (np.zeros((2, 100), complex), {}, TypeError, "x must be real"),
    (np.zeros((2, 100)), dict(significance="yes"), TypeError, "significance must be True or False"),
    (np.zeros((2, 100)), dict(ar1_decimals=2.0), TypeError, "ar1_decimals must be an integer"),
    (np.zeros((2, 100)), dict(return_cross=None), TypeError, "return_cross must be True or False"),
    (np.zeros((2, 100)), dict(axis=1.0), TypeError, "axis must be an integer"),
])
def test_bad_input_names_it(x, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        wct_pairs(x, [0.1], **kwargs)


def test_significance_once_per_rounded_ar1_pair(monkeypatch):
    rng = np.random.default_rng(7)
    n = 4000
    base = [lfilter([1.0], [1.0, -a], rng.standard_normal(n)) for a in (0.3, 0.8)]
    x = np.stack([base[0], base[0] * 2.0, base[1], base[1] + 1.0])  # AR(1): a, a, b, b
    freqs = np.geomspace(0.2, 0.05, 4)
    calls = []

    def counted(*args, **kwargs):
        calls.append(args[:2])
        return wct_significance(*args, **kwargs)

    monkeypatch.setattr(coherence, "wct_significance", counted)
    r = wct_pairs(x, freqs, significance=True, mc_count=6, cache=False)
    # pairs (1,0) (2,0) (2,1) (3,0) (3,1) (3,2): the AR(1) pairs (a,a) (b,a) (b,a) (b,a) (b,a) (b,b)
    assert len(calls) == 3 and len(set(calls)) == 3
    assert r.significance.shape == (6, 4)
    for p in (2, 3, 4):
        np.testing.assert_array_equal(r.significance[p], r.significance[1])
    from sftwave.analysis import ar1
    a = round(ar1(base[0])[0], 2)
    b = round(ar1(base[1])[0], 2)
    expect = wct_significance(b, a, freqs, mc_count=6, cache=False)
    np.testing.assert_array_equal(r.significance[1], expect)
    assert np.all((r.significance > 0) & (r.significance < 1))


def test_significance_nan_where_a_channel_has_no_ar1():
    x = _channels(3, 2000)
    x[2, 10] = np.nan
    r = wct_pairs(x, [0.2, 0.1], significance=True, mc_count=4, cache=False)
    assert np.isfinite(r.significance[0]).all()
    assert np.isnan(r.significance[1:]).all()


def test_pair_groups_round_and_clip():
    g = plans_coherence.ar1_groups(np.array([0.999, 0.3, np.nan]), np.array([0.2, 0.2, 0.2]), 2)
    assert {k: v.tolist() for k, v in g.items()} == {(0.99, 0.2): [0], (0.3, 0.2): [1]}


def test_kernel_phase_is_numpys_angle():
    # the branch-free arctangent against numpy's, over every quadrant and the special values
    rng = np.random.default_rng(0)
    n = 4000
    re = rng.standard_normal(n) * 10.0 ** rng.integers(-200, 200, n)
    im = rng.standard_normal(n) * 10.0 ** rng.integers(-200, 200, n)
    re[:12] = [0, 0, 1, -1, 0, 0, 2.5, -2.5, np.nan, 1, 3.0, -3.0]
    im[:12] = [0, 1, 0, 0, -1, np.nan, 2.5, 2.5, 1, np.inf, -3.0, -3.0]
    S = np.stack([re, im])[None, :, None, :]                 # (m=1, 2, q=1, n)
    P = np.ones((1, 2, n))
    r2, phase = np.empty((1, 1, n)), np.empty((1, 1, n))
    cross = np.empty((1, 1, n), complex)
    kernels.pair_combine(S, P, np.array([0]), np.array([1]), np.eye(1), 0, r2, phase, cross)
    ref = np.arctan2(im, re)                                  # numpy.angle's
    ok = np.isfinite(ref)
    assert np.array_equal(np.isnan(phase[0, 0]), np.isnan(ref))
    # within 2 ulp of numpy's
    assert np.all(np.abs(phase[0, 0, ok] - ref[ok]) <= 2 * np.spacing(np.abs(ref[ok]) + 1e-300))


# --------------------------------------------------------------------------- dask


@pytest.mark.parametrize("chunk", [1, 2, 5])
def test_dask_equals_in_memory_by_chunks_of_pairs(chunk):
    da = pytest.importorskip("dask.array")
    import dask

    import sftwave.dask as sd
    x = _channels(5, 900)
    x[3, 450] = np.nan
    freqs = [0.2, 0.07, 0.02]
    r = sd.wct_pairs(da.from_array(x, chunks=(chunk, 900)), freqs, return_cross=True)
    ref = wct_pairs(x, freqs, return_cross=True)
    if chunk < 5:
        assert r.coherence.numblocks[0] > 1
    c, p, cr = dask.compute(r.coherence, r.phase, r.cross)
    np.testing.assert_allclose(c, ref.coherence, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(np.isnan(c), np.isnan(ref.coherence))
    np.testing.assert_allclose(cr, ref.cross, rtol=0, atol=1e-12 * np.nanmax(np.abs(ref.cross)))
    assert np.nanmax(np.abs(np.angle(np.exp(1j * (p - ref.phase))))) < 1e-12
    assert r.seeds.tolist() == ref.seeds.tolist() and r.significance is None


def test_dask_indices_epochs_axis_and_significance():
    da = pytest.importorskip("dask.array")
    import dask

    import sftwave.dask as sd
    x = np.stack([_channels(4, 2000, seed=s) for s in range(2)])          # (2, 4, 2000)
    xt = np.moveaxis(x, -1, 0)                                           # time first
    kw = dict(indices=([3, 0, 1], [1, 2, 1]), significance=True, mc_count=4, cache=False)
    r = sd.wct_pairs(da.from_array(xt, chunks=(2000, 1, 2)), [0.1, 0.3], axis=0, **kw)
    ref = wct_pairs(x, [0.1, 0.3], **kw)
    assert r.coherence.shape == ref.coherence.shape == (2, 3, 2, 2000)
    c, s = dask.compute(r.coherence, r.significance)
    np.testing.assert_allclose(c, ref.coherence, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(s, ref.significance)
    assert r.cross is None


def test_dask_bad_arguments_name_them():
    da = pytest.importorskip("dask.array")
    import sftwave.dask as sd
    with pytest.raises(TypeError, match="x must be real"):
        sd.wct_pairs(da.zeros((3, 100), dtype=complex), [0.1])
    with pytest.raises(ValueError, match="x must have a channel axis and a time axis"):
        sd.wct_pairs(da.zeros(100), [0.1])
    with pytest.raises(ValueError, match=r"indices must name channels in \[0, 3\)"):
        sd.wct_pairs(da.zeros((3, 100)), [0.1], indices=([0], [5]))
    with pytest.raises(ValueError, match="level must be in"):
        sd.wct_pairs(da.zeros((3, 100)), [0.1], level=2.0)


def test_default_order_is_mne_connectivitys_and_swapping_negates_the_phase():
    # mne-connectivity's indices=None is numpy.tril_indices(n, -1) (seed > target); the
    # upper triangle names the same pairs swapped: the same coherence, the phase negated
    x = _channels(4, 800)
    freqs = [0.1, 0.03]
    r = wct_pairs(x, freqs)
    s, t = np.tril_indices(4, -1)
    assert r.seeds.tolist() == s.tolist() and r.targets.tolist() == t.tolist()
    up = wct_pairs(x, freqs, indices=np.triu_indices(4, 1))
    for q, (i, j) in enumerate(zip(up.seeds, up.targets)):
        p = int(np.flatnonzero((r.seeds == j) & (r.targets == i))[0])
        np.testing.assert_allclose(up.coherence[q], r.coherence[p], rtol=0, atol=1e-12)
        d = np.angle(np.exp(1j * (up.phase[q] + r.phase[p])))
        assert np.max(np.abs(d)) < 1e-9


# Rows whose Gaussian is far wider than the record: the filter's exact limit, which
# wct_pairs computes as the polynomial through a few nodes (sftwave._wide_rows).
_WIDE_FREQS = 6.0 / (2 * np.pi * np.geomspace(3.0, 4000.0, 9))        # scales 3 .. 4000 samples


@pytest.mark.parametrize("mode", ["reflect", "constant", "nearest", "mirror", "wrap"])
def test_wide_rows_equal_wct(mode):
    from sftwave._wide_rows import wide_smoothers
    x = _channels(3, 700, seed=5)
    req = coherence.wct_request(_WIDE_FREQS, fs=1.0, xi=6.0, smoothing="grinsted",
                                scale_width=coherence.DELTAJ0, axis=-1, mode=mode, cval=0.0,
                                tol=None, workers=None, nan_policy="propagate", engine="numba")
    assert len(wide_smoothers(req.sigmas, 700, req.mode, None, "numba")) >= 2   # the path runs
    r = wct_pairs(x, _WIDE_FREQS, mode=mode, return_cross=True)
    for p, (i, j) in enumerate(zip(r.seeds, r.targets)):
        _assert_pair(r, p, wct(x[i], x[j], _WIDE_FREQS, mode=mode))


def test_wide_rows_nan_as_wct():
    x = _channels(3, 700, seed=6)
    x[2, 50] = np.nan
    r = wct_pairs(x, _WIDE_FREQS, return_cross=True)
    for p, (i, j) in enumerate(zip(r.seeds, r.targets)):
        _assert_pair(r, p, wct(x[i], x[j], _WIDE_FREQS))
    # a wide row: NaN throughout for the pairs of channel 2, as the FFT's convolution
    assert np.isnan(r.coherence[1:, -2]).all() and not np.isnan(r.coherence[0, -2]).any()


@pytest.mark.parametrize("mode", ["reflect", "constant", "nearest", "mirror", "wrap"])
def test_wide_smoothers_are_the_filter(mode):
    # The interpolated smoothing against the filter itself on lines it was not probed
    # with: a step, an impulse near an end, noise; the error bound is the probes' (1e-14 of
    # the kernel's largest value times the line's sum of absolute values), with a factor 10
    # margin.
    from sftwave._wide_rows import wide_smoothers
    from sftwave.ndimage import gaussian_filter1d
    n = 900
    sigmas = np.array([2.0, 40.0, 3000.0, 60000.0])
    ops = wide_smoothers(sigmas, n, mode, None, None)
    assert sorted(ops) == [2, 3]                         # only the rows in the exact limit
    lines = np.zeros((3, n))
    lines[0, n // 3:] = 1.0
    lines[1, 3] = 1.0
    lines[2] = np.random.default_rng(9).standard_normal(n)
    for i, (R, Q) in ops.items():
        ref = gaussian_filter1d(lines, float(sigmas[i]), mode=mode)
        got = lines.copy()
        kernels.interpolated_rows(got, R, Q)
        units = np.eye(n)[[0, n // 2, n - 1]]           # the kernel's largest value
        peak = np.max(np.abs(gaussian_filter1d(units, float(sigmas[i]), mode=mode)))
        bound = 1e-13 * peak * np.abs(lines).sum(axis=1)
        assert np.all(np.max(np.abs(got - ref), axis=1) <= bound)


def test_interpolation_rows_reproduce_polynomials():
    n = 1000
    nodes = plans_coherence.wide_nodes(n, 24)
    assert nodes.size == 24 and nodes.min() >= 1 and nodes.max() <= n - 2
    Q = plans_coherence.interpolation_rows(n, nodes)
    u = np.linspace(-1.0, 1.0, n)
    for degree in (0, 5, 23):                        # exact up to the nodes' count minus one
        p = np.polynomial.chebyshev.Chebyshev.basis(degree)(u)
        np.testing.assert_allclose(p[nodes] @ Q, p, rtol=0, atol=1e-12)
    p = np.polynomial.chebyshev.Chebyshev.basis(24)(u)      # one degree more: not reproduced
    assert np.max(np.abs(p[nodes] @ Q - p)) > 1e-3


def test_wide_rows_same_bits_on_any_thread_count():
    threadpoolctl = pytest.importorskip("threadpoolctl")
    x = _channels(4, 700, seed=7)
    runs = []
    for blas, workers in [(1, 1), (2, 2), (3, 1)]:
        with threadpoolctl.threadpool_limits(limits=blas, user_api="blas"):
            runs.append(wct_pairs(x, _WIDE_FREQS, workers=workers, return_cross=True))
    for r in runs[1:]:
        np.testing.assert_array_equal(r.cross, runs[0].cross)
        np.testing.assert_array_equal(r.coherence, runs[0].coherence)
