"""The sums over epochs inside the lane kernel (MNE's averaged outputs) against direct references.

``sftwave.wavelets.epoch_sums`` adds ``|y|^2`` and ``y / |y|`` over the
epochs as the engine computes ``y``.  It is checked against

* the exact Morlet transform (tests/naive.py) summed in numpy: the accuracy
  (the bound is the plan's ``tol``: a relative RMS of 1e-5 per row of ``y``
  gives at most about 2e-5 on the power; the phasors are compared where the
  power is not tiny, since a near-zero coefficient has no meaningful phase);
* the engine's own complex output summed in numpy: the bookkeeping (which lane
  adds into which row and sample), the same plans, so only rounding differs;
* itself, on 1, 2 and 5 threads: the same bits.

Epoch counts 37 and 5 put many rows' lanes in one group (the pairwise sum of a
group's 16 lanes) and mix rows in groups (the lane-by-lane sum); both kernels
(16 lanes on explicit vectors, and the plain one at another width) run.
``tfr_array_morlet``'s averaged outputs are compared with MNE's own function in
tests/test_mne.py; here with the per-epoch outputs it also gives.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from naive import exact_morlet_transform

from sftwave._checks.spectral import TFR_TOL_PHASE
from sftwave.engines.numba import lanes
from sftwave.mne import tfr_array_morlet
from sftwave.wavelets import epoch_sums, windowed_cwt

FS = 250.0
FREQS = np.array([5.0, 11.0, 23.0, 40.0])


def _eeg(shape, seed=0):
    rng = np.random.default_rng(seed)
    spec = np.fft.rfft(rng.standard_normal(shape))
    f = np.fft.rfftfreq(shape[-1])
    f[0] = f[1]
    return np.fft.irfft(spec / np.sqrt(f), shape[-1]) + 20.0 + 0.1 * np.cumsum(
        rng.standard_normal(shape), axis=-1)


def _split(s, kind):
    """(power, phasor sum) of epoch_sums' result; None for the one a kind leaves out."""
    if kind == "sum_power":
        return s, None
    if kind == "sum_unit":
        return None, s
    return s[..., 0], s[..., 1] + 1j * s[..., 2]


@pytest.mark.parametrize("E,decim", [(37, 1), (37, 4), (5, 3)])
def test_sums_equal_the_engines_own_coefficients_summed(E, decim):
    x = _eeg((E, 3, 700), seed=E)
    xi = FREQS / 3
    # the plans the sums run (the lane kernel's, never the FFT)
    y = windowed_cwt(x, FREQS, FS, xi=xi, mode="constant", decim=decim, tol=1e-5,
                     dtype=np.complex128)
    power = (np.abs(y) ** 2).sum(axis=0)
    unit = (y / np.abs(y)).sum(axis=0)
    for kind in ("sum_power", "sum_unit", "sum_power_unit"):
        s = epoch_sums(x, FREQS, FS, xi=xi, kind=kind, decim=decim, tol=1e-5)
        p, u = _split(s, kind)
        assert s.shape[:3] == (3, FREQS.size, -(-700 // decim))
        if p is not None:
            assert np.max(np.abs(p - power) / power.max(axis=-1, keepdims=True)) < 1e-12
        if u is not None:
            assert np.max(np.abs(u - unit)) < 1e-10 * E


def test_sums_against_the_exact_transform():
    E, n, decim = 20, 600, 2
    x = _eeg((E, 2, n), seed=3)
    xi = 6.0
    sums = epoch_sums(x, FREQS, FS, xi=xi, kind="sum_power_unit", decim=decim, tol=1e-5)
    sigma = xi * FS / (2 * math.pi * FREQS)
    for c in range(2):
        for i, s in enumerate(sigma):
            y = np.array([exact_morlet_transform(x[e, c], s, xi, mode="constant")[::decim]
                          for e in range(E)])
            power = (np.abs(y) ** 2).sum(axis=0)
            unit = (y / np.abs(y)).sum(axis=0)
            got = sums[c, i]
            rel = np.sqrt(np.mean((got[:, 0] - power) ** 2) / np.mean(power ** 2))
            assert rel < 1e-4, (c, i, rel)
            # ITC = |sum| / E: absolute, as MNE's tests take it; weighted by the power
            d = np.abs(got[:, 1] + 1j * got[:, 2] - unit) / E
            assert np.sqrt(np.sum(power * d ** 2) / np.sum(power)) < 1e-4, (c, i)


def test_the_same_bits_on_any_thread_count():
    x = _eeg((37, 4, 2000), seed=5)
    ref = epoch_sums(x, FREQS, FS, xi=7.0, kind="sum_power_unit", decim=2, workers=1)
    for w in (2, 5):
        got = epoch_sums(x, FREQS, FS, xi=7.0, kind="sum_power_unit", decim=2, workers=w)
        assert np.array_equal(got.view(np.uint64), ref.view(np.uint64)), w


@pytest.mark.parametrize("kind", ["sum_power", "sum_unit", "sum_power_unit"])
def test_the_plain_kernel_adds_the_same(kind):
    """Both kernels (16 lanes on vectors; the plain one at width 8) against each other."""
    from sftwave.plans import select_morlet

    rng = np.random.default_rng(2)
    E, C, n, F = 21, 2, 400, 3
    x2d = rng.standard_normal((E * C, n)) + 3.0
    plans = [select_morlet(s, 5.0, 1e-5, n=n) for s in (6.0, 9.0, 14.0)]
    r, i = np.divmod(np.arange(E * C * F), F)
    table = lanes.LaneTable(tuple(plans), i, r, (r % C) * F + i, np.zeros(r.size, np.int64),
                            np.full(r.size, n, np.int64))
    ch = lanes.SUM_CHANNELS[kind]
    outs = []
    for width in (16, 8):
        out = np.zeros((C * F, -(-n // 3), ch))
        lanes.run(x2d, table, out, mode="constant", decim=3, kind=kind, width=width)
        outs.append(out)
    assert np.allclose(outs[0], outs[1], rtol=1e-11, atol=1e-11 * np.abs(outs[1]).max())


@pytest.mark.parametrize("tol,bound", [(1e-5, 1e-9), (1e-4, 1e-4)])
def test_tfr_averages_equal_the_per_epoch_outputs_averaged(tol, bound):
    """tfr_array_morlet's averaged outputs (summed in the kernel) against its own complex output.

    At ``tol=1e-5`` the recursions run in float64: only rounding differs (the
    complex output's plans carry MNE's scale).  At the default 1e-4 they run in
    float32, and a weak coefficient's phase moves by the float32 rounding of
    the row's combination (about 1e-7 of the row's scale over the coefficient):
    the bound is then MNE's test bar (1e-3) over ten."""
    x = _eeg((19, 3, 900), seed=9)
    freqs = np.geomspace(4.0, 40.0, 7)
    for nc in (7.0, freqs / 2):
        for decim in (1, 4, slice(3, 800, 5)):
            kw = dict(sfreq=FS, freqs=freqs, n_cycles=nc, decim=decim, tol=tol)
            y = tfr_array_morlet(x, output="complex", **kw)
            power = (np.abs(y) ** 2).mean(axis=0)
            itc = np.abs((y / np.abs(y)).mean(axis=0))
            both = tfr_array_morlet(x, output="avg_power_itc", **kw)
            for got, want in ((tfr_array_morlet(x, output="avg_power", **kw), power),
                              (tfr_array_morlet(x, output="itc", **kw), itc),
                              (both.real, power), (both.imag, itc)):
                assert got.shape == want.shape and got.dtype == np.float64
                scale = np.abs(want).max(axis=-1, keepdims=True)
                assert np.max(np.abs(got - want) / scale) < bound


def test_nan_epochs_give_the_per_epoch_rule():
    """A NaN sample: the averages are NaN where a coefficient of any epoch is (as MNE's)."""
    x = _eeg((17, 2, 800), seed=4)
    x[3, 1, 400] = np.nan
    kw = dict(sfreq=FS, freqs=FREQS, n_cycles=5.0, decim=2)
    y = tfr_array_morlet(x, output="complex", **kw)
    power = tfr_array_morlet(x, output="avg_power", **kw)
    itc = tfr_array_morlet(x, output="itc", **kw)
    # the ITC's default tol is tighter (TFR_TOL_PHASE): its wavelets, and so the samples a
    # NaN reaches, are those of the complex output at that tol
    y_phase = tfr_array_morlet(x, output="complex", tol=TFR_TOL_PHASE, **kw)
    with np.errstate(invalid="ignore"):
        want_p = (np.abs(y) ** 2).mean(axis=0)
        want_i = np.abs((y_phase / np.abs(y_phase)).mean(axis=0))
    assert np.isnan(want_p[1]).any() and not np.isnan(want_p[0]).any()
    assert np.array_equal(np.isnan(power), np.isnan(want_p))
    assert np.array_equal(np.isnan(itc), np.isnan(want_i))
    ok = ~np.isnan(want_p)
    assert np.allclose(power[ok], want_p[ok], rtol=1e-4)
    ok = ~np.isnan(want_i)
    assert np.allclose(itc[ok], want_i[ok], rtol=0, atol=1e-4)


def test_zero_epochs_and_scaled_data():
    """All-zero epochs: power 0 and ITC NaN (0 / 0, as MNE's); data far from 1 (tiny, huge, in
    volts) gives the same ITC and the power scaled (exactly, for a power of two)."""
    zeros = np.zeros((18, 2, 500))
    kw = dict(sfreq=FS, freqs=FREQS, n_cycles=5.0)
    assert np.all(tfr_array_morlet(zeros, output="avg_power", **kw) == 0)
    assert np.all(np.isnan(tfr_array_morlet(zeros, output="itc", **kw)))
    x = _eeg((18, 2, 500), seed=1)
    ref = tfr_array_morlet(x, output="avg_power_itc", **kw)
    for factor in (2.0 ** -300, 2.0 ** 300):
        # the work is scaled to magnitudes near 1 by a power of two: the same bits
        got = tfr_array_morlet(x * factor, output="avg_power_itc", **kw)
        assert np.array_equal(got.imag, ref.imag)
        assert np.array_equal(got.real, ref.real * factor ** 2)
    got = tfr_array_morlet(x * 1e-6, output="avg_power_itc", **kw)      # volts
    assert np.allclose(got.imag, ref.imag, rtol=0, atol=1e-4)
    assert np.allclose(got.real * 1e12, ref.real, rtol=1e-4, atol=0)


def test_bad_kind():
    with pytest.raises(ValueError, match="kind"):
        epoch_sums(np.zeros((2, 2, 100)), FREQS, FS, xi=5.0, kind="mean_power")
