"""sftwave.synchrosqueeze: against the definition (tests/naive.py), ssqueezepy, and its own invariances."""

from __future__ import annotations

import math
import os
import tempfile

import numpy as np
import pytest
from naive import exact_morlet_derivative, naive_ssq_cwt, rel_rmse

from sftwave.plans import select_morlet
from sftwave.plans.derivative import derivative_plan, morlet_derivative
from sftwave.plans.fit import plan_kernel
from sftwave.synchrosqueeze import finite_difference, squeeze_frequencies, ssq_cwt

N = 1200


def _signal(n: int = N, seed: int = 1) -> np.ndarray:
    t = np.arange(n)
    rng = np.random.default_rng(seed)
    return np.cos(2 * np.pi * (0.03 * t + 0.08 * t**2 / (2 * n))) + 0.3 * rng.standard_normal(n)


FREQS = np.geomspace(0.02, 0.3, 40)


# ----------------------------------------------------------------------------- the derivative


# the pairs whose wavelet's band (xi + 4) / sigma stays below Nyquist (beyond, the sampled psi'
# aliases and the comparison has no meaning)
BELOW_NYQUIST = [(sigma, xi) for sigma in (3.0, 12.0, 80.0, 700.0) for xi in (4.0, 6.0, 10.0)
                 if (xi + 4.0) / sigma <= 2.9]


@pytest.mark.parametrize("sigma,xi", BELOW_NYQUIST)
def test_derivative_plan_kernel_against_exact(sigma, xi):
    # the derivative of the plan's kernel against psi' on the window: within a few times the plan's
    # own error (the fit's error, differentiated: its components lie near the carrier)
    tol = 1e-6
    plan = select_morlet(sigma, xi, tol, fir_taps_per_order=2.75)
    d = derivative_plan(plan, sigma, xi)
    if hasattr(d, "omegas"):
        k, h = plan_kernel(d)
    else:
        r = d.radius
        k, h = np.arange(-r, r + 1.0), d.kernel
    R = int(13 * sigma + 10)
    kk = np.arange(-R, R + 1.0)
    full = np.zeros(kk.size, complex)
    full[np.searchsorted(kk, k)] = h
    ref = exact_morlet_derivative(sigma, xi, kk)
    assert rel_rmse(full, ref) < 5 * tol


def test_morlet_derivative_is_the_naive_one():
    k = np.arange(-50, 51.0)
    assert np.allclose(morlet_derivative(9.0, 5.0, k), exact_morlet_derivative(9.0, 5.0, k),
                       rtol=1e-13, atol=1e-16)


def test_finite_difference_orders():
    w = 0.2
    W = np.exp(1j * w * np.arange(40))[None, :] * np.array([[1.0], [2.0 - 1j]])
    d = finite_difference(W)
    # sixth order inside: |e| <= w^6 / 140 (here 4.6e-7)
    assert np.allclose(d[:, 3:-3], 1j * w * W[:, 3:-3], rtol=w**6 / 140 * 1.01, atol=0)
    # lower orders near the ends: second-order errors (w^2 / 6 and w^2 / 3)
    assert np.allclose(d, 1j * w * W, rtol=w**2 / 2, atol=0)
    assert finite_difference(np.ones(1, complex)).tolist() == [0j]


# ----------------------------------------------------------------------------- the definition


@pytest.mark.parametrize("fft", [False, True])
def test_against_naive_tight_tol(fft):
    # at tol 1e-8 the plans' frequencies are within ~1e-8 of the exact ones: the same bins for
    # every coefficient but those within 1e-8 of a bin edge (none here); the sum to rounding
    x = _signal()
    T, W = ssq_cwt(x, FREQS, tol=1e-8, fft=fft, gamma=1e-6, return_cwt=True)
    Tn, Wn = naive_ssq_cwt(x, FREQS, 1.0, 6.0, FREQS, True, 1e-6)
    assert rel_rmse(W, Wn) < 1e-8
    assert rel_rmse(T, Tn) < 1e-8


@pytest.mark.parametrize("fft", [False, True])
def test_against_naive_default_tol(fft):
    # at the default tol (1e-4) some coefficients near a bin edge move to the neighbouring bin:
    # measured 0.4 % (bank) and 0.6 % (FFT scales by differences) of the energy; every column's
    # sum over the bins (the reconstruction) stays within about 1e-3
    x = _signal()
    T = ssq_cwt(x, FREQS, fft=fft, gamma=1e-6)
    Tn, _ = naive_ssq_cwt(x, FREQS, 1.0, 6.0, FREQS, True, 1e-6)
    assert rel_rmse(T, Tn) < 0.02
    assert rel_rmse(T.sum(axis=0), Tn.sum(axis=0)) < 3e-3


@pytest.mark.parametrize("derivative", ["auto", "transform"])
def test_slow_bands_against_naive_tight_tol(derivative):
    """Bank scales whose band is slow (below ``difference_band(1e-8)``, 0.106 rad/sample here):
    their derivative by the sixth-order difference ('auto') or the derivative transform, both
    within the tolerance of the definition."""
    from sftwave.synchrosqueeze import difference_band

    x = _signal()
    freqs = np.geomspace(0.006, 0.3, 40)
    sigma = 6.0 / (2 * np.pi * freqs)
    assert np.sum(10.0 / sigma <= difference_band(1e-8)) >= 6
    T, W = ssq_cwt(x, freqs, tol=1e-8, fft=False, derivative=derivative, gamma=1e-6,
                   return_cwt=True)
    Tn, Wn = naive_ssq_cwt(x, freqs, 1.0, 6.0, freqs, True, 1e-6)
    assert rel_rmse(W, Wn) < 1e-8
    assert rel_rmse(T, Tn) < 1e-8


def test_difference_rows_is_finite_difference():
    """The kernel's sixth-order difference (into chosen rows, over chosen columns) is
    ``finite_difference``'s, to rounding, at every length (the lower orders near the ends)."""
    from sftwave.engines.numba.squeeze import difference_rows

    rng = np.random.default_rng(3)
    for m in range(1, 12):
        for dtype, rtol in ((np.complex128, 1e-15), (np.complex64, 1e-6)):
            W = (rng.standard_normal((2, 3, m)) + 1j * rng.standard_normal((2, 3, m))).astype(dtype)
            ref = finite_difference(W.astype(np.complex128))
            for cols in (None, (0, m), (1, m - 1), (m // 2, m // 2 + 2)):
                D = np.full((2, 4, m), np.nan, dtype=dtype)
                difference_rows(W, [2, 0], D, [1, 3], cols)
                lo, hi = (0, m) if cols is None else (max(0, cols[0]), min(m, cols[1]))
                for src, dst in ((2, 1), (0, 3)):
                    got, want = D[:, dst, lo:hi], ref[:, src, lo:hi]
                    assert np.all(np.abs(got - want) <= rtol * (4 * np.abs(W).max() + 1e-300))
                written = np.zeros(D.shape, bool)
                written[:, [1, 3], lo:hi] = True
                assert np.isnan(D[~written]).all()


def test_derivative_auto_and_transform_agree_to_tol():
    """At the default tol, the sixth-order difference on the slow bands moves little energy
    between bins (coefficients within about tol of an edge), and a ridge at most one bin."""
    x = _signal(6000)
    freqs = np.geomspace(0.004, 0.3, 80)
    a = ssq_cwt(x, freqs)
    b = ssq_cwt(x, freqs, derivative="transform")
    assert rel_rmse(a, b) < 0.01              # measured 0.0028
    ra, rb = np.abs(a).argmax(axis=0)[300:-300], np.abs(b).argmax(axis=0)[300:-300]
    assert np.abs(ra - rb).max() <= 1 and np.mean(ra == rb) > 0.999     # measured 1 column of 5400


def test_linear_bins_fs_and_lebesgue_against_naive():
    x = _signal(600)
    fs = 250.0
    freqs = np.geomspace(5.0, 70.0, 24)
    bins = np.linspace(4.0, 80.0, 30)
    T = ssq_cwt(x, freqs, fs, xi=7.0, ssq_freqs=bins, tol=1e-8, gamma=1e-6, mode="mirror")
    Tn, _ = naive_ssq_cwt(x, freqs, fs, 7.0, bins, False, 1e-6, mode="mirror")
    assert rel_rmse(T, Tn) < 1e-8
    L = ssq_cwt(x, freqs, fs, xi=7.0, ssq_freqs=bins, tol=1e-8, gamma=1e-6, mode="mirror",
                squeezing="lebesgue")
    Ln, _ = naive_ssq_cwt(x, freqs, fs, 7.0, bins, False, 1e-6, mode="mirror", unit=True)
    assert np.allclose(L, Ln, rtol=0, atol=1e-12)


def test_decreasing_bins_reverse_rows():
    x = _signal(500)
    up = ssq_cwt(x, FREQS, ssq_freqs=FREQS)
    down = ssq_cwt(x, FREQS[::-1], ssq_freqs=FREQS[::-1])
    assert np.allclose(up[::-1], down, rtol=0, atol=1e-12 * np.abs(up).max())


def test_gamma_leaves_out_small_coefficients():
    x = _signal(500)
    everything = ssq_cwt(x, FREQS, gamma=0.0)
    nothing = ssq_cwt(x, FREQS, gamma=1e9)
    assert np.abs(everything).max() > 0 and not nothing.any()


# ----------------------------------------------------------------------------- ssqueezepy


def _ssqueezepy(x, freqs, xi):
    ssqueezepy = pytest.importorskip("ssqueezepy")
    sigma = xi / (2 * np.pi * freqs)              # increasing scales for decreasing freqs
    Tq, Wq, fq, _ = ssqueezepy.ssq_cwt(x, ("morlet", {"mu": xi}), scales=sigma, fs=1.0,
                                       ssq_freqs=freqs[::-1].copy())
    order = np.argsort(np.asarray(fq))[::-1]
    assert np.allclose(np.asarray(fq)[order], freqs)
    return np.asarray(Tq)[order], np.asarray(Wq)


NV = 32
SSQ_FREQS = 6.0 / (2 * np.pi * 3.0 * 2.0 ** (np.arange(7 * NV) / NV))   # decreasing, log


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_chirp_ridge_within_one_bin_of_ssqueezepy():
    n = 8192
    t = np.arange(n)
    x = np.cos(2 * np.pi * (0.02 * t + 0.1 * t**2 / (2 * n)))
    Tq, Wq = _ssqueezepy(x, SSQ_FREQS, 6.0)
    T, W = ssq_cwt(x, SSQ_FREQS, return_cwt=True)
    mid = slice(500, n - 500)
    # the same transform, L1-normalised (sftwave's unit energy over sqrt(sigma)), within tol
    sigma = 6.0 / (2 * np.pi * SSQ_FREQS)
    assert rel_rmse(W[:, mid] / np.sqrt(sigma)[:, None], Wq[:, mid]) < 1e-3
    ours = np.abs(T[:, mid]).argmax(axis=0)
    theirs = np.abs(Tq[:, mid]).argmax(axis=0)
    assert np.abs(ours - theirs).max() <= 1
    assert rel_rmse(T[:, mid], Tq[:, mid]) < 0.02


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_crossing_tones_ridges_within_one_bin_of_ssqueezepy():
    n = 8192
    t = np.arange(n)
    f1 = 0.05 + 0.1 * t / n                        # up
    f2 = 0.15 - 0.1 * t / n                        # down: they cross at n / 2
    x = (np.cos(2 * np.pi * (0.05 * t + 0.1 * t**2 / (2 * n)))
         + np.cos(2 * np.pi * (0.15 * t - 0.1 * t**2 / (2 * n))))
    Tq, _ = _ssqueezepy(x, SSQ_FREQS, 6.0)
    T = ssq_cwt(x, SSQ_FREQS)
    # columns away from the ends and from the crossing (where the tones are 20 % apart)
    cols = np.r_[600:n // 2 - 1000, n // 2 + 1000:n - 600]
    mid_f = np.sqrt(f1 * f2)[cols]
    for upper in (True, False):
        mask = (SSQ_FREQS[:, None] > mid_f[None, :]) == upper
        a = np.where(mask, np.abs(T[:, cols]), -1).argmax(axis=0)
        b = np.where(mask, np.abs(Tq[:, cols]), -1).argmax(axis=0)
        assert np.abs(a - b).max() <= 1
        # and near the true frequency: within 3 bins (the two tones' interference, where they are
        # 20-30 % apart, moves both transforms' ridges by up to 2.2 bins, measured)
        true = (np.maximum(f1, f2) if upper else np.minimum(f1, f2))[cols]
        assert np.all(np.abs(np.log(SSQ_FREQS[a] / true)) < 3 * math.log(2) / NV)


# ----------------------------------------------------------------------------- invariances


def test_blocks_equal_one_block_to_rounding():
    x = np.stack([_signal(3000, 2), _signal(3000, 3)])
    one = ssq_cwt(x, FREQS)
    for block in (13, 250, 1000):
        many = ssq_cwt(x, FREQS, block=block)
        assert np.allclose(many, one, rtol=0, atol=1e-12 * np.abs(one).max())
    for mode in ("constant", "nearest", "mirror", "wrap"):
        assert np.allclose(ssq_cwt(x, FREQS, block=500, mode=mode), ssq_cwt(x, FREQS, mode=mode),
                           rtol=0, atol=1e-12 * np.abs(one).max())


def test_channels_axis_and_dtypes():
    x = np.stack([_signal(700, 4), _signal(700, 5)])
    both = ssq_cwt(x.T, FREQS, axis=0)
    assert both.shape == (2, FREQS.size, 700)
    for i in range(2):
        assert np.array_equal(both[i], ssq_cwt(x[i], FREQS))
    single = ssq_cwt(x.astype(np.float32), FREQS)
    assert single.dtype == np.complex64
    # float32 state (the ASFT, as cwt at complex64): coefficients within about 5e-5, so some
    # near a bin's edge change bins (measured 1 % of the energy); the columns' sums stay close
    assert rel_rmse(single, both) < 0.05
    assert rel_rmse(single.sum(axis=-2), both.sum(axis=-2)) < 3e-3
    # below the float32 state's tol (1e-4), float64 state: the double result, rounded
    tight = ssq_cwt(x.astype(np.float32), FREQS, tol=1e-5)
    assert rel_rmse(tight, ssq_cwt(x.T, FREQS, axis=0, tol=1e-5)) < 1e-5
    ints = np.round(10 * x[0]).astype(np.int16)
    assert np.array_equal(ssq_cwt(ints, FREQS), ssq_cwt(ints.astype(np.float64), FREQS))


def test_out_memmap_and_return_cwt():
    from sftwave.wavelets import windowed_cwt

    x = _signal(900)
    ref = ssq_cwt(x, FREQS)
    with tempfile.TemporaryDirectory() as folder:
        mm = np.memmap(os.path.join(folder, "t.dat"), dtype=np.complex128, mode="w+",
                       shape=ref.shape)
        mm[...] = 7.0                                  # overwritten, not added to
        got = ssq_cwt(x, FREQS, out=mm, block=200)
        assert got is mm
        assert np.allclose(np.asarray(mm), ref, rtol=0, atol=1e-12 * np.abs(ref).max())
        del got, mm
    T, W = ssq_cwt(x, FREQS, return_cwt=True, fft=False)
    assert rel_rmse(W, windowed_cwt(x, FREQS)) < 1e-12


@pytest.mark.parametrize("itemsize", [16, 8])
def test_groups_fill_the_working_budget_at_their_itemsize(itemsize):
    """Groups of scales: each group's transform and derivative over the block within the budget
    (a group of one scale may exceed it), and as many scales as fit: complex64 rows, twice as many."""
    from sftwave.plans import synchrosqueeze as S

    reach = np.stack([np.geomspace(20, 30000, 300).astype(np.int64)] * 2, axis=1)
    block, rows = 100_000, 1
    groups = S.squeeze_groups(reach, block, rows, itemsize)
    assert groups[0][0] == 0 and groups[-1][1] == 300
    assert all(a[1] == b[0] for a, b in zip(groups, groups[1:]))

    def size(s0, s1):
        return 2 * (s1 - s0) * rows * (block + int(reach[s0:s1].sum(axis=1).max())) * itemsize

    for s0, s1 in groups:
        assert s1 - s0 == 1 or size(s0, s1) <= S.GROUP_BYTES
        assert s1 == 300 or size(s0, s1 + 1) > S.GROUP_BYTES
    assert len(S.squeeze_groups(reach, block, rows, 8)) < len(S.squeeze_groups(reach, block, rows, 16))


def test_groups_end_after_whole_lane_groups_where_the_budget_allows():
    """With the scales' lanes given, a group ends after a multiple of ``lane_multiple`` lanes
    where one fits the budget (the lane engine's empty places cost as much as full ones)."""
    from sftwave.plans import synchrosqueeze as S

    reach = np.stack([np.geomspace(20, 30000, 300).astype(np.int64)] * 2, axis=1)
    lanes = np.where(np.arange(300) < 40, 2, 1)
    lanes[250:] = 0                                   # (FFT scales: no lanes)
    groups = S.squeeze_groups(reach, 100_000, 1, 8, lanes, 32)
    plain = S.squeeze_groups(reach, 100_000, 1, 8)
    assert len(groups) >= len(plain)
    assert groups[0][0] == 0 and groups[-1][1] == 300
    assert all(a[1] == b[0] for a, b in zip(groups, groups[1:]))
    whole = [int(lanes[s0:s1].sum()) % 32 == 0 for s0, s1 in groups[:-1]]
    assert sum(whole) >= len(groups) // 2
    for (s0, s1), w in zip(groups[:-1], whole):
        size = 2 * (s1 - s0) * (100_000 + int(reach[s0:s1].sum(axis=1).max())) * 8
        assert s1 - s0 == 1 or size <= S.GROUP_BYTES
        if not w:             # no whole number of lane groups fits: as far as the budget goes
            count = np.cumsum(lanes[s0:s1])
            assert not np.any((count % 32 == 0) & (count > 0))


def test_same_numbers_on_any_thread_count():
    x = _signal(5000)
    for data in (x, x.astype(np.float32)):
        a = ssq_cwt(data, FREQS, workers=1)
        b = ssq_cwt(data, FREQS, workers=2)
        assert np.array_equal(a, b)


def _squeeze_by_definition(WD, weight, gamma2, scale, u0, du, log_bins, nb, unit=False):
    """The reassignment written out coefficient by coefficient (``math.log``, no vectors)."""
    C, G2, n = WD.shape
    G = G2 // 2
    T = np.zeros((C, nb, n), dtype=WD.dtype)
    for c in range(C):
        for j in range(n):
            for s in range(G):
                w, d = WD[c, s, j], WD[c, G + s, j]
                p = w.real * w.real + w.imag * w.imag
                if not p > gamma2[s]:
                    continue
                f = float((d.imag * w.real - d.real * w.imag) / p) * scale
                if log_bins:
                    if not f > 0.0:
                        continue
                    u = (math.log(f) - u0) / du
                else:
                    u = (f - u0) / du
                if not (u > -0.5 and u < nb - 0.5):
                    continue
                k = min(int(u + 0.5), nb - 1)
                T[c, k, j] += weight[s] if unit else weight[s] * w
    return T


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
@pytest.mark.parametrize("log_bins", [True, False])
def test_squeeze_kernel_is_the_definition_bit_for_bit(dtype, log_bins):
    """The vectorised bins (a polynomial logarithm, ``math.log`` near an edge) are the definition's.

    Frequencies at bin edges, a few ulp either side of them, beyond the end
    bins, negative, zero, NaN, subnormal and huge; coefficients under
    ``gamma2`` and zero: every bin and every sum as written out by
    ``math.log`` and a loop, the same bits.
    """
    from sftwave.engines.numba.squeeze import squeeze_block

    nb, G = 17, 3
    rng = np.random.default_rng(5)
    if log_bins:
        u0, du = math.log(0.01), math.log(2.0) / 4
        edges = np.exp(u0 + (np.arange(-1, nb + 1) - 0.5) * du)
    else:
        u0, du = 0.01, 0.02
        edges = u0 + (np.arange(-1, nb + 1) - 0.5) * du
    near = np.concatenate([np.nextafter(edges, 0), edges, np.nextafter(edges, 1),
                           edges * (1 + 1e-13), edges * (1 - 1e-13)])
    special = [0.0, -0.05, np.nan, 1e-310, 1e300, np.inf, -np.inf, 5e-324]
    f = np.concatenate([near, special, rng.uniform(0.005, 0.5, 700),
                        np.exp(rng.uniform(-8, 0, 300))])
    n = f.size
    W = (rng.standard_normal((2, G, n)) + 1j * rng.standard_normal((2, G, n))).astype(dtype)
    W[:, :, :5] = 0.0
    W[:, 1, 5:40] *= 1e-9                       # under gamma2
    omega = np.stack([np.roll(f, 37 * s) for s in range(G)]) * 2 * np.pi
    with np.errstate(invalid="ignore", over="ignore"):
        WD = np.concatenate([W, (1j * omega * W).astype(dtype)], axis=1)
    weight = np.array([0.3, 1.7, 0.9])
    gamma2 = np.array([1e-12, 1e-12, 0.0])
    for unit in (False, True):
        T = np.zeros((2, nb, n), dtype=dtype)
        squeeze_block(WD, WD, G, 0, n, weight, gamma2, 1 / (2 * np.pi), u0, du, log_bins, T, 0,
                      unit=unit)
        ref = _squeeze_by_definition(WD, weight, gamma2, 1 / (2 * np.pi), u0, du, log_bins, nb,
                                     unit=unit)
        assert np.count_nonzero(ref) > n
        assert np.array_equal(T.view(np.uint8), ref.view(np.uint8))


def test_nan_columns_within_the_widest_window():
    x = _signal(2000)
    bad = x.copy()
    bad[1000] = np.nan
    bad[1500] = np.inf
    T = ssq_cwt(bad, FREQS)
    clean = bad.copy()
    clean[~np.isfinite(clean)] = 0.0
    ref = ssq_cwt(clean, FREQS)
    nan_cols = np.isnan(T).all(axis=0)
    assert np.array_equal(nan_cols, np.isnan(T).any(axis=0))          # whole columns
    assert nan_cols[1000] and nan_cols[1500] and not nan_cols[:500].any()
    assert np.array_equal(T[:, ~nan_cols], ref[:, ~nan_cols])
    # the columns are those within the widest plan's window (the largest scale, 0.02 cycles
    # per sample: sigma 47.7, a window of 3 to 9.5 sigmas each side, the FFT's the widest)
    span = np.flatnonzero(nan_cols)
    assert 1000 - 460 < span[0] < 1000 - 140 and 1500 + 140 < span[-1] < 1500 + 460
    assert nan_cols[span[0]:span[-1] + 1].all()


def test_empty_signal():
    assert ssq_cwt(np.zeros(0), FREQS).shape == (FREQS.size, 0)
    assert ssq_cwt(np.zeros((0, 5)), FREQS).shape == (0, FREQS.size, 5)


def test_squeeze_frequencies():
    assert np.array_equal(squeeze_frequencies(FREQS), FREQS)
    assert np.allclose(squeeze_frequencies([3.0, 1.0, 2.0], "linear"), [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="uniformly spaced"):
        squeeze_frequencies([1.0, 2.0, 4.0, 5.0])


# ----------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("kwargs, exc, match", [
    (dict(freqs=[0.1]), ValueError, "at least 2 frequencies"),
    (dict(freqs=[0.1, 0.3, 0.2]), ValueError, "strictly increasing or decreasing"),
    (dict(freqs=[0.1, 0.7]), ValueError, "Nyquist"),
    (dict(ssq_freqs="octaves"), ValueError, "ssq_freqs must be None, 'log', 'linear'"),
    (dict(ssq_freqs=[0.1, 0.2, 0.25]), ValueError, "uniformly spaced"),
    (dict(ssq_freqs=[0.1, -0.2]), ValueError, "ssq_freqs must hold at least 2 positive"),
    (dict(squeezing="abs"), ValueError, "squeezing"),
    (dict(gamma=-1.0), ValueError, "gamma"),
    (dict(xi=[5.0, 6.0]), TypeError, "xi must be one real number"),
    (dict(xi=1000.0), ValueError, "xi must be in"),
    (dict(block=0), ValueError, "block must be a positive integer; got 0"),
    (dict(block=True), TypeError, "block"),
    (dict(return_cwt=1), TypeError, "return_cwt"),
    (dict(fft="yes"), TypeError, "fft"),
    (dict(derivative="exact"), ValueError, "derivative"),
    (dict(dtype=np.float64), ValueError, "dtype must be complex"),
    (dict(out=np.zeros((3, 3), complex)), ValueError, "out must have shape"),
    (dict(mode="bogus"), ValueError, "mode"),
    (dict(fs=-1.0), ValueError, "fs"),
    (dict(freqs=[1e-6, 1e-5]), ValueError, "longer than the signal|wider than|sigma"),
])
def test_bad_arguments(kwargs, exc, match):
    args = dict(freqs=[0.1, 0.2])
    args.update(kwargs)
    freqs = args.pop("freqs")
    with pytest.raises(exc, match=match):
        ssq_cwt(np.ones(100), freqs, **args)


def test_bad_x():
    with pytest.raises(TypeError, match="real signal"):
        ssq_cwt(np.ones(10, complex), [0.1, 0.2])
    with pytest.raises(ValueError, match="scalar"):
        ssq_cwt(1.0, [0.1, 0.2])
