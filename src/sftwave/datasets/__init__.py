"""Small datasets for the examples: one real series and two synthetic signals, all offline.

* :func:`nino3`: the Nino3 sea-surface temperature anomaly Torrence & Compo
  (1998) analysed, quarterly from 1871 (504 values), shipped with sftwave;
* :func:`eeg_epochs`: synthetic EEG-like epochs (epochs x channels x times, in
  microvolts) with a 1/f background, an alpha burst, an evoked response and a
  DC offset per channel, in the layout MNE's ``tfr_array_morlet`` takes;
* :func:`ecg`: a synthetic ECG-like signal (Gaussian-shaped P, Q, R, S and T
  waves at a heart rate with variability), in millivolts.

The synthetic signals are computed on call from a seed: the same arguments give
the same numbers, on every machine, with nothing to download.  They are built
to look like their namesakes in a scalogram (where the power lies in time and
frequency), not to be physiologically faithful.

This module needs numpy only and is not imported by ``import sftwave``:

>>> from sftwave import datasets
>>> datasets.nino3().sst.shape, datasets.eeg_epochs().data.shape, datasets.ecg().signal.shape
((504,), (20, 8, 1000), (3600,))
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._checks import check_decim, check_positive

__all__ = ["nino3", "eeg_epochs", "ecg", "Nino3", "EEGEpochs", "ECG"]

NINO3_CITATION = ("Torrence, C. and G. P. Compo, 1998: A practical guide to wavelet analysis. "
                  "Bull. Amer. Meteor. Soc., 79, 61-78.")
NINO3_SOURCE = ("Nino3 sea-surface temperature anomaly (degrees C), quarterly, 1871.0 to 1996.75: "
                "the series of Torrence & Compo (1998), as distributed with their wavelet "
                "software (paos.colorado.edu/research/wavelets) and with pycwt (BSD licence), "
                "whose copy sftwave ships byte for byte.")
SYNTHETIC = "synthetic: computed by sftwave.datasets.{name}(seed={seed}); not a recording"


class Nino3(NamedTuple):
    """The Nino3 series: see :func:`nino3`.

    Parameters
    ----------
    time, sst : ndarray
        Time in years and the sea-surface temperature anomaly in degrees C.
    dt : float
        Sampling interval in years.
    source, citation : str
        Where the numbers come from, and the paper to cite.

    See Also
    --------
    nino3 : The function that returns it.

    Examples
    --------
    >>> series = nino3()
    >>> series.sst.shape == series.time.shape, series.fs
    (True, 4.0)
    """

    time: np.ndarray
    """Time of each sample in years (1871.0, 1871.25, ..., 1996.75)."""
    sst: np.ndarray
    """Sea-surface temperature anomaly in degrees C."""
    dt: float
    """Sampling interval in years (0.25: quarterly)."""
    source: str
    """Where the numbers come from."""
    citation: str
    """The paper to cite when they are used."""

    @property
    def fs(self) -> float:
        """Sampling rate in samples per year (4.0), the ``fs`` of :func:`sftwave.cwt`."""
        return 1.0 / self.dt


class EEGEpochs(NamedTuple):
    """Synthetic EEG epochs: see :func:`eeg_epochs`.

    Parameters
    ----------
    data : ndarray
        Shape ``(n_epochs, n_channels, n_times)``, microvolts.
    sfreq : float
        Sampling rate in Hz.
    ch_names : list of str
        One name per channel.
    times : ndarray
        Time of each sample from the stimulus, in seconds.
    source : str
        How the data were made.

    See Also
    --------
    eeg_epochs : The function that returns it.

    Examples
    --------
    >>> epochs = eeg_epochs(n_epochs=2, n_channels=3, n_times=100)
    >>> epochs.data.shape, len(epochs.ch_names), epochs.times.shape
    ((2, 3, 100), 3, (100,))
    """

    data: np.ndarray
    """Shape ``(n_epochs, n_channels, n_times)``, microvolts."""
    sfreq: float
    """Sampling rate in Hz."""
    ch_names: list[str]
    """One name per channel (10-20 system names)."""
    times: np.ndarray
    """Time of each sample from the stimulus, in seconds (from -0.2 s, to the nearest sample)."""
    source: str
    """States that the data are synthetic, and how to make them again."""


class ECG(NamedTuple):
    """A synthetic ECG: see :func:`ecg`.

    Parameters
    ----------
    signal : ndarray
        The ECG in millivolts.
    fs : float
        Sampling rate in Hz.
    time, r_peaks : ndarray
        Time of each sample in seconds, and the sample index of each R peak.
    source : str
        How the signal was made.

    See Also
    --------
    ecg : The function that returns it.

    Examples
    --------
    >>> beat = ecg(duration=5.0)
    >>> beat.signal.shape == beat.time.shape, bool((beat.r_peaks < beat.signal.size).all())
    (True, True)
    """

    signal: np.ndarray
    """The ECG in millivolts."""
    fs: float
    """Sampling rate in Hz."""
    time: np.ndarray
    """Time of each sample in seconds, from 0."""
    r_peaks: np.ndarray
    """Sample index of each R peak (the beats), increasing."""
    source: str
    """States that the signal is synthetic, and how to make it again."""


def nino3() -> Nino3:
    """The Nino3 sea-surface temperature anomaly that Torrence & Compo (1998) analysed.

    Quarterly values from 1871.0 to 1996.75 (504 samples, ``dt = 0.25`` year),
    in degrees C, as distributed with Torrence & Compo's wavelet software and
    with pycwt, read from the copy shipped in ``sftwave/datasets/data/``.

    Returns
    -------
    Nino3
        A named tuple ``(time, sst, dt, source, citation)``: ``time`` in years,
        ``sst`` in degrees C (float64 arrays, fresh on every call), ``dt`` in
        years, the data's ``source`` and the paper's ``citation``; its ``fs``
        property is ``1 / dt`` (4 samples per year).

    See Also
    --------
    Nino3 : What it returns.
    sftwave.analysis.significance : Torrence & Compo's analysis of it.

    References
    ----------
    C. Torrence and G. P. Compo, "A practical guide to wavelet analysis",
    Bull. Amer. Meteor. Soc. 79 (1998), 61-78.

    Examples
    --------
    >>> import numpy as np, sftwave
    >>> from sftwave.datasets import nino3
    >>> data = nino3()
    >>> data.sst.size, data.dt, data.fs, float(data.time[0]), float(data.time[-1])
    (504, 0.25, 4.0, 1871.0, 1996.75)
    >>> data.citation[:17]
    'Torrence, C. and '
    >>> anomaly = (data.sst - data.sst.mean()) / data.sst.std()
    >>> W = sftwave.cwt(anomaly, [1 / 4.0, 1 / 2.0], fs=data.fs)   # periods near 4 and 2 years
    >>> W.shape
    (2, 504)
    """
    # imported here: numpy < 2 does not import it, and the module imports nothing numpy does not
    from importlib import resources

    text = (resources.files(__name__) / "data" / "sst_nino3.dat").read_text(encoding="ascii")
    sst = np.array(text.split(), dtype=np.float64)
    dt = 0.25
    time = 1871.0 + dt * np.arange(sst.size)
    return Nino3(time=time, sst=sst, dt=dt, source=NINO3_SOURCE, citation=NINO3_CITATION)


# 10-20 names, the first eight a small montage from front to back; more channels are "EEG 021"...
_CHANNELS = ("Fz", "Cz", "Pz", "Oz", "C3", "C4", "O1", "O2", "Fp1", "Fp2", "F3", "F4", "F7", "F8",
             "T7", "T8", "P3", "P4", "P7", "P8")
# (alpha, evoked) weight by region: alpha largest at the back, the evoked response centro-parietal
_REGION = {"Fp": (0.1, 0.3), "F": (0.15, 0.6), "C": (0.35, 0.9), "T": (0.3, 0.4), "P": (0.7, 1.0),
           "O": (1.0, 0.5)}
# the evoked response: (latency s, width s, amplitude uV) of N1, P2 and P3
_EVOKED = ((0.10, 0.02, -6.0), (0.20, 0.03, 4.0), (0.35, 0.07, 10.0))


def _weights(name: str) -> tuple[float, float]:
    for prefix in ("Fp", "F", "C", "T", "P", "O"):
        if name.startswith(prefix):
            return _REGION[prefix]
    return 0.5, 0.5


def eeg_epochs(n_epochs: int = 20, n_channels: int = 8, n_times: int = 1000, sfreq: float = 250.0,
               seed: int = 0) -> EEGEpochs:
    """Synthetic EEG-like epochs, in MNE's layout ``(n_epochs, n_channels, n_times)``, microvolts.

    Synthetic, not a recording: each epoch starts 0.2 s (to the nearest
    sample) before a stimulus, which falls on a sample, and is the sum of

    * a 1/f ("pink") background, 10 uV RMS on every channel and epoch,
      independent across channels and epochs;
    * an alpha burst: a 10 Hz oscillation (about 0.3 Hz apart from epoch to
      epoch) under a Gaussian envelope 0.3 s wide at a random time in the
      second half of the epoch, 20 uV at the occipital channels and weaker
      towards the front;
    * an evoked response time-locked to the stimulus (N1 at 100 ms, -6 uV; P2
      at 200 ms, 4 uV; P3 at 350 ms, 10 uV; latencies jittered by 15 ms RMS
      between epochs), largest at the centro-parietal channels;
    * a constant DC offset per channel (between -40 and 40 uV, the same in
      every epoch), as a DC-coupled amplifier records.

    Parameters
    ----------
    n_epochs, n_channels, n_times : int, optional
        The shape of ``data`` (20 epochs, 8 channels, 1000 samples by default).
        Channels are named by the 10-20 system (``Fz``, ``Cz``, ``Pz``,
        ``Oz``, ``C3``, ``C4``, ``O1``, ``O2``, then 12 more); beyond 20
        channels, ``EEG 021``, ``EEG 022``, ... (with region-neutral weights).
    sfreq : float, optional
        Sampling rate in Hz (250).
    seed : int, optional
        Seed of :func:`numpy.random.default_rng`: the same arguments give the
        same array.

    Returns
    -------
    EEGEpochs
        A named tuple ``(data, sfreq, ch_names, times, source)``: ``data``
        float64 of shape ``(n_epochs, n_channels, n_times)`` in microvolts,
        ``times`` in seconds from the stimulus.

    See Also
    --------
    EEGEpochs : What it returns.
    sftwave.mne.tfr_array_morlet : Their time-frequency power.

    Examples
    --------
    >>> import numpy as np
    >>> from sftwave.datasets import eeg_epochs
    >>> eeg = eeg_epochs()
    >>> eeg.data.shape, eeg.sfreq, eeg.ch_names[:4], float(eeg.times[0])
    ((20, 8, 1000), 250.0, ['Fz', 'Cz', 'Pz', 'Oz'], -0.2)
    >>> bool(np.array_equal(eeg.data, eeg_epochs().data))            # deterministic
    True

    With :func:`sftwave.mne.tfr_array_morlet` (MNE's signature), alpha power is
    largest at an occipital channel:

    >>> from sftwave.mne import tfr_array_morlet
    >>> power = tfr_array_morlet(eeg.data, eeg.sfreq, freqs=[6.0, 10.0, 20.0], n_cycles=5.0,
    ...                          output="avg_power")                  # (channels, freqs, times)
    >>> alpha = power[:, 1].mean(axis=-1)
    >>> eeg.ch_names[int(np.argmax(alpha))] in ("O1", "Oz", "O2")
    True
    """
    n_epochs = check_decim(n_epochs, "n_epochs")
    n_channels = check_decim(n_channels, "n_channels")
    n_times = check_decim(n_times, "n_times")
    sfreq = check_positive(sfreq, "sfreq")
    rng = np.random.default_rng(seed)
    names = [_CHANNELS[c] if c < len(_CHANNELS) else f"EEG {c + 1:03d}" for c in range(n_channels)]
    w_alpha, w_evoked = (np.array(w) for w in zip(*(_weights(n) for n in names)))
    times = (np.arange(n_times) - round(0.2 * sfreq)) / sfreq     # the stimulus on a sample
    shape = (n_epochs, n_channels, n_times)

    # 1/f background: white noise shaped to a 1/f power spectrum, 10 uV RMS per series
    spectrum = np.fft.rfft(rng.standard_normal(shape), axis=-1)
    f = np.fft.rfftfreq(n_times, 1.0 / sfreq)
    spectrum[..., 1:] /= np.sqrt(f[1:])
    spectrum[..., 0] = 0.0
    background = np.fft.irfft(spectrum, n_times, axis=-1)
    rms = np.sqrt(np.mean(background ** 2, axis=-1, keepdims=True))
    data = 10.0 * background / np.where(rms > 0, rms, 1.0)

    # alpha burst, one per epoch, in the second half of it
    duration = n_times / sfreq
    centre = times[0] + duration * rng.uniform(0.5, 0.85, n_epochs)
    freq = 10.0 + 0.3 * rng.standard_normal(n_epochs)
    phase = rng.uniform(0.0, 2 * np.pi, n_epochs)
    burst = (np.exp(-0.5 * ((times - centre[:, None]) / 0.3) ** 2)
             * np.cos(2 * np.pi * freq[:, None] * times + phase[:, None]))
    data += 20.0 * w_alpha[:, None] * burst[:, None, :]

    # evoked response, time-locked to the stimulus at t = 0
    jitter = 0.015 * rng.standard_normal(n_epochs)
    evoked = sum((a * np.exp(-0.5 * ((times - (t0 + jitter[:, None])) / width) ** 2)
                  for t0, width, a in _EVOKED), np.zeros_like(times))
    data += w_evoked[:, None] * evoked[:, None, :]

    data += rng.uniform(-40.0, 40.0, n_channels)[:, None]       # DC offset per channel
    return EEGEpochs(data=data, sfreq=sfreq, ch_names=names, times=times,
                     source=SYNTHETIC.format(name="eeg_epochs", seed=seed))


# the waves of one beat: (name, delay from the R peak s, width s, amplitude mV); the T wave's
# delay and width grow with the square root of the RR interval (Bazett's QT scaling)
_WAVES = (("P", -0.20, 0.025, 0.15), ("Q", -0.035, 0.010, -0.12), ("R", 0.0, 0.010, 1.0),
          ("S", 0.035, 0.010, -0.25), ("T", 0.28, 0.055, 0.30))


def ecg(duration: float = 10.0, fs: float = 360.0, heart_rate: float = 60.0, hrv: float = 0.05,
        noise: float = 0.01, seed: int = 0) -> ECG:
    """A synthetic ECG-like signal: Gaussian-shaped P, Q, R, S and T waves at a varying heart rate.

    Synthetic, not a recording (scipy's ``electrocardiogram`` needs a
    download): every beat is the sum of five Gaussian bumps (P 0.15 mV, Q
    -0.12 mV, R 1 mV, S -0.25 mV, T 0.3 mV; the R wave 10 ms wide, the T wave
    280 ms after it at 60 beats per minute, later at slower rates as
    Bazett's QT correction has it).  The RR intervals vary around
    ``60 / heart_rate`` seconds with respiratory sinus arrhythmia (0.25 Hz),
    a Mayer wave (0.1 Hz) and random beat-to-beat changes, of relative size
    ``hrv``; respiration also moves the baseline (0.05 mV) and the R
    amplitude (5 %), and white noise of standard deviation ``noise`` mV is
    added.

    Parameters
    ----------
    duration : float, optional
        Length in seconds (10).
    fs : float, optional
        Sampling rate in Hz (360, as the MIT-BIH recordings); at least about
        100 Hz resolves the QRS complex.
    heart_rate : float, optional
        Mean heart rate in beats per minute (60).
    hrv : float, optional
        Relative variability of the RR intervals (0.05: about 5 %); 0 gives a
        constant rate.
    noise : float, optional
        Standard deviation of the added white noise, in mV (0.01); 0 for none.
    seed : int, optional
        Seed of :func:`numpy.random.default_rng`: the same arguments give the
        same signal.

    Returns
    -------
    ECG
        A named tuple ``(signal, fs, time, r_peaks, source)``: ``signal``
        float64 in millivolts, ``time`` in seconds, ``r_peaks`` the sample
        index of each R peak inside the signal.

    See Also
    --------
    ECG : What it returns.
    sftwave.cwt : Its scalogram.

    Examples
    --------
    >>> import numpy as np, sftwave
    >>> from sftwave.datasets import ecg
    >>> e = ecg()
    >>> e.signal.shape, e.fs, e.r_peaks.size
    ((3600,), 360.0, 10)
    >>> bool(np.all(e.signal[e.r_peaks] > 0.8))                      # the R peaks, about 1 mV
    True
    >>> power = sftwave.cwt(e.signal, [4.0, 16.0, 64.0], e.fs, output="power")
    >>> power.shape
    (3, 3600)
    """
    duration = check_positive(duration, "duration")
    fs = check_positive(fs, "fs")
    heart_rate = check_positive(heart_rate, "heart_rate")
    hrv = check_positive(hrv, "hrv", allow_zero=True)
    noise = check_positive(noise, "noise", allow_zero=True)
    rng = np.random.default_rng(seed)
    n = max(int(round(duration * fs)), 1)
    time = np.arange(n) / fs
    rr0 = 60.0 / heart_rate
    phase_resp, phase_mayer = rng.uniform(0.0, 2 * np.pi, 2)

    def respiration(t: float | np.ndarray) -> Any:
        return np.sin(2 * np.pi * 0.25 * t + phase_resp)

    # beats from one RR interval before the start to one after the end, so that the P and T
    # waves of the beats just outside reach in
    beats, rrs = [], []
    t = -rr0 * rng.uniform(0.5, 1.5)
    while t < time[-1] + 2 * rr0:
        mayer = np.sin(2 * np.pi * 0.1 * t + phase_mayer)
        rr = rr0 * (1.0 + hrv * (0.6 * respiration(t) + 0.4 * mayer + 0.3 * rng.standard_normal()))
        rr = max(rr, 0.25 * rr0)
        beats.append(t)
        rrs.append(rr)
        t += rr
    beats_a, rr_a = np.array(beats), np.array(rrs)

    signal = np.zeros(n)
    qt = np.sqrt(rr_a)                         # Bazett: QT proportional to sqrt(RR in seconds)
    gain = 1.0 + 0.05 * respiration(beats_a)
    for name, delay, width, amp in _WAVES:
        if name == "T":
            centres, widths = beats_a + delay * qt, width * qt
        else:
            centres, widths = beats_a + delay, np.full(beats_a.size, width)
        amps = amp * gain if name == "R" else np.full(beats_a.size, amp)
        for c, w, a in zip(centres, widths, amps):
            lo, hi = np.searchsorted(time, (c - 6 * w, c + 6 * w))
            signal[lo:hi] += a * np.exp(-0.5 * ((time[lo:hi] - c) / w) ** 2)
    signal += 0.05 * respiration(time)
    if noise:
        signal += noise * rng.standard_normal(n)
    inside = (beats_a >= 0) & (beats_a <= time[-1])
    r_peaks = np.minimum(np.round(beats_a[inside] * fs).astype(np.intp), n - 1)
    return ECG(signal=signal, fs=fs, time=time, r_peaks=r_peaks,
               source=SYNTHETIC.format(name="ecg", seed=seed))
