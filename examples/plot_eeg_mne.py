"""
EEG time-frequency with the MNE drop-in
=======================================

:func:`sftwave.mne.tfr_array_morlet` has MNE's signature, wavelet, zero padding
and outputs: switching from MNE is one import.  Here it computes the induced
power of synthetic EEG epochs (:func:`sftwave.datasets.eeg_epochs`: a 1/f
background, a 10 Hz alpha burst, an evoked response and a DC offset per
channel), and, where MNE is installed, checks it against MNE's own function.
"""

import time

import matplotlib.pyplot as plt
import numpy as np

from sftwave import datasets
from sftwave.mne import tfr_array_morlet  # was: from mne.time_frequency import ...

eeg = datasets.eeg_epochs()  # (epochs, channels, times), microvolts
print(eeg.data.shape, eeg.sfreq, "Hz;", eeg.source)

freqs = np.arange(4.0, 41.0, 1.0)  # n_cycles = freqs / 2: 2 to 20 cycles
t0 = time.perf_counter()
power = tfr_array_morlet(eeg.data, sfreq=eeg.sfreq, freqs=freqs, n_cycles=freqs / 2,
                         output="avg_power")  # (channels, freqs, times)
print(f"sftwave, first call (designs the plans): {time.perf_counter() - t0:.3f} s")
t0 = time.perf_counter()
power = tfr_array_morlet(eeg.data, sfreq=eeg.sfreq, freqs=freqs, n_cycles=freqs / 2,
                         output="avg_power")
print(f"sftwave, second call: {power.shape} in {time.perf_counter() - t0:.3f} s")

# %%
# The average power at the occipital channel ``Oz``, in decibels relative to
# the pre-stimulus baseline: the alpha burst (10 Hz, late in the epoch) and the
# evoked response (low frequencies, 0.1 to 0.4 s).

ch = eeg.ch_names.index("Oz")
base = power[:, :, eeg.times < 0].mean(axis=-1, keepdims=True)
db = 10 * np.log10(power / base)

fig, ax = plt.subplots(figsize=(7, 3.5), layout="constrained")
mesh = ax.pcolormesh(eeg.times, freqs, db[ch], cmap="RdBu_r", vmin=-6, vmax=6, shading="auto")
ax.set(xlabel="time from stimulus (s)", ylabel="frequency (Hz)",
       title=f"{eeg.ch_names[ch]}: average power, dB over baseline")
fig.colorbar(mesh, ax=ax, label="dB")
plt.show()

# %%
# Against MNE
# -----------
# The same call to MNE's function (if MNE is installed) gives the same numbers:
# the rows agree to the accuracy ``sftwave.mne`` documents.  A constant offset
# (here each channel's DC level) tells them apart: MNE's truncated wavelet
# does not sum to exactly zero, so the offset leaks into its weak
# high-frequency rows; sftwave's kernels sum to zero, so removing the offset
# changes its rows by rounding only.

try:
    from mne.time_frequency import tfr_array_morlet as mne_tfr
except ImportError:  # MNE is optional
    mne_tfr = None


def row_error(a, b):
    """Worst relative RMS difference per frequency, over channels and times."""
    return float(np.max(np.sqrt(((a - b) ** 2).mean(axis=(0, 2)) / (b**2).mean(axis=(0, 2)))))


demeaned = eeg.data - eeg.data.mean(axis=-1, keepdims=True)
high = freqs >= 20  # the weak rows, whose wavelets are short enough to see no edge
ours = power[:, high]
ours_dm = tfr_array_morlet(demeaned, eeg.sfreq, freqs[high], n_cycles=freqs[high] / 2,
                           output="avg_power")
print(f"sftwave, offset removed vs kept: {row_error(ours_dm[..., 125:-125], ours[..., 125:-125]):.1e}")
if mne_tfr is not None:
    t0 = time.perf_counter()
    theirs_all = mne_tfr(eeg.data, eeg.sfreq, freqs, n_cycles=freqs / 2, output="avg_power",
                         verbose=False)
    print(f"MNE: {time.perf_counter() - t0:.3f} s; "
          f"sftwave vs MNE, worst row: {row_error(power, theirs_all):.1e}")
    theirs = theirs_all[:, high]
    theirs_dm = mne_tfr(demeaned, eeg.sfreq, freqs[high], n_cycles=freqs[high] / 2,
                        output="avg_power", verbose=False)
    print(f"MNE, offset removed vs kept:     "
          f"{row_error(theirs_dm[..., 125:-125], theirs[..., 125:-125]):.1e}")
