"""sftwave.coherence: cross-wavelet spectrum, coherence and its Monte-Carlo significance.

References: tests/naive.py's dense Morlet transform, dense Gaussian and a literal
boxcar loop (``naive_coherence``); pycwt on the same data (its smoothing by
``smoothing='pycwt'``; pycwt's circular FFT wraps the end of the record onto its
start, so that comparison keeps the samples farther than 5 scales from both
ends and the rows whose Fourier period is at least 6 samples, where pycwt's
wavelet, cut at the Nyquist frequency, differs from the sampled Morlet).
"""

from __future__ import annotations

import numpy as np
import pytest
from naive import boxcar_weight, exact_gaussian_filter1d, exact_morlet_transform, naive_coherence
from scipy.signal import lfilter

from sftwave import coherence
from sftwave.coherence import scale_weights, smooth, wct, wct_significance, xwt
from sftwave.plans import coherence as plans_coherence


def _ar1_pair(n, seed=0, a1=0.7, a2=0.5, mix=0.4):
    rng = np.random.default_rng(seed)
    x = lfilter([1.0], [1.0, -a1], rng.standard_normal(n))
    y = lfilter([1.0], [1.0, -a2], rng.standard_normal(n)) + mix * x
    return x, y


# --------------------------------------------------------------------------- direct references


@pytest.mark.parametrize("mode", ["reflect", "constant"])
def test_wct_matches_naive_definition(mode):
    x, y = _ar1_pair(300)
    freqs = np.array([0.31, 0.2, 0.12, 0.1, 0.05, 0.03])        # not log-uniform
    sig = 6.0 / (2 * np.pi * freqs)
    r = wct(x, y, freqs, mode=mode, tol=1e-7)
    r2, cross = naive_coherence(x, y, sig, 6.0, mode=mode)
    # tol=1e-7: the transform's and the Gaussian's relative kernel errors are ~1e-7;
    # R^2 is a ratio of smoothed spectra of O(1) relative conditioning
    np.testing.assert_allclose(r.coherence, r2, atol=1e-5)
    np.testing.assert_allclose(r.cross, cross, atol=1e-5 * np.abs(cross).max())
    np.testing.assert_allclose(r.phase, np.angle(cross), atol=1e-4)


def test_xwt_matches_dense_transform():
    x, y = _ar1_pair(256, seed=3)
    freqs = [0.25, 0.1, 0.04]
    w = xwt(x, y, freqs, mode="constant", tol=1e-7)
    for k, f in enumerate(freqs):
        s = 6.0 / (2 * np.pi * f)
        ref = exact_morlet_transform(x, s, 6.0, "constant") * np.conj(
            exact_morlet_transform(y, s, 6.0, "constant"))
        np.testing.assert_allclose(w[k], ref, atol=1e-5 * np.abs(ref).max())


def test_smooth_matches_dense_gaussian_and_boxcar_loop():
    rng = np.random.default_rng(5)
    freqs = np.geomspace(0.3, 0.02, 9)
    v = rng.standard_normal((2, 9, 200)) + 1j * rng.standard_normal((2, 9, 200))
    sig = 6.0 / (2 * np.pi * freqs)
    got = smooth(v, freqs, mode="nearest", scale_width=0.9)
    u = list(np.log2(sig))
    t = np.array([[exact_gaussian_filter1d(v[c, i], sig[i], mode="nearest") for i in range(9)]
                  for c in range(2)])
    for i in range(9):
        w = np.array([boxcar_weight(u, i, j, 0.9) for j in range(9)])
        ref = np.tensordot(w / w.sum(), t, axes=([0], [1]))
        np.testing.assert_allclose(got[:, i], ref, atol=1e-4)


def test_grinsted_weights_for_uniform_rows():
    # dj = 1/12: the 0.6-octave box covers 7 whole cells and 0.1 of the next on each side
    sig = 2.0 * 2 ** (np.arange(30) / 12)
    B = scale_weights(sig, "grinsted")
    expected = np.r_[0.1, np.ones(7), 0.1] / 7.2
    np.testing.assert_allclose(B[15, 11:20], expected, rtol=1e-12)
    assert np.count_nonzero(B[15]) == 9
    np.testing.assert_allclose(B.sum(axis=1), 1.0)
    # the order of the rows does not matter
    perm = np.random.default_rng(0).permutation(30)
    np.testing.assert_allclose(scale_weights(sig[perm], "grinsted"), B[np.ix_(perm, perm)])


def test_pycwt_weights_are_its_boxcar():
    sig = 2.0 * 2 ** (np.arange(30) / 12)
    B = scale_weights(sig, "pycwt")
    win = np.r_[0.5, np.ones(12), 0.5] / 13.0        # rect(round(1.2 * 12)) normalised
    row = B[15][B[15] != 0]
    np.testing.assert_allclose(row, win)
    with pytest.raises(ValueError, match="uniformly spaced"):
        scale_weights(np.array([2.0, 3.0, 5.0]), "pycwt")


# --------------------------------------------------------------------------- properties


def test_coherence_in_unit_interval_and_one_for_linear_relation():
    x, y = _ar1_pair(1500, seed=2)
    freqs = np.geomspace(0.4, 0.01, 20)
    r = wct(x, y, freqs)
    assert r.coherence.shape == (20, 1500) and r.coi.shape == (1500,)
    assert np.all(r.coherence >= 0) and np.all(r.coherence <= 1 + 1e-12)
    s = wct(x, -3.0 * x + 1.0, freqs)
    np.testing.assert_allclose(s.coherence, 1.0, atol=1e-9)
    np.testing.assert_allclose(np.abs(s.phase), np.pi, atol=1e-6)      # opposite sign


def test_phase_sign_x_leads():
    t = np.arange(3000)
    x = np.sin(2 * np.pi * t / 60)
    y = np.sin(2 * np.pi * (t - 6) / 60)                  # y lags x by 6 samples
    r = wct(x, y, [1 / 60])
    np.testing.assert_allclose(r.phase[0, 500:-500], 2 * np.pi * 6 / 60, atol=1e-3)


def test_channels_broadcast_and_axis():
    x, y = _ar1_pair(400, seed=4)
    xs = np.stack([x, 2 * x + y, y])                       # (3, n) against (n,)
    freqs = [0.2, 0.1, 0.05]
    r = wct(xs, y, freqs)
    assert r.coherence.shape == (3, 3, 400)
    for c in range(3):
        np.testing.assert_allclose(r.coherence[c], wct(xs[c], y, freqs).coherence, atol=1e-12)
    rt = wct(xs.T, y[:, None], freqs, axis=0)               # time first
    np.testing.assert_allclose(rt.coherence, r.coherence, atol=1e-12)
    w = xwt(xs, y, freqs)
    np.testing.assert_allclose(w[1], xwt(xs[1], y, freqs), atol=1e-12)


def test_integer_bool_and_strided_input():
    rng = np.random.default_rng(7)
    xi = rng.integers(-50, 50, 600)
    yi = rng.integers(-50, 50, 600)
    freqs = [0.2, 0.05]
    np.testing.assert_array_equal(wct(xi, yi, freqs).coherence,
                                  wct(xi.astype(float), yi.astype(float), freqs).coherence)
    b = rng.random(600) > 0.5
    np.testing.assert_array_equal(wct(b, yi, freqs).coherence,
                                  wct(b.astype(float), yi.astype(float), freqs).coherence)
    big = rng.standard_normal(1200)
    np.testing.assert_array_equal(wct(big[::2], big[1::2], freqs).coherence,
                                  wct(big[::2].copy(), big[1::2].copy(), freqs).coherence)


def test_nan_propagates_locally():
    x, y = _ar1_pair(2000, seed=8)
    x[1000] = np.nan
    freqs = [0.3, 0.25]                                    # scales ~3-4 samples
    r = wct(x, y, freqs)
    assert np.isnan(r.coherence[:, 1000]).all()
    assert np.isfinite(r.coherence[:, :800]).all() and np.isfinite(r.coherence[:, 1200:]).all()


def test_bad_input():
    x = np.zeros(100)
    with pytest.raises(ValueError, match="same length"):
        wct(x, np.zeros(99), [0.1])
    with pytest.raises(ValueError, match="broadcast"):
        wct(np.zeros((2, 100)), np.zeros((3, 100)), [0.1])
    with pytest.raises(TypeError, match="y must be real"):
        xwt(x, x + 0j, [0.1])
    with pytest.raises(ValueError, match="smoothing"):
        wct(x, x, [0.1], smoothing="box")
    with pytest.raises(ValueError, match="xi must be one number"):
        wct(x, x, [0.1, 0.2], xi=[6.0, 7.0])
    with pytest.raises(ValueError, match="freqs"):
        wct(x, x, [0.6])
    with pytest.raises(ValueError, match="freqs"):
        wct(x, x, [np.nan])
    with pytest.raises(ValueError, match="scale_width"):
        wct(x, x, [0.1], scale_width=0.0)
    with pytest.raises(ValueError, match="axis"):
        wct(x, x, [0.1], axis=2)
    with pytest.raises(ValueError, match="values"):
        smooth(np.zeros((3, 10)), [0.1, 0.2])
    with pytest.raises(ValueError, match="alpha_x"):
        wct_significance(1.0, 0.5, [0.1])
    with pytest.raises(ValueError, match="level"):
        wct_significance(0.5, 0.5, [0.1], level=1.5)
    with pytest.raises(ValueError, match="mc_count"):
        wct_significance(0.5, 0.5, [0.1], mc_count=0)
    with pytest.raises(TypeError, match="mc_count"):
        wct_significance(0.5, 0.5, [0.1], mc_count=2.5)
    with pytest.raises(ValueError, match="n must be"):
        wct_significance(0.5, 0.5, [0.1], n=1 << 30)
    with pytest.raises(ValueError, match="mode"):
        wct_significance(0.5, 0.5, [0.1], mode="bogus")


# --------------------------------------------------------------------------- significance


def _sig_args():
    freqs = 6.0 / (2 * np.pi * 2.0 * 2 ** (np.arange(13) / 4))     # scales 2 .. 16 samples
    return dict(alpha_x=0.6, alpha_y=0.3, freqs=freqs, mc_count=12, cache=False)


def test_significance_is_seeded_and_batch_independent(monkeypatch):
    a = wct_significance(**_sig_args(), seed=3)
    b = wct_significance(**_sig_args(), seed=3)
    np.testing.assert_array_equal(a, b)
    c = wct_significance(**_sig_args(), seed=4)
    assert not np.array_equal(a, c)
    monkeypatch.setattr(coherence, "_MC_BATCH_VALUES", 1)       # one draw per batch
    np.testing.assert_array_equal(wct_significance(**_sig_args(), seed=3), a)
    assert np.all((a > 0) & (a < 1))


def test_significance_cache_on_disk(tmp_path, monkeypatch):
    monkeypatch.setenv("SFTWAVE_CACHE_DIR", str(tmp_path))
    args = {**_sig_args(), "cache": True}
    first = wct_significance(**args, seed=1)
    files = [p for p in tmp_path.rglob("*") if p.is_file() and "wct_significance" in str(p)]
    assert len(files) == 1
    np.testing.assert_array_equal(wct_significance(**args, seed=1), first)
    # another level reads the same histogram; the uncached call agrees
    np.testing.assert_array_equal(wct_significance(**{**args, "cache": False}, seed=1), first)
    lower = wct_significance(**args, seed=1, level=0.5)
    assert np.all(lower < first)
    assert len([p for p in tmp_path.rglob("*") if p.is_file()
                and "wct_significance" in str(p)]) == 1


def test_significance_against_quantile_of_direct_draws():
    # the histogram's quantile against the exact quantile of the same draws' R^2 at the
    # samples it counts: outside the cone, every h-th sample (h the largest stride among
    # the rows a row's boxcar averages)
    from sftwave.engines.numba.coherence import _band
    args = _sig_args()
    f = args["freqs"]
    sig = 6.0 / (2 * np.pi * f)
    n = int(np.ceil(6 * sig.max()))
    got = wct_significance(**args, seed=9)
    rng = np.random.default_rng(9)
    noise = coherence._surrogates(rng, args["mc_count"], n, (0.6, 0.3))
    r = wct(noise[0], noise[1], f, mode="constant").coherence          # (count, m, n)
    keep = plans_coherence.outside_coi(sig, n)
    stride = coherence.mc_strides(sig, n, "constant")
    jlo, jhi, _ = _band(scale_weights(sig, "grinsted"))
    assert stride.max() > 1                                  # some rows are strided
    for i in range(f.size):
        h = stride[jlo[i]:jhi[i]].max()
        vals = r[:, i, keep[i] & (np.arange(n) % h == 0)].ravel()
        # pycwt's quantile interpolates the cumulative counts less one half (Hazen's
        # definition) between the bins (1e-3): within a bin or so of the exact one; the
        # strided rows' R^2 is within some 1e-4 of the full-rate one
        assert abs(np.quantile(vals, 0.95, method="hazen") - got[i]) < 3e-3


def test_strided_levels_within_monte_carlo_error_of_full_rate(monkeypatch):
    """The levels with strided rows against the full-rate computation of the same draws.

    The contract: their difference is within the levels' Monte-Carlo error, here the
    spread of the full-rate levels over four seeds (measured: at most 0.27 of it).
    """
    freqs = 6.0 / (2 * np.pi * 2.0 * 2 ** (np.arange(61) / 12))     # scales 2 .. 64 samples
    kw = dict(alpha_x=0.6, alpha_y=0.3, freqs=freqs, mc_count=40, cache=False)
    strided = np.array([wct_significance(**kw, seed=s) for s in range(4)])
    monkeypatch.setattr(coherence, "mc_strides",
                        lambda sig, n, mode: np.ones(sig.size, dtype=np.int64))
    full = np.array([wct_significance(**kw, seed=s) for s in range(4)])
    assert not np.array_equal(strided, full)
    error = full.std(axis=0, ddof=1)
    assert np.all(np.abs(strided - full) < error)


def test_significance_same_on_any_thread_count():
    import sftwave
    with sftwave.set_workers(1):
        a = wct_significance(**_sig_args(), seed=5)
    with sftwave.set_workers(2):
        b = wct_significance(**_sig_args(), seed=5)
    np.testing.assert_array_equal(a, b)


def test_strided_row_weights_sum_polynomials_exactly():
    """The kept samples' weights give the full-rate sum over the record of any cubic."""
    rng = np.random.default_rng(2)
    for n, c in [(100, 4), (101, 4), (97, 8), (1000, 16), (1001, 16), (119_894, 1024), (50, 1)]:
        w = coherence.mc_weights(n, c)
        K = coherence.mc_nodes(n, c)
        assert w.size == K and (K - 1) * c >= n - 1 > (K - 2) * c
        np.testing.assert_array_equal(w[4:-4], 1.0)                 # corrections at the ends only
        t = np.arange(n)
        for degree in range(4):
            q = np.polynomial.Polynomial(rng.standard_normal(degree + 1), domain=[0, n], window=[-1, 1])
            exact = q(t).sum()
            np.testing.assert_allclose(c * np.sum(w * q(np.arange(K) * c)), exact,
                                       rtol=1e-12, atol=1e-12 * np.abs(q(t)).sum())
        # a quartic is not summed exactly (the weights are of degree 3, not more)
        if 1 < c and n < 2000:
            q = np.polynomial.Polynomial([0, 0, 0, 0, 1.0], domain=[0, 4 * c], window=[0, 1])
            assert abs(c * np.sum(w * q(np.arange(K) * c)) - q(t).sum()) > 1e-9 * q(t).sum()


def test_folded_transforms_are_the_exact_transform_at_the_kept_samples():
    """The band-only FFT at every c-th sample against the dense transform of the zero-padded signal."""
    from sftwave.engines.numba import coherence as kernels
    rng = np.random.default_rng(4)
    n = 700
    x = rng.standard_normal((3, n))
    sig = np.array([9.0, 13.5, 40.0, 150.0])                # down to the smallest strided scale
    for c in (2, 4, 8):
        K = coherence.mc_nodes(n, c)
        plan = kernels.fold_plan(sig, 6.0, c, K)
        assert np.all(plan.M % c == 0) and np.all(plan.width < plan.M)
        y = kernels.folded_transforms(x, plan, {})
        padded = np.concatenate([x, np.zeros((3, (K - 1) * c + 1 - n))], axis=1)
        for i, s in enumerate(sig):
            for ln in range(3):
                ref = exact_morlet_transform(padded[ln], s, 6.0, "constant")[::c]
                np.testing.assert_allclose(y[i, ln], ref, rtol=0, atol=1e-12 * np.abs(ref).max())


def test_significance_rows_at_strides_match_full_rate():
    # rows of scale s >= 8 samples run every c-th sample, c = 2^floor(log2(s / 4)):
    # their smoothed spectra at the kept samples against the full-rate computation
    n = 3001
    sig = 2.0 * 2 ** (np.arange(0, 90) / 12)               # 2 .. 350 samples: strides 1 .. 64
    f = 6.0 / (2 * np.pi * sig)
    noise = coherence._surrogates(np.random.default_rng(0), 2, n, (0.6, 0.3))
    stride = coherence.mc_strides(sig, n, "constant")
    assert stride.max() == 64 and stride.min() == 1
    assert np.all(stride <= np.maximum(sig / 4, 1))
    dec, off, length = coherence._decimated_spectra(noise, f, sig, 1.0, 6.0, "constant", stride)
    full, off1, _ = coherence._decimated_spectra(noise, f, sig, 1.0, 6.0, "constant",
                                                 np.ones_like(stride))
    tlo, thi = plans_coherence.coi_bounds(sig, n)
    for j in range(sig.size):
        c = stride[j]
        a = dec[off[j]:off[j] + 8 * length[j]].reshape(4, 2, length[j])
        b = full[off1[j]:off1[j] + 8 * n].reshape(4, 2, n)[:, :, ::c]
        t = np.arange(length[j]) * c
        keep = (t >= tlo[j]) & (t < thi[j])
        # inside the record the trapezoid rule's error is some exp(-6.6 (s / c)^2): nothing;
        # the end weights (exact for cubics) leave ~4e-5 of the row's power at the cone's
        # edge (measured), on top of the two Gaussians' own tol
        np.testing.assert_allclose(a[:, :, keep], b[:, :, keep[:b.shape[-1]]], rtol=0,
                                   atol=1.5e-4 * np.abs(b[:2]).max())
    assert np.array_equal(coherence.mc_strides(sig, n, "reflect"), np.ones_like(stride))
    # a short record keeps at least 16 samples a row
    assert np.all(-(-200 // coherence.mc_strides(sig, 200, "constant")) >= 13)
