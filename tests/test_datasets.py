"""sftwave.datasets: the shipped Nino3 series and the synthetic EEG epochs and ECG."""

from __future__ import annotations

import subprocess
import sys
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

import sftwave
from sftwave import datasets
from sftwave.datasets import ecg, eeg_epochs, nino3

ROOT = Path(__file__).resolve().parent.parent


def _spectrum(x: np.ndarray, fs: float) -> tuple[np.ndarray, np.ndarray]:
    """Mean power spectrum over the leading axes (Hann window), and its frequencies."""
    x = x - x.mean(axis=-1, keepdims=True)
    p = np.abs(np.fft.rfft(x * np.hanning(x.shape[-1]), axis=-1)) ** 2
    return np.fft.rfftfreq(x.shape[-1], 1.0 / fs), p.reshape(-1, p.shape[-1]).mean(axis=0)


def _band(f, p, lo, hi):
    return p[(f >= lo) & (f < hi)].mean()


def test_public_names():
    assert sorted(datasets.__all__) == sorted(["nino3", "eeg_epochs", "ecg", "Nino3", "EEGEpochs",
                                               "ECG"])
    assert all(getattr(datasets, name).__doc__ for name in datasets.__all__)


# ----------------------------------------------------------------------------- Nino3


def test_nino3_is_the_shipped_series():
    data = nino3()
    assert isinstance(data, datasets.Nino3)
    assert data.sst.shape == data.time.shape == (504,)
    assert data.sst.dtype == data.time.dtype == np.float64
    assert data.dt == 0.25 and data.fs == 4.0
    assert data.time[0] == 1871.0 and data.time[-1] == 1996.75
    assert np.allclose(np.diff(data.time), 0.25, rtol=0, atol=1e-12)
    text = (resources.files("sftwave.datasets") / "data" / "sst_nino3.dat").read_text()
    assert np.array_equal(data.sst, np.loadtxt(text.splitlines()))
    assert data.sst[:4].tolist() == [-0.15, -0.30, -0.14, -0.41]
    assert abs(data.sst.mean()) < 0.01 and 0.5 < data.sst.std() < 1.0     # an anomaly, in deg C


def test_nino3_names_its_source_and_paper():
    data = nino3()
    for word in ("Torrence", "Compo", "1998", "Bull. Amer. Meteor. Soc.", "79", "61-78"):
        assert word in data.citation
    assert "paos.colorado.edu/research/wavelets" in data.source and "pycwt" in data.source
    assert "1871" in data.source and "degrees C" in data.source


def test_nino3_gives_fresh_arrays():
    a = nino3()
    a.sst[:] = 0.0
    assert nino3().sst[0] == -0.15


def test_the_data_file_is_package_data():
    try:
        import tomllib
    except ModuleNotFoundError:          # Python 3.10
        tomllib = pytest.importorskip("tomli")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["sftwave.datasets"]
    folder = ROOT / "src" / "sftwave" / "datasets"
    shipped = {p.relative_to(folder).as_posix() for pat in patterns for p in folder.glob(pat)}
    assert {"data/sst_nino3.dat", "data/README.md"} <= shipped


# ----------------------------------------------------------------------------- EEG epochs


def test_eeg_epochs_shape_names_and_times():
    eeg = eeg_epochs()
    assert isinstance(eeg, datasets.EEGEpochs)
    assert eeg.data.shape == (20, 8, 1000) and eeg.data.dtype == np.float64
    assert eeg.sfreq == 250.0
    assert eeg.ch_names == ["Fz", "Cz", "Pz", "Oz", "C3", "C4", "O1", "O2"]
    assert eeg.times.shape == (1000,) and eeg.times[0] == -0.2 and eeg.times[50] == 0.0
    assert np.allclose(np.diff(eeg.times), 1 / 250.0)
    assert "synthetic" in eeg.source

    big = eeg_epochs(n_epochs=2, n_channels=23, n_times=300, sfreq=500.0)
    assert big.data.shape == (2, 23, 300) and big.sfreq == 500.0
    assert len(set(big.ch_names)) == 23 and big.ch_names[20:] == ["EEG 021", "EEG 022", "EEG 023"]
    assert big.times[0] == -0.2 and big.times[100] == 0.0


def test_eeg_epochs_are_deterministic():
    a, b = eeg_epochs(seed=3), eeg_epochs(seed=3)
    assert np.array_equal(a.data, b.data)
    assert not np.allclose(a.data, eeg_epochs(seed=4).data)
    assert np.all(np.isfinite(a.data))


def test_eeg_epochs_have_a_dc_offset_per_channel():
    eeg = eeg_epochs(n_epochs=40)
    means = eeg.data.mean(axis=-1)                                   # (epochs, channels)
    offset = means.mean(axis=0)
    assert np.ptp(offset) > 20.0                                     # channels differ
    assert np.all(np.abs(offset) <= 45.0)
    assert np.all(np.abs(means - offset).max(axis=0) < 10.0)         # each the same in every epoch


def test_eeg_epochs_background_alpha_and_evoked_response():
    eeg = eeg_epochs(n_epochs=40)
    f, p = _spectrum(eeg.data, eeg.sfreq)
    assert _band(f, p, 2, 4) > 5 * _band(f, p, 30, 40)               # 1/f background
    names = eeg.ch_names
    f, back = _spectrum(eeg.data[:, names.index("Oz")], eeg.sfreq)
    _, front = _spectrum(eeg.data[:, names.index("Fz")], eeg.sfreq)
    alpha = (f >= 5) & (f <= 30)
    assert 9.0 <= f[alpha][np.argmax(back[alpha])] <= 11.0          # an alpha peak at the back
    assert _band(f, back, 9, 11) > 3 * _band(f, front, 9, 11)        # stronger there than in front

    evoked = eeg.data.mean(axis=0) - eeg.data.mean(axis=(0, 2))[:, None]
    pz = evoked[names.index("Pz")]
    t_peak = eeg.times[np.argmax(pz)]
    assert 0.30 <= t_peak <= 0.40                                    # P3
    assert pz[np.argmin(np.abs(eeg.times - 0.1))] < 0                # N1
    baseline = pz[eeg.times < 0]
    assert pz.max() > 3 * baseline.std()


@pytest.mark.parametrize("kwargs, error, match", [
    ({"n_epochs": 0}, ValueError, "n_epochs must be a positive integer; got 0"),
    ({"n_channels": 2.0}, TypeError, "n_channels must be a positive integer; got 2.0"),
    ({"n_times": -5}, ValueError, "n_times must be a positive integer; got -5"),
    ({"sfreq": 0.0}, ValueError, "sfreq must be a positive finite number; got 0.0"),
    ({"sfreq": "250"}, TypeError, "sfreq must be a real number"),
])
def test_eeg_epochs_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        eeg_epochs(**kwargs)


# ----------------------------------------------------------------------------- ECG


def test_ecg_shape_beats_and_waves():
    e = ecg()
    assert isinstance(e, datasets.ECG)
    assert e.signal.shape == e.time.shape == (3600,) and e.fs == 360.0
    assert e.signal.dtype == np.float64 and np.all(np.isfinite(e.signal))
    assert np.allclose(np.diff(e.time), 1 / 360.0) and e.time[0] == 0.0
    assert "synthetic" in e.source
    rr = np.diff(e.r_peaks) / e.fs
    assert 9 <= e.r_peaks.size <= 11 and np.all(np.diff(e.r_peaks) > 0)
    assert abs(rr.mean() - 1.0) < 0.1 and 0.005 < rr.std() < 0.15   # 60 bpm, with variability
    r = e.signal[e.r_peaks]
    assert np.all((r > 0.8) & (r < 1.2))
    for i in e.r_peaks:                                              # each R is the beat's maximum
        lo, hi = max(i - 100, 0), min(i + 100, e.signal.size)
        assert abs(int(np.argmax(e.signal[lo:hi])) + lo - i) <= 1
    assert e.signal.min() < -0.15                                    # the S wave
    f, p = _spectrum(e.signal, e.fs)
    assert _band(f, p, 5, 30) > 100 * _band(f, p, 100, 180)          # a band-limited signal


def test_ecg_rate_variability_and_noise_follow_the_arguments():
    fast = ecg(duration=30.0, fs=250.0, heart_rate=120.0)
    assert fast.signal.size == 7500 and 58 <= fast.r_peaks.size <= 62
    steady = ecg(duration=20.0, hrv=0.0, noise=0.0)
    rr = np.diff(steady.r_peaks)
    assert rr.max() - rr.min() <= 1                                  # constant rate, to a sample
    assert np.array_equal(ecg(seed=1).signal, ecg(seed=1).signal)
    assert not np.allclose(ecg(seed=1).signal, ecg(seed=2).signal)
    quiet, noisy = ecg(noise=0.0), ecg(noise=0.1)
    assert 0.08 < np.std(noisy.signal - quiet.signal) < 0.12
    assert ecg(duration=0.5).signal.size == 180


@pytest.mark.parametrize("kwargs, error, match", [
    ({"duration": 0.0}, ValueError, "duration must be a positive finite number"),
    ({"fs": -1.0}, ValueError, "fs must be a positive finite number"),
    ({"heart_rate": float("nan")}, ValueError, "heart_rate must be a positive finite number"),
    ({"hrv": -0.1}, ValueError, "hrv must be a non-negative finite number"),
    ({"noise": None}, TypeError, "noise must be a real number"),
])
def test_ecg_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        ecg(**kwargs)


def test_the_datasets_feed_the_transforms():
    e = ecg(duration=4.0)
    power = sftwave.cwt(e.signal, [4.0, 16.0, 64.0], e.fs, output="power")
    assert power.shape == (3, e.signal.size) and np.all(np.isfinite(power))
    data = nino3()
    W = sftwave.cwt(data.sst, [0.25, 0.5], data.fs, mode="constant")
    assert W.shape == (2, 504)


def test_import_sftwave_does_not_load_the_datasets():
    # the datasets need numpy and nothing else: beyond numpy, importing them loads no other package
    code = ("import sys, numpy, sftwave\n"
            "print('sftwave.datasets' in sys.modules)\n"
            "before = set(sys.modules)\n"
            "import sftwave.datasets\n"
            "print(sorted(m for m in set(sys.modules) - before if not m.startswith('sftwave')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded, extra = out.stdout.splitlines()
    assert loaded == "False"
    assert extra == "[]", f"import sftwave.datasets also imported {extra}"
