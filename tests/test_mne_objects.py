"""sftwave.mne's object functions against MNE's own, run in the same test.

``compute_tfr`` on Epochs, Evoked and Raw (built with ``mne.EpochsArray``,
``EvokedArray``, ``RawArray``: a bad channel, a stim channel, two conditions,
metadata), ``tfr_morlet`` and ``csd_morlet``: every attribute of MNE's object
but the data compared exactly (``mne.utils.object_diff``, as MNE's own
``__eq__``), the data within the bounds sftwave.mne documents.  And those
bounds at the default ``tol`` on EEG-like epochs and on white noise, every
output.

The bounds (sftwave.mne's docstrings and the guide): power, 'complex' and
'avg_power' within 5e-4 relative RMS per row and every value within 2e-3 of its
row's RMS (measured up to 2.7e-4 and 1.1e-3 at tol=1e-4); the ITC within 1e-3
at every point (measured 3e-4 at its default tol=1e-5); the phase within 1e-4
radians RMS weighted by the power (measured 1.4e-5).
"""

from __future__ import annotations

import numpy as np
import pytest

import sftwave.mne as smne
from sftwave.datasets import eeg_epochs

mne = pytest.importorskip("mne")
pd = pytest.importorskip("pandas")

FREQS = np.array([5.0, 9.0, 16.0, 30.0])


def _row_errors(ours, theirs, output, power=None):
    """(RMS per row, worst point), each as the documented bound measures it."""
    if output == "phase":
        d = np.angle(np.exp(1j * (ours - theirs)))
        rms = np.sqrt(np.sum(power * d ** 2, axis=-1) / np.sum(power, axis=-1))
        return float(rms.max()), 0.0
    diff = np.abs(ours - theirs)
    rms = np.sqrt(np.mean(diff ** 2, axis=-1))
    if output == "itc":
        return float(rms.max()), float(diff.max())
    scale = np.sqrt(np.mean(np.abs(theirs) ** 2, axis=-1))
    return float((rms / scale).max()), float((diff / scale[..., None]).max())


def _assert_within_bounds(ours, theirs, output, power=None):
    rms, worst = _row_errors(ours, theirs, output, power)
    if output == "phase":
        assert rms <= 1e-4
    elif output == "itc":
        assert worst <= 1e-3
    else:
        assert rms <= 5e-4 and worst <= 2e-3


@pytest.fixture(scope="module")
def epochs():
    d = eeg_epochs(n_epochs=6, n_channels=5, n_times=400, seed=3)
    info = mne.create_info(list(d.ch_names) + ["STI"], d.sfreq, ["eeg"] * 5 + ["stim"])
    info["bads"] = [d.ch_names[1]]
    data = np.concatenate([d.data * 1e-6, np.zeros((6, 1, 400))], axis=1)
    events = np.c_[np.arange(6) * 500, np.zeros(6, int), [1, 2, 1, 2, 1, 2]]
    meta = pd.DataFrame({"rt": np.linspace(0.3, 0.8, 6)})
    return mne.EpochsArray(data, info, events=events, event_id={"a": 1, "b": 2},
                           tmin=d.times[0], metadata=meta, verbose=False)


def _same_object(ours, theirs, output):
    """The same type and every attribute but the data equal; the data within the bounds."""
    assert type(ours) is type(theirs)
    mine, anchor = dict(vars(ours)), dict(vars(theirs))
    a, b = mine.pop("_data"), anchor.pop("_data")
    assert mne.utils.object_diff(mine, anchor) == ""
    assert a.shape == b.shape and a.dtype == b.dtype
    _assert_within_bounds(a, b, output)


EPOCHS_CASES = [
    dict(),
    dict(output="complex", decim=3, n_cycles=FREQS / 2),
    dict(average=True, picks=[0, 2, 3], zero_mean=False),
    dict(average=True, return_itc=True, tmin=-0.1, tmax=1.2, decim=3),
]


@pytest.mark.parametrize("kwargs", EPOCHS_CASES, ids=["power", "complex", "avg", "avg_itc"])
def test_epochs_compute_tfr_is_mnes(epochs, kwargs):
    kwargs = {"n_cycles": 4.0, **kwargs}
    ours = smne.compute_tfr(epochs, "morlet", FREQS, **kwargs)
    theirs = epochs.compute_tfr("morlet", FREQS, verbose=False, **kwargs)
    if kwargs.get("return_itc"):
        _same_object(ours[0], theirs[0], "avg_power")
        _same_object(ours[1], theirs[1], "itc")
    else:
        _same_object(ours, theirs, kwargs.get("output", "power"))
    # the bads and the stim channel are left out, as MNE leaves them
    obj = ours[0] if isinstance(ours, tuple) else ours
    assert "Cz" not in obj.ch_names and "STI" not in obj.ch_names


def test_epochs_phase_and_metadata(epochs):
    ours = smne.compute_tfr(epochs["b"], "morlet", FREQS, output="phase", n_cycles=5.0)
    theirs = epochs["b"].compute_tfr("morlet", FREQS, output="phase", n_cycles=5.0,
                                     verbose=False)
    power = epochs["b"].compute_tfr("morlet", FREQS, n_cycles=5.0, verbose=False).data
    _assert_within_bounds(ours.data, theirs.data, "phase", power)
    assert list(ours.event_id) == ["b"] and ours.metadata.equals(theirs.metadata)
    assert np.array_equal(ours.events, theirs.events) and ours.drop_log == theirs.drop_log


@pytest.mark.parametrize("kwargs", [dict(), dict(output="complex", picks="eeg", decim=2),
                                    dict(proj=True, tmin=0.0, zero_mean=False)])
def test_evoked_compute_tfr_is_mnes(epochs, kwargs):
    evoked = epochs.average()
    ours = smne.compute_tfr(evoked, "morlet", FREQS, n_cycles=4.0, **kwargs)
    theirs = evoked.compute_tfr("morlet", FREQS, n_cycles=4.0, verbose=False, **kwargs)
    _same_object(ours, theirs, kwargs.get("output", "power"))


@pytest.mark.parametrize("kwargs", [dict(), dict(decim=slice(1, None, 3), tmax=3.0),
                                    dict(output="complex", reject_by_annotation=False)])
def test_raw_compute_tfr_is_mnes(epochs, kwargs):
    data = np.concatenate(list(epochs.get_data(copy=True)), axis=-1)
    raw = mne.io.RawArray(data, epochs.info, verbose=False)
    ours = smne.compute_tfr(raw, "morlet", FREQS, n_cycles=4.0, **kwargs)
    theirs = raw.compute_tfr("morlet", FREQS, n_cycles=4.0, verbose=False, **kwargs)
    _same_object(ours, theirs, kwargs.get("output", "power"))


def test_tfr_morlet_is_mnes(epochs):
    ours = smne.tfr_morlet(epochs, FREQS, n_cycles=4.0, decim=2)
    theirs = mne.time_frequency.tfr_morlet(epochs, FREQS, n_cycles=4.0, decim=2, verbose=False)
    _same_object(ours[0], theirs[0], "avg_power")
    _same_object(ours[1], theirs[1], "itc")
    evoked = epochs.average()
    ours = smne.tfr_morlet(evoked, FREQS, n_cycles=4.0, return_itc=False)
    theirs = mne.time_frequency.tfr_morlet(evoked, FREQS, n_cycles=4.0, return_itc=False,
                                           verbose=False)
    _same_object(ours, theirs, "power")
    ours = smne.tfr_morlet(epochs, FREQS, 4.0, return_itc=False, average=False, output="complex")
    theirs = mne.time_frequency.tfr_morlet(epochs, FREQS, 4.0, return_itc=False, average=False,
                                           output="complex", verbose=False)
    _same_object(ours, theirs, "complex")


@pytest.mark.parametrize("kwargs", [dict(), dict(tmin=0.0, tmax=1.0, picks=[0, 3], decim=2)])
def test_csd_morlet_is_mnes(epochs, kwargs):
    with pytest.warns(RuntimeWarning, match="baseline corrected"):
        ours = smne.csd_morlet(epochs, FREQS, n_cycles=5.0, **kwargs)
    with pytest.warns(RuntimeWarning, match="baseline corrected"):
        theirs = mne.time_frequency.csd_morlet(epochs, FREQS, n_cycles=5.0, verbose=False,
                                               **kwargs)
    assert type(ours) is type(theirs) and ours.ch_names == theirs.ch_names
    assert (ours.tmin, ours.tmax, ours.n_fft) == (theirs.tmin, theirs.tmax, theirs.n_fft)
    assert np.array_equal(ours.frequencies, theirs.frequencies) and ours.projs == theirs.projs
    for f in FREQS:
        a, b = ours.get_data(f), theirs.get_data(f)
        scale = np.sqrt(np.outer(np.diag(b).real, np.diag(b).real))
        # sftwave.connectivity.csd_array_morlet's documented bound: 1e-4 of sqrt(C_ii C_jj)
        assert np.abs(a - b).max() <= 1e-4 * scale.max()
        assert (np.abs(a - b) <= 1e-4 * scale).all()


def test_csd_morlet_warns_as_mne(epochs):
    with pytest.warns(RuntimeWarning, match="baseline corrected"):
        smne.csd_morlet(epochs, FREQS[:1], n_cycles=5.0)


def test_refusals(epochs):
    with pytest.raises(ValueError, match="sftwave computes Morlet wavelets only"):
        smne.compute_tfr(epochs, "multitaper", FREQS)
    with pytest.raises(ValueError, match="method='stockwell'"):
        smne.compute_tfr(epochs, "stockwell", FREQS, average=True)
    with pytest.raises(TypeError, match="Epochs, Evoked or Raw, got ndarray"):
        smne.compute_tfr(epochs.get_data(), "morlet", FREQS)
    with pytest.raises(TypeError, match="Epochs only, got EvokedArray"):
        smne.compute_tfr(epochs.average(), "morlet", FREQS, average=True)
    with pytest.raises(TypeError, match="time_bandwidth"):
        smne.compute_tfr(epochs, "morlet", FREQS, time_bandwidth=4.0)
    with pytest.raises(TypeError, match="got EvokedArray"):
        smne.csd_morlet(epochs.average(), FREQS)
    # MNE's own refusals, with its messages
    for kwargs in (dict(return_itc=True), dict(average=True, output="complex")):
        with pytest.raises(ValueError) as theirs:
            epochs.compute_tfr("morlet", FREQS, verbose=False, **kwargs)
        with pytest.raises(ValueError) as ours:
            smne.compute_tfr(epochs, "morlet", FREQS, **kwargs)
        assert str(ours.value) == str(theirs.value)
    with pytest.raises(ValueError, match="tmax must be larger than tmin"):
        smne.csd_morlet(epochs, FREQS, tmin=0.5, tmax=0.2)
    for kwargs in (dict(output="itc"), dict(output="avg_power")):
        with pytest.raises(ValueError) as theirs:
            epochs.compute_tfr("morlet", FREQS, verbose=False, **kwargs)
        with pytest.raises(ValueError) as ours:
            smne.compute_tfr(epochs, "morlet", FREQS, **kwargs)
        assert str(ours.value) == str(theirs.value)


@pytest.fixture(scope="module")
def signals():
    d = eeg_epochs(n_epochs=8, n_channels=4, n_times=750, seed=1)
    noise = np.random.default_rng(7).standard_normal((8, 4, 750))
    return {"eeg": d.data, "noise": noise}


@pytest.mark.parametrize("which", ["eeg", "noise"])
@pytest.mark.parametrize("half", [False, True], ids=["n7", "f/2"])
def test_documented_bounds_every_output(signals, which, half):
    """Every output at its default tol, against MNE's on the same data."""
    x = signals[which]
    freqs = np.geomspace(4.0, 100.0, 10)
    nc = freqs / 2 if half else 7.0
    power = mne.time_frequency.tfr_array_morlet(x, 250.0, freqs, nc, output="power")
    for output in smne.OUTPUTS:
        ours = smne.tfr_array_morlet(x, 250.0, freqs, nc, output=output)
        theirs = (power if output == "power" else
                  mne.time_frequency.tfr_array_morlet(x, 250.0, freqs, nc, output=output))
        if output == "avg_power_itc":
            _assert_within_bounds(ours.real, theirs.real, "avg_power")
            _assert_within_bounds(ours.imag, theirs.imag, "itc")
        else:
            _assert_within_bounds(ours, theirs, output, power)
