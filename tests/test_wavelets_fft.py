"""The Morlet transform by FFT (``method='fft'``, :class:`sftwave.plans.FFTPlan`) and 'auto''s choice.

The FFT computes the exact, untruncated wavelet's transform, so it is held to
the exact transform of the definition (``tests/naive.py``'s direct sum over 13
sigma + 10 samples each way) at the level of the arithmetic, not of a ``tol``:

* float64: ``||y - y_exact|| <= 1e-12 ||y_exact|| + 4e-16 (26 sigma + 21) ||x|| / sqrt(sigma)``.
  The absolute term is the reference's own rounding: it adds ``26 sigma + 21``
  products of size up to ``|x| / sqrt(sigma)`` (the wavelet's amplitude), each
  rounded by 1.1e-16 (the worst case, summed: far above the typical
  ``sqrt``-growth); it matters where the result itself nearly vanishes (a wavelet
  much longer than a periodic signal integrates it to rounding noise, the FFT
  to exactly zero).  The FFT's own error is a few ``1e-16`` of ``||x||`` times
  the wavelet's amplitude.
* float32 arithmetic (single-precision output, ``tol >= 1e-5``): ``1e-5``
  relative, float32's rounding (6e-8) over a transform of some 10^4 points.

Against the bank (the same call with ``method='bank'``) the rows agree within the
bank's own promise at its ``tol`` (see ``tests/test_wavelets.py``).
"""

import math
import zlib

import numpy as np
import pytest
from naive import exact_morlet_transform

import sftwave
from sftwave import wavelets
from sftwave.engines import nonfinite
from sftwave.engines.numba import ENGINE, spectral
from sftwave.plans import FFTPlan, SFTPlan, select_morlet
from sftwave.plans.select import morlet_costs
from sftwave.plans.spectral import (
    BAND,
    fast_length,
    fft_work,
    reach,
    transfer,
    transform_length,
)

MODES = ["reflect", "mirror", "nearest", "wrap", "constant"]
CVAL = 0.75


def seed(*parts):
    return zlib.crc32("/".join(map(str, parts)).encode())


def signal(n, kind, key):
    rng = np.random.default_rng(seed(n, kind, *key))
    x = np.cumsum(rng.standard_normal(n)) + 3.0          # a walk with an offset
    if kind == "complex":
        x = x + 1j * np.cumsum(rng.standard_normal(n))
    return x


def close_to_exact(y, ref, x, sigma, rtol=1e-12):
    err = np.linalg.norm(y - ref)
    bound = rtol * np.linalg.norm(ref) + 4e-16 * (26 * sigma + 21) * np.linalg.norm(x) / math.sqrt(sigma)
    assert err <= bound, (err, bound)


# ----------------------------------------------------------------------------- the plan's arithmetic


@pytest.mark.parametrize("sigma", [0.4, 2.0, 13.0, 150.0])
@pytest.mark.parametrize("xi", [1.0, 6.0, 20.0])
def test_transfer_is_the_sampled_wavelets_dtft(sigma, xi):
    if xi / sigma > math.pi:
        pytest.skip("above Nyquist")
    R = int(14 * sigma) + 12
    k = np.arange(-R, R + 1)
    from naive import exact_morlet

    psi = exact_morlet(sigma, xi, k)
    omega0, step, count = -7.0, 0.0137, 1500             # beyond [-2 pi, 2 pi]: the aliases
    w = omega0 + step * np.arange(count)
    direct = np.array([np.sum(psi * np.exp(-1j * wi * k)) for wi in w])
    h = transfer(sigma, xi, omega0, step, count)
    assert np.max(np.abs(direct.imag)) < 1e-12            # a Hermitian wavelet: a real transform
    assert np.max(np.abs(h - direct.real)) < 1e-12 * max(1.0, math.sqrt(sigma))


def test_lengths_and_reach():
    for m in range(1, 5000):
        f = fast_length(m)
        assert f >= m
        assert f == min(c for c in (2 ** a * b for a in range(14) for b in (1, 3, 5)) if c >= m)
    assert reach(10.0) == math.ceil(BAND * 10.0)
    assert transform_length(3.0, 100, "reflect") == (200, True)
    assert transform_length(3.0, 100, "mirror") == (198, True)
    assert transform_length(3.0, 1, "mirror") == (1, True)
    assert transform_length(3.0, 100, "wrap") == (100, True)
    assert transform_length(3.0, 100, "nearest") == (fast_length(100 + reach(3.0)), True)
    assert transform_length(30.0, 100, "constant") == (fast_length(199), False)


# ----------------------------------------------------------------------------- against the definition


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", [1, 2, 3, 50, 301])
@pytest.mark.parametrize("kind", ["real", "complex"])
def test_fft_equals_the_exact_transform(mode, n, kind):
    x = signal(n, kind, (mode,))
    cval = CVAL * (1 - 0.5j) if kind == "complex" else CVAL
    for sigma in (0.6, 3.0, 17.0, 120.0, 900.0):
        for xi in (1.0, 6.0, 20.0):
            if xi / sigma > math.pi:
                continue
            ref = exact_morlet_transform(x, sigma, xi, mode, cval)
            y = sftwave.morlet_transform(x, sigma, xi=xi, mode=mode, cval=cval, method="fft")
            assert y.dtype == np.complex128
            close_to_exact(y, ref, x, sigma)


@pytest.mark.parametrize("mode", MODES)
def test_every_output_kind_decim_out_and_axis(mode):
    rng = np.random.default_rng(seed("kinds", mode))
    x = np.cumsum(rng.standard_normal((2, 3, 130)), axis=-1)
    xt = np.moveaxis(x, -1, 1)                                   # time on axis 1
    freqs = np.array([0.3, 0.11, 0.02, 0.004])
    sig = wavelets.frequency_to_scale(freqs)
    ref = np.stack([np.stack([np.stack([exact_morlet_transform(x[a, b], s, 6.0, mode, CVAL)
                                        for s in sig]) for b in range(3)]) for a in range(2)])
    kinds = {"complex": ref, "power": np.abs(ref) ** 2, "abs": np.abs(ref), "phase": np.angle(ref)}
    for output, want in kinds.items():
        for decim in (1, 3, 200):
            y = sftwave.cwt(xt, freqs, axis=1, mode=mode, cval=CVAL, output=output, decim=decim,
                            method="fft")
            w = want[..., ::decim]
            assert y.shape == w.shape
            if output == "phase":       # the angle's error is at most |dy| / |y|
                big = np.abs(ref[..., ::decim]) > 1e-4 * np.abs(ref).max()
                assert np.max(np.abs(np.angle(np.exp(1j * (y - w)))[big])) < 1e-8
            else:
                assert np.allclose(y, w, rtol=1e-11, atol=1e-11 * np.abs(w).max())
            out = np.empty(y.shape, y.dtype)
            z = sftwave.cwt(xt, freqs, axis=1, mode=mode, cval=CVAL, output=output, decim=decim,
                            method="fft", out=out)
            assert z is out and np.array_equal(out, y)


@pytest.mark.parametrize("mode", MODES)
def test_single_precision(mode):
    x = signal(400, "real", ("single", mode)).astype(np.float32)
    freqs = np.array([0.2, 0.05, 0.01, 0.002])
    y = sftwave.cwt(x, freqs, mode=mode, cval=CVAL, method="fft")
    assert y.dtype == np.complex64
    y64 = sftwave.cwt(x, freqs, mode=mode, cval=CVAL, method="fft", tol=1e-6)
    assert y64.dtype == np.complex64
    for i, s in enumerate(wavelets.frequency_to_scale(freqs)):
        ref = exact_morlet_transform(x.astype(np.float64), s, 6.0, mode, CVAL)
        scale = np.linalg.norm(ref) + np.linalg.norm(x) / math.sqrt(s)
        assert np.linalg.norm(y[i] - ref) <= 1e-5 * scale           # float32 arithmetic
        assert np.linalg.norm(y64[i] - ref) <= 1e-6 * scale         # float64, rounded once


@pytest.mark.parametrize("mode", MODES)
def test_fft_agrees_with_the_bank_within_its_tol(mode):
    """Every mode: the bank's rows are within their promise of the FFT's (exact) ones."""
    x = signal(2000, "real", ("bank", mode))
    freqs = np.geomspace(0.4, 0.002, 24)
    y = sftwave.cwt(x, freqs, mode=mode, cval=CVAL, method="fft")
    b = sftwave.cwt(x, freqs, mode=mode, cval=CVAL, method="bank")
    err = np.linalg.norm(y - b, axis=1) / np.linalg.norm(y, axis=1)
    assert err.max() < 1e-3          # the default tol's promise for every row (tol 1e-4)


# ----------------------------------------------------------------------------- engine behaviour


def test_same_bits_on_any_number_of_threads():
    x = signal(3000, "real", ("threads",))
    freqs = np.geomspace(0.45, 0.001, 40)
    for mode in MODES:
        one = sftwave.cwt(x, freqs, mode=mode, method="fft", workers=1)
        two = sftwave.cwt(x, freqs, mode=mode, method="fft", workers=2)
        assert np.array_equal(one, two)
        again = sftwave.cwt(x, freqs, mode=mode, method="fft", workers=2)
        assert np.array_equal(two, again)


@pytest.mark.parametrize("kind", ["real", "complex"])
def test_blocks_side_by_side_give_each_lines_own_bits(kind):
    """Many lines are many blocks of transforms, run side by side on the threads: on 1, 2 or 3
    threads the same bits, and each line's the bits of that line transformed alone (one block,
    one after another), for every mode, output kind and decimation."""
    x = np.stack([signal(2500, kind, ("blocks", i)) for i in range(6)])
    freqs = np.geomspace(0.45, 0.001, 40)
    assert x.size * freqs.size > 2 * spectral.BLOCK_POINTS       # several blocks
    assert x.shape[-1] * freqs.size <= spectral.BLOCK_POINTS      # a line alone: one block
    for mode in MODES:
        for output, decim in (("complex", 1), ("power", 3), ("phase", 2)):
            kw = dict(mode=mode, method="fft", output=output, decim=decim)
            one = sftwave.cwt(x, freqs, workers=1, **kw)
            for w in (2, 3):
                assert np.array_equal(sftwave.cwt(x, freqs, workers=w, **kw), one), (mode, w)
            for i in (0, 5):
                alone = sftwave.cwt(x[i], freqs, workers=2, **kw)
                assert np.array_equal(alone, one[i]), (mode, output, i)


def test_non_finite_samples_reach_the_plans_support():
    x = signal(600, "real", ("nan",))
    x[300] = np.nan
    freqs = np.array([0.2, 0.02])
    y = sftwave.cwt(x, freqs, method="fft")
    for i, s in enumerate(wavelets.frequency_to_scale(freqs)):
        left, right = nonfinite.support(FFTPlan(float(s), 6.0), x.size)
        bad = np.isnan(y[i])
        want = np.zeros(x.size, bool)
        want[max(0, 300 - right):300 + left + 1] = True
        assert np.array_equal(bad, want)
        clean = sftwave.cwt(np.where(np.isnan(x), 0.0, x), [freqs[i]], method="fft")[0]
        assert np.isfinite(clean).all()


def test_apply_plan_runs_an_fft_plan():
    x = signal(256, "real", ("apply",))
    plan = select_morlet(20.0, 6.0, method="fft")
    assert plan == FFTPlan(20.0, 6.0)
    y = sftwave.apply_plan(x, plan, mode="wrap")
    assert np.array_equal(y, sftwave.morlet_transform(x, 20.0, mode="wrap", method="fft"))


def test_fft_is_refused_where_it_cannot_run():
    from sftwave import stream

    with pytest.raises(ValueError, match="method='fft'"):
        stream.CWT([10.0], fs=100.0, method="fft")
    pytest.importorskip("array_api_compat")
    with pytest.raises(ValueError, match="method='fft'"):
        sftwave.cwt(np.ones(64), [0.1], method="fft", engine="xp")
    with pytest.raises(ValueError, match="FFTPlan"):
        sftwave.apply_plan(np.ones(64), FFTPlan(5.0, 6.0), engine="xp")


def test_dask_blocks_keep_to_windowed_plans_under_auto():
    """'auto' in sftwave.dask's blocks never takes the FFT, whose wavelet reads beyond the overlap:
    ``windowed=True`` (a field of the call, no ambient switch), which ``windowed_cwt`` sets."""
    args = dict(xi=6.0, axis=-1, mode="reflect", cval=0.0, output="complex", tol=None, dtype=None,
                method="auto", transform="auto", bank_method="auto", decim=1, out=None,
                workers=None, engine=None)
    _, _, plans, _ = wavelets._plan_scalogram(np.zeros(4000), lambda xi: [(900.0, 6.0)],
                                              windowed=True, **args)
    assert not isinstance(plans[0], FFTPlan)
    _, _, told, _ = wavelets._plan_scalogram(np.zeros(4000), lambda xi: [(900.0, 6.0)],
                                             windowed=False, **args)
    assert isinstance(told[0], FFTPlan)          # without it, 'auto' takes the FFT here
    x = np.random.default_rng(0).standard_normal(4000)
    y = wavelets.windowed_cwt(x, [0.001])
    assert not np.array_equal(y, sftwave.cwt(x, [0.001]))       # the FFT's row differs
    assert np.array_equal(y, sftwave.cwt(x, [0.001], method="bank"))
    _, _, plans, _ = wavelets._plan_scalogram(
        np.zeros(4000), lambda xi: [(900.0, 6.0)], xi=6.0, axis=-1, mode="reflect", cval=0.0,
        output="complex", tol=None, dtype=None, method="auto", transform="auto",
        bank_method="auto", decim=1, out=None, workers=None, engine=None)
    assert isinstance(plans[0], FFTPlan)


def test_dask_fft_equals_the_whole_signal():
    da = pytest.importorskip("dask.array")
    x = np.random.default_rng(3).standard_normal((2, 9000))
    freqs = np.geomspace(0.3, 0.01, 8)
    import sftwave.dask

    y = sftwave.dask.cwt(da.from_array(x, chunks=(1, 2500)), freqs, method="fft").compute()
    ref = sftwave.cwt(x, freqs, method="fft")
    assert np.allclose(y, ref, rtol=1e-10, atol=1e-12)


# ----------------------------------------------------------------------------- 'auto' and the cost model


COST = dict(fir_taps_per_order=ENGINE.fir_taps_per_order(), fft_point_cost=ENGINE.fft_point_cost())


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", [500, 4000, 100_000])
def test_auto_takes_what_the_cost_model_says(mode, n):
    for sigma in (2.0, 4.0, 30.0, 250.0, 2000.0):
        plan = select_morlet(sigma, 6.0, 1e-4, n=n, mode=mode, **COST)
        windowed = select_morlet(sigma, 6.0, 1e-4, n=n, fir_taps_per_order=COST["fir_taps_per_order"])
        assert not isinstance(windowed, FFTPlan)
        bound, fft = morlet_costs(sigma, 6.0, 1e-4, n=n, mode=mode, **COST)
        kernel, fft2 = morlet_costs(sigma, 6.0, 1e-4, n=n, mode=mode, plan=windowed, **COST)
        assert fft == fft2 == COST["fft_point_cost"] * fft_work(sigma, n, mode)
        if isinstance(windowed, SFTPlan):
            assert kernel == (windowed.omegas.size + 1) * (n + windowed.length)
        else:
            taps = windowed.size
            assert kernel == 2.0 * taps / COST["fir_taps_per_order"] * (n + taps)
        want_fft = fft < bound or fft < kernel
        assert isinstance(plan, FFTPlan) == want_fft, (sigma, bound, kernel, fft)
        if not want_fft:
            assert plan == windowed


def test_the_crossover_in_counts():
    """The model's two sides: a short series' long wavelets go to the FFT, a long series'
    short wavelets to the bank (pycwt's N = 4,000 with 133 scales; the long-signal 1e5)."""
    freqs = 1.0 / (1.033 * 2.0 * 2.0 ** (np.arange(133) / 12))        # pycwt's periods, s0 = 2
    sig = wavelets.frequency_to_scale(freqs)
    short = [select_morlet(float(s), 6.0, 1e-4, n=4000, mode="reflect", **COST) for s in sig]
    assert all(isinstance(p, FFTPlan) for p, s in zip(short, sig) if s > 100)
    assert sum(isinstance(p, FFTPlan) for p in short) >= 100
    long_ = [select_morlet(float(s), 6.0, 1e-4, n=100_000, mode="reflect", **COST)
             for s in wavelets.frequency_to_scale(np.geomspace(1.0, 100.0, 50), 1000.0)]
    assert not any(isinstance(p, FFTPlan) for p in long_)
    # a wavelet many times wider than even the long signal: the FFT
    assert isinstance(select_morlet(20_000.0, 6.0, 1e-4, n=100_000, mode="reflect", **COST),
                      FFTPlan)


def test_auto_scalogram_is_the_plans_it_chose():
    x = signal(4000, "real", ("auto",))
    freqs = np.geomspace(0.4, 0.0008, 30)
    y = sftwave.cwt(x, freqs)
    sig = wavelets.frequency_to_scale(freqs)
    kinds = [isinstance(select_morlet(float(s), 6.0, 1e-4, n=4000, mode="reflect", **COST), FFTPlan)
             for s in sig]
    assert any(kinds)
    fft = sftwave.cwt(x, freqs, method="fft")
    for i, is_fft in enumerate(kinds):
        if is_fft:
            assert np.array_equal(y[i], fft[i])
        else:
            assert np.array_equal(y[i], sftwave.cwt(x, freqs[i:i + 1], bank_method="iir1")[0])


def test_bad_cost_figures_are_refused():
    with pytest.raises(ValueError, match="fft_point_cost"):
        select_morlet(10.0, 6.0, n=100, mode="reflect", fir_taps_per_order=2.0, fft_point_cost=-1.0)
    with pytest.raises(ValueError, match="mode"):
        select_morlet(10.0, 6.0, n=100, mode="sideways", fir_taps_per_order=2.0, fft_point_cost=1.0)
    with pytest.raises(TypeError, match="sigma"):
        select_morlet(True, 6.0)
