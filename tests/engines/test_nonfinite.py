"""Non-finite input confined to the kernel's support, on every engine.

The property: an output is non-finite exactly when the support of the plan
that computes it (its window, extended by the boundary mode) reads a
non-finite sample, and every other output is what the filter gives on the
same signal with that sample made finite (any finite value: those outputs do
not read it), up to the recursions' rounding residue of the change.

The expected sets are computed here directly from the definition (the
indicator of the bad samples, extended with ``np.pad`` as scipy extends,
convolved with a box of the support's width), independently of
:func:`sftwave.engines.nonfinite.reach_counts`.  The support comes from the
plan the function uses; the tests also bound it against scipy's truncation
(the count is the direct convolution's for a window within 5 sigma + 1).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from naive import extend, reach

import sftwave
from sftwave import engines, wavelets
from sftwave.engines import nonfinite
from sftwave.ndimage import _plan_axis

N = 100_000
SIGMAS = [2.0, 16.0, 128.0, 1024.0]
MODES = ["reflect", "mirror", "nearest", "wrap", "constant"]


def _gaussian_plan(sigma, order, n, engine="numba", **kw):
    eng = engines.get(engine)
    return _plan_axis(eng, engine, sigma, order, n, truncate=kw.get("truncate", 4.0),
                      radius=None, method="auto", transform="auto", tol=None,
                      dtypes=(np.dtype(np.float64), None, 1))     # float64 signals and images


def expected_hits(n, bad, left, right, mode):
    """Outputs whose window ``x[i - left] .. x[i + right]`` (extended by ``mode``) reads a bad sample."""
    return reach(n, bad, left, right, mode)


def _signal(n, seed=0):
    return np.random.default_rng(seed).standard_normal(n)


@pytest.mark.parametrize("sigma", SIGMAS)
@pytest.mark.parametrize("where", ["start", "middle", "end"])
@pytest.mark.parametrize("order", [0, 1, 2])
def test_one_nan_in_1e5_samples_is_confined(sigma, where, order):
    """A NaN at the start, middle or end: exactly the outputs within the support are NaN.

    The finite outputs equal the filter of the signal with a 0 in its place
    within 1e-12 of the output's scale (float64: the residue of the change
    in the recursions, at most ~1e-14 of its amplitude).
    """
    pos = {"start": 0, "middle": N // 2, "end": N - 1}[where]
    x = _signal(N, int(sigma) + order)
    x[pos] = np.nan
    y = sftwave.gaussian_filter1d(x, sigma, order=order)
    plan = _gaussian_plan(sigma, order, N)
    left, right = nonfinite.support(plan, N)
    assert left + right + 1 <= 2 * math.ceil(5 * sigma) + 1       # close to scipy's 4 sigma
    hits = expected_hits(N, [pos], left, right, "reflect")
    assert np.array_equal(np.isnan(y), hits), (int(np.isnan(y).sum()), int(hits.sum()))
    x0 = x.copy()
    x0[pos] = 0.0
    y0 = sftwave.gaussian_filter1d(x0, sigma, order=order)
    scale = np.max(np.abs(y0))
    assert np.max(np.abs(y[~hits] - y0[~hits])) <= 1e-12 * scale


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("sigma,n", [(3.0, 200), (40.0, 3000), (200.0, 150)])
def test_every_mode_and_short_lines(mode, sigma, n):
    """Every boundary mode, lines longer and shorter than the kernel (reflections read the NaN)."""
    x = _signal(n, 5)
    bad = [0, n // 3, n - 2]
    x[bad] = np.nan
    y = sftwave.gaussian_filter1d(x, sigma, mode=mode)
    left, right = nonfinite.support(_gaussian_plan(sigma, 0, n), n)
    assert np.array_equal(np.isnan(y), expected_hits(n, bad, left, right, mode))


def test_nan_cval_reaches_the_edges_only():
    """``mode='constant'`` with ``cval=nan``: the outputs whose support reaches past an end."""
    n, sigma = 5000, 30.0
    y = sftwave.gaussian_filter1d(_signal(n), sigma, mode="constant", cval=np.nan)
    left, right = nonfinite.support(_gaussian_plan(sigma, 0, n), n)
    i = np.arange(n)
    assert np.array_equal(np.isnan(y), (i - left < 0) | (i + right >= n))


def test_infinities_keep_their_sign_for_the_smoothing():
    """Order 0 (a positive kernel): +inf alone gives +inf, both signs NaN; derivatives give NaN."""
    n, sigma = 4000, 10.0
    x = _signal(n, 3)
    x[1000] = np.inf
    x[3000] = -np.inf
    x[3010] = np.inf
    y = sftwave.gaussian_filter1d(x, sigma)
    left, right = nonfinite.support(_gaussian_plan(sigma, 0, n), n)
    p = expected_hits(n, [1000, 3010], left, right, "reflect")
    m = expected_hits(n, [3000], left, right, "reflect")
    assert np.array_equal(np.isposinf(y), p & ~m)
    assert np.array_equal(np.isneginf(y), m & ~p)
    assert np.array_equal(np.isnan(y), p & m)
    d = sftwave.gaussian_filter1d(x, sigma, order=1)
    left1, right1 = nonfinite.support(_gaussian_plan(sigma, 1, n), n)
    assert np.array_equal(np.isnan(d), expected_hits(n, [1000, 3000, 3010], left1, right1,
                                                      "reflect"))
    assert not np.isinf(d).any()


def test_gaussian_filter_nd_is_the_product_of_the_supports():
    """2-D: one NaN makes the rectangle of the two axes' supports NaN (separable, as scipy)."""
    img = _signal(300 * 400).reshape(300, 400)
    img[120, 50] = np.nan
    sig = (4.0, 9.0)
    y = sftwave.gaussian_filter(img, sig)
    (l0, r0), (l1, r1) = (nonfinite.support(_gaussian_plan(s, 0, n), n)
                          for s, n in zip(sig, img.shape))
    rows = expected_hits(300, [120], l0, r0, "reflect")
    cols = expected_hits(400, [50], l1, r1, "reflect")
    assert np.array_equal(np.isnan(y), rows[:, None] & cols[None, :])
    # Laplace and gradient magnitude: the union over axes of the derivative along that
    # axis (its order's support) times the smoothing along the other (order 0)
    for f, order in ((sftwave.gaussian_laplace, 2), (sftwave.gaussian_gradient_magnitude, 1)):
        z = f(img, 4.0)

        def hits(n, o, pos):
            return expected_hits(n, [pos], *nonfinite.support(_gaussian_plan(4.0, o, n), n),
                                 "reflect")

        want = ((hits(300, order, 120)[:, None] & hits(400, 0, 50)[None, :])
                | (hits(300, 0, 120)[:, None] & hits(400, order, 50)[None, :]))
        assert np.array_equal(np.isnan(z), want), f.__name__


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.complex128])
def test_dtypes_and_integer_outputs(dtype):
    """float32/float16 keep their dtype; complex: either part bad makes both NaN;
    an integer output cannot hold the NaN (ValueError), a float one can."""
    x = _signal(3000).astype(dtype)
    x[700] = np.nan
    y = sftwave.gaussian_filter1d(x, 12.0)
    assert y.dtype == dtype
    left, right = nonfinite.support(_gaussian_plan(12.0, 0, 3000), 3000)
    hits = expected_hits(3000, [700], left, right, "reflect")
    assert np.array_equal(np.isnan(y.real), hits)
    if dtype == np.complex128:
        assert np.array_equal(np.isnan(y.imag), hits)
    if dtype != np.complex128:
        with pytest.raises(ValueError, match="int16 cannot hold the NaN"):
            sftwave.gaussian_filter1d(x, 12.0, output=np.int16)
        out = np.empty(3000, np.float64)
        assert sftwave.gaussian_filter1d(x, 12.0, output=out) is out
        assert np.array_equal(np.isnan(out), hits)


def test_input_is_not_modified_and_finite_input_takes_the_fast_path(monkeypatch):
    x = _signal(1000)
    x[10] = np.nan
    keep = x.copy()
    sftwave.gaussian_filter1d(x, 5.0)
    sftwave.cwt(x, [0.05], 1.0)
    assert np.array_equal(x, keep, equal_nan=True)
    called = []
    monkeypatch.setattr(nonfinite, "_counts", lambda *a: called.append(a))
    sftwave.gaussian_filter1d(_signal(1000), 5.0)
    assert not called


# ----------------------------------------------------------------------------- the CWT


def _scalogram_supports(x, freqs, fs, n, engine=None, **kw):
    def scales_of(xi):
        xis = np.broadcast_to(np.asarray(xi, float), (len(freqs),))
        return [(float(s), float(w)) for s, w in
                zip(wavelets.frequency_to_scale(np.asarray(freqs), fs, xis), xis)]

    args = dict(xi=6.0, axis=-1, mode="reflect", cval=0.0, output="complex", tol=None,
                dtype=None, method="auto", transform="auto", bank_method="auto", decim=1,
                out=None, workers=None, engine=engine)
    args.update(kw)
    _, _, plans, _ = wavelets._plan_scalogram(x, scales_of, **args)
    return [nonfinite.support(p, n) for p in plans]


@pytest.mark.parametrize("where", ["start", "middle", "end"])
@pytest.mark.parametrize("output,decim", [("complex", 1), ("power", 3)])
def test_cwt_nan_confined_per_row(where, output, decim):
    """cwt on 2 x 1e5 samples, 4 frequencies (scales 5 to 480 samples): per row, exactly
    the outputs whose wavelet support reads the NaN are NaN (decimated as the output)."""
    fs, freqs = 1000.0, [2.0, 10.0, 50.0, 200.0]
    pos = {"start": 0, "middle": N // 2, "end": N - 1}[where]
    x = np.stack([_signal(N, 1), _signal(N, 2)])
    x[1, pos] = np.nan
    y = sftwave.cwt(x, freqs, fs, output=output, decim=decim)
    assert np.isfinite(y[0]).all()
    for row, (left, right) in enumerate(_scalogram_supports(x, freqs, fs, N, output=output)):
        hits = expected_hits(N, [pos], left, right, "reflect")[::decim]
        assert np.array_equal(~np.isfinite(y[1, row]), hits), freqs[row]
    x0 = x.copy()
    x0[1, pos] = 0.0
    y0 = sftwave.cwt(x0, freqs, fs, output=output, decim=decim)
    ok = np.isfinite(y)
    assert np.max(np.abs(y[ok] - y0[ok])) <= 1e-12 * np.max(np.abs(y0))


def test_cwt_float32_out_and_morlet_transform():
    """float32 rows, ``out=`` filled in place, and morlet_transform's own axis."""
    n, fs, freqs = 20_000, 1.0, [0.01, 0.1]
    x = _signal(n).astype(np.float32)
    x[5000] = np.inf
    out = np.empty((2, n), np.complex64)
    assert sftwave.cwt(x, freqs, fs, out=out) is out
    for row, (left, right) in enumerate(_scalogram_supports(x, freqs, fs, n)):
        assert np.array_equal(np.isnan(out[row]), expected_hits(n, [5000], left, right,
                                                                "reflect"))
    m = sftwave.morlet_transform(x[None, :].T, 20.0, axis=0)
    assert np.isnan(m[:, 0]).sum() > 0 and np.isnan(m[:, 0]).sum() < 400


# ----------------------------------------------------------------------------- other engines


@pytest.mark.parametrize("sigma", SIGMAS)
@pytest.mark.parametrize("where", ["start", "middle", "end"])
def test_one_nan_in_1e5_samples_on_the_xp_engine(sigma, where):
    """The array-API engine on torch: its own plans' supports, counted as on the CPU engine."""
    torch = pytest.importorskip("torch")
    pos = {"start": 0, "middle": N // 2, "end": N - 1}[where]
    x = _signal(N, int(sigma))
    x[pos] = np.nan
    y = sftwave.gaussian_filter1d(torch.tensor(x), sigma).numpy()
    left, right = nonfinite.support(_gaussian_plan(sigma, 0, N, engine="xp"), N)
    hits = expected_hits(N, [pos], left, right, "reflect")
    assert np.array_equal(np.isnan(y), hits), (int(np.isnan(y).sum()), int(hits.sum()))
    x[pos] = 0.0
    y0 = sftwave.gaussian_filter1d(torch.tensor(x), sigma).numpy()
    assert np.max(np.abs(y[~hits] - y0[~hits])) <= 1e-12 * np.max(np.abs(y0))


def test_apply_plan_confines_too():
    """apply_plan, a Gaussian plan and a wavelet plan (the scalogram path) on the CPU engine."""
    from sftwave.plans import select_gaussian, select_morlet

    n = 5000
    x = _signal(n)
    x[2500] = np.nan
    for plan in (select_gaussian(20.0, 0, method="bank"), select_morlet(30.0, 6.0, 1e-4)):
        y = sftwave.apply_plan(x, plan)
        left, right = nonfinite.support(plan, n)
        assert np.array_equal(~np.isfinite(y), expected_hits(n, [2500], left, right, "reflect"))


def test_xp_engine_on_numpy_and_torch():
    """The array-API engine: its own plans' supports, numpy and torch (autograd kept)."""
    torch = pytest.importorskip("torch")
    n, sigma = 20_000, 64.0
    x = _signal(n, 7)
    x[[0, 9000]] = np.nan
    plan = _gaussian_plan(sigma, 0, n, engine="xp")
    left, right = nonfinite.support(plan, n)
    hits = expected_hits(n, [0, 9000], left, right, "reflect")
    y = sftwave.gaussian_filter1d(x, sigma, engine="xp")
    assert np.array_equal(np.isnan(y), hits)
    t = torch.tensor(x, requires_grad=True)
    yt = sftwave.gaussian_filter1d(t, sigma)
    assert isinstance(yt, torch.Tensor) and yt.requires_grad
    assert np.array_equal(torch.isnan(yt).detach().numpy(), hits)
    yt[~torch.isnan(yt)].sum().backward()
    assert torch.isfinite(t.grad).all()
    freqs, fs = [5.0, 50.0], 1000.0
    w = sftwave.cwt(torch.tensor(x), freqs, fs, output="power")
    for row, (lo, hi) in enumerate(_scalogram_supports(torch.tensor(x), freqs, fs, n,
                                                       output="power")):
        assert np.array_equal(torch.isnan(w[row]).numpy(),
                              expected_hits(n, [0, 9000], lo, hi, "reflect"))


def test_reach_counts_against_the_box_convolution():
    """The counting helper itself, on random indicators, every mode, supports past the line."""
    rng = np.random.default_rng(3)
    for mode in MODES:
        for n, left, right in [(1, 3, 0), (7, 2, 9), (50, 0, 0), (50, 120, 7), (13, 40, 40)]:
            flags = (rng.random((3, n)) < 0.1).astype(np.int64)
            got = nonfinite.reach_counts(flags, left, right, mode) > 0
            for r in range(3):
                want = expected_hits(n, np.flatnonzero(flags[r]), left, right, mode)
                assert np.array_equal(got[r], want), (mode, n, left, right)


# ----------------------------------------------------------------------------- nan_policy='omit'


def _masked_reference(x, sigma, mode, cval):
    """Normalised convolution by the definition: the exact kernel over the finite samples."""
    from naive import exact_kernel, exact_support

    good = np.isfinite(x)
    R = exact_support(sigma)
    g = exact_kernel(sigma, 0, np.arange(-R, R + 1))
    data_cval = 0.0 if np.isnan(cval) else cval
    weight_cval = 0.0 if np.isnan(cval) else 1.0
    num = np.convolve(extend(np.where(good, x, 0.0), R, R, mode, data_cval), g, "valid")
    den = np.convolve(extend(good.astype(float), R, R, mode, weight_cval), g, "valid")
    return num, den


@pytest.mark.parametrize("sigma", [3.0, 20.0, 100.0])
@pytest.mark.parametrize("mode,cval", [("reflect", 0.0), ("constant", np.nan), ("wrap", 0.0)])
def test_omit_is_the_masked_normalised_convolution(sigma, mode, cval):
    """Against the masked direct reference: NaN exactly where less than half the kernel's
    weight is on data (up to 1e-3 of weight at the threshold), elsewhere no worse than
    twice scipy's own normalised convolution (truncate 4) against the same reference
    (the default contract, "no worse than scipy", divided by the least weight 0.5)."""
    from scipy import ndimage as ndi

    rng = np.random.default_rng(int(sigma))
    n = 3000
    x = np.cumsum(rng.standard_normal(n)) + 50.0
    x[rng.random(n) < 0.1] = np.nan
    x[1200:1200 + int(6 * sigma)] = np.nan          # a gap wider than the kernel
    x[5] = np.inf
    y = sftwave.gaussian_filter1d(x, sigma, mode=mode, cval=cval, nan_policy="omit")
    num, den = _masked_reference(x, sigma, mode, cval)
    clear = np.abs(den - 0.5) > 1e-3
    assert np.array_equal(np.isnan(y)[clear], (den < 0.5)[clear])
    ok = np.isfinite(y) & (den >= 0.5)
    ref = num[ok] / den[ok]
    good = np.isfinite(x)
    sc_num = ndi.gaussian_filter1d(np.where(good, x, 0.0), sigma, mode=mode,
                                   cval=0.0 if np.isnan(cval) else cval)
    sc_den = ndi.gaussian_filter1d(good.astype(float), sigma, mode=mode,
                                   cval=0.0 if np.isnan(cval) else 1.0)
    e_sft = np.max(np.abs(y[ok] - ref))
    e_scipy = np.max(np.abs(sc_num[ok] / sc_den[ok] - ref))
    assert e_sft <= 2 * e_scipy + 1e-12 * np.max(np.abs(ref)), (e_sft, e_scipy)


def test_omit_nd_finite_input_and_refusals():
    """2-D omit equals the 2-D masked ratio; finite input gives the ordinary result
    exactly; derivatives, bad policies and weights are refused by name."""
    rng = np.random.default_rng(1)
    img = rng.standard_normal((80, 90)) + 3.0
    img[rng.random(img.shape) < 0.2] = np.nan
    y = sftwave.gaussian_filter(img, (2.0, 5.0), nan_policy="omit", min_weight=0.2)
    good = np.isfinite(img)
    num = sftwave.gaussian_filter(np.where(good, img, 0.0), (2.0, 5.0))
    den = sftwave.gaussian_filter(good.astype(float), (2.0, 5.0))
    ok = den >= 0.2
    assert np.array_equal(np.isfinite(y), ok)
    assert np.allclose(y[ok], num[ok] / den[ok], rtol=1e-12, atol=0)
    clean = rng.standard_normal(500)
    assert np.array_equal(sftwave.gaussian_filter1d(clean, 7.0, nan_policy="omit"),
                          sftwave.gaussian_filter1d(clean, 7.0))
    with pytest.raises(ValueError, match="order 0"):
        sftwave.gaussian_filter1d(img, 3.0, order=1, nan_policy="omit")
    with pytest.raises(ValueError, match="order 0"):
        sftwave.gaussian_laplace(img, 3.0, nan_policy="omit")
    with pytest.raises(ValueError, match="nan_policy"):
        sftwave.gaussian_filter1d(img, 3.0, nan_policy="raise")
    with pytest.raises(ValueError, match="min_weight"):
        sftwave.gaussian_filter1d(img, 3.0, nan_policy="omit", min_weight=1.5)


def test_omit_on_torch():
    torch = pytest.importorskip("torch")
    x = _signal(2000, 4)
    x[[3, 700, 701]] = np.nan
    y = sftwave.gaussian_filter1d(torch.tensor(x), 9.0, nan_policy="omit")
    ref = sftwave.gaussian_filter1d(x, 9.0, nan_policy="omit", engine="xp")
    assert isinstance(y, torch.Tensor) and not torch.isnan(y).any()
    assert np.allclose(y.numpy(), ref, rtol=0, atol=1e-12)


def _masked_morlet(x, sigma, xi, mode, cval):
    """The omit scalogram row by its definition: exact wavelet over the centred finite
    samples, divided by the exact envelope's fraction on data (the padding is data
    where ``cval`` is finite)."""
    from naive import exact_kernel, exact_morlet, exact_support

    good = np.isfinite(x)
    c = np.median(x[good])
    R = exact_support(sigma)
    k = np.arange(-R, R + 1)
    psi = exact_morlet(sigma, xi, k)
    g = exact_kernel(sigma, 0, k)
    g = g / g.sum()
    finite_pad = not np.isnan(cval)
    xe = extend(np.where(good, x - c, 0.0), R, R, mode, (cval - c) if finite_pad else 0.0)
    me = extend(good.astype(float), R, R, mode, 1.0 if finite_pad else 0.0)
    w = np.convolve(xe, psi, "valid")
    frac = np.convolve(me, g, "valid")
    return w / frac, frac


@pytest.mark.parametrize("mode,cval", [("reflect", 0.0), ("constant", 0.0), ("constant", np.nan)])
def test_cwt_omit_against_the_masked_reference(mode, cval):
    """Rows within 2 x 3 x tol (the default rows' error, about 3 tol, over the least
    weight 0.5) of the masked direct definition; NaN exactly below the weight (up to
    1e-3 of weight at the threshold); an oscillation keeps its amplitude across a gap."""
    n, fs, freqs = 4000, 1.0, [0.02, 0.08, 0.3]
    t = np.arange(n)
    rng = np.random.default_rng(11)
    x = np.sin(2 * np.pi * 0.08 * t) + 0.5 * rng.standard_normal(n) + 20.0
    x[rng.random(n) < 0.05] = np.nan
    x[2000:2060] = np.nan
    y = sftwave.cwt(x, freqs, fs, mode=mode, cval=cval, nan_policy="omit")
    for row, f in enumerate(freqs):
        sigma = float(wavelets.frequency_to_scale(f, fs, 6.0))
        ref, frac = _masked_morlet(x, sigma, 6.0, mode, cval)
        clear = np.abs(frac - 0.5) > 1e-3
        assert np.array_equal(np.isnan(y[row])[clear], (frac < 0.5)[clear]), f
        ok = ~np.isnan(y[row]) & (frac >= 0.5)
        err = np.sqrt(np.mean(np.abs(y[row, ok] - ref[ok]) ** 2) / np.mean(np.abs(ref[ok]) ** 2))
        assert err <= 6e-4, (f, err)
    amp = np.abs(y[1])
    ok = ~np.isnan(amp)
    assert np.all(np.abs(amp[ok][200:-200] / np.median(amp[ok]) - 1) < 0.5)
    assert np.isfinite(y[1, 1990]) and np.isnan(y[1, 2030])


def test_cwt_omit_finite_input_kinds_and_engines():
    """Finite input: omit is the ordinary transform exactly; every output kind follows
    from the complex one; torch gives the same as numpy."""
    torch = pytest.importorskip("torch")
    x = _signal(3000, 2)
    freqs = [0.01, 0.1]
    assert np.array_equal(sftwave.cwt(x, freqs, nan_policy="omit"), sftwave.cwt(x, freqs))
    x[[100, 1500]] = np.nan
    z = sftwave.cwt(x, freqs, nan_policy="omit")
    for kind, fn in (("power", lambda v: np.abs(v) ** 2), ("abs", np.abs), ("phase", np.angle)):
        got = sftwave.cwt(x, freqs, output=kind, nan_policy="omit")
        assert np.allclose(got, fn(z), rtol=1e-10, atol=1e-12, equal_nan=True), kind
    zt = sftwave.cwt(torch.tensor(x), freqs, nan_policy="omit")
    zx = sftwave.cwt(x, freqs, nan_policy="omit", engine="xp")
    assert np.allclose(zt.numpy(), zx, rtol=0, atol=1e-12, equal_nan=True)
    with pytest.raises(ValueError, match="nan_policy"):
        sftwave.cwt(x, freqs, nan_policy="drop")


@pytest.mark.parametrize("gappy_rows", [[1], [0, 1, 2, 3]])
def test_cwt_omit_rows_are_the_1d_omit_of_each_line(gappy_rows):
    """Many lines, few or all with gaps (the two ways the lines are computed), into ``out=``:
    each row is the 1-D omit transform of its line; lines without gaps the ordinary one."""
    x = np.stack([_signal(3000, s) for s in range(4)]).reshape(2, 2, 3000)
    flat = x.reshape(4, 3000)
    for r in gappy_rows:
        flat[r, 1000 + 300 * r:1040 + 300 * r] = np.nan
    freqs = [0.01, 0.05]
    out = np.empty((2, 2, 2, 3000 // 2), np.float32)
    got = sftwave.cwt(x.astype(np.float32), freqs, output="abs", decim=2, nan_policy="omit",
                      out=out)
    assert got is out
    for r in range(4):
        line = flat[r].astype(np.float32)
        want = sftwave.cwt(line, freqs, output="abs", decim=2, nan_policy="omit")
        # float32 rows: one line runs on the bank, four on the lanes (float32 state), each
        # within the float32 contract (5e-5 of a row); 2e-4 of the row's largest value
        scale = np.nanmax(np.abs(want))
        assert np.allclose(got.reshape(4, 2, -1)[r], want, rtol=0, atol=2e-4 * scale,
                           equal_nan=True), r
        if r not in gappy_rows:
            assert np.isfinite(got.reshape(4, 2, -1)[r]).all()


def test_as_is_screen_is_the_screens_answer():
    """The screen a repeated small call keeps answers as the whole path's screen does (the
    input handed to the engine as it is): finite or not, within the safe exponents or not,
    with ``cval`` read by 'constant' or not, every dtype."""
    from sftwave.plans import select_gaussian

    eng = engines.get("numba")
    plan = select_gaussian(4.0, 0)
    arrays = [np.array([1.0, -3.0]), np.array([0.0, 0.0]), np.array([1.0, np.nan]),
              np.array([np.inf]), np.array([1e-200, 2e-200]), np.array([1e300]),
              np.array([1.0, 2.0], np.float32), np.array([1e-30], np.float32),
              np.array([3, 4], np.uint8), np.array([1 + 2j, 3j]), np.array([1e-200j])]
    for mode in ("reflect", "constant"):
        steps = [(0, plan, mode)]
        for cval in (0.0, 2.5, 1e-200, float("nan"), 1e300):
            for x in arrays:
                constant = mode == "constant"
                want = nonfinite._screen(eng, x, cval, constant) == 0
                assert nonfinite.as_is_screen(eng, steps, cval, x.dtype)(x) == want, (mode, cval, x)
