"""sftwave.mne.tfr_array_morlet against MNE's own function.

Every ``output``, both ``zero_mean``, ``n_cycles`` scalar and per frequency
(MNE's ``freqs / 2``, which puts low-cycle wavelets where ``zero_mean``
matters), ``decim`` as an int and as a slice, on EEG-like data (1/f noise
plus a slow random walk, the case where MNE's ``zero_mean=False`` differs most
from ``True``).  The bound is the one sftwave.mne documents: 1e-3 relative
RMS per row (for 'phase', 1e-3 radians RMS weighted by the power, since the
phase of a coefficient near zero is arbitrary in both; for the ITC, whose
scale is 1, 1e-3 RMS absolute).
"""

from __future__ import annotations

import numpy as np
import pytest

from sftwave.mne import tfr_array_morlet

mne_tf = pytest.importorskip("mne.time_frequency")

SFREQ = 250.0
FREQS = np.array([4.0, 9.0, 20.0, 45.0])


def _eeg(shape, seed=0):
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(shape)
    spec = np.fft.rfft(w)
    f = np.fft.rfftfreq(shape[-1])
    f[0] = f[1]
    pink = np.fft.irfft(spec / np.sqrt(f), shape[-1])
    return pink + 0.1 * np.cumsum(rng.standard_normal(shape), axis=-1)


DATA = _eeg((3, 2, 1200))


def _row_error(ours, theirs, output, weight=None):
    if output == "phase":
        # radians, RMS weighted by the power: a coefficient near zero has no meaningful phase
        d = np.angle(np.exp(1j * (ours - theirs)))
        return float(np.sqrt(np.sum(weight * d ** 2, axis=-1) / np.sum(weight, axis=-1)).max())
    num = np.sqrt(np.mean(np.abs(ours - theirs) ** 2, axis=-1))
    if output == "itc":
        return float(num.max())
    return float((num / np.sqrt(np.mean(np.abs(theirs) ** 2, axis=-1))).max())


@pytest.mark.parametrize("output", ["complex", "power", "phase", "avg_power", "itc",
                                    "avg_power_itc"])
@pytest.mark.parametrize("zero_mean", [True, False])
@pytest.mark.parametrize("n_cycles,decim", [(7.0, 1), ("half", 3), (3.0, slice(5, None, 4))])
def test_agrees_with_mne(output, zero_mean, n_cycles, decim):
    nc = FREQS / 2 if isinstance(n_cycles, str) else n_cycles
    ours = tfr_array_morlet(DATA, SFREQ, FREQS, n_cycles=nc, zero_mean=zero_mean, decim=decim,
                            output=output)
    theirs = mne_tf.tfr_array_morlet(DATA, SFREQ, FREQS, n_cycles=nc, zero_mean=zero_mean,
                                     decim=decim, output=output, verbose=False)
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
    if output == "avg_power_itc":
        assert _row_error(ours.real, theirs.real, "avg_power") <= 1e-3
        assert _row_error(ours.imag, theirs.imag, "itc") <= 1e-3
    elif output == "phase":
        power = mne_tf.tfr_array_morlet(DATA, SFREQ, FREQS, n_cycles=nc, zero_mean=zero_mean,
                                        decim=decim, output="power", verbose=False)
        assert _row_error(ours, theirs, output, power) <= 1e-3
    else:
        assert _row_error(ours, theirs, output) <= 1e-3


def test_dtype_and_shape_rules_as_mne():
    """float32 and integer epochs give MNE's float64/complex128; n_jobs and verbose accepted."""
    x32 = DATA.astype(np.float32)
    for output, dtype in (("complex", np.complex128), ("power", np.float64),
                          ("itc", np.float64), ("avg_power_itc", np.complex128)):
        ours = tfr_array_morlet(x32, SFREQ, FREQS[:2], output=output, n_jobs=1, verbose=False)
        theirs = mne_tf.tfr_array_morlet(x32, SFREQ, FREQS[:2], output=output, verbose=False)
        assert ours.dtype == dtype == theirs.dtype and ours.shape == theirs.shape
    ints = np.round(DATA * 10).astype(np.int16)
    assert tfr_array_morlet(ints, 250, [10.0]).shape == (3, 2, 1, 1200)


@pytest.mark.parametrize("kwargs", [
    dict(data=DATA[0]),
    dict(freqs=(4.0, 8.0)),
    dict(freqs=np.ones((2, 2))),
    dict(sfreq="250"),
    dict(zero_mean=1),
    dict(n_cycles=[7.0, 7.0]),
    dict(n_cycles="7"),
    dict(use_fft=1),
    dict(decim=2.0),
    dict(output="avg"),
    dict(freqs=np.array([4.0, 200.0])),
    dict(freqs=np.array([0.5])),          # a wavelet longer than the 1200 samples
])
def test_errors_as_mne(kwargs):
    """MNE's refusals, as ValueError with MNE's message (MNE's own call raises the same)."""
    args = dict(data=DATA, sfreq=SFREQ, freqs=FREQS)
    args.update(kwargs)
    with pytest.raises(ValueError) as theirs:
        mne_tf.tfr_array_morlet(args.pop("data"), verbose=False, **args)
    args = dict(data=DATA, sfreq=SFREQ, freqs=FREQS)
    args.update(kwargs)
    with pytest.raises(ValueError) as ours:
        tfr_array_morlet(args.pop("data"), **args)
    assert str(ours.value).split("(")[0][:40] == str(theirs.value).split("(")[0][:40]


def test_averages_do_not_hold_every_epoch(monkeypatch):
    """The averaged outputs are accumulated over blocks of channels: with a tiny block
    budget each block is one channel, and the result is unchanged."""
    import sftwave.mne._array as smne

    full = tfr_array_morlet(DATA, SFREQ, FREQS, output="avg_power_itc")
    monkeypatch.setattr(smne, "_BLOCK_BYTES", 1)
    assert np.allclose(tfr_array_morlet(DATA, SFREQ, FREQS, output="avg_power_itc"), full,
                       rtol=1e-12, atol=0)


def test_the_readmes_figures_on_mne_conventions():
    """The README's statements: sqrt(2) * cwt(mode='constant') against MNE per row at the
    default tol and at tol=1e-6, and what zero_mean=False changes at 3 and 5 cycles."""
    import sftwave

    rng = np.random.default_rng(0)
    n, sf = 5000, 250.0
    white = rng.standard_normal(n)
    spec = np.fft.rfft(rng.standard_normal(n))
    f = np.fft.rfftfreq(n)
    f[0] = f[1]
    pink = np.fft.irfft(spec / np.sqrt(f), n)
    walk = np.cumsum(rng.standard_normal(n))
    freqs = np.array([4.0, 8.0, 16.0, 32.0, 64.0])

    def row_error(a, b):
        return float((np.sqrt(np.mean(np.abs(a - b) ** 2, -1))
                      / np.sqrt(np.mean(np.abs(b) ** 2, -1))).max())

    diffs = {}
    for name, x in (("white", white), ("pink", pink), ("walk", walk)):
        d = x[None, None]
        mne = mne_tf.tfr_array_morlet(d, sf, freqs, n_cycles=7.0, zero_mean=True,
                                      output="complex", verbose=False)[0, 0]
        default = np.sqrt(2) * sftwave.cwt(x, freqs, sf, xi=7.0, mode="constant")
        tight = np.sqrt(2) * sftwave.cwt(x, freqs, sf, xi=7.0, mode="constant", tol=1e-6)
        assert row_error(default, mne) <= 1e-4
        assert row_error(tight, mne) <= 3e-5
        for nc in (3.0, 5.0):
            a, b = (mne_tf.tfr_array_morlet(d, sf, freqs, n_cycles=nc, zero_mean=zm,
                                            output="power", verbose=False)[0, 0]
                    for zm in (True, False))
            diffs[(name, nc)] = row_error(b, a)
    assert diffs[("white", 3.0)] >= 0.01 and diffs[("pink", 3.0)] >= 0.05
    assert diffs[("walk", 3.0)] >= 0.15
    assert max(diffs[(k, 5.0)] for k in ("white", "pink", "walk")) < 1e-4


def test_wavelet_norms_equal_mne_construction_literally():
    """The norms, Gaussian sums and lengths of MNE's wavelets, all frequencies at once (small
    blocks too), against MNE's own construction written out frequency by frequency."""
    import math

    import sftwave.mne._array as sm

    def literal(sfreq, freqs, n_cycles, zero_mean):
        A, gsum, length = (np.empty(freqs.size) for _ in range(3))
        for i, (f, nc) in enumerate(zip(freqs, n_cycles)):
            sigma_t = nc / (2.0 * math.pi * f)
            t = np.arange(0.0, 5.0 * sigma_t, 1.0 / sfreq)
            t = np.r_[-t[::-1], t[1:]]
            k = math.exp(-2.0 * (math.pi * f * sigma_t) ** 2) if zero_mean else 0.0
            g = np.exp(-(t ** 2) / (2.0 * sigma_t ** 2))
            w = (np.exp(2j * math.pi * f * t) - k) * g
            A[i] = 1.0 / (math.sqrt(0.5) * np.linalg.norm(w))
            gsum[i], length[i] = g.sum(), t.size
        return A, gsum, length

    rng = np.random.default_rng(11)
    for block in (sm._NORM_BLOCK, 40):
        for _ in range(40):
            sfreq = float(rng.choice([100.0, 250.0, 300.3, 1000.0, 2048.0]))
            freqs = rng.uniform(0.5, sfreq / 2, 9)
            n_cycles = rng.uniform(0.3, 15.0, 9)
            for zero_mean in (True, False):
                old = sm._NORM_BLOCK
                sm._NORM_BLOCK = block
                try:
                    got = sm._mne_wavelet_norms(sfreq, freqs, n_cycles, zero_mean)
                finally:
                    sm._NORM_BLOCK = old
                want = literal(sfreq, freqs, n_cycles, zero_mean)
                assert np.array_equal(got[2], want[2])
                # sums in another order: a few units of rounding
                assert np.allclose(got[0], want[0], rtol=1e-13, atol=0)
                assert np.allclose(got[1], want[1], rtol=1e-13, atol=0)
