"""
Synchrosqueezing: sharp ridges of a chirp and two crossing tones
================================================================

A Morlet scalogram spreads each tone over a band of scales.  The
synchrosqueezed transform (:func:`sftwave.synchrosqueeze.ssq_cwt`, ssqueezepy's
``ssq_cwt(x, 'morlet')`` by sftwave) moves every coefficient to the bin of its
instantaneous frequency, taken from the transform by the wavelet's exact time
derivative, so a tone becomes a line one or two bins wide.  The work is done in
blocks of samples: memory stays bounded by the output, whatever the number of
scales times the length.
"""

import matplotlib.pyplot as plt
import numpy as np

import sftwave
from sftwave.synchrosqueeze import squeeze_frequencies, ssq_cwt

fs = 1000.0
t = np.arange(8192) / fs
# a linear chirp from 20 to 180 Hz and a tone falling from 200 to 40 Hz, under noise
chirp = np.cos(2 * np.pi * (20 * t + 10 * t**2))
falling = 0.7 * np.cos(2 * np.pi * (200 * t - 9.8 * t**2))
x = chirp + falling + 0.3 * np.random.default_rng(0).standard_normal(t.size)

freqs = np.geomspace(10.0, 300.0, 200)
W = sftwave.cwt(x, freqs, fs, output="abs")
T = ssq_cwt(x, freqs, fs)                       # the bins: squeeze_frequencies(freqs)
bins = squeeze_frequencies(freqs)

fig, axes = plt.subplots(2, 1, figsize=(8, 6), sharex=True, layout="constrained")
for ax, values, f, title in ((axes[0], W, freqs, "Morlet scalogram |W|"),
                             (axes[1], np.abs(T), bins, "synchrosqueezed |T|")):
    ax.pcolormesh(t, f, values, shading="nearest", cmap="magma",
                  vmax=np.percentile(values, 99.5))
    ax.set_yscale("log")
    ax.set_ylabel("frequency (Hz)")
    ax.set_title(title)
axes[1].plot(t, 20 + 20 * t, "c--", lw=0.8, label="true chirp")
axes[1].plot(t, 200 - 19.6 * t, "w--", lw=0.8, label="true falling tone")
axes[1].legend(loc="upper right", fontsize=8)
axes[1].set_xlabel("time (s)")
plt.show()

# %%
# How sharp: around the chirp's true frequency (within 15 %), the bin that holds
# the most of each column, against the truth, away from the crossing and the
# edges; and the share of those columns' energy in the two bins either side.
keep = (t > 0.5) & (t < 7.5) & (np.abs((20 + 20 * t) - (200 - 19.6 * t)) > 30)
true = (20 + 20 * t)[keep]
band = np.abs(bins[:, None] / true[None, :] - 1) < 0.15
mag = np.where(band, np.abs(T[:, keep]), 0.0)
peak = np.argmax(mag, axis=0)
step = np.log(bins[1] / bins[0])                      # the bins' spacing in log frequency
err = np.abs(np.log(bins[peak] / true)) / step
near = np.abs(np.arange(bins.size)[:, None] - peak[None, :]) <= 2
print(f"chirp: median distance to the true frequency {np.median(err):.2f} bins; "
      f"{(mag**2)[near].sum() / (mag**2).sum():.0%} of its band's energy within 2 bins")
