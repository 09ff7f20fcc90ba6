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
    import sftwave.mne as smne

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
